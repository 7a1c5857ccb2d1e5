"""``ud_sentences`` and ``disrpt_seg`` against the official scripts themselves: CoNLL 2018's
``conll18_ud_eval.py`` and DISRPT's ``seg_eval.py`` run on gold/prediction pairs written here
(random boundaries moved, dropped and added; multiword tokens; SpaceAfter=No), every number they
print compared. The scripts are third-party and not in the repository: the tests run when copies
are at /work/refs (see docs/formats-neighbours.md) and are skipped otherwise."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import run_cli

import segagree

REFS = Path(os.environ.get("SEGAGREE_REFS", "/work/refs"))
SEG_EVAL, UD_EVAL = REFS / "seg_eval.py", REFS / "conll18_ud_eval.py"
needs_seg_eval = pytest.mark.skipif(
    not SEG_EVAL.is_file(), reason="no copy of seg_eval.py at /work/refs (or $SEGAGREE_REFS)"
)
needs_ud_eval = pytest.mark.skipif(
    not UD_EVAL.is_file(), reason="no copy of conll18_ud_eval.py at /work/refs (or $SEGAGREE_REFS)"
)

WORDS = ["the", "cat", "sat", "on", "a", "mat", "and", "then", "it", "slept", ".", ",", "!"]
# multiword tokens: the token's form and its syntactic words
MWT = [("del", ["de", "el"]), ("can't", ["ca", "n't"]), ("zum", ["zu", "dem"])]


def _script(script: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(script), *map(str, args)], capture_output=True, text=True)


def _perturb(rng: random.Random, starts: set[int], n: int, fixed: set[int], allowed: set[int]) -> set[int]:
    """Unit starts moved by a token, dropped and added (``fixed`` kept; only ``allowed`` places)."""
    out = set(fixed)
    for s in sorted(starts - fixed):
        r = rng.random()
        if r < 0.2:
            continue  # dropped
        if r < 0.4:
            s += rng.choice([-1, 1])  # moved
        if s in allowed:
            out.add(s)
    out |= {k for k in allowed if rng.random() < 0.05}  # added
    return out


# --- DISRPT seg_eval.py, EDU mode -------------------------------------------------------------


def _tok_file(path: Path, docs: list[list[tuple[str, list[str]]]], begins: set[int]) -> None:
    """A .tok file: documents of tokens (form, words); ``begins``: word numbers over the file
    (as seg_eval.py counts them) that begin a unit."""
    lines, word = [], 0
    for k, tokens in enumerate(docs):
        if k:
            lines.append("")
        lines.append(f"# newdoc_id = doc{k}")
        i = 0
        for form, words in tokens:
            if len(words) > 1:
                lines.append(f"{i + 1}-{i + len(words)}\t{form}\t_\t_\t_\t_\t_\t_\t_\t_")
            for w in words:
                i += 1
                misc = ["BeginSeg=Yes"] if word in begins else []
                misc += ["SpaceAfter=No"] if w in (".", ",") else []
                lines.append(f"{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t{'|'.join(misc) or '_'}")
                word += 1
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _documents(rng: random.Random) -> list[list[tuple[str, list[str]]]]:
    docs = []
    for _ in range(rng.randint(1, 4)):
        tokens = []
        for _ in range(rng.randint(3, 50)):
            tokens.append(rng.choice(MWT) if rng.random() < 0.08 else (w := rng.choice(WORDS), [w]))
        docs.append(tokens)
    return docs


def _printed(stdout: str) -> dict[str, str]:
    return {k: v for k, _, v in (line[2:].rpartition(": ") for line in stdout.splitlines() if line.startswith("o "))}


def _same(printed: str, value: float) -> bool:
    """seg_eval.py prints str(float), or the int 0 where a denominator is 0."""
    return printed == repr(float(value)) or (printed == "0" and value == 0)


def _edu_pair(tmp_path: Path, seed: int) -> tuple[Path, Path]:
    rng = random.Random(seed)
    docs = _documents(rng)
    sizes = [sum(len(w) for _, w in d) for d in docs]
    firsts = {sum(sizes[:k]) for k in range(len(docs))}  # every gold file marks a document's first word
    n = sum(sizes)
    gold = firsts | {k for k in range(n) if rng.random() < 0.2}
    pred = _perturb(rng, gold, n, firsts, set(range(n)))
    g, p = tmp_path / "gold.tok", tmp_path / "pred.tok"
    _tok_file(g, docs, gold)
    _tok_file(p, docs, pred)
    return g, p


@needs_seg_eval
@pytest.mark.parametrize("seed", range(30))
def test_disrpt_seg_prints_seg_evals_numbers_in_edu_mode(tmp_path: Path, seed: int) -> None:
    gold, pred = _edu_pair(tmp_path, seed)
    proc = _script(SEG_EVAL, gold, pred)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    printed = _printed(proc.stdout)
    assert proc.stdout.splitlines()[0] == f"File: {gold.name}"
    got = segagree.compare(gold, pred, metrics="disrpt_seg")
    pooled = got["metrics"]["disrpt_seg"]["pooled"]
    assert got["layer"] == "edu"
    assert printed["Total tokens"] == str(got["n_tokens"])
    assert printed["Gold EDUs"] == str(pooled["gold"])
    assert printed["Predicted EDUs"] == str(pooled["system"])
    for key, name in (("Precision", "precision"), ("Recall", "recall"), ("F-Score", "f1")):
        assert _same(printed[key], pooled[name]), (key, printed[key], pooled[name])


@needs_seg_eval
def test_files_of_different_lengths_are_fatal_for_seg_eval_and_an_error_for_segagree(tmp_path: Path) -> None:
    gold, pred = _edu_pair(tmp_path, 1)
    lines = pred.read_text(encoding="utf-8").splitlines()
    last_word = max(i for i, line in enumerate(lines) if line[:1].isdigit() and "-" not in line.split("\t")[0])
    pred.write_text("\n".join(lines[:last_word] + lines[last_word + 1 :]) + "\n", encoding="utf-8")
    proc = _script(SEG_EVAL, gold, pred)
    # the script: FATAL on stderr, nothing scored, and exit code 0
    assert proc.returncode == 0 and proc.stdout == ""
    assert "FATAL: different number of tokens detected in gold and pred" in proc.stderr
    mine = run_cli(["compare", gold, pred, "--metric", "disrpt_seg"])
    assert mine.returncode == 1 and mine.stdout == ""
    assert "Traceback" not in mine.stderr and len(mine.stderr.strip().splitlines()) == 1
    assert "the transcripts differ" in mine.stderr and "--align" in mine.stderr


@needs_seg_eval
def test_differing_words_are_a_warning_for_seg_eval_and_an_error_for_segagree(tmp_path: Path) -> None:
    gold, pred = _edu_pair(tmp_path, 2)
    lines = pred.read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith("2\t"))
    cols = lines[k].split("\t")
    lines[k] = "\t".join([cols[0], cols[1] + "x", *cols[2:]])
    pred.write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = _script(SEG_EVAL, gold, pred)
    assert proc.returncode == 0 and "WARN: token strings do not match" in proc.stderr  # and it scores anyway
    mine = run_cli(["compare", gold, pred, "--metric", "disrpt_seg"])
    assert mine.returncode == 1 and "the transcripts differ" in mine.stderr and "Traceback" not in mine.stderr


@needs_seg_eval
def test_an_unmarked_first_word_counts_as_seg_eval_counts_it_or_always_with_the_option(tmp_path: Path) -> None:
    gold, pred = _edu_pair(tmp_path, 3)
    lines = pred.read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith("1\t"))
    cols = lines[k].split("\t")
    cols[9] = "_"  # the prediction leaves the file's first word unmarked
    lines[k] = "\t".join(cols)
    pred.write_text("\n".join(lines) + "\n", encoding="utf-8")
    printed = _printed(_script(SEG_EVAL, gold, pred).stdout)
    pooled = segagree.compare(gold, pred, metrics="disrpt_seg")["metrics"]["disrpt_seg"]["pooled"]
    assert printed["Predicted EDUs"] == str(pooled["system"]) and printed["Gold EDUs"] == str(pooled["gold"])
    assert _same(printed["F-Score"], pooled["f1"])
    # first_token = always: a unit begins at a document's first word, marked or not
    options = {"first_token": "always"}
    always = segagree.compare(gold, pred, metrics="disrpt_seg", metric_options=options)
    assert always["metrics"]["disrpt_seg"]["pooled"]["system"] == pooled["system"] + 1


# --- CoNLL 2018 conll18_ud_eval.py, metric Sentences ---------------------------------------------


def _conllu(path: Path, docs: list[list[tuple[str, list[str]]]], starts: set[int]) -> None:
    """A CoNLL-U file: ``starts`` are the token numbers (over the file) that begin a sentence;
    every sentence a valid tree (its first word the root, the others its dependents)."""
    lines, token = [], 0
    for k, tokens in enumerate(docs):
        lines.append(f"# newdoc id = doc{k}")
        i = 0
        for form, words in tokens:
            if token in starts and i:
                lines.append("")
                i = 0
            if len(words) > 1:
                lines.append(f"{i + 1}-{i + len(words)}\t{form}\t_\t_\t_\t_\t_\t_\t_\t_")
            for w in words:
                i += 1
                head, rel = (0, "root") if i == 1 else (1, "dep")
                misc = "SpaceAfter=No" if w in (".", ",") or (len(words) > 1 and w == words[-1]) else "_"
                lines.append(f"{i}\t{w}\t{w}\tX\t_\t_\t{head}\t{rel}\t_\t{misc}")
            token += 1
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _ud_pair(tmp_path: Path, seed: int) -> tuple[Path, Path]:
    rng = random.Random(seed)
    docs = _documents(rng)
    sizes = [len(d) for d in docs]
    firsts = {sum(sizes[:k]) for k in range(len(docs))}
    n = sum(sizes)
    gold = firsts | {k for k in range(n) if rng.random() < 0.15}
    pred = _perturb(rng, gold, n, firsts, set(range(n)))
    g, p = tmp_path / "gold.conllu", tmp_path / "pred.conllu"
    _conllu(g, docs, gold)
    _conllu(p, docs, pred)
    return g, p


def _sentences_row(stdout: str) -> list[str]:
    row = next(line for line in stdout.splitlines() if line.startswith("Sentences"))
    return [cell.strip() for cell in row.split("|")[1:]]


@needs_ud_eval
@pytest.mark.parametrize("seed", range(30))
def test_ud_sentences_prints_conll18_ud_evals_sentences_row(tmp_path: Path, seed: int) -> None:
    gold, pred = _ud_pair(tmp_path, seed)
    verbose, counts = _script(UD_EVAL, "-v", gold, pred), _script(UD_EVAL, "-c", gold, pred)
    assert verbose.returncode == 0 and counts.returncode == 0, verbose.stderr + counts.stderr
    got = segagree.compare(gold, pred, metrics="ud_sentences")
    assert got["layer"] == "sentence"
    pooled = got["metrics"]["ud_sentences"]["pooled"]
    # -c: correct, gold, predicted (and an empty aligned column)
    assert _sentences_row(counts.stdout) == [str(pooled["correct"]), str(pooled["gold"]), str(pooled["system"]), ""]
    # -v: precision, recall, F1 in percent to two decimals
    want = [f"{100 * pooled[k]:.2f}" for k in ("precision", "recall", "f1")]
    assert _sentences_row(verbose.stdout) == [*want, ""]
    # the shared token stream the comparison assumes: the script aligns every token and word
    for line in verbose.stdout.splitlines():
        if line.startswith(("Tokens", "Words")):
            assert [c.strip() for c in line.split("|")[1:4]] == ["100.00"] * 3


@needs_ud_eval
def test_differing_texts_are_fatal_for_conll18_ud_eval_and_an_error_for_segagree(tmp_path: Path) -> None:
    gold, pred = _ud_pair(tmp_path, 4)
    lines = pred.read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith("2\t"))
    cols = lines[k].split("\t")
    lines[k] = "\t".join([cols[0], cols[1] + "x", *cols[2:]])
    pred.write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = _script(UD_EVAL, "-v", gold, pred)
    # the script stops with an uncaught UDError (a traceback, exit code 1)
    assert proc.returncode == 1 and proc.stdout == ""
    assert "The concatenation of tokens in gold file and in system file differ" in proc.stderr
    mine = run_cli(["compare", gold, pred, "--metric", "ud_sentences"])
    assert mine.returncode == 1 and mine.stdout == ""
    assert "Traceback" not in mine.stderr and len(mine.stderr.strip().splitlines()) == 1
    assert "the concatenation of the words differs" in mine.stderr


@needs_seg_eval
def test_a_prediction_without_any_unit_start_is_scored_not_refused(tmp_path: Path) -> None:
    gold, pred = _edu_pair(tmp_path, 5)
    pred.write_text(pred.read_text(encoding="utf-8").replace("BeginSeg=Yes", "_"), encoding="utf-8")
    printed = _printed(_script(SEG_EVAL, gold, pred).stdout)
    pooled = segagree.compare(gold, pred, metrics="disrpt_seg")["metrics"]["disrpt_seg"]["pooled"]
    documents = pred.read_text(encoding="utf-8").count("# newdoc_id")
    assert printed["Predicted EDUs"] == str(pooled["system"]) == "0" and printed["Gold EDUs"] == str(pooled["gold"])
    always = segagree.compare(gold, pred, metrics="disrpt_seg", metric_options={"first_token": "always"})
    # first_token = always: each document's first word begins a unit, marked or not
    assert always["metrics"]["disrpt_seg"]["pooled"]["system"] == documents


def _without_documents(path: Path, out: Path) -> Path:
    """A system file as a segmenter writes it: the same words, no newdoc lines."""
    kept = [ln for ln in path.read_text(encoding="utf-8").splitlines() if not ln.startswith("# newdoc")]
    out.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return out


@needs_seg_eval
@pytest.mark.parametrize("seed", range(6))
def test_a_prediction_without_documents_is_one_stream_as_seg_eval_scores_it(tmp_path: Path, seed: int) -> None:
    gold, pred = _edu_pair(tmp_path, 40 + seed)
    bare = _without_documents(pred, tmp_path / "bare.tok")
    printed = _printed(_script(SEG_EVAL, gold, bare).stdout)
    got = segagree.compare(gold, bare, metrics="disrpt_seg")
    pooled = got["metrics"]["disrpt_seg"]["pooled"]
    assert (printed["Gold EDUs"], printed["Predicted EDUs"]) == (str(pooled["gold"]), str(pooled["system"]))
    for key, name in (("Precision", "precision"), ("Recall", "recall"), ("F-Score", "f1")):
        assert _same(printed[key], pooled[name])
    assert got["notes"] and "one stream" in got["notes"][0]
    # documents on both sides, asked to be one stream: the script's numbers too
    both = segagree.compare(gold, pred, metrics="disrpt_seg", one_stream=True)["metrics"]["disrpt_seg"]["pooled"]
    printed = _printed(_script(SEG_EVAL, gold, pred).stdout)
    assert (printed["Gold EDUs"], printed["Predicted EDUs"]) == (str(both["gold"]), str(both["system"]))


def _glued(path: Path, out: Path) -> Path:
    """A tokeniser's output: punctuation glued to the word before it (``mat.``), multiword tokens
    written as one word, no newdoc lines, sentences numbered again; HEADs kept valid."""
    lines = path.read_text(encoding="utf-8").splitlines()
    sentences: list[list[str]] = [[]]
    skip = 0
    for line in lines:
        if not line:
            sentences.append([])
            continue
        if line.startswith("#"):
            continue
        cols = line.split("\t")
        if skip:
            skip -= 1
            continue
        if "-" in cols[0]:
            a, b = map(int, cols[0].split("-"))
            skip = b - a + 1
            sentences[-1].append(cols[1])
            continue
        if cols[1] in (".", ",", "!") and sentences[-1]:
            sentences[-1][-1] += cols[1]
        else:
            sentences[-1].append(cols[1])
    rows = []
    for words in (s for s in sentences if s):
        for i, w in enumerate(words, 1):
            head, rel = (0, "root") if i == 1 else (1, "dep")
            rows.append(f"{i}\t{w}\t{w}\tX\t_\t_\t{head}\t{rel}\t_\t_")
        rows.append("")
    out.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return out


@needs_ud_eval
@pytest.mark.parametrize("seed", range(8))
def test_ud_sentences_of_a_retokenised_prediction_are_conll18_ud_evals(tmp_path: Path, seed: int) -> None:
    gold, pred = _ud_pair(tmp_path, 60 + seed)
    system = _glued(pred, tmp_path / "system.conllu")
    counts = _script(UD_EVAL, "-c", gold, system)
    assert counts.returncode == 0, counts.stderr
    got = segagree.compare(gold, system, metrics="ud_sentences")
    pooled = got["metrics"]["ud_sentences"]["pooled"]
    assert _sentences_row(counts.stdout)[:3] == [str(pooled["correct"]), str(pooled["gold"]), str(pooled["system"])]
    # and on a DISRPT-style gold that also marks units: still the sentences
    marked = tmp_path / "marked.conllu"
    text = gold.read_text(encoding="utf-8").replace("\t_\n", "\tBeginSeg=Yes\n", 3)
    marked.write_text(text, encoding="utf-8")
    assert segagree.read(marked).layer().name == "edu"
    again = segagree.compare(marked, system, metrics="ud_sentences")["metrics"]["ud_sentences"]["pooled"]
    assert again == pooled
