"""The uα family of Krippendorff, Mathet, Bouvry & Milliat (2016): uα, |uα, cuα and (k)uα.

Krippendorff, K., Mathet, Y., Bouvry, S. & Milliat, A. (2016). On the reliability of unitizing textual
continua: Further developments. Quality & Quantity 50:2347-2364.

Each annotator's units, with the gaps between them as segments of the empty value ∅, partition the
continuum; m annotators, ``l = m L`` pairable positions.

* Observed coincidences (eq. 1): ``o_ck = Σ_{i≠j} Σ |g ∩ h| / (m - 1)`` over segments g of annotator i
  with value c and h of j with value k; margins ``l_c``.
* Expected (eq. 4): ``e_ck = l (l_c l_k - [c = k] Σ_{g of c} l_g²) / (l² - Σ_g l_g²)``, where a gap counts
  as that many segments of length 1 (its Σ l² is its length: a gap has no structure of its own).
* ``uα = 1 - (l - Σ_c o_cc) / (l - Σ_c e_cc)`` (nominal); ``|uα`` the same for ∅ against all values
  merged: ``1 - (l_∅ - o_∅∅) / (e_∅· - e_∅∅)``.
* cuα (eqs. 10-11): only the intersections of valued units: ``l'_c = l_c - o_c∅``, ``l' = Σ l'_c``,
  ``e'_ck = (l'_c l'_k - [c = k] Σ_{g of c} Σ_{j≠i} |g ∩ valued units of j|² / (m - 1))
  / (l' - Σ_g Σ_{j≠i} |g ∩ valued of j|² / (l' (m - 1)))``; ``cuα = 1 - (l' - Σ o_cc) / (l' - Σ e'_cc)``.
* (k)uα (eq. 13b): ``1 - (e'_k· / l'_k) (l'_k - o_kk) / (e'_k· - e'_kk)``.

Times become positions at ``resolution`` seconds (``auto``: 1 when all times are whole numbers, else
0.001), since a gap's positions count one by one. Each value is None with a reason where it is 0/0:
uα of a contiguous segmentation with one category, |uα without gaps, cuα with fewer than two categories
or no intersecting units, (k)uα of a value nobody used on an intersection. Overlapping units of one
annotator are read as a partition: an instant belongs to the latest-starting unit that covers it.
Several speakers (or texts) pool as consecutive stretches (their sums add).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.metrics.contract import Card, Measure, UnitSet
from segagree.metrics.unitizing.shared import NO_CATEGORY, resolution, time_card

__all__ = ["MEASURES", "BarUAlpha", "CUAlpha", "KUAlpha", "UAlpha", "UAlphaResult", "UAlphaStats"]

EMPTY = ""  # the key of the empty value ∅ (gaps) in the statistics


@dataclass
class UAlphaStats:
    """Sufficient statistics in seconds (converted to positions when scored): the coincidences
    ``(c, k) -> o_ck`` (∅ = ""), Σ l² of units per value, the gaps' total length, the squared
    intersections of each valued unit with another annotator's valued units per value, l = m L."""

    annotators: int
    pairable: float
    coincidences: dict[tuple[str, str], float] = field(default_factory=dict)
    unit_squares: dict[str, float] = field(default_factory=dict)
    gap_length: float = 0.0
    intersection_squares: dict[str, float] = field(default_factory=dict)
    integral: bool = True

    def __add__(self, other: UAlphaStats) -> UAlphaStats:
        def merged(a: dict[Any, float], b: dict[Any, float]) -> dict[Any, float]:
            out = dict(a)
            for k, v in b.items():
                out[k] = out.get(k, 0.0) + v
            return out

        if self.annotators != other.annotators:
            raise ValueError("uα: statistics of different numbers of annotators cannot be added")
        return UAlphaStats(
            self.annotators,
            self.pairable + other.pairable,
            merged(self.coincidences, other.coincidences),
            merged(self.unit_squares, other.unit_squares),
            self.gap_length + other.gap_length,
            merged(self.intersection_squares, other.intersection_squares),
            self.integral and other.integral,
        )


