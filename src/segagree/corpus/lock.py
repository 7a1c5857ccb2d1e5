"""One run at a time per output folder: the lock file ``OUTDIR/.segagree.lock``.

A run creates the file exclusively (``O_CREAT | O_EXCL``) with its process id and host name, and
removes it when it ends, however it ends short of SIGKILL. A second run on the same folder finds
the file and stops with an error naming the other process (exit code 1). A lock whose process is
gone (a run killed with SIGKILL, or a crash of the machine) is taken over: on the same host, the
process id no longer exists (``os.kill(pid, 0)``). A lock of another host cannot be checked from
here; the message says so and names the file to remove once that run is known to be gone.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from segagree.errors import SegagreeError

__all__ = ["LOCK_NAME", "RunLocked", "output_lock"]

LOCK_NAME = ".segagree.lock"


class RunLocked(SegagreeError):
    """Another run is writing into the output folder."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it exists
        return True
    except OSError:
        return False
    return True


def _holder(path: Path) -> dict[str, Any] | None:
    """The lock's owner, or None when the file is gone or unreadable (a torn write)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _try_create(path: Path, me: dict[str, Any]) -> bool:
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(me) + "\n")
    return True


def acquire(outdir: Path) -> Path:
    """Take the lock of ``outdir`` (created if need be) or raise :class:`RunLocked`."""
    outdir.mkdir(parents=True, exist_ok=True)
    path = outdir / LOCK_NAME
    me = {"pid": os.getpid(), "host": socket.gethostname()}
    for _ in range(3):  # a stale lock removed by us, then created by us (or by a faster rival)
        if _try_create(path, me):
            return path
        other = _holder(path)
        if other is None:
            if path.exists():  # being written by its owner right now, or garbage: not ours to judge
                raise RunLocked(
                    f"another segagree run holds {LOCK_NAME} (unreadable); remove it if none runs", path=path
                )
            continue
        pid, host = other.get("pid"), other.get("host")
        if host != me["host"]:
            raise RunLocked(
                f"another segagree run (process {pid} on host {host}) is writing into this folder; "
                f"if it is gone, remove {path}",
                path=outdir,
            )
        if isinstance(pid, int) and _alive(pid):
            raise RunLocked(
                f"another segagree run (process {pid} on {host}) is writing into this folder; "
                "wait for it to finish or use another -o",
                path=outdir,
            )
        try:  # its process is gone: a killed run's lock, taken over
            path.unlink()
        except FileNotFoundError:
            pass
    raise RunLocked("could not take the output folder's lock (other runs keep taking it)", path=outdir)


def release(path: Path) -> None:
    """Remove the lock if it is still this process's."""
    holder = _holder(path)
    if holder and holder.get("pid") == os.getpid() and holder.get("host") == socket.gethostname():
        try:
            path.unlink()
        except FileNotFoundError:
            pass


@contextmanager
def output_lock(outdir: Path) -> Iterator[Path]:
    """Hold ``outdir``'s lock for the duration of the block (see the module docstring)."""
    path = acquire(outdir)
    try:
        yield path
    finally:
        release(path)
