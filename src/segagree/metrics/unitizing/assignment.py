"""The linear sum assignment of a small cost matrix, without importing ``scipy.optimize``.

DER and JER map speaker labels one-to-one at least cost (pyannote.metrics and dscore call
``scipy.optimize.linear_sum_assignment``); their matrices are a few speakers a side, but importing
``scipy.optimize`` takes longer (about 0.4 s of CPU, more under load) than reading and scoring most
recordings. This is the same algorithm as scipy's ``rectangular_lsap.cpp``: the shortest augmenting
path method of Crouse (2016), "On implementing 2D rectangular assignment algorithms", IEEE
Transactions on Aerospace and Electronic Systems 52(4), 1679-1696, step for step (the same order of
rows, the same reversed column list, the same tie-breaking toward a free column), so it returns the
assignment scipy returns, ties included (tests/metrics/test_assignment.py compares them on random
integer matrices full of ties). Matrices larger than :data:`SMALL` cells go to scipy itself.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["SMALL", "linear_sum_assignment"]

#: Above this many cells (100 speakers a side) scipy solves it: the loops could then cost more than its import.
SMALL = 10_000


def _augmenting_path(
    cost: list[list[float]], u: list[float], v: list[float], row4col: list[int], i: int
) -> tuple[int, float, list[int], list[float], list[bool], list[bool]]:
    """The sink of a shortest augmenting path from row ``i``, its length, the path (row before each
    column), the shortest path costs and the rows and columns visited (scipy's ``augmenting_path``)."""
    nr, nc = len(cost), len(v)
    remaining = [nc - it - 1 for it in range(nc)]  # reversed: a constant matrix gives the identity
    num_remaining = nc
    sr, sc = [False] * nr, [False] * nc
    shortest = [math.inf] * nc
    path = [-1] * nc
    min_val = 0.0
    sink = -1
    while sink == -1:
        index, lowest = -1, math.inf
        sr[i] = True
        row, ui = cost[i], u[i]
        for it in range(num_remaining):
            j = remaining[it]
            r = min_val + row[j] - ui - v[j]
            if r < shortest[j]:
                path[j] = i
                shortest[j] = r
            # among equal costs, a free column (a new sink), as scipy chooses
            if shortest[j] < lowest or (shortest[j] == lowest and row4col[j] == -1):
                lowest = shortest[j]
                index = it
        min_val = lowest
        if min_val == math.inf:
            raise ValueError("cost matrix is infeasible")
        j = remaining[index]
        if row4col[j] == -1:
            sink = j
        else:
            i = row4col[j]
        sc[j] = True
        num_remaining -= 1
        remaining[index] = remaining[num_remaining]
    return sink, min_val, path, shortest, sr, sc


def _solve(cost: list[list[float]]) -> list[int]:
    """``col4row`` of a matrix with at least as many columns as rows (scipy's ``solve``)."""
    nr, nc = len(cost), len(cost[0])
    u, v = [0.0] * nr, [0.0] * nc
    col4row, row4col = [-1] * nr, [-1] * nc
    for cur in range(nr):
        sink, min_val, path, shortest, sr, sc = _augmenting_path(cost, u, v, row4col, cur)
        u[cur] += min_val
        for i in range(nr):
            if sr[i] and i != cur:
                u[i] += min_val - shortest[col4row[i]]
        for j in range(nc):
            if sc[j]:
                v[j] -= min_val - shortest[j]
        j = sink
        while True:
            i = path[j]
            row4col[j] = i
            col4row[i], j = j, col4row[i]
            if i == cur:
                break
    return col4row


def linear_sum_assignment(cost_matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row and column indices of the least-cost one-to-one assignment, as
    ``scipy.optimize.linear_sum_assignment(cost_matrix)`` returns them (rows in increasing order)."""
    cost = np.asarray(cost_matrix, dtype=float)
    if cost.ndim != 2:
        raise ValueError(f"expected a matrix (2-D array), got a {cost.ndim}-D array")
    if cost.size > SMALL:
        from scipy.optimize import linear_sum_assignment as scipy_lsa

        rows, cols = scipy_lsa(cost)
        return np.asarray(rows), np.asarray(cols)
    if not cost.size:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if np.isnan(cost).any() or np.isneginf(cost).any():
        raise ValueError("matrix contains invalid numeric entries")
    transpose = cost.shape[1] < cost.shape[0]
    col4row = _solve((cost.T if transpose else cost).tolist())
    if transpose:
        order = sorted(range(len(col4row)), key=col4row.__getitem__)
        return np.asarray([col4row[k] for k in order], dtype=np.int64), np.asarray(order, dtype=np.int64)
    return np.arange(len(col4row), dtype=np.int64), np.asarray(col4row, dtype=np.int64)
