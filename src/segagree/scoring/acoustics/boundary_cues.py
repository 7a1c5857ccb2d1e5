"""The acoustic cues at one boundary point, from a recording's tracks (:class:`.tracks.Tracks`) and the
annotation's times; pure: arrays in, values out.

A boundary point is the gap between the token before it (ending at ``end``) and the next token of the
same speaker (starting at ``next_start``). Cues (each None with a reason where it cannot be measured):

* ``gap``: ``next_start - end``, the annotation's own pause (no recording needed);
* ``pause``: the seconds of Praat's silent intervals (``To TextGrid (silences)``) that overlap the gap
  widened by the pause tolerance on each side, whole (annotators put unit edges inside the pause or
  at speech, so a silence is counted from its own edges); 0 where none overlaps;
* ``f0_reset``: 12·log2(F0 after / F0 before) semitones, each the median of the voiced pitch frames in
  the ``window`` seconds before the speech ends and after it starts again (``end`` and ``next_start``,
  or the edges of the pause where a silent interval was found: the windows then hold speech); a
  positive reset: the next unit starts higher; ``f0_reset_range``: the reset as a share of the
  speaker's range (5th to 95th percentile of the speaker's voiced frames inside their own units, in
  semitones: Du Bois et al.'s and Chafe's resets are relative to the speaker's range);
* ``intensity_reset``: mean intensity (dB) of the frames in the window after minus before;
* ``rate_before``, ``rate_after``: syllable nuclei (de Jong & Wempe 2009) per second of sounding time
  (their articulation rate) in the ``rate_window`` seconds before and after the pause (as the F0 windows);
* ``lengthening``: the last word's duration over the speaker's mean duration of words with as many
  letters (at least three of them), where the annotation has word times.

Cues from the recording are empty when another speaker's unit overlaps the point (the windows around
it): the recording mixes the speakers there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.scoring.acoustics.settings import CueSettings
from segagree.scoring.acoustics.tracks import Tracks

__all__ = ["CUE_KEYS", "Point", "SpeakerTimes", "boundary_cues", "speaker_range", "word_means"]

#: The cue values of a point, in the order columns show them.
CUE_KEYS = (
    "gap",
    "pause",
    "f0_reset",
    "f0_reset_range",
    "intensity_reset",
    "rate_before",
    "rate_after",
    "lengthening",
)
MIN_SAME_LENGTH_WORDS = 3
MIN_SOUNDING = 0.1  # seconds of sounding time below which a rate is not given


@dataclass(frozen=True)
class Point:
    """A boundary point: the speaker, the end of the token before, the start of the speaker's next
    token (None at the end of their stream), the last word and its duration (None without word times)."""

    speaker: str
    end: float | None
    next_start: float | None
    word: str = ""
    word_duration: float | None = None


@dataclass
class SpeakerTimes:
    """What a point needs of the annotation as a whole: each speaker's units as (start, end) arrays,
    their F0 range (Hz at the 5th and 95th percentiles) and their mean word duration by letters."""

    units: Mapping[str, np.ndarray] = field(default_factory=dict)  # speaker -> (n, 2)
    ranges: Mapping[str, tuple[float, float] | None] = field(default_factory=dict)
    words: Mapping[str, Mapping[int, tuple[float, int]]] = field(default_factory=dict)  # letters -> (mean, n)


def _letters(word: str) -> int:
    return sum(ch.isalpha() for ch in word)


def word_means(words: Sequence[tuple[str, float]]) -> dict[int, tuple[float, int]]:
    """Mean duration and count of a speaker's words, by number of letters (``words``: text, seconds)."""
    sums: dict[int, list[float]] = {}
    for text, seconds in words:
        if math.isfinite(seconds) and seconds > 0 and _letters(text):
            sums.setdefault(_letters(text), []).append(seconds)
    return {n: (float(np.mean(v)), len(v)) for n, v in sums.items()}


def _voiced_in(tracks: Tracks, spans: np.ndarray) -> np.ndarray:
    """The voiced F0 values (Hz) of the frames inside any of ``spans`` ((n, 2) sorted by start)."""
    t, f0 = tracks.pitch_times, tracks.f0
    if not len(spans):
        return np.empty(0)
    i = np.searchsorted(spans[:, 0], t, side="right") - 1
    inside = (i >= 0) & (t <= spans[np.maximum(i, 0), 1])
    values = f0[inside]
    return values[np.isfinite(values)]


def speaker_range(tracks: Tracks, units: np.ndarray) -> tuple[float, float] | None:
    """The 5th and 95th percentiles (Hz) of the F0 in a speaker's units; None with under 10 voiced frames."""
    values = _voiced_in(tracks, units[np.argsort(units[:, 0])] if len(units) else units)
    if len(values) < 10:
        return None
    low, high = np.percentile(values, [5, 95])
    return float(low), float(high)


def _frames(times: np.ndarray, values: np.ndarray, lo: float, hi: float) -> np.ndarray:
    a, b = np.searchsorted(times, lo, side="left"), np.searchsorted(times, hi, side="right")
    part = values[a:b]
    return part[np.isfinite(part)]


def _overlap_total(intervals: np.ndarray, lo: float, hi: float) -> float:
    if not len(intervals) or hi <= lo:
        return 0.0
    starts, ends = np.maximum(intervals[:, 0], lo), np.minimum(intervals[:, 1], hi)
    return float(np.clip(ends - starts, 0, None).sum())


