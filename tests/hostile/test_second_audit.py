"""Hostile input, second audit: adjudication that checks the technical cells, readers and writers
linear in what they repeat, the results log, the lock and the configuration checked before use.

Every fixture is written by the test (a few lines); work is bounded by counts and by the CPU time
and address space of a subprocess (:func:`hostile.run_bounded`), never by wall-clock time.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from hostile import run_bounded

from segagree.adjudication.tokens import adjudicate
from segagree.corpus.config import RunConfig
from segagree.corpus.results_log import MAX_FIGURES_CHARS
from segagree.corpus.tasks import run_task
from segagree.errors import SegagreeError
from segagree.formats import read_document
from segagree.outputs.review_workbook import OPS_HEADERS, SCHEME_JSON_LABEL, SETTINGS_JSON_LABEL, write_review_workbook

A_TEXT = "ROSA:\tone two three ,\n\tfour five six .\nBEN:\tseven eight ?\n\tnine ten .\n"
B_TEXT = "ROSA:\tone two ,\n\tthree four five six .\nBEN:\tseven eight nine ten .\n"


def _pair(folder: Path) -> tuple[Path, Path]:
    a, b = folder / "t.a.txt", folder / "t.b.txt"
    a.write_text(A_TEXT, encoding="utf-8")
    b.write_text(B_TEXT, encoding="utf-8")
    return a, b


def _workbook(folder: Path) -> Path:
    a, b = _pair(folder)
    cfg = RunConfig()
    cfg.kappa.enabled = False
    result = run_task("t", "a", "b", str(a), str(b), cfg)
    assert result["ok"], result.get("error")
    return write_review_workbook(folder / "t.xlsx", [result], cfg)


def _edit(path: Path, decision: str, cells: dict[str, object], row: int = 2) -> list[dict[str, object]]:
    """Every row decided ``decision``, ``cells`` (column key: value) written into sheet row ``row``;
    the rows as {column key: value}."""
    wb = openpyxl.load_workbook(path)
    ws = wb["Operations"]
    header = [c.value for c in ws[1]]
    keys = {h: k for k, h in OPS_HEADERS.items()}
    for r in range(2, ws.max_row + 1):
        ws.cell(r, header.index(OPS_HEADERS["decision"]) + 1).value = decision
    for key, value in cells.items():
        ws.cell(row, header.index(OPS_HEADERS[key]) + 1).value = value
    wb.save(path)
    return [
        {keys[h]: ws.cell(r, i + 1).value for i, h in enumerate(header) if h in keys} for r in range(2, ws.max_row + 1)
    ]


# --- 1. adjudication checks the technical cells against the recomputed comparison -----------


def test_all_b_reproduces_b_and_an_edited_b_boundary_is_refused(tmp_path: Path) -> None:
    wb = _workbook(tmp_path)
    _edit(wb, "B", {})
    adjudicate(wb, tmp_path / "gold.txt")
    gold = read_document(tmp_path / "gold.txt").layer("iu").boundaries
    assert (gold == read_document(tmp_path / "t.b.txt").layer("iu").boundaries).all()

    _edit(wb, "B", {"type_b": "?", "position_b_in_a": 3})
    out = run_bounded(["adjudicate", str(wb), "-o", str(tmp_path / "gold2.txt")], memory_mb=1024, cpu_s=20)
    assert out.code == 1, (out.code, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr and "t.xlsx" in out.stderr
    assert "'Operations' row 2" in out.stderr and OPS_HEADERS["type_b"] in out.stderr
    assert OPS_HEADERS["position_b_in_a"] in out.stderr
    assert not (tmp_path / "gold2.txt").exists()


@pytest.mark.parametrize("key", ["speaker", "op", "type_a", "span_a_to"])
def test_any_edited_technical_cell_is_refused(tmp_path: Path, key: str) -> None:
    wb = _workbook(tmp_path)
    rows = _edit(wb, "A", {})
    value: dict[str, object] = {
        "speaker": "BEN" if rows[0]["speaker"] != "BEN" else "ROSA",
        "op": "match",
        "type_a": "," if rows[0]["type_a"] != "," else ".",
    }
    value = value.get(key, int(rows[0]["position_a"] or 0) + 1)  # type: ignore[call-overload]
    _edit(wb, "A", {key: value})
    with pytest.raises(SegagreeError, match=rf"'Operations' row 2 \(row id 1\): {OPS_HEADERS[key]}"):
        adjudicate(wb, tmp_path / "gold.txt")


def test_a_row_without_id_must_be_an_operation(tmp_path: Path) -> None:
    wb = _workbook(tmp_path)
    _edit(wb, "B", {"row_id": None, "position_b_in_a": 3, "type_b": "?"})
    with pytest.raises(SegagreeError, match=r"'Operations' row 2 \(no row id\) is not an operation"):
        adjudicate(wb, tmp_path / "gold.txt")


def _decisions(wb: Path, rows: list[dict[str, object]]) -> Path:
    book = openpyxl.load_workbook(wb)
    about_rows = [[c.value for c in row] for row in book["About"].iter_rows()]
    about = {r[0]: r[1] for r in about_rows if r and r[0]}
    head = next(i for i, r in enumerate(about_rows) if r[:2] == ["sheet", "annotator_a"])
    source = {k: v for k, v in zip(about_rows[head], about_rows[head + 1], strict=False) if k}
    data = {
        "format": "segagree review decisions",
        "format_version": 1,
        "kind": "tokens",
        "text": "t",
        "sheet": "Operations",
        "source": source,
        "settings": json.loads(about[SETTINGS_JSON_LABEL]),
        "scheme": json.loads(about[SCHEME_JSON_LABEL]),
        "rows": rows,
    }
    path = wb.with_suffix(".decisions.json")
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_decisions_file_with_an_edited_b_boundary_is_refused(tmp_path: Path) -> None:
    wb = _workbook(tmp_path)
    rows = _edit(wb, "B", {})
    path = _decisions(wb, rows)
    assert adjudicate(path, tmp_path / "gold.txt").applied["B"] == len(rows)
    rows[0] = {**rows[0], "type_b": "?", "position_b_in_a": 3}
    path = _decisions(wb, rows)
    with pytest.raises(SegagreeError, match=r"row 2 \(row id 1\): B boundary is '\?'"):
        adjudicate(path, tmp_path / "gold2.txt")
    assert not (tmp_path / "gold2.txt").exists()


# --- 2. EXMARaLDA tiers of one speaker and category: linear, the names unchanged ---------------


def _exb(path: Path, tiers: list[tuple[str | None, str]], table: list[str]) -> Path:
    """A basic transcription with one event per tier; ``tiers``: (speaker id or None, category)."""
    speakers = "".join(f'<speaker id="{s}"><abbreviation>{s.upper()}</abbreviation></speaker>' for s in table)
    body = "".join(
        f'<tier id="TIE{k}" {f"speaker={chr(34)}{s}{chr(34)} " if s else ""}category="{c}" type="t">'
        f'<event start="T0" end="T1">w{k} .</event></tier>'
        for k, (s, c) in enumerate(tiers)
    )
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?><basic-transcription><head><speakertable>'
        f'{speakers}</speakertable></head><basic-body><common-timeline><tli id="T0" time="0"/>'
        f'<tli id="T1" time="1"/></common-timeline>{body}</basic-body></basic-transcription>',
        encoding="utf-8",
    )
    return path


def _names_as_before(tiers: list[tuple[str | None, str]], table: list[str]) -> list[str]:
    """The tier names as the reader gave them before (the quadratic search, kept as the reference)."""
    name_of = {s: s.upper() for s in table}
    taken: dict[str, str] = {}
    for k, (spk, cat) in enumerate(tiers):
        if spk:
            name = name_of[spk]
            if name in taken.values():
                name = f"{name} [{cat or f'TIE{k}'}]"
        else:
            name = cat.strip() or f"TIE{k}"
        while name in taken.values() or (name in name_of.values() and not spk):
            name += "_"
        taken[f"TIE{k}"] = name
    return list(taken.values())


def test_exmaralda_tier_names_match_the_former_naming(tmp_path: Path) -> None:
    import random

    for case in range(30):
        rng = random.Random(case)
        table = ["a", "b"]
        tiers = [
            (rng.choice(["a", "b", None]), rng.choice(["v", "A", "B", "A_", "v_", "A [v]"]))
            for _ in range(rng.randint(1, 12))
        ]
        doc = read_document(_exb(tmp_path / f"c{case}.exb", tiers, table))
        assert list(doc.meta["exb"]["tier_speakers"].values()) == _names_as_before(tiers, table), tiers


def test_exmaralda_3000_tiers_of_one_speaker_are_read_in_bounded_time(tmp_path: Path) -> None:
    path = _exb(tmp_path / "many.exb", [("a", "v")] * 3000, ["a"])
    out = run_bounded(["convert", str(path), "-o", str(tmp_path / "many.txt")], memory_mb=1024, cpu_s=20)
    assert out.code == 0, out.stderr[-500:]


# --- 9. a CSV header of many columns: linear --------------------------------------------------


def test_csv_with_100000_columns_is_read_in_bounded_time(tmp_path: Path) -> None:
    path = tmp_path / "wide.csv"
    header = ["Speaker", "Utterance", *(f"c{k}" for k in range(100_000))]
    path.write_text(",".join(header) + "\n" + ",".join(["A", "hello ."] + ["x"] * 100_000) + "\n", encoding="utf-8")
    out = run_bounded(["convert", str(path), "-o", str(tmp_path / "wide.txt")], memory_mb=1024, cpu_s=20)
    assert "Traceback" not in out.stderr and out.code in (0, 1), out.stderr[-500:]
    dup = tmp_path / "dup.csv"
    dup.write_text(",".join([*header, "c7"]) + "\n", encoding="utf-8")
    out = run_bounded(["convert", str(dup), "-o", str(tmp_path / "dup.txt")], memory_mb=1024, cpu_s=20)
    assert out.code == 1 and "duplicate column names ['c7']" in out.stderr, out.stderr[-500:]


# --- 3. the results log: values bounded before they are built, a bad line rescored -------------


def _corpus(folder: Path, texts: int = 2) -> Path:
    folder.mkdir()
    for k in range(texts):
        (folder / f"t{k}.a.txt").write_text(A_TEXT, encoding="utf-8")
        (folder / f"t{k}.b.txt").write_text(B_TEXT, encoding="utf-8")
    return folder


def _damage(record: dict[str, object], kind: str) -> dict[str, object]:
    bomb = {"§": "nd", "dtype": "|S1000000000", "shape": [3], "data": ["a", "b", "c"]}
    if kind == "dtype":
        return {**record, "statistics": {"b": bomb}}
    if kind == "shape":
        return {**record, "statistics": {"b": {"§": "nd", "dtype": "<f8", "shape": [10**9, 10**9], "data": [1.0]}}}
    if kind == "figures":  # 1.5 times the bound (written "1, 1, ..."): refused by its size alone
        return {**record, "figures": {"agreement": [{"agree": [1] * (MAX_FIGURES_CHARS // 2)}]}}
    if kind == "compare":
        return {**record, "compare": 5}
    if kind == "fraction":
        return {**record, "statistics": {"b": {"§": "frac", "n": 1, "d": 0}}}
    if kind == "class":
        return {
            **record,
            "statistics": {"b": {"§": "dc", "cls": "segagree.metrics.boundary.stats:nothing", "fields": {}}},
        }
    if kind == "deep":
        return {**record, "statistics": {"b": "DEEP"}}  # written as 100,000 nested lists
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["dtype", "shape", "figures", "compare", "fraction", "class", "deep"])
def test_a_damaged_log_line_is_skipped_and_its_task_scored_again(tmp_path: Path, kind: str) -> None:
    corpus, out = _corpus(tmp_path / "c"), tmp_path / "out"
    first = run_bounded(["run", str(corpus), "-o", str(out), "--no-report", "--no-workbooks"], cpu_s=60)
    assert first.code == 0, first.stderr[-500:]
    log = out / "results.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    lines[0] = json.dumps(_damage(record, kind)).replace('"DEEP"', "[" * 100_000 + "1" + "]" * 100_000)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    again = run_bounded(["run", str(corpus), "-o", str(out), "--no-report", "--no-workbooks"], memory_mb=1024, cpu_s=30)
    assert again.code == 0, (again.code, again.stderr[-800:])
    said = again.stdout + again.stderr
    assert "Traceback" not in said and "unexpected failure" not in said
    assert f"{log}: line 1 skipped" in said and "--fresh" in said, said[-800:]
    assert "1 pair scored, 1 reused" in said, said[-800:]
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert "NaN" not in json.dumps(summary) and summary


def test_decode_refuses_what_encode_never_writes() -> None:
    import numpy as np

    from segagree.scoring.stats_codec import decode, encode

    value = {"x": np.arange(6, dtype=float).reshape(2, 3), ("a", 1): (1, {2})}
    back = decode(json.loads(json.dumps(encode(value))))
    assert np.array_equal(back["x"], value["x"]) and back[("a", 1)] == (1, {2})
    for bad in (
        {"§": "nd", "dtype": "|S1000000000", "shape": [3], "data": [1, 2, 3]},
        {"§": "nd", "dtype": "O", "shape": [1], "data": [1]},
        {"§": "nd", "dtype": "<f8", "shape": [2, 2], "data": [1.0]},
        {"§": "nd", "dtype": "<f8", "shape": [-1], "data": [1.0]},
        {"§": "map", "items": [[{"a": 1}, 2]]},
        {"§": "frac", "n": 1, "d": 0},
        {"§": "what"},
    ):
        with pytest.raises(ValueError):
            decode(bad)


def _depth_within_as_before(line: bytes, limit: int) -> bool:
    """The former byte-by-byte scan of a log line's nesting (strings skipped)."""
    depth, in_string, escaped = 0, False, False
    for byte in line:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > limit:
                return False
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return True