def _labels_on(
    mid: np.ndarray, starts: np.ndarray, ends: np.ndarray, cats: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For each elementary interval (its midpoint), the covering unit's index and category
    (-1 and -2 where none: the gap)."""
    if starts.size == 0:  # an annotator who marked nothing: all gap
        return np.full(mid.size, -1), np.full(mid.size, -2)
    order = np.lexsort((ends, starts))
    s, e, c = starts[order], ends[order], cats[order]
    idx = np.searchsorted(s, mid, side="right") - 1
    ok = idx >= 0
    ok[ok] = e[idx[ok]] > mid[ok]
    unit = np.where(ok, order[np.clip(idx, 0, None)], -1)
    return unit, np.where(ok, c[np.clip(idx, 0, None)], -2)


def u_alpha_statistics(item: UnitSet) -> UAlphaStats:
    """The coincidences and sums of one continuum (see :class:`UAlphaStats`)."""
    b, e = item.continuum
    m = len(item.annotators)
    names = list(item.categories) or [NO_CATEGORY]
    cat = item.category if item.categories else np.zeros(item.start.size, dtype=np.int64)
    times = np.concatenate([item.start, item.end, [b, e]])
    stats = UAlphaStats(m, m * (e - b), integral=bool(np.all(times == np.round(times))))
    lengths = item.end - item.start
    for c, name in enumerate(names):
        mine = cat == c
        if mine.any():
            stats.unit_squares[name] = float(np.sum(lengths[mine] ** 2))
    cuts = np.unique(np.concatenate([item.start, item.end, [b, e]]))
    cuts = cuts[(cuts >= b) & (cuts <= e)]
    width, mid = np.diff(cuts), (cuts[:-1] + cuts[1:]) / 2
    per = []
    for r in range(m):
        sel = np.flatnonzero(item.annotator == r)
        unit, value = _labels_on(mid, item.start[sel], item.end[sel], cat[sel])
        glob = sel[np.clip(unit, 0, None)] if sel.size else np.full(mid.size, -1)
        per.append((np.where(unit >= 0, glob, -1), value))
        stats.gap_length += float(width[value == -2].sum())
    if m < 2:
        return stats
    key = [EMPTY, *names]  # matrix index 0 is the gap (∅), c + 1 the category c
    o = np.zeros((len(key), len(key)))
    inter = np.zeros(item.start.size)
    for i in range(m):
        for j in range(m):
            if i == j:
                continue
            vi, vj = per[i][1], per[j][1]
            np.add.at(o, (np.maximum(vi + 1, 0), np.maximum(vj + 1, 0)), width / (m - 1))
            both = (vi >= 0) & (vj >= 0)
            # Σ_j |g ∩ valued units of j|², per unit g of annotator i.
            overlap = np.bincount(per[i][0][both], weights=width[both], minlength=item.start.size)
            inter += overlap**2
    for a, b_ in zip(*np.nonzero(o), strict=True):
        stats.coincidences[(key[a], key[b_])] = float(o[a, b_])
    for c, name in enumerate(names):
        mine = cat == c
        if mine.any():
            stats.intersection_squares[name] = float(inter[mine].sum())
    return stats


@dataclass(frozen=True)
class UAlphaResult:
    """One coefficient of the family (None with a reason where undefined); (k)uα per value."""

    alpha: float | None
    observed: float | None = None
    expected: float | None = None
    reason: str = ""
    per_value: dict[str, dict[str, Any]] | None = None

    @property
    def value(self) -> float | None:
        return self.alpha

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.alpha, "D_o": self.observed, "D_e": self.expected}
        if self.reason:
            out["reason"] = self.reason
        if self.per_value is not None:
            out["ku_alpha_values"] = self.per_value
        return out


@dataclass
class _Matrices:
    """The coincidence matrices in positions (index 0 = ∅)."""

    names: list[str]
    o: np.ndarray
    e: np.ndarray
    pairable: float
    margins: np.ndarray
    m: int
    cu_margins: np.ndarray  # l'_c of the valued values (index c - 1)
    cu_e: np.ndarray | None  # e'_ck over valued values


def matrices(stats: UAlphaStats, params: Mapping[str, Any]) -> _Matrices:
    """The observed and expected coincidences of eq. 1, 4 and 10 from the statistics."""
    res = resolution(params, stats.integral)
    valued = sorted({v for pair in stats.coincidences for v in pair if v != EMPTY} | set(stats.unit_squares))
    names = [EMPTY, *valued]
    idx = {n: i for i, n in enumerate(names)}
    o = np.zeros((len(names), len(names)))
    for (a, b), v in stats.coincidences.items():
        o[idx[a], idx[b]] += v / res
    margins = o.sum(axis=1)
    squares = np.array([stats.gap_length / res] + [stats.unit_squares.get(n, 0.0) / res**2 for n in valued])
    total = stats.pairable / res
    denominator = total**2 - squares.sum()
    e = (
        total * (np.outer(margins, margins) - np.diag(squares)) / denominator
        if denominator
        else np.full_like(o, np.nan)
    )
    cu_margins = margins[1:] - o[1:, 0]
    cu_total = cu_margins.sum()
    cu_e = None
    if cu_total > 0 and stats.annotators > 1:
        inter = np.array([stats.intersection_squares.get(n, 0.0) / res**2 for n in valued]) / (stats.annotators - 1)
        cu_den = cu_total - inter.sum() / cu_total
        cu_e = (np.outer(cu_margins, cu_margins) - np.diag(inter)) / cu_den if cu_den else None
    return _Matrices(names, o, e, total, margins, stats.annotators, cu_margins, cu_e)


def _ratio(d_o: float, d_e: float, undefined: str) -> UAlphaResult:
    if not np.isfinite(d_e) or abs(d_e) < 1e-12:
        return UAlphaResult(None, d_o, d_e, undefined)
    return UAlphaResult(1.0 - d_o / d_e, d_o, d_e)


def score_u(mx: _Matrices) -> UAlphaResult:
    """uα (eq. 5a)."""
    if mx.m < 2 or mx.pairable == 0:
        return UAlphaResult(None, reason="fewer than two annotators or an empty continuum")
    return _ratio(
        mx.pairable - float(np.trace(mx.o)),
        mx.pairable - float(np.trace(mx.e)),
        "0/0: the expected disagreement is 0 (a contiguous segmentation with one category): uα is undefined",
    )


def score_bar(mx: _Matrices) -> UAlphaResult:
    """|uα (eq. 6): ∅ against every value merged."""
    if mx.m < 2 or mx.margins[0] == 0:
        return UAlphaResult(None, reason="no gaps (or fewer than two annotators): |uα is undefined")
    return _ratio(
        float(mx.margins[0] - mx.o[0, 0]),
        float(mx.e[0].sum() - mx.e[0, 0]),
        "0/0: the expected disagreement between units and gaps is 0: |uα is undefined",
    )


def score_cu(mx: _Matrices) -> UAlphaResult:
    """cuα (eq. 11, nominal)."""
    if len(mx.names) < 3:
        return UAlphaResult(None, reason="fewer than two categories: cuα is undefined")
    if mx.cu_e is None:
        return UAlphaResult(None, reason="no units of different annotators intersect: cuα is undefined")
    total = float(mx.cu_margins.sum())
    return _ratio(
        total - float(np.trace(mx.o[1:, 1:])),
        total - float(np.trace(mx.cu_e)),
        "0/0: the expected disagreement on intersections is 0: cuα is undefined",
    )


def score_k(mx: _Matrices) -> UAlphaResult:
    """(k)uα of every value (eq. 13b, nominal); the value is their mean only for display: None."""
    per: dict[str, dict[str, Any]] = {}
    for c, name in enumerate(mx.names[1:]):
        l_k = float(mx.cu_margins[c])
        if mx.cu_e is None or l_k == 0:
            per[name] = {"alpha": None, "reason": "no intersecting units of this value"}
            continue
        e_k, e_kk, o_kk = float(mx.cu_e[c].sum()), float(mx.cu_e[c, c]), float(mx.o[c + 1, c + 1])
        if abs(e_k - e_kk) < 1e-12:
            per[name] = {"alpha": None, "reason": "0/0: no expected disagreement for this value"}
            continue
        per[name] = {"alpha": 1.0 - e_k / l_k * (l_k - o_kk) / (e_k - e_kk), "coverage": l_k / float(mx.margins[c + 1])}
    return UAlphaResult(None, reason="(k)uα is one value per category (ku_alpha_values)", per_value=per)


_CITATION = (
    "Krippendorff, Mathet, Bouvry & Milliat (2016), On the reliability of unitizing textual continua: further "
    "developments, Quality & Quantity 50:2347-2364"
)
_NOTES = (
    "resolution: seconds per position (auto: 1 when all times are whole numbers, else 0.001). Gaps are filled "
    "half-open, as in the paper and lindanna/unitized_alpha; krippendorff-unitized-alpha 0.1.0's own gap filling "
    "treats units as closed (each gap loses 2 positions; adjacent units crash it), so it agrees given the same "
    "segments, not the same units. An annotator with no units is all gap."
)


class _Family(Measure[UnitSet, UAlphaStats, UAlphaResult]):
    scorer: Any = None

    def statistics(self, item: UnitSet, params: Mapping[str, Any]) -> UAlphaStats:
        return u_alpha_statistics(item)

    def score(self, stats: UAlphaStats, params: Mapping[str, Any]) -> UAlphaResult:
        return type(self).scorer(matrices(stats, params))


def _card(name: str, title: str, definition: str, reference: str) -> Card:
    return time_card(
        name, title, definition, _CITATION, parameters={"resolution": "auto"}, reference=reference, notes=_NOTES
    )


_LINDANNA = "lindanna/unitized_alpha (outputs stored with their script in tests/data/unitizing/)"


class UAlpha(_Family):
    card = _card(
        "u_alpha",
        "Krippendorff's uα (unitizing, with gaps)",
        "1 - (l - Σ o_cc) / (l - Σ e_cc) over coincidences of units and gaps (∅) of every annotator pair",
        "krippendorff-unitized-alpha 0.1.0 and " + _LINDANNA,
    )
    scorer = staticmethod(score_u)


class BarUAlpha(_Family):
    card = _card(
        "bu_alpha",
        "Krippendorff's |uα (units against gaps)",
        "1 - (l_∅ - o_∅∅) / (e_∅· - e_∅∅): uα with every value merged into one",
        _LINDANNA,
    )
    scorer = staticmethod(score_bar)


class CUAlpha(_Family):
    card = _card(
        "cu_alpha",
        "Krippendorff's cuα (values of intersecting units)",
        "1 - (l' - Σ o_cc) / (l' - Σ e'_cc) over the intersections of valued units only",
        _LINDANNA,
    )
    scorer = staticmethod(score_cu)


class KUAlpha(_Family):
    card = _card(
        "ku_alpha",
        "Krippendorff's (k)uα (per value)",
        "per value k: 1 - (e'_k / l'_k) (l'_k - o_kk) / (e'_k - e'_kk) over intersections of valued units",
        _LINDANNA,
    )
    scorer = staticmethod(score_k)


MEASURES = (UAlpha(), BarUAlpha(), CUAlpha(), KUAlpha())
