"""Boundary precision/recall/F1 and segmentation purity/coverage against pyannote.metrics 4.2.0
outputs (tests/data/unitizing/pyannote_reference.json, made by make_pyannote_reference.py there)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from time_unit_sets import make_unit_set

from segagree.metrics.contract import UnitSet
from segagree.metrics.registry import get_measure
from segagree.metrics.unitizing.boundaries import boundary_matches, optimal_boundary_matches

DATA = Path(__file__).resolve().parents[1] / "data" / "unitizing" / "pyannote_reference.json"
CASES = json.loads(DATA.read_text(encoding="utf-8"))["cases"]


def pair(a: list, b: list) -> UnitSet:
    return make_unit_set([(0, *u) for u in a] + [(1, *u) for u in b], ("A", "B"), (0.0, 30.0))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_boundaries_equal_pyannote(case: dict) -> None:
    params = {"tolerance": case["tolerance"], "matching": "greedy"}
    res = get_measure("boundary_f1").compute([pair(case["a"], case["b"])], params)
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


def brute_max_matching(ref: list[float], hyp: list[float], tol: float) -> int:
    """The largest one-to-one matching within the tolerance, by trying every choice (small inputs)."""
    from functools import cache

    @cache
    def best(i: int, used: frozenset[int]) -> int:
        if i == len(ref):
            return 0
        top = best(i + 1, used)
        for j, h in enumerate(hyp):
            if j not in used and abs(ref[i] - h) <= tol:
                top = max(top, 1 + best(i + 1, used | {j}))
        return top

    return best(0, frozenset())


@given(
    st.lists(st.integers(0, 30), max_size=7),
    st.lists(st.integers(0, 30), max_size=7),
    st.sampled_from([0.0, 1.0, 2.5, 4.0]),
)
def test_optimal_matching_is_maximum(ref: list[int], hyp: list[int], tol: float) -> None:
    from segagree.metrics.unitizing.boundaries import boundary_matches, optimal_boundary_matches

    a, b = [x / 2 for x in ref], [x / 2 for x in hyp]
    best = brute_max_matching(a, b, tol)
    assert optimal_boundary_matches(a, b, tol) == best
    assert boundary_matches(a, b, tol) <= best


def test_pyannote_issue_95_optimal_and_greedy() -> None:
    """Reference boundaries {10, 11.5}, hypothesis {11, 12.5}, tolerance 1.1 (pyannote.metrics issue 95):
    both can be matched (10-11, 11.5-12.5); the closest-first greedy takes 11.5-11 and stops."""
    a = [(0.0, 10.0, "x"), (10.0, 11.5, "x"), (11.5, 20.0, "x")]
    us = pair(a, [(0.0, 11.0, "x"), (11.0, 12.5, "x"), (12.5, 20.0, "x")])
    opt = get_measure("boundary_f1").compute([us], {"tolerance": 1.1}).to_dict()["boundary_pairs"]["A|B"]
    assert (opt["precision"], opt["recall"], opt["matches"]) == (1.0, 1.0, 2.0)
    greedy = get_measure("boundary_f1").compute([us], {"tolerance": 1.1, "matching": "greedy"}).to_dict()
    assert greedy["boundary_pairs"]["A|B"]["precision"] == 0.5 and greedy["value"] == 0.5


def test_one_annotator_without_units() -> None:
    """The pair of an annotator with units and one without scores 0 (not pyannote's 1); two
    annotators without units are undefined, with the reason."""
    one = make_unit_set([(0, 0.0, 2.0, "x")], ("A", "B"), (0.0, 5.0))
    for name in ("boundary_f1", "purity_coverage"):
        assert get_measure(name).compute([one], {}).value == 0.0
    two = make_unit_set([(0, 0.0, 2.0, "x")], ("A", "B", "C"), (0.0, 5.0))
    res = get_measure("boundary_f1").compute([two], {}).to_dict()
    assert set(res["boundary_pairs"]) == {"A|B", "A|C"}  # B|C: neither has units
    none = make_unit_set([], ("A", "B"), (0.0, 5.0))
    res = get_measure("boundary_f1").compute([none], {}).to_dict()
    assert res["value"] is None and "no annotator pair" in res["reason"]


def test_boundaries_exactly_the_tolerance_apart_in_the_file_match() -> None:
    # 174.710 - 174.510 is 0.20000000000000284 as floats: ELAN's milliseconds at the default tolerance
    assert 174.710 - 174.510 > 0.2
    for count in (optimal_boundary_matches, boundary_matches):
        assert count([174.510], [174.710], 0.2) == 1
        assert count([174.510], [174.711], 0.2) == 0


@given(
    ref=st.lists(st.integers(0, 400_000), max_size=12, unique=True),
    hyp=st.lists(st.integers(0, 400_000), max_size=12, unique=True),
    tol_ms=st.sampled_from([0, 20, 200, 500]),
)
@settings(max_examples=60, deadline=None)
def test_millisecond_times_match_as_whole_milliseconds(ref: list[int], hyp: list[int], tol_ms: int) -> None:
    # The same matching on whole milliseconds (exact integers) and on the seconds read from text.
    exact = optimal_boundary_matches(ref, hyp, tol_ms)
    seconds = [float(f"{t / 1000:.3f}") for t in ref], [float(f"{t / 1000:.3f}") for t in hyp]
    assert optimal_boundary_matches(*seconds, tol_ms / 1000) == exact
