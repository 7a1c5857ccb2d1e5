"""RST-DT .edus files: EDUs per line, sentences from the raw text beside, written back byte for byte,
losses reported both ways, and texts that disagree refused with both places named.

The fixtures are made for the tests in the shape of RST-DT's files (``wsj_NNNN.out``: a sentence per
line, blank lines between paragraphs; ``wsj_NNNN.out.edus``: an EDU per line, indented by four spaces
and ending with a space), the shape of the samples NeuralEDUSeg ships in ``data/rst/``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import segagree
from segagree.errors import InputError, SegagreeError

RAW = (
    "Two new funds began trading on the exchange today, and one fund closed last week. \n"
    "\n"
    "On the main board, Acme & Co., Springfield, (ACM) begins trading today.\n"
    "Acme sells garden tools and is known for its catalogue. \n"
)
EDUS = (
    "    Two new funds began trading on the exchange today, \n"
    "    and one fund closed last week. \n"
    "    On the main board, Acme & Co., Springfield, \n"
    "    (ACM) \n"
    "    begins trading today. \n"
    "    Acme sells garden tools \n"
    "    and is known for its catalogue. \n"
)


def _pair(folder: Path, edus: str = EDUS, raw: str | None = RAW, name: str = "wsj_9901.out") -> Path:
    if raw is not None:
        (folder / name).write_text(raw, encoding="utf-8")
    path = folder / f"{name}.edus"
    path.write_text(edus, encoding="utf-8")
    return path


def _ends(doc: segagree.Document, layer: str) -> list[str]:
    """The word before each boundary of a layer."""
    words = doc.column("text").tolist()
    return [words[i] for i in doc.layers[layer].boundaries.nonzero()[0]]


def test_edus_and_the_raw_texts_sentences_are_read(tmp_path: Path) -> None:
    doc = segagree.read(_pair(tmp_path))
    assert doc.speakers == ["TEXT"] and doc.n_tokens == sum(len(line.split()) for line in EDUS.splitlines())
    assert list(doc.layers) == ["edu", "sentence"]
    assert _ends(doc, "edu") == ["today,", "week.", "Springfield,", "(ACM)", "today.", "tools", "catalogue."]
    assert _ends(doc, "sentence") == ["week.", "today.", "catalogue."]
    assert doc.losses.kinds() == {"paragraphs"}  # the blank line of the raw text


def test_without_the_raw_text_there_is_no_sentence_layer_and_the_read_says_so(tmp_path: Path) -> None:
    doc = segagree.read(_pair(tmp_path, raw=None))
    assert list(doc.layers) == ["edu"]
    assert any(n.kind == "no-sentences" for n in doc.losses.notes)


def test_an_rst_dt_file_writes_back_byte_for_byte(tmp_path: Path) -> None:
    gold = _pair(tmp_path, raw=None)
    report = segagree.convert(gold, tmp_path / "back.edus")
    assert report.lossless
    assert (tmp_path / "back.edus").read_bytes() == gold.read_bytes()


def test_a_round_trip_with_the_raw_text_keeps_the_edus_and_reports_the_sentences(tmp_path: Path) -> None:
    gold = _pair(tmp_path)
    out = tmp_path / "copy" / "back.edus"
    out.parent.mkdir()
    assert segagree.convert(gold, out).lossless  # unchanged: the file given back
    doc = segagree.read(gold)
    doc.source = doc.source.without_file()
    report = segagree.convert(doc, out)
    assert "layer-dropped" in report.write_losses.kinds()  # the sentences are the raw text's, not written
    assert out.read_bytes() == gold.read_bytes()
    again = segagree.read(out)
    assert again.column("text").tolist() == segagree.read(gold).column("text").tolist()
    assert _ends(again, "edu") == _ends(segagree.read(gold), "edu")


def test_conllu_carries_edus_and_sentences_and_comes_back(tmp_path: Path) -> None:
    gold = _pair(tmp_path)
    conllu = tmp_path / "gold.conllu"
    segagree.convert(gold, conllu)
    blocks = [b for b in conllu.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    assert len(blocks) == 3  # a CoNLL-U sentence per raw-text line
    assert conllu.read_text(encoding="utf-8").count("BeginSeg=Yes") == 7
    back = tmp_path / "back.edus"
    report = segagree.convert(conllu, back)
    assert {"layer-dropped", "meta-dropped"} <= report.write_losses.kinds()  # sentences, CoNLL-U columns
    assert [line.strip() for line in back.read_text(encoding="utf-8").splitlines()] == [
        line.strip() for line in EDUS.splitlines()
    ]


def test_text_to_edus_reports_what_an_edu_line_cannot_hold(tmp_path: Path) -> None:
    text = tmp_path / "talk.txt"
    text.write_text("JOE:\tso I went down there ,\n\tand they said no .\nMARY:\treally ?\n", encoding="utf-8")
    out = tmp_path / "talk.edus"
    report = segagree.convert(text, out)
    assert {"layer-renamed", "types-dropped", "speakers-merged"} <= report.write_losses.kinds()
    assert out.read_text(encoding="utf-8") == "so I went down there\nand they said no\nreally\n"
    back = segagree.convert(out, tmp_path / "back.txt")
    assert back.read_losses.kinds() == set()


def test_texts_that_differ_are_refused_naming_both_places(tmp_path: Path) -> None:
    wrong = EDUS.replace("Acme sells", "Acme sold")
    path = _pair(tmp_path, edus=wrong)
    with pytest.raises(InputError) as err:
        segagree.read(path)
    message = str(err.value)
    assert message.startswith(f"{path}: line 6: ") and "wsj_9901.out line 4" in message
    assert "'sold garden tools' here, 'sells garden tools' at" in message
    # the command line: one line, exit 1, no traceback
    run = subprocess.run(
        [sys.executable, "-m", "segagree", "convert", str(path), "-o", str(tmp_path / "x.conllu")],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "differs from the raw text" in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_a_shorter_raw_text_is_refused_at_its_end(tmp_path: Path) -> None:
    path = _pair(tmp_path, raw=RAW.rsplit("\n", 2)[0] + "\n")
    with pytest.raises(InputError, match="the end of the text"):
        segagree.read(path)


def test_a_sentence_ending_inside_a_word_ends_after_it_and_is_reported(tmp_path: Path) -> None:
    # the raw text breaks "Springfield,(ACM)" across lines; the EDU file has it as one word
    edus = "    Acme & Co., Springfield,(ACM) \n    begins trading today. \n"
    raw = "Acme & Co., Springfield,\n(ACM) begins trading today.\n"
    doc = segagree.read(_pair(tmp_path, edus=edus, raw=raw))
    assert _ends(doc, "sentence") == ["Springfield,(ACM)", "today."]
    assert "sentence-end-moved" in doc.losses.kinds()


def test_an_empty_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="empty file"):
        segagree.read(_pair(tmp_path, edus="\n  \n", raw=None))


def test_blank_lines_between_edus_are_reported(tmp_path: Path) -> None:
    doc = segagree.read(_pair(tmp_path, edus="one two\n\nthree\n", raw=None))
    assert _ends(doc, "edu") == ["two", "three"] and "blank-lines" in doc.losses.kinds()


def test_real_rst_dt_samples_read_as_neuraleduseg_reads_them(tmp_path: Path) -> None:
    """NeuralEDUSeg's RST-DT samples (its ``data/rst/``: ``*.out``, ``*.out.edus`` and
    ``preprocessed/*/*.preprocessed``), when put under ``shared/corpora/rst``: every EDU lies in the
    sentence NeuralEDUSeg's preprocessing gives it (its ``sent_idx``, from spaCy's words), and every
    file writes back byte for byte."""
    import json

    from conftest import shared_path

    root = shared_path("corpora", "rst")
    files = sorted(root.rglob("*.edus"))
    if not files:
        pytest.skip(f"no .edus file under {root}")
    for path in files:
        doc = segagree.read(path)
        edu, sentence = doc.layers["edu"].boundaries, doc.layers["sentence"].boundaries
        sentence_of = [0, *(sentence[:-1] != 0).cumsum().tolist()]
        ours = [sentence_of[i] for i in edu.nonzero()[0]]
        for pre in root.rglob(path.name[: -len(".edus")] + ".preprocessed"):
            lines = pre.read_text(encoding="utf-8").splitlines()
            assert ours == [json.loads(line)["sent_idx"] for line in lines if line.strip()], path
        out = tmp_path / path.name
        segagree.convert(path, out)
        assert out.read_bytes() == path.read_bytes(), path


def test_the_raw_text_can_be_named_or_left_out(tmp_path: Path) -> None:
    path = _pair(tmp_path, raw=None)
    elsewhere = tmp_path / "raw.txt"
    elsewhere.write_text(RAW, encoding="utf-8")
    assert _ends(segagree.read(path, raw_text=elsewhere), "sentence") == ["week.", "today.", "catalogue."]
    (tmp_path / "with_raw").mkdir()
    beside = _pair(tmp_path / "with_raw")
    assert list(segagree.read(beside, raw_text="").layers) == ["edu"]
    with pytest.raises(InputError, match="does not exist"):
        segagree.read(path, raw_text=tmp_path / "missing.out")


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.sampled_from(["edus", "raw"]),
    st.integers(0, len(EDUS) - 1),
    st.integers(0, 8),
    st.binary(max_size=6),
)
def test_damaged_pairs_read_or_are_refused_cleanly(tmp_path: Path, which: str, at: int, cut: int, junk: bytes) -> None:
    """A damaged .edus file or raw text: a Document (written back and read again) or a SegagreeError."""
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    texts = {"edus": EDUS.encode(), "raw": RAW.encode()}
    data = texts[which]
    at = min(at, len(data))
    texts[which] = data[:at] + junk + data[at + cut :]
    (folder / "wsj_9903.out").write_bytes(texts["raw"])
    path = folder / "wsj_9903.out.edus"
    path.write_bytes(texts["edus"])
    try:
        doc = segagree.read(path)
    except SegagreeError as err:
        # the file the damage is in, or the .edus file the raw text disagrees with
        damaged = folder / "wsj_9903.out" if which == "raw" else path
        assert str(damaged) in str(err) or str(path) in str(err)
        return
    out = folder / "back.edus"
    segagree.write(doc, out)
    assert segagree.read(out, raw_text="").column("text").tolist() == doc.column("text").tolist()
