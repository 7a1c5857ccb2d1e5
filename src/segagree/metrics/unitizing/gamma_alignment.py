"""The exact best alignment of a continuum (Mathet, Widlöcher & Métivier 2015, section 4).

An alignment is a partition of every unit into groups holding at most one unit per annotator. A
group's disorder is the mean, over the C(n, 2) annotator pairs, of the pair cost: the
dissimilarity of two units, or Δ∅ where a side is empty (empty facing empty included). The
alignment's disorder is the sum of its groups' disorders divided by the mean number of units per
annotator (float; an annotator with no units counts in n). The best alignment minimises it.

So a group of k units costs ``(P + (C(n,2) - C(k,2)) · Δ∅) / C(n,2)``, P the sum of its unit pairs'
dissimilarities, and a unit alone costs Δ∅. This module finds the minimum exactly without
enumerating the ∏(n_i + 1) tuples that pygamma-agreement enumerates:

* **Pruning.** Taking unit u out of a group G into a group of its own changes the total by
  ``-(Σ_{w in G, w != u} (d(u, w) - Δ∅) - C(n,2) · Δ∅) / C(n,2)``, so some optimal alignment has only
  groups where, for every member u, ``S_u = Σ_w (d(u, w) - Δ∅) <= C(n,2) · Δ∅``. As each further
  member lowers S_u by at most Δ∅, a pair farther than ``(C(n,2) + n - 1) · Δ∅`` never shares a
  group, which bounds a time window: only units within it are scored.
* **Two annotators**: the groups are a matching; the total is ``Σ_matched d + Δ∅ · #unmatched``,
  found by a sparse min-cost full bipartite matching with a dummy partner per unit.
* **Three or more**: the candidate groups that survive the pruning (enumerated by the compiled
  search of :mod:`segagree.metrics.unitizing.group_kernel` from the window's pairs) form a
  set-partitioning binary program: its LP relaxation by HiGHS (highspy, the HiGHS bindings), then a
  branch and bound (see :func:`_solve_program`; checked against ``scipy.optimize.milp`` in the tests).

**Memory.** Before the pairs are scored their number is counted, and the candidate groups are
counted as they are found; beyond the budget (``budget`` bytes, default a share
of the memory available) :class:`segagree.metrics.unitizing.resources.TooLarge` says how to split the
input, instead of growing until the kernel kills the process.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from segagree.metrics.unitizing.dissimilarity import Dissimilarity, Track, candidate_pairs
from segagree.metrics.unitizing.resources import BYTES_PER_PAIR, bytes_per_group, default_budget, refuse

__all__ = ["Alignment", "alignment_disorder", "best_alignment", "check_pair_memory", "group_disorders"]

# Among equally good alignments, prefer aligned units to units left alone (as pygamma's solver
# returns them): each aligned unit beyond the first earns this much (times Δ∅) in the solvers only;
# the disorder reported is always recomputed from the definition.
_TIE_BREAK = 1e-7
# The program's objective is scaled so that HiGHS's absolute gap (1e-6) is far below 1e-9 here.
_OBJECTIVE_SCALE = 1e4
# Branch and bound on a part: nodes before HiGHS's MIP takes over; a node's LP must beat the best cover by
# more than this to be explored (HiGHS's own absolute gap is 1e-6 on costs scaled by 1e4); x within this
# of 0 or 1 counts as integral (HiGHS's MIP feasibility tolerance).
_MAX_NODES = 30
_PRUNE_TOLERANCE = 1e-10
_INTEGRAL = 1e-6
# Column generation: the first program takes this many groups per unit, each round at most this many more.
_FIRST_COLUMNS = 6
_ADDED_COLUMNS = 2000


@dataclass(frozen=True)
class Alignment:
    """A best alignment.

    Attributes:
        groups: (groups, annotators) int array: each group's unit per annotator, as the position in
            that annotator's :class:`Track` (sorted by start), -1 for empty; in order of their earliest
            start, then of their units.
        disorders: each group's disorder.
        mean_units: mean number of units per annotator (the divisor).
    """

    groups: np.ndarray
    disorders: np.ndarray
    mean_units: float

    @property
    def disorder(self) -> float:
        """The alignment's disorder: sum of the group disorders / mean units per annotator."""
        return float(np.sum(self.disorders)) / self.mean_units if self.mean_units > 0 else 0.0


