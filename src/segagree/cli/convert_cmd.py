"""``segagree convert`` and ``segagree formats``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from segagree.cli import app
from segagree.cli.common import stderr, stdout
from segagree.errors import SegagreeError, UsageError
from segagree.pipeline.io import adapters, format_for, load_scheme, read_document, write_document


@app.command()
def formats() -> None:
    """List the formats segagree reads and writes, with their extensions."""
    table = Table(title="formats")
    for col in ("name", "extensions", "read", "write", "what it holds"):
        table.add_column(col)
    for a in adapters().values():
        table.add_row(a.name, " ".join(a.extensions), "yes", "yes" if a.can_write else "no", a.description)
    stdout.print(table)


@app.command()
def convert(
    source: Annotated[Path, typer.Argument(help="annotation file, or a folder for a batch conversion")],
    output: Annotated[Path, typer.Option("-o", "--output", help="output file (or folder for a batch)")],
    from_: Annotated[str | None, typer.Option("--from", help="input format (default: by extension)")] = None,
    to: Annotated[str | None, typer.Option("--to", help="output format (default: by extension)")] = None,
    scheme: Annotated[str | None, typer.Option(help="endnote scheme: built-in name or TOML/JSON file")] = None,
    layer: Annotated[str | None, typer.Option(help="layer to write for one-layer formats (default iu)")] = None,
    layout: Annotated[
        str | None, typer.Option(help="text layout: dubois (default), or rezonator (tab-separated import)")
    ] = None,
    tier: Annotated[
        list[str] | None, typer.Option(help="ELAN/Praat tier to read as a speaker's units (repeat for several)")
    ] = None,
    speaker: Annotated[list[str] | None, typer.Option(help="keep only this speaker (repeat for several)")] = None,
    strict: Annotated[bool, typer.Option(help="treat every loss as an error; write nothing then")] = False,
) -> None:
    """Convert annotations between formats, reporting on stderr what the target cannot hold.

    Example: segagree convert talk.eaf -o talk.TextGrid
    Batch:   segagree convert annotations/ -o converted/ --to srt
    """
    sch = load_scheme(scheme)
    # Only the options the user set: each writer refuses options it does not know.
    options = {k: v for k, v in (("layer", layer), ("layout", layout)) if v is not None}
    read_options = {"tiers": list(tier)} if tier else {}
    if source.is_dir():
        _convert_folder(source, output, from_, to, sch, strict, options, read_options, speaker)
        return
    doc = read_document(source, from_, scheme=sch, **read_options)
    if speaker:
        doc = doc.select_speakers(list(speaker))
    if strict and doc.losses:
        raise SegagreeError("--strict: reading loses " + "; ".join(doc.losses.lines()), path=source)
    losses = write_document(doc, output, to, strict=strict, **options)
    stderr.print(f"wrote {output} ({format_for(output, to).name})")
    for line in [*doc.losses.lines(), *losses.lines()]:
        stderr.print(f"  loss: {line}", markup=False)
    if not losses and not doc.losses:
        stderr.print("  lossless")


def _convert_folder(source, output, from_, to, sch, strict, options, read_options, speakers) -> None:
    if not to:
        raise UsageError("a batch conversion needs --to FORMAT")
    target = format_for("x", to)
    if not target.can_write:
        raise UsageError(f"format {target.name!r} cannot be written")
    known = {e for a in adapters().values() for e in a.extensions}
    files = sorted(p for p in source.rglob("*") if p.is_file() and any(p.name.lower().endswith(e) for e in known))
    if not files:
        raise SegagreeError("no annotation files found", path=source)
    output.mkdir(parents=True, exist_ok=True)
    ok, failed = 0, []
    from rich.progress import track

    for path in track(files, description="converting", console=stderr, disable=len(files) < 2):
        rel = path.relative_to(source)
        ext = max((e for e in known if rel.name.lower().endswith(e)), key=len)
        out = output / rel.parent / (rel.name[: -len(ext)] + target.extensions[0])
        try:
            doc = read_document(path, from_, scheme=sch, **read_options)
            if speakers:
                doc = doc.select_speakers(list(speakers))
            if strict and doc.losses:
                raise SegagreeError("--strict: reading loses " + "; ".join(doc.losses.lines()), path=path)
            losses = write_document(doc, out, to, strict=strict, **options)
            ok += 1
            for line in [*doc.losses.lines(), *losses.lines()]:
                stderr.print(f"{rel}: loss: {line}", markup=False)
        except SegagreeError as err:
            failed.append(f"{err}")
    stderr.print(f"converted {ok} of {len(files)} files into {output}")
    for msg in failed:
        stderr.print(f"  failed: {msg}", markup=False)
    if failed:
        raise typer.Exit(1)
