"""What the timed lists of the speech-processing community share: RTTM (:mod:`segagree.formats.rttm`)
and CTM (:mod:`segagree.formats.ctm`) are lines of whitespace-separated fields, one timed unit each.

Mapping to the model (reading), for agreement in time (``agree --time``, ``run --time``):

* **Streams** (the model's speakers, whose units are compared): a recording, ``FILE`` of the line,
  whatever its channel when the file gives that recording one channel (``1``, ``0``, ``A``: tools
  differ, and pyannote.metrics and dscore pair recordings by file id alone). Where a file gives one
  recording several channels, a channel other than ``1`` is a stream of its own, ``FILE:CHANNEL``
  (CTM's two-channel telephone calls: ``7654:A`` and ``7654:B``). The channel and the file id are
  kept in the token columns ``channel`` and ``file_id``, so a file writes back as it was read.
* **Units**: one per line, its text the turn's speaker label (RTTM) or the word (CTM); lines are
  sorted by onset within a stream (the model keeps each stream in time order).
* **Numbers**: onsets and durations are plain decimal numbers (ASCII digits, an optional sign,
  point and exponent): ``1_000``, ``١٢`` (Arabic-Indic digits), ``inf`` or ``nan``, which Python's
  ``float`` would take, are refused with their line, as are times beyond ten days.

Writing: a line per unit (a unit's words joined with ``_``), times with the decimals of the file read
when all its times had the same number (kept in ``meta['time_decimals']``), else three; a unit without
times gets one second after the previous one (reported).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from segagree.errors import InputError
from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.formats.kept_meta import note_dropped_columns
from segagree.formats.timing import MAX_SECONDS
from segagree.model import Document, builtin_scheme, from_units
from segagree.model.losses import LossReport

__all__ = [
    "DEFAULT_CHANNEL",
    "clean",
    "decimal",
    "document",
    "lines",
    "name_streams",
    "note_unheld_columns",
    "read_uem",
    "source_fields",
    "time_fields",
    "time_places",
    "time_text",
    "timed_rows",
]

DEFAULT_CHANNEL = "1"
DEFAULT_DECIMALS = 3  # times as written when the source had no one number of decimals
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def decimal(value: str, what: str, path: Path, no: int) -> float:
    """A plain decimal number of a field (see the module docstring), or an InputError at ``line no``."""
    if not _DECIMAL.fullmatch(value):
        raise InputError(
            f"{what} {value!r} is not a number; expected a decimal number such as 12.340", path=path, place=f"line {no}"
        )
    return float(value)


def time_fields(start_text: str, duration_text: str, path: Path, no: int, what: str) -> tuple[float, float]:
    """``(start, duration)`` of a line, each a decimal, the end at most ten days in."""
    start = decimal(start_text, "start" if what == "word" else "onset", path, no)
    duration = decimal(duration_text, "duration", path, no)
    if duration < 0:
        raise InputError(f"a {what} with a negative duration ({duration_text})", path=path, place=f"line {no}")
    if not math.isfinite(start + duration) or start + duration > MAX_SECONDS:
        raise InputError(
            f"a {what} ending at {start + duration:g} s is beyond ten days; expected a time in a recording",
            path=path,
            place=f"line {no}",
        )
    return start, duration


def lines(path: Path) -> tuple[list[tuple[int, list[str]]], int]:
    """The file's non-blank, non-comment lines split into fields (with their line numbers), and the
    number of comment lines: NIST writes ``;;``, dscore's UEM reader takes any line beginning with ``;``
    (its own test UEM has ``; A comment.``), and so does this."""
    text = decode_text(read_bytes(path), path)
    out, comments = [], 0
    for no, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        if line.startswith(";"):
            comments += 1
            continue
        fields = line.split()
        if fields:
            out.append((no, fields))
    return out, comments


def read_uem(path: Path) -> dict[str, list[tuple[float, float]]]:
    """A NIST un-partitioned evaluation map (``FILE CHANNEL ONSET OFFSET`` per line, ``;`` comments):
    file id -> its scored regions, sorted, as dscore's ``load_uem`` reads it (the channel is not used)."""
    found, _ = lines(path)
    out: dict[str, list[tuple[float, float]]] = {}
    for no, fields in found:
        if len(fields) != 4:
            raise InputError(f"{len(fields)} fields, expected FILE CHANNEL ONSET OFFSET", path=path, place=f"line {no}")
        onset = decimal(fields[2], "onset", path, no)
        offset = decimal(fields[3], "offset", path, no)
        if not 0 <= onset < offset <= MAX_SECONDS:
            raise InputError(
                f"a scored region {fields[2]} to {fields[3]}; expected 0 <= onset < offset",
                path=path,
                place=f"line {no}",
            )
        out.setdefault(fields[0], []).append((onset, offset))
    if not out:
        raise InputError("no scored region: the UEM holds no FILE CHANNEL ONSET OFFSET line", path=path)
    return {k: sorted(v) for k, v in out.items()}


def name_streams(rows: list[dict[str, Any]]) -> None:
    """Set each row's ``stream`` from its ``file_id`` and ``channel``: the file id alone where the file
    gives that recording one channel (any: ``0``, ``1``, ``A``), else ``FILE:CHANNEL`` for a channel
    other than 1; ``file_id`` is left set only where the stream is not the file id (the writer's key)."""
    channels: dict[str, set[str]] = {}
    for r in rows:
        channels.setdefault(r["file_id"], set()).add(r["channel"])
    for r in rows:
        file_id, channel = r["file_id"], r["channel"]
        one = len(channels[file_id]) == 1 or channel == DEFAULT_CHANNEL
        r["stream"] = file_id if one else f"{file_id}:{channel}"
        r["file_id"] = "" if one else file_id


