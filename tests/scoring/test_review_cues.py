"""Acoustic cues in the review workbook: the columns, the values at a boundary with a known pause and
pitch reset, nothing broken without a recording, and adjudication reads a workbook with cues."""

from __future__ import annotations

from pathlib import Path

import pytest
from acoustic_audio import two_units
from time_files import write_textgrid

pytest.importorskip("parselmouth")

from segagree.api.reviews import adjudicate, review  # noqa: E402
from segagree.outputs.review_workbook import CUE_COLUMNS  # noqa: E402


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    home = tmp_path_factory.mktemp("review-cues")
    recording = two_units(home / "two.wav")
    # A: two units (the boundary in the 0.6 s pause, 2.1 s: F0 100 -> 150 Hz); B: one unit.
    a = write_textgrid(home / "t.a.TextGrid", {"S": [(0.3, 1.55, "one two three ,"), (2.05, 3.1, "four five .")]}, 3.4)
    b = write_textgrid(home / "t.b.TextGrid", {"S": [(0.3, 3.1, "one two three four five .")]}, 3.4)
    return a, b, recording


def _rows(path: Path) -> list[dict[str, object]]:
    import openpyxl

    ws = openpyxl.load_workbook(path, read_only=True)["Operations"]
    values = list(ws.iter_rows(values_only=True))
    return [dict(zip(values[0], row, strict=True)) for row in values[1:]]


def test_cues_in_the_workbook(pair: tuple[Path, Path, Path], tmp_path: Path) -> None:
    a, b, recording = pair
    out = review(a, b, tmp_path / "r.xlsx", kappa=False, media=recording)
    assert out.cues == "cues from two.wav"
    (row,) = [r for r in _rows(out.path) if r["operation"] == "deletion"]
    headers = {key: header for key, header, _, _ in CUE_COLUMNS}
    assert row[headers["gap"]] == pytest.approx(0.5)
    assert row[headers["pause"]] == pytest.approx(0.6, abs=0.03)
    assert 6.0 < row[headers["f0_reset"]] < 7.6  # 102.5 -> 149 Hz
    assert row[headers["cue_at"]] == pytest.approx(1.8)
    assert row[headers["cue_from"]] == "two.wav, A's times"
    # the tracks are cached beside the workbook, and a second review reads them back
    (cached,) = (tmp_path / ".segagree-cues").iterdir()
    stamp = cached.stat().st_mtime_ns
    review(a, b, tmp_path / "again.xlsx", kappa=False, media=recording)
    assert cached.stat().st_mtime_ns == stamp


def test_no_recording(pair: tuple[Path, Path, Path], tmp_path: Path) -> None:
    a, b, _ = pair
    plain = review(a, b, tmp_path / "plain.xlsx", kappa=False)
    assert plain.cues == "" and "pause (s)" not in _rows(plain.path)[0]
    asked = review(a, b, tmp_path / "asked.xlsx", kappa=False, cues=True)
    (row,) = [r for r in _rows(asked.path) if r["operation"] == "deletion"]
    assert row["pause (s)"] is None and row["gap (s)"] == pytest.approx(0.5)
    assert row["cue note"].startswith("no recording")
    missing = review(a, b, tmp_path / "missing.xlsx", kappa=False, cues=True, media=tmp_path / "nothing.wav")
    assert "does not exist" in missing.cues


def test_adjudicate_a_workbook_with_cues(pair: tuple[Path, Path, Path], tmp_path: Path) -> None:
    import openpyxl

    a, b, recording = pair
    out = review(a, b, tmp_path / "r.xlsx", kappa=False, media=recording)
    wb = openpyxl.load_workbook(out.path)
    ws = wb["Operations"]
    header = [c.value for c in ws[1]]
    for row in ws.iter_rows(min_row=2):
        if row[header.index("operation")].value == "deletion":
            row[header.index("decision")].value = "B"
    wb.save(out.path)
    report = adjudicate(out.path, tmp_path / "gold.TextGrid", file_a=a, file_b=b)
    assert report.applied["B"] == 1 and report.changed == 1


