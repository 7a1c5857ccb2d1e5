"""The annotation of one tier that overlaps a given span most, among those not matched yet, in
logarithmic time: what ELAN's overlap/extent pairing asks for each annotation of the other tier
(:mod:`segagree.metrics.unitizing.overlap_extent`), which a scan answers in time linear in the
overlapping annotations (quadratic for nested turns, where every annotation overlaps every other).

The annotations ``b`` are in time order (start, then end). For a span ``[sa, ea]`` the candidates
are those with ``sb < ea`` and ``eb > sa``: a run of ``b`` ending before the first start at or after
``ea``. Its overlap with ``b[j]`` is ``min(ea, eb) - max(sa, sb)``:

* where ``sb <= sa`` (a prefix of the run) it is ``min(ea, eb) - sa``: the largest end wins, the
  first of the ties (a maximum tree over the ends);
* where ``sb > sa`` (the rest) it is ``min(ea - sb, eb - sb)``: the first term falls along the run,
  so the best is where the running maximum of the lengths ``eb - sb`` crosses ``ea - sb`` (found
  by one descent of a maximum tree over the lengths), and the first annotation reaching it is
  found by another.

Equal overlaps go to the earliest annotation, as the scan gives them (overlaps that differ only
after rounding, below a time's last bit, may be told apart differently than by the scan).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right

_NONE = float("-inf")


class _MaxTree:
    """A maximum segment tree over ``values`` (a bottom-up array, leaves padded with -inf)."""

    def __init__(self, values: list[float]) -> None:
        size = 1
        while size < max(len(values), 1):
            size *= 2
        self.size = size
        self.tree = [_NONE] * (2 * size)
        self.tree[size : size + len(values)] = values
        for v in range(size - 1, 0, -1):
            self.tree[v] = max(self.tree[2 * v], self.tree[2 * v + 1])

    def remove(self, j: int) -> None:
        v = j + self.size
        self.tree[v] = _NONE
        v //= 2
        while v:
            self.tree[v] = max(self.tree[2 * v], self.tree[2 * v + 1])
            v //= 2

    def nodes(self, lo: int, hi: int) -> list[int]:
        """The nodes covering ``[lo, hi)``, left to right."""
        left: list[int] = []
        right: list[int] = []
        lo += self.size
        hi += self.size
        while lo < hi:
            if lo & 1:
                left.append(lo)
                lo += 1
            if hi & 1:
                hi -= 1
                right.append(hi)
            lo //= 2
            hi //= 2
        return left + right[::-1]

    def maximum(self, lo: int, hi: int) -> float:
        return max((self.tree[v] for v in self.nodes(lo, hi)), default=_NONE)

    def first_at_least(self, lo: int, hi: int, threshold: float) -> int:
        """The first index in ``[lo, hi)`` whose value is at least ``threshold`` (-1: none)."""
        for v in self.nodes(lo, hi):
            if self.tree[v] >= threshold:
                while v < self.size:
                    v = 2 * v if self.tree[2 * v] >= threshold else 2 * v + 1
                return v - self.size
        return -1

    def _last_leaf(self, v: int) -> int:
        while v < self.size:
            v = 2 * v + 1
        return v - self.size

    def first_crossing(self, lo: int, hi: int, falling: list[float]) -> int:
        """The first ``J`` in ``[lo, hi)`` where the running maximum of the values from ``lo``
        reaches ``falling[J]`` (non-increasing in ``J``), or -1: one descent, since the running
        maximum minus ``falling`` only grows."""
        run = _NONE
        for v in self.nodes(lo, hi):
            end = min(self._last_leaf(v), hi - 1)
            if max(run, self.tree[v]) >= falling[end]:
                while v < self.size:
                    left = 2 * v
                    mid = min(self._last_leaf(left), hi - 1)
                    if max(run, self.tree[left]) >= falling[mid]:
                        v = left
                    else:
                        run = max(run, self.tree[left])
                        v = left + 1
                return v - self.size
            run = max(run, self.tree[v])
        return -1


class _Count:
    """A Fenwick tree of 0/1 flags: how many are set in a range."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.tree = [0] * (n + 1)
        for i in range(1, n + 1):
            self.tree[i] += 1
            up = i + (i & -i)
            if up <= n:
                self.tree[up] += self.tree[i]

    def clear(self, j: int) -> None:
        i = j + 1
        while i <= self.n:
            self.tree[i] -= 1
            i += i & -i

    def _prefix(self, i: int) -> int:
        total = 0
        while i > 0:
            total += self.tree[i]
            i -= i & -i
        return total

    def between(self, lo: int, hi: int) -> int:
        return self._prefix(hi) - self._prefix(lo) if hi > lo else 0