def _pairs_count(n: int) -> int:
    return n * (n - 1) // 2


def group_disorders(groups: np.ndarray, tracks: Sequence[Track], dis: Dissimilarity) -> np.ndarray:
    """Each group's disorder, from the definition (the mean pair cost over the C(n, 2) pairs)."""
    n = len(tracks)
    total = np.zeros(groups.shape[0])
    for a in range(n):
        for b in range(a + 1, n):
            ia, ib = groups[:, a], groups[:, b]
            both = (ia >= 0) & (ib >= 0)
            cost = np.full(groups.shape[0], dis.delta_empty)
            ta, tb = tracks[a], tracks[b]
            ja, jb = ia[both], ib[both]
            cost[both] = dis.combined(
                ta.start[ja], ta.end[ja], ta.category[ja], tb.start[jb], tb.end[jb], tb.category[jb]
            )
            total += cost
    return total / _pairs_count(n)


def alignment_disorder(groups: np.ndarray, tracks: Sequence[Track], dis: Dissimilarity) -> float:
    """The disorder of any alignment (groups as in :class:`Alignment`), from the definition."""
    mean_units = sum(len(t) for t in tracks) / len(tracks)
    return float(np.sum(group_disorders(groups, tracks, dis))) / mean_units


def _pair_bound(n: int, dis: Dissimilarity) -> float:
    """The largest dissimilarity of a pair that can share a group (see the module docstring)."""
    return 2 * dis.delta_empty if n == 2 else (_pairs_count(n) + n - 1) * dis.delta_empty


def _window_pairs(a: Track, b: Track, dis: Dissimilarity, bound: float) -> int:
    """How many pairs :func:`candidate_pairs` will score (its windows, counted without allocating pairs)."""
    if len(a) == 0 or len(b) == 0:
        return 0
    if dis.alpha <= 0:
        return len(a) * len(b)
    reach = math.sqrt(bound / (dis.alpha * dis.delta_empty))
    half = reach * ((a.end - a.start) + float(np.max(b.end - b.start)))
    lo = np.searchsorted(b.start, a.start - half, side="left")
    hi = np.searchsorted(b.start, a.start + half, side="right")
    return int(np.sum(hi - lo))


def check_pair_memory(tracks: Sequence[Track], dis: Dissimilarity, budget: float | None = None) -> int:
    """The number of pairs the alignment will score; :class:`TooLarge` when they exceed the budget."""
    n = len(tracks)
    bound = _pair_bound(n, dis)
    pairs = sum(_window_pairs(tracks[a], tracks[b], dis, bound) for a in range(n) for b in range(a + 1, n))
    units = sum(len(t) for t in tracks)
    refuse(pairs * BYTES_PER_PAIR, budget, f"{pairs:,} unit pairs inside the time windows", units, n)
    return pairs


def best_alignment(tracks: Sequence[Track], dis: Dissimilarity, budget: float | None = None) -> Alignment:
    """The exact best alignment of two or more annotators' tracks (see the module docstring);
    ``budget`` bytes (None: a share of the memory available) bounds the memory it may take."""
    n = len(tracks)
    if n < 2:
        raise ValueError("an alignment needs two or more annotators")
    check_pair_memory(tracks, dis, budget)
    mean_units = sum(len(t) for t in tracks) / n
    groups = _match_two(tracks, dis) if n == 2 else _solve_program(tracks, dis, budget)
    # in time order; groups starting together by their units, so the listing does not depend on the solver
    keys = [groups[:, a] for a in reversed(range(n))]
    groups = groups[np.lexsort((*keys, _group_start(groups, tracks)))]
    return Alignment(groups, group_disorders(groups, tracks, dis), mean_units)


