"""The documents of DISRPT files as texts of ``segagree run`` and ``segagree panel``: each
document is scored, pooled, reviewed and adjudicated as a text, with the same numbers as a corpus
holding each document in a file of its own; a document missing from one annotator's file is
reported; ``compare`` keeps reading documents as speakers."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest
from cli_process import run_cli

from segagree.corpus.documents import text_part

ROW = "{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t{misc}"
DOCS = ("GUM_news_a", "GUM_news_b", "GUM_news_c")
# ann2's file lacks the second document: the text gum/GUM_news_b has one annotator in `run`
LACKING = {"ann2": "GUM_news_b", "seg": "GUM_news_b"}


def _document(doc_id: str, words: list[str], begins: list[bool]) -> str:
    lines = [f"# newdoc_id = {doc_id}"]  # as DISRPT's files spell it
    pairs = enumerate(zip(words, begins, strict=True), 1)
    lines += [ROW.format(i=i, w=w, misc="BeginSeg=Yes" if b else "_") for i, (w, b) in pairs]
    return "\n".join(lines) + "\n"


def _fixture(root: Path, annotators: tuple[str, ...]) -> tuple[Path, Path]:
    """Two corpora of the same annotations: ``joined`` (one DISRPT file per annotator holding the
    documents) and ``split`` (each document in its own file, text = document id)."""
    rng = random.Random(7)
    joined, split = root / "joined", root / "split"
    joined.mkdir()
    split.mkdir()
    words = {d: [f"{d[-1]}{k}" for k in range(rng.randint(25, 40))] for d in DOCS}
    for who in annotators:
        parts = []
        for d in DOCS:
            if LACKING.get(who) == d:
                continue
            p = {"ann1": 0.25, "ann2": 0.3, "ann3": 0.2, "seg": 0.4}[who]
            begins = [k == 0 or rng.random() < p for k in range(len(words[d]))]
            text = _document(d, words[d], begins)
            parts.append(text)
            (split / f"{d}.{who}.tok").write_text(text, encoding="utf-8")
        (joined / f"gum.{who}.tok").write_text("".join(parts), encoding="utf-8")
    return joined, split


def _rows(out: Path) -> dict[tuple[str, str, str, str], str]:
    with (out / "summary.csv").open(encoding="utf-8") as f:
        return {(r["text"], r["speaker"], r["annotators"], r["measure"]): r["value"] for r in csv.DictReader(f)}


MEASURES = ["--metric", "disrpt_seg,windowdiff,pk", "--no-kappa"]


def test_run_scores_each_document_as_a_text_equal_to_a_file_per_document(tmp_path: Path) -> None:
    joined, split = _fixture(tmp_path, ("ann1", "ann2"))
    out_j, out_s = tmp_path / "out_j", tmp_path / "out_s"
    for corpus, out, more in ((joined, out_j, ["--review-pages"]), (split, out_s, [])):
        proc = run_cli(["run", corpus, "-o", out, *MEASURES, *more])
        assert proc.returncode == 0, proc.stderr
    got, want = _rows(out_j), _rows(out_s)
    texts = {k[0] for k in got}
    assert texts == {"gum/GUM_news_a", "gum/GUM_news_c", "ALL"}
    # the missing document is reported, by name and annotator, not dropped in silence
    skipped = (out_j / "skipped.txt").read_text(encoding="utf-8")
    assert "gum/GUM_news_b: document 'GUM_news_b' is not in the file of ann2 (gum.ann2.tok)" in skipped
    renamed = {(k[0].removeprefix("gum/"), *k[1:]): v for k, v in got.items()}
    assert renamed == want  # per document (speaker rows and ALL) and pooled over documents
    measures = {k[3] for k in want}
    assert {"sf", "sf_b", "disrpt_seg", "windowdiff", "pk"} <= measures
    assert float(got[("ALL", "ALL", "ann1|ann2", "disrpt_seg")]) > 0
    # a page per document, its review part showing that document's words only
    pages = sorted((out_j / "texts").glob("*.html"))
    assert len(pages) == 2
    page_c = next(p for p in pages if "GUM_news_c" in p.name).read_text(encoding="utf-8")
    words_c = [ln.split("\t")[1] for ln in (split / "GUM_news_c.ann1.tok").read_text().splitlines() if "\t" in ln]
    assert f'"{words_c[0]}"' in page_c and '"a0"' not in page_c
    # a review workbook per document, which adjudicates into that document alone
    workbook = out_j / "review" / "gum" / "GUM_news_c.xlsx"
    assert workbook.is_file() and (out_j / "review" / "gum" / "GUM_news_a.xlsx").is_file()
    gold = tmp_path / "gold.tok"
    proc = run_cli(["adjudicate", workbook, "-o", gold, "--sources", joined])
    assert proc.returncode == 0, proc.stderr
    # no decisions: the gold is annotator A's document as written in its own file
    assert gold.read_text(encoding="utf-8") == (split / "GUM_news_c.ann1.tok").read_text(encoding="utf-8")


def test_compare_keeps_reading_documents_as_speakers(tmp_path: Path) -> None:
    joined, _ = _fixture(tmp_path, ("ann1", "ann2"))
    proc = run_cli(["compare", joined / "gum.ann1.tok", joined / "gum.ann2.tok", "--json", "--common-speakers"])
    assert proc.returncode == 0, proc.stderr
    speakers = json.loads(proc.stdout)["speakers"]
    assert sorted(speakers) == ["GUM_news_a", "GUM_news_c"]


def _panel(corpus: Path) -> dict:
    proc = run_cli(["panel", corpus, "--machine", "seg", "--json", "--n-boot", "50", "--n-perm", "10"])
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_panel_takes_each_document_as_a_text(tmp_path: Path) -> None:
    joined, split = _fixture(tmp_path, ("ann1", "ann2", "ann3", "seg"))
    got, want = _panel(joined), _panel(split)
    notes = got.pop("notes")
    assert any("'GUM_news_b' is not in the file of ann2 (gum.ann2.tok), seg (gum.seg.tok)" in n for n in notes)
    want.pop("notes")
    text = json.dumps(got, sort_keys=True).replace("gum/", "")
    assert json.loads(text) == want


@pytest.mark.parametrize("ids", [["only"], []])
def test_a_file_of_one_document_stays_one_text(tmp_path: Path, ids: list[str]) -> None:
    lines = [f"# newdoc id = {i}" for i in ids]
    for who, p in (("a", [True, False, True]), ("b", [True, True, False])):
        body = [ROW.format(i=k, w=f"w{k}", misc="BeginSeg=Yes" if b else "_") for k, b in enumerate(p, 1)]
        (tmp_path / f"t.{who}.tok").write_text("\n".join(lines + body) + "\n", encoding="utf-8")
    proc = run_cli(["run", tmp_path, "-o", tmp_path / "out", "--no-kappa", "--no-workbooks"])
    assert proc.returncode == 0, proc.stderr
    assert {k[0] for k in _rows(tmp_path / "out")} == {"t", "ALL"}


def test_a_damaged_file_of_a_multi_document_text_fails_its_task_with_the_readers_error(tmp_path: Path) -> None:
    joined, _ = _fixture(tmp_path, ("ann1", "ann2"))
    (joined / "bad.ann1.tok").write_text("# newdoc_id = x\n1\tword\n", encoding="utf-8")
    (joined / "bad.ann2.tok").write_bytes((joined / "gum.ann1.tok").read_bytes())
    proc = run_cli(["run", joined, "-o", tmp_path / "out", "--no-kappa", "--no-workbooks"])
    assert proc.returncode == 1, proc.stderr  # a run with a failed pair says so in its exit code
    assert "Traceback" not in proc.stderr and "failed: bad (ann1 vs ann2): " in proc.stderr
    assert "bad.ann1.tok: line 2: expected 10 tab-separated columns, found 2" in proc.stderr
    assert {k[0] for k in _rows(tmp_path / "out")} == {"gum/GUM_news_a", "gum/GUM_news_c", "ALL"}


def test_a_document_id_that_would_leave_the_output_folder_is_scored_under_a_safe_name(tmp_path: Path) -> None:
    for who in ("a", "b"):
        body = [ROW.format(i=k, w=f"w{k}", misc="BeginSeg=Yes" if k in (1, 3) else "_") for k in range(1, 5)]
        text = "".join(f"# newdoc_id = {d}\n" + "\n".join(body) + "\n" for d in ("fine", "..", "x/../../up"))
        (tmp_path / f"t.{who}.tok").write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    proc = run_cli(["run", tmp_path, "-o", out, "--no-kappa"])
    assert proc.returncode == 0, proc.stderr
    safe = {f"t/{text_part(d)}" for d in ("fine", "..", "x/../../up")}
    assert {k[0] for k in _rows(out)} == {*safe, "ALL"} and "t/fine" in safe
    assert all(".." not in name.split("/") for name in safe)
    skipped = (out / "skipped.txt").read_text(encoding="utf-8")
    assert "t: document '..' is the text t/document~" in skipped and "document 'x/../../up' is the text" in skipped
    written = sorted(p.relative_to(out).as_posix() for p in (out / "review").rglob("*.xlsx"))
    assert written == sorted(f"review/{name}.xlsx" for name in safe)
    assert not (tmp_path / "up.xlsx").exists() and not (out / "up.xlsx").exists()


def test_decisions_exported_from_a_documents_page_adjudicate_into_that_document(tmp_path: Path) -> None:
    """All-B decisions of one document's review page give annotator B's document (the other
    documents of the files take no part), as the decisions file of any text does."""
    from segagree.adjudication.tokens import adjudicate
    from segagree.outputs.review_page import page_data

    joined, split = _fixture(tmp_path, ("ann1", "ann2"))
    out = tmp_path / "out"
    proc = run_cli(["run", joined, "-o", out, "--no-kappa", "--no-workbooks", "--review-pages"])
    assert proc.returncode == 0, proc.stderr
    page = next(p for p in (out / "texts").glob("*.html") if "GUM_news_a" in p.name)
    data = page_data(page)
    assert data["text"] == "gum/GUM_news_a"
    pair = data["pairs"][0]
    rows = [
        {
            **dict(zip(pair["technical"], r["t"], strict=True)),
            **{"row_id": r["id"], "speaker": r["speaker"], "op": r["kind"], "cost": r["cost"]},
            **{"type_a": r["types"][0], "type_b": r["types"][1], "decision": "B", "comment": ""},
        }
        for r in pair["rows"]
    ]
    assert rows and {r["speaker"] for r in rows} == {"GUM_news_a"}
    decisions = {
        "format": "segagree review decisions",
        "format_version": 1,
        "kind": "tokens",
        "text": data["text"],
        "sheet": pair["sheet"],
        "source": pair["source"],
        "settings": data["settings"],
        "scheme": data["scheme"],
        "rows": rows,
    }
    path = page.parent / "a.decisions.json"  # saved beside the page, whose paths are relative to it
    path.write_text(json.dumps(decisions), encoding="utf-8")
    gold = tmp_path / "gold.tok"
    report = adjudicate(path, gold, sources=[joined])
    assert report.applied["B"] == len(rows) and report.undecided == []
    # written by the same writer from annotator A's document with B's boundaries: B's own file
    assert gold.read_text(encoding="utf-8") == (split / "GUM_news_a.ann2.tok").read_text(encoding="utf-8")
