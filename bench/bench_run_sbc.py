"""Benchmark: the whole `segagree run` command on the 60 SBC documents, cold and warm.

The corpus is ../shared/corpora/sbc_iubound_prediction (gold IU segmentation in ``old/``
against a model's prediction in ``new/``: 60 texts, one pair each, about 250k tokens); the
benchmark is skipped with a message when it is absent. For each --jobs value: a cold run
(--fresh, empty output folder) with kappa (K = --sims), review workbooks and the report, then
the same run again with nothing changed (warm: everything is reused from the resume log and
the manifest). Prints wall seconds, CPU seconds of the command and its workers (a figure that
a busy machine disturbs less), the load average at the start, and the sizes of report.html,
results.jsonl and the review folder. Runs --repeat times and prints the best.

    .venv/bin/python bench/bench_run_sbc.py [--jobs 1 2] [--sims 1000] [--no-kappa] [--repeat 1] [--warm-only]
        [--side-by-side]

``--side-by-side`` also times each cold run with ``--no-workbooks``, alternating with the run
with them (the workbooks' share, measured under the same load).

Goals (2 cores): cold --jobs 2 at most 30 s, warm at most 3 s, --jobs 2 never slower
than --jobs 1, report.html at most 2 MB. Issue 31: cold --jobs 2 with the workbooks (the
default) at most 8 s. Measured on 26 Nov 2026 side by side at load 12-17 (wall times there say
nothing; CPU of the command and its workers): main with --workbooks 27.9 s, this branch (workbooks
by default, written by the workers) 18.6 s; without workbooks 10.4 s (main) and 11.8 s. Then
(operations sheets written in bulk, outputs/xlsx_rows.py), alternating with the code before it at
load 2.4-3.5: 14.0 and 14.2 s CPU before, 10.8 and 10.8 s after (wall 8.0-13.1 s before, 9.6-11.5
s after: the load decided it); about 4 s of that CPU is start-up (each worker's first task imports
numba and loads the kappa kernels: about 1 s).
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

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpora" / "sbc_iubound_prediction"


def _cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def _run(
    out: Path, jobs: int, sims: int, fresh: bool, kappa: bool = True, workbooks: bool = True
) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and its worker processes)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cmd = [sys.executable, "-m", "segagree", "run", str(CORPUS), "-o", str(out), "--jobs", str(jobs)]
    cmd += ["--sims", str(sims), "-q"] + (["--fresh"] if fresh else []) + ([] if kappa else ["--no-kappa"])
    cmd += [] if workbooks else ["--no-workbooks"]
    t0, c0 = time.perf_counter(), _cpu()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    if proc.returncode != 0:
        raise SystemExit(f"segagree run failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")
    return wall, cpu


def _size(path: Path) -> float:
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6
    return path.stat().st_size / 1e6 if path.exists() else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=1, help="runs per measurement; the best is printed")
    ap.add_argument("--no-kappa", action="store_true", help="without the kappa simulation (the outputs' share)")
    ap.add_argument("--warm-only", action="store_true", help="one cold run, then time only warm runs")
    ap.add_argument("--side-by-side", action="store_true", help="also time cold runs with --no-workbooks")
    args = ap.parse_args()
    if not CORPUS.is_dir():
        print(f"skipped: {CORPUS} is absent (the shared corpora are not checked out next to the repository)")
        return
    kappa = "off" if args.no_kappa else f"K={args.sims}"
    print(f"corpus {CORPUS} (60 texts), kappa {kappa}, workbooks and report on; {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        for jobs in args.jobs:
            out = Path(tmp) / f"out{jobs}"
            cold, bare = [], []
            for _ in range(1 if args.warm_only else args.repeat):
                if args.side_by_side:
                    if out.exists():
                        shutil.rmtree(out)
                    load = os.getloadavg()[0]
                    bare.append((*_run(out, jobs, args.sims, True, not args.no_kappa, workbooks=False), load))
                if out.exists():
                    shutil.rmtree(out)
                load = os.getloadavg()[0]
                cold.append((*_run(out, jobs, args.sims, fresh=True, kappa=not args.no_kappa), load))
            warm = []
            for _ in range(args.repeat):
                load = os.getloadavg()[0]
                warm.append((*_run(out, jobs, args.sims, fresh=False, kappa=not args.no_kappa), load))
            (c, c_cpu, c_load), (w, w_cpu, w_load) = min(cold), min(warm)
            print(
                f"--jobs {jobs}: cold {c:6.1f} s wall, {c_cpu:.1f} s CPU (load {c_load:.1f}); "
                f"warm {w:5.2f} s wall, {w_cpu:.2f} s CPU (load {w_load:.1f}); "
                f"report.html {_size(out / 'report.html'):.2f} MB, "
                f"results.jsonl {_size(out / 'results.jsonl'):.2f} MB, "
                f"review/ {_size(out / 'review'):.1f} MB"
            )
            if bare:
                b, b_cpu, b_load = min(bare)
                print(f"--jobs {jobs} --no-workbooks: cold {b:6.1f} s wall, {b_cpu:.1f} s CPU (load {b_load:.1f})")


if __name__ == "__main__":
    main()
