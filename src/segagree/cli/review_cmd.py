"""``segagree review A B -o REVIEW.xlsx``: the review workbook of one pair of annotations."""

from __future__ import annotations

from pathlib import Path

import click

from segagree.cli.common import (
    AT_LEAST_ONE,
    Reading,
    SpeakerLabels,
    check_writable,
    examples,
    max_mismatch_option,
    mode_option,
    reading_options,
    say,
    scheme_option,
    speaker_labels_option,
)

EXISTING = click.Path(dir_okay=False, path_type=Path)


@click.command(
    epilog=examples(
        "segagree review garden.ann1.txt garden.ann2.txt -o garden.review.xlsx",
        "segagree review garden.ann1.txt tables/garden.ann2.csv -o g.xlsx --no-kappa",
        "segagree review garden.ann1.txt garden.ann2.txt -o g.xlsx --max-mismatch 0.3",
        "# then fill in the decision column, and:",
        "segagree adjudicate garden.review.xlsx -o garden.gold.eaf",
    )
)
@click.argument("file_a", type=EXISTING)
@click.argument("file_b", type=EXISTING)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The workbook to write (.xlsx).",
)
@scheme_option
@mode_option
@click.option("--matches", is_flag=True, help="List match operations too.")
@click.option("--kappa/--no-kappa", default=True, help="Simulated kappa on the Summary sheet (default) or not.")
@click.option(
    "--sims",
    default=1000,
    show_default=True,
    type=AT_LEAST_ONE,
    metavar="K",
    help="Kappa: simulated chance annotations per speaker.",
)
@click.option("--seed", default=12345, show_default=True, type=int, metavar="N", help="Kappa: random seed.")
@max_mismatch_option
@speaker_labels_option
@reading_options
def review(
    file_a: Path,
    file_b: Path,
    output: Path,
    scheme: str | None,
    mode: str,
    matches: bool,
    kappa: bool,
    sims: int,
    seed: int,
    max_mismatch: float,
    speaker_labels: SpeakerLabels,
    reading: Reading,
) -> None:
    """Write a review workbook listing every disagreement of two annotations.

    FILE_A is the base of the gold annotation that segagree adjudicate writes from the
    reviewers' decisions (A, B, both, neither, other).
    """
    import segagree.api as api

    check_writable(output)
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
        normalise_speakers=speaker_labels.normalise,
        speaker_map=speaker_labels.renames,
        format=reading.format,
        read_options=reading.options,
    )
    sf = "-" if outcome.sf is None else f"{outcome.sf:.4f}"
    say(f"wrote {outcome.path}: {outcome.operations} operations to review (S_f {sf})")
