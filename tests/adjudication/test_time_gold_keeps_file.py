"""Adjudicating a time review: the gold is the reference annotator's grid, keeping the source tier's
name and the file's own extent, and a gold whose chosen units overlap on one tier is refused with
both rows named (or, when the gold is written from its units alone, flagged as a loss)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from cli_process import run_cli

from segagree.formats import read_document

GRID = """File type = "ooTextFile"
Object class = "TextGrid"

xmin = 0
xmax = 12
tiers? <exists>
size = 1
item []:
    item [1]:
        class = "IntervalTier"
        name = "arms"
        xmin = 0
        xmax = 12
        intervals: size = {n}
{intervals}
"""


def _grid(path: Path, spans: list[tuple[float, float, str]]) -> Path:
    """A TextGrid whose tier 'arms' holds ``spans`` (gaps between them as empty intervals)."""
    cells: list[tuple[float, float, str]] = []
    t = 0.0
    for a, b, label in [*spans, (12.0, 12.0, "")]:
        if a > t:
            cells.append((t, a, ""))
        if b > a:
            cells.append((a, b, label))
        t = b
    body = "\n".join(
        f'        intervals [{i}]:\n            xmin = {a}\n            xmax = {b}\n            text = "{x}"'
        for i, (a, b, x) in enumerate(cells, 1)
    )
    path.write_text(GRID.format(n=len(cells), intervals=body), encoding="utf-8")
    return path


@pytest.fixture
def review(tmp_path: Path) -> Path:
    r1 = _grid(tmp_path / "r1.TextGrid", [(0, 2, "up"), (2, 4, "down"), (5, 9, "up")])
    r2 = _grid(tmp_path / "r2.TextGrid", [(0, 1, "up"), (1, 4, "down"), (5, 7, "up"), (7, 9, "down")])
    book = tmp_path / "review.xlsx"
    result = run_cli(["review", "--time", str(r1), str(r2), "-o", str(book)])
    assert result.returncode == 0, result.stderr
    return book


def _decide(book: Path, choose) -> Path:
    wb = openpyxl.load_workbook(book)
    ws = wb["Alignment"]
    header = [c.value for c in ws[1]]
    col = header.index("decision") + 1
    for r in range(2, ws.max_row + 1):
        row = dict(zip(header, [c.value for c in ws[r]], strict=False))
        ws.cell(r, col).value = choose(row)
    out = book.with_name("decided.xlsx")
    wb.save(out)
    return out


def test_gold_keeps_tier_name_and_extent(review: Path, tmp_path: Path) -> None:
    # r1's unit wherever r1 has one; nothing where only r2 has one.
    book = _decide(review, lambda row: "r1" if row["r1 start"] is not None else "none")
    result = run_cli(["adjudicate", str(book), "-o", str(tmp_path / "gold.TextGrid")])
    assert result.returncode == 0, result.stderr
    gold = read_document(tmp_path / "gold.TextGrid")
    assert gold.speakers == ["arms"]  # the source tier, not 'gold'
    # The file's own extent (0-12 s), not the reviewed span (0-9 s) nor the last gold unit.
    assert (gold.meta["xmin"], gold.meta["xmax"]) == (0.0, 12.0)
    spans = list(zip(gold.tokens["start"].dropna(), gold.tokens["end"].dropna(), strict=True))
    assert spans == [(0.0, 2.0), (2.0, 4.0), (5.0, 9.0)]


def test_overlapping_gold_refused(review: Path, tmp_path: Path) -> None:
    # r1's 5-9 s and r2's 7-9 s both chosen: one tier of r1's grid cannot hold both.
    book = _decide(review, lambda row: "r1" if row["r1 start"] is not None else "r2")
    result = run_cli(["adjudicate", str(book), "-o", str(tmp_path / "gold.TextGrid")])
    assert result.returncode == 1
    assert "tier 'arms': 5-9 s (row 4) and 7-9 s (row 5)" in result.stderr
    assert not (tmp_path / "gold.TextGrid").exists()


def test_overlapping_gold_flagged_without_the_source(review: Path, tmp_path: Path) -> None:
    # Written as ELAN from TextGrid sources: the grid converted, the overlap reported as a loss.
    book = _decide(review, lambda row: "r1" if row["r1 start"] is not None else "r2")
    result = run_cli(["adjudicate", str(book), "-o", str(tmp_path / "gold.eaf")])
    assert result.returncode == 0, result.stderr
    out = result.stdout + result.stderr
    assert "gold-overlap" in out and "5-9 s (row 4) and 7-9 s (row 5)" in out
    assert "source-converted" in out and "lossless" not in out
