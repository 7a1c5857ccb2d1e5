"""Recordings with known pauses and pitch for the acoustic cue tests, made at test time (nothing committed):
voiced stretches of a harmonic complex whose F0 glides linearly, with four syllables a second (a
raised-cosine envelope), separated by silence with a faint noise floor."""

from __future__ import annotations

from pathlib import Path

import numpy as np

RATE = 16000


def voiced(seconds: float, f0_from: float, f0_to: float, syllables_per_second: float = 4.0) -> np.ndarray:
    """A voiced stretch: harmonics 1-10 of an F0 gliding from ``f0_from`` to ``f0_to`` Hz."""
    t = np.arange(int(seconds * RATE)) / RATE
    f0 = f0_from + (f0_to - f0_from) * t / seconds
    phase = 2 * np.pi * np.cumsum(f0) / RATE
    wave = sum(np.sin(k * phase) / k for k in range(1, 11))
    envelope = 0.55 - 0.45 * np.cos(2 * np.pi * syllables_per_second * t)
    ramp = np.minimum(1, np.minimum(t, seconds - t) / 0.02)
    return 0.2 * wave * envelope * ramp


def silence(seconds: float, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(0, 1e-4, int(seconds * RATE))


def write_recording(path: Path, parts: list[np.ndarray]) -> Path:
    import soundfile

    soundfile.write(str(path), np.concatenate(parts), RATE, subtype="PCM_16")
    return path


def two_units(path: Path) -> Path:
    """0.3 s silence, 1.2 s at 130 -> 100 Hz, 0.6 s pause, 1.0 s at 150 -> 140 Hz, 0.3 s silence."""
    return write_recording(
        path, [silence(0.3, 1), voiced(1.2, 130, 100), silence(0.6, 2), voiced(1.0, 150, 140), silence(0.3, 3)]
    )


#: The Praat script that prints what segagree reads from Praat through parselmouth: pitch and
#: intensity frames, silent intervals, and de Jong & Wempe's syllable nuclei (their version 2 steps).
PRAAT_SCRIPT = r"""
form Tracks
    sentence Path
    real Floor 75
    real Ceiling 600
    real Threshold -25
endform
sound = Read from file: path$
pitch = To Pitch: 0, floor, ceiling
n = Get number of frames
for i to n
    t = Get time from frame number: i
    f = Get value in frame: i, "Hertz"
    appendInfoLine: "P ", fixed$(t, 9), " ", fixed$(f, 9)
endfor
selectObject: sound
intensity = To Intensity: 100, 0, "yes"
n = Get number of frames
for i to n
    t = Get time from frame number: i
    v = Get value in frame: i
    appendInfoLine: "I ", fixed$(t, 9), " ", fixed$(v, 9)
endfor
selectObject: sound
grid = To TextGrid (silences): 100, 0, threshold, 0.1, 0.1, "silent", "sounding"
n = Get number of intervals: 1
for i to n
    label$ = Get label of interval: 1, i
    if label$ = "silent"
        a = Get start time of interval: 1, i
        b = Get end time of interval: 1, i
        appendInfoLine: "S ", fixed$(a, 9), " ", fixed$(b, 9)
    endif
endfor
selectObject: sound
int50 = To Intensity: 50, 0, "yes"
minint = Get minimum: 0, 0, "Parabolic"
maxint = Get maximum: 0, 0, "Parabolic"
q99 = Get quantile: 0, 0, 0.99
threshold = q99 - 25
if threshold < minint
    threshold = minint
endif
tg = To TextGrid (silences): -25 - (maxint - q99), 0.3, 0.1, "silent", "sounding"
selectObject: int50
matrix = Down to Matrix
slice = To Sound (slice): 1
pp = To PointProcess (extrema): "Left", "yes", "no", "Sinc70"
npeaks = Get number of points
count = 0
for i to npeaks
    selectObject: pp
    t = Get time from index: i
    selectObject: slice
    v = Get value at time: t, "Cubic"
    if v > threshold
        count += 1
        peakt[count] = t
        peakv[count] = v
    endif
endfor
selectObject: sound
nucleipitch = To Pitch (ac): 0.02, 30, 4, "no", 0.03, 0.25, 0.01, 0.35, 0.25, 450
for p to count - 1
    selectObject: int50
    dip = Get minimum: peakt[p], peakt[p + 1], "None"
    if abs(peakv[p] - dip) > 2
        selectObject: tg
        k = Get interval at time: 1, peakt[p]
        label$ = Get label of interval: 1, k
        selectObject: nucleipitch
        f = Get value at time: peakt[p], "Hertz", "Linear"
        if f <> undefined and label$ = "sounding"
            appendInfoLine: "N ", fixed$(peakt[p], 9)
        endif
    endif
endfor
"""
