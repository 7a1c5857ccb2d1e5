"""``segagree degrade``: a degraded copy of a subtitle file (shifted, inserted, deleted or retyped breaks)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from segagree.cli.common import SEED, F, check_writable, done, examples, json_option, print_json, quiet_option, say


def rebreak_command(argument: str, *example_lines: str) -> Callable[[F], click.Command]:
    """A command that reads one subtitle file (the argument ``argument``) and writes a re-broken
    copy to ``-o FILE``, with ``example_lines`` as its help's examples; the command's other
    options come after these."""

    def make(f: F) -> click.Command:
        f = click.option(
            "-o",
            "--output",
            required=True,
            type=click.Path(path_type=Path),
            metavar="FILE",
            help="Output file ('-': standard output, in the input's format).",
        )(f)
        f = quiet_option(click.argument(argument, type=click.Path(path_type=Path))(f))
        return click.command(epilog=examples(*example_lines))(f)

    return make


@rebreak_command(
    "reference",
    "segagree degrade film.ref.srt -o film.shift2.srt --shift 2 --p 0.3 --seed 1",
    "segagree degrade film.ref.srt -o film.del.srt --delete --p 0.5 --seed 1 --json",
)
@click.option("--shift", "shift", type=click.IntRange(min=1), metavar="N", help="Shift breaks by up to N words.")
@click.option("--insert", "insert", is_flag=True, help="Insert new breaks into free gaps.")
@click.option("--delete", "delete", is_flag=True, help="Delete breaks.")
@click.option("--retype", "retype", is_flag=True, help="Swap <eol> and <eob>.")
@click.option(
    "--p", "p", required=True, type=click.FloatRange(0, 1), help="Proportion of the breaks of each type affected."
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the random draws.")
@click.option("--from", "from_", metavar="FORMAT", help="Input format (default: by extension); e.g. tagged.")
@json_option("print what was done as one JSON object")
def degrade(
    reference: Path,
    output: Path,
    shift: int | None,
    insert: bool,
    delete: bool,
    retype: bool,
    p: float,
    seed: int,
    from_: str | None,
    json_out: bool,
    quiet: bool,
) -> None:
    """Write a degraded copy of a subtitle file: the same words, some breaks changed.

    EvalSubtitle's rules on a proportion P of the <eol> and <eob> breaks: shift each chosen break
    by up to N words (left or right, never across another break), insert new breaks into free
    gaps, delete breaks, or swap <eol> and <eob>. Seeded: the same seed gives the same file; P = 0
    gives the input's breaks. The output has the input's format (SRT, WebVTT, tagged text); cue
    times at moved cue edges are estimated by word position inside the original cue.
    """
    import segagree.api as api
    from segagree.errors import UsageError

    flags = (("shift", shift is not None), ("insert", insert), ("delete", delete), ("retype", retype))
    chosen = [name for name, on in flags if on]
    if len(chosen) != 1:
        raise UsageError("give exactly one of --shift N, --insert, --delete, --retype")
    check_writable(output)
    with read_then_write(reference, output, from_) as (doc, target):
        res = api.degrade(doc, target, operation=chosen[0], p=p, seed=seed, n=shift or 1)
    what = f"{res['operation']} p={p:g} seed={seed}: "
    say_written(res, output, json_out, what, f"; changed {res['changed']}")


@contextmanager
def read_then_write(source: Path, output: Path, fmt: str | None) -> Iterator[tuple[Any, Path]]:
    """The source's Document (``-``: standard input, with ``--from``) and the path to write it to
    (``-``: standard output, in the source's format)."""
    import segagree.api as api
    from segagree.cli.streams import input_file, output_file

    with input_file(source, fmt) as local:
        doc = api.read(local, fmt)
    with output_file(output, doc.source_format) as target:
        yield doc, target


def say_written(res: dict[str, Any], output: Path, json_out: bool, what: str = "", more: str = "") -> None:
    """The result of a command that wrote a re-broken subtitle file: JSON, or lines on stderr."""
    if json_out:
        print_json(res)
        return
    from segagree.cli.streams import shown

    done(f"wrote {shown(output)} ({res['format']}): {what}{res['breaks_before']} breaks -> {res['breaks_after']}{more}")
    for loss in res["losses"]:
        say(f"  note: {loss['kind']}: {loss['message']}" + (f" ({loss['count']})" if "count" in loss else ""))
