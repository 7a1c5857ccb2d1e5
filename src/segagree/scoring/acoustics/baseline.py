"""The pause baseline: a segmenter that puts a boundary where the recording pauses (and, optionally,
where the pitch resets), with thresholds set on the humans' own boundaries.

Every gap between two tokens of a speaker has a pause (:func:`.boundary_cues.boundary_cues`: the
seconds of Praat's silent intervals at the gap; unknown where another speaker overlaps). The
baseline marks a gap when its pause is at least the threshold, or, with the pitch, when its F0
reset is at least the reset threshold. The thresholds are the ones that give the highest mean
boundary F1 against each human (exact positions; Precision and recall over the gaps), searched over
every pause the gaps have (and ten quantiles of the resets): set on the same texts the panel then
judges it on, so the baseline is an in-sample reference (an upper bound on what the rule does on new
texts), as a reference machine should be read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["BaselineFit", "gap_f1", "fit_pause_baseline", "pause_boundaries"]


@dataclass(frozen=True)
class BaselineFit:
    """The thresholds chosen (seconds; semitones, None without the pitch) and the mean F1 they give."""

    pause: float
    reset: float | None
    f1: float
    gaps: int


def gap_f1(marked: np.ndarray, gold: np.ndarray) -> float:
    """F1 of the gaps ``marked`` against the gaps ``gold`` (boolean arrays over the same gaps); 1 when
    both are empty."""
    hits = int(np.count_nonzero(marked & gold))
    total = int(np.count_nonzero(marked)) + int(np.count_nonzero(gold))
    return 1.0 if total == 0 else 2 * hits / total


def pause_boundaries(
    pauses: np.ndarray, threshold: float, resets: np.ndarray | None = None, reset_threshold: float | None = None
) -> np.ndarray:
    """The gaps the baseline marks (NaN pauses and resets never mark one)."""
    with np.errstate(invalid="ignore"):
        marked = np.nan_to_num(pauses, nan=-np.inf) >= threshold
        if resets is not None and reset_threshold is not None:
            marked |= np.nan_to_num(resets, nan=-np.inf) >= reset_threshold
    return marked


def _mean_f1(marked: np.ndarray, humans: Sequence[np.ndarray]) -> float:
    return float(np.mean([gap_f1(marked, h) for h in humans]))


def fit_pause_baseline(
    pauses: np.ndarray, humans: Sequence[np.ndarray], resets: np.ndarray | None = None
) -> BaselineFit:
    """The thresholds with the highest mean F1 against ``humans`` (boolean arrays over the gaps);
    the smallest such pause threshold (then reset threshold) on ties."""
    finite = np.unique(pauses[np.isfinite(pauses)])
    candidates = finite[finite > 0] if np.any(finite > 0) else np.array([np.inf])
    reset_candidates: list[float | None] = [None]
    if resets is not None and np.any(np.isfinite(resets)):
        reset_candidates += [float(q) for q in np.unique(np.nanquantile(resets, np.linspace(0.5, 0.95, 10)))]
    best = BaselineFit(float(candidates[0]), None, -1.0, len(pauses))
    for reset in reset_candidates:
        for t in candidates:
            score = _mean_f1(pause_boundaries(pauses, float(t), resets, reset), humans)
            if score > best.f1 + 1e-12:
                best = BaselineFit(float(t), reset, score, len(pauses))
    return best
