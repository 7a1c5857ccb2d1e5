"""Hostile input, third audit: growth and misreadings. Per-document steps of a run and a panel
read and hash each file once (counted) and grow linearly (CPU time as the documents double, with
a generous margin); the rolling-caption check is linear in the lines; negative positions, the
spacing of ``.edus`` lines, the documented rolling-caption example, reserved annotator names of a
review page, short damaged UTF-8 and cut review cells.

Every fixture is written by the test (a few lines). Whole-command figures: bench/bench_third_audit.py.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from cli_process import run_cli

import segagree
from segagree.corpus import documents as corpus_documents
from segagree.corpus import tasks as corpus_tasks
from segagree.corpus.discovery import find_annotations
from segagree.errors import UsageError
from segagree.formats import read_document
from segagree.formats.vtt import _longest_overlap, rolling_repeats

ROW = "{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t{misc}"
DOCS_EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "real-files-reading.md"


def _disrpt(folder: Path, annotators: int, documents: int, words: int = 6) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(documents)
    for a in range(annotators):
        parts = []
        for d in range(documents):
            rows = [
                ROW.format(i=i, w=f"w{i}", misc="BeginSeg=Yes" if i == 1 or rng.random() < 0.3 else "_")
                for i in range(1, words + 1)
            ]
            parts.append(f"# newdoc_id = doc{d}\n" + "\n".join(rows) + "\n")
        (folder / f"gum.a{a}.tok").write_text("\n".join(parts), encoding="utf-8")
    return folder


def _counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count whole-file reads, hashes and selections of the run's per-document steps."""
    from segagree.model import Document

    counts = {"read": 0, "hash": 0, "select": 0}
    read, sha1, select = corpus_documents.read_document, corpus_tasks.file_sha1, Document.select_speakers

    def counted_select(self: Document, names: list[str]) -> Document:
        counts["select"] += 1  # a pass over the whole file
        return select(self, names)

    def counted_read(*args: object, **kwargs: object) -> object:
        counts["read"] += 1
        return read(*args, **kwargs)  # type: ignore[arg-type]

    def counted_sha1(path: Path) -> str:
        counts["hash"] += 1
        return sha1(path)

    monkeypatch.setattr(corpus_documents, "read_document", counted_read)
    monkeypatch.setattr(corpus_tasks, "file_sha1", counted_sha1)
    monkeypatch.setattr(Document, "select_speakers", counted_select)
    corpus_documents._WHOLE_FILES.clear()
    corpus_tasks._DIGESTS.clear()
    return counts


def _document_steps(corpus: Path) -> None:
    """What each task of a run does before scoring, for every pair of every document."""
    from segagree.corpus.config import RunConfig

    config = RunConfig()
    found = find_annotations(corpus)
    for text, files in found.texts.items():
        names = sorted(files)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                corpus_tasks.task_key(text, a, b, files[a], files[b], config, "s")
                corpus_documents.read_text_document(files[a], text)
                corpus_documents.read_text_document(files[b], text)


def _cpu(step: Callable[[], object]) -> float:
    start = time.process_time()
    step()
    return time.process_time() - start


@pytest.mark.parametrize("annotators", [2, 4])
def test_a_runs_documents_read_and_hash_each_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, annotators: int
) -> None:
    counts = _counting(monkeypatch)
    _document_steps(_disrpt(tmp_path, annotators, 60))
    # one read and one hash per file, whatever the number of documents and pairs; no document
    # selected by a pass over its whole file
    assert counts == {"read": annotators, "hash": annotators, "select": 0}


def test_a_runs_per_document_steps_grow_linearly(tmp_path: Path) -> None:
    small = _disrpt(tmp_path / "small", 2, 300)
    large = _disrpt(tmp_path / "large", 2, 600)
    times = []
    for corpus in (small, large, small, large):
        corpus_documents._WHOLE_FILES.clear()
        corpus_tasks._DIGESTS.clear()
        times.append(_cpu(lambda c=corpus: _document_steps(c)))
    ratio = min(times[1], times[3]) / max(min(times[0], times[2]), 1e-3)
    assert ratio < 3.0, times  # linear: 2 (quadratic was 4)


