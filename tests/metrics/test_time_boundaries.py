"""Boundary precision/recall/F1 and segmentation purity/coverage against pyannote.metrics 4.2.0
outputs (tests/data/unitizing/pyannote_reference.json, made by make_pyannote_reference.py there)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from time_unit_sets import make_unit_set

from segagree.metrics.contract import UnitSet
from segagree.metrics.registry import get_measure

DATA = Path(__file__).resolve().parents[1] / "data" / "unitizing" / "pyannote_reference.json"
CASES = json.loads(DATA.read_text(encoding="utf-8"))["cases"]


def pair(a: list, b: list) -> UnitSet:
    return make_unit_set([(0, *u) for u in a] + [(1, *u) for u in b], ("A", "B"), (0.0, 30.0))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_boundaries_equal_pyannote(case: dict) -> None:
    res = get_measure("boundary_f1").compute([pair(case["a"], case["b"])], {"tolerance": case["tolerance"]})
    got = res.to_dict()["boundary_pairs"]["A|B"]
    assert got["precision"] == pytest.approx(case["precision"], abs=1e-12)
    assert got["recall"] == pytest.approx(case["recall"], abs=1e-12)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_purity_coverage_equal_pyannote(case: dict) -> None:
    res = get_measure("purity_coverage").compute([pair(case["a"], case["b"])], {}).to_dict()
    assert res["purity"] == pytest.approx(case["purity"], abs=1e-9)
    assert res["coverage"] == pytest.approx(case["coverage"], abs=1e-9)


def test_identical_gives_one_without_gap_filling() -> None:
    """pyannote fills A's short same-label gaps (0.5 s) before partitioning: identical units then
    need not give 1; without filling they do."""
    a = CASES[0]["a"]
    params = {"tolerance": 0.0, "purity_tolerance": 0.0}
    for name in ("boundary_f1", "purity_coverage"):
        assert get_measure(name).compute([pair(a, a)], params).value == pytest.approx(1.0)


def dense_greedy(ref: list[float], hyp: list[float], tol: float) -> int:
    """pyannote's SegmentationPrecision loop, as written there: global argmin again and again."""
    import numpy as np

    if not ref or not hyp:
        return 0
    delta = np.abs(np.subtract.outer(np.asarray(ref), np.asarray(hyp)))
    delta[delta > tol] = np.inf
    n = 0
    while np.isfinite(delta.min()):
        i, j = divmod(int(np.argmin(delta)), delta.shape[1])
        delta[i, :] = np.inf
        delta[:, j] = np.inf
        n += 1
    return n


@given(
    st.lists(st.integers(0, 40), max_size=25),
    st.lists(st.integers(0, 40), max_size=25),
    st.sampled_from([0.0, 1.0, 2.0, 3.5]),
)
def test_sparse_matching_equals_pyannotes_dense_loop(ref: list[int], hyp: list[int], tol: float) -> None:
    from segagree.metrics.unitizing.boundaries import boundary_matches

    a, b = [float(x) for x in ref], [float(x) for x in hyp]
    assert boundary_matches(a, b, tol) == dense_greedy(a, b, tol)
