"""Check ``disrpt_seg`` and ``ud_sentences`` against the official scripts on a real file.

    PYTHONPATH=src .venv/bin/python bench/check_official_scorers.py GOLD.conllu --refs /work/refs [--seed 1]

Writes a perturbed copy of GOLD (a temporary file, or ``--pred PATH``): with ``--seed``, about
15% of its unit starts (``BeginSeg=Yes``) dropped, 15% moved by a word and 2% of the other words
made unit starts (a document's first word keeps its own); connectives (``Seg=B-Conn``) dropped
and added alike; and, in a ``.conllu`` file, about 15% of its sentence breaks dropped, 15% moved
by a token and 0.5% of the other tokens made sentence starts (never inside a
multiword token; each sentence of the copy gets a simple tree: its first word the root, the
others its dependents, which the sentence metric does not look at). Then runs DISRPT's
``seg_eval.py`` and, for a ``.conllu`` file, CoNLL 2018's ``conll18_ud_eval.py -v`` and ``-c``
from ``--refs`` (third-party scripts: keep them outside the repository), and ``segagree compare``
with ``disrpt_seg`` (the file's main layer) and ``ud_sentences`` (``--layer sentence``), and
prints each one's numbers.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

BEGIN, B_CONN, I_CONN = "BeginSeg=Yes", "Seg=B-Conn", "Seg=I-Conn"


def _groups(text: str) -> list[tuple[str, list[list[str]], bool]]:
    """The file as (document comment or "", token group, starts a sentence) in order; a token
    group is a multiword token line with its words, or one word (or empty node) line."""
    out: list[tuple[str, list[list[str]], bool]] = []
    doc, new_sentence, pending = "", True, 0
    for line in text.split("\n"):
        if not line.strip():
            new_sentence = True
            continue
        if line.startswith("#"):
            if line[1:].partition("=")[0].strip() in ("newdoc id", "newdoc_id"):
                doc = line
            continue
        cols = line.split("\t")
        if pending:  # a word of the multiword token before
            out[-1][1].append(cols)
            pending -= 1
            continue
        out.append((doc, [cols], new_sentence))
        doc, new_sentence = "", False
        if "-" in cols[0]:
            first, last = cols[0].split("-")
            pending = int(last) - int(first) + 1
    return out


def _perturb_misc(rng: random.Random, groups: list[tuple[str, list[list[str]], bool]], label: str) -> None:
    """Unit starts (or connective starts) dropped, moved by a word and added, in place; a
    document's first word keeps its unit start (seg_eval.py and segagree differ where it has none)."""
    words = [cols for _, g, _ in groups for cols in g if cols[0].isdigit()]
    firsts = {id(next(c for c in g if c[0].isdigit())) for doc, g, _ in groups if doc}
    marked = [label in w[-1].split("|") for w in words]
    if not any(marked):
        return
    out = list(marked)
    for i, m in enumerate(marked):
        r = rng.random()
        if label == BEGIN and (id(words[i]) in firsts or (i + 1 < len(words) and id(words[i + 1]) in firsts)):
            continue
        if m and r < 0.15:
            out[i] = False
        elif m and r < 0.30 and 0 < i < len(words) - 1:
            out[i] = False
            out[i + rng.choice([-1, 1])] = True
        elif not m and r < 0.02:
            out[i] = True
    previous = ""
    for w, m in zip(words, out, strict=True):
        items = w[-1].split("|")
        # a connective's I-Conn words stay where they still follow its B-Conn (no orphan I-Conn)
        inside = label == B_CONN and not m and I_CONN in items and previous in (B_CONN, I_CONN)
        misc = [x for x in items if x not in ("_", label, I_CONN)]
        mark = [label] if m else [I_CONN] if inside else []
        w[-1] = "|".join(mark + misc) or "_"
        previous = mark[0] if mark else ""


