"""Compile segagree's numba kernels into their on-disk cache (``make bytecode`` runs this).

The kappa simulation's kernels (:mod:`segagree.metrics.chance.kernels`), the TER and SubER kernels
(:mod:`segagree.metrics.subtitles.ter_kernel`, :mod:`segagree.metrics.subtitles.suber_kernel`) are compiled on
first use and cached beside their sources
(``cache=True``). Compiling them costs about 8 s of CPU; on a fresh clone, every process
that first needs them (each pytest-xdist worker, each ``run --jobs`` worker) would pay it at
once. This calls them once on the sample corpus with the types real use gives, so later
processes only load the cache (about 1 s).

    .venv/bin/python bench/warm_kernels.py
"""

from __future__ import annotations

import time
from pathlib import Path

import segagree

SAMPLE = Path(__file__).resolve().parents[1] / "sample_corpora"


def main() -> None:
    start = time.process_time()
    segagree.agree(SAMPLE / "garden.ann1.txt", SAMPLE / "garden.ann2.txt", sims=20)
    segagree.compare(SAMPLE / "film.ref.srt", SAMPLE / "film.mt.srt", metrics="subtitles")
    print(f"numba kernels ready ({time.process_time() - start:.1f} s of CPU)")


if __name__ == "__main__":
    main()
