"""gamma's best alignment against brute force: every set partition of the units into valid groups."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.metrics.unitizing.dissimilarity import Dissimilarity, Track
from segagree.metrics.unitizing.gamma_alignment import alignment_disorder, best_alignment, group_disorders


def brute_force(tracks: list[Track], dis: Dissimilarity) -> float:
    """The minimum disorder over every partition of the units into groups of at most one unit per annotator.

    Every partition is walked; a group's disorder comes from the definition (``group_disorders``)
    once per distinct group (partitions share most of their groups), and the best partition's
    disorder is checked against ``alignment_disorder`` of its groups."""
    n = len(tracks)
    units = [(a, i) for a, t in enumerate(tracks) for i in range(len(t))]
    mean_units = len(units) / n
    group_cost: dict[tuple[int, ...], float] = {}
    best, best_groups = np.inf, [[-1] * n]

    def cost(row: list[int]) -> float:
        key = tuple(row)
        if key not in group_cost:
            group_cost[key] = float(group_disorders(np.array([row], dtype=np.int64), tracks, dis)[0])
        return group_cost[key]

    def walk(remaining: list[tuple[int, int]], groups: list[list[int]], total: float) -> None:
        nonlocal best, best_groups
        if not remaining:
            if total / mean_units < best:
                best, best_groups = total / mean_units, groups
            return
        (a0, i0), rest = remaining[0], remaining[1:]
        options = [[None, *(u for u in rest if u[0] == b)] for b in range(a0 + 1, n)]
        for combo in itertools.product(*options):
            row = [-1] * n
            row[a0] = i0
            used = {u for u in combo if u is not None}
            for b, i in used:
                row[b] = i
            walk([u for u in rest if u not in used], [*groups, row], total + cost(row))

    walk(units, [], 0.0)
    assert best == pytest.approx(alignment_disorder(np.array(best_groups, dtype=np.int64), tracks, dis), abs=1e-9)
    return best


def random_tracks(rng: np.random.Generator, n: int, most: int, point_chance: float = 0.0) -> list[Track]:
    tracks = []
    for _ in range(n):
        k = int(rng.integers(0, most + 1))
        s = np.round(rng.uniform(0, 10, k), 1)
        d = np.round(rng.uniform(0.2, 4, k), 1)
        d[rng.random(k) < point_chance] = 0.0
        tracks.append(Track.build(s, s + d, rng.integers(0, 3, k), np.arange(k)))
    return tracks


@pytest.mark.parametrize("seed", range(60))
def test_best_alignment_equals_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 5))
    tracks = random_tracks(rng, n, 4 if n < 4 else 3, point_chance=0.1)
    if sum(len(t) for t in tracks) == 0:
        tracks[0] = Track.build(np.array([1.0]), np.array([2.0]), np.array([0]), np.array([0]))
    dis = Dissimilarity(
        alpha=float(rng.choice([1.0, 0.5, 3.0])),
        beta=float(rng.choice([1.0, 0.0, 2.0])),
        delta_empty=float(rng.choice([1.0, 0.5, 2.0])),
    )
    got = best_alignment(tracks, dis)
    assert got.disorder == pytest.approx(brute_force(tracks, dis), abs=1e-9)
    # the reported groups are a partition of every unit, and their disorders are the definition's
    for a, t in enumerate(tracks):
        assert sorted(got.groups[got.groups[:, a] >= 0, a].tolist()) == list(range(len(t)))
    assert np.allclose(got.disorders, group_disorders(got.groups, tracks, dis))


@settings(max_examples=25)
@given(st.integers(0, 2**32 - 1), st.integers(3, 5))
def test_many_annotators_equal_brute_force(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    tracks = random_tracks(rng, n, 3 if n == 3 else 2)
    if sum(len(t) for t in tracks) == 0:
        return
    dis = Dissimilarity()
    assert best_alignment(tracks, dis).disorder == pytest.approx(brute_force(tracks, dis), abs=1e-9)


def test_duplicate_and_identical_units() -> None:
    """Exact duplicates within an annotator are kept (pygamma collapses them) and align one to one."""
    s, e = np.array([1.0, 1.0, 5.0]), np.array([3.0, 3.0, 6.0])
    tracks = [Track.build(s, e, np.zeros(3, dtype=int), np.arange(3)) for _ in range(3)]
    got = best_alignment(tracks, Dissimilarity())
    assert got.disorder == 0.0
    assert got.groups.shape == (3, 3)


def test_larger_two_annotator_case_equals_the_program() -> None:
    """Two annotators: the matching and the general set-partitioning program give the same optimum."""
    from segagree.metrics.unitizing.gamma_alignment import _solve_program

    rng = np.random.default_rng(5)
    tracks = random_tracks(rng, 2, 40)
    dis = Dissimilarity()
    by_program = alignment_disorder(_solve_program(tracks, dis), tracks, dis)
    assert best_alignment(tracks, dis).disorder == pytest.approx(by_program, abs=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_program_equals_scipy_milp(seed: int, capfd: pytest.CaptureFixture[str]) -> None:
    """The LP + reduced-cost-fixing solver (highspy) against scipy.optimize.milp on all candidates."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import csc_matrix

    from segagree.metrics.unitizing.gamma_alignment import _solve_program, candidate_groups

    rng = np.random.default_rng(100 + seed)
    tracks = random_tracks(rng, 3 + seed % 3, 12)
    dis = Dissimilarity()
    groups, costs = candidate_groups(tracks, dis)
    offsets = np.concatenate([[0], np.cumsum([len(t) for t in tracks])])
    present = groups >= 0
    matrix = csc_matrix(
        (np.ones(int(present.sum())), ((groups + offsets[:-1])[present], np.nonzero(present)[0])),
        shape=(int(offsets[-1]), groups.shape[0]),
    )
    ref = milp(
        costs,
        integrality=np.ones(costs.size),
        bounds=Bounds(0, 1),
        constraints=LinearConstraint(matrix, 1, 1),
        options={"mip_rel_gap": 0.0},
    )
    mean_units = offsets[-1] / len(tracks)
    assert alignment_disorder(_solve_program(tracks, dis), tracks, dis) == pytest.approx(ref.fun / mean_units, abs=1e-9)
    assert capfd.readouterr().out == ""  # HiGHS prints nothing


