"""ELAN's "percentage of overlap / extent" agreement (ELAN's inter-rater reliability dialog, the
option "calculate percentage of overlap/extent"), as ELAN's own code computes it.

ELAN's code (``mpi.eudico.client.annotator.interannotator.AnnotatorCompareUtil2.getAverageRatio``
with ``calcOverlap``, ``calcExtent`` and ``overlaps`` of
``mpi.eudico.client.annotator.tier.AnnotatorCompareUtil``; the overall value in
``mpi.eudico.client.annotator.commands.CompareAnnotationRatioMultiCommand.writeResultsAsText``;
read in the public mirror github.com/liepa-project/elan, commit 38a1dc7) does, for the two tiers
of one tier combination (here: annotator A's and B's units of one speaker of one text, A the
earlier annotator):

1. A's annotations in time order; for each, the B annotations that **overlap** it (strictly:
   ``bt1 < et2 && et1 > bt2``, touching is not overlapping) and are not matched yet; if there are
   any, the one with the **largest overlap** (ties: the earliest) is matched to it, and the
   agreement is ``overlap / extent``, ``extent = max(ends) - min(starts)``; if there is none, 0.
   This is greedy in A's order: an early A annotation takes a B annotation a later one overlaps
   more. ELAN's scan window over B (``lastInserted2``) is reproduced as written, with its quirk: a
   B annotation that starts exactly where an A annotation ends is passed over for the later A
   annotations too (A = 0-1, 2-3 and B = 1-3, 4-5 give 0, though 2-3 overlaps 1-3);
2. every A annotation is one compare unit, and so is every B annotation left unmatched (agreement 0);
3. the combination's value is the sum of the agreements over the number of compare units (0 when
   both tiers are empty; segagree leaves such a combination out: ``None``, nothing to compare);
4. the **overall** value is the mean of the combinations' values (each tier pair weighs the same,
   whatever its number of annotations).

Parameters (Python API, measure parameters) for the other readings:

* ``extent_pairing="greedy"``: ELAN's rule scanning all of B for each A annotation (no window,
  so no B annotation is passed over);
* ``extent_pairing="largest"``: pair overlapping annotations one-to-one from the largest overlap
  down over both tiers (symmetric; ties: the earlier A annotation, then the earlier B one), as
  segagree did before ELAN's code was read; default ``"elan"``;
* ``extent_average="units"``: the overall value pools the compare units (sum of all agreements over
  their number) instead of averaging the combinations; default ``"tiers"`` (ELAN's).

ELAN works in integer milliseconds; segagree uses the times as read (equal for whole-ms times).
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.metrics.contract import Card, Measure, UnitSet
from segagree.metrics.unitizing.overlap_search import OverlapSearch

__all__ = ["MEASURES", "OverlapExtent", "overlap_extent_units"]


PAIRINGS = ("elan", "greedy", "largest")
AVERAGES = ("tiers", "units")


#: A scan of at most this many annotations is cheaper than the search trees' queries.
_SHORT_SCAN = 24


def _scan(
    b: list[tuple[float, float]], search: OverlapSearch, lo: int, stop: int, sa: float, ea: float
) -> tuple[int, float, int]:
    """ELAN's scan of ``b[lo:stop]``: (the first unmatched annotation overlapping ``[sa, ea]``
    most, or -1; its overlap; how many unmatched annotations overlap)."""
    best, best_overlap, found = -1, 0.0, 0
    for j in range(lo, stop):
        sb, eb = b[j]
        if sa < eb and ea > sb and not search.matched[j]:
            found += 1
            overlap = min(ea, eb) - max(sa, sb)
            if best < 0 or overlap > best_overlap:  # with the same overlap, the first one stays
                best, best_overlap = j, overlap
    return best, best_overlap, found


def _elan_units(a: list[tuple[float, float]], b: list[tuple[float, float]], window: bool = True) -> list[float]:
    """ELAN's getAverageRatio (see the module docstring): A's annotations in order, each matched
    to the not yet matched B annotation it overlaps most (the first on ties), with ELAN's scan
    window over B (``last`` is ELAN's ``lastInserted2``: after a scan that stopped at ``j``, the
    next starts at ``j`` minus the overlapping annotations found), or over all of B. Long scans
    (nested turns, where each annotation overlaps all others) are searched in logarithmic time
    (:class:`~segagree.metrics.unitizing.overlap_search.OverlapSearch`)."""
    units: list[float] = []
    search = OverlapSearch(b)
    last = -1
    matched = 0
    for sa, ea in a:
        search.expire(sa)
        lo = last + 1 if window else 0
        stop, broke_at = search.run_end(lo, ea)
        if broke_at - lo <= _SHORT_SCAN:
            best, overlap, found = _scan(b, search, lo, stop, sa, ea)
        else:
            best, overlap = search.best(lo, sa, ea)
            found = search.count(lo, stop)
        if window and broke_at < len(b):  # the scan stopped at the first B starting after ea
            last = broke_at - 1 - found
        if best < 0:
            units.append(0.0)
            continue
        search.match(best)
        matched += 1
        units.append(overlap / (max(ea, b[best][1]) - min(sa, b[best][0])))
    units.extend([0.0] * (len(b) - matched))
    return units


def _largest_first_units(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> list[float]:
    """One-to-one pairs from the largest overlap down over both tiers (ties: the earlier A, then
    the earlier B annotation), then 0 for each unpaired one: each A annotation's best B kept in a
    heap and searched again when another A took it (the largest overlaps only fall)."""
    search = OverlapSearch(b)
    heap: list[tuple[float, int, int]] = []
    for i, (sa, ea) in enumerate(a):
        j, overlap = search.best(0, sa, ea)
        if j >= 0 and overlap > 0:
            heap.append((-overlap, i, j))
    heapq.heapify(heap)
    units: list[float] = []
    while heap:
        neg_overlap, i, j = heapq.heappop(heap)
        if search.matched[j]:  # taken: this A's best among the rest
            j, overlap = search.best(0, *a[i])
            if j >= 0 and overlap > 0:
                heapq.heappush(heap, (-overlap, i, j))
            continue
        search.match(j)
        extent = max(a[i][1], b[j][1]) - min(a[i][0], b[j][0])
        units.append(-neg_overlap / extent)
    units.extend([0.0] * (len(a) + len(b) - 2 * len(units)))
    return units


def overlap_extent_units(
    a: list[tuple[float, float]], b: list[tuple[float, float]], pairing: str = "elan"
) -> list[float]:
    """The agreement of every compare unit of two tiers' annotations, each tier in time order (see
    the module docstring): ELAN's pairing (default), ``"greedy"`` (ELAN's without its scan window)
    or ``"largest"`` overlap first."""
    if pairing not in PAIRINGS:
        raise ValueError(f"extent_pairing must be one of {PAIRINGS}, not {pairing!r}")
    if pairing == "largest":
        return _largest_first_units(a, b)
    return _elan_units(a, b, window=pairing == "elan")


@dataclass
class ExtentSums:
    """Per pair "A|B": (sum of the compare units' agreements, number of compare units, sum of the
    tier combinations' values, number of combinations)."""

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
        definition="ELAN's code: A's annotations in order, each paired with the unpaired B annotation it overlaps "
        "most; overlap / (later end - earlier start), 0 for an A annotation without one and for each unpaired B "
        "annotation; per tier pair the mean over these compare units; overall the mean over tier pairs",
        citation="ELAN's AnnotatorCompareUtil2.getAverageRatio and CompareAnnotationRatioMultiCommand "
        "(The Language Archive; ELAN manual, Annotator agreement: 'calculate percentage of overlap/extent')",
        parameters={"extent_pairing": "elan (or greedy, largest)", "extent_average": "tiers (or units)"},
        better="higher",
        needs="times",
        annotators="2+",
        # Its own group: asked for by name (--measure), not run with every time measure by default.
        group="alignment",
        reference="ELAN's code followed step by step on a worked example (tests/metrics/test_overlap_extent.py)",
        notes="Asymmetric as ELAN: A (the earlier annotator) leads the pairing. A pair where neither annotator has "
        "units is left out (ELAN would count it as 0 in the overall mean).",
    )

    def statistics(self, item: UnitSet, params: Mapping[str, Any]) -> ExtentSums:
        pairing = str(params.get("extent_pairing") or "elan").lower()
        out = ExtentSums()
        n = len(item.annotators)
        for a in range(n):
            for b in range(a + 1, n):
                units = overlap_extent_units(_spans(item, a), _spans(item, b), pairing)
                if units:
                    total = sum(units)
                    out.pairs[f"{item.annotators[a]}|{item.annotators[b]}"] = np.array(
                        [total, len(units), total / len(units), 1]
                    )
        return out

    def score(self, stats: ExtentSums, params: Mapping[str, Any]) -> ExtentResult:
        average = str(params.get("extent_average") or "tiers").lower()
        if average not in AVERAGES:
            raise ValueError(f"extent_average must be one of {AVERAGES}, not {average!r}")
        # per pair A|B, as the overall value: the tier combinations' mean (ELAN) or the pooled units
        pick = (2, 3) if average == "tiers" else (0, 1)
        pairs = {
            k: {"value": float(v[pick[0]] / v[pick[1]]), "compare_units": int(v[1]), "tier_pairs": int(v[3])}
            for k, v in stats.pairs.items()
        }
        total = np.sum(list(stats.pairs.values()), axis=0) if stats.pairs else np.zeros(4)
        value = float(total[pick[0]] / total[pick[1]]) if total[pick[1]] else None
        return ExtentResult(value, int(total[1]), pairs)


MEASURES = (OverlapExtent(),)
