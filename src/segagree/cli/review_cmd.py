"""``segagree review A B -o REVIEW.xlsx|REVIEW.html``: the review workbook or page of one pair of annotations."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import click

import segagree.api as api
from segagree.cli.agree_time import given_seed, time_options
from segagree.cli.common import (
    EXISTING_FILE,
    Reading,
    SpeakerLabels,
    check_track,
    check_writable,
    count_option,
    done,
    examples,
    json_option,
    max_mismatch_option,
    mode_option,
    output_option,
    print_json,
    quiet_option,
    reading_options,
    say,
    say_unpaired,
    scheme_option,
    seed_option,
    speaker_labels_option,
    split_names,
)


@click.command(
    epilog=examples(
        "segagree review garden.ann1.txt garden.ann2.txt -o garden.review.xlsx",
        "segagree review garden.ann1.txt tables/garden.ann2.csv -o g.xlsx --no-kappa",
        "segagree review garden.ann1.txt garden.ann2.txt -o g.xlsx --max-mismatch 0.3",
        "# then fill in the decision column, and:",
        "segagree adjudicate garden.review.xlsx -o garden.gold.eaf",
        "# the review page; the recording is the one the ELAN files name:",
        "segagree review recording/talk.kim.eaf recording/talk.lee.eaf -o talk.html",
        "# decide in the browser, export, then: segagree adjudicate FILE.json -o G",
    )
)
@click.argument("files", nargs=-1, type=EXISTING_FILE)
@output_option("The workbook (.xlsx) or the review page (.html) to write.")
@scheme_option
@mode_option
@click.option("--matches", is_flag=True, help="List match operations too.")
@click.option(
    "--metric",
    "metrics",
    multiple=True,
    metavar="NAMES",
    callback=split_names,
    help="The measures on the Summary sheet besides S_f (names or groups; repeat or comma list); a subtitle "
    "pair then gets only the subtitle measures named ('subtitles' for all; default: all of them).",
)
@click.option("--kappa/--no-kappa", default=True, help="Simulated kappa on the Summary sheet (default) or not.")
@count_option("--sims", "Kappa: simulated chance annotations per speaker.", default=api.DEFAULT_SIMS, metavar="K")
@seed_option("Kappa: random seed.")
@max_mismatch_option
@speaker_labels_option
@reading_options
@time_options
@click.option(
    "--plot", type=click.Path(dir_okay=False, path_type=Path), help="With --time: draw units and alignment (.png)."
)
@click.option(
    "--media",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The recording (default: the one annotation A names): played by the .html page (linked, not copied) "
    "and measured for the acoustic cues.",
)
@click.option(
    "--margin",
    type=click.FloatRange(min=0),
    default=1.0,
    show_default=True,
    metavar="SECONDS",
    help="With an .html output: seconds played before and after each row's span.",
)
@click.option(
    "--cues/--no-cues",
    default=None,
    help="The acoustic cues at each row's boundary (pause, F0 and intensity reset, speech rate, final lengthening; "
    "needs segagree[cues]). Default: when a recording is found and segagree[cues] is installed; --cues: always "
    "(empty, with the reason, without them).",
)
@click.option(
    "--pitch-floor",
    type=click.FloatRange(min=0, min_open=True),
    default=75.0,
    show_default=True,
    metavar="HZ",
    help="Cues: Praat's pitch floor.",
)
@click.option(
    "--pitch-ceiling",
    type=click.FloatRange(min=0, min_open=True),
    default=600.0,
    show_default=True,
    metavar="HZ",
    help="Cues: Praat's pitch ceiling.",
)
@click.option(
    "--silence-threshold",
    type=float,
    default=-25.0,
    show_default=True,
    metavar="DB",
    help="Cues: Praat's silence threshold (dB below the maximum intensity).",
)
@json_option("print what was written as one JSON object")
@quiet_option
def review(
    files: tuple[Path, ...],
    output: Path,
    scheme: str | None,
    mode: str,
    matches: bool,
    metrics: tuple[str, ...],
    kappa: bool,
    sims: int,
    seed: int,
    max_mismatch: float,
    speaker_labels: SpeakerLabels,
    reading: Reading,
    plot: Path | None,
    media: Path | None,
    margin: float,
    cues: bool | None,
    pitch_floor: float,
    pitch_ceiling: float,
    silence_threshold: float,
    json_out: bool,
    quiet: bool,
    **time_opts: Any,
) -> None:
    """Write a review workbook listing every disagreement of two annotations.

    FILE_A is the base of the gold annotation that segagree adjudicate writes from the
    reviewers' decisions (A, B, both, neither, other). With --time, FILES are units in time
    (as for agree --time): one row per aligned group of the best alignment (gamma's), decided by
    annotator name, none or edit.

    An .html output is the review page: the same rows in the browser, with both annotators'
    versions, the recording (each row plays its span), keyboard decisions kept in the browser, and
    an export that segagree adjudicate reads like the workbook.
    """
    import segagree.api as api
    from segagree.errors import UsageError

    if time_opts["time_mode"] and time_opts.get("tolerance") is not None:
        # before the general check, whose reason ("choose one with --measure") would send the user to
        # boundary_f1, which gives no alignment to review
        raise click.UsageError(
            "--tolerance does not apply to review --time: it is boundary F1's tolerance, and the review shows the "
            "best alignment of a measure that gives one (gamma by default), which boundary F1 does not; boundary "
            "F1 with a tolerance: segagree agree --time --measure boundary_f1 --tolerance S",
            click.get_current_context(),
        )
    check_track("review", time_opts, first=1)
    from segagree.cli.streams import input_files, is_stdio

    if is_stdio(output):
        raise UsageError("review writes a workbook (.xlsx) or a page (.html), told by the name: give -o a file name")
    check_writable(output)
    page = output.suffix.lower() in (".html", ".htm")
    if not page and margin != 1.0:  # reported, not refused: same options for both outputs
        say("note: --margin applies to the review page (an .html output); the workbook plays no recording")
    cue_settings = api.CueSettings(
        pitch_floor=pitch_floor, pitch_ceiling=pitch_ceiling, silence_threshold=silence_threshold
    )
    if time_opts.pop("time_mode"):
        from segagree.cli.agree_time import run_time_review

        opts = {**time_opts, "seed": given_seed(seed), "jobs": None}  # jobs: the measure's default
        with input_files(list(files), reading.format) as local:
            written = run_time_review(
                local, output, opts, reading, scheme, plot, media=media, margin=margin, cues=cues,
                cue_settings=cue_settings,
            )  # fmt: skip
        if json_out and written is not None:
            print_json(written)
        return
    if len(files) != 2:
        raise UsageError(
            f"review compares two annotations FILE_A FILE_B (or units in time with --time), got {len(files)}"
        )
    with input_files(list(files), reading.format) as (file_a, file_b):
        outcome = api.review(
            file_a,
            file_b,
            output,
            scheme=scheme,
            mode=mode.lower(),
            matches=matches,
            kappa=kappa,
            sims=sims,
            seed=seed,
            max_mismatch=max_mismatch,
            media=media,
            margin=margin,
            metrics=list(metrics) or None,
            cues=cues,
            cue_settings=cue_settings,
            **speaker_labels.api_keywords(),
            **reading.api_keywords(),
        )
    say_unpaired(outcome.unpaired_speakers)
    for note in outcome.notes:
        say(f"note: {note}")
    if json_out:
        print_json({**dataclasses.asdict(outcome), "path": str(outcome.path)})
        return
    sf = "-" if outcome.sf is None else f"{outcome.sf:.4f}"
    done(f"wrote {outcome.path}: {outcome.operations} operations to review (S_f {sf})")
    if page:
        done(api.review_page_media(outcome.path))
    if outcome.cues:
        say(outcome.cues)