def test_the_nesting_check_is_the_former_scan_on_random_lines() -> None:
    import random

    from segagree.corpus.results_log import _DEPTH_CHUNK, _depth_within

    # quotes, backslashes and brackets in every order: unclosed strings, escapes at the end,
    # brackets inside strings; depth limits around what the lines reach
    for case in range(3000):
        rng = random.Random(case)
        line = bytes(rng.choice(b'[]{}"\\a\n') for _ in range(rng.randint(0, 60)))
        limit = rng.randint(0, 6)
        assert _depth_within(line, limit) == _depth_within_as_before(line, limit), (line, limit)
    # a line past one chunk of brackets, its deepest point in the second chunk
    deep = b"[]" * _DEPTH_CHUNK + b"[" * 65 + b'"]]"' + b"]" * 65
    assert _depth_within(deep, 64) is False and _depth_within(deep, 65) is True


# --- 5, 13. the lock: an atomic takeover of a stale lock, process ids checked ------------------


def _dead_pid() -> int:
    import subprocess

    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def _starter(outdir: str, start: object, done: object, results: object) -> None:
    from segagree.corpus.lock import RunLocked, acquire, release

    start.wait()  # type: ignore[attr-defined]
    try:
        path = acquire(Path(outdir))
    except RunLocked:
        results.put("locked")  # type: ignore[attr-defined]
        done.wait()  # type: ignore[attr-defined]
        return
    results.put("took")  # type: ignore[attr-defined]
    done.wait()  # type: ignore[attr-defined]  # holds the lock until every starter has tried
    release(path)


