"""The seeded percentile bootstrap over units (texts, items, speakers): one way to draw the resamples and
read the interval, for every pooled score (Efron & Tibshirani 1993, the percentile method; the resamples
drawn at once, as sacrebleu does).

* :func:`bootstrap_ci`: any statistic of the resamples' weights (how often each unit was drawn), or of
  the draws themselves in drawn order (``draws=True``);
* :func:`bootstrap_over_texts`: a pooled ratio score ``1 - sum(cost) / sum(n)`` (S_f, S_f^B) over texts.

Each caller keeps its own number of resamples (the report's S_f intervals 2,000, the time report's 200).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from segagree.errors import UsageError

__all__ = ["Interval", "bootstrap_ci", "bootstrap_over_texts"]


def bootstrap_ci(
    n_units: int,
    statistic: Callable[[np.ndarray], np.ndarray],
    *,
    n_boot: int = 1000,
    seed: int = 12345,
    level: float = 0.95,
    unit: str = "text",
    draws: bool = False,
) -> dict[str, Any]:
    """Percentile bootstrap interval over units (texts, items or speakers), vectorised.

    All ``n_boot`` resamples are drawn at once (``rng.integers(n, size=(n_boot, n))``, as
    sacrebleu does) and passed to ``statistic`` as a ``(n_boot, n_units)`` matrix of counts
    (how often each unit was drawn); ``statistic`` returns ``(n_boot,)`` or ``(n_boot, m)``
    values from the resampled additive statistics. NaN values are ignored. With ``draws`` the
    statistic gets the drawn unit indices instead, ``(n_boot, n_units)`` in drawn order (for statistics
    whose sums depend on the order of their terms).

    Returns:
        ``{"low", "high", "level", "n_boot", "seed", "unit", "n_units", "reason"}``; with fewer
        than two units ``low``/``high`` are None and ``reason`` says why.
    """
    out: dict[str, Any] = {
        "low": None,
        "high": None,
        "level": level,
        "n_boot": n_boot,
        "seed": seed,
        "unit": unit,
        "n_units": n_units,
        "reason": None,
    }
    if n_units < 2:
        out["reason"] = f"only {n_units} {unit}: a bootstrap over {unit}s needs at least two"
        return out
    if n_boot < 1 or not 0 < level < 1:
        raise UsageError("n_boot must be >= 1 and level in (0, 1)")
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n_units, size=(n_boot, n_units))
    if draws:
        values = np.asarray(statistic(idx), dtype=float)
    else:
        w = np.bincount((np.arange(n_boot)[:, None] * n_units + idx).ravel(), minlength=n_boot * n_units)
        values = np.asarray(statistic(w.reshape(n_boot, n_units).astype(float)), dtype=float)
    alpha = (1 - level) / 2
    with np.errstate(all="ignore"):
        lo, hi = np.nanpercentile(values, [100 * alpha, 100 * (1 - alpha)], axis=0)
    out["low"] = lo.tolist() if np.ndim(lo) else float(lo)
    out["high"] = hi.tolist() if np.ndim(hi) else float(hi)
    return out


@dataclass(frozen=True)
class Interval:
    """A percentile bootstrap interval, or why there is none (``low``/``high`` None)."""

    estimate: float
    low: float | None
    high: float | None
    n_texts: int
    resamples: int
    note: str = ""


def bootstrap_over_texts(
    stats: Mapping[str, tuple[float, float]],
    *,
    resamples: int = 2000,
    seed: int = 12345,
    level: float = 0.95,
) -> Interval:
    """Seeded percentile bootstrap over texts of a pooled ratio score ``1 - sum(cost) / sum(n)``.

    ``stats`` maps each text to its summed (cost, n) -- (cost, n_tokens) for S_f, (cost, edits)
    for S_f^B. Texts are resampled with replacement by
    :func:`bootstrap_ci`; each resample's score is pooled from summed
    statistics, like the point estimate. With fewer than two texts there is no interval.
    """
    texts = sorted(stats)
    cost = np.array([float(stats[t][0]) for t in texts])
    n = np.array([float(stats[t][1]) for t in texts])
    total = n.sum()
    estimate = float(1.0 - cost.sum() / total) if total > 0 else 1.0
    if len(texts) < 2:
        note = "no interval: a single text" if texts else "no interval: no text"
        return Interval(estimate, None, None, len(texts), 0, note)

    def pooled(weights: np.ndarray) -> np.ndarray:
        n_draw = weights @ n
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(n_draw > 0, 1.0 - (weights @ cost) / n_draw, 1.0)

    ci = bootstrap_ci(len(texts), pooled, n_boot=resamples, seed=seed, level=level, unit="text")
    return Interval(estimate, ci["low"], ci["high"], len(texts), resamples)
