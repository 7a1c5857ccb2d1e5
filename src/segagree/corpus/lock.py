"""One run at a time per output folder: the lock file ``OUTDIR/.segagree.lock``.

A run creates the file exclusively (``O_CREAT | O_EXCL``) with its process id and host name, and
removes it when it ends, however it ends short of SIGKILL. A second run on the same folder finds
the file and stops with an error naming the other process (exit code 1). A lock whose process is
gone (a run killed with SIGKILL, or a crash of the machine) is taken over: on the same host, the
process id no longer exists (``os.kill(pid, 0)``). A lock of another host cannot be checked from
here; the message says so and names the file to remove once that run is known to be gone.

Taking over a stale lock is itself exclusive: the starter that creates ``.segagree.lock.takeover``
(``O_EXCL``) checks that the lock still names the dead process, removes it and creates its own;
the others wait for the takeover file to go (a bounded number of short pauses) and try again.
Without it, several starters that found one dead process each removed the lock (a rival's new
lock too) and all ran. A process id that is not a positive integer a system can have (0 and -1
address process groups, 2^66 overflows) makes the lock damaged: the message names the file to remove.
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeGuard

from segagree.errors import SegagreeError

__all__ = ["LOCK_NAME", "RunLocked", "output_lock"]

LOCK_NAME = ".segagree.lock"
TAKEOVER_SUFFIX = ".takeover"
#: Process ids above this are no process's (Linux's pid_max is at most 2^22; others stay below 2^31).
MAX_PID = 2**31 - 1
_TAKEOVER_WAITS = 200  # pauses of 10 ms for a rival's takeover (a few system calls) to finish


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


def valid_pid(pid: Any) -> TypeGuard[int]:
    """Whether ``pid`` can be a process's id (a positive integer; never 0 or -1, which address groups)."""
    return isinstance(pid, int) and not isinstance(pid, bool) and 0 < pid <= MAX_PID


def _remove_hint(path: Path) -> str:
    return f"if no segagree run is writing into this folder, remove {path} (rm {path})"


def acquire(outdir: Path) -> Path:
    """Take the lock of ``outdir`` (created if need be) or raise :class:`RunLocked`."""
    outdir.mkdir(parents=True, exist_ok=True)
    path = outdir / LOCK_NAME
    me = {"pid": os.getpid(), "host": socket.gethostname()}
    waits = 0
    for _ in range(3 + _TAKEOVER_WAITS):  # a stale lock removed by us, then created by us (or by a faster rival)
        if _try_create(path, me):
            return path
        other = _holder(path)
        if other is None:
            if path.exists():  # being written by its owner right now, or garbage: not ours to judge
                raise RunLocked(f"another segagree run holds {LOCK_NAME} (unreadable); {_remove_hint(path)}", path=path)
            continue
        pid, host = other.get("pid"), other.get("host")
        if not valid_pid(pid):
            raise RunLocked(
                f"the lock names process id {str(pid)[:40]!r}, which no process has; {_remove_hint(path)}", path=path
            )
        if host != me["host"]:
            raise RunLocked(
                f"another segagree run (process {pid} on host {host}) is writing into this folder; "
                f"if it is gone, remove {path}",
                path=outdir,
            )
        if _alive(pid):
            raise RunLocked(
                f"another segagree run (process {pid} on {host}) is writing into this folder; "
                f"wait for it to finish or use another -o; if process {pid} is not a segagree run (the "
                f"lock outlived a killed run and its id was reused), remove {path}",
                path=outdir,
            )
        if not _take_over(path, other):
            waits += 1
            if waits > _TAKEOVER_WAITS:
                break
            time.sleep(0.01)
    takeover = path.with_name(LOCK_NAME + TAKEOVER_SUFFIX)
    raise RunLocked(
        f"could not take the output folder's lock (other runs keep taking it, or {takeover} was left by a "
        f"killed run: remove it if no segagree run is starting)",
        path=outdir,
    )


def _take_over(path: Path, stale: dict[str, Any]) -> bool:
    """Remove the lock of a dead process ``stale``, holding the takeover file while doing it; False
    when another starter holds that file (then try again after a pause)."""
    takeover = path.with_name(LOCK_NAME + TAKEOVER_SUFFIX)
    try:
        fd = os.open(takeover, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    try:
        os.close(fd)
        # Only the takeover file's holder removes a lock, and a dead process never removes its own:
        # a lock that still names the dead process stays the stale one until it is removed here.
        if _holder(path) == stale:
            try:
                path.unlink()
            except FileNotFoundError:
                pass
    finally:
        takeover.unlink(missing_ok=True)
    return True


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
