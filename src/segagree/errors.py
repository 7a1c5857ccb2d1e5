"""User-facing errors: each names the file, the place in it and what was expected.

The CLI prints ``str(error)`` as one line and exits with code 1; nothing else
turns into a traceback for bad input.
"""

from __future__ import annotations

from pathlib import Path


class SegagreeError(Exception):
    """Base class of every error segagree reports to a user.

    Args:
        message: what is wrong and what was expected.
        path: the file concerned, if any.
        place: where in it (``line 12``, ``tier 'JOE'``, ``node 'u17'``, ``cue 4``).
    """

    def __init__(self, message: str, *, path: str | Path | None = None, place: str | None = None):
        self.message = message
        self.path = str(path) if path is not None else None
        self.place = place
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = [p for p in (self.path, self.place) if p]
        return ": ".join([*parts, self.message])


class InputError(SegagreeError):
    """A file cannot be read as the format it claims to be."""


class SchemeError(SegagreeError):
    """A boundary scheme (types, similarity matrix, transposition costs) is invalid."""


class MismatchError(SegagreeError):
    """Two annotations cannot be compared (different speakers or token streams)."""


class UsageError(SegagreeError):
    """A call's arguments are invalid (unknown metric, bad option value); exit code 2."""
