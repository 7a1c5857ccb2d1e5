"""``segagree run CORPUS -o OUTDIR``: the whole pipeline over a corpus folder."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from segagree.cli import app
from segagree.cli.common import fmt_score, print_json, stderr, stdout
from segagree.errors import SegagreeError, UsageError
from segagree.outputs.run import run_corpus
from segagree.outputs.summary import POOLED
from segagree.pipeline.config import load_config


@app.command()
def run(
    corpus: Annotated[
        Path, typer.Argument(help="folder of annotations: TEXT.ANNOTATOR.EXT files, or one folder per annotator")
    ],
    output: Annotated[Path, typer.Option("-o", "--output", help="folder for summary, workbooks and report")],
    config: Annotated[
        Path | None, typer.Option(help="settings file (default: CORPUS/segagree.toml if present)")
    ] = None,
    jobs: Annotated[int, typer.Option(help="texts scored in parallel (results identical for any number)")] = 1,
    backend: Annotated[str, typer.Option(help="loky (joblib, default) or dask (pip install segagree[dask])")] = "loky",
    sims: Annotated[int | None, typer.Option(help="kappa: simulated chance annotations per speaker (K)")] = None,
    seed: Annotated[int | None, typer.Option(help="kappa: random seed")] = None,
    no_kappa: Annotated[bool, typer.Option(help="skip the simulated kappa")] = False,
    fresh: Annotated[bool, typer.Option(help="ignore results of an earlier run instead of resuming")] = False,
    no_workbooks: Annotated[bool, typer.Option(help="do not write review workbooks")] = False,
    no_report: Annotated[bool, typer.Option(help="do not write report.html and plots")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="print the summary as one JSON object")] = False,
) -> None:
    """Score every pair of annotators of every text; write summary.csv/json, review workbooks, report.html.

    Example: segagree run corpus/ -o results/ --jobs 2
    """
    if jobs < 1:
        raise UsageError("--jobs must be >= 1")
    if backend not in ("loky", "dask"):
        raise UsageError(f"--backend must be loky or dask, not {backend!r}")
    if not corpus.is_dir():
        raise SegagreeError("not a folder of annotations", path=corpus)
    settings = load_config(config, corpus)
    if sims is not None:
        if sims < 1:
            raise UsageError("--sims must be >= 1")
        settings.kappa.sims = sims
    if seed is not None:
        settings.kappa.seed = seed
    if no_kappa:
        settings.kappa.enabled = False
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=stderr,
        disable=quiet or json_out and not stderr.is_terminal,
        transient=True,
    ) as bar:
        task = bar.add_task("scoring", total=None)

        def progress(done: int, total: int, text: str) -> None:
            bar.update(task, completed=done, total=total, description=f"scoring {text}".strip())

        outcome = run_corpus(
            corpus,
            output,
            settings,
            jobs=jobs,
            backend=backend,
            resume=not fresh,
            workbooks=not no_workbooks,
            report=not no_report,
            progress=progress,
        )
    if json_out:
        print_json(
            {
                "outputs": outcome.outputs,
                "rows": outcome.rows,
                "failures": [r["error"] for r in outcome.failures],
                "skipped": outcome.corpus.skipped,
            }
        )
    else:
        _print_summary(outcome)
    if not quiet:
        stderr.print(
            f"{outcome.computed} pairs scored, {outcome.reused} reused from an earlier run; "
            f"wrote {output}/summary.csv, summary.json"
            + (", review/*.xlsx" if not no_workbooks else "")
            + (", report.html" if not no_report else "")
        )
    for line in outcome.corpus.skipped:
        stderr.print(f"skipped: {line}", markup=False)
    for failure in outcome.failures:
        stderr.print(
            f"failed: {failure['text']} ({failure['annotator_a']} vs {failure['annotator_b']}): {failure['error']}",
            markup=False,
        )
    if outcome.failures:
        raise typer.Exit(1)


def _print_summary(outcome) -> None:
    wanted = ("sf", "sf_b", "kappa_sf", "kappa_sf_b", "transcript_mismatches")
    values: dict[tuple, dict[str, float]] = {}
    for row in outcome.rows:
        if row["speaker"] == POOLED and row["metric"] in wanted:
            values.setdefault((row["text"], row["annotator_a"], row["annotator_b"]), {})[row["metric"]] = row["value"]
    table = Table(title="segagree run: pooled over speakers")
    for col in ("text", "A", "B", "S_f", "S_f^B", "κ(S_f)", "κ(S_f^B)", "mismatches"):
        table.add_column(col, justify="left" if col in ("text", "A", "B") else "right", no_wrap=col != "text")
    for (text, a, b), v in values.items():
        table.add_row(text, a, b, *(fmt_score(v.get(k)) for k in wanted[:4]), str(v.get("transcript_mismatches", 0)))
    stdout.print(table)
