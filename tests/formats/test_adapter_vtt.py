"""WebVTT adapter: the real webvtt-py test files, synthetic fixtures, round trips, conversions
to and from SRT and ELAN, subtitle scores between an SRT and its WebVTT rendering, and seeded
damage (every damaged file gives a Document or a SegagreeError, nothing else)."""

from __future__ import annotations

import json
import math
import random
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from cli_process import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.errors import InputError, SegagreeError, UsageError
from segagree.formats import read_document, write_document
from segagree.formats import vtt as vtt_adapter
from segagree.model import Document, builtin_scheme, from_units
from segagree.model.losses import LossReport

from conftest import shared_path

DUBOIS = builtin_scheme("dubois")
SUB = builtin_scheme("subtitle")
EOB, EOL = SUB.code("<eob>"), SUB.code("<eol>")


def read(path: Path, **opts) -> Document:
    return vtt_adapter.read(path, scheme=DUBOIS, **opts)


def corpus(name: str) -> Path:
    return shared_path("corpora", "vtt", f"webvtt_{name}.vtt")


def arrow_lines(path: Path) -> int:
    """Independent cue count: lines holding the timing arrow."""
    return sum("-->" in line for line in path.read_bytes().decode("utf-8-sig").splitlines())


def cue_texts(doc: Document) -> list[list[list[str]]]:
    """Cues as lists of lines (token lists), from the subtitle layer."""
    cues: list[list[list[str]]] = [[]]
    for unit, toks in doc.iter_unit_texts("subtitle"):
        cues[-1].append(toks)
        if unit.boundary == EOB:
            cues.append([])
    return cues[:-1]


def round_trip(doc: Document, tmp_path: Path, name: str = "rt.vtt", **read_opts) -> Document:
    out = tmp_path / name
    losses = LossReport()
    vtt_adapter.write(doc, out, losses=losses)
    assert not losses, losses.lines()
    back = read(out, **read_opts)
    assert doc.differences(back) == []
    if "vtt_style" in doc.tokens:
        assert back.tokens["vtt_style"].tolist() == doc.tokens["vtt_style"].tolist()
    assert back.meta["vtt"] == doc.meta["vtt"]
    return back


def write_vtt(tmp_path: Path, text: str, name: str = "x.vtt", crlf: bool = False, bom: bool = False) -> Path:
    if crlf:
        text = text.replace("\n", "\r\n")
    path = tmp_path / name
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


# --- the real files -----------------------------------------------------------------------

READABLE = [
    "sample",
    "captions_with_bom",
    "comments",
    "cue_tags",
    "metadata_headers",
    "metadata_headers_multiline",
    "youtube_dl",
    "styles",
    "using_identifiers",
    "optional_identifiers",
    "missing_caption_text",
    "teams_timeframe",
    "invalid_timeframe_in_cue_text",
    "missing_timeframe",
    "no_captions",
]


@pytest.mark.parametrize("name", READABLE)
def test_real_files_cue_counts_and_round_trip(name: str, tmp_path: Path) -> None:
    path = corpus(name)
    doc = read(path)
    # rolling captions (youtube_dl): flash cues holding only a repeated line are dropped, reported
    flash = sum(loss.count or 0 for loss in doc.losses.losses if loss.kind == "rolling-flash-cues")
    assert flash == (1 if name == "youtube_dl" else 0)
    assert doc.meta["cues"] + doc.meta["empty_cues"] + flash == arrow_lines(path)
    assert int((doc.layer("subtitle").boundaries == EOB).sum()) == doc.meta["cues"]
    back = round_trip(doc, tmp_path)
    # empty cues are written back in place: the written file has as many cues as the original
    assert arrow_lines(tmp_path / "rt.vtt") + flash == arrow_lines(path)
    assert back.meta["cues"] == doc.meta["cues"]


@pytest.mark.parametrize(("name", "cues"), [("sample", 16), ("optional_identifiers", 16), ("using_identifiers", 6)])
def test_caption_text_files(name: str, cues: int) -> None:
    doc = read(corpus(name))
    assert cue_texts(doc) == [[["Caption", "text", f"#{i}"]] for i in range(1, cues + 1)]
    assert doc.speakers == ["SUBTITLE"] and doc.losses.lines() == []
    assert doc.tokens["start"].iloc[0] == 0.5


