"""Benchmark: ``segagree run --jobs 2`` at scale: the 60 SBC pairs copied under new names.

The corpus ../shared/corpora/sbc_iubound_prediction (``old/`` gold IU segmentation against
``new/`` a model's prediction, 60 texts, one pair each) is copied N times over under new names
(``sbc001_c0007.csv``: copy 7 of sbc001) into a temporary folder of one folder per annotator,
so a run of N texts scores N pairs of real data. For each size: a cold run (``--fresh``, empty
output folder; kappa K = --sims, review workbooks and the report as the defaults say), then
the same command again with nothing changed (warm). Whole commands (start-up, reading,
writing). Prints wall seconds, seconds per text, CPU seconds of the command and its workers
(per text too: a figure a busy machine disturbs less than wall time), the command's peak memory (the largest
resident set of the command or any of its workers, from ``getrusage`` of a wrapper process),
the entry page's size, the load average at the start (the machine may be shared).

    .venv/bin/python bench/bench_run_scale.py [--texts 200 2000] [--jobs 2] [--sims 1000] [--keep DIR]
        [--src OTHER/src]   # --src: time another source tree (a baseline) with the same corpus

Measured on 25 Nov 2026 (2 cores shared with other work; load average in brackets), --jobs 2:
before (main, workbooks on by default) 200 texts 50.8 s, 0.224 s CPU per text, 423 MB, report
4.5 MB [3.6]; after (workbooks opt-in) 200 texts 38.3 s, 0.110 s CPU per text, 179 MB, 0.09 MB
[3.1]; 2,000 texts 0.122 s CPU per text, 180 MB (1.0 x the 200-text peak), 0.61 MB, a rerun with
nothing changed 1.96 s [3.1] (the cold wall time, 1370 s, was taken at load 12 and says nothing).

The review workbooks are on by default (``-- --no-workbooks`` leaves them
out); a text with one pair gets its workbook from the worker that scored it.

Measured on 26 Nov 2026 with the workbooks (the default), side by side with the same command and
corpus (--keep, --src), alternating, load 1.5-2.5: 200 texts before (workbooks written cell by
cell) 0.212 and 0.205 s CPU per text, 41.7 s and 28.5 s wall (0.142 s per text at best), 193 MB;
after (an operations sheet's rows in bulk, outputs/xlsx_rows.py) 0.150 and 0.144 s CPU per text,
22.7 s and 15.4 s wall (0.077 s per text at best), 190-199 MB. 2,000 texts after: 0.130 s CPU
per text, 241 s wall (0.121 s per text, at load 3.4-4.8: the machine was shared, and CPU per text
says more), 204 MB (1.0 x the 200-text peak), report.html 0.61 MB, a rerun with nothing changed
1.5 s. Where a worker's text goes (the 60 SBC texts in one process, CPU): 169 ms before, 114 ms
after: the kappa simulation (K = 1,000) 60 ms, the workbook 92 -> 37 ms (XlsxWriter's zip and
shared strings are most of what is left), reading, pairing and scoring 16 ms. With 2 workers on 2
quiet cores that is about 0.065 s of wall per text, plus the summary, pages and report after the
scoring (about 3 ms per text at 2,000).

Goals (2 cores): at most 0.08 s per text at 2,000 texts with --jobs 2; peak memory at
2,000 texts at most 1.5 times that at 200; report.html at most 3 MB; a warm run at most 5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpora" / "sbc_iubound_prediction"
# Runs the command in a child and prints the largest resident set (kB) of it and its workers.
WRAPPER = (
    "import resource, subprocess, sys;"
    "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE);"
    "sys.stderr.write(rc.stderr.decode()[-800:]);"
    "use = resource.getrusage(resource.RUSAGE_CHILDREN);"
    "print(use.ru_maxrss, use.ru_utime + use.ru_stime);"
    "sys.exit(rc.returncode)"
)


def make_corpus(folder: Path, n_texts: int) -> None:
    """``folder/old`` and ``folder/new`` with ``n_texts`` copies of the SBC pairs under new names."""
    names = sorted(p.name for p in (CORPUS / "old").iterdir() if p.suffix == ".csv")
    for annotator in ("old", "new"):
        (folder / annotator).mkdir(parents=True, exist_ok=True)
    for i in range(n_texts):
        name = names[i % len(names)]
        copy = f"{Path(name).stem}_c{i // len(names):04d}.csv"
        for annotator in ("old", "new"):
            shutil.copyfile(CORPUS / annotator / name, folder / annotator / copy)


def run(
    corpus: Path, out: Path, jobs: int, sims: int, fresh: bool, extra: list[str], src: Path
) -> tuple[float, float, float]:
    """(wall seconds, peak memory in MB, CPU seconds of it and its workers) of one whole command."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    cmd = [sys.executable, "-m", "segagree", "run", str(corpus), "-o", str(out), "--jobs", str(jobs)]
    cmd += ["--sims", str(sims), "-q", *(["--fresh"] if fresh else []), *extra]
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", WRAPPER, *cmd], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"segagree run failed ({proc.returncode}): {proc.stderr.strip()}")
    peak, cpu = proc.stdout.split()[-2:]
    return wall, int(peak) / 1024, float(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--texts", type=int, nargs="+", default=[200, 2000])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--keep", type=Path, help="build the corpora and outputs here and keep them")
    ap.add_argument("--src", type=Path, default=ROOT / "src", help="the segagree source tree to run (a baseline)")
    ap.add_argument("extra", nargs="*", help="further options for segagree run (after --)")
    args = ap.parse_args()
    if not CORPUS.is_dir():
        print(f"skipped: {CORPUS} is absent (the shared corpora are not checked out next to the repository)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        base = args.keep or Path(tmp)
        results = []
        for n in args.texts:
            corpus, out = base / f"corpus{n}", base / f"out{n}"
            if not corpus.is_dir():
                make_corpus(corpus, n)
            if out.exists():
                shutil.rmtree(out)
            load = os.getloadavg()[0]
            cold, peak, cpu = run(corpus, out, args.jobs, args.sims, True, args.extra, args.src)
            warm, _, _ = run(corpus, out, args.jobs, args.sims, False, args.extra, args.src)
            page = (out / "report.html").stat().st_size / 1e6 if (out / "report.html").exists() else 0.0
            row = dict(texts=n, cold_s=round(cold, 1), s_per_text=round(cold / n, 4), warm_s=round(warm, 2))
            row.update(cpu_s=round(cpu, 1), cpu_s_per_text=round(cpu / n, 4))
            row.update(peak_mb=round(peak), report_mb=round(page, 2), load=round(load, 1))
            results.append(row)
            print(json.dumps(row), flush=True)
        if len(results) > 1:
            print(
                f"peak memory ratio {results[-1]['peak_mb'] / results[0]['peak_mb']:.2f} "
                f"({results[-1]['texts']} / {results[0]['texts']} texts)"
            )


if __name__ == "__main__":
    main()