def _rate(tracks: Tracks, lo: float, hi: float) -> tuple[float | None, str]:
    sounding = _overlap_total(tracks.nuclei_sounding, lo, hi)
    if sounding < MIN_SOUNDING:
        return None, f"under {MIN_SOUNDING:g} s of speech in {lo:.2f}-{hi:.2f} s"
    n = int(np.searchsorted(tracks.nuclei, hi, side="right") - np.searchsorted(tracks.nuclei, lo, side="left"))
    return n / sounding, ""


def _overlapping(point: Point, times: SpeakerTimes, lo: float, hi: float) -> list[str]:
    """The other speakers with a unit overlapping ``lo..hi``."""
    return [
        s
        for s, units in times.units.items()
        if s != point.speaker and len(units) and bool(np.any((units[:, 0] < hi) & (units[:, 1] > lo)))
    ]


def _lengthening(point: Point, times: SpeakerTimes) -> tuple[float | None, str]:
    if point.word_duration is None or not math.isfinite(point.word_duration):
        return None, "no word times"
    mean, n = times.words.get(point.speaker, {}).get(_letters(point.word), (0.0, 0))
    if n < MIN_SAME_LENGTH_WORDS or mean <= 0:
        return None, f"under {MIN_SAME_LENGTH_WORDS} words of {_letters(point.word)} letters by {point.speaker}"
    return point.word_duration / mean, ""


def _f0_reset(
    tracks: Tracks, point: Point, times: SpeakerTimes, before: tuple[float, float], after: tuple[float, float]
) -> tuple[float | None, float | None, list[str]]:
    f0_before = _frames(tracks.pitch_times, tracks.f0, *before)
    f0_after = _frames(tracks.pitch_times, tracks.f0, *after)
    if not len(f0_before) or not len(f0_after):
        side = "before" if not len(f0_before) else "after"
        return None, None, [f"F0: unvoiced {side} the boundary"]
    reset = 12 * math.log2(float(np.median(f0_after)) / float(np.median(f0_before)))
    span = times.ranges.get(point.speaker)
    if span is None or span[1] <= span[0]:
        return reset, None, [f"F0 range: too few voiced frames of {point.speaker}"]
    return reset, reset / (12 * math.log2(span[1] / span[0])), []


def _recording_cues(
    tracks: Tracks, point: Point, times: SpeakerTimes, settings: CueSettings, out: dict[str, Any]
) -> list[str]:
    """The cues measured on the recording, into ``out``; the reasons for those left empty."""
    end, nxt = point.end, point.next_start
    assert end is not None and nxt is not None
    w = settings.window
    others = _overlapping(point, times, min(end, nxt) - w, max(end, nxt) + w)
    if others:
        return [f"overlap: {', '.join(others[:3])} speaks at the boundary"]
    if end > tracks.duration or nxt < 0:
        return [f"the boundary is outside the recording ({tracks.duration:.2f} s)"]
    tol = settings.pause_tolerance
    lo, hi = min(end, nxt) - tol, max(end, nxt) + tol
    silences = tracks.silences.reshape(-1, 2)
    hits: np.ndarray = silences[(silences[:, 0] < hi) & (silences[:, 1] > lo)]
    out["pause"] = float(sum(b - a for a, b in hits))
    if len(hits):
        # The windows hold speech: they end where the pause starts and start where it ends.
        end, nxt = min(end, float(hits[0][0])), max(nxt, float(hits[-1][1]))
    notes: list[str] = []
    out["f0_reset"], out["f0_reset_range"], more = _f0_reset(tracks, point, times, (end - w, end), (nxt, nxt + w))
    notes += more
    i_before = _frames(tracks.intensity_times, tracks.intensity, end - w, end)
    i_after = _frames(tracks.intensity_times, tracks.intensity, nxt, nxt + w)
    if len(i_before) and len(i_after):
        out["intensity_reset"] = float(i_after.mean() - i_before.mean())
    else:
        notes.append("intensity: no frame in a window")
    r = settings.rate_window
    out["rate_before"], why_before = _rate(tracks, end - r, end)
    out["rate_after"], why_after = _rate(tracks, nxt, nxt + r)
    notes += [f"rate: {why}" for why in (why_before, why_after) if why]
    return notes


def boundary_cues(
    point: Point, tracks: Tracks | None, times: SpeakerTimes, settings: CueSettings, no_tracks: str = ""
) -> dict[str, Any]:
    """The cues of one point (:data:`CUE_KEYS`, None where not measured), ``cue_at`` (the boundary's
    time: the middle of the gap) and ``cue_note`` (why values are empty; ``no_tracks`` when there is
    no recording)."""
    out: dict[str, Any] = dict.fromkeys(CUE_KEYS)
    notes: list[str] = []
    out["lengthening"], why = _lengthening(point, times)
    if why:
        notes.append(f"lengthening: {why}")
    if point.end is None or not math.isfinite(point.end):
        notes.insert(0, "no times at this point")
    elif point.next_start is None or not math.isfinite(point.next_start):
        notes.insert(0, f"the end of {point.speaker}'s speech: no next unit")
    else:
        out["gap"] = point.next_start - point.end
        if tracks is None:
            notes.insert(0, no_tracks or "no recording")
        else:
            notes = _recording_cues(tracks, point, times, settings, out) + notes
    ends = [t for t in (point.end, point.next_start) if t is not None and math.isfinite(t)]
    out["cue_at"] = float(np.mean(ends)) if ends else None
    out["cue_note"] = "; ".join(notes)
    return out
