"""ELAN's overlap / extent agreement on worked examples computed by hand."""

from __future__ import annotations

import numpy as np
import pytest

from segagree.metrics.contract import UnitSet
from segagree.metrics.registry import get_measure
from segagree.metrics.unitizing.overlap_extent import overlap_extent_units

MEASURE = get_measure("overlap_extent")


def unit_set(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> UnitSet:
    rows = [(0, *u) for u in a] + [(1, *u) for u in b]
    return UnitSet(
        annotators=["A", "B"],
        categories=["x"],
        annotator=np.array([r[0] for r in rows], dtype=int),
        start=np.array([r[1] for r in rows], dtype=float),
        end=np.array([r[2] for r in rows], dtype=float),
        category=np.zeros(len(rows), dtype=int),
    )


def test_worked_example_by_hand() -> None:
    # A: 0-4, 6-8, 10-12. B: 1-5, 6-7, 20-21.
    # 0-4 with 1-5: overlap 3, extent 0-5 = 5 -> 0.6.  6-8 with 6-7: overlap 1, extent 2 -> 0.5.
    # A's 10-12 and B's 20-21 overlap nothing: 0 each. Mean (0.6 + 0.5 + 0 + 0) / 4 = 0.275.
    a, b = [(0, 4), (6, 8), (10, 12)], [(1, 5), (6, 7), (20, 21)]
    assert sorted(overlap_extent_units(a, b)) == pytest.approx([0, 0, 0.5, 0.6])
    out = MEASURE.compute([unit_set(a, b)], {}).to_dict()
    assert out["value"] == pytest.approx(0.275) and out["compare_units"] == 4


def test_one_to_one_largest_overlap_first() -> None:
    # B's 0-10 overlaps A's 0-6 (6) and 6-10 (4): it pairs with 0-6 (6/10); A's 6-10 is left: 0.
    units = overlap_extent_units([(0, 6), (6, 10)], [(0, 10)])
    assert sorted(units) == pytest.approx([0, 0.6])


def test_identical_tiers_and_pooling() -> None:
    same = unit_set([(0, 1), (2, 3)], [(0, 1), (2, 3)])
    assert MEASURE.compute([same], {}).value == pytest.approx(1.0)
    other = unit_set([(0, 2)], [(1, 3)])  # overlap 1, extent 3
    # pooled from sums: (1 + 1 + 1/3) / 3 compare units
    assert MEASURE.compute([same, other], {}).value == pytest.approx((2 + 1 / 3) / 3)
    assert MEASURE.compute([unit_set([], [])], {}).value is None


def test_one_side_empty_is_zero() -> None:
    assert MEASURE.compute([unit_set([(0, 1)], [])], {}).value == 0.0
