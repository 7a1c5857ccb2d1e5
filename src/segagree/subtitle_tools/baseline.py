"""The length baseline of ``segagree segment --baseline length``: re-break a subtitle text by length.

All breaks are dropped, then the words are laid out greedily: a line takes words while it stays
within ``max_cpl`` characters (words joined by one space; a longer word alone makes its own
line); a full line ends in ``<eol>``, or in ``<eob>`` when it is the block's ``max_lines``-th line;
the last word of every sentence ends its block (``<eob>``) and the next sentence starts a new one.
This is the "every 42 characters" segmentation of Karakanta, Buet, Cettolo & Yvon (2022, LREC,
the length-based baseline of their contrastive study), here with a block of at most
``max_lines`` lines.

Sentences are the tagged text's lines (its ``sentence`` layer), else words ending in ``.``, ``!``
or ``?`` (see :func:`segagree.scoring.subtitles.breaks.subtitle_breaks`). A speaker change (a dialogue
line) also ends a line, as the file needs it to. Times of timed files follow
:mod:`segagree.scoring.subtitles.breaks`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from segagree.errors import UsageError
from segagree.model import Document
from segagree.model.losses import LossReport
from segagree.scoring.subtitles.breaks import SubtitleBreaks, subtitle_breaks, with_breaks

__all__ = ["BASELINES", "SegmentResult", "length_breaks", "segment_document"]

BASELINES: tuple[str, ...] = ("length",)


@dataclass
class SegmentResult:
    """A re-segmented Document, the breaks before and after, and what changed beyond the breaks."""

    document: Document
    baseline: str
    max_cpl: int
    max_lines: int
    breaks_before: int
    breaks_after: int
    notes: LossReport


def length_breaks(words: list[str], b: SubtitleBreaks, max_cpl: int, max_lines: int) -> np.ndarray:
    """Break codes of the greedy length layout of ``words`` (module docstring)."""
    codes = np.zeros(len(words), dtype=np.int64)
    width = 0  # characters on the current line
    line = 1  # the current line's number in its block
    for i, w in enumerate(words):
        if width and width + 1 + len(w) > max_cpl:
            # The previous word ends a full line.
            codes[i - 1] = b.eob if line >= max_lines else b.eol
            line = 1 if line >= max_lines else line + 1
            width = 0
        width += len(w) + (1 if width else 0)
        if b.sentence_ends[i]:
            codes[i] = b.eob
            width, line = 0, 1
        elif b.fixed[i]:
            codes[i] = b.eob if line >= max_lines else b.eol
            line = 1 if line >= max_lines else line + 1
            width = 0
    codes[-1] = b.eob
    return codes


def segment_document(
    doc: Document, *, baseline: str = "length", max_cpl: int = 42, max_lines: int = 2, layer: str | None = None
) -> SegmentResult:
    """``doc`` re-broken by the baseline (module docstring); the words never change."""
    if baseline not in BASELINES:
        raise UsageError(f"unknown baseline {baseline!r}; known: {', '.join(BASELINES)}")
    for name, v in (("max_cpl", max_cpl), ("max_lines", max_lines)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise UsageError(f"{name} must be a positive integer, not {v!r}")
    b = subtitle_breaks(doc, layer)
    words = doc.column("text").astype(str).tolist()
    codes = length_breaks(words, b, max_cpl, max_lines)
    out, notes = with_breaks(doc, b, codes, what=f"{baseline} baseline ({max_cpl} CPL, {max_lines} lines)")
    out.name = doc.name
    return SegmentResult(
        out, baseline, max_cpl, max_lines, int(np.count_nonzero(b.codes)), int(np.count_nonzero(codes)), notes
    )
