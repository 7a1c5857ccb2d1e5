"""Krippendorff's alpha-U (1995, 2004), as DKPro Statistics' ``KrippendorffAlphaUnitizingAgreement``.

Definitions (Krippendorff 1995, Sociological Methodology 25:47-76; 2004, *Content Analysis*, 2nd ed.,
pp. 251-256), in DKPro's form: positions are integers, the continuum is ``[B, B + L)`` and every
annotator (rater) splits it, per category c, into their units of c and the gaps between them.

* Observed, per category: walking each rater pair's two sequences of sections, a pair of sections
  that are both units and overlap adds ``(Δbegin)² + (Δend)²``; a unit lying inside the other rater's
  gap adds ``l²``; then ``D_o(c) = 2 Σ / (R (R - 1) L²)``.
* Expected, per category: with N_c units of c over all raters, their lengths l and every rater's
  gaps g (including the stretch before the first and after the last unit),
  ``D_e(c) = (2 / L) Σ_units [ (N_c - 1)(2l³ - 3l² + l) / 3 + l² Σ_{g >= l} (g - l + 1) ]
  / (R L (R L - 1) - Σ_units l (l - 1))``.
* ``alpha_c = 1 - D_o(c) / D_e(c)`` (0 when they are equal, as DKPro); overall
  ``alpha_U = 1 - mean_c D_o(c) / mean_c D_e(c)``; with D_o = D_e = 0 it is 1 when some unit has a
  length (DKPro issue #35) and 0 otherwise.

Times become positions at ``resolution`` seconds per position: D_o does not depend on it, D_e does
(its ``+ 1`` and ``l - 1`` count positions). ``auto`` takes 1 when every time is a whole number
(DKPro's own examples and any integer positions: characters, tokens, frames) and 0.001 s otherwise
(ELAN's millisecond).

DKPro assumes that units of one category by one rater do not overlap; overlapping ones are walked as
DKPro walks them (a negative section), not repaired. Several speakers (or texts) pool as consecutive
stretches of one continuum: their sums and L add, their units and gaps are listed together (a gap
never spans two stretches).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.metrics.contract import Measure, UnitSet
from segagree.metrics.unitizing.shared import NO_CATEGORY, resolution, time_card

__all__ = ["MEASURES", "AlphaU", "AlphaUResult", "AlphaUStats", "section_distance"]


def section_distance(b1: float, l1: float, c1: bool, b2: float, l2: float, c2: bool) -> float:
    """DKPro's ``measureDistance`` of two sections (begin, length, whether it is a unit)."""
    begin_diff = b1 - b2
    length_diff = l1 - l2
    if c1 and c2 and -l1 < begin_diff < l2:
        return begin_diff * begin_diff + (begin_diff + length_diff) ** 2
    if c1 and not c2 and -length_diff >= begin_diff >= 0:
        return l1 * l1
    if not c1 and c2 and -length_diff <= begin_diff <= 0:
        return l2 * l2
    return 0.0


def _next_section(
    units: Sequence[tuple[float, float]], i: int, pos: float, end: float
) -> tuple[float, float, bool, int]:
    """The section that starts at ``pos``: the next unit if it begins there, else the gap up to it
    (or to the end), as (offset, length, is a unit, index of the next unit)."""
    if i < len(units) and pos == units[i][0]:
        return pos, units[i][1], True, i + 1
    return pos, (units[i][0] if i < len(units) else end) - pos, False, i


def _observed_sum(u1: Sequence[tuple[float, float]], u2: Sequence[tuple[float, float]], b: float, span: float) -> float:
    """Σ of section distances of two raters' units (begin, length) of one category, walked as DKPro
    walks them (``calculateObservedCategoryDisagreement``)."""
    end = b + span
    i1 = i2 = 0
    off1 = off2 = b
    len1 = len2 = 0.0
    is1 = is2 = False
    pos = b
    total = 0.0
    while pos < end and (i1 < len(u1) or i2 < len(u2)):
        if pos == off1 + len1:
            off1, len1, is1, i1 = _next_section(u1, i1, pos, end)
        if pos == off2 + len2:
            off2, len2, is2, i2 = _next_section(u2, i2, pos, end)
        total += section_distance(off1, len1, is1, off2, len2, is2)
        pos = min(off1 + len1, off2 + len2)
    return total