def test_identifiers_are_kept_by_cue_number(tmp_path: Path) -> None:
    doc = read(corpus("using_identifiers"))
    assert doc.meta["vtt"]["cues"] == {"2": {"identifier": "second caption"}, "4": {"identifier": "4"}}
    round_trip(doc, tmp_path)
    text = (tmp_path / "rt.vtt").read_text(encoding="utf-8")
    assert "\n\nsecond caption\n00:00:07.000 --> 00:00:11.890\nCaption text #2\n" in text


def test_bom_is_read_and_written_back(tmp_path: Path) -> None:
    doc = read(corpus("captions_with_bom"))
    assert doc.meta["encoding"] == "utf-8-sig"
    assert doc.tokens["text"].iloc[0] == "Caption"  # no BOM glued to anything
    assert doc.differences(read(corpus("sample")).select_speakers(["SUBTITLE"])) != []  # 4 cues, not 16
    round_trip(doc, tmp_path)
    assert (tmp_path / "rt.vtt").read_bytes().startswith(b"\xef\xbb\xbfWEBVTT\n")


def test_comments_header_text_dialogue_dashes(tmp_path: Path) -> None:
    doc = read(corpus("comments"))
    assert doc.speakers == ["A", "B"] and doc.meta["speaker_marks"] == "dash"
    units = [(u.speaker, toks) for u, toks in doc.iter_unit_texts("subtitle")]
    assert units[:2] == [("A", ["Ta", "en", "kopp", "varmt", "te."]), ("B", ["Det", "är", "inte", "varmt."])]
    assert doc.layer("subtitle").boundaries.tolist().count(EOL) == 2
    v = doc.meta["vtt"]
    assert v["header_text"] == "- Translation of that film I like"
    assert v["header_comments"] == [
        "This translation was done by Kyle so that\nsome friends can watch it with their parents."
    ]
    assert v["cues"]["3"] == {"identifier": "3", "comments": ["This last line may not translate well."]}
    round_trip(doc, tmp_path)
    text = (tmp_path / "rt.vtt").read_text(encoding="utf-8")
    assert text.startswith("WEBVTT - Translation of that film I like\n\nNOTE\nThis translation was done by Kyle")
    assert "NOTE This last line may not translate well.\n\n3\n00:02:25.000 --> 00:02:30.000\n- Ta en kopp" in text
    assert "- Ta en kopp varmt te.\n- Det är inte varmt." in text


def test_cue_tags_give_word_times_and_styles(tmp_path: Path) -> None:
    doc = read(corpus("cue_tags"))
    t = doc.tokens
    assert t["text"].tolist() == "When the moon hits your eye Like a big-a pizza pie That's amore".split()
    starts = dict(zip(t["text"], t["start"], strict=True))
    assert starts["When"] == 16.5  # the cue timing without hours
    assert (starts["hits"], starts["big-a"], starts["pizza"], starts["pie"], starts["amore"]) == (
        17.5,
        19.0,
        19.5,
        20.0,
        21.0,
    )
    assert math.isnan(starts["moon"])
    assert t["vtt_style"].tolist()[-2:] == ["", "<c.colorE5E5E5>"]
    round_trip(doc, tmp_path)
    text = (tmp_path / "rt.vtt").read_text(encoding="utf-8")
    assert "Like a <00:00:19.000>big-a <00:00:19.500>pizza <00:00:20.000>pie" in text
    assert "That's <c.colorE5E5E5><00:00:21.000>amore</c>" in text


def test_youtube_word_timing_settings_header(tmp_path: Path) -> None:
    doc = read(corpus("youtube_dl"))
    # Rolling captions: the repeated "yeah" and the flash cue repeating the last line are
    # collapsed (reported), so each word is read once, as a viewer sees it.
    assert cue_texts(doc) == [
        [["yeah"]],
        [["what"]],
        [["this", "will", "happen", "is", "I'm", "telling"]],
    ]
    t = doc.tokens
    assert t["start"].tolist()[2:8] == [304.08, 304.199, 304.379, 304.62, 304.86, 305.069]
    assert t["vtt_style"].iloc[4] == "<c.colorE5E5E5><c>"
    v = doc.meta["vtt"]
    assert v["metadata"][:3] == ["Kind: captions", "Language: en", "Style:"] and v["metadata"][-1] == "##"
    assert all(c["settings"] == "align:start position:0%" for c in v["cues"].values()) and len(v["cues"]) == 3
    round_trip(doc, tmp_path)
    text = (tmp_path / "rt.vtt").read_text(encoding="utf-8")
    assert "00:05:04.080 --> 00:05:05.069 align:start position:0%\nthis <c><00:05:04.199>will</c>" in text


