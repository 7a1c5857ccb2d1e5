"""The acoustic cues: the tracks equal Praat's own (``praat --run``, where installed) on a recording
made here with known pauses and pitch, and the cue values at a boundary are the known ones."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from acoustic_audio import PRAAT_SCRIPT, two_units

from segagree.errors import SegagreeError, UsageError
from segagree.scoring.acoustics.boundary_cues import Point, SpeakerTimes, boundary_cues, speaker_range
from segagree.scoring.acoustics.settings import CueSettings

parselmouth = pytest.importorskip("parselmouth")

from segagree.scoring.acoustics.tracks import cache_path, cached_tracks, extract_tracks  # noqa: E402


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return two_units(tmp_path_factory.mktemp("cues") / "two.wav")


@pytest.fixture(scope="module")
def tracks(recording: Path):
    return extract_tracks(recording)


def _praat(path: Path, script_dir: Path, *args: str) -> dict[str, np.ndarray]:
    praat = shutil.which("praat")
    if praat is None:
        pytest.skip("praat is not installed (apt-get install praat)")
    script = script_dir / "tracks.praat"
    script.write_text(PRAAT_SCRIPT, encoding="utf-8")
    out = subprocess.run([praat, "--run", str(script), str(path), *args], capture_output=True, text=True, check=True)
    rows: dict[str, list[list[float]]] = {}
    for line in out.stdout.splitlines():
        kind, *values = line.split()
        rows.setdefault(kind, []).append([math.nan if v == "--undefined--" else float(v) for v in values])
    return {k: np.asarray(v) for k, v in rows.items()}


def test_tracks_equal_praat(recording: Path, tracks, tmp_path: Path) -> None:
    ref = _praat(recording, tmp_path, "75", "600", "-25")
    np.testing.assert_allclose(tracks.pitch_times, ref["P"][:, 0], atol=1e-8)
    np.testing.assert_array_equal(np.isnan(tracks.f0), np.isnan(ref["P"][:, 1]))
    np.testing.assert_allclose(tracks.f0, ref["P"][:, 1], atol=1e-6, equal_nan=True)
    np.testing.assert_allclose(tracks.intensity_times, ref["I"][:, 0], atol=1e-8)
    np.testing.assert_allclose(tracks.intensity, ref["I"][:, 1], atol=1e-6)
    np.testing.assert_allclose(tracks.silences, ref["S"], atol=1e-8)
    np.testing.assert_allclose(tracks.nuclei, ref["N"][:, 0], atol=1e-8)


def test_speech_equals_praat(tmp_path: Path) -> None:
    """Synthesised speech (espeak-ng): many syllable nuclei, voiceless stretches, short pauses."""
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)")
    wav = tmp_path / "speech.wav"
    text = "The garden was quiet this morning, and the tomatoes were all gone. Nobody knew what had eaten them."
    subprocess.run([espeak, "-w", str(wav), text], check=True, capture_output=True)
    mine = extract_tracks(wav)
    ref = _praat(wav, tmp_path, "75", "600", "-25")
    np.testing.assert_allclose(mine.f0, ref["P"][:, 1], atol=1e-6, equal_nan=True)
    np.testing.assert_allclose(mine.intensity, ref["I"][:, 1], atol=1e-6)
    np.testing.assert_allclose(mine.silences, ref["S"], atol=1e-8)
    assert len(mine.nuclei) > 15
    np.testing.assert_allclose(mine.nuclei, ref["N"][:, 0], atol=1e-8)


def test_other_settings_equal_praat(recording: Path, tmp_path: Path) -> None:
    settings = CueSettings(pitch_floor=90, pitch_ceiling=300, silence_threshold=-30)
    mine = extract_tracks(recording, settings)
    ref = _praat(recording, tmp_path, "90", "300", "-30")
    np.testing.assert_allclose(mine.f0, ref["P"][:, 1], atol=1e-6, equal_nan=True)
    np.testing.assert_allclose(mine.silences, ref["S"], atol=1e-8)


def test_known_pause_and_reset(tracks) -> None:
    # Unit 1 is voiced 0.3-1.5 s at 130 -> 100 Hz, unit 2 2.1-3.1 s at 150 -> 140 Hz; the annotation
    # puts its edges 50 ms inside the silence.
    units = np.array([[0.3, 1.55], [2.05, 3.1]])
    times = SpeakerTimes(units={"S": units}, ranges={"S": speaker_range(tracks, units)})
    cues = boundary_cues(Point("S", 1.55, 2.05), tracks, times, CueSettings())
    assert cues["gap"] == pytest.approx(0.5)
    assert cues["pause"] == pytest.approx(0.6, abs=0.03)
    # medians of the 0.2 s windows at the speech's edges: about 102.5 Hz and 149 Hz
    assert cues["f0_reset"] == pytest.approx(12 * math.log2(149 / 102.5), abs=0.3)
    low, high = times.ranges["S"]
    assert 99 < low < 110 and 140 < high < 151
    assert cues["f0_reset_range"] == pytest.approx(cues["f0_reset"] / (12 * math.log2(high / low)))
    assert cues["rate_before"] == pytest.approx(4, abs=1) and cues["rate_after"] == pytest.approx(4, abs=1.5)
    assert cues["cue_at"] == pytest.approx(1.8)
    assert cues["lengthening"] is None and "no word times" in cues["cue_note"]


def test_inside_a_unit_no_pause_small_reset(tracks) -> None:
    units = np.array([[0.3, 1.5], [2.1, 3.1]])
    times = SpeakerTimes(units={"S": units}, ranges={"S": speaker_range(tracks, units)})
    cues = boundary_cues(Point("S", 0.9, 0.9), tracks, times, CueSettings())
    assert cues["pause"] == 0 and cues["gap"] == 0
    assert abs(cues["f0_reset"]) < 1.2  # the glide only


def test_empty_with_reasons(tracks) -> None:
    settings = CueSettings()
    units = {"S": np.array([[0.3, 1.5], [2.1, 3.1]]), "T": np.array([[1.4, 2.2]])}
    over = boundary_cues(Point("S", 1.5, 2.1), tracks, SpeakerTimes(units=units), settings)
    assert over["pause"] is None and over["gap"] == pytest.approx(0.6) and "overlap: T" in over["cue_note"]
    none = boundary_cues(Point("S", 1.5, 2.1), None, SpeakerTimes(), settings, "no recording: none named")
    assert none["pause"] is None and none["cue_note"].startswith("no recording: none named")
    untimed = boundary_cues(Point("S", None, None), tracks, SpeakerTimes(), settings)
    assert untimed["gap"] is None and untimed["cue_note"].startswith("no times")
    last = boundary_cues(Point("S", 3.1, None), tracks, SpeakerTimes(), settings)
    assert last["gap"] is None and "no next unit" in last["cue_note"]
    silent = boundary_cues(Point("S", 0.05, 0.1), tracks, SpeakerTimes(), settings)
    assert silent["f0_reset"] is None and "unvoiced" in silent["cue_note"]


def test_lengthening_against_words_of_the_same_length(tracks) -> None:
    words = {"S": {3: (0.2, 4)}}
    cues = boundary_cues(Point("S", 1.5, 2.1, "cat", 0.3), tracks, SpeakerTimes(words=words), CueSettings())
    assert cues["lengthening"] == pytest.approx(1.5)
    few = boundary_cues(Point("S", 1.5, 2.1, "horse", 0.3), tracks, SpeakerTimes(words=words), CueSettings())
    assert few["lengthening"] is None and "under 3 words of 5 letters" in few["cue_note"]


def test_cache_is_reused(recording: Path, tracks, tmp_path: Path) -> None:
    first = cached_tracks(recording, CueSettings(), tmp_path)
    where = cache_path(recording, CueSettings(), tmp_path)
    assert where.is_file()
    stamp = where.stat().st_mtime_ns
    again = cached_tracks(recording, CueSettings(), tmp_path)
    assert where.stat().st_mtime_ns == stamp
    np.testing.assert_array_equal(again.f0, tracks.f0)
    np.testing.assert_array_equal(first.nuclei, again.nuclei)
    # other windows: the same tracks; another pitch floor: another file
    assert cache_path(recording, CueSettings(window=0.3), tmp_path) == where
    assert cache_path(recording, CueSettings(pitch_floor=60), tmp_path) != where


def test_bad_settings_and_files(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="pitch floor"):
        CueSettings(pitch_floor=700)
    with pytest.raises(UsageError, match="silence threshold"):
        CueSettings(silence_threshold=3)
    bad = tmp_path / "x.wav"
    bad.write_bytes(b"not audio")
    with pytest.raises(SegagreeError, match="cannot be read as audio"):
        extract_tracks(bad)


def test_the_forked_pitch_is_the_same(recording: Path, tracks, monkeypatch: pytest.MonkeyPatch) -> None:
    from segagree.scoring.acoustics import tracks as module

    monkeypatch.setattr(module, "PARALLEL_SECONDS", 0.0)
    monkeypatch.setattr("segagree.cpus.usable_cpus", lambda: 2)
    monkeypatch.setattr("segagree.cpus.can_fork", lambda: True)
    seen = []
    real = module._pitch
    monkeypatch.setattr(module, "_pitch", lambda *a: seen.append(1) or real(*a))
    forked = extract_tracks(recording)
    assert not seen  # computed in the child (its calls are not this process's)
    np.testing.assert_array_equal(forked.f0, tracks.f0)
    np.testing.assert_array_equal(forked.pitch_times, tracks.pitch_times)
    np.testing.assert_array_equal(forked.nuclei, tracks.nuclei)


def test_too_short_for_praat_is_a_clear_error(tmp_path: Path) -> None:
    import soundfile

    short = tmp_path / "short.wav"
    soundfile.write(str(short), np.zeros(400), 8000)
    with pytest.raises(SegagreeError, match="Praat cannot analyse the recording: .*shorter than window"):
        extract_tracks(short)
