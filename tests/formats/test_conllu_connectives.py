"""PDTB-style connective spans (DISRPT's ``Seg=B-Conn`` / ``Seg=I-Conn``) as the ``connective``
layer: read into units, written back byte for byte, and scored by ``disrpt_seg`` as DISRPT's
``seg_eval.py`` counts them in its connective mode (the script itself is run when a copy is at
/work/refs/seg_eval.py: it is third-party and not part of the repository)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import segagree

SEG_EVAL = Path(os.environ.get("SEGAGREE_REFS", "/work/refs")) / "seg_eval.py"
needs_seg_eval = pytest.mark.skipif(
    not SEG_EVAL.is_file(), reason="no copy of seg_eval.py at /work/refs (or $SEGAGREE_REFS)"
)

ROW = "{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t{misc}"

# Spans written by hand: a two-word connective with SpaceAfter=No after its label (as DISRPT's
# .conllu files have it), two adjacent one-word connectives, a document starting and one ending
# with a connective, and a three-word connective.
FIXTURE = """# newdoc_id = wsj_0001
1\tBut\t_\t_\t_\t_\t_\t_\t_\tSeg=B-Conn
2\tthe\t_\t_\t_\t_\t_\t_\t_\t_
3\tfor\t_\t_\t_\t_\t_\t_\t_\tSeg=B-Conn
4\texample\t_\t_\t_\t_\t_\t_\t_\tSeg=I-Conn|SpaceAfter=No
5\t,\t_\t_\t_\t_\t_\t_\t_\t_
6\tand\t_\t_\t_\t_\t_\t_\t_\tSeg=B-Conn
7\tthen\t_\t_\t_\t_\t_\t_\t_\tSeg=B-Conn
8\tit\t_\t_\t_\t_\t_\t_\t_\t_
9\tso\t_\t_\t_\t_\t_\t_\t_\tSeg=B-Conn

