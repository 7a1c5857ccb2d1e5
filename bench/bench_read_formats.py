"""Benchmark: reading one large annotation pair in every format segagree reads in bulk.

    PYTHONPATH=src .venv/bin/python bench/bench_read_formats.py [--tokens 250000] [--repeat 3]
        [--compare-repeat 1] [--dir DIR]

Fixed inputs: the synthetic pair of ``bench_commands.write_pair`` (two annotators, about
``--tokens`` tokens each, seeded), written as CSV and converted with
``segagree.formats.write_document`` to Du Bois text (``.txt``), ELAN (``.eaf``), Praat
(``.TextGrid``) and native JSON (``.segagree.json``). For each format: the best of
``--repeat`` in-process ``read_document`` calls on the first file (seconds, tokens per second),
the best of ``--repeat`` ``write_document`` calls writing that Document back in its format,
and the best of ``--compare-repeat`` wall times of a whole ``python -m segagree compare A B``
subprocess on the pair. With ``--dir`` the files are kept there and reused when present (to
time two versions of the code on the same bytes); by default they go to a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_commands import write_pair  # noqa: E402

from segagree.formats import read_document, write_document  # noqa: E402

FORMATS = (".csv", ".txt", ".eaf", ".TextGrid", ".segagree.json")


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def inputs(folder: Path, n_tokens: int) -> dict[str, tuple[Path, Path]]:
    """The pair in every format (written once; reused when already in ``folder``)."""
    a, b = folder / f"text{n_tokens}.a1.csv", folder / f"text{n_tokens}.a2.csv"
    if not (a.exists() and b.exists()):
        a, b = write_pair(folder, n_tokens)
    out = {".csv": (a, b)}
    for ext in FORMATS[1:]:
        pair = []
        for src in (a, b):
            dst = src.with_name(src.name[: -len(".csv")] + ext)
            if not dst.exists():
                write_document(read_document(src), dst)
            pair.append(dst)
        out[ext] = (pair[0], pair[1])
    return out


def run(folder: Path, args: argparse.Namespace) -> None:
    files = inputs(folder, args.tokens)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    header = ("MB", 6), ("tokens", 8), ("read s", 7), ("tokens/s", 11), ("write s", 7), ("compare s", 9)
    print(f"{'format':15s} " + " ".join(f"{name:>{width}s}" for name, width in header))
    for ext, (a, b) in files.items():
        doc = read_document(a)
        n = doc.n_tokens
        read_s = best(lambda p=a: read_document(p), args.repeat)
        scratch = folder / f"written{ext}"
        write_s = best(lambda d=doc, p=scratch: write_document(d, p), args.repeat)
        scratch.unlink()
        cmp_times = []
        for _ in range(args.compare_repeat):
            t0 = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, "-m", "segagree", "compare", str(a), str(b)], capture_output=True, text=True
            )
            cmp_times.append(time.perf_counter() - t0)
            if proc.returncode:
                print(f"  compare failed ({proc.returncode}): {proc.stderr.strip()[-300:]}")
        size = a.stat().st_size / 1e6
        print(f"{ext:15s} {size:6.1f} {n:8d} {read_s:7.3f} {n / read_s:11,.0f} {write_s:7.3f} {min(cmp_times):9.2f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=250_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--compare-repeat", type=int, default=1)
    ap.add_argument("--dir", type=Path, help="keep (and reuse) the input files here")
    args = ap.parse_args()
    if args.dir:
        args.dir.mkdir(parents=True, exist_ok=True)
        run(args.dir, args)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            run(Path(tmp), args)


if __name__ == "__main__":
    main()
