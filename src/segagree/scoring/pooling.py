"""Pooling over items: one way for every measure and track.

A measure's value over several items (speakers of a text, texts of a corpus, annotator pairs) is the
score of their summed sufficient statistics, ``measure.score(measure.add(stats))`` (the measure
contract), never an average of the items' values. :func:`pool` does it; :func:`pool_logged` does it
from statistics read back from the resume log (:mod:`segagree.scoring.stats_codec`);
:func:`bootstrap_pooled` gives a seeded percentile interval over texts by resampling the texts'
statistics with replacement and pooling each resample the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from segagree.errors import UsageError
from segagree.metrics.chance.bootstrap import bootstrap_ci
from segagree.metrics.contract import Measure, NotApplicableResult
from segagree.scoring.stats_codec import decode

__all__ = ["bootstrap_pooled", "pool", "pool_logged"]


def pool(measure: Measure[Any, Any, Any], stats: Sequence[Any], params: Mapping[str, Any]) -> dict[str, Any]:
    """The result (``to_dict()``) of ``measure`` on items pooled by their summed statistics; a
    parameter the measure refuses is a usage error."""
    if not stats:
        return NotApplicableResult(measure.name, "no units").to_dict()
    try:
        return measure.score(measure.add(list(stats)), params).to_dict()
    except ValueError as err:
        raise UsageError(f"{measure.name}: {err}") from None


def pool_logged(measure: Measure[Any, Any, Any], encoded: Sequence[Any], params: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`pool` of statistics as the resume log keeps them."""
    return pool(measure, [decode(e) for e in encoded], params)


def _value(result: Mapping[str, Any]) -> float | None:
    value = result.get("value")
    return float(value) if isinstance(value, (int, float)) and np.isfinite(value) else None


def bootstrap_pooled(
    measure: Measure[Any, Any, Any],
    per_text: Sequence[Sequence[Any]],
    params: Mapping[str, Any],
    *,
    resamples: int = 200,
    seed: int = 12345,
    level: float = 0.95,
) -> tuple[float | None, float | None]:
    """Percentile interval of the pooled value over texts: ``per_text`` holds each text's (decoded)
    statistics; each resample draws texts with replacement (``numpy.random.default_rng(seed)``) and
    pools their statistics. (None, None) with fewer than two texts or no number."""
    if len(per_text) < 2:
        return None, None

    values: list[float] = []

    def pooled(draws: np.ndarray) -> np.ndarray:
        # statistics added in drawn order, so each resample's sum is the same float every time
        values.extend(_pooled_value(measure, [s for i in drawn for s in per_text[i]], params) for drawn in draws)
        return np.array(values)

    ci = bootstrap_ci(len(per_text), pooled, n_boot=resamples, seed=seed, level=level, draws=True)
    if int(np.isfinite(values).sum()) < 2:  # fewer than two resamples gave a number
        return None, None
    return float(ci["low"]), float(ci["high"])


def _pooled_value(measure: Measure[Any, Any, Any], stats: list[Any], params: Mapping[str, Any]) -> float:
    """One resample's pooled value (NaN: no statistics, or no number)."""
    if not stats:
        return float("nan")
    try:
        v = _value(measure.score(measure.add(stats), params).to_dict())
    except ValueError:
        v = None
    return float("nan") if v is None else v
