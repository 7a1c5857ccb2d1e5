"""Forced-alignment boundary statistics: how far B's boundaries lie from A's (the reference), as
phonetics papers report for aligners (mean and median absolute displacement, the share of
reference boundaries within 10, 20 and 25 ms; e.g. McAuliffe et al. 2017, Interspeech, for the
Montreal Forced Aligner against hand-corrected TIMIT/Buckeye boundaries).

Definition, for every annotator pair ``"A|B"`` (A the reference) of one speaker:

* an annotator's **boundaries** are the distinct times among its units' starts and ends (two
  adjacent units share one boundary);
* each reference boundary ``a`` is **matched** to B's nearest boundary (``matching="nearest"``,
  the default; a tie takes the earlier), its **displacement** ``|a - b|``; with
  ``matching="index"`` the i-th boundaries of A and B are matched, which is the aligners' rule
  when both alignments hold the same transcript (the same number of boundaries; otherwise the
  pair is undefined, with a reason);
* ``mean_ms`` and ``median_ms`` are over the matched displacements (milliseconds); ``within_T``
  (for each ``T`` of ``tolerances``, ms) is the share of A's boundaries whose displacement is at
  most ``T``; A's boundaries B cannot match (B has none) count as not within. The value is the
  share within the middle tolerance (20 ms by default);
* ``by_label``: the same statistics per class of reference boundary, the class being the label
  of A's unit that starts at the boundary (else the one that ends there).

Pooled over speakers, texts and pairs: the displacements are gathered (medians are not
additive) and the statistics computed on them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.metrics.contract import Card, Measure, UnitSet
from segagree.metrics.unitizing.shared import within

__all__ = ["MEASURES", "BoundaryDisplacement", "displacements"]

DEFAULT_TOLERANCES = (10.0, 20.0, 25.0)
MATCHINGS = ("nearest", "index")


def _boundaries(us: UnitSet, r: int) -> tuple[np.ndarray, list[str]]:
    """Annotator r's distinct boundary times (sorted) and each one's class (the label of the
    unit starting there, else of the one ending there)."""
    sel = us.annotator == r
    starts, ends = us.start[sel].tolist(), us.end[sel].tolist()
    cats = us.category[sel].tolist()
    label = [us.categories[c] if c >= 0 else "" for c in cats]
    by_time: dict[float, str] = {}
    for t, lab in zip(ends, label, strict=True):
        by_time[t] = lab
    for t, lab in zip(starts, label, strict=True):
        by_time[t] = lab  # a starting unit names the boundary before an ending one
    times = sorted(by_time)
    return np.asarray(times, dtype=float), [by_time[t] for t in times]


def displacements(ref: np.ndarray, hyp: np.ndarray, matching: str = "nearest") -> np.ndarray | None:
    """Seconds from each reference boundary to its match in ``hyp`` (NaN where there is none);
    None when ``matching="index"`` and the counts differ."""
    if matching == "index":
        if ref.size != hyp.size:
            return None
        return np.abs(ref - hyp)
    if hyp.size == 0:
        return np.full(ref.size, np.nan)
    right = np.clip(np.searchsorted(hyp, ref, side="left"), 0, hyp.size - 1)
    left = np.clip(right - 1, 0, hyp.size - 1)
    d_left, d_right = np.abs(ref - hyp[left]), np.abs(ref - hyp[right])
    return np.where(d_left <= d_right, d_left, d_right)


@dataclass
class Displacements:
    """Per pair "A|B": the displacements (s, NaN = unmatched) and their classes; undefined pairs' reasons."""

    pairs: dict[str, tuple[np.ndarray, list[str]]] = field(default_factory=dict)
    undefined: dict[str, str] = field(default_factory=dict)

    def __add__(self, other: Displacements) -> Displacements:
        out = dict(self.pairs)
        for k, (d, c) in other.pairs.items():
            if k in out:
                out[k] = (np.concatenate([out[k][0], d]), out[k][1] + c)
            else:
                out[k] = (d, c)
        return Displacements(out, {**self.undefined, **other.undefined})


def _tolerances(params: Mapping[str, Any]) -> tuple[float, ...]:
    value = params.get("tolerances")
    if value in (None, ""):
        return DEFAULT_TOLERANCES
    items = value.split(",") if isinstance(value, str) else list(value)
    out = tuple(float(x) for x in items)
    if not out or any(not t >= 0 for t in out):
        raise ValueError(f"tolerances must be milliseconds >= 0, not {value!r}")
    return out


