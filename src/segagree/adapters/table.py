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
import math
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from segagree.adapters.base import Adapter, LossReport, decode_text, read_bytes
from segagree.adapters.endnotes import endnote_text, is_pause, note_unit_layer_losses, split_endnote
from segagree.errors import InputError
from segagree.schemas import BoundaryScheme, Document, UnitColumns

SPEAKER_NAMES = ("speaker", "participant")
TEXT_NAMES = ("utterance", "text", "transcript")
# R's write.csv spells a missing value NA: segsimflex's reNA then inherits the speaker above.
MISSING = {"NA"}
TIME_NAMES = {"start": ("start", "unitstart"), "end": ("end", "unitend")}


def _load_frame(path: Path) -> pd.DataFrame:
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        read_bytes(path)
        try:
            frame = pd.read_excel(path, dtype=str, keep_default_na=False, engine="openpyxl")
        except Exception as err:  # openpyxl raises many types for a broken workbook
            raise InputError(f"not a readable XLSX workbook: {err}", path=path) from None
        return frame
    text = decode_text(read_bytes(path), path)
    sep = "\t" if suffix == ".tsv" else ","
    try:
        return pd.read_csv(io.StringIO(text), sep=sep, dtype=str, keep_default_na=False, quoting=csv.QUOTE_MINIMAL)
    except pd.errors.ParserError as err:
        raise InputError(f"not a readable {suffix.lstrip('.').upper()} table: {err}", path=path) from None


def _column(frame: pd.DataFrame, names: tuple[str, ...]) -> str | None:
    lower = {str(c).strip().lower(): c for c in frame.columns}
    for name in names:
        if name in lower:
            return lower[name]
    return None


def read(path: Path, *, scheme: BoundaryScheme, **_: Any) -> Document:
    """Read a CSV/TSV/XLSX table of units (see module docstring)."""
    path = Path(path)
    frame = _load_frame(path)
    spk_col, text_col = _column(frame, SPEAKER_NAMES), _column(frame, TEXT_NAMES)
    if spk_col is None or text_col is None:
        raise InputError(
            f"expected columns 'Speaker' and 'Utterance', found {list(map(str, frame.columns))}",
            path=path,
            place="header",
        )
    time_cols = {k: _column(frame, names) for k, names in TIME_NAMES.items()}
    meta_cols = [c for c in frame.columns if c not in (spk_col, text_col, *time_cols.values())]
    cols, rows = _parse_units(frame, spk_col, text_col, time_cols, scheme, path)
    if not rows.size:
        raise InputError("no units: every Utterance is empty", path=path)
    cols.meta = {str(c): frame[c].to_numpy()[rows] for c in meta_cols}
    return cols.build(
        path.name.split(".")[0],
        layer="iu",
        scheme=scheme,
        source_path=str(path),
        source_format="table",
        meta={"columns": [str(c) for c in frame.columns]},
    )


