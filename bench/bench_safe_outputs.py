"""Benchmark: what the issue-29 defences cost on the output side.

A fixed synthetic pair (seed 29: two speakers, --tokens words, boundaries drawn independently by the
two annotators, so a few thousand operations) is compared once; then, CPU seconds (user+sys of
this process, the best of --repeat):

* ``review``: :func:`write_review_workbook` (cells checked against XLSX's length, rows against a
  sheet's, full SHA-1 of both sources);
* ``adjudicate``: every row decided ``B``, the gold written (path, digest and row-id checks, the
  comparison recomputed from B's file);
* ``safe_rows`` (only where :mod:`segagree.files.cells` exists): 200,000 summary-like rows,
  a fifth of them with a cell starting with ``=``, neutralised, against writing them raw.

Run it with this tree and with an older one side by side (the same script; PYTHONPATH picks the tree):

    PYTHONPATH=src .venv/bin/python bench/bench_safe_outputs.py
    PYTHONPATH=/tmp/oldtree/src .venv/bin/python bench/bench_safe_outputs.py

Measured 26 Nov 2026, 2 cores shared with seven other sessions (load average 11.9), --tokens
20000 (4,628 operation rows), best of 3 CPU seconds, the two trees run one after the other:
review 0.34 (before the safe outputs, commit 8af779b: 0.33), adjudicate 0.84 (0.84); safe_rows over
200,000 rows 0.19 against 0.01 raw (about 1 microsecond a row).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

import openpyxl

from segagree.adjudication.tokens import adjudicate
from segagree.corpus.config import RunConfig
from segagree.corpus.tasks import run_task
from segagree.outputs.review_workbook import write_review_workbook


def _pair(folder: Path, n_tokens: int) -> tuple[Path, Path]:
    rng = random.Random(29)
    words = [f"w{rng.randrange(500)}" for _ in range(n_tokens)]
    speakers = ["ANN", "BOB"]
    paths = []
    for ann in ("a", "b"):
        lines, unit = [], []
        for i, w in enumerate(words):
            unit.append(w)
            if rng.random() < 0.15 or i == len(words) - 1:
                lines.append(f"{speakers[(i // 500) % 2]}: {' '.join(unit)} {rng.choice(['.', ',', '?'])}")
                unit = []
        path = folder / f"t.{ann}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def _cpu(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tokens", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    cfg = RunConfig()
    cfg.kappa.enabled = False
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        a, b = _pair(folder, args.tokens)
        result = run_task("t", "a", "b", str(a), str(b), cfg)
        assert result["ok"], result.get("error")
        wb_path = folder / "r.xlsx"
        review = _cpu(lambda: write_review_workbook(wb_path, [result], cfg), args.repeat)
        wb = openpyxl.load_workbook(wb_path)
        ws = wb["Operations"]
        col = [c.value for c in ws[1]].index("decision") + 1
        for r in range(2, ws.max_row + 1):
            ws.cell(r, col).value = "B"
        wb.save(wb_path)
        rows = ws.max_row - 1
        adj = _cpu(lambda: adjudicate(wb_path, folder / "gold.txt"), args.repeat)
        print(f"operations rows {rows}; CPU s: review {review:.2f}, adjudicate {adj:.2f}")
    try:
        from segagree.files.cells import safe_rows
    except ImportError:
        return
    rng = random.Random(29)
    data = [
        {"text": f"t{i}", "speaker": "=cmd" if rng.random() < 0.2 else "ANN", "value": rng.random() - 0.5}
        for i in range(200_000)
    ]
    safe = _cpu(lambda: list(safe_rows(data, raw=False)), args.repeat)
    raw = _cpu(lambda: list(safe_rows(data, raw=True)), args.repeat)
    print(f"safe_rows 200,000 rows: {safe:.2f} CPU s (raw {raw:.2f})")


if __name__ == "__main__":
    main()
