"""Benchmark: a DISRPT file of 50,000 tokens against a prediction, and a UD treebank's test file
against a re-segmentation, whole ``segagree compare`` commands (start-up and reading included).

    .venv/bin/python bench/bench_neighbour_formats.py [--tokens 50000] [--words 25000]

The files are synthesised with a seeded generator (documents of ~2,000 tokens, a unit every ~9
tokens, the prediction missing or moving one in ten); goals: each command at most 1 s.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROW = "{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t{misc}"


def _disrpt(n_tokens: int, seed: int, noise: float) -> str:
    rng = random.Random(seed)
    truth = random.Random(7)  # the same units for gold and prediction, before the noise
    lines, i = [], 0
    while i < n_tokens:
        lines.append(f"# newdoc id = doc{i // 2000}")
        for k in range(1, min(2000, n_tokens - i) + 1):
            begins = k == 1 or truth.random() < 1 / 9
            if k > 1 and rng.random() < noise:
                begins = not begins
            lines.append(ROW.format(i=k, w=f"w{i + k}", misc="BeginSeg=Yes" if begins else "_"))
        i += 2000
    return "\n".join(lines) + "\n"


def _ud(n_words: int, seed: int, noise: float) -> str:
    rng = random.Random(seed)
    truth = random.Random(11)
    lines, k = [], 0
    for i in range(n_words):
        k += 1
        lines.append(f"{k}\tw{i}\t_\t_\t_\t_\t0\troot\t_\t_")
        end = truth.random() < 1 / 15
        if rng.random() < noise:
            end = not end
        if end or i == n_words - 1:
            lines.append("")
            k = 0
    return "\n".join(lines) + "\n"


def _time(command: list[str]) -> float:
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        proc = subprocess.run(command, capture_output=True, text=True, check=False)
        best = min(best, time.perf_counter() - t0)
        if proc.returncode != 0:
            raise SystemExit(proc.stderr)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=50_000)
    ap.add_argument("--words", type=int, default=25_000)
    args = ap.parse_args()
    segagree = str(Path(sys.executable).parent / "segagree")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "gold.tok").write_text(_disrpt(args.tokens, 1, 0.0), encoding="utf-8")
        (folder / "pred.tok").write_text(_disrpt(args.tokens, 2, 0.1), encoding="utf-8")
        metrics = "disrpt_seg,b,s,pk,windowdiff,winpr,ghd"
        wall = _time([segagree, "compare", str(folder / "gold.tok"), str(folder / "pred.tok"), "--metric", metrics])
        print(f"DISRPT, {args.tokens:,} tokens, S_f and {metrics}: {wall:.2f} s (goal 1 s)")
        (folder / "gold.conllu").write_text(_ud(args.words, 1, 0.0), encoding="utf-8")
        (folder / "pred.conllu").write_text(_ud(args.words, 2, 0.05), encoding="utf-8")
        gold, pred = str(folder / "gold.conllu"), str(folder / "pred.conllu")
        wall = _time([segagree, "compare", gold, pred, "--metric", "ud_sentences"])
        print(f"UD, {args.words:,} words, S_f and ud_sentences: {wall:.2f} s (goal 1 s)")


if __name__ == "__main__":
    main()