# newdoc_id = wsj_0002
1\tas\t_\t_\t_\t_\t_\t_\t_\tSeg=B-Conn
2\ta\t_\t_\t_\t_\t_\t_\t_\tSeg=I-Conn
3\tresult\t_\t_\t_\t_\t_\t_\t_\tSeg=I-Conn
4\twe\t_\t_\t_\t_\t_\t_\t_\t_
5\twent\t_\t_\t_\t_\t_\t_\t_\t_
"""


def test_connective_spans_read_as_units_and_write_back_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "wsj.tok"
    path.write_text(FIXTURE, encoding="utf-8")
    doc = segagree.read(path)
    assert doc.speakers == ["wsj_0001", "wsj_0002"] and "connective" in doc.layers
    layer = doc.layers["connective"]
    assert [t.symbol for t in layer.scheme.types] == ["<conn>", "<o>"]
    conn, out = 1, 2
    # by hand: But | the | for example | , | and | then | it | so  /  as a result | we went
    assert layer.boundaries.tolist() == [conn, out, 0, conn, out, conn, conn, out, conn, 0, 0, conn, 0, out]
    report = segagree.convert(path, tmp_path / "back.tok")
    assert report.lossless, report
    assert (tmp_path / "back.tok").read_bytes() == path.read_bytes()


def test_an_i_conn_without_a_connective_before_it_is_reported_and_read_as_outside(tmp_path: Path) -> None:
    text = FIXTURE.replace("8\tit\t_\t_\t_\t_\t_\t_\t_\t_", "8\tit\t_\t_\t_\t_\t_\t_\t_\tSeg=I-Conn")
    text = text.replace("5\t,\t_\t_\t_\t_\t_\t_\t_\t_", "5\t,\t_\t_\t_\t_\t_\t_\t_\tSeg=I-Conn")
    path = tmp_path / "orphan.tok"
    path.write_text(text, encoding="utf-8")
    doc = segagree.read(path)
    # ',' continues 'for example' (an I-Conn right after one); 'it' follows 'then', a connective too
    assert doc.layers["connective"].boundaries.tolist()[:9] == [1, 2, 0, 0, 1, 1, 0, 1, 1]
    plain = tmp_path / "plain.tok"
    plain.write_text(FIXTURE, encoding="utf-8")
    lonely = text.replace("1\tas\t_\t_\t_\t_\t_\t_\t_\tSeg=B-Conn", "1\tas\t_\t_\t_\t_\t_\t_\t_\t_")
    path.write_text(lonely, encoding="utf-8")
    doc = segagree.read(path)
    assert [(note.kind, note.count) for note in doc.losses.notes] == [("connective-orphans", 2)]
    assert doc.layers["connective"].boundaries.tolist()[9:] == [0, 0, 0, 0, 2]
    # written back as they were: the orphans are still orphans
    assert segagree.convert(path, tmp_path / "back.tok").lossless
    assert (tmp_path / "back.tok").read_text(encoding="utf-8") == lonely


def _labels(spans: list[tuple[int, int]], n: int) -> list[str]:
    labels = ["_"] * n
    for s, e in spans:
        labels[s] = "Seg=B-Conn"
        for k in range(s + 1, e + 1):
            labels[k] = "Seg=I-Conn"
    return labels


def _random_spans(rng: random.Random, n: int) -> list[tuple[int, int]]:
    spans, i = [], 0
    while i < n:
        if rng.random() < 0.15:
            length = min(rng.choice([1, 1, 1, 2, 2, 3]), n - i)
            spans.append((i, i + length - 1))
            i += length
        else:
            i += 1
    return spans


def _perturb(rng: random.Random, spans: list[tuple[int, int]], n: int) -> list[tuple[int, int]]:
    """Spans dropped, added, moved by a word, lengthened or shortened; never overlapping."""
    out: list[tuple[int, int]] = []
    for s, e in spans:
        r = rng.random()
        if r < 0.15:
            continue  # dropped
        if r < 0.3:
            s, e = s + rng.choice([-1, 1]), e + rng.choice([-1, 0, 1])  # moved
        elif r < 0.4:
            e = e + rng.choice([-1, 1])  # lengthened or shortened
        s, e = max(0, s), min(n - 1, e)
        if s <= e:
            out.append((s, e))
    out += [(k, k) for k in range(n) if rng.random() < 0.03]  # added
    taken: set[int] = set()
    kept = []
    for s, e in sorted(out):  # a span overlapping an earlier one is left out
        if not taken & set(range(s, e + 1)):
            kept.append((s, e))
            taken |= set(range(s, e + 1))
    return kept


def _write(path: Path, docs: dict[str, list[str]], words: dict[str, list[str]]) -> None:
    lines = []
    for d, labels in docs.items():
        lines.append(f"# newdoc_id = {d}")
        lines += [ROW.format(i=i, w=w, misc=m) for i, (w, m) in enumerate(zip(words[d], labels, strict=True), 1)]
        lines.append("")
    path.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")


def seg_eval(gold: Path, pred: Path) -> dict[str, str]:
    """seg_eval.py's printed lines, by label ("Precision" -> the printed number)."""
    proc = subprocess.run([sys.executable, str(SEG_EVAL), str(gold), str(pred)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    found = {}
    for line in proc.stdout.splitlines():
        if line.startswith("o "):
            key, _, value = line[2:].rpartition(": ")
            found[key] = value
    return found


def same_number(printed: str, value: float) -> bool:
    """The script prints str(float) (or the int 0 where a denominator is 0)."""
    return printed == repr(float(value)) or (printed == "0" and value == 0)


def _pair(tmp_path: Path, seed: int) -> tuple[Path, Path]:
    rng = random.Random(seed)
    words, gold, pred = {}, {}, {}
    for k in range(rng.randint(1, 4)):
        d = f"doc{k}"
        n = rng.randint(5, 60)
        words[d] = [rng.choice(["but", "so", "the", "as", "a", "result", "while", "it"]) for _ in range(n)]
        spans = _random_spans(rng, n) or [(0, 0)]
        guess = _perturb(rng, spans, n) or [(n // 2, n // 2)]
        gold[d], pred[d] = _labels(spans, n), _labels(guess, n)
    g, p = tmp_path / f"gold{seed}.tok", tmp_path / f"pred{seed}.tok"
    _write(g, gold, words)
    _write(p, pred, words)
    return g, p


@needs_seg_eval
@pytest.mark.parametrize("seed", range(25))
def test_disrpt_seg_on_connectives_prints_seg_evals_numbers(tmp_path: Path, seed: int) -> None:
    gold, pred = _pair(tmp_path, seed)
    if "Seg=B-Conn" not in pred.read_text() or "Seg=B-Conn" not in gold.read_text():
        pytest.skip("a file without connectives has no connective layer")
    printed = seg_eval(gold, pred)
    got = segagree.compare(gold, pred, metrics="disrpt_seg")
    assert got["layer"] == "connective"
    pooled = got["metrics"]["disrpt_seg"]["pooled"]
    assert printed["Gold conn spans"] == str(pooled["gold"])
    assert printed["Predicted conn spans"] == str(pooled["system"])
    assert printed["Total tokens"] == str(got["n_tokens"])
    for key, name in (("Precision", "precision"), ("Recall", "recall"), ("F-Score", "f1")):
        assert same_number(printed[key], pooled[name]), (key, printed[key], pooled[name])


@needs_seg_eval
def test_seg_evals_own_reading_of_spans_is_followed_where_it_is_odd(tmp_path: Path) -> None:
    """seg_eval.py drops a one-word connective on a file's last word, and after an I-Conn with no
    connective before it, it ends the next one-word connective at that I-Conn (a span that matches
    nothing): its counts are followed."""
    words = {"d": ["but", "it", "rained", "so", "then", "we", "left", "and"]}
    gold = tmp_path / "gold.tok"
    _write(gold, {"d": _labels([(0, 0), (3, 3), (4, 4), (7, 7)], 8)}, words)
    pred = tmp_path / "pred.tok"
    labels = _labels([(0, 0), (4, 4), (7, 7)], 8)
    labels[2] = "Seg=I-Conn"  # an orphan before 'so'... which the prediction left out
    _write(pred, {"d": labels}, words)
    printed = seg_eval(gold, pred)
    pooled = segagree.compare(gold, pred, metrics="disrpt_seg")["metrics"]["disrpt_seg"]["pooled"]
    # the script: gold spans (0,0),(3,3),(4,4) (the last word's is dropped); predicted (0,0) and
    # (4,2) (the stale end of the orphan), no (7,7): TP 1
    assert (printed["Gold conn spans"], printed["Predicted conn spans"]) == ("3", "2")
    assert (pooled["gold"], pooled["system"], pooled["correct"]) == (3, 2, 1)


@needs_seg_eval
def test_a_connective_running_into_the_next_document_is_the_scripts_span(tmp_path: Path) -> None:
    words = {"d1": ["it", "rained", "and"], "d2": ["then", "we", "left"]}
    gold = tmp_path / "gold.tok"
    _write(gold, {"d1": ["_", "_", "Seg=B-Conn"], "d2": ["Seg=I-Conn", "_", "_"]}, words)
    pred = tmp_path / "pred.tok"
    _write(pred, {"d1": ["_", "_", "Seg=B-Conn"], "d2": ["_", "_", "_"]}, words)
    printed = seg_eval(gold, pred)
    # the script: the gold span (2, 3) crosses the documents, the predicted (2, 2) misses it
    assert (printed["Gold conn spans"], printed["Predicted conn spans"], printed["Precision"]) == ("1", "1", "0.0")
    doc = segagree.read(gold)
    assert [(note.kind, note.count) for note in doc.losses.notes] == [("connective-orphans", 1)]
    # documents paired by id: the spans are built over the whole file, as the script builds them, and
    # counted in the document where they begin (d1); one stream gives the same
    for read_first in (False, True):
        a, b = (segagree.read(gold), segagree.read(pred)) if read_first else (gold, pred)
        result = segagree.compare(a, b, metrics="disrpt_seg")["metrics"]["disrpt_seg"]
        assert (result["pooled"]["correct"], result["pooled"]["gold"], result["pooled"]["system"]) == (0, 1, 1)
        assert result["per_speaker"] == {"d1": 0.0, "d2": 0.0}
    one = segagree.compare(gold, pred, metrics="disrpt_seg", one_stream=True)["metrics"]["disrpt_seg"]["pooled"]
    assert (one["correct"], one["gold"], one["system"]) == (0, 1, 1)


SEG_EVAL_2019 = SEG_EVAL.with_name("seg_eval_2019.py")


@pytest.mark.skipif(not SEG_EVAL_2019.is_file(), reason="no copy of the 2019 seg_eval.py (seg_eval_2019.py)")
@pytest.mark.parametrize("seed", range(12))
def test_version_2019_counts_spans_as_the_2019_script(tmp_path: Path, seed: int) -> None:
    gold, pred = _pair(tmp_path, 100 + seed)
    if "Seg=B-Conn" not in pred.read_text() or "Seg=B-Conn" not in gold.read_text():
        pytest.skip("a file without connectives has no connective layer")
    proc = subprocess.run([sys.executable, str(SEG_EVAL_2019), str(gold), str(pred)], capture_output=True, text=True)
    printed = {k: v for k, _, v in (ln[2:].rpartition(": ") for ln in proc.stdout.splitlines() if ln.startswith("o "))}
    pooled = segagree.compare(gold, pred, metrics="disrpt_seg", metric_options={"version": "2019"})
    got = pooled["metrics"]["disrpt_seg"]["pooled"]
    assert (printed["Gold conn spans"], printed["Predicted conn spans"]) == (str(got["gold"]), str(got["system"]))
    for key, name in (("Precision", "precision"), ("Recall", "recall"), ("F-Score", "f1")):
        assert same_number(printed[key], got[name]), (key, printed[key], got[name])


@needs_seg_eval
def test_a_prediction_without_any_connective_scores_zero_as_seg_eval_says(tmp_path: Path) -> None:
    gold, pred = _pair(tmp_path, 0)
    pred.write_text(pred.read_text(encoding="utf-8").replace("Seg=B-Conn", "_").replace("Seg=I-Conn", "_"))
    assert "connective" not in segagree.read(pred).layers  # the file alone says nothing of connectives
    printed = seg_eval(gold, pred)
    pooled = segagree.compare(gold, pred, metrics="disrpt_seg")["metrics"]["disrpt_seg"]["pooled"]
    assert printed["Predicted conn spans"] == "0" == str(pooled["system"])
    assert printed["Gold conn spans"] == str(pooled["gold"]) != "0"
    for key, name in (("Precision", "precision"), ("Recall", "recall"), ("F-Score", "f1")):
        assert same_number(printed[key], pooled[name]), (key, printed[key], pooled[name])
