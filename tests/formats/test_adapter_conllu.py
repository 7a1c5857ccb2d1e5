"""CoNLL-U and DISRPT files: read, written back, scored with the official scorers' counting
(read from the files here independently of the reader), and damaged files refused with the line."""

from __future__ import annotations

from pathlib import Path

import pytest

import segagree
from segagree.errors import InputError

ROW = "{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t{misc}"


def _tok(docs: dict[str, list[tuple[str, bool]]]) -> str:
    """A DISRPT .tok file: documents of (word, begins a unit)."""
    lines = []
    for name, words in docs.items():
        lines.append(f"# newdoc id = {name}")
        lines += [ROW.format(i=i, w=w, misc="BeginSeg=Yes" if b else "_") for i, (w, b) in enumerate(words, 1)]
    return "\n".join(lines) + "\n"


GOLD = {
    "a": [("one", True), ("two", False), ("three", True), ("four", False), ("five", True), ("six", False)],
    "b": [("seven", True), ("eight", False), ("nine", True)],
}
PRED = {
    "a": [("one", True), ("two", True), ("three", False), ("four", False), ("five", True), ("six", False)],
    "b": [("seven", True), ("eight", False), ("nine", True)],
}


def _labels(path: Path) -> list[bool]:
    return [("BeginSeg=Yes" in ln.split("\t")[9]) for ln in path.read_text().splitlines() if "\t" in ln]


def test_a_disrpt_file_reads_as_units_per_document_and_writes_back_byte_for_byte(tmp_path: Path) -> None:
    gold = tmp_path / "gold.tok"
    gold.write_text(_tok(GOLD), encoding="utf-8")
    doc = segagree.read(gold)
    assert doc.speakers == ["a", "b"] and doc.n_tokens == 9 and "edu" in doc.layers
    assert doc.layers["edu"].boundaries.tolist() == [0, 1, 0, 1, 0, 1, 0, 1, 1]
    report = segagree.convert(gold, tmp_path / "back.tok")
    assert report.lossless
    assert (tmp_path / "back.tok").read_text(encoding="utf-8") == gold.read_text(encoding="utf-8")


def test_disrpt_seg_is_seg_evals_micro_f1(tmp_path: Path) -> None:
    gold, pred = tmp_path / "gold.tok", tmp_path / "pred.tok"
    gold.write_text(_tok(GOLD), encoding="utf-8")
    pred.write_text(_tok(PRED), encoding="utf-8")
    g, p = _labels(gold), _labels(pred)  # seg_eval.py's loop over the files' labels
    tp = sum(a and b for a, b in zip(g, p, strict=True))
    fp = sum(b and not a for a, b in zip(g, p, strict=True))
    fn = sum(a and not b for a, b in zip(g, p, strict=True))
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    result = segagree.compare(gold, pred, metrics="disrpt_seg")
    got = result["metrics"]["disrpt_seg"]["pooled"]
    assert got["precision"] == pytest.approx(precision) and got["recall"] == pytest.approx(recall)
    assert (
        got["f1"]
        == result["metrics"]["disrpt_seg"]["value"]
        == pytest.approx(2 * precision * recall / (precision + recall))
    )


UD = """# newdoc id = d1
# sent_id = 1
1\tVamos\tir\tVERB\t_\t_\t0\troot\t_\t_
2-3\tdel\t_\t_\t_\t_\t_\t_\t_\t_
2\tde\tde\tADP\t_\t_\t4\tcase\t_\t_
3\tel\tel\tDET\t_\t_\t4\tdet\t_\t_
4\tparque\tparque\tNOUN\t_\t_\t1\tobl\t_\tSpaceAfter=No
4.1\tx\t_\t_\t_\t_\t_\t_\t_\t_
5\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_

# sent_id = 2
1\tLlueve\tllover\tVERB\t_\t_\t0\troot\t_\t_
2\tmucho\tmucho\tADV\t_\t_\t1\tadvmod\t_\t_

# sent_id = 3
1\thoy\thoy\tADV\t_\t_\t0\troot\t_\t_

"""


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    """conll18_ud_eval.py's sentences: spans of the words' characters between blank lines."""
    spans, index, start = [], 0, None
    for line in text.splitlines():
        if not line.strip():
            if start is not None:
                spans.append((start, index))
                start = None
            continue
        cols = line.split("\t")
        if line.startswith("#") or "-" in cols[0] or "." in cols[0]:
            continue
        start = index if start is None else start
        index += len(cols[1])
    return spans


def test_ud_sentences_is_conll18s_sentence_f1(tmp_path: Path) -> None:
    gold = tmp_path / "gold.conllu"
    gold.write_text(UD, encoding="utf-8")
    merged = UD.replace(
        "2\tmucho\tmucho\tADV\t_\t_\t1\tadvmod\t_\t_\n\n# sent_id = 3\n",
        "2\tmucho\tmucho\tADV\t_\t_\t1\tadvmod\t_\t_\n",
    )
    pred = tmp_path / "pred.conllu"
    pred.write_text(merged, encoding="utf-8")
    g, s = _sentence_spans(UD), _sentence_spans(merged)
    correct = len(set(g) & set(s))
    got = segagree.compare(gold, pred, metrics="ud_sentences")["metrics"]["ud_sentences"]["pooled"]
    assert (got["correct"], got["gold"], got["system"]) == (correct, len(g), len(s)) == (1, 3, 2)
    assert got["f1"] == pytest.approx(2 * correct / (len(g) + len(s)))


def test_ud_reading_keeps_what_the_model_does_not_score_and_writes_it_back(tmp_path: Path) -> None:
    path = tmp_path / "ud.conllu"
    path.write_text(UD, encoding="utf-8")
    doc = segagree.read(path)
    assert doc.column("text").tolist() == ["Vamos", "de", "el", "parque", ".", "Llueve", "mucho", "hoy"]
    assert doc.layers["sentence"].boundaries.tolist() == [0, 0, 0, 0, 1, 0, 1, 1]
    assert not list(doc.losses)
    kinds = {note.kind: note.count for note in doc.losses.notes}
    assert kinds["multiword-tokens"] == 1 and kinds["empty-nodes"] == 1 and kinds["comments"] == 3
    report = segagree.convert(path, tmp_path / "back.conllu")
    assert report.lossless
    assert (tmp_path / "back.conllu").read_text(encoding="utf-8") == UD
    # through the native JSON too: the multiword token, the empty node and the comments come back
    segagree.convert(path, tmp_path / "ud.json")
    segagree.convert(tmp_path / "ud.json", tmp_path / "again.conllu")
    assert (tmp_path / "again.conllu").read_text(encoding="utf-8") == UD


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1\tone\n", r"line 1: expected 10 tab-separated columns, found 2"),
        ("x\tone\t_\t_\t_\t_\t_\t_\t_\t_\n", r"line 1: word ID 'x' is not a number"),
        ("# only a comment\n", "no words"),
    ],
)
def test_damaged_files_are_refused_with_the_place(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.conllu"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        segagree.read(path)
