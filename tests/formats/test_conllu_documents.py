"""CoNLL-U documents and hostile word IDs: files without documents scored as one stream (the
counts checked in plain Python, as seg_eval.py loops over a file), document ids that cannot be
file names, empty ids, ids with brackets, documents of a range line only, IDs that are not
numbers, ranges or empty nodes, and kept values with line breaks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import run_cli

import segagree
from segagree.corpus.documents import split_documents, text_part
from segagree.errors import InputError
from segagree.outputs.panel import _text_and_speaker

ROW = "{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t{misc}"


def _file(docs: dict[str | None, list[tuple[str, bool]]], key: str = "newdoc id") -> str:
    lines = []
    for name, words in docs.items():
        if name is not None:
            lines.append(f"# {key} = {name}")
        lines += [ROW.format(i=i, w=w, misc="BeginSeg=Yes" if b else "_") for i, (w, b) in enumerate(words, 1)]
    return "\n".join(lines) + "\n"


WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def _labels(text: str) -> list[bool]:
    """seg_eval.py's reading: every line with a tab is a token; its MISC says whether it begins a unit."""
    return ["BeginSeg=Yes" in line.split("\t")[-1] for line in text.splitlines() if "\t" in line]


def test_a_prediction_without_documents_is_one_stream_with_a_note(tmp_path: Path) -> None:
    gold_docs = {
        "a": [(w, k in (0, 2)) for k, w in enumerate(WORDS[:5])],
        "b": [(w, k in (0, 3)) for k, w in enumerate(WORDS[5:])],
    }
    pred_words = [(w, k in (0, 2, 4, 6)) for k, w in enumerate(WORDS)]  # 'six' (b's first word) unmarked
    gold, pred = tmp_path / "gold.tok", tmp_path / "pred.tok"
    gold.write_text(_file(gold_docs), encoding="utf-8")
    pred.write_text(_file({None: pred_words}), encoding="utf-8")
    g, p = _labels(gold.read_text()), _labels(pred.read_text())
    tp = sum(x and y for x, y in zip(g, p, strict=True))
    result = segagree.compare(gold, pred, metrics="disrpt_seg")
    pooled = result["metrics"]["disrpt_seg"]["pooled"]
    assert (pooled["correct"], pooled["gold"], pooled["system"]) == (tp, sum(g), sum(p)) == (2, 4, 4)
    assert result["speakers"] == ["TEXT"] and "one stream" in result["notes"][0]
    # the command says so on stderr, and exits 0
    proc = run_cli(["compare", gold, pred, "--metric", "disrpt_seg"])
    assert proc.returncode == 0 and "one stream" in proc.stderr
    # a merge across a document boundary in the system file: refused as different documents,
    # scored as one stream with --one-stream
    merged = tmp_path / "merged.tok"
    merged.write_text(_file({"a": pred_words}), encoding="utf-8")
    with pytest.raises(segagree.MismatchError):
        segagree.compare(gold, merged, metrics="disrpt_seg")
    again = segagree.compare(gold, merged, metrics="disrpt_seg", one_stream=True)["metrics"]["disrpt_seg"]["pooled"]
    assert again == pooled


def test_the_first_token_rule_and_the_2019_spans_are_options(tmp_path: Path) -> None:
    gold, pred = tmp_path / "gold.tok", tmp_path / "pred.tok"
    gold.write_text(_file({"a": [(w, k in (0, 2)) for k, w in enumerate(WORDS[:5])]}), encoding="utf-8")
    pred.write_text(_file({"a": [(w, k == 2) for k, w in enumerate(WORDS[:5])]}), encoding="utf-8")
    marked = segagree.compare(gold, pred, metrics="disrpt_seg")["metrics"]["disrpt_seg"]
    assert (marked["pooled"]["correct"], marked["pooled"]["system"]) == (1, 1)
    assert "first_token:marked" in marked["signature"]
    options = {"first_token": "always"}
    always = segagree.compare(gold, pred, metrics="disrpt_seg", metric_options=options)["metrics"]["disrpt_seg"]
    assert (always["pooled"]["correct"], always["pooled"]["system"]) == (2, 2)
    # connectives: B B _ is two spans to the 2023 script, one to the 2019 script (the later B-Conn
    # takes the first one's place)
    conn = "\n".join(
        ROW.format(i=i, w=w, misc=m)
        for i, (w, m) in enumerate(zip(WORDS[:4], ["Seg=B-Conn", "Seg=B-Conn", "_", "_"], strict=True), 1)
    )
    path = tmp_path / "conn.tok"
    path.write_text(conn + "\n", encoding="utf-8")
    for version, spans in (("2023", 2), ("2019", 1)):
        got = segagree.compare(path, path, metrics="disrpt_seg", metric_options={"version": version})
        assert got["metrics"]["disrpt_seg"]["pooled"]["gold"] == spans