def test_one_of_several_starters_takes_over_a_stale_lock(tmp_path: Path) -> None:
    import multiprocessing
    import socket

    from segagree.corpus.lock import LOCK_NAME

    ctx = multiprocessing.get_context("fork")
    starters = 6
    for round_ in range(15):
        outdir = tmp_path / f"r{round_}"
        outdir.mkdir()
        (outdir / LOCK_NAME).write_text(
            json.dumps({"pid": _dead_pid(), "host": socket.gethostname()}), encoding="utf-8"
        )
        start, done, results = ctx.Barrier(starters), ctx.Barrier(starters), ctx.Queue()
        procs = [ctx.Process(target=_starter, args=(str(outdir), start, done, results)) for _ in range(starters)]
        for p in procs:
            p.start()
        outcomes = sorted(results.get(timeout=60) for _ in range(starters))
        for p in procs:
            p.join()
        assert outcomes.count("took") == 1, (round_, outcomes)
        assert not (outdir / LOCK_NAME).exists() and not (outdir / (LOCK_NAME + ".takeover")).exists()


@pytest.mark.parametrize("pid", [0, -1, 2**66, "12", True, None])
def test_a_lock_with_an_impossible_process_id_names_the_file(tmp_path: Path, pid: object) -> None:
    import socket

    from segagree.corpus.lock import LOCK_NAME, RunLocked, acquire

    (tmp_path / LOCK_NAME).write_text(json.dumps({"pid": pid, "host": socket.gethostname()}), encoding="utf-8")
    with pytest.raises(RunLocked, match=rf"remove {tmp_path / LOCK_NAME}"):
        acquire(tmp_path)


