"""``segagree review A B -o REVIEW.xlsx``: the review workbook of one pair of annotations."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from segagree.cli import app
from segagree.cli.common import stderr
from segagree.errors import SegagreeError, UsageError
from segagree.outputs.review import write_review_workbook
from segagree.pipeline.config import RunConfig
from segagree.pipeline.tasks import run_task


@app.command()
def review(
    file_a: Annotated[Path, typer.Argument(help="annotator A's file (the base of an adjudicated gold file)")],
    file_b: Annotated[Path, typer.Argument(help="annotator B's file")],
    output: Annotated[Path, typer.Option("-o", "--output", help="the workbook to write (.xlsx)")],
    scheme: Annotated[str, typer.Option(help="boundary scheme: built-in name or a file")] = "dubois",
    mode: Annotated[str, typer.Option(help="optimal or segsimflex")] = "optimal",
    matches: Annotated[bool, typer.Option(help="list match operations too")] = False,
    sims: Annotated[int, typer.Option(help="kappa: simulated chance annotations per speaker (0: no kappa)")] = 1000,
    seed: Annotated[int, typer.Option(help="kappa: random seed")] = 12345,
) -> None:
    """Write a review workbook listing every disagreement of two annotations, with a decision column.

    Example: segagree review talk.ann1.txt talk.ann2.eaf -o talk.review.xlsx
    Then:    segagree adjudicate talk.review.xlsx -o talk.gold.eaf
    """
    if output.suffix.lower() != ".xlsx":
        raise UsageError("the review workbook must be an .xlsx file")
    if mode not in ("optimal", "segsimflex"):
        raise UsageError(f"--mode must be optimal or segsimflex, not {mode!r}")
    if sims < 0:
        raise UsageError("--sims must be >= 0")
    config = RunConfig(scheme=scheme, mode=mode, review_matches=matches)
    config.kappa.enabled, config.kappa.sims, config.kappa.seed = sims > 0, max(sims, 1), seed
    text = file_a.name.split(".")[0]
    result = run_task(text, "A", "B", str(file_a), str(file_b), config)
    if not result["ok"]:
        raise SegagreeError(result["error"])
    path = write_review_workbook(output, [result], config)
    shown = len(result["operation_rows"]) if matches else sum(r["op"] != "match" for r in result["operation_rows"])
    stderr.print(f"wrote {path}: {shown} operations to review (S_f {result['compare']['sf']:.4f})")