def _write_conllu(groups: list[tuple[str, list[list[str]], bool]], starts: list[bool], sentences: bool) -> str:
    lines: list[str] = []
    i = 0
    for (doc, group, _), start in zip(groups, starts, strict=True):
        if (start or doc) and lines and sentences:
            lines.append("")
        if doc:
            lines.append(doc)
        if start or doc:
            i = 0
        for cols in group:
            cols = list(cols)
            if "-" in cols[0]:
                first, last = cols[0].split("-")
                cols[0] = f"{i + 1}-{i + 1 + int(last) - int(first)}"
            elif "." in cols[0]:
                cols[0] = f"{i}.{cols[0].split('.')[1]}"
            else:
                i += 1
                cols[0] = str(i)
                if sentences:
                    cols[6], cols[7], cols[8] = ("0", "root", "_") if i == 1 else ("1", "dep", "_")
            lines.append("\t".join(cols))
    return "\n".join(lines) + ("\n\n" if sentences else "\n")


def perturbed(gold: Path, seed: int) -> str:
    """The perturbed copy of ``gold`` (see the module docstring)."""
    text = gold.read_text(encoding="utf-8").replace("\r", "")
    groups = _groups(text)
    rng = random.Random(seed)
    _perturb_misc(rng, groups, BEGIN)
    _perturb_misc(rng, groups, B_CONN)
    sentences = gold.suffix.lower() == ".conllu"
    starts = [s for _, _, s in groups]
    if sentences:
        fixed = [bool(doc) for doc, _, _ in groups]
        new = list(starts)
        for i, s in enumerate(starts):
            r = rng.random()
            if fixed[i] or i == 0:
                continue
            if s and r < 0.15:
                new[i] = False
            elif s and r < 0.30 and i + 1 < len(starts) and not fixed[i + 1]:
                new[i], new[i + 1] = False, True
            elif not s and r < 0.005:
                new[i] = True
        starts = new
    return _write_conllu(groups, starts, sentences)


def glued(text: str) -> str:
    """A tokeniser's output of a perturbed ``.conllu`` copy: punctuation glued to the word before it
    (``Occidental.``), a multiword token written as one word, no comment lines (no documents), each
    sentence a simple tree again; the characters stay the gold's, the tokens do not."""
    sentences: list[list[str]] = [[]]
    skip = 0
    for line in text.split("\n"):
        if not line.strip():
            sentences.append([])
            continue
        cols = line.split("\t")
        if line.startswith("#") or "." in cols[0]:
            continue
        if skip:
            skip -= 1
            continue
        if "-" in cols[0]:
            first, last = map(int, cols[0].split("-"))
            skip = last - first + 1
        if cols[1] in (".", ",", ";", ":", "!", "?") and sentences[-1]:
            sentences[-1][-1] += cols[1]
        else:
            sentences[-1].append(cols[1])
    rows = []
    for words in (s for s in sentences if s):
        for i, w in enumerate(words, 1):
            head, rel = (0, "root") if i == 1 else (1, "dep")
            rows.append(f"{i}\t{w}\t_\t_\t_\t_\t{head}\t{rel}\t_\t_")
        rows.append("")
    return "\n".join(rows) + "\n"


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("gold", type=Path)
    parser.add_argument("--refs", type=Path, required=True, help="folder holding seg_eval.py and conll18_ud_eval.py")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pred", type=Path, help="where to write the perturbed copy (default: a temporary file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pred = args.pred or Path(tmp) / f"pred{args.gold.suffix}"
        pred.write_text(perturbed(args.gold, args.seed), encoding="utf-8")
        print(f"$ seg_eval.py {args.gold} {pred}")
        print(_run([sys.executable, str(args.refs / "seg_eval.py"), str(args.gold), str(pred)]).stdout)
        seg = [sys.executable, "-m", "segagree", "compare", str(args.gold), str(pred), "--json"]
        got = json.loads(_run([*seg, "--metric", "disrpt_seg"]).stdout)
        print(f"segagree disrpt_seg (layer {got['layer']}, {got['n_tokens']} words):")
        print(json.dumps(got["metrics"]["disrpt_seg"]["pooled"], indent=1))
        if args.gold.suffix.lower() == ".conllu":
            for flag in ("-v", "-c"):
                ud = _run([sys.executable, str(args.refs / "conll18_ud_eval.py"), flag, str(args.gold), str(pred)])
                row = next(x for x in ud.stdout.splitlines() if x.startswith("Sentences"))
                print(f"$ conll18_ud_eval.py {flag}: {row}")
            got = json.loads(_run([*seg, "--metric", "ud_sentences", "--layer", "sentence"]).stdout)
            print("segagree ud_sentences:")
            print(json.dumps(got["metrics"]["ud_sentences"]["pooled"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
