"""Benchmark and check: DER and JER of a system RTTM against a reference RTTM on real files, whole
commands side by side in one run: dscore's ``score.py`` against ``segagree agree --time ... --convention
dscore``, and a script running pyannote.metrics' ``DiarizationErrorRate`` and ``JaccardErrorRate``
against ``segagree agree --time ...`` (pyannote's convention); start-up and reading included.

    PYTHONPATH=src .venv/bin/python bench/bench_diarization_scorers.py REF.rttm SYS.rttm [--uem ALL.uem]
        --dscore /work/refs/dscore --ref-python /tmp/venv/bin/python [--collar 0.25] [--skip-overlap]
        [--rounds 5]

``--collar`` is dscore's (seconds on each side of a reference boundary, as md-eval.pl): pyannote and
segagree are given twice it (their collar is the total width). ``--ref-python`` is an interpreter with
dscore's requirements and pyannote.metrics (keep it out of segagree's venv). Every command runs once
first with bytecode written (so no round compiles its modules), then ``--rounds`` times, interleaved;
the medians of wall and CPU time (user + system of the child) are printed with the ratios, and each
tool's DER and JER: dscore's as it prints them (two decimals, in percent) beside segagree's formatted
the same way, pyannote's ``repr`` beside segagree's. Exit code 1 when a figure differs (dscore's to the
printed digit, pyannote's by more than 1e-12).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYANNOTE = """
import sys, warnings
warnings.filterwarnings("ignore")
from pyannote.core import Annotation, Segment, Timeline
from pyannote.metrics.diarization import DiarizationErrorRate, JaccardErrorRate
ref_path, sys_path, collar, skip, uem_path = sys.argv[1:6]
def load(p):
    out = {}
    for line in open(p):
        f = line.split()
        if f and f[0] == "SPEAKER":
            ann = out.setdefault(f[1], Annotation(uri=f[1]))
            s, d = float(f[3]), float(f[4])
            ann[Segment(s, s + d), ann.new_track(Segment(s, s + d))] = f[7]
    return out
ref, hyp, uems = load(ref_path), load(sys_path), {}
if uem_path != "-":
    for line in open(uem_path):
        f = line.split()
        if f and not f[0].startswith(";"):
            uems.setdefault(f[0], []).append(Segment(float(f[2]), float(f[3])))
der = DiarizationErrorRate(collar=float(collar), skip_overlap=skip == "1")
jer = JaccardErrorRate(collar=float(collar), skip_overlap=skip == "1")
for uri in ref:
    h = hyp.get(uri, Annotation(uri=uri))
    uem = Timeline(uems[uri], uri=uri) if uri in uems else None
    der(ref[uri], h, uem=uem)
    jer(ref[uri], h, uem=uem)
print(repr(abs(der)), repr(abs(jer)))
"""


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one run of ``cmd`` (its children's rusage), and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def _dscore_figures(out: str) -> tuple[str, str]:
    row = next(line for line in out.splitlines() if line.startswith("*** OVERALL ***")).split()
    return row[3], row[4]


def _segagree_figures(out: str) -> tuple[float, float]:
    measures = json.loads(out)["measures"]
    return measures["der"]["pooled"]["value"], measures["jer"]["pooled"]["value"]


def _commands(args: argparse.Namespace, script: Path) -> dict[str, list[str]]:
    ref, hyp = str(args.ref), str(args.sys)
    exe = str(Path(sys.executable).with_name("segagree"))
    total = str(2 * args.collar)
    ours = [exe, "agree", "--time", ref, hyp, "--measure", "der,jer", "--json", "--collar", total]
    dscore = [args.ref_python, str(args.dscore / "score.py"), "-r", ref, "-s", hyp, "--collar", str(args.collar)]
    if args.uem:
        ours += ["--uem", str(args.uem)]
        dscore += ["-u", str(args.uem)]
    if args.skip_overlap:
        ours.append("--skip-overlap")
        dscore.append("--ignore_overlaps")
    skip, uem = ("1" if args.skip_overlap else "0"), (str(args.uem) if args.uem else "-")
    return {
        "dscore score.py": dscore,
        "segagree --convention dscore": [*ours, "--convention", "dscore"],
        "pyannote.metrics script": [args.ref_python, str(script), ref, hyp, total, skip, uem],
        "segagree (pyannote)": ours,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ref", type=Path)
    ap.add_argument("sys", type=Path)
    ap.add_argument("--uem", type=Path)
    ap.add_argument("--dscore", type=Path, required=True, help="dscore's folder (score.py)")
    ap.add_argument("--ref-python", required=True, help="a Python with dscore's requirements and pyannote.metrics")
    ap.add_argument("--collar", type=float, default=0.25, help="dscore's collar (each side)")
    ap.add_argument("--skip-overlap", action="store_true")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp, "pyannote_der_jer.py")
        script.write_text(PYANNOTE, encoding="utf-8")
        commands = _commands(args, script)
        outs = {name: _timed(cmd, env)[2] for name, cmd in commands.items()}  # warm-up: bytecode written
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(args.rounds):
            for name, cmd in commands.items():
                wall, cpu, _out = _timed(cmd, env)
                times[name].append((wall, cpu))
    med = {n: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t)) for n, t in times.items()}
    d_der, d_jer = _dscore_figures(outs["dscore score.py"])
    s_der, s_jer = _segagree_figures(outs["segagree --convention dscore"])
    p_der, p_jer = (float(x) for x in outs["pyannote.metrics script"].split())
    o_der, o_jer = _segagree_figures(outs["segagree (pyannote)"])
    same_d = (d_der, d_jer) == (f"{100 * s_der:.2f}", f"{100 * s_jer:.2f}")
    same_p = all(abs(a - b) <= 1e-12 * max(1.0, abs(a)) for a, b in ((p_der, o_der), (p_jer, o_jer)))
    print(
        f"{args.ref.name} against {args.sys.name}, collar {args.collar} s a side, uem {args.uem or '-'}, "
        f"skip overlap {args.skip_overlap}; median of {args.rounds}"
    )
    for name, (wall, cpu) in med.items():
        print(f"  {name:30s} wall {wall:6.2f} s  CPU {cpu:6.2f} s")
    for ours, theirs in (
        ("segagree --convention dscore", "dscore score.py"),
        ("segagree (pyannote)", "pyannote.metrics script"),
    ):
        wall, cpu = med[ours][0] / med[theirs][0], med[ours][1] / med[theirs][1]
        print(f"  ratio {ours} / {theirs}: wall {wall:.2f}, CPU {cpu:.2f}")
    ours_d = f"{100 * s_der:.2f} {100 * s_jer:.2f}"
    print(f"  dscore   DER {d_der} JER {d_jer} | segagree {ours_d}  {'same' if same_d else 'DIFFER'}")
    print(f"  pyannote DER {p_der!r} JER {p_jer!r} | segagree {o_der!r} {o_jer!r}  {'same' if same_p else 'DIFFER'}")
    return 0 if same_d and same_p else 1


if __name__ == "__main__":
    sys.exit(main())
