"""Benchmark: the whole `segagree run` on a synthetic corpus of about 250,000 tokens.

60 texts of about 4,000 tokens, 2 annotators, 2-3 speakers, realistic disagreements (boundary
every ~6 tokens with Du Bois endnotes; the second annotator shifts, retypes, drops and adds
about 15 % of them and edits a few words), kappa with K = 1,000, every review workbook and the
report. Prints wall time and peak memory for --jobs 1 and --jobs 2.

    .venv/bin/python bench/bench_run.py [--texts 60] [--tokens 4000] [--sims 1000]
"""

from __future__ import annotations

import argparse
import csv
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ENDNOTES = [",", ".", "?", "--"]
WORDS = [f"w{i}" for i in range(400)]


def make_text(rng: np.random.Generator, n_tokens: int) -> tuple[list[list[str]], list[list[str]]]:
    """Rows (speaker, utterance) of two annotators for one text."""
    speakers = [f"S{i}" for i in range(int(rng.integers(2, 4)))]
    tokens = list(rng.choice(WORDS, size=n_tokens))
    owner = []
    spk = 0
    while len(owner) < n_tokens:  # turns of 5-60 tokens
        owner.extend([speakers[spk]] * int(rng.integers(5, 60)))
        spk = (spk + int(rng.integers(1, len(speakers)))) % len(speakers)
    owner = owner[:n_tokens]
    bounds_a = (rng.random(n_tokens) < 1 / 6).astype(int) * rng.integers(1, 5, n_tokens)
    for i in range(1, n_tokens):
        if owner[i] != owner[i - 1] and bounds_a[i - 1] == 0:
            bounds_a[i - 1] = 2  # a turn ends a unit
    bounds_a[-1] = bounds_a[-1] or 2
    bounds_b = bounds_a.copy()
    for i in np.flatnonzero(bounds_a):
        r = rng.random()
        if r < 0.05 and i + 1 < n_tokens and owner[i + 1] == owner[i] and bounds_b[i + 1] == 0:
            bounds_b[i + 1], bounds_b[i] = bounds_b[i], 0  # shift
        elif r < 0.10:
            bounds_b[i] = int(rng.integers(1, 5))  # retype
        elif r < 0.13 and i + 1 < n_tokens and owner[i + 1] == owner[i]:
            bounds_b[i] = 0  # drop
    for i in rng.choice(n_tokens, size=n_tokens // 60, replace=False):
        if bounds_b[i] == 0:
            bounds_b[i] = int(rng.integers(1, 5))  # add
    tokens_b = list(tokens)
    for i in rng.choice(n_tokens, size=n_tokens // 500, replace=False):
        tokens_b[i] = tokens_b[i] + "x"  # a corrected word
    return _rows(tokens, owner, bounds_a), _rows(tokens_b, owner, bounds_b)


def _rows(tokens, owner, bounds) -> list[list[str]]:
    streams: dict[str, list[int]] = {}
    order = []
    for i, s in enumerate(owner):
        streams.setdefault(s, []).append(i)
    rows = []
    current: dict[str, list[str]] = {}
    for i, s in enumerate(owner):
        current.setdefault(s, []).append(tokens[i])
        last_of_stream = i == streams[s][-1]
        if bounds[i] or last_of_stream:
            note = ENDNOTES[bounds[i] - 1] if bounds[i] else ""
            rows.append([s, " ".join(current[s] + ([note] if note else []))])
            current[s] = []
    del order
    return rows


def write_corpus(folder: Path, n_texts: int, n_tokens: int, seed: int = 2024) -> int:
    rng = np.random.default_rng(seed)
    total = 0
    for t in range(n_texts):
        a, b = make_text(rng, n_tokens)
        for ann, rows in (("a1", a), ("a2", b)):
            with (folder / f"text{t:03d}.{ann}.csv").open("w", newline="", encoding="utf-8") as fh:
                w = csv.writer(fh)
                w.writerow(["Speaker", "Utterance"])
                w.writerows(rows)
        total += n_tokens
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--texts", type=int, default=60)
    ap.add_argument("--tokens", type=int, default=4000)
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        corpus.mkdir()
        total = write_corpus(corpus, args.texts, args.tokens)
        print(
            f"synthetic corpus: {args.texts} texts x {args.tokens} tokens = {total:,} tokens, 2 annotators; "
            f"kappa K={args.sims}; workbooks and report on"
        )
        for jobs in args.jobs:
            out = Path(tmp) / f"out{jobs}"
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            t0 = time.perf_counter()
            proc = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "segagree",
                    "run",
                    str(corpus),
                    "-o",
                    str(out),
                    "--jobs",
                    str(jobs),
                    "--sims",
                    str(args.sims),
                    "--fresh",
                    "-q",
                ],
                capture_output=True,
                text=True,
            )
            wall = time.perf_counter() - t0
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            status = "ok" if proc.returncode == 0 else f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}"
            print(
                f"--jobs {jobs}: {wall:7.1f} s wall, {total / wall:,.0f} tokens/s, "
                f"peak RSS of one process {max(peak, before) / 1024:,.0f} MiB ({status})"
            )


if __name__ == "__main__":
    main()
