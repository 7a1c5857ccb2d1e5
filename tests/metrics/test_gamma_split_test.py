"""gamma's candidate groups (the compiled search of group_kernel) against their definition, by brute force:
every tuple of one unit or none per annotator, kept when all its pairs are candidate pairs, every member u
has S_u = Σ_w (d(u, w) - Δ∅) <= C(n,2)·Δ∅, and (four or more units) no cut into two non-empty sides has
crossing excesses above C(n,2)·Δ∅."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import segagree.metrics.unitizing.gamma_alignment as alignment
from segagree.metrics.unitizing.dissimilarity import Dissimilarity, Track
from segagree.metrics.unitizing.resources import TooLarge


def tracks(rng: np.random.Generator, n: int, units: int, spread: float = 0.4) -> list[Track]:
    base = np.cumsum(rng.uniform(0.3, 1.5, units))
    out = []
    for _ in range(n):
        s = base + rng.normal(0, spread, units)
        out.append(Track.build(s, s + rng.uniform(0.3, 1.2, units), rng.integers(0, 3, units), np.arange(units)))
    return out


def by_definition(ts: list[Track], dis: Dissimilarity) -> dict[tuple[int, ...], float]:
    """Every kept group and its disorder, from every tuple, in plain Python."""
    n = len(ts)
    npairs = n * (n - 1) // 2
    empty = dis.delta_empty
    bound = npairs * empty

    def d(a: int, i: int, b: int, j: int) -> float:
        ta, tb = ts[a], ts[b]
        return float(dis.combined(ta.start[i], ta.end[i], ta.category[i], tb.start[j], tb.end[j], tb.category[j]))

    kept = {}
    for group in itertools.product(*[range(-1, len(t)) for t in ts]):
        here = [a for a in range(n) if group[a] >= 0]
        if not here:
            continue
        cost = {(a, b): d(a, group[a], b, group[b]) for a, b in itertools.combinations(here, 2)}
        if any(c > bound + (n - 1) * empty for c in cost.values()):
            continue
        slack = {u: sum(c - empty for p, c in cost.items() if u in p) for u in here}
        if any(s > bound * (1 + 1e-9) for s in slack.values()):
            continue
        splits = []
        if len(here) >= 4:
            for first in itertools.product([False, True], repeat=len(here)):
                side = dict(zip(here, first, strict=True))
                if any(first) and not all(first):
                    splits.append(sum(c - empty for (a, b), c in cost.items() if side[a] != side[b]))
        if any(total > bound * (1 + 1e-9) for total in splits):
            continue
        k = len(here)
        kept[group] = (sum(cost.values()) + (npairs - k * (k - 1) // 2) * empty) / npairs
    return kept


@pytest.mark.parametrize(
    ("n", "units", "spread", "seed"), [(3, 6, 0.4, 0), (4, 5, 0.4, 1), (4, 5, 2.0, 2), (5, 4, 0.6, 3)]
)
def test_candidate_groups_are_those_of_the_definition(n: int, units: int, spread: float, seed: int) -> None:
    ts, dis = tracks(np.random.default_rng(seed), n, units, spread), Dissimilarity(1.0, 1.0, 1.0)
    groups, disorders = alignment.candidate_groups(ts, dis)
    got = {tuple(int(u) for u in row): float(c) for row, c in zip(groups, disorders, strict=True)}
    expected = by_definition(ts, dis)
    assert len(got) == groups.shape[0]  # no group twice
    assert got.keys() == expected.keys()
    for group, cost in expected.items():
        assert got[group] == pytest.approx(cost, rel=1e-12, abs=1e-12)


def test_the_split_test_drops_groups() -> None:
    """Spread-out annotators: the groups of four or more that pass the S_u test but fail a cut exist, and
    the search drops them (the brute force above keeps them once its cut test is off)."""
    ts, dis = tracks(np.random.default_rng(2), 4, 5, 2.0), Dissimilarity(1.0, 1.0, 1.0)
    groups, _ = alignment.candidate_groups(ts, dis)
    kept = {tuple(int(u) for u in row) for row in groups}
    n, empty = 4, dis.delta_empty
    failing = 0
    for group in itertools.product(*[range(len(t)) for t in ts]):
        cost = {
            (a, b): float(
                dis.combined(
                    ts[a].start[group[a]],
                    ts[a].end[group[a]],
                    ts[a].category[group[a]],
                    ts[b].start[group[b]],
                    ts[b].end[group[b]],
                    ts[b].category[group[b]],
                )
            )
            for a, b in itertools.combinations(range(n), 2)
        }
        slack_ok = all(sum(c - empty for p, c in cost.items() if u in p) <= 6 * empty for u in range(n))
        cut_fails = any(
            sum(c - empty for (a, b), c in cost.items() if (a in side) != (b in side)) > 6 * empty * (1 + 1e-9)
            for side in ({0, 1}, {0, 2}, {0, 3})
        )
        if slack_ok and cut_fails:
            failing += 1
            assert group not in kept
    assert failing > 0


def test_more_groups_than_the_budget_are_refused() -> None:
    ts, dis = tracks(np.random.default_rng(4), 5, 30), Dissimilarity(1.0, 1.0, 1.0)
    groups, _ = alignment.candidate_groups(ts, dis)
    per_group = alignment.bytes_per_group(5)
    alignment.candidate_groups(ts, dis, budget=groups.shape[0] * per_group)  # exactly enough: no refusal
    with pytest.raises(TooLarge, match="candidate groups"):
        alignment.candidate_groups(ts, dis, budget=(groups.shape[0] - 1) * per_group)