def test_a_lock_of_a_live_process_says_how_to_remove_it(tmp_path: Path) -> None:
    import os
    import socket

    from segagree.corpus.lock import LOCK_NAME

    (tmp_path / "out").mkdir()
    lock = tmp_path / "out" / LOCK_NAME
    lock.write_text(json.dumps({"pid": os.getppid(), "host": socket.gethostname()}), encoding="utf-8")
    corpus = _corpus(tmp_path / "c", 1)
    out = run_bounded(["run", str(corpus), "-o", str(tmp_path / "out"), "--no-report"], cpu_s=20)
    assert out.code == 1 and f"remove {lock}" in out.stderr, out.stderr[-500:]


# --- 4, 16. decisions files: the scheme's types, size, nesting, numbers and encodings bounded --


def _decisions_data(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    wb = _workbook(tmp_path)
    rows = _edit(wb, "B", {})
    path = _decisions(wb, rows)
    return path, json.loads(path.read_text(encoding="utf-8"))


def _refused(path: Path, tmp_path: Path, *words: str, memory_mb: int = 1024) -> str:
    out = run_bounded(["adjudicate", str(path), "-o", str(tmp_path / "gold.txt")], memory_mb=memory_mb, cpu_s=20)
    assert out.code == 1, (out.code, out.stderr[-800:])
    assert "Traceback" not in out.stderr and "unexpected failure" not in out.stderr
    assert path.name in out.stderr, out.stderr[-800:]
    for word in words:
        assert word in out.stderr, out.stderr[-800:]
    assert not (tmp_path / "gold.txt").exists()
    return out.stderr


def test_a_scheme_of_24000_types_is_refused_before_its_matrix(tmp_path: Path) -> None:
    path, data = _decisions_data(tmp_path)
    data["scheme"] = {**data["scheme"], "types": [{"symbol": f"t{k}"} for k in range(24_000)]}  # type: ignore[dict-item]
    path.write_text(json.dumps(data), encoding="utf-8")
    said = _refused(path, tmp_path, "24,000 boundary types", memory_mb=512)
    assert len(said) < 600 and "t23999" not in said


def test_an_unknown_symbol_message_lists_a_few_symbols(tmp_path: Path) -> None:
    from segagree.model import scheme_from_dict
    from segagree.model.scheme import SchemeError

    types = [{"symbol": f"t{k}"} for k in range(900)]
    with pytest.raises(SchemeError) as err:
        scheme_from_dict({"types": types, "similarity": {"zz": {"t1": 0.5}}})
    assert len(str(err.value)) < 600 and "881 more" in str(err.value)  # 901 symbols with none, 20 shown


@pytest.mark.parametrize("kind", ["deep", "row id", "utf-16", "utf-16 bom", "big"])
def test_damaged_decisions_files_are_refused_or_read(tmp_path: Path, kind: str) -> None:
    path, data = _decisions_data(tmp_path)
    text = json.dumps(data)
    if kind == "deep":
        path.write_text(text[:-1] + ', "x": ' + "[" * 200_000 + "]" * 200_000 + "}", encoding="utf-8")
        _refused(path, tmp_path, "nested deeper")
    elif kind == "row id":
        path.write_text(text.replace('"row_id": 1,', '"row_id": 1' + "0" * 5000 + ","), encoding="utf-8")
        _refused(path, tmp_path, "cannot read the decisions file")
        path.write_text(text.replace('"row_id": 1,', '"row_id": 1' + "0" * 400 + ","), encoding="utf-8")
        _refused(path, tmp_path, "row id must be a token index")
    elif kind.startswith("utf-16"):
        path.write_bytes(text.encode("utf-16" if kind.endswith("bom") else "utf-16-le"))
        out = run_bounded(["adjudicate", str(path), "-o", str(tmp_path / "gold.txt")], cpu_s=20)
        assert out.code == 0, out.stderr[-500:]
        assert read_document(tmp_path / "gold.txt").layer("iu").boundaries.tolist() == (
            read_document(tmp_path / "t.b.txt").layer("iu").boundaries.tolist()
        )
    else:
        from segagree.adjudication import decisions

        with path.open("ab") as fh:
            fh.truncate(decisions.MAX_DECISIONS_BYTES + 1)  # sparse: no disk taken
        _refused(path, tmp_path, "MB")


def test_no_space_left_names_the_gold_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from segagree.adjudication import tokens

    path, _ = _decisions_data(tmp_path)

    def full(*_: object, **__: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tokens, "write_document", full)
    with pytest.raises(SegagreeError, match="No space left on device") as err:
        adjudicate(path, tmp_path / "gold.txt")
    assert "gold.txt" in str(err.value)


# --- 6. time review: annotators named like a decision word are refused -------------------------


@pytest.mark.parametrize("name", ["none", "edit", "None", " EDIT "])
def test_time_review_refuses_an_annotator_named_like_a_decision(tmp_path: Path, name: str) -> None:
    from segagree.adjudication.time import adjudicate_time
    from segagree.errors import UsageError
    from segagree.outputs.time_review import write_time_review

    with pytest.raises(UsageError, match=rf"annotator '{name}' has the name of a decision word") as err:
        write_time_review(tmp_path / "r.xlsx", [], [name, "b"], {})
    assert "r.xlsx" in str(err.value) and not (tmp_path / "r.xlsx").exists()
    row = {"group": 1, "speaker": "S", "kind": "match", "decision": "none", "gold": None, "comment": ""}
    row["units"] = {name: {"start": 0.0, "end": 1.0, "category": "x", "text": "x"}, "b": None}
    decisions = {
        "format": "segagree review decisions",
        "format_version": 1,
        "kind": "time",
        "annotators": [name, "b"],
        "rows": [row],
    }
    path = tmp_path / "r.decisions.json"
    path.write_text(json.dumps(decisions), encoding="utf-8")
    with pytest.raises(UsageError, match="decision word") as err:
        adjudicate_time(path, tmp_path / "gold.eaf")
    assert "r.decisions.json" in str(err.value) and not (tmp_path / "gold.eaf").exists()


# --- 7. segagree.toml: every value checked by type and range, naming the key ------------------


@pytest.mark.parametrize(
    ("toml", "key"),
    [
        ('[kappa]\nenabled = "false"\n', "[kappa] enabled"),
        ('align = "no"\n', "align"),
        ("max_mismatch = nan\n", "max_mismatch"),
        ("max_mismatch = -5.0\n", "max_mismatch"),
        ('[kappa]\nsims = "1000"\n', "[kappa] sims"),
        ("[kappa]\nseed = 1e300\n", "[kappa] seed"),
        ('speakers = ["A", "B"]\n', "speakers"),
        ('encoding = "rot13"\n', "encoding"),
        ('encoding = "no-such-codec"\n', "encoding"),
        ("metrics = [1, 2]\n", "metrics"),
        ("kappa = 3\n", "kappa"),
    ],
)
def test_config_values_are_checked_by_type_and_range(tmp_path: Path, toml: str, key: str) -> None:
    corpus = _corpus(tmp_path / "c", 1)
    (corpus / "segagree.toml").write_text(toml, encoding="utf-8")
    out = run_bounded(["run", str(corpus), "-o", str(tmp_path / "out"), "--no-report"], cpu_s=20)
    assert out.code == 1, (out.code, out.stderr[-500:])
    assert "Traceback" not in out.stderr and "unexpected failure" not in out.stderr
    assert "segagree.toml" in out.stderr and f"{key} must be" in out.stderr, out.stderr[-500:]
    assert not (tmp_path / "out" / "summary.json").exists()


def test_a_utf16_config_is_read(tmp_path: Path) -> None:
    from segagree.corpus.config import load_config

    corpus = _corpus(tmp_path / "c", 1)
    (corpus / "segagree.toml").write_text("[kappa]\nenabled = false\nsims = 7\n", encoding="utf-16")
    config = load_config(None, corpus)
    assert config.kappa.enabled is False and config.kappa.sims == 7
    (corpus / "segagree.toml").write_bytes("align = false\n".encode("utf-16-le"))  # no byte order mark
    with pytest.raises(SegagreeError, match="not UTF-8"):
        load_config(None, corpus)


# --- 8. no output written through a link; 12. a killed writer's temporary files removed ----------


def test_a_results_log_that_is_a_link_is_refused(tmp_path: Path) -> None:
    corpus, out = _corpus(tmp_path / "c", 1), tmp_path / "out"
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("precious\n", encoding="utf-8")
    out.mkdir()
    (out / "results.jsonl").symlink_to(elsewhere)
    done = run_bounded(["run", str(corpus), "-o", str(out), "--no-report", "--no-workbooks"], cpu_s=30)
    assert done.code == 1 and "results.jsonl" in done.stderr and "symbolic link" in done.stderr, done.stderr[-500:]
    assert elsewhere.read_text(encoding="utf-8") == "precious\n"
    fresh = run_bounded(["run", str(corpus), "-o", str(out), "--no-report", "--no-workbooks", "--fresh"], cpu_s=30)
    assert fresh.code == 0, fresh.stderr[-500:]
    assert elsewhere.read_text(encoding="utf-8") == "precious\n"
    assert not (out / "results.jsonl").is_symlink() and (out / "results.jsonl").stat().st_size


def test_an_output_that_is_a_link_is_replaced_not_written_through(tmp_path: Path) -> None:
    corpus, out = _corpus(tmp_path / "c", 1), tmp_path / "out"
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("precious\n", encoding="utf-8")
    out.mkdir()
    (out / "summary.csv").symlink_to(elsewhere)
    done = run_bounded(["run", str(corpus), "-o", str(out), "--no-report", "--no-workbooks"], cpu_s=30)
    assert done.code == 0, done.stderr[-500:]
    assert elsewhere.read_text(encoding="utf-8") == "precious\n" and not (out / "summary.csv").is_symlink()


def test_temporary_files_of_a_killed_run_are_removed_and_only_those(tmp_path: Path) -> None:
    corpus, out = _corpus(tmp_path / "c", 1), tmp_path / "out"
    (out / "review").mkdir(parents=True)
    left = [out / ".summary.tmp-ab12cd_9.csv", out / "review" / ".t0.tmp-zz99yy00.xlsx"]
    kept = [out / "notes.tmp-ab12cd_9.csv", out / ".summary.tmp-short.csv", out / "review" / "mine.xlsx"]
    for path in left + kept:
        path.write_text("x", encoding="utf-8")
    link = out / ".link.tmp-abcdefgh.csv"
    link.symlink_to(tmp_path / "c" / "t0.a.txt")
    done = run_bounded(["run", str(corpus), "-o", str(out), "--no-report"], cpu_s=30)
    assert done.code == 0, done.stderr[-500:]
    assert not any(p.exists() for p in left) and all(p.exists() for p in kept) and link.is_symlink()
    assert (tmp_path / "c" / "t0.a.txt").read_text(encoding="utf-8") == A_TEXT


def test_convert_removes_its_own_stale_temporary_file(tmp_path: Path) -> None:
    import os

    a, _ = _pair(tmp_path)
    stale, young, other = (
        tmp_path / ".out.tmp-abcdefgh.txt",
        tmp_path / ".out.tmp-12345678.txt",
        tmp_path / ".x.tmp-abcdefgh.txt",
    )
    for path in (stale, young, other):
        path.write_text("x", encoding="utf-8")
    os.utime(stale, (1_000_000_000, 1_000_000_000))
    os.utime(other, (1_000_000_000, 1_000_000_000))
    done = run_bounded(["convert", str(a), "-o", str(tmp_path / "out.txt")], cpu_s=20)
    assert done.code == 0, done.stderr[-500:]
    assert not stale.exists() and young.exists() and other.exists()


# --- 15. a Content-Security-Policy on the report and the text pages -----------------------------


def _policy(page: str) -> dict[str, list[str]]:
    import re

    found = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page)
    assert len(found) == 1, found
    head_end = page.index("</head>") if "</head>" in page else page.index("<body")
    assert page.index("Content-Security-Policy") < head_end
    return {d.split()[0]: d.split()[1:] for d in (p.strip() for p in found[0].split(";")) if d}


