"""A recording's acoustic tracks, computed by Praat's own algorithms through parselmouth.

:func:`extract_tracks` reads the recording with ``soundfile`` (libsndfile: WAV, FLAC, OGG, MP3),
mixes its channels to one (their mean, as Praat's ``Convert to mono``), and runs, in Praat
(parselmouth 0.4 embeds Praat 6.1):

* ``To Pitch...`` (Boersma 1993's autocorrelation) with the pitch floor and ceiling: F0 per frame,
  NaN where unvoiced;
* ``To Intensity...`` (minimum pitch 100 Hz, mean subtracted): dB per frame;
* ``To TextGrid (silences)...``: the silent intervals;
* the syllable nuclei of de Jong & Wempe (2009, "Praat script to detect syllable nuclei and
  measure speech rate automatically", Behavior Research Methods 41(2)), version 2 of their script
  step by step: intensity (minimum pitch 50 Hz); threshold = the 0.99 quantile + the silence dB (not
  below the minimum); the intensity's extrema as a sound (``To PointProcess (extrema)... Left yes no
  Sinc70``); peaks above the threshold; a peak kept when the dip to the next peak exceeds the
  minimum dip; kept when voiced (their ``To Pitch (ac)``) and in a sounding interval of their
  silence grid (threshold ``silence dB - (max - 0.99 quantile)``, pauses of at least 0.3 s).

:func:`cached_tracks` keeps them beside the run (``.npz`` named by the recording's SHA-1 and the
settings), so a second review of the same recording reads them back.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from segagree.errors import SegagreeError
from segagree.files.atomic import atomic_path
from segagree.model.digest import json_digest
from segagree.scoring.acoustics.settings import CueSettings

__all__ = ["CACHE_DIR", "Tracks", "cached_tracks", "cues_available", "extract_tracks"]

CACHE_DIR = ".segagree-cues"
_FORMAT = 1  # the cache files' layout; a new layout is a new name


@dataclass
class Tracks:
    """A recording's tracks (times in seconds from its start)."""

    duration: float
    pitch_times: np.ndarray
    f0: np.ndarray  # Hz, NaN unvoiced
    intensity_times: np.ndarray
    intensity: np.ndarray  # dB
    silences: np.ndarray  # (n, 2) start, end of each silent interval
    nuclei: np.ndarray  # times of the syllable nuclei
    nuclei_sounding: np.ndarray  # (n, 2) the sounding intervals of the nuclei's silence grid
    name: str = ""

    def arrays(self) -> dict[str, np.ndarray]:
        return {k: np.asarray(v) for k, v in self.__dict__.items() if k != "name"}


def cues_available() -> str:
    """'' when parselmouth can be imported, else why not (the cues extra is not installed)."""
    try:
        import parselmouth  # noqa: F401
    except ImportError:
        return "no cues: praat-parselmouth is not installed (pip install 'segagree[cues]')"
    return ""


def _sound(path: Path) -> Any:
    import parselmouth
    import soundfile

    try:
        samples, rate = soundfile.read(str(path), dtype="float64", always_2d=True)
    except Exception as err:  # libsndfile's own error for a file it cannot decode
        raise SegagreeError(f"cannot be read as audio ({type(err).__name__}: {err})", path=path) from None
    if not len(samples):
        raise SegagreeError("the recording has no samples", path=path)
    return parselmouth.Sound(samples.mean(axis=1), sampling_frequency=float(rate))


def _intervals(grid: Any, label: str) -> np.ndarray:
    from parselmouth.praat import call

    out = []
    for i in range(1, int(call(grid, "Get number of intervals", 1)) + 1):
        if call(grid, "Get label of interval", 1, i) == label:
            out.append((call(grid, "Get start time of interval", 1, i), call(grid, "Get end time of interval", 1, i)))
    return np.asarray(out, dtype=np.float64).reshape(-1, 2)


