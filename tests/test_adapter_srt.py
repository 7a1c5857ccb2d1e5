"""SubRip adapter: the seven real sample files, synthetic fixtures, round trips."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from segagree.adapters import srt as srt_adapter
from segagree.adapters.base import LossReport
from segagree.errors import InputError, UsageError
from segagree.schemas import Document, builtin_scheme, from_units

from conftest import shared_path

DUBOIS = builtin_scheme("dubois")
SUB = builtin_scheme("subtitle")
EOB, EOL = SUB.code("<eob>"), SUB.code("<eol>")


def read(path: Path, **opts) -> Document:
    return srt_adapter.read(path, scheme=DUBOIS, **opts)


def corpus(name: str) -> Path:
    return shared_path("corpora", "srt", name)


def cue_texts(doc: Document) -> list[list[list[str]]]:
    """Cues as lists of lines (token lists), from the subtitle layer."""
    cues: list[list[list[str]]] = [[]]
    for unit, toks in doc.iter_unit_texts("subtitle"):
        cues[-1].append(toks)
        if unit.boundary == EOB:
            cues.append([])
    return cues[:-1]


def counts(doc: Document) -> tuple[int, int]:
    b = doc.layer("subtitle").boundaries
    return int((b == EOB).sum()), int((b == EOL).sum())


def round_trip(doc: Document, tmp_path: Path, **read_opts) -> Document:
    out = tmp_path / "rt.srt"
    losses = LossReport()
    srt_adapter.write(doc, out, losses=losses)
    assert not losses, losses.lines()
    back = read(out, **read_opts)
    assert doc.differences(back) == []
    if "style" in doc.tokens:
        assert back.tokens["style"].tolist() == doc.tokens["style"].tolist()
    return back


# --- the real files -----------------------------------------------------------------------


def test_sintel_multiline_cues_crlf(tmp_path: Path) -> None:
    doc = read(corpus("sintel_en.srt"))
    assert doc.source_format == "srt" and list(doc.layers) == ["subtitle"]
    assert doc.speakers == ["SUBTITLE"]
    assert doc.meta["encoding"] == "utf-8" and doc.meta["line_endings"] == "CRLF"
    assert counts(doc) == (26, 4) and doc.n_tokens == 110
    cues = cue_texts(doc)
    assert cues[0] == [["This", "blade", "has", "a", "dark", "past."]]
    assert cues[2] == [["You're", "a", "fool", "for", "traveling", "alone,"], ["so", "completely", "unprepared."]]
    assert cues[-1] == [["Scales..."]]
    # cue 3: start on "You're", end on "unprepared.", the <eol> line's end left NaN
    t = doc.tokens
    first = t.index[t["text"] == "You're"][0]
    assert t.loc[first, "start"] == 148.0
    assert math.isnan(t.loc[first + 5, "end"]) and math.isnan(t.loc[first + 6, "start"])
    assert t.loc[first + 8, "end"] == 151.45
    assert t["start"].iloc[0] == 137.25 and t["end"].iloc[-1] == 659.8
    round_trip(doc, tmp_path)


@pytest.mark.parametrize(
    ("name", "encoding"),
    [("pysrt_bom-utf-8.srt", "utf-8-sig"), ("pysrt_bom-utf-16-le.srt", "utf-16-le")],
)
def test_bom_files(name: str, encoding: str, tmp_path: Path) -> None:
    doc = read(corpus(name))
    assert doc.meta["encoding"] == encoding and doc.meta["cues"] == 7
    assert counts(doc) == (7, 7) and doc.n_tokens == 111
    cues = cue_texts(doc)
    assert cues[0][0][0] == "About"  # no BOM glued to the first token
    assert len(cues[2]) == 5  # the 5-line cue
    assert cues[-1][0][-3:] == ["global", "awareness", "day"]
    round_trip(doc, tmp_path)


def test_utf8_and_utf16_give_the_same_document() -> None:
    a = read(corpus("pysrt_bom-utf-8.srt"))
    b = read(corpus("pysrt_bom-utf-16-le.srt"))
    assert a.differences(b) == []


def test_no_indexes(tmp_path: Path) -> None:
    doc = read(corpus("pysrt_no-indexes.srt"))
    assert doc.meta["missing_indexes"] == 7 and doc.meta["cues"] == 7
    assert doc.differences(read(corpus("pysrt_bom-utf-8.srt"))) == []
    back = round_trip(doc, tmp_path)
    assert back.meta["missing_indexes"] == 0  # written with indexes 1..7


def test_empty_cues_are_skipped_and_counted(tmp_path: Path) -> None:
    doc = read(corpus("pysrt_empty.srt"))
    assert doc.meta["empty_cues"] == 2 and doc.meta["cues"] == 5
    assert counts(doc) == (5, 3) and doc.n_tokens == 82
    cues = cue_texts(doc)
    assert cues[2] == [
        [
            "and",
            "hinder",
            "progress,",
            "and",
            "one",
            "of",
            "the",
            "responses",
            "I",
            "got,",
            "I",
            "didn't",
            "answer",
            "it,",
            "was:",
        ]
    ]
    assert doc.tokens["start"].iloc[doc.n_tokens - 20] == 43.0
    round_trip(doc, tmp_path)


def test_invalid_timestamp_is_one_line_error() -> None:
    path = corpus("pysrt_invalid.srt")
    with pytest.raises(InputError) as err:
        read(path)
    msg = str(err.value)
    assert msg.startswith(f"{path}: cue 1 (index 1), line 2: malformed timing line")
    assert "'00:00:01 --> 00:00:10'" in msg and "\n" not in msg
    doc = read(path, allow_missing_ms=True)
    assert cue_texts(doc) == [[["This", "subtitle", "is", "invalid"]]]
    assert doc.tokens["end"].iloc[-1] == 10.0


def test_capability_tester_styles_positions_overlaps(tmp_path: Path) -> None:
    doc = read(corpus("pysrt_capability_tester.srt"))
    assert doc.meta["encoding"] == "utf-8-sig" and doc.meta["line_endings"] == "CRLF"
    assert doc.meta["cues"] == 37 and doc.meta["empty_cues"] == 0
    assert counts(doc) == (37, 61) and doc.n_tokens == 584
    assert doc.speakers == ["SUBTITLE"]  # "Show this:" / "Hide these tags:" are not labels
    assert doc.meta["cue_proprietary"] == {"10": "X1:000 X2:000 Y1:050 Y2:100"}
    t = doc.tokens
    assert not t["text"].str.contains(r"</?(?:b|i|u|s|font)\b", case=False).any()  # stripped ...
    assert "<invalid_tag>hide" in t["text"].tolist()  # ... unknown tags kept as text
    use = t.index[t["text"] == "Use"][0]
    assert t.loc[use, "style"] == "<b><i>"
    most = t.index[t["text"] == "most"][-1]  # cue 20's m<font>o</font>st
    assert t.loc[most, "style"] == '<font color="#00FF00" size="6"><font size="35">'
    cues = cue_texts(doc)
    assert cues[10][0][0] == "Implementation"
    impl = t.index[t["text"] == "Implementation"][0]
    assert t.loc[impl, "style"] == "{\\an8}"  # the cue's ASS block, on its first token
    # zero-length cues are kept (srt.compose would drop them unless told not to)
    assert cues[0][0][:2] == ["Don't", "show"] and t["start"].iloc[0] == t["end"].iloc[11] == 0.0
    back = round_trip(doc, tmp_path)
    assert back.meta["cue_proprietary"] == doc.meta["cue_proprietary"]
    text = (tmp_path / "rt.srt").read_text(encoding="utf-8")
    assert "<b><i>Use VLC 1.1" in text and "others</i></b>" in text
    assert "00:00:22,500 X1:000 X2:000 Y1:050 Y2:100" in text
    assert "{\\an8}Implementation" in text


# --- synthetic fixtures -------------------------------------------------------------------

PLAIN = """1
00:00:01,000 --> 00:00:02,500
Hello there,
how are you?

