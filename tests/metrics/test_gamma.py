"""gamma, gamma-cat and gamma-k: pygamma-agreement 0.5.9's stored outputs, and properties.

tests/data/unitizing/pygamma_reference.json is made by make_pygamma_reference.py beside it (run in a
throwaway venv with pygamma-agreement 0.5.9). pygamma computes in float32, hence 1e-6.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from time_unit_sets import make_unit_set

from segagree.errors import InputError, UsageError
from segagree.metrics.contract import NotApplicableResult, UnitSet
from segagree.metrics.registry import get_measure

DATA = Path(__file__).resolve().parents[1] / "data" / "unitizing" / "pygamma_reference.json"
CASES = json.loads(DATA.read_text(encoding="utf-8"))["cases"]
GAMMA, GAMMA_CAT, GAMMA_K = (get_measure(n) for n in ("gamma", "gamma_cat", "gamma_k"))


def unit_set(units: list[list[Any]], annotators: list[str] | None = None) -> UnitSet:
    annotators = annotators or list(dict.fromkeys(u[0] for u in units))
    cats = sorted({u[3] for u in units})
    return UnitSet(
        annotators,
        cats,
        np.array([annotators.index(u[0]) for u in units], dtype=int),
        np.array([u[1] for u in units], dtype=float),
        np.array([u[2] for u in units], dtype=float),
        np.array([cats.index(u[3]) for u in units], dtype=int),
    )


def case_units(case: dict[str, Any]) -> UnitSet:
    return unit_set(case["units"], case["annotators"])


def case_params(case: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """The case's parameters as pygamma applies them.

    pygamma 0.5.9's compiled categorical dissimilarity keeps delta_empty = 1 whatever the
    CombinedCategoricalDissimilarity's delta_empty (its ``d`` method does scale), so its alignment
    uses beta · [cat differs]; segagree's beta / delta_empty reproduces that.
    """
    params = dict(case.get("params", {}))
    if params:
        params["beta"] = params["beta"] / params["delta_empty"]
    return {**params, **extra}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_observed_disorder_equals_pygamma(case: dict[str, Any]) -> None:
    res = GAMMA.compute([case_units(case)], case_params(case, samples=1, seed=0))
    assert res.observed_disorder == pytest.approx(case["pygamma"]["observed_disorder"], abs=1e-6)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_category_disorders_equal_pygamma_variant(case: dict[str, Any]) -> None:
    units = case_units(case)
    params = case_params(case, samples=1, seed=0, gamma_cat_variant="pygamma")
    cat = GAMMA_CAT.compute([units], params)
    per_k = GAMMA_K.compute([units], params)
    assert cat.observed_disorder == pytest.approx(case["pygamma"]["gamma_cat_observed_disorder"], abs=1e-6)
    assert per_k.observed_disorder == pytest.approx(case["pygamma"]["gamma_k_observed_disorder"], abs=1e-6)


@pytest.mark.parametrize("sampler", ["statistical", "shuffle"])
@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_expected_disorder_within_sampling_error_of_pygamma(case: dict[str, Any], sampler: str) -> None:
    res = GAMMA.compute([case_units(case)], case_params(case, samples=120, seed=11, sampler=sampler))
    theirs = np.concatenate([r["sample_disorders"] for r in case["pygamma"]["samplers"][sampler]])
    mine = np.array(res.to_dict()["sample_disorders"])
    se = np.sqrt(mine.var(ddof=1) / mine.size + theirs.var(ddof=1) / theirs.size)
    assert abs(mine.mean() - theirs.mean()) <= 3.5 * se
    assert res.expected_disorder == pytest.approx(mine.mean())
    assert res.value == pytest.approx(1 - res.observed_disorder / res.expected_disorder)


RANDOM = [["A", 0, 5, "x"], ["A", 6, 9, "y"], ["B", 0.5, 5, "x"], ["B", 6, 10, "x"], ["C", 1, 4, "x"], ["C", 7, 9, "y"]]


def test_pygamma_ignores_delta_empty_in_the_categorical_term() -> None:
    """segagree follows the definition d_cat = [differs] · delta_empty, which pygamma's alignment does not."""
    case = next(c for c in CASES if c["name"] == "r3x6_params")
    assert case["params"]["delta_empty"] != 1
    ours = GAMMA.compute([case_units(case)], {**case["params"], "samples": 1})
    assert ours.observed_disorder < case["pygamma"]["observed_disorder"] - 1e-3