def test_a_2019_conll_file_is_read_as_disrpt_without_from(tmp_path: Path) -> None:
    first = [ROW.format(i=1, w="one", misc="BeginSeg=Yes"), ROW.format(i=2, w="two", misc="_")]
    second = [ROW.format(i=1, w="three", misc="BeginSeg=Yes"), ROW.format(i=2, w="four", misc="_")]
    path = tmp_path / "x.conll"
    path.write_text("\n".join(["# newdoc id = d", *first, "", *second]) + "\n", encoding="utf-8")  # no final blank
    doc = segagree.read(path)
    assert doc.speakers == ["d"] and set(doc.layers) == {"edu", "sentence"}
    assert segagree.convert(path, tmp_path / "back.conll").lossless
    assert (tmp_path / "back.conll").read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_a_tok_file_ending_with_a_blank_line_comes_back_with_it(tmp_path: Path) -> None:
    text = _file({"a": [("one", True), ("two", False)], "b": [("three", True)]}).replace("\n# newdoc", "\n\n# newdoc")
    path = tmp_path / "x.tok"
    path.write_text(text + "\n", encoding="utf-8")
    segagree.convert(path, tmp_path / "x.json")
    report = segagree.convert(tmp_path / "x.json", tmp_path / "back.tok")
    assert report.lossless and (tmp_path / "back.tok").read_text(encoding="utf-8") == text + "\n"


def test_document_ids_that_cannot_be_file_names_get_safe_unique_text_names(tmp_path: Path) -> None:
    long_a, long_b = "x" * 300, "x" * 299 + "y"
    assert text_part(long_a) != text_part(long_b) and len(text_part(long_a).encode()) < 100
    assert text_part("a/b") != "a/b" and "/" not in text_part("a/b") and text_part("plain") == "plain"
    files = {}
    for who in ("ann1", "ann2"):
        path = tmp_path / f"t.{who}.tok"
        path.write_text(
            _file({long_a: [("one", True), ("two", who == "ann1")], "short": [("x", True)]}), encoding="utf-8"
        )
        files[who] = path
    texts = {"t": dict(files)}
    notes = split_documents(texts)
    assert sorted(texts) == sorted([f"t/{text_part(long_a)}", "t/short"]) and "safe form" in notes[0]
    out = tmp_path / "out"
    proc = run_cli(["run", tmp_path, "-o", out, "--no-kappa", "-q"])
    assert proc.returncode == 0, proc.stderr
    rows = (out / "summary.csv").read_text(encoding="utf-8")
    assert long_a in rows  # the speaker column keeps the id itself


def test_an_empty_document_id_never_joins_a_document_named_like_its_placeholder(tmp_path: Path) -> None:
    text = _file({"": [("one", True)], "document 1": [("two", True)]})
    path = tmp_path / "x.tok"
    path.write_text(text, encoding="utf-8")
    doc = segagree.read(path)
    assert len(doc.speakers) == 2 and "document 1" in doc.speakers
    back = tmp_path / "back.tok"
    segagree.convert(path, back)
    assert back.read_text(encoding="utf-8") == text


