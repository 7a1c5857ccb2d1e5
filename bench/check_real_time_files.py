"""Check time-based agreement on real multi-annotator exports kept outside the repository.

    PYTHONPATH=src .venv/bin/python bench/check_real_time_files.py DIR [--samples 30] [--pygamma PYTHON] [--json OUT]

DIR holds one folder per data set (see DIR/SOURCES.md for where each comes from):

* ``laughter/``: lab CSV exports, one per annotator, wide (``FileID,Start,End,Start.1,End.1,...``; a clip
  with ``0,0`` is one where the annotator heard no laughter): units tables with a recording column;
* ``ami/``: ``MEETING.VERSION.rttm``, two releases of a diarization reference: annotator = release,
  recording = meeting, speaker = the RTTM speaker;
* ``salami/``: ``ID.annotatorK.txt``, music structure by two annotators (``time<TAB>label`` boundaries, the
  segment running to the next time; ``Silence`` a gap label, ``End`` the end);
* any other folder: files segagree reads (ELAN, Praat, units tables ...), each file alone (its tiers, or
  its table's annotators, are the annotators), e.g. ``pygamma_examples/``: the same three annotators' units
  as ELAN and as Praat files, and pygamma-agreement's headerless CSV.

Each converted data set is written as ONE units table (``annotator,media_file,speaker,start,end,category``),
read by segagree's annotation plan (one text per recording) and scored with gamma, alpha-U and boundary
F1; the plan's counts (annotators, recordings, units, gaps, empty annotators) and the values are printed
with the CPU time. With ``--pygamma PYTHON`` (a Python with pygamma-agreement, in its own venv), the
observed disorder of the first recordings is compared with pygamma-agreement's (to 1e-5), and gamma
(30 samples each; within 3·√2 of segagree's standard errors counts as within sampling error). Nothing is written into
DIR. Exit code 1 when a data set crashes (an exception that is not a SegagreeError) or the observed
disorders differ by more than 1e-5.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import segagree
from segagree.errors import SegagreeError

Row = tuple[str, str, str, float, float, str]  # annotator, recording, speaker, start, end, category
HEADER = ("annotator", "media_file", "speaker", "start", "end", "category")
MEASURES = ["gamma", "alpha_u", "boundary_f1"]


def laughter_rows(path: Path, annotator: str) -> Iterator[Row]:
    """A wide laughter export: per clip (FileID) up to five Start/End pairs; 0,0 or blanks are none."""
    with path.open(encoding="utf-8", newline="") as f:
        for rec in csv.DictReader(f):
            for suffix in ("", ".1", ".2", ".3", ".4"):
                start, end = rec.get("Start" + suffix, ""), rec.get("End" + suffix, "")
                if start and end and float(end) > float(start):
                    yield annotator, rec["FileID"], "", float(start), float(end), "laughter"


def laughter_clips(path: Path) -> set[str]:
    with path.open(encoding="utf-8", newline="") as f:
        return {rec["FileID"] for rec in csv.DictReader(f)}


def rttm_rows(path: Path, annotator: str) -> Iterator[Row]:
    """RTTM ``SPEAKER file chan onset duration <NA> <NA> speaker ...`` lines."""
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) >= 8 and parts[0] == "SPEAKER":
            onset, dur = float(parts[3]), float(parts[4])
            yield annotator, parts[1], parts[7], onset, onset + dur, parts[7]


def salami_rows(path: Path, annotator: str, recording: str) -> Iterator[Row]:
    """SALAMI boundaries: each label runs to the next time; the last line (``End``) closes the song."""
    marks = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            t, _, label = line.partition("\t")
            marks.append((float(t), label.strip()))
    for (t, label), (nxt, _) in zip(marks, marks[1:], strict=False):
        if nxt > t:
            yield annotator, recording, "", t, nxt, label


def converted(folder: Path) -> tuple[list[Row], list[str], dict[str, Any]]:
    """The rows of a known data set, the annotators, and reading options (empty rows: not a known one)."""
    name = folder.name
    if name == "laughter":
        files = sorted(folder.glob("*.csv"))
        clips = set.intersection(*(laughter_clips(p) for p in files)) if files else set()
        rows = [r for p in files for r in laughter_rows(p, p.stem) if r[1] in clips]
        # clips where nobody heard laughter have no rows: they are left out (nothing to compare)
        return rows, [p.stem for p in files], {"gap_labels": ()}
    if name == "ami":
        rows = []
        for p in sorted(folder.glob("*.rttm")):
            meeting, version = p.name.split(".")[:2]
            rows.extend(rttm_rows(p, version))
        return rows, sorted({r[0] for r in rows}), {"gap_labels": ()}
    if name == "salami":
        rows = []
        for p in sorted(folder.glob("*.txt")):
            song, annotator = p.name.split(".")[:2]
            rows.extend(salami_rows(p, annotator, song))
        return rows, sorted({r[0] for r in rows}), {"gap_labels": ("Silence", "End")}
    return [], [], {}


def write_rows(path: Path, rows: list[Row]) -> None:
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(HEADER)
        writer.writerows(rows)


PYGAMMA_SCRIPT = """
import json, sys
import numpy as np
from pyannote.core import Segment
from pygamma_agreement import CombinedCategoricalDissimilarity, Continuum
out = {}
for path in sys.argv[1:]:
    data = json.load(open(path))
    cont = Continuum()
    for a in data["annotators"]:
        cont.add_annotator(a)
    for a, s, e, c in data["units"]:
        cont.add(a, Segment(s, e), c)
    dis = CombinedCategoricalDissimilarity(alpha=1.0, beta=1.0, delta_empty=1.0)
    best = cont.get_best_alignment(dis)
    np.random.seed(0)
    gamma = cont.compute_gamma(dis, n_samples=30)
    out[path] = [float(best.disorder), float(gamma.gamma)]
