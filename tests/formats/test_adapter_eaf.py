"""ELAN .eaf reader and writer: the six real files (facts checked by hand in the XML),
round trips, word-tier order, time handling, errors, and pympi kept off stdout."""

from __future__ import annotations

import logging
import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from lxml import etree

from segagree.errors import InputError, UsageError
from segagree.formats.elan import eaf
from segagree.model import builtin_scheme, from_units
from segagree.model.losses import LossReport

from conftest import shared_path

DUBOIS = builtin_scheme("dubois")
TOL = 0.0005


def _read(path: Path, **options: Any):
    return eaf.read(path, scheme=DUBOIS, **options)


def _units(doc):
    return [(u.speaker, toks, DUBOIS.symbol(u.boundary)) for u, toks in doc.iter_unit_texts("iu")]


def _roundtrip(doc, tmp_path: Path, name: str = "out.eaf"):
    losses = LossReport()
    out = tmp_path / name
    eaf.write(doc, out, losses=losses)
    return _read(out), losses, out


# --- the real files ---------------------------------------------------------------------

REAL: dict[str, dict[str, Any]] = {
    "pympi_sample_3.0.eaf": {
        "unit_tiers": {"text": "text", "gestures": "gestures"},
        "word_tiers": {"text": "words-symsub"},
        "ignored": ["words-timesub", "gest_included", "words-pos"],
        "speakers": {"text": 399, "gestures": 1197},
        "tokens": 399 * 5 + 1197,
        "first": ("gestures", ["prep"], ";", 1.8, 2.4),
        "last": ("gestures", ["stroke"], ";"),
        "types": {";": 1596},
    },
    "teicorpo_DOC_FR_2020_CHOIX_5.eaf": {
        "unit_tiers": {"L1": "Mélanie", "L2": "Eloise", "Observateur": "Rou", "SD": "Mélanie"},
        "word_tiers": {},
        "ignored": ["default"],
        "speakers": {"Mélanie": 22 + 6, "Eloise": 15, "Rou": 1},  # L1 has 2 blank annotations
        "tokens": 739,
        "first": ("Mélanie", ["<alors", "moi", "moi", "j'ai"], ";", 2.75, 102.79),
        "last": ("Mélanie", ["0.181"], ";"),
        "types": {";": 44},
    },
    "teicorpo_TestElan2.eaf": {
        "unit_tiers": {"ref@SP": "ref@SP"},
        "word_tiers": {"ref@SP": "mot@SP"},
        "ignored": ["tx@SP", "ft@SP", "mb@SP", "ge@SP", "rx@SP"],
        "speakers": {"ref@SP": 65},
        "tokens": 195,
        "first": ("ref@SP", ["BI-435"], ";", 0.585, 1.021),
        "last": ("ref@SP", ["azəkka", "addd", "tqq°əl", "təmṭṭutnni", "/"], ";"),
        "types": {";": 65},
    },
    "teicorpo_clan_short.eaf": {
        "unit_tiers": {"CHI": "Lily", "MOT": "MOT"},
        "word_tiers": {},
        "ignored": ["CHI-gra", "CHI-mod", "CHI-mor", "CHI-pho", "MOT-gra", "MOT-mor"],
        "speakers": {"Lily": 2, "MOT": 2},
        "tokens": 9,  # 13 whitespace tokens minus 4 CHAT endnotes
        "first": ("Lily", ["I", "did"], ".", 0.835, 3.665),
        "last": ("MOT", ["okay"], "."),
        "types": {".": 3, "?": 1},
    },
    "teicorpo_essai-filled-time.eaf": {
        "unit_tiers": {"default": "default", "main": "main", "other": "other"},
        "word_tiers": {"main": "tdep"},
        "ignored": ["inc"],
        "speakers": {"default": 4, "main": 4, "other": 4},
        "tokens": 12,
        "first": ("main", ["dep"], ";", 0.28, 1.34),
        "last": ("default", ["ESSAI4"], ";"),
        "types": {";": 12},
    },
    "teicorpo_test.eaf": {
        "unit_tiers": {"spk1": "L1", "spk2": "L2"},
        "word_tiers": {},
        "ignored": [],
        "speakers": {"L1": 89, "L2": 104},  # 24 annotations reuse an id; all are kept
        "tokens": 1496 - 8,  # whitespace tokens minus 8 standalone "?"
        "first": ("L1", ["salut", "ça", "va"], ";", 0.0, 0.692),
        "last": ("L2", ["à", "la", "prochaine", "[=!conv", "/end/N]"], ";"),
        "types": {";": 185, "?": 8},
    },
}


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_file_facts(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    facts = REAL[name]
    doc = _read(shared_path("corpora", "eaf", name))
    assert capsys.readouterr().out == ""  # pympi's notices never reach stdout
    units = _units(doc)
    assert doc.source_format == "eaf"
    assert doc.meta["unit_tiers"] == facts["unit_tiers"]
    assert doc.meta["word_tiers"] == facts["word_tiers"]
    assert doc.meta["ignored_tiers"] == facts["ignored"]
    assert doc.speakers == list(facts["speakers"])
    assert Counter(s for s, _, _ in units) == Counter(facts["speakers"])
    assert doc.n_tokens == facts["tokens"]
    speaker, first_tokens, first_type, start, end = facts["first"]
    assert units[0][0] == speaker and units[0][2] == first_type
    assert units[0][1][: len(first_tokens)] == first_tokens
    rows = doc.units("iu")[0].rows
    assert doc.tokens["start"][rows[0]] == pytest.approx(start)
    assert doc.tokens["end"][rows[-1]] == pytest.approx(end)
    assert units[-1] == facts["last"]
    assert Counter(t for _, _, t in units) == facts["types"]
    doc.validate()


def test_clan_endnotes_are_separate_tokens() -> None:
    doc = _read(shared_path("corpora", "eaf", "teicorpo_clan_short.eaf"))
    assert _units(doc) == [
        ("Lily", ["I", "did"], "."),
        ("MOT", ["you", "did"], "?"),
        ("Lily", ["I", "did", "find", "yyy"], "."),
        ("MOT", ["okay"], "."),
    ]


def test_duplicate_annotation_ids_are_all_kept() -> None:
    doc = _read(shared_path("corpora", "eaf", "teicorpo_test.eaf"))
    assert len(doc.meta["duplicate_annotation_ids"]) == 24
    texts = [" ".join(t) for _, t, _ in _units(doc)]
    # Both annotations with id au33 are there (pympi alone keeps only the second).
    assert "[=!e /instantaneous/N] [=![silence] /instantaneous/N]" in texts
    assert "et [=!allongement voyelle /previous/COM] sinon tu fais quoi ce soir" in texts


def test_tier_selection_and_speaker_from(tmp_path: Path) -> None:
    path = shared_path("corpora", "eaf", "teicorpo_DOC_FR_2020_CHOIX_5.eaf")
    doc = _read(path, tiers=["L2", "L1"])
    assert doc.speakers == ["Eloise", "Mélanie"]
    assert doc.meta["unit_tiers"] == {"L2": "Eloise", "L1": "Mélanie"}
    assert "SD" in doc.meta["ignored_tiers"]
    by_tier = _read(path, speaker_from="tier")
    assert by_tier.speakers == ["L1", "L2", "Observateur", "SD"]
    with pytest.raises(UsageError, match="no tier 'nope'"):
        _read(path, tiers=["nope"])
    with pytest.raises(UsageError, match="speaker_from"):
        _read(path, speaker_from="name")
    sample = shared_path("corpora", "eaf", "pympi_sample_3.0.eaf")
    with pytest.raises(UsageError, match="no times of its own"):
        _read(sample, tiers=["words-symsub"])


# --- round trips ------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_file_round_trip(name: str, tmp_path: Path) -> None:
    doc = _read(shared_path("corpora", "eaf", name))
    back, losses, _ = _roundtrip(doc, tmp_path)
    assert doc.differences(back, time_tol=TOL) == []
    # teicorpo_test.eaf reuses 24 annotation ids; ELAN ids are unique, so they are renumbered.
    expected = [("ids-renumbered", 24)] if name == "teicorpo_test.eaf" else []
    assert [(loss.kind, loss.count) for loss in losses] == expected
    # Tier names, annotation ids, media descriptors and properties are written back.
    assert back.tokens["tier"].tolist() == doc.tokens["tier"].tolist()
    if not expected:
        assert back.tokens["annotation_id"].tolist() == doc.tokens["annotation_id"].tolist()
    assert back.meta["media_descriptors"] == doc.meta["media_descriptors"]
    assert back.meta["property_list"] == doc.meta["property_list"]
    assert back.meta["eaf_version"] == doc.meta["eaf_version"]


def _built_doc(with_times: bool = True):
    u = [
        # speaker, tokens, symbol, start, end
        ("JOE", ["so", "I", "went"], ",", 0.1004, 1.2),
        ("MARY", ["really"], "?", 0.9, 1.5),  # overlaps JOE
        ("JOE", ["and", "they", "said"], "--", 1.2, 2.0),
        ("JOE", ["no"], ".", 2.0, 2.6),
        ("MARY", ["(H)", "Dr.", "Smith"], ";", 2.5, 3.25),  # unclassified, a "." in a word
        ("MARY", ["Dr."], ".", 3.3, 3.6),
        ("JOE", ["@@", "..."], ";", 3.5, 4.0),  # ends in a pause: no endnote
        ("MARY", ["New York", ","], ",", 4.0, 4.5),  # a token with a space, a "," token
    ]
    units = [
        {
            "speaker": s,
            "tokens": toks,
            "boundary": DUBOIS.code(sym),
            "start": start if with_times else None,
            "end": end if with_times else None,
        }
        for s, toks, sym, start, end in u
    ]
    turn = builtin_scheme("turn")
    turns = [[0] * (len(x["tokens"]) - 1) + [1] for x in units]
    return from_units("built", units, layer="iu", scheme=DUBOIS, extra_layers={"turn": (turn, turns)})


def test_built_document_round_trip(tmp_path: Path) -> None:
    doc = _built_doc()
    back, losses, out = _roundtrip(doc, tmp_path)
    del doc.layers["turn"]
    assert doc.differences(back, time_tol=TOL) == []
    kinds = [loss.kind for loss in losses]
    assert kinds == ["layer-dropped", "times-rounded"]
    # Written layout: one IU tier and one Symbolic_Subdivision word tier per speaker.
    root = etree.parse(str(out)).getroot()
    tiers = {t.get("TIER_ID"): t for t in root.iter("TIER")}
    assert set(tiers) == {"JOE", "JOE-words", "MARY", "MARY-words"}
    assert tiers["JOE-words"].get("PARENT_REF") == "JOE"
    assert tiers["MARY"].get("PARTICIPANT") == "MARY"
    types = {lt.get("LINGUISTIC_TYPE_ID"): lt.get("CONSTRAINTS") for lt in root.iter("LINGUISTIC_TYPE")}
    assert types[tiers["JOE-words"].get("LINGUISTIC_TYPE_REF")] == "Symbolic_Subdivision"
    values = [a.findtext("ANNOTATION_VALUE") for a in tiers["JOE"].iter("ALIGNABLE_ANNOTATION")]
    assert values == ["so I went ,", "and they said --", "no .", "@@ ..."]
    slots = {s.get("TIME_SLOT_ID"): s.get("TIME_VALUE") for s in root.iter("TIME_SLOT")}
    first = next(tiers["JOE"].iter("ALIGNABLE_ANNOTATION"))
    assert slots[first.get("TIME_SLOT_REF1")] == "100"  # 0.1004 s rounded to ms


def test_document_without_times_gets_invented_times(tmp_path: Path) -> None:
    doc = _built_doc(with_times=False)
    del doc.layers["turn"]
    back, losses, out = _roundtrip(doc, tmp_path)
    assert [loss.kind for loss in losses] == ["times-invented"]
    # The header says the times are invented, so reading gives NaN times again.
    assert doc.differences(back) == []
    assert not back.has_times and back.meta["times_invented"]
    root = etree.parse(str(out)).getroot()
    values = sorted(int(s.get("TIME_VALUE")) for s in root.iter("TIME_SLOT"))
    assert values == list(range(0, 9000, 1000))  # 1 s per unit, 8 units


def test_overlapping_units_of_one_speaker_go_to_an_extra_tier(tmp_path: Path) -> None:
    units = [
        {"speaker": "A", "tokens": ["one"], "boundary": 1, "start": 0.0, "end": 2.0},
        {"speaker": "A", "tokens": ["two"], "boundary": 2, "start": 1.0, "end": 3.0},
        {"speaker": "A", "tokens": ["three"], "boundary": 3, "start": 3.0, "end": 4.0},
    ]
    doc = from_units("ov", units, layer="iu", scheme=DUBOIS)
    back, losses, out = _roundtrip(doc, tmp_path)
    assert doc.differences(back, time_tol=TOL) == []
    tiers = [t.get("TIER_ID") for t in etree.parse(str(out)).getroot().iter("TIER")]
    assert tiers == ["A", "A-words", "A (2)", "A (2)-words"]
    assert back.speakers == ["A"]


def test_order_loss_when_discourse_order_is_not_time_order(tmp_path: Path) -> None:
    units = [
        {"speaker": "A", "tokens": ["late"], "boundary": 1, "start": 5.0, "end": 6.0},
        {"speaker": "B", "tokens": ["early"], "boundary": 2, "start": 1.0, "end": 2.0},
    ]
    doc = from_units("order", units, layer="iu", scheme=DUBOIS)
    back, losses, _ = _roundtrip(doc, tmp_path)
    assert [loss.kind for loss in losses] == ["reordered"]
    assert back.tokens["text"].tolist() == ["early", "late"]


def test_rez_to_eaf_keeps_tokens_and_types(tmp_path: Path) -> None:
    from segagree.formats import rez

    doc = rez.read(shared_path("corpora", "rez", "sbc018.rez"), scheme=DUBOIS)
    back, losses, _ = _roundtrip(doc, tmp_path)
    assert {loss.kind for loss in losses} == {"layer-dropped", "reordered", "meta-dropped"}
    # ELAN orders by time, so compare each speaker's stream.
    assert back.token_texts() == doc.token_texts()
    for s, arr in doc.boundary_arrays("iu").items():
        assert np.array_equal(arr, back.boundary_arrays("iu")[s])


# --- synthetic files ---------------------------------------------------------------------

HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<ANNOTATION_DOCUMENT AUTHOR="" DATE="2024-01-01T00:00:00+00:00" FORMAT="3.0" '
    'VERSION="{version}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"{schema}>\n'
    '<HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>\n'
)
TYPES = (
    '<LINGUISTIC_TYPE GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="utt" '
    'TIME_ALIGNABLE="true"/>\n'
    '<LINGUISTIC_TYPE CONSTRAINTS="Symbolic_Subdivision" GRAPHIC_REFERENCES="false" '
    'LINGUISTIC_TYPE_ID="sym" TIME_ALIGNABLE="false"/>\n'
    '<LINGUISTIC_TYPE CONSTRAINTS="Time_Subdivision" GRAPHIC_REFERENCES="false" '
    'LINGUISTIC_TYPE_ID="tsub" TIME_ALIGNABLE="true"/>\n'
    '<CONSTRAINT DESCRIPTION="x" STEREOTYPE="Symbolic_Subdivision"/>\n'
    '<CONSTRAINT DESCRIPTION="x" STEREOTYPE="Time_Subdivision"/>\n'
    "</ANNOTATION_DOCUMENT>\n"
)


