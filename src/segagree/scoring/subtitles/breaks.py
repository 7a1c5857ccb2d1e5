"""A subtitle Document with new breaks: the same words, a new ``subtitle`` layer, re-timed cues.

Shared by ``segagree degrade`` (:mod:`segagree.subtitle_tools.degrade`) and the length baseline of
``segagree segment`` (:mod:`segagree.subtitle_tools.baseline`): both change only where the ``<eol>`` and
``<eob>`` breaks are, never the words.

**Times** (timed documents: SRT, WebVTT). A cue's start is on its first token and its end on its
last; when breaks move, cues begin and end at other words, which have no times of their own. Every
word gets an estimated span by its *position* inside its original cue: a cue from ``s`` to ``e``
with ``k`` words gives word ``j`` the span ``[s + (e - s) j / k, s + (e - s) (j + 1) / k]`` (a word
with its own time, e.g. a WebVTT timestamp tag, keeps it). A new cue runs from the estimated start
of its first word to the estimated end of its last, so cues whose edges did not move keep their
exact times, gaps between the original cues are kept, and a cue never leaves the original time
span. :func:`with_breaks` reports the re-timing (``times-interpolated``) in the returned notes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from segagree.errors import SegagreeError
from segagree.model import Document
from segagree.model.document import Layer
from segagree.model.losses import LossReport
from segagree.scoring.subtitles.cues import block_edges

__all__ = ["SubtitleBreaks", "subtitle_breaks", "with_breaks", "word_spans"]


@dataclass(frozen=True)
class SubtitleBreaks:
    """The breaks of a Document's subtitle layer as arrays over its tokens.

    Attributes:
        layer: the layer's name.
        codes: int array, the code after each token (0 none, ``eob`` or ``eol``).
        eob, eol: the codes of ``<eob>`` and ``<eol>`` in the layer's scheme.
        fixed: bool array, breaks no degradation may remove or move: after the last token (a file
            always ends a block) and at every speaker change (a speaker's line starts a line).
        sentence_ends: bool array, the last token of each sentence (the ``sentence`` layer of tagged
            text, else words ending in ``.``, ``!`` or ``?``, optionally followed by a quote or bracket).
    """

    layer: str
    codes: np.ndarray
    eob: int
    eol: int
    fixed: np.ndarray
    sentence_ends: np.ndarray


_EOS = (".", "!", "?", '."', '!"', '?"', ".)", "!)", "?)", ".»", "!»", "?»", "…")


def subtitle_breaks(doc: Document, layer: str | None = None) -> SubtitleBreaks:
    """The subtitle breaks of ``doc`` (its ``subtitle`` layer unless ``layer`` names another)."""
    name = layer or ("subtitle" if "subtitle" in doc.layers else None)
    lay = doc.layer(name)
    eob, eol = lay.scheme.find_code("<eob>"), lay.scheme.find_code("<eol>")
    if not eob or not eol:
        raise SegagreeError(
            f"layer {lay.name!r} has no <eob>/<eol> boundary types; expected a subtitle file "
            "(SRT, WebVTT or tagged text)",
            path=doc.source_path or doc.name,
        )
    codes = lay.boundaries.astype(np.int64)
    n = codes.size
    if n == 0:
        raise SegagreeError("the subtitle file has no words", path=doc.source_path or doc.name)
    speakers = doc.column("speaker").astype(str)
    fixed = np.zeros(n, dtype=bool)
    fixed[-1] = True
    fixed[:-1] |= speakers[:-1] != speakers[1:]
    if "sentence" in doc.layers and lay.name != "sentence":
        ends = doc.layers["sentence"].boundaries != 0
    else:
        words = doc.column("text").astype(str)
        ends = np.fromiter((w.endswith(_EOS) for w in words), dtype=bool, count=n)
    ends = ends.copy()
    ends[-1] = True
    return SubtitleBreaks(lay.name, codes, int(eob), int(eol), fixed, ends)


def word_spans(doc: Document, breaks: SubtitleBreaks) -> tuple[np.ndarray, np.ndarray]:
    """Each word's estimated (start, end) from its cue's span by position (module docstring);
    NaN for words of cues without times."""
    starts = doc.column("start").astype(float)
    ends = doc.column("end").astype(float)
    est_s = np.full(starts.size, np.nan)
    est_e = np.full(starts.size, np.nan)
    for a, b in zip(*block_edges(breaks.codes == breaks.eob), strict=True):
        s, e, k = starts[a], ends[b], b - a + 1
        if np.isnan(s) or np.isnan(e):
            continue
        j = np.arange(k, dtype=float)
        est_s[a : b + 1] = s + (e - s) * j / k
        est_e[a : b + 1] = s + (e - s) * (j + 1) / k
    own_s, own_e = ~np.isnan(starts), ~np.isnan(ends)
    est_s[own_s] = starts[own_s]
    est_e[own_e] = ends[own_e]
    return est_s, est_e


def with_breaks(
    doc: Document, breaks: SubtitleBreaks, codes: np.ndarray, *, what: str, tags: np.ndarray | None = None
) -> tuple[Document, LossReport]:
    """A copy of ``doc`` whose subtitle layer holds ``codes``, cues re-timed (module docstring).

    ``what`` names the operation in the notes. ``tags`` is the new ``tags`` column (multi-tag entries
    such as ``<eol> <eob>`` after one word in tagged text, moved with their break); without it, the
    entries stay where they were. An entry whose last tag no longer is the break there is dropped.
    The notes list what changed beyond the breaks: re-timed cues and dropped entries.
    """
    codes = np.asarray(codes, dtype=np.int16)
    notes = LossReport()
    starts = doc.column("start").astype(float)
    ends = doc.column("end").astype(float)
    new_s = np.full(starts.size, np.nan)
    new_e = np.full(starts.size, np.nan)
    timed = bool(doc.has_times)
    if timed:
        est_s, est_e = word_spans(doc, breaks)
        a, b = block_edges(codes == breaks.eob)
        new_s[a], new_e[b] = est_s[a], est_e[b]
        # Word-level times (WebVTT timestamp tags): times on tokens that were no cue edge.
        a0, b0 = block_edges(breaks.codes == breaks.eob)
        inner_s = ~np.isnan(starts)
        inner_s[a0] = False
        inner_s[a] = False
        inner_e = ~np.isnan(ends)
        inner_e[b0] = False
        inner_e[b] = False
        new_s[inner_s], new_e[inner_e] = starts[inner_s], ends[inner_e]
        moved = int(np.sum(~_same(new_s, starts)) + np.sum(~_same(new_e, ends)))
        if moved:
            notes.add(
                "times-interpolated",
                f"{what}: cue times at moved cue edges were estimated by word position inside the original cue",
                count=moved,
            )
    columns = {c: doc.column(c).copy() for c in doc.column_names()}
    columns["start"], columns["end"] = new_s, new_e
    if "tags" in columns:
        before = int(sum(1 for t in columns["tags"] if t))
        new_tags = np.asarray(columns["tags"] if tags is None else tags, dtype=object).copy()
        symbol = {breaks.eob: "<eob>", breaks.eol: "<eol>"}
        for i in np.flatnonzero(new_tags != ""):
            if not codes[i] or str(new_tags[i]).split()[-1] != symbol.get(int(codes[i])):
                new_tags[i] = ""
        columns["tags"] = new_tags
        dropped = before - int(sum(1 for t in new_tags if t))
        if dropped:
            notes.add("tags-dropped", f"{what}: several tags after one word were replaced by one break", count=dropped)
    old = doc.layers[breaks.layer]
    layers = dict(doc.layers)
    layers[breaks.layer] = Layer(old.name, old.scheme, codes)
    # Cue settings kept by index (SRT coordinates) would land on other cues once blocks move.
    meta = {k: v for k, v in doc.meta.items() if k != "cue_proprietary"}
    out = doc.replace(tokens=columns, layers=layers, meta=meta, losses=LossReport(side="read"), source_path="")
    return out.validate(), notes


def _same(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (np.isnan(a) & np.isnan(b)) | (np.abs(a - b) <= 1e-9)
