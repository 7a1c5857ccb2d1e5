"""Spreadsheets (CSV, TSV, XLSX): one row per unit, as segsimflex reads them.

Columns ``Speaker`` and ``Utterance`` (names matched case-insensitively; ``text`` is accepted
for ``Utterance``); a blank Speaker, or R's missing value ``NA``, inherits the row above
(segsimflex's ``reNA``); every other
column (``Turn``, ``row_id``, ``docId`` ...) is kept as metadata on the unit's tokens and
written back. Optional ``Start``/``End`` columns (seconds) give unit times.

Tokenisation is segsimflex's (``genBdV2``), so its numbers are reproduced: tokens are
separated by runs of ASCII spaces; a unit's endnote is its last token when that token is
exactly an endnote symbol (``,`` ``.`` ``?`` ``--``), so ``b--``, ``fine.`` or a final ``—``
stay words and the unit is unclassified; pauses such as ``..`` are tokens. One deliberate difference:
leading or trailing spaces make an empty token in segsimflex, here they are ignored (none of
the NCCU or SBC files has one).
"""

from __future__ import annotations

import csv
import io
import logging
import math
import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter, methodcaller
from pathlib import Path
from typing import Any

import numpy as np

from segagree.errors import InputError, SegagreeError
from segagree.files.cells import XLSX_MAX_CHARS, XLSX_MAX_ROWS, XLSX_OPTIONS, count_runnable
from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.files.xlsx_guard import check_workbook
from segagree.formats.base import Adapter, note_speaker_order
from segagree.formats.elan.tab_export import read_export, sniff
from segagree.formats.endnotes import endnote_text, is_pause, split_endnote, unit_layer_to_write
from segagree.formats.kept_meta import note_words_between_spaces
from segagree.formats.timing import BadTime, parse_seconds
from segagree.model import BoundaryScheme, Document, UnitColumns, factorize
from segagree.model.losses import LossReport, read_losses
from segagree.model.source import unit_values

log = logging.getLogger(__name__)

SPEAKER_NAMES = ("speaker", "participant")
TEXT_NAMES = ("utterance", "text", "transcript")
# R's write.csv spells a missing value NA: segsimflex's reNA then inherits the speaker above.
MISSING = {"NA"}
TIME_NAMES = {"start": ("start", "unitstart"), "end": ("end", "unitend")}


class _Places:
    """The place of each row for messages: "row 5, line 7" (CSV/TSV) or "row 5" (XLSX), made
    only when a message needs one: line numbers come from ``lines()``, called at most once
    (tracking them while parsing was a third of a large read)."""

    def __init__(self, lines: Callable[[], list[int]] | None, n_rows: int) -> None:
        self._lines, self.n_rows = lines, n_rows
        self._cache: list[int] | None = None

    def __len__(self) -> int:
        return self.n_rows

    def __getitem__(self, i: int) -> str:
        if not 0 <= i < self.n_rows:
            raise IndexError(i)
        if self._lines is None:
            return f"row {i + 2}"
        if self._cache is None:
            self._cache = self._lines()
        return f"row {i + 2}, line {self._cache[i]}"


@dataclass
class _Table:
    """A table's header and rows of cells, with the place of each row for messages."""

    columns: list[str]
    rows: list[list[str]]
    places: _Places


def _load_xlsx(path: Path, losses: LossReport) -> _Table:
    read_bytes(path)  # a missing or empty file: the usual one-line error
    check_workbook(path)  # size bombs are refused before openpyxl expands them
    try:
        import pandas as pd  # only for spreadsheets: a CSV is read without it

        with pd.ExcelFile(path, engine="openpyxl") as book:
            sheets = [str(n) for n in book.sheet_names]
            frame = pd.read_excel(book, sheet_name=0, dtype=str, keep_default_na=False)
    except MemoryError:
        raise  # not damage: reported as running out of memory
    except Exception as err:  # openpyxl/zipfile raise many types for a broken workbook
        log.debug("openpyxl could not read %s", path, exc_info=True)
        import zipfile

        if isinstance(err, zipfile.BadZipFile):
            why = "not an XLSX workbook (not a zip archive; a CSV renamed .xlsx, or a cut file?)"
        elif isinstance(err, KeyError):
            why = "a damaged XLSX workbook: a part it lists is missing"
        elif isinstance(err, ValueError) and "sheet" in str(err).lower():
            why = "an XLSX workbook without a readable worksheet"
        else:
            why = "a damaged XLSX workbook that cannot be read"
        raise InputError(why, path=path) from err
    if len(sheets) > 1:
        losses.add("sheets-ignored", f"only the first worksheet ({sheets[0]!r}) is read; not {sheets[1:]}")
    columns = [str(c) for c in frame.columns]
    rows = [[_xlsx_cell(v) for v in row] for row in frame.itertuples(index=False)]
    return _Table(columns, rows, _Places(None, len(rows)))


