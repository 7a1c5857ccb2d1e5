"""Benchmark: DER and JER of a system RTTM against a reference RTTM, whole commands side by side:
``segagree agree --time REF SYS --measure der,jer --json`` against a script running pyannote.metrics'
``DiarizationErrorRate`` and ``JaccardErrorRate`` on the same files (start-up and reading included),
median of ``--rounds``; the two outputs' DER and JER are printed to be compared.

    .venv/bin/python bench/bench_diarization.py [--turns 4000] [--rounds 3] [--collar 0.5]

The files are synthesised with a seeded generator: one recording, four reference speakers and five
system speakers, each speaker's turns one after another, different speakers overlapping. The
pyannote side needs pyannote.metrics in the interpreter that runs this script.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYANNOTE = """
import sys, warnings
warnings.filterwarnings("ignore")
from pyannote.core import Annotation, Segment
from pyannote.metrics.diarization import DiarizationErrorRate, JaccardErrorRate
def load(p):
    a = Annotation(uri="rec")
    for line in open(p):
        f = line.split()
        s, d = float(f[3]), float(f[4])
        a[Segment(s, s + d), a.new_track(Segment(s, s + d))] = f[7]
    return a
ref, hyp, collar = load(sys.argv[1]), load(sys.argv[2]), float(sys.argv[3])
print(DiarizationErrorRate(collar=collar)(ref, hyp), JaccardErrorRate(collar=collar)(ref, hyp))
"""


def _rttm(n_turns: int, labels: str, seed: int) -> str:
    rng = random.Random(seed)
    lines = []
    per = n_turns // len(labels)
    for label in labels:
        pos = rng.uniform(0, 3)
        for _ in range(per):
            dur = rng.uniform(0.3, 4)
            lines.append(f"SPEAKER rec 1 {pos:.2f} {dur:.2f} <NA> <NA> {label} <NA> <NA>")
            pos += dur + rng.uniform(0.1, 3 * len(labels))
    return "\n".join(sorted(lines, key=lambda x: float(x.split()[3]))) + "\n"


def _time(cmd: list[str], rounds: int) -> tuple[float, str]:
    times, out = [], ""
    for _ in range(rounds):
        t0 = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=4000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--collar", type=float, default=0.5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ref, sys_ = Path(tmp, "ref.rttm"), Path(tmp, "sys.rttm")
        ref.write_text(_rttm(args.turns, "abcd", 1), encoding="utf-8")
        sys_.write_text(_rttm(args.turns, "ABCDE", 2), encoding="utf-8")
        exe = Path(sys.executable).with_name("segagree")
        ours = [str(exe), "agree", "--time", str(ref), str(sys_), "--measure", "der,jer", "--json"]
        ours += ["--collar", str(args.collar)]
        t_ours, out = _time(ours, args.rounds)
        result = json.loads(out)
        print(f"segagree       {t_ours:6.2f} s  DER {result['der']!r} JER {result['jer']!r}")
        script = Path(tmp, "pyannote_der.py")
        script.write_text(PYANNOTE, encoding="utf-8")
        theirs = [sys.executable, str(script), str(ref), str(sys_), str(args.collar)]
        t_theirs, out = _time(theirs, args.rounds)
        der, jer = out.split()
        print(f"pyannote       {t_theirs:6.2f} s  DER {der} JER {jer}")
        print(f"ratio          {t_ours / t_theirs:6.2f}  ({args.turns} turns a side, collar {args.collar})")


if __name__ == "__main__":
    main()
