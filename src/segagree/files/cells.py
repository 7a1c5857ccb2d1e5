"""Cells that a spreadsheet would run, and the limits of an XLSX sheet: one rule for every writer.

**CSV injection** (OWASP, "CSV Injection"): a spreadsheet opening a CSV runs a cell that starts
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return as a formula (``=HYPERLINK(...)``,
``=cmd|' /C calc'!A0``). segagree's CSVs are data, read by pandas and R (``summary.csv``,
``time_summary.csv``, ``panel.csv``, ``compare --ops``, ``study.csv``, converted tables): they hold
every cell as it is (the Du Bois ``--`` stays ``--``). Where a spreadsheet opens the file, the
guard applies: the review workbooks and every other XLSX hold text as text (below), and
``--csv-guard`` (or ``SEGAGREE_CSV_GUARD=1`` in the environment) writes the report CSVs for a
spreadsheet, a cell that would run with a ``'`` in front (OWASP's rule, which spreadsheets show
as text). Numbers are data, not formulas: ``-0.12``, ``+3`` and ``-1e-05`` are never changed.
Converted data (``convert -o x.csv``) is never changed: its loss report counts the cells a
spreadsheet would run instead (:func:`count_runnable`).

**XLSX**: every text cell is written as a string (never a formula or a link); a cell holds at
most :data:`XLSX_MAX_CHARS` characters and a sheet :data:`XLSX_MAX_ROWS` rows (Excel's
specifications and limits); writers split or refuse beyond them, never cut in silence.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

# OWASP's list of the first characters that make a cell a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
GUARD_ENV = "SEGAGREE_CSV_GUARD"
# A plain number (what the writers themselves print for a float or an int): data, not a formula.
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")

XLSX_MAX_CHARS = 32_767
XLSX_MAX_ROWS = 1_048_576
# xlsxwriter's options for every workbook written: text stays text.
XLSX_OPTIONS: dict[str, Any] = {"strings_to_numbers": False, "strings_to_formulas": False, "strings_to_urls": False}


def csv_raw_default() -> bool:
    """Whether report CSVs are written raw, as data: unless ``SEGAGREE_CSV_GUARD`` is set to
    anything but ``0`` (``--csv-guard``)."""
    return os.environ.get(GUARD_ENV, "") in ("", "0")


def would_run(value: Any) -> bool:
    """Whether a spreadsheet opening a CSV would take this cell for a formula: a text (not a
    number) starting with one of :data:`FORMULA_START`."""
    return isinstance(value, str) and value.startswith(FORMULA_START) and _NUMBER.fullmatch(value) is None


def neutralise(value: Any) -> Any:
    """The cell as a report CSV for a spreadsheet writes it: ``'`` in front of a cell that would run."""
    return "'" + value if would_run(value) else value


def safe_rows(rows: Iterable[Mapping[str, Any]], *, raw: bool | None = None) -> Iterator[Mapping[str, Any]]:
    """The rows of a report CSV, with every cell that would run neutralised unless ``raw``
    (None: :func:`csv_raw_default`, raw unless ``--csv-guard``)."""
    if raw is None:
        raw = csv_raw_default()
    if raw:
        yield from rows
        return
    for row in rows:
        for v in row.values():  # most cells are numbers or plain words: one cheap test each
            if isinstance(v, str) and v.startswith(FORMULA_START) and would_run(v):
                yield {k: neutralise(v) for k, v in row.items()}
                break
        else:
            yield row


def count_runnable(cells: Iterable[Any]) -> int:
    """How many cells a spreadsheet would run (for a loss report's note)."""
    return sum(1 for c in cells if would_run(c))
