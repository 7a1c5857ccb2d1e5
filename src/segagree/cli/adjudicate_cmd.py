"""``segagree adjudicate``: a filled-in review workbook -> a gold annotation."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from segagree.cli import app
from segagree.cli.common import stderr
from segagree.errors import UsageError
from segagree.outputs.adjudicate import adjudicate as adjudicate_workbook

_UNDECIDED = {"keep-a": "a", "error": "error"}


@app.command()
def adjudicate(
    review: Annotated[Path, typer.Argument(help="review workbook (review/TEXT.xlsx of segagree run), filled in")],
    output: Annotated[Path, typer.Option("-o", "--output", help="gold annotation to write (format by extension)")],
    undecided: Annotated[
        str, typer.Option(help="rows without a decision: keep-a (keep A's boundary, list them) or error")
    ] = "keep-a",
    sheet: Annotated[str | None, typer.Option(help="operations sheet to apply (texts with 3+ annotators)")] = None,
    to: Annotated[str | None, typer.Option("--to", help="output format (default: by extension)")] = None,
) -> None:
    """Apply the decisions of a review workbook to annotator A's file and write the gold annotation.

    Decisions (defined on the workbook's About sheet):
    A keeps A's boundary; B takes B's; both keeps A's and adds B's;
    neither removes A's; other keeps A's and lists the row for manual work.

    Example: segagree adjudicate out/review/garden.xlsx -o garden.gold.txt
    """
    if undecided not in _UNDECIDED:
        raise UsageError(f"--undecided must be keep-a or error, not {undecided!r}")
    report = adjudicate_workbook(review, output, undecided=_UNDECIDED[undecided], sheet=sheet, fmt=to)  # type: ignore[arg-type]
    for line in report.lines():
        stderr.print(line, markup=False, highlight=False, soft_wrap=True)
