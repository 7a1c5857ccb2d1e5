"""Benchmark: panel statistics of two machines among five humans (Fournier & Inkpen 2012, 3.4).

    .venv/bin/python bench/bench_panel.py [--texts 60] [--tokens 1500] [--boot 1000] [--perm 200]

Synthesises an SBC-sized dataset with a seeded generator: ``--texts`` texts of about ``--tokens``
tokens, a shared "true" segmentation per text (a boundary every ~15 tokens), five humans that
miss, move by one gap or add a few boundaries (each human more often than the last), and two
machines. Times
:func:`segagree.metrics.chance.panel.panel_statistics` with B and with S, and its three costly
steps separately: the per-pair parts (exact S or B, once per pair and text), the paired bootstrap
and the random panels (packed bit kernel).

Measured on the 2-core machine, defaults: B 1.04-1.63 s wall, S 0.98-1.21 s, 2.0-2.8 s in all
(goal: at most 10 s); per similarity the parts take 0.15-0.25 s, the 1000 paired resamples
0.01 s and the 200 random panels about 1.05 s. ``--command``: the whole ``segagree panel``
command reading the 420 files, 1.9 s (B) and 1.7 s (S). S_f (endnote types at random): 8.8-12 s
(the 200 random panels' S_f with transpositions, scored sparsely, are most of it; B + S_f is at or
just over the 10 s goal on a busy machine).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from segagree.metrics.boundary.masses import as_segmentation
from segagree.metrics.chance import panel as ps
from segagree.metrics.chance.bootstrap import bootstrap_ci

HUMANS = [f"human{k}" for k in range(1, 6)]
MACHINES = ["machine_a", "machine_b"]


def _masses(presence: np.ndarray) -> list[int]:
    edges = np.concatenate(([0], np.flatnonzero(presence) + 1, [presence.size + 1]))
    return np.diff(edges).tolist()


def _coding(rng: np.random.Generator, truth: np.ndarray, miss: float, move: float, extra: float) -> list[int]:
    n = truth.size
    out = truth & (rng.random(n) >= miss)
    moved = np.flatnonzero(out & (rng.random(n) < move))
    out[moved] = False
    out[np.clip(moved + rng.choice([-1, 1], moved.size), 0, n - 1)] = True
    out |= rng.random(n) < extra
    return _masses(out)


def synthesise(n_texts: int, tokens: int, seed: int = 2012) -> dict[str, dict[str, list[int]]]:
    """``{text: {coder: masses}}``: five humans near each text's truth, two noisier machines."""
    rng = np.random.default_rng(seed)
    data: dict[str, dict[str, list[int]]] = {}
    for t in range(n_texts):
        n = int(rng.integers(int(tokens * 0.8), int(tokens * 1.2)))
        truth = rng.random(n - 1) < 1 / 15
        # humans of different care, so that they change agreement differently
        text = {h: _coding(rng, truth, 0.06 + 0.05 * k, 0.1 + 0.03 * k, 0.005 * (k + 1)) for k, h in enumerate(HUMANS)}
        text["machine_a"] = _coding(rng, truth, 0.25, 0.25, 0.02)
        text["machine_b"] = _coding(rng, truth, 0.45, 0.3, 0.04)
        data[f"text{t:03d}"] = text
    return data


