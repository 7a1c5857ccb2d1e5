"""The simulated chance agreement A_e of sf_kappa against its exact value, by enumeration.

On a tiny input every pair of chance annotations can be listed with its probability: A's code
at each position drawn from A's distribution, B's from B's, all independently (Cohen: each
annotator's own code frequencies per speaker; Scott: the two averaged), each pair scored by
the plain S_f metric (``sf_speaker``) and pooled over speakers (summed cost over summed tokens
or edits). That gives the exact mean and per-draw standard deviation of the pooled chance S_f
and S_f^B, with transpositions, where no closed form exists. segagree's simulated mean must lie
within 4.5 of its Monte Carlo standard errors of it (K = 10^6 simulations, a fraction of a
second): a bias of about 0.001 in A_e would fail. bench/check_kappa_chance.py runs the same
comparison on more inputs and against a plain simulation loop on larger ones.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

import numpy as np
import pytest

from segagree.metrics.boundary.sf import sf_speaker
from segagree.metrics.chance.sf_kappa import sf_kappa
from segagree.model.scheme import builtin_scheme

K = 1_000_000


def _frequencies(x: list[int], k: int) -> np.ndarray:
    return np.array([x.count(c) for c in range(k)], dtype=float) / len(x)


def _law(pa: np.ndarray, pb: np.ndarray, n: int, scheme) -> dict[tuple[float, int], float]:
    """Exact distribution of one speaker's chance (cost, edits)."""
    law: dict[tuple[float, int], float] = defaultdict(float)
    sa, sb = np.flatnonzero(pa), np.flatnonzero(pb)
    for x in itertools.product(sa, repeat=n):
        px = math.prod(pa[c] for c in x)
        for y in itertools.product(sb, repeat=n):
            st = sf_speaker(np.array(x), np.array(y), scheme, with_operations=False)[0]
            law[(round(st.cost, 9), st.edits)] += px * math.prod(pb[c] for c in y)
    return law


def _exact_chance(a: dict, b: dict, scheme, chance: str) -> dict[str, tuple[float, float]]:
    """Exact mean and sd of the pooled chance S_f and S_f^B."""
    k = scheme.n_codes
    pooled: dict[tuple[float, int], float] = {(0.0, 0): 1.0}
    for s in sorted(a):
        fa, fb = _frequencies(a[s], k), _frequencies(b[s], k)
        pa, pb = (fa, fb) if chance == "cohen" else ((fa + fb) / 2, (fa + fb) / 2)
        law = _law(pa, pb, len(a[s]), scheme)
        nxt: dict[tuple[float, int], float] = defaultdict(float)
        for (c1, e1), p1 in pooled.items():  # speakers are independent: convolve
            for (c2, e2), p2 in law.items():
                nxt[(round(c1 + c2, 9), e1 + e2)] += p1 * p2
        pooled = nxt
    n = sum(len(x) for x in a.values())
    probs = np.array(list(pooled.values()))
    assert probs.sum() == pytest.approx(1.0, abs=1e-12)
    cost = np.array([c for c, _ in pooled])
    edits = np.array([e for _, e in pooled])
    out = {}
    for metric, v in (("sf", 1 - cost / n), ("sf_b", np.where(edits > 0, 1 - cost / np.maximum(edits, 1), 1.0))):
        mean = float(probs @ v)
        out[metric] = (mean, math.sqrt(float(probs @ (v - mean) ** 2)))
    return out


CASES = {
    # dubois: identity similarities, transposition 0.5 per token (pairs up to 3 tokens apart)
    "dubois cohen, one speaker": ("dubois", "cohen", {"S": [0, 1, 0, 2, 0]}, {"S": [1, 0, 0, 0, 1]}),
    # lai2023: graded similarities, type-dependent transposition costs, unclassified (5) free
    "lai2023 cohen, two speakers": (
        "lai2023",
        "cohen",
        {"P": [0, 1, 0, 2, 0], "Q": [0, 5, 0, 1]},
        {"P": [2, 0, 0, 0, 0], "Q": [1, 0, 4, 0]},
    ),
    "subtitle scott, two speakers": (
        "subtitle",
        "scott",
        {"P": [0, 2, 0, 1], "Q": [1, 0, 0]},
        {"P": [0, 0, 1, 0], "Q": [0, 2, 0]},
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_simulated_chance_agreement_equals_exact_enumeration(case: str) -> None:
    name, chance, a, b = CASES[case]
    scheme = builtin_scheme(name)
    exact = _exact_chance(a, b, scheme, chance)
    res = sf_kappa(a, b, scheme, chance=chance, sims=K, seed=20261123, per_speaker=False)
    for metric in ("sf", "sf_b"):
        est = res.pooled[metric]
        mean, sd = exact[metric]
        se = est.chance_sd / math.sqrt(K)
        z = (est.chance_mean - mean) / se
        assert abs(z) < 4.5, (metric, est.chance_mean, mean, se, z)
        assert est.chance_sd == pytest.approx(sd, rel=0.01), metric
        # kappa follows: the same observed value corrected with the exact A_e
        kappa = (est.observed - mean) / (1 - mean)
        assert est.kappa == pytest.approx(kappa, abs=4.5 * est.se + 1e-12), metric
