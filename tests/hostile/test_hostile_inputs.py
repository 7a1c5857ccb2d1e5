"""Hostile and broken input, reading side: size bombs refused early, readers within a
memory budget, memory errors named as such, and the attacks defended before (XXE, billion laughs,
deep nesting, path traversal, torn log lines) still defended.

Seeded: ``SEGAGREE_HOSTILE_CASES`` cases per kind (``make fuzz``: 10,000). Work is bounded by
sizes and by the CPU time and address space of a subprocess, never by wall-clock time.
"""

from __future__ import annotations

import json
import random
import zipfile
from pathlib import Path

import pytest
from hostile import (
    HEADER_ROWS,
    STRINGS,
    case_count,
    peak_of_read,
    run_bounded,
    seeded,
    sheet_xml,
    strings_xml,
    write_workbook,
)

from segagree.errors import InputError, SegagreeError
from segagree.files import memory, xlsx_guard
from segagree.formats import read_document, write_document
from segagree.model.native import MAX_META_DEPTH

# --- XLSX size bombs --------------------------------------------------------------------------


def _column(n: int) -> str:
    letters = ""
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(65 + r) + letters
    return letters


def _refused_quickly(path: Path, *words: str) -> str:
    """``convert`` refuses ``path`` with exit 1, a one-line message holding ``words``, within 10 s
    of CPU and 1 GB of memory (beyond, the kernel stops it and the test fails)."""
    out = run_bounded(["convert", str(path), "-o", str(path.with_suffix(".txt"))], memory_mb=1024, cpu_s=10)
    assert out.code == 1, (out.code, out.stderr[-500:])
    assert "Traceback" not in out.stderr and path.name in out.stderr
    for word in words:
        assert word in out.stderr, out.stderr
    assert not path.with_suffix(".txt").exists()
    return out.stderr


def test_workbook_with_a_cell_in_the_far_corner_is_refused(tmp_path: Path) -> None:
    path = write_workbook(
        tmp_path / "corner.xlsx",
        sheet_xml(HEADER_ROWS + '<row r="1048576"><c r="XFD1048576" t="s"><v>2</v></c></row>'),
        strings_xml(STRINGS),
    )
    assert path.stat().st_size < 10_000
    _refused_quickly(path, "rows by", "too large")


def test_workbook_declaring_the_whole_sheet_is_refused(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "dim.xlsx", sheet_xml(HEADER_ROWS, "A1:XFD1048576"), strings_xml(STRINGS))
    _refused_quickly(path, "16,384 columns")


def test_workbook_with_a_50_mb_string_is_refused(tmp_path: Path) -> None:
    path = write_workbook(
        tmp_path / "string.xlsx", sheet_xml(HEADER_ROWS), strings_xml([*STRINGS[:3], "x" * 50_000_000])
    )
    assert path.stat().st_size < 100_000
    _refused_quickly(path, "sharedStrings.xml")


def test_a_long_string_packed_loosely_is_refused_by_its_length(tmp_path: Path) -> None:
    # Stored (no compression): no packing ratio to notice, only the string's own length.
    text = "".join(random.Random(1).choices("abcdefgh ", k=xlsx_guard.MAX_CELL_BYTES + 10))
    path = write_workbook(
        tmp_path / "long.xlsx", sheet_xml(HEADER_ROWS), strings_xml([*STRINGS[:3], text]), stored=True
    )
    with pytest.raises(InputError, match="shared string"):
        xlsx_guard.check_workbook(path)


def test_a_zip_that_unpacks_far_beyond_its_size_is_refused(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "bomb.xlsx", sheet_xml(HEADER_ROWS), strings_xml(STRINGS))
    with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as z, z.open("xl/media/pad.bin", "w") as fh:
        chunk = b"\0" * (1 << 20)
        for _ in range(20):  # 20 MB of zeros pack to some 20 KB
            fh.write(chunk)
    _refused_quickly(path, "times")


def test_a_zip_declaring_more_than_the_limit_unpacked_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_workbook(tmp_path / "big.xlsx", sheet_xml(HEADER_ROWS), strings_xml(STRINGS))
    monkeypatch.setattr(xlsx_guard, "MAX_UNPACKED", 1000)
    with pytest.raises(InputError, match="unpacks to"):
        xlsx_guard.check_workbook(path)


