"""segagree against segeval 2.0.11 and NLTK 3.10.4 on a few hundred generated pairs.

Both packages are test-only references: the tests skip (with the reason) when they are absent.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from segagree.metrics.boundary.boundary_edit import (
    boundary_edit_distance,
    boundary_similarity,
    segmentation_similarity,
)
from segagree.metrics.boundary.masses import boundary_string
from segagree.metrics.boundary.windows import pk, window_size, windowdiff

from conftest import nltk_segmentation

segeval = pytest.importorskip(
    "segeval", reason="segeval 2.0.11 is the test-only reference for S, B, BED, Pk and WindowDiff"
)
# segeval's package does not import its submodule `window` itself
compute_window_size = pytest.importorskip("segeval.window").compute_window_size

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TOL = 1e-12


@st.composite
def mass_pairs(draw, max_n: int = 70):
    """A reference and a noisy hypothesis of the same text (near misses, misses, extras)."""
    n = draw(st.integers(2, max_n))
    ref = sorted(draw(st.sets(st.integers(0, n - 2), max_size=n - 1)))
    hyp = set()
    for p in ref:
        op = draw(st.sampled_from(["keep", "keep", "shift", "drop"]))
        if op == "keep":
            hyp.add(p)
        elif op == "shift":
            q = p + draw(st.sampled_from([-3, -2, -1, 1, 2, 3]))
            if 0 <= q <= n - 2:
                hyp.add(q)
    hyp |= draw(st.sets(st.integers(0, n - 2), max_size=3))
    return _masses(ref, n), _masses(sorted(hyp), n)


def _masses(positions, n):
    edges = [0] + [p + 1 for p in positions] + [n]
    return [edges[i + 1] - edges[i] for i in range(len(edges) - 1)]


@st.composite
def set_pairs(draw):
    """Multi-type boundary strings (sets format): types 1..4, sometimes several per gap."""
    n_gaps = draw(st.integers(1, 40))
    gap = st.frozensets(st.integers(1, 4), max_size=3)
    sparse = st.one_of(st.just(frozenset()), st.just(frozenset()), gap)
    a = tuple(draw(st.lists(sparse, min_size=n_gaps, max_size=n_gaps)))
    b = list(a)
    for i in range(n_gaps):
        if draw(st.integers(0, 3)) == 0:
            b[i] = draw(sparse)
    return a, tuple(b)


@st.composite
def typed_gap_pairs(draw):
    """Sets format with at most one type per gap (types 1..3): the per-token-code case."""
    n_gaps = draw(st.integers(1, 40))
    gap = st.one_of(st.just(frozenset()), st.integers(1, 3).map(lambda t: frozenset({t})))
    a = tuple(draw(st.lists(gap, min_size=n_gaps, max_size=n_gaps)))
    b = tuple(x if draw(st.booleans()) else draw(gap) for x in a)
    return a, b


def _close(ours: Fraction | float, ref: Decimal | float) -> bool:
    return abs(float(ours) - float(ref)) <= TOL


def _check_similarities(a, b, fmt_kwargs):
    for n_t in (2, 3, 5):
        s = segeval.segmentation_similarity(a, b, n_t=n_t, **fmt_kwargs)
        b_ = segeval.boundary_similarity(a, b, n_t=n_t, **fmt_kwargs)
        su = segeval.segmentation_similarity(
            a,
            b,
            n_t=n_t,
            weight=(segeval.weight_a, segeval.weight_s, segeval.weight_t),
            **fmt_kwargs,
        )
        assert _close(segmentation_similarity(a, b, n_t).value, s), ("S", n_t)
        assert _close(boundary_similarity(a, b, n_t).value, b_), ("B", n_t)
        assert _close(segmentation_similarity(a, b, n_t, weights=(1, 1, 1)).value, su), n_t
        stats = segeval.boundary_statistics(a, b, n_t=n_t, **fmt_kwargs)
        ours = boundary_edit_distance(a, b, n_t)
        assert sorted(ours.transpositions) == sorted(tuple(t) for t in stats["transpositions"])
        assert sorted((x.type, x.side) for x in ours.additions) == sorted(tuple(x) for x in stats["additions"])
        assert sorted((x.type_a, x.type_b) for x in ours.substitutions) == sorted(
            tuple(x) for x in stats["substitutions"]
        )
        assert ours.n_matches == len(stats["matches"])
        assert _close(ours.weighted_edits, stats["count_edits"])


@SETTINGS
@given(mass_pairs())
def test_s_b_bed_match_segeval_on_masses(pair):
    a, b = pair
    assume(len(a) > 1 or len(b) > 1)  # segeval raises without any boundary
    _check_similarities(a, b, {})


@SETTINGS
@given(set_pairs())
def test_s_b_bed_match_segeval_on_multitype_sets(pair):
    a, b = pair
    assume(any(a) or any(b))
    _check_similarities(a, b, {"boundary_format": segeval.BoundaryFormat.sets})


@SETTINGS
@given(typed_gap_pairs())
def test_s_b_bed_match_segeval_on_one_type_per_gap(pair):
    a, b = pair
    assume(any(a) or any(b))
    _check_similarities(a, b, {"boundary_format": segeval.BoundaryFormat.sets})


@SETTINGS
@given(mass_pairs(), st.integers(1, 12))
def test_pk_windowdiff_match_segeval(pair, k):
    ref, hyp = pair
    n = sum(ref)
    assume(k <= n - 1)
    assert _close(pk(ref, hyp, k).value, segeval.pk(hyp, ref, window_size=k))
    assert _close(windowdiff(ref, hyp, k).value, segeval.window_diff(hyp, ref, window_size=k))
    lam = segeval.window_diff(hyp, ref, window_size=k, lamprier_et_al_2007_fix=True)
    assert _close(windowdiff(ref, hyp, k, lamprier=True).value, lam)
    seg_k = window_size(ref, "segeval")
    if seg_k <= n - 1:
        auto = pk(ref, hyp, k_rule="segeval")
        assert auto.k == seg_k == compute_window_size(ref)
        assert _close(auto.value, segeval.pk(hyp, ref))
        assert _close(windowdiff(ref, hyp, k_rule="segeval").value, segeval.window_diff(hyp, ref))


@SETTINGS
@given(mass_pairs())
def test_default_window_is_segevals(pair):
    """With no k and no k_rule, Pk and WindowDiff are segeval's pk / window_diff with its default window."""
    ref, hyp = pair
    seg_k = compute_window_size(ref)
    assume(seg_k <= sum(ref) - 1)  # segeval has no window to take beyond N - 1; segagree clamps
    p, w = pk(ref, hyp), windowdiff(ref, hyp)
    assert p.k == w.k == seg_k and p.k_rule == w.k_rule == "segeval"
    assert _close(p.value, segeval.pk(hyp, ref))
    assert _close(w.value, segeval.window_diff(hyp, ref))


