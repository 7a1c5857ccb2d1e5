"""Transcriber .trs reader and writer: every real file of shared/corpora/transcriber (speakers,
units counted independently with regular expressions over the decoded text, known segments read
by hand in the files), round trips, Who parts of overlapping turns, events kept in place, the
declared encoding, conversions, and damaged input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from segagree.errors import InputError
from segagree.formats import read_document, transcriber, write_document
from segagree.model import builtin_scheme, from_units
from segagree.model.losses import LossReport

from conftest import shared_path

DUBOIS = builtin_scheme("dubois")

REAL = {
    "teicorpo_Conversation_MAT_08.trs": ["L1", "L2"],
    "teicorpo_DOC_FR_2020_CHOIX_5.trs": ["default", "Mélanie", "Eloise", "Rou"],
    "teicorpo_DOC_FR_2020_DEBAT_9.trs": ["Clémence Furnari", "Palmyre Castelain", "Rou"],
    "teicorpo_ESLO1_ENT_001_C.trs": ["BA725", "OU", "001LOC1", "001LOC2"],
    "teicorpo_ESLO1_ENT_012_C.trs": ["LD386", "PB"],
    "teicorpo_test1.trs": ["palmyre"],
    "teicorpo_trs_example.trs": ["L1", "L2"],
}


def _path(name: str) -> Path:
    return shared_path("corpora", "transcriber", name)


def _independent_count(path: Path) -> int:
    """Non-empty Sync segments, each Who part counted apart: regular expressions, no XML parser."""
    raw = path.read_bytes()
    enc = re.search(rb'encoding="([^"]+)"', raw[:200])
    text = raw.decode(enc.group(1).decode() if enc else "utf-8")
    n = 0
    for turn in re.findall(r"<Turn\b[^>]*>(.*?)</Turn>", text, flags=re.S):
        for part in re.split(r"<(?:Sync|Who)\b[^>]*/>", turn):
            words = re.sub(r"<[^>]*>", " ", part)
            n += bool(words.split())
    return n


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_file_speakers_units_round_trip(name: str, tmp_path: Path) -> None:
    path = _path(name)
    doc = read_document(path)
    assert doc.source_format == "transcriber"
    assert doc.speakers == REAL[name]
    assert len(doc.units()) == _independent_count(path)
    n_sync = path.read_bytes().count(b"<Sync")
    assert len(doc.units()) <= n_sync + path.read_bytes().count(b"<Who")
    out = tmp_path / "out.trs"
    losses = write_document(doc, out)
    assert not losses, losses.lines()
    back = read_document(out)
    assert back == doc, back.differences(doc)
    # The declared encoding is kept.
    declared = re.search(rb'encoding="([^"]+)"', path.read_bytes()[:100]).group(1).upper()
    assert re.search(rb"encoding=[\"']([^\"']+)[\"']", out.read_bytes()[:100]).group(1).upper() == declared


def test_single_segment_file() -> None:
    doc = read_document(_path("teicorpo_test1.trs"))
    ((unit, toks),) = list(doc.iter_unit_texts())
    assert toks[:5] == ["ah", "quoi", "moi", "oui", "oui"] and len(toks) == 96
    assert "catégorique" in toks and "{rire}" in toks  # Latin-1 decoded by the declaration
    assert doc.tokens["start"].iat[0] == 0 and doc.tokens["end"].iat[len(toks) - 1] == pytest.approx(477.803)
    assert doc.meta["trs"]["encoding"].upper() == "ISO-8859-1"


def test_overlapping_turn_gives_each_who_part_to_its_speaker() -> None:
    doc = read_document(_path("teicorpo_DOC_FR_2020_CHOIX_5.trs"))
    units = list(doc.iter_unit_texts())
    (u0, t0), (u1, t1) = units[:2]
    assert u0.speaker == "Mélanie" and t0[:3] == ["<alors", "moi", "moi"]
    assert (u1.speaker, t1) == ("Eloise", ["{rire}>"])
    s, e = doc.tokens["start"].to_numpy(), doc.tokens["end"].to_numpy()
    assert (s[u0.rows[0]], e[u0.rows[-1]]) == (2.75, 2.8)
    assert (s[u1.rows[0]], e[u1.rows[-1]]) == (2.8, 4.05)
    # L1 and SD are both named Mélanie: one speaker, the ids kept per token.
    ids = set(doc.tokens.loc[doc.tokens["speaker"] == "Mélanie", "trs_speaker"])
    assert ids == {"L1", "SD"}


def test_events_are_kept_in_place_and_written_back(tmp_path: Path) -> None:
    doc = read_document(_path("teicorpo_trs_example.trs"))
    units = list(doc.iter_unit_texts())
    u, toks = units[1]
    assert (u.speaker, toks) == ("L2", ["ça", "va", "et", "toi"]) and DUBOIS.symbol(u.boundary) == "?"
    marks = json.loads(doc.tokens["trs_marks"].iat[u.rows[0]])
    assert marks == [[5, "Event", {"desc": "conv", "type": "noise", "extent": "begin"}]]
    lost = next(loss.count for loss in doc.losses if loss.kind == "marks-dropped")  # in parts without words
    assert lost and lost < 30
    out = tmp_path / "x.trs"
    doc.source = doc.source.without_file()  # written anew (unchanged, the file is given back whole)
    write_document(doc, out)
    src = _path("teicorpo_trs_example.trs").read_bytes()
    written = out.read_bytes()
    marks_in = sum(src.count(f"<{tag}".encode()) for tag in ("Event", "Comment", "Background"))
    marks_out = sum(written.count(f"<{tag}".encode()) for tag in ("Event", "Comment", "Background"))
    assert marks_out == marks_in - lost
    assert read_document(out).tokens["trs_marks"].tolist() == doc.tokens["trs_marks"].tolist()


def test_bad_file_without_speakers_is_a_clean_error_or_reads_with_a_name() -> None:
    path = _path("teicorpo_badfile.trs")
    with pytest.raises(InputError, match="without a speaker") as err:
        read_document(path)
    assert "line 9" in str(err.value)
    doc = read_document(path, no_speaker="unknown")
    assert doc.speakers == ["unknown"]
    assert [t for _, t in doc.iter_unit_texts()] == [["Sentence", "#1"], ["Sentence", "#2"]]


@pytest.mark.parametrize(
    ("name", "target"),
    [
        ("teicorpo_DOC_FR_2020_CHOIX_5.trs", "eaf"),
        ("teicorpo_trs_example.trs", "TextGrid"),
        ("teicorpo_ESLO1_ENT_012_C.trs", "json"),
        ("teicorpo_Conversation_MAT_08.trs", "eaf"),
    ],
)
def test_convert_and_back(name: str, target: str, tmp_path: Path) -> None:
    doc = read_document(_path(name))
    mid = tmp_path / f"mid.{target}"
    write_document(doc, mid)
    other = read_document(mid)
    speaking = {s: t for s, t in doc.token_texts().items() if t}
    assert {s: t for s, t in other.token_texts().items() if t} == speaking
    out = tmp_path / "back.trs"
    write_document(other, out)
    back = read_document(out)
    assert {s: t for s, t in back.token_texts().items() if t} == speaking
    assert [b for b in back.layer().boundaries if b] == [b for b in other.layer().boundaries if b]


def test_cross_format_pair_with_elan() -> None:
    from segagree.scoring.tokens.compare import compare_documents

    trs = read_document(_path("teicorpo_DOC_FR_2020_CHOIX_5.trs"))
    eaf = read_document(shared_path("corpora", "eaf", "teicorpo_DOC_FR_2020_CHOIX_5.eaf"))
    trs = trs.select_speakers([s for s in trs.speakers if trs.token_texts()[s]])
    res = compare_documents(trs, eaf)
    assert res["sf"] == 1.0


def test_write_from_units_without_times_invents_them(tmp_path: Path) -> None:
    doc = from_units(
        "t",
        [
            {"speaker": "A", "tokens": ["hello", "there"], "boundary": 2},
            {"speaker": "B", "tokens": ["hi"], "boundary": 3},
        ],
        layer="iu",
        scheme=DUBOIS,
    )
    losses = LossReport()
    transcriber.write(doc, tmp_path / "x.trs", losses=losses)
    assert "times-invented" in losses.kinds()
    back = read_document(tmp_path / "x.trs")
    assert back.token_texts() == doc.token_texts()
    assert [DUBOIS.symbol(u.boundary) for u in back.units()] == [".", "?"]


def test_overlap_from_other_formats_becomes_who_turns(tmp_path: Path) -> None:
    doc = from_units(
        "t",
        [
            {"speaker": "A", "tokens": ["one"], "boundary": 5, "start": 0.0, "end": 1.0},
            {"speaker": "B", "tokens": ["two"], "boundary": 5, "start": 0.0, "end": 1.0},
            {"speaker": "A", "tokens": ["three"], "boundary": 2, "start": 1.5, "end": 2.0},
        ],
        layer="iu",
        scheme=DUBOIS,
    )
    out = tmp_path / "x.trs"
    write_document(doc, out)
    text = out.read_text(encoding="utf-8")
    assert 'speaker="spk1 spk2"' in text and '<Who nb="2"/>' in text
    back = read_document(out)
    assert back == doc, back.differences(doc)


# --- damage ---------------------------------------------------------------------------------

HEAD = '<?xml version="1.0" encoding="UTF-8"?><Trans><Speakers><Speaker id="s1" name="A"/></Speakers><Episode>'


@pytest.mark.parametrize(
    ("body", "match"),
    [
        ('<Section><Turn speaker="s1" startTime="0" endTime="1"><Sync time="0"/>hi', "not well-formed"),
        ('<Section><Turn speaker="s1" startTime="0" endTime="x"><Sync time="0"/>hi</Turn></Section>', "endTime"),
        ('<Section><Turn speaker="s1" startTime="0" endTime="1"><Sync time="-3"/>hi</Turn></Section>', "time"),
        ('<Section><Turn speaker="s1" startTime="0" endTime="1"><Sync/>hi</Turn></Section>', "without a time"),
        ('<Section><Turn speaker="s9" startTime="0" endTime="1"><Sync time="0"/>hi</Turn></Section>', "s9"),
        (
            '<Section><Turn speaker="s1" startTime="0" endTime="1"><Sync time="0"/><Who nb="2"/>x</Turn></Section>',
            "Who",
        ),
        ('<Section><Turn speaker="s1" startTime="0" endTime="1"><Sync time="0"/></Turn></Section>', "no turn has text"),
        ('<Section><Turn speaker="s1" startTime="0" endTime="1"><Foo/>x</Turn></Section>', "unexpected <Foo>"),
    ],
)
def test_damage_gives_input_error(tmp_path: Path, body: str, match: str) -> None:
    p = tmp_path / "bad.trs"
    closing = "</Episode></Trans>" if body.endswith("</Section>") else ""
    p.write_text(HEAD + body + closing, encoding="utf-8")
    with pytest.raises(InputError, match=match):
        read_document(p)


def test_wrong_root_and_truncation(tmp_path: Path) -> None:
    p = tmp_path / "x.trs"
    p.write_text("<?xml version='1.0'?><Transcript/>", encoding="utf-8")
    with pytest.raises(InputError, match="expected a Transcriber"):
        read_document(p)
    raw = _path("teicorpo_trs_example.trs").read_bytes()
    for cut in (100, len(raw) // 2, len(raw) - 10):
        p.write_bytes(raw[:cut])
        with pytest.raises(InputError):
            read_document(p)


# --- property: any timed document of plain words reads back from Transcriber as written -----


@st.composite
def timed_documents(draw):
    units = []
    t = 0.0
    for _ in range(draw(st.integers(1, 8))):
        t += draw(st.sampled_from([0.0, 0.25, 1.5]))  # 0: the same start as the previous unit
        units.append(
            {
                "speaker": draw(st.sampled_from(["ANNA", "Bo Li", "Cé"])),
                "tokens": draw(st.lists(st.from_regex(r"[a-zàé'{}<>]{1,6}", fullmatch=True), min_size=1, max_size=4)),
                "boundary": draw(st.integers(1, DUBOIS.n_codes - 1)),
                "start": t,
                "end": t + draw(st.sampled_from([0.0, 0.5, 2.0])),
            }
        )
    return from_units("p", units, layer="iu", scheme=DUBOIS)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(timed_documents())
def test_property_written_trs_reads_back(tmp_path: Path, doc) -> None:
    out = tmp_path / "p.trs"
    losses = LossReport()
    transcriber.write(doc, out, losses=losses)
    back = transcriber.read(out, scheme=DUBOIS)
    assert not losses, losses.lines()
    assert back.token_texts() == doc.token_texts()
    assert back.boundary_arrays().keys() == doc.boundary_arrays().keys()
    for s in doc.speakers:
        assert (back.boundary_arrays()[s] == doc.boundary_arrays()[s]).all()
    assert back.differences(doc) == []
