"""The memory gamma's best alignment will need, estimated before it is allocated, and a budget.

The alignment (:mod:`segagree.metrics.unitizing.gamma_alignment`) scores the unit pairs inside a time
window, then builds the candidate groups annotator by annotator. Both can grow far beyond what a
machine holds (7 annotators × 22,000 units grew to 21 GB before the kernel killed it). So:

* before any pair is scored, the pairs inside the windows are counted (``searchsorted``, no
  allocation per pair) and priced at :data:`BYTES_PER_PAIR`;
* the candidate groups are counted as they are found and priced at :func:`bytes_per_group`: the
  search stops at the first group beyond the budget.

Beyond the budget (``memory_budget_mb``; default :func:`default_budget`, what this process may still
allocate) the computation stops with :class:`TooLarge`, whose message says how to split the input.
"""

from __future__ import annotations

import math
import os
import resource
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from segagree.errors import SegagreeError, UsageError

__all__ = ["BYTES_PER_PAIR", "TooLarge", "budget_from_params", "bytes_per_group", "default_budget", "refuse"]

# A windowed pair: its indices and offset (3 × int64), six gathered unit fields and the
# dissimilarity's temporaries (about 10 float64).
BYTES_PER_PAIR = 128
# The share of the available memory the alignment may take (the samples, HiGHS and Python need the rest).
_SHARE = 0.6


class TooLarge(SegagreeError):
    """The input needs more memory than the budget; the message says how to split it (exit code 1)."""


def bytes_per_group(n_annotators: int) -> int:
    """Memory per candidate group: its members (n int64), pair sum and size, twice while the arrays
    grow, then its program column (n int64 again) and eight float64 of costs and solver data."""
    return 2 * (8 * n_annotators + 16) + 8 * n_annotators + 64


def _meminfo_available() -> float:
    try:
        for line in Path("/proc/meminfo").read_text(encoding="ascii").splitlines():
            if line.startswith("MemAvailable:"):
                return float(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return float(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return math.inf


def _cgroup_room() -> float:
    """What the process's cgroup (v2) still allows, else inf."""
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text(encoding="ascii").strip()
        if limit == "max":
            return math.inf
        used = float(Path("/sys/fs/cgroup/memory.current").read_text(encoding="ascii").strip())
        return float(limit) - used
    except (OSError, ValueError):
        return math.inf


def _address_space_room() -> float:
    """What ``ulimit -v`` (RLIMIT_AS) still allows this process, else inf."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return math.inf
    try:
        used = float(Path("/proc/self/statm").read_text(encoding="ascii").split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        used = 0.0
    return float(soft) - used


def default_budget() -> float:
    """Bytes the alignment may use by default: a share of the least of the available memory, the
    cgroup's room and the address-space limit's room."""
    return _SHARE * max(0.0, min(_meminfo_available(), _cgroup_room(), _address_space_room()))


def budget_from_params(params: Mapping[str, Any]) -> float | None:
    """The budget in bytes from ``memory_budget_mb`` (None: :func:`default_budget`, decided when used)."""
    value = params.get("memory_budget_mb")
    if value is None:
        return None
    mb = float(value)
    if not mb > 0:
        raise UsageError(f"memory_budget_mb must be a positive number of megabytes, not {value!r}")
    return mb * 1024 * 1024


def refuse(need: float, budget: float | None, what: str, units: int, annotators: int) -> None:
    """Raise :class:`TooLarge` when ``need`` bytes exceed the budget (None: the default budget)."""
    limit = default_budget() if budget is None else budget
    if need <= limit:
        return
    raise TooLarge(
        f"gamma's best alignment of {units} units by {annotators} annotators would need about "
        f"{need / 2**20:,.0f} MB for {what}, more than the budget of {limit / 2**20:,.0f} MB "
        "(--memory-budget MB; default: a share of the memory available). Split the input: by recording "
        "(a recording column such as media_file, --text-column NAME, or one file per recording: each is scored "
        "on its own and pooled) or by time window (cut the files into stretches of a few minutes), or score "
        "fewer annotators at a time; the measures without an alignment (--measure alpha_u, boundary_f1 ...) "
        "need little memory"
    )
