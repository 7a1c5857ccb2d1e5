"""Krippendorff's alpha-U against DKPro Statistics' unit tests (KrippendorffAlphaUnitizingAgreement):
Krippendorff 1995 p. 57 at several stretch factors, Krippendorff 2004 p. 254 (0.8591), DKPro's own
examples and edge cases, with DKPro's tolerances."""

from __future__ import annotations

import pytest
from time_unit_sets import make_unit_set

from segagree.metrics.contract import UnitSet
from segagree.metrics.registry import get_measure
from segagree.metrics.unitizing.alpha_u import section_distance


def study(units: list[tuple[int, int, int, str]], begin: int, length: int, raters: int = 2) -> UnitSet:
    """DKPro's addUnit(offset, length, rater, category) form."""
    cats = list(dict.fromkeys(c for *_, c in units))
    rows = [(r, o, o + n, c) for o, n, r, c in units]
    return make_unit_set(rows, [str(r) for r in range(raters)], (begin, begin + length), cats)


def alpha_u(us: UnitSet) -> dict:
    return get_measure("alpha_u").compute([us], {}).to_dict()


K1995 = [
    (2, 8, 0, "A"), (14, 6, 0, "A"), (4, 4, 1, "A"), (15, 2, 1, "A"),
    (0, 18, 0, "B"), (0, 2, 1, "B"), (2, 1, 1, "B"), (3, 1, 1, "B"), (4, 1, 1, "B"), (5, 1, 1, "B"),
    (6, 3, 1, "B"), (9, 1, 1, "B"),
    (2, 6, 0, "C"), (10, 2, 0, "C"), (14, 4, 0, "C"), (20, 2, 0, "C"), (0, 2, 1, "C"), (4, 4, 1, "C"),
    (10, 4, 1, "C"), (16, 2, 1, "C"), (20, 2, 1, "C"),
    (0, 2, 0, "D"), (2, 8, 0, "D"), (10, 4, 0, "D"), (14, 6, 0, "D"), (20, 4, 0, "D"), (0, 4, 1, "D"),
    (4, 4, 1, "D"), (8, 7, 1, "D"), (15, 2, 1, "D"), (17, 7, 1, "D"),
]  # fmt: skip


def k1995(stretch: float) -> UnitSet:
    s = lambda x: int(x * stretch)  # noqa: E731  (Java's (int) cast)
    return study([(s(o), s(n), r, c) for o, n, r, c in K1995], 0, s(24))


def test_krippendorff_1995_observed_per_category() -> None:
    cats = alpha_u(k1995(1))["alpha_u_categories"]
    for c, d_o in {"A": 0.03125, "B": 2.26736, "C": 0.02777, "D": 0.38715}.items():
        assert cats[c]["D_o"] == pytest.approx(d_o, abs=1e-5)


def test_krippendorff_1995_expected_and_alpha_at_stretch_50000() -> None:
    cats = alpha_u(k1995(50000))["alpha_u_categories"]
    expected = {"A": (0.06990, 0.553), "B": (1.17731, -0.926), "C": (0.08642, 0.679), "D": (0.41445, 0.066)}
    for c, (d_e, alpha) in expected.items():
        assert cats[c]["D_e"] == pytest.approx(d_e, abs=0.005)
        assert cats[c]["alpha"] == pytest.approx(alpha, abs=0.02)


@pytest.mark.parametrize(
    "stretch, d_e, tol, alpha",
    [
        (0.5, 0.05494, 1e-5, 0.494),
        (5, 0.08234, 0.005, 0.663),
        (50, 0.08600, 0.005, 0.677),
        (500, 0.08638, 0.005, 0.678),
    ],
)
def test_krippendorff_1995_varying_lengths(stretch: float, d_e: float, tol: float, alpha: float) -> None:
    c = alpha_u(k1995(stretch))["alpha_u_categories"]["C"]
    assert c["D_o"] == pytest.approx(0.02777, abs=1e-5)
    assert c["D_e"] == pytest.approx(d_e, abs=tol)
    assert c["alpha"] == pytest.approx(alpha, abs=0.02)


K2004 = [
    (225, 70, 0, "c"), (370, 30, 0, "c"), (220, 80, 1, "c"), (355, 20, 1, "c"), (400, 20, 1, "c"),
    (180, 60, 0, "k"), (300, 50, 0, "k"), (180, 60, 1, "k"), (300, 50, 1, "k"),
]  # fmt: skip


def test_krippendorff_2004_p254() -> None:
    res = alpha_u(study(K2004, 150, 300))
    assert res["value"] == pytest.approx(0.8591, abs=0.0005)
    c, k = res["alpha_u_categories"]["c"], res["alpha_u_categories"]["k"]
    assert (c["D_o"], c["D_e"], c["alpha"]) == pytest.approx((0.0144, 0.0532, 0.7286), abs=1e-4)
    assert (k["D_o"], k["D_e"], k["alpha"]) == pytest.approx((0.0, 0.0490, 1.0), abs=1e-4)


def test_dkpro_distance_examples() -> None:
    assert section_distance(2, 3, False, 2, 2, True) + section_distance(5, 6, True, 4, 7, False) == 40
    assert section_distance(5, 6, True, 4, 2, True) == 26
    assert section_distance(5, 6, True, 7, 2, True) == 8
    assert section_distance(225, 70, True, 220, 80, True) == 50
    assert section_distance(370, 30, True, 355, 20, True) == 850
    assert section_distance(400, 50, False, 400, 20, True) == 400
    assert section_distance(1, 8, True, 2, 1, True) == 37
    assert section_distance(1, 8, True, 3, 1, False) == 0


def test_dkpro_unitizing_agreement_example_and_edge_cases() -> None:
    res = alpha_u(study([(1, 8, 0, "A"), (2, 1, 1, "A"), (4, 1, 1, "A"), (6, 1, 1, "A")], 0, 10))
    a = res["alpha_u_categories"]["A"]
    assert (a["D_o"], a["D_e"], a["alpha"]) == pytest.approx((0.9100, 0.5351, -0.7003), abs=1e-4)
    assert alpha_u(study([(0, 1, 0, "X")], 0, 20, raters=3))["value"] == 0.0
    assert alpha_u(study([], 0, 20, raters=3))["value"] is None  # DKPro: NaN
    assert alpha_u(study([(0, 0, 0, "A"), (0, 0, 1, "B")], 0, 15))["value"] == 0.0
    assert alpha_u(study([(0, 0, 0, "A"), (0, 0, 1, "A")], 0, 15))["value"] == 0.0
    mixed = alpha_u(study([(0, 0, 0, "A"), (2, 5, 0, "A"), (2, 5, 1, "A")], 0, 15))
    assert mixed["value"] == pytest.approx(1.0) and mixed["D_e"] > 0


def test_rater_order_and_pooling() -> None:
    us = study(K2004, 150, 300)
    swapped = study([(o, n, 1 - r, c) for o, n, r, c in K2004], 150, 300)
    assert alpha_u(swapped)["value"] == pytest.approx(alpha_u(us)["value"], abs=1e-12)
    m = get_measure("alpha_u")
    one = m.score(m.statistics(us, {}), {})
    assert m.compute([us], {}).value == one.value
    two = m.compute([us, us], {})  # two stretches: D_o unchanged per length, a value in [-1, 1]
    assert two.value is not None and -1 < two.value <= 1
