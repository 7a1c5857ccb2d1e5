"""Timeline pictures of units in time written to files: one PNG per speaker (``review --time --plot``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from segagree.errors import UsageError
from segagree.files.atomic import atomic_path


def write_timeline_plots(plot: Path, units: Mapping[str, Any], alignments: Mapping[str, Any]) -> list[str]:
    """Write one timeline PNG per speaker (:func:`segagree.outputs.time_plot.timeline_png`), atomically:
    ``plot`` itself for one speaker, else ``NAME.SPEAKER.png`` beside it. Returns the paths written.

    Raises:
        UsageError: ``plot`` is not a .png file.
    """
    from segagree.outputs.time_plot import timeline_png

    if plot.suffix.lower() != ".png":
        raise UsageError("the plot must be a .png file", path=plot)
    written = []
    for speaker, alignment in alignments.items():
        target = plot if len(alignments) == 1 else plot.with_name(f"{plot.stem}.{speaker or 'all'}.png")
        with atomic_path(target) as tmp:
            tmp.write_bytes(timeline_png(units[speaker], alignment, title=speaker))
        written.append(str(target))
    return written
