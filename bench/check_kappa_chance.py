"""Check of the chance agreement A_e behind segagree's simulated kappa of S_f / S_f^B against an
independent, slow reference: exact enumeration on tiny inputs, a plain Monte Carlo loop on
small and medium ones. Not a benchmark (minutes, not run by ``make bench``)::

    nice -n 19 env NUMBA_NUM_THREADS=1 PYTHONPATH=src .venv/bin/python bench/check_kappa_chance.py \
        [--ours-k 1000000] [--repeat 1] [--ref-k 30000] [--only NAME ...]

Chance model (Lai, Li & Zhang 2023, section 5, after Cohen 1960 and Artstein & Poesio 2008):
two *random* annotations of the same token streams, every position of every speaker drawn
independently; annotator A's code from A's distribution, B's from B's (independently of A).
The distributions are written here from the definitions, not taken from segagree:

* ``cohen``: per speaker, each annotator's own relative code frequencies;
* ``scott``: per speaker, the two annotators' frequencies averaged;
* ``bennett``: uniform over all codes;
* ``bennett_modified``: per speaker, P(none) averaged over both annotators, the rest uniform
  over the boundary codes;
* ``segsimflex``: the R reference's draw, literally (``prob = floor(runif(1, 1, num))`` in
  1..num-1, code k when ``cum[k] <= prob < cum[k+1]``, ``cum = c(1, cumsum(counts))``, R's
  symbol order typed, unclassified, none), from the last speaker's counts, for every speaker.

Each random pair is scored by the plain S_f metric :func:`segagree.metrics.boundary.sf.sf_speaker`
(verified on its own against segsimflex and brute force); pooled over speakers as summed cost
over summed tokens (S_f) or summed edits (S_f^B, 1 when there are no edits).

* **exact**: every pair of random annotations is enumerated with its probability, giving the
  exact mean and per-draw standard deviation of the pooled S_f and S_f^B;
  ``z = (ours - exact) / (sd_ours / sqrt(K_ours))``.
* **reference**: K_ref pairs drawn with ``numpy.random.Generator.choice`` and scored one by one;
  ``z = (ours - ref) / sqrt(se_ours^2 + se_ref^2)``.

segagree's estimate is ``sf_kappa(..., sims=K_ours, jobs=1).pooled[metric].chance_mean``; with
``--repeat R`` the mean of R such runs with seeds ``seed .. seed + R - 1`` (K = R * K_ours).

Result (2026-11-23): ``--only tiny --repeat 20`` (K = 2e7 against the exact values): |z| <= 1.86
on all 18 (input, metric) rows, differences < 1e-4, per-draw sd equal to 4 digits;
``--only med --repeat 2 --ref-k 100000``: |z| <= 1.83 on all 10 rows, signs mixed. No bias.
Separately, segagree's simulated (cost, edits) were recomputed with ``sf_speaker`` from the
same random streams (decoded by ``searchsorted`` on the cell thresholds) on tiny1, tiny3, med2
and NCCU t009 / t049: identical on every draw.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from segagree.metrics.boundary.sf import sf_speaker
from segagree.metrics.chance.sf_kappa import sf_kappa
from segagree.model.scheme import BoundaryScheme, builtin_scheme

Ann = dict[str, np.ndarray]


# --- chance distributions from the definitions --------------------------------------------------


def distributions(a: Ann, b: Ann, k: int, chance: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Speaker -> (A's, B's) probabilities over codes 0..k-1."""
    out = {}
    for s in a:
        fa = np.array([np.sum(a[s] == c) for c in range(k)], dtype=float) / len(a[s])
        fb = np.array([np.sum(b[s] == c) for c in range(k)], dtype=float) / len(b[s])
        if chance == "cohen":
            out[s] = (fa, fb)
        elif chance == "scott":
            out[s] = ((fa + fb) / 2, (fa + fb) / 2)
        elif chance == "bennett":
            u = np.full(k, 1 / k)
            out[s] = (u, u)
        elif chance == "bennett_modified":
            p0 = (fa[0] + fb[0]) / 2
            p = np.array([p0] + [(1 - p0) / (k - 1)] * (k - 1))
            out[s] = (p, p)
        elif chance == "segsimflex":
            last = sorted(a)[-1]
            out[s] = (_r_draw(a[last], k), _r_draw(b[last], k))
        else:
            raise ValueError(chance)
    return out