def test_identical_annotations_give_one() -> None:
    units = unit_set([[a, s, e, c] for a in "ABC" for _, s, e, c in RANDOM[:2]])
    res = GAMMA.compute([units], {"samples": 5})
    assert res.observed_disorder == 0.0 and res.value == 1.0
    assert GAMMA_CAT.compute([units], {"samples": 5}).value == 1.0


def test_annotator_order_does_not_matter() -> None:
    units = unit_set(RANDOM)
    reordered = unit_set(RANDOM[::-1], ["C", "B", "A"])
    for sampler in ("statistical", "shuffle"):
        a = GAMMA.compute([units], {"samples": 60, "seed": 4, "sampler": sampler})
        b = GAMMA.compute([reordered], {"samples": 60, "seed": 4, "sampler": sampler})
        assert a.observed_disorder == pytest.approx(b.observed_disorder, abs=1e-12)
        se = np.hypot(*(np.std(r.sample_disorders, ddof=1) / np.sqrt(60) for r in (a, b)))
        assert abs(a.expected_disorder - b.expected_disorder) <= 3.5 * se


def test_seed_reproduces_and_jobs_do_not_change_digits() -> None:
    units = unit_set(RANDOM)
    one = GAMMA.compute([units], {"samples": 8, "seed": 21, "sampler": "shuffle"}).to_dict()
    again = GAMMA.compute([units], {"samples": 8, "seed": 21, "sampler": "shuffle", "jobs": 2}).to_dict()
    other = GAMMA.compute([units], {"samples": 8, "seed": 22, "sampler": "shuffle"}).to_dict()
    assert one == again
    assert one["sample_disorders"] != other["sample_disorders"]


def test_result_json_carries_the_alignment() -> None:
    units = unit_set(RANDOM)
    out = GAMMA.compute([units], {"samples": 6, "seed": 1}).to_dict()
    assert {"value", "observed_disorder", "expected_disorder", "standard_error", "interval", "samples", "seed"} <= set(
        out
    )
    groups = out["alignment"]["groups"]
    rows = sorted(r for g in groups for r in g["units"] if r is not None)
    assert rows == list(range(len(RANDOM)))
    total = sum(g["disorder"] for g in groups) / (len(RANDOM) / 3)
    assert total == pytest.approx(out["observed_disorder"])
    lo, hi = out["interval"]
    assert lo <= out["value"] <= hi


def test_gamma_cat_variants_on_one_category_with_unmatched_units() -> None:
    """Mathet 2018: one category means no categorical disagreement; pygamma's extra term says otherwise."""
    units = unit_set([["A", 0, 4, "x"], ["A", 10, 12, "x"], ["B", 0.5, 4, "x"], ["C", 0, 3.5, "x"]])
    assert GAMMA_CAT.compute([units], {"samples": 5}).value == 1.0
    pg = GAMMA_CAT.compute([units], {"samples": 5, "gamma_cat_variant": "pygamma"})
    assert pg.observed_disorder > 0 and pg.value != 1.0
    assert GAMMA_K.compute([units], {"samples": 5}).value == {"x": 1.0}


def test_pooled_items_add_their_sums() -> None:
    a, b = unit_set(RANDOM), unit_set(RANDOM[:4], ["A", "B", "C"])
    ra, rb = (GAMMA.compute([u], {"samples": 4, "seed": 2}) for u in (a, b))
    pooled = GAMMA.compute([a, b], {"samples": 4, "seed": 2})
    sums = [sum(g["disorder"] for g in r.to_dict()["alignment"]["groups"]) for r in (ra, rb)]
    assert pooled.observed_disorder == pytest.approx(sum(sums) / (6 / 3 + 4 / 3))


def test_not_applicable_with_one_annotator() -> None:
    res = GAMMA.compute([unit_set([["A", 0, 1, "x"]])], {})
    assert isinstance(res, NotApplicableResult) and res.value is None


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(UsageError, match="sampler"):
        GAMMA.compute([unit_set(RANDOM)], {"sampler": "nope"})
    with pytest.raises(UsageError, match="delta_empty"):
        GAMMA.compute([unit_set(RANDOM)], {"delta_empty": -1})


