"""The README's ``make test``, whole, on a fresh clone (the venv included), as CI runs it.

Clones this repository's committed ``HEAD`` into a temporary folder with ``../shared`` beside it,
runs ``make test`` there (with ``CI=true``) and reports its wall time, the CPU time of everything
it ran (the venv, pip, byte-compiling, the numba kernels, the code-health gate, the tests) and
pytest's summary line. ``--load N`` runs N busy processes (``while True: pass``) beside it the
whole time, to see the suite on a machine others share (their CPU is not counted).

    python bench/bench_suite.py             # quiet machine
    python bench/bench_suite.py --load 2    # beside two busy processes
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--load", type=int, default=0, help="busy processes beside the suite (default 0)")
    args = parser.parse_args()
    shared = (REPO.parent / "shared").resolve()
    with tempfile.TemporaryDirectory(prefix="bench_suite_") as tmp:
        root = Path(tmp)
        if shared.is_dir():
            (root / "shared").symlink_to(shared)
        subprocess.run(["git", "clone", "-q", str(REPO), str(root / "repo")], check=True)
        busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.load)]
        try:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.monotonic()
            proc = subprocess.run(
                ["make", "test"], cwd=root / "repo", env={**os.environ, "CI": "true"}, capture_output=True, text=True
            )
            wall = time.monotonic() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)  # before the busy ones are reaped
        finally:
            for p in busy:
                p.kill()
                p.wait()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = [ln for ln in proc.stdout.splitlines() if re.search(r"\d+ passed", ln)]
    beside = f", beside {args.load} busy processes" if args.load else ""
    print(f"make test on a fresh clone{beside}: {wall:.0f} s wall, {cpu:.0f} s CPU, exit {proc.returncode}")
    print(summary[-1] if summary else proc.stdout[-2000:] + proc.stderr[-2000:])
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
