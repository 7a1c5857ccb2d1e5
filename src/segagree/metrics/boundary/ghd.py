"""Generalised Hamming distance (GHD) as NLTK computes it.

Bookstein, Kulyukin & Raita (2002), "Generalized Hamming Distance", Information Retrieval 5:
the cost of turning the hypothesis's boundaries into the reference's by boundary insertions
(``ins_cost`` each), deletions (``del_cost`` each) and shifts (``shift_cost_coeff`` x the
distance moved). segagree reproduces ``nltk.metrics.segmentation.ghd`` (NLTK 3.x) number for
number, including its particular dynamic programme: with hypothesis boundaries h_1 < ... < h_H
(rows) and reference boundaries r_1 < ... < r_R (columns),

    D[0, j] = ins_cost * j,   D[i, 0] = del_cost * i,
    D[i, j] = min(shift_cost_coeff * |h_i - r_j| + D[i-1, j-1],  T[i, j])
    T[i, j] = D[i-1, j-1]              if h_i == r_j
              del_cost + D[i-1, j]     if h_i >  r_j
              ins_cost + D[i, j-1]     if h_i <  r_j

and GHD = D[H, R] (R * ins_cost when the hypothesis has no boundary, H * del_cost when the
reference has none, 0 when neither has). NLTK fills D cell by cell in Python; here each row is
one vectorised step: the cells with h_i >= r_j depend on the row above only, and the run of
cells with h_i < r_j, ``x_j = min(x_{j-1} + ins_cost, s_j)``, is a running minimum
(``x_j = ins_cost * j + min_k<=j (s_k - ins_cost * k)``), so a text with B boundaries costs
O(B^2) arithmetic in O(B) memory, without NLTK's 10,000-position limit. Sums of floats may
differ from NLTK's cell-by-cell order in the last bits when the costs are not integers.

Positions are gaps: a text of N units has N - 1 gaps (NLTK's boundary strings of N - 1
characters); the boundary after the last token of a stream is the text's end, not a gap.
GHD is a distance (0 = identical, lower is better) and adds up over speakers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from segagree.errors import UsageError
from segagree.metrics.boundary.masses import Format, as_pair
from segagree.metrics.boundary.stats import AdditiveStats, signature
from segagree.metrics.contract import Card, TokenPair
from segagree.metrics.token_measure import BoundaryMeasure

GHD_CARD = Card.from_text(
    """
    title: Generalised Hamming distance (GHD)
    definition: cheapest way to turn B's boundaries into A's by insertions, deletions and shifts (shift
        cost = coefficient x distance), by NLTK's dynamic programme; summed over speakers
    citation: Bookstein, Kulyukin & Raita (2002), Generalized Hamming Distance, Information Retrieval 5
    parameters:
        ins_cost = 2.0
        del_cost = 2.0
        shift_cost_coeff = 1.0
        boundary = '1' (NLTK strings)
    better: lower
    group: boundary
    reference: NLTK 3.10.4 nltk.metrics.segmentation.ghd
    """,
    name="ghd",
)

DEFAULTS = {"ins_cost": 2.0, "del_cost": 2.0, "shift_cost_coeff": 1.0}


@dataclass(frozen=True)
class GhdStats(AdditiveStats):
    """Additive statistics of GHD: the cost, and the boundaries and gaps it was computed over."""

    metric: str
    cost: float
    ref_boundaries: int
    hyp_boundaries: int
    gaps: int

    @property
    def value(self) -> float:
        """The pooled GHD: the summed cost (streams are independent, so costs add)."""
        return float(self.cost)


@dataclass(frozen=True)
class GhdResult:
    """GHD of one pair of segmentations."""

    value: float
    stats: GhdStats
    params: dict[str, float]
    signature: str


def ghd_cost(
    ref_positions: Sequence[int] | np.ndarray,
    hyp_positions: Sequence[int] | np.ndarray,
    ins_cost: float = 2.0,
    del_cost: float = 2.0,
    shift_cost_coeff: float = 1.0,
) -> float:
    """NLTK's GHD dynamic programme on two ascending lists of boundary positions."""
    ref = np.asarray(ref_positions, dtype=np.float64)
    hyp = np.asarray(hyp_positions, dtype=np.float64)
    n_ref, n_hyp = len(ref), len(hyp)
    if n_ref == 0 and n_hyp == 0:
        return 0.0
    if n_hyp == 0:
        return float(n_ref * ins_cost)
    if n_ref == 0:
        return float(n_hyp * del_cost)
    cols = np.arange(n_ref + 1, dtype=np.float64)
    prev = ins_cost * cols  # row 0
    cur = np.empty(n_ref + 1)
    for i, h in enumerate(hyp):
        cur[0] = del_cost * (i + 1)
        shift = shift_cost_coeff * np.abs(h - ref) + prev[:-1]
        g = int(np.searchsorted(ref, h, side="right"))  # columns 0..g-1 have r_j <= h_i
        if g:
            head = np.where(ref[:g] == h, prev[:g], del_cost + prev[1 : g + 1])
            cur[1 : g + 1] = np.minimum(head, shift[:g])
        if g < n_ref:
            # x_{j+1} = min(x_j + ins, s_j) from x_g = cur[g]: a running minimum.
            k = cols[g + 1 :]  # = j + 1 for j = g .. R-1
            start = cur[g] - ins_cost * g
            run = np.minimum.accumulate(np.concatenate(([start], shift[g:] - ins_cost * k)))
            cur[g + 1 :] = np.minimum(ins_cost * k + run[1:], shift[g:])
        prev, cur = cur, prev
    return float(prev[-1])


