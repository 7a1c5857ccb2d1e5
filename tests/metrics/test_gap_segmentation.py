"""standard_scores builds each side's one-type Segmentation from the masses with numpy; it must be
the very Segmentation the gap sets gave (zero masses, the first and the last gap included)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from segagree.metrics.boundary.masses import Segmentation, as_segmentation
from segagree.metrics.subtitles.scores import _gap_segmentation, _gap_sets, _two_type_segmentation


@given(st.lists(st.integers(0, 5), min_size=1, max_size=40).filter(lambda m: sum(m) >= 1))
def test_gap_segmentation_equals_the_sets_conversion(masses: list[int]) -> None:
    want = as_segmentation(_gap_sets(masses), "sets")
    got = _gap_segmentation(masses)
    assert got.n_units == want.n_units
    assert got.sets is None and want.sets is None
    assert got.gaps is not None and want.gaps is not None
    assert got.gaps.dtype == want.gaps.dtype
    assert np.array_equal(got.gaps, want.gaps)


def test_zero_masses_cut_at_one_gap() -> None:
    assert _gap_segmentation([2, 0, 3, 0]).gaps.tolist() == [0, 1, 0, 0]


@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=40))
def test_two_type_segmentation_equals_the_sets_conversion(gaps: list[tuple[bool, bool]]) -> None:
    """s and b over both types: the eob/eol gap arrays combined as the {1}/{2}/{1, 2} sets give."""
    eob = Segmentation(len(gaps) + 1, np.array([int(a) for a, _ in gaps], dtype=np.int64))
    eol = Segmentation(len(gaps) + 1, np.array([int(b) for _, b in gaps], dtype=np.int64))
    sets = [frozenset(t for t, on in ((1, a), (2, b)) if on) for a, b in gaps]
    want = as_segmentation(sets, "sets")
    got = _two_type_segmentation(eob, eol)
    assert got.n_units == want.n_units
    assert (got.sets is None) == (want.sets is None)
    if want.sets is not None:
        assert got.sets == want.sets
    else:
        assert got.gaps.dtype == want.gaps.dtype and np.array_equal(got.gaps, want.gaps)
