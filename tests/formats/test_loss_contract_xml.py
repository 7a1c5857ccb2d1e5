"""The loss-report contract on every real TextGrid, ELAN and Rezonator file.

For each file: read -> write the same format (native JSON for the read-only .rez) -> read
again. Every difference of the Documents, every tier of the source missing from the output and
every token column lost must appear in the read or write loss report; and when the report is
empty the two files must hold the same tiers and annotations (checked on the files' own
structure, parsed independently of the adapters' Document mapping), so "lossless" is true.
Files this module writes must themselves round-trip with an empty report.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from cli_process import run_cli

from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.formats import read_document, write_document
from segagree.formats.elan.eaf import _parse_xml
from segagree.formats.elan.parse import read_structure
from segagree.formats.praat.text_form import parse_textgrid
from segagree.model import Document, LossReport

from conftest import SHARED

CORPORA = SHARED / "corpora"
FILES = sorted(
    str(p.relative_to(CORPORA))
    for d in ("textgrid", "eaf", "rez")
    if (CORPORA / d).is_dir()
    for p in (CORPORA / d).iterdir()
)
OUT_EXT = {"textgrid": ".TextGrid", "eaf": ".eaf", "rez": ".segagree.json", "json": ".segagree.json"}
# Loss kinds that explain a change in the Document's speakers, tokens, times or layers.
DOC_KINDS = {
    "times-invented",
    "times-rounded",
    "times-dropped",
    "times-changed",
    "times-unaligned",
    "tokens-dropped",
    "tokens-changed",
    "units-dropped",
    "speakers-dropped",
    "layer-dropped",
    "layer-renamed",
    "types-dropped",
    "reordered",
    "overlap",
    "labels-dropped",
}

pytestmark = [
    pytest.mark.skipif(not FILES, reason=f"{CORPORA} is absent: the real files live in ../shared"),
    pytest.mark.xdist_group("loss-contract-xml"),  # one worker: the module's round trips are shared
]


RoundTrip = tuple[Document, Document, LossReport, Path]


def _round_trip(src: Path, tmp_path: Path) -> RoundTrip:
    return _write_and_read(read_document(src), src, tmp_path)


def _write_and_read(doc: Document, src: Path, tmp_path: Path) -> RoundTrip:
    """``doc`` (read from ``src``) written to its format in ``tmp_path`` and read back."""
    out = tmp_path / (src.name.split(".")[0] + ".out" + OUT_EXT[doc.source_format])
    if doc.source is not None:  # the writer's own form, not the file given back
        doc.source = doc.source.without_file()
    losses = write_document(doc, out)
    return doc, read_document(out), losses, out


@pytest.fixture(scope="module")
def first_round_trip(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], RoundTrip]:
    """Each real file's round trip, made once for the two tests that start from it (they only read it)."""
    folder = tmp_path_factory.mktemp("round-trips")

    @cache
    def made(name: str) -> RoundTrip:
        where = folder / str(FILES.index(name))
        where.mkdir()
        return _round_trip(CORPORA / name, where)

    return made


def _all_losses(doc: Document, losses: LossReport) -> list[str]:
    return [*doc.losses.lines(), *losses.lines()]


def _textgrid_structure(path: Path) -> dict[str, tuple]:
    """Tier name -> (class, range, non-empty items) of a TextGrid file."""
    tg = parse_textgrid(decode_text(read_bytes(path), path), path)
    return {
        t.name: (
            t.is_interval,
            round(t.xmin, 9),
            round(t.xmax, 9),
            [(round(i.start, 9), round(i.end, 9), " ".join(i.label.split())) for i in t.items if i.label.strip()],
        )
        for t in tg.tiers
    }


def _eaf_structure(path: Path) -> dict[str, tuple]:
    """Tier id -> (participant, parent, aligned annotations with ms times, ref annotations) of an .eaf file."""
    eaf = read_structure(_parse_xml(path), path)
    out = {}
    for name, tier in eaf.tiers.items():
        aligned = sorted((a, eaf.timeslots[s1], eaf.timeslots[s2], v) for a, s1, s2, v in tier.aligned if v.strip())
        refs = sorted((a, r, v, p) for a, (r, v, p) in tier.refs.items())
        out[name] = (tier.attrs.get("PARTICIPANT"), tier.attrs.get("PARENT_REF"), aligned, refs)
    return out


