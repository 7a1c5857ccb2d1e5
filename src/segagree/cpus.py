"""How many CPUs this process may use: the one count behind every default number of workers
(the corpus scheduler's processes, the kappa simulation's threads)."""

from __future__ import annotations

import os
import sys


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity where the OS tells, else ``os.cpu_count``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    """Whether a forked child may do work: on Linux (macOS's system libraries are not fork-safe,
    Windows has no fork), from a process running no other thread (a lock another thread holds at
    the fork would stay held in the child: a notebook or a caller's thread pool)."""
    import threading

    return sys.platform.startswith("linux") and threading.active_count() == 1
