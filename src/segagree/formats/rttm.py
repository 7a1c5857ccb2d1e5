"""RTTM speaker diarization files (NIST's Rich Transcription evaluations; pyannote, dscore and
pygamma-agreement read them), read and written: see :mod:`segagree.formats.timed_lists` for what the
timed lists share.

One ``SPEAKER FILE CHANNEL ONSET DURATION ORTHO STYPE NAME CONF SLAT`` line per speech turn (other
record types such as ``SPKR-INFO`` carry no turn: not read, and the read says so). Diarization labels
(``spk0``, ``A``) are not shared between annotators, so a turn's label is its **text**, the category
the time measures compare with ``--category label`` (DER and JER map labels optimally; gamma needs
``--category none`` unless the labels mean the same). Layer ``turn``, scheme ``turn``.

The fields that are ``<NA>`` in diarization files (``ORTHO``, ``STYPE``, ``CONF``, ``SLAT``, and any
after them) are kept as read in the token column ``rttm_fields`` when one of them holds something
else, and written back in place; a channel other than 1 is kept in ``channel`` (the stream is the
file id, or ``FILE:CHANNEL`` where the file gives one file id several channels). A line with fewer
than 8 fields, a negative onset or duration, or a time that is not a plain decimal number is refused
with its line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from segagree.errors import InputError, UsageError
from segagree.files.atomic import atomic_path
from segagree.formats.base import Adapter
from segagree.formats.timed_lists import (
    clean,
    document,
    lines,
    name_streams,
    note_unheld_columns,
    source_fields,
    time_fields,
    time_places,
    time_text,
    timed_rows,
)
from segagree.model import Document
from segagree.model.losses import LossReport
from segagree.model.scheme import BoundaryScheme

__all__ = ["ADAPTER", "read_rttm", "write_rttm"]

NA = "<NA>"
_SLOTS = (5, 6, 8, 9)  # ORTHO, STYPE, CONF, SLAT: <NA> in diarization files


def _kept_fields(fields: list[str]) -> str:
    """The ``<NA>`` slots and any fields after them, as written (space-joined), or '' when all are <NA>."""
    slots = [fields[i] if i < len(fields) else NA for i in _SLOTS] + fields[10:]
    return "" if all(f == NA for f in slots) else " ".join(slots)


def read_rttm(path: Path, *, scheme: BoundaryScheme, **options: Any) -> Document:
    """Read an RTTM file (see the module docstring); ``scheme`` is not used."""
    if options:
        raise UsageError(f"unknown RTTM reader option(s) {sorted(options)}")
    rows, other, empty = [], 0, 0
    found, comments = lines(path)
    for no, fields in found:
        if fields[0] != "SPEAKER":
            other += 1
            continue
        if len(fields) < 8:
            raise InputError(f"a SPEAKER line has {len(fields)} fields, expected 10", path=path, place=f"line {no}")
        onset, duration = time_fields(fields[3], fields[4], path, no, "turn")
        if onset < 0:
            raise InputError(f"a turn with a negative onset ({fields[3]})", path=path, place=f"line {no}")
        empty += duration == 0
        channel = fields[2]
        rows.append(
            {
                "file_id": fields[1],
                "channel": channel,
                "start": onset,
                "end": onset + duration,
                "text": fields[7],
                "rttm_fields": _kept_fields(fields),
                "times": (fields[3], fields[4]),
            }
        )
    name_streams(rows)
    doc = document(path, rows, "turn", "rttm", ("channel", "file_id", "rttm_fields"))
    if empty:
        doc.losses.note("empty-turns", "turns of 0 s: DER and JER leave them out, as pyannote.metrics", count=empty)
    if other:
        doc.losses.add("records-dropped", "RTTM records other than SPEAKER hold no turn", count=other)
    if comments:
        doc.losses.add("comments-dropped", "RTTM comment lines (;;) are not kept", count=comments)
    return doc


def write_rttm(doc: Document, path: Path, *, losses: LossReport, **options: Any) -> None:
    """Write an RTTM file: a SPEAKER line per unit (see the module docstring)."""
    if options:
        raise UsageError(f"unknown RTTM writer option(s) {sorted(options)}")
    kept = doc.column("rttm_fields") if "rttm_fields" in doc.column_names() else None
    out = []
    rows = timed_rows(doc, losses, "RTTM", "turn")
    places = time_places(doc, rows)
    for spk, s, e, label, row in rows:
        file_id, channel = source_fields(doc, row, spk)
        slots = (str(kept[row]) if kept is not None and kept[row] else "").split() or [NA] * 4
        ortho, stype, conf, slat, *rest = [*slots, *[NA] * (4 - len(slots))]
        fields = ["SPEAKER", clean(file_id), clean(channel), *time_text(places, s, e), ortho, stype, clean(label)]
        out.append(" ".join([*fields, conf, slat, *rest]))
    if any(clean(s) != s for s in doc.speakers):
        losses.add("speaker-changed", "RTTM file ids hold no spaces: written with '_'")
    note_unheld_columns(doc, ("channel", "file_id", "rttm_fields"), "an RTTM file", losses)
    with atomic_path(path) as tmp:
        tmp.write_text("\n".join(out) + "\n", encoding="utf-8", newline="\n")


ADAPTER = Adapter(
    name="rttm",
    extensions=(".rttm",),
    description="RTTM speaker diarization: a turn per SPEAKER line, its label as the unit's text, the file "
    "id (with the channel where a file id has several) as the stream (for agree --time)",
    read=read_rttm,
    write=write_rttm,
)