def _group_start(groups: np.ndarray, tracks: Sequence[Track]) -> np.ndarray:
    """Each group's earliest start (to list groups in time order)."""
    first = np.full(groups.shape[0], np.inf)
    for a, t in enumerate(tracks):
        present = groups[:, a] >= 0
        first[present] = np.minimum(first[present], t.start[groups[present, a]])
    return first


def _singletons(tracks: Sequence[Track]) -> list[np.ndarray]:
    n = len(tracks)
    out = []
    for a, t in enumerate(tracks):
        g = np.full((len(t), n), -1, dtype=np.int64)
        g[:, a] = np.arange(len(t))
        out.append(g)
    return out


def _match_two(tracks: Sequence[Track], dis: Dissimilarity) -> np.ndarray:
    """Two annotators: a min-cost full matching where each unit may take its own dummy (cost Δ∅).

    Left nodes are A's units then one dummy per B unit; right nodes are B's units then one dummy
    per A unit. Edges: (a_i, b_j) at d(i, j) for the pairs that can beat Δ∅ + Δ∅; (a_i, dummy_i) and
    (dummy_j, b_j) at Δ∅; (dummy_j, dummy_i) at 0 for the same candidate pairs, so every full
    matching is a partial matching of A with B plus unmatched units, at the same cost.
    """
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching

    a, b = tracks
    i, j, cost = candidate_pairs(a, b, dis, 2 * dis.delta_empty)
    cost = cost - _TIE_BREAK * dis.delta_empty  # a tie with leaving both alone goes to the pair
    na, nb = len(a), len(b)
    if i.size == 0:
        return np.concatenate(_singletons(tracks))
    ra, rb = np.arange(na), np.arange(nb)
    rows = np.concatenate([i, ra, na + rb, na + j])
    cols = np.concatenate([j, nb + ra, rb, nb + i])
    weights = np.concatenate([cost, np.full(na + nb, dis.delta_empty), np.zeros(i.size)])
    # every full matching has na + nb edges: a constant shift keeps the optimum and avoids stored zeros
    graph = coo_matrix((weights + 1.0, (rows, cols)), shape=(na + nb, na + nb)).tocsr()
    row_of, col_of = min_weight_full_bipartite_matching(graph)
    matched = (row_of < na) & (col_of < nb)
    pairs = np.stack([row_of[matched], col_of[matched]], axis=1).astype(np.int64)
    alone_a = np.setdiff1d(ra, pairs[:, 0])
    alone_b = np.setdiff1d(rb, pairs[:, 1])
    return np.concatenate(
        [
            pairs,
            np.stack([alone_a, np.full(alone_a.size, -1)], axis=1),
            np.stack([np.full(alone_b.size, -1), alone_b], axis=1),
        ]
    ).astype(np.int64)


