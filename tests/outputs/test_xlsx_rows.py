"""Bulk rows of a worksheet (segagree.outputs.xlsx_rows): the file XlsxWriter writes cell by cell, byte for byte."""

from __future__ import annotations

import io
import zipfile
from datetime import datetime
from typing import Any

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xlsxwriter import Workbook
from xlsxwriter.worksheet import Worksheet

from segagree.outputs import review_workbook as review
from segagree.outputs.xlsx_rows import BulkRowsWorksheet, CellByCellWorksheet, rows_worksheet_class

from conftest import REPO

CREATED = datetime(2026, 1, 2, 3, 4, 5)


def per_cell(ws: Worksheet, first_row: int, cols: list[int], rows: list[list[Any]]) -> None:
    """The reference: XlsxWriter's own write_number / write_string, cell by cell."""
    for r, values in enumerate(rows, start=first_row):
        for col, value in zip(cols, values, strict=True):
            if value is None:
                continue
            if isinstance(value, str):
                ws.write_string(r, col, value)
            else:
                ws.write_number(r, col, value)


def build(rows: list[list[Any]], cols: list[int], bulk: bool, *, row_format: int | None = None) -> dict[str, bytes]:
    """An xlsx with a formatted header, column formats and ``rows`` below it; its zip members."""
    buf = io.BytesIO()
    wb = Workbook(buf, {"in_memory": True, "strings_to_numbers": False})
    wb.set_properties({"created": CREATED})
    head = wb.add_format({"bold": True})
    grey = wb.add_format({"font_color": "#808080"})
    money = wb.add_format({"num_format": "0.00"})
    ws = wb.add_worksheet("data", worksheet_class=BulkRowsWorksheet if bulk else None)
    for col in range(max(cols) + 2):
        ws.write_string(0, col, f"h{col}", head)
    ws.set_row(0, 30)
    ws.set_column(cols[0], cols[0], 9, grey)
    ws.set_column(cols[-1], cols[-1] + 1, 12, money)
    if row_format is not None:
        ws.set_row(row_format, None, money)
    if bulk:
        assert ws.write_rows(1, cols, rows) == len(rows)
    else:
        per_cell(ws, 1, cols, rows)
    ws.autofilter(0, 0, max(len(rows), 1), max(cols))
    other = wb.add_worksheet("other")  # strings of another sheet share the table
    other.write_string(0, 0, "x & <y>")
    wb.close()
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
        return {name: z.read(name) for name in z.namelist()}


text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12) | st.sampled_from(
    [" lead", "trail ", "_x0001_", "a\x02b", "<&>", "%(3)s", "", "\u2016", "\U0001f600"]
)
number = st.integers(-(10**18), 10**18) | st.floats(allow_nan=False, allow_infinity=False)
value = st.none() | text | number


@settings(max_examples=120, deadline=None)
@given(
    cols=st.lists(st.integers(0, 40), min_size=1, max_size=8, unique=True).map(sorted),
    data=st.data(),
)
def test_bulk_rows_give_the_librarys_file(cols: list[int], data: st.DataObject) -> None:
    rows = data.draw(st.lists(st.lists(value, min_size=len(cols), max_size=len(cols)), max_size=40))
    row_format = data.draw(st.none() | st.integers(1, 45))
    assert build(rows, cols, True, row_format=row_format) == build(rows, cols, False, row_format=row_format)


def test_many_rows_and_blocks_of_spans() -> None:
    cols = [0, 1, 3, 7]
    rows = [[i, f"t{i % 97}", None if i % 5 else i * 0.25, None if i % 17 else "z"] for i in range(2000)]
    rows[1500] = [None, None, None, None]  # a row without cells is not written
    assert build(rows, cols, True) == build(rows, cols, False)