# XML cannot hold most control characters: xlsxwriter writes them as _xHHHH_ escapes (and a literal
# "_xHHHH_" as "_x005F_xHHHH_"); openpyxl only deletes every "x005F_" on reading.
_XML_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f]")


def _xlsx_round_trip(text: str) -> str:
    """What a text cell written by xlsxwriter reads back as through openpyxl."""
    escaped = re.sub(r"(_x[0-9A-Fa-f]{4}_)", r"_x005F\1", text)
    escaped = _XML_CONTROL.sub(lambda m: f"_x{ord(m.group()):04X}_", escaped)
    return escaped.replace("x005F_", "")


def _xlsx_cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value)


def _load_delimited(path: Path, sep: str, text: str) -> _Table:
    # Python's csv refuses a cell over 131,072 characters by default; a cell may be as long as
    # the file (whose size the memory check of read_bytes bounds).
    if csv.field_size_limit() < len(text):
        csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
    kind = "TSV" if sep == "\t" else "CSV"
    try:
        # The fast path: every row at once; line numbers only when a message needs them.
        parsed = list(csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True))
    except csv.Error as err:
        _scan_lines(text, sep, path, kind)  # the same parse, row by row: raises naming the line
        raise InputError(f"not a readable {kind} table: {_csv_reason(str(err))}", path=path) from err
    first = next((i for i, cells in enumerate(parsed) if not _blank(cells)), None)
    if first is not None and len(set(map(len, parsed[first:]))) == 1 and not _blank(parsed[-1]):
        # The usual table: no blank line after the header and every row as wide (checked in C).
        if len(parsed[first]) > 1 or not any(map(_blank, parsed[first + 1 :])):  # wider: blank differs
            rows_ = parsed[first + 1 :]
            places = _Places(lambda: _scan_lines(text, sep, path, kind)[0], len(rows_))
            return _Table([c.strip() for c in parsed[first]], rows_, places)
    header: list[str] | None = None
    rows: list[list[str]] = []
    width = 0
    for cells in parsed:
        if len(cells) != width or header is None:
            if _blank(cells):
                continue
            if header is None:
                header = [c.strip() for c in cells]
                width = len(header)
                continue
            lines, _, _ = _scan_lines(text, sep, path, kind)
            raise InputError(
                f"a row of {len(cells)} cells; the header has {len(header)} ({', '.join(header)})",
                path=path,
                place=f"row {len(rows) + 2}, line {lines[len(rows)]}",
            )
        rows.append(cells)
    if header is None:
        raise InputError(f"empty {kind} table: no header row", path=path)
    return _Table(header, rows, _Places(lambda: _scan_lines(text, sep, path, kind)[0], len(rows)))


def _blank(cells: list[str]) -> bool:
    """A blank line, which csv reads as no cells or one empty one."""
    return not cells or (len(cells) == 1 and not cells[0].strip())


def _scan_lines(text: str, sep: str, path: Path, kind: str) -> tuple[list[int], list[str] | None, int]:
    """The first line of every data row (blank lines and the header skipped), row by row as
    :func:`_load_delimited` reads them; a csv error is raised as an InputError with its line.
    Returns (lines, header, last line)."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True)
    lines: list[int] = []
    header: list[str] | None = None
    line = 1
    try:
        for cells in reader:
            first_line, line = line, reader.line_num + 1
            if not cells or (len(cells) == 1 and not cells[0].strip()):
                continue
            if header is None:
                header = cells
                continue
            lines.append(first_line)
    except csv.Error as err:
        log.debug("csv could not parse %s", path, exc_info=True)
        raise InputError(
            f"not a readable {kind} table: {_csv_reason(str(err))}", path=path, place=f"line {line}"
        ) from err
    return lines, header, line


def _csv_reason(message: str) -> str:
    """The csv module's complaint in our words."""
    if "NUL" in message:
        return "a NUL character (a binary file?)"
    if "unexpected end of data" in message or "EOF" in message:
        return "a quoted cell is not closed before the end of the file"
    if "expected" in message and "after" in message:
        return "a character right after a closing quote; expected the separator or the end of the line"
    return "a malformed quoted cell"