@dataclass(frozen=True)
class PairTables:
    """Every annotator pair's candidate pairs (lo < hi), from lo's units, concatenated over the pairs.

    Row ``table_of[lo, hi] + u`` is lo's unit u in the pair's table (``len(lo's units) + 1`` rows
    each, the last one closing the table). As CSR: its partners ``partner[indptr[r]:indptr[r + 1]]``
    (sorted) and their ``cost``. As a strip for look-ups: d(u, v) is
    ``strip[strip_at[r] + v - strip_first[r]]`` for v from ``strip_first[r]`` to its last partner,
    -1 where (u, v) is no candidate pair.
    """

    table_of: np.ndarray
    indptr: np.ndarray
    partner: np.ndarray
    cost: np.ndarray
    strip_at: np.ndarray
    strip_first: np.ndarray
    strip: np.ndarray

    def allowance(self, sizes: np.ndarray, empty: float) -> np.ndarray:
        """(units of every annotator in turn) × annotators: ``[u, a]`` is how much the annotators after
        a can lower u's ``S_u`` at most, ``Σ_{a' > a} max(0, Δ∅ - u's cheapest candidate pair with a')``
        (a later member v adds ``d(u, v) - Δ∅`` to ``S_u``, and (u, v) must be a candidate pair)."""
        n = sizes.size
        at = np.concatenate([[0], np.cumsum(sizes)])
        cheapest = np.full((int(at[-1]), n), np.inf)
        for lo in range(n):
            for hi in range(lo + 1, n):
                first, last = self.table_of[lo, hi], self.table_of[lo, hi] + sizes[lo]
                counts = np.diff(self.indptr[first : last + 1])
                entries = slice(self.indptr[first], self.indptr[last])
                u = np.repeat(np.arange(sizes[lo]), counts)
                v, cost = self.partner[entries], self.cost[entries]
                np.minimum.at(cheapest[:, hi], at[lo] + u, cost)
                np.minimum.at(cheapest[:, lo], at[hi] + v, cost)
        lowers = np.maximum(0.0, empty - cheapest)  # inf (no pair) lowers nothing
        later = np.cumsum(lowers[:, ::-1], axis=1)[:, ::-1]  # [u, a]: annotators a and after
        return np.ascontiguousarray(np.concatenate([later[:, 1:], np.zeros((later.shape[0], 1))], axis=1))

    @classmethod
    def build(cls, tracks: Sequence[Track], dis: Dissimilarity, bound: float) -> PairTables:
        """The pairs within ``bound`` (:func:`candidate_pairs`)."""
        n = len(tracks)
        table_of = np.zeros((n, n), dtype=np.int64)
        parts: dict[str, list[np.ndarray]] = {k: [] for k in ("indptr", "partner", "cost", "at", "first", "strip")}
        rows = entries = cells = 0
        for lo in range(n):
            for hi in range(lo + 1, n):
                i, j, cost = candidate_pairs(tracks[lo], tracks[hi], dis, bound)  # sorted by i, then j
                counts = np.bincount(i, minlength=len(tracks[lo]))
                ends = np.cumsum(counts)
                has = counts > 0
                first = np.zeros(counts.size, dtype=np.int64)
                first[has] = j[(ends - counts)[has]]
                width = np.zeros(counts.size, dtype=np.int64)
                width[has] = j[ends[has] - 1] - first[has] + 1
                at = np.concatenate([[0], np.cumsum(width)])
                strip = np.full(int(at[-1]), -1.0)
                strip[at[i] + j - first[i]] = cost
                table_of[lo, hi] = rows
                rows += counts.size + 1
                parts["indptr"].append(entries + np.concatenate([[0], ends]))
                parts["at"].append(cells + at)
                parts["first"].append(np.concatenate([first, [0]]))
                parts["partner"].append(j)
                parts["cost"].append(cost)
                parts["strip"].append(strip)
                entries += j.size
                cells += strip.size
        joined = {k: np.concatenate(v) if v else np.zeros(0) for k, v in parts.items()}
        as_int = {k: joined[k].astype(np.int64) for k in ("indptr", "partner", "at", "first")}
        return cls(
            table_of,
            as_int["indptr"],
            as_int["partner"],
            joined["cost"].astype(np.float64),
            as_int["at"],
            as_int["first"],
            joined["strip"].astype(np.float64),
        )


