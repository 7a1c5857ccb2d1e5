"""The gold of a time review written on the reference annotator's own file.

The **reference annotator** is the review's first annotator (the first file given to
``review --time``, or the first annotator tier / table annotator). The gold is that annotator's
file with only the reviewed tiers replaced by the adjudicated units: every other tier, the file's
extent and its header are kept, written by the same format's tier replacer
(:func:`segagree.formats.elan.replace_tier.replace_eaf_tier`,
:func:`segagree.formats.praat.replace_tier.replace_textgrid_tier`,
:func:`segagree.adjudication.time_table_gold.replace_table_rows`).

The file is found from the review's settings (``sources``: each file's path relative to the
review, its absolute path and full SHA-1) and plan (which file and tier each annotator's units
came from): a recorded path is followed only into the review's folder or the current folder, and
the file's SHA-1 must be the recorded one. A gold written in another format than the
file's is the file read as a document with the reviewed tiers' units replaced
(:mod:`segagree.adjudication.time_convert`). When the file cannot be used (a review without
``sources``, the file missing, a units table written in another format, a reviewed speaker the
reference annotator has no tier for), :func:`reference_file` says why, and the gold is written from the
units alone with that reason as a loss (``source-not-kept``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from segagree.adjudication.checks import allowed_roots, digest_problem
from segagree.adjudication.steps import Step, replace_in_steps
from segagree.adjudication.time_table_gold import replace_table_rows
from segagree.errors import SegagreeError
from segagree.formats import LossReport, format_for
from segagree.formats.elan.replace_tier import replace_eaf_tier
from segagree.formats.gold_spans import GoldSpan, Origin
from segagree.formats.praat.replace_tier import replace_textgrid_tier
from segagree.scoring.time.units import item_name
from segagree.scoring.time.units_table import is_units_table

__all__ = ["ReferenceFile", "gold_overlaps", "reference_file", "write_on_reference"]

# The formats whose tier replacer keeps everything else of the file.
_KEPT_FORMATS = ("eaf", "textgrid", "table")


@dataclass
class ReferenceFile:
    """The reference annotator's file and, for each reviewed item (speaker), what its units replace:
    a tier name (ELAN, TextGrid), or the table rows of ``(speaker, recording)``."""

    path: Path
    kind: str  # "eaf", "textgrid" or "table"
    annotator: str
    items: dict[str, tuple[str, str, str]]  # review item -> (tier, speaker, recording) of the plan
    #: the gold's format when it is not the file's (the gold is then converted from the file read as
    #: a document, its other tiers' units kept: :mod:`segagree.adjudication.time_convert`)
    other_format: str = ""


def _candidates(workbook: Path, entry: Mapping[str, Any]) -> list[Path]:
    rel, absolute = str(entry.get("file") or ""), str(entry.get("file_absolute") or "")
    out = []
    if rel:
        out.append(Path(rel).resolve() if Path(rel).is_absolute() else (workbook.resolve().parent / rel).resolve())
    if absolute:
        out.append(Path(absolute).resolve())
    return out


def reference_file(
    workbook: Path, settings: Mapping[str, Any], annotators: Sequence[str], output: Path, fmt: str | None
) -> tuple[ReferenceFile | None, str]:
    """The reference annotator's file to write the gold on, or None and why it cannot be used.

    Raises:
        SegagreeError: the file was found but changed since the review was written (its SHA-1).
    """
    if not annotators:
        return None, "the review names no annotator"
    reference = annotators[0]
    plan = settings.get("plan") or {}
    rows = [r for r in plan.get("rows") or [] if r.get("annotator") == reference and r.get("scored", True)]
    files = {str(r.get("file") or "") for r in rows}
    if not rows or len(files) != 1:
        return None, f"the review's plan does not name one file of the reference annotator {reference!r}"
    name = files.pop()
    sources = [s for s in settings.get("sources") or [] if Path(str(s.get("file") or "")).name == name]
    if not sources:
        return None, f"the review does not record where {name} is (a review written by an older segagree)"
    # Files of one name in annotators' folders (kim/talk.eaf, lee/talk.eaf) are named after their
    # folders: the reference annotator's folder decides, else the first given.
    sources.sort(key=lambda s: Path(str(s.get("file") or "")).parent.name != reference)
    roots = allowed_roots(workbook)
    found = [p for p in _candidates(workbook, sources[0]) if p.is_file()]
    if not found:
        return None, f"{name}, the reference annotator's file, is missing (tried {sources[0].get('file')})"
    if not any(found[0] == root or found[0].is_relative_to(root) for root in roots):
        return None, f"{found[0]} is outside the review's folder and the current folder"
    problem = digest_problem(found[0], str(sources[0].get("sha1") or ""))
    if problem:
        raise SegagreeError(f"the reference annotator's file: {problem}", path=workbook)
    kind = "table" if is_units_table(found[0]) else format_for(found[0]).name
    if kind not in _KEPT_FORMATS:
        return None, f"{name} is a {kind} file; the gold keeps the rest of ELAN, TextGrid and units-table files only"
    out_kind = format_for(output, fmt).name
    if out_kind != kind and kind == "table":
        return None, f"the gold is written as {out_kind}, the reference file {name} is {kind}: write it as {kind}"
    items = {
        item_name(str(r.get("recording") or ""), str(r.get("speaker") or "")): (
            str(r.get("tier") or ""),
            str(r.get("speaker") or ""),
            str(r.get("recording") or ""),
        )
        for r in rows
    }
    return ReferenceFile(found[0], kind, reference, items, "" if out_kind == kind else out_kind), ""


def gold_overlaps(units: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each pair of gold units of one tier (ordered by time) that overlap, with their times and rows."""
    found = []
    ordered = sorted(units, key=lambda u: (u["start"], u["end"]))
    for before, after in zip(ordered, ordered[1:], strict=False):
        if after["start"] < before["end"]:
            found.append(
                f"{before['start']:g}-{before['end']:g} s ({before['where'].rsplit(', ', 1)[-1]}) "
                f"and {after['start']:g}-{after['end']:g} s ({after['where'].rsplit(', ', 1)[-1]})"
            )
    return found


