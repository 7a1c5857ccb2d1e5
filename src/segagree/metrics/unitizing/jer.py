"""Jaccard error rate (the Second DIHARD Challenge's evaluation plan, Ryant et al. 2019; pyannote.metrics'
``JaccardErrorRate`` and dscore's ``jer``), for every annotator pair ``"A|B"`` with A as the reference.

After the evaluated regions are cut (:mod:`segagree.metrics.unitizing.diarization`), each reference
speaker is mapped to at most one hypothesis speaker (one-to-one); for a mapped pair with ``R`` and ``H``
the time each speaks (a speaker's overlapping turns merged), ``JER_ref = 1 - |R ∩ H| / |R ∪ H|``, and
an unmapped reference speaker has ``JER_ref = 1``. JER is the mean of ``JER_ref`` over the reference
speakers; pooled over recordings and texts, the mean over every reference speaker of every item (the
sum of the errors over the number of speakers). Hypothesis speakers left unmapped add nothing.

Two conventions (``convention``):

* ``pyannote`` (the default): exact times; the collar and skipped overlap cut as for DER; the
  Hungarian mapping that maximises the total co-occurring time, as DER's;
* ``dscore``: dscore's ``turns_to_frames`` and ``jer``, step by step: 10 ms frames (frame ``i`` at
  ``0.01 i`` s, a turn covering the frames from the first at or after its onset to the last before its
  offset, up to the evaluation map's end), no collar and no skipped overlap (dscore applies them to
  DER only), and the Hungarian mapping that minimises the sum of the pairs' ``JER_ref``.

With no reference speaker in an item, pyannote gives 1 (its empty metric) and dscore 100 % when the
hypothesis has speech, 0 when neither has: here the item is left out with the reason when neither
has speech, and is 1 when only the hypothesis has, adding no speaker to the pooled mean (as both
tools' overall figures).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.metrics.boundary.stats import signature
from segagree.metrics.contract import Card, Measure, UnitSet
from segagree.metrics.unitizing.assignment import linear_sum_assignment
from segagree.metrics.unitizing.diarization import (
    check_diarization_params,
    convention,
    diarization_setup,
    hungarian,
    pair_timeline,
)

__all__ = ["MEASURES", "JaccardErrorRate", "speaker_errors"]

STEP = 0.010  # dscore's default frame step


def _frames(us: UnitSet, r: int, regions: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """dscore's ``turns_to_frames`` of annotator r's turns: ``(frames, speakers)`` 0/1, and the speakers'
    labels (sorted, as ``np.unique``), over the frames of the scoring ``regions``; a speaker with no
    frame there is gone (dscore trims the turns to the regions first)."""
    sel = us.annotator == r
    cats = us.category[sel]
    names, idx = np.unique(cats, return_inverse=True)
    times = STEP * np.arange(int(float(regions[:, 1].max()) / STEP))
    x = np.zeros((times.size, names.size), dtype=np.int64)
    for bi, ei, k in zip(
        np.searchsorted(times, us.start[sel]).tolist(),
        np.searchsorted(times, us.end[sel]).tolist(),
        idx.reshape(-1).tolist(),
        strict=True,
    ):
        x[bi:ei, k] = 1
    keep = np.zeros(times.size, dtype=bool)
    for onset, offset in regions.tolist():
        bi, ei = np.searchsorted(times, (onset, offset)).tolist()
        keep[bi:ei] = True
    x = x[keep]
    present = x.sum(axis=0) > 0
    labels = list(us.categories)
    return x[:, present], [labels[c] for c, p in zip(names.tolist(), present.tolist(), strict=True) if p]


def _dscore_errors(us: UnitSet, a: int, b: int, regions: np.ndarray | None) -> tuple[np.ndarray, list[str], list[str]]:
    """``(JER_ref per pair, reference labels, hypothesis labels)`` on dscore's frames (its default UEM:
    the earliest onset to the latest offset of both)."""
    if regions is None:
        sel = (us.annotator == a) | (us.annotator == b)
        regions = np.array([[float(us.start[sel].min()), float(us.end[sel].max())]])
    ref, ref_labels = _frames(us, a, regions)
    hyp, hyp_labels = _frames(us, b, regions)
    inter = (ref.T @ hyp).astype(float)
    union = ref.sum(axis=0)[:, None] + hyp.sum(axis=0)[None, :] - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1 - inter / union, ref_labels, hyp_labels


def _exact_errors(
    us: UnitSet, a: int, b: int, collar: float, skip_overlap: bool, regions: np.ndarray | None
) -> tuple[np.ndarray, list[str], list[str], np.ndarray]:
    """``(JER_ref per pair, reference labels, hypothesis labels, co-occurrence)`` on exact times."""
    tl = pair_timeline(us, a, b, collar, skip_overlap, regions)
    d = tl.duration
    ref_on, hyp_on = tl.ref > 0, tl.hyp > 0  # a speaker's overlapping turns merged
    # labels with no evaluated time are gone (pyannote crops them away)
    ref_kept, hyp_kept = d @ ref_on > 0, d @ hyp_on > 0
    ref_labels = [lab for lab, k in zip(tl.ref_labels, ref_kept.tolist(), strict=True) if k]
    hyp_labels = [lab for lab, k in zip(tl.hyp_labels, hyp_kept.tolist(), strict=True) if k]
    ref_on, hyp_on = ref_on[:, ref_kept], hyp_on[:, hyp_kept]
    inter = (ref_on * d[:, None]).T @ hyp_on
    union = (d @ ref_on)[:, None] + (d @ hyp_on)[None, :] - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        error = np.where(union > 0, 1 - inter / union, 1.0)
    return error, ref_labels, hyp_labels, (tl.ref[:, ref_kept] * d[:, None]).T @ tl.hyp[:, hyp_kept]


def speaker_errors(
    us: UnitSet,
    a: int,
    b: int,
    collar: float,
    skip_overlap: bool,
    style: str = "pyannote",
    regions: np.ndarray | None = None,
) -> tuple[dict[str, float], dict[str, str]]:
    """Each reference speaker's ``JER_ref`` and the mapping (reference label -> hypothesis label), in
    the convention ``style`` (see the module docstring)."""
    if style == "dscore":
        if not bool(np.any((us.annotator == a) | (us.annotator == b))):
            return {}, {}
        error, ref_labels, hyp_labels = _dscore_errors(us, a, b, regions)
        rows, cols = linear_sum_assignment(error) if error.size else ([], [])
        pairs = list(zip(np.asarray(rows).tolist(), np.asarray(cols).tolist(), strict=True))
    else:
        error, ref_labels, hyp_labels, cooccurrence = _exact_errors(us, a, b, collar, skip_overlap, regions)
        pairs = hungarian(cooccurrence)
    errors = dict.fromkeys(ref_labels, 1.0)
    for r, h in pairs:
        errors[ref_labels[r]] = float(error[r, h])
    return errors, {ref_labels[r]: hyp_labels[h] for r, h in pairs}


@dataclass
class JerSums:
    """Per pair "A|B": (sum of the speakers' errors, number of reference speakers, items where only B
    speaks), and each item's per-speaker errors and mapping (in order)."""

    pairs: dict[str, np.ndarray] = field(default_factory=dict)
    speakers: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)

    def __add__(self, other: JerSums) -> JerSums:
        out = {k: v.copy() for k, v in self.pairs.items()}
        for k, v in other.pairs.items():
            out[k] = out[k] + v if k in out else v.copy()
        speakers = {k: list(v) for k, v in self.speakers.items()}
        for k, found in other.speakers.items():
            speakers.setdefault(k, []).extend(found)
        return JerSums(out, speakers, [*self.reasons, *other.reasons])