def test_random_far_cells_are_refused_and_near_ones_read(tmp_path: Path) -> None:
    for case, rng in seeded(20):
        far = rng.random() < 0.5
        row = rng.randrange(1_000_001, 1_048_577) if far else rng.randrange(3, 2000)
        col = rng.randrange(1, 16_385) if far else rng.randrange(1, 10)
        ref = f"{_column(col)}{row}"
        dimension = rng.choice([None, f"A1:{ref}"])
        path = write_workbook(
            tmp_path / f"case{case}.xlsx",
            sheet_xml(HEADER_ROWS + f'<row r="{row}"><c r="{ref}" t="s"><v>2</v></c></row>', dimension),
            strings_xml(STRINGS),
        )
        if far:
            with pytest.raises(InputError, match="too large"):
                xlsx_guard.check_workbook(path)
        else:
            xlsx_guard.check_workbook(path)


def test_the_guard_passes_what_segagree_writes(tmp_path: Path) -> None:
    src = tmp_path / "t.txt"
    src.write_text("A: hello there .\nB: yes --\n" * 2000, encoding="utf-8")
    doc = read_document(src)
    out = tmp_path / "t.xlsx"
    write_document(doc, out)
    xlsx_guard.check_workbook(out)
    assert read_document(out).token_texts() == doc.token_texts()


def test_xml_attacks_inside_a_workbook_are_not_expanded(tmp_path: Path) -> None:
    from test_damage_new_formats import LAUGHS

    for name, doctype, ref in (
        ("laughs", "<!DOCTYPE worksheet [" + LAUGHS.decode() + "]>", "&lol9;"),
        ("xxe", '<!DOCTYPE worksheet [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>', "&xxe;"),
    ):
        rows = HEADER_ROWS.replace('<c r="B2" t="s"><v>3</v></c>', f'<c r="B2" t="inlineStr"><is><t>{ref}</t></is></c>')
        path = write_workbook(tmp_path / f"{name}.xlsx", sheet_xml(rows, doctype=doctype), strings_xml(STRINGS))
        try:
            doc = read_document(path)
        except SegagreeError as err:
            assert path.name in str(err) and "\n" not in str(err)
            continue
        text = " ".join(doc.tokens["text"])
        assert "root:" not in text and "lollollol" not in text


# --- CHAT: memory proportional to the input, linear time ---------------------------------------

_CHAT_HEAD = "@UTF8\n@Begin\n@Participants:\tCHI Target_Child\n"


