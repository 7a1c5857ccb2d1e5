"""Benchmark: the whole subtitle metric set against the SubER command line, side by side.

    .venv/bin/python bench/bench_subtitles.py [--system cascade.fr] [--sentences 544] [--jobs 2]

Fixed inputs: the MuST-Cinema en->fr test set in ../shared/corpora/subtitles_tagged (reference
``amara.fr``, 544 sentences; ``--sentences`` keeps the first N of both files, written to a
temporary folder). Timed, wall clock, one after the other:

1. ``segagree``: ``compare_documents`` with ``--metric subtitles`` (every SubER metric that
   applies to tagged text, EvalSubtitle's Sigma, BLEU_br/nb, TER_br, CPL, F1/Pk/WindowDiff/S/B on
   the projected breaks, lines per block), reading the files included, ``jobs`` worker processes
   for the masked TER;
2. the SubER 0.4 command line (``suber -f plain -F plain -m ...``) computing the same SubER
   metrics (23 apply to tagged text), process start included.

It prints both times, the ratio, and checks that the SubER numbers are identical.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from segagree.adapters import read_document
from segagree.pipeline.compare import compare_documents
from segagree.pipeline.metric_runner import resolve_metric_names

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "subtitles_tagged"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--system", default="cascade.fr")
    ap.add_argument("--sentences", type=int, default=544)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if not DATA.is_dir():
        sys.exit(f"{DATA} is absent: the benchmark reads the shared MuST-Cinema files")
    with tempfile.TemporaryDirectory() as tmp:
        ref, hyp = Path(tmp) / "amara.fr", Path(tmp) / args.system
        for src, dst in ((DATA / "amara.fr", ref), (DATA / args.system, hyp)):
            lines = src.read_text(encoding="utf-8").splitlines()[: args.sentences]
            dst.write_text("\n".join(lines) + "\n", encoding="utf-8")

        t0 = time.perf_counter()
        a, b = read_document(ref, "tagged"), read_document(hyp, "tagged")
        res = compare_documents(a, b, metrics=resolve_metric_names("subtitles"), metric_options={"jobs": args.jobs})
        ours_s = time.perf_counter() - t0
        names = list(res["metrics"]["suber_metrics"])

        exe = Path(sys.executable).parent / "suber"
        t0 = time.perf_counter()
        out = subprocess.run(
            [str(exe), "-H", str(hyp), "-R", str(ref), "-f", "plain", "-F", "plain", "-m", *names],
            capture_output=True,
            text=True,
            check=True,
        )
        cli_s = time.perf_counter() - t0
    same = json.loads(out.stdout) == res["metrics"]["suber_metrics"]
    n_metrics = len(names) + sum(1 for k in res["metrics"] if k not in ("suber_metrics", "suber_metrics_info"))
    print(f"{args.sentences} sentences of {args.system} against amara.fr")
    print(f"segagree, {n_metrics} metrics ({len(names)} SubER + EvalSubtitle's and others), jobs={args.jobs}: ", end="")
    print(f"{ours_s:.1f} s")
    print(f"suber command line, the {len(names)} SubER metrics: {cli_s:.1f} s")
    print(f"ratio suber / segagree: {cli_s / ours_s:.2f}x; SubER numbers identical: {same}")


if __name__ == "__main__":
    main()
