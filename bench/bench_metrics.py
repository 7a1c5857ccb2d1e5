"""Benchmark the segagree segmentation metrics beside segeval and NLTK (when installed).

Single pairs of 1,000, 10,000 and 100,000 units, one reference boundary per 8 units on average,
and a hypothesis with realistic noise (fixed seed): 20% of the boundaries shifted by 1-2 units,
5% dropped, 5% extra boundaries. Prints one table: best-of-N wall time per call and the speed-up
of segagree over each reference.

    .venv/bin/python bench/bench_metrics.py [--sizes 1000 10000 100000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from segagree.metrics.boundary.a_similarity import alignment_similarity
from segagree.metrics.boundary.boundary_edit import boundary_similarity, segmentation_similarity
from segagree.metrics.boundary.masses import boundary_string, masses_from_positions
from segagree.metrics.boundary.windows import pk, windowdiff, winpr

try:
    import segeval
except ImportError:  # pragma: no cover - optional reference
    segeval = None
try:
    from nltk.metrics import segmentation as nltk_seg
except ImportError:  # pragma: no cover - optional reference
    nltk_seg = None

SEED = 20240601


def make_pair(n: int, rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """A reference with one boundary per 8 units on average and a noisy hypothesis."""
    gaps = n - 1
    ref = np.flatnonzero(rng.random(gaps) < 1 / 8)
    hyp = []
    for p in ref:
        u = rng.random()
        if u < 0.05:
            continue  # dropped
        if u < 0.25:
            p = p + rng.choice([-2, -1, 1, 2])  # near miss
        if 0 <= p < gaps:
            hyp.append(int(p))
    extra = rng.choice(gaps, size=max(1, int(0.05 * ref.size)), replace=False)
    hyp = sorted(set(hyp) | set(extra.tolist()))
    return masses_from_positions(ref.tolist(), n), masses_from_positions(hyp, n)


def best_time(fn: Callable[[], object], budget: float = 1.0, max_repeat: int = 20) -> float:
    """Best wall time of repeated calls (at least one, up to ``budget`` seconds)."""
    best = float("inf")
    spent = 0.0
    for _ in range(max_repeat):
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
        best = min(best, dt)
        spent += dt
        if spent > budget:
            break
    return best


def run(sizes: list[int]) -> list[tuple]:
    rng = np.random.default_rng(SEED)
    rows = []
    for n in sizes:
        ref, hyp = make_pair(n, rng)
        for name, ours, refs in cases_for(ref, hyp):
            t_ours = best_time(ours)
            others = {lib: best_time(fn, budget=3.0, max_repeat=3) for lib, fn in refs}
            rows.append((n, name, t_ours, others))
    return rows


Case = tuple[str, Callable[[], object], list[tuple[str, Callable[[], object]]]]


def cases_for(ref: list[int], hyp: list[int]) -> list[Case]:
    """(metric, segagree call, [(library, reference call)]) for one pair."""
    k = max(1, sum(ref) // (2 * len(ref)))
    r_str, h_str = boundary_string(ref), boundary_string(hyp)
    se: list[tuple[str, Callable[[], object]]]
    cases: list[Case] = []
    se = [("segeval", lambda: segeval.segmentation_similarity(ref, hyp))] if segeval else []
    cases.append(("S", lambda: segmentation_similarity(ref, hyp), se))
    se = [("segeval", lambda: segeval.boundary_similarity(ref, hyp))] if segeval else []
    cases.append(("B", lambda: boundary_similarity(ref, hyp), se))
    se = [("segeval", lambda: segeval.pk(hyp, ref, window_size=k))] if segeval else []
    se += [("nltk", lambda: nltk_seg.pk(r_str, h_str, k))] if nltk_seg else []
    cases.append(("Pk", lambda: pk(ref, hyp, k), se))
    se = [("segeval", lambda: segeval.window_diff(hyp, ref, window_size=k))] if segeval else []
    se += [("nltk", lambda: nltk_seg.windowdiff(r_str, h_str, k))] if nltk_seg else []
    cases.append(("WindowDiff", lambda: windowdiff(ref, hyp, k), se))
    cases.append(("WinPR", lambda: winpr(ref, hyp, k), []))
    cases.append(("A", lambda: alignment_similarity(ref, hyp), []))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    args = parser.parse_args()
    print(
        f"segeval: {getattr(segeval, '__version__', 'installed') if segeval else 'absent'}; "
        f"nltk: {'installed' if nltk_seg else 'absent'}; seed {SEED}"
    )
    header = (
        f"{'units':>8} {'metric':<11} {'segagree ms':>12} {'segeval ms':>11} "
        f"{'x segeval':>10} {'nltk ms':>9} {'x nltk':>8} {'us/unit':>8}"
    )
    print(header)
    print("-" * len(header))
    for n, name, t, others in run(args.sizes):
        cells = []
        for lib in ("segeval", "nltk"):
            if lib in others:
                cells += [f"{others[lib] * 1e3:.2f}", f"{others[lib] / t:.1f}"]
            else:
                cells += ["-", "-"]
        print(
            f"{n:>8} {name:<11} {t * 1e3:>12.3f} {cells[0]:>11} {cells[1]:>10} "
            f"{cells[2]:>9} {cells[3]:>8} {t / n * 1e6:>8.3f}"
        )


if __name__ == "__main__":
    main()
