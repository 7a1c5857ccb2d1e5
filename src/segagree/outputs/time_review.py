"""Review workbooks of time-based unitizing agreement, and their adjudication into a gold tier.

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
undecided. :func:`adjudicate_time` reads the decisions back (openpyxl) and writes the gold units, one
tier per speaker, in any timed format segagree writes (by the output's extension).
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from segagree.adapters import LossReport, write_document
from segagree.adapters.base import atomic_path
from segagree.adapters.cells import XLSX_MAX_CHARS, XLSX_MAX_ROWS, XLSX_OPTIONS
from segagree.adapters.endnotes import split_endnote
from segagree.adapters.xlsx_guard import check_workbook
from segagree.errors import InputError, SegagreeError, UsageError
from segagree.metrics.contract import UnitSet
from segagree.outputs.decisions import decisions_kind, is_decisions_file, read_time_decisions
from segagree.schemas import builtin_scheme, from_units

__all__ = [
    "ALIGNMENT_SHEET",
    "KINDS",
    "TimeAdjudication",
    "adjudicate_time",
    "group_kind",
    "group_rows",
    "is_time_review",
    "write_time_review",
]

ALIGNMENT_SHEET = "Alignment"
ABOUT_SHEET = "About"
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


def _columns(annotators: list[str]) -> list[str]:
    return [*FIXED, *(f"{a} {k}" for a in annotators for k in UNIT_FIELDS), *GOLD]


def write_time_review(
    path: str | os.PathLike[str], rows: list[dict[str, Any]], annotators: list[str], settings: dict[str, Any]
) -> Path:
    """Write the workbook: the Alignment sheet (``rows`` from :func:`group_rows`) and an About sheet
    with the settings (JSON) and the column definitions."""
    import xlsxwriter

    path = Path(path)
    if path.suffix.lower() != ".xlsx":
        raise UsageError("the review workbook must be an .xlsx file", path=path)
    columns = _columns(annotators)
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


def is_time_review(path: str | os.PathLike[str]) -> bool:
    """Whether a workbook is a time review (it has the Alignment sheet), or a decisions file of one."""
    import zipfile

    if is_decisions_file(path):
        return decisions_kind(path) == "time"

    try:
        with zipfile.ZipFile(path) as z:
            return f'name="{ALIGNMENT_SHEET}"' in z.read("xl/workbook.xml").decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return False


@dataclass
class TimeAdjudication:
    """What :func:`adjudicate_time` did: decisions by kind, undecided rows, and the writer's losses."""

    output: str
    units: int
    decisions: Counter[str] = field(default_factory=Counter)
    undecided: list[int] = field(default_factory=list)
    losses: LossReport = field(default_factory=LossReport)

    def lines(self) -> list[str]:
        done = ", ".join(f"{k} {n}" for k, n in sorted(self.decisions.items())) or "none"
        out = [f"wrote {self.output}: {self.units} gold units (decisions: {done})"]
        if self.undecided:
            out.append(f"undecided groups (no unit written): {', '.join(map(str, self.undecided[:20]))}")
        out.extend(self.losses.lines())
        return out


def _read_rows(workbook: Path) -> tuple[list[str], list[dict[str, Any]], list[str]]:
    import openpyxl

    check_workbook(workbook)  # size bombs refused before openpyxl expands them
    try:
        wb = openpyxl.load_workbook(workbook, read_only=True, data_only=True)
    except Exception as err:  # zipfile/openpyxl raise many kinds for a damaged file
        raise InputError(f"cannot read the workbook ({type(err).__name__}: {err})", path=workbook) from None
    if ALIGNMENT_SHEET not in wb.sheetnames or ABOUT_SHEET not in wb.sheetnames:
        raise InputError(f"not a time review workbook: no {ALIGNMENT_SHEET!r} or {ABOUT_SHEET!r} sheet", path=workbook)
    settings = json.loads(str(wb[ABOUT_SHEET].cell(1, 2).value or "{}"))
    annotators = [str(a) for a in settings.get("annotators", [])]
    sheet = wb[ALIGNMENT_SHEET]
    sheet.reset_dimensions()  # a forged last cell (XFD1048576) is not trusted: only the cells there
    width = len(_columns(annotators)) + 8  # our columns, and a few the reviewer may have added
    table = [
        () if values.count(None) == len(values) else values
        for values in sheet.iter_rows(max_col=width, values_only=True)
    ]
    header = [str(h) if h is not None else "" for h in (table[0] if table else ())]
    missing = [c for c in _columns(annotators) if c not in header]
    if missing:
        raise InputError(f"the {ALIGNMENT_SHEET} sheet lacks the columns {missing}", path=workbook)
    rows = [
        dict(zip(header, values, strict=False)) | {"_row": n} for n, values in enumerate(table[1:], start=2) if values
    ]
    wb.close()
    return annotators, [r for r in rows if r.get("group") is not None], header