def _chat(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(_CHAT_HEAD + "*CHI:\t" + body + " .\n@End\n", encoding="utf-8")
    return path


def test_chat_60_kb_line_reads_in_little_memory(tmp_path: Path) -> None:
    words = " ".join(f"word{i % 100}" for i in range(9000))  # some 60 KB, 9,000 tokens
    path = _chat(tmp_path, "line.cha", words)
    assert peak_of_read(path) < 200
    doc = read_document(path)
    raw = doc.tokens["chat_raw"]
    assert raw.iat[0].endswith(words + " .") and set(raw.iloc[1:]) == {""}  # the line once
    out = tmp_path / "line.segagree.json"
    write_document(doc, out)
    assert out.stat().st_size < 20 * path.stat().st_size


@pytest.mark.parametrize("unit", ["[ a ", "(( a ", "[% "])
def test_chat_unclosed_brackets_read_in_linear_time(tmp_path: Path, unit: str) -> None:
    # 600 KB: quadratic scanning took 27 s for 300 KB, so four times that is far over the 20 s.
    path = _chat(tmp_path, "brackets.cha", unit * (600_000 // len(unit)))
    out = run_bounded(["convert", str(path), "-o", str(tmp_path / "out.segagree.json")], memory_mb=1536, cpu_s=20)
    assert out.code == 0, out.stderr[-500:]


def test_chat_random_bracket_soup_reads_or_refuses_cleanly(tmp_path: Path) -> None:
    pieces = ["[", "]", "[%", "[/]", "((", "))", "(", ")", "⌈", "⌊", "&=in", "word", "<", ">", "\x15"]
    for case, rng in seeded(30):
        body = " ".join(rng.choice(pieces) for _ in range(rng.randrange(1, 400)))
        path = _chat(tmp_path, f"soup{case}.cha", body)
        try:
            read_document(path)
        except SegagreeError as err:
            assert "\n" not in str(err), (case, err)


# --- every format: budget and memory errors -----------------------------------------------------


def test_a_file_larger_than_memory_allows_is_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "t.txt"
    path.write_text("A: hello there .\n" * 1000, encoding="utf-8")
    monkeypatch.setattr(memory, "free_memory", lambda: path.stat().st_size)  # far below 25x
    with pytest.raises(InputError, match=r"out of memory reading .*t\.txt"):
        read_document(path)


def test_a_memory_error_while_reading_is_reported_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from segagree.formats import text

    path = tmp_path / "t.txt"
    path.write_text("A: hello there .\n", encoding="utf-8")

    def exhausted(*_: object) -> None:
        raise MemoryError

    monkeypatch.setattr(text, "_dubois_units", exhausted)
    with pytest.raises(InputError) as err:
        read_document(path)
    assert "out of memory reading" in str(err.value) and "damaged" not in str(err.value)


def test_a_workbook_read_running_out_of_memory_is_not_called_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pandas as pd

    path = write_workbook(tmp_path / "ok.xlsx", sheet_xml(HEADER_ROWS), strings_xml(STRINGS))
    assert read_document(path).token_texts()

    def exhausted(*_: object, **__: object) -> None:
        raise MemoryError

    monkeypatch.setattr(pd, "read_excel", exhausted)
    with pytest.raises(InputError, match="out of memory reading") as err:
        read_document(path)
    assert "damaged" not in str(err.value)


def test_free_memory_is_known_here() -> None:
    free = memory.free_memory()
    assert free is None or free > 0


def test_a_csv_cell_over_131072_characters_is_read(tmp_path: Path) -> None:
    word = "a" * 200_000
    path = tmp_path / "long.csv"
    path.write_text(f'Speaker,Utterance\nA,"{word} ."\n', encoding="utf-8")
    doc = read_document(path)
    assert doc.token_texts() == {"A": [word]}


def _deep(depth: int) -> object:
    value: object = "x"
    for _ in range(depth):
        value = {"a": value}
    return value


def test_native_json_with_deep_metadata_is_refused_on_read(tmp_path: Path) -> None:
    src = tmp_path / "t.txt"
    src.write_text("A: hello .\n", encoding="utf-8")
    good = tmp_path / "good.segagree.json"
    write_document(read_document(src), good)
    data = json.loads(good.read_text(encoding="utf-8"))
    for depth, readable in ((MAX_META_DEPTH - 1, True), (MAX_META_DEPTH + 1, False), (500, False)):
        data["meta"] = {"deep": _deep(depth)}
        path = tmp_path / f"deep{depth}.segagree.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        if readable:
            doc = read_document(path)
            write_document(doc, tmp_path / "back.segagree.json")  # what reads, writes
            assert read_document(tmp_path / "back.segagree.json").meta == doc.meta
        else:
            with pytest.raises(InputError, match="nested more than"):
                read_document(path)


def test_a_document_with_too_deep_metadata_is_refused_on_write(tmp_path: Path) -> None:
    src = tmp_path / "t.txt"
    src.write_text("A: hello .\n", encoding="utf-8")
    doc = read_document(src)
    doc.meta["deep"] = _deep(500)
    with pytest.raises(SegagreeError, match="nested more than"):
        write_document(doc, tmp_path / "out.segagree.json")
    assert not (tmp_path / "out.segagree.json").exists()


# --- defended before: still defended --------------------------------------------------------


def _xml_sources(tmp_path: Path) -> dict[str, bytes]:
    """A small document written by segagree as ELAN, Transcriber and EXMARaLDA."""
    src = tmp_path / "base.srt"
    src.write_text(
        "".join(f"{i}\n00:00:0{i},000 --> 00:00:0{i},900\nword{i} and more\n\n" for i in range(1, 6)),
        encoding="utf-8",
    )
    doc = read_document(src)
    out = {}
    for ext in (".eaf", ".trs", ".exb"):
        path = tmp_path / f"base{ext}"
        write_document(doc, path)
        out[ext] = path.read_bytes()
    return out


@pytest.mark.parametrize(
    "attack",
    ["xxe-file", "xxe-parameter", "xxe-public", "external-dtd", "billion-laughs", "deep-nesting"],
)
def test_xml_attacks_stay_refused_or_harmless(attack: str, tmp_path: Path) -> None:
    from test_damage_new_formats import LAUGHS, _root_start_end, _with_doctype

    subsets = {
        "xxe-file": (b'<!ENTITY xxe SYSTEM "file:///etc/passwd">', b"&xxe;"),
        "xxe-parameter": (b'<!ENTITY % ext SYSTEM "file:///etc/passwd"> %ext;', b""),
        "xxe-public": (b'<!ENTITY xxe PUBLIC "-//x//x" "http://127.0.0.1:9/x">', b"&xxe;"),
        "billion-laughs": (LAUGHS, b"&lol9;"),
    }
    for ext, raw in _xml_sources(tmp_path).items():
        at = _root_start_end(raw)
        if attack in subsets:
            subset, ref = subsets[attack]
            data = _with_doctype(raw, subset).replace(b"word1", ref + b" word1", 1)
        elif attack == "external-dtd":
            decl_end = raw.index(b"?>") + 2 if raw.lstrip().startswith(b"<?xml") else 0
            data = raw[:decl_end] + b'\n<!DOCTYPE x SYSTEM "file:///etc/passwd">' + raw[decl_end:]
        else:
            data = raw[:at] + b"<x>" * 50_000 + b"</x>" * 50_000 + raw[at:]
        path = tmp_path / f"hostile{ext}"
        path.write_bytes(data)
        out = run_bounded(["convert", str(path), "-o", str(tmp_path / f"out{ext}.segagree.json")], cpu_s=10)
        assert out.code in (0, 1) and "Traceback" not in out.stderr, (ext, out.stderr[-500:])
        if out.code == 0:
            text = (tmp_path / f"out{ext}.segagree.json").read_text(encoding="utf-8")
            assert "root:" not in text and "lollollol" not in text, ext


def test_seeded_damage_of_every_reader_gives_clean_errors(tmp_path: Path) -> None:
    from damage import fuzz_cases

    sources = _xml_sources(tmp_path)
    chat = _chat(tmp_path, "base.cha", "⌊&=in We're here [/] ((laughs)) (.) now")
    sources[".cha"] = chat.read_bytes()
    n = case_count(40)
    for ext, raw in sources.items():
        for case, _, kind, data in fuzz_cases(f"hostile{ext}", [raw], n):
            path = tmp_path / f"damaged{ext}"
            path.write_bytes(data)
            try:
                read_document(path)
            except SegagreeError as err:
                assert "\n" not in str(err) and "Traceback" not in str(err), (ext, case, kind, err)


def test_torn_log_lines_are_skipped_and_whole_ones_kept(tmp_path: Path) -> None:
    from segagree.corpus.results_log import append, load_index

    log = tmp_path / "results.jsonl"
    for case, rng in seeded(50):
        keys = [f"k{i}" for i in range(rng.randrange(1, 6))]
        with log.open("wb") as fh:
            for key in keys:
                append(fh, {"key": key, "ok": True, "compare": {"sf": 0.5}})
            whole = json.dumps({"key": "torn", "ok": True, "compare": {"sf": 1.0}}).encode()
            fh.write(whole[: rng.randrange(1, len(whole))])  # a run killed mid-line
        index = load_index(log)
        assert sorted(index) == sorted(keys), case


# --- the bounds themselves ------------------------------------------------------------------------


def test_the_bounds_stop_a_command_beyond_them(tmp_path: Path) -> None:
    """run_bounded's limits apply to the command: beyond its CPU seconds the kernel stops it, and
    beyond its memory budget the read fails as out of memory (else every bounded test above would
    pass whatever the reader cost)."""
    sample = Path(__file__).resolve().parents[2] / "sample_corpora"
    pair = [str(sample / "garden.ann1.txt"), str(sample / "garden.ann2.txt")]
    busy = run_bounded(["agree", *pair, "--sims", "5000000", "--threads", "1", "-q"], memory_mb=8192, cpu_s=1)
    assert busy.code < 0  # killed by a signal (SIGXCPU, then SIGKILL at the hard limit)
    big = tmp_path / "big.txt"
    big.write_text("A:\t" + "word , " * 400_000 + ".\n", encoding="utf-8")  # 2.8 MB, one unit
    starved = run_bounded(["convert", str(big), "-o", str(tmp_path / "big.segagree.json")], memory_mb=16)
    assert starved.code == 1 and "out of memory" in starved.stderr, starved.stderr[-500:]
    fed = run_bounded(["convert", str(big), "-o", str(tmp_path / "big.segagree.json")], memory_mb=4096, cpu_s=60)
    assert fed.code == 0, fed.stderr[-500:]  # the same command within a budget it fits