def test_reversed_or_nan_times_are_refused() -> None:
    with pytest.raises(InputError, match="unit 1 .*'B'"):
        GAMMA.compute([unit_set([["A", 0, 1, "x"], ["B", 2, 1, "x"]])], {"samples": 2})
    with pytest.raises(InputError, match="finite"):
        GAMMA.compute([unit_set([["A", 0, float("nan"), "x"], ["B", 0, 1, "x"]])], {"samples": 2})


def test_gamma_k_pools_items_with_different_categories() -> None:
    a = unit_set([["A", 0, 4, "x"], ["B", 0.5, 4, "x"], ["C", 0, 3.5, "x"]])
    b = unit_set([["A", 0, 4, "y"], ["B", 0.5, 4, "z"], ["C", 0, 3.5, "y"]])
    pooled = GAMMA_K.compute([a, b], {"samples": 4, "seed": 1})
    alone = GAMMA_K.compute([a], {"samples": 4, "seed": 1})
    assert set(pooled.value) == {"x", "y", "z"}
    assert pooled.observed_disorder["x"] == pytest.approx(alone.observed_disorder["x"])
    assert pooled.observed_disorder["z"] == pytest.approx(1.0)  # z only ever faces y


def test_point_units_do_not_hang_the_samplers() -> None:
    units = unit_set([["A", 1, 1, "x"], ["A", 3, 3, "x"], ["B", 1, 1, "x"], ["B", 3.5, 3.5, "x"]])
    for sampler in ("statistical", "shuffle"):
        res = GAMMA.compute([units], {"samples": 5, "seed": 1, "sampler": sampler})
        assert res.observed_disorder == pytest.approx(1.0)  # 3 vs 3.5: never grouped; 1 vs 1: a perfect pair


def test_category_statistics_total_sums_each_category_in_order() -> None:
    """CatStats.total (and ``+``): each category's slot is the sum of the items' values for it, added in
    the items' order, float for float; items with other categories, in another order, and items gamma does
    not apply to (their reasons only)."""
    from functools import reduce

    from segagree.metrics.unitizing.gamma import CatStats
    from segagree.metrics.unitizing.gamma_cat import CategoryParts

    rng = np.random.default_rng(4)

    def parts(k: int) -> CategoryParts:
        return CategoryParts(*(rng.random(k + 1) * 10.0 ** rng.integers(-3, 4) for _ in range(4)))

    items = []
    for cats in [("b", "a"), ("a",), ("c", "a", "b"), None, ("a", "b"), ("d",)]:
        if cats is None:
            items.append(CatStats(reasons=("no units",)))
        else:
            items.append(CatStats(cats, parts(len(cats)), tuple(parts(len(cats)) for _ in range(5)), ("r",)))
    total = CatStats.total(items)
    assert total.categories == ("b", "a", "c", "d")
    assert total.reasons == ("r", "r", "r", "no units", "r", "r")
    present = [it for it in items if it.observed is not None]
    for k, got in enumerate((total.observed, *total.sampled)):
        for name in ("num", "den", "unit_pairs", "any_pairs"):
            for slot, category in enumerate(("", *total.categories)):  # slot 0: gamma-cat, every item
                expected = 0.0
                for it in present:
                    part = (it.observed, *it.sampled)[k]
                    if slot == 0 or category in it.categories:
                        where = 0 if slot == 0 else 1 + it.categories.index(category)
                        expected += float(getattr(part, name)[where])
                assert getattr(got, name)[slot] == expected
    folded = reduce(lambda a, b: a + b, items)
    assert folded.categories == total.categories and np.array_equal(folded.observed.num, total.observed.num)
    alone = [CatStats(reasons=("x",)), CatStats(reasons=("y",))]
    assert CatStats.total(alone).observed is None and CatStats.total(alone).reasons == ("x", "y")


def test_the_signature_names_the_gamma_cat_variant_in_use() -> None:
    us = make_unit_set(
        [(0, 0.0, 1.0, "x"), (0, 2.0, 3.0, "x"), (1, 0.0, 1.0, "x"), (1, 5.0, 6.0, "x")], ("A", "B"), (0.0, 6.0)
    )
    for variant in ("mathet", "pygamma"):
        params = {"samples": 5, "gamma_cat_variant": variant}
        sig = get_measure("gamma_cat").compute([us], params).to_dict()["signature"]
        assert sig.startswith(f"gamma_cat|variant:{variant}|alpha:1|beta:1|") and "|samples:5|" in sig
    assert "variant" not in get_measure("gamma").compute([us], {"samples": 5}).to_dict()["signature"]