class OverlapSearch:
    """The annotations ``b`` (in time order) not matched yet, searched by overlap (see the module
    docstring). ``expire(sa)`` must be called with non-decreasing ``sa`` before :meth:`count`."""

    def __init__(self, b: list[tuple[float, float]]) -> None:
        self.b = b
        self.starts = [s for s, _ in b]
        self.ends = _MaxTree([e for _, e in b])
        self.lengths = _MaxTree([e - s for s, e in b])
        self.matched = [False] * len(b)
        self.active = _Count(len(b))  # not matched, and ending after the spans searched so far
        self.expired = [False] * len(b)
        self.by_end = sorted(range(len(b)), key=lambda j: b[j][1])
        self.next_end = 0

    def expire(self, sa: float) -> None:
        """Annotations ending at or before ``sa`` overlap no later span: no longer counted."""
        while self.next_end < len(self.by_end) and self.b[self.by_end[self.next_end]][1] <= sa:
            j = self.by_end[self.next_end]
            if not self.matched[j] and not self.expired[j]:
                self.active.clear(j)
            self.expired[j] = True
            self.next_end += 1

    def match(self, j: int) -> None:
        self.matched[j] = True
        self.ends.remove(j)
        self.lengths.remove(j)
        if not self.expired[j]:
            self.active.clear(j)

    def run_end(self, lo: int, ea: float) -> tuple[int, int]:
        """(the first index from ``lo`` starting at or after ``ea``, the first starting after it)."""
        return max(lo, bisect_left(self.starts, ea)), max(lo, bisect_right(self.starts, ea))

    def count(self, lo: int, hi: int) -> int:
        """Unmatched annotations in ``[lo, hi)`` ending after the last ``sa`` expired."""
        return self.active.between(lo, hi)

    def best(self, lo: int, sa: float, ea: float) -> tuple[int, float]:
        """The unmatched annotation from ``lo`` that overlaps ``[sa, ea]`` most (the first of the
        ties) and the overlap, or (-1, 0.0)."""
        q = self.run_end(lo, ea)[0]
        p = min(max(lo, bisect_right(self.starts, sa)), q)
        found, value = -1, _NONE
        top = self.ends.maximum(lo, p)
        if top > sa:  # starting at or before sa: the largest end wins (ending after sa)
            reach = min(ea, top)
            found = self.ends.first_at_least(lo, p, reach if reach > sa else math.nextafter(sa, math.inf))
            value = reach - sa
        if p < q:  # starting after sa: the best of min(ea - sb, eb - sb)
            falling = _Falling(self.starts, ea)
            cross = self.lengths.first_crossing(p, q, falling)  # type: ignore[arg-type]
            if cross < 0:
                later = self.lengths.maximum(p, q)
            else:
                before = self.lengths.maximum(p, cross) if cross > p else _NONE
                later = max(before, falling[cross])
            if later != _NONE and later > value:
                # the first annotation with ea - sb >= later (a prefix of [p, q)) and length >= later
                stop = p + bisect_right(_Reversed(falling, p, q), -later)
                j = self.lengths.first_at_least(p, stop, later)
                if j >= 0:
                    found, value = j, later
        return (found, value) if found >= 0 else (-1, 0.0)


class _Falling:
    """``ea - starts[j]`` for any ``j``, computed when asked (non-increasing in ``j``)."""

    def __init__(self, starts: list[float], ea: float) -> None:
        self.starts, self.ea = starts, ea

    def __getitem__(self, j: int) -> float:
        return self.ea - self.starts[j]


class _Reversed:
    """``-falling[p + i]`` for ``i`` in ``range(q - p)``: non-decreasing, for :func:`bisect_right`."""

    def __init__(self, falling: _Falling, p: int, q: int) -> None:
        self.falling, self.p, self.n = falling, p, q - p

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> float:
        return -self.falling[self.p + i]
