"""RTTM and CTM: read as units in time (the same gamma as the same units given as a units table),
written back, and damaged lines refused with their place."""

from __future__ import annotations

from pathlib import Path

import pytest

import segagree
from segagree.errors import InputError

REF = [("rec1", 0.5, 2.0, "spk0"), ("rec1", 2.6, 1.4, "spk1"), ("rec1", 4.1, 3.0, "spk0")]
SYS = [("rec1", 0.4, 2.2, "A"), ("rec1", 2.7, 1.2, "B"), ("rec1", 4.0, 2.9, "A"), ("rec1", 7.2, 0.5, "B")]


def _rttm(path: Path, turns: list[tuple[str, float, float, str]]) -> Path:
    lines = [f"SPEAKER {f} 1 {s} {d} <NA> <NA> {who} <NA> <NA>" for f, s, d, who in turns]
    path.write_text("SPKR-INFO rec1 1 <NA> <NA> <NA> unknown spk0 <NA> <NA>\n" + "\n".join(lines) + "\n")
    return path


def test_rttm_turns_give_the_gamma_of_the_same_units_as_a_table(tmp_path: Path) -> None:
    ref, sys_ = _rttm(tmp_path / "ref.rttm", REF), _rttm(tmp_path / "sys.rttm", SYS)
    table = tmp_path / "units.csv"
    rows = ["annotator,start,end,category"]
    rows += [f"ref,{s},{s + d},{w}" for _, s, d, w in REF] + [f"sys,{s},{s + d},{w}" for _, s, d, w in SYS]
    table.write_text("\n".join(rows) + "\n")
    params = {"seed": 3}
    from_rttm = segagree.agree_time([ref, sys_], measures=["gamma"], params=params, category="none")
    from_table = segagree.agree_time([table], measures=["gamma"], params=params, category="none")
    assert from_rttm["gamma"] == pytest.approx(from_table["gamma"], abs=1e-12)
    doc = segagree.read(ref)
    assert doc.speakers == ["rec1"] and doc.column("text").tolist() == ["spk0", "spk1", "spk0"]
    assert "records-dropped" in doc.losses.kinds()


def test_rttm_and_ctm_write_back_what_they_read(tmp_path: Path) -> None:
    ref = _rttm(tmp_path / "ref.rttm", REF)
    assert segagree.convert(ref, tmp_path / "same.rttm").lossless  # unchanged: given back, SPKR-INFO too
    assert (tmp_path / "same.rttm").read_bytes() == ref.read_bytes()
    doc = segagree.read(ref)
    doc.source = doc.source.without_file()
    report = segagree.convert(doc, tmp_path / "back.rttm")
    assert not report.lossless and not report.write_losses  # the SPKR-INFO record was not read: said
    assert segagree.read(tmp_path / "back.rttm").differences(segagree.read(ref)) == []
    ctm = tmp_path / "words.ctm"
    ctm.write_text(";; a comment\nrec1 1 0.10 0.30 hello 0.98\nrec1 1 0.45 0.25 there 0.91\nrec2 1 0.00 0.50 hi\n")
    doc = segagree.read(ctm)
    assert doc.speakers == ["rec2", "rec1"] or doc.speakers == ["rec1", "rec2"]
    assert doc.column("confidence").tolist().count("0.98") == 1
    assert segagree.convert(ctm, tmp_path / "back.ctm").lossless
    assert segagree.read(tmp_path / "back.ctm").differences(doc) == []


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("a.rttm", "SPEAKER rec1 1 x 2.0 <NA> <NA> s <NA> <NA>\n", r"line 1: onset 'x' is not a number"),
        ("a.rttm", "SPEAKER rec1 1 1.0 -2.0 <NA> <NA> s <NA> <NA>\n", r"line 1: a turn with a negative"),
        ("a.rttm", "SPKR-INFO rec1 1 <NA>\n", "no turns"),
        ("a.ctm", "rec1 1 0.1 0.2\n", r"line 1: 4 fields, expected FILE CHANNEL"),
    ],
)
def test_damaged_lines_are_refused_with_their_place(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(InputError, match=message):
        segagree.read(path)
