"""ELAN's "percentage of overlap / extent" agreement (ELAN's inter-rater reliability dialog, the
option "calculate percentage of overlap/extent"), as the ELAN manual describes it: for each pair
of overlapping annotations of two tiers, the overlap divided by the total extent of the two
(from the earlier start to the later end); annotations without a partner count 0; the average
over all of them.

ELAN's source was not reachable when this was written, so the matching rule is ours and stated
here: for every annotator pair ``"A|B"``, the pairs of annotations that overlap (strictly: a
positive overlap) are taken one-to-one from the largest overlap down (ties: the earlier A
annotation, then the earlier B annotation), each annotation in at most one pair. Every taken
pair is a *compare unit* with agreement ``overlap / (max(end) - min(start))``; every annotation of
A or B left without a partner is a compare unit with agreement 0. The value is the mean agreement
over the compare units (1 for two identical tiers; 0 when nothing overlaps).

Pooled over speakers, texts and pairs: the agreements' sums and the units' counts add.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.metrics.contract import Card, Measure, UnitSet

__all__ = ["MEASURES", "OverlapExtent", "overlap_extent_units"]


def overlap_extent_units(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> list[float]:
    """The agreement of every compare unit of two tiers' annotations (see the module docstring):
    one per matched pair (overlap / extent), then 0 for each annotation left unmatched."""
    candidates = []
    for i, (sa, ea) in enumerate(a):
        for j, (sb, eb) in enumerate(b):
            overlap = min(ea, eb) - max(sa, sb)
            if overlap > 0:
                candidates.append((-overlap, i, j))
    candidates.sort()
    used_a: set[int] = set()
    used_b: set[int] = set()
    units: list[float] = []
    for neg_overlap, i, j in candidates:
        if i in used_a or j in used_b:
            continue
        used_a.add(i)
        used_b.add(j)
        extent = max(a[i][1], b[j][1]) - min(a[i][0], b[j][0])
        units.append(-neg_overlap / extent)
    units.extend([0.0] * (len(a) - len(used_a) + len(b) - len(used_b)))
    return units


@dataclass
class ExtentSums:
    """Per pair "A|B": (sum of the compare units' agreements, number of compare units)."""

    pairs: dict[str, np.ndarray] = field(default_factory=dict)

    def __add__(self, other: ExtentSums) -> ExtentSums:
        out = {k: v.copy() for k, v in self.pairs.items()}
        for k, v in other.pairs.items():
            out[k] = out[k] + v if k in out else v.copy()
        return ExtentSums(out)


@dataclass(frozen=True)
class ExtentResult:
    value: float | None
    units: int
    pairs: dict[str, dict[str, float]]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value, "compare_units": self.units, "overlap_extent_pairs": self.pairs}
        if self.value is None:
            out["reason"] = "no annotations in any pair"
        return out


def _spans(us: UnitSet, r: int) -> list[tuple[float, float]]:
    sel = us.annotator == r
    return sorted(zip(us.start[sel].tolist(), us.end[sel].tolist(), strict=True))


class OverlapExtent(Measure[UnitSet, ExtentSums, ExtentResult]):
    """ELAN's overlap / extent agreement (see the module docstring)."""

    card = Card(
        name="overlap_extent",
        title="ELAN's overlap / total extent",
        definition="per pair of overlapping annotations (one-to-one, largest overlap first): overlap / "
        "(later end - earlier start); each unmatched annotation 0; mean over these compare units, per pair A|B",
        citation="ELAN manual, Annotator agreement: 'calculate percentage of overlap/extent' (The Language Archive)",
        parameters={},
        better="higher",
        needs="times",
        annotators="2+",
        # Its own group: asked for by name (--measure), not run with every time measure by default.
        group="alignment",
        reference="worked examples by hand (tests/metrics/test_overlap_extent.py); ELAN's matching not verified",
        notes="ELAN's own matching rule could not be checked against its source; ours is stated in the module.",
    )

    def statistics(self, item: UnitSet, params: Mapping[str, Any]) -> ExtentSums:
        out = ExtentSums()
        n = len(item.annotators)
        for a in range(n):
            for b in range(a + 1, n):
                units = overlap_extent_units(_spans(item, a), _spans(item, b))
                if units:
                    out.pairs[f"{item.annotators[a]}|{item.annotators[b]}"] = np.array([sum(units), len(units)])
        return out

    def score(self, stats: ExtentSums, params: Mapping[str, Any]) -> ExtentResult:
        pairs = {k: {"value": float(s / n), "compare_units": int(n)} for k, (s, n) in stats.pairs.items()}
        total = np.sum(list(stats.pairs.values()), axis=0) if stats.pairs else np.zeros(2)
        value = float(total[0] / total[1]) if total[1] else None
        return ExtentResult(value, int(total[1]), pairs)


MEASURES = (OverlapExtent(),)