def _gaps(units: Sequence[tuple[float, float]], b: float, span: float) -> list[float]:
    """One rater's gaps around their units of one category (DKPro's walk in
    ``calculateExpectedCategoryDisagreement``)."""
    end = b + span
    gaps: list[float] = []
    i = 0
    off, length, pos = b, 0.0, b
    while pos < end:
        if pos == off + length:
            off, length, is_unit, i = _next_section(units, i, pos, end)
            if not is_unit:
                gaps.append(length)
        pos = off + length
    return gaps


@dataclass
class _CategoryStats:
    observed: float = 0.0  # Σ section distances over rater pairs (seconds²)
    lengths: list[float] = field(default_factory=list)  # every rater's unit lengths (seconds)
    gaps: list[float] = field(default_factory=list)  # every rater's gaps (seconds)


@dataclass
class AlphaUStats:
    """Sufficient statistics: raters R, continuum length L (seconds), per-category sums, unit
    lengths and gaps, and whether every time was a whole number (for ``resolution=auto``)."""

    raters: int
    stretches: list[float]  # the continuum length of each speaker or text added
    categories: dict[str, _CategoryStats]
    integral: bool

    @property
    def length(self) -> float:
        return float(sum(self.stretches))

    def __add__(self, other: AlphaUStats) -> AlphaUStats:
        if self.raters != other.raters:
            raise ValueError("alpha_u: statistics of different numbers of annotators cannot be added")
        cats: dict[str, _CategoryStats] = {}
        for name in [*self.categories, *(c for c in other.categories if c not in self.categories)]:
            a = self.categories.get(name, _CategoryStats())
            b = other.categories.get(name, _CategoryStats())
            cats[name] = _CategoryStats(a.observed + b.observed, a.lengths + b.lengths, a.gaps + b.gaps)
            # A category absent from one stretch: its raters' gap there is the whole stretch.
            if name not in self.categories:
                cats[name].gaps[:0] = [s for s in self.stretches for _ in range(self.raters)]
            if name not in other.categories:
                cats[name].gaps.extend(s for s in other.stretches for _ in range(other.raters))
        stretches = self.stretches + other.stretches
        return AlphaUStats(self.raters, stretches, cats, self.integral and other.integral)


@dataclass(frozen=True)
class AlphaUResult:
    """alpha-U, its mean disagreements and each category's (alpha, D_o, D_e)."""

    alpha: float | None
    observed: float | None
    expected: float | None
    categories: dict[str, dict[str, float]]
    resolution: float
    reason: str = ""

    @property
    def value(self) -> float | None:
        return self.alpha

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "value": self.alpha,
            "D_o": self.observed,
            "D_e": self.expected,
            "alpha_u_categories": self.categories,
            "resolution": self.resolution,
        }
        if self.reason:
            out["reason"] = self.reason
        return out


def _expected(lengths: np.ndarray, gaps: np.ndarray, raters: int, length: float) -> float:
    """D_e(c) in positions (DKPro's formula; lengths, gaps and length already in positions)."""
    n = lengths.size
    if n == 0:
        return 0.0
    g = np.sort(gaps)
    # Σ_{g >= l} (g - l + 1) for each unit length l, from suffix sums of the sorted gaps.
    first = np.searchsorted(g, lengths, side="left")
    suffix = np.concatenate([np.cumsum(g[::-1])[::-1], [0.0]])
    count = g.size - first
    fit = suffix[first] - (lengths - 1.0) * count
    total = np.sum((n - 1.0) * (2.0 * lengths**3 - 3.0 * lengths**2 + lengths) / 3.0 + lengths**2 * fit)
    denominator = raters * length * (raters * length - 1.0) - float(np.sum(lengths * (lengths - 1.0)))
    return float(total * (2.0 / length) / denominator)