def _column(columns: list[str], names: tuple[str, ...]) -> int | None:
    lower = {c.strip().lower(): i for i, c in reversed(list(enumerate(columns)))}
    for name in names:
        if name in lower:
            return lower[name]
    return None


def read(
    path: Path,
    *,
    scheme: BoundaryScheme,
    encoding: str | None = None,
    delimiter: str | None = None,
    **_: Any,
) -> Document:
    """Read a CSV/TSV/XLSX table of units (see module docstring).

    ``delimiter`` is the separator of a delimited file (default: a tab in ``.tsv``, else a comma;
    ``--from tsv`` gives a tab, ``--from csv`` a comma, whatever the extension). An ELAN tab-delimited
    (or CSV) export is recognised by its columns (:mod:`segagree.formats.elan.tab_export`).
    """
    path = Path(path)
    losses = read_losses()
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm") and delimiter is None:
        table = _load_xlsx(path, losses)
    else:
        sep = delimiter or ("\t" if suffix == ".tsv" else ",")
        text = decode_text(read_bytes(path), path, encoding=encoding, losses=losses)
        first = next((line for line in text.splitlines() if line.strip()), "").split(sep)
        table_header = _column(first, SPEAKER_NAMES) is not None and _column(first, TEXT_NAMES) is not None
        shape = None if table_header else sniff(text, sep)
        if shape is not None:
            return read_export(path, text, shape, scheme, sep=sep, source_format="table", losses=losses)
        table = _load_delimited(path, sep, text)
    columns = table.columns
    dupes = sorted(c for c, n in Counter(columns).items() if n > 1)  # one pass: a header may have 100,000 columns
    if dupes:
        raise InputError(f"duplicate column names {dupes}; expected one column of each name", path=path, place="header")
    spk_col, text_col = _column(columns, SPEAKER_NAMES), _column(columns, TEXT_NAMES)
    if spk_col is None or text_col is None:
        raise InputError(
            f"expected columns 'Speaker' and 'Utterance', found {columns}",
            path=path,
            place="header",
        )
    time_cols = {k: _column(columns, names) for k, names in TIME_NAMES.items()}
    used = {spk_col, text_col, *(c for c in time_cols.values() if c is not None)}
    meta_cols = [i for i in range(len(columns)) if i not in used]
    # Column lists (itemgetter in C per column: zip(*rows) over thousands of rows is slow).
    cells = [list(map(itemgetter(i), table.rows)) for i in range(len(columns))]
    cols, rows, empty_rows = _parse_units(cells, columns, spk_col, text_col, time_cols, scheme, path, table.places)
    if not rows.size:
        raise InputError("no units: every Utterance is empty", path=path)
    if empty_rows.size:
        losses.add(
            "rows-dropped",
            "rows with an empty Utterance are not kept (no words; their other cells are lost)",
            where=f"first at {table.places[int(empty_rows[0])]}",
            count=int(empty_rows.size),
        )
    cols.meta = {columns[c]: np.asarray(cells[c], dtype=object)[rows] for c in meta_cols}
    cols.values = np.asarray(cells[text_col], dtype=object)[rows].tolist()  # the Utterance as written
    return cols.build(
        path.name.split(".")[0],
        layer="iu",
        scheme=scheme,
        source_path=str(path),
        source_format="table",
        meta={"columns": columns},
        losses=losses,
    )


