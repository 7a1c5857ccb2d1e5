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
* **Three or more**: the candidate groups that survive the pruning (built annotator by annotator
  from the window's pairs) form a set-partitioning binary program solved by HiGHS
  (highspy, the HiGHS bindings, checked against ``scipy.optimize.milp`` in the tests).

**Memory.** Before the pairs are scored their number is counted, and before each extension of the
candidate groups the rows it adds are counted; beyond the budget (``budget`` bytes, default a share
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
from segagree.metrics.unitizing.resources import BYTES_PER_PAIR, bytes_per_group, refuse

__all__ = ["Alignment", "alignment_disorder", "best_alignment", "check_pair_memory", "group_disorders"]

# Among equally good alignments, prefer aligned units to units left alone (as pygamma's solver
# returns them): each aligned unit beyond the first earns this much (times Δ∅) in the solvers only;
# the disorder reported is always recomputed from the definition.
_TIE_BREAK = 1e-7
# The program's objective is scaled so that HiGHS's absolute gap (1e-6) is far below 1e-9 here.
_OBJECTIVE_SCALE = 1e4
# Groups in doubt from which the split test runs compiled (numba's start-up, ~0.3 s, then pays off).
_COMPILED_SPLIT_ROWS = 20_000
# Pair tables of at most this many unit pairs also keep every pair's cost in a flat array (8 MB).
_DENSE_CELLS = 1 << 20


@dataclass(frozen=True)
class Alignment:
    """A best alignment.

    Attributes:
        groups: (groups, annotators) int array: each group's unit per annotator, as the position in
            that annotator's :class:`Track` (sorted by start), -1 for empty.
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
    order = np.lexsort(tuple(_group_start(groups, tracks)[None, :]))
    groups = groups[order]
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


@dataclass
class _PairTable:
    """Candidate pairs of annotators (lo, hi): CSR from lo's units, and sorted keys for look-ups."""

    indptr: np.ndarray
    partner: np.ndarray
    cost: np.ndarray
    keys: np.ndarray
    width: int
    dense: np.ndarray | None = None  # every d(u, v) as a flat (lo units × width) array, when small

    @classmethod
    def build(cls, lo: Track, hi: Track, dis: Dissimilarity, bound: float) -> _PairTable:
        i, j, cost = candidate_pairs(lo, hi, dis, bound)  # sorted by i, then j
        indptr = np.concatenate([[0], np.cumsum(np.bincount(i, minlength=len(lo)))]).astype(np.int64)
        width = max(len(hi), 1)
        keys = i * width + j
        dense = None
        if 0 < len(lo) * width <= _DENSE_CELLS:  # a direct look-up instead of a binary search
            dense = np.full(len(lo) * width, np.inf)
            dense[keys] = cost
        return cls(indptr, j, cost, keys, width, dense)

    def lookup(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """d(u, v) for candidate pairs, inf where (u, v) is no candidate."""
        if self.keys.size == 0:
            return np.full(u.shape, np.inf)
        q = u * self.width + v
        if self.dense is not None:
            return self.dense[q]
        pos = np.minimum(np.searchsorted(self.keys, q), self.keys.size - 1)
        return np.where(self.keys[pos] == q, self.cost[pos], np.inf)


@dataclass
class _Partial:
    """Partial groups after the first annotators: members, S_u per member, pair-cost sums, sizes."""

    members: np.ndarray
    slack: np.ndarray
    pair_sum: np.ndarray
    size: np.ndarray

    def take(self, rows: np.ndarray) -> _Partial:
        return _Partial(self.members[rows], self.slack[rows], self.pair_sum[rows], self.size[rows])

    @staticmethod
    def concat(parts: Sequence[_Partial]) -> _Partial:
        return _Partial(
            np.concatenate([p.members for p in parts]),
            np.concatenate([p.slack for p in parts]),
            np.concatenate([p.pair_sum for p in parts]),
            np.concatenate([p.size for p in parts]),
        )


def _extend(part: _Partial, a: int, tables: dict[tuple[int, int], _PairTable], track: Track, empty: float) -> _Partial:
    """Every partial group extended by one candidate unit of annotator ``a`` (none kept apart)."""
    n = part.members.shape[1]
    new_parts = []
    lone = np.flatnonzero(part.size == 0)
    if lone.size and len(track):
        m = len(track)
        members = np.full((m, n), -1, dtype=np.int64)
        members[:, a] = np.arange(m)
        new_parts.append(_Partial(members, np.zeros((m, n)), np.zeros(m), np.ones(m, dtype=np.int64)))
    if a == 0:
        return _Partial.concat([part, *new_parts]) if new_parts else part
    present = part.members[:, :a] >= 0
    first = np.where(present.any(axis=1), present.argmax(axis=1), -1)
    for b0 in range(a):
        rows = np.flatnonzero(first == b0)
        if rows.size == 0:
            continue
        table = tables[(b0, a)]
        u0 = part.members[rows, b0]
        counts = table.indptr[u0 + 1] - table.indptr[u0]
        rep = np.repeat(rows, counts)
        starts = np.repeat(table.indptr[u0], counts)
        flat = starts + (np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts))
        v, add = table.partner[flat], {b0: table.cost[flat]}
        ok = np.ones(rep.size, dtype=bool)
        for b in range(b0 + 1, a):
            ub = part.members[rep, b]
            cost = np.where(ub >= 0, tables[(b, a)].lookup(np.maximum(ub, 0), v), 0.0)
            ok &= np.isfinite(cost)
            add[b] = cost
        ext = part.take(rep[ok])
        v = v[ok]
        slack_new = np.zeros(v.size)
        for b, cost in add.items():
            cost = cost[ok]
            has = ext.members[:, b] >= 0
            ext.slack[:, b] += np.where(has, cost - empty, 0.0)
            slack_new += np.where(has, cost - empty, 0.0)
            ext.pair_sum += np.where(has, cost, 0.0)
        ext.members[:, a] = v
        ext.slack[:, a] = slack_new
        ext.size += 1
        new_parts.append(ext)
    return _Partial.concat([part, *new_parts]) if new_parts else part


def _extension_rows(part: _Partial, a: int, tables: dict[tuple[int, int], _PairTable], track: Track) -> int:
    """How many rows :func:`_extend` handles when extending by annotator ``a``: the partial groups and
    every candidate extension before the consistency filter (the size of its temporaries), a bound on
    the rows it keeps."""
    rows = part.members.shape[0] + (len(track) if np.any(part.size == 0) else 0)
    if a == 0:
        return rows
    present = part.members[:, :a] >= 0
    first = np.where(present.any(axis=1), present.argmax(axis=1), -1)
    for b0 in range(a):
        u0 = part.members[first == b0, b0]
        if u0.size:
            indptr = tables[(b0, a)].indptr
            rows += int(np.sum(indptr[u0 + 1] - indptr[u0]))
    return rows


def candidate_groups(
    tracks: Sequence[Track], dis: Dissimilarity, budget: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The groups that can appear in some best alignment (see the module docstring), and their costs;
    :class:`~segagree.metrics.unitizing.resources.TooLarge` before an extension beyond ``budget`` bytes.

    Returns (groups, disorders): groups as in :class:`Alignment` (singletons included).
    """
    n = len(tracks)
    npairs = _pairs_count(n)
    empty = dis.delta_empty
    bound = npairs * empty
    tables = {
        (lo, hi): _PairTable.build(tracks[lo], tracks[hi], dis, bound + (n - 1) * empty)
        for lo in range(n)
        for hi in range(lo + 1, n)
    }
    part = _Partial(np.full((1, n), -1, dtype=np.int64), np.zeros((1, n)), np.zeros(1), np.zeros(1, dtype=np.int64))
    tol = 1e-9 * bound
    units = sum(len(t) for t in tracks)
    for a in range(n):
        rows = _extension_rows(part, a, tables, tracks[a])
        what = f"{rows:,} candidate groups of annotators 1-{a + 1}"
        refuse(rows * bytes_per_group(n), budget, what, units, n)
        part = _extend(part, a, tables, tracks[a], empty)
        remaining = n - 1 - a
        limit = bound + remaining * empty + tol
        too_far = np.where(part.members >= 0, part.slack > limit, False).any(axis=1)
        part = part.take(np.flatnonzero(~too_far))
    part = part.take(np.flatnonzero(part.size > 0))
    if n >= 4:  # cuts into two groups of 2+ units (so groups of 4+): the singleton cuts were checked above
        big = np.flatnonzero(part.size >= 4)
        ok = np.ones(part.size.size, dtype=bool)
        ok[big] = _no_better_split(part.members[big], tracks, dis, tables)
        part = part.take(np.flatnonzero(ok))
    size = part.size
    disorders = (part.pair_sum + (npairs - size * (size - 1) // 2) * empty) / npairs
    return part.members, disorders


def _no_better_split(
    members: np.ndarray, tracks: Sequence[Track], dis: Dissimilarity, tables: dict[tuple[int, int], _PairTable]
) -> np.ndarray:
    """Which groups no split into two groups beats: for every cut, Σ_cross (d - Δ∅) <= C(n,2) · Δ∅.

    Splitting G into G1 and G2 changes the total by ``(C(n,2) · Δ∅ - Σ_{u in G1, v in G2} (d(u, v) - Δ∅))
    / C(n,2)``, so a group failing one cut is never needed in a best alignment.
    """
    n = len(tracks)
    empty = dis.delta_empty
    present = members >= 0
    excess = {}
    for a in range(n):
        for b in range(a + 1, n):
            both = present[:, a] & present[:, b]
            cost = tables[(a, b)].lookup(np.maximum(members[:, a], 0), np.maximum(members[:, b], 0))
            excess[(a, b)] = np.where(both, cost - empty, 0.0)
    limit = _pairs_count(n) * empty * (1 + 1e-9)
    pairs = list(excess)
    cuts = np.arange(1, 2 ** (n - 1))  # cut k: annotator a on the first side when bit a of k + 1 is set
    side = ((cuts[:, None] >> np.arange(n)[None, :]) & 1).astype(bool)  # (cuts, annotators)
    ok = np.ones(members.shape[0], dtype=bool)
    # A cut's cross sum is at most the sum of the positive excesses: a group whose positive excesses stay
    # below the limit (by a margin far above rounding) passes every cut.
    positive = np.zeros(members.shape[0])
    for p in pairs:
        positive += np.maximum(excess[p], 0.0)
    doubtful = np.flatnonzero(positive > limit * (1 - 1e-9))
    if doubtful.size >= _COMPILED_SPLIT_ROWS:  # the compiled loop (numba's start-up pays off)
        from segagree.metrics.unitizing.split_kernel import passes_every_cut

        crossing = np.full((cuts.size, len(pairs)), -1, dtype=np.int64)
        for k in range(cuts.size):
            across = [i for i, (a, b) in enumerate(pairs) if side[k, a] != side[k, b]]
            crossing[k, : len(across)] = across
        table = np.stack([excess[p][doubtful] for p in pairs], axis=1)
        ok[doubtful] = passes_every_cut(table, present[doubtful], crossing, side, limit)
        return ok
    for k in range(cuts.size):  # each cut's sum adds its crossing pairs one by one in pair order
        rows = doubtful
        left = present[rows][:, side[k]].any(axis=1)
        right = present[rows][:, ~side[k]].any(axis=1)
        cross = sum(excess[(a, b)][rows] for a, b in pairs if side[k, a] != side[k, b])
        ok[rows] &= ~(left & right & (cross > limit))
    return ok


def _solve_program(tracks: Sequence[Track], dis: Dissimilarity, budget: float | None = None) -> np.ndarray:
    """Three or more annotators: the set-partitioning program over the candidate groups, exactly.

    1. The LP relaxation (HiGHS simplex). Its duals y give a lower bound ``LB = Σ y`` (corrected
       for any tiny dual infeasibility) and each group's reduced cost ``rc = cost - Σ_members y``.
       An integral LP solution whose cost is within 1e-9 of LB is optimal.
    2. Otherwise, since any solution costs ``LB + Σ rc`` of its groups, a group with
       ``rc > UB - LB`` is in no solution better than UB: the binary program (HiGHS branch and
       bound, gap 0) runs on the groups with ``rc <= θ`` (and the singletons), split into independent
       parts where only the parts with a fractional LP solution need branching; if its optimum UB
       has ``UB - LB <= θ`` it is optimal over all candidates, else θ doubles (at most to UB - LB).
    """
    groups, exact = candidate_groups(tracks, dis, budget)
    offsets = np.concatenate([[0], np.cumsum([len(t) for t in tracks])])
    n_units = int(offsets[-1])
    if groups.shape[0] == n_units:  # only singletons survived
        return groups
    costs = exact - _TIE_BREAK * dis.delta_empty * ((groups >= 0).sum(axis=1) - 1)
    rows = np.where(groups >= 0, groups + offsets[:-1][None, :], -1)
    x, duals = _relaxation(rows, costs, n_units)
    reduced = costs - np.where(rows >= 0, duals[np.maximum(rows, 0)], 0.0).sum(axis=1)
    slack = n_units * max(0.0, -float(reduced.min()))  # HiGHS's dual tolerance, made rigorous
    lower = float(duals.sum()) - slack
    chosen = np.flatnonzero(x > 0.5)
    if np.all((x < 1e-9) | (x > 1 - 1e-9)) and float(costs[chosen].sum()) - lower <= 1e-9:
        return groups[chosen]
    single = (rows >= 0).sum(axis=1) == 1
    theta = 0.05 * dis.delta_empty
    while True:
        keep = np.flatnonzero((reduced <= theta + slack + 1e-9) | single)
        sel = keep[_binary_program_by_parts(rows[keep], costs[keep], x[keep], n_units)]
        gap = float(costs[sel].sum()) - lower
        if gap <= theta + 1e-9 or keep.size == costs.size:
            return groups[sel]
        theta = min(gap, 2 * theta)  # grow slowly: the next program stays small


def _components(rows: np.ndarray, n_units: int) -> np.ndarray:
    """Each column's connected component (units linked by sharing a column), by union-find."""
    parent = list(range(n_units))

    def find(u: int) -> int:
        while parent[u] != u:
            parent[u] = parent[parent[u]]
            u = parent[u]
        return u

    for members in rows.tolist():
        present = [m for m in members if m >= 0]
        root = find(present[0])
        for m in present[1:]:
            other = find(m)
            if other != root:
                parent[other] = root
    return np.array([find(max(members)) for members in rows.tolist()], dtype=np.int64)


def _binary_program_by_parts(rows: np.ndarray, costs: np.ndarray, x: np.ndarray, n_units: int) -> np.ndarray:
    """The best exact cover over these columns, one independent part at a time.

    The LP solution restricted to a part is optimal for that part's LP (the duals still certify
    it), so a part where it is integral keeps it; only the fractional parts go to branch and bound.
    """
    part = _components(rows, n_units)
    fractional = (x > 1e-9) & (x < 1 - 1e-9)
    hard = np.isin(part, np.unique(part[fractional]))
    chosen = [np.flatnonzero(~hard & (x > 0.5))]
    for label in np.unique(part[hard]):
        cols = np.flatnonzero(part == label)
        units = np.unique(rows[cols][rows[cols] >= 0])
        local = np.where(rows[cols] >= 0, np.searchsorted(units, np.maximum(rows[cols], 0)), -1)
        chosen.append(cols[_binary_program(local, costs[cols], units.size)])
    return np.sort(np.concatenate(chosen))


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


def _run(rows: np.ndarray, costs: np.ndarray, n_units: int, binary: bool) -> Any:
    """Solve min costs·x, A x = 1, x >= 0 (binary: x in {0, 1}) with HiGHS; the solved instance."""
    import highspy

    starts, index = _incidence(rows, n_units)
    lp = highspy.HighsLp()
    lp.num_col_ = costs.size
    lp.num_row_ = n_units
    lp.col_cost_ = costs * (_OBJECTIVE_SCALE if binary else 1.0)
    lp.col_lower_ = np.zeros(costs.size)
    lp.col_upper_ = np.ones(costs.size) if binary else np.full(costs.size, highspy.kHighsInf)
    lp.row_lower_ = np.ones(n_units)
    lp.row_upper_ = np.ones(n_units)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = starts
    lp.a_matrix_.index_ = index
    lp.a_matrix_.value_ = np.ones(index.size)
    solver = _highs()
    if binary:
        lp.integrality_ = [highspy.HighsVarType.kInteger] * costs.size
        solver.setOptionValue("mip_rel_gap", 0.0)
    else:
        solver.setOptionValue("presolve", "off")  # HiGHS's presolve costs more than it saves here
    solver.passModel(lp)
    solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:  # cannot happen: singletons are feasible
        raise RuntimeError(
            f"gamma: the alignment program failed: {solver.modelStatusToString(solver.getModelStatus())}"
        )
    return solver


def _relaxation(rows: np.ndarray, costs: np.ndarray, n_units: int) -> tuple[np.ndarray, np.ndarray]:
    """The LP relaxation's solution and row duals (x <= 1 is implied by the equalities)."""
    sol = _run(rows, costs, n_units, binary=False).getSolution()
    return np.asarray(sol.col_value, dtype=float), np.asarray(sol.row_dual, dtype=float)


def _binary_program(rows: np.ndarray, costs: np.ndarray, n_units: int) -> np.ndarray:
    """The columns of the best exact cover (HiGHS branch and bound, relative gap 0)."""
    sol = _run(rows, costs, n_units, binary=True).getSolution()
    return np.flatnonzero(np.asarray(sol.col_value) > 0.5)
