"""Degraded copies of a subtitle segmentation: the same words, some breaks shifted, inserted,
deleted or retyped (``segagree degrade``).

The rules are EvalSubtitle's (Karakanta, Buet, Cettolo & Yvon 2022, LREC; ``evalsub/util/
degrade_tagged_txt.py``), on the gaps after words of the whole text (the slots), with a proportion
``p`` of the breaks of each type (``<eol>`` and ``<eob>`` counted apart, ``round(p * count)``):

* ``shift``: the chosen breaks, taken in text order, each move ``n`` slots to the left or right
  (50-50), stopping before another break or the text's edge, so a break moves **at most** ``n``
  words and never crosses or joins another one; in a document of sentence lines (tagged text's
  ``sentence`` layer) a break also stays within its sentence and a sentence's final break stays
  put (EvalSubtitle degrades a file of one sentence per line; moved across a line end, a break
  would leave one sentence without its final break and give the next two);
* ``insert``: ``round(p * count)`` new breaks of each type go into free slots (gaps without a
  break) drawn at random; at most as many as there are free slots;
* ``delete``: the chosen breaks are removed;
* ``retype``: the chosen breaks change type, ``<eol>`` <-> ``<eob>``.

Deliberate differences: draws come from a numpy ``Generator`` seeded by the caller (EvalSubtitle
uses Python's unseeded ``random``), so a degradation is reproducible; the break after the last
word, and a break where the speaker changes (a dialogue dash line), are never shifted, deleted
or retyped, since no file could hold their absence. ``p = 0`` returns the breaks unchanged.
Times of timed files follow :mod:`segagree.scoring.subtitles.breaks`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.errors import UsageError
from segagree.model import Document
from segagree.model.losses import LossReport
from segagree.scoring.subtitles.breaks import SubtitleBreaks, subtitle_breaks, with_breaks

__all__ = ["OPERATIONS", "DegradeResult", "degrade_breaks", "degrade_document"]

OPERATIONS: tuple[str, ...] = ("shift", "insert", "delete", "retype")


@dataclass
class DegradeResult:
    """A degraded Document and what was done.

    Attributes:
        document: the degraded copy (same words).
        operation, n, p, seed: the request.
        breaks_before, breaks_after: number of breaks.
        changed: how many breaks each type had chosen (``{"<eol>": k, "<eob>": k}``).
        displacements: for ``shift``, how far (in words, signed) each chosen break moved.
        notes: what changed beyond the breaks (re-timed cues, dropped multi-tags).
    """

    document: Document
    operation: str
    n: int
    p: float
    seed: int | None
    breaks_before: int
    breaks_after: int
    changed: dict[str, int] = field(default_factory=dict)
    displacements: list[int] = field(default_factory=list)
    notes: LossReport = field(default_factory=LossReport)

    def to_dict(self) -> dict[str, Any]:
        return {
            "operation": self.operation,
            "n": self.n,
            "p": self.p,
            "seed": self.seed,
            "breaks_before": self.breaks_before,
            "breaks_after": self.breaks_after,
            "changed": dict(self.changed),
            "max_displacement": max((abs(d) for d in self.displacements), default=0),
            "notes": [loss.to_json() for loss in self.notes],
        }


def _check(operation: str, n: int, p: float) -> None:
    if operation not in OPERATIONS:
        raise UsageError(f"unknown degradation {operation!r}; expected one of {', '.join(OPERATIONS)}")
    if not 0.0 <= p <= 1.0:
        raise UsageError(f"p must be a proportion from 0 to 1, not {p!r}")
    if operation == "shift" and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
        raise UsageError(f"--shift needs a positive number of words, not {n!r}")


def _sample(rng: np.random.Generator, positions: np.ndarray, k: int) -> np.ndarray:
    k = min(k, positions.size)
    return np.sort(rng.choice(positions, size=k, replace=False)) if k else positions[:0]


def _chosen(
    rng: np.random.Generator, b: SubtitleBreaks, codes: np.ndarray, p: float, keep: np.ndarray | None = None
) -> dict[int, np.ndarray]:
    """Per type, ``round(p * count)`` of the breaks that may change (fixed ones, and ``keep``'s,
    excluded)."""
    out = {}
    fixed = b.fixed if keep is None else b.fixed | keep
    for code in (b.eol, b.eob):
        movable = np.flatnonzero((codes == code) & ~fixed)
        out[code] = _sample(rng, movable, round(p * movable.size))
    return out


def _shift(
    rng: np.random.Generator,
    codes: np.ndarray,
    chosen: np.ndarray,
    n: int,
    extra: np.ndarray | None,
    sentence: np.ndarray | None = None,
) -> list[int]:
    """EvalSubtitle's shift, in text order; returns each break's signed displacement. ``extra``
    (multi-tag entries, one per token) moves with its break; ``sentence`` (each token's sentence
    number) keeps a break within its sentence."""
    last_slot = codes.size - 2  # the gap after the last word is no slot
    moves = []
    for i in chosen:
        kind = codes[i]
        codes[i] = 0
        step = 1 if rng.integers(2) else -1
        t = i
        while (
            0 <= t <= last_slot
            and codes[t] == 0
            and abs(t - i) <= n
            and (sentence is None or sentence[t] == sentence[i])
        ):
            t += step
        t -= step
        codes[t] = kind
        if extra is not None and t != i:
            extra[t], extra[i] = extra[i], ""
        moves.append(int(t - i))
    return moves


def degrade_breaks(
    b: SubtitleBreaks,
    operation: str,
    p: float,
    rng: np.random.Generator,
    n: int = 1,
    extra: np.ndarray | None = None,
    sentences: bool = False,
) -> tuple[np.ndarray, dict[str, int], list[int]]:
    """New break codes for ``b`` (module docstring), how many of each type were chosen, and the
    displacements of shifted breaks; ``extra`` (per-token multi-tag entries) is moved in place
    with shifted breaks. With ``sentences`` (the document has sentence lines) a shifted break
    stays within its sentence and a sentence's final break is not shifted."""
    _check(operation, n, p)
    codes = b.codes.copy()
    names = {b.eol: "<eol>", b.eob: "<eob>"}
    if operation == "insert":
        free = np.flatnonzero(codes[:-1] == 0)
        want = {code: round(p * int(np.sum(codes == code))) for code in (b.eol, b.eob)}
        slots = _sample(rng, free, want[b.eol] + want[b.eob])
        rng.shuffle(slots)
        k_eol = min(want[b.eol], slots.size)
        codes[slots[:k_eol]] = b.eol
        codes[slots[k_eol:]] = b.eob
        return codes, {"<eol>": int(k_eol), "<eob>": int(slots.size - k_eol)}, []
    keep = b.sentence_ends if sentences and operation == "shift" else None
    chosen = _chosen(rng, b, codes, p, keep)
    counts = {names[c]: int(v.size) for c, v in chosen.items()}
    if operation == "delete":
        for v in chosen.values():
            codes[v] = 0
        return codes, counts, []
    if operation == "retype":
        for code, v in chosen.items():
            codes[v] = b.eob if code == b.eol else b.eol
        return codes, counts, []
    everything = np.sort(np.concatenate(list(chosen.values())))
    # Each token's sentence: the count of sentence ends before it.
    sentence = np.concatenate(([0], np.cumsum(b.sentence_ends[:-1]))) if sentences else None
    return codes, counts, _shift(rng, codes, everything, n, extra, sentence)


def degrade_document(
    doc: Document, operation: str, p: float, *, seed: int | None = None, n: int = 1, layer: str | None = None
) -> DegradeResult:
    """A degraded copy of a subtitle Document (module docstring); the words never change."""
    _check(operation, n, p)
    b = subtitle_breaks(doc, layer)
    rng = np.random.default_rng(seed)
    extra = np.asarray(doc.column("tags"), dtype=object).copy() if "tags" in doc.column_names() else None
    sentences = "sentence" in doc.layers and b.layer != "sentence"
    codes, counts, moves = degrade_breaks(b, operation, p, rng, n, extra, sentences)
    label = f"degrade {operation}" + (f" n={n}" if operation == "shift" else "") + f" p={p:g}"
    out, notes = with_breaks(doc, b, codes, what=label, tags=extra)
    out.name = doc.name
    return DegradeResult(
        out,
        operation,
        n if operation == "shift" else 0,
        p,
        seed,
        int(np.count_nonzero(b.codes)),
        int(np.count_nonzero(codes)),
        counts,
        moves,
        notes,
    )
