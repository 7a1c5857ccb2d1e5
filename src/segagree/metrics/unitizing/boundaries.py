"""Boundary precision/recall/F1 within a time tolerance, and segmentation purity and coverage, as
pyannote.metrics (4.x, ``pyannote.metrics.segmentation``) defines them, for every annotator pair
``"A|B"`` with A as the reference.

* **Boundaries** (``SegmentationPrecision``/``Recall``): an annotator's boundaries are the ends of their
  units sorted by (start, end), all but the last (duplicates count once). Boundaries at most
  ``tolerance`` seconds apart are matched one-to-one; precision = matches / B's boundaries, recall =
  matches / A's boundaries (1 when there is none to find), F1 their harmonic mean. pyannote's default
  tolerance is 0; ours is 0.2 s. Two boundaries exactly the tolerance apart in the file are matched
  (distances within :data:`~segagree.metrics.unitizing.shared.TIME_SLACK` of it count as within):
  pyannote compares the floats and misses some of them (174.710 - 174.510 > 0.2).

  ``matching="optimal"`` (the default) takes a maximum matching: the most pairs within the tolerance.
  On points of a line with the rule |a - b| <= tolerance, a two-pointer walk over both sorted lists
  (match the two smallest free boundaries when they are close enough, else drop the smaller one) is a
  maximum-cardinality matching (an exchange argument: the smallest boundary, if matchable, can always be
  matched to its smallest partner). ``matching="greedy"`` is pyannote's: the closest remaining pair again
  and again, which can match fewer (pyannote.metrics issue 95: A {10, 11.5}, B {11, 12.5}, tolerance
  1.1 gives 1 match greedily, 2 optimally).
* **An annotator with no units** (the other has some): the annotator who drew units has every unit's
  end as a boundary (the last one too) and the other none, so the pair's F1 is 0 (pyannote gives 1 when
  neither side has a boundary). Two annotators with no units: the pair is undefined (not counted).
* **Purity and coverage** (``SegmentationPurity``/``Coverage``): A's units of one label, gaps shorter
  than ``purity_tolerance`` (pyannote's 0.5 s) filled, give the covered stretch; A's and B's unit
  boundaries cut it into two partitions; with ``K`` the durations of their intersections, coverage =
  Σ_A-parts max_B K / Σ K and purity = Σ_B-parts max_A K / Σ K (1 when there is nothing); the
  value is their F-measure (``SegmentationPurityCoverageFMeasure``). When exactly one annotator of the
  pair has no units, nothing of the other's stretch is covered: the total is the covered duration of
  the one with units and purity = coverage = 0 (pyannote gives 1); with neither, the pair is undefined.

Pooled (over pairs, speakers and texts): matches, boundary counts and durations add, and the scores
come from the sums.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.metrics.boundary.stats import signature
from segagree.metrics.contract import Measure, UnitSet
from segagree.metrics.unitizing.shared import TIME_SLACK, time_card, within

__all__ = [
    "MATCHINGS",
    "MEASURES",
    "BoundaryF1",
    "PurityCoverage",
    "boundary_matches",
    "optimal_boundary_matches",
    "purity_coverage_sums",
]

MATCHINGS = ("optimal", "greedy")


def _timeline(us: UnitSet, r: int) -> list[tuple[float, float]]:
    """Annotator r's units as pyannote's Timeline holds them: a sorted set of (start, end)."""
    sel = us.annotator == r
    return sorted(set(zip(us.start[sel].tolist(), us.end[sel].tolist(), strict=True)))


def boundary_matches(ref: list[float], hyp: list[float], tolerance: float) -> int:
    """Greedy one-to-one matching of boundaries at most ``tolerance`` apart, as pyannote's
    SegmentationPrecision: it takes the closest remaining pair again and again (ties: the first in
    row-major order), which is the first free pair in the order (distance, row, column) of the candidate
    pairs. Only pairs within the tolerance are listed (sorted boundaries, searchsorted), not all n x m."""
    if not ref or not hyp:
        return 0
    r, h = np.asarray(ref, dtype=float), np.asarray(hyp, dtype=float)
    order = np.argsort(h, kind="stable")
    hs = h[order]
    lo = np.searchsorted(hs, r - tolerance - TIME_SLACK, side="left")
    hi = np.searchsorted(hs, r + tolerance + TIME_SLACK, side="right")
    counts = np.maximum(hi - lo, 0)
    rows = np.repeat(np.arange(r.size), counts)
    near = [np.arange(a, b) for a, b in zip(lo.tolist(), hi.tolist(), strict=True) if b > a]
    cols = order[np.concatenate(near)] if near else np.zeros(0, dtype=np.int64)
    dist = np.abs(r[rows] - h[cols])
    keep = within(dist, tolerance)
    rows, cols, dist = rows[keep], cols[keep], dist[keep]
    taken_r = np.zeros(r.size, dtype=bool)
    taken_h = np.zeros(h.size, dtype=bool)
    matches = 0
    for k in np.lexsort((cols, rows, dist)).tolist():
        i, j = rows[k], cols[k]
        if not taken_r[i] and not taken_h[j]:
            taken_r[i] = taken_h[j] = True
            matches += 1
    return matches


def optimal_boundary_matches(ref: list[float], hyp: list[float], tolerance: float) -> int:
    """The size of a maximum one-to-one matching of boundaries at most ``tolerance`` apart: the
    two-pointer walk over the sorted boundaries (see the module docstring for why it is maximum)."""
    r = sorted(ref)
    h = sorted(hyp)
    i = j = matches = 0
    while i < len(r) and j < len(h):
        if within(abs(r[i] - h[j]), tolerance):
            matches += 1
            i += 1
            j += 1
        elif r[i] < h[j]:
            i += 1
        else:
            j += 1
    return matches


def _matching(params: Mapping[str, Any]) -> str:
    value = str(params.get("matching") or "optimal").lower()
    if value not in MATCHINGS:
        raise ValueError(f"matching must be one of {MATCHINGS}, not {value!r}")
    return value


def _support(segments: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The union of segments as disjoint, sorted segments."""
    out: list[list[float]] = []
    for s, e in sorted(segments):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def _filled(us: UnitSet, r: int, tolerance: float) -> list[tuple[float, float]]:
    """A's units with each label's gaps shorter than ``tolerance`` filled (pyannote's preprocessing)."""
    sel = us.annotator == r
    out: list[tuple[float, float]] = []
    for c in np.unique(us.category[sel]).tolist():
        mine = sel & (us.category == c)
        label = _support(list(zip(us.start[mine].tolist(), us.end[mine].tolist(), strict=True)))
        filled = [label[0]] if label else []
        for s, e in label[1:]:
            if s - filled[-1][1] < tolerance:
                filled[-1] = (filled[-1][0], e)
            else:
                filled.append((s, e))
        out.extend(_support(filled))
    return out


