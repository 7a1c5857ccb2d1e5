"""Segmentation representations and conversions for the segeval-style metrics.

Three input formats describe one segmentation of a text of ``N`` units:

* **masses**: segment lengths, positive ints summing to ``N`` (segeval's default format),
  e.g. ``[5, 3, 5]``.
* **sets**: a sequence of ``N - 1`` collections of positive integer type ids, one per *gap*
  (the gap after unit ``i + 1`` has 0-based index ``i``), e.g. ``[set(), {1}, {1, 2}]``
  (segeval's "sets" boundary format).
* **codes**: a per-token code array of length ``N`` (a Document layer of one speaker): code 0 is
  no boundary, ``c > 0`` a boundary of type ``c`` after that token. The last token ends the
  stream, so its boundary is the end of the text and not a gap: it is ignored here.

Positions reported by every metric are 0-based gap indices in the ``N - 1`` boundary string,
as in segeval. Internally every input becomes a :class:`Segmentation`.
"""

from __future__ import annotations

import numbers
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from segagree.errors import UsageError

Format = Literal["masses", "sets", "codes"]
FORMATS: tuple[str, ...] = ("masses", "sets", "codes")


def _is_int(x: Any) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def validate_masses(masses: Any, name: str = "masses") -> np.ndarray:
    """Check a mass list and return it as an int64 array.

    Raises:
        UsageError: when it is empty, not a sequence, or holds a non-integer or
            non-positive mass (the message names the index).
    """
    if isinstance(masses, (str, bytes)) or not isinstance(masses, Iterable):
        raise UsageError(f"{name} must be a sequence of positive ints, got {type(masses).__name__}")
    arr: np.ndarray | None = None
    if isinstance(masses, np.ndarray):
        if masses.ndim == 1 and masses.dtype.kind in "iu":
            arr = masses
    elif isinstance(masses, (list, tuple)) and set(map(type, masses)) == {int}:
        arr = np.fromiter(masses, dtype=np.int64, count=len(masses))  # plain Python ints
    if arr is not None and arr.size and arr.min() > 0:
        return arr.astype(np.int64, copy=False)
    out = []
    for i, m in enumerate(masses):
        if not _is_int(m):
            raise UsageError(f"{name}[{i}] = {m!r} is not an integer mass")
        if m <= 0:
            raise UsageError(f"{name}[{i}] = {m} is not a positive mass")
        out.append(int(m))
    if not out:
        raise UsageError(f"{name} is empty: a segmentation needs at least one segment")
    return np.array(out, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class Segmentation:
    """One segmentation of ``n_units`` units, as gap codes or gap sets.

    Attributes:
        n_units: N, the number of units (tokens).
        gaps: ``(N - 1,)`` int array, the boundary type at each gap (0 = none), when every gap
            holds at most one type; otherwise None.
        sets: the ``N - 1`` gap type sets when some gap holds several types; otherwise None.
    """

    n_units: int
    gaps: np.ndarray | None
    sets: tuple[frozenset[int], ...] | None = None

    @property
    def n_gaps(self) -> int:
        """N - 1, the number of potential boundary positions."""
        return self.n_units - 1

    def gap_sets(self) -> tuple[frozenset[int], ...]:
        """The ``N - 1`` gap type sets (segeval's boundary string)."""
        if self.sets is not None:
            return self.sets
        assert self.gaps is not None
        empty: frozenset[int] = frozenset()
        return tuple(frozenset((int(c),)) if c else empty for c in self.gaps.tolist())

    def presence(self) -> np.ndarray:
        """``(N - 1,)`` bool array: a boundary of any type at the gap."""
        if self.gaps is not None:
            return self.gaps != 0
        assert self.sets is not None
        return np.fromiter((bool(s) for s in self.sets), dtype=bool, count=len(self.sets))

    def boundary_positions(self) -> np.ndarray:
        """0-based gap indices holding a boundary (any type), ascending."""
        return np.flatnonzero(self.presence())

    def masses(self) -> list[int]:
        """Segment masses (boundaries of any type end a segment)."""
        edges = np.concatenate(([0], self.boundary_positions() + 1, [self.n_units]))
        return np.diff(edges).tolist()

    def types(self) -> frozenset[int]:
        """The boundary types that occur at the gaps."""
        if self.gaps is not None:
            return frozenset(np.unique(self.gaps[self.gaps != 0]).tolist())
        assert self.sets is not None
        return frozenset().union(*self.sets) if self.sets else frozenset()

    def n_boundaries(self) -> int:
        """Number of (position, type) boundaries."""
        if self.gaps is not None:
            return int(np.count_nonzero(self.gaps))
        assert self.sets is not None
        return sum(len(s) for s in self.sets)


def _segmentation_from_masses(masses: Any, name: str) -> Segmentation:
    m = validate_masses(masses, name)
    n = int(m.sum())
    gaps = np.zeros(n - 1, dtype=np.int8)  # one type: the smallest dtype
    ends = np.cumsum(m)[:-1] - 1
    gaps[ends] = 1
    return Segmentation(n, gaps)


def _segmentation_from_sets(sets: Any, name: str) -> Segmentation:
    out: list[frozenset[int]] = []
    multi = False
    for i, s in enumerate(sets):
        if isinstance(s, (str, bytes)) or not isinstance(s, Iterable):
            raise UsageError(f"{name}[{i}] = {s!r} is not a collection of boundary types")
        fs = frozenset(s)
        for t in fs:
            if not _is_int(t) or t <= 0:
                raise UsageError(f"{name}[{i}] holds {t!r}: boundary types must be positive ints")
        multi = multi or len(fs) > 1
        out.append(frozenset(int(t) for t in fs))
    if multi:
        return Segmentation(len(out) + 1, None, tuple(out))
    gaps = np.fromiter((next(iter(s)) if s else 0 for s in out), dtype=np.int64, count=len(out))
    return Segmentation(len(out) + 1, gaps)


def _codes_array(codes: Any, name: str) -> np.ndarray:
    arr = np.asarray(codes)
    if arr.ndim != 1 or arr.size == 0:
        raise UsageError(f"{name} must be a non-empty 1-D array of boundary codes")
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            raise UsageError(f"{name} holds non-integer codes")
    elif arr.dtype.kind not in "iub":
        raise UsageError(f"{name} must hold integer codes, got dtype {arr.dtype}")
    arr = arr.astype(np.int64)
    if arr.min() < 0:
        raise UsageError(f"{name}[{int(np.argmin(arr))}] is negative: codes are 0 (none) or > 0")
    return arr


def _segmentation_from_codes(codes: Any, name: str) -> Segmentation:
    arr = _codes_array(codes, name)
    return Segmentation(arr.size, arr[:-1].copy())


def _guess_format(x: Any, name: str) -> str:
    if isinstance(x, Segmentation):
        return "segmentation"
    if isinstance(x, (str, bytes)) or not isinstance(x, Iterable):
        raise UsageError(f"{name} must be masses, gap sets or codes, got {type(x).__name__}")
    if isinstance(x, np.ndarray):
        return "masses"
    seq = x if isinstance(x, Sequence) else list(x)
    if len(seq) == 0:
        raise UsageError(f"{name} is empty: give masses, or fmt='sets' for a one-unit text")
    first = seq[0]
    if isinstance(first, Collection) and not isinstance(first, (str, bytes)):
        return "sets"
    return "masses"


def as_segmentation(x: Any, fmt: Format | None = None, name: str = "segmentation") -> Segmentation:
    """Turn masses, gap sets or a code array into a :class:`Segmentation`.

    Args:
        x: the segmentation.
        fmt: ``"masses"``, ``"sets"`` or ``"codes"``; None guesses masses or sets from the
            first element (a code array is never guessed: pass ``fmt="codes"``).
        name: how error messages call the argument.
    """
    kind = fmt if fmt is not None else _guess_format(x, name)
    if kind == "segmentation" or isinstance(x, Segmentation):
        return x
    if kind == "masses":
        return _segmentation_from_masses(x, name)
    if kind == "sets":
        return _segmentation_from_sets(x, name)
    if kind == "codes":
        return _segmentation_from_codes(x, name)
    raise UsageError(f"unknown format {fmt!r}; expected one of {list(FORMATS)}")


def as_pair(
    a: Any, b: Any, fmt: Format | None = None, names: tuple[str, str] = ("a", "b")
) -> tuple[Segmentation, Segmentation]:
    """Two segmentations of the same text, or a UsageError naming the two lengths."""
    sa = as_segmentation(a, fmt, names[0])
    sb = as_segmentation(b, fmt, names[1])
    if sa.n_units != sb.n_units:
        raise UsageError(
            f"{names[0]} and {names[1]} cover different texts: {sa.n_units} units != "
            f"{sb.n_units} units (masses must have the same total)"
        )
    return sa, sb


# --- public conversions ------------------------------------------------------------


def masses_from_codes(codes: Sequence[int] | np.ndarray) -> list[int]:
    """Segment masses of a per-token code array.

    A segment ends at every token with a non-zero code; the last token always ends the text
    (its code is the end of the stream, not a gap). ``[0, 2, 0, 0, 1]`` gives ``[2, 3]``.
    """
    return _segmentation_from_codes(codes, "codes").masses()


def sets_from_codes(codes: Sequence[int] | np.ndarray) -> list[frozenset[int]]:
    """The ``N - 1`` gap type sets of a per-token code array (segeval's "sets" format).

    ``[0, 2, 0, 0, 1]`` gives ``[frozenset(), {2}, frozenset(), frozenset()]``: the last
    token's code is the end of the stream and is dropped.
    """
    return list(_segmentation_from_codes(codes, "codes").gap_sets())


def sets_from_masses(masses: Sequence[int]) -> list[frozenset[int]]:
    """segeval's boundary string of a mass list: type ``{1}`` at the end of every segment
    except the last, ``N - 1`` entries."""
    return list(_segmentation_from_masses(masses, "masses").gap_sets())


def codes_from_masses(masses: Sequence[int], code: int = 1) -> np.ndarray:
    """Per-token code array of a mass list: ``code`` on the last token of every segment."""
    m = validate_masses(masses)
    out = np.zeros(int(m.sum()), dtype=np.int64)
    out[np.cumsum(m) - 1] = code
    return out


def positions_from_masses(masses: Sequence[int]) -> list[int]:
    """0-based gap indices of the boundaries of a mass list (``[5, 3, 5]`` -> ``[4, 7]``)."""
    m = validate_masses(masses)
    return (np.cumsum(m)[:-1] - 1).tolist()


def masses_from_positions(positions: Iterable[int], n_units: int) -> list[int]:
    """Masses from 0-based gap indices of the boundaries in a text of ``n_units`` units."""
    if not _is_int(n_units) or n_units < 1:
        raise UsageError(f"n_units = {n_units!r} must be a positive int")
    pos = sorted(set(int(p) for p in positions))
    if pos and (pos[0] < 0 or pos[-1] > n_units - 2):
        raise UsageError(f"boundary positions must lie in 0..{n_units - 2} (N - 1 gaps)")
    edges = [0] + [p + 1 for p in pos] + [n_units]
    return [edges[i + 1] - edges[i] for i in range(len(edges) - 1)]


def boundary_string(masses: Sequence[int]) -> str:
    """NLTK's boundary string of a mass list: ``N - 1`` characters, ``"1"`` at a boundary."""
    m = validate_masses(masses)
    s = ["0"] * (int(m.sum()) - 1)
    for p in np.cumsum(m)[:-1] - 1:
        s[int(p)] = "1"
    return "".join(s)
