"""Every value of shared/oracle/metrics.json (segeval 2.0.11, NLTK 3.10.4, the A paper's code,
the WinPR paper), reproduced exactly (``exact`` rationals) or to 1e-12."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from segagree.errors import UsageError
from segagree.metrics.boundary.a_similarity import alignment_similarity
from segagree.metrics.boundary.boundary_edit import (
    boundary_edit_distance,
    boundary_similarity,
    segmentation_similarity,
)
from segagree.metrics.boundary.windows import pk, window_size, windowdiff, winpr

ORACLE = Path(__file__).resolve().parents[3] / "shared" / "oracle" / "metrics.json"
TOL = 1e-12


def _cases(*keys: str) -> list:
    """Oracle cases for parametrisation; one skipped case when ../shared is absent."""
    if not ORACLE.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{ORACLE} is absent"))]
    data = json.loads(ORACLE.read_text(encoding="utf-8"))
    out = []
    for key in keys:
        for case in data[key]:
            out.append(pytest.param(case, id=case["id"]))
    return out


PAIRS = _cases("paper_examples", "a_paper_behaviour_pairs")
NT = (2, 3, 5)


def _has_boundaries(case: dict) -> bool:
    return len(case["ref"]) > 1 or len(case["hyp"]) > 1


@pytest.mark.parametrize("case", PAIRS)
def test_s_and_b_exact(case):
    seg = case["segeval"]
    if not _has_boundaries(case):
        assert "ValueError" in seg["S_error"] and "ValueError" in seg["B_error"]
        return
    for n_t in NT:
        key = f"nt{n_t}"
        s = segmentation_similarity(case["ref"], case["hyp"], n_t)
        su = segmentation_similarity(case["ref"], case["hyp"], n_t, weights=(1, 1, 1))
        b = boundary_similarity(case["ref"], case["hyp"], n_t)
        for res, ref in ((s, seg["S"][key]), (su, seg["S_unweighted"][key]), (b, seg["B"][key])):
            assert res.exact == Fraction(ref["exact"]), (key, res.signature)
            assert abs(res.value - ref["value"]) <= TOL
            assert res.stats.denominator == Fraction(ref["denominator"])
            # segeval's numerator is a 28-digit Decimal (1/3 weights are rounded)
            assert abs(Fraction(res.stats.numerator) - Fraction(ref["numerator"])) < Fraction(1, 10**20)
    assert boundary_similarity(case["hyp"], case["ref"]).value == pytest.approx(seg["B_swapped_args_nt2"], abs=TOL)


@pytest.mark.parametrize("case", PAIRS)
def test_boundary_edit_distance_operations(case):
    if not _has_boundaries(case):
        return
    for n_t in NT:
        ref = case["segeval"]["bed"][f"nt{n_t}"]
        bed = boundary_edit_distance(case["ref"], case["hyp"], n_t)
        assert sorted([a.type, a.side] for a in bed.additions) == sorted(ref["additions"])
        assert sorted([s.type_a, s.type_b] for s in bed.substitutions) == sorted(ref["substitutions"])
        assert [list(t) for t in bed.transpositions] == ref["transpositions"]
        assert bed.n_matches == ref["n_matches"]
        assert bed.weighted_edits == Fraction(ref["count_edits_weighted_exact"])
        assert sorted(bed.types) == ref["boundary_types"]
        assert bed.n_positions * len(bed.types) == ref["pbs"]
        full_misses = len(bed.additions) + 2 * len(bed.substitutions) + 2 * len(bed.transpositions)
        assert full_misses == ref["n_full_misses"]


@pytest.mark.parametrize("case", PAIRS)
def test_pk_and_windowdiff(case):
    w = case["windows"]
    ref, hyp = case["ref"], case["hyp"]
    assert window_size(ref, "segeval") == w["k_segeval_default"]
    checks = [
        ("segeval_pk", lambda k: pk(ref, hyp, k)),
        ("segeval_wd", lambda k: windowdiff(ref, hyp, k)),
        ("segeval_wd_lamprier", lambda k: windowdiff(ref, hyp, k, lamprier=True)),
        ("nltk_pk_same_k", lambda k: pk(ref, hyp, k)),
        ("nltk_wd_same_k", lambda k: windowdiff(ref, hyp, k)),
        ("nltk_pk_default_k", lambda k: pk(ref, hyp, k)),
    ]
    n = sum(ref)
    for key, fn in checks:
        expected = w[key]
        k = expected["k"]
        if not 1 <= k <= n - 1:
            # segeval/NLTK evaluate k = 0 or k >= N; segagree refuses an explicit k outside
            # 1..N-1 (documented difference)
            with pytest.raises(UsageError):
                fn(k)
            continue
        if "error" in expected:
            pytest.fail(f"{key}: the reference raised for a k segagree accepts")
        result = fn(k)
        assert abs(result.value - expected["value"]) <= TOL, key
        if "errors" in expected:
            assert result.errors == expected["errors"], key
        denominator = expected.get("windows", expected.get("denominator"))
        if denominator is not None:
            assert result.windows == denominator, key
        assert result.k == k and result.k_rule == "given"
    nltk_k = w["nltk_pk_default_k"]["k"]
    assert window_size(ref, "nltk") == max(1, nltk_k)
    if nltk_k >= 1:
        auto = pk(ref, hyp, k_rule="nltk")
        assert auto.k == nltk_k and auto.value == pytest.approx(w["nltk_pk_default_k"]["value"], abs=TOL)
    if "value" in w["segeval_pk"] and w["k_segeval_default"] <= n - 1:
        auto = pk(ref, hyp, k_rule="segeval")
        assert auto.value == pytest.approx(w["segeval_pk"]["value"], abs=TOL)
        assert auto.signature.startswith(f"pk|k:{auto.k}|rule:segeval|v:")


@pytest.mark.parametrize("case", PAIRS)
def test_alignment_similarity(case):
    a = case["sierra_A"]
    res = alignment_similarity(case["ref"], case["hyp"])
    assert res.exact == Fraction(a["A_exact"])
    assert abs(res.value - a["A"]) <= TOL
    swapped = alignment_similarity(case["hyp"], case["ref"])
    assert abs(swapped.value - a["A_swapped_args"]) <= TOL
    assert [[p.a, p.b, str(p.jaccard)] for p in res.pairs] == a["aligned_pairs"]
    behaviour = case.get("compareMetricBehavior")
    if behaviour:
        k = behaviour["k"]
        wd = windowdiff(case["ref"], case["hyp"], k)
        assert 1 - wd.value == pytest.approx(behaviour["one_minus_wd_unpadded"], abs=TOL)
        printed = [
            f"{res.value:.2f}",
            f"{boundary_similarity(case['ref'], case['hyp']).value:.2f}",
            f"{1 - wd.value:.2f}",
        ]
        assert printed == behaviour["printed_2dp"]


@pytest.mark.parametrize("case", _cases("paper_examples"))
def test_published_numbers(case):
    """The papers' own numbers: Fig. 3 S = 9/13 unweighted; Fig. 7 1-WD at half_mean k."""
    ref, hyp = case["ref"], case["hyp"]
    paper = case["paper_values"]
    if case["id"] == "fi2012-fig3":
        assert segmentation_similarity(ref, hyp, weights=(1, 1, 1)).exact == Fraction(9, 13)
        assert segmentation_similarity(ref, hyp).exact == Fraction(19, 26)
    if "1-WD" in paper:
        # the paper's k is floor(mean reference mass / 2), not segeval's default rule
        wd = windowdiff(ref, hyp, k_rule="half_mean")
        assert wd.k_rule == "half_mean"
        assert round(1 - wd.value, 4) == pytest.approx(paper["1-WD"], abs=1.5e-4)
        assert round(segmentation_similarity(ref, hyp, weights=(1, 1, 1)).value, 4) == (
            pytest.approx(paper["S"], abs=1.5e-4)
        )
    if "B" in paper:
        assert boundary_similarity(ref, hyp).value == pytest.approx(paper["B"], abs=0.005)


