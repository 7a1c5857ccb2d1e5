"""The memory guard of every reader: files whose reading would take more memory than is left are
refused before they are read, a MemoryError met while reading is reported as such; and reading a
file's bytes with one clear error for every OS failure."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from pathlib import Path

from segagree.errors import InputError, MissingFileError
from segagree.files.atomic import note_input

# --- memory ------------------------------------------------------------------------------
#
# A reader holds the file, its text and the Document: some tens of bytes per token, many times the
# file's size (bench/bench_reader_memory.py measures each reader). A file that would take more
# than the memory left is refused before it is read, and a MemoryError met while reading is
# reported as such, never as a damaged file.

#: Bytes of memory a reader takes per byte of file, by extension, with some room over what
#: bench/bench_reader_memory.py measures on 200,000 short words (a real file's longer words give
#: lower ratios); MEMORY_PER_BYTE for other files.
MEMORY_PER_BYTE = 40
MEMORY_PER_BYTE_OF = {
    ".txt": 25,
    ".csv": 30,
    ".tsv": 30,
    ".xlsx": 50,  # (of the packed file)
    ".json": 12,
    ".eaf": 16,
    ".textgrid": 15,
    ".srt": 40,
    ".vtt": 60,
    ".cha": 90,
    ".trs": 60,
    ".exb": 45,
    ".tagged": 75,
}


def memory_per_byte(path: str | Path) -> float:
    """The bytes of memory reading ``path`` takes per byte of it (see MEMORY_PER_BYTE_OF)."""
    return MEMORY_PER_BYTE_OF.get(Path(path).suffix.lower(), MEMORY_PER_BYTE)


class OutOfMemory(InputError):
    """Reading a file needs (or needed) more memory than is left."""

    def __init__(self, path: str | Path, detail: str = "") -> None:
        super().__init__(f"out of memory reading {path}" + (f" ({detail})" if detail else ""))
        self.path = None  # (named in the message: "out of memory reading FILE")
        self.file = str(path)


def free_memory() -> int | None:
    """Bytes of memory this process may still take: the least of the system's available memory,
    the address-space limit (``ulimit -v``, RLIMIT_AS) less what the process maps, and the
    cgroup's limit less its use; None when none of them can be read (not Linux)."""
    found: list[int] = []
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                found.append(int(line.split()[1]) * 1024)
    with contextlib.suppress(ImportError, OSError, ValueError, IndexError):
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        if soft != resource.RLIM_INFINITY:
            mapped = int(Path("/proc/self/statm").read_text().split()[0]) * resource.getpagesize()
            found.append(soft - mapped)
    with contextlib.suppress(OSError, ValueError):
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        if limit != "max":
            found.append(int(limit) - int(Path("/sys/fs/cgroup/memory.current").read_text().strip()))
    return max(0, min(found)) if found else None


def check_memory(path: str | Path, size: int, per_byte: float | None = None) -> None:
    """Refuse (OutOfMemory) a file of ``size`` bytes whose reading would take more memory than
    is left (``per_byte`` bytes per byte; by default by its extension), before any of it is read."""
    need = size * (memory_per_byte(path) if per_byte is None else per_byte)
    free = free_memory()
    if free is not None and need > free:
        mb = 1024 * 1024
        raise OutOfMemory(
            path,
            f"reading its {size / mb:,.0f} MB takes about {need / mb:,.0f} MB; {free / mb:,.0f} MB are free",
        )


@contextlib.contextmanager
def memory_errors(path: str | Path) -> Iterator[None]:
    """Report a MemoryError raised while reading ``path`` as OutOfMemory."""
    try:
        yield
    except MemoryError:
        gc.collect()
        raise OutOfMemory(path) from None


def read_bytes(path: str | Path, *, allow_empty: bool = False, per_byte: float | None = None) -> bytes:
    """Read a file's bytes, turning OS errors into a one-line InputError; empty files too
    (unless ``allow_empty``: an empty subtitle file is a valid file with no words). A file whose
    reading would take more memory than is left (``per_byte`` bytes per byte, by default by its
    extension: :func:`memory_per_byte`) is refused first. The file is an input of the command's
    output plan (:func:`segagree.files.atomic.note_input`): no output may be written over it."""
    p = Path(path)
    note_input(p)
    try:
        with contextlib.suppress(OSError):  # (a missing file: the error below names it)
            check_memory(p, p.stat().st_size, per_byte)
        raw = p.read_bytes()
    except FileNotFoundError:
        raise MissingFileError(path=p) from None
    except IsADirectoryError:
        raise InputError("is a folder, expected a file", path=p) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", path=p) from None
    except MemoryError:
        raise OutOfMemory(p) from None
    if not allow_empty and not raw.strip(b"\x00 \t\r\n\xef\xbb\xbf\xff\xfe"):
        raise InputError("empty file", path=p)
    return raw