def candidate_groups(
    tracks: Sequence[Track], dis: Dissimilarity, budget: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The groups that can appear in some best alignment (see the module docstring), and their costs;
    :class:`~segagree.metrics.unitizing.resources.TooLarge` beyond ``budget`` bytes.

    A group is kept when every member u has ``S_u <= C(n,2) · Δ∅`` and, with four or more units, every
    cut into two groups of two or more units has ``Σ_{pairs across} (d - Δ∅) <= C(n,2) · Δ∅`` (the
    singleton cuts are the ``S_u`` test); :mod:`segagree.metrics.unitizing.group_kernel` enumerates them.

    Returns (groups, disorders): groups as in :class:`Alignment` (singletons included), first
    annotator and unit first.
    """
    from segagree.metrics.unitizing.group_kernel import enumerate_groups

    n = len(tracks)
    npairs = _pairs_count(n)
    empty = dis.delta_empty
    bound = npairs * empty
    tables = PairTables.build(tracks, dis, bound + (n - 1) * empty)
    units = sum(len(t) for t in tracks)
    limit = default_budget() if budget is None else budget
    max_rows = int(min(limit // bytes_per_group(n), 2**62))
    sizes = np.array([len(t) for t in tracks], dtype=np.int64)
    t = tables
    members, pair_sum, size, rows = enumerate_groups(
        sizes,
        (t.table_of, t.indptr, t.partner, t.cost, t.strip_at, t.strip_first, t.strip),
        t.allowance(sizes, empty),
        empty,
        bound,
        1e-9 * bound,
        npairs * empty * (1 + 1e-9),
        max_rows,
    )
    if rows > max_rows:
        refuse(rows * bytes_per_group(n), limit, f"more than {max_rows:,} candidate groups", units, n)
    members, pair_sum, size = members[:rows], pair_sum[:rows], size[:rows]
    disorders = (pair_sum + (npairs - size * (size - 1) // 2) * empty) / npairs
    return members, disorders


def _solve_program(tracks: Sequence[Track], dis: Dissimilarity, budget: float | None = None) -> np.ndarray:
    """Three or more annotators: the set-partitioning program over the candidate groups, exactly.

    1. The LP relaxation (HiGHS simplex, by column generation). Its duals y give a lower bound ``LB = Σ y`` (corrected
       for any tiny dual infeasibility) and each group's reduced cost ``rc = cost - Σ_members y``.
       An integral LP solution whose cost is within 1e-9 of LB is optimal.
    2. Otherwise, since any solution costs ``LB + Σ rc`` of its groups, a group with
       ``rc > UB - LB`` is in no solution better than UB: the binary program (a depth-first branch
       and bound, HiGHS's MIP beyond 30 nodes) runs on the groups with ``rc <= θ`` (and the
       singletons), split into independent parts where only the parts with a fractional LP solution
       need branching; if its optimum UB
       has ``UB - LB <= θ`` it is optimal over all candidates, else θ doubles (at most to UB - LB).
    """
    groups, exact = candidate_groups(tracks, dis, budget)
    offsets = np.concatenate([[0], np.cumsum([len(t) for t in tracks])])
    n_units = int(offsets[-1])
    if groups.shape[0] == n_units:  # only singletons survived
        return groups
    size = (groups >= 0).sum(axis=1)
    costs = exact - _TIE_BREAK * dis.delta_empty * (size - 1)
    rows = np.where(groups >= 0, groups + offsets[:-1][None, :], -1)
    x, duals, reduced = _relaxation(rows, costs, size, n_units)
    slack = n_units * max(0.0, -float(reduced.min()))  # HiGHS's dual tolerance, made rigorous
    lower = float(duals.sum()) - slack
    chosen = np.flatnonzero(x > 0.5)
    if np.all((x < 1e-9) | (x > 1 - 1e-9)) and float(costs[chosen].sum()) - lower <= 1e-9:
        return groups[chosen]
    single = size == 1
    theta = 0.05 * dis.delta_empty
    while True:
        keep = np.flatnonzero((reduced <= theta + slack + 1e-9) | single)
        sel = keep[_binary_program_by_parts(rows[keep], costs[keep], x[keep], n_units)]
        gap = float(costs[sel].sum()) - lower
        if gap <= theta + 1e-9 or keep.size == costs.size:
            return groups[sel]
        theta = min(gap, 2 * theta)  # grow slowly: the next program stays small


def _binary_program_by_parts(rows: np.ndarray, costs: np.ndarray, x: np.ndarray, n_units: int) -> np.ndarray:
    """The best exact cover over these columns, one independent part at a time.

    The LP solution restricted to a part is optimal for that part's LP (the duals still certify
    it), so a part where it is integral keeps it; only the fractional parts go to branch and bound.
    """
    from segagree.metrics.unitizing.group_kernel import components

    part = components(rows, n_units)
    fractional = (x > 1e-9) & (x < 1 - 1e-9)
    hard = np.isin(part, np.unique(part[fractional]))
    chosen = [np.flatnonzero(~hard & (x > 0.5))]
    for label in np.unique(part[hard]):
        cols = np.flatnonzero(part == label)
        units = np.unique(rows[cols][rows[cols] >= 0])
        local = np.where(rows[cols] >= 0, np.searchsorted(units, np.maximum(rows[cols], 0)), -1)
        found = _branch_and_bound(local, costs[cols], units.size)
        chosen.append(cols[_binary_program(local, costs[cols], units.size) if found is None else found])
    return np.sort(np.concatenate(chosen))


class _TooManyNodes(Exception):
    """The search went beyond its node budget: HiGHS's branch and bound takes over."""