def _ratio(sums: np.ndarray) -> float:
    """The mean error over the reference speakers; 1 where only the hypothesis speaks (no speaker)."""
    return float(sums[0] / sums[1]) if sums[1] else 1.0


@dataclass(frozen=True)
class JerResult:
    value: float | None
    pooled: dict[str, Any]
    pairs: dict[str, dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, **self.pooled, "jer_pairs": self.pairs}


class JaccardErrorRate(Measure[UnitSet, JerSums, JerResult]):
    """JER (see the module docstring)."""

    light = True  # linear in the turns: no worker processes

    card = Card(
        name="jer",
        title="Jaccard error rate",
        definition="mean over A's speakers of 1 - |A's speaker ∩ mapped B speaker| / |their union| (1 for an "
        "unmapped speaker), speakers mapped one-to-one by the Hungarian algorithm, per annotator pair A|B",
        citation="Ryant et al. 2019, The Second DIHARD Diarization Challenge evaluation plan; pyannote.metrics "
        "JaccardErrorRate; dscore",
        parameters={
            "collar": "0 (seconds, total around each reference boundary, as pyannote)",
            "skip_overlap": "false",
            "uem": "the recording's stretch (or a UEM file's scored regions: --uem FILE)",
            "category": "label (the speaker labels)",
            "convention": "pyannote (or dscore: 10 ms frames, no collar, the mapping of least error)",
        },
        better="lower",
        needs="times",
        annotators="2+",
        group="diarization",
        reference="pyannote.metrics 4.2.0 JaccardErrorRate and dscore's jer "
        "(tests/data/unitizing/diarization_reference.json with its script)",
        notes="Speaker labels are the units' categories (--category label). convention=dscore gives dscore's "
        "figures: 10 ms frames, no collar, speakers mapped to minimise the error.",
    )

    def statistics(self, item: UnitSet, params: Mapping[str, Any]) -> JerSums:
        setup = diarization_setup(item, params)
        collar, skip, style, regions = setup.collar, setup.skip, setup.style, setup.regions
        out = JerSums()
        if setup.why:
            out.reasons.append(setup.why)
            return out
        n = len(item.annotators)
        for a in range(n):
            for b in range(a + 1, n):
                errors, mapped = speaker_errors(item, a, b, collar, skip, style, regions)
                key = f"{item.annotators[a]}|{item.annotators[b]}"
                if errors:
                    out.pairs[key] = np.array([sum(errors.values()), len(errors), 0.0])
                elif np.any(item.annotator == b):  # speech in B only: 1 (dscore's 100 %), no speaker to pool
                    out.pairs[key] = np.array([0.0, 0.0, 1.0])
                else:
                    out.reasons.append(f"{key}: no speech on either side")
                    continue
                out.speakers[key] = [{"speakers": errors, "mapping": mapped}]
        return out

    def score(self, stats: JerSums, params: Mapping[str, Any]) -> JerResult:
        pairs: dict[str, dict[str, Any]] = {}
        for k, v in stats.pairs.items():
            detail = stats.speakers.get(k, [])
            pairs[k] = {
                "jer": _ratio(v),
                "speakers": int(v[1]),
                "detail": detail[0] if len(detail) == 1 else detail,
            }
        if not stats.pairs:
            reason = stats.reasons[0] if stats.reasons else "no annotator pair with speech"
            return JerResult(None, {"reason": reason}, pairs)
        total = np.sum(list(stats.pairs.values()), axis=0)
        collar, skip = check_diarization_params(params)
        sig = signature(self.card.name, collar=f"{collar:g}", skip_overlap=skip, convention=convention(params))
        pooled = {"speaker_error": float(total[0]), "speakers": int(total[1]), "signature": sig}
        return JerResult(_ratio(total), pooled, pairs)


MEASURES = (JaccardErrorRate(),)
