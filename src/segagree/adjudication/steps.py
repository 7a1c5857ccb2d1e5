"""Several tiers of one source file replaced one after the other, into one gold file.

Each step reads the previous step's file and writes the next; the steps between are written to a
scratch folder beside the output (removed afterwards), so the source is read, never written, and
the output appears once, complete (each step writes atomically). No step at all copies the
source's bytes: a gold that changes nothing is the source file itself.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from segagree.files.atomic import atomic_path
from segagree.files.memory import read_bytes
from segagree.model.losses import LossReport

__all__ = ["Step", "replace_in_steps", "units_said"]

#: One tier replaced: (file read, file written) -> what could not be kept.
Step = Callable[[Path, Path], LossReport]


def replace_in_steps(source: Path, output: Path, steps: Sequence[Step]) -> LossReport:
    """Run ``steps`` from ``source`` to ``output``; their losses merged in order (no duplicates)."""
    losses = LossReport()
    # The output as a whole is one atomic write that refuses to overwrite the source (each step
    # only sees the file before it).
    with atomic_path(output, inputs=(source,)) as final:
        if not steps:
            final.write_bytes(read_bytes(source))
            return losses
        with tempfile.TemporaryDirectory(dir=output.resolve().parent, prefix=".segagree-gold-") as scratch:
            current = source
            for k, step in enumerate(steps):
                target = final if k == len(steps) - 1 else Path(scratch) / f"step{k}{output.suffix}"
                losses.extend(step(current, target))
                current = target
    return losses


def units_said(n: int) -> str:
    """``1 unit``, ``3 units``: how a gold's report counts units."""
    return f"{n} unit{'s' * (n != 1)}"
