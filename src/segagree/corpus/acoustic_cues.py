"""The acoustic cues of a text's token reviews: the recording found as the review page finds it
(:func:`segagree.files.media.find_media`: ``--media``, else what annotator A's file names), its
tracks computed or read back from the cache beside the output, and every operation row given the cues
at its boundary point (:func:`segagree.scoring.acoustics.review_cues.operation_cues`).

Without a recording, without parselmouth or with a recording that cannot be read, the rows still get
the annotated gaps and final lengthening, and every other cue is empty with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from segagree.corpus.config import RunConfig
from segagree.corpus.documents import read_text_document
from segagree.errors import SegagreeError
from segagree.files.media import find_media
from segagree.model import Document
from segagree.scoring.acoustics.settings import CueSettings
from segagree.scoring.acoustics.tracks import CACHE_DIR, Tracks, cached_tracks, cues_available

__all__ = ["attach_cues", "cue_summary", "pair_points", "recording_tracks", "sources_media", "time_cues"]


def recording_tracks(
    doc: Document | None,
    media: str | os.PathLike[str] | None,
    settings: CueSettings,
    cache_dir: Path | None,
) -> tuple[Tracks | None, str, str]:
    """(tracks or None, the recording's name, why there are no tracks)."""
    info = find_media(doc, media)
    if info.path is None:
        return None, "", info.note
    missing = cues_available()
    if missing:
        return None, info.path.name, missing
    try:
        return cached_tracks(info.path, settings, cache_dir), info.path.name, ""
    except SegagreeError as err:
        return None, info.path.name, f"{info.path.name}: {err.message}"


def sources_media(sources: Sequence[Any], media: str | os.PathLike[str] | None) -> Any:
    """The recording of a time review's sources (:class:`segagree.files.media.MediaInfo`): ``media``,
    else the first source that names one that exists (else what the first naming one said)."""
    from segagree.formats import read_document

    info = find_media(None, media) if media is not None else None
    for path in sources if info is None else ():
        try:
            found = find_media(read_document(path))
        except Exception:  # a units table or a file only the time reader reads: it names no recording
            continue
        if found.path is not None or info is None or not info.source:
            info = found
        if found.path is not None:
            break
    return info or find_media(None)


def attach_cues(
    results: Sequence[dict[str, Any]],
    config: RunConfig,
    *,
    media: str | os.PathLike[str] | None = None,
    settings: CueSettings | None = None,
    output_dir: Path | None = None,
    docs: dict[str, Document] | None = None,
    always: bool = False,
) -> Tracks | None:
    """Give every operation row of ``results`` (successful token task results of one text, with their
    ``operation_rows``) its cues, and each result a ``cues`` record (recording, settings, note); the
    tracks cached under ``output_dir``/:data:`CACHE_DIR`. ``docs``: documents already read, by path.
    Unless ``always``, nothing is attached when no recording is found or parselmouth is not installed
    (the review then has no cue columns). Returns the recording's tracks (None without them)."""
    from segagree.scoring.acoustics.review_cues import AnnotationTimes, operation_cues, unmarked_cues

    settings = settings or CueSettings()
    docs = {} if docs is None else docs
    ok = [r for r in results if r.get("ok") and "operation_rows" in r]
    if not ok:
        return None
    scheme = config.load_scheme()
    for r in ok:
        for x in ("a", "b"):
            path = r[f"file_{x}"]
            if path not in docs:
                docs[path] = read_text_document(
                    path, str(r["text"]), config.format or None, scheme=scheme, **config.reader_options()
                )
    cache = None if output_dir is None else Path(output_dir) / CACHE_DIR
    first = docs[ok[0]["file_a"]]
    if not always and (find_media(first, media).path is None or cues_available()):
        return None
    tracks, name, why = recording_tracks(first, media, settings, cache)
    pairing = config.to_dict()  # the streams as the comparison paired them: speakers, normalise_speakers
    for r in ok:
        layer = str(r["compare"].get("layer") or config.layer)
        a = AnnotationTimes(docs[r["file_a"]], layer, pairing, tracks)
        b = AnnotationTimes(docs[r["file_b"]], layer, pairing, tracks)
        cues = operation_cues(r["operation_rows"], a, b, tracks, settings, recording=name, no_tracks=why)
        for op, cue in zip(r["operation_rows"], cues, strict=True):
            op.update(cue)
        r["cue_unmarked"] = unmarked_cues(r["operation_rows"], a, tracks, settings)
        r["cues"] = {"recording": name or "none", "note": why, "settings": settings.to_dict()}
    return tracks


def pair_points(result: Mapping[str, Any], pair: str) -> list[Any]:
    """The cue profile's points of one result with cues (:mod:`segagree.scoring.acoustics.profile`)."""
    from segagree.scoring.acoustics.profile import operation_points

    points = operation_points(pair, result.get("operation_rows", []))
    points += [(pair, "", "unmarked", cues) for cues in result.get("cue_unmarked", [])]
    return points


def cue_summary(results: Sequence[Mapping[str, Any]]) -> str:
    """One line on a review's cues: the recording they come from, or why there are none."""
    for r in results:
        cues = r.get("cues")
        if cues:
            return f"cues from {cues['recording']}" if not cues["note"] else f"cues: {cues['note']}"
    return ""


def time_cues(
    rows: list[dict[str, Any]],
    timed: Any,
    sources: Sequence[Any],
    *,
    media: str | os.PathLike[str] | None = None,
    settings: CueSettings | None = None,
    output_dir: Path | None = None,
    always: bool = False,
) -> tuple[list[str], str, Tracks | None]:
    """Give a time review's rows their cue columns (:func:`segagree.scoring.acoustics.time_cues.time_row_cues`)
    from the recording of its sources; returns the columns ([] when none were added: no recording
    found or no parselmouth, unless ``always``), ``cues from NAME`` or the reason there are none, and
    the recording's tracks."""
    from segagree.scoring.acoustics.time_cues import time_cue_columns, time_row_cues

    settings = settings or CueSettings()
    info = sources_media(sources, media)
    if not always and (info.path is None or cues_available()):
        return [], "", None
    tracks, why = None, info.note
    if info.path is not None:
        missing = cues_available()
        if missing:
            why = missing
        else:
            try:
                tracks = cached_tracks(info.path, settings, None if output_dir is None else output_dir / CACHE_DIR)
            except SegagreeError as err:
                why = f"{info.path.name}: {err.message}"
    annotators = list(timed.annotators)
    time_row_cues(rows, timed.speakers, annotators, tracks, settings, why)
    said = f"cues from {info.path.name}" if tracks is not None and info.path is not None else f"cues: {why}"
    return time_cue_columns(annotators), said, tracks
