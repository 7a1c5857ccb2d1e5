"""A literal port of segsimflex's S_f search (R package segsimflex 0.1.3, record = FALSE).

Lai, Li & Zhang (2023), "Text segmentation similarity revisited: a flexible distance-based
approach for multiple boundary types", SCiL 2023. segsimflex's ``calCost1V2`` / ``parDist1V4``
do not compute the optimal cost of the S_f model (:mod:`segagree.metrics.boundary.sf` does); this module
reproduces what they compute, quirks included, so that results can be compared with the
published numbers. Per speaker, with boundary strings s1 (annotator A) and s2 (B):

1. Pass 1: every position where both have a boundary is one action, cost ``c(s1[i], s2[i])``.
2. The stretches between those positions that hold a boundary are stripped of their common
   leading / trailing no-boundary positions; a stretch where one side is empty is a run of
   insertions / deletions (one action each); the others go to the recursive search ``D``.
3. ``D(t1, t2)`` strips common leading / trailing no-boundary positions, then:
   length <= 1: (0, 0) if equal else (c(e1, e2), 1 action); same first symbols: recurse on
   the tails; different first symbols (only after a transposition): c(e1, e2) and no action,
   plus the tails; a position with a symbol on both sides: split there (its cost, no action)
   and solve both sides; otherwise the first symbols of the two strings are either
   substituted (an insertion or a deletion, one action) or paired by moving B's symbol
   (transposition, one action, cost ``transposition[type at the later position] * distance``).
   The transposition is taken only when strictly cheaper. A branch-and-bound bound prunes
   options whose cost so far reaches the best known; a memo keyed on the (t1, t2) strings,
   fresh for every stretch, ignores that bound (case h21 of the reference data shows the
   resulting suboptimal reuse; ``memo=False`` gives record = TRUE's values instead).

``c(x, y) = 1 - M[x, y]``. ``trans = FALSE`` (``transpositions=False``) is ``calCostNoTrans1``:
the cost over positions where the strings differ, one action per such position.

Operations are a best-effort reading of the search path (segsimflex's own record is unreliable):
their costs sum to the cost, but their number need not equal the actions (a substitution after
a transposition adds no action except at the end of a stretch, as in segsimflex).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import numpy as np

from segagree.model.scheme import BoundaryScheme

__all__ = ["SegsimflexOutcome", "segsimflex_speaker"]

_SPACE = " "
# (kind, a index, b index, cost) in the frame of the strings of one D call; kind is one of
# "pair" (A's and B's symbols at the same index), "del", "ins", "move" (B's symbol moved).
_RawOp = tuple[str, "int | None", "int | None", float]
# (op name, position_a, position_b, type_a, type_b, cost): the public form.
OpTuple = tuple[str, "int | None", "int | None", int, int, float]


@dataclass
class SegsimflexOutcome:
    """What segsimflex computes for one speaker: cost, its action count, and operations."""

    cost: float
    actions: int
    operations: list[OpTuple] = field(default_factory=list)


def _char(code: int) -> str:
    # One character per code: ' ' for no boundary, anything else distinct for the types.
    return _SPACE if code == 0 else chr(0x100 + code)


def _shift(ops: list[_RawOp], k: int) -> list[_RawOp]:
    if not k:
        return ops
    return [(kind, None if ai is None else ai + k, None if bi is None else bi + k, c) for kind, ai, bi, c in ops]


def _unswap(ops: list[_RawOp], j: int) -> list[_RawOp]:
    # The child worked on B's string with positions 0 and j swapped: map B indices back.
    out = []
    for kind, ai, bi, c in ops:
        if bi == 0:
            bi = j
        elif bi == j:
            bi = 0
        out.append((kind, ai, bi, c))
    return out


def _swap(s: str, j: int) -> str:
    # segsimflex's transpose(s, 1, j + 1): exchange the characters at 0 and j.
    return s[j] + s[1:j] + s[0] + s[j + 1 :]


class _Search:
    """parDist1V4 (memo) / parDist1V3 (no memo) on strings of one character per token."""

    def __init__(self, scheme: BoundaryScheme, memo: bool):
        k = scheme.n_codes
        cost = (1.0 - scheme.similarity).tolist()
        trans = [float(t) for t in scheme.transposition]
        chars = [_char(i) for i in range(k)]
        self.cost = {(chars[i], chars[j]): cost[i][j] for i in range(k) for j in range(k)}
        self.trans = {chars[i]: trans[i] for i in range(k)}
        self.use_memo = memo
        self.memo: dict[tuple[str, str], tuple[float, int, list[_RawOp]]] = {}

    def _op(self, e1: str, e2: str, c: float) -> _RawOp:
        if e1 == _SPACE:
            return ("ins", None, 0, c)
        if e2 == _SPACE:
            return ("del", 0, None, c)
        return ("pair", 0, 0, c)

    def d(self, t1: str, t2: str, mx: float, so_far: float, cumul: int) -> tuple[float, int, list[_RawOp]] | None:
        """(cost, cumulative actions, operations) or None (R's NA: pruned)."""
        orig = cumul
        if not so_far < mx:
            return None
        if self.use_memo and t1:  # R never matches an empty name, so "" is never reused
            hit = self.memo.get((t1, t2))
            if hit is not None:
                return (hit[0], hit[1] + cumul, hit[2])
        size = len(t1)
        lead = min(size - len(t1.lstrip(_SPACE)), size - len(t2.lstrip(_SPACE)))
        trail = min(size - len(t1.rstrip(_SPACE)), size - len(t2.rstrip(_SPACE)))
        end = max(size - trail, lead)
        t1, t2 = t1[lead:end], t2[lead:end]
        n = len(t1)
        cost = self.cost
        ops: list[_RawOp]
        result: tuple[float, int] | None
        if n <= 1:
            if t1 == t2:
                result = (0.0, cumul)
                ops = [("pair", 0, 0, 0.0)] if n else []
            else:
                cumul += 1
                oc = cost[t1, t2]
                result = (oc, cumul)
                ops = [self._op(t1, t2, oc)]
        else:
            e1, e2 = t1[0], t2[0]
            if e1 == e2:
                child = self.d(t1[1:], t2[1:], mx, so_far, cumul)
                result, ops = None, []
                if child is not None:
                    result = (child[0], child[1])
                    ops = [("pair", 0, 0, 0.0), *_shift(child[2], 1)]
            elif e1 != _SPACE and e2 != _SPACE:
                # Only after a transposition: its substitution adds no action.
                oc = cost[e1, e2]
                child = self.d(t1[1:], t2[1:], mx, so_far + oc, cumul)
                result, ops = None, []
                if child is not None:
                    result = (oc + child[0], child[1])
                    ops = [("pair", 0, 0, oc), *_shift(child[2], 1)]
            else:
                k = next((i for i in range(n) if t1[i] != _SPACE and t2[i] != _SPACE), -1)
                if k >= 0:
                    oc = cost[t1[k], t2[k]]
                    left = self.d(t1[:k], t2[:k], mx, so_far + oc, cumul)
                    right = self.d(t1[k + 1 :], t2[k + 1 :], mx, so_far + oc, cumul)
                    result, ops = None, []
                    if left is not None and right is not None:
                        result = ((oc + left[0]) + right[0], (left[1] - cumul) + right[1])
                        ops = [("pair", k, k, oc), *left[2], *_shift(right[2], k + 1)]
                else:
                    j1 = n - len(t1.lstrip(_SPACE)) if t1.strip(_SPACE) else -1
                    j2 = n - len(t2.lstrip(_SPACE)) if t2.strip(_SPACE) else -1
                    if j1 > 0 or j2 > 0:
                        result, ops = self._options(t1, t2, j1, j2, mx, so_far, cumul)
                    else:
                        cumul += 1
                        oc = cost[e1, e2]
                        child = self.d(t1[1:], t2[1:], mx, so_far + oc, cumul)
                        result, ops = None, []
                        if child is not None:
                            result = (oc + child[0], child[1])
                            ops = [self._op(e1, e2, oc), *_shift(child[2], 1)]
        if result is None:
            return None
        if self.use_memo and t1:
            self.memo[t1, t2] = (result[0], result[1] - orig, ops)
        return (result[0], result[1], _shift(ops, lead))

    def _options(
        self, t1: str, t2: str, j1: int, j2: int, mx: float, so_far: float, cumul: int
    ) -> tuple[tuple[float, int] | None, list[_RawOp]]:
        """Substitute (insert / delete) the first symbol, or transpose B's symbol."""
        e1, e2 = t1[0], t2[0]
        cumul += 1
        oc = self.cost[e1, e2]
        o1 = self.d(t1[1:], t2[1:], mx, so_far + oc, cumul)
        if j1 > 0:  # A's first symbol is at j1: move B's symbol at 0 forward onto it
            j = j1
            tc = self.trans[t1[j1]] * j1
        else:  # B's first symbol is at j2: move it back to 0, onto A's symbol
            j = j2
            tc = self.trans[t2[j2]] * j2
        mx2 = mx if o1 is None else min(mx, so_far + (oc + o1[0]))
        o2 = self.d(t1, _swap(t2, j), mx2, so_far + tc, cumul)
        if o1 is None and o2 is None:
            return (float("inf"), cumul), []
        if o1 is None or (o2 is not None and tc + o2[0] < oc + o1[0]):
            assert o2 is not None
            # The moved symbol's index in this frame; the child's B indices are in the swapped
            # frame and are mapped back.
            moved: _RawOp = ("move", None, 0 if j1 > 0 else j, tc)
            return (tc + o2[0], o2[1]), [moved, *_unswap(o2[2], j)]
        return (oc + o1[0], o1[1]), [self._op(e1, e2, oc), *_shift(o1[2], 1)]


def _resolve(raw: list[_RawOp], start: int, a: list[int], b: list[int]) -> list[OpTuple]:
    """Turn one stretch's raw operations (indices from ``start``) into public operations."""
    moves: dict[int, float] = {}
    for kind, _ai, bi, c in raw:
        if kind == "move":
            assert bi is not None
            moves[start + bi] = moves.get(start + bi, 0.0) + c
    out: list[OpTuple] = []
    for kind, ai, bi, c in raw:
        if kind == "del":
            assert ai is not None
            out.append(("deletion", start + ai, None, a[start + ai], 0, c))
        elif kind == "ins":
            assert bi is not None
            out.append(("insertion", None, start + bi, 0, b[start + bi], c))
        elif kind == "pair":
            assert ai is not None and bi is not None
            pa, pb = start + ai, start + bi
            if pb in moves:
                c = moves.pop(pb) + c
                out.append(("transposition", pa, pb, a[pa], b[pb], c))
            else:
                name = "match" if a[pa] == b[pb] and pa == pb else "substitution"
                out.append((name, pa, pb, a[pa], b[pb], c))
    for pb, c in moves.items():  # a move whose pairing was cut off (an Inf branch)
        out.append(("transposition", None, pb, 0, b[pb], c))
    return out


def segsimflex_speaker(
    a: np.ndarray,
    b: np.ndarray,
    scheme: BoundaryScheme,
    *,
    transpositions: bool = True,
    memo: bool = True,
    with_operations: bool = True,
) -> SegsimflexOutcome:
    """segsimflex's cost and action count for one speaker's two code arrays (equal lengths).

    ``memo=True`` is ``sim_Score(record = FALSE)`` (parDist1V4), ``memo=False`` is
    ``record = TRUE`` (parDistV3, the same search without the memo).
    """
    al = [int(v) for v in np.asarray(a).tolist()]
    bl = [int(v) for v in np.asarray(b).tolist()]
    cmat = (1.0 - scheme.similarity).tolist()
    ops: list[OpTuple] = []
    cost = 0.0
    actions = 0
    if not transpositions:  # calCostNoTrans1
        for i, (x, y) in enumerate(zip(al, bl, strict=True)):
            if x != y:
                c = cmat[x][y]
                cost += c
                actions += 1
                name = "substitution" if x and y else ("deletion" if x else "insertion")
                ops.append((name, i if x else None, i if y else None, x, y, c))
            elif x:
                ops.append(("match", i, i, x, y, 0.0))
        return SegsimflexOutcome(cost, actions, ops if with_operations else [])

    n = len(al)
    anchors = [i for i in range(n) if al[i] and bl[i]]
    subst = [cmat[al[i]][bl[i]] for i in anchors if al[i] != bl[i]]
    if subst:
        cost += float(np.sum(subst))
    actions += len(anchors)
    for i in anchors:
        x, y = al[i], bl[i]
        ops.append(("match" if x == y else "substitution", i, i, x, y, cmat[x][y]))
    s1 = "".join(_char(x) for x in al)
    s2 = "".join(_char(y) for y in bl)
    bounds = [-1, *anchors, n]
    longest = max((bounds[k + 1] - bounds[k] for k in range(len(bounds) - 1)), default=0)
    old_limit = sys.getrecursionlimit()
    if 4 * longest + 200 > old_limit:  # D recurses about twice per position
        sys.setrecursionlimit(4 * longest + 200)
    try:
        for k in range(len(bounds) - 1):
            lo, hi = bounds[k] + 1, bounds[k + 1]
            t1, t2 = s1[lo:hi], s2[lo:hi]
            if not t1.strip(_SPACE) and not t2.strip(_SPACE):
                continue
            size = len(t1)
            lead = min(size - len(t1.lstrip(_SPACE)), size - len(t2.lstrip(_SPACE)))
            trail = min(size - len(t1.rstrip(_SPACE)), size - len(t2.rstrip(_SPACE)))
            t1, t2 = t1[lead : size - trail], t2[lead : size - trail]
            start = lo + lead
            if not t1.strip(_SPACE):
                for i, ch in enumerate(t2):
                    if ch != _SPACE:
                        c = cmat[0][bl[start + i]]
                        cost += c
                        actions += 1
                        ops.append(("insertion", None, start + i, 0, bl[start + i], c))
            elif not t2.strip(_SPACE):
                for i, ch in enumerate(t1):
                    if ch != _SPACE:
                        c = cmat[al[start + i]][0]
                        cost += c
                        actions += 1
                        ops.append(("deletion", start + i, None, al[start + i], 0, c))
            else:
                search = _Search(scheme, memo)  # a fresh memo for every stretch
                res = search.d(t1, t2, float("inf"), 0.0, 0)
                assert res is not None  # an unbounded top-level call is never pruned
                cost += res[0]
                actions += res[1]
                ops.extend(_resolve(res[2], start, al, bl))
    finally:
        sys.setrecursionlimit(old_limit)
    ops.sort(key=_op_key)
    return SegsimflexOutcome(cost, actions, ops if with_operations else [])


def _op_key(op: OpTuple) -> tuple[int, int]:
    pos = [p for p in (op[1], op[2]) if p is not None]
    return (min(pos), max(pos))
