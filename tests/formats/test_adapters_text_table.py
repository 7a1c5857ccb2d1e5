"""Text, table and native JSON adapters: tokenising, endnotes, round trips, bad input."""

from __future__ import annotations

import json
import shutil

import jsonschema
import numpy as np
import pytest

from segagree.errors import InputError
from segagree.formats import read_document, write_document
from segagree.model import builtin_scheme
from segagree.model.native import document_to_json, json_schema

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


# --- damage refused in the project's words, impossible times, read and write losses ---


def one_line_error(path, *needles, **opts):
    with pytest.raises(InputError) as err:
        read_document(path, **opts)
    msg = str(err.value)
    assert msg.startswith(str(path)) and "\n" not in msg, msg
    for needle in needles:
        assert needle in msg, msg
    for library_word in ("Error tokenizing", "C error", "openpyxl", "zipfile", "Traceback", "_csv"):
        assert library_word not in msg[len(str(path)) :], msg
    return err.value


@pytest.mark.parametrize(
    ("cell", "why"),
    [
        ("inf", "not a possible time"),
        ("1e308", "not a possible time"),
        ("-1", "not a possible time"),
        ("nan", "not a possible time"),
        ("1e22", "not a possible time"),
        ("soon", "not a number of seconds"),
    ],
)
def test_table_refuses_impossible_times_with_the_row(cell, why, tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(f"Speaker,Utterance,Start,End\nA,x .,0,1\nA,y ?,{cell},2\n", encoding="utf-8")
    one_line_error(path, "row 3, line 3", why)
    path.write_text(f"Speaker,Utterance,Start,End\nA,x .,0,1\nA,y ?,1,{cell}\n", encoding="utf-8")
    one_line_error(path, "row 3, line 3", why)


def test_table_refuses_reversed_times_and_text_too(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("Speaker,Utterance,Start,End\nA,x .,2,1\n", encoding="utf-8")
    one_line_error(path, "row 2, line 2", "ends (1.0) before it starts (2.0)")
    rez = tmp_path / "r.txt"
    for start, end, why in [("0", "inf", "not a possible time"), ("3", "1", "ends (1.0) before it starts (3.0)")]:
        rez.write_text(f"participant\tstart\tend\ttext\nA\t0\t1\tx .\nB\t{start}\t{end}\ty ?\n", encoding="utf-8")
        one_line_error(rez, "line 3", why)


@pytest.mark.parametrize(
    ("content", "needles"),
    [
        ('Speaker,Utterance\nA,x .\nB,"y ?\n', ("a quoted cell is not closed",)),
        ("Speaker,Utterance\nA,x .,extra\n", ("row 2, line 2", "a row of 3 cells; the header has 2")),
        ("Speaker,Utterance,Turn\nA,x .\n", ("row 2, line 2", "a row of 2 cells; the header has 3")),
        ('Speaker,Utterance\nA,"x ."y\n', ("line 2", "right after a closing quote")),
        ("Speaker,Speaker,Utterance\nA,B,x .\n", ("header", "duplicate column names ['Speaker']")),
        ("Who,What\n", ("header", "expected columns 'Speaker' and 'Utterance'")),
        ("Speaker,Utterance\n,x .\n", ("row 2, line 2", "the first row has no Speaker")),
    ],
)
def test_damaged_csv_in_our_words(content, needles, tmp_path):
    path = tmp_path / "d.csv"
    path.write_text(content, encoding="utf-8")
    one_line_error(path, *needles)


def test_damaged_xlsx_in_our_words(tmp_path):
    good = tmp_path / "g.xlsx"
    write_document(read_document(SAMPLE / "garden.ann1.txt"), good)
    raw = good.read_bytes()
    cases = {
        "csv.xlsx": (b"Speaker,Utterance\nA,x .\n", "not an XLSX workbook (not a zip archive"),
        "cut.xlsx": (raw[: len(raw) // 2], "not an XLSX workbook"),
    }
    for name, (data, needle) in cases.items():
        (tmp_path / name).write_bytes(data)
        err = one_line_error(tmp_path / name, needle)
        assert err.__cause__ is not None  # the library's detail, for --debug
    # a zip that is not a workbook
    import zipfile

    with zipfile.ZipFile(tmp_path / "zip.xlsx", "w") as z:
        z.writestr("hello.txt", "hi")
    one_line_error(tmp_path / "zip.xlsx", "XLSX workbook")


def test_table_read_losses_and_kept_column_order(tmp_path):
    src = tmp_path / "t.csv"
    src.write_text("Turn,Speaker,Utterance,row_id\n1,A,x .,r1\n1,A,,r2\n2,B,y ?,r3\n", encoding="utf-8")
    doc = read_document(src)
    got = [(loss.kind, loss.count, loss.where) for loss in doc.losses]
    assert got == [("rows-dropped", 1, "first at row 3, line 3")]
    losses = write_document(doc, tmp_path / "o.csv")
    assert not losses
    assert (tmp_path / "o.csv").read_text(encoding="utf-8").splitlines()[0] == "Turn,Speaker,Utterance,row_id"


def test_writers_report_what_would_not_read_back(tmp_path):
    from segagree.model import from_units

    semi = DUBOIS.unclassified_code
    doc = from_units(
        "w",
        [
            {"speaker": "A", "tokens": ["two words", "x"], "boundary": DUBOIS.code(".")},
            {"speaker": "A", "tokens": ["", "y"], "boundary": DUBOIS.code(",")},
            {"speaker": "NA", "tokens": ["z"], "boundary": DUBOIS.code("?")},
            {"speaker": "A", "tokens": ["w"], "boundary": semi, "start": 1.0, "token_ends": [2.0]},
        ],
        layer="iu",
        scheme=DUBOIS,
    )
    doc.tokens.loc[0, "end"] = 0.5  # a word time inside a unit
    for name in ("o.csv", "o.txt"):
        losses = write_document(doc, tmp_path / name, **({"layout": "rezonator"} if name == "o.txt" else {}))
        kinds = losses.kinds()
        assert {"tokens-split", "tokens-dropped", "times-dropped"} <= kinds, (name, kinds)
        back = read_document(tmp_path / name)
        assert back.differences(doc)  # something did change: and it was reported
    assert "speakers-changed" in write_document(doc, tmp_path / "p.csv").kinds()


def test_text_writer_marks_unclassified_units_that_would_read_back_typed(tmp_path):
    from segagree.model import from_units

    semi = DUBOIS.unclassified_code
    doc = from_units(
        "u",
        [
            {"speaker": "A", "tokens": ["no."], "boundary": semi},
            {"speaker": "A", "tokens": ["wow", "!"], "boundary": semi},
            {"speaker": "A", "tokens": ["a", ";"], "boundary": semi},
            {"speaker": "B", "tokens": ["JOE:", "hi"], "boundary": DUBOIS.code(".")},
            {"speaker": "B", "tokens": ["fine"], "boundary": semi},
        ],
        layer="iu",
        scheme=DUBOIS,
    )
    losses = write_document(doc, tmp_path / "u.txt")
    text = (tmp_path / "u.txt").read_text(encoding="utf-8")
    assert "A:\tno. ;\n\twow ! ;\n\ta ; ;\n" in text
    back = read_document(tmp_path / "u.txt")
    assert back.token_texts()["A"] == ["no.", "wow", "!", "a", ";"]
    assert back.layer().boundaries.tolist()[:5] == [semi, 0, semi, 0, semi]
    assert losses.kinds() == set()  # B's first line carries its label, so "JOE:" stays a word
    assert back.differences(doc) == []
    doc2 = from_units(
        "v",
        [
            {"speaker": "B", "tokens": ["well"], "boundary": semi},
            {"speaker": "B", "tokens": ["JOE:", "hi"], "boundary": DUBOIS.code(".")},
        ],
        layer="iu",
        scheme=DUBOIS,
    )
    assert "speakers-changed" in write_document(doc2, tmp_path / "v.txt").kinds()
    assert read_document(tmp_path / "v.txt").differences(doc2)


def test_xlsx_other_sheets_are_reported(tmp_path):
    import pandas as pd

    path = tmp_path / "two.xlsx"
    with pd.ExcelWriter(path, engine="xlsxwriter") as xw:
        pd.DataFrame({"Speaker": ["A"], "Utterance": ["x ."]}).to_excel(xw, sheet_name="ann", index=False)
        pd.DataFrame({"note": ["hello"]}).to_excel(xw, sheet_name="notes", index=False)
    doc = read_document(path)
    assert doc.token_texts() == {"A": ["x"]}
    assert [loss.kind for loss in doc.losses] == ["sheets-ignored"] and "['notes']" in doc.losses.lines()[0]


def test_xlsx_control_characters_are_reported_and_escape_lookalikes_kept(tmp_path):
    from segagree.model import from_units

    words = ["p_x000D_q", "_X0041_", "x"]
    doc = from_units("x", [{"speaker": "A_x0041_", "tokens": words, "boundary": 2}], layer="iu", scheme=DUBOIS)
    assert not write_document(doc, tmp_path / "x.xlsx")
    back = read_document(tmp_path / "x.xlsx")
    assert back.differences(doc) == [] and back.speakers == ["A_x0041_"]
    for bad in ("a\rb", "_x005F_"):
        doc.tokens.loc[0, "text"] = bad
        assert write_document(doc, tmp_path / "y.xlsx").kinds() == {"text-escaped"}
        assert read_document(tmp_path / "y.xlsx").differences(doc)  # reported, and indeed changed
