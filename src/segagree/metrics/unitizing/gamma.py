"""gamma, gamma-cat and gamma-k (Mathet, Widlöcher & Métivier 2015; Mathet 2018) as measures.

``gamma = 1 - D_o / D_e``: D_o is the disorder of the continuum's best alignment
(:mod:`.alignment`), D_e the mean best-alignment disorder of ``samples`` random continua
(:mod:`.samplers`); gamma is 1 when D_o is 0 (as in pygamma-agreement). gamma-cat and gamma-k use the
same alignments with the category disorder of :mod:`.gamma_cat`.

The alignments come from :mod:`.gamma_core` (seeded per sample: the same digits for any
``jobs``). Statistics add across items (speakers, texts) as
sums of group disorders and of mean units, per sample, so a pooled value is the value of the items
laid side by side.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any

import numpy as np

from segagree.metrics.contract import Card, Measure, NotApplicableResult, UnitSet
from segagree.metrics.unitizing.gamma_cat import CategoryParts, category_parts
from segagree.metrics.unitizing.gamma_core import Core, Setup, alignment_json, gamma_core, not_applicable
from segagree.metrics.unitizing.shared import time_card

__all__ = ["MEASURES", "GammaCatMeasure", "GammaKMeasure", "GammaMeasure", "Setup", "gamma_core"]

PARAMETERS = {
    "alpha": "1",
    "beta": "1",
    "delta_empty": "1",
    "samples": "30",
    "seed": "0",
    "sampler": "statistical",
    "jobs": "1",
    # the alignment's memory budget in MB (resources.py; default: 60 % of what this process may use)
    "memory_budget_mb": "auto",
}
_Z95 = 1.959963984540054
_CITATION_2015 = (
    "Mathet, Widlöcher & Métivier (2015). The unified and holistic method gamma for inter-annotator agreement "
    "measure and alignment. Computational Linguistics 41(3)."
)
_CITATION_2018 = (
    "Mathet (2017/2018). The agreement measure gamma-cat, a complement to gamma focused on categorization of a "
    "continuum. Computational Linguistics 43(3)."
)


@dataclass(frozen=True)
class GammaStats:
    """Sums behind gamma: group disorders and mean units, observed and per sample; the alignments."""

    observed_sum: float = 0.0
    observed_units: float = 0.0
    sample_sums: np.ndarray = field(default_factory=lambda: np.zeros(0))
    sample_units: np.ndarray = field(default_factory=lambda: np.zeros(0))
    alignments: tuple[dict[str, Any], ...] = ()
    seed: int | None = None
    reasons: tuple[str, ...] = ()

    def __add__(self, other: GammaStats) -> GammaStats:
        if not other.alignments:  # an item gamma does not apply to adds only its reason
            return replace(self, reasons=self.reasons + other.reasons)
        if not self.alignments:
            return replace(other, reasons=self.reasons + other.reasons)
        return GammaStats(
            self.observed_sum + other.observed_sum,
            self.observed_units + other.observed_units,
            self.sample_sums + other.sample_sums,
            self.sample_units + other.sample_units,
            self.alignments + other.alignments,
            self.seed,
            self.reasons + other.reasons,
        )


@dataclass(frozen=True)
class GammaResult:
    """gamma with its disorders, Monte Carlo error and the best alignment."""

    value: float
    observed_disorder: float
    expected_disorder: float
    standard_error: float
    interval: tuple[float | None, float | None]
    sample_disorders: tuple[float, ...]
    sampler: str
    seed: int | None
    alignments: tuple[dict[str, Any], ...]
    signature: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "value": self.value,
            "observed_disorder": self.observed_disorder,
            "expected_disorder": self.expected_disorder,
            "standard_error": self.standard_error,
            "interval": list(self.interval),
            "samples": len(self.sample_disorders),
            "sample_disorders": list(self.sample_disorders),
            "sampler": self.sampler,
            "seed": self.seed,
            "signature": self.signature,
        }
        if len(self.alignments) == 1:
            out["alignment"] = self.alignments[0]
        else:
            out["alignments"] = list(self.alignments)
        return out


def _mc_interval(observed: float, draws: np.ndarray) -> tuple[float, float, tuple[float | None, float | None]]:
    """(expected, standard error of gamma, 95% interval of gamma) from the sampled disorders.

    The interval maps D_e ± 1.96 · se(D_e) through ``1 - D_o / D_e``; the standard error is the
    delta method's ``D_o / D_e² · se(D_e)``.
    """
    expected = float(np.mean(draws))
    se_de = float(np.std(draws, ddof=1) / math.sqrt(draws.size)) if draws.size > 1 else float("nan")
    if observed == 0:
        return expected, 0.0, (1.0, 1.0)
    se = observed / expected**2 * se_de if expected > 0 else float("nan")
    lo_de, hi_de = expected - _Z95 * se_de, expected + _Z95 * se_de
    lower = 1 - observed / lo_de if lo_de > 0 else None
    upper = 1 - observed / hi_de if hi_de > 0 else None
    return expected, se, (lower, upper)


class _GammaBase(Measure[UnitSet, Any, Any]):
    compares_categories = True

    def warm(self) -> None:
        import scipy.sparse.csgraph  # noqa: F401  (the alignment's matching, imported before workers fork)

    def _core(self, item: UnitSet, params: Mapping[str, Any]) -> tuple[Setup, Core | None, str]:
        setup = Setup.from_params(params)
        reason = not_applicable(item)
        return setup, (None if reason else gamma_core(item, setup)), reason


class GammaMeasure(_GammaBase):
    card = time_card(
        "gamma",
        "gamma (unitizing agreement over time)",
        (
            "1 - D_o/D_e: D_o the disorder of the exact best alignment of the annotators' units (sum of group "
            "disorders / mean units per annotator; d = alpha·d_pos + beta·d_cat, empty costs delta_empty), D_e the "
            "mean best-alignment disorder of `samples` random continua; 1 when D_o = 0"
        ),
        _CITATION_2015,
        parameters=PARAMETERS,
        reference=(
            "pygamma-agreement 0.5.9 (observed disorder to 1e-6 on stored cases; expected disorder within sampling "
            "error for both samplers); brute-force alignment on small random cases"
        ),
        notes=(
            "Differs from pygamma: float64 (pygamma float32); duplicate units are kept (pygamma collapses exact "
            "duplicates within an annotator); seeded per sample (pygamma uses numpy's global generator); the shuffle "
            "sampler removes the zone around each pivot exactly (pygamma's removal widens the other zones); with "
            "delta_empty != 1, pygamma's alignment uses beta·[cat differs] without the delta_empty factor (its "
            "compiled categorical dissimilarity keeps delta_empty = 1): beta / delta_empty here reproduces it. "
            "The best alignment is exact (matching for 2 annotators, HiGHS set-partitioning program for more); "
            "among equally good alignments the one with more aligned units is reported."
        ),
    )

    def statistics(self, item: UnitSet, params: Mapping[str, Any]) -> GammaStats:
        setup, core, reason = self._core(item, params)
        if core is None:
            return GammaStats(reasons=(reason,))
        sums = np.array([float(np.sum(a.disorders)) for _, a in core.sampled])
        units = np.array([a.mean_units for _, a in core.sampled])
        return GammaStats(
            float(np.sum(core.observed.disorders)),
            core.observed.mean_units,
            sums,
            units,
            (alignment_json(core, item),),
            setup.seed if setup.seed is not None else core.seed_entropy,
        )

    def score(self, stats: GammaStats, params: Mapping[str, Any]) -> GammaResult | NotApplicableResult:
        if not stats.alignments:
            return NotApplicableResult(self.card.name, "; ".join(sorted(set(stats.reasons))) or "no input")
        setup = Setup.from_params(params)
        observed = stats.observed_sum / stats.observed_units
        draws = stats.sample_sums / stats.sample_units
        expected, se, interval = _mc_interval(observed, draws)
        value = 1.0 if observed == 0 else 1 - observed / expected
        return GammaResult(
            value,
            observed,
            expected,
            se,
            interval,
            tuple(map(float, draws)),
            setup.sampler,
            stats.seed,
            stats.alignments,
            setup.signature(self.card.name),
        )


@dataclass(frozen=True)
class CatStats:
    """Sums behind gamma-cat / gamma-k: observed and per sample (:class:`CategoryParts`)."""

    categories: tuple[str, ...] = ()
    observed: CategoryParts | None = None
    sampled: tuple[CategoryParts, ...] = ()
    reasons: tuple[str, ...] = ()

    def __add__(self, other: CatStats) -> CatStats:
        return CatStats.total([self, other])

    @cached_property
    def _stacked(self) -> tuple[np.ndarray, ...]:
        """Each CategoryParts field as one (1 + samples) × slots array, the observed row first."""
        assert self.observed is not None
        parts = (self.observed, *self.sampled)
        return tuple(np.stack([getattr(p, f) for p in parts]) for f in _PART_FIELDS)

    @staticmethod
    def total(stats: Sequence[CatStats]) -> CatStats:
        """The statistics of several items added: gamma-k's slots laid out for every category met (in
        the order met; items may differ in categories), each slot's values summed in the items' order;
        items gamma does not apply to add only their reasons. One pass, as the pooled bootstrap adds
        the same items thousands of times."""
        reasons = tuple(r for st in stats for r in st.reasons)
        present = [st for st in stats if st.observed is not None]
        if not present:
            return CatStats(stats[0].categories, None, stats[0].sampled, reasons)
        names = tuple(dict.fromkeys(c for st in present for c in st.categories))
        sums = [np.zeros((1 + len(present[0].sampled), len(names) + 1)) for _ in _PART_FIELDS]
        for st in present:
            slots = np.array([0, *(1 + names.index(c) for c in st.categories)])
            for total, values in zip(sums, st._stacked, strict=True):
                total[:, slots] += values
        rows = [CategoryParts(*(total[k] for total in sums)) for k in range(sums[0].shape[0])]
        return CatStats(names, rows[0], tuple(rows[1:]), reasons)


def _cat_stats(item: UnitSet, core: Core | None, setup: Setup, reason: str) -> CatStats:
    if core is None:
        return CatStats(reasons=(reason,))
    n_cat = len(item.categories)
    observed = category_parts(core.observed.groups, core.tracks, setup.dis, n_cat, setup.variant)
    sampled = tuple(category_parts(a.groups, t, setup.dis, n_cat, setup.variant) for t, a in core.sampled)
    return CatStats(tuple(item.categories), observed, sampled)


_PART_FIELDS = tuple(f.name for f in fields(CategoryParts))

_NO_WEIGHT = "no aligned pair of units carries weight in the best alignment (0/0)"


def _cat_value(observed: float, draws: np.ndarray, variant: str) -> tuple[float | None, float | None, str]:
    """(value, expected, reason) of 1 - D_o/D_e for one slot; None with its reason where undefined."""
    defined = draws[np.isfinite(draws)]
    expected = float(np.mean(defined)) if defined.size else None
    if not math.isfinite(observed):
        return None, expected, _NO_WEIGHT
    if observed == 0:
        return 1.0, expected, ""
    if expected is None:
        return None, None, "no sampled continuum has a weighted aligned pair (chance disorder 0/0)"
    if expected == 0:
        if variant == "pygamma":
            return 0.0, expected, ""
        return None, expected, "the chance disorder is 0 (D_o/0)"
    return 1 - observed / expected, expected, ""


@dataclass(frozen=True)
class GammaCatResult:
    """gamma-cat (``value``) or gamma-k (``values`` per category) with their disorders; ``reason``
    says why a value is None (gamma-k: per category)."""

    value: Any
    observed_disorder: Any
    expected_disorder: Any
    variant: str
    samples: int
    reason: Any = ""
    signature: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = {
            "value": self.value,
            "observed_disorder": self.observed_disorder,
            "expected_disorder": self.expected_disorder,
            "variant": self.variant,
            "samples": self.samples,
            "signature": self.signature,
        }
        if self.reason:
            out["reason" if isinstance(self.reason, str) else "reasons"] = self.reason
        return out


def _nan_none(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


_CAT_NOTES = (
    "variant 'mathet' (default) is Mathet 2018's definition: pairs of aligned units weighted by "
    "max(0, 1 - alpha·d_pos)/(n_v - 1), undefined (null) without weight. variant 'pygamma' adds pygamma-agreement "
    "0.5.9's experimental term (each unit facing an empty side adds delta_empty² to the disorder and delta_empty "
    "to the weight, when at least two units are aligned), so its gamma-cat is not 1 for one-category data with "
    "unmatched units. Expected disorder: the same disorder on the sampled continua's best alignments, as pygamma."
)


def _cat_card(name: str, title: str, definition: str) -> Card:
    return time_card(
        name,
        title,
        definition,
        _CITATION_2018,
        parameters={**PARAMETERS, "gamma_cat_variant": "mathet"},
        reference="pygamma-agreement 0.5.9 (variant 'pygamma', stored outputs)",
        notes=_CAT_NOTES,
    )


class _CategoryMeasure(_GammaBase):
    """gamma-cat and gamma-k share their statistics (slot 0 and slots 1 + k of :class:`CategoryParts`)."""

    def statistics(self, item: UnitSet, params: Mapping[str, Any]) -> CatStats:
        setup, core, reason = self._core(item, params)
        return _cat_stats(item, core, setup, reason)

    def add(self, stats: Sequence[CatStats]) -> CatStats:
        if not stats:
            return super().add(stats)
        return CatStats.total(stats)

    def score(self, stats: CatStats, params: Mapping[str, Any]) -> GammaCatResult | NotApplicableResult:
        if stats.observed is None:
            return NotApplicableResult(self.card.name, "; ".join(sorted(set(stats.reasons))) or "no input")
        setup = Setup.from_params(params)
        variant = setup.variant
        observed = stats.observed.disorders(variant)
        draws = np.array([p.disorders(variant) for p in stats.sampled]).reshape(len(stats.sampled), -1)
        result = self._result(stats, observed, draws, variant)
        if isinstance(result, GammaCatResult):
            result = replace(result, signature=setup.signature(self.card.name, with_variant=True))
        return result

    @abstractmethod
    def _result(
        self, stats: CatStats, observed: np.ndarray, draws: np.ndarray, variant: str
    ) -> GammaCatResult | NotApplicableResult:
        """The result from the slots this measure reports."""


class GammaCatMeasure(_CategoryMeasure):
    card = _cat_card(
        "gamma_cat",
        "gamma-cat (agreement on categories, positions put aside)",
        "1 - D_o/D_e with the category disorder Σ w·d_cat / Σ w over the aligned unit pairs of the best alignment",
    )

    def _result(
        self, stats: CatStats, observed: np.ndarray, draws: np.ndarray, variant: str
    ) -> GammaCatResult | NotApplicableResult:
        if not stats.categories:  # without categories there is no category disorder: 1.0 would say nothing
            return NotApplicableResult(self.card.name, "no categories (the units are read without categories)")
        value, expected, reason = _cat_value(float(observed[0]), draws[:, 0], variant)
        return GammaCatResult(value, _nan_none(float(observed[0])), expected, variant, len(stats.sampled), reason)


class GammaKMeasure(_CategoryMeasure):
    card = _cat_card(
        "gamma_k",
        "gamma-k (gamma-cat per category)",
        "gamma-cat restricted, per category k, to the aligned pairs where a unit has category k: {k: value}",
    )

    def _result(
        self, stats: CatStats, observed: np.ndarray, draws: np.ndarray, variant: str
    ) -> GammaCatResult | NotApplicableResult:
        if not stats.categories:
            return NotApplicableResult(self.card.name, "no categories (the units are read without categories)")
        values: dict[str, float | None] = {}
        obs_out: dict[str, float | None] = {}
        exp_out: dict[str, float | None] = {}
        reasons: dict[str, str] = {}
        for k, name in enumerate(stats.categories, start=1):
            values[name], exp_out[name], why = _cat_value(float(observed[k]), draws[:, k], variant)
            obs_out[name] = _nan_none(float(observed[k]))
            if why:
                reasons[name] = why
        return GammaCatResult(values, obs_out, exp_out, variant, len(stats.sampled), reasons)


MEASURES = (GammaMeasure(), GammaCatMeasure(), GammaKMeasure())
