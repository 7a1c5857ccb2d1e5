"""Damaged and hostile TextGrid, ELAN, Rezonator and native JSON files are refused with the file,
the place and what was expected; writers never crash on values a Document can hold."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from segagree.errors import InputError, SegagreeError
from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.formats import read_document, write_document
from segagree.formats.praat.text_form import parse_textgrid
from segagree.model import Document, builtin_scheme, from_units

from conftest import shared_path

DUBOIS = builtin_scheme("dubois")


def _refused(path: Path, *patterns: str) -> str:
    with pytest.raises(InputError) as info:
        read_document(path)
    msg = str(info.value)
    assert msg.startswith(str(path)) and "\n" not in msg
    for pattern in patterns:
        assert re.search(pattern, msg), msg
    assert info.value.__cause__ is None or not isinstance(info.value.__cause__, InputError)
    return msg


# --- TextGrid --------------------------------------------------------------------------------

SHORT = """File type = "ooTextFile"
Object class = "TextGrid"

0
3
<exists>
2
"IntervalTier"
"A"
0
3
3
0
1
"so ,"
1
2
""
2
3
"there ."
"TextTier"
"pitch"
0
3
1
1.5
"120"
"""


def _tg(tmp_path: Path, text: str, name: str = "t.TextGrid") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_short_sample_reads_with_its_point_tier_reported(tmp_path: Path) -> None:
    doc = read_document(_tg(tmp_path, SHORT))
    assert doc.tokens["text"].tolist() == ["so", "there"]
    assert [(x.kind, x.where, x.count) for x in doc.losses] == [("tier-ignored", "tier 'pitch'", 1)]


@pytest.mark.parametrize("cut", ['"IntervalTier"\n"A"\n0\n3\n3\n0\n1\n"so ,"\n1\n2\n""\n', '"120"\n', "1.5\n"])
def test_textgrid_cut_short_is_refused(tmp_path: Path, cut: str) -> None:
    text = SHORT[: SHORT.index(cut) + len(cut) - 1] if cut != '"120"\n' else SHORT[: SHORT.index(cut)]
    _refused(_tg(tmp_path, text), r"line \d+", "cut short|ends where", r"tier \d")


def test_textgrid_cut_between_tiers_is_refused_long_form(tmp_path: Path) -> None:
    raw = shared_path("corpora", "textgrid", "praatio_mary_longfile.TextGrid").read_bytes()
    text = raw.decode("utf-16")
    cut = text[: text.index("item [3]:")]  # the pitch tier is gone; the header says size = 3
    msg = _refused(_tg(tmp_path, cut), "tier 3 of 3", "ends where the tier class was expected")
    assert "line" in msg


def test_textgrid_every_cut_of_a_real_file_is_refused(tmp_path: Path) -> None:
    raw = shared_path("corpora", "textgrid", "praatio_mary.TextGrid").read_bytes()
    whole = read_document(shared_path("corpora", "textgrid", "praatio_mary.TextGrid"))
    path = tmp_path / "cut.TextGrid"
    for end in range(len(raw.rstrip()) - 1, 40, -7):
        path.write_bytes(raw[:end])
        try:
            doc = read_document(path)
        except InputError:
            continue
        assert doc.differences(whole) == [], f"cut at {end} read as complete"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("\n3\n0\n1\n", "\n4\n0\n1\n", "expected|ends where"),  # declares 4 intervals, has 3
        ("\n1\n2\n", "\n1\n0.5\n", "ends .* before it starts"),
        ("\n2\n3\n", "\n0.5\n3\n", "before the previous one ends"),
        ("\n2\n3\n", "\n2\n4\n", "outside its tier's range"),
        ("\n0\n3\n3\n", "\n0\n4\n3\n", "outside the file's"),
        ("\n0\n3\n<exists>", "\n0\n1e308\n<exists>", "expected a time from 0"),
        ("\n0\n3\n<exists>", "\n0\ninf\n<exists>", "finite number"),
        ("\n0\n1\n", "\n-1\n1\n", "expected a time from 0"),
        ("\n2\n3\n", "\n2\n1e22\n", "expected a time from 0"),
        ("<exists>\n2\n", "<exists>\n1\n", "after the 1 tiers the header declares"),
        ("<exists>\n2\n", "<exists>\n2.5\n", "whole number"),
        ('"IntervalTier"', '"IntervalTear"', 'expected "IntervalTier"'),
        ('"so ,"', '"so ,', "unexpected|unterminated string|ends where"),
    ],
)
def test_textgrid_declarations_are_checked(tmp_path: Path, old: str, new: str, expected: str) -> None:
    assert old in SHORT
    _refused(_tg(tmp_path, SHORT.replace(old, new, 1)), expected, r"line \d+")


def test_textgrid_gaps_between_intervals_are_reported_not_refused(tmp_path: Path) -> None:
    text = SHORT.replace("\n3\n0\n1\n", "\n2\n0\n1\n", 1).replace('1\n2\n""\n', "", 1)
    doc = read_document(_tg(tmp_path, text))
    assert doc.tokens["text"].tolist() == ["so", "there"]
    assert "repaired" in doc.losses.kinds()


def test_textgrid_parser_agrees_with_praatio_on_the_real_files() -> None:
    """A reference check: praatio's parser gives the same tiers and intervals (labels stripped)."""
    from praatio.utilities import textgrid_io

    for name in (
        "praatio_mary.TextGrid",
        "praatio_mary_longfile.TextGrid",
        "praatio_bobby_words_with_newlines.TextGrid",
        "praatio_bobby_words_with_newlines_longfile.TextGrid",
        "praatio_all_tiers_have_the_same_name.TextGrid",
        "teicorpo_FOR_DIA.TextGrid",
        "teicorpo_Marion2_ANON_131015.TextGrid",
    ):
        path = shared_path("corpora", "textgrid", name)
        text = decode_text(read_bytes(path), path)
        mine = parse_textgrid(text, path)
        ref = textgrid_io.parseTextgridStr(text, includeEmptyIntervals=True)
        assert (mine.xmin, mine.xmax) == (float(ref["xmin"]), float(ref["xmax"]))
        assert [t.name for t in mine.tiers] == [t["name"] for t in ref["tiers"]]
        for a, b in zip(mine.tiers, ref["tiers"], strict=True):
            if a.is_interval:
                assert [(i.start, i.end, i.label.strip()) for i in a.items] == [
                    (float(s), float(e), lab) for s, e, lab in b["entries"]
                ]
            else:
                assert [(i.start, i.label.strip()) for i in a.items] == [(float(t), lab) for t, lab in b["entries"]]


