"""Checks every reader's output passes: times a recording can have.

A reader should refuse impossible times where it finds them, naming the line, tier or node;
:func:`check_times` is the net under every reader (and every future one), run by
:func:`segagree.formats.read_document`, so that no writer ever meets an infinite, negative,
astronomically large or reversed time.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from segagree.errors import InputError
from segagree.formats.timing import MAX_SECONDS
from segagree.model import Document

__all__ = ["MAX_SECONDS", "check_times"]


def check_times(doc: Document, path: str | Path) -> None:
    """Refuse non-finite, negative, over-large (> :data:`MAX_SECONDS`) or reversed token times.

    Unknown times (NaN) are fine. Raises InputError naming the speaker and the token.
    """
    if not doc.n_tokens:
        return
    starts = doc.column("start").astype(float, copy=False)
    ends = doc.column("end").astype(float, copy=False)
    for name, col in (("start", starts), ("end", ends)):
        _refuse_first(
            doc,
            path,
            np.isinf(col) | (col < 0) | (col > MAX_SECONDS),
            lambda i, n, name=name, col=col: (  # type: ignore[misc]
                f"{name} time {float(col[i])!r} of token {_token(doc, i)} is impossible; "
                f"expected a finite time from 0 to {MAX_SECONDS:.0f} s ({n} such times)"
            ),
        )
    _refuse_first(
        doc,
        path,
        ends < starts,  # NaN compares False
        lambda i, n: (
            f"token {_token(doc, i)} ends ({ends[i]}) before it starts ({starts[i]}); "
            f"expected start <= end ({n} such tokens)"
        ),
    )


def _refuse_first(doc: Document, path: str | Path, bad: np.ndarray, message: Callable[[int, int], str]) -> None:
    """Raise InputError with ``message(first bad row, number of bad rows)`` if any row is bad."""
    rows = np.flatnonzero(bad)
    if rows.size:
        raise InputError(message(int(rows[0]), int(rows.size)), path=path)


def _token(doc: Document, row: int) -> str:
    return f"{str(doc.column('text')[row])!r} (row {row + 1}, speaker {doc.column('speaker')[row]!r})"


def has_webvtt_signature(path: Path) -> bool:
    """Whether the file starts with the WebVTT signature (after an optional UTF-8 BOM): for an
    ``.srt`` that is really a WebVTT/SRT hybrid (as some caption downloaders save them)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(10)
    except OSError:
        return False  # the reader named by the extension reports the problem
    head = head.removeprefix(b"\xef\xbb\xbf")
    return head.startswith(b"WEBVTT") and (len(head) == 6 or head[6:7] in (b" ", b"\t", b"\r", b"\n"))
