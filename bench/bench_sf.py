"""Benchmark of S_f / S_f^B (segagree.metrics.boundary.sf): NCCU texts and a synthetic 250k-token pair.

Run: ``.venv/bin/python bench/bench_sf.py`` (fixed seeds; about a minute).

* NCCU: per-speaker code arrays derived from the boundary strings stored in
  ``../shared/oracle/segsimflex.json`` (one character per token), for the 7 NCCU texts; t004 and
  t036 are skipped (their two transcripts have different tokens, the reference fails on them).
  Targets: under 5 ms per text with operations (optimal mode).
* Synthetic: 2 speakers, 250,000 tokens in all, a boundary every 5-8 tokens (4 types plus
  unclassified); annotator B differs from A on about 15% of the boundaries (shifts by 1-3
  tokens, retypes, deletions, insertions). Target: under 0.5 s with operations, memory linear
  in the number of tokens.

Times are the best of several runs; peak memory is measured separately with tracemalloc.
"""

from __future__ import annotations

import json
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from segagree.metrics import sf
from segagree.model.scheme import builtin_scheme

ROOT = Path(__file__).resolve().parents[1]
ORACLE = ROOT.parent / "shared" / "oracle" / "segsimflex.json"
CHAR_CODES = {" ": 0, ",": 1, ".": 2, "?": 3, "\u0100": 4, ";": 5}
NCCU = ["nccu_t001", "nccu_t004", "nccu_t009", "nccu_t016", "nccu_t025", "nccu_t036", "nccu_t049"]

Annotation = dict[str, np.ndarray]