@pytest.mark.parametrize("review_pages", [False, True])
def test_report_and_text_pages_carry_a_policy_their_content_fits(tmp_path: Path, review_pages: bool) -> None:
    import re

    corpus, out = _corpus(tmp_path / "c", 1), tmp_path / "out"
    args = ["run", str(corpus), "-o", str(out), "--no-workbooks", *(["--review-pages"] if review_pages else [])]
    done = run_bounded(args, cpu_s=60)
    assert done.code == 0, done.stderr[-500:]
    pages = [out / "report.html", *sorted((out / "texts").glob("*.html"))]
    assert len(pages) == 2
    for path in pages:
        page = path.read_text(encoding="utf-8")
        policy = _policy(page)
        assert policy["default-src"] == ["'none'"] and "connect-src" not in policy
        assert policy["script-src"] == ["'unsafe-inline'"]  # no script from anywhere
        # what the page holds is what the policy lets it use: inline scripts and styles only,
        # images from the page's folder or data, no stylesheet or script files, nothing remote
        assert not re.search(r"<script[^>]*\ssrc=", page) and "<link" not in page
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
        for src in re.findall(r'<img[^>]*\ssrc="([^"]*)"', page):
            assert src.startswith("data:") or ":" not in src, src
        if review_pages and path.parent.name == "texts":
            assert "segagree-review-data" in page and "media-src" in policy


