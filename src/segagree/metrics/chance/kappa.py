"""kappa_sf and kappa_sf_b as measures: S_f and S_f^B corrected for simulated chance agreement.

The computation is :func:`segagree.metrics.chance.sf_kappa.sf_kappa` (Lai, Li & Zhang 2023, section 5).
A text's statistics are its observed S_f statistics and, per simulated chance pair, the chance
cost and edits summed over its speakers (or, with ``chance_method="exact"``, the expected cost
and its variance); they add across texts, and kappa is taken from the sums, as ``sf_kappa``
pools speakers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.errors import UsageError
from segagree.metrics.boundary.sf import SF_B_CARD, SF_CARD, SfStats
from segagree.metrics.chance.sf_kappa import KappaEstimate, SfKappaResult, kappa_estimate, sf_kappa, sim_values
from segagree.metrics.contract import Card, Measure, TokenSet

# What the two kappas share.
_KAPPA: dict[str, Any] = {
    "citation": "Lai, Li & Zhang (2023) section 5 (simulated chance); Cohen (1960), Scott (1955), "
    "Bennett et al. (1954)",
    "parameters": {
        "chance": "cohen (scott, bennett, bennett_modified, segsimflex)",
        "sims": "1000",
        "seed": "12345",
        "chance_method": "simulation (exact: S_f without transpositions only)",
        "mode": "optimal",
        "transpositions": "True",
    },
    "needs": "annotations",
    "group": "agreement",
    "reference": "R segsimflex 0.1.3 IAA (within Monte Carlo error)",
}

KAPPA_SF_CARD = Card.from_text(
    """
    title: kappa of S_f
    definition: (S_f - E[S_f]) / (1 - E[S_f]), E[S_f] the mean S_f of K simulated chance annotation
        pairs
    """,
    **_KAPPA,
    name="kappa_sf",
)
KAPPA_SF_B_CARD = Card.from_text(
    """
    title: kappa of S_f^B
    definition: (S_f^B - E[S_f^B]) / (1 - E[S_f^B]) with simulated chance annotations, as kappa of S_f
    notes: no exact chance expectation exists for S_f^B
    """,
    **_KAPPA,
    name="kappa_sf_b",
)

# The names of the two kappas (the keys of agreement results).
KAPPA_NAMES: tuple[str, str] = (KAPPA_SF_CARD.name, KAPPA_SF_B_CARD.name)

# sf_kappa's keyword arguments a user may set through the measure's parameters.
_OPTIONS = ("chance", "sims", "seed", "chance_method", "mode", "transpositions", "mc_tolerance", "jobs")


@dataclass(frozen=True)
class KappaStats:
    """Additive statistics of kappa over texts.

    Attributes:
        observed: summed observed S_f statistics.
        sim_cost, sim_edits: per simulated pair, chance cost and edits summed over speakers and
            texts (empty with the exact method).
        exact_cost, exact_var: exact method: summed expected chance cost and its variance.
        per_speaker: one text only: speaker -> its kappas (not kept by a sum).
        signature: of the first text.
    """

    observed: SfStats
    sim_cost: np.ndarray
    sim_edits: np.ndarray
    exact_cost: float = 0.0
    exact_var: float = 0.0
    per_speaker: Mapping[str, Mapping[str, KappaEstimate]] = field(default_factory=dict)
    signature: str = ""

    def __add__(self, other: KappaStats) -> KappaStats:
        if not isinstance(other, KappaStats):
            return NotImplemented
        if self.sim_cost.shape != other.sim_cost.shape:
            raise UsageError("kappa: texts simulated with different numbers of chance pairs cannot be pooled")
        return KappaStats(
            self.observed + other.observed,
            self.sim_cost + other.sim_cost,
            self.sim_edits + other.sim_edits,
            self.exact_cost + other.exact_cost,
            self.exact_var + other.exact_var,
            {},
            self.signature,
        )


@dataclass(frozen=True)
class KappaScore:
    """kappa of S_f or S_f^B.

    Attributes:
        measure: the measure's name.
        estimate: the pooled estimate (observed, chance mean and sd, kappa, Monte Carlo error);
            ``value`` is its kappa.
        per_speaker: one text only: speaker -> its estimate.
        signature: how the chance agreement was computed.
    """

    measure: str
    estimate: KappaEstimate
    per_speaker: Mapping[str, KappaEstimate]
    signature: str

    @property
    def value(self) -> float | None:
        return self.estimate.kappa

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "per_speaker": {s: e.kappa for s, e in self.per_speaker.items()},
            "estimate": self.estimate.to_dict(),
            "signature": self.signature,
        }


def _stats_of(res: SfKappaResult) -> KappaStats:
    observed = sum(res.observed.values(), SfStats())
    exact_cost = exact_var = 0.0
    if res.method == "exact":  # sf_kappa's pooled mean and sd, back to additive sums
        est, n = res.pooled[SF_CARD.name], observed.n_tokens
        exact_cost = (1.0 - float(est.chance_mean or 0.0)) * n
        exact_var = (float(est.chance_sd or 0.0) * n) ** 2
    return KappaStats(
        observed,
        res.sim_cost.sum(axis=0),
        res.sim_edits.sum(axis=0),
        exact_cost,
        exact_var,
        {s: d for s, d in res.per_speaker.items()},
        res.signature,
    )


class KappaMeasure(Measure[TokenSet, KappaStats, KappaScore]):
    """kappa of S_f for two annotators of one text (``TokenSet`` codes: speaker -> array)."""

    card = KAPPA_SF_CARD
    similarity = SF_CARD.name

    def statistics(self, item: TokenSet, params: Mapping[str, Any]) -> KappaStats:
        if len(item.codes) != 2:
            raise UsageError(f"{self.card.name} compares two annotators, got {len(item.codes)}")
        a, b = (c if isinstance(c, Mapping) else {"": c} for c in item.codes)
        options = {k: params[k] for k in _OPTIONS if k in params}
        return _stats_of(sf_kappa(a, b, item.scheme, **options))

    def score(self, stats: KappaStats, params: Mapping[str, Any]) -> KappaScore:
        obs = stats.observed.sf if self.similarity == SF_CARD.name else stats.observed.sf_b
        if stats.sim_cost.size:
            values = sim_values(stats.sim_cost, stats.sim_edits, stats.observed.n_tokens)
            v = values[0] if self.similarity == SF_CARD.name else values[1]
            est = kappa_estimate(self.similarity, obs, v, int(v.size))
        elif self.similarity == SF_CARD.name:
            n = stats.observed.n_tokens
            exact = (1.0 - stats.exact_cost / n, math.sqrt(stats.exact_var) / n) if n else (1.0, 0.0)
            est = kappa_estimate(self.similarity, obs, None, None, exact)
        else:
            est = KappaEstimate(self.similarity, obs, None, None, None, None, "S_f^B has no exact chance expectation")
        per = {s: d[self.similarity] for s, d in stats.per_speaker.items()}
        return KappaScore(self.card.name, est, per, stats.signature)


class KappaBMeasure(KappaMeasure):
    card = KAPPA_SF_B_CARD
    similarity = SF_B_CARD.name


MEASURES = (KappaMeasure(), KappaBMeasure())