class AlphaU(Measure[UnitSet, AlphaUStats, AlphaUResult]):
    """Krippendorff's alpha-U (see the module docstring)."""

    card = time_card(
        "alpha_u",
        "Krippendorff's alpha-U (unitizing)",
        "1 - mean_c D_o(c) / mean_c D_e(c); D_o sums squared begin/end differences of overlapping units and "
        "l² of units facing a gap over annotator pairs, D_e the same over all unitizations (DKPro's formula).",
        "Krippendorff (1995), On the reliability of unitizing contiguous data, Sociological Methodology 25:47-76; "
        "Krippendorff (2004), Content Analysis, 2nd ed., pp. 251-256",
        parameters={"resolution": "auto"},
        reference="DKPro Statistics KrippendorffAlphaUnitizingAgreement (its unit tests: Krippendorff 1995 p. 57, "
        "2004 p. 254 = 0.8591)",
        notes=(
            "resolution: seconds per position (auto: 1 when all times are whole numbers, else 0.001). Units of one "
            "category by one annotator must not overlap (DKPro's assumption; overlaps are walked as DKPro does). "
            "alpha_c is 0 whenever D_o(c) = D_e(c), as in DKPro. Designed for sparse units: on contiguous "
            "segmentations it can be low or negative."
        ),
    )

    def statistics(self, item: UnitSet, params: Mapping[str, Any]) -> AlphaUStats:
        b, e = item.continuum
        raters = len(item.annotators)
        names = list(item.categories) or [NO_CATEGORY]
        cats: dict[str, _CategoryStats] = {}
        times = np.concatenate([item.start, item.end, [b, e]])
        integral = bool(np.all(times == np.round(times)))
        for c in range(len(names)):
            mine = item.category == c if item.categories else np.ones(item.start.size, dtype=bool)
            if not mine.any():
                continue
            # Per rater, units sorted as DKPro's TreeSet: by begin, then length.
            per_rater = []
            for r in range(raters):
                sel = mine & (item.annotator == r)
                units = sorted(zip(item.start[sel].tolist(), (item.end[sel] - item.start[sel]).tolist(), strict=True))
                per_rater.append(units)
            stats = _CategoryStats()
            for r1 in range(raters):
                for r2 in range(r1 + 1, raters):
                    stats.observed += _observed_sum(per_rater[r1], per_rater[r2], b, e - b)
            for units in per_rater:
                stats.lengths.extend(n for _, n in units)
                stats.gaps.extend(_gaps(units, b, e - b))
            cats[names[c]] = stats
        return AlphaUStats(raters, [e - b], cats, integral)

    def score(self, stats: AlphaUStats, params: Mapping[str, Any]) -> AlphaUResult:
        res = resolution(params, stats.integral)
        r, length = stats.raters, stats.length
        if not stats.categories:
            return AlphaUResult(None, None, None, {}, res, "no units: alpha-U is undefined (DKPro returns NaN)")
        per: dict[str, dict[str, float]] = {}
        for name, cs in stats.categories.items():
            d_o = 2.0 * cs.observed / (r * (r - 1) * length * length)
            d_e = _expected(np.asarray(cs.lengths) / res, np.asarray(cs.gaps) / res, r, length / res)
            alpha_c = 0.0 if d_o == d_e else 1.0 - d_o / d_e
            per[name] = {"alpha": alpha_c, "D_o": d_o, "D_e": d_e}
        d_o = float(np.mean([v["D_o"] for v in per.values()]))
        d_e = float(np.mean([v["D_e"] for v in per.values()]))
        reason = ""
        if d_o == d_e:
            informative = any(length_ > 0 for cs in stats.categories.values() for length_ in cs.lengths)
            alpha = 1.0 if d_o == 0.0 and informative else 0.0
            if not informative:
                reason = "every unit has length 0: nothing to agree on (DKPro gives 0)"
        else:
            alpha = 1.0 - d_o / d_e
        return AlphaUResult(alpha, d_o, d_e, per, res, reason)


MEASURES = (AlphaU(),)