def _branch_and_bound(rows: np.ndarray, costs: np.ndarray, n_units: int) -> np.ndarray | None:
    """The columns of the best exact cover by a depth-first branch and bound on one warm-started LP
    (HiGHS's dual simplex after each bound change), or None beyond :data:`_MAX_NODES` nodes.

    A node fixes its largest fractional column to 1, then to 0; it is pruned when its LP optimum cannot beat the
    best cover found (by more than :data:`_PRUNE_TOLERANCE`) or is infeasible. These parts are small and
    nearly integral: a few nodes, where HiGHS's MIP machinery (cuts, probing, heuristics at the root)
    took ten times the LP's time.
    """
    import highspy

    solver = _partition_program(n_units)
    solver.setOptionValue("presolve", "off")
    _add_columns(solver, rows, costs, n_units, 1.0)
    best: list[Any] = [math.inf, None]
    nodes = [0]

    def visit() -> None:
        nodes[0] += 1
        if nodes[0] > _MAX_NODES:
            raise _TooManyNodes
        solver.run()
        status = solver.getModelStatus()
        if status == highspy.HighsModelStatus.kInfeasible:
            return
        if status != highspy.HighsModelStatus.kOptimal:
            raise _TooManyNodes  # HiGHS's own search decides such parts
        x = np.asarray(solver.getSolution().col_value, dtype=float)
        value = float(costs @ x)
        if value >= best[0] - _PRUNE_TOLERANCE:
            return
        fractional = np.flatnonzero((x > _INTEGRAL) & (x < 1 - _INTEGRAL))
        if fractional.size == 0:
            best[0], best[1] = value, np.flatnonzero(x > 0.5)
            return
        column = int(fractional[np.argmax(x[fractional])])  # the likeliest column: a good cover early
        for fixed in (1.0, 0.0):
            solver.changeColBounds(column, fixed, fixed)
            visit()
        solver.changeColBounds(column, 0.0, 1.0)

    try:
        visit()
    except _TooManyNodes:
        return None
    return best[1]


def _incidence(rows: np.ndarray, n_units: int) -> tuple[np.ndarray, np.ndarray]:
    """The units × groups 0/1 matrix in compressed-column form: (column starts, row indices)."""
    present = rows >= 0
    starts = np.concatenate([[0], np.cumsum(present.sum(axis=1))]).astype(np.int32)
    return starts, rows[present].astype(np.int32)


def _highs() -> Any:
    """A silent HiGHS instance (highspy; its import is ~1 s lighter than scipy.optimize's)."""
    import highspy

    # highspy.Highs prints a banner on stdout when built; the bare binding class does not
    cls = getattr(getattr(highspy, "_core", None), "_Highs", None) or highspy.Highs
    solver = cls()
    solver.setOptionValue("output_flag", False)
    solver.setOptionValue("threads", 1)
    return solver


def _partition_program(n_units: int) -> Any:
    """A HiGHS instance holding the rows ``Σ_{groups holding u} x = 1`` of every unit u, no column yet."""
    solver = _highs()
    no_entry = np.zeros(0, dtype=np.int32)
    solver.addRows(n_units, np.ones(n_units), np.ones(n_units), 0, no_entry, no_entry, np.zeros(0))
    return solver


