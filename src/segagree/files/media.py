"""The recording of an annotation, and its waveform peaks for the review page.

Where an annotation names its recording (what the readers already keep in ``Document.meta``):

* ELAN: ``MEDIA_DESCRIPTOR``'s ``RELATIVE_MEDIA_URL`` (relative to the .eaf), then ``MEDIA_URL``
  (``file://`` URL or path), in the header's order;
* CHAT: ``@Media: NAME, audio|video``; NAME has no extension (the CHAT manual), so the first file
  ``NAME.*`` beside the transcript with a media extension is taken;
* Transcriber: ``<Trans audio_filename=...>`` (relative to the .trs; no extension: as CHAT);
* EXMARaLDA: ``<referenced-file url=...>`` in the meta-information.

Of several files named, the first that exists, audio before video.

:func:`find_media` returns a :class:`MediaInfo` that says what was looked for and why nothing was
found, so the page can say so. :func:`waveform_peaks` reads the audio with ``soundfile``
(libsndfile: WAV, FLAC, OGG/Vorbis, MP3 with libsndfile >= 1.1) and returns, at a fixed number of
peaks per second, the maximum absolute sample over each window (channels mixed by max), scaled to
0..255: the envelope a waveform strip draws.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse
from xml.etree import ElementTree

import numpy as np

from segagree.model import Document

__all__ = ["MEDIA_SUFFIXES", "PEAKS_PER_SECOND", "MediaInfo", "find_media", "media_candidates", "waveform_peaks"]

MEDIA_SUFFIXES = (".wav", ".flac", ".ogg", ".oga", ".opus", ".mp3", ".m4a", ".aif", ".aiff", ".mp4", ".webm")
VIDEO_SUFFIXES = (".mp4", ".webm", ".mov", ".mpg", ".mpeg", ".avi", ".m4v")
PEAKS_PER_SECOND = 50


@dataclass
class MediaInfo:
    """The recording found for an annotation (``path`` None when none was found; ``note`` says why)."""

    path: Path | None
    source: str  # where the name came from: "ELAN MEDIA_DESCRIPTOR", "CHAT @Media", "--media", ...
    tried: list[str] = field(default_factory=list)
    note: str = ""


def _from_url(url: str, home: Path) -> Path | None:
    if not url:
        return None
    parsed = urlparse(url)
    if parsed.scheme in ("file", ""):
        raw = unquote(parsed.path if parsed.scheme == "file" else url)
        path = Path(raw)
        return path if path.is_absolute() else (home / path)
    return None  # http(s) and others: not a local file; the page never requests the network


def _with_media_suffix(stem: Path) -> list[Path]:
    """``stem`` itself if it has a media extension, else every ``stem.*`` with one that exists."""
    if stem.suffix.lower() in MEDIA_SUFFIXES:
        return [stem]
    found = [stem.with_name(stem.name + s) for s in MEDIA_SUFFIXES]
    return [p for p in found if p.is_file()] or [stem.with_name(stem.name + ".wav")]


def media_candidates(doc: Document) -> tuple[str, list[Path]]:
    """(what named the recording, the candidate paths in order) from a document's kept metadata."""
    home = Path(doc.source_path).resolve().parent if doc.source_path else Path.cwd()
    meta = doc.meta or {}
    descriptors = meta.get("media_descriptors")
    if isinstance(descriptors, list) and descriptors:
        paths: list[Path] = []
        for d in descriptors:
            for key in ("RELATIVE_MEDIA_URL", "MEDIA_URL"):
                p = _from_url(str(d.get(key) or ""), home)
                if p is not None:
                    paths.append(p)
        return "ELAN MEDIA_DESCRIPTOR", paths
    chat = meta.get("chat")
    if isinstance(chat, dict):
        for line in chat.get("header") or []:
            m = re.match(r"@Media:\s*([^,\s]+)", str(line), re.I)
            if m:
                return "CHAT @Media", _with_media_suffix(home / m.group(1))
        return "CHAT @Media", []
    trs = meta.get("trs")
    if isinstance(trs, dict):
        name = str((trs.get("trans") or {}).get("audio_filename") or "")
        return "Transcriber audio_filename", _with_media_suffix(home / name) if name else []
    exb = meta.get("exb")
    if isinstance(exb, dict) and exb.get("meta_information"):
        try:
            root = ElementTree.fromstring(str(exb["meta_information"]))
        except ElementTree.ParseError:
            return "EXMARaLDA referenced-file", []
        urls = [str(e.get("url") or "") for e in root.iter("referenced-file")]
        return "EXMARaLDA referenced-file", [p for u in urls if (p := _from_url(u, home)) is not None]
    return "", []


