"""``segagree.pause_baseline``: the pause baseline of one text, as a machine annotation for ``panel``
and ``run --machine`` (:mod:`segagree.scoring.acoustics.baseline`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from segagree.api.common import PathLike
from segagree.errors import SegagreeError, UsageError
from segagree.scoring.acoustics.settings import CueSettings

__all__ = ["pause_baseline"]


def _gap_cues(base: Any, layer: str | None, tracks: Any, settings: CueSettings) -> dict[str, tuple[Any, Any]]:
    """speaker -> (pauses, resets) at every gap of the base's streams; refused where a gap has no time."""
    from segagree.scoring.acoustics.boundary_cues import boundary_cues
    from segagree.scoring.acoustics.review_cues import AnnotationTimes

    times = AnnotationTimes(base, layer, {"normalise_speakers": True}, tracks)
    out, untimed = {}, 0
    for speaker, rows in times.streams.items():
        pauses, resets = np.full(len(rows) - 1, np.nan), np.full(len(rows) - 1, np.nan)
        for p in range(len(rows) - 1):
            point = times.point(speaker, p)
            if point is None:
                untimed += 1
                continue
            cues = boundary_cues(point, tracks, times.times, settings)
            pauses[p] = np.nan if cues["pause"] is None else cues["pause"]
            resets[p] = np.nan if cues["f0_reset"] is None else cues["f0_reset"]
        out[speaker] = (pauses, resets)
    if untimed:
        # Without word times the only timed gaps are the first annotator's own boundaries: the
        # baseline would choose among them, not segment the recording.
        raise SegagreeError(
            f"the pause baseline needs word times: {untimed} gaps between tokens have none "
            "(give an annotation with a word tier, or word times in a table)",
            path=base.source_path or None,
        )
    return out


def pause_baseline(
    humans: Sequence[PathLike],
    output: PathLike,
    *,
    media: PathLike | None = None,
    pitch: bool = False,
    cue_settings: CueSettings | None = None,
    annotator: str = "pause",
    layer: str | None = None,
    format: str | None = None,
    read_options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Write the pause baseline of one text: a boundary at every gap whose pause (Praat's silences at the
    gap) reaches the threshold (or, with ``pitch``, whose F0 reset reaches the reset threshold), the
    thresholds those with the highest mean boundary F1 against the ``humans`` (their files of the same
    text, the same tokens; the first gives the word times and, unless ``media``, the recording). The
    output is the first human's annotation with the baseline's boundaries (unclassified type), named
    ``annotator``, in the format of the output's extension: ``TEXT.pause.txt`` beside the humans'
    files is a machine ``panel --machine pause`` and ``run --machine pause`` read.

    Returns:
        ``{"output", "annotator", "pause", "reset", "f1", "gaps", "boundaries", "recording"}``.

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: a file cannot be read as its format; the message names the place (also a
            ``ValueError``).
        SegagreeError: no recording is found for the humans' files, or they have no word times to
            measure pauses between.
    """
    from segagree.corpus.acoustic_cues import recording_tracks
    from segagree.formats import read_document, write_document
    from segagree.model import Layer
    from segagree.scoring.acoustics.baseline import fit_pause_baseline, pause_boundaries
    from segagree.scoring.acoustics.tracks import CACHE_DIR
    from segagree.scoring.tokens.pairing import speaker_streams

    if len(humans) < 1:
        raise UsageError("the pause baseline needs the humans' annotations of the text (one file or more)")
    settings = cue_settings or CueSettings()
    docs = [read_document(Path(p), format, **dict(read_options or {})) for p in humans]
    base = docs[0]
    output = Path(output)
    tracks, name, why = recording_tracks(base, media, settings, output.resolve().parent / CACHE_DIR)
    if tracks is None:
        raise SegagreeError(f"the pause baseline needs the recording: {why}", path=str(humans[0]))
    gaps = _gap_cues(base, layer, tracks, settings)
    marks: list[list[np.ndarray]] = []
    for doc, path in zip(docs, humans, strict=True):
        streams = speaker_streams(doc, {"normalise_speakers": True})
        b = doc.layer(layer).boundaries
        if {s: len(r) for s, r in streams.items()} != {s: len(p) + 1 for s, (p, _) in gaps.items()}:
            raise SegagreeError("the pause baseline needs the same tokens in every human's file", path=str(path))
        marks.append([b[streams[s][:-1]] != 0 for s in gaps])
    pauses = np.concatenate([p for p, _ in gaps.values()])
    resets = np.concatenate([r for _, r in gaps.values()]) if pitch else None
    fit = fit_pause_baseline(pauses, [np.concatenate(m) for m in marks], resets)
    lay = base.layer(layer)
    code = lay.scheme.unclassified_code or 1
    new = np.zeros(len(lay.boundaries), dtype=np.int16)
    base_streams = speaker_streams(base, {"normalise_speakers": True})
    for s, (p, r) in gaps.items():
        rows = base_streams[s]
        marked = pause_boundaries(p, fit.pause, r if pitch else None, fit.reset)
        new[rows[:-1][marked]] = code
        new[rows[-1]] = code  # every stream ends in a boundary
    doc = base.replace(layers={**base.layers, lay.name: Layer(lay.name, lay.scheme, new)}, annotator=annotator)
    losses = write_document(doc, output)
    return {
        "output": str(output),
        "annotator": annotator,
        "pause": fit.pause,
        "reset": fit.reset,
        "f1": fit.f1,
        "gaps": fit.gaps,
        "boundaries": int(np.count_nonzero(new)),
        "recording": name,
        "losses": [loss.message for loss in losses.losses],
    }
