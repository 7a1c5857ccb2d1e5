"""The kappa simulation's numbers for a fixed seed are pinned: a faster kernel must give the same
draws, the same blocks and the same sums, to the last bit.

The expected values below were computed by the code of commit 8af779b (before the kernel was
reworked for speed), from the inputs built here with integer arithmetic only (no random
generator whose stream could change between numpy versions).
"""

from __future__ import annotations

import numpy as np
import pytest

import segagree.metrics.chance.sf_kappa as agr
from segagree.metrics.chance.sf_kappa import sf_kappa
from segagree.model.scheme import builtin_scheme


def _codes(n: int, salt: int, k: int) -> np.ndarray:
    """About 70 % no boundary, the rest spread over codes 1..k-1, from an integer hash."""
    i = np.arange(n, dtype=np.int64)
    h = (i * 2654435761 + salt * 40503) % 1000003 % 100
    return np.where(h < 70, 0, 1 + (h % (k - 1)))


def _pair(k: int) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Three speakers of 20,000-22,000 tokens; B redraws every tenth of A's positions."""
    a = {f"S{s}": _codes(20000 + 1000 * s, s, k) for s in range(3)}
    b = {}
    for s, x in a.items():
        y = x.copy()
        flip = (np.arange(x.size) * 7919 + 13 * int(s[1])) % 10 == 0
        y[flip] = _codes(x.size, 99 + int(s[1]), k)[flip]
        b[s] = y
    return a, b


# scheme -> (kappa, chance mean, chance sd) of S_f and S_f^B, summed simulated cost and edits,
# and the simulated costs of draw 123 per speaker (sims=300, seed=2024); from commit 8af779b.
PINNED = {
    "dubois": (
        (0.9291835276211138, 0.5721110317460318, 0.0016545980665748359),
        (0.9038621985978206, 0.0006586093534563053, 0.001673873513661875),
        8087101.5,
        8092442,
        (8582.5, 9088.5, 9452.5),
    ),
    "lai2023": (
        (0.9122192189893831, 0.7635704761904761, 0.001460282174701394),
        (0.8866652788250846, 0.41837038405331567, 0.002713794654537104),
        4468518.0,
        7682757,
        (4752.75, 5029.25, 5254.875),
    ),
    "subtitle": (
        (0.8770190368891556, 0.634089708994709, 0.0015283218328666804),
        (0.8382721497787191, 0.1177932376825249, 0.0020716321928442864),
        6915704.5,
        7839111,
        (7362.5, 7744.5, 8044.0),
    ),
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_simulated_kappa_is_pinned_for_a_seed(name: str) -> None:
    """The compiled kernel's numbers (tests/metrics/test_agreement_simulation.py checks that the
    numpy path gives the kernel's numbers bit for bit)."""
    assert agr._kernel("score_draws") is not None, "numba is a dependency: the kernel must be there"
    scheme = builtin_scheme(name)
    a, b = _pair(scheme.n_codes)
    res = sf_kappa(a, b, scheme, sims=300, seed=2024)
    sf, sf_b, cost, edits, draw123 = PINNED[name]
    for metric, (kappa, mean, sd) in (("sf", sf), ("sf_b", sf_b)):
        est = res.pooled[metric]
        assert (est.kappa, est.chance_mean, est.chance_sd) == (kappa, mean, sd), metric
    assert float(res.sim_cost.sum()) == cost
    assert int(res.sim_edits.sum()) == edits
    assert tuple(float(x) for x in res.sim_cost[:, 123]) == draw123