def structure(path: Path, fmt: str) -> dict[str, tuple] | None:
    return {"textgrid": _textgrid_structure, "eaf": _eaf_structure}.get(fmt, lambda _p: None)(path)


@pytest.mark.parametrize("name", FILES)
def test_every_difference_is_reported(name: str, first_round_trip: Callable[[str], RoundTrip]) -> None:
    src = CORPORA / name
    doc, back, losses, out = first_round_trip(name)
    reported = _all_losses(doc, losses)
    kinds = doc.losses.kinds() | losses.kinds()
    diffs = doc.differences(back, time_tol=0.0005 if doc.source_format == "eaf" else 1e-9)
    if diffs:
        assert kinds & DOC_KINDS, f"unreported differences {diffs[:3]}; report: {reported}"
    lost_columns = [c for c in doc.meta_columns() if c not in back.meta_columns()]
    if lost_columns:
        assert "meta-dropped" in kinds, f"token columns {lost_columns} lost without a report: {reported}"
    before, after = structure(src, doc.source_format), structure(out, doc.source_format)
    if before is not None:
        for tier in set(before) - set(after):
            assert any(repr(tier) in line or tier in line for line in reported) or kinds & {
                "tiers-renamed",
                "tiers-restructured",
            }, f"tier {tier!r} dropped without a report: {reported}"
        if not reported:  # "lossless": the files hold the same tiers and annotations
            assert before == after


@pytest.mark.parametrize("name", FILES)
def test_written_files_round_trip_without_losses(
    name: str, first_round_trip: Callable[[str], RoundTrip], tmp_path: Path
) -> None:
    """What segagree writes, it reads back and writes again identically, reporting nothing."""
    _doc, back, _losses, out = first_round_trip(name)  # back: ``out`` read back
    again, back2, losses2, out2 = _write_and_read(back, out, tmp_path)
    assert again.losses.lines() == [] and losses2.lines() == []
    assert again.differences(back2) == []
    assert structure(out, back.source_format) == structure(out2, back.source_format)


@pytest.mark.parametrize("name", FILES)
def test_native_json_of_every_file_is_lossless(name: str, tmp_path: Path) -> None:
    doc = read_document(CORPORA / name)
    out = tmp_path / "doc.segagree.json"
    assert write_document(doc, out).lines() == []
    back = read_document(out)
    assert back.losses.lines() == [] and doc.differences(back) == []
    assert back.meta == doc.meta  # JSON keeps the metadata a writer restores from


# --- the losses the issue names ------------------------------------------------------------

# A short-form TextGrid whose tier (1-4 s) is narrower than the file (0-5 s).
NARROW = (
    'File type = "ooTextFile"\nObject class = "TextGrid"\n\n0\n5\n<exists>\n1\n'
    '"IntervalTier"\n"A"\n1\n4\n2\n1\n2\n"so ,"\n2\n4\n""\n'
)


def test_point_tier_and_tier_ranges_reported_or_kept(tmp_path: Path) -> None:
    doc = read_document(CORPORA / "textgrid" / "praatio_mary.TextGrid")
    assert [(loss.kind, loss.where, loss.count) for loss in doc.losses] == [("tier-ignored", "tier 'pitch'", 4)]
    # A tier narrower than the file is written back with its own range.
    src = tmp_path / "narrow.TextGrid"
    src.write_text(NARROW, encoding="utf-8")
    doc = read_document(src)
    out = tmp_path / "out.TextGrid"
    assert doc.losses.lines() == [] and write_document(doc, out).lines() == []
    assert _textgrid_structure(out) == _textgrid_structure(src)


def test_three_flirt_lost_tokens_are_reported() -> None:
    doc = read_document(CORPORA / "rez" / "three-flirt-2501.rez")
    (loss,) = [x for x in doc.losses if x.kind == "tokens-dropped"]
    assert loss.count == 9 and "lit" in loss.where


