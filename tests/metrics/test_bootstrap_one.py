"""One bootstrap (segagree.metrics.chance.bootstrap) for every pooled interval: the time report's pooled
intervals (scoring.pooling.bootstrap_pooled, 200 resamples) and the report's S_f intervals (2,000) draw
their resamples the same way, and give what a plain resampling loop gives."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from segagree.metrics.chance.bootstrap import bootstrap_ci, bootstrap_over_texts
from segagree.scoring.pooling import bootstrap_pooled


class _Result:
    def __init__(self, value: float) -> None:
        self.value = value

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value}


class _Ratio:
    """A pooled ratio 1 - sum(cost) / sum(n) (no number below four units of n)."""

    name = "ratio"

    def add(self, stats: list[tuple[float, float]]) -> tuple[float, float]:
        return (sum(c for c, _ in stats), sum(n for _, n in stats))

    def score(self, st: tuple[float, float], params: Any) -> _Result:
        if st[1] == 0:
            raise ValueError("nothing to score")
        return _Result(1 - st[0] / st[1] if st[1] > 3 else float("nan"))


def _loop_reference(per_text: list[list[tuple[float, float]]], resamples: int, seed: int) -> tuple[float, float] | None:
    """The textbook percentile bootstrap, one resample at a time (Efron & Tibshirani 1993)."""
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(resamples):
        drawn = rng.integers(0, len(per_text), len(per_text))
        stats = [s for i in drawn for s in per_text[i]]
        cost, n = sum(c for c, _ in stats), sum(m for _, m in stats)
        if stats and n > 3:
            values.append(1 - cost / n)
    if len(values) < 2:
        return None
    low, high = np.percentile(values, [2.5, 97.5])
    return float(low), float(high)


@pytest.mark.parametrize("n_texts", [2, 3, 7, 15])
@pytest.mark.parametrize("resamples", [200, 2000])
def test_pooled_intervals_are_the_plain_resampling_loops(n_texts: int, resamples: int) -> None:
    rng = np.random.default_rng(n_texts)
    per_text = [
        [(float(rng.random()) * 0.2, float(rng.integers(0, 9))) for _ in range(int(rng.integers(0, 3)))]
        for _ in range(n_texts)
    ]
    expected = _loop_reference(per_text, resamples, 12345)
    got = bootstrap_pooled(_Ratio(), per_text, {}, resamples=resamples, seed=12345)  # type: ignore[arg-type]
    assert got == ((None, None) if expected is None else expected)


def test_the_ratio_interval_is_the_same_draws_pooled() -> None:
    stats = {"a": (3.0, 100.0), "b": (10.0, 80.0), "c": (0.0, 50.0), "d": (7.0, 120.0)}
    per_text = [[stats[t]] for t in sorted(stats)]
    interval = bootstrap_over_texts(stats, resamples=2000, seed=7)
    assert (interval.low, interval.high) == pytest.approx(_loop_reference(per_text, 2000, 7), abs=1e-12)


def test_weights_and_draws_are_the_same_resamples() -> None:
    values = np.array([0.1, 0.5, 0.9, 0.3, 0.7])
    by_weights = bootstrap_ci(5, lambda w: (w @ values) / w.sum(axis=1), n_boot=500, seed=3)
    by_draws = bootstrap_ci(5, lambda d: values[d].mean(axis=1), n_boot=500, seed=3, draws=True)
    assert by_weights["low"] == pytest.approx(by_draws["low"], abs=1e-12)
    assert by_weights["high"] == pytest.approx(by_draws["high"], abs=1e-12)
