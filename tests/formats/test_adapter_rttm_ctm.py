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
    report = segagree.convert(ctm, tmp_path / "back.ctm")
    assert not report.write_losses and "comments-dropped" in doc.losses.kinds()  # the comment: said
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


def _round_trip(tmp_path: Path, name: str, text: str) -> tuple[object, str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    same = tmp_path / f"same{path.suffix}"
    segagree.convert(path, same)
    assert same.read_bytes() == path.read_bytes()  # unchanged: the file given back
    doc = segagree.read(path)
    doc.source = doc.source.without_file()  # the writer's own form
    back = tmp_path / f"back{path.suffix}"
    report = segagree.convert(doc, back)
    return report, back.read_text(encoding="utf-8")


def test_rttm_channels_and_filled_na_fields_are_written_back(tmp_path: Path) -> None:
    text = (
        "SPEAKER rec1 2 0.500 1.500 <NA> <NA> spk0 <NA> <NA>\nSPEAKER rec1 1 2.000 1.000 hello speech spk1 0.87 <NA>\n"
    )
    report, back = _round_trip(tmp_path, "a.rttm", text)
    assert back == text and not report.write_losses  # type: ignore[attr-defined]
    doc = segagree.read(tmp_path / "a.rttm")
    assert doc.speakers == ["rec1:2", "rec1"]  # channel 2 is a stream of its own


def test_a_recording_with_one_channel_pairs_by_its_file_id_whatever_the_channel(tmp_path: Path) -> None:
    # Kaldi-style systems write channel 0, references channel 1: pyannote.metrics and dscore pair the
    # recordings by file id, and so must the streams
    ref = _rttm(tmp_path / "ref.rttm", REF)
    sys1 = _rttm(tmp_path / "sys1.rttm", SYS)
    sys0 = tmp_path / "sys0.rttm"
    sys0.write_text(sys1.read_text().replace("SPEAKER rec1 1 ", "SPEAKER rec1 0 "))
    assert segagree.read(sys0).speakers == ["rec1"]
    one = segagree.agree_time([ref, sys1], measures=["der"])
    zero = segagree.agree_time([ref, sys0], measures=["der"])
    assert zero["der"] == one["der"] > 0
    report, back = _round_trip(tmp_path, "b.rttm", sys0.read_text().split("\n", 1)[1])
    assert " rec1 0 " in back  # the channel is written as read


def test_ctm_channels_are_streams_and_fields_seven_and_eight_come_back(tmp_path: Path) -> None:
    text = (
        "7654 A 11.340 0.200 YES 0.91 lex x\n"
        "7654 B 1.340 0.200 I 0.88\n"
        "7654 A 12.000 0.340 YOU 1 lex y\n"
        "7654 B 2.000 0.340 CAN <NA> frag\n"
    )
    report, back = _round_trip(tmp_path, "a.ctm", text)
    assert not report.write_losses  # type: ignore[attr-defined]
    assert sorted(back.splitlines()) == sorted(text.splitlines())
    doc = segagree.read(tmp_path / "a.ctm")
    assert set(doc.speakers) == {"7654:A", "7654:B"}
    units = segagree.agree_time([tmp_path / "a.ctm", tmp_path / "back.ctm"], measures=["boundary_f1"])
    assert set(units["speakers"]) == {"7654:A", "7654:B"}


def test_sctk_alternations_read_the_first_alternative_and_say_so(tmp_path: Path) -> None:
    path = tmp_path / "ref.ctm"
    path.write_text(
        ";; SCTK's example\n7654 A 11.34 0.2 YES\n7654 A * * <ALT_BEGIN>\n7654 A 12.00 0.34 UM\n"
        "7654 A * * <ALT>\n7654 A 12.00 0.34 UH\n7654 A * * <ALT_END>\n7654 A 13.30 0.5 CAN\n",
        encoding="utf-8",
    )
    doc = segagree.read(path)
    assert doc.column("text").tolist() == ["YES", "UM", "CAN"]
    assert "alternatives-dropped" in doc.losses.kinds()
    path.write_text("7654 A * * <ALT>\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 1: <ALT> outside an alternation"):
        segagree.read(path)


def test_a_small_negative_start_is_clamped_with_a_note(tmp_path: Path) -> None:
    path = tmp_path / "a.ctm"
    path.write_text("rec 1 -0.01 0.20 hi\nrec 1 0.30 0.10 there\n", encoding="utf-8")
    doc = segagree.read(path)
    assert doc.column("start").tolist()[0] == 0.0 and doc.column("end").tolist()[0] == pytest.approx(0.19)
    assert any(loss.kind == "times-clamped" and loss.where == "line 1" for loss in doc.losses)
    path.write_text("rec 1 -3.00 0.20 hi\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 1: a word starting at -3.00 s"):
        segagree.read(path)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("a.ctm", "SPEAKER rec1 1 1.20 1.00 <NA> <NA> spk0 <NA> <NA>\n", r"line 1: this is an RTTM line"),
        ("a.rttm", "SPEAKER rec1 1 1_000 2.0 <NA> <NA> s <NA> <NA>\n", r"line 1: onset '1_000' is not a number"),
        ("a.rttm", "SPEAKER rec1 1 \u0661\u0662 2.0 <NA> <NA> s <NA> <NA>\n", r"line 1: onset '١٢' is not a number"),
        ("a.rttm", "SPEAKER rec1 1 nan 2.0 <NA> <NA> s <NA> <NA>\n", r"line 1: onset 'nan' is not a number"),
        (
            "a.rttm",
            "SPEAKER rec1 1 9 2 <NA> <NA> s <NA> <NA>\nSPEAKER rec1 1 1e15 2 <NA> <NA> s <NA> <NA>\n",
            r"line 2: a turn ending at 1e\+15 s is beyond ten days",
        ),
    ],
)
def test_foreign_numbers_and_files_are_refused_with_their_line(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message) as err:
        segagree.read(path)
    assert "np.float64" not in str(err.value)