# --- ELAN ------------------------------------------------------------------------------------

EAF_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<ANNOTATION_DOCUMENT AUTHOR="" DATE="2020-01-01T00:00:00+00:00" FORMAT="3.0" VERSION="3.0">\n'
    '<HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>\n'
)
EAF_TYPES = (
    '<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="utt" TIME_ALIGNABLE="true"/>\n'
    '<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="w" TIME_ALIGNABLE="false" CONSTRAINTS="Symbolic_Subdivision"/>\n'
    "</ANNOTATION_DOCUMENT>\n"
)


def _eaf(tmp_path: Path, slots: str, annotations: str, words: str = "") -> Path:
    body = (
        EAF_HEAD
        + f"<TIME_ORDER>{slots}</TIME_ORDER>\n"
        + f'<TIER LINGUISTIC_TYPE_REF="utt" TIER_ID="A">{annotations}</TIER>\n'
        + (f'<TIER LINGUISTIC_TYPE_REF="w" PARENT_REF="A" TIER_ID="Aw">{words}</TIER>\n' if words else "")
        + EAF_TYPES
    )
    path = tmp_path / "t.eaf"
    path.write_text(body, encoding="utf-8")
    return path


def _slot(sid: str, value: str | None) -> str:
    return f'<TIME_SLOT TIME_SLOT_ID="{sid}"' + (f' TIME_VALUE="{value}"' if value is not None else "") + "/>"


def _ann(aid: str, t1: str, t2: str, value: str) -> str:
    return (
        f'<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="{aid}" TIME_SLOT_REF1="{t1}" TIME_SLOT_REF2="{t2}">'
        f"<ANNOTATION_VALUE>{value}</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>"
    )


def _ref(aid: str, ref: str, value: str) -> str:
    return (
        f'<ANNOTATION><REF_ANNOTATION ANNOTATION_ID="{aid}" ANNOTATION_REF="{ref}">'
        f"<ANNOTATION_VALUE>{value}</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>"
    )