def write_on_reference(
    ref: ReferenceFile,
    gold: Sequence[Mapping[str, Any]],
    output: Path,
    settings: Mapping[str, Any],
    reviewed: Mapping[str, Sequence[tuple[float, float]]] | None = None,
) -> LossReport:
    """Write the gold units (``item``, ``start``, ``end``, ``text``, ``where`` each) on the reference file.
    ``reviewed``: per item, the spans of the reference annotator's units the review held (a tier's
    other annotations, such as pauses, stay where no gold unit overlaps them).

    Raises:
        SegagreeError: a reviewed item the reference annotator has no tier for, or gold units that
            overlap on one tier (named with both units' times and rows: a tier cannot hold both).
    """
    by_item: dict[str, list[Mapping[str, Any]]] = {item: [] for item in ref.items}
    for u in gold:
        if u["item"] not in by_item:
            raise SegagreeError(
                f"gold units of {u['item']!r}, where the reference annotator {ref.annotator!r} has no tier",
                path=ref.path,
            )
        by_item[u["item"]].append(u)
    problems = []
    for item, units in by_item.items():
        tier = ref.items[item][0] or item or ref.annotator
        problems += [f"tier {tier!r}: {pair}" for pair in gold_overlaps(units)]
    if problems:
        raise SegagreeError(
            "gold units chosen on one tier overlap, and a tier cannot hold both (choose one, or edit one's "
            "times): " + "; ".join(problems[:5]) + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else "")
        )
    ordered = {item: sorted(us, key=_time_order) for item, us in by_item.items()}
    spans = {item: [(float(u["start"]), float(u["end"]), str(u["text"])) for u in us] for item, us in ordered.items()}
    origins = {item: [u.get("origin") for u in us] for item, us in ordered.items()}
    if ref.kind == "table":  # a table's label is its category column (the text column is not rewritten)
        categories = {
            item: [(float(u["start"]), float(u["end"]), str(u.get("category") or u["text"])) for u in us]
            for item, us in ordered.items()
        }
        return replace_table_rows(ref.path, output, ref.annotator, ref.items, categories, settings)
    held = {item: (reviewed or {}).get(item, []) if reviewed is not None else None for item in spans}
    steps = [_step(ref, ref.items[item][0], spans[item], origins[item], held[item], settings) for item in spans]
    return replace_in_steps(ref.path, output, steps)


def _time_order(u: Mapping[str, Any]) -> tuple[float, float]:
    return (float(u["start"]), float(u["end"]))


def _step(
    ref: ReferenceFile,
    tier: str,
    spans: Sequence[GoldSpan],
    origins: Sequence[Origin | None],
    reviewed: Sequence[tuple[float, float]] | None,
    settings: Mapping[str, Any],
) -> Step:
    """One reviewed tier replaced (:mod:`segagree.adjudication.steps` runs them one after the other)."""
    if ref.kind == "eaf":
        return lambda source, target: replace_eaf_tier(source, target, tier, spans, origins, reviewed)
    gaps = (settings.get("plan") or {}).get("gap_labels") or []
    return lambda source, target: replace_textgrid_tier(source, target, tier, spans, gaps, origins, reviewed)
