"""The three S_f aligners share one cost table and one band (segagree.metrics.boundary.costs) and give the
same cost and edits on the same streams: the exact alignment (metrics.boundary.sf.sf_speaker), the
batched numpy scorer and the compiled kernel of the kappa simulation (metrics.chance.sf_kappa.score_pairs).
The band is checked against brute force: no pair beyond the reach is ever cheaper."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

import segagree.metrics.chance.sf_kappa as sf_kappa
from segagree.metrics.boundary.costs import EPS, CostTable
from segagree.metrics.boundary.sf import sf_speaker
from segagree.model.scheme import BoundaryScheme, builtin_scheme


def _schemes() -> list[BoundaryScheme]:
    dubois = builtin_scheme("dubois")
    cheap = np.asarray(dubois.transposition, dtype=float) * 0.2  # cheap moves: a wide band
    return [
        dubois,
        builtin_scheme("lai2023"),
        builtin_scheme("segsimflex-vignette"),
        dataclasses.replace(dubois, name="cheap-moves", transposition=cheap),
    ]


def _streams(scheme: BoundaryScheme, seed: int, rows: int = 40) -> tuple[list[np.ndarray], list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    k = scheme.n_codes
    a, b = [], []
    for _ in range(rows):
        n = int(rng.integers(1, 60))
        p = rng.dirichlet(np.ones(k) * 0.5)
        p[0] += 3  # mostly no boundary, as in annotations
        p /= p.sum()
        x = rng.choice(k, size=n, p=p)
        y = x.copy()
        moved = rng.random(n) < 0.3
        y[moved] = rng.choice(k, size=int(moved.sum()), p=p)
        a.append(x.astype(np.int64))
        b.append(y.astype(np.int64))
    return a, b


@pytest.mark.parametrize("scheme", _schemes(), ids=lambda s: s.name)
@pytest.mark.parametrize("kernel", [False, True], ids=["numpy", "kernel"])
def test_the_three_aligners_give_the_same_numbers(scheme: BoundaryScheme, kernel: bool, monkeypatch) -> None:
    monkeypatch.setattr(sf_kappa, "_USE_KERNEL", kernel)
    a, b = _streams(scheme, seed=len(scheme.name))
    cost, edits = sf_kappa.score_pairs(a, b, scheme, mode="optimal", transpositions=True)
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        exact = sf_speaker(x, y, scheme, mode="optimal", with_operations=False)[0]
        assert cost[i] == pytest.approx(exact.cost, abs=1e-9), (scheme.name, i)
        assert edits[i] == exact.edits, (scheme.name, i)


@pytest.mark.parametrize("scheme", _schemes(), ids=lambda s: s.name)
def test_no_pair_beyond_the_reach_is_cheaper(scheme: BoundaryScheme) -> None:
    """Brute force over every pair of types and distances up to twice the reach."""
    table = CostTable(scheme)
    k = scheme.n_codes
    if table.reach == float("inf"):  # a free move with a positive gain: no band
        gains = [table.dele[x] + table.ins[y] - table.c[x, y] for x, y in itertools.product(range(1, k), repeat=2)]
        assert min(table.trans[1:]) <= 0 and max(gains) > EPS
        return
    longest = 0
    for x, y in itertools.product(range(1, k), repeat=2):
        for t in (table.trans[x], table.trans[y]):
            for d in range(1, int(2 * table.reach) + 3):
                if t * d + table.c[x, y] < table.dele[x] + table.ins[y] - EPS:
                    longest = max(longest, d)
    assert longest == table.reach
