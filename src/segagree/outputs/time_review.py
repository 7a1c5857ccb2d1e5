"""Review workbooks of time-based unitizing agreement (adjudicated by :mod:`segagree.adjudication.time`).

:func:`write_time_review` writes (XlsxWriter, atomically) one row per aligned group of the best
alignment (gamma's, Mathet et al. 2015): each annotator's unit in the group (start, end, category,
text; blank where the annotator has none), the group's disorder and its share of the speaker's total,
its **kind**, and empty **decision**, gold and comment columns. Kinds:

``match``
    every annotator has a unit, all of one category, with the same start and end;
``shifted``
    every annotator has a unit, all of one category, but their times differ;
``category mismatch``
    every annotator has a unit, not all of one category;
``unmatched``
    some annotator has no unit in the group.

Decisions (a drop-down): an **annotator's name** keeps that annotator's unit; ``none`` keeps no unit;
``edit`` keeps the unit typed into the *gold start*, *gold end* and *gold category* columns; empty is
undecided.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from segagree.errors import SegagreeError, UsageError
from segagree.files.atomic import atomic_path
from segagree.files.cells import XLSX_MAX_CHARS, XLSX_MAX_ROWS, XLSX_OPTIONS
from segagree.files.own_outputs import ABOUT_SHEET
from segagree.metrics.contract import UnitSet

__all__ = [
    "ALIGNMENT_SHEET",
    "KINDS",
    "group_kind",
    "group_rows",
    "write_time_review",
]

ALIGNMENT_SHEET = "Alignment"
KINDS = ("match", "shifted", "category mismatch", "unmatched")
NONE_DECISION, EDIT_DECISION = "none", "edit"
GOLD_SPEAKER = "gold"  # the tier name of a source without speakers of its own
UNLABELLED = "(unit)"  # the word of a gold unit without a label (a tier cannot hold an empty unit)
FIXED = ("group", "speaker", "kind", "disorder", "share")
UNIT_FIELDS = ("start", "end", "category", "text")
GOLD = ("decision", "gold start", "gold end", "gold category", "comment")
DEFINITIONS = {
    "group": "number of the aligned group (technical; keep it)",
    "speaker": "the speaker (tier) the units belong to; empty for a source with one stream",
    "kind": "match, shifted (same category, other times), category mismatch, or unmatched (someone has no unit)",
    "disorder": "the group's disorder in the best alignment (mean pair dissimilarity, Mathet et al. 2015)",
    "share": "the group's disorder over the speaker's total disorder",
    "decision": "an annotator's name (keep that unit), none (no unit), edit (the gold columns); empty: undecided",
    "gold start": "with decision edit: the gold unit's start (seconds)",
    "gold end": "with decision edit: the gold unit's end (seconds)",
    "gold category": "with decision edit: the gold unit's label",
}


def _unit(units: UnitSet, row: int | None) -> dict[str, Any]:
    if row is None:
        return dict.fromkeys(UNIT_FIELDS)
    cat = int(units.category[row])
    return {
        "start": float(units.start[row]),
        "end": float(units.end[row]),
        "category": units.categories[cat] if cat >= 0 else "",
        "text": units.text[row] if len(units.text) > row else "",
    }


def group_kind(members: list[dict[str, Any]]) -> str:
    """The kind of an aligned group from its members' units (see the module docstring)."""
    if any(m["start"] is None for m in members):
        return "unmatched"
    if len({m["category"] for m in members}) > 1:
        return "category mismatch"
    same = all(m["start"] == members[0]["start"] and m["end"] == members[0]["end"] for m in members)
    return "match" if same else "shifted"


def group_rows(units: UnitSet, alignment: dict[str, Any], speaker: str) -> list[dict[str, Any]]:
    """One row per aligned group (``alignment``: ``{"groups": [{"units": [row or None per annotator],
    "disorder": d}]}``, rows indexing ``units``), sorted by the group's earliest start."""
    groups = alignment["groups"]
    total = sum(float(g["disorder"]) for g in groups)
    rows = []
    for g in groups:
        members = [_unit(units, r) for r in g["units"]]
        disorder = float(g["disorder"])
        row: dict[str, Any] = {
            "speaker": speaker,
            "kind": group_kind(members),
            "disorder": disorder,
            "share": disorder / total if total else 0.0,
        }
        for name, m in zip(units.annotators, members, strict=True):
            for key in UNIT_FIELDS:
                row[f"{name} {key}"] = m[key]
        rows.append(row)
    rows.sort(key=lambda r: min((r[f"{a} start"] for a in units.annotators if r[f"{a} start"] is not None), default=0))
    return rows