def decimals(texts: Sequence[str]) -> int | None:
    """The one number of decimals the time fields ``texts`` are written with, or None when they differ
    (or use an exponent): what the writer gives back."""
    found = set()
    for text in texts:
        if "e" in text.lower():
            return None
        found.add(len(text.partition(".")[2]))
    return found.pop() if len(found) == 1 else None


def document(path: Path, rows: list[dict[str, Any]], layer: str, fmt: str, columns: Sequence[str]) -> Document:
    """The Document of the rows (``stream``, ``start``, ``end``, ``text``, the kept ``columns`` and
    ``times``: the time fields as written)."""
    if not rows:
        raise InputError(f"no {'turns' if fmt == 'rttm' else 'words'}: the file holds no timed line", path=path)
    rows.sort(key=lambda r: (r["start"], r["end"], r["stream"]))  # discourse order is time order
    streams = list(dict.fromkeys(r["stream"] for r in rows))
    units = [
        {
            "speaker": r["stream"],
            "tokens": [r["text"]],
            "boundary": 1,
            "start": r["start"],
            "end": r["end"],
            "token_starts": [r["start"]],
            "token_ends": [r["end"]],
        }
        for r in rows
    ]
    doc = from_units(
        path.name,
        units,
        layer=layer,
        scheme=builtin_scheme(layer),
        speakers=streams,
        source_path=str(path),
        source_format=fmt,
    )
    places = decimals([t for r in rows for t in r.get("times", ())])
    if places is not None and places != DEFAULT_DECIMALS:
        doc.meta["time_decimals"] = places  # the writer gives the file's 0.50 back, not 0.500
    for column in columns:  # a column only where a line holds something (channel: other than 1)
        values = [r.get(column, "") for r in rows]
        empty = ("", DEFAULT_CHANNEL) if column == "channel" else ("",)
        if any(v not in empty for v in values):
            doc.set_column(column, values)
    return doc


def timed_rows(doc: Document, losses: LossReport, what: str, layer: str) -> list[tuple[str, float, float, str, int]]:
    """(speaker, start, end, text, first row) per unit of the document's first layer: a unit without
    times gets one second after the previous unit's end (reported, as every timed writer does)."""
    starts, ends = doc.column("start"), doc.column("end")
    text = doc.column("text")
    out = []
    invented, last_end = 0, 0.0
    for unit in doc.units():
        s, e = float(starts[unit.rows[0]]), float(ends[unit.rows[-1]])
        if math.isnan(s) or math.isnan(e) or e < s:
            s, e = last_end, last_end + 1.0
            invented += 1
        last_end = e
        label = "_".join(str(text[r]) for r in unit.rows)
        out.append((unit.speaker, s, e, label, unit.rows[0]))
    if invented:
        losses.add("times-invented", f"{what} needs times: units without them were given 1 s each", count=invented)
    if any(len(u.rows) > 1 for u in doc.units()):
        losses.add("tokens-changed", f"{what} holds one word per line: a unit's words are joined with '_'")
    first = next(iter(doc.layers), None)
    if first is not None and first != layer:
        losses.add("layer-renamed", f"{what} reads its units back as layer {layer!r}, not {first!r}", where=first)
    if len(doc.layers) > 1:
        losses.add("layer-dropped", f"{what} holds one layer of units", where=", ".join(list(doc.layers)[1:]))
    return out


def note_unheld_columns(doc: Document, held: Sequence[str], target: str, losses: LossReport) -> None:
    """Report the document's token columns the writer has no place for (``held`` are the ones it writes)."""
    note_dropped_columns(doc, [c for c in doc.meta_columns() if c not in held], target, losses)


def clean(name: str) -> str:
    """A field without whitespace (``_`` for each run of it; ``_`` for an empty one)."""
    return "_".join(str(name).split()) or "_"


def time_places(doc: Document, rows: Sequence[tuple[Any, float, float, Any, Any]]) -> int:
    """The decimals to write times with: the source file's (``meta['time_decimals']``) when every
    time of ``rows`` (:func:`timed_rows`) is exact at them, else at least three (a decision may have
    moved a time between the file's steps)."""
    places = doc.meta.get("time_decimals", DEFAULT_DECIMALS)
    if not isinstance(places, int) or not 0 <= places <= 9:
        return DEFAULT_DECIMALS
    exact = all(abs(round(t, places) - t) < 1e-9 for _, s, e, _, _ in rows for t in (s, e))
    return places if exact else max(places, DEFAULT_DECIMALS)


def time_text(places: int, start: float, end: float) -> tuple[str, str]:
    """A unit's start and duration as written, with ``places`` decimals."""
    return f"{start:.{places}f}", f"{end - start:.{places}f}"


def source_fields(doc: Document, row: int, speaker: str) -> tuple[str, str]:
    """``(file id, channel)`` a unit is written with: as read (columns ``file_id``, ``channel``), else the
    stream's name and channel 1."""
    names = doc.column_names()
    channel = str(doc.column("channel")[row]) if "channel" in names else ""
    file_id = str(doc.column("file_id")[row]) if "file_id" in names else ""
    return file_id or speaker, channel or DEFAULT_CHANNEL