def test_segeval_doc_no_boundaries_is_one():
    """segeval's documentation gives B = 1 for 'is' vs 'is'; segeval 2.0.11 raises, we give 1."""
    assert boundary_similarity([2], [2]).exact == 1
    assert segmentation_similarity([2], [2]).exact == 1


@pytest.mark.parametrize("case", _cases("a_paper_appendix_a"))
def test_a_paper_appendix_a(case):
    gold = case["gold"]
    a1 = alignment_similarity(gold, case["h1"]).value
    a2 = alignment_similarity(gold, case["h2"]).value
    assert abs(a1 - case["h1_A"]) <= TOL and abs(a2 - case["h2_A"]) <= TOL
    assert boundary_similarity(gold, case["h1"]).value == pytest.approx(case["h1_B_nt2"], abs=TOL)
    assert boundary_similarity(gold, case["h2"]).value == pytest.approx(case["h2_B_nt2"], abs=TOL)
    preferred = "h1" if a1 > a2 else "h2"
    assert (preferred == case["human_preference"]) == case["A_agrees_with_humans"]


def _winpr_cases() -> list:
    if not ORACLE.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{ORACLE} is absent"))]
    data = json.loads(ORACLE.read_text(encoding="utf-8"))
    return [pytest.param(c, id=c["id"]) for c in data["winpr_paper_example"]["cases"]]


@pytest.mark.parametrize("case", _winpr_cases())
def test_winpr_paper_example(case):
    res = winpr(case["ref"], case["hyp"], case["k"])
    got = {"TP": res.tp, "TN": res.tn, "FP": res.fp, "FN": res.fn}
    assert got == case["own_winpr"]
    assert (got == case["paper"]) == case["reproduced"]
    assert sum(got.values()) == (case["k"] + 1) * (sum(case["ref"]) - 1)
    if case["reproduced"] is False:
        # row c is not reproducible: the paper's counts do not add up to (k+1)(N-1)
        assert sum(case["paper"].values()) != sum(got.values())
