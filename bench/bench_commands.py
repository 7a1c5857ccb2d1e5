"""Benchmark: whole `segagree compare` and `segagree agree` commands, timed as subprocesses.

Fixed inputs (seed 2024): one text of N tokens (default 250,000 and 1,000,000), three speakers
in turns of 5-60 tokens, a boundary every ~6 tokens with Du Bois endnotes; annotator B shifts,
retypes, drops and adds about 15 % of A's boundaries on the same transcript. Both are written
as CSV tables (Turn, Speaker, Utterance, row_id: the NCCU layout) into a temporary folder.

    .venv/bin/python bench/bench_commands.py [--tokens 250000 1000000] [--sims 1000] [--repeat 3]
        [--agree-tokens 250000] [--no-agree]

Prints per command the best and median wall seconds of ``--repeat`` runs, tokens per second,
the peak RSS of the command's process and the 1-minute load average before the runs (the
machine may be shared; read the best). The first agree run ever compiles the simulation
kernel (numba caches it on disk). Start-up (``python -m segagree --help``) is timed too.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ENDNOTES = [",", ".", "?", "--"]
WORDS = [f"w{i}" for i in range(400)]


def make_pair(n_tokens: int, seed: int = 2024) -> tuple[list[list[str]], list[list[str]]]:
    """Rows ``[Turn, Speaker, Utterance, row_id]`` of annotators A and B for one text."""
    rng = np.random.default_rng(seed)
    speakers = ["F1:", "M2:", "F3:"]
    tokens = rng.choice(WORDS, size=n_tokens)
    owner = np.empty(n_tokens, dtype=np.int64)
    at, spk = 0, 0
    while at < n_tokens:  # turns of 5-60 tokens
        length = int(rng.integers(5, 60))
        owner[at : at + length] = spk
        at += length
        spk = (spk + int(rng.integers(1, len(speakers)))) % len(speakers)
    bounds_a = (rng.random(n_tokens) < 1 / 6) * rng.integers(1, 5, n_tokens)
    turn_end = np.flatnonzero(owner[1:] != owner[:-1])
    bounds_a[turn_end] = np.where(bounds_a[turn_end] == 0, 2, bounds_a[turn_end])  # a turn ends a unit
    bounds_b = bounds_a.copy()
    for i in np.flatnonzero(bounds_a):
        r = rng.random()
        same_next = i + 1 < n_tokens and owner[i + 1] == owner[i]
        if r < 0.05 and same_next and bounds_b[i + 1] == 0:
            bounds_b[i + 1], bounds_b[i] = bounds_b[i], 0  # shift
        elif r < 0.10:
            bounds_b[i] = int(rng.integers(1, 5))  # retype
        elif r < 0.13 and same_next:
            bounds_b[i] = 0  # drop
    add = rng.choice(n_tokens, size=n_tokens // 60, replace=False)
    bounds_b[add] = np.where(bounds_b[add] == 0, rng.integers(1, 5, add.size), bounds_b[add])
    return _rows(tokens, owner, bounds_a, speakers), _rows(tokens, owner, bounds_b, speakers)


def _rows(tokens: np.ndarray, owner: np.ndarray, bounds: np.ndarray, speakers: list[str]) -> list[list[str]]:
    last = {s: i for i, s in enumerate(owner.tolist())}
    rows: list[list[str]] = []
    current: dict[int, list[str]] = {s: [] for s in range(len(speakers))}
    turn = 1
    for i, (tok, s, b) in enumerate(zip(tokens.tolist(), owner.tolist(), bounds.tolist(), strict=True)):
        current[s].append(tok)
        if b or i == last[s]:
            words = current[s] + ([ENDNOTES[b - 1]] if b else [])
            rows.append([str(turn), speakers[s], " ".join(words), f"R{len(rows):08d}"])
            current[s] = []
        if i + 1 < len(owner) and owner[i + 1] != s:
            turn += 1
    return rows


def write_pair(folder: Path, n_tokens: int) -> tuple[Path, Path]:
    paths = []
    for ann, rows in zip(("a1", "a2"), make_pair(n_tokens), strict=True):
        path = folder / f"text{n_tokens}.{ann}.csv"
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["Turn", "Speaker", "Utterance", "row_id"])
            w.writerows(rows)
        paths.append(path)
    return paths[0], paths[1]


def time_command(args: list[str], repeat: int) -> tuple[float, float, float, str]:
    """Best and median wall seconds, peak RSS (MiB) of the command, and a status."""
    times, peak, status = [], 0.0, "ok"
    for _ in range(repeat):
        t0 = time.perf_counter()
        # /usr/bin/time would add a dependency: read the child's peak RSS via wait4.
        proc = subprocess.Popen(
            [sys.executable, "-m", "segagree", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        _, code, usage = os.wait4(proc.pid, 0)
        times.append(time.perf_counter() - t0)
        peak = max(peak, usage.ru_maxrss / 1024)
        err = proc.stderr.read().decode() if proc.stderr else ""
        proc.returncode = os.waitstatus_to_exitcode(code)
        if proc.returncode:
            status = f"exit {proc.returncode}: {err.strip()[-300:]}"
    return min(times), statistics.median(times), peak, status


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, nargs="+", default=[250_000, 1_000_000])
    ap.add_argument("--agree-tokens", type=int, nargs="+", default=[250_000])
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-agree", action="store_true")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    print(f"{'command':44s} {'tokens':>9s} {'best s':>7s} {'median s':>8s} {'tokens/s':>11s} {'peak MiB':>8s}")

    def show(label: str, n: int, cmd: list[str]) -> None:
        best, med, peak, status = time_command(cmd, args.repeat)
        rate = f"{n / best:,.0f}" if n else "-"
        print(f"{label:44s} {n:9,d} {best:7.2f} {med:8.2f} {rate:>11s} {peak:8.0f}  {status}", flush=True)

    show("segagree --help", 0, ["--help"])
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sizes = sorted(set(args.tokens) | (set() if args.no_agree else set(args.agree_tokens)))
        # Written by a child process: a parent grown by the generated arrays would be counted in
        # every command's peak RSS (a forked child starts with its parent's resident pages).
        code = "import sys; sys.path.insert(0, sys.argv[1]); from bench_commands import write_pair; "
        code += "from pathlib import Path; [write_pair(Path(sys.argv[2]), int(n)) for n in sys.argv[3:]]"
        here = str(Path(__file__).resolve().parent)
        subprocess.run([sys.executable, "-c", code, here, str(folder), *map(str, sizes)], check=True)
        files = {n: (folder / f"text{n}.a1.csv", folder / f"text{n}.a2.csv") for n in sizes}
        for n in args.tokens:
            a, b = files[n]
            show("compare A B", n, ["compare", str(a), str(b)])
        if not args.no_agree:
            for n in args.agree_tokens:
                a, b = files[n]
                cmd = ["agree", str(a), str(b), "--sims", str(args.sims), "-q"]
                show(f"agree A B --sims {args.sims} -q", n, cmd)
                show("  ... --mc-tolerance 0.0001", n, [*cmd, "--mc-tolerance", "0.0001"])
            for n in args.tokens:
                a, b = files[n]
                show("compare A B --json", n, ["compare", str(a), str(b), "--json"])


if __name__ == "__main__":
    main()