print(json.dumps(out))
"""


def compare_pygamma(python: str, result: dict[str, Any], timed: Any, scratch: Path, first: int) -> list[dict]:
    """pygamma-agreement's observed disorder of the first recordings against segagree's."""
    jobs = {}
    for key in list(timed.speakers)[:first]:
        us = timed.speakers[key]
        if len(us.start) == 0 or len(set(us.annotator.tolist())) < 2:
            continue  # pygamma refuses a continuum where an annotator has no units
        units = [
            [us.annotators[a], float(s), float(e), us.categories[c] if c >= 0 else "_"]
            for a, s, e, c in zip(us.annotator.tolist(), us.start, us.end, us.category.tolist(), strict=True)
        ]
        path = scratch / f"pg{len(jobs)}.json"
        path.write_text(json.dumps({"annotators": list(us.annotators), "units": units}), encoding="utf-8")
        jobs[str(path)] = key
    if not jobs:
        return []
    proc = subprocess.run([python, "-c", PYGAMMA_SCRIPT, *jobs], capture_output=True, text=True, check=False)
    if proc.returncode:
        return [{"error": proc.stderr.strip().splitlines()[-1] if proc.stderr else "pygamma failed"}]
    theirs = json.loads(proc.stdout.strip().splitlines()[-1])
    ours = result["measures"]["gamma"]["speakers"] if "speakers" in result["measures"]["gamma"] else {}
    out = []
    for path, key in jobs.items():
        res = ours.get(key) or result["measures"]["gamma"]["pooled"]
        mine, (do, gamma) = res["observed_disorder"], theirs[path]
        # gamma: both are means of 30 sampled disorders; within sampling error when the difference is within
        # three of segagree's standard errors times sqrt(2) (two independent estimates)
        within = abs(res["value"] - gamma) <= 3 * 2**0.5 * res["standard_error"]
        out.append(
            {
                "recording": key,
                "segagree": mine,
                "pygamma": do,
                "diff": abs(mine - do),
                "gamma_segagree": res["value"],
                "gamma_pygamma": gamma,
                "gamma_standard_error": res["standard_error"],
                "gamma_within_sampling_error": within,
            }
        )
    return out


def _one_file(path: Path, args: argparse.Namespace, scratch: Path) -> dict[str, Any]:
    """One file whose tiers (or table annotators) are the annotators."""
    started = time.process_time()
    params = {"samples": args.samples, "seed": 0}
    try:
        timed = segagree.read_time_units(path)
        result = segagree.agree_time(path, measures=MEASURES, params=params)
    except SegagreeError as err:
        return {"refused": str(err)}
    report: dict[str, Any] = {
        "annotators": result["annotators"],
        "units": result["units"],
        "values": {m: result[m] for m in MEASURES},
        "observed_disorder": result["measures"]["gamma"]["pooled"]["observed_disorder"],
        "cpu_s": round(time.process_time() - started, 2),
    }
    if args.pygamma:
        report["pygamma"] = compare_pygamma(args.pygamma, result, timed, scratch, 1)
    return report


def check_set(folder: Path, args: argparse.Namespace, scratch: Path) -> dict[str, Any]:
    rows, annotators, reading = converted(folder)
    started = time.process_time()
    params = {"samples": args.samples, "seed": 0}
    if not rows:
        return {"files": {p.name: _one_file(p, args, scratch) for p in sorted(folder.iterdir()) if p.is_file()}}
    table = scratch / f"{folder.name}.csv"
    write_rows(table, rows)
    timed = segagree.read_time_units(table, annotators=annotators, **reading)
    result = segagree.agree_time(table, measures=MEASURES, params=params, annotators=annotators, **reading)
    plan = result["plan"]
    report = {
        "annotators": plan["annotators"],
        "recordings": len({r["recording"] for r in plan["rows"]}),
        "units": result["units"],
        "gaps": plan["gaps"],
        "left_out": plan["left_out"],
        "values": {m: result[m] for m in MEASURES},
        "observed_disorder": result["measures"]["gamma"]["pooled"]["observed_disorder"],
        "cpu_s": round(time.process_time() - started, 2),
    }
    if args.pygamma:
        report["pygamma"] = compare_pygamma(args.pygamma, result, timed, scratch, args.pygamma_recordings)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", type=Path)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--pygamma", metavar="PYTHON", help="a Python with pygamma-agreement (its own venv)")
    parser.add_argument("--pygamma-recordings", type=int, default=5, metavar="N")
    parser.add_argument("--json", type=Path, metavar="OUT")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for folder in sorted(p for p in args.dir.iterdir() if p.is_dir()):
            try:
                results[folder.name] = check_set(folder, args, Path(tmp))
            except SegagreeError as err:
                results[folder.name] = {"refused": str(err)}
            except Exception:  # noqa: BLE001 (a crash is what this script looks for)
                results[folder.name] = {"crash": traceback.format_exc()}
                bad += 1
            res = results[folder.name]
            for one in [res, *res.get("files", {}).values()]:
                bad += sum(1 for c in one.get("pygamma", []) if c.get("diff", 0) > 1e-5 or "error" in c)
            print(f"{folder.name}: {json.dumps(res, ensure_ascii=False)}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
