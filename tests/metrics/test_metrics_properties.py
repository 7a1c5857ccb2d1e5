"""Properties of the segeval-style metrics: symmetry, bounds, identity, pooling, conversions."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.metrics import registry
from segagree.metrics.boundary.a_similarity import alignment_similarity
from segagree.metrics.boundary.boundary_edit import (
    boundary_edit_distance,
    boundary_similarity,
    segmentation_similarity,
)
from segagree.metrics.boundary.masses import (
    as_segmentation,
    codes_from_masses,
    masses_from_codes,
    masses_from_positions,
    positions_from_masses,
    sets_from_codes,
    sets_from_masses,
)
from segagree.metrics.boundary.stats import pooled
from segagree.metrics.boundary.windows import pk, window_size, windowdiff, winpr
from segagree.metrics.contract import Card
from segagree.model.scheme import builtin_scheme

SETTINGS = settings(max_examples=200, deadline=None)


@st.composite
def mass_pairs(draw, max_n: int = 60):
    n = draw(st.integers(1, max_n))
    a = draw(st.sets(st.integers(0, n - 2), max_size=n - 1)) if n > 1 else set()
    b = draw(st.sets(st.integers(0, n - 2), max_size=n - 1)) if n > 1 else set()
    return masses_from_positions(a, n), masses_from_positions(b, n)


@st.composite
def code_pairs(draw, n_codes: int = 6, max_n: int = 50):
    n = draw(st.integers(1, max_n))
    code = st.one_of(st.just(0), st.just(0), st.integers(1, n_codes - 1))
    a = draw(st.lists(code, min_size=n, max_size=n))
    b = [x if draw(st.booleans()) else draw(code) for x in a]
    return np.array(a), np.array(b)


# --- symmetry, bounds, identity ------------------------------------------------------


@SETTINGS
@given(mass_pairs(), st.sampled_from([2, 3, 5]))
def test_s_b_a_symmetric_and_bounded(pair, n_t):
    a, b = pair
    for fn in (segmentation_similarity, boundary_similarity):
        ab, ba = fn(a, b, n_t), fn(b, a, n_t)
        assert ab.exact == ba.exact
        assert 0 <= ab.exact <= 1
    ab, ba = alignment_similarity(a, b), alignment_similarity(b, a)
    assert ab.exact == ba.exact and 0 < ab.value <= 1
    assert ab.value == pytest.approx(float(ab.exact), abs=1e-12)


@SETTINGS
@given(mass_pairs())
def test_identical_inputs(pair):
    a, _ = pair
    assert segmentation_similarity(a, a).exact == 1
    assert boundary_similarity(a, a).exact == 1
    assert alignment_similarity(a, a).exact == 1
    assert pk(a, a).value == 0 and windowdiff(a, a).value == 0
    assert windowdiff(a, a, lamprier=True).value == 0
    w = winpr(a, a)
    assert w.fp == w.fn == 0
    assert w.f1 == 1.0


@SETTINGS
@given(mass_pairs(), st.integers(1, 10))
def test_window_bounds_and_winpr_total(pair, k):
    ref, hyp = pair
    n = sum(ref)
    if k > n - 1:
        return
    for res in (pk(ref, hyp, k), windowdiff(ref, hyp, k), windowdiff(ref, hyp, k, lamprier=True)):
        assert 0 <= res.value <= 1
        assert res.k == k
    assert pk(ref, hyp, k).value <= windowdiff(ref, hyp, k).value  # Pk errors are WD errors
    assert windowdiff(ref, hyp, k, lamprier=True).value < 1
    w = winpr(ref, hyp, k)
    assert w.tp + w.tn + w.fp + w.fn == (k + 1) * (n - 1)
    assert min(w.tp, w.tn, w.fp, w.fn) >= 0
    swapped = winpr(hyp, ref, k)
    assert (swapped.fp, swapped.fn, swapped.tp) == (w.fn, w.fp, w.tp)


def _naive_windows(ref, hyp, k):
    """The textbook O(N k) loops over NLTK boundary strings (a third reference)."""
    r = [int(c) for c in _bstring(ref)]
    h = [int(c) for c in _bstring(hyp)]
    n_windows = len(r) - k + 1
    pk_err = sum((sum(r[i : i + k]) > 0) != (sum(h[i : i + k]) > 0) for i in range(n_windows))
    wd_err = sum(sum(r[i : i + k]) != sum(h[i : i + k]) for i in range(n_windows))
    return pk_err, wd_err, n_windows


def _bstring(masses):
    return "".join(("0" * (m - 1)) + "1" for m in masses)[:-1]


@SETTINGS
@given(mass_pairs(), st.integers(1, 10))
def test_windows_equal_naive_loops(pair, k):
    ref, hyp = pair
    if k > sum(ref) - 1:
        return
    pk_err, wd_err, n_windows = _naive_windows(ref, hyp, k)
    p, w = pk(ref, hyp, k), windowdiff(ref, hyp, k)
    assert (p.errors, p.windows) == (pk_err, n_windows)
    assert (w.errors, w.windows) == (wd_err, n_windows)


def test_default_k_rules():
    # F&I 2012 Fig. 7: half_mean gives k = 1 and 3, segeval's rule 2 and 4
    assert window_size([1, 2, 2, 2, 4, 2, 1], "half_mean") == 1
    assert window_size([6, 8], "half_mean") == 3
    assert window_size([1, 2, 2, 2, 4, 2, 1], "segeval") == 2
    assert window_size([6, 8], "segeval") == 4
    # segeval rounds half to even: mean 5 -> 2, mean 9 -> 4 (4.5), mean 7 -> 4 (3.5)
    assert [window_size([m, m], "segeval") for m in (5, 7, 9)] == [2, 4, 4]
    res = pk([6, 8], [7, 7], k_rule="half_mean")
    assert (res.k, res.k_rule, res.clamped) == (3, "half_mean", False)
    assert res.signature.startswith("pk|k:3|rule:half_mean|v:")
    # the default follows segeval (k = 4 for mean mass 7)
    default = pk([6, 8], [7, 7])
    assert (default.k, default.k_rule) == (4, "segeval")
    assert default.signature.startswith("pk|k:4|rule:segeval|v:")
    # a rule's k beyond N - 1 is lowered and flagged; a one-unit text has no window
    tiny = pk([2], [1, 1], k_rule="segeval")
    assert (tiny.k, tiny.clamped, tiny.windows) == (1, True, 1)
    assert pk([1], [1]).windows == 0 and pk([1], [1]).value == 0.0


# --- S, B details ----------------------------------------------------------------------


def test_transposition_weight_and_unweighted_s():
    # F&I 2012 Fig. 3
    a, b = [1, 2, 2, 3, 3, 1, 2], [1, 2, 1, 2, 6, 2]
    assert segmentation_similarity(a, b).exact == Fraction(19, 26)
    assert segmentation_similarity(a, b, weights=(1, 1, 1)).exact == Fraction(9, 13)
    assert segmentation_similarity(a, b, weights=(None, None, 1)).exact == Fraction(9, 13)
    bed = boundary_edit_distance(a, b)
    assert [tuple(t) for t in bed.transpositions] == [(3, 4, 1)]
    assert [(x.position, x.side) for x in bed.additions] == [(5, "b"), (7, "a"), (10, "a")]
    assert [tuple(m) for m in bed.matches] == [(0, 1), (2, 1), (11, 1)]


def test_multitype_denominator_and_ordinal_substitution():
    a = [frozenset({1}), frozenset(), frozenset({3})]
    b = [frozenset({3}), frozenset(), frozenset({3})]
    s = segmentation_similarity(a, b)
    # T = {1, 3}: P = 3 * 2 * 2 = 12; substitution 1->3 weighs 2 / (3 - 1 + 1)
    assert s.stats.denominator == 12
    assert s.exact == 1 - Fraction(2, 3) / 12
    assert boundary_similarity(a, b).exact == 1 - Fraction(2, 3) / 2


def test_codes_and_sets_inputs_agree_with_masses():
    codes = np.array([0, 1, 0, 0, 1, 0, 1])
    masses = masses_from_codes(codes)
    assert masses == [2, 3, 2]
    other = [3, 4]
    for fn in (boundary_similarity, segmentation_similarity):
        assert fn(codes, codes_from_masses(other), fmt="codes").exact == fn(masses, other).exact
    assert sets_from_codes(codes) == sets_from_masses(masses)
    assert alignment_similarity(codes, codes_from_masses(other), fmt="codes").exact == (
        alignment_similarity(masses, other).exact
    )
    assert pk(codes, codes_from_masses(other), 2, fmt="codes").value == pk(masses, other, 2).value


@SETTINGS
@given(mass_pairs())
def test_conversions_round_trip(pair):
    a, _ = pair
    codes = codes_from_masses(a)
    assert masses_from_codes(codes) == a
    assert masses_from_positions(positions_from_masses(a), sum(a)) == a
    sets = sets_from_masses(a)
    assert len(sets) == sum(a) - 1
    assert as_segmentation(sets, "sets").masses() == a
    typed = codes * 3  # types do not change the masses; the last token's code is ignored
    typed[-1] = 0
    assert masses_from_codes(typed) == a


# --- scheme-weighted B ------------------------------------------------------------------


@SETTINGS
@given(mass_pairs())
def test_scheme_b_equals_segeval_b_for_one_identity_type(pair):
    a, b = pair
    scheme = builtin_scheme("turn")
    assert boundary_similarity(a, b, scheme=scheme).value == pytest.approx(
        float(boundary_similarity(a, b).exact), abs=1e-12
    )


def test_scheme_b_worked_example():
    scheme = builtin_scheme("lai2023")  # codes: 1 ',', 2 '.', 3 '?', 4 '--', 5 ';'
    a = np.array([1, 0, 0, 3, 0, 2])
    b = np.array([2, 0, 0, 0, 3, 4])  # last token = end of stream: ignored
    res = boundary_similarity(a, b, scheme=scheme, fmt="codes")
    # gap 0: ',' vs '.' substitution, 1 - 0.5; gaps 3/4: '?' moved by one, 0.5 * (1 - 0) * 1
    assert [tuple(s) for s in res.edits.substitutions] == [(0, 1, 2)]
    assert [tuple(t) for t in res.edits.transpositions] == [(3, 4, 3)]
    assert res.stats.edits == pytest.approx(1.0) and res.stats.denominator == 2
    assert res.value == pytest.approx(0.5)
    assert res.exact is None and "scheme:lai2023:" in res.signature


@SETTINGS
@given(code_pairs())
def test_scheme_b_bounded_and_symmetric_for_symmetric_scheme(pair):
    a, b = pair
    scheme = builtin_scheme("lai2023")
    ab = boundary_similarity(a, b, scheme=scheme, fmt="codes")
    ba = boundary_similarity(b, a, scheme=scheme, fmt="codes")
    assert 0 <= ab.value <= 1
    assert ab.value == pytest.approx(ba.value, abs=1e-12)
    assert boundary_similarity(a, a, scheme=scheme, fmt="codes").value == 1


# --- pooling --------------------------------------------------------------------------


def test_pooling_sums_statistics():
    speakers = [([2, 3, 2], [3, 4]), ([4, 4], [4, 4]), ([1, 1, 1, 5], [2, 6])]
    pk_results = [pk(r, h, 2) for r, h in speakers]
    total = pooled(pk_results)
    assert total.errors == sum(r.errors for r in pk_results)
    assert total.value == pytest.approx(sum(r.errors for r in pk_results) / sum(r.windows for r in pk_results))
    b_results = [boundary_similarity(r, h) for r, h in speakers]
    b_total = pooled(b_results)
    edits = sum(r.stats.edits for r in b_results)
    den = sum(r.stats.denominator for r in b_results)
    assert b_total.exact == 1 - Fraction(edits) / den
    assert sum(r.stats for r in b_results) == b_total  # sum() works too
    a_total = pooled(alignment_similarity(r, h) for r, h in speakers)
    assert a_total.pairs == sum(len(alignment_similarity(r, h).pairs) for r, h in speakers)
    w_total = pooled(winpr(r, h, 2) for r, h in speakers)
    assert w_total.tp == sum(winpr(r, h, 2).tp for r, h in speakers)
    s_total = pooled(segmentation_similarity(r, h) for r, h in speakers)
    assert s_total.denominator == sum(sum(r) - 1 for r, _ in speakers)
    bed_total = pooled(boundary_edit_distance(r, h) for r, h in speakers)
    assert bed_total.value == sum(boundary_edit_distance(r, h).value for r, h in speakers)


# --- cards ------------------------------------------------------------------------------


def test_metric_cards():
    # cards live on the measures, one registry (metrics/cards.py and add_card are gone)
    cards = registry.cards()
    expected = {"sf", "sf_b", "s", "b", "bed", "pk", "windowdiff", "winpr", "a"}
    assert expected <= set(cards)
    for name, card in cards.items():
        assert card.name == name and card.title and card.definition and card.citation
    assert cards["pk"].higher_is_better is False
    assert cards["b"].higher_is_better is True
    with pytest.raises(ValueError, match="required"):
        Card("pk", "Pk again", "duplicate", "")
    card = Card("test_dummy", "Dummy", "one line", "nobody", {"x": "1"})
    assert card.library == "segagree" and card.parameters["x"] == "1"


def _naive_a(a, b):
    """A straight from its definition, O(n^2) over segment pairs with exact fractions."""

    def segments(masses):
        out, start = [], 0
        for m in masses:
            out.append(set(range(start, start + m)))
            start += m
        return out

    sa, sb = segments(a), segments(b)
    edges = set()
    for own, other, flip in ((sa, sb, False), (sb, sa, True)):
        for i, x in enumerate(own):
            best = None
            for j, y in enumerate(other):
                inter = len(x & y)
                if inter:
                    score = (Fraction(inter, len(x)), Fraction(inter, len(x | y)))
                    if best is None or score > best[0]:  # strict: the leftmost tie stays
                        best = (score, j)
            edges.add((best[1], i) if flip else (i, best[1]))
    total = sum(Fraction(len(sa[i] & sb[j]), len(sa[i] | sb[j])) for i, j in edges)
    return total / len(edges), sorted(edges)


@settings(max_examples=400, deadline=None)
@given(mass_pairs(max_n=14))
def test_alignment_equals_definition(pair):
    a, b = pair
    value, edges = _naive_a(a, b)
    res = alignment_similarity(a, b)
    assert res.exact == value
    assert [(p.a, p.b) for p in res.pairs] == edges


def test_alignment_tie_break_leftmost():
    # the notes' example: 1/2 with the leftmost candidate kept (11/24 with the rightmost)
    res = alignment_similarity([3, 2, 1], [2, 2, 2])
    assert res.exact == Fraction(1, 2)
    assert list(res.partner_of_a) == [0, 1, 2] and list(res.partner_of_b) == [0, 1, 2]
