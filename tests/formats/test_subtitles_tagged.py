"""MuST-Cinema tagged text (``--from tagged``): reading, writing, round trips, repairs, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from segagree.errors import InputError, UsageError
from segagree.formats import format_for, read_document, write_document

from conftest import shared_path


def write(tmp_path: Path, text: str, name: str = "x.fr") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_reads_words_breaks_and_sentences(tmp_path):
    doc = read_document(write(tmp_path, "The cat <eol> is black. <eob>\nHe sleeps. <eob>\n"), "tagged")
    assert doc.tokens["text"].tolist() == ["The", "cat", "is", "black.", "He", "sleeps."]
    sub = doc.layers["subtitle"]
    assert [sub.scheme.symbol(c) if c else "" for c in sub.boundaries] == ["", "<eol>", "", "<eob>", "", "<eob>"]
    assert doc.layers["sentence"].boundaries.tolist() == [0, 0, 0, 1, 0, 1]
    assert doc.source_format == "tagged" and doc.meta["sentences"] == 2 and not doc.losses


def test_extensions_and_name():
    assert format_for("talk.tagged").name == "tagged" and format_for("x", "tagged").name == "tagged"
    assert format_for("x", "MuST-Cinema").name == "tagged"
    with pytest.raises(UsageError, match="--from"):
        format_for("amara.fr")


def test_real_reference_round_trips(tmp_path):
    src = shared_path("corpora", "subtitles_tagged", "amara.fr")
    doc = read_document(src, "tagged")
    assert doc.n_tokens == 8231 and doc.meta["sentences"] == 544
    # four words carry two tags ("existent, <eol> <eob>"): the layer keeps the last, `tags` both
    assert (doc.tokens["tags"] != "").sum() == 4
    assert "<eol> <eob>" in set(doc.tokens["tags"])
    out = tmp_path / "back.fr"
    losses = write_document(doc, out, "tagged")
    assert not losses
    assert out.read_bytes() == src.read_bytes()  # unchanged: the file given back
    doc.source = doc.source.without_file()
    write_document(doc, out, "tagged")
    original = [" ".join(line.split()) for line in src.read_text(encoding="utf-8").splitlines()]
    assert out.read_text(encoding="utf-8").splitlines() == original  # written anew: same text up to spacing
    back = read_document(out, "tagged")
    assert back.tokens["text"].tolist() == doc.tokens["text"].tolist()
    for name in ("subtitle", "sentence"):
        assert back.layers[name].boundaries.tolist() == doc.layers[name].boundaries.tolist()


def test_glued_and_leading_tags_are_repairs_and_reported(tmp_path):
    doc = read_document(write(tmp_path, '<eob> Il a dit "non"<eob> puis <eol>\n\nfin <eob>\n'), "tagged")
    assert doc.tokens["text"].tolist() == ["Il", "a", "dit", '"non"', "puis", "fin"]
    kinds = {loss.kind: loss for loss in doc.losses}
    assert kinds["tags-unglued"].count == 1
    assert kinds["tag-dropped"].where == "line 1"
    assert doc.meta["empty_lines"] == [1]
    out = tmp_path / "out.fr"
    write_document(doc, out, "tagged")
    assert out.read_text(encoding="utf-8") == 'Il a dit "non" <eob> puis <eol>\n\nfin <eob>\n'


def test_sentence_without_final_tag_is_kept(tmp_path):
    doc = read_document(write(tmp_path, "one two <eol> three\nfour <eob>\n"), "tagged")
    assert doc.layers["sentence"].boundaries.tolist() == [0, 0, 1, 1]
    assert doc.layers["subtitle"].boundaries.tolist()[2] == 0
    out = tmp_path / "o.fr"
    write_document(doc, out, "tagged")
    assert out.read_text(encoding="utf-8") == "one two <eol> three\nfour <eob>\n"


def test_srt_document_written_as_tagged_reports_losses(tmp_path):
    srt = write(tmp_path, "1\n00:00:01,000 --> 00:00:02,000\nHello there\nfriend.\n\n", "a.srt")
    losses = write_document(read_document(srt), tmp_path / "a.tagged")
    kinds = {loss.kind for loss in losses}
    assert {"times-dropped", "layer-dropped"} <= kinds
    assert (tmp_path / "a.tagged").read_text(encoding="utf-8") == "Hello there <eol> friend. <eob>\n"


def test_empty_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="no words") as err:
        read_document(write(tmp_path, "\n<eob>\n"), "tagged")
    assert "x.fr" in str(err.value)
