"""What every format adapter shares: the Adapter record, loss reports, atomic writes, decoding.

An adapter module defines ``read(path, *, scheme, **options) -> Document`` and, if the format
is writable, ``write(doc, path, *, losses, **options) -> None``. Writers record everything the
target format cannot hold in the :class:`LossReport` they are given (times invented, layer
dropped, speakers merged, times rounded) instead of failing; ``--strict`` turns losses into
errors afterwards.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from segagree.errors import InputError, SegagreeError
from segagree.schemas.losses import Loss, LossReport, read_losses  # noqa: F401  (re-exported)

Reader = Callable[..., Any]
Writer = Callable[..., None]


@dataclass(frozen=True)
class Adapter:
    """A format: its name, file extensions, reader and (optional) writer."""

    name: str
    extensions: tuple[str, ...]
    description: str
    read: Reader
    write: Writer | None = None

    @property
    def can_write(self) -> bool:
        return self.write is not None


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


def detect_encoding(raw: bytes) -> str:
    """The encoding of a text file's bytes: BOM (UTF-8, UTF-16 LE/BE), UTF-16 without a BOM
    (recognised by its NUL bytes), UTF-8, else ``cp1252`` (subtitle editors' Windows files)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    if raw.startswith(b"\xff\xfe"):
        return "utf-16-le"
    if raw.startswith(b"\xfe\xff"):
        return "utf-16-be"
    if len(raw) >= 2 and raw[0] == 0 and raw[1] != 0:
        return "utf-16-be"
    if len(raw) >= 2 and raw[1] == 0 and raw[0] != 0:
        return "utf-16-le"
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return "cp1252"
    return "utf-8"


def decode_text(raw: bytes, path: str | Path, *, fallback: str | None = "cp1252") -> str:
    """Decode a text file with :func:`detect_encoding`, without its BOM.

    With ``fallback=None`` a file that is not UTF-8/UTF-16 is an InputError instead of cp1252.
    """
    encoding = detect_encoding(raw)
    if encoding == "cp1252" and fallback is None:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise InputError(f"not UTF-8 text (byte {err.start})", path=path) from None
    try:
        text = raw.decode(encoding if encoding != "cp1252" else (fallback or "cp1252"))
    except UnicodeDecodeError as err:
        raise InputError(f"not {encoding} text (byte {err.start})", path=path) from None
    return text[1:] if text.startswith("\ufeff") else text


def read_bytes(path: str | Path) -> bytes:
    """Read a file's bytes, turning OS errors into a one-line InputError; empty files too."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise InputError("no such file", path=p) from None
    except IsADirectoryError:
        raise InputError("is a folder, expected a file", path=p) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", path=p) from None
    if not raw.strip(b"\x00 \t\r\n\xef\xbb\xbf\xff\xfe"):
        raise InputError("empty file", path=p)
    return raw
