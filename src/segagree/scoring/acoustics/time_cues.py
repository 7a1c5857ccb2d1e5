"""The acoustic cues of a time review's rows (gamma's aligned groups, each annotator's own unit): for
every annotator with a unit in the row, the cues at its end, the gap to that annotator's next unit of
the same speaker (:func:`.boundary_cues.boundary_cues`; other speakers' units of that annotator make
an overlap)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from segagree.metrics.contract import UnitSet
from segagree.scoring.acoustics.boundary_cues import Point, SpeakerTimes, boundary_cues, speaker_range
from segagree.scoring.acoustics.settings import CueSettings
from segagree.scoring.acoustics.tracks import Tracks

__all__ = ["NOTE_COLUMN", "TIME_CUES", "time_cue_columns", "time_row_cues"]

#: (cue key, column suffix) of each annotator's cue columns in a time review.
TIME_CUES = (("pause", "pause (s)"), ("f0_reset", "F0 reset (st)"), ("intensity_reset", "intensity reset (dB)"))
NOTE_COLUMN = "cue note"


def time_cue_columns(annotators: Sequence[str]) -> list[str]:
    """The cue columns of a time review: per annotator, :data:`TIME_CUES`; then the note."""
    return [*(f"{a} {suffix}" for a in annotators for _, suffix in TIME_CUES), NOTE_COLUMN]


def _annotator_times(speakers: Mapping[str, UnitSet], k: int, tracks: Tracks | None) -> SpeakerTimes:
    units = {}
    for speaker, us in speakers.items():
        mine = us.annotator == k
        spans = np.column_stack([us.start[mine], us.end[mine]]).astype(np.float64).reshape(-1, 2)
        units[speaker] = spans[np.argsort(spans[:, 0], kind="stable")]
    ranges = {s: speaker_range(tracks, u) if tracks is not None else None for s, u in units.items()}
    return SpeakerTimes(units=units, ranges=ranges)


def time_row_cues(
    rows: Sequence[dict[str, Any]],
    speakers: Mapping[str, UnitSet],
    annotators: Sequence[str],
    tracks: Tracks | None,
    settings: CueSettings,
    no_tracks: str = "",
) -> None:
    """Put every row's cue columns (:func:`time_cue_columns`) into it."""
    times = [_annotator_times(speakers, k, tracks) for k in range(len(annotators))]
    for row in rows:
        speaker = str(row.get("speaker") or "")
        notes = []
        for k, a in enumerate(annotators):
            end = row.get(f"{a} end")
            for _, suffix in TIME_CUES:
                row[f"{a} {suffix}"] = None
            if end is None:
                continue
            spans = times[k].units.get(speaker, np.empty((0, 2)))
            later = spans[spans[:, 0] >= float(end) - 1e-9]
            nxt = float(later[0, 0]) if len(later) else None
            cues = boundary_cues(Point(speaker, float(end), nxt), tracks, times[k], settings, no_tracks)
            for key, suffix in TIME_CUES:
                row[f"{a} {suffix}"] = cues[key]
            # units in time have no word times: the lengthening's note says nothing here
            said = "; ".join(p for p in cues["cue_note"].split("; ") if p and not p.startswith("lengthening"))
            if said:
                notes.append(f"{a}: {said}")
        row[NOTE_COLUMN] = "; ".join(notes)