def test_style_blocks_kept_and_markup_inside_a_word_reported(tmp_path: Path) -> None:
    doc = read(corpus("styles"))
    assert [s["text"] for s in doc.meta["vtt"]["styles"]] == [
        "::cue {\n  background-image: linear-gradient(to bottom, dimgray, lightgray);\n  color: papayawhip;\n}",
        "::cue(b) {\n  color: peachpuff;\n}",
    ]
    assert doc.tokens["text"].tolist() == ["Hello", "world."] and doc.speakers == ["A"]
    assert doc.losses.kinds() == {"markup-inside-word"}  # '.' is outside <b>, the word takes <b>
    round_trip(doc, tmp_path)
    assert "STYLE\n::cue(b) {\n  color: peachpuff;\n}" in (tmp_path / "rt.vtt").read_text(encoding="utf-8")


def test_teams_voices_are_speakers_and_lenient_times_are_reported(tmp_path: Path) -> None:
    doc = read(corpus("teams_timeframe"))
    assert doc.speakers == ["Yuri Bakulin", "Adrian Petrescu"]
    assert doc.token_texts() == {
        "Yuri Bakulin": ["There", "you", "go."],
        "Adrian Petrescu": "Why hello there, Yuri.".split(),
    }
    assert doc.tokens["start"].tolist()[3] == 0.21 and doc.tokens["end"].iloc[2] == 0.57
    assert doc.losses.kinds() == {"repaired"}
    round_trip(doc, tmp_path)
    text = (tmp_path / "rt.vtt").read_text(encoding="utf-8")
    assert "00:00:00.210 --> 00:00:01.130\n<v Adrian Petrescu>Why hello there, Yuri.</v>" in text


def test_empty_cues_are_kept_in_meta_and_written_back(tmp_path: Path) -> None:
    doc = read(corpus("missing_caption_text"))
    assert doc.meta["cues"] == 4 and doc.meta["empty_cues"] == 1
    assert doc.meta["vtt"]["empty_cues"] == [{"after": 1, "start": "00:00:07.000", "end": "00:00:11.890", "lines": []}]
    round_trip(doc, tmp_path)
    assert "Caption text #1\n\n00:00:07.000 --> 00:00:11.890\n\n00:00:11.890" in (tmp_path / "rt.vtt").read_text(
        encoding="utf-8"
    )
    # a second timing line inside a cue's text starts a new cue (the WebVTT block rules)
    doc = read(corpus("invalid_timeframe_in_cue_text"))
    assert doc.meta["empty_cues"] == 1 and cue_texts(doc)[1] == [["Caption", "text", "#2"]]


def test_text_block_without_timing_is_reported() -> None:
    doc = read(corpus("missing_timeframe"))
    assert doc.meta["cues"] == 6 and "#2" not in doc.tokens["text"].tolist()
    (loss,) = doc.losses
    assert loss.kind == "block-ignored" and loss.where == "line 6" and loss.count == 1


def test_only_the_header_is_an_empty_document(tmp_path: Path) -> None:
    doc = read_document(corpus("no_captions"))
    assert doc.n_tokens == 0 and doc.speakers == ["SUBTITLE"] and doc.layer("subtitle").boundaries.size == 0
    back = round_trip(doc, tmp_path)
    assert back.n_tokens == 0
    assert (tmp_path / "rt.vtt").read_text(encoding="utf-8") == "WEBVTT\n"


def test_empty_files_compare(tmp_path: Path) -> None:
    empty = corpus("no_captions")
    proc = _segagree("compare", str(empty), str(empty), "--metric", "subtitles")  # the table, no words
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"ALL\s.*\s0\s", proc.stdout), proc.stdout  # the pooled row: 0 tokens
    proc = _segagree("compare", str(corpus("sample")), str(empty))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert f"{empty} has no words" in proc.stderr


