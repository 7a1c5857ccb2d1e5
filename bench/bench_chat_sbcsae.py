"""Benchmark: SBCSAE in CA-CHAT against segsimflex's gold IUs, whole commands included.

    PYTHONPATH=src .venv/bin/python bench/bench_chat_sbcsae.py [--repeat 3]

For the three SBCSAE texts of ../shared/corpora/chat: the best wall time of ``--repeat`` reads
(one unit per bulleted line, and per main tier), of the token alignment of every speaker's
streams against the gold (rapidfuzz's LCS plus the exact program, and difflib's
SequenceMatcher as it was used before, with the differing positions each leaves), and of the
whole command ``segagree compare GOLD CHA --align --common-speakers`` (start-up, reading,
pairing, scoring, printing) in a fresh process.
"""

from __future__ import annotations

import argparse
import difflib
import subprocess
import sys
from pathlib import Path

from bench_chat_read import best  # (the best of --repeat wall times; run from bench/ or as a script)

from segagree.formats import read_document
from segagree.model import builtin_scheme
from segagree.scoring.tokens.pairing import speaker_arrays, speaker_rule
from segagree.scoring.tokens.stream_alignment import align_streams

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpora"
TEXTS = {"sbcsae_02.cha": "sbc002.csv", "sbcsae_03.cha": "sbc003.csv", "sbcsae_07.cha": "sbc007.csv"}


def difflib_columns(ta: list[str], tb: list[str]) -> list[tuple[int, int]]:
    """The matching blocks of difflib (the alignment before), differing stretches paired."""
    cols: list[tuple[int, int]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
        if tag == "equal":
            cols.extend(zip(range(i1, i2), range(j1, j2), strict=True))
        else:
            k = min(i2 - i1, j2 - j1)
            cols.extend(zip(range(i1, i1 + k), range(j1, j1 + k), strict=True))
            cols.extend((i, -1) for i in range(i1 + k, i2))
            cols.extend((-1, j) for j in range(j1 + k, j2))
    return cols


def differing(cols: list[tuple[int, int]], ta: list[str], tb: list[str]) -> int:
    return sum(1 for i, j in cols if i < 0 or j < 0 or ta[i] != tb[j])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    scheme = builtin_scheme("dubois")
    print(
        f"{'text':14s} {'lines':>6s} {'units':>6s} {'read s':>7s} {'mains s':>7s} "
        f"{'align s':>7s} {'diff':>5s} {'difflib s':>9s} {'diff':>5s} {'command s':>9s}"
    )
    for name, gold_name in TEXTS.items():
        cha, gold = SHARED / "chat" / name, SHARED / "sbc_iubound_prediction" / "old" / gold_name
        n_lines = len(cha.read_bytes().split(b"\n"))
        doc = read_document(cha)
        t_read = best(lambda cha=cha: read_document(cha), args.repeat)
        t_main = best(lambda cha=cha: read_document(cha, chat_units="main-tiers"), args.repeat)
        g = read_document(gold)
        rule = speaker_rule(None, True, g, doc)
        _, tok_g, _ = speaker_arrays(g, None, scheme, rule)
        _, tok_c, _ = speaker_arrays(doc, None, scheme, rule)
        shared = [s for s in tok_g if s in tok_c]
        pairs = [(tok_g[s], tok_c[s]) for s in shared]
        t_lcs = best(lambda pairs=pairs: [align_streams(a, b) for a, b in pairs], args.repeat)
        t_dl = best(lambda pairs=pairs: [difflib_columns(a, b) for a, b in pairs], args.repeat)
        d_lcs = sum(differing(align_streams(tok_g[s], tok_c[s]), tok_g[s], tok_c[s]) for s in shared)
        d_dl = sum(differing(difflib_columns(tok_g[s], tok_c[s]), tok_g[s], tok_c[s]) for s in shared)
        cmd = [sys.executable, "-m", "segagree", "compare", str(gold), str(cha), "--align", "--common-speakers"]
        t_cmd = best(lambda cmd=cmd: subprocess.run(cmd, capture_output=True, check=True), args.repeat)
        print(
            f"{name:14s} {n_lines:6d} {len(doc.units()):6d} {t_read:7.3f} {t_main:7.3f} "
            f"{t_lcs:7.3f} {d_lcs:5d} {t_dl:9.3f} {d_dl:5d} {t_cmd:9.3f}"
        )


if __name__ == "__main__":
    main()