# --- 14. the recording path is confined to the annotation's folder -----------------------------


def _wav(path: Path) -> Path:
    import wave

    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"\x00\x10" * 8000)
    return path


def _eaf_pair(folder: Path, descriptor: dict[str, str]) -> list[str]:
    from segagree.formats import write_document
    from segagree.model import builtin_scheme, from_units

    scheme = builtin_scheme("dubois")
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, cut in (("a", 2), ("b", 3)):
        words = "one two three four five".split()
        rows = [
            {"speaker": "S", "tokens": words[:cut], "boundary": scheme.find_code(","), "start": 0.0, "end": 0.4},
            {"speaker": "S", "tokens": words[cut:], "boundary": scheme.find_code("."), "start": 0.5, "end": 0.9},
        ]
        doc = from_units(
            "talk", rows, layer="iu", scheme=scheme, speakers=["S"], meta={"media_descriptors": [descriptor]}
        )
        write_document(doc, folder / f"talk.{name}.eaf")
        out.append(str(folder / f"talk.{name}.eaf"))
    return out


@pytest.mark.parametrize("url", ["../secret/tone.wav", "../../../../{outside}", "file://{outside}"])
def test_a_recording_outside_the_annotations_folder_is_not_followed(tmp_path: Path, url: str) -> None:
    from segagree.outputs.review_page import page_data

    outside = _wav(tmp_path / "secret" / "tone.wav")
    descriptor = {"MEDIA_URL": "", "MIME_TYPE": "audio/x-wav", "RELATIVE_MEDIA_URL": url.format(outside=outside)}
    if url.startswith("file:"):
        descriptor = {"MEDIA_URL": url.format(outside=outside), "MIME_TYPE": "audio/x-wav"}
    files = _eaf_pair(tmp_path / "ann", descriptor)
    done = run_bounded(["review", *files, "-o", str(tmp_path / "ann" / "r.html")], cpu_s=30)
    assert done.code == 0, done.stderr[-500:]
    media = page_data(tmp_path / "ann" / "r.html")["media"]
    assert media["src"] is None and media["peaks"] == "" and "outside the annotation's folder" in media["note"]
    page = (tmp_path / "ann" / "r.html").read_text(encoding="utf-8")
    assert str(tmp_path) not in page  # no absolute path of this machine
    given = run_bounded(["review", *files, "-o", str(tmp_path / "ann" / "g.html"), "--media", str(outside)], cpu_s=30)
    assert given.code == 0 and page_data(tmp_path / "ann" / "g.html")["media"]["src"] == "../secret/tone.wav"


