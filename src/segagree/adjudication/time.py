"""Adjudication of a time review: the decisions of a review workbook (or a review page's decisions
file) read back (openpyxl) into gold units, written on the reference annotator's file (the first
annotator's: its other tiers, extent and header kept, :mod:`segagree.adjudication.time_source`);
in another format, that file converted with its other tiers' units kept
(:mod:`segagree.adjudication.time_convert`); or, when that file cannot be used (said as a
``source-not-kept`` loss), one tier per speaker in any timed format segagree writes (by the
output's extension).

Decisions: an **annotator's name** keeps that annotator's unit; ``none`` keeps no unit; ``edit``
keeps the unit typed into the *gold start*, *gold end* and *gold category* columns; empty is
undecided: the reference annotator's unit of the group is kept (``--undecided keep-a``, as a text
review keeps A's boundary), or none is written (``skip``), or the groups are refused (``error``).

Each gold unit carries its **origin**, the reference annotator's unit of its group
(:class:`~segagree.formats.gold_spans.Origin`): the unit itself when that annotator's unit was kept,
else the unit the decision replaced; the tier replacers keep a kept unit as its file wrote it (value,
id, dependent annotations) and continue a replaced one (its dependents kept where they still fit).
The report counts the gold's units per tier by where they came from. The workbook is written by
:func:`segagree.outputs.time_review.write_time_review`.
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

from segagree.adjudication.decisions import EDIT_KEYS, decisions_kind, is_decisions_file, read_time_decisions
from segagree.adjudication.steps import units_said
from segagree.adjudication.time_convert import write_converted
from segagree.adjudication.time_source import reference_file, write_on_reference
from segagree.errors import InputError, SegagreeError
from segagree.files.xlsx_guard import check_workbook
from segagree.formats import LossReport, write_document
from segagree.formats.endnotes import split_endnote
from segagree.formats.gold_spans import Origin, same_time
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


#: Undecided groups: ``a`` keeps the reference (first) annotator's unit of the group (none where
#: it has none), ``skip`` writes no unit, ``error`` refuses.
TimeUndecided = Literal["a", "keep-a", "skip", "error"]  # "keep-a": the command line's name of "a"
_RULES = {"a": "--undecided keep-a", "skip": "--undecided skip", "error": "--undecided error"}
_LIST_LIMIT = 20
_UNDECIDED_KEPT = "undecided"  # the source of a gold unit kept by the undecided rule


@dataclass
class TimeAdjudication:
    """What :func:`adjudicate_time` did.

    Attributes:
        output: the gold file written.
        units: the number of gold units written.
        decisions: decided groups by decision (annotator name, ``none``, ``edit``).
        undecided: the undecided groups (their numbers).
        undecided_kept: undecided groups whose reference unit the rule kept.
        rule: the undecided rule (``a``, ``skip``).
        reference_annotator: the first annotator (whose units ``keep-a`` keeps).
        by_tier: per gold tier, the gold units by where they came from (an annotator's name,
            ``edit``, or ``undecided`` for a reference unit kept by the rule).
        losses: what the writer could not keep, one line per dependent annotation.
        reference: the file the gold was written on (its other tiers, extent and header kept).
    """

    output: str
    units: int
    decisions: Counter[str] = field(default_factory=Counter)
    undecided: list[int] = field(default_factory=list)
    losses: LossReport = field(default_factory=LossReport)
    reference: str = ""
    undecided_kept: int = 0
    rule: str = "a"
    reference_annotator: str = ""
    by_tier: dict[str, Counter[str]] = field(default_factory=dict)
    converted: str = ""  # the reference file the gold was converted from (another format)
    reference_kind: str = ""  # eaf, textgrid or table

    def lines(self) -> list[str]:
        done = ", ".join(f"{k} {n}" for k, n in sorted(self.decisions.items())) or "none"
        out = [f"wrote {self.output}: {self.units} gold units (decisions: {done})"]
        for tier, sources in self.by_tier.items():
            said = units_said(sum(sources.values()))
            out.append(f"  tier {tier!r}: {said} ({_sources(sources, self.reference_annotator)})")
        if self.undecided:
            who = self.reference_annotator or "the first annotator"
            if self.rule == "a":
                without = len(self.undecided) - self.undecided_kept
                how = f"{self.undecided_kept} kept as {who}'s unit by {_RULES['a']}" + (
                    f", {without} without a unit of {who} (none written)" if without else ""
                )
            else:
                how = f"no unit written ({_RULES.get(self.rule, self.rule)})"
            out.append(f"undecided groups: {len(self.undecided)} ({how}): {_listing(self.undecided)}")
        dropped = self.decisions.get(NONE_DECISION, 0)
        if dropped:
            out.append(f"groups decided none (no unit written): {dropped}")
        if self.reference and self.reference_kind == "table":
            out.append(
                f"the gold is {self.reference} with the reviewed speakers' rows holding these units; its header "
                "and other rows as they were, each row kept from it cell for cell"
            )
        elif self.reference:
            out.append(
                f"the gold is {self.reference} with the reviewed tiers holding these units; its other tiers, "
                "extent and header as they were, and each unit kept from it as written with its dependent "
                "annotations" + (" (except as listed below)" if self.losses else "")
            )
        if self.converted:
            out.append(
                f"the gold is {self.converted} converted: the units of its tiers not reviewed kept, the reviewed "
                "tiers holding these units; what the conversion does not keep is listed below"
            )
        out.extend(f"loss: {line}" for line in self.losses.lines())  # as a token review says them
        out.extend(self.losses.note_lines())
        return out


def _sources(sources: Counter[str], reference: str) -> str:
    """``from kim 3, from lee 1, edited 1, undecided kept as kim's 2``."""
    parts = []
    for source, n in sources.items():
        if source == EDIT_DECISION:
            parts.append(f"edited {n}")
        elif source == _UNDECIDED_KEPT:
            parts.append(f"undecided kept as {reference}'s {n}")
        else:
            parts.append(f"from {source} {n}")
    return ", ".join(parts)