def _steps(data: dict, similarity: str, n_boot: int, n_perm: int) -> dict[str, float]:
    """Seconds of the parts, the bootstrap and the random panels, timed apart."""
    items = list(data)
    coders = [*HUMANS, *MACHINES]
    grid = [[as_segmentation(data[i][c]) for i in items] for c in coders]
    t0 = time.perf_counter()
    parts = ps.pair_parts(grid, similarity, 2)
    t1 = time.perf_counter()
    lay = ps._Layout(len(HUMANS), len(MACHINES))
    members = lay.members()
    bootstrap_ci(
        len(items),
        lambda w: ps._changes(ps._coefficients(ps._weighted_sums(parts, w), parts.pairs, members, "pi"), lay),
        n_boot=n_boot,
    )
    t2 = time.perf_counter()
    streams = [(np.random.default_rng([1, k]), [k]) for k in range(len(coders))]
    ps._chance_parts(grid, streams, parts.pairs, similarity, 2, n_perm)
    t3 = time.perf_counter()
    return {"parts": t1 - t0, "bootstrap": t2 - t1, "random panels": t3 - t2}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--texts", type=int, default=60)
    ap.add_argument("--tokens", type=int, default=1500)
    ap.add_argument("--boot", type=int, default=1000)
    ap.add_argument("--perm", type=int, default=200)
    ap.add_argument(
        "--command", action="store_true", help="also time the whole `segagree panel` command on the data as text files"
    )
    args = ap.parse_args()
    data = synthesise(args.texts, args.tokens)
    n_bnd = np.mean([len(m) - 1 for text in data.values() for m in text.values()])
    print(f"{args.texts} texts, ~{args.tokens} tokens, {n_bnd:.0f} boundaries per coding on average")
    print(f"5 humans + 2 machines; n_boot={args.boot}, n_perm={args.perm}")
    total_wall = total_cpu = 0.0
    for similarity in ("b", "s"):
        w0, c0 = time.perf_counter(), time.process_time()
        res = ps.panel_statistics(data, MACHINES, similarity=similarity, n_boot=args.boot, n_perm=args.perm)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        total_wall += wall
        total_cpu += cpu
        print(f"{similarity}: panel_statistics {wall:.2f} s wall, {cpu:.2f} s CPU")
        for m in MACHINES:
            print(f"   {m}: {res.results[m]['verdict']}")
        steps = _steps(data, similarity, args.boot, args.perm)
        print("   steps: " + ", ".join(f"{k} {v:.2f} s" for k, v in steps.items()))
    print(f"total (b and s): {total_wall:.2f} s wall, {total_cpu:.2f} s CPU (goal: at most 10 s)")
    _time_sf(data, args.boot, args.perm)
    if args.command:
        _time_command(data, args.boot, args.perm)


def _time_sf(data: dict[str, dict[str, list[int]]], n_boot: int, n_perm: int) -> None:
    """The same panel with S_f: each unit's end typed at random among the Du Bois endnotes."""
    from segagree.metrics.chance.sf_panel import sf_panel_statistics
    from segagree.model import builtin_scheme

    scheme = builtin_scheme("dubois")
    rng = np.random.default_rng(7)
    codes: dict[str, dict[str, np.ndarray]] = {}
    for text, coders in data.items():
        codes[text] = {}
        for coder, masses in coders.items():
            arr = np.zeros(sum(masses), dtype=np.int64)
            ends = np.cumsum(masses) - 1
            arr[ends] = rng.integers(1, scheme.n_codes, ends.size)
            codes[text][coder] = arr
    w0, c0 = time.perf_counter(), time.process_time()
    res = sf_panel_statistics(codes, MACHINES, scheme, n_boot=n_boot, n_perm=n_perm)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    print(f"sf: sf_panel_statistics {wall:.2f} s wall, {cpu:.2f} s CPU")
    for m in MACHINES:
        print(f"   {m}: {res['results'][m]['verdict']}")


def _write_texts(data: dict[str, dict[str, list[int]]], folder: Path) -> None:
    """Each coding as a Du Bois transcript ``TEXT.CODER.txt``: a unit per line, its words ``w1 w2 ...``
    (the same words for every coder of a text) and the final endnote ``.``."""
    for text, coders in data.items():
        for coder, masses in coders.items():
            lines, k = [], 0
            for m in masses:
                lines.append("\t" + " ".join(f"w{k + j}" for j in range(m)) + " .")
                k += m
            lines[0] = "A:" + lines[0]
            (folder / f"{text}.{coder}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _time_command(data: dict[str, dict[str, list[int]]], n_boot: int, n_perm: int) -> None:
    """The whole command, reading 7 files per text, as a user runs it (a new interpreter)."""
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _write_texts(data, folder)
        command = [str(Path(sys.executable).parent / "segagree"), "panel", str(folder)]
        command += [f"--machine={m}" for m in MACHINES] + [f"--n-boot={n_boot}", f"--n-perm={n_perm}", "--json"]
        for measure in ("b", "s"):
            w0 = time.perf_counter()
            proc = subprocess.run([*command, f"--measure={measure}"], capture_output=True, text=True, check=False)
            wall = time.perf_counter() - w0
            if proc.returncode != 0:
                raise SystemExit(proc.stderr)
            print(f"segagree panel --measure {measure} ({len(data) * 7} files): {wall:.2f} s wall")


if __name__ == "__main__":
    main()
