"""``segagree adjudicate``: a filled-in review workbook -> a gold annotation."""

from __future__ import annotations

from pathlib import Path

import click

from segagree.cli.common import check_writable, examples, output_option, say

_UNDECIDED = {"keep-a": "a", "error": "error"}


@click.command(
    epilog="Decisions (defined on the workbook's About sheet): A keeps A's boundary; B takes B's;\n"
    "both keeps A's and adds B's; neither removes A's; other keeps A's and lists the row.\n\n"
    + examples(
        "segagree review garden.ann1.txt garden.ann2.txt -o garden.review.xlsx",
        "segagree adjudicate garden.review.xlsx -o garden.gold.txt",
    )
)
@click.argument("review", type=click.Path(dir_okay=False, path_type=Path))
@output_option("The gold annotation to write (format by extension).")
@click.option(
    "--undecided",
    default="keep-a",
    show_default=True,
    type=click.Choice(list(_UNDECIDED)),
    help="Rows with an empty decision: keep-a (keep A's boundary and list them) or error.",
)
@click.option(
    "--allow-undecided",
    is_flag=True,
    help="Accept a workbook whose operation rows were deleted or blanked (A's boundaries stay there).",
)
@click.option("--sheet", metavar="NAME", help="Operations sheet to apply (texts with 3+ annotators).")
@click.option("--to", metavar="FORMAT", help="Output format (default: by extension).")
def adjudicate(
    review: Path, output: Path, undecided: str, allow_undecided: bool, sheet: str | None, to: str | None
) -> None:
    """Apply a filled-in review workbook and write the gold annotation.

    REVIEW is a workbook written by segagree review or segagree run (review/TEXT.xlsx).
    The gold annotation is annotator A's file with the decisions applied.
    """
    from segagree.outputs.adjudicate import adjudicate as adjudicate_workbook

    check_writable(output)
    report = adjudicate_workbook(
        review,
        output,
        undecided=_UNDECIDED[undecided],  # type: ignore[arg-type]
        sheet=sheet,
        fmt=to,
        allow_missing_rows=allow_undecided,
    )
    for line in report.lines():
        say(line)
