"""The panel's reading of a machine: one rank (labelled with what it ranks), the verdict, and the
word when the humans agree at or below chance; every count of humans (2, 3, 4) on every panel."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from segagree.metrics.chance.panel import panel_statistics
from segagree.metrics.chance.panel_verdict import read_machine

QUICK = {"n_boot": 30, "n_perm": 8}


def _masses(presence: list[bool]) -> tuple[int, ...]:
    edges = [0] + [i + 1 for i, p in enumerate(presence) if p] + [len(presence) + 1]
    return tuple(b - a for a, b in itertools.pairwise(edges))


def _dataset(n_humans: int, seed: int = 3) -> dict:
    """Humans who copy a shared segmentation with a few changes each, a machine with more."""
    rng = np.random.default_rng(seed)
    out: dict = {}
    for i in range(5):
        truth = rng.random(40) < 0.2
        out[f"t{i}"] = {}
        for c in [f"h{k}" for k in range(n_humans)] + ["m"]:
            flips = rng.random(40) < (0.3 if c == "m" else 0.08)
            presence = (truth ^ flips).tolist()
            presence[0] = True  # every coding has a boundary
            out[f"t{i}"][c] = _masses(presence)
    return out


def _consistency(machine: float, humans: dict[str, float]) -> dict:
    rank = 1 + sum(v >= machine for v in humans.values())
    return {"machine": machine, "humans": humans, "rank": rank, "of": len(humans) + 1}


def test_the_verdict_and_the_rank_read_the_same_value() -> None:
    cons = _consistency(0.9, {"a": 0.5, "b": 0.6, "c": 0.7})  # first by consistency
    ci = {"low": -0.2, "high": 0.0}
    r = read_machine(-0.1, ci, [0.01, 0.02, 0.03], cons, coefficient="pi", humans_value=0.5, humans_chance=0.1)
    # three humans: ranked by change (last of 4), not by consistency (first)
    assert r["rank"] == {"rank": 4, "of": 4, "by": "change", "low": 0.01, "high": 0.03}
    assert r["verdict"].startswith("below the human range: rank 4 of 4 by change; change -0.100 [-0.200, +0.000]")
    assert not r["humans_at_chance"] and "chance" not in r["verdict"]
    two = read_machine(None, None, [], _consistency(0.65, {"a": 0.6, "b": 0.6}), coefficient="pi",
                       humans_value=0.5, humans_chance=0.1)  # fmt: skip
    assert two["rank"] == {"rank": 1, "of": 3, "by": "consistency", "low": 0.6, "high": 0.6}
    assert two["verdict_code"] == "above" and "rank 1 of 3 by consistency" in two["verdict"]


@pytest.mark.parametrize(("humans", "chance", "said"), [(0.10, 0.20, True), (0.20, 0.20, True), (0.21, 0.20, False)])
def test_humans_at_or_below_chance_are_said(humans: float, chance: float, said: bool) -> None:
    r = read_machine(
        0.0, {"low": -0.1, "high": 0.1}, [-0.05, 0.05], _consistency(0.5, {"a": 0.5, "b": 0.5}),
        coefficient="pi", humans_value=humans, humans_chance=chance,
    )  # fmt: skip
    assert r["verdict_code"] == "within" and r["humans_at_chance"] is said
    assert ("agree at or below chance (pi " in r["verdict"]) is said
    if said:
        assert f"pi {humans:.3f}, chance {chance:.3f}" in r["verdict"]


@pytest.mark.parametrize("n_humans", [2, 3, 4])
def test_every_count_of_humans_gives_one_labelled_rank(n_humans: int) -> None:
    r = panel_statistics(_dataset(n_humans), ["m"], **QUICK).results["m"]
    by = "change" if n_humans >= 3 else "consistency"
    assert r["rank"]["by"] == by and r["rank"]["of"] == n_humans + 1
    assert f"rank {r['rank']['rank']} of {n_humans + 1} by {by}" in r["verdict"]
    if by == "change":
        assert r["rank"]["rank"] == r["human_changes"]["rank"]
    else:
        assert r["rank"]["rank"] == r["consistency"]["rank"]
        assert all(h["change"] is None for h in r["human_changes"]["per_human"].values())
    assert r["chance"]["humans_mean"] is not None


def test_humans_who_disagree_below_chance_get_a_word() -> None:
    # Two humans whose boundaries never coincide, nor lie next to each other: B gives no credit,
    # random panels with the same counts do.
    ds = {}
    for i in range(4):
        a = [j % 6 == 0 for j in range(59)]
        b = [j % 6 == 3 for j in range(59)]
        m = [j % 5 == 0 for j in range(59)]
        ds[f"t{i}"] = {"a": _masses(a), "b": _masses(b), "m": _masses(m)}
    r = panel_statistics(ds, ["m"], **QUICK).results["m"]
    assert r["added"]["humans"] < r["chance"]["humans_mean"]
    assert r["humans_at_chance"] and "the humans themselves agree at or below chance" in r["verdict"]
