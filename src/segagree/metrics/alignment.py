"""Alignment-based segmentation similarity A (CoNLL 2022).

"An Alignment-Based Approach to Text Segmentation Similarity Scoring" (CoNLL 2022) scores two
segmentations by aligning their *segments*. This module implements the measure from the
paper's description (the authors' code has no licence and was not used):

* A segment is an inclusive range of units. Every segment x of either segmentation is aligned
  to one overlapping segment y of the other, the most likely partner:

  1. y maximises the intersect ratio ``|x & y| / |x|`` (the share of x that y covers);
  2. ties go to the higher Jaccard ``|x & y| / |x | y|`` (the shorter y);
  3. remaining ties go to the leftmost y.

* Each segment contributes the undirected edge {x, y}; duplicate edges (a mutual pair) count
  once. A is the mean Jaccard over the distinct edges (not weighted by length), so identical
  segmentations score 1 and two unsegmented texts score 1.

The overlapping pairs are the pieces of the common refinement of both segmentations, so the
whole computation is O(N) after the boundaries are known (O(number of segments) with numpy).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from segagree.metrics.masses import Format, as_pair
from segagree.metrics.stats import AlignmentStats, signature


class AlignedPair(NamedTuple):
    """An alignment edge: segment ``a`` of the first and ``b`` of the second segmentation
    (0-based segment indices), their intersection and union in units."""

    a: int
    b: int
    intersection: int
    union: int

    @property
    def jaccard(self) -> Fraction:
        """``intersection / union`` as an exact fraction."""
        return Fraction(self.intersection, self.union)


@dataclass(frozen=True, eq=False)
class AlignmentResult:
    """A between two segmentations.

    Attributes:
        value: mean Jaccard of the aligned pairs, in (0, 1].
        pairs: the distinct alignment edges, sorted by (a, b), for display.
        partner_of_a: for each segment of ``a``, the index of its partner in ``b``.
        partner_of_b: for each segment of ``b``, the index of its partner in ``a``.
        stats: Jaccard sum and pair count, additive over speakers.
        signature: ``a|v:<version>``.
    """

    value: float
    pairs: tuple[AlignedPair, ...]
    partner_of_a: tuple[int, ...]
    partner_of_b: tuple[int, ...]
    stats: AlignmentStats
    signature: str

    @property
    def exact(self) -> Fraction:
        """A as an exact fraction (sum of the pairs' Jaccard fractions / number of pairs)."""
        return sum((p.jaccard for p in self.pairs), Fraction(0)) / len(self.pairs)


def _best_partners(own: np.ndarray, other: np.ndarray, inter: np.ndarray, other_len: np.ndarray) -> np.ndarray:
    """For each segment index in ``own`` (grouped, ascending), the partner index in ``other``:
    max intersection, then shortest partner (highest Jaccard), then leftmost."""
    order = np.lexsort((other, other_len, -inter, own))
    own_sorted = own[order]
    first = np.ones(own_sorted.size, dtype=bool)
    first[1:] = own_sorted[1:] != own_sorted[:-1]
    return order[first]


def alignment_similarity(a: Any, b: Any, *, fmt: Format | None = None) -> AlignmentResult:
    """A (CoNLL 2022): mean Jaccard of a maximum-likelihood alignment of the segments.

    Each segment of either segmentation is aligned to the overlapping segment of the other that
    covers the largest share of it (ties: higher Jaccard, then leftmost); A is the mean Jaccard
    ``|x & y| / |x | y|`` over the distinct aligned pairs. A is symmetric, lies in (0, 1], is 1
    for identical segmentations, and is linear in the text length.

    Args:
        a, b: masses, gap sets or (with ``fmt="codes"``) per-token code arrays.
        fmt: ``"masses"``, ``"sets"`` or ``"codes"``; None guesses masses or sets.

    Returns:
        The value, the alignment edges (for display) and additive statistics.
    """
    sa, sb = as_pair(a, b, fmt)
    n = sa.n_units
    ea = np.concatenate(([0], sa.boundary_positions() + 1, [n]))  # segment edges of a
    eb = np.concatenate(([0], sb.boundary_positions() + 1, [n]))
    la, lb = np.diff(ea), np.diff(eb)
    # pieces of the common refinement: one per overlapping (segment of a, segment of b) pair
    cuts = np.union1d(ea, eb)
    starts, inter = cuts[:-1], np.diff(cuts)
    ia = np.searchsorted(ea, starts, side="right") - 1
    ib = np.searchsorted(eb, starts, side="right") - 1
    best_a = _best_partners(ia, ib, inter, lb[ib])  # piece index per segment of a
    best_b = _best_partners(ib, ia, inter, la[ia])  # piece index per segment of b
    chosen = np.unique(np.concatenate((best_a, best_b)))  # a piece is a pair: dedupe edges
    pa, pb, pi = ia[chosen], ib[chosen], inter[chosen]
    pu = la[pa] + lb[pb] - pi
    pairs = tuple(
        AlignedPair(x, y, i, u) for x, y, i, u in zip(pa.tolist(), pb.tolist(), pi.tolist(), pu.tolist(), strict=True)
    )
    jsum = math.fsum((pi / pu).tolist())
    stats = AlignmentStats("a", jsum, len(pairs))
    return AlignmentResult(
        value=stats.value,
        pairs=pairs,
        partner_of_a=tuple(ib[best_a].tolist()),
        partner_of_b=tuple(ia[best_b].tolist()),
        stats=stats,
        signature=signature("a"),
    )
