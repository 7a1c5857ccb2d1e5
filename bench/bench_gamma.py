"""Speed of gamma (30 samples): whole process from a units CSV through the measure.

Fixed synthetic inputs (seeded): annotators × units of 3 × 100, 2 × 1,000 and 5 × 100, each a
jittered copy of one base segmentation with units dropped and added, three categories. Each size
runs in a fresh process (start-up, import, reading the CSV, gamma with 30 samples, the JSON) and
the median of the repeats is printed with its targets. When ``segagree agree --time``
exists, the same CSV is also timed through the CLI.

    PYTHONPATH=src python bench/bench_gamma.py [--repeats 3] [--sampler statistical|shuffle] [--jobs 1]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

SIZES = ((3, 100, 2.0), (2, 1000, 3.0), (5, 100, 30.0))


def write_units(path: Path, annotators: int, units: int, seed: int = 7) -> None:
    """A base segmentation (units with gaps) jittered per annotator, ~5% dropped and ~5% added."""
    rng = np.random.default_rng(seed)
    gaps = rng.exponential(0.4, units)
    durations = rng.uniform(0.5, 3.0, units)
    starts = np.cumsum(gaps + np.concatenate([[0], durations[:-1]]))
    cats = rng.integers(0, 3, units)
    with path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["annotator", "start", "end", "category"])
        for a in range(annotators):
            keep = rng.random(units) > 0.05
            s = starts[keep] + rng.normal(0, 0.15, keep.sum())
            e = s + np.maximum(0.1, durations[keep] + rng.normal(0, 0.15, keep.sum()))
            c = np.where(rng.random(keep.sum()) < 0.9, cats[keep], rng.integers(0, 3, keep.sum()))
            extra = int(units * 0.05)
            xs = rng.uniform(0, float(starts[-1]), extra)
            rows = [
                *zip(s, e, c, strict=True),
                *zip(xs, xs + rng.uniform(0.3, 2, extra), rng.integers(0, 3, extra), strict=True),
            ]
            for si, ei, ci in rows:
                out.writerow([f"coder{a + 1}", f"{si:.3f}", f"{ei:.3f}", f"cat{ci}"])


RUNNER = r"""
import csv, json, sys
import numpy as np
from segagree.metrics.contract import UnitSet
from segagree.metrics.registry import get_measure
path, sampler, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(path, newline="", encoding="utf-8") as fh:
    rows = list(csv.DictReader(fh))
ann = list(dict.fromkeys(r["annotator"] for r in rows))
cats = sorted({r["category"] for r in rows})
units = UnitSet(ann, cats, np.array([ann.index(r["annotator"]) for r in rows]),
                np.array([float(r["start"]) for r in rows]), np.array([float(r["end"]) for r in rows]),
                np.array([cats.index(r["category"]) for r in rows]))
res = get_measure("gamma").compute([units], {"samples": 30, "seed": 1, "sampler": sampler, "jobs": jobs})
print(json.dumps({"gamma": res.value, "D_o": res.observed_disorder, "D_e": res.expected_disorder}))
"""


def timed(cmd: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{done.stderr}")
    return elapsed, done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--sampler", default="statistical")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    env_note = f"{os.cpu_count()} cores, sampler {args.sampler}, jobs {args.jobs}, median of {args.repeats}"
    print(f"gamma, 30 samples, whole process from a units CSV ({env_note})")
    with tempfile.TemporaryDirectory() as tmp:
        for n, k, target in SIZES:
            path = Path(tmp) / f"units_{n}x{k}.csv"
            write_units(path, n, k)
            times, last = [], ""
            for _ in range(args.repeats):
                t, last = timed([sys.executable, "-c", RUNNER, str(path), args.sampler, str(args.jobs)])
                times.append(t)
            med = statistics.median(times)
            flag = "ok" if med <= target else "OVER"
            print(
                f"{n} x {k:>5}: median {med:6.2f} s (runs {', '.join(f'{t:.2f}' for t in times)}) "
                f"target {target:.0f} s {flag}  {json.loads(last) if last else ''}"
            )
            cli = [sys.executable, "-m", "segagree", "agree", "--time", str(path), "--measure", "gamma", "--json"]
            probe = subprocess.run(
                [sys.executable, "-m", "segagree", "agree", "--help"], capture_output=True, text=True
            )
            if "--time" in probe.stdout:
                ct = [timed(cli)[0] for _ in range(args.repeats)]
                print(f"          CLI `segagree agree --time`: median {statistics.median(ct):6.2f} s")


if __name__ == "__main__":
    main()