def test_kept_fields_the_other_format_cannot_hold_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "a.rttm"
    path.write_text("SPEAKER rec1 1 2.000 1.000 hello speech spk1 0.87 <NA>\n", encoding="utf-8")
    report = segagree.convert(path, tmp_path / "a.ctm")
    assert any(loss.kind == "meta-dropped" and "rttm_fields" in (loss.where or "") for loss in report.write_losses)


def test_times_come_back_with_the_files_decimals(tmp_path: Path) -> None:
    text = "SPEAKER rec1 1 0.5 1.5 <NA> <NA> a <NA> <NA>\nSPEAKER rec1 1 2.0 0.3 <NA> <NA> b <NA> <NA>\n"
    _, back = _round_trip(tmp_path, "one.rttm", text)
    assert back == text
    two = "rec 1 0.10 0.25 hi\nrec 1 0.40 0.20 there\n"
    _, back = _round_trip(tmp_path, "two.ctm", two)
    assert back == two
    mixed = "rec 1 0.1 0.25 hi\n"
    _, back = _round_trip(tmp_path, "mixed.ctm", mixed)
    assert back == "rec 1 0.100 0.250 hi\n"


def test_what_the_readers_drop_or_move_is_said_in_the_time_notes(tmp_path: Path) -> None:
    ref = _rttm(tmp_path / "ref.rttm", REF)  # with a SPKR-INFO record
    sys_ = tmp_path / "sys.rttm"
    sys_.write_text(_rttm(tmp_path / "s.rttm", SYS).read_text() + "LEXEME rec1 1 0.4 0.5 hi lex A <NA>\n")
    notes = segagree.agree_time([ref, sys_], measures=["der"])["notes"]
    assert any(n.startswith("ref.rttm: records-dropped") and "(1)" in n for n in notes), notes
    assert any(n.startswith("sys.rttm: records-dropped") and "(2)" in n for n in notes), notes
    a, b = tmp_path / "a.ctm", tmp_path / "b.ctm"
    a.write_text("7654 A -0.01 0.2 YES\n7654 A 0.5 0.3 NO\n")
    alternation = ["7654 A * * <ALT_BEGIN>", "7654 A 0.5 0.3 NO", "7654 A * * <ALT>", "7654 A 0.5 0.3 KNOW"]
    b.write_text("\n".join(["7654 A 0.0 0.2 YES", *alternation, "7654 A * * <ALT_END>"]) + "\n")
    notes = segagree.agree_time([a, b], measures=["boundary_f1"])["notes"]
    assert any(n.startswith("a.ctm: times-clamped [line 1]") for n in notes), notes
    assert any(n.startswith("b.ctm: alternatives-dropped") for n in notes), notes


def test_gamma_on_speaker_labels_that_share_none_says_to_read_them_without(tmp_path: Path) -> None:
    ref, sys_ = _rttm(tmp_path / "ref.rttm", REF), _rttm(tmp_path / "sys.rttm", SYS)  # spk0/spk1 and A/B
    labelled = segagree.agree_time([ref, sys_], measures=["gamma"], params={"seed": 3, "samples": 5})
    assert any("ref and sys share none" in n and "--category none" in n for n in labelled["notes"])
    plain = segagree.agree_time([ref, sys_], measures=["gamma"], params={"seed": 3, "samples": 5}, category="none")
    assert not any("share none" in n for n in plain["notes"])
    der = segagree.agree_time([ref, sys_], measures=["der"])  # DER maps the labels itself: no such note
    assert not any("share none" in n for n in der["notes"])


def test_compare_of_two_rttm_files_points_to_agree_time(tmp_path: Path) -> None:
    ref, sys_ = _rttm(tmp_path / "ref.rttm", REF), _rttm(tmp_path / "sys.rttm", SYS)
    with pytest.raises(segagree.MismatchError, match="units in time: score them with agree --time"):
        segagree.compare(ref, sys_)
