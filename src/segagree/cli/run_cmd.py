"""``segagree run CORPUS -o OUTDIR``: the whole pipeline over a corpus folder."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from segagree.cli.agree_time import corpus_time_options, measure_params, plan_reading
from segagree.cli.common import (
    Reading,
    check_track,
    check_writable,
    common_speakers_option,
    count_option,
    csv_guard_option,
    description_column,
    examples,
    fmt_score,
    given_only,
    new_progress,
    output_option,
    print_json,
    reading_options,
    say,
    say_unpaired,
    scheme_option,
    seed_option,
    split_names,
)


@click.command(
    epilog=examples(
        "segagree run . -o results/ --jobs 2",
        "segagree run tables/ -o results/ --sims 200 --seed 1 --no-report",
        "segagree run . -o results/ --reference ann2 --no-kappa --no-workbooks",
        "segagree run time_run/ -o time_results/ --time --tolerance 0.2 --seed 1",
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
@click.option(
    "--workbooks/--no-workbooks",
    default=None,
    help="Write a review workbook per text (review/TEXT.xlsx; default) or not.",
)
@click.option(
    "--report/--no-report", default=True, help="Write report.html and a page per text under texts/ (default) or not."
)
@click.option(
    "--review-pages/--no-review-pages",
    default=None,
    help="A review part (rows, recording, decisions to export) on every text page, or not (default: "
    "segagree.toml's review_pages, else off; about 0.09 s of CPU per text).",
)
@click.option("--fresh", is_flag=True, help="Ignore results of an earlier run instead of resuming.")
@click.option(
    "--metric",
    "metrics",
    multiple=True,
    metavar="NAMES",
    callback=split_names,
    help="Token track: the measures a run computes besides S_f and S_f^B (names or groups, repeat or comma "
    "list; default: segagree.toml's metrics, else B and Pk, and every subtitle measure for subtitle texts). "
    "Subtitle texts get only the subtitle measures named ('subtitles' for all).",
)
@click.option(
    "--machine",
    "machines",
    multiple=True,
    metavar="NAME",
    help="Judge this annotator (a segmenter) against the others as a panel, as segagree panel does: "
    "panel.csv/.json/.html in the output folder, its rows in the summary (repeat for several).",
)
@click.option(
    "--cues",
    is_flag=True,
    help="The acoustic cues at every boundary of every text whose recording is found, pooled into a cue profile: "
    "cues.csv, plots/cues.png and a report section (agreed against disputed; needs segagree[cues]).",
)
@click.option(
    "--sample-jobs",
    type=click.IntRange(min=1),
    metavar="N",
    help="With --time: gamma's own worker processes for its sampled continua (--jobs: texts in parallel).",
)
@reading_options
@common_speakers_option
@click.option(
    "--quiet",
    "-q",
    is_flag=True,
    help="No progress bar, no results table and no closing message (the outputs are written; notes of skipped "
    "texts and failures are still said; --json still prints).",
)
@click.option("--json", "json_out", is_flag=True, help="Print the summary as one JSON object.")
@corpus_time_options
@csv_guard_option
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
    workbooks: bool | None,
    report: bool,
    review_pages: bool | None,
    fresh: bool,
    metrics: tuple[str, ...],
    machines: tuple[str, ...],
    cues: bool,
    sample_jobs: int | None,
    reading: Reading,
    common_speakers: bool | None,
    quiet: bool,
    json_out: bool,
    **time_opts: Any,
) -> None:
    """Score every pair of annotators of every text of a corpus folder.

    CORPUS holds TEXT.ANNOTATOR.EXT files (any formats), or one folder per annotator.
    Writes summary.csv, summary.json and report.html (with a page per text under texts/)
    into the output folder, and a review workbook per text (review/TEXT.xlsx;
    --no-workbooks leaves them out). Every finished task is kept in results.jsonl at once: an
    interrupted run (Ctrl-C, or a killed process) resumes where it stopped when run again.
    One run at a time per output folder (a second one exits with code 1).

    With --time: time-based unitizing agreement (gamma, alpha-U, u-alpha, ELAN's kappa, boundary F1)
    of annotators who drew their own time spans, per text and pooled over texts, by the same
    machinery (--jobs texts in parallel, --backend, --fresh, resume, segagree.toml's [time]).
    """
    import segagree.api as api
    from segagree.errors import MissingFileError, SegagreeError

    if not corpus.exists():
        raise MissingFileError("no such folder", path=corpus)
    if not corpus.is_dir():
        raise SegagreeError("not a folder (run takes a folder of annotations)", path=corpus)
    check_writable(output, folder=True)
    check_track("run", time_opts)
    time_mode = time_opts.pop("time_mode")
    if time_mode:
        keywords: dict[str, Any] = {
            "time": True,
            "measures": list(time_opts["measures"]) or None,
            "params": {**measure_params({**time_opts, "seed": None, "jobs": sample_jobs}), "seed": seed},
            "category": time_opts["category"].lower(),
            "reading": plan_reading(time_opts),
        }
        if not given_only(time_unit=time_opts.get("time_unit")):  # segagree.toml's [time] time_unit, else s
            keywords["reading"].pop("time_unit", None)
        if keywords["reading"].get("window") is None:  # segagree.toml's [time] window, else none
            keywords["reading"].pop("window", None)
    else:
        keywords = {
            "kappa": kappa,
            "sims": sims,
            "reference": reference,
            "workbooks": workbooks is not False,  # on unless --no-workbooks
            "common_speakers": common_speakers,
            "review_pages": review_pages,
            "machines": list(machines),
            "metrics": list(metrics) or None,
            "cues": cues,
        }
    if time_mode:
        keywords["machines"] = list(machines)
    with _progress_bar(disabled=quiet, unit="texts" if time_mode else "pairs") as progress:
        outcome = api.run(
            corpus,
            output,
            config=config,
            jobs=jobs,
            backend=backend,
            resume=not fresh,
            seed=seed,
            scheme=scheme,
            report=report,
            **reading.api_keywords(),
            progress=progress,
            **keywords,
        )
    if json_out:
        print_json(
            {
                "outputs": outcome.outputs,
                "rows": outcome.rows,
                "failures": [r["error"] for r in outcome.failures],
                "skipped": outcome.corpus.skipped,
                **({"panel_error": outcome.panel_error} if outcome.panel_error else {}),
            }
        )
    elif quiet:
        pass  # quiet: the outputs hold the results
    elif time_mode:
        _print_time_summary(outcome.pairs, outcome.pooled_rows)
    else:
        _print_summary(outcome)
    _say_what_happened(outcome, output, quiet=quiet, time_mode=time_mode, workbooks=workbooks, report=report)
    if outcome.panel_error:  # the run's outputs are written; the panel's are not
        say(f"error: the panel failed (the summary and report are written, without it): {outcome.panel_error}")
    if outcome.failures or outcome.panel_error:
        raise SystemExit(1)


def _say_what_happened(
    outcome: Any, output: Path, *, quiet: bool, time_mode: bool, workbooks: bool | None, report: bool
) -> None:
    """On stderr: what was scored and written (unless quiet), then the notes, the panel's verdicts,
    the unpaired speakers, what was skipped and what failed."""
    if not quiet:
        what = "text" if time_mode else "pair"
        say(
            f"{_count(outcome.computed, what)} scored, {outcome.reused} reused from an earlier run; "
            f"wrote {output}/summary.csv, summary.json"
            + (", review/*.xlsx" if workbooks is not False and not time_mode else "")
            + (", report.html, texts/*.html" if report else "")
            + (", panel.csv, panel.json, panel.html" if outcome.panel else "")
        )
    for note in outcome.log_notes:
        say(f"note: {note}")
    for machine, result in ((outcome.panel or {}).get("results") or {}).items():
        say(f"panel: {machine}: {result['verdict']}")
    for note in (outcome.panel or {}).get("notes") or []:
        say(f"panel note: {note}")
    for res in outcome.results:
        if res.get("ok"):
            where = f"{res['text']} ({res['annotator_a']} vs {res['annotator_b']}): "
            say_unpaired((res.get("compare") or {}).get("unpaired_speakers"), where)
    for line in outcome.corpus.skipped:
        say(f"skipped: {line}")
    for failure in outcome.failures:
        who = "" if time_mode else f" ({failure['annotator_a']} vs {failure['annotator_b']})"
        say(f"failed: {failure['text']}{who}: {failure['error']}")


def _count(n: int, noun: str) -> str:
    """``1 pair``, ``2 pairs``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


@contextmanager
def _progress_bar(*, disabled: bool, unit: str = "pairs") -> Iterator[Callable[[int, int, str], None]]:
    """A progress bar on stderr (tasks done, rate, time left), drawn only on a terminal."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with new_progress(
        description_column(),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        disable=disabled,
        # redrawn at each finished pair, not by a thread of its own: a run of a few long texts
        # forks its children from this process, which a running thread would forbid
        auto_refresh=False,
    ) as bar:
        task = bar.add_task("scoring", total=None, rate="")
        first: list[tuple[int, float]] = []  # (pairs done, time) when this run started scoring

        def progress(done: int, total: int, text: str) -> None:
            now = time.monotonic()
            if not first:
                first.append((done, now))
            start_done, start = first[0]
            rate = (done - start_done) / (now - start) if now > start else 0.0
            shown = f"{rate:.1f} {unit}/s" if rate else ""
            bar.update(task, completed=done, total=total, description=f"scoring {text}".strip(), rate=shown)
            bar.refresh()

        yield progress


#: At most this many pairs are listed in the closing table; summary.csv and report.html have all.
MAX_LISTED = 40


def _print_summary(outcome: Any) -> None:
    """The pooled scores of every pair in task order, or of the lowest :data:`MAX_LISTED` by S_f."""
    import segagree.api as api

    sf = api.SF_NAMES[0]
    scored = [r for r in outcome.pairs if r.get("ok")]
    title = "segagree run: pooled over speakers"
    if len(scored) > MAX_LISTED:
        title += f" ({MAX_LISTED} lowest S_f of {len(scored)} pairs; all in summary.csv and report.html)"
        scored = sorted(scored, key=lambda r: (r.get(sf) is None, r.get(sf) or 0.0))[:MAX_LISTED]
    from segagree.cli.tables import ScoreTable

    table = ScoreTable(["text", "A", "B", "S_f", "S_f^B", "κ(S_f)", "κ(S_f^B)", "mismatches"], title=title, left=3)
    for r in scored:
        values = (fmt_score(r.get(k)) for k in (*api.SF_NAMES, *api.KAPPA_NAMES))
        table.add_row(r["text"], r["annotator_a"], r["annotator_b"], *values, r.get("mismatches", 0))
    table.print()


#: At most this many texts are shown one by one in the printed table of a run in time.
MAX_TEXTS_SHOWN = 12


def _print_time_summary(lights: list[dict[str, Any]], pooled_rows: list[dict[str, Any]]) -> None:
    """A row per measure (per category): the value pooled over texts, and each text's (a column per
    text where they fit, else a row per text below; from the light records: no record is read back
    from the log)."""
    from segagree.cli.tables import MatrixRow, print_matrix

    texts = {r["text"]: r.get("values") or {} for r in lights if r.get("ok")}
    rows = [
        MatrixRow(
            str(row["measure"]),
            {t: fmt_score(texts[t][row["measure"]]) for t in texts if row["measure"] in texts[t]},
            fmt_score(row["value"]),
            str(row["note"]),
        )
        for row in pooled_rows
    ]
    shown = sorted(texts) if len(texts) <= MAX_TEXTS_SHOWN else []
    title = "segagree run --time: pooled over speakers" + ("" if shown else " (per text: summary.csv, report.html)")
    print_matrix(title, "measure", "text", shown, rows, pooled="all texts", note="note")
