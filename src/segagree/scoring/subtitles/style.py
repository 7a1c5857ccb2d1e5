"""Style checks of subtitles against a guideline profile, no reference needed (``segagree check``).

A profile (``data/profiles/NAME.toml`` or the user's TOML file, keys as in :class:`StyleProfile`)
holds the limits; each built-in profile cites its guideline in its file. The rules, and exactly
how each is counted (``violations`` gives one count per rule):

* ``cpl``: per **line**: a line longer than ``max_cpl`` characters. A line's characters are its
  displayed text: the words joined by one space, every ``<...>`` tag and ``{\\...}`` block removed
  (also the unknown tags the SRT reader keeps as words), a dialogue dash put back as the
  SRT file wrote it (``-`` or ``- ``; ``- `` for other formats) and a ``NAME: `` label put back where
  the file had one; spaces and punctuation count.
* ``lines``: per cue: more than ``max_lines`` lines.
* ``cps``: per cue: characters per second above ``max_cps``, the characters being the sum of its
  lines' characters (as ``cpl``; the line break itself is not counted) over the cue's duration
  (a cue of zero duration with text has infinite CPS).
* ``min_duration``/``max_duration``: per cue: ``end - start`` below/above the limit (seconds).
* ``min_gap``: per cue with a next cue: ``next.start - end`` below ``min_gap_frames / frame_rate``
  seconds (counted on the earlier cue); with ``min_gap_frames = 0`` only overlapping cues count.
* ``balance``: per cue of two or more lines: the shortest line's characters divided by the
  longest's below ``min_balance`` (``0`` turns the rule off; no built-in guideline gives a number).

Cues are the ``<eob>`` blocks of the ``subtitle`` layer in file order; a cue without words is not
in a Document (the readers drop it and report it), so it is not checked. Timing rules need times
(SRT, WebVTT); for tagged text only ``cpl``, ``lines`` and ``balance`` apply. All comparisons
allow 1e-9 so that a cue exactly at a limit conforms; durations and gaps allow half a millisecond,
the precision of SRT and WebVTT times (5/6 s, 20 frames at 24 fps, is written 0.833 s).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from segagree.errors import InputError, UsageError
from segagree.metrics.subtitles.scores import Cue
from segagree.model import Document
from segagree.scoring.subtitles import cues
from segagree.scoring.subtitles.breaks import subtitle_breaks

__all__ = ["PROFILES", "RULES", "Cue", "StyleProfile", "check_document", "checked_cues", "load_profile"]

RULES: tuple[str, ...] = ("cpl", "lines", "cps", "min_duration", "max_duration", "min_gap", "balance")
PROFILES: tuple[str, ...] = ("netflix-en", "netflix-en-children", "ted", "bbc")
_EPS = 1e-9
# SRT and WebVTT times are whole milliseconds: 5/6 s (20 frames at 24 fps) is written 0.833 s.
_MS = 0.0005


@dataclass(frozen=True)
class StyleProfile:
    """The limits of one guideline (see the module docstring for how each rule counts)."""

    name: str
    title: str
    source: str
    max_cpl: int = 42
    max_lines: int = 2
    max_cps: float = 21.0
    min_duration: float = 1.0
    max_duration: float = 7.0
    min_gap_frames: int = 0
    frame_rate: float = 25.0
    min_balance: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _parse_profile(data: Mapping[str, Any], where: str) -> StyleProfile:
    known = {f.name: f for f in fields(StyleProfile)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise InputError(f"unknown profile key(s) {unknown}; known: {', '.join(known)}", path=where)
    values: dict[str, Any] = {"name": Path(where).stem, "title": "", "source": ""}
    for key, value in data.items():
        kind = known[key].type
        try:
            values[key] = str(value) if kind == "str" else (int(value) if kind == "int" else float(value))
        except (TypeError, ValueError):
            raise InputError(f"profile key {key!r} must be a number, not {value!r}", path=where) from None
    prof = StyleProfile(**values)
    for key in ("max_cpl", "max_lines", "max_cps", "max_duration", "frame_rate"):
        if not getattr(prof, key) > 0:
            raise InputError(f"profile key {key!r} must be positive", path=where)
    if prof.min_gap_frames < 0 or prof.min_duration < 0 or not 0 <= prof.min_balance <= 1:
        raise InputError("min_gap_frames and min_duration must be >= 0, min_balance from 0 to 1", path=where)
    return prof


def load_profile(profile: str | Path | StyleProfile, *, frame_rate: float | None = None) -> StyleProfile:
    """A built-in profile by name (:data:`PROFILES`) or a TOML file; ``frame_rate`` overrides its rate."""
    import tomllib

    if isinstance(profile, StyleProfile):
        prof = profile
    elif str(profile) in PROFILES:
        text = resources.files("segagree").joinpath(f"data/profiles/{profile}.toml").read_text("utf-8")
        prof = _parse_profile(tomllib.loads(text), f"{profile}.toml")
    elif Path(profile).suffix.lower() == ".toml":
        path = Path(profile)
        if not path.is_file():
            raise InputError("no such profile file", path=path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as err:
            raise InputError(f"not a valid TOML profile ({err})", path=path) from None
        prof = _parse_profile(data, str(path))
    else:
        raise UsageError(f"unknown profile {str(profile)!r}; known: {', '.join(PROFILES)}, or a FILE.toml")
    if frame_rate is not None:
        if not frame_rate > 0:
            raise UsageError(f"the frame rate must be positive, not {frame_rate!r}")
        prof = replace(prof, frame_rate=float(frame_rate))
    return prof


def checked_cues(doc: Document) -> list[Cue]:
    """The displayed cues of a subtitle Document (:func:`segagree.scoring.subtitles.cues.cues_of`, the
    subtitle metrics' cues too); a Document without ``<eob>``/``<eol>`` types is a clear error."""
    if doc.n_tokens:
        subtitle_breaks(doc)  # raises, naming the file, when the layer has no subtitle breaks
    return cues.cues_of(doc)


def _cue_rules(cue: Cue, nxt: Cue | None, prof: StyleProfile) -> tuple[list[str], dict[str, Any]]:
    """The rules one cue breaks, and its measures."""
    lengths = [len(x) for x in cue.lines]
    chars = cue.chars
    broken = ["cpl"] * sum(n > prof.max_cpl for n in lengths)
    if len(cue.lines) > prof.max_lines:
        broken.append("lines")
    if prof.min_balance > 0 and len(lengths) > 1 and max(lengths) and min(lengths) / max(lengths) < prof.min_balance:
        broken.append("balance")
    info: dict[str, Any] = {"chars": chars}
    duration = cue.end - cue.start
    if not math.isnan(duration):
        cps = chars / duration if duration > 0 else (math.inf if chars else 0.0)
        info.update(duration=round(duration, 6), cps=round(cps, 3) if math.isfinite(cps) else None)
        if cps > prof.max_cps + _EPS:
            broken.append("cps")
        if duration < prof.min_duration - _MS:
            broken.append("min_duration")
        if duration > prof.max_duration + _MS:
            broken.append("max_duration")
        if nxt is not None and not math.isnan(nxt.start):
            gap = nxt.start - cue.end
            info["gap_frames"] = round(gap * prof.frame_rate, 3)
            if gap < prof.min_gap_frames / prof.frame_rate - _MS or gap < -_EPS:
                broken.append("min_gap")
    return broken, info


def check_document(doc: Document, profile: str | Path | StyleProfile, *, frame_rate: float | None = None) -> dict:
    """The style violations of every cue of ``doc`` under ``profile`` (module docstring).

    Returns ``{"file", "profile", "cues", "timed", "violations": {rule: count}, "cues_with_violations",
    "per_cue": [{"cue", "start", "end", "lines", "rules", ...}]}`` (only cues that break a rule).
    """
    prof = load_profile(profile, frame_rate=frame_rate)
    shown = checked_cues(doc)
    counts = dict.fromkeys(RULES, 0)
    per_cue = []
    for k, cue in enumerate(shown):
        broken, info = _cue_rules(cue, shown[k + 1] if k + 1 < len(shown) else None, prof)
        for rule in broken:
            counts[rule] += 1
        if broken:
            per_cue.append(
                {
                    "cue": cue.number,
                    "start": cue.start,
                    "end": cue.end,
                    "lines": list(cue.lines),
                    "rules": broken,
                    **info,
                }
            )
    timed = bool(shown) and not np.isnan([c.start for c in shown] + [c.end for c in shown]).any()
    return {
        "file": doc.source_path or doc.name,
        "profile": prof.to_dict(),
        "cues": len(shown),
        "timed": timed,
        "violations": counts,
        "cues_with_violations": len(per_cue),
        "per_cue": per_cue,
    }
