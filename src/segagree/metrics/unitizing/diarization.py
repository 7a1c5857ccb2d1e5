"""What the diarization error rates share (DER, JER): a reference's and a hypothesis's labelled turns
on one recording cut into elementary intervals, the evaluated regions, and the optimal speaker mapping,
as pyannote.metrics 4.x (``UEMSupportMixin.uemify``, ``HungarianMapper``) computes them.

* **Evaluated regions**: the evaluation map (a UEM's scored regions for the item's recording, given
  as the ``uem`` parameter; else the item's continuum: pyannote's default, the union of both extents,
  scores the same, nothing lies outside it) less, with ``collar`` > 0, a collar of
  ``collar`` seconds centred on every reference turn's start and end (half before, half after:
  pyannote's convention; NIST's ``md-eval.pl -c C`` and dscore's ``--collar C`` remove C on each side,
  pyannote's ``collar = 2 C``), and with ``skip_overlap`` the regions where two reference turns or
  more overlap.
* **Elementary intervals**: every turn's start and end and every region's bounds, sorted; on each
  interval between two consecutive points, how many turns of each label are active (a label's turns
  that overlap count twice, as pyannote's annotations do), and whether it is evaluated.
* **Mapping**: the co-occurrence of a reference and a hypothesis label is the evaluated duration
  where both are active (times the number of their turns there); the Hungarian algorithm
  (scipy's ``linear_sum_assignment``, as :mod:`segagree.metrics.unitizing.assignment` runs it) maps
  each label to at most one of the other side so that the total co-occurrence is largest; pairs that
  never co-occur are not mapped.

``convention="dscore"`` follows dscore (its DER is NIST's ``md-eval.pl``): a speaker's overlapping turns
are merged first, and DER maps the speakers on the whole turns, before collars and skipped overlap are
cut (pyannote maps on what is evaluated, so the two differ where a collar moves the best mapping).

Labels are the units' categories (read with ``--category label``: an RTTM turn's speaker name); units
without a category cannot be told apart and the measures say so instead of scoring them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from segagree.metrics.contract import UnitSet
from segagree.metrics.unitizing.assignment import linear_sum_assignment

__all__ = [
    "CONVENTIONS",
    "Timeline",
    "check_diarization_params",
    "convention",
    "hungarian",
    "pair_timeline",
    "uem_regions",
    "unlabelled_reason",
]


CONVENTIONS = ("pyannote", "dscore")


def convention(params: Mapping[str, Any]) -> str:
    """The ``convention`` parameter, checked: ``pyannote`` (the default) or ``dscore``."""
    value = str(params.get("convention") or "pyannote").lower()
    if value not in CONVENTIONS:
        raise ValueError(f"convention must be one of {CONVENTIONS}, not {value!r}")
    return value


def check_diarization_params(params: Mapping[str, Any]) -> tuple[float, bool]:
    """``(collar, skip_overlap)`` from the measure parameters, checked."""
    collar = float(params.get("collar") or 0.0)
    if not (np.isfinite(collar) and collar >= 0):
        raise ValueError(f"collar must be seconds >= 0, not {params.get('collar')!r}")
    skip = params.get("skip_overlap") or False
    if isinstance(skip, str):
        if skip.lower() not in ("true", "false", "yes", "no", "1", "0"):
            raise ValueError(f"skip_overlap must be true or false, not {skip!r}")
        skip = skip.lower() in ("true", "yes", "1")
    return collar, bool(skip)


def _support(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The union of intervals as disjoint sorted ``(n, 2)`` intervals (empty ones dropped)."""
    keep = ends > starts
    if not keep.any():
        return np.zeros((0, 2))
    order = np.argsort(starts[keep], kind="stable")
    s, e = starts[keep][order], ends[keep][order]
    reach = np.maximum.accumulate(e)
    new = np.ones(s.size, dtype=bool)
    new[1:] = s[1:] > reach[:-1]
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, s.size - 1)
    return np.stack([s[first], reach[last]], axis=1)


def _minus(uem: np.ndarray, removed: np.ndarray) -> np.ndarray:
    """``uem`` less the union of ``removed`` (both ``(n, 2)``, disjoint and sorted)."""
    out: list[tuple[float, float]] = []
    j = 0
    for u0, u1 in uem.tolist():
        pos = u0
        while j < len(removed) and removed[j, 1] <= pos:
            j += 1
        k = j
        while k < len(removed) and removed[k, 0] < u1:
            if removed[k, 0] > pos:
                out.append((pos, float(removed[k, 0])))
            pos = max(pos, float(removed[k, 1]))
            k += 1
        if pos < u1:
            out.append((pos, u1))
    return np.asarray(out, dtype=float).reshape(-1, 2)


@dataclass(frozen=True)
class Timeline:
    """One pair's turns on elementary intervals (see the module docstring).

    Attributes:
        duration: ``(K,)`` each elementary interval's evaluated duration (0 outside the regions).
        ref, hyp: ``(K, L_ref)``, ``(K, L_hyp)`` active turns of each label on each interval.
        ref_labels, hyp_labels: the labels' names (columns), in order of first appearance.
    """

    duration: np.ndarray
    ref: np.ndarray
    hyp: np.ndarray
    ref_labels: list[str]
    hyp_labels: list[str]

    def cooccurrence(self) -> np.ndarray:
        """``(L_ref, L_hyp)`` evaluated duration where both labels are active (times their turns)."""
        return (self.ref * self.duration[:, None]).T @ self.hyp


