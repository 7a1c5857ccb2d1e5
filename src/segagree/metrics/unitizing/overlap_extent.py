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

ELAN works in integer milliseconds, and so does this measure: times are rounded to whole
milliseconds before the pairing, so overlaps that tie in the file tie here (float seconds need not).

**ELAN's printed figures** (``elan_printed`` per tier pair; the value itself is the double mean):

* ``multi``: the multi-tier command (``CompareAnnotationRatioMultiCommand``, ELAN 4.8 on), the double
  mean written with ``DecimalFormat("#0.0000")`` (half-even on the exact binary value): ``0.8955``;
* ``dialog``: ELAN's older *Compare annotators* dialog (``AnnotatorCompareUtil.getComparisonTable``
  and ``CompareAnnotatorResultsDlg.calcAverage``), which the ELAN Analysis Companion's examples were
  made with. It computes in single precision: each row's quotient ``ov / (float) te`` is a float
  (printed with ``Float.toString``, e.g. ``0.9094388``), the rows' quotients are summed as floats
  (unmatched rows are ``0.00``) and divided by the number of rows as a float, printed with
  ``Float.toString``: ``0.895524`` and ``0.30314627`` on the Companion's ``irr`` and ``irr2`` examples,
  where the double mean is 0.8955239854... and 0.3031462585... A tier pair without rows prints ``0.00``.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

import numpy as np

from segagree.metrics.boundary.stats import signature
from segagree.metrics.contract import Card, Measure, UnitSet
from segagree.metrics.unitizing.overlap_search import OverlapSearch

__all__ = ["MEASURES", "OverlapExtent", "overlap_extent_units"]


PAIRINGS = ("elan", "greedy", "largest")
AVERAGES = ("tiers", "units")


#: A scan of at most this many annotations is cheaper than the search trees' queries.
_SHORT_SCAN = 24


def _scan(b: Sequence[Any], search: OverlapSearch, lo: int, stop: int, sa: Any, ea: Any) -> tuple[int, Any, int]:
    """ELAN's scan of ``b[lo:stop]``: (the first unmatched annotation overlapping ``[sa, ea]``
    most, or -1; its overlap; how many unmatched annotations overlap)."""
    best, best_overlap, found = -1, 0, 0
    for j in range(lo, stop):
        sb, eb = b[j]
        if sa < eb and ea > sb and not search.matched[j]:
            found += 1
            overlap = min(ea, eb) - max(sa, sb)
            if best < 0 or overlap > best_overlap:  # with the same overlap, the first one stays
                best, best_overlap = j, overlap
    return best, best_overlap, found


def _elan_rows(a: Sequence[Any], b: Sequence[Any], window: bool = True) -> tuple[list[tuple[Any, Any] | None], int]:
    """ELAN's getAverageRatio (see the module docstring): A's annotations in order, each matched
    to the not yet matched B annotation it overlaps most (the first on ties), with ELAN's scan
    window over B (``last`` is ELAN's ``lastInserted2``: after a scan that stopped at ``j``, the
    next starts at ``j`` minus the overlapping annotations found), or over all of B. Returns each
    A annotation's (overlap, extent), None where it has no match, and the number of B annotations
    left unmatched. Long scans (nested turns, where each annotation overlaps all others) are
    searched in logarithmic time (:class:`~segagree.metrics.unitizing.overlap_search.OverlapSearch`)."""
    rows: list[tuple[Any, Any] | None] = []
    search = OverlapSearch(list(b))
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
            rows.append(None)
            continue
        search.match(best)
        matched += 1
        rows.append((overlap, max(ea, b[best][1]) - min(sa, b[best][0])))
    return rows, len(b) - matched


def _elan_units(a: Sequence[Any], b: Sequence[Any], window: bool = True) -> list[float]:
    """The compare units' agreements of ELAN's pairing: A's in order, then 0 per unmatched B."""
    return _units_of(*_elan_rows(a, b, window))


def _units_of(rows: list[tuple[Any, Any] | None], unmatched: int) -> list[float]:
    """overlap / extent of each matched row, 0 for each row without a match and each unmatched B."""
    return [0.0 if r is None else r[0] / r[1] for r in rows] + [0.0] * unmatched


def _largest_first_units(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]) -> list[float]:
    """One-to-one pairs from the largest overlap down over both tiers (ties: the earlier A, then
    the earlier B annotation), then 0 for each unpaired one: each A annotation's best B kept in a
    heap and searched again when another A took it (the largest overlaps only fall)."""
    search = OverlapSearch(list(b))
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
    a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]], pairing: str = "elan"
) -> list[float]:
    """The agreement of every compare unit of two tiers' annotations, each tier in time order (see
    the module docstring): ELAN's pairing (default), ``"greedy"`` (ELAN's without its scan window)
    or ``"largest"`` overlap first."""
    if pairing not in PAIRINGS:
        raise ValueError(f"extent_pairing must be one of {PAIRINGS}, not {pairing!r}")
    if pairing == "largest":
        return _largest_first_units(a, b)
    return _elan_units(a, b, window=pairing == "elan")