def test_default_window_worked_case():
    """Mean mass 7: the floor rule takes k = 3 (WD 6/11), segeval rounds 3.5 to k = 4 (WD 7/10)."""
    ref, hyp = [7, 7], [3, 11]
    seg = float(segeval.window_diff(hyp, ref))
    assert seg == pytest.approx(0.7)
    default = windowdiff(ref, hyp)
    assert default.k == 4 and default.value == pytest.approx(seg, abs=1e-12)
    floor = windowdiff(ref, hyp, k_rule="half_mean")
    assert floor.k == 3 and floor.value == pytest.approx(float(segeval.window_diff(hyp, ref, window_size=3)))
    assert floor.value == pytest.approx(6 / 11)


@SETTINGS
@given(mass_pairs(), st.integers(1, 12))
def test_pk_windowdiff_match_nltk(pair, k):
    nltk_seg = nltk_segmentation()  # NLTK 3.10.4, the test-only reference for Pk/WD
    ref, hyp = pair
    n = sum(ref)
    assume(k <= n - 1)
    r, h = boundary_string(ref), boundary_string(hyp)
    assert _close(pk(ref, hyp, k).value, nltk_seg.pk(r, h, k))
    assert _close(windowdiff(ref, hyp, k).value, nltk_seg.windowdiff(r, h, k))
    nltk_k = round(len(r) / (max(r.count("1"), 1) * 2.0))
    if 1 <= nltk_k <= n - 1:
        auto = pk(ref, hyp, k_rule="nltk")
        assert auto.k == nltk_k
        assert _close(auto.value, nltk_seg.pk(r, h))