def test_the_page_shows_the_cues_and_tracks(pair: tuple[Path, Path, Path], tmp_path: Path) -> None:
    import base64

    from segagree.outputs.review_page import page_data

    a, b, recording = pair
    out = review(a, b, tmp_path / "r.html", kappa=False, media=recording)
    data = page_data(out.path)
    assert data["cues"] == "cues from two.wav"
    (row,) = [r for r in data["pairs"][0]["rows"] if r["kind"] == "deletion"]
    assert row["cues"]["pause"] == pytest.approx(0.6, abs=0.03)
    pitch = base64.b64decode(data["media"]["pitch"])
    level = base64.b64decode(data["media"]["intensity"])
    assert len(pitch) == len(level) == pytest.approx(3.4 * 50, abs=2)
    # voiced in the units (0.3-1.5 s, 2.1-3.1 s), unvoiced in the pause (1.6-2.0 s)
    assert all(pitch[k] for k in range(25, 70)) and not any(pitch[k] for k in range(80, 100))
    # the pitch bytes rise across the boundary (100 Hz -> 150 Hz on a log scale of 75-600 Hz)
    assert pitch[110] > pitch[70]


def test_cue_profile_by_category() -> None:
    import numpy as np

    from segagree.scoring.acoustics.profile import cue_profile, operation_points

    rng = np.random.default_rng(3)
    ops = [
        {"op": "match", "type_a": ",", "type_b": ",", "pause": float(p), "cue_note": ""}
        for p in rng.normal(0.5, 0.1, 40)
    ]
    ops += [
        {"op": "insertion", "type_a": "none", "type_b": ".", "pause": float(p), "cue_note": ""}
        for p in rng.normal(0.1, 0.05, 12)
    ]
    ops += [{"op": "deletion", "type_a": ",", "type_b": "none", "pause": None, "cue_note": "overlap"}]
    rows = {(r["type"], r["category"], r["cue"]): r for r in cue_profile(operation_points("A / B", ops))}
    agreed, inserted = rows[("all", "agreed", "pause")], rows[("all", "insertion", "pause")]
    assert agreed["n"] == 40 and agreed["mean"] == pytest.approx(np.mean([o["pause"] for o in ops[:40]]))
    assert agreed["low"] < agreed["mean"] < agreed["high"] and inserted["high"] < agreed["low"]
    assert rows[(".", "insertion", "pause")]["n"] == 12 and rows[(",", "agreed", "pause")]["n"] == 40
    assert rows[("all", "deletion", "pause")]["mean"] is None
    one = cue_profile([("A / B", ",", "shift", {"pause": 0.3})])
    assert one[0]["low"] is None and "at least two" in one[0]["note"]


