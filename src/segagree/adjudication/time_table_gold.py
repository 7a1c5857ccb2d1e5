"""The gold of a time review on a units table: the reference annotator's rows, reviewed ones replaced.

A units table (:mod:`segagree.scoring.time.units_table`) holds every annotator's units, one row
each. The gold table has the table's header (columns and their order) and the reference annotator's
rows in the table's order: rows of a speaker/recording that was not reviewed stay as they were;
the rows of each reviewed speaker/recording are replaced, where the first of them stood, by the
gold units. A gold unit equal to one of the replaced rows (same start, end and category) is that
row, every cell as it was; a new one gets the reference annotator, the speaker and recording
columns of its item, its times in the table's unit (seconds, ``ms``, or integer positions) and its
label as the category. Other annotators' rows are not part of the gold (a note counts them).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from segagree.errors import InputError
from segagree.files.atomic import atomic_path
from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.model.losses import LossReport
from segagree.scoring.time.units_table import RECORDING_COLUMNS, TABLE_COLUMNS, strict_number

__all__ = ["replace_table_rows"]

_RECORDING_NOTE = re.compile(r": column '(.+?)' names the recordings")
_PYGAMMA = {"annotator": 0, "category": 1, "start": 2, "end": 3}  # the headerless form


def _columns(header: list[str], settings: Mapping[str, Any]) -> dict[str, int]:
    """Column name -> index, the recording column (as the review read it) under ``recording``."""
    names = [c.strip().lower() for c in header]
    col = {name: names.index(name) for name in TABLE_COLUMNS if name in names}
    notes = (settings.get("plan") or {}).get("notes") or []
    named = [m.group(1) for m in map(_RECORDING_NOTE.search, map(str, notes)) if m]
    for name in [*named, *RECORDING_COLUMNS]:
        if name in names:
            col["recording"] = names.index(name)
            break
    return col


def _time_cell(seconds: float, unit: str) -> str:
    if unit == "index":
        return str(round(seconds))
    value = seconds * 1000.0 if unit == "ms" else seconds
    if abs(value - round(value)) < 1e-9:
        return str(round(value))
    return repr(round(value, 9))


def _same(row: list[str], col: Mapping[str, int], unit: str, span: tuple[float, float, str]) -> bool:
    """Whether a table row is the gold unit ``span`` (start, end and category as written back)."""
    start, end = strict_number(row[col["start"]]), strict_number(row[col["end"]])
    if start is None or end is None:
        return False
    scale = 0.001 if unit == "ms" else 1.0
    label = row[col["category"]].strip() if "category" in col else ""
    return abs(start * scale - span[0]) < 1e-9 and abs(end * scale - span[1]) < 1e-9 and label == span[2]


def replace_table_rows(
    source: Path,
    output: Path,
    annotator: str,
    items: Mapping[str, tuple[str, str, str]],
    spans: Mapping[str, Sequence[tuple[float, float, str]]],
    settings: Mapping[str, Any],
) -> LossReport:
    """Write the gold table (see the module docstring).

    Args:
        source: the units table.
        output: the gold table (CSV or TSV as the source).
        annotator: the reference annotator.
        items: review item -> (tier, speaker, recording) of the reference annotator's rows.
        spans: review item -> its gold units ``(start s, end s, label)`` in time order.
        settings: the review's settings (the plan's time unit, gap labels and recording column).
    """
    losses = LossReport()
    text = decode_text(read_bytes(source), source)
    first = next(iter(text.splitlines()), "")
    delimiter = "\t" if source.suffix.lower() == ".tsv" or ("\t" in first and "," not in first) else ","
    table = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    plan = settings.get("plan") or {}
    unit = str(plan.get("time_unit") or "s")
    has_header = bool(table) and {"annotator", "start", "end"} <= {c.strip().lower() for c in table[0]}
    header, body = (table[0], table[1:]) if has_header else ([], table)
    col = _columns(header, settings) if has_header else dict(_PYGAMMA)
    width = len(header) if has_header else 4
    wanted = {(speaker, recording): item for item, (_t, speaker, recording) in items.items()}
    gaps = {str(g).strip() for g in plan.get("gap_labels") or []}
    out: list[list[str]] = [header] if has_header else []
    placed: set[str] = set()
    others: dict[str, int] = {}
    replaced_gaps = 0
    for n, row in enumerate(body, start=2 if has_header else 1):
        if not any(c.strip() for c in row):
            continue
        if len(row) <= max(col.values()):
            raise InputError(
                f"the row has {len(row)} cells; expected {max(col.values()) + 1}", path=source, place=f"line {n}"
            )
        who = row[col["annotator"]].strip()
        if who != annotator:
            others[who] = others.get(who, 0) + 1
            continue
        key = tuple(row[col[c]].strip() if c in col else "" for c in ("speaker", "recording"))
        item = wanted.get(key)  # type: ignore[arg-type]
        if item is None:
            out.append(row)
            continue
        if "category" in col and row[col["category"]].strip() in gaps:
            replaced_gaps += 1
        if item not in placed:
            placed.add(item)
            out += _gold_rows(spans.get(item, ()), body, col, width, unit, annotator, items[item])
    for item in items:
        if item not in placed:
            out += _gold_rows(spans.get(item, ()), [], col, width, unit, annotator, items[item])
    if others:
        losses.note(
            "other-annotators",
            "the gold holds the reference annotator's rows only; not carried: "
            + ", ".join(f"{a} ({n} rows)" for a, n in others.items()),
            count=sum(others.values()),
        )
    losses.add_count("gaps-dropped", f"rows of {annotator!r} labelled as gaps in the reviewed items", replaced_gaps)
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n" if "\r\n" in text else "\n")
    writer.writerows(out)
    with atomic_path(output, inputs=(source,)) as tmp:
        tmp.write_text(buffer.getvalue(), encoding="utf-8", newline="")
    return losses


def _gold_rows(
    spans: Sequence[tuple[float, float, str]],
    body: Sequence[list[str]],
    col: Mapping[str, int],
    width: int,
    unit: str,
    annotator: str,
    where: tuple[str, str, str],
) -> list[list[str]]:
    """The rows of one item's gold units: an equal row of the reference annotator kept as it was."""
    _tier, speaker, recording = where
    mine = [
        r
        for r in body
        if any(c.strip() for c in r)
        and len(r) > max(col.values())
        and r[col["annotator"]].strip() == annotator
        and tuple(r[col[c]].strip() if c in col else "" for c in ("speaker", "recording")) == (speaker, recording)
    ]
    rows = []
    for span in spans:
        same = next((r for r in mine if _same(r, col, unit, span)), None)
        if same is not None:
            mine.remove(same)
            rows.append(same)
            continue
        row = [""] * width
        cells = {"annotator": annotator, "start": _time_cell(span[0], unit), "end": _time_cell(span[1], unit)}
        cells |= {"category": span[2], "speaker": speaker, "recording": recording}
        for name, value in cells.items():
            if name in col:
                row[col[name]] = value
        rows.append(row)
    return rows
