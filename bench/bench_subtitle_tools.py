"""Benchmark: whole `segagree degrade`, `segment`, `check` and `study` commands, timed as subprocesses.

Fixed inputs: the 544-sentence MuST-Cinema reference ``../shared/corpora/subtitles_tagged/amara.fr``
(tagged text, 10,000 words) for degrade and segment; a self-made SRT of 2,000 cues (seed 2024,
3-12 words a cue, one or two lines, cue times from a fixed random walk) for check, degrade and
segment on timed files; ``sample_corpora/film.ref.srt`` with ``film.mt.srt`` for a default study
(6 operations x 5 proportions x 3 seeds, every subtitle metric).

    .venv/bin/python bench/bench_subtitle_tools.py [--repeat 3]

Prints per command the best and median wall seconds of ``--repeat`` runs and words per second
(the machine may be shared; read the best).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
AMARA = REPO.parent / "shared" / "corpora" / "subtitles_tagged" / "amara.fr"
WORDS = [f"word{i}" for i in range(300)] + ["Yes.", "no,", "well?", "it's", "a", "the"]


def _stamp(t: float) -> str:
    ms = round(t * 1000)
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def make_srt(path: Path, cues: int = 2000, seed: int = 2024) -> int:
    """A synthetic SRT; returns its number of words."""
    rng = np.random.default_rng(seed)
    t, out, n_words = 1.0, [], 0
    for k in range(1, cues + 1):
        n = int(rng.integers(3, 13))
        words = list(rng.choice(WORDS, size=n))
        n_words += n
        cut = int(rng.integers(1, n)) if n > 5 else n
        text = " ".join(words[:cut]) + ("\n" + " ".join(words[cut:]) if cut < n else "")
        dur = float(rng.uniform(0.6, 7.5))
        out.append(f"{k}\n{_stamp(t)} --> {_stamp(t + dur)}\n{text}\n")
        t += dur + float(rng.uniform(0.0, 0.5))
    path.write_text("\n".join(out), encoding="utf-8")
    return n_words


def timed(args: list[str], cwd: Path, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "segagree", *args], cwd=cwd, check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        srt_words = make_srt(work / "big.srt")
        amara_words = len(AMARA.read_text(encoding="utf-8").replace("<eob>", " ").replace("<eol>", " ").split())
        for name in ("film.ref.srt", "film.mt.srt"):
            (work / name).write_bytes((REPO / "sample_corpora" / name).read_bytes())
        cases = [
            (
                "degrade amara.fr --shift 2 --p 0.5",
                amara_words,
                [str(AMARA), "--from", "tagged", "-o", "d.fr", "--shift", "2", "--p", "0.5", "--seed", "1"],
            ),
            ("segment amara.fr --max-cpl 42", amara_words, ["segment", str(AMARA), "--from", "tagged", "-o", "s.fr"]),
            ("degrade big.srt --delete --p 0.5", srt_words, ["big.srt", "-o", "d.srt", "--delete", "--p", "0.5"]),
            ("segment big.srt --max-cpl 42", srt_words, ["segment", "big.srt", "-o", "s.srt"]),
            (
                "check big.srt --profile netflix-en",
                srt_words,
                ["check", "big.srt", "--profile", "netflix-en", "--json"],
            ),
            ("study film.ref.srt film.mt.srt (90 points)", 0, ["study", "film.ref.srt", "film.mt.srt", "-o", "st"]),
        ]
        for label, words, args in cases:
            if args[0] not in ("segment", "check", "study"):
                args = ["degrade", *args]
            times = timed(args, work, a.repeat if words else 1)
            best = min(times)
            rate = f"{words / best:,.0f} words/s" if words else ""
            print(f"{label:48s} best {best:7.2f} s  median {statistics.median(times):7.2f} s  {rate}")


if __name__ == "__main__":
    main()
