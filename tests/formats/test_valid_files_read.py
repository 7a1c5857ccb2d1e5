"""Valid files that real corpora hold and that segagree used to refuse or misread.

Each fixture is a small self-written file reproducing the layout found in a published one.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cli_process import run_cli

from segagree.errors import InputError
from segagree.formats import read_document, write_document


def _segagree(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(args)  # the command line in a fork of this process (tests/cli_process.py)


# --- ELAN ---------------------------------------------------------------------------------


def _eaf(tiers: str, types: str) -> str:
    slots = "".join(f'<TIME_SLOT TIME_SLOT_ID="ts{i}" TIME_VALUE="{i * 1000}"/>' for i in range(1, 7))
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<ANNOTATION_DOCUMENT AUTHOR="" DATE="2020-01-01T00:00:00+00:00" FORMAT="3.0" VERSION="3.0">'
        '<HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>'
        f"<TIME_ORDER>{slots}</TIME_ORDER>{tiers}{types}</ANNOTATION_DOCUMENT>"
    )


def _ann(aid: str, s: int, e: int, value: str) -> str:
    return (
        f'<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="{aid}" TIME_SLOT_REF1="ts{s}" TIME_SLOT_REF2="ts{e}">'
        f"<ANNOTATION_VALUE>{value}</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>"
    )


SYMBOLIC_TYPE = (
    '<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="default" TIME_ALIGNABLE="true"/>'
    '<LINGUISTIC_TYPE CONSTRAINTS="Symbolic_Association" LINGUISTIC_TYPE_ID="sym" TIME_ALIGNABLE="false"/>'
    '<CONSTRAINT DESCRIPTION="" STEREOTYPE="Symbolic_Association"/>'
)


def test_eaf_top_level_tier_of_a_symbolic_type_reads_by_default_and_when_asked_for(tmp_path: Path) -> None:
    # As in a published file: a top-level tier whose type says symbolic, holding aligned annotations.
    tiers = (
        '<TIER LINGUISTIC_TYPE_REF="sym" PARTICIPANT="A" TIER_ID="utt">'
        + _ann("a1", 1, 2, "so it goes ,")
        + _ann("a2", 3, 4, "fine .")
        + "</TIER>"
    )
    path = tmp_path / "symbolic.eaf"
    path.write_text(_eaf(tiers, SYMBOLIC_TYPE), encoding="utf-8")
    # The only top-level tier: read by default too, the same as when asked for.
    by_default = read_document(path)
    doc = read_document(path, tiers=["utt"])
    assert by_default.token_texts() == doc.token_texts()
    assert [loss.kind for loss in by_default.losses] == [loss.kind for loss in doc.losses]
    assert [t for _, t in doc.iter_unit_texts()] == [["so", "it", "goes"], ["fine"]]
    assert doc.tokens["start"].tolist()[0] == 1.0
    notes = [loss for loss in doc.losses if loss.kind == "repaired"]
    assert notes and "declared not time-aligned" in notes[0].message and notes[0].count == 2
    proc = _segagree("convert", str(path), "--tier", "utt", "-o", str(tmp_path / "o.csv"))
    assert proc.returncode == 0, proc.stderr


def test_eaf_tiers_sharing_a_participant_are_reported_and_can_be_kept_apart(tmp_path: Path) -> None:
    tiers = (
        '<TIER LINGUISTIC_TYPE_REF="default" PARTICIPANT="A" TIER_ID="A-words">'
        + _ann("a1", 1, 2, "hello there .")
        + "</TIER>"
        '<TIER LINGUISTIC_TYPE_REF="default" PARTICIPANT="A" TIER_ID="A-gesture">' + _ann("a2", 3, 4, "nod") + "</TIER>"
    )
    path = tmp_path / "participant.eaf"
    path.write_text(_eaf(tiers, SYMBOLIC_TYPE), encoding="utf-8")
    doc = read_document(path)
    assert doc.speakers == ["A"]
    merged = [loss for loss in doc.losses if loss.kind == "speakers-merged"]
    assert merged and "A-words" in merged[0].message and "A-gesture" in merged[0].message
    apart = read_document(path, speaker_from="tier")
    assert apart.speakers == ["A-words", "A-gesture"]
    assert not [loss for loss in apart.losses if loss.kind == "speakers-merged"]
    out = tmp_path / "o.csv"
    proc = _segagree("convert", str(path), "--speaker-from", "tier", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert set(read_document(out).speakers) == {"A-words", "A-gesture"}


# --- Transcriber --------------------------------------------------------------------------

TRS = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE Trans SYSTEM "trans-14.dtd">
<Trans version="1">
<Speakers><Speaker id="spk1" name="Ann"/></Speakers>
<Episode><Section type="report" startTime="0" endTime="4">
<Turn speaker="spk1" startTime="0" endTime="2"><Sync time="0"/>hello there .</Turn>
<Turn startTime="2" endTime="4"><Sync time="2"/>announcement over the tannoy</Turn>
</Section></Episode></Trans>
"""


