"""Property tests of S_f / S_f^B (Lai, Li & Zhang 2023) with hypothesis."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.errors import MismatchError, UsageError
from segagree.metrics import SfStats, sf, sf_speaker
from segagree.model.scheme import BoundaryScheme, BoundaryType, builtin_scheme

SCHEMES = [builtin_scheme(n) for n in ("dubois", "lai2023", "segsimflex-vignette")]
ASYMMETRIC = BoundaryScheme(
    "asym",
    (BoundaryType(","), BoundaryType(".")),
    BoundaryType(";"),
    similarity=np.array([[1, 0.25, 0, 0.5], [0, 1, 0.5, 1], [0.75, 0.25, 1, 1], [1, 0, 0, 1]], dtype=float),
    transposition=np.array([0, 0.25, 0.0, 0.5]),
    symmetric=False,
)
MODES = ("optimal", "segsimflex")
TOL = 1e-9


@st.composite
def annotation_pair(draw, scheme: BoundaryScheme | None = None):
    """(scheme, A, B): 1-3 speakers with equal-length code arrays."""
    scheme = scheme or draw(st.sampled_from([*SCHEMES, ASYMMETRIC]))
    k = scheme.n_codes
    names = draw(st.lists(st.sampled_from(["F:", "M:", "X", "Y"]), min_size=1, max_size=3, unique=True))
    a, b = {}, {}
    for name in names:
        n = draw(st.integers(0, 40))
        code = st.one_of(st.just(0), st.just(0), st.integers(0, k - 1))
        a[name] = np.array(draw(st.lists(code, min_size=n, max_size=n)), dtype=np.int64)
        b[name] = np.array(draw(st.lists(code, min_size=n, max_size=n)), dtype=np.int64)
    return scheme, a, b


@settings(max_examples=100, deadline=None)
@given(annotation_pair(), st.sampled_from(MODES))
def test_identical_annotations_score_one(data, mode: str) -> None:
    scheme, a, _ = data
    res = sf(a, {k: v.copy() for k, v in a.items()}, scheme, mode=mode)
    assert res.sf == 1.0 and res.sf_b == 1.0 and res.cost == 0.0


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(SCHEMES).flatmap(lambda s: annotation_pair(s)))
def test_sf_is_symmetric_for_symmetric_schemes(data) -> None:
    scheme, a, b = data
    assert scheme.symmetric
    ab, ba = sf(a, b, scheme), sf(b, a, scheme)
    assert ab.cost == pytest.approx(ba.cost, abs=TOL)
    assert ab.sf == pytest.approx(ba.sf, abs=TOL)


@settings(max_examples=200, deadline=None)
@given(annotation_pair(), st.sampled_from(MODES), st.booleans())
def test_bounds_and_operation_costs(data, mode: str, trans: bool) -> None:
    scheme, a, b = data
    res = sf(a, b, scheme, mode=mode, transpositions=trans)
    if mode == "optimal" or math.isfinite(res.cost):
        assert math.fsum(op.cost for op in res.operations) == pytest.approx(res.cost, abs=TOL)
    if mode == "optimal":
        # Each token holds at most one boundary per annotator and a pair costs less than its
        # deletion plus insertion, so cost <= N; each edit costs < 2.
        assert 0.0 <= res.sf <= 1.0
        assert -1.0 < res.sf_b <= 1.0
        assert res.edits == len(res.operations)
        s = res.stats
        assert res.edits == (s.matches + s.substitutions + s.transpositions + s.insertions + s.deletions)
        if not trans:
            assert s.transpositions == 0
    opt = sf(a, b, scheme, transpositions=trans)
    assert opt.cost <= res.cost + TOL  # nothing beats the optimum


@settings(max_examples=100, deadline=None)
@given(annotation_pair(), st.sampled_from(MODES), st.randoms(use_true_random=False))
def test_speaker_order_does_not_matter(data, mode: str, rnd) -> None:
    scheme, a, b = data
    names = list(a)
    rnd.shuffle(names)
    a2 = {n: a[n] for n in names}
    rnd.shuffle(names)
    b2 = {n: b[n] for n in names}
    r1, r2 = sf(a, b, scheme, mode=mode), sf(a2, b2, scheme, mode=mode)
    assert r1.to_dict() == r2.to_dict()


@settings(max_examples=100, deadline=None)
@given(annotation_pair(), st.sampled_from(MODES))
def test_per_speaker_sums_to_pooled(data, mode: str) -> None:
    scheme, a, b = data
    res = sf(a, b, scheme, mode=mode)
    total = sum(res.per_speaker.values(), SfStats())
    assert total.cost == pytest.approx(res.cost, abs=TOL)
    assert (total.edits, total.n_tokens) == (res.edits, res.n_tokens)
    assert total.to_dict() == pytest.approx(res.stats.to_dict())
    for name, stats in res.per_speaker.items():
        alone, _ = sf_speaker(a[name], b[name], scheme, mode=mode, speaker=name)
        assert alone.to_dict() == pytest.approx(stats.to_dict())
    speakers = [op.speaker for op in res.operations]
    assert speakers == sorted(speakers)


@settings(max_examples=60, deadline=None)
@given(annotation_pair())
def test_without_operations_same_stats(data) -> None:
    scheme, a, b = data
    full = sf(a, b, scheme)
    bare = sf(a, b, scheme, with_operations=False)
    assert bare.operations == [] and bare.stats == full.stats


def test_examples() -> None:
    """Worked examples: a shift by 1 is one transposition (0.5), 4 or more tokens is a
    deletion plus an insertion under the identity matrix; no boundaries gives S_f^B = 1."""
    shift1 = sf({"A": [0, 1, 0, 2]}, {"A": [1, 0, 0, 2]})
    assert (shift1.cost, shift1.edits) == (0.5, 2)
    assert [op.op for op in shift1.operations] == ["transposition", "match"]
    far = sf({"A": [0, 0, 0, 0, 1, 2]}, {"A": [1, 0, 0, 0, 0, 2]})
    assert (far.cost, far.stats.insertions, far.stats.deletions) == (2.0, 1, 1)
    empty = sf({"A": [0, 0, 0]}, {"A": [0, 0, 0]})
    assert (empty.sf, empty.sf_b, empty.edits) == (1.0, 1.0, 0)
    d = shift1.to_dict()
    assert d["operations"][0] == {
        "speaker": "A",
        "op": "transposition",
        "position_a": 1,
        "position_b": 0,
        "type_a": ",",
        "type_b": ",",
        "cost": 0.5,
    }
    assert d["signature"].startswith("sf|mode:optimal|scheme:dubois@")
    assert d["signature"].endswith("|trans:yes|v:0.1.0")


def test_errors() -> None:
    with pytest.raises(MismatchError, match=r"speaker 'A' has 3 tokens in annotation A but 2"):
        sf({"A": [0, 1, 2]}, {"A": [0, 1]})
    with pytest.raises(MismatchError, match=r"missing from annotation B: 'B'"):
        sf({"A": [1], "B": [1]}, {"A": [1]})
    with pytest.raises(UsageError, match=r"code 9 at token 1 is not in scheme 'dubois'"):
        sf({"A": [0, 9]}, {"A": [0, 1]})
    with pytest.raises(UsageError, match=r"mode must be optimal or segsimflex"):
        sf({"A": [1]}, {"A": [1]}, mode="greedy")
    with pytest.raises(UsageError, match=r"integers"):
        sf_speaker([0.5, 1], [0, 1])
