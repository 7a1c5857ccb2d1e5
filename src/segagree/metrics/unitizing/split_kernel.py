"""The compiled split test of gamma's candidate groups (:func:`segagree.metrics.unitizing.gamma_alignment`'s
``_no_better_split``): one pass over the groups, no temporaries of groups × cuts.

A group fails when some cut into two non-empty sides has ``Σ_{pairs across} excess > limit``. Each cut's
sum adds its crossing pairs' excesses one by one in pair order, starting from 0, as the uncompiled test
does, so both give the same decisions bit for bit.
"""

from __future__ import annotations

import numpy as np

from segagree.metrics.numba_import import require_njit

__all__ = ["passes_every_cut"]

njit = require_njit()  # numba without its BLAS probe (segagree.metrics.numba_import)


@njit(cache=True, nogil=True)
def passes_every_cut(
    excess: np.ndarray, present: np.ndarray, crossing: np.ndarray, sides: np.ndarray, limit: float
) -> np.ndarray:  # pragma: no cover - compiled; checked against the uncompiled test in the tests
    """For each group (row of ``excess``, groups × pairs; ``present``, groups × annotators), whether every
    cut passes. ``crossing[k]``: the pairs cut k separates, in pair order, -1 padded; ``sides[k, a]``:
    annotator a is on cut k's first side."""
    groups, n = present.shape
    cuts, width = crossing.shape
    out = np.ones(groups, dtype=np.bool_)
    for r in range(groups):
        for k in range(cuts):
            left = False
            right = False
            for a in range(n):
                if present[r, a]:
                    if sides[k, a]:
                        left = True
                    else:
                        right = True
            if not (left and right):
                continue
            total = 0.0
            for j in range(width):
                p = crossing[k, j]
                if p < 0:
                    break
                total += excess[r, p]
            if total > limit:
                out[r] = False
                break
    return out
