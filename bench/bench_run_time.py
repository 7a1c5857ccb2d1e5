"""Benchmark: ``segagree run --time`` with ``--jobs 1`` against ``--jobs 2``, and a rerun with nothing changed.

A fixed generated corpus (seed 1): N texts (default 36) × 3 annotators, each a units table of about U
(default 100) units on a 3·U s stretch, every annotator a noisy copy of the text's units (times shifted by N(0, 0.3) s,
one unit in ten left out, one category in five changed). Whole commands (start-up, reading, scoring every
measure of the time group with gamma's default samples, the summary, the report with a page and a timeline
per text), each into a fresh output folder, then the ``--jobs 1`` command again with nothing changed.
Prints wall seconds, CPU seconds of the command and its workers (user + sys, from ``getrusage`` of the
children), the ratio jobs 2 / jobs 1 and the load average at the start (the machine may be shared).

    .venv/bin/python bench/bench_run_time.py [--texts 36] [--units 100] [--keep DIR]

Measured on 26 Nov 2026, 2 cores shared with other work at load average 12-15 (so the wall times say
little; the CPU seconds do): 36 texts × 3 × ~100 units: --jobs 1 55.5 s wall, 13.0 s CPU; --jobs 2
65.5 s wall, 15.1 s CPU (the workers' start-up); summaries identical; rerun with nothing changed 2.4 s
wall, 0.58 s CPU (0.40 s with bytecode caching on). ~30 units: 7.5 s CPU (--jobs 1), 9.8 s (--jobs 2).

Goals: ``--jobs 2`` at most 0.7 × the wall time of ``--jobs 1`` on 2 cores; a rerun with
nothing changed at most 1 s.
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
ANNOTATORS = ("a1", "a2", "a3")


def make_corpus(root: Path, n_texts: int, units: int = 30, seed: int = 1) -> None:
    """The corpus of the module docstring under ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    for t in range(n_texts):
        base = np.sort(rng.uniform(0, units * 3, units))
        cats = rng.choice(["x", "y", "z"], units)
        for who in ANNOTATORS:
            lines = ["annotator,start,end,category"]
            for start, cat in zip(base, cats, strict=True):
                if rng.random() < 0.1:
                    continue
                s = max(0.0, start + rng.normal(0, 0.3))
                c = cat if rng.random() < 0.8 else rng.choice(["x", "y", "z"])
                lines.append(f"{who},{s:.3f},{s + abs(rng.normal(1.5, 0.4)) + 0.1:.3f},{c}")
            (root / f"t{t:02d}.{who}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def timed(args: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and its workers) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {proc.stderr[-800:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--texts", type=int, default=36)
    parser.add_argument(
        "--units", type=int, default=100, help="units per text and annotator (before one in ten is left out)"
    )
    parser.add_argument("--keep", type=Path, help="keep the corpus and outputs in this folder")
    opts = parser.parse_args()
    work = opts.keep or Path(tempfile.mkdtemp(prefix="segagree-bench-time-"))
    corpus = work / "corpus"
    if corpus.exists():
        shutil.rmtree(corpus)
    make_corpus(corpus, opts.texts, opts.units)
    print(
        f"{opts.texts} texts x {len(ANNOTATORS)} annotators x ~{opts.units} units; "
        f"load average at start {os.getloadavg()[0]:.1f}"
    )
    base = [sys.executable, "-m", "segagree", "run", str(corpus), "--time", "-q"]
    results = {}
    for jobs in (1, 2):
        out = work / f"out{jobs}"
        shutil.rmtree(out, ignore_errors=True)
        results[jobs] = timed([*base, "-o", str(out), "--jobs", str(jobs)])
        print(f"--jobs {jobs}: {results[jobs][0]:7.2f} s wall, {results[jobs][1]:7.2f} s CPU")
    same = (work / "out1" / "summary.csv").read_bytes() == (work / "out2" / "summary.csv").read_bytes()
    print(f"jobs 2 / jobs 1 wall: {results[2][0] / results[1][0]:.2f} (summaries identical: {same})")
    wall, cpu = timed([*base, "-o", str(work / "out1"), "--jobs", "1"])
    print(f"rerun, nothing changed: {wall:.2f} s wall, {cpu:.2f} s CPU; load average {os.getloadavg()[0]:.1f}")
    if not opts.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
