"""Panel statistics of a machine among human coders, checked against segeval 2.0.11 sub-panel by
sub-panel (Fournier & Inkpen 2012, 3.4; Medelyan & Witten 2006), with property tests."""

from __future__ import annotations

import decimal
import itertools
import random
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from segagree.errors import MismatchError, UsageError
from segagree.metrics.chance.fleiss import fleiss
from segagree.metrics.chance.panel import (
    _random_subsets,
    pack_presence,
    packed_similarity_parts,
    panel_statistics,
)
from segagree.scoring.tokens.agreement import load_segeval_json

segeval = pytest.importorskip("segeval", reason="segeval 2.0.11 is the reference for S/B agreement")

SAMPLES = ["KAZANTSEVA2012_G5", "KAZANTSEVA2012_G2", "COMPLETE_AGREEMENT"]
QUICK = {"n_boot": 50, "n_perm": 8}


# --- references --------------------------------------------------------------------------------


def _fnc(similarity: str) -> Any:
    return segeval.segmentation_similarity if similarity == "s" else segeval.boundary_similarity


def _sub(dataset: dict, coders: list) -> Any:
    """A segeval Dataset of these coders only (its format: masses, or gap sets)."""
    first = next(iter(next(iter(dataset.values())).values()))
    sets = len(first) > 0 and isinstance(first[0], (set, frozenset))
    fmt = segeval.BoundaryFormat.sets if sets else segeval.BoundaryFormat.mass
    types = {t for cod in dataset.values() for c in coders for s in (cod[c] if sets else []) for t in s} or {1}
    return segeval.Dataset(
        {i: {c: cod[c] for c in coders} for i, cod in dataset.items()}, boundary_format=fmt, boundary_types=types
    )


def ref_coef(dataset: dict, coders: list, similarity: str, coefficient: str, n_t: int = 2) -> float | None:
    """segeval's fleiss_pi_linear / fleiss_kappa_linear of the sub-panel ``coders``; None where
    segeval divides 0 by 0 (A_e = 1: every gap of every coding a boundary)."""
    fn = segeval.fleiss_pi_linear if coefficient == "pi" else segeval.fleiss_kappa_linear
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return float(fn(_sub(dataset, coders), fnc_compare=_fnc(similarity), n_t=n_t))
        except decimal.InvalidOperation:
            return None


def _close(ours: float | None, ref: float | None) -> bool:
    if ref is None or ours is None:
        return ours is None and ref is None
    return abs(ours - ref) <= 1e-6


