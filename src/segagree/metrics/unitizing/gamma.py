"""gamma, gamma-cat and gamma-k (Mathet, Widlöcher & Métivier 2015; Mathet 2018) as measures.

``gamma = 1 - D_o / D_e``: D_o is the disorder of the continuum's best alignment
(:mod:`.alignment`), D_e the mean best-alignment disorder of ``samples`` random continua
(:mod:`.samplers`); gamma is 1 when D_o is 0 (as in pygamma-agreement). gamma-cat and gamma-k use the
same alignments with the category disorder of :mod:`.gamma_cat`.

Determinism: sample k draws from its own generator, ``SeedSequence(seed).spawn(samples)[k]``, so the
same seed gives the same digits for any ``jobs``. Statistics add across items (speakers, texts) as
sums of group disorders and of mean units, per sample, so a pooled value is the value of the items
laid side by side.
"""

from __future__ import annotations

import hashlib
import math
from abc import abstractmethod
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from segagree.errors import InputError, UsageError
from segagree.metrics.contract import Card, Measure, NotApplicableResult, UnitSet
from segagree.metrics.unitizing.alignment import Alignment, best_alignment
from segagree.metrics.unitizing.dissimilarity import Dissimilarity, Track
from segagree.metrics.unitizing.gamma_cat import VARIANTS, CategoryParts, category_parts
from segagree.metrics.unitizing.samplers import SAMPLERS

__all__ = ["MEASURES", "GammaCatMeasure", "GammaKMeasure", "GammaMeasure", "Setup", "gamma_core"]