def _listing(groups: list[int]) -> str:
    shown = ", ".join(map(str, groups[:_LIST_LIMIT]))
    return shown + (f" and {len(groups) - _LIST_LIMIT} more" if len(groups) > _LIST_LIMIT else "")


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
    rows = [_row_of(header, values) | {"_row": n} for n, values in enumerate(table[1:], start=2) if values]
    wb.close()
    rows = [r for r in rows if r.get("group") is not None]
    for r in rows:
        r["_settings"] = settings
    return annotators, rows, header


def _row_of(header: list[str], values: tuple[Any, ...]) -> dict[str, Any]:
    """A row by column name: an annotator's columns are the first of a name (an annotator named
    ``gold`` has a ``gold start`` column, and so has the edit), the edit's the last, kept under
    :data:`~segagree.adjudication.decisions.EDIT_KEYS`."""
    row: dict[str, Any] = {}
    for name, value in zip(header, values, strict=False):
        row.setdefault(name, value)
    for key, internal in EDIT_KEYS.items():
        name = f"gold {key}"
        if name in header:
            at = len(header) - 1 - header[::-1].index(name)
            row[internal] = values[at] if at < len(values) else None
    return row


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
        start = _number(row.get(EDIT_KEYS["start"]), "gold start", where)
        end = _number(row.get(EDIT_KEYS["end"]), "gold end", where)
        label = str(row.get(EDIT_KEYS["category"]) or "").strip()
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
        "origin": _origin(row, decision, annotators, start, end, text, where),
    }


def _origin(
    row: dict[str, Any], decision: str, annotators: list[str], start: float, end: float, text: str, where: str
) -> Origin | None:
    """The reference (first) annotator's unit of the group, which the gold unit is (the reference's
    unit chosen) or replaces (another's unit, or an edit): the unit of its file that the writer
    keeps as written, or continues with the new times or label."""
    reference = annotators[0] if annotators else ""
    if not reference or row.get(f"{reference} start") is None:
        return None
    ref_start = _number(row[f"{reference} start"], f"{reference} start", where)
    ref_end = _number(row[f"{reference} end"], f"{reference} end", where)
    ref_text = str(row.get(f"{reference} text") or row.get(f"{reference} category") or "").strip()
    same_label = text == ref_text
    kept = decision == reference or (same_label and same_time(start, ref_start) and same_time(end, ref_end))
    return Origin(ref_start, ref_end, kept=kept, same_label=same_label)


def _tier_name(settings: Mapping[str, Any], speaker: str, decision: str, annotators: list[str]) -> str:
    """The tier the gold unit goes to: the source tier (from the review's plan) of the chosen
    annotator's unit, or, for an edit, the tier every annotator's units of the speaker came
    from; the reference annotator's tier when each annotator has a tier of its own in one file;
    empty when the plan does not say (a decisions file, an older workbook)."""
    rows = (settings.get("plan") or {}).get("rows") or []
    tiers = {
        str(r.get("annotator")): str(r.get("tier") or "")
        for r in rows
        if str(r.get("speaker") or "") == speaker and r.get("scored", True)
    }
    names = {tiers.get(a, "") for a in annotators}
    if len(names) > 1 and annotators:
        # one tier per annotator in one file (--annotator-tier): the gold replaces the reference's tier
        return tiers.get(annotators[0], "")
    if decision in tiers:
        return tiers[decision]
    return names.pop() if len(names) == 1 else ""