def _parse_units(
    cells: list[list[str]],
    columns: list[str],
    spk_col: int,
    text_col: int,
    time_cols: dict[str, int | None],
    scheme: BoundaryScheme,
    path: Path,
    places: _Places,
) -> tuple[UnitColumns, np.ndarray, np.ndarray]:
    """The units of a table (``cells``: one tuple per column), the row of each, and the rows
    with an empty Utterance (0-based, header excluded).

    Speakers (blank or NA inherit the row above), tokens, endnotes and unit times of every row,
    on whole columns at once: a Python loop over the rows was most of the time of a large read.
    Tokens are the non-empty pieces of the Utterance split at ASCII spaces; the last token is the
    endnote when it is exactly a typed symbol that is not a pause (segsimflex's rule). Errors
    name the first bad row, and there the check a row-by-row reading makes first.
    """
    n_rows = len(places)
    distinct, codes = factorize(cells[spk_col])
    names = [str(x).strip() for x in distinct]
    speakers = np.asarray(names, dtype=object)[codes]
    named = np.asarray([bool(x) and x not in MISSING for x in names], dtype=bool)[codes]
    flat, n_words = _words(cells[text_col])
    rows = np.flatnonzero(n_words)  # rows with at least one token are units
    empty_rows = np.flatnonzero(n_words == 0)
    bad_rows: list[tuple[int, int, str]] = []  # (row, check order, message)
    if n_rows and not named[0]:
        bad_rows.append((0, 0, "the first row has no Speaker"))
    times: dict[str, np.ndarray] = {}
    for order, key in enumerate(("start", "end"), start=1):
        col = time_cols[key]
        if col is not None:
            times[key], bad = _seconds(cells[col], columns[col])
            if bad is not None:
                bad_rows.append((bad[0], order, bad[1]))
    if "start" in times and "end" in times:
        reversed_ = np.flatnonzero(times["end"] < times["start"])
        if reversed_.size:
            r = int(reversed_[0])
            msg = f"the unit ends ({times['end'][r]}) before it starts ({times['start'][r]}); expected Start <= End"
            bad_rows.append((r, 3, msg))
    last = np.cumsum(n_words)[rows] - 1  # each unit's last token in flat
    typed = {t.symbol: code for code, t in enumerate(scheme.types, start=1) if not is_pause(t.symbol)}
    last_tokens, last_codes = factorize(flat[last])  # look each distinct last token up once
    found = np.asarray([typed.get(x, 0) for x in last_tokens], dtype=np.int64)[last_codes]
    has_note = found > 0
    if scheme.unclassified_code is None and not has_note.all():
        r = int(rows[np.flatnonzero(~has_note)[0]])
        bad_rows.append((r, 4, f"unit has no endnote and scheme {scheme.name!r} has no unclassified type"))
    only_note = has_note & (n_words[rows] == 1)
    if only_note.any():
        bad_rows.append((int(rows[np.flatnonzero(only_note)[0]]), 5, "a unit with an endnote but no words"))
    if bad_rows:
        r, _, message = min(bad_rows)
        raise InputError(message, path=path, place=places[r])
    keep = np.ones(flat.size, dtype=bool)
    keep[last[has_note]] = False  # the endnote is the boundary, not a token
    # Blank speakers inherit the row above: the index of the last named row at or before each.
    source = np.maximum.accumulate(np.where(named, np.arange(n_rows), 0))
    out = UnitColumns()
    out.speakers = speakers[source][rows].tolist()
    out.texts = flat[keep]
    out.sizes = (n_words[rows] - has_note).tolist()
    out.boundaries = np.where(has_note, found, scheme.unclassified_code or 0).tolist()
    nan = np.full(rows.size, np.nan)
    out.starts = times["start"][rows].tolist() if "start" in times else nan.tolist()
    out.ends = times["end"][rows].tolist() if "end" in times else nan.tolist()
    return out, rows, empty_rows