def test_a_panel_of_four_annotators_reads_each_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = _disrpt(tmp_path, 4, 80)
    counts = _counting(monkeypatch)
    result = segagree.panel(corpus, "a3", n_boot=5, n_perm=2)
    assert counts["read"] == 4 and counts["select"] == 0 and len(result["texts"]) == 80


def test_the_rolling_check_is_linear_in_the_lines_of_two_overlapping_cues() -> None:
    def check(n: int) -> float:
        cues = [[f"a {i}" for i in range(n)], [f"b {i}" for i in range(n)]]
        return _cpu(lambda: rolling_repeats(cues, [(0, 5000), (1000, 6000)]))

    times = [check(n) for n in (20_000, 40_000, 20_000, 40_000)]
    assert min(times[1], times[3]) / max(min(times[0], times[2]), 1e-3) < 3.0, times


def test_the_longest_repeat_is_the_brute_forces() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        before = [rng.choice("ab") for _ in range(rng.randint(0, 7))]
        after = [rng.choice("ab") for _ in range(rng.randint(0, 7))]
        brute = next((k for k in range(min(len(before), len(after)), 0, -1) if after[:k] == before[-k:]), 0)
        assert _longest_overlap(before, after) == brute, (before, after)


# --- misreadings --------------------------------------------------------------------------------