def _r_draw(x: np.ndarray, k: int) -> np.ndarray:
    """The probabilities of the R reference's draw, by enumerating its ``prob`` values."""
    r_order = list(range(1, k)) + [0]
    counts = [int(np.sum(x == c)) for c in r_order]
    num = sum(counts)
    cum = [1, *itertools.accumulate(counts)]
    p = np.zeros(k)
    for prob in range(1, num):  # floor(runif(1, 1, num)): 1..num-1, equally likely
        j = next(j for j in range(len(counts)) if cum[j] <= prob < cum[j + 1])
        p[r_order[j]] += 1 / (num - 1)
    return p


# --- exact enumeration ----------------------------------------------------------------------------


def _speaker_law(pa: np.ndarray, pb: np.ndarray, n: int, scheme: BoundaryScheme, mode: str) -> dict:
    """Distribution of (cost, edits) of one speaker's random pair: {(cost, edits): prob}."""
    law: dict[tuple[float, int], float] = defaultdict(float)
    sa, sb = np.flatnonzero(pa > 0), np.flatnonzero(pb > 0)
    streams_a = [(np.array(x), float(np.prod(pa[list(x)]))) for x in itertools.product(sa, repeat=n)]
    streams_b = [(np.array(y), float(np.prod(pb[list(y)]))) for y in itertools.product(sb, repeat=n)]
    for x, px in streams_a:
        for y, py in streams_b:
            st = sf_speaker(x, y, scheme, mode=mode, with_operations=False)[0]
            law[(round(st.cost, 9), st.edits)] += px * py
    return law


def exact(a: Ann, b: Ann, scheme: BoundaryScheme, chance: str, mode: str) -> dict[str, tuple[float, float]]:
    """Exact mean and per-draw sd of the pooled chance S_f and S_f^B."""
    dists = distributions(a, b, scheme.n_codes, chance)
    joint: dict[tuple[float, int], float] = {(0.0, 0): 1.0}
    for s in sorted(a):
        law = _speaker_law(*dists[s], len(a[s]), scheme, mode)
        nxt: dict[tuple[float, int], float] = defaultdict(float)
        for (c1, e1), p1 in joint.items():
            for (c2, e2), p2 in law.items():
                nxt[(round(c1 + c2, 9), e1 + e2)] += p1 * p2
        joint = nxt
    n = sum(len(x) for x in a.values())
    out = {}
    for metric in ("sf", "sf_b"):
        vals, probs = [], []
        for (c, e), p in joint.items():
            vals.append(1 - c / n if metric == "sf" else (1 - c / e if e else 1.0))
            probs.append(p)
        v, p = np.array(vals), np.array(probs)
        assert abs(p.sum() - 1) < 1e-9, p.sum()
        mean = float(np.dot(p, v))
        out[metric] = (mean, math.sqrt(max(float(np.dot(p, (v - mean) ** 2)), 0.0)))
    return out


# --- plain Monte Carlo reference --------------------------------------------------------------------


