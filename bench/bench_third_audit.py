"""Benchmark: the third audit's growth cases, whole commands, as the input doubles.

Each case builds its input in a temporary folder and times the command (CPU seconds of the
command and its workers, from ``getrusage`` of the children; start-up included), at each size:

* ``run-disrpt``: ``segagree run --no-kappa --no-report --no-workbooks``, 2 annotators, one DISRPT
  file each holding N documents of 10 words;
* ``run-4``: the same with 4 annotators;
* ``panel-4``: ``segagree panel --machine a3``, 4 annotators, N documents;
* ``vtt``: ``segagree convert`` of a WebVTT file of two overlapping cues of N lines each;
* ``extent``: ``overlap_extent_units`` on N nested turns per annotator (in this process).

    .venv/bin/python bench/bench_third_audit.py [--cases run-disrpt run-4 ...] [--src OTHER/src]

``--src`` times another source tree (a baseline, e.g. a worktree of main) with the same inputs.

Measured on 2 Dec 2026 (2 cores shared with seven other helpers, so single figures are noisy),
CPU seconds, before (the commit before the third audit's fixes) -> after:

* run-disrpt 1,000 / 2,000 / 4,000 documents: issue 2.9 / 6.3 / 17.2 (8,000: 55.7); after 4.0 /
  7.8 / 13.9 (x1.9 per doubling); with the report (no workbooks) 500 / 1,000: 10.6 / 17.3;
* run-4 200 / 400 / 800 documents: issue 10.0 / 34.0 (600: 93.5); after 3.8 / 8.3 / 13.7;
* panel-4 200 / 400 / 800 documents: before 8.7 / 34.1 / 127.8; after 0.9 / 1.3 / 2.2 (user CPU;
  the default 1,000 resamples and 200 random panels);
* vtt, two cues of 10,000 / 20,000 / 40,000 lines that do not repeat each other: before 1.0 /
  2.5 (the slices compared for every k); after 0.6 / 1.1 / 2.1;
* extent, 2,000 / 4,000 / 8,000 / 16,000 nested turns (elan, greedy, largest): before 1.0 / 5.1 /
  ... (largest 0.9 / 3.7 / 14.3 at 1,000 / 2,000 / 4,000); after elan 0.07 / 0.15 / 0.28 / 0.48,
  largest 0.10 / 0.19 / 0.40 / 1.08; the three together (this script) 0.17 / 0.36 / 0.71 / 1.59;
  run-4 with this script 4.0 / 7.8 / 16.0.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROW = "{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t{misc}"


def _disrpt(folder: Path, annotators: int, documents: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(1)
    for a in range(annotators):
        parts = []
        for d in range(documents):
            rows = [
                ROW.format(i=i, w=f"w{i}", misc="BeginSeg=Yes" if i == 1 or rng.random() < 0.3 else "_")
                for i in range(1, 11)
            ]
            parts.append(f"# newdoc_id = doc{d}\n" + "\n".join(rows) + "\n")
        (folder / f"gum.a{a}.tok").write_text("\n".join(parts), encoding="utf-8")
    return folder


def _vtt(path: Path, lines: int) -> Path:
    text = ["WEBVTT", "", "00:00:00.000 --> 00:00:05.000", *(f"a {i}" for i in range(lines))]
    text += ["", "00:00:01.000 --> 00:00:06.000", *(f"b {i}" for i in range(lines))]
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    return path


def _command(args: list[str], src: str | None) -> float:
    """CPU seconds of ``segagree ARGS`` and its workers."""
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "segagree", *args], check=True, env=env, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _extent(n: int) -> float:
    from segagree.metrics.unitizing.overlap_extent import overlap_extent_units

    a = [(float(i), float(2 * n - i)) for i in range(n)]
    b = [(i + 0.5, 2 * n - i - 0.5) for i in range(n)]
    start = time.process_time()
    for pairing in ("elan", "greedy", "largest"):
        overlap_extent_units(a, b, pairing)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", nargs="*", default=["run-disrpt", "run-4", "panel-4", "vtt", "extent"])
    parser.add_argument("--src", help="another source tree to time (PYTHONPATH)")
    opts = parser.parse_args()
    sizes = {
        "run-disrpt": (1000, 2000, 4000),
        "run-4": (200, 400, 800),
        "panel-4": (200, 400, 800),
        "vtt": (10_000, 20_000, 40_000),
        "extent": (2000, 4000, 8000, 16000),
    }
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for case in opts.cases:
            figures = []
            for n in sizes[case]:
                where = root / f"{case}-{n}"
                if case == "run-disrpt":
                    corpus = _disrpt(where / "corpus", 2, n)
                    args = ["run", str(corpus), "-o", str(where / "out"), "--no-kappa", "--no-report", "--no-workbooks"]
                    cpu = _command([*args, "-q"], opts.src)
                elif case == "run-4":
                    corpus = _disrpt(where / "corpus", 4, n)
                    args = ["run", str(corpus), "-o", str(where / "out"), "--no-kappa", "--no-report", "--no-workbooks"]
                    cpu = _command([*args, "-q"], opts.src)
                elif case == "panel-4":
                    corpus = _disrpt(where / "corpus", 4, n)
                    cpu = _command(["panel", str(corpus), "--machine", "a3"], opts.src)
                elif case == "vtt":
                    where.mkdir(parents=True)
                    source = _vtt(where / "two.vtt", n)
                    cpu = _command(["convert", str(source), "-o", str(where / "two.json")], opts.src)
                else:
                    cpu = _extent(n)
                figures.append(f"{n:,}: {cpu:.2f} s")
                print(f"{case}: {', '.join(figures)}", flush=True)


if __name__ == "__main__":
    main()
