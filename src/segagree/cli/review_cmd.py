"""``segagree review A B -o REVIEW.xlsx``: the review workbook of one pair of annotations."""

from __future__ import annotations

from pathlib import Path

import click

from segagree.cli.common import (
    Reading,
    SpeakerLabels,
    check_writable,
    count_option,
    examples,
    max_mismatch_option,
    mode_option,
    output_option,
    pair_arguments,
    reading_options,
    say,
    scheme_option,
    seed_option,
    speaker_labels_option,
)


@click.command(
    epilog=examples(
        "segagree review garden.ann1.txt garden.ann2.txt -o garden.review.xlsx",
        "segagree review garden.ann1.txt tables/garden.ann2.csv -o g.xlsx --no-kappa",
        "segagree review garden.ann1.txt garden.ann2.txt -o g.xlsx --max-mismatch 0.3",
        "# then fill in the decision column, and:",
        "segagree adjudicate garden.review.xlsx -o garden.gold.eaf",
    )
)
@pair_arguments
@output_option("The workbook to write (.xlsx).")
@scheme_option
@mode_option
@click.option("--matches", is_flag=True, help="List match operations too.")
@click.option("--kappa/--no-kappa", default=True, help="Simulated kappa on the Summary sheet (default) or not.")
@count_option("--sims", "Kappa: simulated chance annotations per speaker.", default=1000, metavar="K")
@seed_option("Kappa: random seed.")
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
