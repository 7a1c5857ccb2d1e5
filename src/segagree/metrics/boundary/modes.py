"""S_f's search modes (nothing heavy imported: the command line's options read them): ``optimal``, the
exact minimum cost alignment, and ``segsimflex``, the search of the R package segsimflex (Lai, Li &
Zhang 2023)."""

from __future__ import annotations

from pathlib import Path

from segagree.errors import SegagreeError, UsageError

#: the S_f search modes, the default first
MODES: tuple[str, ...] = ("optimal", "segsimflex")


def check_mode(mode: str, *, path: str | Path | None = None, error: type[SegagreeError] = UsageError) -> None:
    """Refuse an S_f search mode that is not one of :data:`MODES` (the one check of every layer: the
    measure, the API, a corpus's settings), as ``error`` naming ``path`` when given."""
    if mode not in MODES:
        raise error(f"mode must be {' or '.join(MODES)}, not {mode!r}", path=path)