def _stats(d: np.ndarray, tolerances: tuple[float, ...]) -> dict[str, Any]:
    ms = d * 1000.0
    matched = ms[~np.isnan(ms)]
    out: dict[str, Any] = {
        "boundaries": int(ms.size),
        "matched": int(matched.size),
        "mean_ms": float(matched.mean()) if matched.size else None,
        "median_ms": float(np.median(matched)) if matched.size else None,
    }
    seconds = d[~np.isnan(d)]
    for t in tolerances:
        # times read from milliseconds are binary fractions (0.02 s is not exact): the shared slack
        out[f"within_{t:g}"] = float(np.sum(within(seconds, t / 1000.0))) / ms.size if ms.size else None
    return out


@dataclass(frozen=True)
class DisplacementResult:
    value: float | None
    pooled: dict[str, Any]
    pairs: dict[str, dict[str, Any]]
    labels: dict[str, dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        out = {"value": self.value, **self.pooled, "displacement_pairs": self.pairs}
        if self.labels:
            out["displacement_labels"] = self.labels
        return out


class BoundaryDisplacement(Measure[UnitSet, Displacements, DisplacementResult]):
    """Boundary displacement statistics (see the module docstring)."""

    card = Card(
        name="boundary_displacement",
        title="Boundary displacement (forced-alignment accuracy)",
        definition="each of A's boundaries (unit starts and ends) to B's nearest (or i-th) boundary: mean and "
        "median |displacement| (ms) and the share of A's boundaries within 10, 20, 25 ms; value = share within "
        "20 ms, per annotator pair A|B (A the reference)",
        citation="McAuliffe et al. 2017, Montreal Forced Aligner (Interspeech); Goldman 2011, EasyAlign",
        parameters={"tolerances": "10,20,25 (ms)", "matching": "nearest (or index)", "by_label": "false"},
        better="higher",
        needs="times",
        annotators="2+",
        # Its own group: asked for by name (--measure), not run with every time measure by default.
        group="alignment",
        reference="brute force on small inputs (tests/metrics/test_boundary_displacement.py)",
        notes="Unmatched reference boundaries (B has none) count as not within any tolerance.",
    )

    def statistics(self, item: UnitSet, params: Mapping[str, Any]) -> Displacements:
        matching = str(params.get("matching") or "nearest").lower()
        if matching not in MATCHINGS:
            raise ValueError(f"matching must be one of {MATCHINGS}, not {matching!r}")
        out = Displacements()
        n = len(item.annotators)
        for a in range(n):
            for b in range(a + 1, n):
                key = f"{item.annotators[a]}|{item.annotators[b]}"
                ref, classes = _boundaries(item, a)
                hyp, _ = _boundaries(item, b)
                if ref.size == 0:
                    continue  # nothing to measure from
                d = displacements(ref, hyp, matching)
                if d is None:
                    out.undefined[key] = (
                        f"matching=index needs as many boundaries in B ({hyp.size}) as in A ({ref.size})"
                    )
                    continue
                out.pairs[key] = (d, classes)
        return out

    def score(self, stats: Displacements, params: Mapping[str, Any]) -> DisplacementResult:
        tolerances = _tolerances(params)
        key = f"within_{tolerances[len(tolerances) // 2]:g}"
        if not stats.pairs:
            reason = "; ".join(f"{k}: {v}" for k, v in stats.undefined.items()) or "no reference boundaries"
            return DisplacementResult(None, {"reason": reason}, {}, {})
        pairs = {k: _stats(d, tolerances) for k, (d, _) in stats.pairs.items()}
        all_d = np.concatenate([d for d, _ in stats.pairs.values()])
        pooled = _stats(all_d, tolerances)
        labels: dict[str, dict[str, Any]] = {}
        if str(params.get("by_label", "false")).lower() in ("1", "true", "yes"):
            classes = [c for _, cs in stats.pairs.values() for c in cs]
            arr = np.asarray(classes, dtype=object)
            for lab in sorted(set(classes)):
                labels[lab] = _stats(all_d[arr == lab], tolerances)
        return DisplacementResult(pooled[key], pooled, pairs, labels)


MEASURES = (BoundaryDisplacement(),)