def best_time(fn: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def peak_memory(fn: Callable[[], Any]) -> int:
    tracemalloc.start()
    tracemalloc.reset_peak()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def nccu_pairs() -> list[tuple[str, Annotation, Annotation]]:
    if not ORACLE.exists():
        print(f"{ORACLE} is absent: NCCU texts skipped")
        return []
    cases = json.loads(ORACLE.read_text(encoding="utf-8"))["cases"]
    out = []
    for name in NCCU:
        case = cases[name]
        if any("error" in r for r in case["results"].values()):
            print(f"{name}: skipped (the reference fails: {case['results']['identity']['error']})")
            continue
        names = case["speakers_a1"]

        def arrays(strings: list[str], names: list[str] = names) -> Annotation:
            return {
                n: np.array([CHAR_CODES[c] for c in s], dtype=np.int64) for n, s in zip(names, strings, strict=True)
            }

        out.append((name, arrays(case["boundary_strings_a1"]), arrays(case["boundary_strings_a2"])))
    return out


def synthetic_stream(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Annotator A: a boundary every 5-8 tokens; B: A with ~15% of the boundaries perturbed."""
    gaps = rng.integers(5, 9, size=n // 5 + 2)
    pos = np.cumsum(gaps) - 1
    pos = pos[pos < n - 1]
    a = np.zeros(n, dtype=np.int64)
    # , . ? -- and unclassified
    a[pos] = rng.choice([1, 2, 3, 4, 5], size=pos.size, p=[0.5, 0.3, 0.08, 0.07, 0.05])
    a[n - 1] = 2  # the stream ends with a boundary, as a transcript line does
    b = a.copy()
    bpos = np.flatnonzero(a)
    r = rng.random(bpos.size)
    shift = bpos[r < 0.06]  # 6% shifted by 1-3 tokens
    retype = bpos[(r >= 0.06) & (r < 0.11)]  # 5% retyped
    delete = bpos[(r >= 0.11) & (r < 0.135)]  # 2.5% deleted
    b[retype] = (b[retype] % 5) + 1
    b[delete] = 0
    moves = rng.choice([-3, -2, -1, 1, 2, 3], size=shift.size)
    target = np.clip(shift + moves, 0, n - 1)
    free = b[target] == 0
    b[target[free]] = b[shift[free]]
    b[shift[free]] = 0
    n_ins = int(bpos.size * 0.025)  # 2.5% inserted
    ins = rng.integers(0, n, size=n_ins)
    ins = ins[b[ins] == 0]
    b[ins] = rng.choice([1, 2, 3, 4, 5], size=ins.size)
    return a, b


def synthetic_pair(n_tokens: int, seed: int = 7) -> tuple[Annotation, Annotation]:
    rng = np.random.default_rng(seed)
    half = n_tokens // 2
    a1, b1 = synthetic_stream(rng, half)
    a2, b2 = synthetic_stream(rng, n_tokens - half)
    return {"S1": a1, "S2": a2}, {"S1": b1, "S2": b2}


def main() -> int:
    schemes = [builtin_scheme("dubois"), builtin_scheme("lai2023")]
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}")
    print("\n== NCCU texts (optimal mode with operations; target < 5 ms) ==")
    header = (
        f"{'text':10} {'scheme':8} {'tokens':>6} {'opt+ops ms':>10} {'opt ms':>7} "
        f"{'ssf+ops ms':>10} {'Mtok/s':>7} {'peak KiB':>8} {'S_f':>7} {'S_f^B':>7}"
    )
    print(header)
    worst = 0.0
    for name, a, b in nccu_pairs():
        n = sum(len(v) for v in a.values())
        for scheme in schemes:
            t_ops = best_time(lambda a=a, b=b, s=scheme: sf(a, b, s), 20)
            t_bare = best_time(lambda a=a, b=b, s=scheme: sf(a, b, s, with_operations=False), 20)
            t_ref = best_time(lambda a=a, b=b, s=scheme: sf(a, b, s, mode="segsimflex"), 5)
            peak = peak_memory(lambda a=a, b=b, s=scheme: sf(a, b, s))
            res = sf(a, b, scheme)
            worst = max(worst, t_ops)
            print(
                f"{name[5:]:10} {scheme.name:8} {n:6d} {t_ops * 1e3:10.2f} {t_bare * 1e3:7.2f} "
                f"{t_ref * 1e3:10.2f} {n / t_ops / 1e6:7.2f} {peak / 1024:8.0f} "
                f"{res.sf:7.4f} {res.sf_b:7.4f}"
            )
    if worst:
        print(f"slowest NCCU text (optimal, with operations): {worst * 1e3:.2f} ms")

    print("\n== synthetic 2-speaker pairs (optimal mode; target < 0.5 s for 250k tokens) ==")
    print(
        f"{'tokens':>8} {'scheme':8} {'opt+ops s':>9} {'opt s':>7} {'Mtok/s':>7} "
        f"{'peak MiB':>8} {'B/token':>7} {'ops':>7} {'S_f':>7} {'S_f^B':>7}"
    )
    for n_tokens in (62_500, 125_000, 250_000, 500_000):
        a, b = synthetic_pair(n_tokens)
        for scheme in schemes:
            t_ops = best_time(lambda a=a, b=b, s=scheme: sf(a, b, s), 3)
            t_bare = best_time(lambda a=a, b=b, s=scheme: sf(a, b, s, with_operations=False), 3)
            peak = peak_memory(lambda a=a, b=b, s=scheme: sf(a, b, s))
            res = sf(a, b, scheme)
            print(
                f"{n_tokens:8d} {scheme.name:8} {t_ops:9.3f} {t_bare:7.3f} "
                f"{n_tokens / t_ops / 1e6:7.2f} {peak / 2**20:8.1f} {peak / n_tokens:7.0f} "
                f"{len(res.operations):7d} {res.sf:7.4f} {res.sf_b:7.4f}"
            )

    print("\n== synthetic 250k tokens, segsimflex mode (the reference's search, literally) ==")
    a, b = synthetic_pair(250_000)
    for scheme in schemes:
        t = time.perf_counter()
        ref = sf(a, b, scheme, mode="segsimflex")
        elapsed = time.perf_counter() - t
        opt = sf(a, b, scheme)
        print(
            f"{scheme.name:8} {elapsed:7.3f} s  cost {ref.cost:.3f} (optimal {opt.cost:.3f}), "
            f"S_f {ref.sf:.4f} / {opt.sf:.4f}, S_f^B {ref.sf_b:.4f} / {opt.sf_b:.4f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
