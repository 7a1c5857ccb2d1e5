"""Benchmark: whole subtitle commands on long videos, side by side with SubER's command line.

Two recognizer-against-recognizer pairs of long videos (bench/long_subtitle_pair.py: a 14-minute
talk and a 21-minute tutorial, one part each for SubER since the captions never pause), then, in one
run, the medians of ``--repeats`` timings of

* ``segagree compare REF HYP --metric subtitles`` on each video (every subtitle number);
* ``segagree review REF HYP -o talk.xlsx`` on the talk;
* ``segagree run FOLDER --jobs 2`` over the two videos (workbooks, report, pooled scores) and with
  ``--metric sf`` (no subtitle measure);
* ``suber -H HYP -R REF -m SubER`` on the talk, once (``--no-suber`` leaves it out: it takes
  minutes), whose number is checked against segagree's.

Prints each time, the ratios the goals name, and whether each goal is met:
``compare`` on the talk at most 1/4 of SubER's command line, ``review`` at most 1.5 x ``compare``,
``run --jobs 2`` at most the two compares together.

    .venv/bin/python bench/bench_subtitle_commands.py [--repeats 3] [--no-suber] [--keep DIR]

Measured on 28 Nov 2026 (2 cores; medians of 3): compare 2.49 s (talk) and 2.89 s (tutorial),
review 2.28 s, run --jobs 2 4.41 s (0.82 of the two compares), run --metric sf 1.03 s (load 0.7);
suber's command line, SubER alone on the talk, 431 s on a quiet machine (586 s at load 1.4 in the
run with --repeats 3: compare 3.09 s there, ratio 0.005), the same SubER (35.814). Before the
kernel, compare called suber's own SubER and SubER-cased, each about as long as that command line
(not timed whole).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from long_subtitle_pair import make_pair  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def timed(cmd: list[str], repeats: int, cleanup: Path | None = None) -> tuple[float, str]:
    """Median wall seconds of ``repeats`` runs of ``cmd`` (each must succeed), and the last stdout."""
    walls = []
    out = ""
    for _ in range(repeats):
        if cleanup is not None:
            shutil.rmtree(cleanup, ignore_errors=True)
            cleanup.unlink(missing_ok=True) if cleanup.suffix else None
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        walls.append(time.perf_counter() - start)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
        out = proc.stdout
    return statistics.median(walls), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-suber", action="store_true", help="leave SubER's command line out")
    parser.add_argument("--keep", type=Path, help="write the videos and outputs here")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench-subtitles-"))
    videos = work / "videos"
    talk_ref, talk_hyp = make_pair(videos, 14, "talk", 1)
    tut_ref, tut_hyp = make_pair(videos, 21, "tutorial", 2)
    seg = str(BIN / "segagree")
    print(f"load average at start: {os.getloadavg()[0]:.2f}; files in {videos}")
    rows: dict[str, float] = {}
    rows["compare talk"], out = timed(
        [seg, "compare", str(talk_ref), str(talk_hyp), "--metric", "subtitles", "--json"], args.repeats
    )
    ours = json.loads(out)["metrics"]["suber_metrics"]
    rows["compare tutorial"], _ = timed(
        [seg, "compare", str(tut_ref), str(tut_hyp), "--metric", "subtitles"], args.repeats
    )
    review = work / "talk.xlsx"
    cmd = [seg, "review", str(talk_ref), str(talk_hyp), "-o", str(review)]
    rows["review talk"], _ = timed(cmd, args.repeats, review)
    out_dir = work / "run"
    rows["run --jobs 2"], _ = timed([seg, "run", str(videos), "--jobs", "2", "-o", str(out_dir)], args.repeats, out_dir)
    rows["run --jobs 2 --metric sf"], _ = timed(
        [seg, "run", str(videos), "--jobs", "2", "--metric", "sf", "-o", str(out_dir)], args.repeats, out_dir
    )
    if not args.no_suber:
        suber = str(BIN / "suber")
        rows["suber CLI, SubER, talk"], out = timed([suber, "-H", str(talk_hyp), "-R", str(talk_ref), "-m", "SubER"], 1)
        theirs = json.loads(out)["SubER"]
        same = "equal" if theirs == ours["SubER"] else "DIFFERENT"
        print(f"SubER: suber {theirs}, segagree {ours['SubER']} ({same})")
    for name, wall in rows.items():
        print(f"{name:28s} {wall:8.2f} s")
    compare = rows["compare talk"]
    goals = [
        ("review <= 1.5 x compare", rows["review talk"] / compare, 1.5),
        ("run --jobs 2 <= compares", rows["run --jobs 2"] / (compare + rows["compare tutorial"]), 1.0),
    ]
    if "suber CLI, SubER, talk" in rows:
        goals.insert(0, ("compare <= 1/4 suber CLI", compare / rows["suber CLI, SubER, talk"], 0.25))
    for name, ratio, limit in goals:
        print(f"{name:28s} ratio {ratio:6.3f} (goal {limit}) {'met' if ratio <= limit else 'NOT met'}")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