def _words(utterances: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The words of every utterance, one flat object array, and how many each utterance has.

    Words are the non-empty pieces of ``str.split(" ")``. All utterances are joined with one
    space and split once, which gives each utterance's pieces in turn (the joining space is one
    more split point); an utterance of k spaces has k + 1 pieces. A list per row would make the
    garbage collector walk hundreds of thousands of them on a large table.
    """
    if not utterances:
        return np.empty(0, dtype=object), np.zeros(0, dtype=np.int64)
    # (Interned: a word is held once however often it occurs, a large part of a read's memory.)
    pieces = list(map(sys.intern, " ".join(utterances).split(" ")))
    counts = np.fromiter(map(methodcaller("count", " "), utterances), dtype=np.int64, count=len(utterances)) + 1
    flat = np.array(pieces, dtype=object)
    if "" not in pieces:  # the usual case, found in C: no double, leading or trailing space
        return flat, counts
    nonempty = flat != ""
    row_of = np.repeat(np.arange(len(utterances)), counts)
    return flat[nonempty], np.bincount(row_of[nonempty], minlength=len(utterances))


def _seconds(column: list[str], name: str) -> tuple[np.ndarray, tuple[int, str] | None]:
    """Unit times in seconds (NaN for a blank cell), and the first bad row with its message:
    not a number, or not a possible time (finite, 0 to MAX_SECONDS)."""
    out = np.full(len(column), np.nan)
    for r, cell in enumerate(column):
        try:
            value = parse_seconds(cell)
        except BadTime as why:
            return out, (r, f"{name} {why}")
        if value is not None:
            out[r] = value
    return out, None


def write(doc: Document, path: Path, *, losses: LossReport, layer: str | None = None, **_: Any) -> None:
    """Write one row per unit: metadata columns, ``Speaker``, ``Utterance`` (+ Start/End).

    A table read by this adapter keeps its column order. What the table cannot hold is reported:
    word times inside units, tokens holding spaces (they split on reading) or empty tokens, and
    speaker names the reader changes (blank, ``NA``, surrounding spaces).
    """
    lay = unit_layer_to_write(doc, losses, "a table", layer)
    note_speaker_order(doc, losses, "a table")
    meta_cols = [c for c in doc.meta_columns() if c not in ("Speaker", "Utterance", "Start", "End")]
    starts, ends = doc.column("start"), doc.column("end")
    # (Each column as an array once: pandas' scalar access per cell was most of a write's time.)
    meta_values = {c: doc.column(c) for c in meta_cols}
    has_times = doc.has_times  # (a scan of both time columns: once, not per unit)
    records: list[dict[str, Any]] = []
    varying: dict[str, int] = {}
    inner_times = split = empty = 0
    odd_speakers: set[str] = set()
    units = doc.units(lay.name) if doc.speakers else []
    originals = unit_values(doc, units)
    text = doc.column("text")
    respelled = 0
    for unit, original in zip(units, originals, strict=True):
        words = [str(text[r]) for r in unit.rows]
        note = endnote_text(unit.boundary, lay.scheme)
        # The reader's own rule (segsimflex's): only a final token that is exactly a type's symbol.
        if note == "" and words and _read_endnote(words, lay.scheme) is not None:
            losses.add("boundary-changed", "a unit whose last word is an endnote symbol reads back typed")
        split += sum(1 for w in words if " " in w)
        empty += sum(1 for w in words if not w)
        rows = list(unit.rows)
        inner_times += int(np.count_nonzero(~np.isnan(starts[rows[1:]])) + np.count_nonzero(~np.isnan(ends[rows[:-1]])))
        if unit.speaker.strip() in MISSING or unit.speaker != unit.speaker.strip() or not unit.speaker.strip():
            odd_speakers.add(unit.speaker)
        rec: dict[str, Any] = {}
        for c in meta_cols:
            # A row holds one value per column: a token-level value that varies within the
            # unit (a Rezonator token's transcript or kind) is left out, not copied over.
            column = meta_values[c]
            values = {repr(_cell(column[r])) for r in unit.rows}
            if len(values) == 1:
                rec[c] = _cell(column[unit.rows[0]])
            else:
                rec[c] = ""
                varying[c] = varying.get(c, 0) + 1
        rec["Speaker"] = unit.speaker
        if original is not None and _row_reads_back(original, words, unit.boundary, lay.scheme):
            rec["Utterance"] = original  # as the annotator wrote it
        else:
            respelled += original is not None
            rec["Utterance"] = " ".join([*words, note] if note else words)
        if has_times:
            rec["Start"] = _cell(starts[unit.rows[0]])
            rec["End"] = _cell(ends[unit.rows[-1]])
        records.append(rec)
    for c, n in varying.items():
        losses.add("meta-dropped", f"column {c!r} varies within units; a row per unit cannot hold it", count=n)
    losses.add_count(
        "labels-respelled",
        "unit values as the source spells them would not read back as their tokens from a table row; "
        "they are written from the tokens",
        respelled,
    )
    losses.add_count(
        "times-dropped", "a table holds unit times only; word times inside units are not kept", inner_times
    )
    note_words_between_spaces(
        losses,
        split=split,
        empty=empty,
        odd_speakers=odd_speakers,
        holder="a table row",
        speaker_rule="blank or NA inherits the row above; spaces around a name are dropped",
    )
    columns = _column_order(doc, meta_cols)
    table = [[rec.get(c, "") for c in columns] for rec in records]
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        cells = [str(v) for row in table for v in row] + columns
        escaped = sum(1 for v in cells if _xlsx_round_trip(v) != v)
        if escaped:
            losses.add(
                "text-escaped",
                "control characters (a carriage return, ...) and some '_x005F_' spellings do not survive "
                "XLSX's escapes: those cells read back changed",
                count=escaped,
            )
        _write_xlsx(path, columns, table)
    else:
        sep = "\t" if suffix == ".tsv" else ","
        # Data is written byte-exact; what a spreadsheet opening it would run is said.
        runnable = count_runnable([*columns, *(v for row in table for v in row)])
        if runnable:
            losses.note(
                "cells-would-run",
                f"cells starting with = + - @ (not numbers), written as they are: a spreadsheet opening this "
                f"{'TSV' if sep == chr(9) else 'CSV'} would run them as formulas",
                count=runnable,
            )
        lines = [_delimited_line(columns, sep)]
        lines += [_delimited_line(row, sep) for row in table]
        path.write_text("".join(lines), encoding="utf-8", newline="")


def _row_reads_back(value: str, tokens: list[str], code: int, scheme: BoundaryScheme) -> bool:
    """Whether the reader's rule (words between single spaces; a final token that is exactly a
    type's symbol is the endnote, else unclassified) gives these tokens and code from ``value``."""
    words = [w for w in value.split(" ") if w]
    found = _read_endnote(words, scheme) if words else None
    if found:
        words = words[:-1]
    else:
        found = scheme.unclassified_code
    return words == tokens and found == (code or scheme.unclassified_code)