def refuse_reserved_names(annotators: Sequence[str], path: str | os.PathLike[str]) -> None:
    """Refuse annotators named like a decision word (``none``, ``edit``, in any case): a decision
    ``none`` would mean both "no gold unit" and "annotator none's unit"."""
    clash = [a for a in annotators if str(a).strip().lower() in (NONE_DECISION, EDIT_DECISION)]
    if clash:
        raise UsageError(
            f"annotator {clash[0]!r} has the name of a decision word ({NONE_DECISION}, {EDIT_DECISION}) of a time "
            "review, which would make its decisions ambiguous; rename the annotator's files "
            "(TEXT.ANNOTATOR.EXT) and review again",
            path=Path(path),
        )


def review_columns(annotators: list[str]) -> list[str]:
    return [*FIXED, *(f"{a} {k}" for a in annotators for k in UNIT_FIELDS), *GOLD]


def write_time_review(
    path: str | os.PathLike[str],
    rows: list[dict[str, Any]],
    annotators: list[str],
    settings: dict[str, Any],
    extra: Sequence[str] = (),
) -> Path:
    """Write the workbook: the Alignment sheet (``rows`` from :func:`group_rows`; ``extra``: more of
    their columns at the right, such as the acoustic cues) and an About sheet with the settings (JSON)
    and the column definitions."""
    import xlsxwriter

    path = Path(path)
    if path.suffix.lower() != ".xlsx":
        raise UsageError("the review workbook must be an .xlsx file", path=path)
    refuse_reserved_names(annotators, path)
    columns = [*review_columns(annotators), *extra]
    if len(rows) >= XLSX_MAX_ROWS:
        raise SegagreeError(f"{len(rows)} groups do not fit one sheet ({XLSX_MAX_ROWS - 1} rows at most)", path=path)
    with atomic_path(path) as tmp:
        wb = xlsxwriter.Workbook(str(tmp), XLSX_OPTIONS)
        head = wb.add_format({"bold": True, "bg_color": "#D9D9D9", "border": 1, "text_wrap": True})
        ws = wb.add_worksheet(ALIGNMENT_SHEET)
        for c, name in enumerate(columns):
            ws.write_string(0, c, name, head)
            ws.set_column(c, c, 28 if name.endswith("text") else 12)
        for r, row in enumerate(rows, start=1):
            row["group"] = r
            for c, name in enumerate(columns):
                value = row.get(name)
                if isinstance(value, int | float) and not isinstance(value, bool):
                    ws.write_number(r, c, value)
                elif value not in (None, ""):
                    ws.write_string(r, c, _fits(str(value), path, f"group {r}, column {name!r}"))
        choices = [*annotators, NONE_DECISION, EDIT_DECISION]
        col = columns.index("decision")
        ws.data_validation(1, col, max(len(rows), 1), col, {"validate": "list", "source": choices})
        ws.freeze_panes(1, 0)
        ws.autofilter(0, 0, max(len(rows), 1), len(columns) - 1)
        about = wb.add_worksheet(ABOUT_SHEET)
        about.write_string(0, 0, "settings (JSON)", head)
        about.write_string(
            0, 1, _fits(json.dumps({**settings, "annotators": annotators}, ensure_ascii=False), path, "settings")
        )
        for r, (name, text) in enumerate(DEFINITIONS.items(), start=2):
            about.write_string(r, 0, name)
            about.write_string(r, 1, text)
        wb.close()
    return path


def _fits(text: str, path: Path, place: str) -> str:
    """The text of a cell, refused when an XLSX cell cannot hold it (never cut in silence)."""
    if len(text) > XLSX_MAX_CHARS:
        raise SegagreeError(
            f"{len(text)} characters do not fit an XLSX cell ({XLSX_MAX_CHARS} at most)", path=path, place=place
        )
    return text
