"""Benchmark: ``segagree agree --time`` of a whole lab export, one units table with the columns
``annotator,recording,start,end,category``: 7 annotators × 36 recordings, about 22,000 units.

Two fixed generated tables (``--shape``):

* ``dense`` (seed 3): per recording a reference segmentation of 90 units (gaps U(0.3, 2.5) s, lengths
  U(0.4, 3) s, categories a-e); each annotator a noisy copy: one unit in twelve left out, one in fifteen
  split in two at a random point, both ends jittered by N(0, 0.15) s, one category in six changed;
* ``gestures`` (seed 7): 87 units per recording of 0.3-2 s with gaps of 0.5-3 s, three categories; each
  annotator a copy with ends jittered by N(0, 0.15) s, one unit in twenty left out, one in twenty split in
  two, one category in five changed (sparser: fewer candidate groups per alignment).

The whole command is timed (start-up, reading, every measure of the time group with gamma's default
30 samples, per recording and pooled, the JSON printed): wall seconds and CPU seconds of the command and
its workers (user + sys, ``getrusage`` of the children), the load average at the start (the machine may
be shared), and whether the JSON of every ``--jobs`` value is the same.

    .venv/bin/python bench/bench_time_export_jobs.py [--shape dense|gestures] [--recordings 36] [--jobs 1 2]
        [--keep DIR]

Measured on 28 Nov 2026 (2 cores, load average 0.7-1.5 at the start), the whole 36 recordings:

| table | main c15ac2c, ``--jobs 2`` | now ``--jobs 1`` | now ``--jobs 2`` |
|---|---|---|---|
| dense, 22,171 units | 262 s wall, 518 s CPU | 161.8 s wall (before the branch and bound) | 74.4 s wall, 146.5 s CPU |
| gestures, 21,892 units | ~150 s wall (6 recordings: 26 s) | 75.6 s wall | 38.2 s wall, 74.8 s CPU |

The JSON of both ``--jobs`` values is identical, and identical to main c15ac2c's on 5 dense and 8
gesture recordings (``cmp``). The time is gamma's 31 best alignments per recording (one observed, 30
sampled continua), ~65 ms (gestures) to ~130 ms (dense) each: the compiled search for the candidate groups
and HiGHS's simplex (column generation) a third each, the branch and bound, the pricing and the rest the
last third. Before that (main a2cbd00), each measure aligned every recording again: 372 s for 6 dense
recordings alone.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CATEGORIES = ("a", "b", "c", "d", "e")
GESTURES = ("gesture", "hold", "stroke")


def write_export(path: Path, recordings: int = 36, annotators: int = 7, units: int = 90, seed: int = 3) -> int:
    """The dense table of the module docstring at ``path``; returns its number of units."""
    rng = np.random.default_rng(seed)
    rows = ["annotator,recording,start,end,category"]
    for r in range(recordings):
        gaps = rng.uniform(0.3, 2.5, units)
        lengths = rng.uniform(0.4, 3.0, units)
        starts = np.cumsum(gaps + np.concatenate([[0.0], lengths[:-1]]))
        cats = rng.choice(CATEGORIES, units)
        for a in range(annotators):
            for s, d, c in zip(starts, lengths, cats, strict=True):
                if rng.random() < 1 / 12:
                    continue
                s2 = max(0.0, s + rng.normal(0, 0.15))
                e2 = max(s2 + 0.05, s + d + rng.normal(0, 0.15))
                cat = c if rng.random() >= 1 / 6 else str(rng.choice(CATEGORIES))
                if rng.random() < 1 / 15:
                    cut = s2 + (e2 - s2) * rng.uniform(0.3, 0.7)
                    rows.append(f"coder{a + 1},rec{r + 1:02d},{s2:.3f},{cut:.3f},{cat}")
                    rows.append(f"coder{a + 1},rec{r + 1:02d},{cut:.3f},{e2:.3f},{cat}")
                else:
                    rows.append(f"coder{a + 1},rec{r + 1:02d},{s2:.3f},{e2:.3f},{cat}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return len(rows) - 1


def write_gestures(path: Path, recordings: int = 36, annotators: int = 7, units: int = 87, seed: int = 7) -> int:
    """The gesture table of the module docstring at ``path``; returns its number of units."""
    rng = np.random.default_rng(seed)
    rows = ["annotator,recording,start,end,category"]
    for r in range(recordings):
        base = []
        t = rng.uniform(0, 2)
        for _ in range(units):
            d = rng.uniform(0.3, 2.0)
            base.append((t, t + d, str(rng.choice(GESTURES))))
            t += d + rng.uniform(0.5, 3.0)
        for a in range(annotators):
            for s, e, cat in base:
                u = rng.random()
                if u < 0.05:
                    continue
                s2 = max(0.0, s + rng.normal(0, 0.15))
                e2 = max(s2 + 0.05, e + rng.normal(0, 0.15))
                if rng.random() < 0.2:
                    cat = str(rng.choice(GESTURES))
                if u > 0.95:
                    mid = (s2 + e2) / 2
                    rows.append(f"r{a},rec{r:02d},{s2:.3f},{mid:.3f},{cat}")
                    rows.append(f"r{a},rec{r:02d},{mid:.3f},{e2:.3f},{cat}")
                else:
                    rows.append(f"r{a},rec{r:02d},{s2:.3f},{e2:.3f},{cat}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return len(rows) - 1


def timed(args: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the command and its workers, stdout) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {proc.stderr[-800:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--recordings", type=int, default=36)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="--jobs values to time, in turn")
    parser.add_argument("--keep", type=Path, help="keep the table in this folder")
    parser.add_argument("--shape", choices=("dense", "gestures"), default="dense", help="which table (docstring)")
    opts = parser.parse_args()
    work = opts.keep or Path(tempfile.mkdtemp(prefix="segagree-bench-export-"))
    work.mkdir(parents=True, exist_ok=True)
    table = work / "export.csv"
    n = (write_export if opts.shape == "dense" else write_gestures)(table, opts.recordings)
    load = os.getloadavg()[0]
    print(f"{opts.shape}: {opts.recordings} recordings x 7 annotators, {n} units; load average at start {load:.1f}")
    outputs = {}
    for jobs in opts.jobs:
        cmd = [sys.executable, "-m", "segagree", "agree", "--time", str(table), "--json", "--jobs", str(jobs)]
        wall, cpu, out = timed(cmd)
        outputs[jobs] = out
        print(f"--jobs {jobs}: {wall:7.1f} s wall, {cpu:7.1f} s CPU")
    print(f"JSON identical for every --jobs: {len(set(outputs.values())) == 1}")
    if not opts.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
