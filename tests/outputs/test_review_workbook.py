"""Review workbooks: sheets, header, drop-down, frozen header, autofilter, Summary counts, About sources."""

from __future__ import annotations

import hashlib
import shutil
from collections import Counter
from pathlib import Path

import openpyxl
import pytest

from segagree.corpus.config import RunConfig
from segagree.corpus.tasks import run_task
from segagree.outputs.review_workbook import (
    DECISIONS,
    MATRIX_CORNER,
    OPS_COLUMNS,
    OPS_HEADERS,
    SOURCE_HEADERS,
    a_spans,
    sheet_names,
    write_review_workbook,
)

from conftest import REPO

SAMPLE = REPO / "sample_corpora"


def config(**kw) -> RunConfig:
    cfg = RunConfig(**kw)
    cfg.kappa.enabled = False
    return cfg


def garden(cfg: RunConfig | None = None, a: str = "ann1", b: str = "ann2", folder: Path = SAMPLE) -> dict:
    result = run_task("garden", a, b, str(folder / f"garden.{a}.txt"), str(folder / f"garden.{b}.txt"), cfg or config())
    assert result["ok"], result["error"]
    return result


def rows_of(ws) -> list[tuple]:
    return [r for r in ws.iter_rows(min_row=2, values_only=True) if any(v is not None for v in r)]


def header_of(ws) -> list[str]:
    return [c.value for c in ws[1]]


def matrix(ws) -> dict[tuple[str, str], int]:
    """The first type-pair table of a Summary sheet, as {(A's type, B's type): count}."""
    cells = list(ws.iter_rows(values_only=True))
    start = next(i for i, row in enumerate(cells) if row and row[0] == MATRIX_CORNER)
    columns = [c for c in cells[start][1:] if c is not None and c != "total"]
    out = {}
    for row in cells[start + 1 :]:
        if row[0] == "total":
            break
        for j, tb in enumerate(columns, start=1):
            if isinstance(row[j], int | float):
                out[(row[0], tb)] = int(row[j])
    return out


def test_workbook_sheets_header_validation_freeze_filter(tmp_path):
    result = garden()
    path = write_review_workbook(tmp_path / "review" / "garden.xlsx", [result], config())
    assert path.is_file()
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]  # no temp file left
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["Operations", "Summary", "About"]
    ws = wb["Operations"]
    assert header_of(ws) == [h for _, h, _, _ in OPS_COLUMNS]
    non_match = [op for op in result["operation_rows"] if op["op"] != "match"]
    data = rows_of(ws)
    assert len(data) == len(non_match) == 11
    assert ws.freeze_panes == "A2"
    last_col = openpyxl.utils.get_column_letter(len(OPS_COLUMNS))
    assert ws.auto_filter.ref == f"A1:{last_col}{len(data) + 1}"
    dv = ws.data_validations.dataValidation
    assert len(dv) == 1 and dv[0].type == "list"
    assert dv[0].formula1 == '"' + ",".join(DECISIONS) + '"'
    dec_col = openpyxl.utils.get_column_letter(header_of(ws).index(OPS_HEADERS["decision"]) + 1)
    assert str(dv[0].sqref) == f"{dec_col}2:{dec_col}{len(data) + 1}"
    assert len(ws.conditional_formatting) >= 1  # the colours per operation
    # Decision and comment are empty; rows follow the operations in order.
    idx = {key: header_of(ws).index(h) for key, h in OPS_HEADERS.items()}
    assert all(r[idx["decision"]] is None and r[idx["comment"]] is None for r in data)
    for row, op in zip(data, non_match, strict=True):
        assert row[idx["speaker"]] == op["speaker"]
        assert row[idx["op"]] == op["op"]
        assert row[idx["position_a"]] == op["position_a"]
        assert row[idx["position_b_in_a"]] == op["position_b_in_a"]
        assert (row[idx["type_a"]], row[idx["type_b"]]) == (op["type_a"], op["type_b"])
        assert "‖" in row[idx["context"]]
    assert ws.column_dimensions["E"].width >= 40  # the context column is readable


