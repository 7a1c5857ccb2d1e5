"""ghd against NLTK's nltk.metrics.segmentation.ghd (the reference implementation)."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from cli_process import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.errors import UsageError
from segagree.metrics.boundary.ghd import ghd, ghd_cost
from segagree.metrics.boundary.masses import boundary_string
from segagree.metrics.boundary.stats import pooled

from conftest import REPO, nltk_segmentation

nltk_seg = nltk_segmentation()  # the reference implementation of ghd

# NLTK's doctest examples (the Kulyukin C++ implementation's), with their documented values.
DOCTESTS = [
    (("1100100000", "1100010000", 1.0, 1.0, 0.5), 0.5),
    (("1100100000", "1100000001", 1.0, 1.0, 0.5), 2.0),
    (("011", "110", 1.0, 1.0, 0.5), 1.0),
    (("1", "0", 1.0, 1.0, 0.5), 1.0),
    (("111", "000", 1.0, 1.0, 0.5), 3.0),
    (("000", "111", 1.0, 2.0, 0.5), 6.0),
]


@pytest.mark.parametrize(("args", "expected"), DOCTESTS)
def test_nltk_doctest_examples(args, expected):
    assert ghd(*args).value == expected
    assert nltk_seg.ghd(*args) == expected  # the reference agrees with its own documentation


@st.composite
def pairs(draw, max_len: int = 60):
    n = draw(st.integers(1, max_len))
    bits = st.text(alphabet="01", min_size=n, max_size=n)
    return draw(bits), draw(bits)


COSTS = st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0, 0.3, 1.7])


@settings(max_examples=400, deadline=None)
@given(pairs(), COSTS, COSTS, COSTS)
def test_matches_nltk_on_random_pairs(pair, ins, dele, coeff):
    ref, hyp = pair
    expected = nltk_seg.ghd(ref, hyp, ins, dele, coeff)
    got = ghd(ref, hyp, ins, dele, coeff).value
    assert got == pytest.approx(expected, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(pairs(max_len=200))
def test_matches_nltk_exactly_with_default_costs(pair):
    ref, hyp = pair
    # With NLTK's default (integer) costs every sum is exact: the numbers are identical.
    assert ghd(ref, hyp).value == nltk_seg.ghd(ref, hyp)


def test_every_short_pair_exhaustively():
    for n in range(1, 7):
        for ref_bits in itertools.product("01", repeat=n):
            for hyp_bits in itertools.product("01", repeat=n):
                ref, hyp = "".join(ref_bits), "".join(hyp_bits)
                assert ghd(ref, hyp, 1.0, 1.0, 0.5).value == nltk_seg.ghd(ref, hyp, 1.0, 1.0, 0.5), (ref, hyp)


def test_other_boundary_values_and_lists():
    ref, hyp = [0, 1, 0, 0, 1], [1, 0, 0, 0, 1]
    assert ghd(ref, hyp, boundary=1, fmt="nltk").value == nltk_seg.ghd(ref, hyp, boundary=1)
    assert ghd("abaab", "baaab", boundary="b").value == nltk_seg.ghd("abaab", "baaab", boundary="b")


def test_segagree_inputs_agree_with_nltk_boundary_strings():
    masses_a, masses_b = [3, 2, 5, 1, 4], [2, 3, 4, 2, 4]
    expected = nltk_seg.ghd(boundary_string(masses_a), boundary_string(masses_b))
    assert ghd(masses_a, masses_b, fmt="masses").value == expected
    # per-token codes: the boundary after the last token is the text's end, not a gap
    codes_a = np.zeros(15, dtype=int)
    codes_a[np.cumsum(masses_a) - 1] = 1
    codes_b = np.zeros(15, dtype=int)
    codes_b[np.cumsum(masses_b) - 1] = 2
    assert ghd(codes_a, codes_b, fmt="codes").value == expected


def test_pooled_is_the_sum_over_streams():
    parts = [ghd("0100", "0010"), ghd("10001", "00011"), ghd("000", "000")]
    total = pooled(parts)
    assert total.value == sum(p.value for p in parts)
    assert total.ref_boundaries == 3 and total.hyp_boundaries == 3 and total.gaps == 12


def test_long_texts_beyond_nltk_limit():
    rng = np.random.default_rng(3)
    ref = (rng.random(20_000) < 0.05).astype(int)
    hyp = (rng.random(20_000) < 0.05).astype(int)
    r = ghd_cost(np.flatnonzero(ref), np.flatnonzero(hyp))
    assert r >= 0 and np.isfinite(r)


def test_bad_parameters_are_refused():
    with pytest.raises(UsageError, match="ins_cost"):
        ghd("010", "001", ins_cost=-1)
    with pytest.raises(UsageError, match="length"):
        ghd("010", "0010")


def test_compare_metric_ghd_matches_nltk_per_speaker():
    from segagree.formats import read_document
    from segagree.scoring.tokens.pairing import pair_annotations

    a = read_document(REPO / "sample_corpora" / "garden.ann1.txt")
    b = read_document(REPO / "sample_corpora" / "garden.ann2.txt")
    pair = pair_annotations(a, b)
    proc = run_cli(  # in a fork of this process (tests/cli_process.py)
        [
            "compare",
            str(REPO / "sample_corpora" / "garden.ann1.txt"),
            str(REPO / "sample_corpora" / "garden.ann2.txt"),
            "--metric",
            "ghd",
            "--json",
        ],
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)["metrics"]["ghd"]
    total = 0.0
    for s in pair.speakers:
        ref = "".join("1" if c else "0" for c in pair.arrays_a[s][:-1])
        hyp = "".join("1" if c else "0" for c in pair.arrays_b[s][:-1])
        expected = nltk_seg.ghd(ref, hyp)
        assert out["per_speaker"][s] == expected
        total += expected
    assert out["value"] == total
