"""How many CPUs this process may use: the one count behind every default number of workers
(the corpus scheduler's processes, the kappa simulation's threads)."""

from __future__ import annotations

import os


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity where the OS tells, else ``os.cpu_count``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)
