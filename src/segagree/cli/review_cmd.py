"""``segagree review A B -o REVIEW.xlsx``: the review workbook of one pair of annotations."""

from __future__ import annotations

from pathlib import Path

import click

from segagree.cli.common import (
    AT_LEAST_ONE,
    check_writable,
    examples,
    max_mismatch_option,
    mode_option,
    read_options,
    reading_options,
    say,
    scheme_option,
    speaker_labels_option,
    speaker_map,
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
    renames: tuple[str, ...],
    keep_speaker_labels: bool,
    from_: str | None,
    encoding: str | None,
    tiers: tuple[str, ...],
    speaker_tier: str | None,
    word_tier: str | None,
    gap_labels: tuple[str, ...],
) -> None:
    """Write a review workbook listing every disagreement of two annotations.

    FILE_A is the base of the gold annotation that segagree adjudicate writes from the
    reviewers' decisions (A, B, both, neither, other).
    """
    import segagree.api as api
    from segagree.errors import SegagreeError, UsageError
    from segagree.outputs.review import write_review_workbook
    from segagree.pipeline.config import READ_OPTIONS, RunConfig
    from segagree.pipeline.tasks import run_task

    if output.suffix.lower() != ".xlsx":
        raise UsageError("the review workbook must be an .xlsx file")
    check_writable(output)
    opts = read_options(encoding, tiers, speaker_tier, word_tier, gap_labels)
    config = RunConfig(
        scheme=scheme or "dubois",
        mode=mode.lower(),
        review_matches=matches,
        max_mismatch=max_mismatch,
        normalise_speakers=not keep_speaker_labels,
        speakers=speaker_map(renames) or {},
        format=from_ or "",
        encoding=opts.pop("encoding", ""),
        read={k: v for k, v in opts.items() if k in READ_OPTIONS},
    )
    config.kappa.enabled, config.kappa.sims, config.kappa.seed = kappa, sims, seed
    text = file_a.name.split(".")[0]
    result = run_task(text, "A", "B", str(file_a), str(file_b), config)
    if not result["ok"]:
        raise SegagreeError(result["error"])
    path = write_review_workbook(output, [result], config)
    shown = len(result["operation_rows"]) if matches else sum(r["op"] != "match" for r in result["operation_rows"])
    say(f"wrote {path}: {shown} operations to review (S_f {api.CompareResult(result['compare']).sf:.4f})")
