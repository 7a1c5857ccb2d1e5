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
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from segagree.adapters.base import Adapter, LossReport, decode_text, read_bytes, read_losses
from segagree.adapters.checks import MAX_SECONDS
from segagree.adapters.endnotes import endnote_text, note_unit_layer_losses, split_endnote
from segagree.errors import InputError
from segagree.schemas import BoundaryScheme, Document, from_units

log = logging.getLogger(__name__)

SPEAKER_NAMES = ("speaker", "participant")
TEXT_NAMES = ("utterance", "text", "transcript")
# R's write.csv spells a missing value NA: segsimflex's reNA then inherits the speaker above.
MISSING = {"NA"}
TIME_NAMES = {"start": ("start", "unitstart"), "end": ("end", "unitend")}


@dataclass
class _Table:
    """A table's header and rows of cells, with the place of each row for messages."""

    columns: list[str]
    rows: list[list[str]]
    places: list[str]  # "row 5, line 7" (CSV/TSV) or "row 5" (XLSX)


def _load_xlsx(path: Path, losses: LossReport) -> _Table:
    read_bytes(path)  # a missing or empty file: the usual one-line error
    try:
        with pd.ExcelFile(path, engine="openpyxl") as book:
            sheets = [str(n) for n in book.sheet_names]
            frame = pd.read_excel(book, sheet_name=0, dtype=str, keep_default_na=False)
    except Exception as err:  # openpyxl/zipfile raise many types for a broken workbook
        log.debug("openpyxl could not read %s", path, exc_info=True)
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
    return _Table(columns, rows, [f"row {i}" for i in range(2, len(rows) + 2)])


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


def _load_delimited(path: Path, sep: str, encoding: str | None, losses: LossReport) -> _Table:
    text = decode_text(read_bytes(path), path, encoding=encoding, losses=losses)
    kind = "TSV" if sep == "\t" else "CSV"
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True)
    rows: list[list[str]] = []
    places: list[str] = []
    header: list[str] | None = None
    line = 1
    try:
        for cells in reader:
            first_line, line = line, reader.line_num + 1
            if not cells or (len(cells) == 1 and not cells[0].strip()):
                continue  # blank line
            if header is None:
                header = [c.strip() for c in cells]
                continue
            place = f"row {len(rows) + 2}, line {first_line}"
            if len(cells) != len(header):
                raise InputError(
                    f"a row of {len(cells)} cells; the header has {len(header)} ({', '.join(header)})",
                    path=path,
                    place=place,
                )
            rows.append(cells)
            places.append(place)
    except csv.Error as err:
        log.debug("csv could not parse %s", path, exc_info=True)
        raise InputError(
            f"not a readable {kind} table: {_csv_reason(str(err))}", path=path, place=f"line {line}"
        ) from err
    if header is None:
        raise InputError(f"empty {kind} table: no header row", path=path)
    return _Table(header, rows, places)


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


def _time(cell: str, column: str, path: Path, place: str) -> float | None:
    """A Start/End cell in seconds (None when blank); impossible times refused with the row."""
    if not cell.strip():
        return None
    try:
        value = float(cell)
    except ValueError:
        raise InputError(f"{column} {cell!r} is not a number of seconds", path=path, place=place) from None
    if not (math.isfinite(value) and 0 <= value <= MAX_SECONDS):
        raise InputError(
            f"{column} {cell!r} is not a possible time; expected a finite number of seconds "
            f"from 0 to {MAX_SECONDS:.0f}",
            path=path,
            place=place,
        )
    return value


