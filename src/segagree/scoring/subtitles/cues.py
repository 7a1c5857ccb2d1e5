"""The cues of a subtitle Document as displayed: the one cue builder of the subtitle metrics
(reading speed, lines per block) and the style checks (``segagree check``).

A cue is an ``<eob>`` block of the subtitle layer, in file order; its lines end at every break.
A line's text is what a player shows: the words joined by one space, every ``<...>`` tag and
``{\\...}`` block removed (also the unknown tags the SRT reader keeps as words), a dialogue dash
put back as the SRT file wrote it (``-`` or ``- ``; ``- `` for other formats) and a ``NAME: `` label
put back where the file had one. A line left without text is not a line; a cue without lines is
not a cue. Characters are counted by :attr:`segagree.metrics.subtitles.scores.Cue.chars`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from segagree.metrics.subtitles.scores import Cue
from segagree.model import Document

__all__ = ["block_edges", "cues_of"]

# Markup a player does not show: any <...> tag (the SRT reader keeps unknown ones as words) and ASS {\...}.
_TAG = re.compile(r"<[^>]*>|\{\\[^}]*\}")
# A dialogue dash at the start of a cue line as the SRT reader sees it (after styling tags).
_RAW_DASH = re.compile(r"^\s*(?:<[^>]*>|\{[^}]*\})*(-(?!-)\s*)(?=\S)")


def _dash_forms(doc: Document) -> list[str]:
    """The dialogue dashes of an SRT file as written (``-`` or ``- ``...), in file order.

    The reader removes them from the words; their count of characters matters to CPL and CPS.
    Empty when the file is not an SRT file that still exists (then ``- `` is assumed).
    """
    if doc.source_format != "srt" or not doc.source_path or not Path(doc.source_path).is_file():
        return []
    from segagree.files.encoding import decode_text
    from segagree.files.memory import read_bytes

    text = decode_text(read_bytes(doc.source_path, allow_empty=True), doc.source_path)
    # Whitespace inside a line counts as one space, as between words.
    return ["- " if len(m.group(1)) > 1 else "-" for line in text.splitlines() if (m := _RAW_DASH.match(line))]


def _line_prefix(speaker: str, prev: str, marks: str, dashes: list[str]) -> str:
    """The dialogue dash or ``NAME:`` label the reader removed from the start of a line."""
    if speaker == prev:
        return ""
    if "dash" in marks and speaker in ("A", "B"):
        return dashes.pop(0) if dashes else "- "
    if "label" in marks and speaker not in ("A", "B", "SUBTITLE"):
        return f"{speaker}: "
    return ""


def block_edges(block_end: np.ndarray | Sequence[bool]) -> tuple[np.ndarray, np.ndarray]:
    """The first and last token index of each block (cue): a block ends after every token whose
    ``block_end`` is true (an ``<eob>``) and after the last token. The one place cues are cut."""
    flags = np.asarray(block_end, dtype=bool)
    ends = np.flatnonzero(flags)
    if ends.size == 0 or ends[-1] != flags.size - 1:
        ends = np.append(ends, flags.size - 1)
    starts = np.concatenate(([0], ends[:-1] + 1))
    return starts, ends


def cues_of(doc: Document, layer: str | None = None) -> list[Cue]:
    """The displayed cues of a subtitle Document (module docstring); ``layer`` holds the
    ``<eob>``/``<eol>`` breaks (default: ``subtitle`` if there is one)."""
    if doc.n_tokens == 0:
        return []  # a valid subtitle file without words
    lay = doc.layer(layer or ("subtitle" if "subtitle" in doc.layers else None))
    eob = lay.scheme.find_code("<eob>")
    words = doc.column("text").astype(str)
    speakers = doc.column("speaker").astype(str)
    starts = doc.column("start").astype(float)
    ends = doc.column("end").astype(float)
    marks = str(doc.meta.get("speaker_marks") or "")
    dashes = _dash_forms(doc) if "dash" in marks else []
    codes = lay.boundaries.tolist()
    cues: list[Cue] = []
    lines: list[str] = []
    first, prev = 0, "SUBTITLE"
    for begin, last in zip(*block_edges(lay.boundaries == eob), strict=True):
        line: list[str] = []
        for i in range(int(begin), int(last) + 1):
            if not line:
                line.append(_line_prefix(speakers[i], prev, marks, dashes) + words[i])
            else:
                line.append(words[i])
            prev = speakers[i]
            if codes[i] or i == last:  # a line ends at every break
                shown = " ".join(_TAG.sub("", " ".join(line)).split())
                if shown:
                    lines.append(shown)
                line = []
        if lines:  # a block without text is no cue: its span goes to the next cue shown
            cues.append(Cue(tuple(lines), float(starts[first]), float(ends[last]), len(cues) + 1))
            lines, first = [], int(last) + 1
    return cues
