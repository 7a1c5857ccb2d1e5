"""Benchmark: simulated kappa of S_f / S_f^B (K simulations) on the NCCU texts and on a
synthetic pair; wall time, CPU time of this process and peak traced memory.

    .venv/bin/python bench/bench_kappa.py [--sims 1000] [--jobs 1] [--synthetic 250000] [--scheme dubois]
    .venv/bin/python bench/bench_kappa.py --whole [--baseline OLD/src] [--repeats 3]

``--whole`` times the whole command, ``segagree agree A B --sims 1000 -q`` on
bench_commands.py's 250,000-token pair (written to a temporary folder), as subprocesses: wall and
CPU (user + system) seconds; with ``--baseline`` (a ``src`` folder of another segagree, e.g. from
``git archive``) both run alternately in one run, and their ``--json`` outputs are compared.

cpu s is this process's CPU time (worker processes not included with --jobs > 1); peak MiB is
measured in a second, traced run (tracemalloc slows numpy down, so it is not timed).

Measured on 27 Nov 2026 (2 cores, load 1.1), ``--whole --baseline`` with 8af779b's src, median of
3: this tree 2.67 s wall, 4.07 s CPU (the simulations on both CPUs: ``--threads``, default all);
8af779b 5.80 s wall, 5.79 s CPU; the same ``--json`` numbers.

NCCU texts whose two transcripts differ (t004, t025, t036) are paired with alignment.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from pathlib import Path

import numpy as np

from segagree.errors import MismatchError
from segagree.formats import read_document
from segagree.metrics.chance.sf_kappa import sf_kappa
from segagree.model.scheme import builtin_scheme
from segagree.scoring.tokens.pairing import pair_annotations

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


def whole(sims: int, repeats: int, baseline: Path | None) -> None:
    """Time the whole ``agree`` command (this tree, and ``baseline`` if given), side by side."""
    import json
    import os
    import resource
    import statistics
    import subprocess
    import sys
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_commands import write_pair

    here = str(Path(__file__).resolve().parents[1] / "src")
    trees = {"segagree": here, **({"baseline": str(baseline.resolve())} if baseline else {})}
    with tempfile.TemporaryDirectory() as tmp:
        a, b = write_pair(Path(tmp), 250_000)
        cmd = [sys.executable, "-m", "segagree", "agree", str(a), str(b), "--sims", str(sims)]

        def run(src: str, extra: str) -> tuple[float, float, str]:
            env = {**os.environ, "PYTHONPATH": src}
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            out = subprocess.run([*cmd, extra], capture_output=True, text=True, check=True, env=env).stdout
            wall = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out

        outputs = {name: json.loads(run(src, "--json")[2]) for name, src in trees.items()}  # also warms numba
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
        print(f"agree 250,000 tokens, K = {sims}, -q; load average {os.getloadavg()[0]:.1f} before")
        for k in range(repeats):
            for name, src in list(trees.items())[:: 1 if k % 2 == 0 else -1]:
                wall, cpu, _ = run(src, "-q")
                times[name].append((wall, cpu))
        for name, ts in times.items():
            walls, cpus = [w for w, _ in ts], [c for _, c in ts]
            print(
                f"  {name:9s} wall median {statistics.median(walls):.2f} s "
                f"(min {min(walls):.2f}, max {max(walls):.2f}); "
                f"CPU median {statistics.median(cpus):.2f} s (min {min(cpus):.2f}, max {max(cpus):.2f})"
            )
        if baseline:
            ratio = [n[1] / o[1] for n, o in zip(times["segagree"], times["baseline"], strict=True)]
            med = statistics.median(ratio)
            print(f"  CPU segagree / baseline: median {med:.3f} (min {min(ratio):.3f}, max {max(ratio):.3f})")
            same = {k: v for k, v in outputs["segagree"].items() if k != "signature"} == {
                k: v for k, v in outputs["baseline"].items() if k != "signature"
            }
            print(f"  same --json numbers as the baseline: {same}")
        print(f"  load average {os.getloadavg()[0]:.1f} after")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--synthetic", type=int, default=250_000, help="tokens of the synthetic pair (0: skip)")
    ap.add_argument("--scheme", default="dubois")
    ap.add_argument("--chance", default="cohen")
    ap.add_argument("--no-trace", action="store_true", help="skip the memory-tracing second run")
    ap.add_argument("--whole", action="store_true", help="time the whole agree command (see above)")
    ap.add_argument("--baseline", type=Path, help="with --whole: a src folder of another segagree")
    ap.add_argument("--repeats", type=int, default=3, help="with --whole: runs per tree")
    args = ap.parse_args()
    if args.whole:
        whole(args.sims, args.repeats, args.baseline)
        return
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
