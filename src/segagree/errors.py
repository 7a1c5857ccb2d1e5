"""User-facing errors: each names the file, the place in it and what was expected.

The CLI prints ``str(error)`` as one line and exits with code 1 (2 for a :class:`UsageError`);
nothing else turns into a traceback for bad input.

Each error is also the standard exception an ordinary ``except`` clause expects: a bad argument, a
file that cannot be read as its format, an invalid scheme and annotations that cannot be compared
are ``ValueError`` exceptions; a missing file is a ``FileNotFoundError`` (:class:`MissingFileError`).
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


class InputError(SegagreeError, ValueError):
    """A file cannot be read as the format it claims to be (also a ``ValueError``)."""


class MissingFileError(InputError, FileNotFoundError):
    """A file to read is not there (also a ``FileNotFoundError``, with ``errno`` ENOENT and
    ``filename`` set)."""

    def __init__(self, message: str = "no such file", *, path: str | Path | None = None, place: str | None = None):
        import errno

        super().__init__(message, path=path, place=place)
        self.errno = errno.ENOENT
        self.strerror = message
        self.filename = self.path


class SchemeError(SegagreeError, ValueError):
    """A boundary scheme (types, similarity matrix, transposition costs) is invalid (also a ``ValueError``)."""


class MismatchError(SegagreeError, ValueError):
    """Two annotations cannot be compared (different speakers or token streams; also a ``ValueError``)."""


class UsageError(SegagreeError, ValueError):
    """A call's arguments are invalid (unknown metric, bad option value; also a ``ValueError``); exit code 2."""
