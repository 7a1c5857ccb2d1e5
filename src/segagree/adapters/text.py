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
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from segagree.adapters.base import Adapter, LossReport, decode_text, read_bytes
from segagree.adapters.endnotes import endnote_text, looks_like_endnote, note_unit_layer_losses, split_endnote
from segagree.errors import InputError
from segagree.schemas import BoundaryScheme, Document, from_units

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
    **_: Any,
) -> Document:
    """Read a Du Bois-style transcript or Rezonator import table (see module docstring)."""
    text = decode_text(read_bytes(path), path)
    lines = text.splitlines()
    first = next((ln for ln in lines if ln.strip()), "")
    if [c.strip().lower() for c in first.split("\t")] == REZONATOR_HEADER:
        units = _rezonator_units(lines, path, scheme, glued)
        layout = "rezonator"
    else:
        units = _dubois_units(lines, path, scheme, glued)
        layout = "dubois"
    if not units:
        raise InputError("no units: every line is empty", path=path)
    return from_units(
        Path(path).stem,
        units,
        layer="iu",
        scheme=scheme,
        source_path=str(path),
        source_format="text",
        meta={"layout": layout},
    )


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


def _dubois_units(lines: list[str], path: Path, scheme: BoundaryScheme, glued: bool) -> list[dict[str, Any]]:
    units: list[dict[str, Any]] = []
    speaker = DEFAULT_SPEAKER
    for lineno, line in enumerate(lines, start=1):
        match = LABEL_TAB.match(line) or LABEL.match(line)
        if match:
            speaker = match.group(1)
            line = line[match.end() :]
        tokens = line.split()
        if not tokens:
            continue
        words, code = _unit(tokens, path, lineno, scheme, glued)
        units.append({"speaker": speaker, "tokens": words, "boundary": code})
    return units


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
        times = []
        for label, cell in (("start", start), ("end", end)):
            try:
                times.append(float(cell) if cell.strip() else None)
            except ValueError:
                raise InputError(
                    f"{label} {cell!r} is not a number of seconds", path=path, place=f"line {lineno}"
                ) from None
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
    lay = doc.layer(layer)
    scheme = lay.scheme
    note_unit_layer_losses(lay.name, lay.scheme, losses, "text")
    dropped = [name for name in doc.layers if name != lay.name]
    if dropped:
        losses.add("layer-dropped", f"text holds one layer; dropped {dropped}")
    if doc.meta_columns():
        losses.add("meta-dropped", f"text holds no unit metadata; dropped {doc.meta_columns()}")
    if layout == "dubois" and doc.has_times:
        losses.add("times-dropped", "a Du Bois transcript holds no times (use layout=rezonator)")
    starts = doc.tokens["start"].to_numpy()
    ends = doc.tokens["end"].to_numpy()
    out: list[str] = []
    if layout == "rezonator":
        out.append("\t".join(REZONATOR_HEADER))
    previous = None
    renamed: set[str] = set()
    for unit, words in doc.iter_unit_texts(lay.name):
        note = endnote_text(unit.boundary, scheme)
        body = " ".join([*words, note] if note else words)
        if any("\t" in w or "\n" in w for w in words):
            raise InputError("a token holds a tab or newline, which text cannot hold", path=path)
        if layout == "rezonator":
            s, e = starts[unit.rows[0]], ends[unit.rows[-1]]
            out.append("\t".join([unit.speaker, _num(s), _num(e), body]))
        else:
            if "\t" in unit.speaker:
                raise InputError(f"speaker {unit.speaker!r} holds a tab", path=path)
            # A label that already ends in ':' (ELAN/Rezonator "M:") is written once, not "M::".
            name = unit.speaker.rstrip(":") or unit.speaker
            if name != unit.speaker and unit.speaker not in renamed:
                renamed.add(unit.speaker)
                losses.add("speaker-renamed", f"speaker {unit.speaker!r} is written {name + ':'!r}, read back {name!r}")
            label = f"{name}:" if unit.speaker != previous else ""
            out.append(f"{label}\t{body}")
        previous = unit.speaker
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def _num(value: float) -> str:
    return "" if math.isnan(value) else repr(float(value))


ADAPTER = Adapter(
    name="text",
    extensions=(".txt", ".trn"),
    description="Du Bois-style transcript, one unit per line (or Rezonator's tab-separated import)",
    read=read,
    write=write,
)
