"""Compiled kernels (numba), optional: the block alignment of the kappa simulation.

:func:`dp_blocks` is the same alignment DP as :func:`segagree.metrics.chance.sf_kappa._block_dp`
(and :func:`segagree.metrics.boundary.sf._align_block`): pair / skip-A / skip-B moves over states
(i, j), in the same order, with the same tie rule (a cheaper cost by more than ``eps`` wins;
within ``eps`` the move with more edits wins) and the same sums, so its numbers are the numpy
version's to the last bit (tests/metrics/test_agreement_kappa.py compares them). Each block is one
small loop nest instead of a padded, bucketed array step; on chance streams, where most
blocks are short, this is most of the simulation's time.

:data:`score_draws` scores whole rows of draws in one pass. Its speed comes from: finding a
row's events without a branch per position; no branch on an item's side; the DP's left and
diagonal cells kept in registers; and a small direct-mapped memo of aligned blocks of 3 to
:data:`MEMO_ITEMS` items, which chance streams repeat (a hit returns the numbers the DP returned
for the same items). Values and summation order are unchanged: tests/metrics/test_kappa_pinned.py
pins a fixed seed's numbers from before these changes.

``numba`` is imported here only, when the simulation first needs it; without it
:data:`dp_blocks` is None and the numpy version is used. Compiled code is cached on disk.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def _numba_njit() -> Callable[..., Any] | None:
    """numba's njit, or None: numba is optional (the numpy path gives the same numbers, only slower)."""
    from segagree.metrics.numba_import import njit_or_none

    return njit_or_none()


njit = _numba_njit()


def _align(
    pa: np.ndarray,
    xa: np.ndarray,
    n_a: int,
    pb: np.ndarray,
    yb: np.ndarray,
    n_b: int,
    cost: np.ndarray,
    edits: np.ndarray,
    dele: np.ndarray,
    ins: np.ndarray,
    c: np.ndarray,
    trans: np.ndarray,
    eps: float,
) -> tuple[float, int]:
    """Cost and edits of the aligned block: A's ``n_a`` boundaries (positions ``pa``, codes
    ``xa``) against B's ``n_b``; ``cost``/``edits`` are scratch of at least (n_a+1)(n_b+1).

    The cell to the left and the one diagonally up-left are kept in registers, and a better move
    is taken by a select rather than a branch; the sums and the tie rule are unchanged."""
    w = n_b + 1
    cost[0] = 0.0
    edits[0] = 0
    for j in range(1, n_b + 1):  # B's first j inserted
        cost[j] = cost[j - 1] + ins[yb[j - 1]]
        edits[j] = edits[j - 1] + 1
    for i in range(1, n_a + 1):
        x = xa[i - 1]
        da = dele[x]
        tx = trans[x]
        p = pa[i - 1]
        here = i * w
        prev = (i - 1) * w
        diag_c = cost[prev]
        diag_e = edits[prev]
        left_c = diag_c + da  # A's first i deleted
        left_e = diag_e + 1
        cost[here] = left_c
        edits[here] = left_e
        for j in range(1, n_b + 1):
            y = yb[j - 1]
            iy = ins[y]
            up_c = cost[prev + j]
            up_e = edits[prev + j]
            bc = up_c + da  # delete A[i-1]
            be = up_e + 1
            cc = left_c + iy  # insert B[j-1]
            ee = left_e + 1
            take = (cc < bc - eps) | ((cc <= bc + eps) & (ee > be))
            bc = cc if take else bc
            be = ee if take else be
            d = p - pb[j - 1]
            pc = tx * d + c[x, y] if d > 0 else trans[y] * -d + c[x, y]
            if pc < da + iy - eps:  # pair them (only when strictly cheaper)
                cc = diag_c + pc
                ee = diag_e + 1
                take = (cc < bc - eps) | ((cc <= bc + eps) & (ee > be))
                bc = cc if take else bc
                be = ee if take else be
            cost[here + j] = bc
            edits[here + j] = be
            left_c = bc
            left_e = be
            diag_c = up_c
            diag_e = up_e
    return cost[n_a * w + n_b], edits[n_a * w + n_b]


_SCRATCH = 4096  # alignment cells of the scratch a block reuses; a longer block gets its own
MEMO_ITEMS = 7  # blocks of 3..MEMO_ITEMS items are looked up in the memo (8 bits of key each)
MEMO_BITS = 12  # memo slots: 2**12 (small enough to stay in the core's cache)


