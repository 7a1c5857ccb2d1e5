"""Atomic writes: an output appears whole or not at all, and never over an input."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from segagree.errors import SegagreeError


@contextlib.contextmanager
def atomic_path(path: str | Path, *, inputs: tuple[str | Path, ...] = ()) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success rename it onto ``path``.

    Refuses to overwrite any of ``inputs`` (nothing is lost), and removes the temporary file
    if writing fails, so a reader never sees a half-written output.
    """
    target = Path(path)
    for src in inputs:
        if Path(src).exists() and target.exists() and target.resolve() == Path(src).resolve():
            raise SegagreeError("refusing to overwrite an input file", path=target)
    target.parent.mkdir(parents=True, exist_ok=True)
    # Keep the suffix so writers that look at it (xlsx vs csv) see the target's.
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.stem}.tmp-", suffix=target.suffix, dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        # mkstemp makes the file private (0600); give it the permissions a plain open() would.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_text_atomic(path: str | Path, text: str, *, encoding: str = "utf-8") -> None:
    """Write text to ``path`` atomically (temp file then rename)."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding=encoding, newline="")
