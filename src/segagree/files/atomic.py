"""Atomic writes: an output appears whole or not at all, and never over an input."""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

from segagree.errors import SegagreeError

#: The temporary files :func:`atomic_path` makes: ``.STEM.tmp-XXXXXXXX.SUFFIX`` (mkstemp's 8
#: random characters). Only names of this form are ever removed as left over.
_TEMP = re.compile(r"\.(?P<stem>.*)\.tmp-[a-z0-9_]{8}(?P<suffix>(\.[^.]*)?)")
#: A temporary file this old is a killed writer's (writing one output takes seconds to minutes).
STALE_SECONDS = 3600.0


def remove_leftover_temporaries(
    folder: str | Path, *, target: str | Path | None = None, older_than: float = 0.0
) -> list[Path]:
    """Remove the temporary files a killed writer left in ``folder`` (only :func:`atomic_path`'s
    own pattern, only regular files, not links; with ``target`` only that output's, with
    ``older_than`` only those not modified for so many seconds). Returns the files removed."""
    import time

    folder = Path(folder)
    want = Path(target) if target is not None else None
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        found = _TEMP.fullmatch(entry.name)
        if not found or not entry.is_file(follow_symlinks=False):
            continue
        if want is not None and (found["stem"], found["suffix"]) != (want.stem, want.suffix):
            continue
        with contextlib.suppress(OSError):
            if older_than and now - entry.stat(follow_symlinks=False).st_mtime < older_than:
                continue
            os.unlink(entry.path)
            removed.append(Path(entry.path))
    return removed


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
    # A killed earlier write of this output left its temporary file: removed once it is stale
    # (a younger one may be another process's write in progress).
    remove_leftover_temporaries(target.parent, target=target, older_than=STALE_SECONDS)
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
