"""The acoustic cues of a token review's operations: each operation's boundary point located in time
by the annotations' token times, then measured (:func:`.boundary_cues.boundary_cues`).

A point's times come from the annotation that has them there: the token before the boundary and the
speaker's next token, in A's stream at A's position; where A's tokens have no time there (a unit's
inner token when only unit times are known, as at B's insertion inside A's unit), in B's stream at B's
position. The cues are measured at the point of the annotator who has the boundary (A's for a match,
substitution, deletion and transposition; B's for an insertion); a transposition also gives B's
point's pause and F0 reset (``pause_b``, ``f0_reset_b``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from segagree.model import Document
from segagree.scoring.acoustics.boundary_cues import (
    CUE_KEYS,
    Point,
    SpeakerTimes,
    boundary_cues,
    speaker_range,
    word_means,
)
from segagree.scoring.acoustics.settings import CueSettings
from segagree.scoring.acoustics.tracks import Tracks
from segagree.scoring.tokens.pairing import speaker_streams

__all__ = ["REVIEW_CUE_KEYS", "AnnotationTimes", "operation_cues", "unmarked_cues"]

#: The keys an operation row gets (besides :data:`.boundary_cues.CUE_KEYS`).
REVIEW_CUE_KEYS = ("cue_at", "cue_from", "pause_b", "f0_reset_b", "cue_note")


def _finite(value: Any) -> float | None:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


class AnnotationTimes:
    """One annotation's token times by speaker stream (as the comparison saw the streams), with the
    :class:`SpeakerTimes` its points are measured against."""

    def __init__(self, doc: Document, layer: str | None, settings: Mapping[str, Any], tracks: Tracks | None) -> None:
        self.streams = speaker_streams(doc, dict(settings))
        self.text = doc.column("text")
        self.start = np.asarray(doc.column("start"), dtype=np.float64)
        self.end = np.asarray(doc.column("end"), dtype=np.float64)
        boundaries = doc.layer(layer if layer in doc.layers else None).boundaries
        units: dict[str, np.ndarray] = {}
        words: dict[str, Any] = {}
        ranges: dict[str, tuple[float, float] | None] = {}
        for speaker, rows in self.streams.items():
            cuts = np.flatnonzero(boundaries[rows] != 0)
            firsts = np.concatenate([[0], cuts[:-1] + 1]) if len(cuts) else np.empty(0, dtype=np.int64)
            spans = np.column_stack([self.start[rows[firsts]], self.end[rows[cuts]]]) if len(cuts) else np.empty((0, 2))
            spans = spans[np.isfinite(spans).all(axis=1)]
            units[speaker] = spans[np.argsort(spans[:, 0])] if len(spans) else spans
            both = np.isfinite(self.start[rows]) & np.isfinite(self.end[rows])
            words[speaker] = word_means([(str(self.text[r]), float(self.end[r] - self.start[r])) for r in rows[both]])
            ranges[speaker] = speaker_range(tracks, units[speaker]) if tracks is not None else None
        self.times = SpeakerTimes(units=units, ranges=ranges, words=words)

    def point(self, speaker: str, position: int | None) -> Point | None:
        """The point after the token at ``position`` of ``speaker``'s stream; None where this annotation
        has no time there."""
        rows = self.streams.get(speaker)
        if rows is None or position is None or not 0 <= position < len(rows):
            return None
        row = int(rows[position])
        end = _finite(self.end[row])
        if end is None:
            return None
        nxt = _finite(self.start[int(rows[position + 1])]) if position + 1 < len(rows) else None
        if position + 1 < len(rows) and nxt is None:
            return None
        start = _finite(self.start[row])
        duration = end - start if start is not None else None
        return Point(speaker, end, nxt, str(self.text[row]), duration)


def _locate(
    sides: Sequence[tuple[str, AnnotationTimes, int | None]], speaker: str
) -> tuple[str, AnnotationTimes | None, Point | None]:
    for name, side, position in sides:
        point = side.point(speaker, position)
        if point is not None:
            return name, side, point
    return "", None, None


def operation_cues(
    operation_rows: Sequence[Mapping[str, Any]],
    a: AnnotationTimes,
    b: AnnotationTimes,
    tracks: Tracks | None,
    settings: CueSettings,
    *,
    recording: str = "",
    no_tracks: str = "",
) -> list[dict[str, Any]]:
    """The cues of every operation row (in their order): :data:`.boundary_cues.CUE_KEYS` and
    :data:`REVIEW_CUE_KEYS`; ``cue_from`` names the recording and whose times placed the point."""
    out = []
    for op in operation_rows:
        speaker = str(op["speaker"])
        pa, pb, pba = op.get("position_a"), op.get("position_b"), op.get("position_b_in_a")
        if op["op"] == "insertion":
            sides = [("B", b, pb), ("A", a, pba)]
        else:
            sides = [("A", a, pa), ("B", b, pb)]
        whose, side, point = _locate(sides, speaker)
        if side is None or point is None:
            cues = boundary_cues(Point(speaker, None, None), None, SpeakerTimes(), settings)
        else:
            cues = boundary_cues(point, tracks, side.times, settings, no_tracks)
        cues["cue_from"] = f"{recording or 'no recording'}, {whose}'s times" if whose else ""
        cues["pause_b"] = cues["f0_reset_b"] = None
        if op["op"] == "transposition":
            _, side_b, point_b = _locate([("B", b, pb), ("A", a, pba)], speaker)
            if side_b is not None and point_b is not None:
                at_b = boundary_cues(point_b, tracks, side_b.times, settings, no_tracks)
                cues["pause_b"], cues["f0_reset_b"] = at_b["pause"], at_b["f0_reset"]
        out.append(cues)
    return out


def unmarked_cues(
    operation_rows: Sequence[Mapping[str, Any]],
    a: AnnotationTimes,
    tracks: Tracks | None,
    settings: CueSettings,
) -> list[dict[str, Any]]:
    """The cues at the gaps of A's streams where neither annotator has a boundary (no operation row
    there) and A's token times place the gap (word times; unit times place only A's own boundaries)."""
    if tracks is None:
        return []
    taken: dict[str, set[int]] = {}
    for op in operation_rows:
        for key in ("position_a", "position_b_in_a"):
            if op.get(key) is not None:
                taken.setdefault(str(op["speaker"]), set()).add(int(op[key]))
    out = []
    for speaker, rows in a.streams.items():
        used = taken.get(speaker, set())
        for position in range(len(rows) - 1):
            if position in used:
                continue
            point = a.point(speaker, position)
            if point is not None:
                cues = boundary_cues(point, tracks, a.times, settings)
                out.append({k: cues[k] for k in CUE_KEYS})
    return out
