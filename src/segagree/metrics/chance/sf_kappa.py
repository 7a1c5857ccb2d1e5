"""Chance-corrected agreement for S_f and S_f^B: kappa by simulation (or exactly), per speaker
and pooled.

Lai, Li & Zhang (2023, SCiL, section 5) correct S_f and S_f^B for chance the way Cohen (1960)
corrects raw agreement, with the chance agreement estimated by simulation::

    kappa = (S_obs - E[S_chance]) / (1 - E[S_chance])

where ``S_chance`` is the similarity of two *random* annotations of the same token streams,
each position drawn independently (i.i.d.) from a chance distribution over the scheme's codes
(0 = no boundary, 1..T typed, T+1 unclassified). Artstein & Poesio (2008) describe the
distributions; here:

* ``cohen``: each annotator's own distribution (Cohen's kappa). Per-speaker kappa uses that
  speaker's distributions; the *pooled* kappa simulates every speaker from that speaker's own
  distributions (per annotator) and pools the simulated statistics like the observed ones
  (summed cost over summed tokens / edits). With one speaker both coincide.
* ``scott``: one distribution per speaker, pooled over both annotators (Scott's pi).
* ``bennett``: uniform over all codes including "none" (Bennett, Alpert & Goldstein's S).
* ``bennett_modified``: P(none) pooled over both annotators (per speaker), the rest spread
  evenly over every boundary code (typed and unclassified).
* ``segsimflex``: the R reference's ``IAA()`` model, quirks kept: for *every* speaker, each
  annotator's codes are drawn from the counts of the **last speaker in sorted order**, with
  the reference's off-by-one: in its symbol order (typed, unclassified, none) the first
  symbol with a non-zero count has probability ``(count - 1) / (num - 1)`` and every other
  ``count / (num - 1)`` (``num`` = that speaker's tokens). Simulations are always scored
  *with* transpositions (the observed value follows ``transpositions``). Pooled kappa only.

Positions are drawn i.i.d.: a simulated stream need not end with a boundary (the reference
does the same, and it is the usual reading of the paper). Each simulated pair is scored by the
exact S_f engine of :mod:`segagree.metrics.boundary.sf` (``mode="optimal"`` uses a batched, vectorised
implementation of the same alignment, :func:`score_pairs`, tested against
:func:`~segagree.metrics.boundary.sf.sf_speaker`; ``mode="segsimflex"`` calls ``sf_speaker``).

Monte Carlo error: with K simulations, chance mean ``m`` and standard deviation ``s``
(ddof = 1) of the simulated similarity, the standard error of kappa is
``(1 - S_obs) / (1 - m)^2 * s / sqrt(K)`` (delta method, as in the segsimflex notes).

Reproducibility: simulations come in blocks of :data:`SIM_BLOCK`; block ``j`` of speaker
``i`` (speakers in sorted order) draws annotator A from
``SeedSequence(seed).spawn(n_speakers)[i].spawn(n_blocks)[j].spawn(2)[0]`` and B from
``[1]``. The numbers therefore depend only on (seed, K, input), not on ``jobs`` or on how the
work is batched, and the first K' simulations of a K-run are those of a K'-run.

Exact expectation (``chance_method="exact"``, only without transpositions): positions are
independent, so ``E[cost] = sum_s n_s * sum_{x,y} p_a(x) p_b(y) (1 - M[x, y])`` and
``E[S_f] = 1 - E[cost] / N``; the per-draw standard deviation follows from the per-position
variance. S_f^B = 1 - cost/edits is a ratio of random quantities with no simple closed form:
its exact kappa is reported as unavailable (``None`` with a reason).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.errors import MismatchError, UsageError
from segagree.metrics.boundary.costs import EPS, CostTable
from segagree.metrics.boundary.sf import SF_NAMES, SfResult, SfStats, check_mode, sf, sf_speaker
from segagree.metrics.boundary.stats import signature
from segagree.metrics.chance.models import CHANCE_MODELS, DEFAULT_CHANCE, DEFAULT_SIMS
from segagree.model.scheme import BoundaryScheme, builtin_scheme

__all__ = [
    "CHANCE_MODELS",
    "SIM_BLOCK",
    "KappaEstimate",
    "SfKappaResult",
    "chance_distributions",
    "score_pairs",
    "sf_kappa",
]

SIM_BLOCK = 250
"""Simulations per random stream (fixed, so the numbers do not depend on ``jobs``)."""
_BATCH_TOKENS = 2_500_000  # tokens scored at once by the batched scorer (speed vs memory)
_EPS = EPS  # the aligners' tie rule (metrics.boundary.costs)
_SF, _SF_B = SF_NAMES  # the similarities kappa corrects, as keys of the estimates


# --- results ---------------------------------------------------------------------------------


@dataclass
class KappaEstimate:
    """Kappa of one similarity (``sf`` or ``sf_b``) for one speaker or pooled.

    Attributes:
        metric: ``sf`` or ``sf_b``.
        observed: the observed similarity S_obs.
        chance_mean: mean chance similarity m (exact expectation with ``method="exact"``).
        chance_sd: standard deviation of the chance similarity per simulated pair (ddof 1), or the
            exact per-draw value; None with K = 1.
        kappa: ``(S_obs - m) / (1 - m)``; None when undefined (see ``reason``).
        se: Monte Carlo standard error of kappa ``(1 - S_obs) / (1 - m)^2 * sd / sqrt(K)``
            (0 for the exact method); None when undefined.
        reason: why a value is missing, else None.
    """

    metric: str
    observed: float
    chance_mean: float | None
    chance_sd: float | None
    kappa: float | None
    se: float | None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (NaN written as None)."""
        return {k: _clean(v) for k, v in self.__dict__.items()}