def test_match_rows_only_with_review_matches(tmp_path):
    cfg = config(review_matches=True)
    result = garden(cfg)
    path = write_review_workbook(tmp_path / "g.xlsx", [result], cfg)
    data = rows_of(openpyxl.load_workbook(path)["Operations"])
    assert len(data) == len(result["operation_rows"]) == 41
    ops = Counter(r[header_of(openpyxl.load_workbook(path)["Operations"]).index("operation")] for r in data)
    assert ops["match"] == 30 and ops["transposition"] == 1


def test_summary_counts_equal_operation_counts_by_type_pair(tmp_path):
    result = garden()
    path = write_review_workbook(tmp_path / "g.xlsx", [result], config())
    ws = openpyxl.load_workbook(path)["Summary"]
    counts = Counter((op["type_a"], op["type_b"]) for op in result["operation_rows"])
    table = matrix(ws)
    assert {k: v for k, v in table.items() if v} == dict(counts)
    assert table[(",", "none")] == 3 and table[("none", ",")] == 2 and table[("--", ".")] == 1
    # S_f and S_f^B per speaker and pooled.
    cells = list(ws.iter_rows(values_only=True))
    start = next(i for i, row in enumerate(cells) if row and row[0] == "speaker")
    found = {row[0]: (row[2], row[3]) for row in cells[start + 1 : start + 5]}
    comp = result["compare"]
    assert found["ALL"] == pytest.approx((comp["sf"], comp["sf_b"]))
    for speaker, stats in comp["per_speaker"].items():
        assert found[speaker] == pytest.approx((stats["sf"], stats["sf_b"]))


def test_summary_shows_kappa_and_mismatches(tmp_path):
    a = tmp_path / "t.ann1.txt"
    b = tmp_path / "t.ann2.txt"
    a.write_text("JOE:\tso we went down to the river ,\n\tand then we swam all day .\n", encoding="utf-8")
    b.write_text("JOE:\tso we went down uh to the river .\n\tand then we swam all day .\n", encoding="utf-8")
    result = run_task("t", "ann1", "ann2", str(a), str(b), config())
    assert result["ok"], result["error"]
    result["kappa"] = {
        "per_speaker": {"JOE": {"sf": {"kappa": 0.25}, "sf_b": {"kappa": 0.125}}},
        "pooled": {"sf": {"kappa": 0.25}, "sf_b": {"kappa": 0.125}},
    }
    path = write_review_workbook(tmp_path / "t.xlsx", [result], config())
    cells = list(openpyxl.load_workbook(path)["Summary"].iter_rows(values_only=True))
    start = next(i for i, row in enumerate(cells) if row and row[0] == "speaker")
    assert cells[start][4:6] == ("kappa S_f", "kappa S_f^B")
    assert cells[start + 1][0] == "JOE" and cells[start + 1][4:6] == (0.25, 0.125)
    assert cells[start + 2][0] == "ALL" and cells[start + 2][4:6] == (0.25, 0.125)
    assert cells[start + 1][12] == 1  # one transcript mismatch
    mis = next(i for i, row in enumerate(cells) if row and str(row[0]).startswith("Transcript mismatches"))
    assert cells[mis][0] == "Transcript mismatches (1)"
    assert cells[mis + 2][:2] == ("JOE", "only_b") and cells[mis + 2][6] == "uh"


def test_about_lists_sources_with_digests_and_definitions(tmp_path):
    result = garden()
    path = write_review_workbook(tmp_path / "sub" / "g.xlsx", [result], config())
    cells = list(openpyxl.load_workbook(path)["About"].iter_rows(values_only=True))
    labels = {row[0]: row[1] for row in cells if row and row[0]}
    assert labels["signature"] == result["compare"]["signature"]
    assert "settings (JSON)" in labels and "reading scheme (JSON)" in labels
    head = next(i for i, row in enumerate(cells) if row[: len(SOURCE_HEADERS)] == SOURCE_HEADERS)
    src = dict(zip(SOURCE_HEADERS, cells[head + 1], strict=False))
    assert src["sheet"] == "Operations" and src["annotator_a"] == "ann1" and src["format_a"] == "text"
    assert (path.parent / src["file_a"]).resolve() == (SAMPLE / "garden.ann1.txt").resolve()
    # Full SHA-1 (a prefix lets another file pass the check).
    assert src["sha1_a"] == hashlib.sha1((SAMPLE / "garden.ann1.txt").read_bytes()).hexdigest()
    assert src["sha1_b"] == hashlib.sha1((SAMPLE / "garden.ann2.txt").read_bytes()).hexdigest()
    for _, header, _, _ in OPS_COLUMNS:  # every column is defined
        assert labels.get(header), header
    for decision in DECISIONS:
        assert labels.get(decision), decision
    for term in ("S_f", "S_f^B", "kappa S_f, kappa S_f^B", "type-pair counts"):
        assert labels.get(term), term


