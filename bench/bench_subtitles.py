"""Benchmark: every subtitle metric on a synthetic film-length SRT pair; wall time per metric.

    .venv/bin/python bench/bench_subtitles.py [--words 8000] [--shift 0.3] [--seed 1]

The reference has blocks of 1-2 lines of 3-8 words, 1.5-4 s each with 0.2 s gaps; the
hypothesis moves a share (``--shift``) of the breaks by one word and keeps the cue times, so
the text is identical (the perfect-text case, where TER_br has most to do).
"""

from __future__ import annotations

import argparse
import random
import time

from segagree.metrics.subtitles import SUBTITLE_METRICS
from segagree.pipeline.subtitles import evaluate_pair
from segagree.schemas import builtin_scheme, from_units

_VOCAB = (
    "the a we they garden road river light small old went saw found said was were and but so "
    "then when because with from into over under night morning rain wind house door"
).split()


def make_pair(n_words: int, shift: float, seed: int):
    rng = random.Random(seed)
    words = [rng.choice(_VOCAB) for _ in range(n_words)]
    ref_codes = [0] * n_words
    cue_spans = []
    i, t = 0, 0.0
    while i < n_words:
        lines = rng.choice((1, 2, 2))
        for k in range(lines):
            i += rng.randint(3, 8)
            if i >= n_words:
                break
            ref_codes[i - 1] = 2 if k < lines - 1 else 1
        dur = rng.uniform(1.5, 4.0)
        cue_spans.append((t, t + dur))
        t += dur + 0.2
    ref_codes[-1] = 1
    hyp_codes = list(ref_codes)
    for j in range(n_words - 2):
        if hyp_codes[j] and rng.random() < shift and not hyp_codes[j + 1]:
            hyp_codes[j], hyp_codes[j + 1] = 0, hyp_codes[j]
    scheme = builtin_scheme("subtitle")

    def doc(name: str, codes: list[int]):
        units, cur, c = [], [], 0
        for w, code in zip(words, codes, strict=True):
            cur.append(w)
            if code:
                u = {"speaker": "S", "tokens": cur, "boundary": code}
                if code == 1:
                    start, end = cue_spans[min(c, len(cue_spans) - 1)]
                    u["end"] = end
                    c += 1
                units.append(u)
                cur = []
        # cue start on the first line of each cue
        c, first = 0, True
        for u in units:
            if first:
                u["start"] = cue_spans[min(c, len(cue_spans) - 1)][0]
            first = u["boundary"] == 1
            if first:
                c += 1
        return from_units(name, units, layer="subtitle", scheme=scheme)

    return doc("ref", ref_codes), doc("hyp", hyp_codes)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", type=int, default=8000)
    ap.add_argument("--shift", type=float, default=0.3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    ref, hyp = make_pair(args.words, args.shift, args.seed)
    print(f"{args.words} words, shift {args.shift}")
    print(f"{'metric':8s} {'value':>10s} {'seconds':>8s}")
    for name in SUBTITLE_METRICS:
        t0 = time.perf_counter()
        res = evaluate_pair(ref, hyp, [name])["metrics"][name]
        dt = time.perf_counter() - t0
        value = "n/a" if res["value"] is None else f"{res['value']:.3f}"
        print(f"{name:8s} {value:>10s} {dt:8.2f}")


if __name__ == "__main__":
    main()
