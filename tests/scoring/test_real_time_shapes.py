"""The shapes of the real exports bench/check_real_time_files.py reads (kept outside the repository,
see its SOURCES.md), as small fixtures written here: a wide laughter CSV per annotator (a clip with 0,0 is
one where the annotator heard nothing), two RTTM releases of a diarization reference, SALAMI boundary
lists with Silence and End; converted to one units table with a recording column, each recording a text."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import segagree

BENCH = Path(__file__).resolve().parents[2] / "bench" / "check_real_time_files.py"


def bench_module():
    spec = importlib.util.spec_from_file_location("check_real_time_files", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_real_time_files"] = module
    spec.loader.exec_module(module)
    return module


WIDE = "FileID,Start,End,Start.1,End.1,Start.2,End.2,Start.3,End.3,Start.4,End.4,Count,Flag,audio_length\n"


def test_laughter_wide_exports_keep_the_clip_where_one_annotator_heard_nothing(tmp_path: Path) -> None:
    m = bench_module()
    folder = tmp_path / "laughter"
    folder.mkdir()
    (folder / "first.csv").write_text(WIDE + "clipA,0.1,0.9,1.1,1.8,,,,,,,2,,2.8\nclipB,7.4,10,,,,,,,,,1,,10\n")
    (folder / "second.csv").write_text(WIDE + "clipA,0.13,0.87,1.1,1.86,,,,,,,2,,2.8\nclipB,0,0,,,,,,,,,1,,10\n")
    rows, annotators, reading = m.converted(folder)
    assert annotators == ["first", "second"] and len(rows) == 5
    table = tmp_path / "units.csv"
    m.write_rows(table, rows)
    timed = segagree.read_time_units(table, annotators=annotators, **reading)
    assert list(timed.speakers) == ["clipA", "clipB"]
    clip_b = timed.speakers["clipB"]
    assert clip_b.annotators == ("first", "second") and clip_b.annotator.tolist() == [0]  # second: no units
    res = segagree.agree_time(table, measures=["boundary_f1"], annotators=annotators, **reading)
    assert res["measures"]["boundary_f1"]["speakers"]["clipB"]["value"] == 0.0


def test_two_rttm_releases_are_two_annotators_per_meeting_and_speaker(tmp_path: Path) -> None:
    m = bench_module()
    folder = tmp_path / "ami"
    folder.mkdir()
    line = "SPEAKER M1 1 {} {} <NA> <NA> {} <NA> <NA>\n"
    (folder / "M1.only_words.rttm").write_text(line.format(1.0, 2.0, "S1") + line.format(4.0, 1.0, "S2"))
    (folder / "M1.word_and_vocalsounds.rttm").write_text(
        line.format(1.0, 2.2, "S1") + line.format(3.9, 1.1, "S2") + line.format(6.0, 0.5, "S2")
    )
    rows, annotators, reading = m.converted(folder)
    table = tmp_path / "units.csv"
    m.write_rows(table, rows)
    timed = segagree.read_time_units(table, annotators=annotators, **reading)
    assert list(timed.speakers) == ["M1/S1", "M1/S2"]
    assert timed.unit_counts == {"only_words": 2, "word_and_vocalsounds": 3}


def test_salami_boundaries_become_segments_with_silence_as_a_gap(tmp_path: Path) -> None:
    m = bench_module()
    folder = tmp_path / "salami"
    folder.mkdir()
    (folder / "7.annotator1.txt").write_text("0.0\tSilence\n0.2\tA\n20.5\tB\n40.0\tSilence\n41.0\tEnd\n")
    (folder / "7.annotator2.txt").write_text("0.0\tSilence\n0.3\tA\n21.0\tA\n40.0\tEnd\n")
    rows, annotators, reading = m.converted(folder)
    table = tmp_path / "units.csv"
    m.write_rows(table, rows)
    res = segagree.agree_time(table, measures=["alpha_u"], annotators=annotators, **reading)
    assert res["units"] == {"annotator1": 2, "annotator2": 2}
    assert res["plan"]["gaps"] == {"Silence": 3}
    assert res["continuum"] == pytest.approx([0.0, 40.0])  # gaps do not stretch the continuum