def reference(
    a: Ann, b: Ann, scheme: BoundaryScheme, chance: str, mode: str, K: int, seed: int
) -> dict[str, tuple[float, float]]:
    """Mean and per-draw sd (ddof 1) of the pooled chance S_f and S_f^B over K random pairs."""
    rng = np.random.default_rng(seed)
    k = scheme.n_codes
    dists = distributions(a, b, k, chance)
    cost = np.zeros(K)
    edits = np.zeros(K, dtype=np.int64)
    for s in sorted(a):
        pa, pb = dists[s]
        n = len(a[s])
        xs = rng.choice(k, size=(K, n), p=pa)
        ys = rng.choice(k, size=(K, n), p=pb)
        for r in range(K):
            st = sf_speaker(xs[r], ys[r], scheme, mode=mode, with_operations=False)[0]
            cost[r] += st.cost
            edits[r] += st.edits
    n_all = sum(len(x) for x in a.values())
    sf_v = 1 - cost / n_all
    sfb_v = np.where(edits > 0, 1 - cost / np.maximum(edits, 1), 1.0)
    return {m: (float(v.mean()), float(v.std(ddof=1))) for m, v in (("sf", sf_v), ("sf_b", sfb_v))}


# --- the cases --------------------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    a: Ann
    b: Ann
    scheme: str
    chance: str = "cohen"
    mode: str = "optimal"
    method: str = "exact"  # or "reference"


def _arr(*xs: int) -> np.ndarray:
    return np.array(xs, dtype=np.int64)


def _random(seed: int, sizes: dict[str, int], p: list[float], noise: float) -> tuple[Ann, Ann]:
    """A, and B = A with a share ``noise`` of positions redrawn (agreement above chance)."""
    rng = np.random.default_rng(seed)
    a, b = {}, {}
    for s, n in sizes.items():
        a[s] = rng.choice(len(p), n, p=p)
        y = a[s].copy()
        m = rng.random(n) < noise
        y[m] = rng.choice(len(p), int(m.sum()), p=p)
        b[s] = y
    return a, b