@dataclass
class SfKappaResult:
    """Simulated (or exact) kappa of S_f and S_f^B, pooled and per speaker.

    Attributes:
        pooled: ``{sf: KappaEstimate, sf_b: KappaEstimate}`` for the pooled similarity.
        per_speaker: speaker -> the same, chance estimated from that speaker (empty for the
            ``segsimflex`` model and with ``per_speaker=False``).
        chance: the chance model; method: ``"simulation"`` or ``"exact"``.
        K: simulations used (None for exact); seed: the seed (None for exact).
        sims: simulations asked for; mc_tolerance: the Monte Carlo tolerance asked for (None:
            all ``sims`` run); stopped_early: True when the tolerance was met before ``sims``.
        mode, transpositions, scheme: how S_f was scored.
        speakers: speakers in sorted order (rows of the arrays below).
        observed: speaker -> observed :class:`SfStats`.
        sim_cost, sim_edits: ``(n_speakers, K)`` cost and edits of every simulated pair (empty
            for exact); the sufficient statistics for pooling and bootstrapping.
        n_tokens: ``(n_speakers,)`` tokens per speaker.
        distributions: speaker -> ``{"a": probs, "b": probs}`` over codes 0..k-1 actually used.
    """

    pooled: dict[str, KappaEstimate]
    per_speaker: dict[str, dict[str, KappaEstimate]]
    chance: str
    method: str
    K: int | None
    seed: int | None
    mode: str
    transpositions: bool
    scheme: BoundaryScheme
    speakers: list[str]
    observed: dict[str, SfStats]
    sim_cost: np.ndarray = field(repr=False)
    sim_edits: np.ndarray = field(repr=False)
    n_tokens: np.ndarray = field(repr=False)
    distributions: dict[str, dict[str, list[float]]] = field(default_factory=dict, repr=False)
    sims: int | None = None
    mc_tolerance: float | None = None
    stopped_early: bool = False

    @property
    def n_simulations_used(self) -> int | None:
        """The simulations the estimates come from (K; fewer than ``sims`` when stopped early)."""
        return self.K

    @property
    def signature(self) -> str:
        """sacrebleu-style description of the computation."""
        params: dict[str, Any] = {"chance": self.chance, "method": "sim" if self.method == "simulation" else "exact"}
        if self.method == "simulation":
            params.update(K=self.K, seed=self.seed)
            if self.mc_tolerance is not None:
                params.update(tol=f"{self.mc_tolerance:g}")
        params.update(mode=self.mode, trans=self.transpositions, scheme=f"{self.scheme.name}@{self.scheme.digest}")
        return signature("kappa", **params)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: pooled and per-speaker estimates, settings, signature."""
        return {
            "pooled": {k: v.to_dict() for k, v in self.pooled.items()},
            "per_speaker": {s: {k: v.to_dict() for k, v in d.items()} for s, d in self.per_speaker.items()},
            "chance": self.chance,
            "method": self.method,
            "K": self.K,
            "n_simulations_used": self.K,
            "sims": self.sims,
            "mc_tolerance": self.mc_tolerance,
            "stopped_early": self.stopped_early,
            "seed": self.seed,
            "mode": self.mode,
            "transpositions": self.transpositions,
            "distributions": self.distributions,
            "signature": self.signature,
        }


def _clean(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


# --- chance distributions ----------------------------------------------------------------------


def _counts(x: np.ndarray, k: int) -> np.ndarray:
    return np.bincount(x, minlength=k).astype(float)


def _segsimflex_probs(counts: np.ndarray) -> np.ndarray:
    """The reference's draw ``floor(runif(1, 1, num))`` mapped through ``c(1, cumsum(counts))``,
    in its symbol order (codes 1..k-1, then 0): probabilities by code."""
    k = counts.size
    order = list(range(1, k)) + [0]
    c = counts[order]
    num = c.sum()
    if num < 2:
        raise UsageError("the segsimflex chance model needs at least 2 tokens for the last speaker")
    p = c / (num - 1)
    first = int(np.flatnonzero(c > 0)[0])
    p[first] = (c[first] - 1) / (num - 1)
    out = np.empty(k)
    out[order] = p
    return out


def chance_distributions(
    a: Mapping[str, np.ndarray], b: Mapping[str, np.ndarray], n_codes: int, chance: str
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per speaker, the distributions over codes ``0..n_codes-1`` from which annotator A's and
    B's random annotations are drawn under ``chance`` (see the module docstring)."""
    if chance not in CHANCE_MODELS:
        raise UsageError(f"unknown chance model {chance!r}; expected one of {list(CHANCE_MODELS)}")
    k = n_codes
    speakers = sorted(a)
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    if chance == "segsimflex":
        last = speakers[-1]
        pa = _segsimflex_probs(_counts(a[last], k))
        pb = _segsimflex_probs(_counts(b[last], k))
        return {s: (pa, pb) for s in speakers}
    for s in speakers:
        ca, cb = _counts(a[s], k), _counts(b[s], k)
        n = max(ca.sum(), 1.0)
        if chance == "cohen":
            pa, pb = ca / n, cb / n
        elif chance == "scott":
            pa = pb = (ca + cb) / (2 * n)
        elif chance == "bennett":
            pa = pb = np.full(k, 1.0 / k)
        else:  # bennett_modified
            p0 = (ca[0] + cb[0]) / (2 * n)
            pa = np.full(k, (1.0 - p0) / (k - 1)) if k > 1 else np.zeros(k)
            pa[0] = p0
            pb = pa
        out[s] = (pa, pb)
    return out


# --- the batched exact scorer --------------------------------------------------------------------


class _Tables(CostTable):
    """Cost tables of a scheme (:class:`~segagree.metrics.boundary.costs.CostTable`), flattened for the
    batched scorer; ``dmax``: the longest distance a pair can span (the table's ``reach``)."""

    def __init__(self, scheme: BoundaryScheme):
        super().__init__(scheme)
        self.c_flat = self.c.ravel().copy()
        self.dmax = self.reach


def _bucket(n: np.ndarray) -> np.ndarray:
    """Block sizes rounded up to 1, 2, 3, 4, 6, 8, 12, 16, 24, ... (few distinct DP shapes)."""
    out = n.copy()
    big = n > 4
    if big.any():
        v = n[big].astype(float)
        p2 = 2.0 ** np.floor(np.log2(v))
        cand = np.where(v <= p2, p2, np.where(v <= 1.5 * p2, 1.5 * p2, 2 * p2))
        out[big] = cand.astype(n.dtype)
    return out