def test_a_recording_beside_the_annotation_is_still_found(tmp_path: Path) -> None:
    from segagree.files.media import find_media
    from segagree.formats import read_document as read

    _wav(tmp_path / "ann" / "media" / "tone.wav")
    files = _eaf_pair(
        tmp_path / "ann", {"MEDIA_URL": "file:///elsewhere/tone.wav", "RELATIVE_MEDIA_URL": "./media/tone.wav"}
    )
    info = find_media(read(files[0]))
    assert info.path == (tmp_path / "ann" / "media" / "tone.wav").resolve() and info.tried == ["media/tone.wav"]


def test_a_chat_media_name_with_a_path_is_confined(tmp_path: Path) -> None:
    from segagree.files.media import find_media
    from segagree.formats import read_document as read

    outside = _wav(tmp_path / "secret" / "tone.wav")
    (tmp_path / "ann").mkdir()
    for name in (str(outside.with_suffix("")), "../secret/tone"):
        head = "@UTF8\n@Begin\n@Languages:\teng\n@Participants:\tS Speaker\n"
        chat = f"{head}@Media:\t{name}, audio\n*S:\tone two .\n@End\n"
        (tmp_path / "ann" / "t.cha").write_text(chat, encoding="utf-8")
        info = find_media(read(tmp_path / "ann" / "t.cha"))
        assert info.path is None and "outside the annotation's folder" in info.note, (name, info)


# --- 10. a TextGrid with a long label: read within its memory budget ---------------------------