def _eaf_file(path: Path, body: str, *, version: str = "3.0", schema: bool = True) -> Path:
    attr = ' xsi:noNamespaceSchemaLocation="http://www.mpi.nl/tools/elan/EAFv3.0.xsd"'
    head = HEAD.format(version=version, schema=attr if schema else "")
    path.write_text(head + body + TYPES, encoding="utf-8")
    return path


def _align(aid: str, t1: str, t2: str, value: str) -> str:
    return (
        f'<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="{aid}" TIME_SLOT_REF1="{t1}" '
        f'TIME_SLOT_REF2="{t2}"><ANNOTATION_VALUE>{value}</ANNOTATION_VALUE>'
        "</ALIGNABLE_ANNOTATION></ANNOTATION>"
    )


def _ref(aid: str, parent: str, value: str, prev: str | None = None) -> str:
    p = f' PREVIOUS_ANNOTATION="{prev}"' if prev else ""
    return (
        f'<ANNOTATION><REF_ANNOTATION ANNOTATION_ID="{aid}" ANNOTATION_REF="{parent}"{p}>'
        f"<ANNOTATION_VALUE>{value}</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>"
    )


def test_symbolic_words_follow_previous_annotation_chain(tmp_path: Path) -> None:
    body = (
        '<TIME_ORDER><TIME_SLOT TIME_SLOT_ID="t1" TIME_VALUE="1000"/>'
        '<TIME_SLOT TIME_SLOT_ID="t2" TIME_VALUE="2500"/></TIME_ORDER>\n'
        '<TIER LINGUISTIC_TYPE_REF="utt" TIER_ID="utt@K" PARTICIPANT="Kim">'
        + _align("a1", "t1", "t2", "whatever the value says")
        + "</TIER>\n"
        '<TIER LINGUISTIC_TYPE_REF="sym" PARENT_REF="utt@K" TIER_ID="w@K">'
        # Document order w3 w1 w2; the chain says w1 -> w2 -> w3.
         + _ref("w3", "a1", "?", "w2") + _ref("w1", "a1", "are") + _ref("w2", "a1", "you", "w1") + "</TIER>\n"
    )
    doc = _read(_eaf_file(tmp_path / "chain.eaf", body))
    assert _units(doc) == [("Kim", ["are", "you"], "?")]
    assert doc.tokens["start"].tolist()[0] == 1.0 and doc.tokens["end"].tolist()[-1] == 2.5
    assert doc.meta["word_tiers"] == {"utt@K": "w@K"}