def adjudicate_time(
    workbook: str | os.PathLike[str],
    output: str | os.PathLike[str],
    *,
    fmt: str | None = None,
    undecided: TimeUndecided = "a",
) -> TimeAdjudication:
    """Turn a filled-in time review into gold units and write them (see the module docstring).

    ``undecided``: ``a`` keeps the reference (first) annotator's unit of an undecided group,
    as ``--undecided keep-a`` keeps A's boundary in a text review; ``skip`` writes none;
    ``error`` refuses, naming the groups.
    """
    workbook = Path(workbook)
    if undecided == "keep-a":
        undecided = "a"
    if is_decisions_file(workbook):  # the review page's export
        annotators, rows = read_time_decisions(workbook, UNIT_FIELDS)
    else:
        annotators, rows, _ = _read_rows(workbook)
    refuse_reserved_names(annotators, workbook)
    first = annotators[0] if annotators else ""  # the reference annotator
    report = TimeAdjudication(str(output), 0, rule=undecided, reference_annotator=first)
    gold: list[dict[str, Any]] = []
    for row in rows:
        where = f"{workbook}: sheet {ALIGNMENT_SHEET!r}, row {row['_row']}"
        decision = str(row.get("decision") or "").strip()
        if not decision:
            report.undecided.append(int(row["group"]))
            has_unit = undecided == "a" and bool(first) and row.get(f"{first} start") is not None
            kept = _gold_unit(row, first, annotators, where) if has_unit else None
            if kept is not None:
                gold.append(kept | {"taken": _UNDECIDED_KEPT})
                report.undecided_kept += 1
            continue
        report.decisions[decision] += 1
        unit = _gold_unit(row, decision, annotators, where)
        if unit is not None:
            gold.append(unit | {"taken": decision})
    if report.undecided and undecided == "error":
        raise SegagreeError(
            f"{len(report.undecided)} undecided groups: {_listing(report.undecided)}; decide them, or keep "
            f"{first or 'the first annotator'}'s units there with --undecided keep-a",
            path=workbook,
        )
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
    for u in sorted(gold, key=lambda u: (u["start"], u["end"])):
        report.by_tier.setdefault(u["speaker"], Counter())[u["taken"]] += 1
    if reference is not None and reference.other_format:  # converted, other tiers' units kept
        report.losses = write_converted(reference, gold, Path(output), fmt)
        report.converted = f"{_shown(reference.path)} (annotator {reference.annotator})"
        _flag_overlaps(report.losses, gold)
        return report
    if reference is not None:  # the reference annotator's file, the reviewed tiers replaced
        report.losses = write_on_reference(reference, gold, Path(output), settings, _reviewed(rows, first))
        report.reference = f"{_shown(reference.path)} (annotator {reference.annotator})"
        report.reference_kind = reference.kind
        return report
    report.losses = write_document(_gold_document(gold, workbook, settings.get("continuum")), Path(output), fmt)
    report.losses.add(
        "source-not-kept",
        "the gold holds the adjudicated units alone, not the reference annotator's other tiers, extent and "
        f"header: {why}",
    )
    _flag_overlaps(report.losses, gold)
    return report


def _flag_overlaps(losses: LossReport, gold: list[dict[str, Any]]) -> None:
    """A gold written from units (not on the reference file, which refuses them): overlapping
    choices on one tier reported, each pair with its times and rows."""
    overlaps = _overlaps(gold)
    if overlaps:
        losses.add(
            "gold-overlap",
            "gold units chosen on one tier overlap; the written tier cannot hold both as decided "
            "(choose one, or edit one's times): " + "; ".join(overlaps[:5]) + _more(len(overlaps), 5),
            count=len(overlaps),
        )


def _more(n: int, shown: int) -> str:
    return f" and {n - shown} more" if n > shown else ""


def _reviewed(rows: list[dict[str, Any]], reference: str) -> dict[str, list[tuple[float, float]]]:
    """Per review item (speaker), the spans of the reference annotator's units the review holds:
    the tier's other units were not reviewed and stay."""
    out: dict[str, list[tuple[float, float]]] = {}
    for row in rows:
        start, end = row.get(f"{reference} start"), row.get(f"{reference} end")
        if start is not None and end is not None:
            out.setdefault(str(row.get("speaker") or ""), []).append((float(start), float(end)))
    return out


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
