"""CTM time-marked words or phones (NIST SCTK's ``sclite`` format; forced aligners and ASR systems write
it), read and written: see :mod:`segagree.formats.timed_lists` for what the timed lists share.

One ``FILE CHANNEL START DURATION WORD [CONFIDENCE]`` line per word or phone (``;;`` lines are
comments); every word is a unit of its own (layer ``unit``, scheme ``unit``). As read:

* **Channels** (SCTK: ``A`` or ``B`` of a two-channel call) are streams of their own, ``FILE:A`` and
  ``FILE:B``, where the file gives one file id several (channel ``1`` is then the stream ``FILE``); a
  file id with one channel, whichever, is the stream ``FILE``. The channel is kept and written back.
* **Alternations** (SCTK's reference extension: ``<ALT_BEGIN>``, ``<ALT>`` and ``<ALT_END>`` lines
  with ``*`` for both times, between them two alternative word sequences or more): the first
  alternative is read, the others are not (reported, with their count).
* **A confidence** (the sixth field) is kept in the token column ``confidence``; fields after it
  (tools add a word type or a phone, seventh and eighth) are kept as read in ``ctm_fields``; both are
  written back in place.
* **A small negative start** (aligners write ``-0.01`` for a word at the very start) is read as 0
  with the word's end kept, and the read says so; a start below -1 s, or an end at or before 0, is
  refused with its line.
* **An RTTM file** given as CTM (lines ``SPEAKER FILE 1 ONSET DURATION <NA> ...``) is refused: its
  fields would read as words ``1.20``.
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

__all__ = ["ADAPTER", "read_ctm", "write_ctm"]

ALT_BEGIN, ALT, ALT_END = "<ALT_BEGIN>", "<ALT>", "<ALT_END>"
#: The most negative start read as 0 (an aligner's rounding before the file's first sample).
CLAMP_LIMIT = -1.0
_RTTM_TYPES = {"SPEAKER", "SPKR-INFO", "SEGMENT", "NOSCORE", "NO_RT_METADATA", "LEXEME", "NON-LEX", "NON-SPEECH"}


def _refuse_rttm(path: Path, no: int, fields: list[str]) -> None:
    if fields[0] in _RTTM_TYPES and len(fields) >= 9 and "<NA>" in fields:
        raise InputError(
            f"this is an RTTM line ({fields[0]} ... <NA>), not CTM's FILE CHANNEL START DURATION WORD; "
            "read the file as RTTM (rename it .rttm or give --from rttm)",
            path=path,
            place=f"line {no}",
        )


class _Alternation:
    """SCTK's alternation state: inside ``<ALT_BEGIN>`` ... ``<ALT_END>``, which alternative."""

    def __init__(self) -> None:
        self.open_at = 0
        self.alternative = 0
        self.dropped = 0

    def marker(self, path: Path, no: int, word: str) -> None:
        if word == ALT_BEGIN:
            if self.open_at:
                raise InputError(
                    f"{ALT_BEGIN} inside the alternation begun at line {self.open_at}", path=path, place=f"line {no}"
                )
            self.open_at, self.alternative = no, 0
        elif not self.open_at:
            raise InputError(f"{word} outside an alternation (no {ALT_BEGIN} before it)", path=path, place=f"line {no}")
        elif word == ALT:
            self.alternative += 1
        else:
            self.open_at = 0

    def keeps(self) -> bool:
        """Whether a word line here is read (outside an alternation, or in its first alternative)."""
        if self.open_at and self.alternative > 0:
            self.dropped += 1
            return False
        return True


def read_ctm(path: Path, *, scheme: BoundaryScheme, **options: Any) -> Document:
    """Read a CTM file (see the module docstring); ``scheme`` is not used."""
    if options:
        raise UsageError(f"unknown CTM reader option(s) {sorted(options)}")
    rows, clamped = [], []
    alt = _Alternation()
    found, comments = lines(path)
    for no, fields in found:
        _refuse_rttm(path, no, fields)
        if len(fields) < 5:
            raise InputError(
                f"{len(fields)} fields, expected FILE CHANNEL START DURATION WORD [CONFIDENCE]",
                path=path,
                place=f"line {no}",
            )
        if fields[4] in (ALT_BEGIN, ALT, ALT_END):
            alt.marker(path, no, fields[4])
            continue
        if not alt.keeps():
            continue
        start, duration = time_fields(fields[2], fields[3], path, no, "word")
        end = start + duration
        if start < 0:
            if start < CLAMP_LIMIT or end <= 0:
                raise InputError(
                    f"a word starting at {fields[2]} s; expected a start from 0", path=path, place=f"line {no}"
                )
            clamped.append(f"line {no}")
            start = 0.0
        channel = fields[1]
        rows.append(
            {
                "file_id": fields[0],
                "channel": channel,
                "start": start,
                "end": end,
                "text": fields[4],
                "confidence": fields[5] if len(fields) > 5 else "",
                "ctm_fields": " ".join(fields[6:]),
                "times": (fields[2], fields[3]),
            }
        )
    if alt.open_at:
        raise InputError(f"the alternation begun at line {alt.open_at} has no {ALT_END}", path=path)
    name_streams(rows)
    doc = document(path, rows, "unit", "ctm", ("channel", "file_id", "confidence", "ctm_fields"))
    if clamped:
        doc.losses.add_items("times-clamped", "negative starts read as 0 (each word's end kept)", clamped)
    doc.losses.add_count("alternatives-dropped", "words of SCTK alternations after the first alternative", alt.dropped)
    doc.losses.add_count("comments-dropped", "CTM comment lines (;;) are not kept", comments)
    return doc


def write_ctm(doc: Document, path: Path, *, losses: LossReport, **options: Any) -> None:
    """Write a CTM file: a line per unit (see the module docstring)."""
    if options:
        raise UsageError(f"unknown CTM writer option(s) {sorted(options)}")
    names = doc.column_names()
    confidence = doc.column("confidence") if "confidence" in names else None
    extra = doc.column("ctm_fields") if "ctm_fields" in names else None
    out = []
    rows = timed_rows(doc, losses, "CTM", "unit")
    places = time_places(doc, rows)
    for spk, s, e, label, row in rows:
        file_id, channel = source_fields(doc, row, spk)
        start, duration = time_text(places, s, e)
        line = f"{clean(file_id)} {clean(channel)} {start} {duration} {clean(label)}"
        more = str(extra[row]) if extra is not None and extra[row] else ""
        if confidence is not None and confidence[row]:
            line += f" {confidence[row]}"
        elif more:
            line += " <NA>"  # a later field needs the confidence's place
        if more:
            line += f" {more}"
        out.append(line)
    if any(clean(s) != s for s in doc.speakers):
        losses.add("speaker-changed", "CTM file ids hold no spaces: written with '_'")
    note_unheld_columns(doc, ("channel", "file_id", "confidence", "ctm_fields"), "a CTM file", losses)
    with atomic_path(path) as tmp:
        tmp.write_text("\n".join(out) + "\n", encoding="utf-8", newline="\n")


ADAPTER = Adapter(
    name="ctm",
    extensions=(".ctm",),
    description="CTM time-marked words or phones (forced aligners, ASR): each a unit in time, the file id "
    "(with the channel where a file id has several) as the stream (for agree --time)",
    read=read_ctm,
    write=write_ctm,
)
