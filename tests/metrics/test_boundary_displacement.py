"""Boundary displacement statistics against brute force on small inputs and a worked example."""

from __future__ import annotations

import statistics

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.metrics.contract import UnitSet
from segagree.metrics.registry import get_measure

MEASURE = get_measure("boundary_displacement")


def unit_set(a: list[tuple[float, float, str]], b: list[tuple[float, float, str]]) -> UnitSet:
    cats = sorted({lab for *_, lab in a + b})
    rows = [(0, *u) for u in a] + [(1, *u) for u in b]
    return UnitSet(
        annotators=["A", "B"],
        categories=cats,
        annotator=np.array([r[0] for r in rows], dtype=int),
        start=np.array([r[1] for r in rows], dtype=float),
        end=np.array([r[2] for r in rows], dtype=float),
        category=np.array([cats.index(r[3]) for r in rows], dtype=int),
    )


def test_worked_example() -> None:
    # Reference phones a 0-100 ms, b 100-250 ms; the aligner's 0-112, 112-240.
    # Boundaries A {0, .100, .250}, B {0, .112, .240}: displacements 0, 12, 10 ms.
    us = unit_set([(0, 0.1, "a"), (0.1, 0.25, "b")], [(0, 0.112, "a"), (0.112, 0.24, "b")])
    out = MEASURE.compute([us], {"by_label": "true"}).to_dict()
    assert out["mean_ms"] == pytest.approx(22 / 3)
    assert out["median_ms"] == pytest.approx(10)
    assert out["within_10"] == pytest.approx(2 / 3)
    assert out["within_20"] == pytest.approx(1.0) and out["value"] == pytest.approx(1.0)
    # classes: 0 starts 'a', 0.1 starts 'b', 0.25 ends 'b'
    assert out["displacement_labels"]["a"]["mean_ms"] == pytest.approx(0)
    assert out["displacement_labels"]["b"]["mean_ms"] == pytest.approx(11)


def _brute(a: list[float], b: list[float]) -> list[float]:
    ref, hyp = sorted(set(a)), sorted(set(b))
    return [min(abs(x - y) for y in hyp) * 1000 for x in ref] if hyp else []


spans = st.lists(
    st.tuples(st.integers(0, 400), st.integers(1, 60)).map(lambda t: (t[0] / 1000, (t[0] + t[1]) / 1000, "x")),
    min_size=1,
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(spans, spans)
def test_nearest_matches_brute_force(a: list, b: list) -> None:
    out = MEASURE.compute([unit_set(a, b)], {}).to_dict()
    d = _brute([t for s, e, _ in a for t in (s, e)], [t for s, e, _ in b for t in (s, e)])
    n = len({t for s, e, _ in a for t in (s, e)})
    assert out["boundaries"] == n
    assert out["mean_ms"] == pytest.approx(statistics.mean(d))
    assert out["median_ms"] == pytest.approx(statistics.median(d))
    for t in (10, 20, 25):
        assert out[f"within_{t}"] == pytest.approx(sum(x <= t + 1e-6 for x in d) / n)


def test_index_matching_needs_equal_counts() -> None:
    us = unit_set([(0, 0.1, "a"), (0.1, 0.2, "b")], [(0, 0.2, "a")])
    out = MEASURE.compute([us], {"matching": "index"}).to_dict()
    assert out["value"] is None and "as many boundaries" in out["reason"]
    same = unit_set([(0, 0.1, "a"), (0.1, 0.2, "b")], [(0.005, 0.13, "a"), (0.13, 0.2, "b")])
    got = MEASURE.compute([same], {"matching": "index"}).to_dict()
    assert got["mean_ms"] == pytest.approx((5 + 30 + 0) / 3)


def test_b_without_units_counts_as_not_within() -> None:
    out = MEASURE.compute([unit_set([(0, 0.1, "a")], [])], {}).to_dict()
    assert out["boundaries"] == 2 and out["matched"] == 0 and out["within_20"] == 0 and out["mean_ms"] is None


def test_pooling_gathers_displacements() -> None:
    one = unit_set([(0, 0.1, "a")], [(0, 0.13, "a")])  # 0, 30 ms
    two = unit_set([(0, 0.1, "a")], [(0.005, 0.1, "a")])  # 5, 0 ms
    out = MEASURE.compute([one, two], {}).to_dict()
    assert out["median_ms"] == pytest.approx(statistics.median([0, 30, 5, 0]))
    assert out["within_20"] == pytest.approx(3 / 4)