def test_rez_gap_units_converted_to_textgrid_are_reported(tmp_path: Path) -> None:
    """sbc018.rez has a unit ``#`` (unintelligible): a TextGrid reads that label as a pause."""
    doc = read_document(CORPORA / "rez" / "sbc018.rez")
    assert sum(1 for _, toks in doc.iter_unit_texts() if toks == ["#"]) == 1
    losses = write_document(doc, tmp_path / "sbc.TextGrid")
    back = read_document(tmp_path / "sbc.TextGrid")
    assert back.n_tokens == doc.n_tokens - 1
    (loss,) = [x for x in losses if x.kind == "units-dropped"]
    assert loss.count == 1 and "'#'" in loss.where


def test_eaf_media_and_header_are_written_back(tmp_path: Path) -> None:
    src = CORPORA / "eaf" / "pympi_sample_3.0.eaf"
    doc = read_document(src)
    kinds = {(x.kind, x.message.split(" are ")[0]) for x in doc.losses}
    assert ("meta-dropped", "controlled vocabularies") in kinds and ("meta-dropped", "licence") in kinds
    out = tmp_path / "out.eaf"
    write_document(doc, out)
    a, b = read_structure(_parse_xml(src), src), read_structure(_parse_xml(out), out)
    assert a.media_descriptors == b.media_descriptors and a.media_descriptors
    assert a.header == b.header and a.adocument["VERSION"] == b.adocument["VERSION"]
    # Unit tiers keep their names, participants, annotators and linguistic types.
    src = CORPORA / "eaf" / "teicorpo_DOC_FR_2020_CHOIX_5.eaf"
    write_document(read_document(src), out)
    a, b = read_structure(_parse_xml(src), src), read_structure(_parse_xml(out), out)
    for tier in ("L1", "L2", "Observateur", "SD"):
        assert b.tiers[tier].attrs == a.tiers[tier].attrs


def test_internal_entity_in_an_annotation_reads_right(tmp_path: Path) -> None:
    path = tmp_path / "entity.eaf"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE ANNOTATION_DOCUMENT [<!ENTITY who "the fox">]>\n'
        '<ANNOTATION_DOCUMENT VERSION="3.0" AUTHOR="" DATE="2020-01-01T00:00:00+00:00" FORMAT="3.0">\n'
        '<HEADER TIME_UNITS="milliseconds"/>\n<TIME_ORDER><TIME_SLOT TIME_SLOT_ID="t1" TIME_VALUE="0"/>'
        '<TIME_SLOT TIME_SLOT_ID="t2" TIME_VALUE="1000"/></TIME_ORDER>\n<TIER LINGUISTIC_TYPE_REF="u" TIER_ID="A">'
        '<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="t1" TIME_SLOT_REF2="t2">'
        "<ANNOTATION_VALUE>see &who; &amp; run .</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION></TIER>\n"
        '<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="u" TIME_ALIGNABLE="true"/>\n</ANNOTATION_DOCUMENT>\n',
        encoding="utf-8",
    )
    doc = read_document(path)
    assert doc.tokens["text"].tolist() == ["see", "the", "fox", "&", "run"]
    assert not math.isnan(doc.tokens["start"].iat[0])


def test_convert_never_says_lossless_for_a_lossy_conversion(tmp_path: Path) -> None:
    from conftest import REPO

    def convert(src: Path, out: Path) -> str:
        proc = run_cli(["convert", src, "-o", out], cwd=REPO)
        assert proc.returncode == 0, proc.stderr
        return proc.stderr

    # (to its own format the unchanged file is given back whole, point tier included: lossless)
    err = convert(CORPORA / "textgrid" / "praatio_mary.TextGrid", tmp_path / "mary.eaf")
    assert "lossless" not in err and "pitch" in err
    src = tmp_path / "plain.TextGrid"
    src.write_text(NARROW, encoding="utf-8")
    assert "lossless" in convert(src, tmp_path / "plain.out.TextGrid")