def java_float_text(value: np.float32) -> str:
    """Java's ``String.valueOf(float)``: the shortest decimal that reads back as the same float
    (JDK 19's ``Float.toString``), positional from 10^-3 to 10^7 with at least one decimal, else
    computerized scientific notation (``9.9E-4``)."""
    v = float(value)
    if v == 0 or 1e-3 <= abs(v) < 1e7:
        text = np.format_float_positional(value, unique=True, trim="-")
        return text if "." in text else f"{text}.0"
    mantissa, _, exponent = np.format_float_scientific(value, unique=True, trim="-").partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    return f"{mantissa}E{int(exponent)}"


def dialog_average(units: list[float], overlaps: list[tuple[int, int]]) -> str:
    """ELAN's *Compare annotators* dialog figure of one tier pair (see the module docstring):
    ``overlaps`` are the matched rows' (overlap, extent) in whole milliseconds, in A's order; every
    other compare unit is a row of ``0.00``."""
    if not units:
        return "0.00"
    total = np.float32(0.0)
    for ov, te in overlaps:
        total = np.float32(total + np.float32(ov) / np.float32(te))
    return java_float_text(np.float32(total / np.float32(len(units))))


def _decimal4(value: float) -> str:
    """Java's ``DecimalFormat("#0.0000")``: half-even on the double's exact binary value."""
    return str(Decimal(value).quantize(Decimal("0.0001"), rounding=ROUND_HALF_EVEN))


@dataclass
class ExtentSums:
    """Per pair "A|B": (sum of the compare units' agreements, number of compare units, sum of the
    tier combinations' values, number of combinations), and each combination's figure of ELAN's
    *Compare annotators* dialog (in order)."""

    pairs: dict[str, np.ndarray] = field(default_factory=dict)
    dialog: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __add__(self, other: ExtentSums) -> ExtentSums:
        out = {k: v.copy() for k, v in self.pairs.items()}
        for k, v in other.pairs.items():
            out[k] = out[k] + v if k in out else v.copy()
        dialog = dict(self.dialog)
        for k, texts in other.dialog.items():
            dialog[k] = dialog.get(k, ()) + texts
        return ExtentSums(out, dialog)


@dataclass(frozen=True)
class ExtentResult:
    value: float | None
    units: int
    pairs: dict[str, dict[str, Any]]
    signature: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value, "compare_units": self.units, "overlap_extent_pairs": self.pairs}
        printed = [p["elan_printed"] for p in self.pairs.values() if "elan_printed" in p]
        if len(self.pairs) == 1 and printed and isinstance(printed[0]["dialog"], str):
            # one tier pair: ELAN's own figures for it, as its two dialogs print them
            out["elan_printed"] = printed[0]
            out["note"] = (
                f"ELAN prints {printed[0]['dialog']} (Compare annotators), {printed[0]['multi']} (multiple files)"
            )
        out["signature"] = self.signature
        if self.value is None:
            out["reason"] = "no annotations in any pair"
        return out


def _spans(us: UnitSet, r: int) -> list[tuple[int, int]]:
    """Annotator r's units in time order, in whole milliseconds as ELAN holds them."""
    sel = us.annotator == r
    ms = zip(
        np.rint(us.start[sel] * 1000).astype(np.int64).tolist(),
        np.rint(us.end[sel] * 1000).astype(np.int64).tolist(),
        strict=True,
    )
    return sorted(ms)


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
                spans_a, spans_b = _spans(item, a), _spans(item, b)
                rows, unmatched = _elan_rows(spans_a, spans_b) if pairing == "elan" else ([], 0)
                units = (
                    _units_of(rows, unmatched) if pairing == "elan" else overlap_extent_units(spans_a, spans_b, pairing)
                )
                if units:
                    total = sum(units)
                    key = f"{item.annotators[a]}|{item.annotators[b]}"
                    out.pairs[key] = np.array([total, len(units), total / len(units), 1])
                    if pairing == "elan":
                        out.dialog[key] = (dialog_average(units, [r for r in rows if r is not None]),)
        return out

    def score(self, stats: ExtentSums, params: Mapping[str, Any]) -> ExtentResult:
        average = str(params.get("extent_average") or "tiers").lower()
        if average not in AVERAGES:
            raise ValueError(f"extent_average must be one of {AVERAGES}, not {average!r}")
        # per pair A|B, as the overall value: the tier combinations' mean (ELAN) or the pooled units
        pick = (2, 3) if average == "tiers" else (0, 1)
        pairs: dict[str, dict[str, Any]] = {}
        for k, v in stats.pairs.items():
            pair_value = float(v[pick[0]] / v[pick[1]])
            pairs[k] = {"value": pair_value, "compare_units": int(v[1]), "tier_pairs": int(v[3])}
            if average == "tiers" and k in stats.dialog:
                dialog = stats.dialog[k]
                pairs[k]["elan_printed"] = {
                    "multi": _decimal4(pair_value),
                    "dialog": dialog[0] if len(dialog) == 1 else list(dialog),
                }
        total = np.sum(list(stats.pairs.values()), axis=0) if stats.pairs else np.zeros(4)
        value = float(total[pick[0]] / total[pick[1]]) if total[pick[1]] else None
        pairing = str(params.get("extent_pairing") or "elan").lower()
        sig = signature(self.card.name, extent_pairing=pairing, extent_average=average)
        return ExtentResult(value, int(total[1]), pairs, sig)


MEASURES = (OverlapExtent(),)
