"""Benchmark: whole `segagree agree --time` commands on units tables, per measure of the time group.

Fixed inputs (seed 21): A annotators x N units each (default 3 x 100, 2 x 1,000, 5 x 100), units of
0.3-4 s with gaps of 0-1 s, three categories; each further annotator moves every boundary by up to
0.3 s, relabels 10 % of the units and drops 5 %. Written as one units CSV per size.

    .venv/bin/python bench/bench_time_measures.py [--sizes 3x100 2x1000 5x100] [--repeat 3]
        [--measures alpha_u u_alpha ...]

Prints, per size and measure, the best and median wall seconds of ``--repeat`` whole commands
(start-up, reading, scoring, printing JSON) and units per second; then all measures of the group
together (the default command). The machine may be shared: read the best, compare ratios.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

CATS = ("beat", "point", "iconic")


def make_table(n_annotators: int, n_units: int, seed: int = 21) -> str:
    rng = np.random.default_rng(seed)
    lengths = rng.uniform(0.3, 4.0, n_units)
    gaps = rng.uniform(0.0, 1.0, n_units)
    starts = np.cumsum(gaps + np.concatenate([[0.0], lengths[:-1]]))
    ends = starts + lengths
    cats = rng.integers(0, len(CATS), n_units)
    rows = ["annotator,start,end,category"]
    for a in range(n_annotators):
        s, e, c = starts.copy(), ends.copy(), cats.copy()
        keep = np.ones(n_units, dtype=bool)
        if a:
            s = s + rng.uniform(-0.3, 0.3, n_units)
            e = np.maximum(s + 0.05, e + rng.uniform(-0.3, 0.3, n_units))
            flip = rng.random(n_units) < 0.1
            c[flip] = rng.integers(0, len(CATS), int(flip.sum()))
            keep = rng.random(n_units) >= 0.05
        s = np.maximum(s, 0.0)
        rows += [f"a{a},{x:.3f},{y:.3f},{CATS[k]}" for x, y, k, ok in zip(s, e, c, keep, strict=True) if ok]
    return "\n".join(rows) + "\n"


def time_command(args: list[str], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "segagree", *args], capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        if proc.returncode != 0:
            raise SystemExit(f"failed: segagree {' '.join(args)}\n{proc.stderr}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", nargs="+", default=["3x100", "2x1000", "5x100"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--measures", nargs="*", default=None, help="default: every measure of the time group")
    opts = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from segagree.metrics.registry import group_names

    measures = opts.measures or group_names("time")
    with tempfile.TemporaryDirectory() as tmp:
        for size in opts.sizes:
            n_ann, n_units = (int(x) for x in size.split("x"))
            path = Path(tmp) / f"units_{size}.csv"
            path.write_text(make_table(n_ann, n_units), encoding="utf-8")
            total = n_ann * n_units
            for label, extra in [*((m, ["--measure", m]) for m in measures), ("all", [])]:
                t = time_command(["agree", "--time", str(path), "--json", *extra], opts.repeat)
                best, med = min(t), statistics.median(t)
                print(f"{size:>8} {label:>16}: best {best:6.2f} s  median {med:6.2f} s  {total / best:9.0f} units/s")


if __name__ == "__main__":
    main()
