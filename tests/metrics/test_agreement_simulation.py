"""The kappa simulation's internals: joint draws, the events scorer, the compiled kernel and the
Monte Carlo stopping rule (tests/metrics/test_agreement_kappa.py checks the statistics end to end)."""

from __future__ import annotations

import numpy as np
import pytest

import segagree.metrics.chance.sf_kappa as agr
from segagree.metrics.chance.sf_kappa import score_pairs, sf_kappa
from segagree.model.scheme import builtin_scheme

SCHEMES = ["dubois", "lai2023", "subtitle"]


def _probs(rng: np.random.Generator, k: int, p0: float) -> np.ndarray:
    rest = rng.dirichlet(np.ones(k - 1)) * (1 - p0)
    return np.concatenate(([p0], rest))


def _dense(cells: agr._Cells, u: np.ndarray, rows: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    ev, cell = cells.events(u)
    a = np.zeros(rows * n, dtype=np.int64)
    b = np.zeros(rows * n, dtype=np.int64)
    a[ev], b[ev] = cells.x[cell], cells.y[cell]
    return a.reshape(rows, n), b.reshape(rows, n)


def test_cells_are_the_inverse_cdf_of_the_joint_distribution() -> None:
    """Every draw's cell is the first whose threshold exceeds it (checked by searchsorted), and
    cell frequencies match p_a(x) p_b(y) within 5 standard errors."""
    tab = agr._Tables(builtin_scheme("dubois"))
    rng = np.random.default_rng(3)
    pa, pb = _probs(rng, 6, 0.7), _probs(rng, 6, 0.8)
    cells = agr._Cells(pa, pb, tab)
    u = agr._draw_u32(np.random.default_rng(4), 2_000_000)
    ev, cell = cells.events(u)
    full = np.searchsorted(cells.upper, u.astype(np.uint64), side="right")
    assert np.array_equal(np.flatnonzero(full != 0), ev)
    assert np.array_equal(full[ev], cell)
    freq = np.bincount(full, minlength=36) / u.size
    joint = np.outer(pa, pb).ravel()
    se = np.sqrt(joint * (1 - joint) / u.size)
    assert np.all(np.abs(freq - joint) < 5 * se + 1e-12)


def test_degenerate_distributions() -> None:
    tab = agr._Tables(builtin_scheme("dubois"))
    none = np.array([1.0, 0, 0, 0, 0, 0])
    cells = agr._Cells(none, none, tab)
    ev, _ = cells.events(agr._draw_u32(np.random.default_rng(1), 1000))
    assert ev.size == 0
    only = np.array([0, 0, 1.0, 0, 0, 0])
    cells = agr._Cells(only, only, tab)
    ev, cell = cells.events(agr._draw_u32(np.random.default_rng(1), 1000))
    assert ev.size == 1000 and np.all(cells.x[cell] == 2) and np.all(cells.y[cell] == 2)


@pytest.mark.parametrize("name", SCHEMES)
@pytest.mark.parametrize("p0", [0.5, 0.83, 0.97])
def test_block_scorer_equals_score_pairs_on_the_same_draws(name: str, p0: float, monkeypatch) -> None:
    """The events scorer (numpy path and compiled kernel) gives exactly score_pairs' numbers,
    which tests/metrics/test_agreement_kappa.py checks against sf_speaker."""
    scheme = builtin_scheme(name)
    tab = agr._Tables(scheme)
    rng = np.random.default_rng(int(p0 * 100) + len(name))
    k = scheme.n_codes
    cells = agr._Cells(_probs(rng, k, p0), _probs(rng, k, p0), tab)
    rows, n = 40, 300
    a, b = _dense(cells, agr._draw_u32(np.random.default_rng(9), rows * n), rows, n)
    ref_cost, ref_edits = score_pairs(list(a), list(b), scheme)
    for kernel in (False, True):
        monkeypatch.setattr(agr, "_USE_KERNEL", kernel)
        rng_again = np.random.default_rng(9)
        cost, edits = agr._score_block(rng_again, cells, rows, n, tab, "optimal", True, agr._BlockCache(tab))
        assert np.array_equal(edits, ref_edits), kernel
        assert np.allclose(cost, ref_cost, rtol=0, atol=1e-9), kernel


def test_compiled_kernel_is_bit_identical_to_numpy(monkeypatch) -> None:
    pytest.importorskip("numba")
    rng = np.random.default_rng(5)
    p = [0.75, 0.1, 0.07, 0.02, 0.02, 0.04]
    a = {"S1": rng.choice(6, 700, p=p), "S2": rng.choice(6, 300, p=p)}
    b = {"S1": rng.choice(6, 700, p=p), "S2": rng.choice(6, 300, p=p)}
    out = {}
    for kernel in (False, True):
        monkeypatch.setattr(agr, "_USE_KERNEL", kernel)
        out[kernel] = sf_kappa(a, b, sims=300, seed=7)
    assert np.array_equal(out[False].sim_cost, out[True].sim_cost)
    assert np.array_equal(out[False].sim_edits, out[True].sim_edits)


def test_mc_tolerance_stops_early_and_reports_it() -> None:
    rng = np.random.default_rng(6)
    p = [0.8, 0.08, 0.06, 0.01, 0.01, 0.04]
    a = {"S1": rng.choice(6, 2000, p=p)}
    b = {"S1": np.where(rng.random(2000) < 0.2, rng.choice(6, 2000, p=p), a["S1"])}
    full = sf_kappa(a, b, sims=1000, seed=3)
    assert not full.stopped_early and full.n_simulations_used == 1000 and full.mc_tolerance is None
    tol = 2 * max(full.pooled["sf"].se, full.pooled["sf_b"].se)  # reached after about 250 sims
    short = sf_kappa(a, b, sims=1000, seed=3, mc_tolerance=tol)
    assert short.stopped_early and short.n_simulations_used < 1000
    assert short.n_simulations_used % agr.SIM_BLOCK == 0
    assert max(short.pooled["sf"].se, short.pooled["sf_b"].se) <= tol
    # the simulations used are the first ones of the full run (same streams)
    assert np.array_equal(short.sim_cost, full.sim_cost[:, : short.n_simulations_used])
    d = short.to_dict()
    assert d["stopped_early"] is True and d["n_simulations_used"] == short.n_simulations_used
    assert d["mc_tolerance"] == tol and d["sims"] == 1000
    assert f"tol:{tol:g}" in short.signature
    never = sf_kappa(a, b, sims=500, seed=3, mc_tolerance=1e-12)
    assert not never.stopped_early and never.n_simulations_used == 500


def test_mc_tolerance_must_be_positive() -> None:
    from segagree.errors import UsageError

    with pytest.raises(UsageError, match="mc_tolerance"):
        sf_kappa({"S": [0, 1]}, {"S": [1, 0]}, sims=10, mc_tolerance=0)


def test_an_interrupt_inside_the_kernel_is_raised_as_itself() -> None:
    """A signal handler's exception pending when a compiled kernel returns comes back from
    Python as a SystemError caused by it; the simulation re-raises the original."""

    class Interrupted(Exception):
        pass

    def kernel() -> None:
        try:
            raise Interrupted("stop")
        except Interrupted as inner:
            raise SystemError("returned a result with an exception set") from inner

    with pytest.raises(Interrupted):
        agr._interruptible(kernel)

    def broken() -> None:
        raise SystemError("a real one")

    with pytest.raises(SystemError, match="a real one"):
        agr._interruptible(broken)


def test_long_blocks_without_a_transposition_limit_equal_score_pairs(monkeypatch) -> None:
    """With transposition cost 0 a block runs from anchor to anchor, however far: blocks longer
    than the compiled kernel's reused scratch (its own-scratch branch) give score_pairs' numbers."""
    import dataclasses

    from segagree.metrics.chance import kernels as _kernels

    base = builtin_scheme("dubois")
    scheme = dataclasses.replace(base, transposition=np.zeros(base.n_codes))
    tab = agr._Tables(scheme)
    p = np.array([0.95] + [0.05 / (scheme.n_codes - 1)] * (scheme.n_codes - 1))
    cells = agr._Cells(p, p, tab)
    rows, n = 6, 20000
    a, b = _dense(cells, agr._draw_u32(np.random.default_rng(9), rows * n), rows, n)
    largest = 0
    for r in range(rows):
        anchors = np.concatenate(([-1], np.flatnonzero((a[r] != 0) & (b[r] != 0)), [n]))
        for lo, hi in zip(anchors[:-1], anchors[1:], strict=True):
            n_a, n_b = np.count_nonzero(a[r][lo + 1 : hi]), np.count_nonzero(b[r][lo + 1 : hi])
            largest = max(largest, (n_a + 1) * (n_b + 1))
    assert largest > _kernels._SCRATCH  # the draws do reach the long-block branch
    ref_cost, ref_edits = score_pairs(list(a), list(b), scheme)
    for kernel in (False, True):
        monkeypatch.setattr(agr, "_USE_KERNEL", kernel)
        cost, edits = agr._score_block(
            np.random.default_rng(9), cells, rows, n, tab, "optimal", True, agr._BlockCache(tab)
        )
        assert np.array_equal(edits, ref_edits), kernel
        assert np.allclose(cost, ref_cost, rtol=0, atol=1e-9), kernel
