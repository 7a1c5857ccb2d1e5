"""``-`` for standard input and standard output, wherever a command takes a file.

The readers and writers work on files (a format is told by its extension, some read a file
twice, every write is atomic), so standard input is first copied into a temporary file named
with the format's extension, and an output to standard output is written to a temporary file
and then copied to it whole (nothing reaches standard output if the write fails). A name says
nothing of a format, so ``-`` needs ``--from`` to read and ``--to`` to write.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

from segagree.errors import SegagreeError, UsageError

STDIO = "-"


def is_stdio(path: Path | str | None) -> bool:
    """Whether ``path`` is ``-``: standard input or output."""
    return path is not None and str(path) == STDIO


def extension(fmt: str) -> str:
    """The file extension of a format name or alias (``xlsx`` -> ``.xlsx``, ``praat`` -> ``.textgrid``)."""
    from segagree.formats import EXTENSIONS, format_for

    name = format_for("", fmt).name
    typed = "." + fmt.strip().lower().lstrip(".")
    if EXTENSIONS.get(typed) == name:
        return typed
    return next((ext for ext, n in EXTENSIONS.items() if n == name), "")


def shown(path: Path | str) -> str:
    """A path as messages name it (``-``: standard output)."""
    return "standard output" if is_stdio(path) else str(path)


@contextmanager
def input_file(path: Path, fmt: str | None, option: str = "--from") -> Iterator[Path]:
    """``path`` itself, or for ``-`` a temporary file holding standard input (``fmt`` needed)."""
    if not is_stdio(path):
        yield path
        return
    if not fmt:
        raise UsageError(f"reading standard input ('-') needs {option} FORMAT: a format cannot be told from '-'")
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="segagree-stdin-") as folder:
        copy = Path(folder) / f"stdin{extension(fmt)}"
        with copy.open("wb") as out:
            shutil.copyfileobj(sys.stdin.buffer, out)
        try:
            yield copy
        except SegagreeError as err:  # named as the user named it, not as the copy
            if err.path == str(copy):
                err.path = "standard input"
            raise


@contextmanager
def input_files(paths: Sequence[Path], fmt: str | None) -> Iterator[list[Path]]:
    """:func:`input_file` of each path; standard input can be read once only."""
    if sum(1 for p in paths if is_stdio(p)) > 1:
        raise UsageError("only one input can be standard input ('-')")
    with ExitStack() as stack:
        yield [stack.enter_context(input_file(p, fmt)) for p in paths]


@contextmanager
def output_file(path: Path, fmt: str | None, option: str = "--to") -> Iterator[Path]:
    """``path`` itself, or for ``-`` a temporary file copied to standard output once written
    (``fmt`` needed; nothing is copied if the body fails)."""
    if not is_stdio(path):
        yield path
        return
    if not fmt:
        raise UsageError(f"writing to standard output ('-') needs {option} FORMAT: a format cannot be told from '-'")
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="segagree-stdout-") as folder:
        target = Path(folder) / f"stdout{extension(fmt)}"
        yield target
        if target.exists():
            sys.stdout.flush()
            with target.open("rb") as data:
                shutil.copyfileobj(data, sys.stdout.buffer)
            sys.stdout.buffer.flush()