def test_run_cues_pool_a_profile_into_the_report(tmp_path: Path) -> None:
    import shutil

    from segagree.api import run

    corpus = tmp_path / "corpus"
    shutil.copytree(Path(__file__).resolve().parents[2] / "sample_corpora" / "recording", corpus)
    done = run(corpus, tmp_path / "out", cues=True, kappa=False)
    profile = done.cue_profile
    assert profile is not None and profile["texts"] == ["talk"] and profile["plot"] == "plots/cues.png"
    agreed = next(
        r for r in profile["rows"] if (r["pair"], r["category"], r["cue"]) == ("all pairs", "agreed", "pause")
    )
    assert agreed["n"] == 2 and 0.6 < agreed["mean"] < 0.9  # the recording's 0.73 and 0.80 s pauses
    assert (tmp_path / "out" / "plots" / "cues.png").is_file()
    assert (tmp_path / "out" / "cues.csv").read_text(encoding="utf-8").startswith("pair,type,category,cue,n,mean")
    assert "Acoustic cues at the boundaries" in (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    rows = _rows(tmp_path / "out" / "review" / "talk.xlsx")  # the run's workbook has the cue columns
    assert [r["pause (s)"] for r in rows if r["operation"] == "deletion"] == [pytest.approx(0.744, abs=0.01)]


def test_time_review_cues_and_adjudication(pair: tuple[Path, Path, Path], tmp_path: Path) -> None:
    import openpyxl

    from segagree.api.reviews import adjudicate_time, review_time

    a, b, recording = pair
    out = review_time([a, b], tmp_path / "t.xlsx", media=recording)
    assert out["cues"] == "cues from two.wav"
    wb = openpyxl.load_workbook(out["path"])
    ws = wb["Alignment"]
    header = [c.value for c in ws[1]]
    rows = [dict(zip(header, (c.value for c in row), strict=True)) for row in ws.iter_rows(min_row=2)]
    # annotators are named by the files' names (t.a, t.b)
    first = next(r for r in rows if r["t.a start"] == pytest.approx(0.3))
    assert first["t.a pause (s)"] == pytest.approx(0.6, abs=0.03) and 6.0 < first["t.a F0 reset (st)"] < 7.6
    assert "no next unit" in next(r for r in rows if r["t.a end"] == pytest.approx(3.1))["cue note"]
    for row in ws.iter_rows(min_row=2):
        row[header.index("decision")].value = "t.a"
    wb.save(out["path"])
    report = adjudicate_time(out["path"], tmp_path / "gold.TextGrid")
    assert report is not None and (tmp_path / "gold.TextGrid").is_file()
    # the time page: each row's cues (its first annotator's unit) and the tracks
    from segagree.outputs.review_page import page_data

    page = review_time([a, b], tmp_path / "t.html", media=recording)
    data = page_data(page["path"])
    assert page["cues"] == data["cues"] == "cues from two.wav" and data["media"]["pitch"]
    shown = next(r for r in data["pairs"][0]["rows"] if r["members"][0] and r["members"][0][0] == pytest.approx(0.3))
    assert shown["cues"]["pause"] == pytest.approx(first["t.a pause (s)"]) and "t.a's unit" in shown["cues"]["cue_note"]


def test_without_parselmouth_the_rows_say_so(
    pair: tuple[Path, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, recording = pair
    monkeypatch.setattr("segagree.corpus.acoustic_cues.cues_available", lambda: "praat-parselmouth is not installed")
    quiet = review(a, b, tmp_path / "quiet.xlsx", kappa=False, media=recording)
    assert quiet.cues == "" and "pause (s)" not in _rows(quiet.path)[0]  # by default: no cue columns
    out = review(a, b, tmp_path / "r.xlsx", kappa=False, media=recording, cues=True)
    assert out.cues == "cues: praat-parselmouth is not installed"
    (row,) = [r for r in _rows(out.path) if r["operation"] == "deletion"]
    assert row["pause (s)"] is None and row["gap (s)"] == pytest.approx(0.5)
    assert row["cue note"].startswith("praat-parselmouth is not installed")


@pytest.mark.parametrize("ext", ["cha"])  # Transcriber and EXMARaLDA alike (checked by hand: test time)
def test_other_timed_formats_give_the_same_cues(tmp_path: Path, ext: str) -> None:
    """CHAT bullets (the recording named by @Media) place the points as ELAN's times do."""
    import shutil

    from segagree.api import convert

    sample = Path(__file__).resolve().parents[2] / "sample_corpora" / "recording"
    shutil.copy(sample / "talk.ogg", tmp_path / "talk.ogg")
    for x in ("kim", "lee"):
        convert(sample / f"talk.{x}.eaf", tmp_path / f"talk.{x}.{ext}")
        if ext == "cha":
            path = tmp_path / f"talk.{x}.cha"
            path.write_text(
                path.read_text(encoding="utf-8").replace("@Languages:", "@Media:\ttalk, audio\n@Languages:")
            )
    media = None if ext == "cha" else tmp_path / "talk.ogg"
    other = review(
        tmp_path / f"talk.kim.{ext}", tmp_path / f"talk.lee.{ext}", tmp_path / "o.xlsx", kappa=False, media=media
    )
    elan = review(sample / "talk.kim.eaf", sample / "talk.lee.eaf", tmp_path / "e.xlsx", kappa=False)
    assert other.cues == elan.cues == "cues from talk.ogg"
    keys = ("operation", "pause (s)", "F0 reset (st)", "intensity reset (dB)", "rate before (syl/s)")
    assert [[r[k] for k in keys] for r in _rows(other.path)] == [[r[k] for k in keys] for r in _rows(elan.path)]
