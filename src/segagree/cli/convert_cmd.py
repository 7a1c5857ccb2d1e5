"""``segagree convert``: one file, or a folder, into another format, with the loss report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from segagree.cli.common import (
    check_writable,
    examples,
    json_option,
    print_json,
    read_options,
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
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(path_type=Path),
    metavar="FILE|FOLDER",
    help="Output file (or folder for a batch).",
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
    "--speaker", "speakers", multiple=True, metavar="NAME", help="Keep only this speaker (repeat for several)."
)
@click.option("--strict", is_flag=True, help="Treat any loss as an error (exit 1) and write nothing.")
@reading_options
@json_option("print the loss report as one JSON object")
def convert(
    source: Path,
    output: Path,
    to: str | None,
    scheme: str | None,
    layer: str | None,
    layout: str | None,
    speakers: tuple[str, ...],
    strict: bool,
    from_: str | None,
    encoding: str | None,
    tiers: tuple[str, ...],
    speaker_tier: str | None,
    word_tier: str | None,
    gap_labels: tuple[str, ...],
    chat_units: str | None,
    json_out: bool,
) -> None:
    """Convert annotations between formats, reporting what the target cannot hold.

    SOURCE is an annotation file, or a folder for a batch conversion (then --to is needed).
    The loss report lists what reading and writing lost; 'lossless' means nothing was.
    """
    import segagree.api as api

    opts = read_options(encoding, tiers, speaker_tier, word_tier, gap_labels, chat_units)
    # Only the options the user set: each writer refuses options it does not know.
    write_opts = {k: v for k, v in (("layer", layer), ("layout", layout)) if v is not None}
    if source.is_dir():
        _convert_folder(source, output, from_, to, scheme, strict, write_opts, opts, speakers, json_out)
        return
    check_writable(output)
    report = api.convert(
        source,
        output,
        from_format=from_,
        to_format=to,
        scheme=scheme,
        speakers=list(speakers) or None,
        strict=strict,
        read_options=opts,
        **write_opts,
    )
    if json_out:
        print_json(report.to_dict())
        return
    say(f"wrote {output} ({report.format_to})")
    for line in report.lines():
        say(f"  loss: {line}")
    if report.lossless:
        say("  lossless")


def _convert_folder(
    source: Path,
    output: Path,
    from_: str | None,
    to: str | None,
    scheme: str | None,
    strict: bool,
    write_opts: dict[str, Any],
    read_opts: dict[str, Any],
    speakers: tuple[str, ...],
    json_out: bool,
) -> None:
    import segagree.api as api
    from segagree.adapters import adapters, format_for
    from segagree.errors import SegagreeError, UsageError

    if not to:
        raise UsageError("a batch conversion needs --to FORMAT")
    target = format_for("x", to)
    if not target.can_write:
        raise UsageError(f"format {target.name!r} cannot be written")
    known = {e for a in adapters().values() for e in a.extensions}
    files = sorted(p for p in source.rglob("*") if p.is_file() and any(p.name.lower().endswith(e) for e in known))
    if not files:
        raise SegagreeError("no annotation files found", path=source)
    check_writable(output, folder=True)
    sch = api.load_scheme(scheme)
    ok, failed, reports = 0, [], []
    from rich.progress import track

    from segagree.cli.common import stderr

    for path in track(files, description="converting", console=stderr(), disable=len(files) < 2 or json_out):
        rel = path.relative_to(source)
        ext = max((e for e in known if rel.name.lower().endswith(e)), key=len)
        out = output / rel.parent / (rel.name[: -len(ext)] + target.extensions[0])
        try:
            report = api.convert(
                path,
                out,
                from_format=from_,
                to_format=to,
                scheme=sch,
                speakers=list(speakers) or None,
                strict=strict,
                read_options=read_opts,
                **write_opts,
            )
        except SegagreeError as err:
            failed.append(str(err))
            continue
        ok += 1
        reports.append(report.to_dict())
        if not json_out:
            for line in report.lines():
                say(f"{rel}: loss: {line}")
    if json_out:
        print_json({"converted": reports, "failed": failed})
    else:
        say(f"converted {ok} of {len(files)} files into {output}")
        for msg in failed:
            say(f"  failed: {msg}")
    if failed:
        raise SystemExit(1)
