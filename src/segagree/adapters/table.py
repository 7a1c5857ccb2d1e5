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
    # Columns as plain lists read once, units gathered as columns (UnitColumns): iterating a
    # frame's rows boxes every cell, and a dict per unit made most of a large read.
    speakers, utterances = frame[spk_col].tolist(), frame[text_col].tolist()
    # (column, its cells, the unit times read from it) for Start and End, when present
    timed = [(col, frame[col].tolist(), []) for col in (time_cols["start"], time_cols["end"]) if col is not None]
    # Segsimflex's endnote rule (split_endnote with glued, aliases and the unclassified token off):
    # the last token is the endnote when it is exactly a typed symbol and not a pause.
    typed = {t.symbol: code for code, t in enumerate(scheme.types, start=1)}
    cols = UnitColumns()
    kept: list[int] = []
    speaker = ""
    for r, (raw, utterance) in enumerate(zip(speakers, utterances, strict=True)):
        raw_speaker = str(raw).strip()
        if raw_speaker in MISSING:
            raw_speaker = ""
        if raw_speaker:
            speaker = raw_speaker
        elif not speaker:
            raise InputError("the first row has no Speaker", path=path, place=f"row {r + 2}")
        words = [t for t in str(utterance).split(" ") if t]
        if not words:
            continue
        code = typed.get(words[-1])
        if code is not None and not is_pause(words[-1]):
            words.pop()
        else:
            if scheme.unclassified_code is None:
                raise InputError(
                    f"unit has no endnote and scheme {scheme.name!r} has no unclassified type",
                    path=path,
                    place=f"row {r + 2}",
                )
            code = scheme.unclassified_code
        if not words:
            raise InputError("a unit with an endnote but no words", path=path, place=f"row {r + 2}")
        kept.append(r)
        cols.add(speaker, words, len(words), code)
        for col, values, out in timed:
            value = values[r]
            if not str(value).strip():
                out.append(math.nan)
                continue
            try:
                out.append(float(value))
            except ValueError:
                raise InputError(
                    f"{col} {value!r} is not a number of seconds", path=path, place=f"row {r + 2}"
                ) from None
    if not kept:
        raise InputError("no units: every Utterance is empty", path=path)
    for col, _, out in timed:
        if col == time_cols["start"]:
            cols.starts = out
        else:
            cols.ends = out
    rows = np.asarray(kept, dtype=np.int64)
    cols.meta = {str(c): frame[c].to_numpy()[rows] for c in meta_cols}
    return cols.build(
        path.name.split(".")[0],
        layer="iu",
        scheme=scheme,
        source_path=str(path),
        source_format="table",
        meta={"columns": [str(c) for c in frame.columns]},
    )


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
