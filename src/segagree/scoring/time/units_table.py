"""Units tables: the CSV/TSV form of units in time, as labs export them.

The header names the columns (case-insensitive, any order; a name given twice is refused):

* ``annotator``, ``start``, ``end`` (required), ``category``, ``speaker``, ``text`` (optional);
* a **recording** column, ``media_file``, ``file`` or ``recording`` (or the one named by
  ``text_column``): each recording is its own text, on its own continuum.

pygamma-agreement's headerless ``annotator,category,start,end`` is read too. Times are seconds, or
milliseconds with ``time_unit="ms"``, or integer positions without a unit and without a limit with
``time_unit="index"`` (character offsets, DKPro's integer continua; a fraction is refused there). A
number is written with ASCII digits only (``1_0``, ``١٠``, ``inf`` and ``nan`` are refused, though
Python's ``float`` takes them), and a time beyond ten days (:data:`segagree.formats.timing.MAX_SECONDS`)
is refused, as in every reader. A table with a header and no rows declares one annotator with no units
(the name the caller gives, else the file stem).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from segagree.errors import InputError, SegagreeError, UsageError
from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.formats.timing import MAX_SECONDS

__all__ = [
    "RECORDING_COLUMNS",
    "TABLE_COLUMNS",
    "TIME_UNITS",
    "TableRow",
    "UnitsTable",
    "expected_columns",
    "is_units_table",
    "looks_like_table",
    "read_units_table",
    "strict_number",
]

TABLE_COLUMNS = ("annotator", "start", "end", "category", "speaker", "text")
RECORDING_COLUMNS = ("media_file", "file", "recording")
TIME_UNITS = {"s": 1.0, "ms": 0.001, "index": 1.0}
#: Positions without a unit (character offsets, DKPro's integer continua): integers, no ten-day limit.
INDEX = "index"
_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
# A decimal number in ASCII digits (no '_' separators, no 'inf'/'nan', no other scripts' digits).
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


@dataclass(frozen=True)
class TableRow:
    """One row of a units table, times in seconds; ``where`` is ``FILE: line N``."""

    annotator: str
    speaker: str
    recording: str
    start: float
    end: float
    category: str
    text: str
    where: str


@dataclass
class UnitsTable:
    """The rows of a units table, its annotators in order of first appearance, and whether it has a
    recording column (which one)."""

    path: Path
    rows: list[TableRow] = field(default_factory=list)
    annotators: list[str] = field(default_factory=list)
    recording_column: str | None = None


def expected_columns() -> str:
    """The header a units table must have, for messages."""
    return (
        "a units table has the header annotator,start,end (and optional category, speaker, text, and a "
        f"recording column: {', '.join(RECORDING_COLUMNS)} or --text-column NAME), or pygamma-agreement's "
        "headerless annotator,category,start,end"
    )


def strict_number(cell: str) -> float | None:
    """The number written in ``cell`` (ASCII decimal), or None when it is not one."""
    text = cell.strip()
    return float(text) if _NUMBER.fullmatch(text) else None


def _text(path: Path) -> str:
    return decode_text(read_bytes(path), path)


def _delimiter(path: Path, first_line: str) -> str:
    if path.suffix.lower() == ".tsv" or ("\t" in first_line and "," not in first_line):
        return "\t"
    return ","


def _first_cells(path: Path) -> list[str]:
    first = next(iter(_text(path).splitlines()), "")
    return [c.strip().lower() for c in next(csv.reader([first], delimiter=_delimiter(path, first)), [])]


def looks_like_table(path: str | Path) -> bool:
    """Whether the file is a CSV/TSV table (by its extension)."""
    return Path(path).suffix.lower() in (".csv", ".tsv")


def is_units_table(path: str | Path) -> bool:
    """Whether a CSV/TSV file is a units table (the header ``annotator,start,end[,category]...``,
    or pygamma's headerless ``annotator,category,start,end``), not a segagree transcript table."""
    path = Path(path)
    if not looks_like_table(path):
        return False
    cells = _first_cells(path)
    if {"annotator", "start", "end"} <= set(cells):
        return True
    return len(cells) == 4 and strict_number(cells[2]) is not None and strict_number(cells[3]) is not None


def is_transcript_table(path: str | Path) -> bool:
    """Whether a CSV/TSV file has a segagree transcript table's header (Speaker and Utterance/text)."""
    cells = set(_first_cells(Path(path)))
    return "speaker" in cells and bool({"utterance", "text"} & cells)


def _columns(header: list[str], path: Path, text_column: str | None) -> tuple[dict[str, int], str | None]:
    """Column name -> index (recording under ``recording``), and the recording column's name."""
    seen: dict[str, int] = {}
    for i, name in enumerate(header):
        if name and name in seen:
            raise InputError(
                f"the column {name!r} appears twice in the header (columns {seen[name] + 1} and {i + 1})", path=path
            )
        seen[name] = i
    col = {name: seen[name] for name in TABLE_COLUMNS if name in seen}
    wanted = [text_column.strip().lower()] if text_column else list(RECORDING_COLUMNS)
    found = [name for name in wanted if name in seen]
    if text_column and not found:
        raise InputError(f"--text-column {text_column!r} is not a column; the header is {header}", path=path)
    if len(found) > 1:
        raise InputError(f"two recording columns {found}; choose one with --text-column NAME", path=path)
    if found:
        col["recording"] = seen[found[0]]
    return col, found[0] if found else None


_NOT_FINITE = {"nan": float("nan"), "inf": float("inf"), "+inf": float("inf"), "-inf": float("-inf")}


def _position(cell: str, what: str, where: str) -> float:
    """An integer position (``time_unit="index"``): any size from 0, no unit; a fraction or a
    negative position is refused."""
    if not _INTEGER.fullmatch(cell.strip()):
        raise InputError(
            f"the {what} {cell!r} is not an integer position (--time-unit index reads whole numbers such as "
            "character offsets; times in seconds need --time-unit s)",
            place=where,
        )
    value = int(cell.strip())
    if value < 0:  # (as a time before the recording's start is refused)
        raise InputError(f"the {what} {cell!r} is negative; a position counts from 0 (--time-unit index)", place=where)
    if abs(value) > 2**53:  # beyond this a float no longer holds every integer
        raise InputError(f"the {what} {cell!r} is beyond 2**53, the largest exact position", place=where)
    return float(value)


def _time(cell: str, what: str, where: str, scale: float | None) -> float:
    if scale is None:
        return _position(cell, what, where)
    if cell.strip().lower() in _NOT_FINITE:  # refused by the unit check, with its own words
        return _NOT_FINITE[cell.strip().lower()]
    value = strict_number(cell)
    if value is None:
        unit = "milliseconds" if scale != 1.0 else "seconds"
        raise InputError(f"the {what} {cell!r} is not a number of {unit} (ASCII digits, e.g. 12.5)", place=where)
    seconds = value * scale
    if abs(seconds) > MAX_SECONDS:
        raise InputError(
            f"the {what} {cell!r} is {seconds:.0f} s, beyond ten days ({MAX_SECONDS:.0f} s); "
            "if the table is in milliseconds, give --time-unit ms; positions without a unit (character "
            "offsets): --time-unit index",
            place=where,
        )
    return seconds


def read_units_table(path: str | Path, *, time_unit: str = "s", text_column: str | None = None) -> UnitsTable:
    """Read a units table (see the module docstring)."""
    path = Path(path)
    if time_unit not in TIME_UNITS:
        raise UsageError(f"--time-unit takes one of {', '.join(TIME_UNITS)}, not {time_unit!r}")
    scale = None if time_unit == INDEX else TIME_UNITS[time_unit]
    text = _text(path)
    first = next(iter(text.splitlines()), "")
    rows = list(csv.reader(io.StringIO(text), delimiter=_delimiter(path, first)))
    header = [c.strip().lower() for c in rows[0]] if rows else []
    table = UnitsTable(path)
    if {"annotator", "start", "end"} <= set(header):
        col, table.recording_column = _columns(header, path, text_column)
        body, first_line = rows[1:], 2
    elif is_units_table(path):  # pygamma-agreement's headerless annotator,category,start,end
        if text_column:
            raise UsageError(f"--text-column names a column of a header; {path} has no header")
        col = {"annotator": 0, "category": 1, "start": 2, "end": 3}
        body, first_line = rows, 1
    else:
        raise InputError(f"not a units table: the header is {header[:8]}; {expected_columns()}", path=path)
    width = max(col.values()) + 1
    for n, row in enumerate(body, start=first_line):
        if not any(c.strip() for c in row):
            continue
        where = f"{path}: line {n}"
        if len(row) < width:
            raise InputError(f"the row has {len(row)} cells; expected {width}", place=where)
        cells = {name: row[i].strip() for name, i in col.items()}
        if not cells["annotator"]:
            raise InputError("the row has no annotator", place=where)
        label = cells.get("category", "")
        table.rows.append(
            TableRow(
                annotator=cells["annotator"],
                speaker=cells.get("speaker", ""),
                recording=cells.get("recording", ""),
                start=_time(cells["start"], "start", where, scale),
                end=_time(cells["end"], "end", where, scale),
                category=label,
                text=cells.get("text", "") or label,
                where=where,
            )
        )
    if not table.rows and first_line == 1:
        raise InputError("the units table is empty", path=path)
    table.annotators = list(dict.fromkeys(r.annotator for r in table.rows))
    return table


def table_recordings(paths: Sequence[str | Path], *, time_unit: str = "s", text_column: str | None = None) -> list[str]:
    """The recordings named by the recording column of the units tables among ``paths``, sorted
    (``[""]`` when none has one, or a table cannot be read: scoring then reports it). A corpus run
    makes each recording a text of its own (``TEXT/RECORDING``)."""
    found: set[str] = set()
    wanted = [text_column.strip().lower()] if text_column else list(RECORDING_COLUMNS)
    for path in map(Path, paths):
        try:
            if not (looks_like_table(path) and set(wanted) & set(_first_cells(path)) and is_units_table(path)):
                continue
            found.update(
                row.recording for row in read_units_table(path, time_unit=time_unit, text_column=text_column).rows
            )
        except (SegagreeError, OSError, UnicodeError):
            return [""]
    return sorted(found) if found else [""]