def test_time_subdivision_words_and_unaligned_slots(tmp_path: Path) -> None:
    body = (
        '<TIME_ORDER><TIME_SLOT TIME_SLOT_ID="t1" TIME_VALUE="0"/>'
        '<TIME_SLOT TIME_SLOT_ID="t2"/><TIME_SLOT TIME_SLOT_ID="t3" TIME_VALUE="1500"/>'
        '<TIME_SLOT TIME_SLOT_ID="t4" TIME_VALUE="3000"/></TIME_ORDER>\n'
        '<TIER LINGUISTIC_TYPE_REF="utt" TIER_ID="S">' + _align("a1", "t1", "t4", "one two three.") + "</TIER>\n"
        '<TIER LINGUISTIC_TYPE_REF="tsub" PARENT_REF="S" TIER_ID="S-w">'
        + _align("b2", "t2", "t3", "two")
        + _align("b1", "t1", "t2", "one")
        + _align("b3", "t3", "t4", "three.")
        + "</TIER>\n"
    )
    doc = _read(_eaf_file(tmp_path / "tsub.eaf", body, schema=False))  # no schema attribute
    # Word tier present: its words are the tokens; a glued "." in a word is not split off.
    assert _units(doc) == [("S", ["one", "two", "three."], ";")]
    starts, ends = doc.tokens["start"].tolist(), doc.tokens["end"].tolist()
    assert starts[0] == 0.0 and math.isnan(starts[1]) and starts[2] == 1.5
    assert math.isnan(ends[0]) and ends[1] == 1.5 and ends[2] == 3.0
    back, losses, _ = _roundtrip(doc, tmp_path)
    assert [loss.kind for loss in losses] == ["times-dropped"]
    assert back.token_texts() == doc.token_texts()


