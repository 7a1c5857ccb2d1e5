"""The candidate groups of gamma's best alignment, enumerated by a compiled depth-first search (numba).

:func:`segagree.metrics.unitizing.gamma_alignment.candidate_groups` states the rules; this kernel applies
them in one pass, with no temporaries beyond the groups it keeps:

* a group takes its units annotator by annotator (its first annotator's unit, then, for each later
  annotator, nothing or one unit that is a candidate partner of every member so far: it is sought
  among the partners of the member that has the fewest);
* after each annotator, every member's ``S_u`` must stay within ``bound`` plus what the annotators still
  to come can lower it by: Δ∅ minus u's cheapest candidate pair with each (nothing when that pair costs
  Δ∅ or more, or when there is none);
* a finished group of four or more units must pass every cut into two groups of two or more:
  ``Σ_{pairs across} (d - Δ∅) <= limit``.

Sums add their terms in annotator order (``S_u`` and the pair sum) and pair order (the cuts), as the
definitions list them, so the decisions do not depend on the search order.
"""

from __future__ import annotations

import numpy as np

from segagree.metrics.numba_import import require_njit

__all__ = ["enumerate_groups"]

njit = require_njit()  # numba without its BLAS probe (segagree.metrics.numba_import)


@njit(cache=True, nogil=True)
def _pair_cost(strip_at: np.ndarray, strip_first: np.ndarray, strip: np.ndarray, at: int, v: int) -> float:
    """d(u, v) from row ``at``'s strip (u's unit in a pair's table), or -1.0 when (u, v) is no candidate
    pair."""  # pragma: no cover - compiled
    k = v - strip_first[at]
    if k < 0 or k >= strip_at[at + 1] - strip_at[at]:
        return -1.0
    return strip[strip_at[at] + k]


@njit(cache=True, nogil=True)
def _passes_every_cut(
    members: np.ndarray,
    pair_cost: np.ndarray,
    n: int,
    empty: float,
    limit: float,
    present: np.ndarray,
    excess: np.ndarray,
) -> bool:  # pragma: no cover - compiled; checked against brute force in the tests
    """Whether no cut of the group into two non-empty sides has ``Σ_across (d - Δ∅) > limit``.

    The k members are numbered in annotator order; cut c (1 .. 2^(k-1) - 1) puts member i on its first
    side when bit i of c is set, so each split is tried once, its pairs added in annotator-pair order."""
    present = np.empty(n, dtype=np.int64)
    k = 0
    for a in range(n):
        if members[a] >= 0:
            present[k] = a
            k += 1
    positive = 0.0
    for i in range(k):
        for j in range(i + 1, k):
            excess[i, j] = pair_cost[present[i], present[j]] - empty
            positive += max(excess[i, j], 0.0)
    if positive <= limit * (1 - 1e-9):  # every cut's sum is at most this: a margin far above rounding
        return True
    for c in range(1, 1 << (k - 1)):
        total = 0.0
        for i in range(k):
            for j in range(i + 1, k):
                if ((c >> i) & 1) != ((c >> j) & 1):
                    total += excess[i, j]
        if total > limit:
            return False
    return True


@njit(cache=True, nogil=True)
def _partner_of_all(
    members: np.ndarray,
    first: int,
    level: int,
    via: int,
    v: int,
    pair_cost: np.ndarray,
    table_of: np.ndarray,
    strip_at: np.ndarray,
    strip_first: np.ndarray,
    strip: np.ndarray,
) -> bool:  # pragma: no cover - compiled
    """Whether annotator ``level``'s unit v is a candidate partner of every member (its cost with ``via``
    is known), its costs to them stored in column ``level`` of ``pair_cost``."""
    for b in range(first, level):
        if members[b] >= 0 and b != via:
            d = _pair_cost(strip_at, strip_first, strip, table_of[b, level] + members[b], v)
            if d < 0:
                return False
            pair_cost[b, level] = d
    return True


@njit(cache=True, nogil=True)
def _within_bound(
    members: np.ndarray,
    slack: np.ndarray,
    first: int,
    level: int,
    allowance: np.ndarray,
    unit_at: np.ndarray,
    limit: float,
) -> bool:  # pragma: no cover - compiled
    """Whether every member's ``S_u`` is within ``limit`` plus what the annotators after ``level`` can lower it by."""
    for b in range(first, level + 1):
        if members[b] >= 0 and slack[b] > limit + allowance[unit_at[b] + members[b], level]:
            return False
    return True


