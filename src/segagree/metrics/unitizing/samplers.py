"""Random continua for gamma's expected disorder, each drawn from its own numpy Generator.

* ``statistical`` (pygamma-agreement's default ``StatisticalContinuumSampler``): per annotator, a
  number of units ``|trunc(N(mean, sd))|`` of the units per annotator (at least one for the first
  annotator), then units one after another from 0: gap ~ N(mean, sd) of the gaps (a 0, the gaps
  between an annotator's consecutive units, and each annotator's first start when > 0), duration
  ``|N(mean, sd)|`` of the durations (redrawn while below 1e-6), category drawn by frequency.
* ``shuffle`` (Mathet, Widlöcher & Métivier 2015, section 5.2, as in the Java Gamma software and
  pygamma's ``ShuffleContinuumSampler``): each sampled annotator copies the units of a randomly
  chosen real annotator, shifted by an integer pivot drawn in the continuum, wrapping around at its
  end; the pivots are kept at least half the mean unit duration apart. pygamma removes the zone
  around a pivot with a bug that widens the remaining zones from the third annotator on (so its
  pivots may come closer); here the zones are removed exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from segagree.metrics.unitizing.dissimilarity import Track

__all__ = ["SAMPLERS", "shuffle_sample", "statistical_sample"]

_MIN_DURATION = 1e-6  # pyannote.core's SEGMENT_PRECISION


def _gaps(tracks: Sequence[Track]) -> np.ndarray:
    parts = [np.zeros(1)]
    for t in tracks:
        if len(t):
            parts.append(t.start[1:] - t.end[:-1])
            if t.start[0] > 0:
                parts.append(t.start[:1])
    return np.concatenate(parts)


def statistical_sample(tracks: Sequence[Track], bounds: tuple[float, float], rng: np.random.Generator) -> list[Track]:
    """One continuum from pygamma's statistical sampler (see the module docstring)."""
    del bounds  # the statistical sampler starts every annotator at 0
    counts = np.array([len(t) for t in tracks], dtype=float)
    gaps = _gaps(tracks)
    durations = np.concatenate([t.end - t.start for t in tracks])
    cats = np.concatenate([t.category for t in tracks])
    values, freq = np.unique(cats, return_counts=True)
    weights = freq / freq.sum()
    n_mean, n_sd = counts.mean(), counts.std()
    gap_mean, gap_sd = gaps.mean(), gaps.std()
    dur_mean, dur_sd = durations.mean(), durations.std()
    out = []
    any_units = False
    for _ in tracks:
        k = abs(int(rng.normal(n_mean, n_sd)))
        if not any_units:
            k = max(1, k)
        gap = rng.normal(gap_mean, gap_sd, k)
        dur = np.abs(rng.normal(dur_mean, dur_sd, k))
        short = dur < _MIN_DURATION
        for _ in range(100):  # pyannote refuses shorter segments: redraw them
            if not short.any():
                break
            dur[short] = np.abs(rng.normal(dur_mean, dur_sd, int(short.sum())))
            short = dur < _MIN_DURATION
        dur[short] = _MIN_DURATION  # only reached when (nearly) every unit is a point
        end = np.cumsum(gap + dur)  # each unit starts a gap after the previous one's end
        category = values[rng.choice(values.size, size=k, p=weights)] if k else np.zeros(0, dtype=np.int64)
        out.append(Track.build(end - dur, end, category, np.arange(k)))
        any_units = any_units or k > 0
    return out


def _remove_zone(zones: list[tuple[float, float]], lo: float, hi: float) -> list[tuple[float, float]]:
    """The zones minus the interval [lo, hi]."""
    out = []
    for a, b in zones:
        if a < lo:
            out.append((a, min(b, lo)))
        if b > hi:
            out.append((max(a, hi), b))
    return [(a, b) for a, b in out if b > a]


def _pivot(zones: list[tuple[float, float]], bounds: tuple[float, float], rng: np.random.Generator) -> float:
    """An integer pivot uniform over the zones (a float one over the bounds when none is left)."""
    lengths = np.array([b - a for a, b in zones])
    if not zones or lengths.sum() <= 0:
        return float(rng.uniform(*bounds))
    a, b = zones[int(rng.choice(len(zones), p=lengths / lengths.sum()))]
    return float(int(rng.uniform(a, b)))


def shuffle_sample(tracks: Sequence[Track], bounds: tuple[float, float], rng: np.random.Generator) -> list[Track]:
    """One continuum from Mathet et al.'s shuffling sampler (see the module docstring)."""
    lo, hi = bounds
    durations = np.concatenate([t.end - t.start for t in tracks])
    half = float(durations.mean()) / 2
    while True:
        zones = [(lo, hi)]
        out = []
        for _ in tracks:
            pivot = _pivot(zones, bounds, rng)
            zones = _remove_zone(zones, pivot - half, pivot + half)
            src = tracks[int(rng.integers(len(tracks)))]
            shift = np.where(src.start + pivot > hi, pivot + lo - hi, pivot)
            out.append(Track.build(src.start + shift, src.end + shift, src.category, np.arange(len(src))))
        if any(len(t) for t in out):
            return out


Sampler = Callable[[Sequence[Track], tuple[float, float], np.random.Generator], list[Track]]
SAMPLERS: dict[str, Sampler] = {"statistical": statistical_sample, "shuffle": shuffle_sample}
