"""``segagree demo``: copy the sample corpora into a folder, to run the tour there."""

from __future__ import annotations

from pathlib import Path

import click

from segagree.cli.common import done, examples, json_option, print_json, quiet_option

# The tour's first commands, run inside the copied folder (docs/tour.md has the whole tour).
TOUR = (
    "segagree compare garden.ann1.txt garden.ann2.txt --metric all",
    "segagree agree garden.ann1.txt garden.ann2.txt --sims 200",
    "segagree panel panel --machine seg",
    "segagree agree --time time/kim.TextGrid time/lee.TextGrid",
    "segagree review recording/talk.kim.eaf recording/talk.lee.eaf -o talk.review.html",
    "segagree run . -o results",
)


@click.command(epilog=examples("segagree demo segagree-tour", "cd segagree-tour && segagree run . -o results"))
@click.argument("folder", type=click.Path(path_type=Path))
@json_option("print the copied folder and the tour's commands as one JSON object")
@quiet_option
def demo(folder: Path, json_out: bool, quiet: bool) -> None:
    """Copy the sample corpora into a folder, to run the tour there.

    FOLDER must be new or empty.

    The samples are small files written for segagree's tour: a story segmented into intonation
    units by two annotators, tables, subtitles, a recording, timed annotations, and a panel of
    three people and a machine. Nothing outside FOLDER is written.
    """
    import segagree.api as api

    target = api.copy_sample_corpora(folder)
    if json_out:
        print_json({"folder": str(target), "commands": list(TOUR)})
        return
    done(f"segagree: the sample corpora are in {target}")
    click.echo(f"cd {target}")
    for line in TOUR:
        click.echo(line)
