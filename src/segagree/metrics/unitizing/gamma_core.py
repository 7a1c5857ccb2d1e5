"""The alignments behind the gamma family for one input: parameters, observed and sampled best alignments.

Sample k draws from its own generator, ``SeedSequence(seed).spawn(samples)[k]``, so the same seed
gives the same digits for any ``jobs`` (samples run in forked processes, one contiguous chunk
each). The three measures (gamma, gamma-cat, gamma-k) share one computation per input through a
small cache keyed by the units and the parameters.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from segagree.errors import InputError, UsageError
from segagree.metrics.boundary.stats import signature
from segagree.metrics.contract import UnitSet
from segagree.metrics.unitizing.dissimilarity import Dissimilarity, Track
from segagree.metrics.unitizing.gamma_alignment import Alignment, best_alignment, check_pair_memory
from segagree.metrics.unitizing.gamma_cat import VARIANTS
from segagree.metrics.unitizing.resources import budget_from_params
from segagree.metrics.unitizing.samplers import SAMPLERS

__all__ = ["Core", "Setup", "alignment_json", "bounds_of", "gamma_core", "not_applicable", "tracks_of"]


@dataclass(frozen=True)
class Setup:
    """The gamma family's parameters, parsed and checked."""

    dis: Dissimilarity
    samples: int = 30
    seed: int | None = 0
    sampler: str = "statistical"
    jobs: int = 1
    variant: str = "mathet"
    budget: float | None = None  # bytes the alignment may take (None: a share of the memory available)

    def signature(self, measure: str, with_variant: bool = False) -> str:
        """A sacrebleu-style signature of the measure and every setting that moves its value (with
        ``with_variant``, gamma-cat's and gamma-k's: Mathet 2018's variant, or pygamma-agreement's)."""
        variant = {"variant": self.variant} if with_variant else {}
        d = self.dis
        return signature(
            measure,
            **variant,
            alpha=f"{d.alpha:g}",
            beta=f"{d.beta:g}",
            delta_empty=f"{d.delta_empty:g}",
            samples=self.samples,
            sampler=self.sampler,
            seed=self.seed,
        )

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
        budget = budget_from_params(params)
        return cls(dis, samples, None if seed is None else int(seed), sampler, max(1, jobs), variant, budget)


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
    return sample, best_alignment(sample, setup.dis, setup.budget)


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
    check_pair_memory(tracks, setup.dis, setup.budget)  # before any sample: refuse at once, with a message
    observed = best_alignment(tracks, setup.dis, setup.budget)  # first: a too-large input stops here
    bounds = bounds_of(units, tracks)
    root = np.random.SeedSequence(setup.seed)
    seqs = root.spawn(setup.samples)
    if setup.jobs > 1 and len(seqs) > 1:
        sampled = _parallel_samples(tracks, bounds, setup, seqs)
    else:
        sampled = [_sample_job(tracks, bounds, setup, s) for s in seqs]
    core = Core(tracks, observed, list(sampled), int(root.entropy))  # type: ignore[arg-type]
    if setup.seed is not None:
        _CACHE[key] = core
        while len(_CACHE) > 4:
            _CACHE.popitem(last=False)
    return core


def not_applicable(units: UnitSet) -> str:
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
