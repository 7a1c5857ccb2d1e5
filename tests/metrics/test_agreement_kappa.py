"""Simulated and exact kappa of S_f / S_f^B (segagree.metrics.chance.sf_kappa)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.errors import MismatchError, UsageError
from segagree.metrics.boundary.sf import sf_speaker
from segagree.metrics.chance.sf_kappa import chance_distributions, score_pairs, sf_kappa
from segagree.model.scheme import builtin_scheme

SCHEMES = ["dubois", "lai2023", "segsimflex-vignette"]


def _random_pair(rng: np.random.Generator, n: int, p: list[float]) -> tuple[np.ndarray, np.ndarray]:
    return rng.choice(len(p), size=n, p=p), rng.choice(len(p), size=n, p=p)


def _two_speakers(seed: int, sizes: tuple[int, int] = (300, 200)) -> tuple[dict, dict]:
    rng = np.random.default_rng(seed)
    p = [0.75, 0.1, 0.06, 0.03, 0.02, 0.04]
    a, b = {}, {}
    for name, n in zip(("S1", "S2"), sizes, strict=True):
        a[name], b[name] = _random_pair(rng, n, p)
    return a, b


# --- the batched scorer is sf_speaker ------------------------------------------------------------


@pytest.mark.parametrize("name", SCHEMES)
@pytest.mark.parametrize("density", [0.1, 0.35, 0.8])
@pytest.mark.parametrize("transpositions", [True, False])
def test_score_pairs_equals_sf_speaker(name: str, density: float, transpositions: bool) -> None:
    scheme = builtin_scheme(name)
    rng = np.random.default_rng(int(density * 100) + len(name))
    p = np.r_[1 - density, np.full(5, density / 5)]
    rows_a = [rng.choice(6, size=int(n), p=p) for n in rng.integers(1, 120, size=60)]
    rows_b = [rng.choice(6, size=r.size, p=p) for r in rows_a]
    cost, edits = score_pairs(rows_a, rows_b, scheme, transpositions=transpositions)
    for i, (x, y) in enumerate(zip(rows_a, rows_b, strict=True)):
        ref = sf_speaker(x, y, scheme, transpositions=transpositions, with_operations=False)[0]
        assert cost[i] == pytest.approx(ref.cost, abs=1e-9), i
        assert edits[i] == ref.edits, i


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=60), st.sampled_from(SCHEMES))
def test_score_pairs_property(pairs: list[tuple[int, int]], name: str) -> None:
    scheme = builtin_scheme(name)
    a = np.array([x for x, _ in pairs])
    b = np.array([y for _, y in pairs])
    cost, edits = score_pairs([a, a[::-1]], [b, b[::-1]], scheme)
    for i, (x, y) in enumerate(((a, b), (a[::-1], b[::-1]))):
        ref = sf_speaker(x, y, scheme, with_operations=False)[0]
        assert cost[i] == pytest.approx(ref.cost, abs=1e-9)
        assert edits[i] == ref.edits


def test_score_pairs_segsimflex_mode_and_empty_rows() -> None:
    scheme = builtin_scheme("dubois")
    rng = np.random.default_rng(3)
    rows_a = [rng.choice(6, size=40, p=[0.7, 0.1, 0.1, 0.04, 0.03, 0.03]) for _ in range(5)] + [np.zeros(0, int)]
    rows_b = [rng.permutation(r) for r in rows_a]
    cost, edits = score_pairs(rows_a, rows_b, scheme, mode="segsimflex")
    for i in range(5):
        ref = sf_speaker(rows_a[i], rows_b[i], scheme, mode="segsimflex", with_operations=False)[0]
        assert (cost[i], edits[i]) == (ref.cost, ref.edits)
    assert (cost[5], edits[5]) == (0.0, 0)


# --- kappa ------------------------------------------------------------------------------------


@pytest.mark.parametrize("chance", ["cohen", "scott", "bennett", "bennett_modified", "segsimflex"])
def test_identical_annotations_give_kappa_one(chance: str) -> None:
    a, _ = _two_speakers(1)
    res = sf_kappa(a, a, chance=chance, sims=20, seed=5)
    assert res.pooled["sf"].kappa == pytest.approx(1.0)
    assert res.pooled["sf_b"].kappa == pytest.approx(1.0)
    assert res.pooled["sf"].se == pytest.approx(0.0)
    if chance != "segsimflex":
        assert set(res.per_speaker) == {"S1", "S2"}
        assert all(d["sf"].kappa == pytest.approx(1.0) for d in res.per_speaker.values())
    else:
        assert res.per_speaker == {}


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_independent_random_annotations_give_kappa_near_zero(seed: int) -> None:
    # Observed similarity of two independent draws is itself one chance draw: kappa is 0 up to
    # the spread of one draw, sd / (1 - mean), plus the Monte Carlo error.
    a, b = _two_speakers(seed, (1500, 1000))
    res = sf_kappa(a, b, chance="cohen", sims=60, seed=seed)
    for metric in ("sf", "sf_b"):
        est = res.pooled[metric]
        spread = est.chance_sd / (1 - est.chance_mean)
        assert abs(est.kappa) < 4 * spread + 4 * est.se, (metric, est)


def test_simulation_converges_to_exact_without_transpositions() -> None:
    a, b = _two_speakers(21, (400, 250))
    scheme = builtin_scheme("lai2023")
    for chance in ("cohen", "scott", "bennett", "bennett_modified"):
        exact = sf_kappa(a, b, scheme, chance=chance, transpositions=False, chance_method="exact")
        sim = sf_kappa(a, b, scheme, chance=chance, transpositions=False, sims=300, seed=3)
        for key in ["pooled", *a]:
            e = exact.pooled["sf"] if key == "pooled" else exact.per_speaker[key]["sf"]
            s = sim.pooled["sf"] if key == "pooled" else sim.per_speaker[key]["sf"]
            mc = s.chance_sd / math.sqrt(300)
            assert abs(s.chance_mean - e.chance_mean) < 4 * mc, (chance, key)
            assert s.chance_sd == pytest.approx(e.chance_sd, rel=0.25), (chance, key)
        assert exact.pooled["sf_b"].kappa is None and "closed form" in exact.pooled["sf_b"].reason
        assert exact.pooled["sf"].se == 0.0


def test_same_numbers_for_any_jobs_and_prefix_stable() -> None:
    a, b = _two_speakers(31)
    one = sf_kappa(a, b, sims=300, seed=99, jobs=1)
    two = sf_kappa(a, b, sims=300, seed=99, jobs=2)
    assert np.array_equal(one.sim_cost, two.sim_cost)
    assert np.array_equal(one.sim_edits, two.sim_edits)
    assert one.pooled["sf"].kappa == two.pooled["sf"].kappa
    short = sf_kappa(a, b, sims=40, seed=99)
    assert np.array_equal(short.sim_cost, one.sim_cost[:, :40])
    other = sf_kappa(a, b, sims=40, seed=100)
    assert not np.array_equal(other.sim_cost, short.sim_cost)


@pytest.mark.parametrize("mc_tolerance", [None, 1e-9])
def test_same_numbers_for_any_threads(mc_tolerance: float | None) -> None:
    """Threads share the tasks out (each with its own block cache): the numbers of one thread,
    of three, and of two worker processes with two threads each are the same, bit for bit; the
    progress callback still counts every simulation once."""
    a, b = _two_speakers(37)
    one = sf_kappa(a, b, sims=700, seed=5, threads=1, mc_tolerance=mc_tolerance)
    seen: list[int] = []
    three = sf_kappa(a, b, sims=700, seed=5, threads=3, progress=seen.append, mc_tolerance=mc_tolerance)
    both = sf_kappa(a, b, sims=700, seed=5, jobs=2, threads=2, mc_tolerance=mc_tolerance)
    for res in (three, both):
        assert np.array_equal(one.sim_cost, res.sim_cost)
        assert np.array_equal(one.sim_edits, res.sim_edits)
        assert one.pooled["sf_b"].kappa == res.pooled["sf_b"].kappa
    assert sum(seen) == 2 * 700
    with pytest.raises(UsageError, match="threads"):
        sf_kappa(a, b, sims=10, threads=0)


def test_pooled_is_per_speaker_simulations_summed() -> None:
    a, b = _two_speakers(41)
    res = sf_kappa(a, b, sims=30, seed=2)
    chance = 1 - res.sim_cost.sum(axis=0) / res.n_tokens.sum()
    assert res.pooled["sf"].chance_mean == pytest.approx(chance.mean())
    assert res.pooled["sf"].observed == pytest.approx(1 - sum(s.cost for s in res.observed.values()) / 500)
    se = (1 - res.pooled["sf"].observed) / (1 - chance.mean()) ** 2 * chance.std(ddof=1) / math.sqrt(30)
    assert res.pooled["sf"].se == pytest.approx(se)
    assert "K:30" in res.signature and "seed:2" in res.signature


def test_progress_counts_every_simulation() -> None:
    a, b = _two_speakers(51)
    seen: list[int] = []
    sf_kappa(a, b, sims=260, seed=1, progress=seen.append)
    assert sum(seen) == 2 * 260


# --- the segsimflex chance model ------------------------------------------------------------------


def _r_probabilities(counts: list[int]) -> np.ndarray:
    """The reference's draw, literally: prob = floor(runif(1, 1, num)) in 1..num-1, symbol k
    when cum[k] <= prob < cum[k+1] with cum = c(1, cumsum(counts)) (R order)."""
    num = sum(counts)
    cum = [1] + list(np.cumsum(counts))
    hits = np.zeros(len(counts))
    for prob in range(1, num):
        for k in range(len(counts)):
            if cum[k] <= prob < cum[k + 1]:
                hits[k] += 1
                break
    return hits / (num - 1)


def test_segsimflex_distribution_is_the_references_loop() -> None:
    rng = np.random.default_rng(7)
    a = {"A": rng.choice(6, 50, p=[0.6, 0.2, 0.1, 0.0, 0.05, 0.05]), "B": rng.choice(6, 40)}
    b = {"A": rng.choice(6, 50), "B": np.r_[np.zeros(30, int), np.full(10, 2)]}
    dist = chance_distributions(a, b, 6, "segsimflex")
    r_order = [1, 2, 3, 4, 5, 0]
    for who, arrays in (("a", a), ("b", b)):
        counts = np.bincount(arrays["B"], minlength=6)  # last speaker in sorted order: "B"
        expected_r = _r_probabilities([int(counts[c]) for c in r_order])
        got = dist["A"][0 if who == "a" else 1]
        assert np.allclose(got[r_order], expected_r)
        assert np.allclose(dist["B"][0 if who == "a" else 1], got)  # the same for every speaker


def test_segsimflex_chance_matches_a_loop_implementation() -> None:
    """Independent, slow implementation of the reference's IAA loop on a small input."""
    scheme = builtin_scheme("dubois")
    rng = np.random.default_rng(8)
    p = [0.7, 0.12, 0.08, 0.03, 0.03, 0.04]
    a = {"X": rng.choice(6, 60, p=p), "Y": rng.choice(6, 45, p=p)}
    b = {"X": rng.choice(6, 60, p=p), "Y": rng.choice(6, 45, p=p)}
    r_order = [1, 2, 3, 4, 5, 0]
    K = 150
    loop_rng = np.random.default_rng(123)
    chance_n, chance_b = [], []
    cum = {}
    for who, arr in (("a", a), ("b", b)):
        counts = np.bincount(arr["Y"], minlength=6)[r_order]
        cum[who] = [1] + list(np.cumsum(counts))
    num = 45
    for _ in range(K):
        cost = actions = 0.0
        sims = {}
        for who in ("a", "b"):
            sims[who] = {}
            for spk, n in (("X", 60), ("Y", 45)):
                out = []
                for _pos in range(n):
                    prob = int(np.floor(loop_rng.uniform(1, num)))
                    k = next(k for k in range(6) if cum[who][k] <= prob < cum[who][k + 1])
                    out.append(r_order[k])
                sims[who][spk] = np.array(out)
        for spk in ("X", "Y"):
            s = sf_speaker(sims["a"][spk], sims["b"][spk], scheme, mode="segsimflex", with_operations=False)[0]
            cost += s.cost
            actions += s.edits
        chance_n.append(1 - cost / 105)
        chance_b.append(1 - cost / actions)
    res = sf_kappa(a, b, scheme, chance="segsimflex", sims=K, seed=4, mode="segsimflex")
    for metric, loop in (("sf", chance_n), ("sf_b", chance_b)):
        est = res.pooled[metric]
        se = math.sqrt(np.var(loop, ddof=1) / K + est.chance_sd**2 / K)
        assert abs(est.chance_mean - np.mean(loop)) < 4 * se, metric


