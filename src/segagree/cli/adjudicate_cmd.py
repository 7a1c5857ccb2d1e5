"""``segagree adjudicate``: a filled-in review workbook -> a gold annotation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from segagree.cli.common import (
    check_writable,
    done,
    examples,
    json_option,
    output_option,
    print_json,
    quiet_option,
    say,
)

_UNDECIDED = ("keep-a", "error")  # the API's values too


@click.command(
    epilog="Decisions (defined on the workbook's About sheet): A keeps A's boundary; B takes B's;\n"
    "both keeps A's and adds B's; neither removes A's; other keeps A's and lists the row.\n\n"
    + examples(
        "segagree review garden.ann1.txt garden.ann2.txt -o garden.review.xlsx",
        "segagree adjudicate garden.review.xlsx -o garden.gold.txt",
    )
)
@click.argument("review", type=click.Path(dir_okay=False, path_type=Path))
@output_option("The gold annotation to write (format by extension; '-': standard output, with --to).")
@click.option(
    "--undecided",
    default="keep-a",
    show_default=True,
    type=click.Choice(list(_UNDECIDED)),
    help="Rows with an empty decision: keep-a (keep A's boundary, or in a time review the first "
    "annotator's unit of the group, and list them) or error.",
)
@click.option(
    "--allow-undecided",
    is_flag=True,
    help="Accept a workbook whose operation rows were deleted or blanked (A's boundaries stay there).",
)
@click.option("--sheet", metavar="NAME", help="Operations sheet to apply (texts with 3+ annotators).")
@click.option("--to", metavar="FORMAT", help="Output format (default: by extension).")
@click.option(
    "--file-a",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Annotator A's file (default: as the About sheet records it).",
)
@click.option(
    "--file-b",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Annotator B's file (default: as the About sheet records it).",
)
@click.option(
    "--sources",
    multiple=True,
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="A folder the About sheet's paths may point into, besides the workbook's and the current one (repeatable).",
)
@click.option(
    "--strict", is_flag=True, help="A check that cannot run (B's file missing or changed) is an error, not a warning."
)
@json_option("print what was applied and written as one JSON object")
@quiet_option
def adjudicate(
    review: Path,
    output: Path,
    undecided: str,
    allow_undecided: bool,
    sheet: str | None,
    to: str | None,
    file_a: Path | None,
    file_b: Path | None,
    sources: tuple[Path, ...],
    strict: bool,
    json_out: bool,
    quiet: bool,
) -> None:
    """Apply a filled-in review workbook and write the gold annotation.

    REVIEW is a workbook written by segagree review or segagree run (review/TEXT.xlsx).
    The gold annotation is annotator A's file with the decisions applied: written as ELAN from an
    ELAN file (TextGrid from a TextGrid), only the changed units are edited, every other unit, tier
    and dependent annotation stays as written; else it is written from the tokens, and what A's
    file held beyond them is listed. From a review --time
    workbook, the gold units are the decided groups' units (annotator name, none or edit), written on
    the first annotator's file in place of the reviewed tiers (its other tiers, extent, header, and
    each kept unit's value and dependent annotations as written; in another format, that file
    converted with the units of its other tiers; without the file, one tier per speaker, said as a
    loss); an undecided group keeps the first annotator's unit (keep-a) or stops (error).

    The About sheet's source paths are followed only into the workbook's folder, the current folder
    or a --sources folder, and the files' full SHA-1 must match; rows with one row id are refused.
    """

    from segagree.cli.streams import is_stdio, output_file, shown
    from segagree.errors import UsageError

    check_writable(output)
    if is_stdio(output) and json_out:
        raise UsageError("-o - and --json both write to standard output: give -o a file name")
    with output_file(output, to) as target:
        report = _apply(review, target, undecided, allow_undecided, sheet, to, file_a, file_b, sources, strict)
    if json_out:
        print_json(report_record(report))
        return
    lines = report.lines()
    done(lines[0].replace(str(target), shown(output)))  # "wrote ...": the gold file
    for line in lines[1:]:  # warnings and losses are said even with --quiet
        (say if line.startswith(("warning:", "loss:", "times-", "undecided groups")) else done)(line)


def _apply(
    review: Path,
    output: Path,
    undecided: str,
    allow_undecided: bool,
    sheet: str | None,
    to: str | None,
    file_a: Path | None,
    file_b: Path | None,
    sources: tuple[Path, ...],
    strict: bool,
) -> Any:
    """adjudicate's work, into ``output`` (a temporary file for ``-o -``)."""
    import segagree.api as api

    if api.is_time_review(review):  # from review --time: gold units from the aligned groups
        if file_a or file_b or sources or strict:
            from segagree.errors import UsageError

            raise UsageError(
                "--file-a, --file-b, --sources and --strict apply to an operations workbook, not a time review"
            )
        return api.adjudicate_time(review, output, to=to, undecided=undecided)
    return api.adjudicate(
        review,
        output,
        undecided=undecided,
        sheet=sheet,
        to=to,
        allow_missing_rows=allow_undecided,
        file_a=file_a,
        file_b=file_b,
        sources=sources,
        strict=strict,
    )


def report_record(report: Any) -> dict[str, Any]:
    """An adjudication's report (token or time) as a JSON object: its fields, paths as text, the
    losses as their JSON list, and its lines as the command prints them."""
    import dataclasses

    record = {f.name: getattr(report, f.name) for f in dataclasses.fields(report)}
    out = {k: v.to_json() if hasattr(v, "to_json") else str(v) if isinstance(v, Path) else v for k, v in record.items()}
    return {**out, "lines": report.lines()}