def ref_similarity(dataset: dict, a: Any, b: Any, similarity: str, n_t: int = 2) -> float:
    """segeval's actual agreement of one pair: its S or B pooled over items."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(segeval.actual_agreement_linear(_sub(dataset, [a, b]), fnc_compare=_fnc(similarity), n_t=n_t))


def _plain(ds: Any) -> dict:
    return {item: dict(codings) for item, codings in ds.items()}


def _masses(presence: list[bool]) -> tuple[int, ...]:
    edges = [0] + [i + 1 for i, p in enumerate(presence) if p] + [len(presence) + 1]
    return tuple(b - a for a, b in itertools.pairwise(edges))


@st.composite
def panels(draw: Any, min_humans: int = 2, max_humans: int = 4, max_items: int = 3, max_len: int = 14) -> dict:
    """{item: {coder: masses}}: humans h0.., one machine m; every coding has a boundary (segeval
    divides by zero without one)."""
    n_humans = draw(st.integers(min_humans, max_humans))
    n_items = draw(st.integers(1, max_items))
    coders = [f"h{k}" for k in range(n_humans)] + ["m"]
    out: dict = {}
    for i in range(n_items):
        n = draw(st.integers(3, max_len))
        out[f"t{i}"] = {}
        for c in coders:
            presence = draw(st.lists(st.booleans(), min_size=n - 1, max_size=n - 1).filter(any))
            out[f"t{i}"][c] = _masses(presence)
    return out


def _check_against_segeval(ds: dict, humans: list, machine: str, similarity: str, coefficient: str) -> None:
    res = panel_statistics(ds, [machine], humans=humans, similarity=similarity, coefficient=coefficient, **QUICK)
    r = res.results[machine]
    base = ref_coef(ds, humans, similarity, coefficient)
    assert _close(r["added"]["humans"], base)
    assert _close(r["added"]["with_machine"], ref_coef(ds, [*humans, machine], similarity, coefficient))
    subs = {h: ref_coef(ds, [o for o in humans if o != h] + [machine], similarity, coefficient) for h in humans}
    for h, v in subs.items():
        assert _close(r["replaced"]["per_human"][h], v)
    if base is not None and None not in subs.values():
        mean = float(np.mean(list(subs.values())))
        assert _close(r["replaced"]["mean"], mean)
        assert _close(r["replaced"]["change"], mean - base)
    if len(humans) >= 3:
        for h in humans:
            without = ref_coef(ds, [o for o in humans if o != h], similarity, coefficient)
            expected = None if base is None or without is None else base - without
            assert _close(r["human_changes"]["per_human"][h]["change"], expected)


# --- 1. equal to segeval on every panel and sub-panel --------------------------------------------


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("similarity", ["b", "s"])
@pytest.mark.parametrize("coefficient", ["pi", "kappa"])
def test_every_subpanel_equals_segeval_on_its_samples(name: str, similarity: str, coefficient: str) -> None:
    from segeval.data import samples

    ds = _plain(getattr(samples, name))
    coders = sorted({c for cod in ds.values() for c in cod})
    for machine in coders[:3]:  # three machines per dataset keep the test short
        humans = [c for c in coders if c != machine]
        _check_against_segeval(ds, humans, machine, similarity, coefficient)


@pytest.mark.parametrize("similarity", ["b", "s"])
@pytest.mark.parametrize("coefficient", ["pi", "kappa"])
def test_hearst_stargazer_loaded_with_segevals_loader(similarity: str, coefficient: str) -> None:
    path = Path(segeval.__file__).parent / "data" / "hearst1997.json"
    if not path.exists():
        pytest.skip(f"{path} is absent from this segeval installation")
    try:
        ds = _plain(segeval.input_linear_mass_json(str(path)))
    except ValueError:  # segeval 2.0.11 opens files with mode 'rU', which Python 3.11 refuses
        ds = load_segeval_json(path)
    assert ds == {i: {c: list(m) for c, m in cod.items()} for i, cod in _plain(segeval.HEARST_1997_STARGAZER).items()}
    coders = sorted({c for cod in ds.values() for c in cod})
    assert len(coders) == 7
    _check_against_segeval(ds, coders[1:], coders[0], similarity, coefficient)
    _check_against_segeval(ds, coders[:4], coders[6], similarity, coefficient)


@hyp_settings(max_examples=40)
@given(ds=panels(), similarity=st.sampled_from(["b", "s"]), coefficient=st.sampled_from(["pi", "kappa"]))
def test_every_subpanel_equals_segeval_on_generated_panels(ds: dict, similarity: str, coefficient: str) -> None:
    humans = sorted(c for c in next(iter(ds.values())) if c != "m")
    _check_against_segeval(ds, humans, "m", similarity, coefficient)


def test_several_boundary_types_equal_segeval() -> None:
    e: frozenset[int] = frozenset()
    one, two, both = frozenset({1}), frozenset({2}), frozenset({1, 2})
    ds = {
        "x": {"a": (one, e, e, two, e, one), "b": (e, one, e, two, e, both), "c": (two, e, e, e, one, one)},
        "y": {"a": (e, two, e, one), "b": (e, two, one, e), "c": (one, e, e, two)},
    }
    for similarity, coefficient in itertools.product(["b", "s"], ["pi", "kappa"]):
        _check_against_segeval(ds, ["a", "b"], "c", similarity, coefficient)
    r = panel_statistics(ds, ["c"], similarity="b", n_boot=20, n_perm=5)  # shuffled gap sets for chance
    assert r.results["c"]["chance"]["mean"] is not None


def test_per_item_equals_fleiss_of_each_item() -> None:
    from segeval.data import samples

    ds = _plain(samples.KAZANTSEVA2012_G5)
    res = panel_statistics(ds, ["an2"], coefficient="kappa", **QUICK)
    for item, codings in ds.items():
        with_m = fleiss({item: codings}, "b").kappa
        humans = fleiss({item: {c: v for c, v in codings.items() if c != "an2"}}, "b").kappa
        added = res.per_item[item]["an2"]["added"]
        assert added["with_machine"] == pytest.approx(with_m, abs=1e-12)
        assert added["humans"] == pytest.approx(humans, abs=1e-12)
        cons = res.per_item[item]["an2"]["consistency"]
        sims = [ref_similarity({item: codings}, "an2", h, "b") for h in ("an1", "an3", "an4")]
        assert cons["machine"] == pytest.approx(np.mean(sims), abs=1e-9)


# --- 2. replaced and consistency by brute force ------------------------------------------------


@hyp_settings(max_examples=30)
@given(ds=panels(), similarity=st.sampled_from(["b", "s"]))
def test_consistency_and_rank_by_brute_force(ds: dict, similarity: str) -> None:
    humans = sorted(c for c in next(iter(ds.values())) if c != "m")
    res = panel_statistics(ds, ["m"], similarity=similarity, **QUICK)
    cons = res.results["m"]["consistency"]
    machine = np.mean([ref_similarity(ds, "m", h, similarity) for h in humans])
    per_human = {h: np.mean([ref_similarity(ds, h, o, similarity) for o in humans if o != h]) for h in humans}
    assert cons["machine"] == pytest.approx(machine, abs=1e-9)
    for h in humans:
        assert cons["humans"][h] == pytest.approx(per_human[h], abs=1e-9)
    # competition rank, the machine after the humans it ties with
    assert cons["rank"] == 1 + sum(1 for v in per_human.values() if v >= machine - 1e-9)
    assert cons["of"] == len(humans) + 1


# --- 3. properties -------------------------------------------------------------------------------


@hyp_settings(max_examples=30)
@given(ds=panels())
def test_a_machine_without_boundaries_is_ranked_last_by_b(ds: dict) -> None:
    # B of a coding without boundaries to one with boundaries is 0; humans are never below 0.
    # (Not so with S: S rewards an empty segmentation, 1 - k/(N-1), which is why B exists.)
    for codings in ds.values():
        codings["m"] = (sum(codings["h0"]),)
    cons = panel_statistics(ds, ["m"], similarity="b", **QUICK).results["m"]["consistency"]
    assert cons["machine"] == 0.0
    assert cons["rank"] == cons["of"]


@hyp_settings(max_examples=30)
@given(ds=panels(min_humans=3), similarity=st.sampled_from(["b", "s"]))
def test_a_copy_of_the_most_consistent_human_is_ranked_first(ds: dict, similarity: str) -> None:
    # The copy's mean similarity is (1 + (n - 1) c) / n > c >= every human's consistency c when
    # c < 1. A copy of any human is not always first: a human who disagrees with two humans
    # that agree with each other stays below them, and so does a copy of that human.
    humans = sorted(c for c in next(iter(ds.values())) if c != "m")
    cons = panel_statistics(ds, ["m"], similarity=similarity, **QUICK).results["m"]["consistency"]
    best = max(humans, key=lambda h: cons["humans"][h])
    assume(cons["humans"][best] < 1 - 1e-9)
    for codings in ds.values():
        codings["m"] = codings[best]
    cons = panel_statistics(ds, ["m"], similarity=similarity, **QUICK).results["m"]["consistency"]
    assert cons["rank"] == 1


def _rename(obj: Any, names: dict[str, str]) -> Any:
    if isinstance(obj, dict):
        return {names.get(k, k): _rename(v, names) for k, v in obj.items()}
    if isinstance(obj, list):
        return sorted(_rename(v, names) for v in obj) if all(isinstance(v, str) for v in obj) else obj
    if isinstance(obj, str):
        return names.get(obj, obj)
    return obj


def _distinct_contents(ds: dict) -> bool:
    """Renaming leaves random numbers alone only where contents order items and humans."""
    humans = sorted(c for c in next(iter(ds.values())) if c != "m")
    item_keys = [tuple(sorted(cod[h] for h in humans)) for cod in ds.values()]
    human_keys = [tuple(cod[h] for cod in ds.values()) for h in humans]
    return len(set(item_keys)) == len(item_keys) and len(set(human_keys)) == len(human_keys)


@hyp_settings(max_examples=25)
@given(ds=panels(max_items=4), data=st.data())
def test_renaming_and_reordering_changes_nothing(ds: dict, data: Any) -> None:
    assume(_distinct_contents(ds))
    coders = list(next(iter(ds.values())))
    new_coders = data.draw(st.permutations([f"c{k}" for k in range(len(coders))]))
    new_items = data.draw(st.permutations([f"i{k}" for k in range(len(ds))]))
    rename = dict(zip(coders, new_coders, strict=True)) | dict(zip(ds, new_items, strict=True))
    shuffled_items = data.draw(st.permutations(list(ds)))
    renamed = {}
    for item in shuffled_items:
        order = data.draw(st.permutations(coders))
        renamed[rename[item]] = {rename[c]: ds[item][c] for c in order}
    kw = {"n_boot": 60, "n_perm": 6, "coefficient": data.draw(st.sampled_from(["pi", "kappa"]))}
    before = panel_statistics(ds, ["m"], **kw).to_dict()
    after = panel_statistics(renamed, [rename["m"]], **kw).to_dict()
    assert _rename(before, rename) == after


def test_same_seed_same_numbers_other_seed_other_intervals() -> None:
    from segeval.data import samples

    ds = _plain(samples.KAZANTSEVA2012_G2)
    a = panel_statistics(ds, ["an5", "an9"], n_boot=200, n_perm=20, seed=7).to_dict()
    b = panel_statistics(ds, ["an5", "an9"], n_boot=200, n_perm=20, seed=7).to_dict()
    c = panel_statistics(ds, ["an5", "an9"], n_boot=200, n_perm=20, seed=8).to_dict()
    assert a == b
    assert a["results"]["an5"]["added"]["interval"] != c["results"]["an5"]["added"]["interval"]
    assert a["results"]["an5"]["chance"]["mean"] != c["results"]["an5"]["chance"]["mean"]
    assert a["results"]["an5"]["added"]["change"] == c["results"]["an5"]["added"]["change"]


def _approx_equal(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_approx_equal(a[k], b[k]) for k in a)
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= 1e-12
    return bool(a == b)


def test_a_machines_numbers_do_not_depend_on_the_other_machines() -> None:
    # the same resamples and random panels; sums over more pairs may round differently
    from segeval.data import samples

    ds = _plain(samples.KAZANTSEVA2012_G2)
    humans = ["an6", "an7", "an8", "an10"]
    alone = panel_statistics(ds, ["an5"], humans=humans, n_boot=100, n_perm=10).to_dict()
    both = panel_statistics(ds, ["an5", "an9"], humans=humans, n_boot=100, n_perm=10).to_dict()
    assert _approx_equal(alone["results"]["an5"], both["results"]["an5"])


# --- 4. bootstrap ------------------------------------------------------------------------------


def _synthetic(n_items: int, n_humans: int, seed: int) -> dict:
    """Humans near a shared segmentation, a machine a little further from it."""
    rng = np.random.default_rng(seed)
    ds: dict = {}
    for i in range(n_items):
        n = int(rng.integers(80, 160))
        truth = rng.random(n - 1) < 0.1
        ds[f"text{i}"] = {}
        for c in [f"h{k}" for k in range(n_humans)] + ["m"]:
            noise = 0.05 if c != "m" else 0.08
            flip = rng.random(n - 1) < noise
            presence = truth ^ flip
            presence[0] = True
            ds[f"text{i}"][c] = _masses(presence.tolist())
    return ds


@pytest.mark.parametrize("coefficient", ["pi", "kappa"])
def test_intervals_contain_the_point_estimate(coefficient: str) -> None:
    ds = _synthetic(20, 4, seed=3)
    r = panel_statistics(ds, ["m"], coefficient=coefficient, n_boot=500, n_perm=10).results["m"]
    blocks = [r["added"], r["replaced"], *r["human_changes"]["per_human"].values()]
    for block in blocks:
        iv = block["interval"]
        assert iv["low"] < block["change"] < iv["high"]
        assert (iv["level"], iv["n_boot"], iv["seed"]) == (0.95, 500, 12345)


def test_the_bootstrap_is_paired() -> None:
    # Every panel on the same resampled items: the change's interval is far narrower than the
    # difference of the two panels' own intervals would allow.
    ds = _synthetic(30, 4, seed=5)
    r = panel_statistics(ds, ["m"], n_boot=400, n_perm=5).results["m"]["added"]
    assert r["interval"]["high"] - r["interval"]["low"] < 0.1
    assert r["interval"]["low"] <= r["change"] <= r["interval"]["high"]


def test_one_item_has_no_interval() -> None:
    from segeval.data import samples

    r = panel_statistics(_plain(samples.HEARST_1997_STARGAZER), ["1"], **QUICK).results["1"]
    assert r["added"]["interval"]["low"] is None and r["added"]["interval"]["high"] is None
    assert r["added"]["change"] is not None


# --- chance and the packed kernel ----------------------------------------------------------------


@st.composite
def pairs_of_masses(draw: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    n = draw(st.integers(2, 200))  # beyond 64 gaps: words carry into their neighbours
    dense = draw(st.floats(0.02, 0.9))
    rnd = random.Random(draw(st.integers(0, 2**32)))
    a = [rnd.random() < dense for _ in range(n - 1)]
    b = [rnd.random() < dense for _ in range(n - 1)]
    return _masses(a), _masses(b)


def _presence(masses: tuple[int, ...]) -> np.ndarray:
    p = np.zeros(sum(masses) - 1, dtype=bool)
    p[np.cumsum(masses)[:-1] - 1] = True
    return p


@hyp_settings(max_examples=150)
@given(pair=pairs_of_masses(), similarity=st.sampled_from(["b", "s"]), n_t=st.integers(1, 5))
def test_packed_kernel_equals_segeval_parts(pair: tuple, similarity: str, n_t: int) -> None:
    a, b = pair
    assume(len(a) + len(b) > 2)  # segeval divides by zero without any boundary
    num, den = packed_similarity_parts(
        pack_presence(_presence(a)), pack_presence(_presence(b)), sum(a) - 1, similarity, n_t
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = _fnc(similarity)(a, b, n_t=n_t, return_parts=True)
    assert float(num) == pytest.approx(float(ref[0]), abs=1e-9)
    assert float(den) == pytest.approx(float(ref[1]), abs=1e-9)


def test_random_subsets_keep_counts_and_are_uniform() -> None:
    rng = np.random.default_rng(0)
    counts = np.array([0, 1, 2, 3, 4])  # 3 and 4 of 4 gaps: drawn as complements
    out = _random_subsets(rng, 4, counts, 6000)
    assert (out.sum(axis=2) == counts).all()
    patterns = [tuple(r) for r in out[:, 2].tolist()]
    freq = np.array([patterns.count(p) for p in set(patterns)]) / len(patterns)
    assert len(freq) == 6 and np.abs(freq - 1 / 6).max() < 0.025


def test_chance_of_random_coders_is_near_their_observed_value() -> None:
    # Coders that place their boundaries at random are their own chance panel.
    rng = np.random.default_rng(11)
    ds = {}
    for i in range(12):
        n = 150
        ds[f"t{i}"] = {c: _masses((rng.random(n - 1) < 0.15).tolist()) for c in ("a", "b", "c", "m")}
    r = panel_statistics(ds, ["m"], n_boot=50, n_perm=100).results["m"]
    chance = r["chance"]
    assert chance["low"] <= r["added"]["with_machine"] <= chance["high"]
    assert abs(chance["corrected"]) < 0.05
    assert (chance["n_perm"], chance["seed"]) == (100, 12345)


# --- verdict and layout --------------------------------------------------------------------------


def test_json_layout_and_verdict() -> None:
    from segeval.data import samples

    res = panel_statistics(_plain(samples.KAZANTSEVA2012_G2), ["an5"], **QUICK).to_dict()
    assert list(res) == ["measure", "coefficient", "humans", "machines", "per_item", "results"]
    assert res["humans"] == ["an10", "an6", "an7", "an8", "an9"] and res["machines"] == ["an5"]
    r = res["results"]["an5"]
    assert list(r) == [
        "added",
        "replaced",
        "consistency",
        "human_changes",
        "chance",
        "verdict",
        "verdict_code",
        "rank",
        "humans_at_chance",
    ]
    assert list(r["added"]) == ["humans", "with_machine", "change", "interval"]
    assert list(r["replaced"]) == ["mean", "change", "per_human", "interval"]
    assert list(r["consistency"]) == ["machine", "humans", "rank", "of"]
    assert list(r["chance"]) == ["mean", "low", "high", "n_perm", "seed", "corrected", "humans_mean"]
    changes = [v["change"] for v in r["human_changes"]["per_human"].values()]
    lo, hi = min(changes), max(changes)
    code = "below" if r["added"]["change"] < lo else "above" if r["added"]["change"] > hi else "within"
    assert r["verdict_code"] == code
    assert r["rank"] == {"rank": r["human_changes"]["rank"], "of": 6, "by": "change", "low": lo, "high": hi}
    assert r["verdict"].startswith(f"{code} the human range: rank {r['human_changes']['rank']} of 6 by change; change ")
    assert f"against the humans' {lo:+.3f} to {hi:+.3f}" in r["verdict"]


def test_two_humans_judge_by_consistency() -> None:
    from segeval.data import samples

    ds = {
        i: {c: v for c, v in cod.items() if c in ("an1", "an2", "an3")} for i, cod in samples.KAZANTSEVA2012_G5.items()
    }
    r = panel_statistics(ds, ["an3"], **QUICK).results["an3"]
    assert all(v["change"] is None for v in r["human_changes"]["per_human"].values())
    assert r["human_changes"]["rank"] is None
    assert "consistency" in r["verdict"] and r["verdict_code"] in ("below", "within", "above")


# --- errors --------------------------------------------------------------------------------------


def _small() -> dict:
    return {"t1": {"a": (2, 3), "b": (1, 4), "c": (5,), "m": (3, 2)}, "t2": {"a": (4,), "b": (2, 2), "c": (1, 3)}}


def test_unknown_machine() -> None:
    with pytest.raises(UsageError, match="unknown machine 'x'.*'a', 'b', 'c', 'm'"):
        panel_statistics(_small(), ["x"])


def test_items_the_machine_lacks_are_listed() -> None:
    with pytest.raises(MismatchError, match=r"machine 'm' has no segmentation of 1 item\(s\): \['t2'\]"):
        panel_statistics(_small(), ["m"])


def test_fewer_than_two_humans() -> None:
    with pytest.raises(UsageError, match="at least two humans"):
        panel_statistics(_small(), ["c"], humans=["a"])


def test_machine_named_as_human() -> None:
    with pytest.raises(UsageError, match="both as machine and as human"):
        panel_statistics(_small(), ["c"], humans=["a", "b", "c"])


def test_bad_options() -> None:
    ds = {"t": {"a": (2, 3), "b": (1, 4), "c": (5,)}}
    with pytest.raises(UsageError, match="unknown similarity"):
        panel_statistics(ds, ["c"], similarity="pk")
    with pytest.raises(UsageError, match="unknown coefficient"):
        panel_statistics(ds, ["c"], coefficient="alpha")
    with pytest.raises(UsageError, match="n_perm"):
        panel_statistics(ds, ["c"], n_perm=0)
    with pytest.raises(MismatchError, match="different numbers of units"):
        panel_statistics({"t": {"a": (2, 3), "b": (1, 4), "c": (6,)}}, ["c"])