@pytest.mark.parametrize(
    ("name", "place", "what"),
    [
        ("invalid", "line 1", "no WebVTT signature"),
        ("invalid_timeframe", "cue 2, line 6", "malformed cue timing line '00:00:07.000 --> 00:00:1d.890'"),
    ],
)
def test_refused_real_files(name: str, place: str, what: str) -> None:
    path = corpus(name)
    with pytest.raises(InputError) as err:
        read(path)
    msg = str(err.value)
    assert msg.startswith(f"{path}: {place}: ") and what in msg and "\n" not in msg


# --- synthetic fixtures -------------------------------------------------------------------

PLAIN = """WEBVTT

00:00:01.000 --> 00:00:02.500
Hello there,
how are you?

00:00:03.000 --> 00:00:04.000
Fine &amp; you?
"""


@pytest.mark.parametrize(("crlf", "bom"), [(False, False), (True, False), (True, True)])
def test_line_ends_bom_entities(crlf: bool, bom: bool, tmp_path: Path) -> None:
    doc = read(write_vtt(tmp_path, PLAIN, crlf=crlf, bom=bom))
    assert cue_texts(doc) == [[["Hello", "there,"], ["how", "are", "you?"]], [["Fine", "&", "you?"]]]
    assert doc.layer("subtitle").boundaries.tolist() == [0, EOL, 0, 0, EOB, 0, 0, EOB]
    assert doc.meta["line_endings"] == ("CRLF" if crlf else "LF")
    assert np.isnan(doc.tokens["end"].iloc[1]) and doc.tokens["end"].iloc[4] == 2.5
    round_trip(doc, tmp_path)
    raw = (tmp_path / "rt.vtt").read_bytes()
    assert (b"\r\n" in raw) == crlf and raw.startswith(b"\xef\xbb\xbf") == bom
    assert b"Fine &amp; you?" in raw


def test_regions_notes_styles_settings_round_trip(tmp_path: Path) -> None:
    text = (
        "WEBVTT\nLanguage: fr\n\n"
        "NOTE about the regions\n\n"
        "REGION\nid:fred\nwidth:40%\n\n"
        "NOTE before the style\n\n"
        "STYLE\n::cue(.loud) { color: red; }\n\n"
        "intro\n00:00:01.000 --> 00:00:02.000 region:fred align:left line:-1\n<c.loud>Bonjour</c> à tous.\n\n"
        "NOTE an empty cue follows\n\n"
        "00:00:02.000 --> 00:00:03.000 position:10%\n<i> </i>\n\n"
        "REGION\nid:late\n\n"
        "00:00:03.000 --> 00:00:04.000\nFin.\n\n"
        "NOTE the end\n"
    )
    doc = read(write_vtt(tmp_path, text))
    assert cue_texts(doc) == [[["Bonjour", "à", "tous."]], [["Fin."]]]
    v = doc.meta["vtt"]
    assert v["metadata"] == ["Language: fr"] and v["header_comments"] == ["about the regions"]
    assert v["regions"] == [{"settings": "id:fred width:40%", "comments": []}]
    assert v["styles"] == [{"text": "::cue(.loud) { color: red; }", "comments": ["before the style"]}]
    assert v["cues"] == {"1": {"identifier": "intro", "settings": "region:fred align:left line:-1"}}
    assert v["empty_cues"] == [
        {
            "after": 1,
            "start": "00:00:02.000",
            "end": "00:00:03.000",
            "lines": ["<i> </i>"],
            "settings": "position:10%",
            "comments": ["an empty cue follows"],
        }
    ]
    assert v["footer_comments"] == ["the end"]
    (loss,) = doc.losses  # a REGION after the first cue is ignored, as WebVTT says
    assert loss.kind == "block-ignored" and loss.where == "line 24"
    round_trip(doc, tmp_path)
    written = (tmp_path / "rt.vtt").read_text(encoding="utf-8")
    assert "REGION\nid:fred\nwidth:40%" in written and "NOTE the end" in written
    assert "intro\n00:00:01.000 --> 00:00:02.000 region:fred align:left line:-1\n<c.loud>Bonjour</c> à tous." in written