def _write_xlsx(path: Path, columns: list[str], table: list[list[Any]]) -> None:
    """One sheet: the header, then a row per unit; text always as text (never a formula or a
    link), numbers as numbers. A cell or a row count beyond XLSX's limits is refused, not cut."""
    import xlsxwriter

    if len(table) + 1 > XLSX_MAX_ROWS:
        raise SegagreeError(
            f"{len(table)} units do not fit an XLSX sheet ({XLSX_MAX_ROWS - 1} rows at most); write CSV or TSV",
            path=path,
        )
    for r, row in enumerate([columns, *table]):
        for c, value in enumerate(row):
            if isinstance(value, str) and len(value) > XLSX_MAX_CHARS:
                raise SegagreeError(
                    f"column {columns[c]!r} holds {len(value)} characters; an XLSX cell holds {XLSX_MAX_CHARS} "
                    "at most (it would be cut); write CSV or TSV",
                    path=path,
                    place=f"row {r + 1}",
                )
    wb = xlsxwriter.Workbook(str(path), XLSX_OPTIONS)
    ws = wb.add_worksheet()
    for r, row in enumerate([columns, *table]):
        for c, value in enumerate(row):
            if value is None or (isinstance(value, float) and math.isnan(value)) or value == "":
                continue
            if isinstance(value, int | float | np.integer | np.floating) and not isinstance(value, bool):
                ws.write_number(r, c, value.item() if isinstance(value, np.generic) else value)
            else:
                ws.write_string(r, c, str(value))
    wb.close()


def _delimited_line(cells: list[Any], sep: str) -> str:
    """One CSV/TSV line, quoting a cell that holds the separator, a quote or any line break
    (the csv module and pandas leave a bare CR unquoted, which then splits the row on reading)."""
    out = []
    for cell in cells:
        text = "" if cell is None or (isinstance(cell, float) and math.isnan(cell)) else str(cell)
        if any(ch in text for ch in (sep, '"', "\n", "\r")):
            text = '"' + text.replace('"', '""') + '"'
        out.append(text)
    return sep.join(out) + "\n"


def _read_endnote(tokens: list[str], scheme: BoundaryScheme) -> int | None:
    """The endnote the reader would find at the end of ``tokens`` (its rule, above)."""
    return split_endnote(tokens, scheme, glued=False, unclassified_token=False, aliases=False)[1]


def _column_order(doc: Document, meta_cols: list[str]) -> list[str]:
    """The source table's column order when it holds the same columns, else metadata first."""
    ours = [*meta_cols, "Speaker", "Utterance", *(["Start", "End"] if doc.has_times else [])]
    source = [str(c) for c in doc.meta.get("columns") or []]
    if doc.source_format == "table" and len(source) == len(ours):
        renamed = {c: c for c in meta_cols}
        for c in source:
            low = c.strip().lower()
            if low in SPEAKER_NAMES:
                renamed[c] = "Speaker"
            elif low in TEXT_NAMES:
                renamed[c] = "Utterance"
            elif low in TIME_NAMES["start"]:
                renamed[c] = "Start"
            elif low in TIME_NAMES["end"]:
                renamed[c] = "End"
        order = [renamed.get(c, c) for c in source]
        if sorted(order) == sorted(ours):
            return order
    return ours


def _cell(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return ""
    return value


ADAPTER = Adapter(
    name="table",
    extensions=(".csv", ".tsv", ".xlsx"),
    description="spreadsheet, one row per unit: Speaker, Utterance (+ Turn, Start, End, ...)",
    read=read,
    write=write,
)
