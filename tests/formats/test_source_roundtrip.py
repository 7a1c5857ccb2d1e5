"""The source as written (segagree.model.source) and "lossless" measured (segagree.formats.roundtrip).

Labels are checked with independent readers (pympi for .eaf, praatio for TextGrid); the round
trip over ../shared/corpora runs every reader-writer pair on a sample (every file goes through
its own format; cross-format pairs take one file per source format, rotating) unless
SEGAGREE_ROUNDTRIP_ALL=1 asks for every file with every writer.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from segagree.api.documents import convert
from segagree.formats import adapters, file_kind, format_for, read_document, write_document
from segagree.formats.roundtrip import compare, is_named
from segagree.model.source import REPAIRS, Source, document_print, unit_values

from conftest import SHARED

EAF = """<?xml version="1.0" encoding="UTF-8"?>
<ANNOTATION_DOCUMENT AUTHOR="" DATE="2020-01-01T00:00:00+00:00" FORMAT="3.0" VERSION="3.0">
    <HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>
    <TIME_ORDER>
        <TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="0"/>
        <TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="1200"/>
        <TIME_SLOT TIME_SLOT_ID="ts3" TIME_VALUE="1500"/>
        <TIME_SLOT TIME_SLOT_ID="ts4" TIME_VALUE="2600"/>
        <TIME_SLOT TIME_SLOT_ID="ts5" TIME_VALUE="3000"/>
        <TIME_SLOT TIME_SLOT_ID="ts6" TIME_VALUE="3900"/>
    </TIME_ORDER>
    <TIER LINGUISTIC_TYPE_REF="transcription" PARTICIPANT="CHI" TIER_ID="CHI">
        <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2">
            <ANNOTATION_VALUE>what's that?</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
        <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a2" TIME_SLOT_REF1="ts3" TIME_SLOT_REF2="ts4">
            <ANNOTATION_VALUE>0.</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
    </TIER>
    <TIER LINGUISTIC_TYPE_REF="transcription" PARTICIPANT="MOT" TIER_ID="MOT">
        <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a3" TIME_SLOT_REF1="ts2" TIME_SLOT_REF2="ts3">
            <ANNOTATION_VALUE>nice  colors.</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
        <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a4" TIME_SLOT_REF1="ts5" TIME_SLOT_REF2="ts6">
            <ANNOTATION_VALUE>yeah,</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
    </TIER>
    <TIER LINGUISTIC_TYPE_REF="coding" PARENT_REF="CHI" PARTICIPANT="CHI" TIER_ID="vcm@CHI">
        <ANNOTATION><REF_ANNOTATION ANNOTATION_ID="a5" ANNOTATION_REF="a1">
            <ANNOTATION_VALUE>C</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>
    </TIER>
    <LINGUISTIC_TYPE GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="transcription" TIME_ALIGNABLE="true"/>
    <LINGUISTIC_TYPE CONSTRAINTS="Symbolic_Association" GRAPHIC_REFERENCES="false"
        LINGUISTIC_TYPE_ID="coding" TIME_ALIGNABLE="false"/>
    <CONSTRAINT DESCRIPTION="1-1 association with a parent annotation" STEREOTYPE="Symbolic_Association"/>
