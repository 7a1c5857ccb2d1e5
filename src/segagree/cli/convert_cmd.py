"""``segagree convert``: one file, or a folder, into another format, with the loss report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from segagree.cli.common import (
    Quiet,
    Reading,
    check_writable,
    description_column,
    done,
    examples,
    json_option,
    new_progress,
    output_option,
    print_json,
    quiet_option,
    reading_options,
    say,
    scheme_option,
)


@click.command(
    epilog=examples(
        "segagree convert tools/garden.ann1.eaf -o garden.ann1.TextGrid",
        "segagree convert garden.ann1.txt -o garden.ann1.csv --json",
        "segagree convert tables/garden.ann2.csv -o garden.ann2.txt --strict",
        "segagree convert tools/ -o converted/ --to srt",
    )
)
@click.argument("source", type=click.Path(path_type=Path))
@output_option(
    "Output file (or folder for a batch; '-': standard output, with --to).", metavar="FILE|FOLDER", file=False
)
@click.option("--to", metavar="FORMAT", help="Output format (default: by extension); e.g. praat, elan, csv, srt.")
@scheme_option
@click.option("--layer", metavar="NAME", help="Layer to write for one-layer formats (default iu).")
@click.option(
    "--layout",
    type=click.Choice(["dubois", "rezonator"]),
    help="Text layout: dubois (default), or rezonator (Rezonator's tab-separated import).",
)
@click.option(
    "--endnotes",
    type=click.Choice(["words", "drop"]),
    help="CoNLL-U from a transcript, ELAN or a TextGrid: write the units' endnotes (. , ?) as words after their "
    "last words, or drop them (the default; reported).",
)
@click.option(
    "--speaker", "speakers", multiple=True, metavar="NAME", help="Keep only this speaker (repeat for several)."
)
@click.option("--strict", is_flag=True, help="Treat any loss as an error (exit 1) and write nothing.")
@reading_options
@json_option("print the loss report as one JSON object")
@quiet_option
def convert(
    source: Path,
    output: Path,
    to: str | None,
    scheme: str | None,
    layer: str | None,
    layout: str | None,
    endnotes: str | None,
    speakers: tuple[str, ...],
    strict: bool,
    reading: Reading,
    json_out: bool,
    quiet: bool,
) -> None:
    """Convert annotations between formats, reporting what the target cannot hold.

    SOURCE is an annotation file, or a folder for a batch conversion (then --to is needed).
    '-' reads standard input (with --from) and -o - writes to standard output (with --to).
    The loss report lists what reading and writing lost; 'lossless' means nothing was.
    """
    import segagree.api as api

    opts = reading.options
    # Only the options the user set: each writer refuses options it does not know.
    given = (("layer", layer), ("layout", layout), ("endnotes", endnotes))
    write_opts = {k: v for k, v in given if v is not None}
    from segagree.cli.streams import input_file, is_stdio, output_file, shown
    from segagree.errors import UsageError

    if source.is_dir():
        _convert_folder(source, output, to, scheme, strict, write_opts, reading, speakers, json_out)
        return
    check_writable(output)
    if is_stdio(output) and json_out:
        raise UsageError("-o - and --json both write to standard output: give -o a file name")
    with input_file(source, reading.format) as local, output_file(output, to) as target:
        report = api.convert(
            local,
            target,
            format=reading.format,
            to=to,
            scheme=scheme,
            speakers=list(speakers) or None,
            strict=strict,
            read_options=opts,
            **write_opts,
        )
    if json_out:
        print_json(report.to_dict())
        return
    done(f"wrote {shown(output)} ({report.format_to})")
    for line in report.lines():
        say(f"  loss: {line}")
    for line in report.note_lines():
        say(f"  note: {line}")
    if report.lossless:
        done("  lossless")


def _convert_folder(
    source: Path,
    output: Path,
    to: str | None,
    scheme: str | None,
    strict: bool,
    write_opts: dict[str, Any],
    reading: Reading,
    speakers: tuple[str, ...],
    json_out: bool,
) -> None:
    import segagree.api as api
    from segagree.errors import UsageError

    if not to:
        raise UsageError("a batch conversion needs --to FORMAT")
    check_writable(output, folder=True)
    from rich.progress import BarColumn, MofNCompleteColumn, TimeElapsedColumn

    with new_progress(
        description_column(), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), disable=json_out or Quiet.on
    ) as bar:
        task = bar.add_task("converting", total=None)

        def advance(path: Path, report: Any) -> None:
            bar.update(task, advance=1)
            if report is not None and not json_out:
                for line in report.lines():
                    say(f"{path.relative_to(source)}: loss: {line}")

        batch = api.convert_folder(
            source,
            output,
            to,
            format=reading.format,
            scheme=scheme,
            speakers=list(speakers) or None,
            strict=strict,
            read_options=reading.options,
            progress=advance,
            **write_opts,
        )
    if json_out:
        print_json(batch.to_dict())
    else:
        done(f"converted {len(batch.converted)} of {len(batch.files)} files into {output}")
        for src, out in batch.renamed:
            say(f"  named {out} (not by its stem alone: another input has the name {src.stem}): {src}")
        for msg in batch.failed:
            say(f"  failed: {msg}")
    if batch.failed:
        raise SystemExit(1)