def test_eaf_sample_reads(tmp_path: Path) -> None:
    doc = read_document(_eaf(tmp_path, _slot("t1", "0") + _slot("t2", "1500"), _ann("a1", "t1", "t2", "so there .")))
    assert doc.tokens["text"].tolist() == ["so", "there"] and doc.tokens["end"].iat[-1] == 1.5


@pytest.mark.parametrize(
    ("slots", "ann", "words", "expected"),
    [
        (_slot("t1", "0"), _ann("a1", "t1", "t9", "x ."), "", r"tier 'A', line \d.*time slot 't9'.*does not define"),
        (_slot("t1", "0") + _slot("t2", "abc"), _ann("a1", "t1", "t2", "x ."), "", "TIME_VALUE 'abc'.*milliseconds"),
        (_slot("t1", "0") + _slot("t2", "inf"), _ann("a1", "t1", "t2", "x ."), "", "TIME_VALUE 'inf'"),
        (_slot("t1", "-5") + _slot("t2", "10"), _ann("a1", "t1", "t2", "x ."), "", "TIME_VALUE '-5'"),
        (_slot("t1", "0") + _slot("t2", "1e22"), _ann("a1", "t1", "t2", "x ."), "", "TIME_VALUE '1e22'"),
        (_slot("t1", "900") + _slot("t2", "100"), _ann("a1", "t1", "t2", "x ."), "", "ends .* before it starts"),
        (
            _slot("t1", "0") + _slot("t2", "10"),
            _ann("a1", "t1", "t2", "x ."),
            _ref("w1", "a7", "x"),
            "'a7'.*does not have",
        ),
        (_slot("t1", "0") + _slot("t1", "10"), _ann("a1", "t1", "t1", "x ."), "", "time slot id 't1' is used twice"),
        ('<TIME_SLOT TIME_VALUE="1"/>', "", "", "TIME_SLOT has no TIME_SLOT_ID"),
        (
            # An ALIGNABLE_ANNOTATION without an id is read (an id given, reported); a
            # REF_ANNOTATION without one is refused: its chain cannot be followed safely.
            _slot("t1", "0") + _slot("t2", "10"),
            _ann("a1", "t1", "t2", "x ."),
            '<ANNOTATION><REF_ANNOTATION ANNOTATION_REF="a1"><ANNOTATION_VALUE>x</ANNOTATION_VALUE>'
            "</REF_ANNOTATION></ANNOTATION>",
            "REF_ANNOTATION has no ANNOTATION_ID",
        ),
    ],
)
def test_eaf_references_and_times_are_checked(tmp_path: Path, slots: str, ann: str, words: str, expected: str) -> None:
    _refused(_eaf(tmp_path, slots, ann, words), expected)


def test_eaf_word_pointing_outside_its_parent_tier_is_reported(tmp_path: Path) -> None:
    slots = _slot("t1", "0") + _slot("t2", "10")
    path = _eaf(tmp_path, slots, _ann("a1", "t1", "t2", "so there ."), _ref("w1", "a1", "so") + _ref("w2", "w1", "x"))
    doc = read_document(path)
    assert doc.tokens["text"].tolist() == ["so"]
    (loss,) = [x for x in doc.losses if x.kind == "annotations-dropped"]
    assert loss.where == "w2" and loss.count == 1


def test_eaf_duplicate_tier_ids_are_refused(tmp_path: Path) -> None:
    path = _eaf(tmp_path, _slot("t1", "0") + _slot("t2", "10"), _ann("a1", "t1", "t2", "x ."))
    text = path.read_text().replace("</TIER>\n", '</TIER>\n<TIER LINGUISTIC_TYPE_REF="utt" TIER_ID="A"/>\n', 1)
    path.write_text(text)
    _refused(path, "tier id 'A' is used twice")


def test_eaf_is_never_parsed_by_pympi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One lxml parse only: pympi's ElementTree re-parse took 70 s on a 50 MB attribute."""
    import pympi.Elan

    def boom(*_a, **_k):
        raise AssertionError("pympi parsed the file")

    monkeypatch.setattr(pympi.Elan, "parse_eaf", boom)
    doc = read_document(shared_path("corpora", "eaf", "teicorpo_TestElan2.eaf"))
    assert doc.n_tokens == 195