</ANNOTATION_DOCUMENT>
"""
VALUES = {"CHI": ["what's that?", "0."], "MOT": ["nice  colors.", "yeah,"]}


@pytest.fixture
def eaf(tmp_path: Path) -> Path:
    path = tmp_path / "aclew.eaf"
    path.write_text(EAF, encoding="utf-8")
    return path


def _pympi_values(path: Path) -> dict[str, list[str]]:
    from pympi.Elan import Eaf

    eaf = Eaf(str(path))
    return {t: [a[2] for a in sorted(eaf.get_annotation_data_for_tier(t))] for t in ("CHI", "MOT") if t in eaf.tiers}


def test_the_reader_keeps_each_value_as_written_and_scores_the_tokens(eaf: Path) -> None:
    doc = read_document(eaf)
    assert doc.token_texts() == {"CHI": ["what's", "that", "0"], "MOT": ["nice", "colors", "yeah"]}
    units = doc.units()
    got = {s: [v for u, v in zip(units, unit_values(doc, units), strict=True) if u.speaker == s] for s in VALUES}
    assert got == VALUES
    assert doc.source is not None and doc.source.structures == {"tier 'vcm@CHI'": 1}
    assert doc.source.file_bytes() == eaf.read_bytes()
    eaf.write_text(EAF.replace("0.", "1."), encoding="utf-8")  # the file changed since: not given back
    assert doc.source.file_bytes() is None


def test_an_unchanged_document_comes_back_byte_for_byte(eaf: Path, tmp_path: Path) -> None:
    doc = read_document(eaf)
    report = convert(doc, tmp_path / "same.eaf")
    assert (tmp_path / "same.eaf").read_bytes() == eaf.read_bytes()
    assert report.differences == [] and not report.write_losses
    # Through the native JSON too: the Source travels with the document.
    convert(doc, tmp_path / "doc.segagree.json")
    again = read_document(tmp_path / "doc.segagree.json")
    assert document_print(again) == doc.source.fingerprint
    write_document(again, tmp_path / "again.eaf")
    assert (tmp_path / "again.eaf").read_bytes() == eaf.read_bytes()


def test_a_changed_document_writes_each_unchanged_value_as_written(eaf: Path, tmp_path: Path) -> None:
    """Selecting a speaker changes the document: the file is written anew, and pympi reads the
    kept speaker's values as the annotator spelled them."""
    doc = read_document(eaf).select_speakers(["CHI"])
    assert not doc.source.unchanged(doc)
    report = convert(doc, tmp_path / "chi.eaf")
    assert (tmp_path / "chi.eaf").read_bytes() != eaf.read_bytes()
    assert _pympi_values(tmp_path / "chi.eaf") == {"CHI": VALUES["CHI"]}
    # The dependent tier is not written: measured, and named by the read loss.
    assert [d.field for d in report.differences] == ["structures"]
    assert is_named("structures", {loss.kind for loss in report.read_losses})
    assert read_document(tmp_path / "chi.eaf").token_texts() == {"CHI": ["what's", "that", "0"]}


def test_a_unit_whose_tokens_changed_is_written_from_its_tokens(eaf: Path, tmp_path: Path) -> None:
    doc = read_document(eaf)
    text = doc.column("text").copy()
    text[0] = "who's"
    changed = doc.replace(tokens={**{c: doc.column(c) for c in doc.column_names()}, "text": text})
    write_document(changed, tmp_path / "changed.eaf")
    assert _pympi_values(tmp_path / "changed.eaf")["CHI"] == ["who's that ?", "0."]


def test_eaf_to_textgrid_and_back_keeps_labels_and_tokens(eaf: Path, tmp_path: Path) -> None:
    """ELAN -> TextGrid -> ELAN: praatio reads the labels as written, pympi the values at the end,
    and scoring sees the same tokens and endnotes at every step."""
    from praatio import textgrid

    doc = read_document(eaf)
    report = convert(doc, tmp_path / "a.TextGrid")
    tg = textgrid.openTextgrid(str(tmp_path / "a.TextGrid"), includeEmptyIntervals=False)
    assert {t: [e.label for e in tg.getTier(t).entries] for t in ("CHI", "MOT")} == VALUES
    back = read_document(tmp_path / "a.TextGrid")
    assert back.token_texts() == doc.token_texts()
    assert np.array_equal(back.layer().boundaries, doc.layer().boundaries)
    # The dependent tier is the one difference, and the read report names it.
    assert [d.field for d in report.differences] == ["structures"]
    convert(back, tmp_path / "b.eaf")
    assert _pympi_values(tmp_path / "b.eaf") == VALUES


def test_a_label_the_target_cannot_read_as_its_tokens_is_respelled_and_reported(tmp_path: Path) -> None:
    """A table row reads words between spaces with a separate endnote: ``what's that?`` would
    read back as the token ``that?``, so the row is written from the tokens, and said."""
    doc = read_document(_eaf_file(tmp_path))
    report = convert(doc, tmp_path / "t.csv")
    # Every value of the fixture glues its endnote to its last word.
    assert [loss.count for loss in report.write_losses if loss.kind == "labels-respelled"] == [4]
    assert read_document(tmp_path / "t.csv").token_texts() == doc.token_texts()
    assert "nice colors ." in (tmp_path / "t.csv").read_text(encoding="utf-8")


def _eaf_file(tmp_path: Path) -> Path:
    path = tmp_path / "src.eaf"
    path.write_text(EAF, encoding="utf-8")
    return path


def test_compare_counts_each_field(eaf: Path) -> None:
    doc = read_document(eaf)
    same = read_document(eaf)
    assert compare(doc, same) == []
    starts = doc.column("start").copy()
    starts[0] += 0.25
    text = doc.column("text").copy()
    text[-1] = "yes"
    moved = doc.replace(tokens={**{c: doc.column(c) for c in doc.column_names()}, "start": starts, "text": text})
    moved.source = Source(values={}, structures={})
    found = {d.field: d.count for d in compare(doc, moved)}
    assert found == {"times": 1, "words": 1, "structures": 1}
    assert found["times"] == 1


