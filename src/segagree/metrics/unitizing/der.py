"""Diarization error rate (NIST Rich Transcription evaluations; pyannote.metrics'
``DiarizationErrorRate``), for every annotator pair ``"A|B"`` with A as the reference.

After the evaluated regions are cut and the speaker labels mapped optimally
(:mod:`segagree.metrics.unitizing.diarization`), on each elementary interval of duration ``d`` with
``N_ref`` active reference turns, ``N_hyp`` hypothesis turns and ``N_correct`` of them paired to a
reference turn of the label they are mapped to (pyannote's ``IdentificationErrorRate``):

* ``total`` += ``d N_ref`` (the scored speaker time: overlapped speech counts once per speaker),
* ``missed detection`` += ``d max(0, N_ref - N_hyp)``, ``false alarm`` += ``d max(0, N_hyp - N_ref)``,
* ``confusion`` += ``d (min(N_ref, N_hyp) - N_correct)``, ``correct`` += ``d N_correct``;

``DER = (missed detection + false alarm + confusion) / total`` (0 when nothing is scored and nothing
is wrong, 1 when nothing is scored and something is: pyannote's convention). The components add over
recordings and texts (pyannote's ``abs(metric)`` and ``md-eval.pl``'s overall figure are the ratio of
the sums). ``collar`` is pyannote's (the total width of the collar around each reference boundary);
dscore's and ``md-eval.pl``'s ``--collar C`` is ``collar = 2 C`` here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.metrics.boundary.stats import signature
from segagree.metrics.contract import Card, Measure, UnitSet
from segagree.metrics.unitizing.diarization import (
    check_diarization_params,
    convention,
    diarization_setup,
    hungarian,
    pair_timeline,
)

__all__ = ["MEASURES", "DiarizationErrorRate", "der_components"]

COMPONENTS = ("total", "missed_detection", "false_alarm", "confusion", "correct")


def der_components(
    us: UnitSet,
    a: int,
    b: int,
    collar: float,
    skip_overlap: bool,
    style: str = "pyannote",
    regions: np.ndarray | None = None,
) -> tuple[np.ndarray, dict[str, str]]:
    """The five components (:data:`COMPONENTS`) of the pair (A = annotator ``a``, the reference) and
    the mapping (hypothesis label -> reference label); ``style`` is the convention (pyannote's, or
    dscore's: overlapping turns of a speaker merged, speakers mapped on the whole turns)."""
    tl = pair_timeline(us, a, b, collar, skip_overlap, regions)
    ref, hyp = tl.ref, tl.hyp
    if style == "dscore":
        ref, hyp = np.minimum(ref, 1.0), np.minimum(hyp, 1.0)
        whole = pair_timeline(us, a, b, 0.0, False, regions)
        pairs = hungarian((np.minimum(whole.ref, 1.0) * whole.duration[:, None]).T @ np.minimum(whole.hyp, 1.0))
    else:
        pairs = hungarian(tl.cooccurrence())
    n_ref, n_hyp = ref.sum(axis=1), hyp.sum(axis=1)
    mapped = np.zeros_like(n_ref)
    for r, h in pairs:  # each label mapped once: its turns pair with the mapped label's turns
        mapped += np.minimum(ref[:, r], hyp[:, h])
    d = tl.duration
    parts = np.array(
        [
            d @ n_ref,
            d @ np.maximum(0.0, n_ref - n_hyp),
            d @ np.maximum(0.0, n_hyp - n_ref),
            d @ (np.minimum(n_ref, n_hyp) - mapped),
            d @ mapped,
        ]
    )
    return parts, {tl.hyp_labels[h]: tl.ref_labels[r] for r, h in pairs}


def der_value(parts: np.ndarray) -> float:
    """DER of summed components (pyannote's convention when nothing is scored)."""
    total, missed, fa, confusion, _ = parts.tolist()
    error = missed + fa + confusion
    if total == 0:
        return 0.0 if error == 0 else 1.0
    return error / total


@dataclass
class DerSums:
    """Per pair "A|B": the summed components, and the mapping of each item scored (in order)."""

    pairs: dict[str, np.ndarray] = field(default_factory=dict)
    mappings: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)

    def __add__(self, other: DerSums) -> DerSums:
        out = {k: v.copy() for k, v in self.pairs.items()}
        for k, v in other.pairs.items():
            out[k] = out[k] + v if k in out else v.copy()
        mappings = {k: list(v) for k, v in self.mappings.items()}
        for k, found in other.mappings.items():
            mappings.setdefault(k, []).extend(found)
        return DerSums(out, mappings, [*self.reasons, *other.reasons])