@njit(cache=True, nogil=True)
def _grown(
    members: np.ndarray, sums: np.ndarray, sizes: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """The output arrays with twice the rows, the rows so far copied."""
    rows = sums.shape[0]
    more_members = np.full((2 * rows, members.shape[1]), -1, dtype=np.int64)
    more_members[:rows] = members
    more_sums = np.zeros(2 * rows)
    more_sums[:rows] = sums
    more_sizes = np.zeros(2 * rows, dtype=np.int64)
    more_sizes[:rows] = sizes
    return more_members, more_sums, more_sizes


@njit(cache=True, nogil=True)
def _candidates(
    members: np.ndarray,
    first: int,
    level: int,
    table_of: np.ndarray,
    indptr: np.ndarray,
    level_via: np.ndarray,
    level_start: np.ndarray,
    level_stop: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Where annotator ``level``'s candidates lie: the partners of the member with the fewest (every
    member's partner, checked when tried), stored at ``level`` of the three arrays."""
    via = first
    start = indptr[table_of[first, level] + members[first]]
    stop = indptr[table_of[first, level] + members[first] + 1]
    for b in range(first + 1, level):
        if members[b] >= 0:
            at = table_of[b, level] + members[b]
            if indptr[at + 1] - indptr[at] < stop - start:
                via = b
                start = indptr[at]
                stop = indptr[at + 1]
    level_via[level] = via
    level_start[level] = start
    level_stop[level] = stop


@njit(cache=True, nogil=True)
def enumerate_groups(
    sizes: np.ndarray,
    tables: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    allowance: np.ndarray,
    empty: float,
    bound: float,
    tol: float,
    cut_limit: float,
    max_rows: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:  # pragma: no cover - compiled; checked against brute force
    """Every candidate group (see the module docstring), first annotator and unit first.

    ``sizes[a]``: annotator a's units. ``tables``: the fields of
    :class:`segagree.metrics.unitizing.gamma_alignment.PairTables` in order (table_of, indptr, partner,
    cost, strip_at, strip_first, strip). ``allowance[u, a]``: how much the annotators after a can still
    lower unit u's ``S_u`` (units of all annotators in turn). Returns (members: groups × annotators, -1
    for empty; pair-cost sums; sizes; the number of groups), or a count of ``max_rows + 1`` when there
    are more than ``max_rows`` groups (the arrays then hold the first ones only).
    """
    table_of, indptr, partner, cost, strip_at, strip_first, strip = tables
    n = sizes.shape[0]
    unit_at = np.zeros(n, dtype=np.int64)  # where each annotator's units start in ``allowance``
    for a in range(1, n):
        unit_at[a] = unit_at[a - 1] + sizes[a - 1]
    out_members = np.full((1024, n), -1, dtype=np.int64)
    out_sum = np.zeros(1024)
    out_size = np.zeros(1024, dtype=np.int64)
    rows = 0
    members = np.full(n, -1, dtype=np.int64)
    slack = np.zeros(n)
    pair_cost = np.zeros((n, n))
    saved_slack = np.zeros((n, n))
    saved_sum = np.zeros(n)
    saved_size = np.zeros(n, dtype=np.int64)
    work_present = np.zeros(n, dtype=np.int64)
    work_excess = np.zeros((n, n))
    option = np.zeros(n, dtype=np.int64)  # next choice per annotator: -1 nothing, k the k-th partner
    level_via = np.zeros(n, dtype=np.int64)
    level_start = np.zeros(n, dtype=np.int64)
    level_stop = np.zeros(n, dtype=np.int64)
    for first in range(n):
        for u in range(sizes[first]):
            members[:] = -1
            members[first] = u
            slack[:] = 0.0
            current_sum = 0.0
            size_here = 1
            level = first + 1
            if level < n:
                option[level] = -1
                saved_slack[level, :] = slack
                saved_sum[level] = 0.0
                saved_size[level] = 1
                _candidates(members, first, level, table_of, indptr, level_via, level_start, level_stop)
            while level > first:
                if level == n:  # a finished group (current_sum and size_here are its own)
                    if size_here < 4 or _passes_every_cut(
                        members, pair_cost, n, empty, cut_limit, work_present, work_excess
                    ):
                        if rows == out_sum.shape[0]:
                            out_members, out_sum, out_size = _grown(out_members, out_sum, out_size)
                        if rows == max_rows:
                            return out_members, out_sum, out_size, max_rows + 1
                        out_members[rows, :] = members
                        out_sum[rows] = current_sum
                        out_size[rows] = size_here
                        rows += 1
                    level -= 1
                    continue
                for b in range(first, level):  # the members' S_u before this annotator's choice
                    slack[b] = saved_slack[level, b]
                current_sum = saved_sum[level]
                members[level] = -1
                choice = option[level]
                via = level_via[level]
                start = level_start[level]
                stop = level_stop[level]
                if choice >= 0 and start + choice >= stop:  # every choice tried: back to the annotator before
                    level -= 1
                    continue
                option[level] = choice + 1
                if choice >= 0:
                    v = partner[start + choice]
                    pair_cost[via, level] = cost[start + choice]
                    if not _partner_of_all(
                        members, first, level, via, v, pair_cost, table_of, strip_at, strip_first, strip
                    ):
                        continue
                    new_slack = 0.0
                    for b in range(first, level):
                        if members[b] >= 0:
                            d = pair_cost[b, level]
                            slack[b] += d - empty
                            new_slack += d - empty
                            current_sum += d
                    members[level] = v
                    slack[level] = new_slack
                if not _within_bound(members, slack, first, level, allowance, unit_at, bound + tol):
                    continue
                size_here = saved_size[level] + (1 if members[level] >= 0 else 0)
                level += 1
                if level < n:
                    option[level] = -1
                    for b in range(first, level):
                        saved_slack[level, b] = slack[b]
                    saved_sum[level] = current_sum
                    saved_size[level] = size_here
                    _candidates(members, first, level, table_of, indptr, level_via, level_start, level_stop)
    return out_members, out_sum, out_size, rows


@njit(cache=True, nogil=True)
def reduced_costs(rows: np.ndarray, costs: np.ndarray, duals: np.ndarray) -> np.ndarray:  # pragma: no cover
    """``cost - Σ_members y`` of every group (``rows``: groups × annotators, a member's row or -1)."""
    out = np.empty(costs.shape[0])
    for g in range(rows.shape[0]):
        total = costs[g]
        for a in range(rows.shape[1]):
            if rows[g, a] >= 0:
                total -= duals[rows[g, a]]
        out[g] = total
    return out


@njit(cache=True, nogil=True)
def fair_shares(rows: np.ndarray, costs: np.ndarray, n_units: int) -> np.ndarray:  # pragma: no cover
    """Each unit's least ``cost_G / |G|`` over the groups G holding it (a feasible dual of the program)."""
    share = np.full(n_units, np.inf)
    for g in range(rows.shape[0]):
        size = 0
        for a in range(rows.shape[1]):
            if rows[g, a] >= 0:
                size += 1
        each = costs[g] / size
        for a in range(rows.shape[1]):
            u = rows[g, a]
            if u >= 0 and each < share[u]:
                share[u] = each
    return share


@njit(cache=True, nogil=True)
def _root(parent: np.ndarray, u: int) -> int:  # pragma: no cover - compiled
    while parent[u] != u:
        parent[u] = parent[parent[u]]
        u = parent[u]
    return u


@njit(cache=True, nogil=True)
def components(rows: np.ndarray, n_units: int) -> np.ndarray:  # pragma: no cover - compiled
    """Each group's connected component (units linked by sharing a group), by union-find: the root unit."""
    parent = np.arange(n_units)
    for g in range(rows.shape[0]):
        anchor = -1
        for a in range(rows.shape[1]):
            u = rows[g, a]
            if u >= 0:
                if anchor < 0:
                    anchor = _root(parent, u)
                else:
                    other = _root(parent, u)
                    if other != anchor:
                        parent[other] = anchor
    out = np.empty(rows.shape[0], dtype=np.int64)
    for g in range(rows.shape[0]):
        for a in range(rows.shape[1]):
            if rows[g, a] >= 0:
                out[g] = _root(parent, rows[g, a])
                break
    return out
