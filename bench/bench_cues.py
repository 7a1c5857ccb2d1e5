"""Benchmark: the acoustic cues of a 30-minute recording, and Praat doing the same analyses.

Input: a generated 30-minute recording (espeak-ng speech repeated by sox when both are installed,
else tests/scoring/acoustic_audio.py's voiced glides and pauses; 22,050 Hz mono WAV) in a
temporary folder.

Measures, printed with the load average (the machine is shared):

* segagree: :func:`segagree.scoring.acoustics.tracks.cached_tracks` in a fresh process (Praat's pitch,
  intensity, silences, de Jong & Wempe's syllable nuclei; reading the WAV included), wall and CPU
  (goal: at most 30 s on 2 cores);
* the second review: the same call with the cache beside the run (goal: well under a second);
* the reference: ``praat --run`` of the test's script (tests/scoring/acoustic_audio.py's
  PRAAT_SCRIPT: the same analyses, printing every frame) on the same file, where praat is installed.

    .venv/bin/python bench/bench_cues.py [--minutes 30]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "scoring"))

TEXT = (
    "The garden was quiet this morning, and the tomatoes were all gone. Something had eaten them in the "
    "night, she said, and nobody knew what it was. We went out to look at the fence. "
) * 6

CHILD = """
import sys, time
from pathlib import Path
from segagree.scoring.acoustics.tracks import cached_tracks
t = time.perf_counter()
tracks = cached_tracks(Path(sys.argv[1]), None, Path(sys.argv[2]))
print(f"{time.perf_counter() - t:.2f} {len(tracks.nuclei)} {len(tracks.silences)}")
"""


def make_recording(folder: Path, minutes: float) -> Path:
    out = folder / "long.wav"
    if shutil.which("espeak-ng") and shutil.which("sox"):
        one = folder / "one.wav"
        subprocess.run(["espeak-ng", "-w", str(one), TEXT], check=True)
        seconds = float(subprocess.run(["soxi", "-D", str(one)], capture_output=True, text=True).stdout)
        repeats = int(minutes * 60 / seconds) + 1
        subprocess.run(["sox", str(one), str(out), "repeat", str(repeats), "trim", "0", str(minutes * 60)], check=True)
        return out
    import numpy as np
    from acoustic_audio import silence, voiced, write_recording

    parts = []
    rng = np.random.default_rng(1)
    while sum(len(p) for p in parts) < minutes * 60 * 16000:
        parts += [voiced(float(rng.uniform(0.8, 2.5)), 130, 100), silence(float(rng.uniform(0.1, 0.9)))]
    return write_recording(out, parts)


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the child, its output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        recording = make_recording(folder, args.minutes)
        print(f"recording: {args.minutes:g} min, {recording.stat().st_size / 1e6:.0f} MB; load {os.getloadavg()}")
        cache = folder / "run" / ".segagree-cues"
        python = sys.executable
        wall, cpu, out = timed([python, "-c", CHILD, str(recording), str(cache)])
        print(f"segagree cues, first review : {wall:6.1f} s wall, {cpu:6.1f} s CPU (inside: {out})")
        wall, cpu, out = timed([python, "-c", CHILD, str(recording), str(cache)])
        print(f"segagree cues, cached       : {wall:6.1f} s wall, {cpu:6.1f} s CPU (inside: {out})")
        praat = shutil.which("praat")
        if praat:
            from acoustic_audio import PRAAT_SCRIPT

            script = folder / "tracks.praat"
            script.write_text(PRAAT_SCRIPT, encoding="utf-8")
            wall, cpu, _ = timed([praat, "--run", str(script), str(recording), "75", "600", "-25"])
            print(f"praat --run, same analyses  : {wall:6.1f} s wall, {cpu:6.1f} s CPU (printing every frame)")
        else:
            print("praat is not installed: no reference timing")
        print(f"load {os.getloadavg()}")


if __name__ == "__main__":
    main()
