"""Benchmark: segagree's official figures beside the official scripts, whole commands, in one run.

    .venv/bin/python bench/bench_official_scorers.py GOLD.tok [GOLD.conllu ...] --refs DIR [--repeat 5]

For each gold file a prediction is written as ``check_official_scorers.py`` writes one (``--seed``),
and, with ``--no-documents``, without its ``# newdoc`` lines (a segmenter's output), with ``--glue``
retokenised (punctuation glued to the word before it: ``ud_sentences`` only). Then, turn by
turn (so a busy machine slows both alike), each command runs ``--repeat`` times:

* DISRPT's ``seg_eval.py GOLD PRED`` against ``segagree compare GOLD PRED --metric disrpt_seg``;
* for a ``.conllu`` gold, CoNLL 2018's ``conll18_ud_eval.py -v GOLD PRED`` against ``segagree compare
  GOLD PRED --metric ud_sentences``.

Both run by this interpreter (``sys.executable``). Printed: the median wall time and CPU time (user +
system: steadier on a shared machine) of each, the ratios segagree / script, and whether segagree's
counts and floats are the script's (every printed digit).
segagree's bytecode is compiled first (as an installed package has it). The scripts are third-party:
keep them outside the repository (``DIR/seg_eval.py``,
``DIR/conll18_ud_eval.py``).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_official_scorers import glued, perturbed  # noqa: E402


def _time(args: list[str]) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall and CPU seconds (user + system) of one command, and its result."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, proc


def _printed(stdout: str) -> dict[str, str]:
    return {k: v for k, _, v in (ln[2:].rpartition(": ") for ln in stdout.splitlines() if ln.startswith("o "))}


def _seg_eval_same(stdout: str, pooled: dict) -> bool:
    printed = _printed(stdout)
    gold = next(v for k, v in printed.items() if k.startswith("Gold"))
    pred = next(v for k, v in printed.items() if k.startswith("Predicted"))
    floats = [printed[k] for k in ("Precision", "Recall", "F-Score")]
    mine = [pooled["precision"], pooled["recall"], pooled["f1"]]
    return (gold, pred) == (str(pooled["gold"]), str(pooled["system"])) and all(
        p == repr(float(v)) or (p == "0" and v == 0) for p, v in zip(floats, mine, strict=True)
    )


def _ud_same(stdout: str, pooled: dict) -> bool:
    row = next(ln for ln in stdout.splitlines() if ln.startswith("Sentences"))
    cells = [c.strip() for c in row.split("|")[1:4]]
    return cells == [f"{100 * pooled[k]:.2f}" for k in ("precision", "recall", "f1")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("gold", type=Path, nargs="+")
    parser.add_argument("--refs", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-documents", action="store_true", help="predictions without '# newdoc' lines")
    parser.add_argument(
        "--glue", action="store_true", help=".conllu predictions retokenised: punctuation glued (ud_sentences only)"
    )
    args = parser.parse_args()
    py = sys.executable
    # an installed package has its bytecode; without it (PYTHONDONTWRITEBYTECODE, a fresh checkout)
    # every run would compile the modules first
    import compileall

    import segagree

    compileall.compile_dir(str(Path(segagree.__file__).parent), quiet=1)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for gold in args.gold:
            pred = Path(tmp) / f"pred{len(rows)}{gold.suffix}"
            text = perturbed(gold, args.seed)
            if args.no_documents:
                text = "\n".join(ln for ln in text.split("\n") if not ln.startswith("# newdoc"))
            if args.glue and gold.suffix.lower() == ".conllu":
                text = glued(text)
            pred.write_text(text, encoding="utf-8")
            pairs = [("disrpt_seg", [py, str(args.refs / "seg_eval.py"), str(gold), str(pred)], _seg_eval_same)]
            if args.glue and gold.suffix.lower() == ".conllu":
                pairs = []  # seg_eval.py needs the same tokens
            if gold.suffix.lower() == ".conllu":
                pairs.append(
                    ("ud_sentences", [py, str(args.refs / "conll18_ud_eval.py"), "-v", str(gold), str(pred)], _ud_same)
                )
            for metric, script, same in pairs:
                mine = [py, "-m", "segagree", "compare", str(gold), str(pred), "--metric", metric]
                runs: dict[str, list[tuple[float, float]]] = {"script": [], "mine": []}
                for _ in range(args.repeat):
                    wall, cpu, proc_script = _time(script)
                    runs["script"].append((wall, cpu))
                    wall, cpu, _ = _time(mine)
                    runs["mine"].append((wall, cpu))
                got = json.loads(subprocess.run([*mine, "--json"], capture_output=True, text=True).stdout)
                ok = same(proc_script.stdout, got["metrics"][metric]["pooled"])
                med = {k: [statistics.median(t[i] for t in v) for i in (0, 1)] for k, v in runs.items()}
                rows.append((gold.name, metric, got["n_tokens"], med["script"], med["mine"], ok))
    print(f"{'file':26} {'measure':12} {'words':>6}  wall: script segagree ratio   cpu: script segagree ratio  same")
    for name, metric, words, a, b, ok in rows:
        words_text = "-" if words is None else str(words)
        print(
            f"{name:26} {metric:12} {words_text:>6}  {a[0]:12.3f} {b[0]:8.3f} {b[0] / a[0]:5.2f}  "
            f"{a[1]:11.3f} {b[1]:8.3f} {b[1] / a[1]:5.2f}  {'yes' if ok else 'NO'}"
        )
    return 0 if all(r[-1] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
