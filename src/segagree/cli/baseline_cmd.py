"""``segagree baseline HUMAN... -o TEXT.pause.txt``: the pause baseline of one text."""

from __future__ import annotations

import json
from pathlib import Path

import click

from segagree.cli.common import EXISTING_FILE, check_writable, done, examples, json_option, output_option, quiet_option


@click.command(
    epilog=examples(
        "segagree baseline time/kim.TextGrid time/lee.TextGrid --media talk.wav -o corpus/talk.pause.TextGrid",
        "# then the baseline is a machine of the panel:",
        "segagree panel corpus/ --machine seg --machine pause",
    )
)
@click.argument("humans", nargs=-1, required=True, type=EXISTING_FILE)
@output_option("The baseline's annotation (format by extension), e.g. TEXT.pause.txt beside the humans' files.")
@click.option(
    "--media",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The recording (default: the one the first file names).",
)
@click.option("--pitch", is_flag=True, help="Also mark gaps whose F0 reset reaches a threshold set on the humans.")
@click.option("--annotator", default="pause", show_default=True, help="The baseline's annotator name.")
@click.option(
    "--pitch-floor",
    type=click.FloatRange(min=0, min_open=True),
    default=75.0,
    show_default=True,
    metavar="HZ",
    help="Praat's pitch floor.",
)
@click.option(
    "--pitch-ceiling",
    type=click.FloatRange(min=0, min_open=True),
    default=600.0,
    show_default=True,
    metavar="HZ",
    help="Praat's pitch ceiling.",
)
@click.option(
    "--silence-threshold",
    type=float,
    default=-25.0,
    show_default=True,
    metavar="DB",
    help="Praat's silence threshold (dB below the maximum intensity).",
)
@json_option("print the thresholds and counts as one JSON object")
@quiet_option
def baseline(
    humans: tuple[Path, ...],
    output: Path,
    media: Path | None,
    pitch: bool,
    annotator: str,
    pitch_floor: float,
    pitch_ceiling: float,
    silence_threshold: float,
    json_out: bool,
    quiet: bool,
) -> None:
    """Write the pause baseline of a text: boundaries where the recording pauses.

    A gap between two words becomes a boundary when Praat's silent intervals there last at least
    the threshold (with --pitch: or when the F0 reset reaches its threshold); the thresholds are
    those with the highest mean boundary F1 against the HUMANS' own boundaries (the same tokens;
    the first file gives the word times and the recording). Needs segagree[cues] and word times.
    """
    import segagree.api as api

    check_writable(output)
    settings = api.CueSettings(
        pitch_floor=pitch_floor, pitch_ceiling=pitch_ceiling, silence_threshold=silence_threshold
    )
    res = api.pause_baseline(list(humans), output, media=media, pitch=pitch, cue_settings=settings, annotator=annotator)
    if json_out:
        click.echo(json.dumps(res, ensure_ascii=False))
        return
    reset = "" if res["reset"] is None else f", F0 reset >= {res['reset']:.2f} st"
    done(
        f"wrote {res['output']}: {res['boundaries']} boundaries at pauses >= {res['pause']:.3f} s{reset} "
        f"(mean F1 {res['f1']:.3f} against the humans over {res['gaps']} gaps; cues from {res['recording']})"
    )