def test_same_text_as_srt_gives_the_same_document(tmp_path: Path) -> None:
    srt_text = (
        "1\n00:00:01,000 --> 00:00:02,500\nHello there,\nhow are you?\n\n"
        "2\n00:00:03,000 --> 00:00:04,000\nFine & you?\n"
    )
    (tmp_path / "x.srt").write_text(srt_text, encoding="utf-8")
    assert read_document(tmp_path / "x.srt").differences(read(write_vtt(tmp_path, PLAIN))) == []


def test_voices_lines_and_several_voices_in_a_line(tmp_path: Path) -> None:
    text = (
        "WEBVTT\n\n"
        "00:00:01.000 --> 00:00:03.000\n<v Joe>Who is\nthere?</v>\n\n"
        "00:00:03.000 --> 00:00:05.000\n<v.loud Ann>Me.</v> <v Joe>Oh,\n<i>hi</i>.\n\n"
        "00:00:05.000 --> 00:00:06.000\nNobody.\n"
    )
    doc = read(write_vtt(tmp_path, text))
    assert doc.speakers == ["Joe", "Ann", "SUBTITLE"]
    units = [(u.speaker, toks, doc.layer("subtitle").boundaries[u.rows[-1]]) for u, toks in doc.iter_unit_texts()]
    assert units == [
        ("Joe", ["Who", "is"], EOL),  # the voice span goes on over the line break
        ("Joe", ["there?"], EOB),
        ("Ann", ["Me."], EOL),  # a voice span of its own on the shared line
        ("Joe", ["Oh,"], EOL),
        ("Joe", ["hi."], EOB),  # the open voice lasts to the end of the cue
        ("SUBTITLE", ["Nobody."], EOB),
    ]
    assert doc.losses.kinds() == {"lines-split", "voice-classes", "markup-inside-word"}
    assert doc.meta["speaker_marks"] == "voice"
    back = round_trip_with_report(doc, tmp_path)
    assert back.speakers == doc.speakers
    written = (tmp_path / "rt.vtt").read_text(encoding="utf-8")
    assert "<v Ann>Me.</v>\n<v Joe>Oh,</v>\n<v Joe><i>hi.</i></v>\n\n" in written


def round_trip_with_report(doc: Document, tmp_path: Path) -> Document:
    """A write whose report is empty reads back equal (read-side losses were reported on reading)."""
    out = tmp_path / "rt.vtt"
    losses = LossReport()
    vtt_adapter.write(doc, out, losses=losses)
    back = read(out)
    assert not losses, losses.lines()
    assert doc.differences(back) == []
    return back


def test_bad_timings_name_the_cue_and_line(tmp_path: Path) -> None:
    backwards = PLAIN.replace("00:00:03.000 --> 00:00:04.000", "00:00:05.000 --> 00:00:04.000")
    with pytest.raises(InputError, match=r"cue 2, line 7: cue ends before it starts .*expected start <= end"):
        read(write_vtt(tmp_path, backwards))
    unordered = PLAIN.replace("00:00:03.000 --> 00:00:04.000", "00:00:00.500 --> 00:00:04.000")
    with pytest.raises(InputError, match=r"cue 2, line 7: cue starts \(00:00:00.500\) before the previous cue"):
        read(write_vtt(tmp_path, unordered))
    doc = read(write_vtt(tmp_path, unordered), allow_unordered=True)
    assert doc.tokens["start"].iloc[5] == 0.5
    losses = LossReport()
    vtt_adapter.write(doc, tmp_path / "u.vtt", losses=losses)
    assert losses.kinds() == {"cues-unordered"}
    negative = PLAIN.replace("00:00:03.000 --> 00:00:04.000", "-00:00:03.000 --> 00:00:04.000")
    with pytest.raises(InputError, match=r"cue 2, line 7: malformed cue timing line"):
        read(write_vtt(tmp_path, negative))
    minutes = PLAIN.replace("00:00:03.000", "00:61:03.000")
    with pytest.raises(InputError, match=r"cue 2, line 7: malformed cue timing line '00:61:03.000"):
        read(write_vtt(tmp_path, minutes))
    stamp = PLAIN.replace("Fine &amp;", "Fine <00:00:09.000>&amp;")
    with pytest.raises(InputError, match=r"cue 2, line 7: timestamp tag 9.000 s lies outside its cue"):
        read(write_vtt(tmp_path, stamp))
    (tmp_path / "latin.vtt").write_bytes(PLAIN.replace("Fine", "Très").encode("cp1252"))
    with pytest.raises(InputError, match="not UTF-8"):
        read(tmp_path / "latin.vtt")
    (tmp_path / "empty.vtt").write_bytes(b"")
    with pytest.raises(InputError, match="empty file"):
        read(tmp_path / "empty.vtt")
    with pytest.raises(UsageError):
        read(write_vtt(tmp_path, PLAIN), speakers=True)


