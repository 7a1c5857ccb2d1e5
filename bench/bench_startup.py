"""Start-up time of whole ``segagree`` commands (goal: --help and --version <= 0.2 s).

Each command runs N times as a fresh subprocess (``python -m segagree ...``, the sources of this
checkout first on the path); the best and median wall times are printed, with plain
``python -c pass`` as the floor. Best-of-N is the figure to compare with the goal: on a shared
machine the median mostly measures the other processes.

    python bench/bench_startup.py [N]
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COMMANDS = [
    ["-c", "pass"],
    ["-m", "segagree", "--help"],
    ["-m", "segagree", "--version"],
    ["-m", "segagree", "compare", "--help"],
    ["-m", "segagree", "run", "--help"],
    ["-c", "import segagree"],
]


def wall_times(args: list[str], n: int) -> tuple[list[float], list[float]]:
    """Wall times and CPU times (user + system of the child) of n runs."""
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "COLUMNS": "80"}
    walls, cpus = [], []
    for _ in range(n):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, *args], env=env, stdout=subprocess.DEVNULL, check=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return walls, cpus


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    print(f"start-up of whole commands, {n} runs each (seconds; CPU = user + system of the process)")
    for args in COMMANDS:
        walls, cpus = wall_times(args, n)
        label = " ".join(args[2:] if args[0] == "-m" else args)
        print(
            f"  {label:<20} wall best {min(walls):.3f} median {statistics.median(walls):.3f}   CPU best {min(cpus):.3f}"
        )


if __name__ == "__main__":
    main()
