"""Benchmark: time-based agreement of a whole lab export (``segagree agree --time TABLE``).

A generated units table shaped like a lab's export: 7 annotators x 36 recordings, about 22,000
units in all (``--units`` per annotator and recording, default 87), columns annotator, recording,
start, end, category. Each recording has its own segmentation (units of 0.3-2 s with gaps of
0.5-3 s); each annotator is a noisy copy of it (times moved by N(0, 0.15) s, one unit in twenty
left out, one in twenty split in two, one category in five changed). Fixed seed.

Times the whole command (start-up, reading, every measure of the time group with its defaults,
the JSON output) with ``--jobs 1`` and ``--jobs 2``, checks that both print the same numbers,
and prints wall and CPU seconds (the command and its workers) and the load average at the start.

    .venv/bin/python bench/bench_time_export.py [--recordings 36] [--annotators 7] [--units 87]
        [--jobs 1 2] [--keep DIR]

Goal (2 cores): the 22,000-unit, 36-recording export in at most 60 s with ``--jobs 2``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

BIN = Path(sys.executable).parent


def write_export(path: Path, recordings: int = 36, annotators: int = 7, units: int = 87, seed: int = 7) -> int:
    """Write the table; return its number of units."""
    rng = np.random.default_rng(seed)
    rows = ["annotator,recording,start,end,category"]
    for r in range(recordings):
        base = []
        t = rng.uniform(0, 2)
        for _ in range(units):
            d = rng.uniform(0.3, 2.0)
            base.append((t, t + d, str(rng.choice(["gesture", "hold", "stroke"]))))
            t += d + rng.uniform(0.5, 3.0)
        for a in range(annotators):
            for s, e, cat in base:
                u = rng.random()
                if u < 0.05:
                    continue
                s2 = max(0.0, s + rng.normal(0, 0.15))
                e2 = max(s2 + 0.05, e + rng.normal(0, 0.15))
                if rng.random() < 0.2:
                    cat = str(rng.choice(["gesture", "hold", "stroke"]))
                if u > 0.95:
                    mid = (s2 + e2) / 2
                    rows.append(f"r{a},rec{r:02d},{s2:.3f},{mid:.3f},{cat}")
                    rows.append(f"r{a},rec{r:02d},{mid:.3f},{e2:.3f},{cat}")
                else:
                    rows.append(f"r{a},rec{r:02d},{s2:.3f},{e2:.3f},{cat}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return len(rows) - 1


def timed(cmd: list[str]) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--recordings", type=int, default=36)
    parser.add_argument("--annotators", type=int, default=7)
    parser.add_argument("--units", type=int, default=87)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--keep", type=Path)
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-time-export-"))
    folder.mkdir(parents=True, exist_ok=True)
    table = folder / "export.csv"
    n = write_export(table, args.recordings, args.annotators, args.units)
    print(f"{n} units, {args.annotators} annotators, {args.recordings} recordings; load {os.getloadavg()[0]:.2f}")
    outputs = {}
    for jobs in args.jobs:
        cmd = [str(BIN / "segagree"), "agree", "--time", str(table), "--json", "--jobs", str(jobs)]
        wall, cpu, out = timed(cmd)
        outputs[jobs] = json.loads(out)
        print(f"--jobs {jobs}: {wall:7.2f} s wall, {cpu:7.2f} s CPU")
    first = next(iter(outputs.values()))
    same = all(o == first for o in outputs.values())
    print("numbers identical for every --jobs" if same else "NUMBERS DIFFER between --jobs values")


if __name__ == "__main__":
    main()
