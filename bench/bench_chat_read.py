"""Benchmark: reading CHAT with segagree's own parser against pylangacq (the reference reader).

    .venv/bin/python bench/bench_chat_read.py [--repeat 5]

For each real CHAT file in ../shared/corpora/chat: the best wall time of ``--repeat`` reads by
``segagree.formats.chat.cha.read`` (lines to a Document, tokens, times, metadata) and by
``pylangacq.read_chat(strict=False)`` (pylangacq 0.2x parses in Rust through rustling; strict
mode refuses most of these files), with utterance counts and lines per second.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

from segagree.formats.chat import cha as chat

CHAT = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "chat"


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    try:
        import pylangacq
    except ImportError:
        pylangacq = None
    print(f"{'file':40s} {'lines':>6s} {'ours units':>10s} {'ours s':>8s} {'plq utts':>8s} {'plq s':>8s}")
    total_ours = total_plq = 0.0
    for path in sorted(CHAT.iterdir()):
        lines = path.read_bytes().count(b"\n")
        units = len(chat.read(path).units())
        ours = best(lambda p=path: chat.read(p), args.repeat)
        total_ours += ours
        plq_n, plq_s = "-", float("nan")
        if pylangacq is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                plq_n = str(len(pylangacq.read_chat(str(path), strict=False).utterances()))
                plq_s = best(lambda p=path: pylangacq.read_chat(str(p), strict=False), args.repeat)
            total_plq += plq_s
        print(f"{path.name:40s} {lines:6d} {units:10d} {ours:8.4f} {plq_n:>8s} {plq_s:8.4f}")
    print(f"total: ours {total_ours:.3f} s, pylangacq {total_plq:.3f} s")


if __name__ == "__main__":
    main()
