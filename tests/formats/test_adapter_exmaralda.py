"""EXMARaLDA .exb reader and writer: every real file of shared/corpora/exmaralda (speakers from
the speaker table, units counted independently with regular expressions, known events read by
hand in the files), the timeline (untimed and interpolated points), annotation tiers kept,
round trips, conversions, and damaged input."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from segagree.errors import InputError
from segagree.formats import exmaralda, read_document, write_document
from segagree.model import builtin_scheme, from_units
from segagree.model.losses import LossReport

from conftest import shared_path

DUBOIS = builtin_scheme("dubois")

REAL = {
    "exmaralda_AnneWill.exb": ["AW", "GL", "HG", "GW"],
    "exmaralda_Beckhams.exb": ["PAR", "VIC", "DAV"],
    "exmaralda_Royal.exb": ["SR", "NS", "PP", "AC"],
    "pepper_importer_in_doc1.exb": ["tok", "POS", "LEMMA", "Inf-Struct"],
    "pepper_sampleCorpus1_doc1.exb": ["s0", "word", "lemma", "pos", "s0 [v2]"],
}


def _path(name: str) -> Path:
    return shared_path("corpora", "exmaralda", name)


def _independent_count(path: Path) -> int:
    """Non-empty events of type-t tiers: regular expressions over the text, no XML parser."""
    text = path.read_text(encoding="utf-8")
    n = 0
    for attrs, body in re.findall(r"<tier\b([^>]*)>(.*?)</tier>", text, flags=re.S):
        if not re.search(r'\btype="t"', attrs):
            continue
        for ev in re.findall(r"<event\b[^>]*>(.*?)</event>", body, flags=re.S):
            inner = re.sub(r"<ud-information\b[^>]*>.*?</ud-information>", "", ev, flags=re.S)
            inner = re.sub(r"<!\[CDATA\[(.*?)\]\]>", r"\1", inner, flags=re.S)
            n += bool(inner.split())
    return n


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_file_speakers_units_round_trip(name: str, tmp_path: Path) -> None:
    path = _path(name)
    doc = read_document(path)
    assert doc.source_format == "exmaralda"
    assert doc.speakers == REAL[name]
    assert len(doc.units()) == _independent_count(path)
    out = tmp_path / "out.exb"
    losses = write_document(doc, out)
    assert not losses, losses.lines()
    back = read_document(out)
    assert back == doc, back.differences(doc)
    # Tiers, timeline points and annotation events all survive.
    src, dst = path.read_bytes(), out.read_bytes()
    for needle in (b"<tli", b"<tier ", b"<event", b"<speaker "):
        assert dst.count(needle) == src.count(needle), needle


def test_known_events_times_and_endnotes() -> None:
    doc = read_document(_path("exmaralda_Beckhams.exb"))
    units = list(doc.iter_unit_texts())
    u, toks = units[0]
    assert (u.speaker, toks) == ("PAR", ["And", "what", "it", "comes", "to", "is", "your", "determination"])
    assert DUBOIS.symbol(u.boundary) == ";"
    s, e = doc.tokens["start"].to_numpy(), doc.tokens["end"].to_numpy()
    assert (s[u.rows[0]], e[u.rows[-1]]) == (0.0, 2.1866329681774834)
    found = {(x.speaker, tuple(t)): x for x, t in units}
    succeed = found[("PAR", ("((0,3s))", "succeed"))]
    assert DUBOIS.symbol(succeed.boundary) == "."
    # "Hm." ends on the untimed point T83: its end stays unknown (no interpolation).
    hm = found[("DAV", ("Hm",))]
    assert not math.isnan(s[hm.rows[0]]) and math.isnan(e[hm.rows[-1]])
    # "to long." ends on the interpolated point T159, whose time and type are kept.
    to_long = found[("PAR", ("to", "long"))]
    assert e[to_long.rows[-1]] == pytest.approx(259.1775209325434)
    t159 = next(p for p in doc.meta["exb"]["timeline"] if p["id"] == "T159")
    assert t159["type"] == "intp"


def test_discourse_order_follows_the_timeline() -> None:
    doc = read_document(_path("exmaralda_AnneWill.exb"))
    pos = {p["id"]: i for i, p in enumerate(doc.meta["exb"]["timeline"])}
    starts = [pos[doc.tokens["exb_start"].iat[u.rows[0]]] for u in doc.units()]
    assert starts == sorted(starts)
    first = [t for _, t in doc.iter_unit_texts()][:2]
    assert first == [["Nah/", "CDU-Nahen", "oder", "der", "CDU-nahen", "Studentenverbindung"], ["des", "RCDS", "ist"]]


def test_annotation_tiers_are_kept_not_units() -> None:
    doc = read_document(_path("exmaralda_Royal.exb"))
    kept = doc.meta["exb"]["other_tiers"]
    assert [t["attrs"]["category"] for t in kept] == ["en"] * 4
    assert all("<event" in t["xml"] for t in kept)
    assert "Yes." not in " ".join(doc.tokens["text"])  # the English translation is no unit


def test_all_untimed_timeline() -> None:
    doc = read_document(_path("pepper_sampleCorpus1_doc1.exb"))
    assert not doc.has_times
    # Glued final periods are endnotes, as in every reader ("1." and "A." are one-token events).
    words = doc.token_texts()["word"]
    assert words == ["1", "Zusammenfassung", "Unterscheidungen", "treffen", "(", "George", "A", "Miller", ")"]
    word_codes = doc.boundary_arrays()["word"]
    assert [DUBOIS.symbol(c) for c in word_codes[[0, 6]]] == [".", "."]
    assert doc.token_texts()["lemma"][7] == "<unknown>"  # CDATA
    assert doc.token_texts()["pos"][1] == "NN"  # text after an <ud-information> inside the event
    assert "meta-dropped" in doc.losses.kinds()


def test_empty_document_is_a_clean_error() -> None:
    with pytest.raises(InputError, match="no tiers"):
        read_document(_path("pepper_expected_empty_doc1.exb"))


@pytest.mark.parametrize(
    ("name", "target"),
    [
        ("exmaralda_AnneWill.exb", "eaf"),
        ("exmaralda_Beckhams.exb", "json"),
        ("exmaralda_Royal.exb", "TextGrid"),
        ("pepper_sampleCorpus1_doc1.exb", "eaf"),
    ],
)
def test_convert_and_back(name: str, target: str, tmp_path: Path) -> None:
    doc = read_document(_path(name))
    mid = tmp_path / f"mid.{target}"
    losses = write_document(doc, mid)
    if doc.meta["exb"]["other_tiers"] and target != "json":
        assert losses or doc.losses  # something is reported lost
    other = read_document(mid)
    assert other.token_texts() == doc.token_texts()
    out = tmp_path / "back.exb"
    back_losses = write_document(other, out)
    back = read_document(out)
    assert back.token_texts() == doc.token_texts()
    if not back_losses:
        assert back == other, back.differences(other)


def test_new_timeline_for_mixed_times(tmp_path: Path) -> None:
    """Units from another format, some without times: the written timeline keeps their order."""
    doc = from_units(
        "t",
        [
            {"speaker": "A", "tokens": ["one"], "boundary": 2, "start": 0.0, "end": 1.0},
            {"speaker": "B", "tokens": ["two"], "boundary": 5},
            {"speaker": "A", "tokens": ["three"], "boundary": 3, "start": 1.0, "end": 2.0},
            {"speaker": "B", "tokens": ["four"], "boundary": 1, "start": 1.5, "end": 1.5},
        ],
        layer="iu",
        scheme=DUBOIS,
    )
    losses = LossReport()
    out = tmp_path / "x.exb"
    exmaralda.write(doc, out, losses=losses)
    back = read_document(out)
    assert back == doc, back.differences(doc)
    times = [p["time"] for p in back.meta["exb"]["timeline"]]
    assert sum(t is None for t in times) == 2  # "two": an untimed start and end
    known = [t for t in times if t is not None]
    assert known == sorted(known) and {0.0, 1.0, 1.5, 2.0} == set(known)


def test_overlapping_units_of_one_speaker_are_reported(tmp_path: Path) -> None:
    doc = from_units(
        "t",
        [
            {"speaker": "A", "tokens": ["one"], "boundary": 2, "start": 0.0, "end": 2.0},
            {"speaker": "A", "tokens": ["two"], "boundary": 2, "start": 1.0, "end": 3.0},
        ],
        layer="iu",
        scheme=DUBOIS,
    )
    losses = LossReport()
    exmaralda.write(doc, tmp_path / "x.exb", losses=losses)
    assert "overlap-in-tier" in losses.kinds()


# --- damage ---------------------------------------------------------------------------------

TL = '<common-timeline><tli id="T0" time="0"/><tli id="T1" time="1.5"/></common-timeline>'


@pytest.mark.parametrize(
    ("body", "match"),
    [
        (TL + '<tier id="A" type="t"><event start="T0" end="T1">hi</event>', "not well-formed"),
        (TL + '<tier id="A" type="t"><event start="T0" end="T9">hi</event></tier>', "not in the common timeline"),
        (TL + '<tier id="A" type="t"><event start="T1" end="T0">hi</event></tier>', "not after its start"),
        (TL + '<tier id="A" type="t" speaker="X"><event start="T0" end="T1">hi</event></tier>', "speaker table"),
        (TL + '<tier id="A" type="t"><event start="T0" end="T1"> </event></tier>', "has text"),
        (TL + '<tier id="A" type="a"><event start="T0" end="T1">x</event></tier>', "has text"),
        (
            '<common-timeline><tli id="T0" time="abc"/></common-timeline><tier id="A" type="t"/>',
            "not a number",
        ),
        (
            '<common-timeline><tli id="T0" time="2"/><tli id="T1" time="1"/></common-timeline><tier id="A" type="t"/>',
            "decrease",
        ),
        (
            '<common-timeline><tli id="T0" time="1e300"/></common-timeline><tier id="A" type="t"/>',
            "not a time",
        ),
    ],
)
def test_damage_gives_input_error(tmp_path: Path, body: str, match: str) -> None:
    p = tmp_path / "bad.exb"
    tail = "</basic-body></basic-transcription>" if body.endswith(("</tier>", "/>")) else ""
    p.write_text(
        '<?xml version="1.0" encoding="UTF-8"?><basic-transcription><head><speakertable/></head><basic-body>'
        + body
        + tail,
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=match):
        read_document(p)


def test_wrong_root_and_truncation(tmp_path: Path) -> None:
    p = tmp_path / "x.exb"
    p.write_text("<?xml version='1.0'?><Trans/>", encoding="utf-8")
    with pytest.raises(InputError, match="EXMARaLDA"):
        read_document(p)
    raw = _path("exmaralda_Beckhams.exb").read_bytes()
    for cut in (200, len(raw) // 2, len(raw) - 10):
        p.write_bytes(raw[:cut])
        with pytest.raises(InputError):
            read_document(p)


# --- property: documents with timed and untimed units read back from EXMARaLDA -------------


@st.composite
def documents(draw):
    units = []
    t = 0.0
    for _ in range(draw(st.integers(1, 8))):
        unit = {
            "speaker": draw(st.sampled_from(["ANNA", "Bo Li", "Cé"])),
            "tokens": draw(st.lists(st.from_regex(r"[a-zàé'()]{1,6}", fullmatch=True), min_size=1, max_size=4)),
            "boundary": draw(st.integers(1, DUBOIS.n_codes - 1)),
        }
        if draw(st.integers(0, 3)):  # mostly timed, in time order
            t += draw(st.sampled_from([0.0, 0.25, 1.5]))
            unit["start"], unit["end"] = t, t + draw(st.sampled_from([0.0, 0.5, 2.0]))
        units.append(unit)
    return from_units("p", units, layer="iu", scheme=DUBOIS)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents())
def test_property_written_exb_reads_back(tmp_path: Path, doc) -> None:
    out = tmp_path / "p.exb"
    losses = LossReport()
    exmaralda.write(doc, out, losses=losses)
    back = exmaralda.read(out, scheme=DUBOIS)
    assert losses.kinds() <= {"reordered", "overlap-in-tier"}, losses.lines()
    if "reordered" not in losses.kinds():
        assert back.differences(doc) == []
    else:  # times that contradict the order (a unit starting before the previous one ends)
        assert {k: sorted(v) for k, v in back.token_texts().items()} == {
            k: sorted(v) for k, v in doc.token_texts().items()
        }