def syllable_nuclei(sound: Any, settings: CueSettings) -> tuple[np.ndarray, np.ndarray]:
    """(nucleus times, sounding intervals) by de Jong & Wempe's script, version 2 (module docstring)."""
    from parselmouth.praat import call

    intensity = call(sound, "To Intensity", 50, 0, "yes")
    low = call(intensity, "Get minimum", 0, 0, "Parabolic")
    high = call(intensity, "Get maximum", 0, 0, "Parabolic")
    q99 = call(intensity, "Get quantile", 0, 0, 0.99)
    threshold = max(q99 + settings.nuclei_silence_db, low)
    grid_threshold = settings.nuclei_silence_db - (high - q99)
    grid = call(
        intensity, "To TextGrid (silences)", grid_threshold, settings.nuclei_min_pause, 0.1, "silent", "sounding"
    )
    sounding = _intervals(grid, "sounding")
    as_sound = call(call(intensity, "Down to Matrix"), "To Sound (slice)", 1)
    extrema = call(as_sound, "To PointProcess (extrema)", "Left", "yes", "no", "Sinc70")
    times = [call(extrema, "Get time from index", i) for i in range(1, int(call(extrema, "Get number of points")) + 1)]
    peaks = [(t, v) for t in times if (v := call(as_sound, "Get value at time", t, "Cubic")) > threshold]
    valid = []
    for (t, v), (t_next, _) in zip(peaks, peaks[1:], strict=False):
        # The dip is measured from the peak before, whether or not it was kept (the 2010 script).
        dip = call(intensity, "Get minimum", t, t_next, "None")
        if abs(v - dip) > settings.nuclei_min_dip:
            valid.append(t)
    pitch = call(sound, "To Pitch (ac)", 0.02, 30, 4, "no", 0.03, 0.25, 0.01, 0.35, 0.25, 450)
    voiced = []
    for t in valid:
        f0 = pitch.get_value_at_time(t)
        if np.isfinite(f0) and _inside(t, sounding):
            voiced.append(t)
    return np.asarray(voiced, dtype=np.float64), sounding


def _inside(t: float, intervals: np.ndarray) -> bool:
    i = int(np.searchsorted(intervals[:, 0], t, side="right")) - 1
    return i >= 0 and t <= intervals[i, 1]


def extract_tracks(path: str | os.PathLike[str], settings: CueSettings | None = None) -> Tracks:
    """The tracks of a recording (module docstring); :class:`SegagreeError` naming the file when it
    cannot be read as audio, :class:`ImportError` when parselmouth is missing."""
    from parselmouth.praat import call

    settings = settings or CueSettings()
    path = Path(path)
    sound = _sound(path)
    pitch = sound.to_pitch(pitch_floor=settings.pitch_floor, pitch_ceiling=settings.pitch_ceiling)
    f0 = np.asarray(pitch.selected_array["frequency"], dtype=np.float64)
    f0[f0 <= 0] = np.nan
    intensity = call(sound, "To Intensity", settings.intensity_min_pitch, 0, "yes")
    grid = call(
        sound,
        "To TextGrid (silences)",
        settings.intensity_min_pitch,
        0,
        settings.silence_threshold,
        settings.min_silence,
        settings.min_sounding,
        "silent",
        "sounding",
    )
    nuclei, sounding = syllable_nuclei(sound, settings)
    return Tracks(
        duration=float(sound.duration),
        pitch_times=np.asarray(pitch.xs(), dtype=np.float64),
        f0=f0,
        intensity_times=np.asarray(intensity.xs(), dtype=np.float64),
        intensity=np.asarray(intensity.values[0], dtype=np.float64),
        silences=_intervals(grid, "silent"),
        nuclei=nuclei,
        nuclei_sounding=sounding,
        name=path.name,
    )


def _file_sha1(path: Path) -> str:
    digest = hashlib.sha1()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cache_path(path: Path, settings: CueSettings, cache_dir: Path) -> Path:
    """Where the tracks of ``path`` with ``settings`` are kept under ``cache_dir``."""
    key = json_digest([_FORMAT, settings.tracks_part()], 12)
    return cache_dir / f"{_file_sha1(path)[:20]}-{key}.npz"


def cached_tracks(
    path: str | os.PathLike[str], settings: CueSettings | None = None, cache_dir: Path | None = None
) -> Tracks:
    """:func:`extract_tracks`, read back from ``cache_dir`` when the same recording (by content) was
    analysed with the same settings; written there (atomically) otherwise."""
    settings = settings or CueSettings()
    path = Path(path)
    if cache_dir is None:
        return extract_tracks(path, settings)
    where = cache_path(path, settings, cache_dir)
    if where.is_file():
        try:
            with np.load(where, allow_pickle=False) as kept:
                return Tracks(
                    **{k: kept[k] for k in kept.files if k != "duration"},
                    duration=float(kept["duration"]),
                    name=path.name,
                )
        except (OSError, ValueError, KeyError, TypeError):
            pass  # a damaged cache file is computed again and replaced
    tracks = extract_tracks(path, settings)
    with atomic_path(where) as tmp:
        with open(tmp, "wb") as f:
            np.savez(f, **tracks.arrays())  # type: ignore[arg-type]
    return tracks
