"""gamma's split test of candidate groups (a group is dropped when some cut into two non-empty sides has
crossing excesses above C(n,2)·Δ∅): the compiled kernel and the uncompiled path against the definition."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import segagree.metrics.unitizing.gamma_alignment as alignment
from segagree.metrics.unitizing.dissimilarity import Dissimilarity, Track
from segagree.metrics.unitizing.split_kernel import passes_every_cut


def by_definition(excess: np.ndarray, present: np.ndarray, limit: float) -> np.ndarray:
    """Every group against every bipartition of its annotators, summed pair by pair in plain Python."""
    n = present.shape[1]
    pairs = list(itertools.combinations(range(n), 2))
    out = []
    for row, here in zip(excess, present, strict=True):
        fine = True
        for first in itertools.product([False, True], repeat=n):
            one = [a for a in range(n) if here[a] and first[a]]
            two = [a for a in range(n) if here[a] and not first[a]]
            if one and two:
                total = sum(float(row[p]) for p, (a, b) in enumerate(pairs) if first[a] != first[b])
                fine = fine and total <= limit
        out.append(fine)
    return np.array(out)


@pytest.mark.parametrize("seed", range(5))
def test_the_kernel_follows_the_definition(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 5
    pairs = list(itertools.combinations(range(n), 2))
    present = rng.random((300, n)) < 0.8
    excess = rng.normal(0.5, 2.0, (300, len(pairs)))
    for p, (a, b) in enumerate(pairs):  # a pair with an absent side has no excess
        excess[~(present[:, a] & present[:, b]), p] = 0.0
    limit = float(len(pairs))
    cuts = np.arange(1, 2 ** (n - 1))
    side = ((cuts[:, None] >> np.arange(n)[None, :]) & 1).astype(bool)
    crossing = np.full((cuts.size, len(pairs)), -1, dtype=np.int64)
    for k in range(cuts.size):
        across = [i for i, (a, b) in enumerate(pairs) if side[k, a] != side[k, b]]
        crossing[k, : len(across)] = across
    got = passes_every_cut(excess, present, crossing, side, limit)
    expected = by_definition(excess, present, limit)
    assert 0 < expected.sum() < expected.size  # both outcomes occur
    assert np.array_equal(got, expected)


def tracks(rng: np.random.Generator, n: int, units: int) -> list[Track]:
    base = np.cumsum(rng.uniform(0.3, 1.5, units))
    out = []
    for _ in range(n):
        s = base + rng.normal(0, 0.4, units)
        out.append(Track.build(s, s + rng.uniform(0.3, 1.2, units), rng.integers(0, 3, units), np.arange(units)))
    return out


@pytest.mark.parametrize("n", [4, 6])
def test_compiled_and_uncompiled_paths_keep_the_same_groups(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(n)
    ts, dis = tracks(rng, n, 30), Dissimilarity(1.0, 1.0, 1.0)
    monkeypatch.setattr(alignment, "_COMPILED_SPLIT_ROWS", 10**12)
    plain = alignment.candidate_groups(ts, dis)
    monkeypatch.setattr(alignment, "_COMPILED_SPLIT_ROWS", 0)
    compiled = alignment.candidate_groups(ts, dis)
    monkeypatch.setattr(alignment, "_no_better_split", lambda members, *_: np.ones(members.shape[0], dtype=bool))
    unfiltered = alignment.candidate_groups(ts, dis)
    assert np.array_equal(plain[0], compiled[0]) and np.array_equal(plain[1], compiled[1])
    assert plain[0].shape[0] < unfiltered[0].shape[0]  # the test drops groups here