def find_media(doc: Document | None, given: str | os.PathLike[str] | None = None) -> MediaInfo:
    """The recording: ``given`` (``--media``) if any, else what ``doc`` names (see the module docstring)."""
    if given is not None:
        path = Path(given)
        if path.is_file():
            return MediaInfo(path.resolve(), "--media", [str(path)])
        return MediaInfo(None, "--media", [str(path)], f"the recording given with --media does not exist: {path}")
    if doc is None:
        return MediaInfo(None, "", [], "no recording: the annotations name none; give one with --media")
    source, paths = media_candidates(doc)
    # A recording listed as audio and as video (EXMARaLDA, ELAN often list both): the audio first,
    # which an <audio> element plays in any browser and soundfile reads for the waveform.
    paths.sort(key=lambda p: p.suffix.lower() in VIDEO_SUFFIXES)
    home = Path(doc.source_path).resolve().parent if doc.source_path else Path.cwd().resolve()
    # Only a recording inside the annotation's folder is followed: a name in a file anyone may
    # have edited ("../../../../etc/passwd", an absolute @Media) would otherwise be linked in the
    # page and read for its waveform. Names are shown relative to that folder, never as the
    # absolute paths of the machine that wrote the page.
    inside = [p for p in paths if _inside(p, home)]
    outside = [p for p in paths if not _inside(p, home)]
    tried = [_shown(p, home) for p in inside]
    for p in inside:
        if p.is_file():
            return MediaInfo(p.resolve(), source, tried)
    if not source or not paths:
        what = f"its {source} is empty" if source else "the annotation names no recording"
        return MediaInfo(None, source, tried, f"no recording: {what}; give one with --media")
    note = f"the recording named by {source} is missing" + (f" (tried {', '.join(tried)})" if tried else "")
    if outside:
        names = ", ".join(p.name for p in outside[:5])
        note += f"; a name outside the annotation's folder ({names}) is not followed: give the recording with --media"
    return MediaInfo(None, source, tried, note)


def _inside(path: Path, home: Path) -> bool:
    """Whether ``path`` (links resolved) is in ``home`` or below it."""
    try:
        return path.resolve().is_relative_to(home)
    except (OSError, RuntimeError, ValueError):  # a link loop, a name the system refuses
        return False


def _shown(path: Path, home: Path) -> str:
    try:
        return path.resolve().relative_to(home).as_posix()
    except (OSError, RuntimeError, ValueError):
        return path.name


def waveform_peaks(path: Path, per_second: int = PEAKS_PER_SECOND) -> tuple[list[int], float, str]:
    """(peaks 0..255, seconds per peak, note): the envelope of the recording, about ``per_second``
    peaks a second (whole samples per window); no peaks and a note saying why when the file cannot
    be read as audio (a video, a format libsndfile lacks)."""
    try:
        import soundfile
    except ImportError:  # pragma: no cover - a declared dependency
        return [], 1.0 / per_second, "no waveform: the soundfile package is not installed"
    try:
        info = soundfile.info(str(path))
        rate = int(info.samplerate)
        window = max(1, round(rate / per_second))
        chunks: list[np.ndarray] = []
        # Blocks of whole windows: memory stays small for hour-long recordings.
        for block in soundfile.blocks(str(path), blocksize=window * 4096, dtype="float32", always_2d=True):
            mono = np.abs(block).max(axis=1)
            n = math.ceil(len(mono) / window)
            padded = np.zeros(n * window, dtype=np.float32)
            padded[: len(mono)] = mono
            chunks.append(padded.reshape(n, window).max(axis=1))
    except Exception as err:  # libsndfile raises its own error for any file it cannot decode
        return [], 1.0 / per_second, f"no waveform: {path.name} cannot be read as audio ({type(err).__name__}: {err})"
    if not chunks:
        return [], 1.0 / per_second, f"no waveform: {path.name} has no samples"
    peaks = np.concatenate(chunks)
    top = float(peaks.max()) or 1.0
    return [int(v) for v in np.rint(np.clip(peaks / top, 0, 1) * 255)], window / rate, ""


def media_note(info: MediaInfo) -> dict[str, Any]:
    """The facts the page shows about the recording."""
    return {"source": info.source, "tried": info.tried, "note": info.note}