PARAMETERS = {
    "alpha": "1",
    "beta": "1",
    "delta_empty": "1",
    "samples": "30",
    "seed": "0",
    "sampler": "statistical",
    "jobs": "1",
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
class Setup:
    """The gamma family's parameters, parsed and checked."""

    dis: Dissimilarity
    samples: int = 30
    seed: int | None = 0
    sampler: str = "statistical"
    jobs: int = 1
    variant: str = "mathet"

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> Setup:
        def num(name: str, default: float) -> float:
            value = params.get(name)
            return float(default if value is None else value)

        samples = int(params.get("samples") or 30)
        seed = params.get("seed", 0)
        sampler = str(params.get("sampler") or "statistical").lower()
        jobs = int(params.get("jobs") or 1)
        variant = str(params.get("gamma_cat_variant") or "mathet").lower()
        if samples < 1:
            raise UsageError(f"gamma: samples must be >= 1, not {samples}")
        if sampler not in SAMPLERS:
            raise UsageError(f"gamma: sampler must be one of {', '.join(SAMPLERS)}, not {sampler!r}")
        if variant not in VARIANTS:
            raise UsageError(f"gamma: gamma_cat_variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
        dis = Dissimilarity(num("alpha", 1.0), num("beta", 1.0), num("delta_empty", 1.0))
        return cls(dis, samples, None if seed is None else int(seed), sampler, max(1, jobs), variant)


def tracks_of(units: UnitSet) -> list[Track]:
    """One :class:`Track` per annotator (in the UnitSet's order; annotators without units included)."""
    who = np.asarray(units.annotator)
    rows = np.arange(who.size)
    start, end = np.asarray(units.start, dtype=float), np.asarray(units.end, dtype=float)
    cat = np.asarray(units.category, dtype=np.int64)
    bad = np.flatnonzero(~(np.isfinite(start) & np.isfinite(end)) | (end < start))
    if bad.size:
        i = int(bad[0])
        raise InputError(
            f"gamma: start {start[i]!r} and end {end[i]!r}: times must be finite with end >= start",
            place=f"unit {i} (annotator {units.annotators[int(who[i])]!r})",
        )
    return [
        Track.build(start[who == a], end[who == a], cat[who == a], rows[who == a]) for a in range(len(units.annotators))
    ]


def bounds_of(units: UnitSet, tracks: Sequence[Track]) -> tuple[float, float]:
    """The continuum: the UnitSet's when set, else [min(0, first start), max(0, last end)] as pygamma."""
    lo, hi = units.continuum
    if hi > lo:
        return float(lo), float(hi)
    starts = np.concatenate([t.start for t in tracks])
    ends = np.concatenate([t.end for t in tracks])
    return min(0.0, float(starts.min())), max(0.0, float(ends.max()))


@dataclass(frozen=True)
class Core:
    """The alignments gamma needs for one item: the observed one and one per sampled continuum."""

    tracks: list[Track]
    observed: Alignment
    sampled: list[tuple[list[Track], Alignment]]
    seed_entropy: int


def _sample_job(
    tracks: list[Track], bounds: tuple[float, float], setup: Setup, seq: np.random.SeedSequence
) -> tuple[list[Track], Alignment]:
    sample = SAMPLERS[setup.sampler](tracks, bounds, np.random.default_rng(seq))
    return sample, best_alignment(sample, setup.dis)


def _sample_chunk(
    args: tuple[list[Track], tuple[float, float], Setup, list[np.random.SeedSequence]],
) -> list[tuple[list[Track], Alignment]]:
    tracks, bounds, setup, seqs = args
    return [_sample_job(tracks, bounds, setup, s) for s in seqs]


def _parallel_samples(
    tracks: list[Track], bounds: tuple[float, float], setup: Setup, seqs: list[np.random.SeedSequence]
) -> list[tuple[list[Track], Alignment]]:
    """The samples in ``jobs`` processes, one contiguous chunk each (forked where possible: no re-import).

    Each sample has its own seed, so the result does not depend on the chunking.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    jobs = min(setup.jobs, len(seqs))
    bounds_at = np.linspace(0, len(seqs), jobs + 1).astype(int)
    chunks = [(tracks, bounds, setup, seqs[a:b]) for a, b in zip(bounds_at[:-1], bounds_at[1:], strict=True)]
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        return [sample for part in pool.map(_sample_chunk, chunks) for sample in part]


_CACHE: OrderedDict[str, Core] = OrderedDict()


def _key(units: UnitSet, setup: Setup) -> str:
    h = hashlib.blake2b(digest_size=20)
    for arr in (units.annotator, units.start, units.end, units.category):
        h.update(np.ascontiguousarray(arr).tobytes())
    params = (len(units.annotators), tuple(units.continuum), setup.dis, setup.samples, setup.seed, setup.sampler)
    h.update(repr(params).encode())
    return h.hexdigest()


def gamma_core(units: UnitSet, setup: Setup) -> Core:
    """The observed and sampled best alignments (kept for the last few inputs: the three measures share them)."""
    key = _key(units, setup)
    if setup.seed is not None and key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    tracks = tracks_of(units)
    bounds = bounds_of(units, tracks)
    root = np.random.SeedSequence(setup.seed)
    seqs = root.spawn(setup.samples)
    if setup.jobs > 1 and len(seqs) > 1:
        sampled = _parallel_samples(tracks, bounds, setup, seqs)
    else:
        sampled = [_sample_job(tracks, bounds, setup, s) for s in seqs]
    core = Core(tracks, best_alignment(tracks, setup.dis), list(sampled), int(root.entropy))  # type: ignore[arg-type]
    if setup.seed is not None:
        _CACHE[key] = core
        while len(_CACHE) > 4:
            _CACHE.popitem(last=False)
    return core


def _not_applicable(units: UnitSet) -> str:
    if len(units.annotators) < 2:
        return "gamma needs two or more annotators"
    if np.asarray(units.start).size == 0:
        return "no units"
    return ""


def alignment_json(core: Core, units: UnitSet) -> dict[str, Any]:
    """The best alignment: each group's UnitSet rows per annotator (None for empty) and its disorder."""
    groups = core.observed.groups
    rows = np.full(groups.shape, -1, dtype=np.int64)
    for a, t in enumerate(core.tracks):
        present = groups[:, a] >= 0
        rows[present, a] = t.index[groups[present, a]]
    return {
        "annotators": list(units.annotators),
        "groups": [
            {"units": [int(r) if r >= 0 else None for r in row], "disorder": float(d)}
            for row, d in zip(rows, core.observed.disorders, strict=True)
        ],
    }


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
    def _core(self, item: UnitSet, params: Mapping[str, Any]) -> tuple[Setup, Core | None, str]:
        setup = Setup.from_params(params)
        reason = _not_applicable(item)
        return setup, (None if reason else gamma_core(item, setup)), reason


class GammaMeasure(_GammaBase):
    card = Card(
        name="gamma",
        title="gamma (unitizing agreement over time)",
        definition=(
            "1 - D_o/D_e: D_o the disorder of the exact best alignment of the annotators' units (sum of group "
            "disorders / mean units per annotator; d = alpha·d_pos + beta·d_cat, empty costs delta_empty), D_e the "
            "mean best-alignment disorder of `samples` random continua; 1 when D_o = 0"
        ),
        citation=_CITATION_2015,
        parameters=PARAMETERS,
        better="higher",
        needs="times",
        annotators="2+",
        group="time",
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
        )


@dataclass(frozen=True)
class CatStats:
    """Sums behind gamma-cat / gamma-k: observed and per sample (:class:`CategoryParts`)."""

    categories: tuple[str, ...] = ()
    observed: CategoryParts | None = None
    sampled: tuple[CategoryParts, ...] = ()
    reasons: tuple[str, ...] = ()

    def __add__(self, other: CatStats) -> CatStats:
        if other.observed is None or self.observed is None:
            keep = self if other.observed is None else other
            return CatStats(keep.categories, keep.observed, keep.sampled, self.reasons + other.reasons)
        names = tuple(dict.fromkeys((*self.categories, *other.categories)))  # items may differ in categories
        mine, theirs = self.on(names), other.on(names)
        assert mine.observed is not None and theirs.observed is not None
        sampled = tuple(a + b for a, b in zip(mine.sampled, theirs.sampled, strict=True))
        return CatStats(names, mine.observed + theirs.observed, sampled, self.reasons + other.reasons)

    def on(self, names: tuple[str, ...]) -> CatStats:
        """The same sums with the gamma-k slots laid out for ``names`` (a superset of the categories)."""
        if names == self.categories:
            return self
        slots = np.array([0, *(1 + names.index(c) for c in self.categories)])

        def spread(p: CategoryParts) -> CategoryParts:
            def one(values: np.ndarray) -> np.ndarray:
                out = np.zeros(len(names) + 1)
                out[slots] = values
                return out

            return CategoryParts(one(p.num), one(p.den), one(p.unit_pairs), one(p.any_pairs))

        assert self.observed is not None
        return CatStats(names, spread(self.observed), tuple(spread(p) for p in self.sampled), self.reasons)


def _cat_stats(item: UnitSet, core: Core | None, setup: Setup, reason: str) -> CatStats:
    if core is None:
        return CatStats(reasons=(reason,))
    n_cat = len(item.categories)
    observed = category_parts(core.observed.groups, core.tracks, setup.dis, n_cat, setup.variant)
    sampled = tuple(category_parts(a.groups, t, setup.dis, n_cat, setup.variant) for t, a in core.sampled)
    return CatStats(tuple(item.categories), observed, sampled)


def _cat_value(observed: float, draws: np.ndarray, variant: str) -> tuple[float | None, float | None]:
    """(value, expected) of 1 - D_o/D_e for one slot; None where undefined."""
    defined = draws[np.isfinite(draws)]
    expected = float(np.mean(defined)) if defined.size else None
    if not math.isfinite(observed):
        return None, expected
    if observed == 0:
        return 1.0, expected
    if expected is None:
        return None, None
    if expected == 0:
        return (0.0 if variant == "pygamma" else None), expected
    return 1 - observed / expected, expected


@dataclass(frozen=True)
class GammaCatResult:
    """gamma-cat (``value``) or gamma-k (``values`` per category) with their disorders."""

    value: Any
    observed_disorder: Any
    expected_disorder: Any
    variant: str
    samples: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "observed_disorder": self.observed_disorder,
            "expected_disorder": self.expected_disorder,
            "variant": self.variant,
            "samples": self.samples,
        }


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
    return Card(
        name=name,
        title=title,
        definition=definition,
        citation=_CITATION_2018,
        parameters={**PARAMETERS, "gamma_cat_variant": "mathet"},
        better="higher",
        needs="times",
        annotators="2+",
        group="time",
        reference="pygamma-agreement 0.5.9 (variant 'pygamma', stored outputs)",
        notes=_CAT_NOTES,
    )


class _CategoryMeasure(_GammaBase):
    """gamma-cat and gamma-k share their statistics (slot 0 and slots 1 + k of :class:`CategoryParts`)."""

    def statistics(self, item: UnitSet, params: Mapping[str, Any]) -> CatStats:
        setup, core, reason = self._core(item, params)
        return _cat_stats(item, core, setup, reason)

    def score(self, stats: CatStats, params: Mapping[str, Any]) -> GammaCatResult | NotApplicableResult:
        if stats.observed is None:
            return NotApplicableResult(self.card.name, "; ".join(sorted(set(stats.reasons))) or "no input")
        variant = Setup.from_params(params).variant
        observed = stats.observed.disorders(variant)
        draws = np.array([p.disorders(variant) for p in stats.sampled]).reshape(len(stats.sampled), -1)
        return self._result(stats, observed, draws, variant)

    @abstractmethod
    def _result(self, stats: CatStats, observed: np.ndarray, draws: np.ndarray, variant: str) -> GammaCatResult:
        """The result from the slots this measure reports."""


class GammaCatMeasure(_CategoryMeasure):
    card = _cat_card(
        "gamma_cat",
        "gamma-cat (agreement on categories, positions put aside)",
        "1 - D_o/D_e with the category disorder Σ w·d_cat / Σ w over the aligned unit pairs of the best alignment",
    )

    def _result(self, stats: CatStats, observed: np.ndarray, draws: np.ndarray, variant: str) -> GammaCatResult:
        value, expected = _cat_value(float(observed[0]), draws[:, 0], variant)
        return GammaCatResult(value, _nan_none(float(observed[0])), expected, variant, len(stats.sampled))


class GammaKMeasure(_CategoryMeasure):
    card = _cat_card(
        "gamma_k",
        "gamma-k (gamma-cat per category)",
        "gamma-cat restricted, per category k, to the aligned pairs where a unit has category k: {k: value}",
    )

    def _result(self, stats: CatStats, observed: np.ndarray, draws: np.ndarray, variant: str) -> GammaCatResult:
        values: dict[str, float | None] = {}
        obs_out: dict[str, float | None] = {}
        exp_out: dict[str, float | None] = {}
        for k, name in enumerate(stats.categories, start=1):
            values[name], exp_out[name] = _cat_value(float(observed[k]), draws[:, k], variant)
            obs_out[name] = _nan_none(float(observed[k]))
        return GammaCatResult(values, obs_out, exp_out, variant, len(stats.sampled))


MEASURES = (GammaMeasure(), GammaCatMeasure(), GammaKMeasure())
