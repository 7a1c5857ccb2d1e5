"""Checks every reader's output passes: times a recording can have.

A reader should refuse impossible times where it finds them, naming the line, tier or node;
:func:`check_times` is the net under every reader (and every future one), run by
:func:`segagree.adapters.read_document`, so that no writer ever meets an infinite, negative,
astronomically large or reversed time.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from segagree.errors import InputError
from segagree.schemas import Document

# Ten days: longer than any recording an annotation tool handles; beyond it a time is damage
# (1e308, 10^22 ms) and would overflow the writers' time formats.
MAX_SECONDS = 10 * 24 * 3600.0


def check_times(doc: Document, path: str | Path) -> None:
    """Refuse non-finite, negative, over-large (> :data:`MAX_SECONDS`) or reversed token times.

    Unknown times (NaN) are fine. Raises InputError naming the speaker and the token.
    """
    if not doc.n_tokens:
        return
    starts = doc.column("start").astype(float, copy=False)
    ends = doc.column("end").astype(float, copy=False)
    for name, col in (("start", starts), ("end", ends)):
        bad = np.flatnonzero(np.isinf(col) | (col < 0) | (col > MAX_SECONDS))
        if bad.size:
            i = int(bad[0])
            raise InputError(
                f"{name} time {col[i]!r} of token {_token(doc, i)} is impossible; expected a finite time "
                f"from 0 to {MAX_SECONDS:.0f} s ({bad.size} such times)",
                path=path,
            )
    reversed_ = np.flatnonzero(ends < starts)  # NaN compares False
    if reversed_.size:
        i = int(reversed_[0])
        raise InputError(
            f"token {_token(doc, i)} ends ({ends[i]}) before it starts ({starts[i]}); "
            f"expected start <= end ({reversed_.size} such tokens)",
            path=path,
        )


def _token(doc: Document, row: int) -> str:
    return f"{str(doc.column('text')[row])!r} (row {row + 1}, speaker {doc.column('speaker')[row]!r})"