def read(path: Path, *, scheme: BoundaryScheme, encoding: str | None = None, **_: Any) -> Document:
    """Read a CSV/TSV/XLSX table of units (see module docstring)."""
    path = Path(path)
    losses = read_losses()
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        table = _load_xlsx(path, losses)
    else:
        table = _load_delimited(path, "\t" if suffix == ".tsv" else ",", encoding, losses)
    columns = table.columns
    dupes = sorted({c for c in columns if columns.count(c) > 1})
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
    units: list[dict[str, Any]] = []
    speaker = ""
    empty_rows: list[str] = []
    for cells, place in zip(table.rows, table.places, strict=True):
        raw_speaker = cells[spk_col].strip()
        if raw_speaker in MISSING:
            raw_speaker = ""
        if raw_speaker:
            speaker = raw_speaker
        elif not speaker:
            raise InputError("the first row has no Speaker", path=path, place=place)
        times = {key: _time(cells[col], columns[col], path, place) for key, col in time_cols.items() if col is not None}
        if times.get("start") is not None and times.get("end") is not None and times["end"] < times["start"]:
            raise InputError(
                f"the unit ends ({times['end']}) before it starts ({times['start']}); expected Start <= End",
                path=path,
                place=place,
            )
        tokens = [t for t in cells[text_col].split(" ") if t]
        if not tokens:
            empty_rows.append(place)
            continue
        # segsimflex's rule: only a final token that is exactly a type's symbol is an endnote.
        words, code = split_endnote(tokens, scheme, glued=False, unclassified_token=False, aliases=False)
        if code is None:
            if scheme.unclassified_code is None:
                raise InputError(
                    f"unit has no endnote and scheme {scheme.name!r} has no unclassified type",
                    path=path,
                    place=place,
                )
            code = scheme.unclassified_code
        if not words:
            raise InputError("a unit with an endnote but no words", path=path, place=place)
        unit: dict[str, Any] = {
            "speaker": speaker,
            "tokens": words,
            "boundary": code,
            "meta": {columns[c]: cells[c] for c in meta_cols},
        }
        unit.update({k: v for k, v in times.items() if v is not None})
        units.append(unit)
    if not units:
        raise InputError("no units: every Utterance is empty", path=path)
    if empty_rows:
        losses.add(
            "rows-dropped",
            "rows with an empty Utterance are not kept (no words; their other cells are lost)",
            where=f"first at {empty_rows[0]}",
            count=len(empty_rows),
        )
    return from_units(
        path.name.split(".")[0],
        units,
        layer="iu",
        scheme=scheme,
        source_path=str(path),
        source_format="table",
        meta={"columns": columns},
        losses=losses,
    )


def write(doc: Document, path: Path, *, losses: LossReport, layer: str | None = None, **_: Any) -> None:
    """Write one row per unit: metadata columns, ``Speaker``, ``Utterance`` (+ Start/End).

    A table read by this adapter keeps its column order. What the table cannot hold is reported:
    word times inside units, tokens holding spaces (they split on reading) or empty tokens, and
    speaker names the reader changes (blank, ``NA``, surrounding spaces).
    """
    lay = doc.layer(layer)
    note_unit_layer_losses(lay.name, lay.scheme, losses, "a table")
    dropped = [name for name in doc.layers if name != lay.name]
    if dropped:
        losses.add("layer-dropped", f"a table holds one layer; dropped {dropped}")
    meta_cols = [c for c in doc.meta_columns() if c not in ("Speaker", "Utterance", "Start", "End")]
    starts, ends = doc.tokens["start"].to_numpy(), doc.tokens["end"].to_numpy()
    records: list[dict[str, Any]] = []
    varying: dict[str, int] = {}
    inner_times = split = empty = 0
    odd_speakers: set[str] = set()
    for unit, words in doc.iter_unit_texts(lay.name):
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
            values = {repr(_cell(doc.tokens.at[r, c])) for r in unit.rows}
            if len(values) == 1:
                rec[c] = _cell(doc.tokens.at[unit.rows[0], c])
            else:
                rec[c] = ""
                varying[c] = varying.get(c, 0) + 1
        rec["Speaker"] = unit.speaker
        rec["Utterance"] = " ".join([*words, note] if note else words)
        if doc.has_times:
            rec["Start"] = _cell(starts[unit.rows[0]])
            rec["End"] = _cell(ends[unit.rows[-1]])
        records.append(rec)
    for c, n in varying.items():
        losses.add("meta-dropped", f"column {c!r} varies within units; a row per unit cannot hold it", count=n)
    if inner_times:
        losses.add(
            "times-dropped", "a table holds unit times only; word times inside units are not kept", count=inner_times
        )
    if split:
        losses.add("tokens-split", "tokens holding a space are split in two on reading back", count=split)
    if empty:
        losses.add("tokens-dropped", "empty tokens are not kept (a table row holds words between spaces)", count=empty)
    if odd_speakers:
        losses.add(
            "speakers-changed",
            f"speaker names {sorted(odd_speakers)} read back differently (blank or NA inherits the row above; "
            "spaces around a name are dropped)",
        )
    frame = pd.DataFrame.from_records(records, columns=_column_order(doc, meta_cols))
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        cells = [str(v) for rec in records for v in rec.values()] + [str(c) for c in frame.columns]
        escaped = sum(1 for v in cells if _xlsx_round_trip(v) != v)
        if escaped:
            losses.add(
                "text-escaped",
                "control characters (a carriage return, ...) and some '_x005F_' spellings do not survive "
                "XLSX's escapes: those cells read back changed",
                count=escaped,
            )
        frame.to_excel(path, index=False, engine="xlsxwriter")
    else:
        sep = "\t" if suffix == ".tsv" else ","
        lines = [_delimited_line(list(frame.columns), sep)]
        lines += [_delimited_line(list(row), sep) for row in frame.itertuples(index=False)]
        path.write_text("".join(lines), encoding="utf-8", newline="")


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