@pytest.mark.parametrize("where", ["attribute", "annotation"])
def test_eaf_over_long_text_is_refused_at_once(tmp_path: Path, where: str) -> None:
    big = "a" * 10_500_000
    ann = _ann("a1", "t1", "t2", big if where == "annotation" else "x .")
    path = _eaf(tmp_path, _slot("t1", "0") + _slot("t2", "10"), ann)
    if where == "attribute":
        path.write_text(path.read_text().replace('TIER_ID="A"', f'TIER_ID="A" X="{big}"'))
    _refused(path, "not well-formed XML", "limit")


# --- Rezonator -------------------------------------------------------------------------------


def _rez_data() -> dict:
    raw = shared_path("corpora", "rez", "Stack_2.rez").read_bytes().rstrip(b"\x00")
    return json.loads(raw)


def _first_unit(data: dict) -> tuple[dict, str]:
    hdr = data["ROOT"][0]
    nm = hdr["nodeMap"]
    uid = nm[hdr.get("docNode") or hdr["discourseNode"]]["unitList"][0]
    return nm[uid], uid


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda u, nm: u.__setitem__("tagMap", ["not", "an", "object"]), r"\.tagMap: list where a JSON object"),
        (lambda u, nm: u.__setitem__("entryList", {"a": 1}), r"\.entryList: dict where a JSON array"),
        (lambda u, nm: u.__setitem__("unitStart", "inf"), r"\.unitStart: time 'inf' is impossible"),
        (lambda u, nm: u.__setitem__("unitStart", 1e308), r"\.unitStart: .*impossible"),
        (lambda u, nm: u.__setitem__("unitStart", "soon"), r"\.unitStart: 'soon' is not a time"),
        (lambda u, nm: u.__setitem__("unitStart", [1]), r"\.unitStart: list where a time"),
        (lambda u, nm: (u.__setitem__("unitStart", "5"), u.__setitem__("unitEnd", "1")), "ends .* before it starts"),
        (lambda u, nm: nm[nm[u["entryList"][0]]["token"]].__setitem__("tagMap", 7), r"int where a JSON object"),
        (lambda u, nm: u.__setitem__("unitSeq", "first"), r"\.unitSeq: 'first' where a sequence number"),
        (lambda u, nm: nm[nm[u["entryList"][0]]["token"]].__setitem__("tokenSeq", [2]), r"where a sequence number"),
        (
            lambda u, nm: nm[nm[u["entryList"][0]]["token"]]["tagMap"].__setitem__("word", {"x": 1}),
            r"tagMap\.word: dict where text was expected",
        ),
    ],
)
def test_rez_node_types_are_checked(tmp_path: Path, change, expected: str) -> None:
    data = _rez_data()
    unit, _ = _first_unit(data)
    change(unit, data["ROOT"][0]["nodeMap"])
    path = tmp_path / "bad.rez"
    path.write_bytes(json.dumps(data).encode() + b"\x00")
    _refused(path, expected)


def test_rez_header_field_of_wrong_type(tmp_path: Path) -> None:
    data = _rez_data()
    data["ROOT"][0]["participantField"] = ["speaker"]
    path = tmp_path / "bad.rez"
    path.write_bytes(json.dumps(data).encode())
    _refused(path, r"ROOT\[0\]\.participantField", "field name")


# --- native JSON -----------------------------------------------------------------------------


def _native(tmp_path: Path) -> tuple[Path, dict]:
    doc = read_document(shared_path("corpora", "eaf", "teicorpo_clan_short.eaf"))
    path = tmp_path / "d.segagree.json"
    write_document(doc, path)
    return path, json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_native_json_nan_and_infinity_are_refused(tmp_path: Path, constant: str) -> None:
    path, data = _native(tmp_path)
    text = json.dumps(data).replace('"end": [', f'"end": [{constant}, ', 1).replace('"start": [', '"start": [null, ', 1)
    path.write_text(text)
    _refused(path, f"{constant} is not JSON")


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda d: d["tokens"]["start"].__setitem__(0, 1e308), r"tokens/start/0: .*impossible"),
        (lambda d: d["tokens"]["end"].__setitem__(1, -2), r"tokens/end/1: .*impossible"),
        (
            lambda d: d["tokens"].__setitem__("speaker", [9] * len(d["tokens"]["text"])),
            r"tokens/speaker/0: speaker number 9",
        ),
        (lambda d: d.__setitem__("layers", {"iu": 1}), r"layers: not a segagree document"),
        (lambda d: d["tokens"].__setitem__("text", "abc"), r"tokens/text: not a segagree document"),
        (lambda d: d["layers"].append(d["layers"][0]), r"layer names .* not unique"),
    ],
)
def test_native_json_types_and_times_are_checked(tmp_path: Path, edit, expected: str) -> None:
    path, data = _native(tmp_path)
    edit(data)
    path.write_text(json.dumps(data))
    _refused(path, expected)


