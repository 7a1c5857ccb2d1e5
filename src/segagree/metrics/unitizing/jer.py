"""Jaccard error rate (the Second DIHARD Challenge's evaluation plan, Ryant et al. 2019; pyannote.metrics'
``JaccardErrorRate`` and dscore's ``jer``), for every annotator pair ``"A|B"`` with A as the reference.

After the evaluated regions are cut (:mod:`segagree.metrics.unitizing.diarization`), each reference
speaker is mapped to at most one hypothesis speaker (one-to-one); for a mapped pair with ``R`` and ``H``
the time each speaks (a speaker's overlapping turns merged), ``JER_ref = 1 - |R ∩ H| / |R ∪ H|``, and
an unmapped reference speaker has ``JER_ref = 1``. JER is the mean of ``JER_ref`` over the reference
speakers; pooled over recordings and texts, the mean over every reference speaker of every item (the
sum of the errors over the number of speakers). Hypothesis speakers left unmapped add nothing.

The mapping (``jer_mapping``):

* ``overlap`` (default, pyannote's): the Hungarian mapping that maximises the total co-occurring time,
  as DER's;
* ``jaccard`` (dscore's): the Hungarian mapping that minimises the sum of the pairs' ``JER_ref``.

With no reference speaker in an item, pyannote gives 1 (its empty metric) and dscore 100 % when the
hypothesis has speech, 0 when neither has: here the item is left out with the reason when neither
has speech, and counts as one speaker with error 1 when only the hypothesis has (dscore's file value).
dscore computes on 10 ms frames, without collars; on times at a 10 ms resolution its figures and these
(``collar`` 0, ``jer_mapping`` jaccard) agree to the frame.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.metrics.contract import Card, Measure, UnitSet
from segagree.metrics.unitizing.diarization import (
    check_diarization_params,
    hungarian,
    pair_timeline,
    unlabelled_reason,
)

__all__ = ["MAPPINGS", "MEASURES", "JaccardErrorRate", "speaker_errors"]

MAPPINGS = ("overlap", "jaccard")


def _mapping(params: Mapping[str, Any]) -> str:
    value = str(params.get("jer_mapping") or "overlap").lower()
    if value not in MAPPINGS:
        raise ValueError(f"jer_mapping must be one of {MAPPINGS}, not {value!r}")
    return value


def speaker_errors(
    us: UnitSet, a: int, b: int, collar: float, skip_overlap: bool, mapping: str
) -> tuple[dict[str, float], dict[str, str]]:
    """Each reference speaker's ``JER_ref`` and the mapping (reference label -> hypothesis label)."""
    tl = pair_timeline(us, a, b, collar, skip_overlap)
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
    if mapping == "overlap":
        pairs = hungarian((tl.ref[:, ref_kept] * d[:, None]).T @ tl.hyp[:, hyp_kept])
    else:
        from scipy.optimize import linear_sum_assignment

        rows, cols = linear_sum_assignment(error) if error.size else ([], [])
        pairs = list(zip(np.asarray(rows).tolist(), np.asarray(cols).tolist(), strict=True))
    errors = dict.fromkeys(ref_labels, 1.0)
    for r, h in pairs:
        errors[ref_labels[r]] = float(error[r, h])
    return errors, {ref_labels[r]: hyp_labels[h] for r, h in pairs}


@dataclass
class JerSums:
    """Per pair "A|B": (sum of the speakers' errors, number of reference speakers), and each item's
    per-speaker errors and mapping (in order)."""

    pairs: dict[str, np.ndarray] = field(default_factory=dict)
    speakers: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)

    def __add__(self, other: JerSums) -> JerSums:
        out = {k: v.copy() for k, v in self.pairs.items()}
        for k, v in other.pairs.items():
            out[k] = out[k] + v if k in out else v.copy()
        speakers = {k: list(v) for k, v in self.speakers.items()}
        for k, v in other.speakers.items():
            speakers.setdefault(k, []).extend(v)
        return JerSums(out, speakers, [*self.reasons, *other.reasons])


@dataclass(frozen=True)
class JerResult:
    value: float | None
    pooled: dict[str, Any]
    pairs: dict[str, dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, **self.pooled, "jer_pairs": self.pairs}


class JaccardErrorRate(Measure[UnitSet, JerSums, JerResult]):
    """JER (see the module docstring)."""

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
            "category": "label (the speaker labels)",
            "jer_mapping": "overlap (pyannote's; or jaccard: dscore's)",
        },
        better="lower",
        needs="times",
        annotators="2+",
        group="diarization",
        reference="pyannote.metrics 4.2.0 JaccardErrorRate and dscore's jer "
        "(tests/data/unitizing/diarization_reference.json with its script)",
        notes="Speaker labels are the units' categories (--category label). dscore computes on 10 ms frames "
        "without collars and maps to minimise the error (jer_mapping=jaccard).",
    )

    def statistics(self, item: UnitSet, params: Mapping[str, Any]) -> JerSums:
        collar, skip = check_diarization_params(params)
        mapping = _mapping(params)
        out = JerSums()
        why = unlabelled_reason(item)
        if why:
            out.reasons.append(why)
            return out
        n = len(item.annotators)
        for a in range(n):
            for b in range(a + 1, n):
                errors, mapped = speaker_errors(item, a, b, collar, skip, mapping)
                key = f"{item.annotators[a]}|{item.annotators[b]}"
                if errors:
                    out.pairs[key] = np.array([sum(errors.values()), len(errors)])
                elif np.any(item.annotator == b):  # speech in B only: dscore's 100 %
                    out.pairs[key] = np.array([1.0, 1.0])
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
                "jer": float(v[0] / v[1]),
                "speakers": int(v[1]),
                "detail": detail[0] if len(detail) == 1 else detail,
            }
        if not stats.pairs:
            reason = stats.reasons[0] if stats.reasons else "no annotator pair with speech"
            return JerResult(None, {"reason": reason}, pairs)
        total = np.sum(list(stats.pairs.values()), axis=0)
        return JerResult(
            float(total[0] / total[1]), {"speaker_error": float(total[0]), "speakers": int(total[1])}, pairs
        )


MEASURES = (JaccardErrorRate(),)
