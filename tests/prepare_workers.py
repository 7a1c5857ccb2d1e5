"""Do once, in one process, what every test worker would otherwise do at the same time.

``make test`` runs this before the workers start:

1. compile the numba kernels into their on-disk cache (``bench/warm_kernels.py``);
2. rewrite the test modules' asserts into pytest's own cache (``tests/rewrite_asserts.py``);
3. load what the forked command-line tests load (``tests/cli_process._load_once``), so that the
   bytecode of every module segagree imports is written once (the Makefile lets Python write it).

One process instead of three: numpy, pandas, numba and segagree are imported once (3 s of CPU less,
on the path before the first test).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "bench")]
    import warm_kernels

    warm_kernels.main()
    import rewrite_asserts

    rewrite_asserts.main([])
    import cli_process

    cli_process._load_once()
    print("prepare_workers: kernels compiled, asserts rewritten, modules loaded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
