"""How fast a units table too large for gamma's alignment is refused: 7 annotators × 22,000
units, each a noisy copy of one segmentation, under ``ulimit -v`` (default 4 GB). Prints the command's
outcome, its CPU time (user + sys) and peak memory. Usage: ``python bench/bench_time_budget.py [--limit-mb 4000]``."""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def write_table(path: Path, annotators: int = 7, units: int = 22_000, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    base = []
    t = 0.0
    for _ in range(units // annotators):
        t += rng.uniform(0.5, 3)
        d = rng.uniform(0.3, 2)
        base.append((t, t + d))
        t += d
    rows = ["annotator,start,end,category"]
    for a in range(annotators):
        for s, e in base:
            s2 = s + rng.normal(0, 0.15)
            e2 = max(s2 + 0.05, e + rng.normal(0, 0.15))
            rows.append(f"r{a},{s2:.3f},{e2:.3f},{rng.choice(['x', 'y', 'z'])}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit-mb", type=int, default=4000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "big.csv"
        write_table(table)
        limit = args.limit_mb * 1024 * 1024

        def cap() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "segagree", "agree", "--time", str(table), "--measure", "gamma"],
            capture_output=True,
            text=True,
            preexec_fn=cap,  # noqa: PLW1509 (a resource limit for the child only)
            check=False,
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"exit code {proc.returncode}; wall {wall:.1f} s; CPU {cpu:.1f} s; peak RSS {after.ru_maxrss / 1024:.0f} MB")
    print((proc.stderr or proc.stdout).strip()[:400])


if __name__ == "__main__":
    main()