def test_a_negative_position_is_refused_and_positions_have_no_seconds(tmp_path: Path) -> None:
    table = "annotator,start,end,category\nkim,{s},10,a\nkim,12,20,b\nlee,0,11,a\nlee,12,19,b\n"
    (tmp_path / "neg.csv").write_text(table.format(s=-5), encoding="utf-8")
    (tmp_path / "pos.csv").write_text(table.format(s=0), encoding="utf-8")
    fast = ["--measure", "alpha_u"]
    done = run_cli(["agree", "--time", "neg.csv", "--time-unit", "index", *fast], cwd=tmp_path)
    assert done.returncode == 1 and "line 2" in done.stderr and "negative" in done.stderr, done.stderr
    done = run_cli(["agree", "--time", "pos.csv", "--time-unit", "index", *fast], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    printed = " ".join(done.stdout.split())  # (however the terminal wraps it)
    assert "continuum [0, 20] (positions)" in printed and "20] s" not in printed


@pytest.mark.parametrize(
    "content",
    [
        b"    One  two \n    three\xc2\xa0four \n\tFive six. \n",  # double space, no-break space, a tab
        b"One two.\r\nThree\tfour.\r\n",  # CRLF
    ],
)
def test_edus_lines_with_their_own_spacing_write_back_byte_for_byte(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "a.edus").write_bytes(content)
    report = segagree.convert(tmp_path / "a.edus", tmp_path / "b.edus")
    assert (tmp_path / "b.edus").read_bytes() == content and report.lossless
    # through CoNLL-U the spacing is reported, never "lossless"
    report = segagree.convert(tmp_path / "a.edus", tmp_path / "a.conllu")
    assert not report.lossless and any(loss.kind == "meta-dropped" for loss in report.write_losses)


def test_an_edus_line_whose_words_changed_says_its_spacing_is_lost(tmp_path: Path) -> None:
    (tmp_path / "a.edus").write_bytes(b"One  two\nthree four\n")
    doc = read_document(tmp_path / "a.edus")
    text = doc.tokens["text"].to_numpy().copy()
    text[0] = "Uno"
    changed = doc.replace(tokens=doc.tokens.assign(text=text))
    report = segagree.convert(changed, tmp_path / "b.edus")
    assert (tmp_path / "b.edus").read_bytes() == b"Uno two\nthree four\n"
    assert any(loss.kind == "spacing-changed" for loss in report.write_losses)


def test_the_rolling_caption_example_as_printed_in_the_docs_collapses(tmp_path: Path) -> None:
    page = DOCS_EXAMPLE.read_text(encoding="utf-8")
    start = page.index("```\nWEBVTT\n") + 4
    (tmp_path / "talk.en.vtt").write_text(page[start : page.index("```", start)], encoding="utf-8")
    doc = read_document(tmp_path / "talk.en.vtt")
    words = [str(w) for w in doc.tokens["text"]]
    assert words == ["hello", "everyone", "and", "welcome", "to", "the", "show"]
    assert {"rolling-repeats", "rolling-flash-cues", "repaired"} <= doc.losses.kinds()


@pytest.mark.parametrize("name", ["none", "Edit"])
def test_a_time_review_page_refuses_an_annotator_named_like_a_decision(tmp_path: Path, name: str) -> None:
    grid = (
        'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\nxmax = 4\ntiers? <exists>\nsize = 1\n'
        'item []:\n    item [1]:\n        class = "IntervalTier"\n        name = "iu"\n        xmin = 0\n'
        "        xmax = 4\n        intervals: size = 2\n        intervals [1]:\n            xmin = 0\n"
        '            xmax = 2\n            text = "a"\n        intervals [2]:\n            xmin = 2\n'
        '            xmax = 4\n            text = "b"\n'
    )
    for who in ("kim", name):  # (annotators named after the files)
        (tmp_path / f"{who}.TextGrid").write_text(grid, encoding="utf-8")
    files = [tmp_path / "kim.TextGrid", tmp_path / f"{name}.TextGrid"]
    for out in ("r.html", "r.xlsx"):
        with pytest.raises(UsageError, match="decision word"):
            segagree.review_time(files, tmp_path / out)
        assert not (tmp_path / out).exists()


def test_a_short_utf8_file_with_one_latin1_byte_gets_one_replacement_character(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"H\xc3\xa9llo w\xe9rld .\n")
    doc = read_document(tmp_path / "a.txt")
    assert [str(t) for t in doc.tokens["text"]][:2] == ["Héllo", "w\ufffdrld"]
    assert doc.losses.kinds() == {"repaired"}
    # a legacy file stays legacy
    (tmp_path / "b.txt").write_bytes("café très bien été .\n".encode("cp1252"))
    assert [str(t) for t in read_document(tmp_path / "b.txt").tokens["text"]][0] == "café"


def test_a_cut_review_cell_reads_back_as_cut(tmp_path: Path) -> None:
    from segagree.adjudication.tokens import continued_cells
    from segagree.outputs.review_workbook import CUT_MARK, join_continued

    tokens = [f"t{i}" + "y" * 7000 for i in range(5)]
    (tmp_path / "a.txt").write_text(" ".join(tokens[:2]) + " .\n" + " ".join(tokens[2:]) + " .\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text(" ".join(tokens[:3]) + " .\n" + " ".join(tokens[3:]) + " .\n", encoding="utf-8")
    segagree.review(tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "r.xlsx")
    wb = openpyxl.load_workbook(tmp_path / "r.xlsx", read_only=True)
    rows = list(wb["Operations"].iter_rows(values_only=True))
    col = next(i for i, h in enumerate(rows[0]) if str(h).startswith("context"))
    cut = [r[col] for r in rows[1:] if r[col] and len(r[col]) == 32_767]
    assert cut and all(c.endswith(CUT_MARK) for c in cut)  # read back on its own: marked
    whole = join_continued(
        cut[0], continued_cells(openpyxl.load_workbook(tmp_path / "r.xlsx"))[("Operations", 2, col + 1)]
    )
    assert CUT_MARK not in whole and all(t in whole for t in tokens[:4])


# --- overlap/extent with nested turns --------------------------------------------------------


def _scan_reference(a: list[tuple[float, float]], b: list[tuple[float, float]], window: bool) -> list[float]:
    """ELAN's getAverageRatio scanned as its code does (the brute force the search must equal)."""
    units: list[float] = []
    matched: set[int] = set()
    last = -1
    for sa, ea in a:
        overlapping: list[int] = []
        for j in range(last + 1 if window else 0, len(b)):
            sb, eb = b[j]
            if sa < eb and ea > sb:
                if j not in matched:
                    overlapping.append(j)
            elif sb > ea:
                if window:
                    last = j - 1 - len(overlapping)
                break
        if not overlapping:
            units.append(0.0)
            continue
        best = max(overlapping, key=lambda j: (min(ea, b[j][1]) - max(sa, b[j][0]), -j))
        matched.add(best)
        overlap = min(ea, b[best][1]) - max(sa, b[best][0])
        units.append(overlap / (max(ea, b[best][1]) - min(sa, b[best][0])))
    return units + [0.0] * (len(b) - len(matched))


def _largest_reference(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> list[float]:
    pairs = sorted(
        (-(min(ea, eb) - max(sa, sb)), i, j)
        for i, (sa, ea) in enumerate(a)
        for j, (sb, eb) in enumerate(b)
        if min(ea, eb) - max(sa, sb) > 0
    )
    used_a: set[int] = set()
    used_b: set[int] = set()
    units = []
    for neg, i, j in pairs:
        if i not in used_a and j not in used_b:
            used_a.add(i)
            used_b.add(j)
            units.append(-neg / (max(a[i][1], b[j][1]) - min(a[i][0], b[j][0])))
    return units + [0.0] * (len(a) + len(b) - 2 * len(units))


@pytest.mark.parametrize("short_scan", [None, -1])  # -1: every A annotation searched by the trees
def test_overlap_extent_equals_elans_scan_on_random_and_nested_turns(
    monkeypatch: pytest.MonkeyPatch, short_scan: int | None
) -> None:
    from segagree.metrics.unitizing import overlap_extent

    if short_scan is not None:
        monkeypatch.setattr(overlap_extent, "_SHORT_SCAN", short_scan)
    rng = random.Random(11)
    for case in range(400):
        n, m = rng.randint(0, 30), rng.randint(0, 30)
        if case % 3 == 0:  # nested turns
            a = sorted((float(i), float(80 - i)) for i in range(n))
            b = sorted((i + rng.choice([0.0, 0.5]), 80 - i - rng.choice([0.0, 0.5])) for i in range(m))
        else:

            def spans(k: int) -> list[tuple[float, float]]:
                starts = (rng.randint(0, 25) for _ in range(k))
                return sorted((float(s), float(s + rng.choice([0, 1, 2, 3, 5, 8, 20]))) for s in starts)

            a, b = spans(n), spans(m)
        for window, pairing in ((True, "elan"), (False, "greedy")):
            assert overlap_extent.overlap_extent_units(a, b, pairing) == _scan_reference(a, b, window), (a, b)
        assert overlap_extent.overlap_extent_units(a, b, "largest") == _largest_reference(a, b), (a, b)


def test_overlap_extent_of_nested_turns_grows_n_log_n() -> None:
    from segagree.metrics.unitizing.overlap_extent import overlap_extent_units

    def nested(n: int) -> float:
        a = [(float(i), float(2 * n - i)) for i in range(n)]
        b = [(i + 0.5, 2 * n - i - 0.5) for i in range(n)]
        return _cpu(lambda: [overlap_extent_units(a, b, p) for p in ("elan", "greedy", "largest")])

    # the fastest of three turns each, interleaved: a busy machine slows one turn, not all three
    times = [nested(n) for n in (1000, 2000) * 3]
    assert min(times[1::2]) / max(min(times[0::2]), 1e-3) < 3.0, times