def test_a_document_id_with_brackets_keeps_its_name_in_the_panel_rows() -> None:
    assert _text_and_speaker("gum/a [b]", "gum/a [b]") == ("gum/a [b]", "ALL")
    assert _text_and_speaker("gum/a [b] [S1]", "gum/a [b]") == ("gum/a [b]", "S1")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("-3\tx\t_\t_\t_\t_\t_\t_\t_\t_", "word ID '-3' is not a number"),
        ("a-b\tx\t_\t_\t_\t_\t_\t_\t_\t_", "word ID 'a-b' is not a number"),
        ("x.y\tx\t_\t_\t_\t_\t_\t_\t_\t_", "word ID 'x.y' is not a number"),
        ("١\tx\t_\t_\t_\t_\t_\t_\t_\t_", "is not a number"),
        ("3-4\tdel\t_\t_\t_\t_\t_\t_\t_\t_\n1\tde\t_\t_\t_\t_\t_\t_\t_\t_", "begins at word 3, not 1"),
        ("1-2\tdel\t_\t_\t_\t_\t_\t_\t_\t_", "multiword token 1-2 has not had its words"),
        (
            "1-2\tdel\t_\t_\t_\t_\t_\t_\t_\t_\n1\tde\t_\t_\t_\t_\t_\t_\t_\t_\n\n",
            "multiword token 1-2 has not had its words",
        ),
        (
            "2-3\tdel\t_\t_\t_\t_\t_\t_\t_\t_\n2\tde\t_\t_\t_\t_\t_\t_\t_\t_",
            "multiword token 2-3 has not had its words",
        ),
    ],
)
def test_word_ids_that_are_neither_words_ranges_nor_empty_nodes_are_refused(
    tmp_path: Path, body: str, message: str
) -> None:
    path = tmp_path / "bad.conllu"
    path.write_text(f"# newdoc id = a\n1\tok\t_\t_\t_\t_\t_\t_\t_\t_\n\n# newdoc id = b\n{body}\n", encoding="utf-8")
    with pytest.raises(InputError, match=message):
        segagree.read(path)
    proc = run_cli(["convert", path, "--to", "text", "-o", path.with_suffix(".txt")]) if body.startswith("-3") else None
    if proc is not None:
        assert proc.returncode == 1 and "line 5" in proc.stderr and "Traceback" not in proc.stderr


def test_a_kept_value_with_a_line_break_is_not_written_as_a_line_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "x.conllu"
    path.write_text("# newdoc id = a\n1\tone\t_\t_\t_\t_\t_\t_\t_\tX=1\n\n", encoding="utf-8")
    segagree.convert(path, tmp_path / "x.json")
    data = json.loads((tmp_path / "x.json").read_text(encoding="utf-8"))
    text = json.dumps(data)
    assert "X=1" in text
    (tmp_path / "x.json").write_text(text.replace("X=1", "X=1\\n# newdoc id = evil"), encoding="utf-8")
    report = segagree.convert(tmp_path / "x.json", tmp_path / "back.conllu")
    written = (tmp_path / "back.conllu").read_text(encoding="utf-8")
    assert "\n# newdoc id = evil" not in written and segagree.read(tmp_path / "back.conllu").speakers == ["a"]
    assert not report.lossless


DISRPT = (
    "# newdoc id = d1\n"
    + "\n".join(
        ROW.format(i=i, w=w, misc="BeginSeg=Yes" if b else "_")
        for i, (w, b) in enumerate(
            [("It", True), ("rained", False), (",", False), ("so", True), ("we", False), ("left", False), (".", False)],
            1,
        )
    )
    + "\n# newdoc id = d2\n"
    + "\n".join(
        ROW.format(i=i, w=w, misc="BeginSeg=Yes" if b else "_")
        for i, (w, b) in enumerate([("Then", True), ("what", False), ("?", False), ("Nothing", True)], 1)
    )
    + "\n"
)


