"""Times as every adapter reads them: one limit, one parser of seconds, one clamp note.

A time in a recording is a finite number of seconds from 0 to :data:`MAX_SECONDS` (ten days:
longer than any recording, shorter than the values a damaged or foreign file holds, such as
``1e308`` or an MPEG-TS clock). Each reader names the place of a bad time itself; the reason
comes from here, so every format says it the same way.
"""

from __future__ import annotations

import math

from segagree.model.native import MAX_SECONDS

__all__ = ["MAX_MS", "MAX_SECONDS", "BadTime", "clock_seconds", "is_possible", "parse_milliseconds", "parse_seconds"]

# MAX_SECONDS (ten days) is the largest time any reader accepts or any writer writes.
MAX_MS = MAX_SECONDS * 1000.0


class BadTime(ValueError):
    """A time that is not a number, or not a possible time; ``str()`` is the reason."""


def is_possible(value: float) -> bool:
    """True for a finite time from 0 to :data:`MAX_SECONDS` seconds."""
    return math.isfinite(value) and 0 <= value <= MAX_SECONDS


def impossible_reason(raw: object, unit: str = "seconds") -> str:
    """Why ``raw`` is refused as a time: the one wording all readers use."""
    limit = MAX_MS if unit == "milliseconds" else MAX_SECONDS
    return f"{raw!r} is not a possible time; expected a finite number of {unit} from 0 to {limit:.0f}"


def parse_seconds(raw: str | float | int | None) -> float | None:
    """A time in seconds from a cell or attribute: None when blank, else a possible time.

    Raises :class:`BadTime` (with the reason) for text that is not a number, or a number that is
    not a possible time (see :func:`is_possible`).
    """
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, bool):
        raise BadTime(f"{type(raw).__name__} {raw!r} is not a number of seconds")
    try:
        value = float(raw)
    except (TypeError, ValueError, OverflowError):
        raise BadTime(f"{raw!r} is not a number of seconds") from None
    if not is_possible(value):
        raise BadTime(impossible_reason(raw))
    return value


def parse_milliseconds(raw: str) -> float | None:
    """Whole milliseconds from 0 to :data:`MAX_MS` (ELAN's ``xsd:unsignedInt`` time slots), or
    None when ``raw`` is not one."""
    try:
        value = float(raw.strip())
    except ValueError:
        return None
    if not math.isfinite(value) or value < 0 or value > MAX_MS or not value.is_integer():
        return None
    return value


def clock_seconds(hours: str | None, minutes: str, secs: str, fraction: str | None) -> float:
    """Seconds of a clock time ``[H:]MM:SS[.fff]`` from its digit fields (the fraction's digits
    as written: ``5`` is 0.5 s, ``04`` 0.04 s)."""
    frac = float("0." + fraction) if fraction else 0.0
    return int(hours or 0) * 3600 + int(minutes) * 60 + int(secs) + frac