def _number(value: Any, what: str, where: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{what} {value!r} is not a number (seconds)", place=where) from None
    if not math.isfinite(number):
        raise InputError(f"{what} {value!r} is not a finite time", place=where)
    return number


def _gold_unit(row: dict[str, Any], decision: str, annotators: list[str], where: str) -> dict[str, Any] | None:
    """The gold unit a row's decision keeps (None for ``none``)."""
    if decision == NONE_DECISION:
        return None
    if decision == EDIT_DECISION:
        start, end = _number(row["gold start"], "gold start", where), _number(row["gold end"], "gold end", where)
        label = str(row.get("gold category") or "").strip()
        text = label
    elif decision in annotators:
        if row.get(f"{decision} start") is None:
            raise InputError(f"decision {decision!r}, but {decision} has no unit in this group", place=where)
        start = _number(row[f"{decision} start"], f"{decision} start", where)
        end = _number(row[f"{decision} end"], f"{decision} end", where)
        text = str(row.get(f"{decision} text") or row.get(f"{decision} category") or "").strip()
    else:
        choices = ", ".join([*annotators, NONE_DECISION, EDIT_DECISION])
        raise InputError(f"unknown decision {decision!r}; expected one of {choices}", place=where)
    if end < start:
        raise InputError(f"the gold unit ends ({end}) before it starts ({start})", place=where)
    return {"speaker": str(row.get("speaker") or "") or GOLD_SPEAKER, "start": start, "end": end, "text": text}


def adjudicate_time(
    workbook: str | os.PathLike[str],
    output: str | os.PathLike[str],
    *,
    fmt: str | None = None,
    undecided: Literal["skip", "error"] = "skip",
) -> TimeAdjudication:
    """Turn a filled-in time review into gold units and write them (see the module docstring)."""
    workbook = Path(workbook)
    if is_decisions_file(workbook):  # the review page's export
        annotators, rows = read_time_decisions(workbook, UNIT_FIELDS)
    else:
        annotators, rows, _ = _read_rows(workbook)
    report = TimeAdjudication(str(output), 0)
    gold: list[dict[str, Any]] = []
    for row in rows:
        where = f"{workbook}: sheet {ALIGNMENT_SHEET!r}, row {row['_row']}"
        decision = str(row.get("decision") or "").strip()
        if not decision:
            report.undecided.append(int(row["group"]))
            continue
        report.decisions[decision] += 1
        unit = _gold_unit(row, decision, annotators, where)
        if unit is not None:
            gold.append(unit)
    if report.undecided and undecided == "error":
        raise SegagreeError(f"undecided groups: {report.undecided[:20]}", path=workbook)
    if not gold:
        raise SegagreeError("no gold unit: every decision is none or empty", path=workbook)
    report.units = len(gold)
    report.losses = write_document(_gold_document(gold, workbook), Path(output), fmt)
    return report


def _gold_document(gold: list[dict[str, Any]], workbook: Path) -> Any:
    """The gold units as a Document: one speaker per tier, the label as the unit's words and endnote."""
    scheme = builtin_scheme("dubois")
    units: list[Mapping[str, Any]] = []
    for u in sorted(gold, key=lambda u: (u["start"], u["end"])):
        words, code = split_endnote(u["text"].split(), scheme)
        units.append(
            {
                "speaker": u["speaker"],
                "tokens": words or [UNLABELLED],
                "boundary": scheme.unclassified_code if code is None else code,
                "start": u["start"],
                "end": u["end"],
            }
        )
    speakers = list(dict.fromkeys(u["speaker"] for u in units))
    return from_units(workbook.stem, units, layer="iu", scheme=scheme, speakers=speakers, annotator="gold")