def test_transcriber_turn_without_speaker_reads_with_a_placeholder(tmp_path: Path) -> None:
    path = tmp_path / "nospk.trs"
    path.write_text(TRS, encoding="utf-8")
    doc = read_document(path)
    assert "unknown" in doc.speakers
    assumed = [loss for loss in doc.losses if loss.kind == "speaker-assumed"]
    assert assumed and assumed[0].count == 1 and "line 7" in (assumed[0].where or "")
    named = read_document(path, no_speaker="PA")
    assert "PA" in named.speakers and "unknown" not in named.speakers
    out = tmp_path / "o.csv"
    proc = _segagree("convert", str(path), "--no-speaker", "PA", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert set(read_document(out).speakers) == {"Ann", "PA"}


def test_transcriber_placeholder_speaker_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "nospk.trs"
    path.write_text(TRS, encoding="utf-8")
    doc = read_document(path)
    out = tmp_path / "again.trs"
    write_document(doc, out)
    again = read_document(out)
    assert again.token_texts() == doc.token_texts()


# --- Praat --------------------------------------------------------------------------------

PRAAT_COMMENTED = """"ooTextFile"
"TextGrid"
0 2.3 ! Time domain.
<exists> ! At least one tier.
2 ! Number of tiers.
"IntervalTier" "Mary" ! First tier.
0 2.3 ! Time domain of Mary.
2 ! Two intervals.
0 1.1 "so it goes ," ! Mary's first; "quotes" in a comment.
1.1 2.3 "fine ." ! The second!
"TextTier" "bell" ! Second tier.
0 2.3
1 ! One point.
0.9 "ding" ! The bell rings.
"""


def test_praat_short_text_with_comments_reads(tmp_path: Path) -> None:
    path = tmp_path / "comments.TextGrid"
    path.write_text(PRAAT_COMMENTED, encoding="utf-8")
    doc = read_document(path)
    assert [t for _, t in doc.iter_unit_texts()] == [["so", "it", "goes"], ["fine"]]
    assert doc.tokens["end"].tolist()[-1] == 2.3
    # The same file without its comments reads the same.
    plain = tmp_path / "plain.TextGrid"
    plain.write_text("\n".join(line.split(" !")[0] for line in PRAAT_COMMENTED.splitlines()), encoding="utf-8")
    assert read_document(plain).differences(doc) == []


LATIN1_GRID = """File type = "ooTextFile"
Object class = "TextGrid"

xmin = 0
xmax = 2
tiers? <exists>
size = 1
item []:
    item [1]:
        class = "IntervalTier"
        name = "SPK"
        xmin = 0
        xmax = 2
        intervals: size = 2
        intervals [1]:
            xmin = 0
            xmax = 1
            text = "\u00e4h well ,"
        intervals [2]:
            xmin = 1
            xmax = 2
            text = "that's it ."
"""


@pytest.mark.parametrize("codec", ["latin-1", "cp1252"])
def test_praat_text_that_is_not_utf8_is_windows_1252_not_a_guess(codec: str, tmp_path: Path) -> None:
    path = tmp_path / "latin.TextGrid"
    path.write_bytes(LATIN1_GRID.encode(codec))
    doc = read_document(path)
    assert doc.tokens["text"].tolist()[0] == "\u00e4h"  # not cp932's '臧'
    notes = [loss for loss in doc.losses if loss.kind == "encoding"]
    assert len(notes) == 1 and "cp1252" in notes[0].message and doc.meta["encoding"] == "cp1252"
    # UTF-8 and UTF-16 with a BOM stay what they are.
    path.write_bytes(LATIN1_GRID.encode("utf-16"))
    assert read_document(path).tokens["text"].tolist()[0] == "\u00e4h"


# --- EXMARaLDA ----------------------------------------------------------------------------


def _exb(times: list[str]) -> str:
    tlis = "".join(f'<tli id="T{i}" time="{t}"/>' for i, t in enumerate(times))
    events = "".join(f'<event start="T{i}" end="T{i + 1}">word{i} .</event>' for i in range(0, len(times) - 1, 2))
    return (
        '<?xml version="1.0" encoding="UTF-8"?><basic-transcription><head><meta-information>'
        '<project-name/><transcription-name/><referenced-file url=""/><ud-meta-information/><comment/>'
        '<transcription-convention/></meta-information><speakertable><speaker id="SPK0">'
        '<abbreviation>A</abbreviation><sex value="u"/><languages-used/><l1/><l2/>'
        "<ud-speaker-information/><comment/></speaker></speakertable></head><basic-body>"
        f'<common-timeline>{tlis}</common-timeline><tier id="TIE0" speaker="SPK0" category="v" type="t">'
        f"{events}</tier></basic-body></basic-transcription>"
    )


def test_exmaralda_micro_inversion_in_the_timeline_is_clamped_and_noted(tmp_path: Path) -> None:
    path = tmp_path / "inel.exb"
    # T2 is 2.3e-7 s before T1, as in a published INEL file.
    path.write_text(_exb(["0.0", "1.2345678", "1.23456757", "2.5"]), encoding="utf-8")
    doc = read_document(path)
    assert doc.tokens["start"].tolist() == [0.0, 1.2345678]
    notes = [loss for loss in doc.losses if loss.kind == "repaired"]
    assert notes and notes[0].count == 1 and "T2" in (notes[0].where or "")
    # A real inversion stays an error naming both points.
    path.write_text(_exb(["0.0", "1.5", "1.2", "2.5"]), encoding="utf-8")
    with pytest.raises(InputError, match="'T2' at 1.2 s comes after point 'T1'"):
        read_document(path)


# --- SRT ----------------------------------------------------------------------------------


def test_srt_timestamp_without_fraction_beside_one_with_it_is_repaired(tmp_path: Path) -> None:
    path = tmp_path / "nofrac.srt"
    path.write_text("1\n00:01:39 --> 00:01:41,04\nhello there .\n\n2\n00:01:42,000 --> 00:01:44,500\nfine .\n")
    doc = read_document(path)
    assert doc.tokens["start"].tolist()[0] == 99.0 and doc.tokens["end"].tolist()[2] == 101.04
    repairs = [loss.message for loss in doc.losses if loss.kind == "repaired"]
    assert any("without a fraction" in m for m in repairs)
    # Both timestamps without one: still a clean error by default (pysrt calls it invalid).
    path.write_text("1\n00:01:39 --> 00:01:41\nhello .\n")
    with pytest.raises(InputError, match="malformed timing line"):
        read_document(path)


# --- WebVTT -------------------------------------------------------------------------------

HLS = """WEBVTT
X-TIMESTAMP-MAP=LOCAL:1086:59:52.424,MPEGTS:183000

1088:42:00.500 --> 1088:42:07.000
Caption one.

1088:42:07.000 --> 1088:42:11.890
Caption <1088:42:09.000>two.
"""


def test_vtt_hls_segment_beyond_ten_days_gets_its_timestamp_map_applied(tmp_path: Path) -> None:
    path = tmp_path / "seg.vtt"
    path.write_text(HLS, encoding="utf-8")
    doc = read_document(path)
    # RFC 8216 3.5: LOCAL is the cue time of MPEG-TS time MPEGTS / 90 kHz.
    local = 1086 * 3600 + 59 * 60 + 52.424
    expect = 1088 * 3600 + 42 * 60 + 0.5 - local + 183000 / 90000
    assert abs(doc.tokens["start"].tolist()[0] - expect) < 1e-6
    assert abs(doc.tokens["end"].tolist()[-1] - (expect + 11.39)) < 1e-6
    assert abs(doc.tokens["start"].tolist()[-1] - (expect + 8.5)) < 1e-6  # the timestamp tag, mapped too
    (note,) = [loss for loss in doc.losses if loss.kind == "times-changed"]
    assert "X-TIMESTAMP-MAP" in note.message and note.where == "line 2" and note.count == 2
    assert not any(m.startswith("X-TIMESTAMP-MAP") for m in doc.meta["vtt"]["metadata"])
    # Written back, the times read as they are (no map to apply twice).
    out = tmp_path / "back.vtt"
    write_document(doc, out)
    back = read_document(out)
    assert abs(back.tokens["start"].tolist()[0] - expect) < 1e-3


def test_vtt_hls_map_not_applied_when_times_are_in_range(tmp_path: Path) -> None:
    path = tmp_path / "seg.vtt"
    path.write_text("WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:900000\n\n00:00:01.000 --> 00:00:02.000\nHi.\n")
    doc = read_document(path)
    assert doc.tokens["start"].tolist() == [1.0] and not doc.losses


def test_one_stray_dash_does_not_make_every_later_cue_a_b(tmp_path: Path) -> None:
    cues = ["Hello there.", "- I know.", "We left early.", "It rained.", "Then it stopped."]
    body = "".join(f"00:00:0{i}.000 --> 00:00:0{i}.900\n{text}\n\n" for i, text in enumerate(cues))
    path = tmp_path / "stray.vtt"
    path.write_text("WEBVTT\n\n" + body, encoding="utf-8")
    doc = read_document(path)
    assert doc.speakers == ["SUBTITLE"]
    assert "-" in doc.tokens["text"].tolist()  # kept as text, nothing lost
    srt_path = tmp_path / "stray.srt"
    srt_path.write_text(
        "".join(f"{i + 1}\n00:00:0{i},000 --> 00:00:0{i},900\n{text}\n\n" for i, text in enumerate(cues)),
        encoding="utf-8",
    )
    assert read_document(srt_path).differences(doc) == []
    # A dialogue cue (two dash-led lines) still marks two speakers.
    path.write_text("WEBVTT\n\n" + body + "00:00:09.000 --> 00:00:09.500\n- Hi.\n- Hello.\n", encoding="utf-8")
    assert read_document(path).speakers == ["SUBTITLE", "A", "B"]


# --- what writers change, reported ---------------------------------------------------------


def test_eaf_writer_names_the_speaker_whose_own_units_it_reorders(tmp_path: Path) -> None:
    from segagree.model import builtin_scheme, from_units

    units = [
        {"speaker": "ANN", "tokens": ["one"], "boundary": 1, "start": 0.0, "end": 1.0},
        {"speaker": "ANN", "tokens": ["three"], "boundary": 1, "start": 5.0, "end": 6.0},
        {"speaker": "ANN", "tokens": ["two"], "boundary": 1, "start": 2.0, "end": 3.0},  # a misplaced bullet
        {"speaker": "BOB", "tokens": ["hm"], "boundary": 1, "start": 7.0, "end": 8.0},
    ]
    doc = from_units("x", units, layer="iu", scheme=builtin_scheme("dubois"))
    losses = write_document(doc, tmp_path / "x.eaf")
    (own,) = [loss for loss in losses if loss.kind == "reordered"]
    # "three" and "two" trade places: two units come back elsewhere
    assert own.where == "speaker 'ANN'" and own.count == 2 and "'ANN'" in own.message
    back = read_document(tmp_path / "x.eaf")
    assert [t for _, t in back.iter_unit_texts()][:3] == [["one"], ["two"], ["three"]]


def test_textgrid_tier_name_with_whitespace_is_reported_renamed_in_elan(tmp_path: Path) -> None:
    grid = LATIN1_GRID.replace('name = "SPK"', 'name = "a\n\t"')
    src = tmp_path / "ws.TextGrid"
    src.write_text(grid, encoding="utf-8")
    doc = read_document(src)
    assert doc.speakers == ["a\n\t"]
    losses = write_document(doc, tmp_path / "ws.eaf")
    assert read_document(tmp_path / "ws.eaf").speakers == ["a"]
    renamed = [loss for loss in losses if loss.kind == "speakers-renamed"]
    assert renamed and "'a\\n\\t'" in (renamed[0].where or "")


@pytest.mark.parametrize("codec", ["utf-32-le", "utf-32-be"])
def test_utf32_with_a_bom_reads(codec: str, tmp_path: Path) -> None:
    # pysrt's own test files are SRT in UTF-32 with a BOM; they were refused as holding NULs.
    text = "1\n00:00:01,000 --> 00:00:02,000\nÇa va très bien.\n"
    path = tmp_path / "u32.srt"
    path.write_bytes(("\ufeff" + text).encode(codec))
    doc = read_document(path)
    assert doc.tokens["text"].tolist() == ["Ça", "va", "très", "bien."] and not doc.losses
