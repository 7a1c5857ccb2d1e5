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
from typing import Any, cast

import numpy as np

from segagree.errors import SegagreeError
from segagree.files.atomic import atomic_path
from segagree.model.digest import json_digest
from segagree.scoring.acoustics.settings import CueSettings

__all__ = ["CACHE_DIR", "Tracks", "cached_tracks", "cues_available", "extract_tracks", "on_grid"]

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
        return "praat-parselmouth is not installed (pip install 'segagree[cues]')"
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


#: Praat's silence grid of the intensity, and de Jong & Wempe's syllable nuclei (version 2 of their
#: script, step by step: see the module docstring), run by the Praat inside parselmouth on the
#: selected Sound. A Praat script's loop costs microseconds a step where a call from
#: Python costs a command look-up (tenths of a millisecond): thousands of peaks an hour.
#: Output lines: ``S start end`` (silent intervals), ``U start end`` (the nuclei's sounding
#: intervals), ``N time`` (nuclei); numbers as Praat writes them (round-trip precision).
ANALYSIS_SCRIPT = """
form Analysis
    real Min_pitch 100
    real Silence_threshold -25
    real Min_silence 0.1
    real Min_sounding 0.1
    real Nuclei_db -25
    real Min_dip 2
    real Min_pause 0.3
endform
sound = selected("Sound")
# Sound: To TextGrid (silences) is this: the intensity without the mean subtracted, then its silences
loud = To Intensity: min_pitch, 0, "no"
grid = To TextGrid (silences): silence_threshold, min_silence, min_sounding, "silent", "sounding"
n = Get number of intervals: 1
for i to n
    label$ = Get label of interval: 1, i
    if label$ = "silent"
        a = Get start time of interval: 1, i
        b = Get end time of interval: 1, i
        appendInfoLine: "S ", a, " ", b
    endif
endfor
selectObject: sound
int50 = To Intensity: 50, 0, "yes"
low = Get minimum: 0, 0, "Parabolic"
high = Get maximum: 0, 0, "Parabolic"
q99 = Get quantile: 0, 0, 0.99
threshold = q99 + nuclei_db
if threshold < low
    threshold = low
endif
tg = To TextGrid (silences): nuclei_db - (high - q99), min_pause, 0.1, "silent", "sounding"
n = Get number of intervals: 1
for i to n
    label$ = Get label of interval: 1, i
    if label$ = "sounding"
        a = Get start time of interval: 1, i
        b = Get end time of interval: 1, i
        appendInfoLine: "U ", a, " ", b
    endif
endfor
selectObject: int50
matrix = Down to Matrix
slice = To Sound (slice): 1
extrema = To PointProcess (extrema): "Left", "yes", "no", "Sinc70"
npeaks = Get number of points
count = 0
for i to npeaks
    selectObject: extrema
    t = Get time from index: i
    selectObject: slice
    v = Get value at time: t, "Cubic"
    if v > threshold
        count += 1
        peak_time[count] = t
        peak_value[count] = v
    endif
endfor
selectObject: sound
pitch = To Pitch (ac): 0.02, 30, 4, "no", 0.03, 0.25, 0.01, 0.35, 0.25, 450
# The dip is measured from the peak before, kept or not (the 2010 script); the last peak is not tested.
for p to count - 1
    selectObject: int50
    dip = Get minimum: peak_time[p], peak_time[p + 1], "None"
    if abs(peak_value[p] - dip) > min_dip
        selectObject: tg
        k = Get interval at time: 1, peak_time[p]
        label$ = Get label of interval: 1, k
        selectObject: pitch
        f = Get value at time: peak_time[p], "Hertz", "Linear"
        if f <> undefined and label$ = "sounding"
            appendInfoLine: "N ", peak_time[p]
        endif
    endif
endfor
removeObject: loud, grid, int50, tg, matrix, slice, extrema, pitch
"""


def _analysis(sound: Any, settings: CueSettings) -> dict[str, np.ndarray]:
    """:data:`ANALYSIS_SCRIPT`'s lines by kind, as arrays."""
    from parselmouth.praat import run

    _, info = run(
        sound,
        ANALYSIS_SCRIPT,
        settings.intensity_min_pitch,
        settings.silence_threshold,
        settings.min_silence,
        settings.min_sounding,
        settings.nuclei_silence_db,
        settings.nuclei_min_dip,
        settings.nuclei_min_pause,
        capture_output=True,
    )
    rows: dict[str, list[list[float]]] = {"S": [], "U": [], "N": []}
    for line in str(info).splitlines():
        kind, *values = line.split()
        rows[kind].append([float(v) for v in values])
    return {
        "S": np.asarray(rows["S"], dtype=np.float64).reshape(-1, 2),
        "U": np.asarray(rows["U"], dtype=np.float64).reshape(-1, 2),
        "N": np.asarray(rows["N"], dtype=np.float64).reshape(-1),
    }


