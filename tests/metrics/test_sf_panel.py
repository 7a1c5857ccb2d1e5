"""The panel with S_f and S_f^B: every sub-panel's multi-pi and multi-kappa equal
:func:`segagree.metrics.chance.fleiss.fleiss` computed from scratch (S_f pair by pair with ``sf``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.metrics.chance.fleiss import fleiss
from segagree.metrics.chance.sf_panel import sf_panel_statistics
from segagree.model import builtin_scheme

SCHEME = builtin_scheme("dubois")
HUMANS = ["h1", "h2", "h3"]


def _dataset(seed: int, n_items: int = 3, n: int = 60, coders: tuple[str, ...] = (*HUMANS, "m")) -> dict:
    rng = np.random.default_rng(seed)
    data = {}
    for t in range(n_items):
        truth = rng.random(n) < 0.15
        item = {}
        for c in coders:
            noisy = truth ^ (rng.random(n) < 0.08)
            codes = np.where(noisy, rng.integers(1, SCHEME.n_codes, n), 0)
            codes[-1] = codes[-1] or 1  # a stream ends with a boundary
            item[c] = codes
        data[f"t{t}"] = item
    return data


def _sub(data: dict, coders: list[str]) -> dict:
    return {i: {c: data[i][c] for c in coders} for i in data}


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    similarity=st.sampled_from(["sf", "sf_b"]),
    coefficient=st.sampled_from(["pi", "kappa"]),
)
def test_every_sub_panel_equals_fleiss(seed: int, similarity: str, coefficient: str) -> None:
    data = _dataset(seed)
    out = sf_panel_statistics(data, ["m"], SCHEME, similarity=similarity, coefficient=coefficient, n_boot=20, n_perm=4)
    m = out["results"]["m"]

    def ref(coders: list[str]) -> float:
        res = fleiss(_sub(data, coders), similarity, scheme=SCHEME)
        return getattr(res, coefficient)

    assert m["added"]["humans"] == pytest.approx(ref(HUMANS), abs=1e-9)
    assert m["added"]["with_machine"] == pytest.approx(ref([*HUMANS, "m"]), abs=1e-9)
    for h in HUMANS:
        others = [x for x in HUMANS if x != h]
        assert m["replaced"]["per_human"][h] == pytest.approx(ref([*others, "m"]), abs=1e-9)
        assert m["human_changes"]["per_human"][h]["change"] == pytest.approx(ref(HUMANS) - ref(others), abs=1e-9)
    for item in data:
        one = {item: data[item]}
        want = fleiss(one, similarity, scheme=SCHEME)
        assert out["per_item"][item]["m"]["added"]["with_machine"] == pytest.approx(
            getattr(want, coefficient), abs=1e-9
        )


def test_consistency_is_the_pooled_pairwise_similarity_and_a_copy_ranks_first() -> None:
    data = _dataset(5, coders=(*HUMANS,))
    for item in data.values():
        item["copy"] = item["h2"].copy()
    out = sf_panel_statistics(data, ["copy"], SCHEME, n_boot=20, n_perm=4)["results"]["copy"]
    pair = fleiss(_sub(data, ["h1", "h3"]), "sf", scheme=SCHEME)
    assert out["consistency"]["humans"]["h1"] == pytest.approx(
        (fleiss(_sub(data, ["h1", "h2"]), "sf", scheme=SCHEME).actual + pair.actual) / 2, abs=1e-12
    )
    assert out["consistency"]["rank"] == 1


def test_random_panels_keep_the_codes_and_the_seed_fixes_everything() -> None:
    data = _dataset(9)
    first = sf_panel_statistics(data, ["m"], SCHEME, n_boot=50, n_perm=30, seed=4)
    again = sf_panel_statistics(data, ["m"], SCHEME, n_boot=50, n_perm=30, seed=4)
    assert first == again
    chance = first["results"]["m"]["chance"]
    assert chance["low"] <= chance["mean"] <= chance["high"]
    assert chance["mean"] < first["results"]["m"]["added"]["with_machine"]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), density=st.floats(0.01, 0.9), n=st.integers(1, 80))
def test_sparse_scoring_equals_dense_scoring(seed: int, density: float, n: int) -> None:
    from segagree.metrics.chance.sf_kappa import score_pairs, score_sparse_pairs

    rng = np.random.default_rng(seed)
    a = np.where(rng.random((25, n)) < density, rng.integers(1, SCHEME.n_codes, (25, n)), 0)
    b = np.where(rng.random((25, n)) < density, rng.integers(1, SCHEME.n_codes, (25, n)), 0)
    cost, edits = score_pairs(list(a), list(b), SCHEME)
    rows, pos = np.nonzero((a != 0) | (b != 0))
    sparse_cost, sparse_edits = score_sparse_pairs(rows, pos, a[rows, pos], b[rows, pos], 25, SCHEME)
    np.testing.assert_allclose(sparse_cost, cost, atol=1e-12)
    np.testing.assert_array_equal(sparse_edits, edits)