NCCU = ["nccu_t001", "nccu_t009", "nccu_t016", "nccu_t025", "nccu_t049"]


@pytest.mark.parametrize(
    "case,config,scheme_name", [(c, "identity", "dubois") for c in NCCU] + [("nccu_t049", "custom", "lai2023")]
)
def test_segsimflex_kappa_matches_the_reference(
    segsimflex_oracle: dict, case: str, config: str, scheme_name: str
) -> None:
    from segagree.formats import read_document
    from segagree.scoring.tokens.pairing import pair_annotations

    from conftest import shared_path

    iaa = segsimflex_oracle["cases"][case].get("iaa") or {}
    ref = iaa.get(f"{config}__seed1_K100")
    if ref is None:
        pytest.skip(f"no reference kappa for {case}/{config}")
    scheme = builtin_scheme(scheme_name)
    docs = [read_document(shared_path("corpora", "nccu", f"{case}.{x}.csv"), scheme=scheme) for x in ("a1", "a2")]
    # The reference compares position by position (t025 spells one token differently).
    pair = pair_annotations(docs[0], docs[1], scheme=scheme, align=True)
    res = sf_kappa(pair.arrays_a, pair.arrays_b, scheme, chance="segsimflex", sims=6, seed=1, mode="segsimflex")
    for i, metric in enumerate(("sf", "sf_b")):
        est = res.pooled[metric]
        assert est.observed == pytest.approx(ref["asim"][i], abs=1e-9)
        tol = 4 * math.sqrt(est.se**2 + ref["kappa_se"][i] ** 2)
        assert abs(est.kappa - ref["kappa"][i]) < tol, (metric, est.kappa, ref["kappa"][i], tol)


# --- errors ----------------------------------------------------------------------------------


def test_bad_input_errors() -> None:
    a, b = _two_speakers(61)
    with pytest.raises(UsageError, match="K must be"):
        sf_kappa(a, b, sims=0)
    with pytest.raises(UsageError, match="chance model"):
        sf_kappa(a, b, chance="fleiss")
    with pytest.raises(UsageError, match="exact"):
        sf_kappa(a, b, chance_method="exact")
    with pytest.raises(UsageError, match="exact"):
        sf_kappa(a, b, chance="segsimflex", transpositions=False, chance_method="exact")
    with pytest.raises(UsageError, match="jobs"):
        sf_kappa(a, b, jobs=0)
    with pytest.raises(MismatchError):
        sf_kappa(a, {"S1": b["S1"]})
    with pytest.raises(MismatchError):
        sf_kappa(a, {"S1": b["S1"][:-1], "S2": b["S2"]})
    with pytest.raises(UsageError, match="at least 2 tokens"):
        sf_kappa({"A": np.array([1])}, {"A": np.array([1])}, chance="segsimflex", sims=2)