def test_native_json_deep_nesting_and_huge_integers_are_clean_errors(tmp_path: Path) -> None:
    path = tmp_path / "deep.segagree.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    _refused(path)
    path.write_text('{"n": ' + "9" * 5000 + "}")
    _refused(path)


# --- writers ---------------------------------------------------------------------------------


def _doc(starts, ends, *, speakers=None, texts=None) -> Document:
    n = len(starts)
    tokens = pd.DataFrame(
        {"speaker": ["A"] * n, "text": texts or [f"w{i}" for i in range(n)], "start": starts, "end": ends}
    )
    codes = np.zeros(n, dtype=np.int16)
    if n:
        codes[-1] = DUBOIS.code(".")
    from segagree.model import Layer

    return Document("d", speakers or (["A"] if n else []), tokens, {"iu": Layer("iu", DUBOIS, codes)})


WRITABLE = [".TextGrid", ".eaf", ".segagree.json"]


@pytest.mark.parametrize("ext", WRITABLE)
@pytest.mark.parametrize("bad", [math.inf, 1e308, 1e22, -1.0])
def test_writers_refuse_impossible_times_cleanly(tmp_path: Path, ext: str, bad: float) -> None:
    doc = _doc([0.0, bad], [1.0, 2.0])
    with pytest.raises(SegagreeError, match="impossible"):
        write_document(doc, tmp_path / f"out{ext}")
    assert not list(tmp_path.iterdir())  # nothing half-written


@pytest.mark.parametrize("ext", WRITABLE)
@pytest.mark.parametrize(
    "doc_args",
    [
        ([math.nan, math.nan], [math.nan, math.nan]),  # no times
        ([0.0, math.nan], [math.nan, 800_000.0]),  # large but possible times
        ([5.0, math.nan], [math.nan, 1.0]),  # the unit ends before it starts (tokens out of order)
        ([], []),  # no tokens at all
    ],
)
def test_writers_write_what_a_document_can_hold(tmp_path: Path, ext: str, doc_args) -> None:
    doc = _doc(*doc_args)
    out = tmp_path / f"out{ext}"
    losses = write_document(doc, out)
    if doc.n_tokens:
        back = read_document(out)
        assert back.tokens["text"].tolist() == doc.tokens["text"].tolist()
        if not losses:
            assert doc.differences(back, time_tol=0.0005) == []


@pytest.mark.parametrize("ext", WRITABLE)
def test_writers_handle_empty_speakers_and_odd_tokens(tmp_path: Path, ext: str) -> None:
    doc = _doc([0.0, 1.0, 2.0], [1.0, 2.0, 3.0], speakers=["A", "silent"], texts=["a b", "", "#"])
    out = tmp_path / f"out{ext}"
    losses = write_document(doc, out)
    back = read_document(out)
    if back.differences(doc, time_tol=0.0005):
        assert losses, "a changed document was reported lossless"


@pytest.mark.parametrize("ext", WRITABLE)
def test_writers_handle_a_blank_speaker_name(tmp_path: Path, ext: str) -> None:
    doc = _doc([0.0, 1.0], [1.0, 2.0], speakers=[""])
    doc.tokens["speaker"] = ""
    out = tmp_path / f"out{ext}"
    losses = write_document(doc, out)
    back = read_document(out)
    assert back.tokens["text"].tolist() == ["w0", "w1"]
    if back.differences(doc, time_tol=0.0005):
        assert "speakers-renamed" in losses.kinds()


def test_eaf_writer_refuses_control_characters(tmp_path: Path) -> None:
    doc = _doc([0.0], [1.0], texts=["a\x01b"])
    with pytest.raises(SegagreeError, match="control character"):
        write_document(doc, tmp_path / "out.eaf")


def test_native_writer_reports_meta_json_cannot_hold(tmp_path: Path) -> None:
    doc = _doc([0.0], [1.0])
    doc.meta = {"x": math.inf, "y": {1, 2}, "ok": [1, "a"]}
    out = tmp_path / "out.segagree.json"
    losses = write_document(doc, out)
    assert "meta-changed" in losses.kinds()
    assert read_document(out).meta["ok"] == [1, "a"]


