"""Adjudication of a time review: the decisions of a review workbook (or a review page's decisions
file) read back (openpyxl) into gold units, written on the reference annotator's file (the first
annotator's: its other tiers, extent and header kept, :mod:`segagree.adjudication.time_source`), or,
when that file cannot be used (said as a ``source-not-kept`` loss), one tier per speaker in any
timed format segagree writes (by the output's extension).

Decisions: an **annotator's name** keeps that annotator's unit; ``none`` keeps no unit; ``edit``
keeps the unit typed into the *gold start*, *gold end* and *gold category* columns; empty is
undecided. The workbook is written by :func:`segagree.outputs.time_review.write_time_review`.
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

from segagree.adjudication.decisions import decisions_kind, is_decisions_file, read_time_decisions
from segagree.adjudication.time_source import reference_file, write_on_reference
from segagree.errors import InputError, SegagreeError
from segagree.files.xlsx_guard import check_workbook
from segagree.formats import LossReport, write_document
from segagree.formats.endnotes import split_endnote
from segagree.model import builtin_scheme, from_units
from segagree.outputs.time_review import (
    ABOUT_SHEET,
    ALIGNMENT_SHEET,
    EDIT_DECISION,
    GOLD_SPEAKER,
    NONE_DECISION,
    UNIT_FIELDS,
    UNLABELLED,
    refuse_reserved_names,
    review_columns,
)

__all__ = ["TimeAdjudication", "adjudicate_time", "is_time_review"]


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
    reference: str = ""  # the file the gold was written on (its other tiers, extent and header kept)

    def lines(self) -> list[str]:
        done = ", ".join(f"{k} {n}" for k, n in sorted(self.decisions.items())) or "none"
        out = [f"wrote {self.output}: {self.units} gold units (decisions: {done})"]
        if self.reference:
            out.append(f"the gold is {self.reference} with the reviewed tiers replaced; everything else kept")
        if self.undecided:
            out.append(f"undecided groups (no unit written): {', '.join(map(str, self.undecided[:20]))}")
        out.extend(self.losses.lines())
        out.extend(self.losses.note_lines())
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
    width = len(review_columns(annotators)) + 8  # our columns, and a few the reviewer may have added
    table = [
        () if values.count(None) == len(values) else values
        for values in sheet.iter_rows(max_col=width, values_only=True)
    ]
    header = [str(h) if h is not None else "" for h in (table[0] if table else ())]
    missing = [c for c in review_columns(annotators) if c not in header]
    if missing:
        raise InputError(f"the {ALIGNMENT_SHEET} sheet lacks the columns {missing}", path=workbook)
    rows = [
        dict(zip(header, values, strict=False)) | {"_row": n} for n, values in enumerate(table[1:], start=2) if values
    ]
    wb.close()
    rows = [r for r in rows if r.get("group") is not None]
    for r in rows:
        r["_settings"] = settings
    return annotators, rows, header


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
        text = category = label
    elif decision in annotators:
        if row.get(f"{decision} start") is None:
            raise InputError(f"decision {decision!r}, but {decision} has no unit in this group", place=where)
        start = _number(row[f"{decision} start"], f"{decision} start", where)
        end = _number(row[f"{decision} end"], f"{decision} end", where)
        text = str(row.get(f"{decision} text") or row.get(f"{decision} category") or "").strip()
        category = str(row.get(f"{decision} category") or "").strip()
    else:
        choices = ", ".join([*annotators, NONE_DECISION, EDIT_DECISION])
        raise InputError(f"unknown decision {decision!r}; expected one of {choices}", place=where)
    if end < start:
        raise InputError(f"the gold unit ends ({end}) before it starts ({start})", place=where)
    speaker = str(row.get("speaker") or "")
    return {
        "speaker": _tier_name(row.get("_settings") or {}, speaker, decision, annotators) or speaker or GOLD_SPEAKER,
        "start": start,
        "end": end,
        "text": text,
        "category": category,
        "item": speaker,  # the review's speaker (recording/speaker) the unit belongs to
        "where": where,
    }


def _tier_name(settings: Mapping[str, Any], speaker: str, decision: str, annotators: list[str]) -> str:
    """The tier the gold unit goes to: the source tier (from the review's plan) of the chosen
    annotator's unit, or, for an edit, the tier every annotator's units of the speaker came
    from; empty when the plan does not say (a decisions file, an older workbook)."""
    rows = (settings.get("plan") or {}).get("rows") or []
    tiers = {
        str(r.get("annotator")): str(r.get("tier") or "")
        for r in rows
        if str(r.get("speaker") or "") == speaker and r.get("scored", True)
    }
    if decision in tiers:
        return tiers[decision]
    names = {tiers.get(a, "") for a in annotators}
    return names.pop() if len(names) == 1 else ""


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
    refuse_reserved_names(annotators, workbook)
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
    settings = next((r.get("_settings") for r in rows if r.get("_settings")), None) or {}
    window = settings.get("window")
    if isinstance(window, dict):
        # The review saw the window's units only, clipped at its edges: a gold from it would lose the
        # units outside and keep clipped times.
        raise SegagreeError(
            f"the review was made with --window {window.get('start')},{window.get('end')}: its units are clipped to "
            "the window and those outside are not in it, so no gold file is written from it; review the whole "
            "recording (without --window) to adjudicate",
            path=workbook,
        )
    reference, why = reference_file(workbook, settings, annotators, Path(output), fmt)
    if reference is not None:  # the reference annotator's file, the reviewed tiers replaced
        report.losses = write_on_reference(reference, gold, Path(output), settings)
        report.reference = f"{_shown(reference.path)} (annotator {reference.annotator})"
        return report
    overlaps = _overlaps(gold)
    report.losses = write_document(_gold_document(gold, workbook, settings.get("continuum")), Path(output), fmt)
    report.losses.add(
        "source-not-kept",
        "the gold holds the adjudicated units alone, not the reference annotator's other tiers, extent and "
        f"header: {why}",
    )
    if overlaps:
        report.losses.add(
            "gold-overlap",
            "gold units chosen on one tier overlap; the written tier cannot hold both as decided "
            "(choose one, or edit one's times): " + "; ".join(overlaps[:5]),
            count=len(overlaps),
        )
    return report


def _shown(path: Path) -> str:
    """A path as the user would type it: relative to the current folder when under it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _overlaps(gold: list[dict[str, Any]]) -> list[str]:
    """Each pair of gold units of one tier that overlap, said with their times and rows: a tier
    of a timed format cannot hold both as decided, so the adjudicator is told."""
    by_tier: dict[str, list[dict[str, Any]]] = {}
    for u in gold:
        by_tier.setdefault(u["speaker"], []).append(u)
    found: list[str] = []
    for tier, units in by_tier.items():
        units.sort(key=lambda u: (u["start"], u["end"]))
        for before, after in zip(units, units[1:], strict=False):
            if after["start"] < before["end"]:
                found.append(
                    f"tier {tier!r}: {before['start']:g}-{before['end']:g} s ({before['where'].rsplit(', ', 1)[-1]}) "
                    f"and {after['start']:g}-{after['end']:g} s ({after['where'].rsplit(', ', 1)[-1]})"
                )
    return found


def _gold_document(gold: list[dict[str, Any]], workbook: Path, continuum: Any = None) -> Any:
    """The gold units as a Document: one speaker per tier (named as the source tier when the
    review's plan says), the label as the unit's words and endnote, and the reviewed time span
    (``continuum``) as the document's extent (``xmin``/``xmax``), so a grid does not shrink to
    its last gold unit."""
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
    meta: dict[str, Any] = {}
    if isinstance(continuum, list | tuple) and len(continuum) == 2:
        meta = {"xmin": float(continuum[0]), "xmax": float(continuum[1])}
    return from_units(workbook.stem, units, layer="iu", scheme=scheme, speakers=speakers, annotator="gold", meta=meta)
