"""Unit-to-unit dissimilarities of the gamma family (Mathet, Widlöcher & Métivier 2015).

With Δ∅ the cost of a unit facing "empty" (pygamma-agreement's defaults, all 1):

* positional sporadic: ``d_pos(u, v) = ((|s_u - s_v| + |e_u - e_v|) / (dur_u + dur_v))² · Δ∅``;
* categorical absolute: ``d_cat(u, v) = [cat_u != cat_v] · Δ∅``;
* combined: ``d = alpha · d_pos + beta · d_cat``.

Two zero-length units (points) have ``d_pos = 0`` at the same time and infinity elsewhere (pygamma
refuses zero-length units). Everything is computed in float64 (pygamma uses float32).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from segagree.errors import UsageError

__all__ = ["Dissimilarity", "Track", "candidate_pairs"]


@dataclass(frozen=True)
class Dissimilarity:
    """The combined dissimilarity ``alpha · d_pos + beta · d_cat`` with empty cost ``delta_empty``."""

    alpha: float = 1.0
    beta: float = 1.0
    delta_empty: float = 1.0

    def __post_init__(self) -> None:
        for name in ("alpha", "beta", "delta_empty"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0):
                raise UsageError(f"gamma: {name} must be a finite number >= 0, not {value!r}")
        if self.delta_empty == 0:
            raise UsageError("gamma: delta_empty must be > 0")

    def positional(self, s1: np.ndarray, e1: np.ndarray, s2: np.ndarray, e2: np.ndarray) -> np.ndarray:
        """``d_pos`` elementwise (broadcasting)."""
        num = np.abs(s1 - s2) + np.abs(e1 - e2)
        den = (e1 - s1) + (e2 - s2)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = num / den
        ratio = np.where(den > 0, ratio, np.where(num == 0, 0.0, np.inf))
        return ratio * ratio * self.delta_empty

    def categorical(self, c1: np.ndarray, c2: np.ndarray) -> np.ndarray:
        """``d_cat`` elementwise (absolute: 0 for the same category, Δ∅ otherwise)."""
        return (np.asarray(c1) != np.asarray(c2)) * self.delta_empty

    def combined(
        self, s1: np.ndarray, e1: np.ndarray, c1: np.ndarray, s2: np.ndarray, e2: np.ndarray, c2: np.ndarray
    ) -> np.ndarray:
        """``alpha · d_pos + beta · d_cat`` elementwise."""
        pos = self.positional(s1, e1, s2, e2)
        if self.alpha == 0:
            pos = np.zeros_like(pos)
        return self.alpha * pos + self.beta * self.categorical(c1, c2)


@dataclass(frozen=True)
class Track:
    """One annotator's units sorted by (start, end): arrays, and each unit's row in the UnitSet."""

    start: np.ndarray
    end: np.ndarray
    category: np.ndarray
    index: np.ndarray

    @classmethod
    def build(cls, start: np.ndarray, end: np.ndarray, category: np.ndarray, index: np.ndarray) -> Track:
        order = np.lexsort((end, start))
        return cls(
            np.ascontiguousarray(start[order], dtype=np.float64),
            np.ascontiguousarray(end[order], dtype=np.float64),
            np.ascontiguousarray(category[order], dtype=np.int64),
            np.ascontiguousarray(index[order], dtype=np.int64),
        )

    def __len__(self) -> int:
        return int(self.start.shape[0])


def candidate_pairs(a: Track, b: Track, dis: Dissimilarity, bound: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair (i of ``a``, j of ``b``) whose dissimilarity is at most ``bound``, with its cost.

    Only pairs inside the positional window are scored: ``d_pos <= bound / alpha`` needs
    ``|s_i - s_j| <= |Δs| + |Δe| <= R · (dur_i + dur_j)`` with ``R = sqrt(bound / (alpha · Δ∅))``,
    so ``b``'s starts (sorted) are searched within ``R · (dur_i + max dur_b)`` of ``s_i``.
    """
    na, nb = len(a), len(b)
    empty = np.zeros(0, dtype=np.int64)
    if na == 0 or nb == 0:
        return empty, empty, np.zeros(0)
    if dis.alpha > 0:
        reach = math.sqrt(bound / (dis.alpha * dis.delta_empty))
        dur_a = a.end - a.start
        half = reach * (dur_a + float(np.max(b.end - b.start)))
        lo = np.searchsorted(b.start, a.start - half, side="left")
        hi = np.searchsorted(b.start, a.start + half, side="right")
    else:  # no positional term: every pair is in reach
        lo = np.zeros(na, dtype=np.int64)
        hi = np.full(na, nb, dtype=np.int64)
    counts = (hi - lo).astype(np.int64)
    i = np.repeat(np.arange(na, dtype=np.int64), counts)
    offsets = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    j = np.repeat(lo.astype(np.int64), counts) + offsets
    cost = dis.combined(a.start[i], a.end[i], a.category[i], b.start[j], b.end[j], b.category[j])
    keep = cost <= bound
    return i[keep], j[keep], cost[keep]
