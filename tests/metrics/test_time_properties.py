"""Properties of the time measures on random units (hypothesis): identical annotations give 1,
annotator order does not matter, values stay in range."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from time_unit_sets import make_unit_set

from segagree.metrics.contract import UnitSet
from segagree.metrics.registry import get_measure


@st.composite
def partitions(draw: st.DrawFn, n_annotators: int = 3) -> list[tuple[int, int, int, int]]:
    """(annotator, start, end, category) with integer times, no overlap within an annotator."""
    units = []
    for a in range(n_annotators):
        pos = draw(st.integers(0, 3))
        for _ in range(draw(st.integers(1, 5))):
            length = draw(st.integers(1, 6))
            units.append((a, pos, pos + length, draw(st.integers(0, 2))))
            pos += length + draw(st.integers(0, 3))
    return units


def unit_set(units: list[tuple[int, int, int, int]], names: tuple[str, ...], order: list[int] | None = None) -> UnitSet:
    order = order or list(range(len(names)))
    rows = [(order.index(a), s, e, "xyz"[c]) for a, s, e, c in units]
    return make_unit_set(rows, [names[i] for i in order], (0, max(u[2] for u in units) + 2), ["x", "y", "z"])


ORDER_FREE = ("alpha_u", "u_alpha", "bu_alpha", "cu_alpha")


@given(partitions())
def test_annotator_order_does_not_matter(units: list) -> None:
    names = ("a", "b", "c")
    for name in ORDER_FREE:
        m = get_measure(name)
        one = m.compute([unit_set(units, names)], {}).value
        two = m.compute([unit_set(units, names, [2, 0, 1])], {}).value
        assert (one is None) == (two is None)
        if one is not None:
            assert one == pytest.approx(two, abs=1e-9)


@given(partitions(n_annotators=1))
def test_identical_annotations_give_one(units: list) -> None:
    copies = [(a, s, e, c) for k in range(3) for (a, s, e, c) in [(k, u[1], u[2], u[3]) for u in units]]
    us = unit_set(copies, ("a", "b", "c"))
    for name in ("alpha_u", "u_alpha", "bu_alpha", "cu_alpha", "boundary_f1"):
        value = get_measure(name).compute([us], {"tolerance": 0.0}).value
        assert value is None or value == pytest.approx(1.0), name
    elan = get_measure("elan_kappa").compute([us], {}).to_dict()["elan_global"]
    assert elan["raw_agreement_all"] == pytest.approx(1.0)


@given(partitions())
def test_ranges(units: list) -> None:
    us = unit_set(units, ("a", "b", "c"))
    for name in ("boundary_f1", "purity_coverage"):
        value = get_measure(name).compute([us], {}).value
        assert value is not None and 0.0 <= value <= 1.0
    for name in ("u_alpha", "bu_alpha", "cu_alpha", "alpha_u"):
        value = get_measure(name).compute([us], {}).value
        assert value is None or value <= 1.0 + 1e-9
