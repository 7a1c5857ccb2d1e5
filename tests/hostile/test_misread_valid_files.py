"""Valid files that were misread , each from a form found in real files
(/work/realdata/hostile/SOURCES.md lists where): an event straight after a CHAT overlap mark, an
ELAN file whose one top-level tier has a symbolic type but times, Praat's other number forms,
and ``degrade --shift`` on tagged text of one sentence per line.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hostile import seeded

from segagree.formats import read_document
from segagree.formats.chat.marks import tokenise
from segagree.scoring.subtitles.breaks import subtitle_breaks
from segagree.subtitle_tools.degrade import degrade_document

from conftest import SHARED

# --- CHAT: `⌊&=in We're` ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "words"),
    [
        # SBCSAE 13 writes `⌊ &=laugh ⌋ &=in .`; CHAT also allows the mark glued to the event
        # (TalkBank's own grammar documents `⌊&=canta⌋`).
        ("⌊&=in We're going ⌋ .", ["We're", "going"]),
        ("⌈2&=laughs yeah ⌉2 .", ["yeah"]),
        ("so ⌊&-uh I ⌋ know .", ["so", "uh", "I", "know"]),
        ("⌊&+fr friends ⌋ .", ["fr-", "friends"]),
        ("⌊ &=in We're ⌋ .", ["We're"]),  # the spaced form reads the same
    ],
)
def test_an_event_glued_to_an_overlap_mark_is_an_event(line: str, words: list[str]) -> None:
    assert tokenise(line, ca=False)[0] == words


def test_a_chat_file_with_a_glued_event_reads_without_an_amp_token(tmp_path: Path) -> None:
    path = tmp_path / "glued.cha"
    path.write_text(
        "@UTF8\n@Begin\n@Participants:\tJOE Joe Adult, ANN Ann Adult\n@Options:\tCA\n"
        "*JOE:\tand then we ⌈went⌉ \x150_1000\x15\n*ANN:\t⌊&=in We're⌋ here . \x15900_2000\x15\n@End\n",
        encoding="utf-8",
    )
    doc = read_document(path)
    texts = [t for words in doc.token_texts().values() for t in words]
    assert not any(t.startswith("&") for t in texts), texts
    assert doc.token_texts()["Ann"] == ["we're", "here"]


# --- ELAN: the one top-level tier has a symbolic linguistic type but time-aligned annotations -----

_EAF = """<?xml version="1.0" encoding="UTF-8"?>
<ANNOTATION_DOCUMENT AUTHOR="" DATE="2024-01-01T00:00:00+00:00" FORMAT="3.0" VERSION="3.0">
<HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>
<TIME_ORDER><TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="0"/><TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="1500"/>
<TIME_SLOT TIME_SLOT_ID="ts3" TIME_VALUE="2000"/><TIME_SLOT TIME_SLOT_ID="ts4" TIME_VALUE="3000"/></TIME_ORDER>
<TIER LINGUISTIC_TYPE_REF="{type}" PARTICIPANT="Mary" TIER_ID="Mary">
<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2">
<ANNOTATION_VALUE>so we went home .</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a2" TIME_SLOT_REF1="ts3" TIME_SLOT_REF2="ts4">
<ANNOTATION_VALUE>and then ?</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
</TIER>
<LINGUISTIC_TYPE GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="default-lt" TIME_ALIGNABLE="true"/>
<LINGUISTIC_TYPE CONSTRAINTS="Symbolic_Association" GRAPHIC_REFERENCES="false"
 LINGUISTIC_TYPE_ID="transcription" TIME_ALIGNABLE="false"/>