def test_values_it_does_not_hold_are_refused() -> None:
    wb = Workbook(io.BytesIO(), {"in_memory": True})
    ws = wb.add_worksheet("s", worksheet_class=BulkRowsWorksheet)
    with pytest.raises(TypeError, match="NAN/INF"):
        ws.write_rows(1, [0], [[float("nan")]])
    with pytest.raises(TypeError, match="bool is neither"):
        ws.write_rows(1, [0], [[True]])
    with pytest.raises(ValueError, match="ascending"):
        ws.write_rows(1, [2, 1], [["a", "b"]])
    with pytest.raises(ValueError, match="2 values for 1 columns"):
        ws.write_rows(1, [0], [["a", "b"]])
    ws.write_rows(1, [0], [["a"]])
    with pytest.raises(ValueError, match="written already"):
        ws.write_rows(1, [0], [["b"]])
    ws.write_string(5, 0, "after the bulk rows")
    with pytest.raises(ValueError, match="after every other row"):
        wb.close()


def test_text_past_a_cells_length_is_cut_as_the_library_cuts_it() -> None:
    rows = [["\U0001f600" * 20_000], ["a" * 32_767]]
    assert build(rows, [0], True) == build(rows, [0], False)


def _workbook_members(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist() if n != "docProps/core.xml"}


def test_review_workbook_is_the_one_written_cell_by_cell(tmp_path, monkeypatch) -> None:
    from segagree.corpus.config import RunConfig
    from segagree.corpus.tasks import run_task

    sample = REPO / "sample_corpora"
    cfg = RunConfig()
    cfg.kappa.enabled = False
    res = run_task("garden", "ann1", "ann2", str(sample / "garden.ann1.txt"), str(sample / "garden.ann2.txt"), cfg)
    assert res["ok"], res["error"]
    first = next(op for op in res["operation_rows"] if op["op"] != "match")
    first["context"] = "long " * 7000  # split onto the continuation sheet
    review.write_review_workbook(tmp_path / "bulk.xlsx", [res], cfg)

    def reference(ws: Worksheet, first_row: int, cols: list[int], rows: Any) -> int:
        rows = list(rows)
        per_cell(ws, first_row, cols, rows)
        return len(rows)

    monkeypatch.setattr(BulkRowsWorksheet, "write_rows", reference)
    review.write_review_workbook(tmp_path / "cells.xlsx", [res], cfg)
    assert _workbook_members(tmp_path / "bulk.xlsx") == _workbook_members(tmp_path / "cells.xlsx")
    sheet = openpyxl.load_workbook(tmp_path / "bulk.xlsx")[review.SINGLE_PAIR_SHEET]
    assert sheet.max_row == len(review.review_rows(res, matches=False)) + 1 > 2
    head = review.XLSX_MAX_CHARS - len(review.CUT_MARK)
    assert sheet.cell(2, 5).value == ("long " * 7000)[:head] + review.CUT_MARK


def test_an_unchecked_xlsxwriter_release_writes_cell_by_cell() -> None:
    """Bulk rows lean on XlsxWriter's internals: only the releases they were checked against use
    them; any other writes through the library's own calls, and gives the same file."""
    assert rows_worksheet_class("3.3.1") is BulkRowsWorksheet
    assert rows_worksheet_class("3.9.12") is BulkRowsWorksheet
    for other in ("3.2.0", "3.3.0", "4.0.0", "5.1"):
        assert rows_worksheet_class(other) is CellByCellWorksheet
    rows: list[list[Any]] = [["a", 1, None], [None, 2.5, "b"], ["c & <d>", None, 3]]
    files = []
    for cls in (BulkRowsWorksheet, CellByCellWorksheet):
        buf = io.BytesIO()
        wb = Workbook(buf, {"in_memory": True, "strings_to_numbers": False})
        wb.set_properties({"created": CREATED})
        ws = wb.add_worksheet("data", worksheet_class=cls)
        ws.write_string(0, 0, "head")
        assert ws.write_rows(1, [0, 2, 5], rows) == 3
        wb.close()
        with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
            files.append({name: z.read(name) for name in z.namelist()})
    assert files[0] == files[1]
    with pytest.raises(TypeError, match="neither text nor a number"):
        CellByCellWorksheet.write_rows(Workbook(io.BytesIO()).add_worksheet(), 0, [0], [[True]])
