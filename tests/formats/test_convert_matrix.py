"""Any-to-any conversion: every pair of writable formats; where no loss is reported, nothing is lost."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from cli_process import run_cli

from segagree.formats import adapters, read_document, write_document
from segagree.model import builtin_scheme, from_units

from conftest import REPO, shared_path

SAMPLE = REPO / "sample_corpora"
WRITABLE = {
    "text": ".txt",
    "table": ".csv",
    "json": ".segagree.json",
    "eaf": ".eaf",
    "textgrid": ".TextGrid",
    "srt": ".srt",
    "vtt": ".vtt",
    "chat": ".cha",
    "transcriber": ".trs",
    "exmaralda": ".exb",
    "tagged": ".tagged",
    "conllu": ".conllu",
    "rttm": ".rttm",
    "ctm": ".ctm",
    "edus": ".edus",
}
ONE_SPEAKER = {"tagged", "edus"}  # formats with no speakers: the conversion reports them merged
ONE_TOKEN_PER_UNIT = {"rttm", "ctm"}  # a line per unit: a unit's words are joined, reported


def timed_document():
    """Two speakers, overlapping times in whole milliseconds, every endnote type."""
    scheme = builtin_scheme("dubois")
    units = [
        {"speaker": "ANNA", "tokens": ["so", "we", "went"], "boundary": 1, "start": 0.5, "end": 1.25},
        {"speaker": "ANNA", "tokens": ["to", "the", "lake"], "boundary": 2, "start": 1.25, "end": 2.0},
        {"speaker": "BO", "tokens": ["the", "lake"], "boundary": 3, "start": 1.9, "end": 2.6},
        {"speaker": "ANNA", "tokens": ["yes", "and"], "boundary": 4, "start": 2.7, "end": 3.1},
        {"speaker": "BO", "tokens": ["hm"], "boundary": 5, "start": 3.2, "end": 3.5},
    ]
    return from_units("lake", units, layer="iu", scheme=scheme)


def test_every_writable_format_is_registered():
    names = {a.name for a in adapters().values() if a.can_write}
    assert names == set(WRITABLE)


@pytest.mark.parametrize(("src", "dst"), list(itertools.permutations(sorted(WRITABLE), 2)))
def test_conversion_pairs(tmp_path, src, dst):
    doc = timed_document()
    first = tmp_path / f"a{WRITABLE[src]}"
    write_document(doc, first)
    source = read_document(first)
    second = tmp_path / f"b{WRITABLE[dst]}"
    losses = write_document(source, second)
    back = read_document(second)
    if dst in ONE_TOKEN_PER_UNIT and len(source.units()) < source.n_tokens:
        assert "tokens-changed" in {loss.kind for loss in losses} and back.n_tokens == len(source.units())
        return
    assert back.n_tokens == source.n_tokens
    if dst not in ONE_SPEAKER:
        assert sorted(back.speakers) == sorted(source.speakers)
    else:
        assert len(source.speakers) == 1 or "speakers-merged" in {loss.kind for loss in losses}
    if not losses:  # the report says lossless: then the model must come back identical
        assert source.differences(back, time_tol=5e-4) == [], (src, dst)
    else:
        assert all(loss.kind and loss.message for loss in losses)


def test_untimed_to_timed_formats_report_invented_times(tmp_path):
    doc = read_document(SAMPLE / "garden.ann1.txt")
    for fmt in ("eaf", "textgrid", "srt", "vtt"):
        losses = write_document(doc, tmp_path / f"g{WRITABLE[fmt]}")
        assert "times-invented" in {loss.kind for loss in losses}, fmt


def test_strict_refuses_a_lossy_conversion_and_writes_nothing(tmp_path):
    doc = read_document(SAMPLE / "garden.ann1.txt")
    out = tmp_path / "g.srt"
    with pytest.raises(Exception, match="--strict"):
        write_document(doc, out, strict=True)
    assert not out.exists()


def test_batch_conversion_keeps_going_after_a_bad_file(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    for name in ("garden.ann1.txt", "garden.ann2.txt"):
        (src / name).write_bytes((SAMPLE / name).read_bytes())
    (src / "broken.txt").write_text("A:\tok ,\n\tnot ok !\n", encoding="utf-8")
    out = tmp_path / "out"
    proc = run_cli(["convert", str(src), "-o", str(out), "--to", "json"])
    assert proc.returncode == 1
    assert "converted 2 of 3 files" in proc.stderr
    assert "broken.txt" in proc.stderr and "Traceback" not in proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["garden.ann1.segagree.json", "garden.ann2.segagree.json"]
    back = read_document(out / "garden.ann1.segagree.json")
    assert back.differences(read_document(SAMPLE / "garden.ann1.txt")) == []


def test_sample_tool_files_were_written_by_segagree():
    """sample_corpora/tools holds the demo conversation as ELAN, Praat and SRT files made by segagree."""
    text = read_document(SAMPLE / "garden.ann1.txt")
    for name in ("garden.ann1.eaf", "garden.ann1.TextGrid", "garden.ann1.srt"):
        doc = read_document(SAMPLE / "tools" / name)
        assert doc.token_texts() == text.token_texts() or name.endswith(".srt")
        assert doc.n_tokens == text.n_tokens
    eaf = read_document(SAMPLE / "tools" / "garden.ann1.eaf")
    assert np.array_equal(eaf.layer("iu").boundaries, text.layer("iu").boundaries)


def test_rez_to_rezonator_import_layout(tmp_path):
    doc = read_document(shared_path("corpora", "rez", "sbc018.rez"))
    out = tmp_path / "sbc018.txt"
    write_document(doc, out, layout="rezonator")
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "participant\tstart\tend\ttext"
    assert len(lines) == 1 + 566
    assert lines[1].split("\t")[0] == "MARCIA" and lines[1].split("\t")[1] == "0.25"
    back = read_document(out)
    assert back.token_texts() == doc.token_texts()
    assert np.array_equal(back.layer("iu").boundaries, doc.layer("iu").boundaries)


def test_convert_picks_speakers_and_tiers(tmp_path):
    out = tmp_path / "two.txt"
    proc = run_cli(
        ["convert", str(SAMPLE / "garden.ann1.txt"), "-o", str(out), "--speaker", "MAYA", "--speaker", "BEN"]
    )
    assert proc.returncode == 0, proc.stderr
    doc = read_document(out)
    assert sorted(doc.speakers) == ["BEN", "MAYA"]
    full = read_document(SAMPLE / "garden.ann1.txt")
    assert doc.token_texts()["MAYA"] == full.token_texts()["MAYA"]
    marion = shared_path("corpora", "textgrid", "teicorpo_Marion2_ANON_131015.TextGrid")
    out = tmp_path / "marion.segagree.json"
    proc = run_cli(["convert", str(marion), "-o", str(out), "--tier", "Marion", "--tier", "Alexis"])
    assert proc.returncode == 0, proc.stderr
    assert read_document(out).speakers == ["Marion", "Alexis"]
