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
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np

from segagree.metrics.boundary.masses import Format, as_pair
from segagree.metrics.boundary.stats import AlignmentStats, signature
from segagree.metrics.contract import Card, TokenPair
from segagree.metrics.token_measure import BoundaryMeasure

A_CARD = Card.from_text(
    """
    title: Alignment-based similarity A
    definition: mean Jaccard over the distinct edges aligning every segment to its best-covering
        overlapping segment
    citation: An Alignment-Based Approach to Text Segmentation Similarity Scoring, CoNLL 2022
    group: boundary
    reference: the paper's code (values only)
    """,
    name="a",
)


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
        pair_arrays: the distinct edges as arrays (a index, b index, intersection, union),
            sorted by (a, b); :attr:`pairs` gives them as :class:`AlignedPair` tuples.
        partner_of_a: for each segment of ``a``, the index of its partner in ``b``.
        partner_of_b: for each segment of ``b``, the index of its partner in ``a``.
        stats: Jaccard sum and pair count, additive over speakers.
        signature: ``a|v:<version>``.
    """

    value: float
    pair_arrays: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] = field(repr=False)
    partner_of_a: np.ndarray = field(repr=False)
    partner_of_b: np.ndarray = field(repr=False)
    stats: AlignmentStats
    signature: str

    @cached_property
    def pairs(self) -> tuple[AlignedPair, ...]:
        """The distinct alignment edges, sorted by (a, b), for display."""
        cols = (c.tolist() for c in self.pair_arrays)
        return tuple(AlignedPair(*row) for row in zip(*cols, strict=True))

    @property
    def exact(self) -> Fraction:
        """A as an exact fraction (sum of the pairs' Jaccard fractions / number of pairs)."""
        return sum((p.jaccard for p in self.pairs), Fraction(0)) / len(self.pairs)


def _best_partners(group: np.ndarray, n_groups: int, key: np.ndarray) -> np.ndarray:
    """For pieces grouped by ``group`` (non-decreasing), the first piece of each group with the
    group's largest ``key``, in O(pieces)."""
    starts = np.flatnonzero(np.concatenate(([True], group[1:] != group[:-1])))
    best = np.maximum.reduceat(key, starts)
    hits = np.flatnonzero(key == best[group])
    first = np.concatenate(([True], group[hits][1:] != group[hits][:-1]))
    out = hits[first]
    assert out.size == n_groups
    return out


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
    pos_a, pos_b = sa.boundary_positions() + 1, sb.boundary_positions() + 1
    la = np.diff(np.concatenate(([0], pos_a, [n])))  # segment lengths
    lb = np.diff(np.concatenate(([0], pos_b, [n])))
    # pieces of the common refinement: one per overlapping (segment of a, segment of b) pair;
    # pieces are in text order, so both segment indices are non-decreasing
    mark_a = np.zeros(n, dtype=np.int64)
    mark_b = np.zeros(n, dtype=np.int64)
    mark_a[pos_a] = 1
    mark_b[pos_b] = 1
    starts = np.concatenate(([0], np.flatnonzero(mark_a | mark_b)))  # unit 0 never a boundary
    inter = np.diff(np.concatenate((starts, [n])))
    ia = np.cumsum(mark_a)[starts]
    ib = np.cumsum(mark_b)[starts]
    # best partner: largest intersection, then the shortest partner (higher Jaccard), then
    # the leftmost (the first piece of the group); one integer key, larger is better
    scale = n + 1
    best_a = _best_partners(ia, la.size, inter * scale - lb[ib])  # piece per segment of a
    best_b = _best_partners(ib, lb.size, inter * scale - la[ia])  # piece per segment of b
    chosen = np.zeros(starts.size, dtype=bool)
    chosen[best_a] = True  # a piece is a pair: marking dedupes mutual edges
    chosen[best_b] = True
    idx = np.flatnonzero(chosen)
    pa, pb, pi = ia[idx], ib[idx], inter[idx]
    pu = la[pa] + lb[pb] - pi
    jsum = math.fsum((pi / pu).tolist())
    stats = AlignmentStats(A_CARD.name, jsum, int(idx.size))
    return AlignmentResult(
        value=stats.value,
        pair_arrays=(pa, pb, pi, pu),
        partner_of_a=ib[best_a],
        partner_of_b=ia[best_b],
        stats=stats,
        signature=signature(A_CARD.name),
    )


class AlignmentMeasure(BoundaryMeasure):
    """A as a measure (the contract: :mod:`segagree.metrics.contract`)."""

    card = A_CARD

    def result(self, a: Any, b: Any, fmt: Format, options: Mapping[str, Any], item: TokenPair) -> AlignmentResult:
        return alignment_similarity(a, b, fmt=fmt)


MEASURES = (AlignmentMeasure(),)
