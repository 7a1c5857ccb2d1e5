"""``segagree study``: every subtitle metric over a grid of degraded references."""

from __future__ import annotations

from pathlib import Path

import click

from segagree.cli.common import (
    SEED,
    check_writable,
    csv_guard_option,
    done,
    examples,
    json_option,
    print_json,
    quiet_option,
)


@click.command(
    epilog=examples(
        "segagree study film.ref.srt film.mt.srt -o study --seed 1 --seeds 2 --steps 2",
    )
)
@click.argument("reference", type=click.Path(path_type=Path))
@click.argument("hypotheses", nargs=-1, type=click.Path(path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(path_type=Path), metavar="DIR", help="Output folder.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="First seed.")
@click.option("--seeds", "n_seeds", type=click.IntRange(min=1), default=3, show_default=True, help="Number of seeds.")
@click.option(
    "--steps", type=click.IntRange(min=1), default=4, show_default=True, help="p from 0 to 1 in this many steps."
)
@click.option("--metrics", default="subtitles", show_default=True, help="Metrics (comma-separated) or a group.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Parallel processes.")
@click.option("--from", "from_", metavar="FORMAT", help="Input format (default: by extension); e.g. tagged.")
@json_option("print the written paths and the analysis as one JSON object")
@quiet_option
@csv_guard_option
def study(
    reference: Path,
    hypotheses: tuple[Path, ...],
    output: Path,
    seed: int,
    n_seeds: int,
    steps: int,
    metrics: str,
    jobs: int,
    from_: str | None,
    json_out: bool,
    quiet: bool,
) -> None:
    """Run every subtitle metric over a grid of degraded references, with plots and a page.

    The REFERENCE is degraded by shift (n = 1, 2, 3), insert, delete and retype on p = 0 .. 1 of its
    breaks, with several seeds, and each copy scored against it. Writes study.csv (operation, n, p,
    seed, metric, value, better, normalised), response-curve PNGs and study.html (monotonicity,
    sensitivity, where BLEU-br saturates, a normalised BLEU-br). HYPOTHESES (system outputs) are
    placed on the same curves.
    """
    import segagree.api as api

    check_writable(output, folder=True)
    res = api.study(
        reference,
        list(hypotheses),
        output,
        seed=seed,
        n_seeds=n_seeds,
        steps=steps,
        metrics=metrics,
        jobs=jobs,
        format=from_,
    )
    if json_out:
        print_json(res)
        return
    done(f"wrote {res['csv']} ({res['rows']} rows), {res['html']} and {len(res['plots'])} plots")
