"""ELAN's modified kappa (Holle & Rein 2015, ELAN 6.x): steps re-derived by hand on small cases, and
ELAN's quirks, which are kept on purpose (see segagree.metrics.unitizing.elan_kappa)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from cli_process import run_cli
from time_unit_sets import make_unit_set

from segagree.metrics.contract import UnitSet
from segagree.metrics.registry import get_measure
from segagree.metrics.unitizing.elan_kappa import agreement_matrix, match_annotations, table_result

A = [(0, 1000, "x"), (2000, 3000, "y")]
B = [(0, 1000, "x"), (2000, 3000, "x"), (5000, 6000, "y")]


def ipf_reference(rows: list[float], cols: list[float], rounds: int = 20) -> list[list[float]]:
    """A plain-loop IPF of a seed of ones with the last cell 0.001 (ELAN replaces the 0)."""
    n = len(rows)
    m = [[1.0] * n for _ in range(n)]
    m[-1][-1] = 0.001
    rows = [r or 0.001 for r in rows]
    cols = [c or 0.001 for c in cols]
    for _ in range(rounds):
        for i in range(n):
            s = sum(m[i])
            m[i] = [v / s * rows[i] for v in m[i]]
        for j in range(n):
            s = sum(m[i][j] for i in range(n))
            for i in range(n):
                m[i][j] = m[i][j] / s * cols[j]
    return m


def test_hand_derived_pair() -> None:
    table = agreement_matrix(A, B, 0.6)
    assert table.labels() == ["x", "y", "Unmatched"]
    # x-x and y-x matched (doubled), B's y unmatched (not doubled)
    assert table.matrix().tolist() == [[2, 0, 0], [2, 0, 0], [0, 1, 0]]
    res = table_result(table)
    assert res["raw_agreement_all"] == pytest.approx(0.4)
    assert res["kappa_max"] == pytest.approx(1 / 3)  # p_max 3/5, p_e 10/25
    assert res["raw_agreement_excl"] == pytest.approx(0.5)
    assert res["kappa_excl"] == pytest.approx(0.0)
    fitted = ipf_reference([2, 2, 1], [4, 1, 0])
    p_ipf = (fitted[0][0] + fitted[1][1]) / 5
    assert res["kappa_ipf"] == pytest.approx((0.4 - p_ipf) / (1 - p_ipf), abs=1e-12)
    x = res["per_value"]["x"]  # 2x2: [[2, 2], [0, 1]]
    assert x["raw_agreement"] == pytest.approx(0.6)
    assert x["kappa"] == pytest.approx((0.6 - 0.44) / 0.56)
    assert x["kappa_max"] == pytest.approx((0.6 - 0.44) / 0.56)


def test_min_overlap_of_the_longer_annotation() -> None:
    a = [(0, 1000, "x")]
    b = [(410, 1000, "x")]  # overlap 590 ms of the longer 1000 ms: 59%
    assert match_annotations(a, b, 0.6) == {}
    assert match_annotations(a, b, 0.59) == {0: 0}
    assert match_annotations([(0, 1000, "x")], [(1000, 2000, "x")], 0.0) == {}  # touching is no overlap


def test_full_overlap_is_matched_twice_quirk() -> None:
    """Two identical annotations of A against one of B: both 100% matches are taken (ELAN)."""
    a = [(0, 1000, "x"), (0, 1000, "x")]
    b = [(0, 1000, "x")]
    assert match_annotations(a, b, 0.6) == {0: 0, 1: 0}
    assert agreement_matrix(a, b, 0.6).matrix().tolist() == [[4, 0], [0, 0]]


def test_largest_share_first_each_annotation_once() -> None:
    a = [(0, 1000, "x")]
    b = [(0, 900, "x"), (100, 1000, "y")]  # equal shares 0.9 and overlaps: the last found wins
    assert match_annotations(a, b, 0.6) == {0: 1}
    b2 = [(0, 950, "x"), (100, 1000, "y")]
    assert match_annotations(a, b2, 0.6) == {0: 0}


def test_single_category_kappa_ipf_is_about_zero_and_negative_prints_zero() -> None:
    a = [(0, 1000, "iu"), (1000, 2000, "iu"), (3000, 4000, "iu")]
    b = [(0, 1000, "iu"), (1000, 2000, "iu"), (6000, 7000, "iu")]
    res = table_result(agreement_matrix(a, b, 0.6))
    assert res["kappa_ipf"] is None and "one value only" in res["reasons"]["kappa_ipf"]
    assert abs(res["kappa_ipf_elan"]) < 0.01
    assert res["printed"]["kappa_ipf"] in ("0", f"{res['kappa_ipf_elan']:.4f}")
    assert "excl_note" in res


def test_a_single_value_prints_undefined_not_minus_zero(tmp_path: Path) -> None:
    rows = ["annotator,start,end,category"]
    rows += [f"A,{k},{k + 0.5},iu" for k in range(40)] + [f"B,{k},{k + 0.5},iu" for k in range(39)] + ["B,60,61,iu"]
    (tmp_path / "u.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    proc = run_cli(["agree", "--time", tmp_path / "u.csv", "--measure", "elan_kappa"])
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"elan_kappa\s+-\s+one value only", proc.stdout), proc.stdout


def unit_set(a: list, b: list) -> UnitSet:
    units = [(0, s / 1000, e / 1000, c) for s, e, c in a] + [(1, s / 1000, e / 1000, c) for s, e, c in b]
    return make_unit_set(units, ("A", "B"), (0.0, 7.0))


def test_measure_pairs_pooling_and_order() -> None:
    m = get_measure("elan_kappa")
    res = m.compute([unit_set(A, B)], {}).to_dict()
    assert res["elan_pairs"]["A|B"]["matrix"]["rows"] == [[2, 0, 0], [2, 0, 0], [0, 1, 0]]
    assert res["value"] == res["elan_pairs"]["A|B"]["kappa_ipf"]
    swapped = m.compute([unit_set(B, A)], {}).to_dict()
    # Swapping the annotators transposes the matrix; 20 IPF rounds (rows first) are not fully converged,
    # so kappa_ipf moves in the 4th decimal (an ELAN quirk), the rest does not move.
    assert swapped["elan_global"]["matrix"]["rows"] == np.array(res["elan_global"]["matrix"]["rows"]).T.tolist()
    assert swapped["value"] == pytest.approx(res["value"], abs=1e-3)
    assert swapped["elan_global"]["kappa_max"] == pytest.approx(res["elan_global"]["kappa_max"], abs=1e-12)
    pooled = m.compute([unit_set(A, B), unit_set(A, B)], {}).to_dict()
    assert pooled["elan_global"]["matrix"]["rows"] == [[4, 0, 0], [4, 0, 0], [0, 2, 0]]
    same = m.compute([unit_set(A, A)], {}).to_dict()["elan_global"]
    assert same["raw_agreement_all"] == 1.0 and same["raw_agreement_excl"] == 1.0
