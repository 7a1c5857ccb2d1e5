"""Benchmark: simulated kappa of S_f / S_f^B (K simulations) on the NCCU texts and on a
synthetic pair; wall time, CPU time of this process and peak traced memory.

    .venv/bin/python bench/bench_kappa.py [--sims 1000] [--jobs 1] [--synthetic 250000] [--scheme dubois]

cpu s is this process's CPU time (worker processes not included with --jobs > 1); peak MiB is
measured in a second, traced run (tracemalloc slows numpy down, so it is not timed).

NCCU texts whose two transcripts differ (t004, t025, t036) are paired with alignment.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from pathlib import Path

import numpy as np

from segagree.adapters import read_document
from segagree.errors import MismatchError
from segagree.metrics.agreement import sf_kappa
from segagree.pipeline.pairing import pair_annotations
from segagree.schemas.scheme import builtin_scheme

NCCU = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "nccu"


def run(label: str, a: dict, b: dict, scheme, sims: int, jobs: int, chance: str, trace: bool) -> None:
    """Time one untraced run; then measure the peak traced (numpy + Python) memory in a second run."""
    wall, cpu = time.perf_counter(), time.process_time()
    res = sf_kappa(a, b, scheme, chance=chance, sims=sims, seed=12345, jobs=jobs)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = float("nan")
    if trace:
        tracemalloc.start()
        sf_kappa(a, b, scheme, chance=chance, sims=sims, seed=12345, jobs=jobs)
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    n = int(res.n_tokens.sum())
    k_sf, k_b = res.pooled["sf"], res.pooled["sf_b"]
    print(
        f"{label:22s} {n:8d} {len(res.speakers):3d} {wall:8.2f} {cpu:8.2f} {peak:9.1f}   "
        f"{k_sf.kappa:.4f}±{k_sf.se:.4f}  {k_b.kappa:.4f}±{k_b.se:.4f}",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--synthetic", type=int, default=250_000, help="tokens of the synthetic pair (0: skip)")
    ap.add_argument("--scheme", default="dubois")
    ap.add_argument("--chance", default="cohen")
    ap.add_argument("--no-trace", action="store_true", help="skip the memory-tracing second run")
    args = ap.parse_args()
    scheme = builtin_scheme(args.scheme)
    print(f"K={args.sims} jobs={args.jobs} scheme={args.scheme} chance={args.chance} mode=optimal")
    print(
        f"{'text':22s} {'tokens':>8s} {'spk':>3s} {'wall s':>8s} {'cpu s':>8s} {'peak MiB':>9s}   "
        "kappa S_f        kappa S_f^B"
    )
    for a1 in sorted(NCCU.glob("nccu_t*.a1.csv")):
        a2 = a1.with_name(a1.name.replace(".a1.", ".a2."))
        da, db = read_document(a1, scheme=scheme), read_document(a2, scheme=scheme)
        label = a1.name.split(".")[0]
        try:
            pair = pair_annotations(da, db, scheme=scheme)
        except MismatchError:
            pair = pair_annotations(da, db, scheme=scheme, align=True)
            label += " (aligned)"
        run(label, pair.arrays_a, pair.arrays_b, scheme, args.sims, args.jobs, args.chance, not args.no_trace)
    if args.synthetic:
        rng = np.random.default_rng(0)
        p = [0.8, 0.08, 0.06, 0.01, 0.01, 0.04]
        sizes = [args.synthetic // 4] * 3 + [args.synthetic - 3 * (args.synthetic // 4)]
        a = {f"S{i}": rng.choice(6, n, p=p) for i, n in enumerate(sizes)}
        # B: A with 10% of positions redrawn, so the pair agrees well above chance
        b = {}
        for s, x in a.items():
            y = x.copy()
            m = rng.random(x.size) < 0.1
            y[m] = rng.choice(6, int(m.sum()), p=p)
            b[s] = y
        run(f"synthetic {args.synthetic}", a, b, scheme, args.sims, args.jobs, args.chance, not args.no_trace)


if __name__ == "__main__":
    main()