def cases() -> list[Case]:
    out = [
        # exact enumeration: (support_a * support_b) ** n pairs per speaker
        Case("tiny1 dubois 1spk n=6", {"S": _arr(0, 1, 0, 0, 2, 0)}, {"S": _arr(1, 0, 0, 0, 0, 1)}, "dubois"),
        Case(
            "tiny2 dubois 2spk n=5+4",
            {"A": _arr(0, 1, 0, 2, 0), "B": _arr(0, 3, 0, 1)},
            {"A": _arr(1, 0, 0, 2, 0), "B": _arr(3, 0, 2, 0)},
            "dubois",
        ),
        Case(
            "tiny2 scott",
            {"A": _arr(0, 1, 0, 2, 0), "B": _arr(0, 3, 0, 1)},
            {"A": _arr(1, 0, 0, 2, 0), "B": _arr(3, 0, 2, 0)},
            "dubois",
            "scott",
        ),
        Case(
            "tiny2 segsimflex-chance",
            {"A": _arr(0, 1, 0, 2, 0), "B": _arr(0, 3, 0, 1)},
            {"A": _arr(1, 0, 0, 2, 0), "B": _arr(3, 0, 2, 0)},
            "dubois",
            "segsimflex",
        ),
        Case("tiny3 lai2023 n=5", {"S": _arr(0, 5, 0, 1, 0)}, {"S": _arr(4, 0, 0, 1, 0)}, "lai2023"),
        Case(
            "tiny4 vignette n=5 dense",
            {"S": _arr(2, 0, 4, 2, 0)},
            {"S": _arr(0, 3, 3, 0, 1)},
            "segsimflex-vignette",
        ),
        Case(
            "tiny5 subtitle n=8", {"S": _arr(0, 0, 2, 0, 0, 2, 0, 2)}, {"S": _arr(0, 1, 0, 0, 0, 1, 0, 0)}, "subtitle"
        ),
        Case("tiny6 bennett n=3", {"S": _arr(0, 1, 2)}, {"S": _arr(1, 0, 0)}, "dubois", "bennett"),
        Case(
            "tiny7 bennett_mod n=5",
            {"S": _arr(0, 1, 0, 2, 0)},
            {"S": _arr(1, 0, 0, 0, 0)},
            "subtitle",
            "bennett_modified",
        ),
    ]
    p_dense = [0.55, 0.15, 0.12, 0.06, 0.05, 0.07]
    p_sparse = [0.88, 0.05, 0.03, 0.01, 0.01, 0.02]
    a, b = _random(1, {"S1": 40, "S2": 25}, p_dense, 0.3)
    out.append(Case("med1 dubois 2spk 65 dense", a, b, "dubois", method="reference"))
    a, b = _random(2, {"X": 30, "Y": 20, "Z": 15}, p_dense, 0.5)
    out.append(Case("med2 lai2023 3spk 65 dense", a, b, "lai2023", method="reference"))
    a, b = _random(3, {"S": 150}, p_sparse, 0.2)
    out.append(Case("med3 dubois 1spk 150 sparse", a, b, "dubois", method="reference"))
    a, b = _random(4, {"P": 60, "Q": 40}, p_dense, 0.4)
    out.append(Case("med4 vignette scott 100", a, b, "segsimflex-vignette", "scott", method="reference"))
    a, b = _random(5, {"P": 50, "Q": 30}, [0.7, 0.3], 0.3)
    out.append(Case("med5 subtitle 80", a, b, "subtitle", method="reference"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ours-k", type=int, default=1_000_000, help="segagree's K per run")
    ap.add_argument("--repeat", type=int, default=1, help="segagree runs with consecutive seeds, averaged")
    ap.add_argument("--ref-k", type=int, default=30_000, help="the plain reference loop's K")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--only", nargs="*", help="case names starting with these")
    args = ap.parse_args()
    print(f"ours: {args.repeat} x sf_kappa(sims={args.ours_k}, seed={args.seed}.., jobs=1); reference K={args.ref_k}")
    head = f"{'case':30s} {'metric':6s} {'ours':>10s} {'se_ours':>9s} {'ref/exact':>10s} {'se_ref':>9s} {'z':>6s}"
    print(head + "   kappa ours / ref      s  sd ours/ref")
    for case in cases():
        if args.only and not any(case.name.startswith(x) for x in args.only):
            continue
        scheme = builtin_scheme(case.scheme)
        t = time.perf_counter()
        runs = []  # (metric -> (chance mean, chance sd, observed)) per run
        for i in range(args.repeat):
            res = sf_kappa(
                case.a, case.b, scheme, chance=case.chance, sims=args.ours_k, seed=args.seed + i, mode=case.mode, jobs=1
            )
            runs.append({m: (e.chance_mean, e.chance_sd, e.observed) for m, e in res.pooled.items()})
        if case.method == "exact":
            ref = exact(case.a, case.b, scheme, case.chance, case.mode)
            k_ref = None
        else:
            ref = reference(case.a, case.b, scheme, case.chance, case.mode, args.ref_k, args.seed + 10**6)
            k_ref = args.ref_k
        secs = time.perf_counter() - t
        k_ours = args.ours_k * args.repeat
        for metric in ("sf", "sf_b"):
            mean = float(np.mean([r[metric][0] for r in runs]))
            sd = float(np.sqrt(np.mean([r[metric][1] ** 2 for r in runs])))
            observed = runs[0][metric][2]
            se_ours = sd / math.sqrt(k_ours)
            mean_ref, sd_ref = ref[metric]
            se_ref = 0.0 if k_ref is None else sd_ref / math.sqrt(k_ref)
            z = (mean - mean_ref) / math.sqrt(se_ours**2 + se_ref**2)
            kappa, kappa_ref = ((observed - m) / (1 - m) for m in (mean, mean_ref))
            label = case.name + ("" if k_ref is None else " (mc)")
            print(
                f"{label:30s} {metric:6s} {mean:10.6f} {se_ours:9.2e} {mean_ref:10.6f} {se_ref:9.2e} "
                f"{z:6.2f}   {kappa:8.4f} / {kappa_ref:8.4f}  {secs:5.0f}  sd {sd:.4f}/{sd_ref:.4f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
