"""``segagree run CORPUS -o OUTDIR``: the whole pipeline over a corpus folder."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from segagree.cli.common import (
    Reading,
    check_writable,
    common_speakers_option,
    count_option,
    examples,
    fmt_score,
    new_table,
    output_option,
    print_json,
    reading_options,
    say,
    say_unpaired,
    scheme_option,
    seed_option,
    stderr,
    stdout,
)


@click.command(
    epilog=examples(
        "segagree run . -o results/ --jobs 2",
        "segagree run tables/ -o results/ --sims 200 --seed 1 --no-report",
        "segagree run . -o results/ --reference ann2 --no-kappa --no-workbooks",
    )
    + "\n\nSettings may also come from CORPUS/segagree.toml (see the README)."
)
@click.argument("corpus", type=click.Path(path_type=Path), metavar="CORPUS")
@output_option("Folder for the summary, review workbooks and report.", metavar="FOLDER", file=False)
@click.option(
    "--config",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Settings file (default: CORPUS/segagree.toml if present).",
)
@click.option(
    "--reference",
    metavar="NAME",
    help="Annotator scored as A (the reference) in its pairs (default: ref, reference or gold, "
    "else the alphabetically first).",
)
@count_option("--jobs", "Texts scored in parallel (the numbers are the same for any value).", default=1)
@click.option(
    "--backend",
    default="loky",
    show_default=True,
    type=click.Choice(["loky", "dask"]),
    help="Parallel backend: loky (joblib) or dask (pip install segagree[dask]).",
)
@scheme_option
@click.option("--kappa/--no-kappa", default=None, help="Simulated kappa (default: on, or as in segagree.toml).")
@count_option("--sims", "Kappa: simulated chance annotations per speaker (K).", metavar="K")
@seed_option("Kappa: base random seed (each text and pair derives its own).", default=None)
@click.option("--workbooks/--no-workbooks", default=True, help="Write review workbooks (default) or not.")
@click.option("--report/--no-report", default=True, help="Write report.html and its plots (default) or not.")
@click.option("--fresh", is_flag=True, help="Ignore results of an earlier run instead of resuming.")
@reading_options
@common_speakers_option
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no closing message.")
@click.option("--json", "json_out", is_flag=True, help="Print the summary as one JSON object.")
def run(
    corpus: Path,
    output: Path,
    config: Path | None,
    reference: str | None,
    jobs: int,
    backend: str,
    scheme: str | None,
    kappa: bool | None,
    sims: int | None,
    seed: int | None,
    workbooks: bool,
    report: bool,
    fresh: bool,
    reading: Reading,
    common_speakers: bool | None,
    quiet: bool,
    json_out: bool,
) -> None:
    """Score every pair of annotators of every text of a corpus folder.

    CORPUS holds TEXT.ANNOTATOR.EXT files (any formats), or one folder per annotator.
    Writes summary.csv and summary.json, a review workbook per text (review/TEXT.xlsx)
    and report.html into the output folder; an interrupted run resumes.
    """
    import segagree.api as api
    from segagree.errors import SegagreeError

    if not corpus.exists():
        raise SegagreeError("no such folder", path=corpus)
    if not corpus.is_dir():
        raise SegagreeError("not a folder (run takes a folder of annotations)", path=corpus)
    check_writable(output, folder=True)
    opts = reading.options
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    err = stderr()
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        disable=quiet or not err.is_terminal,
        transient=True,
    ) as bar:
        task = bar.add_task("scoring", total=None)

        def progress(done: int, total: int, text: str) -> None:
            bar.update(task, completed=done, total=total, description=f"scoring {text}".strip())

        started = time.time()
        try:
            outcome = api.run(
                corpus,
                output,
                config=config,
                jobs=jobs,
                backend=backend,
                resume=not fresh,
                kappa=kappa,
                sims=sims,
                seed=seed,
                reference=reference,
                scheme=scheme,
                workbooks=workbooks,
                report=report,
                format=reading.format,
                read_options=opts,
                common_speakers=common_speakers,
                progress=progress,
            )
        except BaseException:
            _remove_stale(output, started)
            raise
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
        say(
            f"{outcome.computed} pairs scored, {outcome.reused} reused from an earlier run; "
            f"wrote {output}/summary.csv, summary.json"
            + (", review/*.xlsx" if workbooks else "")
            + (", report.html" if report else "")
        )
    for res in outcome.results:
        if res.get("ok"):
            where = f"{res['text']} ({res['annotator_a']} vs {res['annotator_b']}): "
            say_unpaired((res.get("compare") or {}).get("unpaired_speakers"), where)
    for line in outcome.corpus.skipped:
        say(f"skipped: {line}")
    for failure in outcome.failures:
        say(f"failed: {failure['text']} ({failure['annotator_a']} vs {failure['annotator_b']}): {failure['error']}")
    if outcome.failures:
        raise SystemExit(1)


# Outputs that describe a finished run; after a failed or interrupted run, the ones left from
# an earlier run would claim a completeness this run does not have. results.jsonl stays: it is
# what resuming needs.
_FINAL_OUTPUTS = ("summary.csv", "summary.json", "report.html", "skipped.txt")


def _remove_stale(output: Path, started: float) -> None:
    for name in _FINAL_OUTPUTS:
        path = output / name
        try:
            if path.is_file() and path.stat().st_mtime < started:
                path.unlink()
        except OSError:
            pass


def _print_summary(outcome: Any) -> None:
    from segagree.outputs.summary import POOLED

    wanted = ("sf", "sf_b", "kappa_sf", "kappa_sf_b", "transcript_mismatches")
    values: dict[tuple[str, str, str], dict[str, float]] = {}
    for row in outcome.rows:
        if row["speaker"] == POOLED and row["metric"] in wanted:
            values.setdefault((row["text"], row["annotator_a"], row["annotator_b"]), {})[row["metric"]] = row["value"]
    table = new_table(title="segagree run: pooled over speakers")
    for col in ("text", "A", "B", "S_f", "S_f^B", "κ(S_f)", "κ(S_f^B)", "mismatches"):
        table.add_column(col, justify="left" if col in ("text", "A", "B") else "right", overflow="fold")
    for (text, a, b), v in values.items():
        table.add_row(text, a, b, *(fmt_score(v.get(k)) for k in wanted[:4]), str(v.get("transcript_mismatches", 0)))
    stdout().print(table)