def _block_dp(
    tab: _Tables,
    pa: np.ndarray,
    xa: np.ndarray,
    va: np.ndarray,
    pb: np.ndarray,
    yb: np.ndarray,
    vb: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Minimum-cost order-preserving pairing for ``m`` blocks at once (padded to P x Q items;
    padding has ``va``/``vb`` False: free to skip, no edit, never paired). Same moves, order and
    tie rule as :func:`segagree.metrics.boundary.sf._align_block`. Returns cost and edits per block."""
    m, P = pa.shape
    Q = pb.shape[1]
    da = np.where(va, tab.dele[xa], 0.0).T.copy()  # (P, m)
    ea = va.astype(np.int64).T.copy()
    ib = np.where(vb, tab.ins[yb], 0.0).T.copy()  # (Q, m)
    eb = vb.astype(np.int64).T.copy()
    d = pa[:, :, None] - pb[:, None, :]
    t_later = np.where(d > 0, tab.trans[xa][:, :, None], tab.trans[yb][:, None, :])
    pc = t_later * np.abs(d) + tab.c[xa[:, :, None], yb[:, None, :]]
    ok = pc < np.where(va, tab.dele[xa], 0.0)[:, :, None] + np.where(vb, tab.ins[yb], 0.0)[:, None, :] - _EPS
    ok &= va[:, :, None] & vb[:, None, :]
    pc = np.where(ok, pc, np.inf).transpose(1, 2, 0).copy()  # (P, Q, m)
    # cost[i + 1, j + 1] is the DP value of (i, j); row/column 0 is an infinite sentinel.
    cost = np.full((P + 2, Q + 2, m), np.inf)
    edits = np.zeros((P + 2, Q + 2, m), dtype=np.int64)
    cost[1, 1] = 0.0
    # Anti-diagonal i + j = s depends only on diagonals s - 1 and s - 2: one vector step each.
    for s_ in range(1, P + Q + 1):
        i = np.arange(max(0, s_ - Q), min(P, s_) + 1)
        j = s_ - i
        bc = cost[i, j + 1] + da[i - 1]
        be = edits[i, j + 1] + ea[i - 1]
        cc = cost[i + 1, j] + ib[j - 1]
        ee = edits[i + 1, j] + eb[j - 1]
        take = (cc < bc - _EPS) | ((cc <= bc + _EPS) & (ee > be))
        bc = np.where(take, cc, bc)
        be = np.where(take, ee, be)
        cc = cost[i, j] + pc[i - 1, j - 1]
        ee = edits[i, j] + 1
        take = (cc < bc - _EPS) | ((cc <= bc + _EPS) & (ee > be))
        cost[i + 1, j + 1] = np.where(take, cc, bc)
        edits[i + 1, j + 1] = np.where(take, ee, be)
    return cost[P + 1, Q + 1], edits[P + 1, Q + 1]


def _score_flat(
    a: np.ndarray, b: np.ndarray, lens: np.ndarray, tab: _Tables, mode: str, transpositions: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Cost and edits of ``len(lens)`` pairs laid end to end in ``a`` and ``b`` (optimal mode,
    or any mode without transpositions)."""
    r_n = lens.size
    starts = np.concatenate(([0], np.cumsum(lens)[:-1])).astype(np.int64)
    k = tab.c.shape[0]
    nza, nzb = a != 0, b != 0
    cost = np.add.reduceat(tab.c_flat[a * k + b], starts)
    if not transpositions and mode == "segsimflex":
        return cost, np.add.reduceat((a != b).astype(np.int64), starts)
    edits = np.add.reduceat((nza | nzb).astype(np.int64), starts)
    if not transpositions:
        return cost, edits
    idx = np.flatnonzero(nza ^ nzb)
    if idx.size < 2:
        return cost, edits
    r = np.searchsorted(starts, idx, side="right") - 1
    isb = nzb[idx]
    typ = np.where(isb, b[idx], a[idx])
    anc = np.searchsorted(np.flatnonzero(nza & nzb), idx)  # anchors before each item
    d_cost, d_edits = _transpositions(r, idx - starts[r], isb, typ, anc, tab, r_n, _BlockCache(tab))
    return cost + d_cost, edits + d_edits


_USE_KERNEL = True  # tests switch the compiled kernel off to compare it with the numpy path


def _kernel(name: str) -> Any:
    """A compiled kernel of :mod:`segagree.metrics.chance.kernels`, or None without numba."""
    if not _USE_KERNEL:
        return None
    from segagree.metrics.chance import kernels as _kernels

    return getattr(_kernels, name)


class _BlockCache:
    """DP results of small blocks by content, reused across pairs and chunks.

    A block's aligned cost and edits depend only on its items' sides and codes and the gaps
    between them; with ``dmax <= 15`` and at most 8 codes each item fits in 8 bits (4 for
    side and code, 4 for the gap to the previous item), so a block of up to 7 items is one
    int64 key. Chance streams repeat the same few thousand small blocks over and over.
    """

    MAX_ITEMS = 7

    def __init__(self, tab: _Tables):
        self.usable = tab.dmax <= 15 and tab.c.shape[0] <= 8
        self.keys = np.zeros(0, dtype=np.int64)
        self.cost = np.zeros(0)
        self.edits = np.zeros(0, dtype=np.int64)
        self._memo: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def memo(self, bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The compiled kernel's direct-mapped memo (keys, cost, edits; key -1: empty slot) of
        ``2**bits`` slots, for these cost tables only (a cache belongs to one :class:`_Tables`)."""
        if self._memo is None:
            size = 2**bits
            self._memo = (np.full(size, -1, dtype=np.int64), np.zeros(size), np.zeros(size, dtype=np.int64))
        return self._memo

    def lookup(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For sorted unique ``keys``: found mask, cost and edits (garbage where not found)."""
        at = np.minimum(np.searchsorted(self.keys, keys), max(self.keys.size - 1, 0))
        if not self.keys.size:
            return np.zeros(keys.size, dtype=bool), np.zeros(keys.size), np.zeros(keys.size, dtype=np.int64)
        found = self.keys[at] == keys
        return found, self.cost[at].copy(), self.edits[at].copy()

    def add(self, keys: np.ndarray, cost: np.ndarray, edits: np.ndarray) -> None:
        allk = np.concatenate([self.keys, keys])
        order = np.argsort(allk, kind="stable")
        self.keys = allk[order]
        self.cost = np.concatenate([self.cost, cost])[order]
        self.edits = np.concatenate([self.edits, edits])[order]


def _transpositions(
    r: np.ndarray,
    pos: np.ndarray,
    isb: np.ndarray,
    typ: np.ndarray,
    anc: np.ndarray,
    tab: _Tables,
    r_n: int,
    cache: _BlockCache | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """What transpositions change in the cost and edits of ``r_n`` pairs, from their *items*
    (positions where exactly one annotator has a boundary), in order: pair ``r``, position
    ``pos``, whether B has it, its code and the number of anchors (both have a boundary)
    before it. Items of one pair between two anchors and at most ``dmax`` apart form a block;
    a block with items of both annotators is aligned by :func:`_block_dp` (small ones once per
    distinct content, with a ``cache``)."""
    d_cost_rows = np.zeros(r_n)
    d_edits_rows = np.zeros(r_n, dtype=np.int64)
    if pos.size < 2:
        return d_cost_rows, d_edits_rows
    new = np.ones(pos.size, dtype=bool)
    new[1:] = (r[1:] != r[:-1]) | (anc[1:] != anc[:-1]) | (np.diff(pos) > tab.dmax)
    blk = np.cumsum(new) - 1
    nb = int(blk[-1]) + 1
    nq = np.bincount(blk, weights=isb, minlength=nb).round().astype(np.int64)
    npa = np.bincount(blk, minlength=nb) - nq
    mixed = (npa > 0) & (nq > 0)
    if not mixed.any():
        return d_cost_rows, d_edits_rows
    # Only the items of mixed blocks matter from here on.
    keep = mixed[blk]
    r, pos, isb, typ, blk = r[keep], pos[keep], isb[keep], typ[keep], blk[keep]
    first = np.ones(blk.size, dtype=bool)
    first[1:] = blk[1:] != blk[:-1]
    bstart = np.flatnonzero(first)
    ids = blk[bstart]  # the mixed blocks, in order
    local_blk = np.cumsum(first) - 1  # block number among the mixed ones
    npa, nq = npa[ids], nq[ids]
    m_all = ids.size
    c_blk = np.zeros(m_all)
    e_blk = np.zeros(m_all, dtype=np.int64)
    todo = np.ones(m_all, dtype=bool)
    if cache is not None and cache.usable:
        small = npa + nq <= _BlockCache.MAX_ITEMS
        if small.any():
            sel = small[local_blk]
            gap = np.zeros(pos.size, dtype=np.int64)
            gap[1:] = np.diff(pos)
            gap[bstart] = 0
            k = tab.c.shape[0]
            code = ((isb.astype(np.int64) * k + typ) << 4) | gap
            within = np.arange(pos.size) - bstart[local_blk]
            keyed = code[sel] << (8 * within[sel])
            starts = np.flatnonzero(first[sel])
            keys = np.add.reduceat(keyed, starts)
            uniq, first_of, inv = np.unique(keys, return_index=True, return_inverse=True)
            found, u_cost, u_edits = cache.lookup(uniq)
            if not found.all():
                # One block of each new content, aligned; _dp_blocks answers in block order.
                rep_ids = np.flatnonzero(small)[first_of[~found]]
                reps = np.zeros(m_all, dtype=bool)
                reps[rep_ids] = True
                c_new, e_new = _dp_blocks(reps, local_blk, pos, isb, typ, npa, nq, tab)
                back = np.argsort(np.argsort(rep_ids))  # rank of each new key's block
                c_new, e_new = c_new[back], e_new[back]
                u_cost[~found], u_edits[~found] = c_new, e_new
                cache.add(uniq[~found], c_new, e_new)
            c_blk[small] = u_cost[inv]
            e_blk[small] = u_edits[inv]
            todo = ~small
    if todo.any():
        c_blk[todo], e_blk[todo] = _dp_blocks(todo, local_blk, pos, isb, typ, npa, nq, tab)
    base_cost = np.where(isb, tab.ins[typ], tab.dele[typ])
    block_base = np.bincount(local_blk, weights=base_cost, minlength=m_all)
    block_row = r[bstart]
    d_cost_rows += np.bincount(block_row, weights=c_blk - block_base, minlength=r_n)
    d_edits = e_blk - (npa + nq)
    d_edits_rows += np.bincount(block_row, weights=d_edits, minlength=r_n).round().astype(np.int64)
    return d_cost_rows, d_edits_rows


def _dp_blocks(
    chosen: np.ndarray,
    blk: np.ndarray,
    pos: np.ndarray,
    isb: np.ndarray,
    typ: np.ndarray,
    npa: np.ndarray,
    nq: np.ndarray,
    tab: _Tables,
) -> tuple[np.ndarray, np.ndarray]:
    """Aligned cost and edits of the ``chosen`` blocks (mask over blocks; items given in block
    order with their block number ``blk``), by the compiled kernel when numba is there, else
    by :func:`_block_dp` on groups of one DP shape."""
    kernel = _kernel("dp_blocks")
    if kernel is not None:
        first = np.ones(blk.size, dtype=bool)
        first[1:] = blk[1:] != blk[:-1]
        starts = np.flatnonzero(first)[chosen]
        ends = starts + (npa + nq)[chosen]
        return kernel(starts, ends, pos, isb, typ, tab.dele, tab.ins, tab.c, tab.trans, _EPS)
    sel = chosen[blk]
    blk, pos, isb, typ = blk[sel], pos[sel], isb[sel], typ[sel]
    first = np.ones(blk.size, dtype=bool)
    first[1:] = blk[1:] != blk[:-1]
    bstart = np.flatnonzero(first)
    ids = blk[bstart]
    local_blk = np.cumsum(first) - 1
    isa = ~isb
    cum_a = np.cumsum(isa, dtype=np.int64) - isa  # exclusive
    cum_b = np.cumsum(isb, dtype=np.int64) - isb
    rank = np.where(isb, cum_b - cum_b[bstart][local_blk], cum_a - cum_a[bstart][local_blk])
    m_all = ids.size
    bp, bq = _bucket(npa[ids]), _bucket(nq[ids])
    # Blocks grouped by their DP shape; small shape numbers sort by radix (stable, linear).
    shapes, shape_of = np.unique(bp * 100_003 + bq, return_inverse=True)
    small = np.int16 if shapes.size < 2**15 else np.int64
    item_shape = shape_of.astype(small)[local_blk]
    order = np.argsort(item_shape, kind="stable")
    cuts = np.flatnonzero(np.diff(item_shape[order])) + 1
    cost = np.zeros(m_all)
    edits = np.zeros(m_all, dtype=np.int64)
    local = np.full(m_all, -1, dtype=np.int64)
    for grp in np.split(order, cuts):
        g_blk = local_blk[grp]  # non-decreasing: items stay in block order within a shape
        gids = g_blk[np.concatenate(([True], g_blk[1:] != g_blk[:-1]))]
        P, Q = int(bp[gids[0]]), int(bq[gids[0]])
        local[gids] = np.arange(gids.size)
        li, rk, sb = local[g_blk], rank[grp], isb[grp]
        ps, ts = pos[grp], typ[grp]
        m = gids.size
        pa = np.zeros((m, P), dtype=np.int64)
        xa = np.zeros((m, P), dtype=np.int64)
        va = np.zeros((m, P), dtype=bool)
        pb = np.zeros((m, Q), dtype=np.int64)
        yb = np.zeros((m, Q), dtype=np.int64)
        vb = np.zeros((m, Q), dtype=bool)
        sa = ~sb
        pa[li[sa], rk[sa]] = ps[sa]
        xa[li[sa], rk[sa]] = ts[sa]
        va[li[sa], rk[sa]] = True
        pb[li[sb], rk[sb]] = ps[sb]
        yb[li[sb], rk[sb]] = ts[sb]
        vb[li[sb], rk[sb]] = True
        cost[gids], edits[gids] = _block_dp(tab, pa, xa, va, pb, yb, vb)
    return cost, edits


def score_pairs(
    a: np.ndarray | Sequence[np.ndarray],
    b: np.ndarray | Sequence[np.ndarray],
    scheme: BoundaryScheme | None = None,
    *,
    mode: str = "optimal",
    transpositions: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """S_f cost and edits of many pairs of code arrays at once.

    Exactly :func:`segagree.metrics.boundary.sf.sf_speaker`'s ``stats.cost`` and ``stats.edits`` for
    every pair ``(a[r], b[r])``, vectorised over the pairs for ``mode="optimal"`` (and for any
    mode without transpositions); ``mode="segsimflex"`` with transpositions calls
    ``sf_speaker`` pair by pair.

    Args:
        a, b: ``(R, n)`` int arrays, or sequences of R 1-D arrays (lengths may differ by row,
            equal between a[r] and b[r]).

    Returns:
        ``cost`` (float, ``(R,)``) and ``edits`` (int, ``(R,)``).
    """
    check_mode(mode)
    scheme = builtin_scheme("dubois") if scheme is None else scheme
    rows_a = [np.asarray(x) for x in a]
    rows_b = [np.asarray(x) for x in b]
    if len(rows_a) != len(rows_b):
        raise MismatchError(f"{len(rows_a)} arrays in a but {len(rows_b)} in b")
    for i, (x, y) in enumerate(zip(rows_a, rows_b, strict=True)):
        if x.shape != y.shape or x.ndim != 1:
            raise MismatchError(f"pair {i}: shapes {x.shape} and {y.shape} differ or are not 1-D")
    if not rows_a:
        return np.zeros(0), np.zeros(0, dtype=np.int64)
    if mode == "segsimflex" and transpositions:
        pairs = zip(rows_a, rows_b, strict=True)
        out = [sf_speaker(x, y, scheme, mode=mode, with_operations=False)[0] for x, y in pairs]
        return np.array([s.cost for s in out]), np.array([s.edits for s in out], dtype=np.int64)
    lens = np.array([x.size for x in rows_a], dtype=np.int64)
    keep = [i for i, x in enumerate(rows_a) if x.size]
    if len(keep) < len(rows_a):  # empty streams: no cost, no edits
        cost = np.zeros(len(rows_a))
        edits = np.zeros(len(rows_a), dtype=np.int64)
        if keep:
            c, e = score_pairs(
                [rows_a[i] for i in keep], [rows_b[i] for i in keep], scheme, mode=mode, transpositions=transpositions
            )
            cost[keep], edits[keep] = c, e
        return cost, edits
    flat_a = np.concatenate(rows_a).astype(np.int64, copy=False)
    flat_b = np.concatenate(rows_b).astype(np.int64, copy=False)
    k = scheme.n_codes
    if flat_a.size and (min(flat_a.min(), flat_b.min()) < 0 or max(flat_a.max(), flat_b.max()) >= k):
        raise UsageError(f"codes outside 0..{k - 1} for scheme {scheme.name!r}")
    return _score_flat(flat_a, flat_b, lens, _Tables(scheme), mode, transpositions)


def score_sparse_pairs(
    rows: np.ndarray,
    positions: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    n_rows: int,
    scheme: BoundaryScheme,
) -> tuple[np.ndarray, np.ndarray]:
    """S_f cost and edits (optimal mode, transpositions allowed) of ``n_rows`` pairs given by their
    boundaries only: one entry per position where A or B has a boundary, sorted by row and then
    position, with A's and B's code there (0: none). Equal to :func:`score_pairs` on the dense
    arrays (positions without a boundary on either side add neither cost nor edits), and much
    faster on sparse boundaries.

    Args:
        rows, positions, a, b: the entries (pair index, token position, A's code, B's code).
        n_rows: the number of pairs.
    """
    tab = _Tables(scheme)
    k = tab.c.shape[0]
    a = a.astype(np.int64, copy=False)
    b = b.astype(np.int64, copy=False)
    cost = np.bincount(rows, weights=tab.c_flat[a * k + b], minlength=n_rows)
    edits = np.bincount(rows, minlength=n_rows).astype(np.int64)
    nza, nzb = a != 0, b != 0
    idx = np.flatnonzero(nza ^ nzb)
    if idx.size < 2:
        return cost, edits
    isb = nzb[idx]
    typ = np.where(isb, b[idx], a[idx])
    anc = np.searchsorted(np.flatnonzero(nza & nzb), idx)
    d_cost, d_edits = _transpositions(rows[idx], positions[idx], isb, typ, anc, tab, n_rows, _BlockCache(tab))
    return cost + d_cost, edits + d_edits


# --- simulation -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Spec:
    """What a worker needs to draw and score its tasks."""

    scheme: BoundaryScheme
    mode: str
    transpositions: bool
    lengths: tuple[int, ...]
    probs: tuple[tuple[np.ndarray, np.ndarray], ...]
    seed: int
    n_blocks: int


def _stream(seed: int, s: int, j: int) -> np.random.Generator:
    """The random stream of block ``j`` of speaker ``s`` (independent of K and of jobs)."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(s, j)))


_GUIDE_BITS = 12  # the top bits of a draw index a guide table over the cells


class _Cells:
    """Joint draws of (A's code, B's code) for one speaker, and what each pair of codes is.

    A position's two codes are independent draws from ``p_a`` and ``p_b``; drawing the pair
    as one *cell* ``x * k + y`` of the product distribution takes one random number instead of
    two. Draws are 32-bit integers ``u`` (two per 64-bit output of the generator): the cell is
    the first whose cumulative threshold ``round(cdf * 2**32)`` exceeds ``u``, so every cell's
    probability is exact to 2**-32 (uniform doubles give 2**-53; both far below any Monte
    Carlo error). Cell 0 is (none, none), most positions: only the others (*events*) are kept.
    """

    def __init__(self, p_a: np.ndarray, p_b: np.ndarray, tab: _Tables):
        k = p_a.size
        joint = np.outer(p_a, p_b).ravel()
        cdf = np.cumsum(joint)
        cdf /= cdf[-1] if cdf[-1] > 0 else 1.0
        upper = np.minimum(np.round(cdf * 2.0**32), 2.0**32).astype(np.uint64)
        upper[-1] = 2**32
        self.upper = upper
        self.t0 = int(upper[0])  # u >= t0: not (none, none)
        starts = np.arange(2**_GUIDE_BITS, dtype=np.uint64) << np.uint64(32 - _GUIDE_BITS)
        self.guide = np.searchsorted(upper, starts, side="right").astype(np.int64)
        x, y = np.divmod(np.arange(k * k), k)
        self.x, self.y = x, y
        self.cost = tab.c[x, y]
        self.differ = x != y
        self.anchor = (x != 0) & (y != 0)
        self.item = (x != 0) ^ (y != 0)
        self.isb = y != 0
        self.typ = np.where(y != 0, y, x)

    def events(self, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Positions (indexes into ``u``) that are not (none, none), and their cells."""
        if self.t0 >= 2**32:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty
        ev = np.flatnonzero(u >= np.uint32(self.t0))
        ue = u[ev]
        cell = self.guide[ue >> np.uint32(32 - _GUIDE_BITS)]
        # The guide gives the first cell that may hold u; step on where a threshold falls
        # inside the guide's bucket.
        fix = np.flatnonzero(ue >= self.upper[cell])
        while fix.size:
            cell[fix] += 1
            fix = fix[ue[fix] >= self.upper[cell[fix]]]
        return ev, cell


def _draw_u32(rng: np.random.Generator, size: int) -> np.ndarray:
    """``size`` uniform 32-bit integers: both halves of the generator's 64-bit outputs."""
    raw = rng.bit_generator.random_raw((size + 1) // 2)
    return raw.view(np.uint32)[:size]


def _interruptible(kernel: Callable[..., Any], *args: Any) -> Any:
    """Call a compiled kernel. An exception raised by a signal handler while it runs (Ctrl-C:
    KeyboardInterrupt, or the CLI's own) is pending when the kernel returns, and Python then
    reports a SystemError caused by it: the original exception is raised instead."""
    try:
        return kernel(*args)
    except SystemError as err:
        root: BaseException = err
        while isinstance(root, SystemError) and (root.__cause__ or root.__context__) is not None:
            root = root.__cause__ or root.__context__  # type: ignore[assignment]
        if root is err or isinstance(root, SystemError):
            raise
        raise root from None


def _score_block(
    rng: np.random.Generator,
    cells: _Cells,
    rows: int,
    n: int,
    tab: _Tables,
    mode: str,
    transpositions: bool,
    cache: _BlockCache | None = None,
    u: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``rows`` chance pairs of ``n`` positions and score them (cost, edits per pair);
    ``u``: the ``rows * n`` draws, when they were already taken from ``rng``."""
    if u is None:
        u = _draw_u32(rng, rows * n)
    score_draws = _kernel("score_draws") if transpositions and mode == "optimal" else None
    if score_draws is not None:  # the numpy computation below, compiled, in one pass
        from segagree.metrics.chance.kernels import MEMO_BITS

        memo = (cache or _BlockCache(tab)).memo(MEMO_BITS)
        return _interruptible(
            score_draws,
            u,
            rows,
            n,
            cells.t0,
            cells.guide,
            cells.upper,
            32 - _GUIDE_BITS,
            cells.cost,
            cells.x,
            cells.y,
            tab.dele,
            tab.ins,
            tab.c,
            tab.trans,
            tab.dmax,
            _EPS,
            *memo,
        )
    ev, cell = cells.events(u)
    del u
    if mode == "segsimflex" and transpositions:  # the reference's search, pair by pair
        a = np.zeros(rows * n, dtype=np.int64)
        b = np.zeros(rows * n, dtype=np.int64)
        a[ev], b[ev] = cells.x[cell], cells.y[cell]
        return score_pairs(list(a.reshape(rows, n)), list(b.reshape(rows, n)), tab.scheme, mode=mode)
    row = ev // n
    cost = np.bincount(row, weights=cells.cost[cell], minlength=rows)
    if not transpositions and mode == "segsimflex":
        return cost, np.bincount(row[cells.differ[cell]], minlength=rows).astype(np.int64)
    edits = np.bincount(row, minlength=rows).astype(np.int64)  # every event is an edit
    if not transpositions:
        return cost, edits
    anc = np.cumsum(cells.anchor[cell])  # at an item: the anchors before it
    it = np.flatnonzero(cells.item[cell])
    r_i, c_i = row[it], cell[it]
    d_cost, d_edits = _transpositions(r_i, ev[it] - r_i * n, cells.isb[c_i], cells.typ[c_i], anc[it], tab, rows, cache)
    return cost + d_cost, edits + d_edits


class _TaskRunner:
    """Draws and scores simulation tasks for one thread: its own cost tables, cells and block
    cache (the compiled kernel writes the cache's memo, so a cache is never shared)."""

    def __init__(self, spec: _Spec):
        self.spec = spec
        self.tab = _Tables(spec.scheme)
        self.cells = [_Cells(pa, pb, self.tab) for pa, pb in spec.probs]
        self.cache = _BlockCache(self.tab)

    def run(
        self, task: tuple[int, int, int], drawer: Any = None, progress: Callable[[int], None] | None = None
    ) -> tuple[int, int, np.ndarray, np.ndarray]:
        """Task ``(speaker index, block index, sims)``: its costs and edits, in order. Its draws
        come in chunks of whole pairs of about :data:`_BATCH_TOKENS` positions, from the task's
        own stream. With ``drawer`` (an executor of one thread), the next chunk is drawn while
        the current one is scored (both release the GIL): one stream, drawn in the same order."""
        s, j, sims = task
        spec = self.spec
        n = spec.lengths[s]
        if n == 0:  # an empty stream: nothing to draw, no cost, no edits
            return s, j, np.zeros(sims), np.zeros(sims, dtype=np.int64)
        rng = _stream(spec.seed, s, j)
        step = max(1, _BATCH_TOKENS // n)
        sizes = [min(step, sims - done) for done in range(0, sims, step)]
        costs, edits = [], []
        pending = drawer.submit(_draw_u32, rng, sizes[0] * n) if drawer is not None else None
        for i, rows in enumerate(sizes):
            if pending is None:
                u = _draw_u32(rng, rows * n)
            else:
                u = pending.result()
                if i + 1 < len(sizes):  # drawn after this chunk's draws: the stream's order
                    pending = drawer.submit(_draw_u32, rng, sizes[i + 1] * n)
            c, e = _score_block(rng, self.cells[s], rows, n, self.tab, spec.mode, spec.transpositions, self.cache, u)
            costs.append(c)
            edits.append(e)
            if progress is not None:
                progress(rows)
        return s, j, np.concatenate(costs), np.concatenate(edits)


def _run_tasks(
    spec: _Spec,
    tasks: Sequence[tuple[int, int, int]],
    progress: Callable[[int], None] | None = None,
    threads: int = 1,
) -> list[tuple[int, int, np.ndarray, np.ndarray]]:
    """Draw and score tasks ``(speaker index, block index, sims)``; returns per task the costs
    and edits of its simulations, in the tasks' order. Every task draws from its own stream
    (:func:`_stream`), so the numbers depend neither on how tasks are grouped nor on which
    thread scores them.

    One thread: the next chunk is drawn by a helper thread while the current one is scored.
    ``threads`` > 1: the tasks are shared out among that many threads, each with its own
    :class:`_TaskRunner` (the compiled kernel releases the GIL, so they run on as many CPUs).
    """
    from concurrent.futures import ThreadPoolExecutor

    if threads <= 1 or len(tasks) <= 1:
        runner = _TaskRunner(spec)
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="segagree-draws") as drawer:
            return [runner.run(t, drawer, progress) for t in tasks]
    local = threading.local()
    lock = threading.Lock()

    def one(task: tuple[int, int, int]) -> tuple[int, int, np.ndarray, np.ndarray]:
        if not hasattr(local, "runner"):
            local.runner = _TaskRunner(spec)
        out: tuple[int, int, np.ndarray, np.ndarray] = local.runner.run(task)
        if progress is not None:
            with lock:  # one caller at a time, as with one thread
                progress(int(out[2].size))
        return out

    pool = ThreadPoolExecutor(max_workers=min(threads, len(tasks)), thread_name_prefix="segagree-sims")
    try:
        return list(pool.map(one, tasks))
    finally:  # on Ctrl-C, the tasks not yet started are dropped, not run to the end
        pool.shutdown(wait=True, cancel_futures=True)


def _simulate(
    spec: _Spec,
    K: int,
    jobs: int,
    progress: Callable[[int], None] | None,
    done: Callable[[np.ndarray, np.ndarray, int], bool] | None = None,
    threads: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """Cost and edits ``(n_speakers, K')`` of the simulations. With ``done``, blocks are run
    round by round (block j of every speaker) and the run stops after the first round for which
    ``done(cost, edits, K')`` is true (K' = the simulations so far); otherwise K' = K."""
    n_speakers = len(spec.lengths)
    cost = np.zeros((n_speakers, K))
    edits = np.zeros((n_speakers, K), dtype=np.int64)
    rounds = [range(spec.n_blocks)] if done is None else [range(j, j + 1) for j in range(spec.n_blocks)]
    used = 0
    for blocks in rounds:
        tasks = [(s, j, min(SIM_BLOCK, K - j * SIM_BLOCK)) for s in range(n_speakers) for j in blocks]
        if jobs > 1 and len(tasks) > 1:
            from joblib import Parallel, delayed

            groups = [tasks[i :: jobs * 2] for i in range(min(len(tasks), jobs * 2))]
            parallel = Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")
            for out in parallel(delayed(_run_tasks)(spec, g, None, threads) for g in groups):
                for s, j, c, e in out:
                    cost[s, j * SIM_BLOCK : j * SIM_BLOCK + c.size] = c
                    edits[s, j * SIM_BLOCK : j * SIM_BLOCK + e.size] = e
                    if progress is not None:
                        progress(c.size)
        else:
            for s, j, c, e in _run_tasks(spec, tasks, progress, threads):
                cost[s, j * SIM_BLOCK : j * SIM_BLOCK + c.size] = c
                edits[s, j * SIM_BLOCK : j * SIM_BLOCK + e.size] = e
        used = min(K, (blocks[-1] + 1) * SIM_BLOCK)
        if done is not None and used < K and done(cost[:, :used], edits[:, :used], used):
            return cost[:, :used].copy(), edits[:, :used].copy()
    return cost, edits


# --- kappa ----------------------------------------------------------------------------------


def kappa_estimate(
    metric: str, observed: float, values: np.ndarray | None, K: int | None, exact: tuple[float, float] | None = None
) -> KappaEstimate:
    """Kappa from simulated chance values (or an exact mean and per-draw sd)."""
    if exact is not None:
        mean, sd = exact
        se: float | None = 0.0
    else:
        assert values is not None and K
        mean = float(values.mean())
        sd = float(values.std(ddof=1)) if K > 1 else float("nan")
        se = None
    denom = 1.0 - mean
    if denom <= _EPS:
        return KappaEstimate(
            metric, observed, mean, _clean(sd), None, None, "chance agreement is 1: kappa is undefined"
        )
    kappa = (observed - mean) / denom
    if se is None:
        se = (1.0 - observed) / denom**2 * sd / math.sqrt(K) if math.isfinite(sd) else None  # type: ignore[arg-type]
    reason = None if se is not None else "K = 1: no Monte Carlo standard error"
    return KappaEstimate(metric, observed, mean, _clean(sd), kappa, se, reason)


def sim_values(cost: np.ndarray, edits: np.ndarray, n: np.ndarray | int) -> tuple[np.ndarray, np.ndarray]:
    sf_v = 1.0 - cost / np.maximum(n, 1)
    sfb_v = np.where(edits > 0, 1.0 - cost / np.maximum(edits, 1), 1.0)
    return sf_v, sfb_v


def sf_kappa(
    a: Mapping[str, Sequence[int] | np.ndarray],
    b: Mapping[str, Sequence[int] | np.ndarray],
    scheme: BoundaryScheme | None = None,
    chance: str = DEFAULT_CHANCE,
    sims: int = DEFAULT_SIMS,
    seed: int = 12345,
    per_speaker: bool = True,
    mode: str = "optimal",
    transpositions: bool = True,
    jobs: int = 1,
    *,
    chance_method: str = "simulation",
    progress: Callable[[int], None] | None = None,
    mc_tolerance: float | None = None,
    threads: int = 1,
) -> SfKappaResult:
    """Chance-corrected S_f and S_f^B (Lai, Li & Zhang 2023): kappa pooled and per speaker.

    Args:
        a, b: speaker -> boundary-code arrays of annotators A and B (same speakers, same
            lengths; see :func:`segagree.metrics.boundary.sf.sf`).
        scheme: the cost model (default ``dubois``).
        chance: one of :data:`CHANCE_MODELS` (see the module docstring).
        sims: K, the number of simulated pairs (>= 1).
        seed: seed of the random streams (see the module docstring).
        per_speaker: also compute per-speaker kappas (not for ``chance="segsimflex"``).
        mode, transpositions: how S_f is scored (``"optimal"`` or ``"segsimflex"``).
        jobs: worker processes (joblib loky) for the simulations; the numbers do not depend on it.
        threads: threads that score the simulations in this process (``jobs=1``) or in each
            worker (the compiled kernel releases the GIL); the numbers do not depend on it either.
            :func:`segagree.cpus.usable_cpus` is what this process may use.
        chance_method: ``"simulation"`` or ``"exact"`` (closed-form expectation of S_f; needs
            ``transpositions=False`` and not the ``segsimflex`` model; S_f^B has none).
        progress: called with the number of simulated pairs finished, as they finish.
        mc_tolerance: stop simulating once the Monte Carlo standard errors of both pooled kappas
            (S_f and S_f^B) are at most this, checked after every :data:`SIM_BLOCK` simulations
            of every speaker; at most ``sims`` are run. The result reports
            ``n_simulations_used`` (its K) and ``stopped_early``; the simulations used are the
            first ones of a full run with the same seed.

    Raises:
        UsageError: bad K, chance model, method, mode or jobs; MismatchError: the annotations
            do not fit together.
    """
    scheme = builtin_scheme("dubois") if scheme is None else scheme
    _check_kappa_options(chance, chance_method, sims, jobs, mc_tolerance, transpositions, threads)
    obs = sf(a, b, scheme, mode=mode, transpositions=transpositions, with_operations=False)
    speakers = list(obs.per_speaker)
    if not speakers:
        raise UsageError("no speakers to compare")
    arr_a = {s: np.asarray(a[s], dtype=np.int64) for s in speakers}
    arr_b = {s: np.asarray(b[s], dtype=np.int64) for s in speakers}
    n_tok = np.array([arr_a[s].size for s in speakers], dtype=np.int64)
    if n_tok.sum() == 0:
        raise UsageError("the annotations have no tokens")
    dists = chance_distributions(arr_a, arr_b, scheme.n_codes, chance)
    setting = _Setting(scheme, chance, mode, transpositions, per_speaker and chance != "segsimflex")
    if chance_method == "exact":
        return _exact_kappa(obs, n_tok, dists, setting)
    return _simulated_kappa(
        obs, n_tok, dists, setting, int(sims), int(seed), (int(jobs), int(threads)), progress, mc_tolerance
    )


def _check_kappa_options(
    chance: str, chance_method: str, sims: Any, jobs: Any, mc_tolerance: Any, transpositions: bool, threads: Any = 1
) -> None:
    """UsageError for an unknown chance model or method, a bad K, jobs or tolerance."""
    if chance not in CHANCE_MODELS:
        raise UsageError(f"unknown chance model {chance!r}; expected one of {list(CHANCE_MODELS)}")
    if chance_method not in ("simulation", "exact"):
        raise UsageError(f"chance_method must be 'simulation' or 'exact', not {chance_method!r}")
    if isinstance(sims, bool) or not isinstance(sims, (int, np.integer)) or sims < 1:
        raise UsageError(f"the number of simulations K must be an integer >= 1, got {sims!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)) or jobs < 1:
        raise UsageError(f"jobs must be an integer >= 1, got {jobs!r}")
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise UsageError(f"threads must be an integer >= 1, got {threads!r}")
    if mc_tolerance is not None and not (isinstance(mc_tolerance, (int, float)) and mc_tolerance > 0):
        raise UsageError(f"mc_tolerance must be a number > 0, got {mc_tolerance!r}")
    if chance_method == "exact" and (transpositions or chance == "segsimflex"):
        raise UsageError(
            "the exact chance expectation exists only without transpositions and not for the segsimflex "
            "model (it always simulates with transpositions); use chance_method='simulation'"
        )


@dataclass(frozen=True)
class _Setting:
    """How kappa is computed: the scheme, chance model, S_f mode, and whether per speaker."""

    scheme: BoundaryScheme
    chance: str
    mode: str
    transpositions: bool
    per_speaker: bool


def _distribution_lists(dists: Mapping[str, tuple[np.ndarray, np.ndarray]]) -> dict[str, dict[str, list[float]]]:
    return {s: {"a": pa.tolist(), "b": pb.tolist()} for s, (pa, pb) in dists.items()}


def _exact_kappa(
    obs: SfResult, n_tok: np.ndarray, dists: Mapping[str, tuple[np.ndarray, np.ndarray]], setting: _Setting
) -> SfKappaResult:
    """Kappa of S_f from the closed-form chance expectation (no transpositions); S_f^B has none."""
    speakers = list(obs.per_speaker)
    no_b = (
        "S_f^B = 1 - cost/edits is a ratio of random quantities with no simple closed form; "
        "use chance_method='simulation'"
    )
    c = 1.0 - setting.scheme.similarity
    e_cost, v_cost = [], []
    for s in speakers:
        pa, pb = dists[s]
        joint = np.outer(pa, pb)
        mu = float((joint * c).sum())
        e_cost.append(mu)
        v_cost.append(max(float((joint * c * c).sum()) - mu * mu, 0.0))
    per: dict[str, dict[str, KappaEstimate]] = {}
    for i, s in enumerate(speakers):
        if setting.per_speaker:
            n = int(n_tok[i])
            ex = (1.0 - e_cost[i], math.sqrt(n * v_cost[i]) / n if n else 0.0)
            per[s] = {
                _SF: kappa_estimate(_SF, obs.per_speaker[s].sf, None, None, ex),
                _SF_B: KappaEstimate(_SF_B, obs.per_speaker[s].sf_b, None, None, None, None, no_b),
            }
    total = float(n_tok.sum())
    mean = 1.0 - float(np.dot(n_tok, e_cost)) / total
    sd = math.sqrt(float(np.dot(n_tok, v_cost))) / total
    pooled = {
        _SF: kappa_estimate(_SF, obs.sf, None, None, (mean, sd)),
        _SF_B: KappaEstimate(_SF_B, obs.sf_b, None, None, None, None, no_b),
    }
    empty = np.zeros((len(speakers), 0))
    return SfKappaResult(
        pooled,
        per,
        setting.chance,
        "exact",
        None,
        None,
        setting.mode,
        setting.transpositions,
        setting.scheme,
        speakers,
        dict(obs.per_speaker),
        empty,
        empty.astype(np.int64),
        n_tok,
        _distribution_lists(dists),
    )


def _simulated_kappa(
    obs: SfResult,
    n_tok: np.ndarray,
    dists: Mapping[str, tuple[np.ndarray, np.ndarray]],
    setting: _Setting,
    sims: int,
    seed: int,
    workers: tuple[int, int],
    progress: Callable[[int], None] | None,
    mc_tolerance: float | None,
) -> SfKappaResult:
    """Kappa from K simulated chance pairs per speaker, pooled by summed chance costs and edits."""
    speakers = list(obs.per_speaker)
    spec = _Spec(
        scheme=setting.scheme,
        mode=setting.mode,
        transpositions=True if setting.chance == "segsimflex" else setting.transpositions,
        lengths=tuple(int(x) for x in n_tok),
        probs=tuple(dists[s] for s in speakers),
        seed=seed,
        n_blocks=(sims + SIM_BLOCK - 1) // SIM_BLOCK,
    )
    total_tokens = int(n_tok.sum())

    def precise_enough(c: np.ndarray, e: np.ndarray, k: int) -> bool:
        v_sf, v_b = sim_values(c.sum(axis=0), e.sum(axis=0), total_tokens)
        ses = (kappa_estimate(_SF, obs.sf, v_sf, k).se, kappa_estimate(_SF_B, obs.sf_b, v_b, k).se)
        return all(se is not None and mc_tolerance is not None and se <= mc_tolerance for se in ses)

    jobs, threads = workers
    done = None if mc_tolerance is None else precise_enough
    cost, edits = _simulate(spec, sims, jobs, progress, done, threads)
    K = cost.shape[1]
    sf_v, sfb_v = sim_values(cost.sum(axis=0), edits.sum(axis=0), total_tokens)
    pooled = {_SF: kappa_estimate(_SF, obs.sf, sf_v, K), _SF_B: kappa_estimate(_SF_B, obs.sf_b, sfb_v, K)}
    per: dict[str, dict[str, KappaEstimate]] = {}
    if setting.per_speaker:
        for i, s in enumerate(speakers):
            v1, v2 = sim_values(cost[i], edits[i], int(n_tok[i]))
            st = obs.per_speaker[s]
            per[s] = {_SF: kappa_estimate(_SF, st.sf, v1, K), _SF_B: kappa_estimate(_SF_B, st.sf_b, v2, K)}
    return SfKappaResult(
        pooled,
        per,
        setting.chance,
        "simulation",
        K,
        seed,
        setting.mode,
        setting.transpositions,
        setting.scheme,
        speakers,
        dict(obs.per_speaker),
        cost,
        edits,
        n_tok,
        _distribution_lists(dists),
        sims=sims,
        mc_tolerance=None if mc_tolerance is None else float(mc_tolerance),
        stopped_early=K < sims,
    )
