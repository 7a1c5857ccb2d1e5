"""The uα family (Krippendorff et al. 2016) against the two published implementations' outputs
(tests/data/unitizing/u_alpha_reference.json, made by make_u_alpha_reference.py there), and
its undefined cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from time_unit_sets import make_unit_set

from segagree.metrics.contract import UnitSet
from segagree.metrics.registry import get_measure

DATA = Path(__file__).resolve().parents[1] / "data" / "unitizing" / "u_alpha_reference.json"
CASES = json.loads(DATA.read_text(encoding="utf-8"))["cases"]


def unit_set(units: list[list], length: float, annotators: list[str] | None = None) -> UnitSet:
    names = annotators or sorted({u[0] for u in units})
    return make_unit_set([(names.index(a), s, e, c) for a, c, s, e in units], names, (0.0, length))


def score(name: str, us: UnitSet, params: dict | None = None) -> dict:
    return get_measure(name).compute([us], params or {}).to_dict()


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_u_alpha_equals_both_implementations(case: dict) -> None:
    us = unit_set(case["units"], case["length"])
    got = score("u_alpha", us)["value"]
    assert got == pytest.approx(case["krippendorff_unitized_alpha"], abs=1e-9)
    assert got == pytest.approx(case["lindanna"]["u_alpha"], abs=1e-9)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_bar_cu_ku_alpha_equal_lindanna(case: dict) -> None:
    us = unit_set(case["units"], case["length"])
    ref = case["lindanna"]
    assert score("bu_alpha", us)["value"] == pytest.approx(ref["bu_alpha"], abs=1e-9)
    cu = score("cu_alpha", us)
    if ref["cu_alpha"] is None:  # lindanna: not applicable with one category
        assert cu["value"] is None and "fewer than two categories" in cu["reason"]
    else:
        assert cu["value"] == pytest.approx(ref["cu_alpha"], abs=1e-9)
        ku = score("ku_alpha", us)["ku_alpha_values"]
        for label, value in ref["ku_alpha"].items():
            assert ku[label]["alpha"] == pytest.approx(value, abs=1e-9)


def test_contiguous_one_category_is_undefined_not_zero() -> None:
    units = [["a", "iu", 0, 4], ["a", "iu", 4, 10], ["b", "iu", 0, 5], ["b", "iu", 5, 10]]
    res = score("u_alpha", unit_set(units, 10))
    assert res["value"] is None and "0/0" in res["reason"]
    assert score("bu_alpha", unit_set(units, 10))["value"] is None


def test_identical_annotations_give_one_and_order_does_not_matter() -> None:
    units = [["a", "x", 1, 4], ["a", "y", 6, 9], ["b", "x", 1, 4], ["b", "y", 6, 9]]
    for name in ("u_alpha", "bu_alpha", "cu_alpha"):
        assert score(name, unit_set(units, 12))["value"] == pytest.approx(1.0)
    case = CASES[2]
    names = sorted({u[0] for u in case["units"]})
    a = score("u_alpha", unit_set(case["units"], case["length"], names))["value"]
    b = score("u_alpha", unit_set(case["units"], case["length"], names[::-1]))["value"]
    assert a == pytest.approx(b, abs=1e-12)


def test_scale_with_resolution() -> None:
    """Times in seconds at a resolution of 1 ms give the value of integer milliseconds."""
    case = CASES[4]
    ms = score("u_alpha", unit_set(case["units"], case["length"]))["value"]
    seconds = [[a, c, s / 1000, e / 1000] for a, c, s, e in case["units"]]
    got = score("u_alpha", unit_set(seconds, case["length"] / 1000), {"resolution": 0.001})["value"]
    assert got == pytest.approx(ms, abs=1e-9)


def test_an_annotator_with_no_units_counts() -> None:
    """lindanna's script crashes here; an empty annotator is all gap."""
    units = [["a", "x", 1, 4], ["b", "x", 1, 4]]
    full = score("u_alpha", unit_set(units, 10, ["a", "b"]))["value"]
    with_empty = score("u_alpha", unit_set(units, 10, ["a", "b", "c"]))["value"]
    assert full == pytest.approx(1.0) and with_empty is not None and with_empty < full
