"""Adjudication: decisions filled in with openpyxl turn annotator A's file into a gold annotation."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openpyxl
import pytest
from click.testing import CliRunner

from segagree.adjudication.tokens import adjudicate
from segagree.corpus.config import RunConfig
from segagree.corpus.tasks import run_task
from segagree.errors import SegagreeError, UsageError
from segagree.formats import read_document
from segagree.outputs.review_workbook import OPS_HEADERS, write_review_workbook
from segagree.scoring.tokens.compare import compare_documents

from conftest import REPO

SAMPLE = REPO / "sample_corpora"


def config(**kw) -> RunConfig:
    cfg = RunConfig(**kw)
    cfg.kappa.enabled = False
    return cfg


@pytest.fixture
def corpus(tmp_path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name in ("ann1", "ann2"):
        shutil.copy(SAMPLE / f"garden.{name}.txt", folder / f"garden.{name}.txt")
    return folder


def make_workbook(
    folder: Path,
    out: Path,
    cfg: RunConfig | None = None,
    pairs=(("ann1", "ann2"),),
    text: str = "garden",
    ext: str = "txt",
) -> Path:
    cfg = cfg or config()
    results = []
    for a, b in pairs:
        r = run_task(text, a, b, str(folder / f"{text}.{a}.{ext}"), str(folder / f"{text}.{b}.{ext}"), cfg)
        assert r["ok"], r["error"]
        results.append(r)
    return write_review_workbook(out, results, cfg)


Decide = Callable[[dict], "str | None"]


def fill(
    workbook: Path,
    decide: Decide | str | None,
    out: Path | None = None,
    sheet: str = "Operations",
    comment: str | None = None,
) -> Path:
    """Write a decision into every row (``decide(row)`` gets the row as {column key: value})."""
    wb = openpyxl.load_workbook(workbook)
    ws = wb[sheet]
    header = [c.value for c in ws[1]]
    keys = {h: k for k, h in OPS_HEADERS.items()}
    dec_col = header.index(OPS_HEADERS["decision"]) + 1
    com_col = header.index(OPS_HEADERS["comment"]) + 1
    for r in range(2, ws.max_row + 1):
        row = {keys[h]: ws.cell(r, i + 1).value for i, h in enumerate(header)}
        value = decide(row) if callable(decide) else decide
        ws.cell(r, dec_col).value = value
        if comment:
            ws.cell(r, com_col).value = comment
    out = out or workbook.with_name(workbook.stem + ".filled.xlsx")
    wb.save(out)
    return out


def boundaries(path: Path) -> np.ndarray:
    return read_document(path).layer("iu").boundaries


def test_all_b_reproduces_annotator_b(corpus, tmp_path):
    wb = fill(make_workbook(corpus, tmp_path / "review" / "garden.xlsx"), "B")
    # The sources are beside the workbook's folder (a run's layout): named with sources=.
    report = adjudicate(wb, tmp_path / "gold.txt", sources=[corpus])
    gold = read_document(tmp_path / "gold.txt")
    res = compare_documents(gold, read_document(corpus / "garden.ann2.txt"))
    assert res["sf"] == 1.0 and res["sf_b"] == 1.0
    assert report.applied["B"] == 11 and not report.undecided and not report.attention
    assert report.changed == 12  # the transposition changes two tokens
    assert gold.token_texts() == read_document(corpus / "garden.ann1.txt").token_texts()
    assert report.format == "text" and not report.losses


def test_all_b_with_match_rows_and_json_output(corpus, tmp_path):
    cfg = config(review_matches=True)
    wb = fill(make_workbook(corpus, tmp_path / "g.xlsx", cfg), "b")  # case-insensitive
    report = adjudicate(wb, tmp_path / "gold.out", fmt="json")
    assert report.format == "json"
    gold = read_document(tmp_path / "gold.out", "json")
    res = compare_documents(gold, read_document(corpus / "garden.ann2.txt"))
    assert res["sf"] == 1.0 and res["sf_b"] == 1.0


def test_all_a_equals_annotator_a(corpus, tmp_path):
    wb = fill(make_workbook(corpus, tmp_path / "g.xlsx"), "A")
    report = adjudicate(wb, tmp_path / "gold.txt")
    assert report.changed == 0 and report.applied["A"] == 11
    assert np.array_equal(boundaries(tmp_path / "gold.txt"), boundaries(corpus / "garden.ann1.txt"))
    res = compare_documents(read_document(tmp_path / "gold.txt"), read_document(corpus / "garden.ann1.txt"))
    assert res["sf"] == 1.0


def test_each_decision_kind(corpus, tmp_path):
    base = make_workbook(corpus, tmp_path / "g.xlsx")

    def decide(row):
        if row["op"] == "transposition":
            return "both"
        if row["op"] == "deletion" and row["token_a"] == "well":
            return "neither"
        if row["op"] == "insertion" and row["token_b"] == "deer":
            return "B"
        if row["op"] == "substitution" and row["token_a"] == "happened":
            return "other"
        return None

    wb = fill(base, decide, comment="see the audio")
    report = adjudicate(wb, tmp_path / "gold.txt")
    assert dict(report.applied) == {"both": 1, "neither": 1, "B": 1, "other": 1}
    assert len(report.undecided) == 7
    assert report.attention == ["'Operations' row 9 (see the audio)"]
    gold = read_document(tmp_path / "gold.txt").boundary_arrays()
    a = read_document(corpus / "garden.ann1.txt").boundary_arrays()
    comma = read_document(corpus / "garden.ann1.txt").layer().scheme.code(",")
    assert gold["MAYA"][28] == gold["MAYA"][29] == comma  # both places of the transposition
    assert gold["ROSA"][32] == 0 and a["ROSA"][32] == comma  # 'neither' removed "well ,"
    assert gold["BEN"][8] == comma and a["BEN"][8] == 0  # B's added boundary
    changed = {s: np.flatnonzero(gold[s] != a[s]).tolist() for s in a}
    assert changed == {"ROSA": [32], "BEN": [8], "MAYA": [29]}
    assert report.changed == 3


def test_contradicting_rows_are_named(corpus, tmp_path):
    base = make_workbook(corpus, tmp_path / "g.xlsx")
    wb = openpyxl.load_workbook(base)
    ws = wb["Operations"]
    # A second copy of row 3 (BEN's substitution at "school"): one row says A, the copy says B.
    n = ws.max_row + 1
    for c in range(1, ws.max_column + 1):
        ws.cell(n, c).value = ws.cell(3, c).value
    header = [c.value for c in ws[1]]
    dec = header.index(OPS_HEADERS["decision"]) + 1
    for r in range(2, n + 1):
        ws.cell(r, dec).value = "A"
    ws.cell(n, dec).value = "B"
    wb.save(tmp_path / "contra.xlsx")
    # A copied row keeps its row id: refused as a duplicate, naming both rows.
    with pytest.raises(SegagreeError, match=rf"duplicated row ids: 'Operations' row 3 and 'Operations' row {n}"):
        adjudicate(tmp_path / "contra.xlsx", tmp_path / "gold.txt")
    # Without its row id the copy is a row of its own: the contradiction is named.
    ws.cell(n, header.index(OPS_HEADERS["row_id"]) + 1).value = None
    wb.save(tmp_path / "contra.xlsx")
    with pytest.raises(SegagreeError) as err:
        adjudicate(tmp_path / "contra.xlsx", tmp_path / "gold.txt")
    msg = str(err.value)
    assert "'Operations' row 3" in msg and f"'Operations' row {n}" in msg and "contradict" in msg
    assert "school" in msg
    assert not (tmp_path / "gold.txt").exists()
    # 'neither' on one copy and B on the other: one row removes what the other adds.
    ws.cell(3, dec).value = "neither"
    wb.save(tmp_path / "contra2.xlsx")
    with pytest.raises(SegagreeError, match=rf"'neither' removes.*'Operations' row {n} adds ','"):
        adjudicate(tmp_path / "contra2.xlsx", tmp_path / "gold.txt")


def test_undecided_rows_error_or_keep_a(corpus, tmp_path):
    base = make_workbook(corpus, tmp_path / "g.xlsx")
    wb = fill(base, lambda row: None if row["speaker"] == "ROSA" else "B")
    with pytest.raises(SegagreeError) as err:
        adjudicate(wb, tmp_path / "gold.txt", undecided="error")
    msg = str(err.value)
    assert "4 rows have no decision" in msg
    for r in (9, 10, 11, 12):
        assert f"'Operations' row {r}" in msg
    assert "row 8" not in msg
    report = adjudicate(wb, tmp_path / "gold.txt")
    assert report.undecided == [f"'Operations' row {r}" for r in (9, 10, 11, 12)]
    gold = read_document(tmp_path / "gold.txt").boundary_arrays()
    a = read_document(corpus / "garden.ann1.txt").boundary_arrays()
    b = read_document(corpus / "garden.ann2.txt").boundary_arrays()
    assert np.array_equal(gold["ROSA"], a["ROSA"]) and np.array_equal(gold["BEN"], b["BEN"])
    with pytest.raises(UsageError):
        adjudicate(wb, tmp_path / "gold.txt", undecided="b")  # type: ignore[arg-type]


def test_neither_at_last_token_and_both_on_substitution_are_errors(corpus, tmp_path):
    base = make_workbook(corpus, tmp_path / "g.xlsx")
    # MAYA's "cheap ." (A) vs "cheap ?" (B) ends MAYA's stream.
    wb = fill(base, lambda row: "neither" if row["token_a"] == "cheap" else "A")
    with pytest.raises(SegagreeError, match=r"'Operations' row 8: 'neither' would leave the last token of MAYA"):
        adjudicate(wb, tmp_path / "gold.txt")
    wb = fill(base, lambda row: "both" if row["token_a"] == "school" else "A")
    with pytest.raises(SegagreeError, match=r"'Operations' row 3: 'both' on a substitution"):
        adjudicate(wb, tmp_path / "gold.txt")
    wb = fill(base, lambda row: "maybe" if row["token_a"] == "school" else "A")
    with pytest.raises(SegagreeError, match=r"row 3: unknown decision 'maybe'"):
        adjudicate(wb, tmp_path / "gold.txt")


def test_source_found_relative_missing_or_changed(corpus, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a run's layout, adjudicated from the folder holding both
    wb = fill(make_workbook(corpus, tmp_path / "review" / "g.xlsx"), "B")
    # Move the workbook and the corpus together: the relative path still finds A's file.
    moved = tmp_path / "moved"
    shutil.copytree(tmp_path / "corpus", moved / "corpus")
    (moved / "review").mkdir()
    shutil.copy(wb, moved / "review" / wb.name)
    shutil.rmtree(tmp_path / "corpus")
    report = adjudicate(moved / "review" / wb.name, tmp_path / "gold.txt")
    assert report.base == (moved / "corpus" / "garden.ann1.txt").resolve()
    with pytest.raises(SegagreeError, match="source file of sheet 'Operations': the file is missing"):
        adjudicate(wb, tmp_path / "gold.txt")
    src = moved / "corpus" / "garden.ann1.txt"
    src.write_text(src.read_text(encoding="utf-8").replace("gone ?", "gone ."), encoding="utf-8")
    with pytest.raises(SegagreeError, match="changed since the workbook was written"):
        adjudicate(moved / "review" / wb.name, tmp_path / "gold.txt")


def test_refuses_to_overwrite_inputs(corpus, tmp_path):
    wb = fill(make_workbook(corpus, tmp_path / "g.xlsx"), "B")
    with pytest.raises(SegagreeError, match="overwrite"):
        adjudicate(wb, wb)
    with pytest.raises(SegagreeError, match="overwrite"):
        adjudicate(wb, corpus / "garden.ann1.txt")
    assert (
        read_document(corpus / "garden.ann1.txt").layer().boundaries.tolist()
        == read_document(SAMPLE / "garden.ann1.txt").layer().boundaries.tolist()
    )


def test_three_annotators_need_a_sheet(corpus, tmp_path):
    shutil.copy(SAMPLE / "garden.ann2.txt", corpus / "garden.ann3.txt")
    base = make_workbook(corpus, tmp_path / "g.xlsx", pairs=(("ann1", "ann2"), ("ann1", "ann3"), ("ann2", "ann3")))
    with pytest.raises(UsageError, match="choose one with --sheet"):
        adjudicate(base, tmp_path / "gold.txt")
    with pytest.raises(UsageError, match="no operations sheet 'ops x-y'"):
        adjudicate(base, tmp_path / "gold.txt", sheet="ops x-y")
    wb = fill(base, "B", sheet="ops ann1-ann3")
    adjudicate(wb, tmp_path / "gold.txt", sheet="ops ann1-ann3")
    res = compare_documents(read_document(tmp_path / "gold.txt"), read_document(corpus / "garden.ann3.txt"))
    assert res["sf"] == 1.0 and res["sf_b"] == 1.0


TRANSCRIPT_A = (
    "JOE:\tso we went down to the river ,\n"
    "\tand then we swam all day .\n"
    "ANN:\twell uh .\n"
    "\tI think that was a good idea ,\n"
    "\tit was very hot that day .\n"
)
TRANSCRIPT_B = (
    "JOE:\tso we went down um to the river .\n"  # B has an extra token "um"
    "\tand then we swam all day .\n"
    "ANN:\twell ,\n"  # B lacks "uh": A's "." after it is compared at "well"
    "\tI think that was a good idea ,\n"
    "\tit was very hot ,\n"
    "\tthat day .\n"
)


@pytest.mark.parametrize("decision", ["B", "A"])
def test_differing_transcripts(tmp_path, decision):
    (tmp_path / "t.ann1.txt").write_text(TRANSCRIPT_A, encoding="utf-8")
    (tmp_path / "t.ann2.txt").write_text(TRANSCRIPT_B, encoding="utf-8")
    base = make_workbook(tmp_path, tmp_path / "t.xlsx", text="t")
    summary = [row for row in openpyxl.load_workbook(base)["Summary"].iter_rows(values_only=True) if row[0]]
    assert any(str(row[0]) == "Transcript mismatches (2)" for row in summary)
    wb = fill(base, decision)
    report = adjudicate(wb, tmp_path / "gold.txt")
    assert report.applied[decision] == 3
    gold = read_document(tmp_path / "gold.txt")
    a, b = read_document(tmp_path / "t.ann1.txt"), read_document(tmp_path / "t.ann2.txt")
    assert gold.token_texts() == a.token_texts()  # the gold keeps A's transcript
    if decision == "A":
        assert np.array_equal(gold.layer().boundaries, a.layer().boundaries)
    else:
        res = compare_documents(gold, b, align=True)
        assert res["sf"] == 1.0 and res["sf_b"] == 1.0
        # "well uh ." -> "well , uh ...": the whole span of A's tokens B lacks was cleared.
        ann = gold.boundary_arrays()["ANN"]
        assert ann[:2].tolist() == [gold.layer().scheme.code(","), 0]


def test_cli_adjudicate(corpus, tmp_path):
    from segagree.cli import app

    wb = fill(make_workbook(corpus, tmp_path / "g.xlsx"), lambda row: None if row["speaker"] == "ROSA" else "B")
    runner = CliRunner()
    res = runner.invoke(app, ["adjudicate", str(wb), "-o", str(tmp_path / "gold.json")])
    assert res.exit_code == 0, res.output
    err = res.stderr
    assert "decisions applied: 7 (B: 7)" in err
    assert "undecided rows (kept A's): 4" in err and "'Operations' row 9" in err
    assert "rows needing attention ('other'): 0" in err
    assert read_document(tmp_path / "gold.json").n_tokens == read_document(corpus / "garden.ann1.txt").n_tokens
    res = runner.invoke(app, ["adjudicate", str(wb), "-o", str(tmp_path / "g2.txt"), "--undecided", "error"])
    assert res.exit_code != 0 and isinstance(res.exception, SegagreeError)
    assert "4 rows have no decision" in str(res.exception)
    res = runner.invoke(app, ["adjudicate", str(wb), "-o", str(tmp_path / "g3.txt"), "--undecided", "nope"])
    assert res.exit_code == 2 and "keep-a" in res.output
    res = runner.invoke(app, ["adjudicate", str(wb), "-o", str(tmp_path / "g4.srt"), "--to", "textgrid"])
    assert res.exit_code == 0, res.output
    assert read_document(tmp_path / "g4.srt", "textgrid").n_tokens == 186