<CONSTRAINT DESCRIPTION="x" STEREOTYPE="Symbolic_Association"/>
</ANNOTATION_DOCUMENT>
"""


def test_elan_only_tier_declared_symbolic_but_timed_is_read_and_reported(tmp_path: Path) -> None:
    symbolic = tmp_path / "symbolic.eaf"
    symbolic.write_text(_EAF.format(type="transcription"), encoding="utf-8")
    aligned = tmp_path / "aligned.eaf"
    aligned.write_text(_EAF.format(type="default-lt"), encoding="utf-8")
    doc, expected = read_document(symbolic), read_document(aligned)
    assert doc.token_texts() == expected.token_texts() == {"Mary": ["so", "we", "went", "home", "and", "then"]}
    assert np.array_equal(doc.tokens["start"].to_numpy(), expected.tokens["start"].to_numpy(), equal_nan=True)
    assert "repaired" in doc.losses.kinds() and "repaired" not in expected.losses.kinds()
    # Naming the tier still reads it the same way.
    assert read_document(symbolic, tiers=["Mary"]).token_texts() == doc.token_texts()


# --- Praat: the number forms Praat reads ----------------------------------------------------

_TG = """File type = "ooTextFile"
Object class = "TextGrid"

xmin = {xmin}
xmax = {xmax}
tiers? <exists>
size = 1
item []:
    item [1]:
        class = "IntervalTier"
        name = "A"
        xmin = {xmin}
        xmax = {xmax}
        intervals: size = 2
        intervals [1]:
            xmin = {xmin}
            xmax = {mid}
            text = "hello there ."
        intervals [2]:
            xmin = {mid}
            xmax = {xmax}
            text = "yes ."
"""


@pytest.mark.parametrize(
    ("xmin", "mid", "xmax"),
    [
        ("+0", "+1.5", "+3"),  # a leading plus
        ("0%", "150%", "300%"),  # percents: Praat divides by 100
        ("0/1", "3/2", "6/2"),  # fractions
        ("0", "1.5e0", "3E+0"),  # exponents, as before
    ],
)
def test_praat_number_forms_read_as_praat_reads_them(tmp_path: Path, xmin: str, mid: str, xmax: str) -> None:
    plain = tmp_path / "plain.TextGrid"
    plain.write_text(_TG.format(xmin="0", mid="1.5", xmax="3"), encoding="utf-8")
    other = tmp_path / "other.TextGrid"
    other.write_text(_TG.format(xmin=xmin, mid=mid, xmax=xmax), encoding="utf-8")
    a, b = read_document(plain), read_document(other)
    assert a.token_texts() == b.token_texts()
    for col in ("start", "end"):
        assert np.allclose(a.tokens[col].to_numpy(), b.tokens[col].to_numpy(), equal_nan=True)


@pytest.mark.parametrize("bad", ["1/0", "1//2", "5%%", "1/", "%5"])
def test_praat_malformed_numbers_are_still_refused(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "bad.TextGrid"
    path.write_text(_TG.format(xmin="0", mid=bad, xmax="3"), encoding="utf-8")
    with pytest.raises(Exception, match="line"):
        read_document(path)


# --- degrade --shift on sentence lines -------------------------------------------------------

_TAGGED = (
    "Imagine waking up to a stranger <eob> sometimes many <eol> strangers . <eob>\n"
    "Welcome to the world of it . <eob>\n"
    "The kind of <eol> harassment that women face <eob> is very serious . <eob>\n"
    "It is a form <eol> of oppression . <eob>\n"
)


def _breaks_per_sentence(doc) -> tuple[list[int], list[bool]]:
    b = subtitle_breaks(doc)
    sentence = np.concatenate(([0], np.cumsum(b.sentence_ends[:-1])))
    counts = np.bincount(sentence, weights=(b.codes != 0)).astype(int).tolist()
    return counts, (b.codes[b.sentence_ends] != 0).tolist()


def _tagged_sources(tmp_path: Path) -> list[Path]:
    own = tmp_path / "own.tagged"
    own.write_text(_TAGGED, encoding="utf-8")
    real = SHARED / "corpora" / "subtitles_tagged" / "amara.en"
    return [own] + ([real] if real.is_file() else [])


def test_degrade_shift_keeps_each_sentence_its_breaks(tmp_path: Path) -> None:
    for src in _tagged_sources(tmp_path):
        doc = read_document(src, "tagged")
        counts, final = _breaks_per_sentence(doc)
        assert all(final)
        for case, _ in seeded(30):
            out = degrade_document(doc, "shift", 1.0, seed=case, n=3).document
            assert _breaks_per_sentence(out) == (counts, final), (src.name, case)
