"""Check ``disrpt_seg`` and ``ud_sentences`` against the official scripts on system outputs that differ
from the gold as real segmenters' and parsers' outputs do.

    PYTHONPATH=src .venv/bin/python bench/check_system_outputs.py GOLD... --refs /work/refs [--seed 7] [--keep DIR]

For each gold file (DISRPT ``.tok``, ``.conllu`` or 2019 ``.conll``; UD ``.conllu``) it writes system
outputs (``--keep DIR`` keeps them, else a temporary folder):

* ``noise``: unit starts (``BeginSeg=Yes``) dropped (10%) and added (3%) at random, a document's first
  token included; on a connective corpus, ``B-Conn`` dropped or turned into ``I-Conn`` (orphans), ``I-Conn``
  dropped, ``B-Conn``/``I-Conn`` added;
* ``first_unmarked``: lighter noise, and every document's first token left unmarked;
* ``no_newdoc``: the noise without ``# newdoc`` lines (a parser's output);
* ``merge``: the noise with two documents merged (scored with ``--one-stream``);
* ``reorder``: the first two documents swapped (segagree pairs documents by id and says so; the script
  compares misaligned tokens: a difference by design);
* ``glue``: punctuation glued to the word before (``Occidental.``): the DISRPT script refuses the
  token counts, as segagree does; for a ``.conllu`` gold the same retokenised file is also scored by
  ``conll18_ud_eval.py -v`` and ``-c`` (Sentences row) against ``--metric ud_sentences``, with sentence
  breaks merged (10%) and split (2%).

It runs DISRPT's ``seg_eval.py`` (``seg_eval_2019.py`` for a ``.conll`` gold, with ``--disrpt-version
2019``) and ``segagree compare --metric disrpt_seg --json`` and compares every printed field (the counts,
``str`` of precision, recall and F; the script's integer ``0`` where it divides by zero is taken as
segagree's ``0.0``); a refusal on both sides counts as the same. A gold without DISRPT labels (a UD
treebank) is checked for its sentences only. Prints ``SAME`` or
``DIFF`` per pair, then the totals; exit code 1 when a pair differs where no difference is by design.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

LABELS = ("BeginSeg=Yes", "Seg=B-Conn", "Seg=I-Conn")
BY_DESIGN = {"reorder"}


def _word(line: str) -> bool:
    return "\t" in line and line.split("\t")[0].isdigit()


def _labels(line: str) -> list[str]:
    return [x for x in LABELS if x in line.split("\t")[-1].split("|")]


def _with(line: str, labels: list[str]) -> str:
    f = line.split("\t")
    f[-1] = "|".join(labels + [x for x in f[-1].split("|") if x not in ("_", *LABELS)]) or "_"
    return "\t".join(f)


def noise(
    lines: list[str], rng: random.Random, p_del: float = 0.1, p_ins: float = 0.03, first: bool = True
) -> list[str]:
    """Unit or connective marks dropped, moved to orphans and added (see the module docstring)."""
    edu, out, at_start = any("BeginSeg=Yes" in x for x in lines), [], False
    for line in lines:
        at_start = at_start or line.startswith("# newdoc")
        if not _word(line):
            out.append(line)
            continue
        labels, r = _labels(line), rng.random()
        if edu:
            if labels and r < p_del and (first or not at_start):
                labels = []
            elif not labels and r < p_ins:
                labels = ["BeginSeg=Yes"]
        elif labels and r < p_del:
            labels = []
        elif labels == ["Seg=B-Conn"] and r < 2 * p_del:
            labels = ["Seg=I-Conn"]
        elif not labels and r < p_ins:
            labels = ["Seg=B-Conn"]
        elif not labels and r < 1.5 * p_ins:
            labels = ["Seg=I-Conn"]
        at_start = False
        out.append(_with(line, labels))
    return out


def _docs(lines: list[str]) -> list[int]:
    return [i for i, x in enumerate(lines) if x.startswith("# newdoc")]


def first_unmarked(lines: list[str], rng: random.Random) -> list[str]:
    out, at_start = [], False
    for line in noise(lines, rng, 0.05, 0.01, first=False):
        if line.startswith("# newdoc"):
            at_start = True
        elif _word(line) and at_start:
            at_start, line = False, _with(line, [x for x in _labels(line) if x != "BeginSeg=Yes"])
        out.append(line)
    return out


def merge(lines: list[str], rng: random.Random) -> list[str]:
    out, idx = noise(lines, rng), _docs(lines)
    return out[: idx[1]] + out[idx[1] + 1 :] if len(idx) > 1 else out


def reorder(lines: list[str], rng: random.Random) -> list[str]:
    out, idx = noise(lines, rng), _docs(lines)
    if len(idx) < 3:
        return out
    a, b, c = idx[:3]
    return out[:a] + out[b:c] + out[a:b] + out[c:]


def glue(lines: list[str], rng: random.Random) -> list[str]:
    """Punctuation glued to the word before; sentence breaks merged and split; no comments."""
    words: list[tuple[str, bool, bool]] = []  # form, SpaceAfter=No, starts a sentence
    new_sentence, skip = True, 0
    for line in lines:
        if not line.strip():
            new_sentence = True
            continue
        cols = line.split("\t")
        if line.startswith("#") or len(cols) < 10 or "." in cols[0]:
            continue
        if skip:
            skip -= 1
            continue
        if "-" in cols[0]:
            first_id, last_id = map(int, cols[0].split("-"))
            skip = last_id - first_id + 1
        starts = (new_sentence and rng.random() > 0.1) or (not new_sentence and rng.random() < 0.02)
        no_space = "SpaceAfter=No" in cols[9]
        if cols[1] in (".", ",", ";", ":", "!", "?") and words and words[-1][1] and not starts:
            words[-1] = (words[-1][0] + cols[1], no_space, words[-1][2])
        else:
            words.append((cols[1], no_space, starts or not words))
        new_sentence = False
    rows, k = [], 0
    for form, no_space, starts in words:
        if starts and rows:
            rows.append("")
        k = 1 if starts else k + 1
        head = "0\troot" if k == 1 else "1\tdep"
        rows.append(f"{k}\t{form}\t_\t_\t_\t_\t{head}\t_\t{'SpaceAfter=No' if no_space else '_'}")
    return [*rows, "", ""]


CASES: dict[str, Callable[[list[str], random.Random], list[str]]] = {
    "noise": noise,
    "first_unmarked": first_unmarked,
    "no_newdoc": lambda lines, rng: [x for x in noise(lines, rng) if not x.startswith("# newdoc")],
    "merge": merge,
    "reorder": reorder,
    "glue": glue,
}


def _script(py: Path, gold: Path, pred: Path) -> dict[str, str] | str:
    proc = subprocess.run([sys.executable, str(py), str(gold), str(pred)], capture_output=True, text=True)
    found = dict(re.findall(r"^o (Gold|Predicted) .*?: (\d+)$", proc.stdout, re.M))
    fields = dict(re.findall(r"^o (Precision|Recall|F-Score): (.*)$", proc.stdout, re.M))
    if not found:
        return "refused"
    return {"gold": found["Gold"], "system": found["Predicted"], **{k.lower(): v for k, v in fields.items()}}


def _same(theirs: dict[str, str] | str, ours: dict[str, str] | str) -> bool:
    """Every printed field equal; the script's ``0`` where it divides by zero (an int) is segagree's 0.0."""
    if isinstance(theirs, str) or isinstance(ours, str):
        return theirs == ours
    return theirs.keys() == ours.keys() and all(
        t == o or (t == "0" and o == "0.0") for t, o in ((theirs[k], ours[k]) for k in theirs)
    )


def _ours(gold: Path, pred: Path, extra: list[str]) -> dict[str, str] | str:
    cmd = [sys.executable, "-m", "segagree", "compare", str(gold), str(pred), "--metric", "disrpt_seg", "--json"]
    proc = subprocess.run([*cmd, *extra], capture_output=True, text=True)
    if proc.returncode:
        return "refused" if proc.returncode == 1 and "Traceback" not in proc.stderr else f"crash: {proc.stderr[-300:]}"
    p = json.loads(proc.stdout)["metrics"]["disrpt_seg"]["pooled"]
    names = (
        ("gold", "gold"),
        ("system", "system"),
        ("precision", "precision"),
        ("recall", "recall"),
        ("f1", "f-score"),
    )
    return {mine: str(p[key]) for key, mine in names}


def _ud(refs: Path, gold: Path, pred: Path) -> tuple[list[str], list[str]] | None:
    rows = []
    for flag in ("-v", "-c"):
        cmd = [sys.executable, str(refs / "conll18_ud_eval.py"), flag, str(gold), str(pred)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode:
            return None
        row = next(x for x in proc.stdout.splitlines() if x.startswith("Sentences")).split("|")
        rows.append([x.strip() for x in row[1:4]])
    cmd = [sys.executable, "-m", "segagree", "compare", str(gold), str(pred), "--metric", "ud_sentences", "--json"]
    p = json.loads(subprocess.run(cmd, capture_output=True, text=True).stdout)["metrics"]["ud_sentences"]["pooled"]
    ours = [
        [f"{100 * p[k]:.2f}" for k in ("precision", "recall", "f1")],
        [str(p[k]) for k in ("correct", "gold", "system")],
    ]
    return rows[0] + rows[1], ours[0] + ours[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("golds", type=Path, nargs="+")
    ap.add_argument(
        "--refs", type=Path, required=True, help="folder of seg_eval.py, seg_eval_2019.py, conll18_ud_eval.py"
    )
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--keep", type=Path, help="write the system outputs here (default: a temporary folder)")
    args = ap.parse_args()
    same = differ = by_design = 0
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = args.keep or Path(tmp)
        out_dir.mkdir(parents=True, exist_ok=True)
        for gold in args.golds:
            lines = gold.read_text(encoding="utf-8").replace("\r", "").split("\n")
            v2019 = gold.suffix.lower() == ".conll"
            script = args.refs / ("seg_eval_2019.py" if v2019 else "seg_eval.py")
            for case, make in CASES.items():
                pred = out_dir / f"{gold.stem}.{case}{gold.suffix}"
                pred.write_text("\n".join(make(lines, random.Random(args.seed))), encoding="utf-8")
                extra = (["--disrpt-version", "2019"] if v2019 else []) + (["--one-stream"] if case == "merge" else [])
                if not any(label in line for line in lines for label in LABELS):
                    if case != "glue":  # a UD treebank: its sentences only
                        continue
                    theirs = ours = "not a DISRPT file"
                else:
                    theirs, ours = _script(script, gold, pred), _ours(gold, pred, extra)
                ok = _same(theirs, ours)
                same, differ, by_design = (
                    same + ok,
                    differ + (not ok and case not in BY_DESIGN),
                    by_design + (not ok and case in BY_DESIGN),
                )
                print(
                    f"{'SAME' if ok else 'DIFF'} {gold.name} {case}"
                    + ("" if ok else f"\n  script {theirs}\n  ours   {ours}")
                )
                if case == "glue" and gold.suffix.lower() == ".conllu":
                    found = _ud(args.refs, gold, pred)
                    if found is not None:
                        ok = found[0] == found[1]
                        same, differ = same + ok, differ + (not ok)
                        print(
                            f"{'SAME' if ok else 'DIFF'} {gold.name} ud_sentences (glued, -v and -c)"
                            + ("" if ok else f" {found}")
                        )
    print(f"{same} same, {differ} different, {by_design} different by design (documents paired by id)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
