"""``segagree segment``: re-break a subtitle file by a baseline (length)."""

from __future__ import annotations

from pathlib import Path

import click

from segagree.cli.common import check_writable, json_option
from segagree.cli.degrade_cmd import read_then_write, rebreak_command, say_written


@rebreak_command(
    "source",
    "segagree segment film.ref.srt --baseline length --max-cpl 42 -o film.len42.srt",
    "segagree segment film.ref.srt --baseline length --max-cpl 30 --max-lines 1 -o film.len30.srt --json",
)
@click.option(
    "--baseline", type=click.Choice(["length"]), default="length", show_default=True, help="The segmentation baseline."
)
@click.option("--max-cpl", type=click.IntRange(min=1), default=42, show_default=True, help="Characters per line.")
@click.option("--max-lines", type=click.IntRange(min=1), default=2, show_default=True, help="Lines per block.")
@click.option("--from", "from_", metavar="FORMAT", help="Input format (default: by extension); e.g. tagged.")
@json_option("print what was done as one JSON object")
def segment(
    source: Path,
    output: Path,
    baseline: str,
    max_cpl: int,
    max_lines: int,
    from_: str | None,
    json_out: bool,
    quiet: bool,
) -> None:
    """Drop a subtitle file's breaks and re-break it by length.

    Each line takes words up to --max-cpl characters; a line ends in <eol>, the block's last line
    (after --max-lines lines) and the end of each sentence in <eob>. The words never change; the
    output has the input's format, cue times estimated by word position inside the original cues.
    """
    import segagree.api as api

    check_writable(output)
    with read_then_write(source, output, from_) as (doc, target):
        res = api.segment(doc, target, baseline=baseline, max_cpl=max_cpl, max_lines=max_lines)
    say_written(res, output, json_out)