def _textgrid(path: Path, label: str) -> Path:
    path.write_text(
        'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\nxmax = 2\ntiers? <exists>\nsize = 1\n'
        'item []:\n    item [1]:\n        class = "IntervalTier"\n        name = "A"\n        xmin = 0\n'
        "        xmax = 2\n        intervals: size = 2\n        intervals [1]:\n            xmin = 0\n"
        f'            xmax = 1\n            text = "{label}"\n        intervals [2]:\n            xmin = 1\n'
        '            xmax = 2\n            text = "say ""this"" ."\n',
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("fast", [True, False])
def test_a_10_mb_textgrid_label_is_read_within_its_budget(tmp_path: Path, fast: bool) -> None:
    from segagree.files.memory import MEMORY_PER_BYTE_OF

    # fast: the usual interval layout; else a comment in the interval sends it to the tokenizer
    label = "w" * 10_000_000 + ' ""quoted"" .'
    path = _textgrid(tmp_path / "long.TextGrid", label)
    if not fast:
        path.write_text(
            path.read_text(encoding="utf-8").replace("xmax = 1\n", "xmax = 1 ! a comment\n"), encoding="utf-8"
        )
    budget_mb = path.stat().st_size * MEMORY_PER_BYTE_OF[".textgrid"] / 1024**2
    out = run_bounded(["convert", str(path), "-o", str(tmp_path / "long.txt")], memory_mb=int(2 * budget_mb), cpu_s=30)
    assert out.code == 0, (out.code, out.stderr[-300:])  # (the reader's own check wants its budget free)
    doc = read_document(path)
    words = doc.tokens["text"].tolist()
    assert words[0] == "w" * 10_000_000 and words[1] == '"quoted"' and words[-1] == '"this"'


# --- 11. the EXMARaLDA writer's new timeline: linear, the same timeline as before --------------


def _timeline_as_before(units: list[Any], starts: Any, ends: Any) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """The former quadratic version (points.index and points.insert on a list), the reference."""

    class _P:
        __slots__ = ("time",)

        def __init__(self, time: float | None) -> None:
            self.time = time

    times = sorted({t for u in units for t in (starts[u.rows[0]], ends[u.rows[-1]]) if not math.isnan(t)})
    points: list[_P] = [_P(t) for t in times]
    at = {p.time: p for p in points}
    pairs: list[tuple[_P, _P]] = []
    prev: _P | None = None
    for u in units:
        s, e = starts[u.rows[0]], ends[u.rows[-1]]
        if not math.isnan(s):
            sp = at[s]
            if prev is not None and prev.time is None and points.index(sp) < points.index(prev):
                # After an untimed unit: a point of the same time behind it keeps the discourse order,
                # where the timed neighbours allow it.
                k = points.index(prev)
                before = [p.time for p in points[: k + 1] if p.time is not None]
                after = [p.time for p in points[k + 1 :] if p.time is not None]
                if (not before or before[-1] <= s) and (not after or after[0] >= s):
                    sp = _P(s)
                    points.insert(k + 1, sp)
                    at[s] = sp
        else:
            sp = _P(None)
            if not math.isnan(e):
                points.insert(points.index(at[e]), sp)
            else:
                points.insert(points.index(prev) + 1 if prev is not None else 0, sp)
        if not math.isnan(e) and e > (s if not math.isnan(s) else -1.0):
            ep = at[e]
        else:
            ep = _P(None if math.isnan(e) else e)
            points.insert(points.index(sp) + 1, ep)
        pairs.append((sp, ep))
        prev = ep
    ids = {id(p): f"T{k}" for k, p in enumerate(points)}
    timeline = [{"id": ids[id(p)], "time": p.time, "type": None} for p in points]
    return timeline, [(ids[id(a)], ids[id(b)]) for a, b in pairs]


class _Unit:
    def __init__(self, k: int) -> None:
        self.rows = [k]


def test_new_timeline_is_the_former_one_on_random_units() -> None:
    import math
    import random

    from segagree.formats.exmaralda import _new_timeline

    for case in range(400):
        rng = random.Random(case)
        n = rng.randint(1, 14)
        starts, ends = [], []
        for _ in range(n):
            s = rng.choice([math.nan, float(rng.randint(0, 6))])
            e = rng.choice([math.nan, float(rng.randint(0, 7)), s + 1 if not math.isnan(s) else 3.0])
            starts.append(s)
            ends.append(e)
        units = [_Unit(k) for k in range(n)]
        assert _new_timeline(units, starts, ends) == _timeline_as_before(units, starts, ends), (case, starts, ends)


def test_exmaralda_writer_with_40000_untimed_units_is_linear(tmp_path: Path) -> None:
    # the former list search: 8 s of CPU for 20,000 units, four times that for 40,000
    lines = "".join(f"A:\tw{k} .\n" for k in range(40_000))
    src = tmp_path / "many.txt"
    src.write_text(lines, encoding="utf-8")
    out = run_bounded(["convert", str(src), "-o", str(tmp_path / "many.exb")], memory_mb=1024, cpu_s=15)
    assert out.code == 0, out.stderr[-500:]
    assert len(read_document(tmp_path / "many.exb").tokens) == 40_000
