"""Text, table and native JSON adapters: tokenising, endnotes, round trips, bad input."""

from __future__ import annotations

import json
import shutil

import jsonschema
import numpy as np
import pytest

from segagree.adapters import read_document, write_document
from segagree.errors import InputError
from segagree.schemas import builtin_scheme
from segagree.schemas.native import document_to_json, json_schema

from conftest import REPO, shared_path

SAMPLE = REPO / "sample_corpora"
DUBOIS = builtin_scheme("dubois")


def symbols(doc):
    return [doc.layer().scheme.symbol(c) for c in doc.layer().boundaries if c]


def test_text_endnotes_labels_and_pauses(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text(
        "JOE:\tso I went ,\n"
        "\tand they said no.\n"
        "\n"
        "MARY: really ?\n"
        "\tthen (..) what ...\n"
        "\twell --\n"
        "\tI mean—\n"
        "JOE:\tyes\n",
        encoding="utf-8",
    )
    doc = read_document(path)
    assert doc.speakers == ["JOE", "MARY"]
    assert symbols(doc) == [",", ".", "?", ";", "--", "--", ";"]
    assert doc.token_texts()["JOE"] == ["so", "I", "went", "and", "they", "said", "no", "yes"]
    # pauses stay tokens and are never endnotes
    assert doc.token_texts()["MARY"][:4] == ["really", "then", "(..)", "what"]
    assert "..." in doc.token_texts()["MARY"]


def test_text_unknown_endnote_is_a_one_line_error(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("A:\tfine ,\n\twhat a day !\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_document(path)
    msg = str(err.value)
    assert str(path) in msg and "line 2" in msg and "'!'" in msg and "\n" not in msg


@pytest.mark.parametrize("content", [b"", b"\n\n  \n", b"\xef\xbb\xbf"])
def test_empty_files_are_errors(tmp_path, content):
    for name in ("e.txt", "e.csv", "e.json"):
        path = tmp_path / name
        path.write_bytes(content)
        with pytest.raises(InputError, match="empty file"):
            read_document(path)


def test_table_tokenises_like_segsimflex(segsimflex_oracle):
    """Boundary strings of the reference's own inputs, char by char (one char per token)."""
    code_char = {0: " ", 1: ",", 2: ".", 3: "?", 4: "Ā", 5: ";"}
    checked = 0
    for case_id, case in segsimflex_oracle["cases"].items():
        if "boundary_strings_a1" not in case:
            continue
        for side in ("a1", "a2"):
            path = shared_path(*case["inputs"][side].split("/")[1:])
            doc = read_document(path)
            arrays = doc.boundary_arrays()
            names = case.get(f"speakers_{side}", case["speakers_a1"])
            got = ["".join(code_char[int(c)] for c in arrays[s]) for s in sorted(arrays)]
            want = case[f"boundary_strings_{side}"]
            if sorted(arrays) != sorted(names):
                continue
            assert got == [want[sorted(names).index(s)] for s in sorted(arrays)], (case_id, side)
            checked += 1
    assert checked >= 40


def test_nccu_t049_double_space_and_blank_handling():
    doc = read_document(shared_path("corpora", "nccu", "nccu_t049.a2.csv"))
    assert all(t != "" for t in doc.tokens["text"])
    assert "Turn" in doc.tokens.columns


@pytest.mark.parametrize("target", ["x.txt", "x.csv", "x.tsv", "x.xlsx", "x.segagree.json"])
def test_round_trips_are_lossless(tmp_path, target):
    src = read_document(SAMPLE / "garden.ann2.txt")
    losses = write_document(src, tmp_path / target)
    back = read_document(tmp_path / target)
    assert src.differences(back) == []
    assert not losses


def test_table_round_trip_keeps_metadata(tmp_path):
    src = read_document(shared_path("corpora", "nccu", "nccu_t001.a1.csv"))
    write_document(src, tmp_path / "t.xlsx")
    back = read_document(tmp_path / "t.xlsx")
    assert src.differences(back) == []
    assert back.tokens["row_id"].tolist() == src.tokens["row_id"].tolist()


def test_text_to_rezonator_layout_keeps_times(tmp_path):
    doc = read_document(SAMPLE / "garden.ann1.txt")
    doc.tokens.loc[0, "start"] = 0.5
    doc.tokens.loc[9, "end"] = 2.25
    write_document(doc, tmp_path / "r.txt", layout="rezonator")
    lines = (tmp_path / "r.txt").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "participant\tstart\tend\ttext"
    assert lines[1].split("\t") == ["ROSA", "0.5", "2.25", "so I finally went out to the garden this morning ,"]
    back = read_document(tmp_path / "r.txt")
    assert back.tokens.loc[0, "start"] == 0.5 and back.tokens.loc[9, "end"] == 2.25
    assert symbols(back) == symbols(doc)


def test_native_json_validates_against_schema(tmp_path):
    doc = read_document(shared_path("corpora", "nccu", "nccu_t016.a1.csv"), scheme="lai2023")
    data = document_to_json(doc)
    jsonschema.validate(data, json_schema())
    path = tmp_path / "d.json"
    write_document(doc, path)
    back = read_document(path)
    assert back.layer().scheme == builtin_scheme("lai2023")
    assert doc.differences(back) == []


def test_truncated_json_is_a_one_line_error(tmp_path):
    doc = read_document(SAMPLE / "garden.ann1.txt")
    write_document(doc, tmp_path / "d.json")
    text = (tmp_path / "d.json").read_text(encoding="utf-8")
    (tmp_path / "cut.json").write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_document(tmp_path / "cut.json")
    assert "cut.json" in str(err.value) and "line" in str(err.value) and "\n" not in str(err.value)
    bad = json.loads(text)
    bad["layers"][0]["boundaries"][0] = "!"
    (tmp_path / "sym.json").write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(InputError, match="layers/0/boundaries/0"):
        read_document(tmp_path / "sym.json")


def test_writing_never_overwrites_the_input(tmp_path):
    src = tmp_path / "a.txt"
    shutil.copy(SAMPLE / "garden.ann1.txt", src)
    before = src.read_bytes()
    doc = read_document(src)
    with pytest.raises(Exception, match="overwrite"):
        write_document(doc, src)
    assert src.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]  # no temp file left behind


def test_blank_speaker_inherits_and_first_blank_is_an_error(tmp_path):
    good = tmp_path / "g.csv"
    good.write_text('Speaker,Utterance\nA:,"x y ,"\n,z .\nB:,w ?\n', encoding="utf-8")
    doc = read_document(good)
    assert doc.token_texts() == {"A:": ["x", "y", "z"], "B:": ["w"]}
    bad = tmp_path / "b.csv"
    bad.write_text("Speaker,Utterance\n,x .\n", encoding="utf-8")
    with pytest.raises(InputError, match="row 2"):
        read_document(bad)
    cols = tmp_path / "c.csv"
    cols.write_text("Who,What\nA,x .\n", encoding="utf-8")
    with pytest.raises(InputError, match="Speaker"):
        read_document(cols)


def test_layer_arrays_per_speaker():
    doc = read_document(SAMPLE / "garden.ann1.txt")
    arrays = doc.boundary_arrays()
    assert set(arrays) == {"ROSA", "BEN", "MAYA"}
    assert sum(len(v) for v in arrays.values()) == doc.n_tokens
    for arr in arrays.values():
        assert arr[-1] != 0  # every stream ends with a boundary
        assert arr.dtype == np.int16