def _add_columns(solver: Any, rows: np.ndarray, costs: np.ndarray, n_units: int, upper: float) -> None:
    """Add groups as columns (cost, bounds [0, upper], a 1 in each member's row)."""
    starts, index = _incidence(rows, n_units)
    bounds = np.full(costs.size, upper)
    solver.addCols(costs.size, costs, np.zeros(costs.size), bounds, index.size, starts[:-1], index, np.ones(index.size))


def _solve(solver: Any) -> Any:
    """Run HiGHS; its solution (an optimum always exists: the singletons are feasible)."""
    import highspy

    solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:  # cannot happen: singletons are feasible
        raise RuntimeError(
            f"gamma: the alignment program failed: {solver.modelStatusToString(solver.getModelStatus())}"
        )
    return solver.getSolution()


def _relaxation(
    rows: np.ndarray, costs: np.ndarray, size: np.ndarray, n_units: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The LP relaxation (HiGHS dual simplex) by column generation: (x of every group, row duals,
    reduced costs of every group under them); ``rows``: each group's units (-1 padded), ``size`` their number.

    The program starts from the singletons and the groups that look best under each unit's fair share
    (``y_u = min_{G holding u} cost_G / |G|``, a feasible dual); each round adds the groups whose reduced
    cost under the current duals is negative, most negative first, and warm-starts from the last basis.
    It ends when no group prices out, so the duals are optimal for every group (three or four rounds,
    a tenth of the groups: several times faster than one program of them all).
    """
    import highspy

    from segagree.metrics.unitizing.group_kernel import fair_shares, reduced_costs

    reduced = reduced_costs(rows, costs, fair_shares(rows, costs, n_units))
    first = min(_FIRST_COLUMNS * n_units, costs.size)
    taken = np.zeros(costs.size, dtype=bool)
    taken[np.argpartition(reduced, first - 1)[:first]] = True
    taken[size == 1] = True
    solver = _partition_program(n_units)
    solver.setOptionValue("presolve", "off")  # HiGHS's presolve costs more than it saves here
    added = []
    new = np.flatnonzero(taken)
    while new.size:
        _add_columns(solver, rows[new], costs[new], n_units, highspy.kHighsInf)  # x <= 1 is implied
        added.append(new)
        sol = _solve(solver)
        duals = np.asarray(sol.row_dual, dtype=float)
        reduced = reduced_costs(rows, costs, duals)
        new = np.flatnonzero((reduced < -1e-9) & ~taken)
        if new.size > _ADDED_COLUMNS:
            new = new[np.argpartition(reduced[new], _ADDED_COLUMNS - 1)[:_ADDED_COLUMNS]]
        taken[new] = True
    x = np.zeros(costs.size)
    x[np.concatenate(added)] = np.asarray(sol.col_value, dtype=float)
    return x, duals, reduced


def _binary_program(rows: np.ndarray, costs: np.ndarray, n_units: int) -> np.ndarray:
    """The columns of the best exact cover (HiGHS branch and bound, relative gap 0)."""
    import highspy

    solver = _partition_program(n_units)
    solver.setOptionValue("mip_rel_gap", 0.0)
    # These programs are small and near-integral: presolve and two primal heuristics took over half
    # of HiGHS's time on them and found nothing the search does not (they never bear on optimality).
    solver.setOptionValue("presolve", "off")
    solver.setOptionValue("mip_heuristic_run_root_reduced_cost", False)
    solver.setOptionValue("mip_heuristic_run_feasibility_jump", False)
    _add_columns(solver, rows, costs * _OBJECTIVE_SCALE, n_units, 1.0)
    solver.changeColsIntegrality(
        costs.size, np.arange(costs.size, dtype=np.int32), np.full(costs.size, highspy.HighsVarType.kInteger)
    )
    return np.flatnonzero(np.asarray(_solve(solver).col_value) > 0.5)