def test_blank_and_endnote_only_annotations(tmp_path: Path) -> None:
    body = (
        '<TIME_ORDER><TIME_SLOT TIME_SLOT_ID="t1" TIME_VALUE="0"/>'
        '<TIME_SLOT TIME_SLOT_ID="t2" TIME_VALUE="1000"/>'
        '<TIME_SLOT TIME_SLOT_ID="t3" TIME_VALUE="2000"/>'
        '<TIME_SLOT TIME_SLOT_ID="t4" TIME_VALUE="3000"/></TIME_ORDER>\n'
        '<TIER LINGUISTIC_TYPE_REF="utt" TIER_ID="A">'
        + _align("a1", "t1", "t2", "  ")
        + _align("a2", "t2", "t3", ".")
        + _align("a3", "t3", "t4", "fine.")
        + "</TIER>\n"
        '<TIER LINGUISTIC_TYPE_REF="utt" TIER_ID="empty"></TIER>\n'
    )
    doc = _read(_eaf_file(tmp_path / "blank.eaf", body))
    assert _units(doc) == [("A", ["fine"], ".")]
    assert doc.meta["empty_annotations"] == 1
    assert doc.meta["dropped_units"] == [{"tier": "A", "annotation": "a2", "value": "."}]
    assert doc.meta["ignored_tiers"] == ["empty"]


