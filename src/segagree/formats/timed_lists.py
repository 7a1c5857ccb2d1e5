"""Timed lists of the speech-processing community: RTTM (speaker diarization, as NIST's Rich
Transcription evaluations define it; pyannote and pygamma-agreement read it) and CTM (time-marked
words or phones, as forced aligners and ASR systems write them).

RTTM: one ``SPEAKER FILE CHANNEL ONSET DURATION <NA> <NA> NAME <NA> <NA>`` line per speech turn
(other record types such as ``SPKR-INFO`` carry no turn). CTM: one ``FILE CHANNEL START DURATION
WORD [CONFIDENCE]`` line per word or phone; ``;;`` lines are comments.

Mapping to the model (reading), for agreement in time (``agree --time``, ``run --time``):

* **Speakers** (the streams whose units are compared): the file id (``FILE``), one per recording
  in the file. Diarization labels (``spk0``, ``A``) are not shared between annotators, so a turn's
  label is its **text**, the category gamma compares with ``--category label``.
* **Units**: RTTM: a turn (layer ``turn``, scheme ``turn``), its one token the speaker label, its
  times the turn's. CTM: every word or phone is a unit of its own (layer ``unit``, scheme
  ``unit``), its times the line's; a confidence is kept in the token column ``confidence``.
* Lines are sorted by onset within a file id (the model keeps each stream in time order), a turn
  with a negative duration is refused, and ``<NA>`` fields stay unread (reported when they hold
  something else). Channels other than 1 are kept in the token column ``channel``.

Writing: a line per unit (a unit's words joined with ``_``), the speaker as the file id, times to
three decimals; a unit without times gets one second after the previous one (reported).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from segagree.errors import InputError, UsageError
from segagree.files.atomic import atomic_path
from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.formats.base import Adapter
from segagree.model import Document, builtin_scheme, from_units
from segagree.model.losses import LossReport
from segagree.model.scheme import BoundaryScheme


def _number(value: str, what: str, path: Path, no: int) -> float:
    try:
        number = float(value)
    except ValueError:
        raise InputError(f"{what} {value!r} is not a number", path=path, place=f"line {no}") from None
    if not math.isfinite(number):
        raise InputError(f"{what} {value!r} is not a finite number", path=path, place=f"line {no}")
    return number


def _lines(path: Path) -> list[tuple[int, list[str]]]:
    text = decode_text(read_bytes(path), path)
    out = []
    for no, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        fields = line.split()
        if fields and not line.startswith(";;"):
            out.append((no, fields))
    return out


def _document(path: Path, rows: list[dict[str, Any]], layer: str, fmt: str) -> Document:
    if not rows:
        raise InputError(f"no {'turns' if fmt == 'rttm' else 'words'}: the file holds no timed line", path=path)
    rows.sort(key=lambda r: (r["start"], r["end"], r["file"]))  # discourse order is time order
    files = list(dict.fromkeys(r["file"] for r in rows))
    units = [
        {
            "speaker": r["file"],
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
        speakers=files,
        source_path=str(path),
        source_format=fmt,
    )
    for column in ("channel", "confidence"):
        values = [r.get(column, "") for r in rows]
        if any(v not in ("", "1") for v in values):
            doc.set_column(column, values)
    return doc


def read_rttm(path: Path, *, scheme: BoundaryScheme, **options: Any) -> Document:
    """Read an RTTM file (see the module docstring); ``scheme`` is not used."""
    if options:
        raise UsageError(f"unknown RTTM reader option(s) {sorted(options)}")
    rows, other = [], 0
    for no, fields in _lines(path):
        if fields[0] != "SPEAKER":
            other += 1
            continue
        if len(fields) < 8:
            raise InputError(f"a SPEAKER line has {len(fields)} fields, expected 10", path=path, place=f"line {no}")
        onset = _number(fields[3], "onset", path, no)
        duration = _number(fields[4], "duration", path, no)
        if duration < 0 or onset < 0:
            raise InputError("a turn with a negative onset or duration", path=path, place=f"line {no}")
        rows.append(
            {"file": fields[1], "channel": fields[2], "start": onset, "end": onset + duration, "text": fields[7]}
        )
    doc = _document(path, rows, "turn", "rttm")
    if other:
        doc.losses.add("records-dropped", "RTTM records other than SPEAKER hold no turn", count=other)
    return doc


def read_ctm(path: Path, *, scheme: BoundaryScheme, **options: Any) -> Document:
    """Read a CTM file (see the module docstring); ``scheme`` is not used."""
    if options:
        raise UsageError(f"unknown CTM reader option(s) {sorted(options)}")
    rows = []
    for no, fields in _lines(path):
        if len(fields) < 5:
            raise InputError(
                f"{len(fields)} fields, expected FILE CHANNEL START DURATION WORD [CONFIDENCE]",
                path=path,
                place=f"line {no}",
            )
        start = _number(fields[2], "start", path, no)
        duration = _number(fields[3], "duration", path, no)
        if duration < 0 or start < 0:
            raise InputError("a word with a negative start or duration", path=path, place=f"line {no}")
        row = {"file": fields[0], "channel": fields[1], "start": start, "end": start + duration, "text": fields[4]}
        if len(fields) > 5:
            row["confidence"] = fields[5]
        rows.append(row)
    return _document(path, rows, "unit", "ctm")


def _timed_rows(doc: Document, losses: LossReport, what: str, layer: str) -> list[tuple[str, float, float, str, int]]:
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


def _clean(name: str) -> str:
    return "_".join(str(name).split()) or "_"


def write_rttm(doc: Document, path: Path, *, losses: LossReport, **options: Any) -> None:
    """Write an RTTM file: a SPEAKER line per unit (see the module docstring)."""
    if options:
        raise UsageError(f"unknown RTTM writer option(s) {sorted(options)}")
    lines = [
        f"SPEAKER {_clean(spk)} 1 {s:.3f} {e - s:.3f} <NA> <NA> {_clean(label)} <NA> <NA>"
        for spk, s, e, label, _ in _timed_rows(doc, losses, "RTTM", "turn")
    ]
    if any(_clean(s) != s for s in doc.speakers):
        losses.add("speaker-changed", "RTTM file ids hold no spaces: written with '_'")
    with atomic_path(path) as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")


def write_ctm(doc: Document, path: Path, *, losses: LossReport, **options: Any) -> None:
    """Write a CTM file: a line per unit (see the module docstring)."""
    if options:
        raise UsageError(f"unknown CTM writer option(s) {sorted(options)}")
    confidence = doc.column("confidence") if "confidence" in doc.column_names() else None
    lines = []
    for spk, s, e, label, row in _timed_rows(doc, losses, "CTM", "unit"):
        line = f"{_clean(spk)} 1 {s:.3f} {e - s:.3f} {_clean(label)}"
        if confidence is not None and confidence[row]:
            line += f" {confidence[row]}"
        lines.append(line)
    if any(_clean(s) != s for s in doc.speakers):
        losses.add("speaker-changed", "CTM file ids hold no spaces: written with '_'")
    with atomic_path(path) as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")


RTTM_ADAPTER = Adapter(
    name="rttm",
    extensions=(".rttm",),
    description="RTTM speaker diarization: a turn per SPEAKER line, its label as the unit's text, the file "
    "id as the stream (for agree --time)",
    read=read_rttm,
    write=write_rttm,
)
CTM_ADAPTER = Adapter(
    name="ctm",
    extensions=(".ctm",),
    description="CTM time-marked words or phones (forced aligners, ASR): each a unit in time, the file id "
    "as the stream (for agree --time)",
    read=read_ctm,
    write=write_ctm,
)