def _close_block(
    pa: np.ndarray,
    xa: np.ndarray,
    n_a: int,
    pb: np.ndarray,
    yb: np.ndarray,
    n_b: int,
    own: float,
    cost_buf: np.ndarray,
    edits_buf: np.ndarray,
    dele: np.ndarray,
    ins: np.ndarray,
    c: np.ndarray,
    trans: np.ndarray,
    eps: float,
) -> tuple[float, int]:
    """The change in cost and edits when a block with items of both annotators (``n_a``, ``n_b``
    >= 1) is aligned instead of costing its items' own ``own``: one item each in closed form
    (the DP's numbers), otherwise by :func:`_align`."""
    if n_a == 1 and n_b == 1:
        xx = xa[0]
        yy = yb[0]
        d = pa[0] - pb[0]
        pc = trans[xx] * d + c[xx, yy] if d > 0 else trans[yy] * -d + c[xx, yy]
        skip = (0.0 + ins[yy]) + dele[xx]
        if pc < dele[xx] + ins[yy] - eps and 0.0 + pc < skip - eps:
            return (0.0 + pc) - own, -1
        return skip - own, 0
    if (n_a + 1) * (n_b + 1) <= _SCRATCH:
        bc, be = _align(pa, xa, n_a, pb, yb, n_b, cost_buf, edits_buf, dele, ins, c, trans, eps)
    else:  # a long block (dmax = inf): scratch of its own
        need = (n_a + 1) * (n_b + 1)
        bc, be = _align(pa, xa, n_a, pb, yb, n_b, np.empty(need), np.empty(need, np.int64), dele, ins, c, trans, eps)
    return bc - own, be - (n_a + n_b)


def _events(u: np.ndarray, at: int, n: int, t0: int, ev: np.ndarray) -> int:
    """Writes the positions of row ``u[at:at+n]`` whose draw is not (none, none) (``>= t0``)
    to ``ev`` and returns their number; no branch per position (most are (none, none))."""
    if t0 >= 2**32:
        return 0
    t = np.uint32(t0)
    m = 0
    for pos in range(n):
        ev[m] = pos
        m += u[at + pos] >= t
    return m