def _parse_units(
    frame: pd.DataFrame,
    spk_col: Any,
    text_col: Any,
    time_cols: dict[str, Any],
    scheme: BoundaryScheme,
    path: Path,
) -> tuple[UnitColumns, np.ndarray]:
    """The units of a table and the row (0-based, header excluded) of each.

    Speakers (blank or NA inherit the row above), tokens, endnotes and unit times of every row,
    on whole columns at once: a Python loop over the rows was most of the time of a large read.

    Tokens are the non-empty pieces of the Utterance split at ASCII spaces; the last token is the
    endnote when it is exactly a typed symbol that is not a pause (``split_endnote`` with
    ``glued``, ``aliases`` and ``unclassified_token`` off, segsimflex's rule); errors name the
    first bad row as a row-by-row reading would.
    """
    n_rows = len(frame)
    # Speaker cells are few distinct values: strip and check each once.
    codes, distinct = pd.factorize(frame[spk_col].to_numpy(dtype=object), use_na_sentinel=False)
    names = [str(x).strip() for x in distinct.tolist()]
    speakers = np.asarray(names, dtype=object)[codes]
    named = np.asarray([bool(x) and x not in MISSING for x in names], dtype=bool)[codes]
    flat, row_of = _pieces(list(map(str, frame[text_col].tolist())))
    nonempty = flat != ""
    flat, row_of = flat[nonempty], row_of[nonempty]
    n_words = np.bincount(row_of, minlength=n_rows)
    rows = np.flatnonzero(n_words)  # rows with at least one token are units
    # The first row without a Speaker fails (it has nothing to inherit), whatever its text.
    if n_rows and not named[0]:
        raise InputError("the first row has no Speaker", path=path, place="row 2")
    last = np.cumsum(n_words)[rows] - 1  # each unit's last token in flat
    typed = {t.symbol: code for code, t in enumerate(scheme.types, start=1) if not is_pause(t.symbol)}
    last_codes, last_tokens = pd.factorize(flat[last])  # look each distinct last token up once
    found = np.asarray([typed.get(x, 0) for x in last_tokens.tolist()], dtype=np.int64)[last_codes]
    has_note = found > 0
    bad_rows: list[tuple[int, int, str]] = []  # (row, check order, message)
    if scheme.unclassified_code is None and not has_note.all():
        r = int(rows[np.flatnonzero(~has_note)[0]])
        bad_rows.append((r, 0, f"unit has no endnote and scheme {scheme.name!r} has no unclassified type"))
    empty = has_note & (n_words[rows] == 1)
    if empty.any():
        bad_rows.append((int(rows[np.flatnonzero(empty)[0]]), 0, "a unit with an endnote but no words"))
    times: dict[str, list[float]] = {}
    for order, key in enumerate(("start", "end"), start=1):
        if time_cols[key] is not None:
            cells = frame[time_cols[key]].to_numpy(dtype=object)[rows]
            times[key], bad = _seconds(cells, rows, time_cols[key])
            if bad is not None:
                bad_rows.append(bad[:1] + (order,) + bad[1:])
    if bad_rows:  # the first bad row, and there the check a row-by-row reading makes first
        r, *_, message = min(bad_rows)
        raise InputError(message, path=path, place=f"row {r + 2}")
    keep = np.ones(flat.size, dtype=bool)
    keep[last[has_note]] = False  # the endnote is the boundary, not a token
    # Blank speakers inherit the row above: the index of the last named row at or before each.
    source = np.maximum.accumulate(np.where(named, np.arange(n_rows), 0))
    speaker_of = speakers[source]
    columns = UnitColumns()
    columns.speakers = speaker_of[rows].tolist()
    columns.texts = flat[keep].tolist()
    columns.sizes = (n_words[rows] - has_note).tolist()
    columns.boundaries = np.where(has_note, found, scheme.unclassified_code or 0).tolist()
    columns.starts = times.get("start", [math.nan] * rows.size)
    columns.ends = times.get("end", [math.nan] * rows.size)
    return columns, rows


def _pieces(utterances: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Every utterance split at single ASCII spaces (``str.split(" ")``, empty pieces kept), as
    one flat object array and the row of each piece.

    The utterances are joined with a separator piece and split once: a list per row would make
    the garbage collector walk hundreds of thousands of them on a large table.
    """
    joined = "".join(utterances)
    if "\x1f" in joined:  # the separator occurs in the text: split row by row
        pieces = [u.split(" ") for u in utterances]
        counts = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        flat = np.fromiter(chain.from_iterable(pieces), dtype=object, count=int(counts.sum()))
        return flat, np.repeat(np.arange(len(pieces)), counts)
    flat = np.array(" \x1f ".join(utterances).split(" "), dtype=object)
    sep = flat == "\x1f"
    row_of = np.cumsum(sep)
    return flat[~sep], row_of[~sep]


def _seconds(cells: np.ndarray, rows: np.ndarray, col: Any) -> tuple[list[float], tuple[int, str] | None]:
    """Unit times in seconds (NaN for a blank cell) by Python's ``float``, and the first bad row
    with its message, if any."""
    out: list[float] = []
    for value, r in zip(cells.tolist(), rows.tolist(), strict=True):
        if not str(value).strip():
            out.append(math.nan)
            continue
        try:
            out.append(float(value))
        except ValueError:
            return out, (r, f"{col} {value!r} is not a number of seconds")
    return out, None


def write(doc: Document, path: Path, *, losses: LossReport, layer: str | None = None, **_: Any) -> None:
    """Write one row per unit: metadata columns, ``Speaker``, ``Utterance`` (+ Start/End)."""
    lay = doc.layer(layer)
    note_unit_layer_losses(lay.name, lay.scheme, losses, "a table")
    dropped = [name for name in doc.layers if name != lay.name]
    if dropped:
        losses.add("layer-dropped", f"a table holds one layer; dropped {dropped}")
    meta_cols = [c for c in doc.meta_columns() if c not in ("Speaker", "Utterance", "Start", "End")]
    starts, ends = doc.tokens["start"].to_numpy(), doc.tokens["end"].to_numpy()
    records: list[dict[str, Any]] = []
    varying: dict[str, int] = {}
    for unit, words in doc.iter_unit_texts(lay.name):
        note = endnote_text(unit.boundary, lay.scheme)
        if note == "" and words and split_endnote(words, lay.scheme, glued=False)[1] is not None:
            losses.add("boundary-changed", "a unit whose last word is an endnote symbol reads back typed")
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
    frame = pd.DataFrame.from_records(records)
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        frame.to_excel(path, index=False, engine="xlsxwriter")
    else:
        sep = "\t" if suffix == ".tsv" else ","
        frame.to_csv(path, index=False, sep=sep, lineterminator="\n")


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
