"""DISRPT's figure read straight from two files (:mod:`segagree.scoring.tokens.disrpt_files`, the scan of
:mod:`segagree.formats.conllu_scan`) gives the very result of the full path (the files read into
Documents, paired and scored with ``with_sf=False``), on generated DISRPT files of every shape the scan
reads: documents or none, in the same or another order, one stream, multiword tokens, empty nodes,
comments, sentence breaks, units or connectives, both script versions; and where the scan leaves a
file to the full reader, the command says what the full reader says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import segagree
from segagree.formats.conllu_scan import NotPlain, scan_text
from segagree.scoring.tokens.compare import compare_documents
from segagree.scoring.tokens.disrpt_files import score_files

WORDS = ["the", "cat", "sat", "on", "a", "mat", ",", ".", "и", "кот"]
UNIT = ["_", "BeginSeg=Yes", "BeginSeg=Yes|SpaceAfter=No", "SpaceAfter=No"]
CONN = ["_", "Seg=B-Conn", "Seg=I-Conn", "Seg=I-Conn|SpaceAfter=No", "SpaceAfter=No"]


@st.composite
def documents(draw: st.DrawFn, connective: bool) -> list[tuple[str, list[list[tuple[str, str]]]]]:
    """Documents (id, sentences of (form, MISC)); MISC drawn from the unit or connective labels."""
    labels = CONN if connective else UNIT
    n_docs = draw(st.integers(1, 3))
    out = []
    for k in range(n_docs):
        sentences = draw(
            st.lists(
                st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(labels)), min_size=1, max_size=6),
                min_size=1,
                max_size=3,
            )
        )
        out.append((f"doc_{k}", sentences))
    # the gold marks a unit or a connective (else it is a file of sentences: the full path scores those)
    out[0][1][0][0] = (out[0][1][0][0][0], labels[1])
    return out


def write(
    docs: list[tuple[str, list[list[tuple[str, str]]]]],
    *,
    newdoc: bool = True,
    blank_sentences: bool = True,
    mwt: bool = False,
    empty: bool = False,
    comments: bool = False,
) -> str:
    lines = []
    for doc_id, sentences in docs:
        if newdoc:
            lines.append(f"# newdoc_id = {doc_id}")
        i = 0
        for s, sentence in enumerate(sentences):
            if comments:
                lines.append(f"# sent_id = {doc_id}-{s}")
            i = 0 if blank_sentences else i  # a .tok file numbers its words on through the document
            for k, (form, misc) in enumerate(sentence):
                i += 1
                if mwt and k == 0 and len(sentence) > 1:
                    lines.append(f"{i}-{i + 1}\t{form}{sentence[1][0]}\t_\t_\t_\t_\t_\t_\t_\t_")
                lines.append(f"{i}\t{form}\t_\t_\t_\t_\t_\t_\t_\t{misc}")
                if empty and k == len(sentence) - 1:
                    lines.append(f"{i}.1\tnull\t_\t_\t_\t_\t_\t_\t_\t_")
            if blank_sentences:
                lines.append("")
        if not blank_sentences:
            lines.append("")
    return "\n".join(lines) + "\n"


def relabel(docs: list, seed: int, connective: bool) -> list:
    """A system's labels: the gold's, some changed (the words stay)."""
    import random

    rng = random.Random(seed)
    labels = CONN if connective else UNIT
    return [
        (d, [[(w, rng.choice(labels) if rng.random() < 0.3 else m) for w, m in sent] for sent in sents])
        for d, sents in docs
    ]


def full_path(gold: Path, system: Path, options: dict, one_stream: bool = False) -> dict:
    """The full path: both files read into Documents, paired and scored without S_f."""
    a, b = segagree.read(gold), segagree.read(system)
    return compare_documents(a, b, metrics=["disrpt_seg"], metric_options=options, one_stream=one_stream, with_sf=False)


def same_result(lean: dict, full: dict) -> None:
    full = {k: v for k, v in full.items() if k != "operation_rows"}
    lean = {k: v for k, v in lean.items() if k != "operation_rows"}
    assert lean == full


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.data(),
    connective=st.booleans(),
    version=st.sampled_from(["2023", "2019"]),
    shape=st.sampled_from(["same", "no-newdoc-in-system", "reordered", "one-stream"]),
    mwt=st.booleans(),
    empty=st.booleans(),
    comments=st.booleans(),
    blanks=st.booleans(),
    seed=st.integers(0, 1000),
)
def test_straight_from_the_files_equals_the_full_path(
    tmp_path: Path,
    data: st.DataObject,
    connective: bool,
    version: str,
    shape: str,
    mwt: bool,
    empty: bool,
    comments: bool,
    blanks: bool,
    seed: int,
) -> None:
    docs = data.draw(documents(connective))
    system_docs = relabel(docs, seed, connective)
    gold = tmp_path / "gold.tok"
    system = tmp_path / "system.tok"
    style = {"mwt": mwt, "empty": empty and not connective, "comments": comments, "blank_sentences": blanks}
    gold.write_text(write(docs, **style), encoding="utf-8")
    if shape == "reordered":
        system_docs = system_docs[::-1]
    system.write_text(write(system_docs, newdoc=shape != "no-newdoc-in-system", **style), encoding="utf-8")
    options = {"version": version}
    lean = score_files(gold, system, options, one_stream=shape == "one-stream")
    assert lean is not None, "the scan reads every file of these shapes"
    same_result(lean, full_path(gold, system, options, one_stream=shape == "one-stream"))


def test_the_api_takes_the_files_straight_and_the_full_path_gives_the_same(tmp_path: Path) -> None:
    docs = [("d1", [[("the", "BeginSeg=Yes"), ("cat", "_")], [("sat", "BeginSeg=Yes")]]), ("d2", [[("on", "_")]])]
    gold, system = tmp_path / "g.tok", tmp_path / "s.tok"
    gold.write_text(write(docs), encoding="utf-8")
    system.write_text(write(relabel(docs, 3, False)), encoding="utf-8")
    straight = segagree.compare(gold, system, metrics="disrpt_seg")
    read_first = segagree.compare(segagree.read(gold), segagree.read(system), metrics="disrpt_seg")
    assert straight["metrics"] == read_first["metrics"] and straight["sf"] is None and read_first["sf"] is None
    assert straight["sf_not_asked"] == read_first["sf_not_asked"]
    # S_f when it is named too
    both = segagree.compare(gold, system, metrics="sf,disrpt_seg")
    assert both["sf"] is not None and both["metrics"]["disrpt_seg"] == straight["metrics"]["disrpt_seg"]


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda t: t.replace("2\tcat\t_\t_", "2\tcat\t_\t_\t_", 1), "more than ten columns"),
        (lambda t: t.replace("2\tcat\t_\t_\t_\t_\t_\t_\t_\t_", "2\tcat", 1), "fewer than three"),
        (lambda t: t.replace("2\tcat", "2x\tcat", 1), "full reader"),
        (lambda t: t.replace("2\tcat", "2\t", 1), "full reader"),
        (lambda t: t.replace("# newdoc_id = d2", "# newdoc_id = d1", 1), "met again"),
        (lambda t: t.replace("# newdoc_id = d2\n", "# newdoc_id = d2\n# newdoc_id = d3\n", 1), "without words"),
        (lambda t: "1\tx\t_\t_\t_\t_\t_\t_\t_\t_\n" + t, "before the first document"),
        (lambda t: t.replace("1\tthe", "1-3\tthecat\t_\t_\t_\t_\t_\t_\t_\t_\n1\tthe", 1), "multiword"),
        (lambda t: t.replace("_\tBeginSeg=Yes", "_\tXBeginSeg=Yes", 1), "part of another item"),
    ],
)
def test_what_the_scan_leaves_to_the_full_reader(change, why: str) -> None:  # type: ignore[no-untyped-def]
    docs = [("d1", [[("the", "BeginSeg=Yes"), ("cat", "_")], [("sat", "BeginSeg=Yes")]]), ("d2", [[("on", "_")]])]
    text = write(docs)
    scan_text(text)  # the file as written is read
    with pytest.raises(NotPlain, match=why):
        scan_text(change(text))


def test_a_file_the_scan_leaves_is_refused_by_the_full_reader_with_its_place(tmp_path: Path) -> None:
    docs = [("d1", [[("the", "BeginSeg=Yes"), ("cat", "_")]])]
    gold, system = tmp_path / "g.tok", tmp_path / "s.tok"
    gold.write_text(write(docs), encoding="utf-8")
    system.write_text(write(docs).replace("2\tcat\t_\t_", "2\tcat\t_\t_\t_", 1), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "segagree", "compare", str(gold), str(system), "--metric", "disrpt_seg"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert (
        "s.tok" in proc.stderr
        and "line 3" in proc.stderr
        and "expected 10 tab-separated columns, found 11" in proc.stderr
    )


def test_the_command_loads_neither_numpy_nor_rich(tmp_path: Path) -> None:
    docs = [("d1", [[("the", "BeginSeg=Yes"), ("cat", "_")], [("sat", "BeginSeg=Yes")]])]
    gold, system = tmp_path / "g.tok", tmp_path / "s.tok"
    gold.write_text(write(docs), encoding="utf-8")
    system.write_text(write(relabel(docs, 5, False)), encoding="utf-8")
    script = (
        "import sys\nfrom segagree.cli import main\n"
        f"main(['compare', {str(gold)!r}, {str(system)!r}, '--metric', 'disrpt_seg'])\n"
        "print('LOADED', sorted(m for m in ('numpy', 'rich', 'pandas', 'numba') if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "LOADED []" in proc.stdout and "disrpt_seg" in proc.stdout


@pytest.mark.parametrize("version", ["2023", "2019"])
@pytest.mark.parametrize("next_label", ["Seg=I-Conn", "Seg=B-Conn", "_"])
def test_a_connective_open_at_a_documents_end_is_closed_as_the_full_path_closes_it(
    tmp_path: Path, version: str, next_label: str
) -> None:
    gold_docs = [
        ("d1", [[("so", "_"), ("then", "Seg=B-Conn")]]),
        ("d2", [[("and", next_label), ("we", "_"), ("went", "Seg=B-Conn")]]),
    ]
    system_docs = [("d1", [[("so", "Seg=B-Conn"), ("then", "Seg=I-Conn")]]), ("d2", [[("and", "_"), ("we", "_")]])]
    system_docs[1][1][0].append(("went", "Seg=B-Conn"))
    gold, system = tmp_path / "g.tok", tmp_path / "s.tok"
    gold.write_text(write(gold_docs), encoding="utf-8")
    system.write_text(write(system_docs), encoding="utf-8")
    lean = score_files(gold, system, {"version": version})
    assert lean is not None
    same_result(lean, full_path(gold, system, {"version": version}))


def test_a_word_line_that_lost_a_column_is_read_as_seg_eval_reads_it_by_both_readers(tmp_path: Path) -> None:
    # rus.rst.rrt's .conllu files (DISRPT 2023) have 30 word lines of nine columns (MISC lost)
    docs = [("d1", [[("the", "BeginSeg=Yes"), ("cat", "_"), ("sat", "BeginSeg=Yes")]])]
    text = write(docs).replace("2\tcat\t_\t_\t_\t_\t_\t_\t_\t_", "2\tcat\t_\t_\t_\t_\t_\t_\t_", 1)
    gold, system = tmp_path / "g.conllu", tmp_path / "s.conllu"
    gold.write_text(text, encoding="utf-8")
    system.write_text(write(relabel(docs, 1, False)), encoding="utf-8")
    doc = segagree.read(gold)
    assert doc.tokens["text"].tolist() == ["the", "cat", "sat"]
    assert [(n.kind, n.count) for n in doc.losses.notes] == [("short-lines", 1)]
    assert "line 3" in doc.losses.notes[0].message
    lean = score_files(gold, system, {})
    assert lean is not None
    same_result(lean, full_path(gold, system, {}))
    # given back as written
    assert segagree.convert(gold, tmp_path / "back.conllu").lossless
    assert (tmp_path / "back.conllu").read_bytes() == gold.read_bytes()


def test_a_multiword_token_read_whole_before_the_ids_start_again_without_a_blank_line(tmp_path: Path) -> None:
    # a prediction written without sentence breaks: IDs start again at 1 after a multiword token's words
    text = write([("d1", [[("de", "BeginSeg=Yes"), ("el", "_")], [("x", "BeginSeg=Yes"), ("y", "_")]])], mwt=True)
    text = text.replace("\n\n1-2", "\n1-2").replace("_\n\n# newdoc", "_\n# newdoc")
    text = "\n".join(ln for ln in text.split("\n") if ln != "") + "\n"
    path = tmp_path / "p.conllu"
    path.write_text(text, encoding="utf-8")
    assert segagree.read(path).tokens["text"].tolist() == ["de", "el", "x", "y"]
    assert sum(len(d.lines) for d in scan_text(text).documents) == 4


def test_s_fs_options_are_refused_where_only_an_official_scorer_is_named(tmp_path: Path) -> None:
    docs = [("d1", [[("the", "BeginSeg=Yes"), ("cat", "_")]])]
    gold = tmp_path / "g.tok"
    gold.write_text(write(docs), encoding="utf-8")
    for extra, said in (
        (["--ops", str(tmp_path / "ops.csv")], "--ops lists S_f's"),
        (["--mode", "segsimflex"], "--mode"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "segagree", "compare", str(gold), str(gold), "--metric", "disrpt_seg", *extra],
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 2 and said in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "ops.csv").exists()


def test_files_without_discourse_labels_are_scored_as_the_script_scores_them(tmp_path: Path) -> None:
    # A UD treebank against itself: seg_eval.py finds no BeginSeg in the gold, reads connective spans,
    # finds none, and prints 0 spans and the integer 0 for P, R and F (it divides by zero); the layer
    # compared (the sentences) is not what it reads.
    sentences = [[("He", "_"), ("left", "SpaceAfter=No"), (".", "_")], [("She", "_"), ("stayed", "_")]]
    gold = tmp_path / "ud.conllu"
    gold.write_text(write([("d1", sentences)]), encoding="utf-8")
    for a, b in ((gold, gold), (segagree.read(gold), segagree.read(gold))):
        result = segagree.compare(a, b, metrics="disrpt_seg")["metrics"]["disrpt_seg"]
        pooled = result["pooled"]
        assert (pooled["correct"], pooled["gold"], pooled["system"]) == (0, 0, 0)
        assert [repr(pooled[k]) for k in ("precision", "recall", "f1")] == ["0", "0", "0"]
    # a prediction that marks units where the gold has none: the script, in its connective mode,
    # does not read them (no B-Conn)
    system = tmp_path / "sys.conllu"
    system.write_text(write([("d1", [[("He", "BeginSeg=Yes"), *sentences[0][1:]], sentences[1]])]), encoding="utf-8")
    pooled = segagree.compare(gold, system, metrics="disrpt_seg")["metrics"]["disrpt_seg"]["pooled"]
    assert (pooled["correct"], pooled["gold"], pooled["system"]) == (0, 0, 0)


def test_an_official_figure_on_aligned_transcripts_says_they_were_aligned(tmp_path: Path) -> None:
    docs = [("d", [[("a", "BeginSeg=Yes"), ("b", "_"), ("c", "BeginSeg=Yes"), ("d", "_")]])]
    gold, system = tmp_path / "g.tok", tmp_path / "s.tok"
    gold.write_text(write(docs), encoding="utf-8")
    system.write_text(write(docs).replace("2\tb\t", "2\tB\t"), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "segagree", "compare", str(gold), str(system), "--metric", "disrpt_seg", "--align"]
        + ["--max-mismatch", "0.3"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert "1 transcript mismatch was aligned" in proc.stdout and "official figures" in proc.stdout