def _score_draws(
    u: np.ndarray,
    rows: int,
    n: int,
    t0: int,
    guide: np.ndarray,
    upper: np.ndarray,
    shift: int,
    cell_cost: np.ndarray,
    cell_x: np.ndarray,
    cell_y: np.ndarray,
    dele: np.ndarray,
    ins: np.ndarray,
    c: np.ndarray,
    trans: np.ndarray,
    dmax: float,
    eps: float,
    memo_key: np.ndarray,
    memo_cost: np.ndarray,
    memo_edits: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """S_f cost and edits (with transpositions, optimal mode) of ``rows`` chance pairs of ``n``
    positions drawn as 32-bit integers ``u`` (see :class:`segagree.metrics.chance.sf_kappa._Cells`:
    ``u < t0`` is (none, none), else the cell is found from ``guide[u >> shift]`` and the
    thresholds ``upper``).

    The same computation, in the same floating-point order, as the numpy path of
    :func:`segagree.metrics.chance.sf_kappa._score_block`: every *event* (A or B has a boundary) adds
    its own cost and one edit; *items* (one annotator only) between two anchors (both) and at
    most ``dmax`` apart form a block, and a block with items of both annotators is aligned
    (:func:`_close_block`), changing the cost by its aligned cost minus its items' own costs and
    the edits likewise. ``memo_*`` (all of size ``2**MEMO_BITS``) keep aligned small blocks
    between calls; they must be reset when the cost tables change.
    """
    cost = np.empty(rows)
    edits = np.empty(rows, dtype=np.int64)
    # Scratch allocated once (a block has at most n items); arrays reassigned inside the loop
    # would cost reference counting on every step.
    pa = np.empty(n, np.int64)
    xa = np.empty(n, np.int64)
    pb = np.empty(n, np.int64)
    yb = np.empty(n, np.int64)
    ev = np.empty(n + 1, np.int64)
    cost_buf = np.empty(_SCRATCH)
    edits_buf = np.empty(_SCRATCH, np.int64)
    keyed = dmax <= 15 and cell_x.size <= 64  # an item's gap fits 4 bits, its code 3
    for r in range(rows):
        at = r * n
        m = _events(u, at, n, t0, ev)
        ev[m] = n  # closes the last block
        n_a = 0
        n_b = 0
        key = 1
        own = 0.0  # the open block's items' own costs
        last_pos = -1
        anchors_since = False
        base_r = 0.0  # summed in event order, as numpy's bincount does
        delta_r = 0.0
        d_edits_r = 0
        for e in range(m + 1):
            pos = ev[e]
            x = 0
            y = 0
            new = True
            if pos < n:
                v = u[at + pos]
                k = guide[v >> shift]
                while v >= upper[k]:
                    k += 1
                x = cell_x[k]
                y = cell_y[k]
                base_r += cell_cost[k]
                if x != 0 and y != 0:  # an anchor closes the block
                    anchors_since = True
                    continue
                new = anchors_since or pos - last_pos > dmax
            if new and n_a + n_b > 0:
                if n_a > 0 and n_b > 0:
                    if keyed and 2 < n_a + n_b <= MEMO_ITEMS:
                        # A block's aligned cost and edits depend only on what ``key`` holds:
                        # small blocks repeat over and over, and a hit gives _align's numbers.
                        h = (np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - MEMO_BITS)
                        if memo_key[h] != key:
                            bc, be = _align(pa, xa, n_a, pb, yb, n_b, cost_buf, edits_buf, dele, ins, c, trans, eps)
                            memo_key[h] = key
                            memo_cost[h] = bc
                            memo_edits[h] = be
                        delta_r += memo_cost[h] - own
                        d_edits_r += memo_edits[h] - (n_a + n_b)
                    else:
                        dc, de = _close_block(
                            pa, xa, n_a, pb, yb, n_b, own, cost_buf, edits_buf, dele, ins, c, trans, eps
                        )
                        delta_r += dc
                        d_edits_r += de
                n_a = 0
                n_b = 0
                key = 1
                own = 0.0
            if pos == n:
                break
            anchors_since = False
            isb = y != 0
            # The open block's key: 8 bits an item (gap to the previous item, side, code) after a
            # leading 1; only read for blocks of at most MEMO_ITEMS items, where it is exact.
            key = (key << 8) | ((pos - last_pos if n_a + n_b > 0 else 0) << 4) | (isb << 3) | (x + y)
            last_pos = pos
            # Both scratch slots written and one count moved: no branch on the item's side.
            pb[n_b] = pos
            yb[n_b] = y
            pa[n_a] = pos
            xa[n_a] = x
            own += ins[y] if isb else dele[x]
            n_b += isb
            n_a += 1 - isb
        cost[r] = base_r + (0.0 + delta_r)  # events' own costs, then the blocks' changes
        edits[r] = m + d_edits_r
    return cost, edits


def _dp_blocks(
    bstart: np.ndarray,
    bend: np.ndarray,
    pos: np.ndarray,
    isb: np.ndarray,
    typ: np.ndarray,
    dele: np.ndarray,
    ins: np.ndarray,
    c: np.ndarray,
    trans: np.ndarray,
    eps: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Cost and edits of the aligned blocks ``items[bstart[m]:bend[m]]`` (items in position
    order; ``isb`` True for B's, ``typ`` the code, ``pos`` the token position)."""
    nb = bstart.size
    out_c = np.empty(nb)
    out_e = np.empty(nb, dtype=np.int64)
    longest = 0
    for m in range(nb):
        longest = max(longest, bend[m] - bstart[m])
    pa = np.empty(longest, np.int64)
    xa = np.empty(longest, np.int64)
    pb = np.empty(longest, np.int64)
    yb = np.empty(longest, np.int64)
    cost = np.empty((longest + 1) * (longest + 1))
    edits = np.empty((longest + 1) * (longest + 1), np.int64)
    for m in range(nb):
        n_a = 0
        n_b = 0
        for t in range(bstart[m], bend[m]):
            if isb[t]:
                pb[n_b] = pos[t]
                yb[n_b] = typ[t]
                n_b += 1
            else:
                pa[n_a] = pos[t]
                xa[n_a] = typ[t]
                n_a += 1
        out_c[m], out_e[m] = _align(pa, xa, n_a, pb, yb, n_b, cost, edits, dele, ins, c, trans, eps)
    return out_c, out_e


if njit is None:  # pragma: no cover
    dp_blocks: Any = None
    score_draws: Any = None
else:
    _align = njit(cache=True, nogil=True, inline="always")(_align)
    _close_block = njit(cache=True, nogil=True, inline="always")(_close_block)
    _events = njit(cache=True, nogil=True, inline="always")(_events)
    dp_blocks = njit(cache=True, nogil=True)(_dp_blocks)
    score_draws = njit(cache=True, nogil=True)(_score_draws)