def _turns(us: UnitSet, r: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Annotator r's turns that last: pyannote.metrics adds no empty segment to an annotation (a
    0 s turn would otherwise bring its collar), dscore refuses them."""
    sel = (us.annotator == r) & (us.end > us.start)
    return us.start[sel].astype(float), us.end[sel].astype(float), us.category[sel].astype(np.int64)


def _counts(points: np.ndarray, s: np.ndarray, e: np.ndarray, label: np.ndarray, n: int) -> np.ndarray:
    """``(K, n)`` active turns per label on the intervals between consecutive ``points``."""
    out = np.zeros((points.size, n))
    np.add.at(out, (np.searchsorted(points, s), label), 1.0)
    np.add.at(out, (np.searchsorted(points, e), label), -1.0)
    return np.cumsum(out, axis=0)[:-1]


def uem_regions(us: UnitSet, params: Mapping[str, Any]) -> np.ndarray | str | None:
    """The item's scored regions from the ``uem`` parameter (file id -> regions, as
    :func:`segagree.formats.timed_lists.read_uem` reads a UEM file): ``(n, 2)``; None without a UEM;
    a reason when the UEM has no region for the item (dscore does not score such a file either)."""
    uem = params.get("uem")
    if not uem:
        return None
    if not isinstance(uem, Mapping):
        raise ValueError("uem must map file ids to their scored regions (a UEM file is read by the caller)")
    name = us.name
    for key in (name, name.split("/")[0], name.split(":")[0], name.split("/")[-1].split(":")[0]):
        if key in uem:
            regions = np.asarray(uem[key], dtype=float).reshape(-1, 2)
            return _support(regions[:, 0], regions[:, 1])
    if not name:
        return "this stream has no recording name to look up in the UEM (name the tiers alike): not scored"
    return f"the UEM has no scored region for {name!r}: not scored"


def pair_timeline(
    us: UnitSet, a: int, b: int, collar: float, skip_overlap: bool, regions: np.ndarray | None = None
) -> Timeline:
    """Annotator ``a`` (the reference) and ``b`` (the hypothesis) on elementary intervals, evaluated in
    ``regions`` (a UEM's; default the item's stretch)."""
    rs, re_, rc = _turns(us, a)
    hs, he, hc = _turns(us, b)
    lo, hi = us.continuum
    starts = np.concatenate([rs, hs])
    ends = np.concatenate([re_, he])
    first = min(float(lo), float(starts.min())) if starts.size else float(lo)
    last = max(float(hi), float(ends.max())) if ends.size else float(hi)
    uem = np.array([[first, last]]) if last > first else np.zeros((0, 2))
    if regions is not None:
        uem, first = regions, float(regions[0, 0]) if regions.size else first
    removed: list[np.ndarray] = []
    if collar > 0 and rs.size:
        edges = np.concatenate([rs, re_])
        removed.append(np.stack([edges - collar / 2, edges + collar / 2], axis=1))
    if skip_overlap and rs.size:
        removed.append(_overlaps(rs, re_))
    if removed:
        both = np.concatenate(removed)
        uem = _minus(uem, _support(both[:, 0], both[:, 1]))
    points = np.unique(np.concatenate([starts, ends, uem.ravel()]))
    if points.size < 2:
        points = np.array([first, first])
    ref_names, ref_idx = np.unique(rc, return_inverse=True)
    hyp_names, hyp_idx = np.unique(hc, return_inverse=True)
    ref = _counts(points, rs, re_, ref_idx.reshape(-1), ref_names.size)
    hyp = _counts(points, hs, he, hyp_idx.reshape(-1), hyp_names.size)
    mid = (points[:-1] + points[1:]) / 2
    k = np.searchsorted(uem[:, 0], mid, side="right") - 1
    inside = (k >= 0) & (mid < uem[np.clip(k, 0, None), 1]) if uem.size else np.zeros(mid.size, dtype=bool)
    duration = np.where(inside, np.diff(points), 0.0)
    names = list(us.categories)
    return Timeline(duration, ref, hyp, [names[c] for c in ref_names], [names[c] for c in hyp_names])


def _overlaps(s: np.ndarray, e: np.ndarray) -> np.ndarray:
    """Where two of the turns or more are active, as disjoint ``(n, 2)`` intervals."""
    points = np.unique(np.concatenate([s, e]))
    active = _counts(points, s, e, np.zeros(s.size, dtype=np.int64), 1)[:, 0]
    many = active >= 2
    return _support(points[:-1][many], points[1:][many])


def hungarian(cooccurrence: np.ndarray) -> list[tuple[int, int]]:
    """Rows and columns mapped one-to-one so that the total co-occurrence is largest (pyannote's
    ``HungarianMapper``: pairs that never co-occur are not mapped)."""
    if not cooccurrence.size:
        return []
    rows, cols = linear_sum_assignment(-cooccurrence)
    return [(int(r), int(c)) for r, c in zip(rows, cols, strict=True) if cooccurrence[r, c] > 0]


def unlabelled_reason(us: UnitSet) -> str:
    """Why the units cannot be scored as speakers ('' when they can)."""
    if us.category.size and bool(np.any(us.category < 0)):
        return "DER and JER compare speaker labels: read the units with their labels (--category label)"
    return ""


@dataclass(frozen=True)
class DiarizationSetup:
    """What DER and JER read from their parameters and input before scoring a pair: the collar,
    skip-overlap, the convention, the UEM regions (None: the whole recording), and why the
    input cannot be scored (empty when it can)."""

    collar: float
    skip: bool
    style: str
    regions: np.ndarray | None
    why: str


def diarization_setup(us: UnitSet, params: Mapping[str, Any]) -> DiarizationSetup:
    """The parameters checked and the UEM read once (:class:`DiarizationSetup`)."""
    collar, skip = check_diarization_params(params)
    found = uem_regions(us, params)
    why = unlabelled_reason(us) or (found if isinstance(found, str) else "")
    regions = None if isinstance(found, str) else found
    return DiarizationSetup(collar, skip, convention(params), regions, why)