def test_three_annotators_one_sheet_per_pair(tmp_path):
    for name in ("ann1", "ann2"):
        shutil.copy(SAMPLE / f"garden.{name}.txt", tmp_path / f"garden.{name}.txt")
    shutil.copy(SAMPLE / "garden.ann2.txt", tmp_path / "garden.ann3.txt")
    results = [garden(a=a, b=b, folder=tmp_path) for a, b in (("ann1", "ann2"), ("ann1", "ann3"), ("ann2", "ann3"))]
    path = write_review_workbook(tmp_path / "g.xlsx", results, config())
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["ops ann1-ann2", "ops ann1-ann3", "ops ann2-ann3", "Summary", "About"]
    assert len(rows_of(wb["ops ann2-ann3"])) == 0  # identical annotations: nothing to review
    assert len(rows_of(wb["ops ann1-ann3"])) == 11
    assert wb["ops ann2-ann3"].freeze_panes == "A2"
    titles = [row[0] for row in wb["Summary"].iter_rows(values_only=True) if row and row[0]]
    assert sum(1 for t in titles if "operations in sheet" in str(t)) == 3


def test_sheet_names_fit_excel():
    long = [
        ("annotator-with-a-very-long-name-1", "annotator-with-a-very-long-name-2"),
        ("annotator-with-a-very-long-name-1", "annotator-with-a-very-long-name-3"),
        ("a:b", "c/d"),
    ]
    names = sheet_names(long)
    assert all(len(n) <= 31 for n in names)
    assert len({n.lower() for n in names}) == 3
    assert not any(ch in n for n in names for ch in "[]:*?/\\")
    assert sheet_names([("x", "y")]) == ["Operations"]


def test_a_spans_cover_tokens_only_a_has():
    # A has "uh" (index 1) that B lacks: its boundary is compared at "well" (index 0).
    result = {
        "compare": {
            "mismatches": [
                {"speaker": "S", "kind": "only_a", "position": 0, "position_a": 1, "position_b": None},
                {"speaker": "S", "kind": "only_b", "position": 3, "position_a": None, "position_b": 4},
                {"speaker": "S", "kind": "only_a", "position": 4, "position_a": 6, "position_b": None},
                {"speaker": "S", "kind": "only_a", "position": 4, "position_a": 7, "position_b": None},
            ]
        }
    }
    # A's common columns: 0->0, 1->2, 2->3, 3->4, 4->5 (6 and 7 are gaps), 5->8.
    assert a_spans(result) == {"S": {0: (0, 1), 5: (5, 7)}}


def test_review_rows_and_values_are_the_operation_rows_with_id_and_span():
    from segagree.outputs.review_workbook import OPS_WRITTEN, review_rows, review_values

    result = garden()
    ops = result["operation_rows"]
    result["compare"]["mismatches"] = [
        {"speaker": ops[0]["speaker"], "kind": "only_a", "position": 0, "position_a": 1, "position_b": None}
    ]
    for matches in (False, True):
        rows = review_rows(result, matches=matches)
        kept = [(n, op) for n, op in enumerate(ops, start=1) if matches or op["op"] != "match"]
        assert [r["row_id"] for r in rows] == [n for n, _ in kept] and kept
        for row, (_, op) in zip(rows, kept, strict=True):
            assert {k: row[k] for k in op} == op and row["decision"] is None and row["comment"] is None
            pa = op["position_a"]
            shifted = op["speaker"] == ops[0]["speaker"] and pa == 0
            assert (row["span_a_from"], row["span_a_to"]) == ((0, 1) if shifted else (pa, pa))
        values = list(review_values(result, OPS_WRITTEN, matches=matches))
        assert values == [[r[k] for k in OPS_WRITTEN] for r in rows]