def _pitch(sound: Any, settings: CueSettings) -> tuple[np.ndarray, np.ndarray]:
    """(frame times, F0 in Hz with NaN unvoiced) of Praat's ``To Pitch...``."""
    pitch = sound.to_pitch(pitch_floor=settings.pitch_floor, pitch_ceiling=settings.pitch_ceiling)
    f0 = np.asarray(pitch.selected_array["frequency"], dtype=np.float64)
    f0[f0 <= 0] = np.nan
    return np.asarray(pitch.xs(), dtype=np.float64), f0


def _pitch_child(send: Any, sound: Any, settings: CueSettings) -> None:
    try:
        send.send(("ok", _pitch(sound, settings)))
    except BaseException as err:  # noqa: BLE001 - sent to the parent, which raises it
        send.send(("error", RuntimeError(f"{type(err).__name__}: {err}")))
    finally:
        send.close()


def _received(receive: Any) -> tuple[np.ndarray, np.ndarray]:
    """The forked child's pitch (its error raised here)."""
    try:
        kind, payload = receive.recv()
    except EOFError:
        raise RuntimeError("the pitch process stopped without a result") from None
    if kind == "error":
        raise payload
    return cast("tuple[np.ndarray, np.ndarray]", payload)


#: Recordings longer than this get their pitch in a forked child beside the rest (2 CPUs or more).
PARALLEL_SECONDS = 60.0


def extract_tracks(path: str | os.PathLike[str], settings: CueSettings | None = None) -> Tracks:
    """The tracks of a recording (module docstring); :class:`SegagreeError` naming the file when it
    cannot be read as audio, :class:`ImportError` when parselmouth is missing. A long recording's
    pitch is computed in a forked child while this process computes the rest (Praat's analyses run
    on one CPU each): the same numbers in about half the time on two CPUs."""
    from parselmouth.praat import call

    from segagree.cpus import can_fork, usable_cpus

    settings = settings or CueSettings()
    path = Path(path)
    sound = _sound(path)
    child = receive = None
    if sound.duration > PARALLEL_SECONDS and usable_cpus() > 1 and can_fork():
        import multiprocessing
        import sys

        context = multiprocessing.get_context("fork")
        for stream in (sys.stdout, sys.stderr):  # what is buffered would be written again by the child
            if stream is not None:
                stream.flush()
        receive, send = context.Pipe(duplex=False)
        child = context.Process(target=_pitch_child, args=(send, sound, settings), daemon=True)
        child.start()
        send.close()
    try:
        intensity = call(sound, "To Intensity", settings.intensity_min_pitch, 0, "yes")
        found = _analysis(sound, settings)
        pitch_times, f0 = _pitch(sound, settings) if child is None else _received(receive)
    except Exception as err:  # Praat's own error (a recording shorter than its windows ...)
        if child is not None:
            child.terminate()
        if isinstance(err, SegagreeError):
            raise
        said = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise SegagreeError(f"Praat cannot analyse the recording: {said}", path=path) from None
    finally:
        if child is not None:
            if receive is not None:
                receive.close()
            child.join()
    return Tracks(
        duration=float(sound.duration),
        pitch_times=pitch_times,
        f0=f0,
        intensity_times=np.asarray(intensity.xs(), dtype=np.float64),
        intensity=np.asarray(intensity.values[0], dtype=np.float64),
        silences=found["S"],
        nuclei=found["N"],
        nuclei_sounding=found["U"],
        name=path.name,
    )


def on_grid(tracks: Tracks, step: float) -> tuple[np.ndarray, np.ndarray]:
    """(F0 in Hz, NaN unvoiced; intensity in dB) at ``0, step, 2 step ...`` up to the duration: the
    nearest pitch frame (within half a frame), the intensity interpolated linearly (what a page draws)."""
    grid = np.arange(0.0, tracks.duration, step)
    f0 = np.full(len(grid), np.nan)
    if len(tracks.pitch_times):
        dt = float(tracks.pitch_times[1] - tracks.pitch_times[0]) if len(tracks.pitch_times) > 1 else step
        k = np.clip(np.rint((grid - tracks.pitch_times[0]) / dt).astype(np.int64), 0, len(tracks.f0) - 1)
        near = np.abs(tracks.pitch_times[k] - grid) <= dt / 2 + 1e-9
        f0[near] = tracks.f0[k[near]]
    level = (
        np.interp(grid, tracks.intensity_times, tracks.intensity)
        if len(tracks.intensity)
        else np.full(len(grid), np.nan)
    )
    return f0, level


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