def test_writers_handle_documents_built_by_from_units(tmp_path: Path) -> None:
    units = [{"speaker": "A", "tokens": ["x"], "boundary": DUBOIS.code("."), "start": 1.0, "end": 1.0}]
    doc = from_units("z", units, layer="iu", scheme=DUBOIS)
    for ext in WRITABLE:
        losses = write_document(doc, tmp_path / f"z{ext}")
        back = read_document(tmp_path / f"z{ext}")
        assert back.tokens["text"].tolist() == ["x"]
        if not losses:
            assert doc.differences(back, time_tol=0.0005) == []


def test_textgrid_without_word_tiers_reports_what_labels_cannot_hold(tmp_path: Path) -> None:
    doc = _doc([0.0, 0.4, 0.7], [0.4, 0.7, 1.0], texts=["New York", "is", "big"])
    out = tmp_path / "out.TextGrid"
    losses = write_document(doc, out, word_tiers=False)
    assert {"tokens-changed", "times-dropped"} <= losses.kinds()
    back = read_document(out)
    assert back.differences(doc)  # really changed: the report was needed
    # With word tiers the times are kept, but a word label with a space still reads as two tokens.
    losses = write_document(doc, tmp_path / "words.TextGrid")
    assert losses.kinds() == {"tokens-changed"}
    doc.tokens.loc[0, "text"] = "NewYork"
    assert write_document(doc, tmp_path / "words2.TextGrid").lines() == []
    assert read_document(tmp_path / "words2.TextGrid").differences(doc) == []


def _full_schema_error(data: dict) -> tuple[str, str] | None:
    """What jsonschema alone says of ``data`` (the reference the quick path must reproduce)."""
    from jsonschema.exceptions import best_match

    from segagree.model.native import _validator

    err = best_match(_validator().iter_errors(data))
    if err is None:
        return None
    return err.message[:300], "/".join(str(p) for p in err.absolute_path) or "top level"


_ITEM_EDITS = [
    lambda d: d["tokens"]["text"].__setitem__(3, 5),
    lambda d: d["tokens"]["text"].__setitem__(-1, None),
    lambda d: d["tokens"]["speaker"].__setitem__(2, -1),
    lambda d: d["tokens"]["speaker"].__setitem__(2, True),
    lambda d: d["tokens"]["speaker"].__setitem__(2, 0.0),  # an integral number is a JSON integer
    lambda d: d["tokens"]["speaker"].__setitem__(2, 0.5),
    lambda d: d["tokens"]["speaker"].__setitem__(2, "0"),
    lambda d: d["tokens"]["start"].__setitem__(1, "1.0"),
    lambda d: d["tokens"]["start"].__setitem__(1, False),
    lambda d: d["tokens"]["end"].__setitem__(0, [1]),
    lambda d: d["tokens"].setdefault("extra", {}).__setitem__("k", [{}] * len(d["tokens"]["text"])),
    lambda d: d["tokens"].setdefault("extra", {}).__setitem__("k", [True] * len(d["tokens"]["text"])),
    lambda d: d["layers"][0]["boundaries"].__setitem__(0, 1),
    lambda d: d["layers"][0].__setitem__("boundaries", None),
    lambda d: d["layers"][0].__setitem__("extra_key", 1),
    lambda d: d["tokens"].__setitem__("start", {"0": 1}),
    lambda d: d.__setitem__("speakers", "A"),
    lambda d: None,
]


@pytest.mark.parametrize("edit", range(len(_ITEM_EDITS)))
def test_native_json_quick_item_check_refuses_as_the_schema_does(tmp_path: Path, edit: int) -> None:
    """The per-token arrays are checked by their item types, not item by item through jsonschema
    (ten seconds on 250k tokens); whatever the schema refuses must still be refused with the
    schema's own message and place, and whatever it accepts accepted."""
    from segagree.model.native import _validate

    _, data = _native(tmp_path)
    _ITEM_EDITS[edit](data)
    want = _full_schema_error(data)
    if want is None:
        _validate(data, "d.json")  # accepted by both
        return
    with pytest.raises(InputError) as err:
        _validate(data, "d.json")
    assert err.value.message == f"not a segagree document: {want[0]}"
    assert err.value.place == want[1]