def _partition(segments: list[tuple[float, float]], coverage: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Consecutive boundaries of the segments, cropped to the coverage (pyannote's ``_partition``): the
    pieces between consecutive points of the boundaries and the coverage's bounds that lie inside both."""
    cuts = np.unique(np.asarray([t for seg in segments for t in seg], dtype=float))
    if cuts.size < 2 or not coverage:
        return []
    cov = np.asarray(coverage, dtype=float)
    inner = cov.ravel()
    points = np.unique(np.concatenate([cuts, inner[(inner > cuts[0]) & (inner < cuts[-1])]]))
    a, b = points[:-1], points[1:]
    mid = (a + b) / 2
    k = np.searchsorted(cov[:, 0], mid, side="right") - 1
    inside = (k >= 0) & (mid < cov[np.clip(k, 0, None), 1])
    return list(zip(a[inside].tolist(), b[inside].tolist(), strict=True))


def _cooccurrence(rows: list[tuple[float, float]], cols: list[tuple[float, float]]) -> np.ndarray:
    if not rows or not cols:
        return np.zeros((len(rows), len(cols)))
    r, c = np.asarray(rows), np.asarray(cols)
    return np.clip(np.minimum(r[:, None, 1], c[None, :, 1]) - np.maximum(r[:, None, 0], c[None, :, 0]), 0, None)


def purity_coverage_sums(us: UnitSet, a: int, b: int, tolerance: float) -> tuple[float, float, float]:
    """(Σ K, Σ_A max K, Σ_B max K) of the pair (A reference, B hypothesis)."""
    filled = _filled(us, a, tolerance)
    coverage = _support(filled)
    k = _cooccurrence(_partition(filled, coverage), _partition(_timeline(us, b), coverage))
    if not k.size:
        return float(k.sum()), 0.0, 0.0
    return float(k.sum()), float(k.max(axis=1).sum()), float(k.max(axis=0).sum())


def _pairs(us: UnitSet) -> list[tuple[int, int]]:
    n = len(us.annotators)
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


@dataclass
class PairSums:
    """Per pair "A|B": summed components."""

    pairs: dict[str, np.ndarray] = field(default_factory=dict)

    def __add__(self, other: PairSums) -> PairSums:
        out = {k: v.copy() for k, v in self.pairs.items()}
        for k, v in other.pairs.items():
            out[k] = out[k] + v if k in out else v.copy()
        return PairSums(out)

    def total(self) -> np.ndarray:
        return np.sum(list(self.pairs.values()), axis=0) if self.pairs else np.zeros(3)


def _f(p: float, r: float) -> float:
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


@dataclass(frozen=True)
class PairResult:
    value: float | None
    pairs: dict[str, dict[str, float]]
    pooled: dict[str, Any]
    key: str
    signature: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = {"value": self.value, **self.pooled, self.key: self.pairs}
        if self.signature:
            out["signature"] = self.signature
        return out


class _Pairwise(Measure[UnitSet, PairSums, PairResult]):
    """A measure of every annotator pair A|B whose components add (:class:`PairSums`)."""

    value_key: str = ""
    pairs_key: str = ""

    @abstractmethod
    def pair_sums(self, item: UnitSet, a: int, b: int, params: Mapping[str, Any]) -> np.ndarray | None:
        """The additive components of one pair (A = annotator a, the reference); None: the pair is
        undefined (neither annotator has units)."""

    @abstractmethod
    def scores(self, sums: np.ndarray) -> dict[str, float]:
        """The scores of summed components."""

    def settings(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The settings that move the value, for the signature."""
        return {}

    def statistics(self, item: UnitSet, params: Mapping[str, Any]) -> PairSums:
        out = PairSums()
        for a, b in _pairs(item):
            sums = self.pair_sums(item, a, b, params)
            if sums is not None:
                out.pairs[f"{item.annotators[a]}|{item.annotators[b]}"] = sums
        return out

    def score(self, stats: PairSums, params: Mapping[str, Any]) -> PairResult:
        pooled: dict[str, Any] = dict(self.scores(stats.total()))
        pairs = {k: self.scores(v) for k, v in stats.pairs.items()}
        if not stats.pairs:
            pooled = {"reason": "no annotator pair with units (an annotator without units against another is 0)"}
        value = pooled[self.value_key] if stats.pairs else None
        return PairResult(value, pairs, pooled, self.pairs_key, signature(self.card.name, **self.settings(params)))


_REFERENCE = "pyannote.metrics 4.2.0 outputs (tests/data/unitizing/pyannote_reference.json with its script)"


class BoundaryF1(_Pairwise):
    """Boundary precision, recall and F1 within a tolerance (see the module docstring)."""

    card = time_card(
        "boundary_f1",
        "Boundary F1 within a time tolerance",
        "most matches of boundaries at most tolerance s apart (one-to-one; matching=greedy: pyannote's); "
        "P = matches / B's, "
        "R = matches / A's, F1 = 2PR / (P + R), per annotator pair A|B",
        "pyannote.metrics SegmentationPrecision/SegmentationRecall (Bredin 2017, Interspeech)",
        parameters={"tolerance": "0.2", "matching": "optimal (or greedy: pyannote's)"},
        reference=_REFERENCE,
        notes="A boundary is a unit's end, except the last unit's (pyannote); pyannote's default tolerance is 0.",
    )
    value_key, pairs_key = "f1", "boundary_pairs"

    def settings(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return {"tolerance": f"{float(params.get('tolerance', 0.2)):g}", "matching": _matching(params)}

    def pair_sums(self, item: UnitSet, a: int, b: int, params: Mapping[str, Any]) -> np.ndarray | None:
        ends_a = [e for _, e in _timeline(item, a)]
        ends_b = [e for _, e in _timeline(item, b)]
        if not ends_a and not ends_b:
            return None
        # One side without units: the other's every end is a boundary nobody found (F1 0, not 1).
        ref = ends_a if not ends_b else ends_a[:-1]
        hyp = ends_b if not ends_a else ends_b[:-1]
        tolerance = float(params.get("tolerance", 0.2))
        count = optimal_boundary_matches if _matching(params) == "optimal" else boundary_matches
        return np.array([count(ref, hyp, tolerance), len(ref), len(hyp)], dtype=float)

    def scores(self, sums: np.ndarray) -> dict[str, float]:
        m, n_ref, n_hyp = sums.tolist()
        p = m / n_hyp if n_hyp else 1.0
        r = m / n_ref if n_ref else 1.0
        return {"precision": p, "recall": r, "f1": _f(p, r), "matches": m, "boundaries_a": n_ref, "boundaries_b": n_hyp}


class PurityCoverage(_Pairwise):
    """Segmentation purity and coverage (see the module docstring)."""

    card = time_card(
        "purity_coverage",
        "Segmentation purity and coverage (F-measure)",
        "coverage = Σ_A-parts max_B overlap / total, purity = Σ_B-parts max_A overlap / total over the "
        "two partitions of A's covered stretch; value = 2 P C / (P + C), per annotator pair A|B",
        "pyannote.metrics SegmentationPurity/SegmentationCoverage (Bredin 2017, Interspeech)",
        parameters={"purity_tolerance": "0.5"},
        reference=_REFERENCE,
        notes="A is the reference; A's same-label gaps shorter than purity_tolerance are filled (pyannote).",
    )
    value_key, pairs_key = "f_measure", "purity_pairs"

    def settings(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return {"purity_tolerance": f"{float(params.get('purity_tolerance', 0.5)):g}"}

    def pair_sums(self, item: UnitSet, a: int, b: int, params: Mapping[str, Any]) -> np.ndarray | None:
        tolerance = float(params.get("purity_tolerance", 0.5))
        has_a, has_b = bool(np.any(item.annotator == a)), bool(np.any(item.annotator == b))
        if not has_a and not has_b:
            return None
        if not (has_a and has_b):  # nothing of the one with units is covered by the other
            covered = _support(_filled(item, a if has_a else b, tolerance))
            return np.array([sum(e - s for s, e in covered), 0.0, 0.0])
        return np.array(purity_coverage_sums(item, a, b, tolerance))

    def scores(self, sums: np.ndarray) -> dict[str, float]:
        total, cov, pur = sums.tolist()
        coverage = cov / total if total else 1.0
        purity = pur / total if total else 1.0
        return {"purity": purity, "coverage": coverage, "f_measure": _f(purity, coverage)}


MEASURES = (BoundaryF1(), PurityCoverage())
