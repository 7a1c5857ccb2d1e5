"""Bad inputs give a one-line UsageError (a SegagreeError) that says what is wrong."""

from __future__ import annotations

import numpy as np
import pytest

from segagree.errors import SegagreeError, UsageError
from segagree.metrics.boundary.a_similarity import alignment_similarity
from segagree.metrics.boundary.boundary_edit import (
    boundary_edit_distance,
    boundary_similarity,
    segmentation_similarity,
)
from segagree.metrics.boundary.masses import as_segmentation, masses_from_codes, masses_from_positions
from segagree.metrics.boundary.stats import pooled
from segagree.metrics.boundary.windows import pk, window_size, windowdiff, winpr
from segagree.model.scheme import builtin_scheme

PAIR_METRICS = [
    boundary_edit_distance,
    boundary_similarity,
    segmentation_similarity,
    alignment_similarity,
    pk,
    windowdiff,
    winpr,
]


def _raises(fn, *args, match: str, **kwargs) -> UsageError:
    with pytest.raises(UsageError, match=match) as info:
        fn(*args, **kwargs)
    assert isinstance(info.value, SegagreeError)
    assert "\n" not in str(info.value)
    return info.value


@pytest.mark.parametrize("fn", PAIR_METRICS, ids=lambda f: f.__name__)
def test_different_totals(fn):
    err = _raises(fn, [2, 3], [2, 2], match="different texts")
    assert "5 units != 4 units" in str(err)


@pytest.mark.parametrize("fn", PAIR_METRICS, ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    "bad, match",
    [
        ([2, 0, 3], r"\[1\] = 0 is not a positive mass"),
        ([2, -1, 4], r"\[1\] = -1 is not a positive mass"),
        ([2.5, 2.5], r"\[0\] = 2.5 is not an integer mass"),
        ([2.0, 3], r"\[0\] = 2.0 is not an integer mass"),
        (["2", 3], r"is not an integer mass"),
        ([True, 4], r"is not an integer mass"),
        ([], r"is empty"),
    ],
)
def test_bad_masses(fn, bad, match):
    _raises(fn, bad, [5], match=match)


@pytest.mark.parametrize("fn", [pk, windowdiff, winpr], ids=lambda f: f.__name__)
def test_bad_window_sizes(fn):
    _raises(fn, [3, 3], [2, 4], 6, match=r"k = 6 is larger than the text allows.*at most 5")
    _raises(fn, [3, 3], [2, 4], 0, match="at least 1")
    _raises(fn, [3, 3], [2, 4], 2.0, match="must be an int")
    _raises(fn, [3, 3], [2, 4], k_rule="mean", match="unknown k_rule 'mean'")


def test_window_size_rule_name():
    _raises(window_size, [3, 3], "nope", match="unknown k_rule")


def test_bad_similarity_parameters():
    _raises(boundary_similarity, [2, 3], [5], 0, match="n_t = 0 must be an int >= 1")
    _raises(segmentation_similarity, [2, 3], [5], weights=(1, 1), match="weights must be")
    _raises(boundary_similarity, [2, 3], [5], weights=(1, "x", 1), match="substitution weight")
    _raises(boundary_similarity, [2, 3], [5], weights=(-1, 1, 1), match="addition weight")
    scheme = builtin_scheme("turn")
    _raises(
        boundary_similarity,
        [2, 3],
        [5],
        weights=(1, 1, 1),
        scheme=scheme,
        match="either weights or scheme",
    )
    _raises(boundary_similarity, [2, 3], [5], scheme="turn", match="must be a BoundaryScheme")
    codes = np.array([0, 2, 0, 1])
    _raises(
        boundary_similarity,
        codes,
        codes,
        scheme=scheme,
        fmt="codes",
        match="holds boundary code 2, but scheme 'turn' has codes 1..1",
    )


def test_bad_formats():
    _raises(boundary_similarity, [2, 3], [5], fmt="positions", match="unknown format 'positions'")
    _raises(as_segmentation, [{1}, {0}], "sets", match="boundary types must be positive ints")
    _raises(as_segmentation, ["a"], "sets", match="not a collection of boundary types")
    _raises(as_segmentation, "12", match="must be masses, gap sets or codes")
    _raises(masses_from_codes, [0, -1, 1], match="is negative")
    _raises(masses_from_codes, [0.5, 1], match="non-integer codes")
    _raises(masses_from_codes, [], match="non-empty 1-D array")
    _raises(masses_from_positions, [7], 5, match="must lie in 0..3")
    # sets of different lengths are texts of different lengths
    _raises(boundary_similarity, [set(), {1}], [{1}], match="3 units != 2 units")


def test_pooling_errors():
    _raises(pooled, [], match="at least one result")
    _raises(pooled, [pk([2, 2], [4], 1), windowdiff([2, 2], [4], 1)], match="cannot pool pk")
    _raises(
        pooled,
        [boundary_similarity([2, 2], [4]), segmentation_similarity([2, 2], [4])],
        match="cannot pool b with s",
    )
    _raises(pooled, [0.5], match="no additive statistics")