def test_an_unnamed_difference_becomes_a_loss_of_its_own_kind(eaf: Path, tmp_path: Path, monkeypatch) -> None:
    """A writer that changes a token without saying so: convert measures it, names it
    ``words-changed`` and is not lossless."""
    from segagree.formats.elan import eaf as eaf_module

    real = eaf_module._add_annotations

    def sloppy(eaf_obj, doc, *args, **kwargs):  # type: ignore[no-untyped-def]
        text = doc.column("text").copy()
        text[0] = "WHAT"
        real(
            eaf_obj,
            doc.replace(tokens={**{c: doc.column(c) for c in doc.column_names()}, "text": text}),
            *args,
            **kwargs,
        )

    monkeypatch.setattr(eaf_module, "_add_annotations", sloppy)
    doc = read_document(eaf).select_speakers(["CHI", "MOT"])
    doc.meta = {**doc.meta, "changed": True}  # not the file as read: the writer runs
    report = convert(doc, tmp_path / "sloppy.eaf")
    added = [loss for loss in report.write_losses if loss.kind == "words-changed"]
    assert len(added) == 1 and added[0].count == 1
    assert not report.lossless


# --- every reader-writer pair over the shared corpora ----------------------------------------

ALL = os.environ.get("SEGAGREE_ROUNDTRIP_ALL") == "1"
CORPORA = SHARED / "corpora"
# Large corpora are sampled: these folders give their two smallest files.
_SAMPLED = {"sbc_iubound_prediction": 2, "rez": 2, "nccu": 2}


def _corpus_files() -> list[Path]:
    if not CORPORA.is_dir():
        return []
    files = [p for p in sorted(CORPORA.rglob("*")) if p.is_file() and file_kind(p)]
    if ALL:
        return files
    out: list[Path] = []
    for folder in sorted({p.relative_to(CORPORA).parts[0] for p in files}):
        mine = [p for p in files if p.relative_to(CORPORA).parts[0] == folder]
        keep = _SAMPLED.get(folder)
        out.extend(sorted(mine, key=lambda p: p.stat().st_size)[:keep] if keep else mine)
    return out


def _writers() -> list[str]:
    return [name for name, a in adapters().items() if a.can_write]


@pytest.mark.xdist_group("source-roundtrip")
def test_every_corpus_file_round_trips(tmp_path: Path) -> None:
    """Same format, unchanged: byte for byte. Every cross-format pair (a sample, see the module
    docstring): each difference the checker finds is named by a loss of the report, and a
    conversion with a difference is never lossless."""
    from segagree.errors import SegagreeError

    files = _corpus_files()
    if not files:
        pytest.skip(f"{CORPORA} is absent")
    writers = _writers()
    by_format: dict[str, list[tuple[Path, object]]] = {}
    not_identical, unnamed_found = [], []
    for path in files:
        try:
            doc = read_document(path)
        except SegagreeError:
            continue  # a corpus file segagree refuses (its own tests say why)
        own = format_for(path).name
        by_format.setdefault(own, []).append((path, doc))
        if own in writers:
            target = tmp_path / f"same{file_kind(path)}"
            convert(doc, target, check=False)
            repaired = any(loss.kind.startswith(REPAIRS) for loss in doc.losses)  # written anew, repaired
            if target.read_bytes() != path.read_bytes() and not repaired:
                not_identical.append(path.name)
    pairs = 0
    for docs in by_format.values():
        for k, writer in enumerate(writers):
            chosen = docs if ALL else [docs[k % len(docs)]]
            for path, doc in chosen:
                target = tmp_path / f"cross{adapters()[writer].extensions[0]}"
                try:
                    report = convert(doc, target, to=writer)
                except SegagreeError:
                    continue  # refused with a message: nothing written, nothing to compare
                pairs += 1
                kinds = {loss.kind for loss in [*report.read_losses, *report.write_losses]}
                for d in report.differences or []:
                    if not is_named(d.field, kinds) and f"{d.field}-changed" not in kinds:
                        unnamed_found.append(f"{path.name} -> {writer}: {d.line()}")
                if report.differences:
                    assert not report.lossless
    assert not not_identical, f"not given back byte for byte: {not_identical}"
    assert not unnamed_found, unnamed_found[:10]
    assert pairs >= len(by_format) * len(writers) // 2
