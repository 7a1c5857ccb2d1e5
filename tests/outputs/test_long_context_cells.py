"""A review workbook's context cell longer than an Excel cell holds (five 7,000-character
tokens): split onto the continuation sheet, and marked so that a reader of the cell knows it is
not all there; adjudication joins it again."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from cli_process import run_cli

from segagree.adjudication.tokens import continued_cells
from segagree.files.cells import XLSX_MAX_CHARS
from segagree.outputs.review_workbook import CUT_MARK, join_continued


def test_long_context_cell_split_and_marked(tmp_path: Path) -> None:
    tokens = [f"w{i}" + "x" * 6998 for i in range(5)]
    (tmp_path / "a.txt").write_text(" ".join(tokens[:2]) + " .\n" + " ".join(tokens[2:]) + " .\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text(" ".join(tokens[:3]) + " .\n" + " ".join(tokens[3:]) + " .\n", encoding="utf-8")
    book = tmp_path / "review.xlsx"
    result = run_cli(["review", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "-o", str(book)])
    assert result.returncode == 0, result.stderr
    wb = openpyxl.load_workbook(book)
    ws = wb["Operations"]
    header = [c.value for c in ws[1]]
    col = next(i for i, h in enumerate(header, 1) if str(h).startswith("context"))
    cell = ws.cell(row=2, column=col)
    assert len(cell.value) == XLSX_MAX_CHARS
    assert cell.value.endswith(CUT_MARK)  # the cell read back on its own says it is cut
    # The mark: a note on the column's header naming the row and the sheet holding the rest.
    note = ws.cell(row=1, column=col).comment
    assert note is not None and "rows 2 " in note.text and "'Continued'" in note.text
    # Nothing lost: cell + continuation is the whole context, every token in it whole.
    whole = join_continued(cell.value, continued_cells(wb)[("Operations", 2, col)])
    assert CUT_MARK not in whole
    assert len(whole) > XLSX_MAX_CHARS
    for token in tokens:
        assert token in whole
    gold = run_cli(["adjudicate", str(book), "-o", str(tmp_path / "gold.txt")])
    assert gold.returncode == 0, gold.stderr