def test_unknown_version_notice_is_logged_not_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    body = (
        '<TIME_ORDER><TIME_SLOT TIME_SLOT_ID="t1" TIME_VALUE="0"/>'
        '<TIME_SLOT TIME_SLOT_ID="t2" TIME_VALUE="1000"/></TIME_ORDER>\n'
        '<TIER LINGUISTIC_TYPE_REF="utt" TIER_ID="A">' + _align("a1", "t1", "t2", "hi ,") + "</TIER>\n"
    )
    path = _eaf_file(tmp_path / "v26.eaf", body, version="2.6")
    with caplog.at_level(logging.WARNING, logger="segagree.formats.elan.eaf"):
        doc = _read(path)
    assert _units(doc) == [("A", ["hi"], ",")]
    assert capsys.readouterr().out == ""
    assert any("unknown version" in r.getMessage() for r in caplog.records)


# --- errors ------------------------------------------------------------------------------


def test_truncated_xml_is_a_one_line_error(tmp_path: Path) -> None:
    raw = shared_path("corpora", "eaf", "teicorpo_clan_short.eaf").read_bytes()
    cut = tmp_path / "cut.eaf"
    cut.write_bytes(raw[: len(raw) // 2])
    last_line = raw[: len(raw) // 2].count(b"\n") + 1
    with pytest.raises(InputError) as info:
        _read(cut)
    msg = str(info.value)
    assert "\n" not in msg
    assert msg.startswith(f"{cut}: line {last_line} column ")
    assert "not well-formed XML" in msg


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "empty file"),
        (b"   \n", "empty file"),
        (b"<?xml version='1.0'?><TextGrid/>", "expected <ANNOTATION_DOCUMENT>"),
        (b"not xml at all", "not well-formed XML"),
    ],
)
def test_bad_files(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "bad.eaf"
    path.write_bytes(content)
    with pytest.raises(InputError, match=expected) as info:
        _read(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_file_without_unit_tiers(tmp_path: Path) -> None:
    # An empty time-aligned tier is a tier with no units (as a blank TextGrid tier is)...
    body = '<TIME_ORDER/>\n<TIER LINGUISTIC_TYPE_REF="utt" TIER_ID="default"></TIER>\n'
    doc = _read(_eaf_file(tmp_path / "empty.eaf", body))
    assert len(doc.tokens) == 0 and doc.speakers == ["default"]
    # ... a file with no tier at all has nothing to read.
    with pytest.raises(InputError, match="no top-level time-aligned tier"):
        _read(_eaf_file(tmp_path / "none.eaf", "<TIME_ORDER/>\n"))


def test_writer_writes_exactly_the_given_path(tmp_path: Path) -> None:
    target = tmp_path / "given.eaf"
    target.write_text("placeholder")  # the registry hands over an existing temp file
    eaf.write(_built_doc(), target, losses=LossReport())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["given.eaf"]
    assert _read(target).n_tokens == _built_doc().n_tokens


def test_adapter_record() -> None:
    assert eaf.ADAPTER.name == "eaf"
    assert eaf.ADAPTER.extensions == (".eaf",)
    assert eaf.ADAPTER.can_write
