"""Benchmark: each reader's peak memory against the size of the file it reads.

    PYTHONPATH=src .venv/bin/python bench/bench_reader_memory.py [--tokens 20000 80000 320000]
        [--formats .txt .csv ...] [--dir DIR]

Fixed inputs: annotator A's table of ``bench_commands.make_pair`` (seed 2024, three speakers,
about ``--tokens`` tokens), written as CSV and converted with ``write_document`` to every
writable format (the writers invent times where a format needs them). Each file is read by
``read_document`` in a fresh subprocess that first imports the libraries every reader may use
(numpy, pandas, lxml, openpyxl); the reader's memory is the growth of the process's peak RSS
(``VmHWM``) over that baseline. Printed per format and size: the file's MB, the growth in
MB, their ratio (the budget is about 10), and the reader's CPU seconds. The largest size shows
the ratio a large file tends to; the growth of a small file is mostly fixed costs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_commands import write_pair  # noqa: E402

from segagree.formats import read_document, write_document  # noqa: E402

FORMATS = (
    ".txt",
    ".csv",
    ".xlsx",
    ".segagree.json",
    ".eaf",
    ".TextGrid",
    ".srt",
    ".vtt",
    ".cha",
    ".trs",
    ".exb",
    ".tagged",
)

# (The peak is the process's VmHWM: ru_maxrss carries the parent's peak over fork and exec.)
_CHILD = """
import sys, time
import numpy, pandas, lxml.etree, openpyxl
from segagree.formats import read_document
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
base = hwm()
t0 = time.process_time()
doc = read_document(sys.argv[1])
cpu = time.process_time() - t0
print(base, hwm(), cpu, doc.n_tokens)
"""


def inputs(folder: Path, n_tokens: int, formats: list[str]) -> dict[str, Path]:
    """Annotator A's table in every format (written once; reused when already in ``folder``)."""
    src = folder / f"text{n_tokens}.a1.csv"
    if not src.exists():
        src, _ = write_pair(folder, n_tokens)
    doc = None
    out = {}
    for ext in formats:
        dst = src if ext == ".csv" else src.with_name(src.name[: -len(".csv")] + ext)
        if not dst.exists():
            doc = doc or read_document(src)
            write_document(doc, dst)
        out[ext] = dst
    return out


def measure(path: Path) -> tuple[float, float, int]:
    """Peak RSS growth (MB), CPU seconds and tokens of reading ``path`` in a fresh process."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    res = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True, text=True, env=env)
    if res.returncode:
        raise SystemExit(f"reading {path} failed: {res.stderr.strip()[-500:]}")
    base, peak, cpu, n = res.stdout.split()
    return (int(peak) - int(base)) / 1024, float(cpu), int(n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, nargs="+", default=[20_000, 80_000, 320_000])
    parser.add_argument("--formats", nargs="+", default=list(FORMATS))
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    print(f"load average (1 min): {os.getloadavg()[0]:.2f}")
    print(f"{'format':15} {'tokens':>8} {'file MB':>8} {'peak+ MB':>9} {'ratio':>6} {'cpu s':>6}")
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.dir or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for n_tokens in args.tokens:
            for ext, path in inputs(folder, n_tokens, args.formats).items():
                size = path.stat().st_size / 1024 / 1024
                grown, cpu, n = measure(path)
                print(f"{ext:15} {n:8d} {size:8.2f} {grown:9.1f} {grown / size:6.1f} {cpu:6.2f}", flush=True)


if __name__ == "__main__":
    main()