def test_ties_go_to_aligned_units() -> None:
    """A group costing exactly as much as its units alone is kept (as pygamma's solver returns it)."""
    # 3 annotators, alpha 3: d = 3·((4 + 16) / (16 + 4))² + 1 = 4, so the pair costs (4 + 2)/3 = 2 = 1 + 1
    tracks = [
        Track.build(np.array([44.0]), np.array([60.0]), np.array([1]), np.array([0])),
        Track.build(np.zeros(0), np.zeros(0), np.zeros(0, dtype=int), np.zeros(0, dtype=int)),
        Track.build(np.array([40.0]), np.array([44.0]), np.array([0]), np.array([0])),
    ]
    got = best_alignment(tracks, Dissimilarity(alpha=3.0))
    assert got.groups.tolist() == [[0, -1, 0]]
    assert got.disorder == pytest.approx(2.0 / (2 / 3))
    # two annotators: d = 2 Δ∅ exactly (pair or two units alone cost the same)
    pair = [
        Track.build(np.array([0.0]), np.array([1.0]), np.array([0]), np.array([0])),
        Track.build(np.array([1.0]), np.array([2.0]), np.array([1]), np.array([0])),
    ]
    assert best_alignment(pair, Dissimilarity()).groups.tolist() == [[0, 0]]


def test_branch_and_bound_equals_highs_on_fractional_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The depth-first branch and bound on a part finds the cover HiGHS's MIP finds (same cost; same
    columns where the optimum is unique), and gives way to it beyond its node budget."""
    from segagree.metrics.unitizing import gamma_alignment as al
    from segagree.metrics.unitizing.samplers import SAMPLERS

    parts = []
    original = al._branch_and_bound

    def keep(rows: np.ndarray, costs: np.ndarray, n_units: int) -> np.ndarray | None:
        parts.append((rows, costs, n_units))
        return original(rows, costs, n_units)

    monkeypatch.setattr(al, "_branch_and_bound", keep)
    rng = np.random.default_rng(11)
    base = np.cumsum(rng.uniform(0.3, 2.0, 60))
    tracks = []
    for _ in range(5):
        s = base + rng.normal(0, 0.3, base.size)
        tracks.append(
            Track.build(s, s + rng.uniform(0.3, 1.5, base.size), rng.integers(0, 3, base.size), np.arange(60))
        )
    for k in range(8):  # random continua: fractional LPs are common there
        sample = SAMPLERS["statistical"](tracks, (0.0, float(base[-1]) + 2), np.random.default_rng(k))
        best_alignment(sample, Dissimilarity())
    assert len(parts) >= 3
    for rows, costs, n_units in parts:
        by_search = original(rows, costs, n_units)
        by_highs = al._binary_program(rows, costs, n_units)
        assert by_search is not None
        assert float(costs[by_search].sum()) == pytest.approx(float(costs[by_highs].sum()), abs=1e-9)
        covered = np.sort(rows[by_search][rows[by_search] >= 0])
        assert np.array_equal(covered, np.arange(n_units))  # an exact cover
    monkeypatch.setattr(al, "_MAX_NODES", 1)
    rows, costs, n_units = parts[0]
    assert original(rows, costs, n_units) is None  # a fractional part needs more than its root