def _positions(x: Any, boundary: Any) -> list[int]:
    return [i for i, v in enumerate(x) if v == boundary]


def ghd(
    reference: Any,
    hypothesis: Any,
    ins_cost: float = 2.0,
    del_cost: float = 2.0,
    shift_cost_coeff: float = 1.0,
    boundary: Any = "1",
    *,
    fmt: Format | Literal["nltk"] | None = None,
) -> GhdResult:
    """Generalised Hamming distance of a hypothesis from a reference, as ``nltk.metrics.segmentation.ghd``.

    Args:
        reference, hypothesis: NLTK boundary strings or sequences (``"0100"``; the element equal
            to ``boundary`` marks a boundary at that gap) when both are strings or
            ``fmt="nltk"``; otherwise masses, gap sets or per-token codes (``fmt``), as every
            segagree metric takes them.
        ins_cost, del_cost: the cost of inserting / deleting a boundary (NLTK defaults 2.0).
        shift_cost_coeff: a shift of d positions costs ``shift_cost_coeff * d`` (default 1.0).
        boundary: the boundary value of NLTK-style inputs (default ``"1"``).
        fmt: ``"nltk"``, or ``"masses"``, ``"sets"`` or ``"codes"`` for segagree-style inputs.

    Returns:
        :class:`GhdResult`; ``value`` equals NLTK's ``ghd(reference, hypothesis, ...)``.
    """
    for name, v in (("ins_cost", ins_cost), ("del_cost", del_cost), ("shift_cost_coeff", shift_cost_coeff)):
        if not np.isfinite(v) or v < 0:
            raise UsageError(f"ghd: {name} must be a finite number >= 0, not {v!r}")
    ref_pos: Sequence[int] | np.ndarray
    hyp_pos: Sequence[int] | np.ndarray
    if fmt == "nltk" or (fmt is None and isinstance(reference, str) and isinstance(hypothesis, str)):
        if len(reference) != len(hypothesis):
            raise UsageError(f"ghd: the segmentations differ in length ({len(reference)} vs {len(hypothesis)})")
        ref_pos, hyp_pos = _positions(reference, boundary), _positions(hypothesis, boundary)
        gaps = len(reference)
    else:
        ref_seg, hyp_seg = as_pair(reference, hypothesis, fmt, names=("reference", "hypothesis"))
        ref_pos, hyp_pos = ref_seg.boundary_positions(), hyp_seg.boundary_positions()
        gaps = ref_seg.n_gaps
    cost = ghd_cost(ref_pos, hyp_pos, ins_cost, del_cost, shift_cost_coeff)
    params = {"ins_cost": float(ins_cost), "del_cost": float(del_cost), "shift_cost_coeff": float(shift_cost_coeff)}
    stats = GhdStats(GHD_CARD.name, cost, len(ref_pos), len(hyp_pos), gaps)
    sig = signature(GHD_CARD.name, **{"ins": f"{ins_cost:g}", "del": f"{del_cost:g}", "shift": f"{shift_cost_coeff:g}"})
    return GhdResult(cost, stats, params, sig)


class GhdMeasure(BoundaryMeasure):
    """GHD as a measure (the contract: :mod:`segagree.metrics.contract`)."""

    card = GHD_CARD
    options = ("ins_cost", "del_cost", "shift_cost_coeff")

    def result(self, a: Any, b: Any, fmt: Format, options: Mapping[str, Any], item: TokenPair) -> GhdResult:
        return ghd(a, b, fmt=fmt, **options)


MEASURES = (GhdMeasure(),)