@pytest.mark.parametrize("via", ["eaf", "TextGrid"])
def test_disrpt_units_through_elan_or_a_textgrid_come_back_as_beginseg(tmp_path: Path, via: str) -> None:
    source = tmp_path / "x.tok"
    source.write_text(DISRPT, encoding="utf-8")
    segagree.convert(source, tmp_path / f"x.{via}")
    report = segagree.convert(tmp_path / f"x.{via}", tmp_path / "back.tok", endnotes="words")
    back = segagree.read(tmp_path / "back.tok")
    original = segagree.read(source)
    # every word (punctuation included) and every unit start come back
    assert back.column("text").tolist() == original.column("text").tolist()
    assert back.layers["edu"] == original.layers["edu"] and back.speakers == original.speakers
    assert "layer-renamed" in {loss.kind for loss in report.write_losses}
    # without --endnotes words: the units still, the punctuation a TextGrid took as endnotes reported
    report = segagree.convert(tmp_path / f"x.{via}", tmp_path / "plain.tok")
    assert segagree.read(tmp_path / "plain.tok").layers["edu"].boundaries.sum() == 4
    if via == "TextGrid":
        dropped = {loss.kind: loss.count for loss in report.write_losses}
        assert dropped["types-dropped"] == 3


def test_an_empty_node_counts_as_seg_eval_counts_it(tmp_path: Path) -> None:
    """seg_eval.py counts every line with a tab as a token, an empty node's too."""
    gold, pred = tmp_path / "gold.conllu", tmp_path / "pred.conllu"
    body = [
        ROW.format(i=1, w="one", misc="BeginSeg=Yes"),
        ROW.format(i=2, w="two", misc="_"),
        ROW.format(i="2.1", w="gap", misc="{m}"),
        ROW.format(i=3, w="three", misc="BeginSeg=Yes"),
    ]
    gold.write_text("# newdoc id = d\n" + "\n".join(body).format(m="BeginSeg=Yes") + "\n\n", encoding="utf-8")
    pred.write_text("# newdoc id = d\n" + "\n".join(body).format(m="_") + "\n\n", encoding="utf-8")
    g, p = _labels(gold.read_text()), _labels(pred.read_text())
    tp = sum(x and y for x, y in zip(g, p, strict=True))
    pooled = segagree.compare(gold, pred, metrics="disrpt_seg")["metrics"]["disrpt_seg"]["pooled"]
    assert (pooled["correct"], pooled["gold"], pooled["system"]) == (tp, sum(g), sum(p)) == (2, 3, 2)


def test_a_review_of_a_prediction_without_documents_adjudicates_into_the_golds_documents(tmp_path: Path) -> None:
    import openpyxl

    from segagree.adjudication.tokens import adjudicate
    from segagree.corpus.config import RunConfig
    from segagree.corpus.tasks import run_task
    from segagree.outputs.review_workbook import OPS_HEADERS, write_review_workbook

    gold, pred = tmp_path / "t.gold.tok", tmp_path / "t.pred.tok"
    gold.write_text(
        _file({"a": [("one", True), ("two", False), ("three", True)], "b": [("four", True), ("five", False)]})
    )
    pred.write_text(_file({None: [(w, k in (0, 1, 3)) for k, w in enumerate(["one", "two", "three", "four", "five"])]}))
    config = RunConfig()
    config.kappa.enabled = False
    result = run_task("t", "gold", "pred", str(gold), str(pred), config)
    assert result["ok"], result["error"]
    book = write_review_workbook(tmp_path / "t.xlsx", [result], config)
    wb = openpyxl.load_workbook(book)
    sheet = wb["Operations"]
    column = [c.value for c in sheet[1]].index(OPS_HEADERS["decision"]) + 1
    for r in range(2, sheet.max_row + 1):
        sheet.cell(r, column).value = "B"
    wb.save(book)
    adjudicate(book, tmp_path / "gold2.tok", sources=[tmp_path])
    back = segagree.read(tmp_path / "gold2.tok")
    # B's units on the gold's words, in the gold's documents
    assert back.speakers == ["a", "b"] and back.layers["edu"].boundaries.tolist() == [1, 0, 1, 0, 1]