@dataclass(frozen=True)
class DerResult:
    value: float | None
    pooled: dict[str, Any]
    pairs: dict[str, dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, **self.pooled, "der_pairs": self.pairs}


def _components_dict(parts: np.ndarray) -> dict[str, Any]:
    return {"der": der_value(parts), **dict(zip(COMPONENTS, parts.tolist(), strict=True))}


class DiarizationErrorRate(Measure[UnitSet, DerSums, DerResult]):
    """DER with the optimal speaker mapping (see the module docstring)."""

    light = True  # linear in the turns: no worker processes

    card = Card(
        name="der",
        title="Diarization error rate",
        definition="(missed detection + false alarm + speaker confusion) / scored speaker time, after the "
        "optimal (Hungarian) mapping of B's speaker labels to A's, per annotator pair A|B (A the reference)",
        citation="NIST Rich Transcription evaluations (md-eval.pl); Bredin 2017, pyannote.metrics (Interspeech)",
        parameters={
            "collar": "0 (seconds, total around each reference boundary, as pyannote)",
            "skip_overlap": "false",
            "uem": "the recording's stretch (or a UEM file's scored regions: --uem FILE)",
            "category": "label (the speaker labels)",
            "convention": "pyannote (or dscore: md-eval's mapping on the whole turns, overlapping turns merged)",
        },
        better="lower",
        needs="times",
        annotators="2+",
        group="diarization",
        reference="pyannote.metrics 4.2.0 DiarizationErrorRate and dscore's md-eval.pl "
        "(tests/data/unitizing/diarization_reference.json with its script)",
        notes="Speaker labels are the units' categories (--category label). dscore's --collar C is collar 2C "
        "here. convention=dscore gives dscore's (md-eval's) figures: it merges a speaker's overlapping turns and maps "
        "speakers before the collars are cut.",
    )

    def statistics(self, item: UnitSet, params: Mapping[str, Any]) -> DerSums:
        setup = diarization_setup(item, params)
        collar, skip, style, regions = setup.collar, setup.skip, setup.style, setup.regions
        out = DerSums()
        if setup.why:
            out.reasons.append(setup.why)
            return out
        n = len(item.annotators)
        for a in range(n):
            for b in range(a + 1, n):
                if not np.any(item.annotator == a) and not np.any(item.annotator == b):
                    continue
                parts, mapping = der_components(item, a, b, collar, skip, style, regions)
                key = f"{item.annotators[a]}|{item.annotators[b]}"
                out.pairs[key] = parts
                out.mappings[key] = [mapping]
        return out

    def score(self, stats: DerSums, params: Mapping[str, Any]) -> DerResult:
        pairs: dict[str, dict[str, Any]] = {}
        for k, v in stats.pairs.items():
            maps = stats.mappings.get(k, [])
            pairs[k] = {**_components_dict(v), "mapping": maps[0] if len(maps) == 1 else maps}
        if not stats.pairs:
            reason = stats.reasons[0] if stats.reasons else "no annotator pair with turns"
            return DerResult(None, {"reason": reason}, pairs)
        total = np.sum(list(stats.pairs.values()), axis=0)
        pooled = _components_dict(total)
        collar, skip = check_diarization_params(params)
        pooled["signature"] = signature(
            self.card.name, collar=f"{collar:g}", skip_overlap=skip, convention=convention(params)
        )
        return DerResult(pooled.pop("der"), pooled, pairs)


MEASURES = (DiarizationErrorRate(),)
