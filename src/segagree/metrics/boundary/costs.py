"""S_f's cost table of a boundary scheme and the longest distance a pair of boundaries can span: the one
table and the one band formula of the three aligners (:mod:`segagree.metrics.boundary.sf`'s exact
alignment, :mod:`segagree.metrics.chance.sf_kappa`'s batched scorer and its compiled kernels).

Costs (Lai, Li & Zhang 2023): substituting x by y costs ``1 - M[x, y]``; deleting x ``1 - M[x, none]``;
inserting y ``1 - M[none, y]``; pairing x with y at distance d adds ``transposition[later] * d``. A
pair is made only when strictly cheaper (by more than :data:`EPS`) than deleting x and inserting y.
"""

from __future__ import annotations

import numpy as np

from segagree.model.scheme import BoundaryScheme

__all__ = ["EPS", "CostTable", "pair_reach"]

#: Costs closer than this are equal (the aligners' tie rule).
EPS = 1e-12


def pair_reach(dele: np.ndarray, ins: np.ndarray, c: np.ndarray, trans: np.ndarray) -> float:
    """The longest distance d at which pairing some x with some y is strictly cheaper than deleting x
    and inserting y: the largest d with ``t * d < gain - EPS`` for ``gain = dele[x] + ins[y] - c[x, y]``
    and t either type's transposition cost; ``inf`` when a zero transposition cost meets a positive
    gain (no band then), 0 when no pair ever pays."""
    reach = 0.0
    k = c.shape[0]
    for x in range(1, k):
        for y in range(1, k):
            gain = dele[x] + ins[y] - c[x, y]
            if gain <= EPS:
                continue
            for t in (trans[x], trans[y]):
                if t <= 0:
                    reach = float("inf")
                    continue
                d = int(np.floor(gain / t))
                while d > 0 and not t * d < gain - EPS:
                    d -= 1
                while t * (d + 1) < gain - EPS:
                    d += 1
                reach = max(reach, float(d))
    return reach


class CostTable:
    """A scheme's costs: ``c[x, y]`` (substitution; ``c[x, 0]`` deletion, ``c[0, y]`` insertion), ``dele``,
    ``ins``, ``trans`` (per type) and ``reach`` (:func:`pair_reach`)."""

    def __init__(self, scheme: BoundaryScheme):
        self.scheme = scheme
        c = 1.0 - scheme.similarity
        self.c = c
        self.dele = c[:, 0].copy()
        self.ins = c[0, :].copy()
        self.trans = np.asarray(scheme.transposition, dtype=float)
        self.reach = pair_reach(self.dele, self.ins, c, self.trans)
