"""Plain transcripts: Du Bois-style text, one intonation unit per line.

Layout (``layout="dubois"``, extensions ``.txt``/``.trn``)::

    JOE:    so I went down there ,
            and they said no .
    MARY:   really ?

* one unit per line; blank lines are skipped;
* an optional speaker label ``NAME:`` opens a line and carries over to the following lines
  (a label followed by a tab may be any name without a tab, ``M::`` for ``M:``; otherwise it
  has no lowercase ASCII letter, so ``note: ...`` is text while ``M:``, ``F1:``, ``JOE:``
  or CJK names are labels); lines before any label belong to ``SPEAKER``. The writer puts a tab after every label and at
  the start of continuation lines;
* tokens are separated by whitespace; the endnote is the final token or glued to the last
  word: ``,`` continuing, ``.`` final, ``?`` appeal, ``--`` or ``—`` truncated; a line
  without one is unclassified; pauses ``..`` ``...`` ``(..)`` ``(0.4)`` are tokens, never
  endnotes. A final punctuation-only token that is no endnote of the scheme (``!``) is an
  error naming the line.

Rezonator's import layout (``layout="rezonator"``): tab-separated ``participant``, ``start``,
``end``, ``text`` with a header row; this is what Rezonator's transcription import reads, so
annotations can go back into Rezonator. The reader recognises it by its header.

ELAN's tab-delimited export (tier, participant, times, value; :mod:`segagree.formats.elan.tab_export`)
is recognised by its columns and read as tiers of timed units.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

from segagree.errors import InputError
from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.formats.base import Adapter, note_speaker_order
from segagree.formats.elan.tab_export import read_export, sniff
from segagree.formats.endnotes import endnote_text, looks_like_endnote, split_endnote, unit_layer_to_write
from segagree.formats.kept_meta import note_words_between_spaces
from segagree.formats.timing import BadTime, parse_seconds
from segagree.model import BoundaryScheme, Document, UnitColumns, from_units
from segagree.model.losses import LossReport, read_losses

DEFAULT_SPEAKER = "SPEAKER"
LABEL = re.compile(r"^\s*([^\sa-z:][^\sa-z]{0,39}?):(?:\s+|$)")
# What the writer emits: any name (no tab or colon) followed by ":" and a tab.
LABEL_TAB = re.compile(r"^([^\t]+):\t")
REZONATOR_HEADER = ["participant", "start", "end", "text"]


def read(
    path: Path,
    *,
    scheme: BoundaryScheme,
    glued: bool = True,
    encoding: str | None = None,
    **_: Any,
) -> Document:
    """Read a Du Bois-style transcript or Rezonator import table (see module docstring).

    ``encoding`` forces the text encoding (default: detected, see :func:`decode_text`).
    """
    losses = read_losses()
    text = decode_text(read_bytes(path), path, encoding=encoding, losses=losses)
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise InputError("a NUL character; expected a text transcript", path=path, place=f"line {line}")
    lines = text.splitlines()
    first = next((ln for ln in lines if ln.strip()), "")
    # What the Document holds besides its units, whichever layout the file has.
    common: dict[str, Any] = {
        "layer": "iu",
        "scheme": scheme,
        "source_path": str(path),
        "source_format": "text",
        "losses": losses,
    }
    if [c.strip().lower() for c in first.split("\t")] == REZONATOR_HEADER:
        units = _rezonator_units(lines, path, scheme, glued)
        if not units:
            raise InputError("no units: every line is empty", path=path)
        return from_units(Path(path).stem, units, meta={"layout": "rezonator"}, **common)
    shape = sniff(text)
    if shape is not None:
        return read_export(Path(path), text, shape, scheme, sep="\t", source_format="text", losses=losses)
    cols = _dubois_units(lines, path, scheme, glued)
    del text, lines, first  # (the file's text is no longer needed: free it before the Document is built)
    if not cols.sizes:
        raise InputError("no units: every line is empty", path=path)
    return cols.build(Path(path).stem, meta={"layout": "dubois"}, **common)


def _unit(tokens: list[str], path: Path, lineno: int, scheme: BoundaryScheme, glued: bool) -> tuple[list[str], int]:
    words, code = split_endnote(tokens, scheme, glued=glued)
    if code is None:
        if words and looks_like_endnote(words[-1]):
            known = ", ".join(scheme.endnote_symbols())
            raise InputError(
                f"unknown endnote {words[-1]!r}; expected one of {known}, or none (unclassified)",
                path=path,
                place=f"line {lineno}",
            )
        if scheme.unclassified_code is None:
            raise InputError(
                f"line has no endnote and scheme {scheme.name!r} has no unclassified type",
                path=path,
                place=f"line {lineno}",
            )
        code = scheme.unclassified_code
    if not words:
        raise InputError("a unit with an endnote but no words", path=path, place=f"line {lineno}")
    return words, code


def _dubois_units(lines: list[str], path: Path, scheme: BoundaryScheme, glued: bool) -> UnitColumns:
    cols = UnitColumns()
    speaker = DEFAULT_SPEAKER
    # A unit's boundary depends on its last token only: decide each distinct one once.
    endings: dict[str, tuple[list[str], int | None]] = {}
    for lineno, line in enumerate(lines, start=1):
        match = (LABEL_TAB.match(line) or LABEL.match(line)) if ":" in line else None
        if match:
            speaker = match.group(1)
            line = line[match.end() :]
        # (Interned: a word is held once however often it occurs, a third of a large read's memory.)
        tokens = list(map(sys.intern, line.split()))
        if not tokens:
            continue
        last = tokens[-1]
        ending = endings.get(last)
        if ending is None:
            ending = endings[last] = split_endnote([last], scheme, glued=glued)
        tail, code = ending
        if code is None or (len(tokens) == 1 and not tail):
            words, code = _unit(tokens, path, lineno, scheme, glued)  # the checks, with their messages
        else:
            words = tokens[:-1]
            words.extend(tail)
        cols.add(speaker, words, len(words), code)
    return cols


def _rezonator_units(lines: list[str], path: Path, scheme: BoundaryScheme, glued: bool) -> list[dict[str, Any]]:
    units: list[dict[str, Any]] = []
    header_seen = False
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if not header_seen:
            header_seen = True
            continue
        cells = line.split("\t")
        if len(cells) != 4:
            raise InputError(
                f"expected 4 tab-separated cells (participant, start, end, text), got {len(cells)}",
                path=path,
                place=f"line {lineno}",
            )
        speaker, start, end, body = cells
        times = [_time(cell, label, path, lineno) for label, cell in (("start", start), ("end", end))]
        if times[0] is not None and times[1] is not None and times[1] < times[0]:
            raise InputError(
                f"the unit ends ({times[1]}) before it starts ({times[0]}); expected start <= end",
                path=path,
                place=f"line {lineno}",
            )
        words, code = _unit(body.split(), path, lineno, scheme, glued)
        units.append(
            {
                "speaker": speaker.strip() or DEFAULT_SPEAKER,
                "tokens": words,
                "boundary": code,
                "start": times[0],
                "end": times[1],
            }
        )
    return units


def _time(cell: str, label: str, path: Path, lineno: int) -> float | None:
    """A start/end cell in seconds (None when blank); impossible times refused with the line."""
    try:
        return parse_seconds(cell)
    except BadTime as why:
        raise InputError(f"{label} {why}", path=path, place=f"line {lineno}") from None


# What str.splitlines() (the reader) takes for the end of a line.
_LINE_BREAK = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def _one_line(speaker: str) -> str:
    """A speaker name on one line: each line break a space (the name reads back changed: reported)."""
    return _LINE_BREAK.sub(" ", speaker)


def write(
    doc: Document,
    path: Path,
    *,
    losses: LossReport,
    layer: str | None = None,
    layout: str = "dubois",
    **_: Any,
) -> None:
    """Write a transcript, one unit of ``layer`` (default ``iu``) per line.

    ``layout="dubois"`` labels a speaker's first line of each turn ``NAME:``;
    ``layout="rezonator"`` writes Rezonator's tab-separated import table.
    """
    lay = unit_layer_to_write(doc, losses, "text", layer)
    scheme = lay.scheme
    note_speaker_order(doc, losses, "a transcript")
    if doc.meta_columns():
        losses.add("meta-dropped", f"text holds no unit metadata; dropped {doc.meta_columns()}")
    if layout == "dubois" and doc.has_times:
        losses.add("times-dropped", "a Du Bois transcript holds no times (use layout=rezonator)")
    # the two columns, not the token table: a table of every metadata column is built for nothing
    starts, ends = doc.column("start"), doc.column("end")
    out: list[str] = []
    if layout == "rezonator":
        out.append("\t".join(REZONATOR_HEADER))
    previous = None
    renamed: set[str] = set()
    inner_times = split = empty = 0
    odd_speakers: set[str] = set()
    for unit, words in doc.iter_unit_texts(lay.name):
        note = endnote_text(unit.boundary, scheme)
        if any("\t" in w or _LINE_BREAK.search(w) for w in words):
            raise InputError("a token holds a tab or newline, which text cannot hold", path=path)
        split += sum(1 for w in words if w.split() != [w] and w)
        empty += sum(1 for w in words if not w)
        if unit.boundary == 0:
            losses.add("boundary-changed", "a stretch with no boundary after it reads back as an unclassified unit")
        elif not note and words and _misread_end(words, scheme):
            if scheme.unclassified is not None:
                note = scheme.unclassified.symbol  # written explicitly: "no ." would read back typed
            else:
                losses.add("boundary-changed", f"a unit ending in {words[-1]!r} reads back with another boundary")
        body = " ".join([*words, note] if note else words)
        rows = list(unit.rows)
        inner_times += int(np.count_nonzero(~np.isnan(starts[rows[1:]])) + np.count_nonzero(~np.isnan(ends[rows[:-1]])))
        if layout == "rezonator":
            if unit.speaker != unit.speaker.strip() or not unit.speaker.strip() or _LINE_BREAK.search(unit.speaker):
                odd_speakers.add(unit.speaker)
            s, e = starts[unit.rows[0]], ends[unit.rows[-1]]
            out.append("\t".join([_one_line(unit.speaker), _num(s), _num(e), body]))
        else:
            if "\t" in unit.speaker:
                raise InputError(f"speaker {unit.speaker!r} holds a tab", path=path)
            # A label that already ends in ':' (ELAN/Rezonator "M:") is written once, not "M::".
            name = _one_line(unit.speaker.rstrip(":") or unit.speaker)
            if name != unit.speaker and unit.speaker not in renamed:
                renamed.add(unit.speaker)
                losses.add("speaker-renamed", f"speaker {unit.speaker!r} is written {name + ':'!r}, read back {name!r}")
            label = f"{name}:" if unit.speaker != previous else ""
            if not unit.speaker or _LINE_BREAK.search(unit.speaker):
                odd_speakers.add(unit.speaker)
            if not label and LABEL.match("\t" + body):
                odd_speakers.add(unit.speaker)  # the first word reads back as a speaker label
            out.append(f"{label}\t{body}")
        previous = unit.speaker
    if inner_times and layout == "rezonator":
        losses.add("times-dropped", "a transcript holds unit times only; word times are not kept", count=inner_times)
    note_words_between_spaces(
        losses,
        split=split,
        empty=empty,
        odd_speakers=odd_speakers,
        holder="a transcript line",
        speaker_rule="an empty name, a line break in a name, spaces around it, or a first word that looks like a "
        "NAME: label",
    )
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def _misread_end(words: list[str], scheme: BoundaryScheme) -> bool:
    """Whether an unmarked unit ending in ``words`` would read back with another boundary (or fail)."""
    if looks_like_endnote(words[-1]):
        return True
    # Any endnote found (even the unit's own unclassified ";") would be taken off the words.
    return split_endnote(words, scheme, glued=True)[1] is not None


def _num(value: float) -> str:
    return "" if math.isnan(value) else repr(float(value))


ADAPTER = Adapter(
    name="text",
    extensions=(".txt", ".trn"),
    description="Du Bois transcript, one unit per line (or Rezonator's tab-separated import); reads ELAN's tab export",
    read=read,
    write=write,
)