2
00:00:03,000 --> 00:00:04,000
Fine.
"""


def write_srt(
    tmp_path: Path, text: str, name: str = "x.srt", encoding: str = "utf-8", bom: bytes = b"", crlf: bool = False
) -> Path:
    if crlf:
        text = text.replace("\n", "\r\n")
    path = tmp_path / name
    path.write_bytes(bom + text.encode(encoding))
    return path


def test_bad_timestamp_names_the_cue(tmp_path: Path) -> None:
    bad = PLAIN.replace("00:00:03,000 --> 00:00:04,000", "00:00:03,000 --> 00:0x:04,000")
    path = write_srt(tmp_path, bad)
    with pytest.raises(InputError) as err:
        read(path)
    assert str(err.value).startswith(f"{path}: cue 2 (index 2), line 7: malformed timing line")
    backwards = PLAIN.replace("00:00:03,000 --> 00:00:04,000", "00:00:05,000 --> 00:00:04,000")
    with pytest.raises(InputError, match="cue 2 .*line 7: cue ends before it starts"):
        read(write_srt(tmp_path, backwards))
    junk = "junk before the first cue\n\n" + PLAIN
    with pytest.raises(InputError, match="cue 1, line 1: cannot parse SubRip text 'junk"):
        read(write_srt(tmp_path, junk))
    # srt's documented leniency: text after a blank line inside a cue stays in that cue
    stray = PLAIN + "\nsome stray text\n"
    assert cue_texts(read(write_srt(tmp_path, stray)))[-1] == [["Fine."], ["some", "stray", "text"]]


@pytest.mark.parametrize(
    ("encoding", "bom", "crlf"),
    [
        ("utf-8", b"", False),
        ("utf-8", b"", True),
        ("utf-8", b"\xef\xbb\xbf", True),
        ("utf-16-le", b"\xff\xfe", True),
        ("utf-16-be", b"\xfe\xff", False),
        ("cp1252", b"", True),
    ],
)
def test_encodings_and_line_ends(encoding: str, bom: bytes, crlf: bool, tmp_path: Path) -> None:
    text = PLAIN.replace("Fine.", "Très bien.")
    doc = read(write_srt(tmp_path, text, encoding=encoding, bom=bom, crlf=crlf))
    assert cue_texts(doc) == [[["Hello", "there,"], ["how", "are", "you?"]], [["Très", "bien."]]]
    assert doc.meta["line_endings"] == ("CRLF" if crlf else "LF")
    assert doc.meta["encoding"] == (encoding if not bom or encoding != "utf-8" else "utf-8-sig")
    assert doc.layer("subtitle").boundaries.tolist() == [0, EOL, 0, 0, EOB, 0, EOB]
    assert doc.tokens["start"].tolist()[0] == 1.0 and doc.tokens["end"].tolist()[4] == 2.5
    assert np.isnan(doc.tokens["end"].tolist()[1])


def test_missing_index_and_empty_cue(tmp_path: Path) -> None:
    text = (
        "00:00:01,000 --> 00:00:02,000\nOne.\n\n"
        "2\n00:00:02,000 --> 00:00:03,000\n\n\n"
        "3\n00:00:03,000 --> 00:00:04,000\n<i></i>\n\n"
        "00:00:04,000 --> 00:00:05,000\nTwo.\n"
    )
    doc = read(write_srt(tmp_path, text))
    assert cue_texts(doc) == [[["One."]], [["Two."]]]
    assert doc.meta["missing_indexes"] == 2 and doc.meta["empty_cues"] == 2
    round_trip(doc, tmp_path)


def test_styling_tags_round_trip(tmp_path: Path) -> None:
    text = '1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<i>Who\'s</i> <B>there</B>?\n<font color="red">Me.</font>\n'
    doc = read(write_srt(tmp_path, text))
    assert doc.tokens["text"].tolist() == ["Who's", "there?", "Me."]
    assert doc.tokens["style"].tolist() == ["{\\an8}<i>", "<B>", '<font color="red">']
    round_trip(doc, tmp_path)
    written = (tmp_path / "rt.srt").read_text(encoding="utf-8")
    assert '{\\an8}<i>Who\'s</i> <B>there?</b>\n<font color="red">Me.</font>' in written
    plain = read(write_srt(tmp_path, PLAIN, name="plain.srt"))
    assert "style" not in plain.tokens  # no column when the file has no styling


def test_dialogue_dashes(tmp_path: Path) -> None:
    text = (
        "1\n00:00:01,000 --> 00:00:02,000\n- Tu es à l'antenne.\n- Là, maintenant?\n\n"
        "2\n00:00:02,500 --> 00:00:03,000\nOui.\n\n"
        "3\n00:00:03,000 --> 00:00:04,000\n-Non.\n-- et pas -5 degrés\n"
    )
    doc = read(write_srt(tmp_path, text))
    assert doc.speakers == ["A", "B"]
    assert doc.meta["speaker_marks"] == "dash"
    units = [(u.speaker, toks) for u, toks in doc.iter_unit_texts("subtitle")]
    assert units == [
        ("A", ["Tu", "es", "à", "l'antenne."]),
        ("B", ["Là,", "maintenant?"]),
        ("B", ["Oui."]),  # no dash: the current speaker goes on
        ("A", ["Non."]),
        ("A", ["--", "et", "pas", "-5", "degrés"]),  # '--' is not a dialogue dash
    ]
    assert doc.layer("subtitle").boundaries.tolist().count(EOB) == 3
    back = round_trip(doc, tmp_path)
    assert back.speakers == ["A", "B"]
    written = (tmp_path / "rt.srt").read_text(encoding="utf-8")
    assert "- Tu es à l'antenne.\n- Là, maintenant?\n\n2\n00:00:02,500 --> 00:00:03,000\nOui." in written


def test_name_labels(tmp_path: Path) -> None:
    text = (
        "1\n00:00:01,000 --> 00:00:02,000\nMAN 2: Who's there?\nNote: it's late.\n\n"
        "2\n00:00:02,000 --> 00:00:03,000\nDR. WHO:\nMe.\n\n"
        "3\n00:00:03,000 --> 00:00:04,000\n- JOE: Hi.\n- Bye.\n"
    )
    doc = read(write_srt(tmp_path, text))
    assert doc.speakers == ["MAN 2", "DR. WHO", "JOE", "A"]
    assert doc.meta["speaker_marks"] == "dash+label"
    units = [(u.speaker, toks) for u, toks in doc.iter_unit_texts("subtitle")]
    assert units[:3] == [
        ("MAN 2", ["Who's", "there?"]),
        ("MAN 2", ["Note:", "it's", "late."]),
        ("DR. WHO", ["Me."]),
    ]  # the label on a line of its own
    assert units[3:] == [("JOE", ["Hi."]), ("A", ["Bye."])]
    assert read(write_srt(tmp_path, text), speaker_labels=False).speakers[:2] == ["SUBTITLE", "A"]
    back = round_trip(doc, tmp_path)
    assert back.speakers == doc.speakers
    written = (tmp_path / "rt.srt").read_text(encoding="utf-8")
    assert "MAN 2: Who's there?\nNote: it's late." in written and "A: Bye." in written
    mixed = "1\n00:00:01,000 --> 00:00:02,000\nMarion: Salut.\n"
    assert read(write_srt(tmp_path, mixed)).speakers == ["SUBTITLE"]
    assert read(write_srt(tmp_path, mixed), speaker_labels="any").speakers == ["Marion"]


def test_iu_document_is_written_one_cue_per_unit(tmp_path: Path) -> None:
    semi = DUBOIS.unclassified_code
    doc = from_units(
        "iu",
        [
            {
                "speaker": "JOE",
                "tokens": ["so", "it", "goes"],
                "boundary": DUBOIS.code(","),
                "start": 0.5,
                "end": 1.2345,
            },
            {"speaker": "JILL", "tokens": ["yes"], "boundary": DUBOIS.code("?"), "start": 1.0, "end": 2.0},
            {"speaker": "JOE", "tokens": ["well"], "boundary": semi, "start": 2.0, "end": 3.0},
        ],
        layer="iu",
        scheme=DUBOIS,
    )
    out = tmp_path / "iu.srt"
    losses = LossReport()
    srt_adapter.write(doc, out, losses=losses)
    assert {loss.kind for loss in losses} == {"layer-dropped", "times-rounded"}
    assert out.read_text(encoding="utf-8") == (
        "1\n00:00:00,500 --> 00:00:01,234\nJOE: so it goes,\n\n"
        "2\n00:00:01,000 --> 00:00:02,000\nJILL: yes?\n\n"
        "3\n00:00:02,000 --> 00:00:03,000\nJOE: well\n\n"
    )
    back = read(out)
    assert back.speakers == ["JOE", "JILL"]
    assert back.token_texts() == {"JOE": ["so", "it", "goes,", "well"], "JILL": ["yes?"]}


def test_write_without_times_and_unmarked_speakers(tmp_path: Path) -> None:
    doc = from_units(
        "nt",
        [{"speaker": "x", "tokens": ["a"], "boundary": 1}, {"speaker": "y", "tokens": ["b"], "boundary": 1}],
        layer="iu",
        scheme=DUBOIS,
    )
    losses = LossReport()
    out = tmp_path / "nt.srt"
    srt_adapter.write(doc, out, losses=losses, speaker_marks="none")
    kinds = [loss.kind for loss in losses]
    assert "times-invented" in kinds and "speakers-merged" in kinds
    text = out.read_text(encoding="utf-8")
    assert "00:00:00,000 --> 00:00:01,000\na,\n" in text
    assert "00:00:01,000 --> 00:00:02,000\nb,\n" in text
    losses = LossReport()
    srt_adapter.write(doc, out, losses=losses)  # auto: labels, lowercase names unreadable
    assert "speakers-merged" in [loss.kind for loss in losses]
    assert "x: a," in out.read_text(encoding="utf-8")
    with pytest.raises(UsageError):
        srt_adapter.write(doc, out, losses=LossReport(), speaker_marks="dashes")
    with pytest.raises(UsageError):
        read(out, speakers=True)


def test_registry_knows_srt() -> None:
    from segagree.adapters import format_for

    try:
        adapter = format_for("movie.SRT")
    except ModuleNotFoundError as err:  # another engineer's adapter module is not there yet
        pytest.skip(f"adapter registry incomplete: {err}")
    assert adapter.name == "srt"
