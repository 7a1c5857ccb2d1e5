"""segagree's kernels load numba without its BLAS probe (metrics/numba_import.py): scipy.linalg is not
imported by them, the probe's module can still be imported afterwards, and the kernels' numbers
are the references' (TER against sacrebleu here; the kappa kernel: tests/metrics/test_kappa_pinned.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CODE = """
import sys
from segagree.metrics.subtitles.ter_kernel import ter_pairs
from segagree.metrics.chance.kernels import score_draws
assert score_draws is not None
pairs = [(("a", "b", "c", "d"), ("b", "a", "c", "e")), (("x",), ("x", "y", "z"))]
got = ter_pairs(pairs)
print("scipy.linalg" in sys.modules)
from sacrebleu.metrics.lib_ter import translation_edit_rate
want = [translation_edit_rate(list(h), list(r)) for h, r in pairs]
assert [tuple(map(float, g)) for g in got] == [tuple(map(float, w)) for w in want]
import scipy.linalg.cython_blas  # the probe's module still imports
print("ok")
"""


def test_kernels_load_without_scipy_linalg_and_keep_their_numbers() -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    run = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True, env=env)
    out = run.stdout.split()
    assert out == ["False", "ok"]
