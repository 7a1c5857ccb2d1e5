"""Benchmark: every subtitle metric of segagree against the SubER command line, whole commands.

    PYTHONPATH=src .venv/bin/python bench/bench_subtitles.py [--system nmt.fr] [--repeats 5]

Fixed inputs: the MuST-Cinema en->fr test set in ../shared/corpora/subtitles_tagged (reference
``amara.fr``, 544 sentences, against ``--system``). Each round runs, one after the other (the
order alternates between rounds), as separate processes:

1. ``segagree compare amara.fr SYSTEM --from tagged --metric subtitles --json`` at jobs=1: start-up,
   reading both files and every subtitle metric (SubER's that apply to tagged text, s_bleu,
   EvalSubtitle's Sigma, BLEU_br/nb, TER_br, CPL, F1/Pk/WindowDiff/S/B on the projected breaks,
   lines per block; S_f is tried as well);
2. ``suber -H SYSTEM -R amara.fr -f plain -F plain -m`` with SubER's 16 plain metrics
   (WER, CER, BLEU, TER, chrF, WER-cased, CER-cased, WER-seg, BLEU-seg, TER-seg, TER-br, AS-WER,
   AS-CER, AS-BLEU, AS-TER, AS-chrF); ``--all-plain`` adds the other six AS- forms (22 metrics);
3. with ``--baseline SRC``, the same segagree command on another source tree (``PYTHONPATH=SRC``,
   e.g. an older commit's ``src`` from ``git archive``), for a before/after ratio in the same run.

With ``--corpus``, instead: the corpus evaluation (per-file and pooled scores), this tree against
``--baseline`` in each round: ``evaluate_paths([amara.fr], [SYSTEM], fmt="tagged")`` in a child
Python (every subtitle metric of the 544-sentence pair, per file and pooled), and the whole command
``segagree run`` on a folder of two texts (the halves of amara.fr as ``ref``, of SYSTEM as the
system), which scores each text in its task and the texts pooled.

Before the rounds, one segagree run with an empty numba cache (``NUMBA_CACHE_DIR``) shows the
one-time cost of compiling the TER kernel after installation; one more run warms the caches.
Printed: per command the median wall-clock and CPU (user + system of the child) seconds with their
range, the median ratio suber / segagree of each round (wall and CPU), and whether segagree's
SubER numbers equal the command line's. The machine is shared: CPU time is steadier than wall time
under load, and the ratio of one round (both commands under the same load) steadier than either.
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

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "subtitles_tagged"
PLAIN = [
    *("WER", "CER", "BLEU", "TER", "chrF", "WER-cased", "CER-cased", "WER-seg", "BLEU-seg", "TER-seg", "TER-br"),
    *("AS-WER", "AS-CER", "AS-BLEU", "AS-TER", "AS-chrF"),
]
MORE_AS = ["AS-WER-cased", "AS-CER-cased", "AS-WER-seg", "AS-BLEU-seg", "AS-TER-seg", "AS-TER-br"]


def timed(cmd: list[str], **env: str) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the child, stdout) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env={**os.environ, **env})
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.stdout


def spread(xs: list[float]) -> str:
    return f"median {statistics.median(xs):.2f} s (min {min(xs):.2f}, max {max(xs):.2f})"


EVALUATE = (
    "from segagree.scoring.subtitles.evaluation import evaluate_paths; import json, sys; "
    "print(json.dumps(evaluate_paths([sys.argv[1]], [sys.argv[2]], fmt='tagged'), sort_keys=True, default=str))"
)


def corpus_rounds(hyp: Path, repeats: int, baseline: Path | None) -> None:
    """``--corpus``: evaluate_paths on the pair and ``segagree run`` on two texts, side by side."""
    trees = {"segagree": {}} | ({"baseline": {"PYTHONPATH": str(baseline.resolve())}} if baseline else {})
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        corpus.mkdir()
        for src, name in ((DATA / "amara.fr", "ref"), (hyp, "mt")):
            lines = src.read_text(encoding="utf-8").splitlines(keepends=True)
            half = len(lines) // 2
            (corpus / f"talk1.{name}.tagged").write_text("".join(lines[:half]), encoding="utf-8")
            (corpus / f"talk2.{name}.tagged").write_text("".join(lines[half:]), encoding="utf-8")
        cmds = {
            "evaluate_paths": [sys.executable, "-c", EVALUATE, str(DATA / "amara.fr"), str(hyp)],
            "run": [sys.executable, "-m", "segagree", "run", str(corpus), "-o", str(Path(tmp) / "out"), "--fresh"],
        }
        for env in trees.values():
            timed(cmds["evaluate_paths"], **env)  # warm caches (numba's included)
        runs: dict[tuple[str, str], list[float]] = {}
        outputs: dict[str, set[str]] = {}
        for k in range(repeats):
            order = list(trees.items())
            for what, cmd in cmds.items():
                for tree, env in order if k % 2 == 0 else order[::-1]:
                    _, cpu, stdout = timed(cmd, **env)
                    runs.setdefault((what, tree), []).append(cpu)
                    if what == "evaluate_paths":
                        outputs.setdefault(tree, set()).add(stdout)
    print(f"corpus evaluation, amara.fr against {hyp.name}, {repeats} rounds, CPU seconds (user + system)")
    for (what, tree), cpus in runs.items():
        print(f"  {what:15s} {tree:8s} {spread(cpus)}")
    if baseline:
        for what in cmds:
            gain = [b / o for o, b in zip(runs[(what, "segagree")], runs[(what, "baseline")], strict=True)]
            med = statistics.median(gain)
            print(f"  {what}: CPU ratio baseline / segagree median {med:.2f}x (min {min(gain):.2f})")
    same = len({o for outs in outputs.values() for o in outs}) == 1
    print(f"  evaluate_paths' output (every number, per file and pooled) the same in every run: {same}")
    print(f"  load {os.getloadavg()[0]:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--system", default="nmt.fr")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--all-plain", action="store_true", help="suber computes 22 plain metrics, not 16")
    ap.add_argument("--baseline", type=Path, help="a src folder of another segagree, run side by side")
    ap.add_argument("--corpus", action="store_true", help="time the corpus evaluation (per file and pooled)")
    args = ap.parse_args()
    plain = PLAIN + MORE_AS if args.all_plain else PLAIN
    if not DATA.is_dir():
        sys.exit(f"{DATA} is absent: the benchmark reads the shared MuST-Cinema files")
    ref, hyp = DATA / "amara.fr", DATA / args.system
    if args.corpus:
        corpus_rounds(hyp, args.repeats, args.baseline)
        return
    bindir = Path(sys.executable).parent
    ours = [str(bindir / "segagree"), "compare", str(ref), str(hyp), "--from", "tagged", "--metric", "subtitles"]
    ours.append("--json")
    theirs = [str(bindir / "suber"), "-H", str(hyp), "-R", str(ref), "-f", "plain", "-F", "plain", "-m", *plain]
    base_env = {"PYTHONPATH": str(args.baseline.resolve())} if args.baseline else {}
    base = [sys.executable, "-m", "segagree", *ours[1:]]
    with tempfile.TemporaryDirectory() as empty:  # the first run after installing: numba compiles the kernel
        cold_wall, cold_cpu, _ = timed(ours, NUMBA_CACHE_DIR=empty)
    timed(ours)  # warm the disk caches and numba's compiled-code cache (not counted)
    runs: dict[str, list[tuple[float, float]]] = {"segagree": [], "suber": []}
    if args.baseline:
        timed(base, **base_env)  # warm its numba cache too
        runs["baseline"] = []
    same = True
    for k in range(args.repeats):
        order = [("segagree", ours, {}), ("suber", theirs, {})]
        order += [("baseline", base, base_env)] if args.baseline else []
        for name, cmd, env in order if k % 2 == 0 else order[::-1]:
            wall, cpu, stdout = timed(cmd, **env)
            runs[name].append((wall, cpu))
            if name == "suber":
                expected = json.loads(stdout)
            elif name == "segagree":
                got = json.loads(stdout)["metrics"]["suber_metrics"]
        same = same and all(got.get(m) == v for m, v in expected.items())
    print(f"{args.system} against amara.fr (544 sentences), {args.repeats} rounds, segagree at jobs=1")
    for name, rs in runs.items():
        print(f"  {name:8s} wall {spread([w for w, _ in rs])}; CPU {spread([c for _, c in rs])}")
    wall_ratio = [s[0] / o[0] for o, s in zip(runs["segagree"], runs["suber"], strict=True)]
    cpu_ratio = [s[1] / o[1] for o, s in zip(runs["segagree"], runs["suber"], strict=True)]
    print(
        f"  ratio suber / segagree: wall median {statistics.median(wall_ratio):.2f}x "
        f"(min {min(wall_ratio):.2f}, max {max(wall_ratio):.2f}); CPU median {statistics.median(cpu_ratio):.2f}x "
        f"(min {min(cpu_ratio):.2f}, max {max(cpu_ratio):.2f}); target >= 4"
    )
    share = [o[1] / s[1] for o, s in zip(runs["segagree"], runs["suber"], strict=True)]
    print(
        f"  segagree's CPU as a share of suber's: median {statistics.median(share):.3f} "
        f"(min {min(share):.3f}, max {max(share):.3f}); target <= 0.25; load {os.getloadavg()[0]:.1f}"
    )
    if args.baseline:
        gain = [b[1] / o[1] for o, b in zip(runs["segagree"], runs["baseline"], strict=True)]
        print(f"  CPU ratio baseline / segagree: median {statistics.median(gain):.2f}x (min {min(gain):.2f})")
    print(f"  segagree's SubER numbers equal the command line's ({len(plain)} metrics): {same}")
    print(
        f"  segagree's first run with an empty numba cache (the TER kernel compiled once per installation, "
        f"cached after): wall {cold_wall:.2f} s, CPU {cold_cpu:.2f} s"
    )


if __name__ == "__main__":
    main()