def test_markup_dropped_is_reported(tmp_path: Path) -> None:
    text = (
        "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n"
        "<00:00:01.500><00:00:01.600>two <blink>stamps</blink> pi<00:00:01.900>zza<00:00:01.950>\n"
    )
    doc = read(write_vtt(tmp_path, text))
    assert doc.tokens["text"].tolist() == ["two", "stamps", "pizza"]
    starts = doc.tokens["start"].tolist()
    assert starts[0] == 1.0 and np.isnan(starts[1]) and np.isnan(starts[2])
    kinds = {loss.kind: loss.count for loss in doc.losses}
    # 1.500 superseded by 1.600, which differs from the cue start; 1.900 inside a word; 1.950 after the last
    assert kinds == {"timestamp-dropped": 4, "tag-dropped": 2}


def test_writer_from_srt_styles_speakers_and_invented_times(tmp_path: Path) -> None:
    srt_text = (
        '1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<i>Who\'s</i> <B>there</B>?\n<font color="red">Me.</font>\n\n'
        "2\n00:00:02,000 --> 00:00:03,000\nMAN: Hi.\n"
    )
    (tmp_path / "s.srt").write_text(srt_text, encoding="utf-8")
    doc = read_document(tmp_path / "s.srt")
    losses = write_document(doc, tmp_path / "s.vtt")
    assert {(loss.kind, loss.count) for loss in losses} == {("style-dropped", 2)}
    written = (tmp_path / "s.vtt").read_text(encoding="utf-8")
    assert "<i>Who's</i> <b>there?</b>\nMe.\n" in written and "<v MAN>Hi.</v>" in written
    assert read_document(tmp_path / "s.vtt").differences(doc) == []
    # a plain-text document has no times
    units = [{"speaker": "x", "tokens": ["a", "b"], "boundary": 1}, {"speaker": "y", "tokens": ["c"], "boundary": 2}]
    plain = from_units("nt", units, layer="iu", scheme=DUBOIS)
    losses = LossReport()
    vtt_adapter.write(plain, tmp_path / "nt.vtt", losses=losses)
    # (``b,`` and ``c.`` read back as words: tokens-changed)
    assert losses.kinds() == {"times-invented", "layer-dropped", "tokens-changed"}
    text = (tmp_path / "nt.vtt").read_text(encoding="utf-8")
    assert "00:00:00.000 --> 00:00:01.000\n<v x>a b,</v>\n\n00:00:01.000 --> 00:00:02.000\n<v y>c.</v>" in text
    with pytest.raises(UsageError):
        vtt_adapter.write(plain, tmp_path / "nt.vtt", losses=LossReport(), speaker_marks="labels")


def test_writer_reports_what_does_not_read_back(tmp_path: Path) -> None:
    units = [
        {"speaker": "Dr  Who", "tokens": ["Hi."], "boundary": EOB, "start": 1.0, "end": 2.0},
        {"speaker": "SUBTITLE", "tokens": ["-5", "degrees"], "boundary": EOB, "start": 2.0, "end": 3.0},
    ]
    doc = from_units("odd", units, layer="subtitle", scheme=SUB)
    losses = LossReport()
    vtt_adapter.write(doc, tmp_path / "odd.vtt", losses=losses)
    (loss,) = losses
    assert loss.kind == "round-trip" and "speakers" in loss.message
    back = read(tmp_path / "odd.vtt")
    # The voice keeps its run of spaces (written as a character reference); '-5' reads
    # as a dialogue dash, reported above.
    assert back.speakers == ["Dr  Who", "A"]
    assert "<v Dr&#32;&#32;Who>" in (tmp_path / "odd.vtt").read_text(encoding="utf-8")
    # word end times inside a cue have no place in WebVTT
    timed = from_units(
        "w",
        [{"speaker": "S", "tokens": ["a", "b"], "boundary": EOB, "token_starts": [0.0, 0.4], "token_ends": [0.3, 1.0]}],
        layer="subtitle",
        scheme=SUB,
    )
    losses = LossReport()
    vtt_adapter.write(timed, tmp_path / "w.vtt", losses=losses)
    assert losses.kinds() == {"times-dropped"}
    assert "00:00:00.000 --> 00:00:01.000\n<v S>a <00:00:00.400>b</v>" in (tmp_path / "w.vtt").read_text(
        encoding="utf-8"
    )


# --- conversions and scores ---------------------------------------------------------------


def _segagree(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(args)  # the command line in a fork of this process (tests/cli_process.py)


@pytest.mark.parametrize("name", ["sintel_en.srt", "pysrt_bom-utf-8.srt", "pysrt_capability_tester.srt"])
def test_srt_to_vtt_to_srt(name: str, tmp_path: Path) -> None:
    src = shared_path("corpora", "srt", name)
    doc = read_document(src)
    losses = write_document(doc, tmp_path / "a.vtt")
    vtt_doc = read_document(tmp_path / "a.vtt")
    assert vtt_doc.differences(doc) == []
    assert losses.kinds() <= {"style-dropped", "meta-dropped"}
    write_document(vtt_doc, tmp_path / "b.srt")
    assert read_document(tmp_path / "b.srt").differences(doc) == []


@pytest.mark.parametrize("name", ["teams_timeframe", "comments", "youtube_dl"])
def test_vtt_to_srt_and_eaf_and_back(name: str, tmp_path: Path) -> None:
    doc = read_document(corpus(name))
    losses = write_document(doc, tmp_path / "x.srt")
    assert ("meta-dropped" in losses.kinds()) == (name != "teams_timeframe")  # Teams: nothing kept in meta
    back = read_document(tmp_path / "x.srt")
    if name == "teams_timeframe":  # SRT has no voices; 'Yuri Bakulin: ' labels are not read back as speakers
        assert "speakers-merged" in losses.kinds()
    elif name == "youtube_dl":  # SRT has no word times
        assert "times-dropped" in losses.kinds()
        assert back.differences(doc) == [f"token 3 start: nan != {doc.tokens['start'].iloc[3]}"]
    else:
        assert back.differences(doc) == []
    write_document(doc, tmp_path / "x.eaf")
    eaf = read_document(tmp_path / "x.eaf")
    assert sorted(eaf.token_texts()) == sorted(doc.token_texts())
    losses = write_document(eaf, tmp_path / "y.vtt")
    again = read_document(tmp_path / "y.vtt")
    assert again.token_texts() == eaf.token_texts() and "layer-dropped" in losses.kinds()


def test_subtitle_scores_between_an_srt_and_its_vtt_are_perfect(tmp_path: Path) -> None:
    src = shared_path("corpora", "srt", "sintel_en.srt")
    proc = _segagree("convert", str(src), "-o", str(tmp_path / "sintel.vtt"))
    assert proc.returncode == 0 and "lossless" in proc.stdout + proc.stderr, proc.stderr
    proc = _segagree("compare", str(src), str(tmp_path / "sintel.vtt"), "--metric", "subtitles", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["sf"] == 1.0 and out["n_tokens"] == 110
    m = out["metrics"]
    for name in ("f1_eob", "f1_eol", "f1_eox"):
        assert m[name]["value"] == 1.0, name
    assert m["bleu_br"]["value"] == pytest.approx(100.0) and m["bleu_nb"]["value"] == pytest.approx(100.0)
    assert m["ter_br"]["value"] == 0.0
    suber = m.get("suber")
    assert suber is None or suber["value"] == 0.0


# --- damage -------------------------------------------------------------------------------


def _damage(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    kind = rng.randrange(5)
    if kind == 0 and data:  # truncation
        return data[: rng.randrange(len(data))]
    if kind == 1 and data:  # bit flips
        buf = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(buf))
            buf[i] ^= 1 << rng.randrange(8)
        return bytes(buf)
    if kind == 2 and len(lines) > 1:  # a deleted line
        del lines[rng.randrange(len(lines))]
    elif kind == 3:  # a duplicated line
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    else:  # a swapped pair of lines
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def test_damaged_files_give_a_document_or_a_clean_error(tmp_path: Path) -> None:
    names = [n for n in READABLE if n != "no_captions"]
    sources = [corpus(n).read_bytes() for n in names] + [PLAIN.encode()]
    rng = random.Random(20261123)
    outcomes = {"document": 0, "error": 0}
    for case in range(300):
        data = _damage(sources[case % len(sources)], rng)
        path = tmp_path / f"d{case}.vtt"
        path.write_bytes(data)
        try:
            doc = read_document(path)
        except SegagreeError as err:
            assert str(path) in str(err) and "\n" not in str(err), str(err)
            outcomes["error"] += 1
            continue
        outcomes["document"] += 1
        # whatever was read writes and reads back; a write with an empty report reads back equal
        out = tmp_path / f"o{case}.vtt"
        losses = write_document(doc, out)
        back = read_document(out, allow_unordered=True)
        if not losses:
            assert doc.differences(back) == [], (case, data)
    assert outcomes["document"] > 75 and outcomes["error"] > 40, outcomes


def test_registry_knows_vtt() -> None:
    from segagree.formats import format_for

    assert format_for("movie.VTT").name == "vtt"
    assert re.search(r"\bvtt\b", _segagree("formats").stdout)


# --- properties -----------------------------------------------------------------------------

WORDS = st.sampled_from(
    ["so", "Très", "-", "-5", "--", "&", "a&b", "<i>", "x>y", "-->", "MAN:", "Note:", "NOTE", "ok."]
)
SPEAKERS = st.sampled_from(["SUBTITLE", "A", "B", "Joe", "Dr. Who", "x  y"])


@st.composite
def subtitle_documents(draw: st.DrawFn) -> Document:
    units = []
    t = 0.0
    for _ in range(draw(st.integers(1, 6))):  # cues
        n_lines = draw(st.integers(1, 3))
        start = t + draw(st.sampled_from([0.0, 0.25, 1.0]))
        end = start + draw(st.sampled_from([0.0, 0.5, 2.0]))
        timed = draw(st.booleans())
        for k in range(n_lines):
            unit = {
                "speaker": draw(SPEAKERS),
                "tokens": draw(st.lists(WORDS, min_size=1, max_size=4)),
                "boundary": EOB if k == n_lines - 1 else EOL,
            }
            if timed and k == 0:
                unit["start"] = start
            if timed and k == n_lines - 1:
                unit["end"] = end
            units.append(unit)
        t = end
    return from_units("p", units, layer="subtitle", scheme=SUB)


@given(subtitle_documents())
@settings(max_examples=150)
def test_written_files_read_back_equal_or_report_the_difference(doc: Document) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "p.vtt"
        losses = LossReport()
        vtt_adapter.write(doc, out, losses=losses)
        back = read(out, allow_unordered=True)
        if not losses:
            assert doc.differences(back) == []
        else:
            assert losses.kinds() <= {"times-invented", "round-trip", "speakers-merged"}, losses.lines()
        if "round-trip" not in losses.kinds():
            assert back.tokens["text"].tolist() == doc.tokens["text"].tolist()


@given(st.lists(st.lists(st.lists(WORDS, min_size=1, max_size=3), min_size=1, max_size=3), min_size=1, max_size=5))
@settings(max_examples=100)
def test_the_same_cues_as_srt_and_as_vtt_read_the_same(cues: list[list[list[str]]]) -> None:
    """Plain cue text (no tags) means the same in both formats: equal Documents."""
    import tempfile

    srt_parts, vtt_parts = [], ["WEBVTT", ""]
    for i, lines in enumerate(cues):
        text = "\n".join(" ".join(w for w in line) for line in lines)
        if "<" in text or ">" in text or "&" in text:  # markup in WebVTT, words in SRT
            text = text.replace("<", "").replace(">", "").replace("&", "and")
        if not text.replace("\n", "").strip() or "-->" in text:
            continue
        srt_parts += [str(i + 1), f"00:00:{i:02d},000 --> 00:00:{i:02d},500", text, ""]
        vtt_parts += [f"00:00:{i:02d}.000 --> 00:00:{i:02d}.500", text, ""]
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "a.srt").write_text("\n".join(srt_parts), encoding="utf-8")
        (Path(tmp) / "a.vtt").write_text("\n".join(vtt_parts), encoding="utf-8")
        a, b = read_document(Path(tmp) / "a.srt"), read_document(Path(tmp) / "a.vtt")
    assert a.differences(b) == []
