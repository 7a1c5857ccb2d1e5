"""A timeline of the annotators' units in time, with the best alignment drawn over them (PNG).

One lane per annotator (top to bottom in the annotators' order), each unit a bar coloured by its
category and labelled with it; an aligned group's units are joined by a line through their midpoints
(grey for a match or a shift, red for a category mismatch); a unit aligned with nobody is outlined
in red. matplotlib is imported here only, on an explicit Agg canvas (no display needed).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from segagree.metrics.contract import UnitSet
from segagree.outputs.plot_text import plain, plain_all

__all__ = ["timeline_png"]

DPI = 110
LANE = 0.6  # bar height, in lanes


def _colours(n: int) -> list[Any]:
    from matplotlib import colormaps

    cmap = colormaps["tab10"]
    return [cmap(i % 10) for i in range(max(n, 1))]


def timeline_png(units: UnitSet, alignment: Mapping[str, Any] | None = None, *, title: str = "") -> bytes:
    """The timeline of one speaker's units (and their alignment, ``{"groups": [{"units": [...]}]}``)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names = list(units.annotators)
    start, end = units.continuum
    fig = Figure(figsize=(max(6.0, min(30.0, (end - start) / 2)), 1.0 + 0.7 * len(names)), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    colours = _colours(len(units.categories))
    lane = {i: len(names) - 1 - i for i in range(len(names))}
    unmatched = _unmatched_rows(alignment)
    for k in range(units.start.size):
        y = lane[int(units.annotator[k])]
        cat = int(units.category[k])
        colour = colours[cat] if cat >= 0 else (0.7, 0.7, 0.7, 1.0)
        width = float(units.end[k] - units.start[k])
        edge = "red" if k in unmatched else "black"
        ax.barh(y, width, left=float(units.start[k]), height=LANE, color=colour, edgecolor=edge, linewidth=0.8)
        if cat >= 0:
            ax.text(
                float(units.start[k]) + width / 2, y, plain(units.categories[cat]), ha="center", va="center", fontsize=7
            )
    for group in (alignment or {}).get("groups", []):
        rows = [(lane[a], r) for a, r in enumerate(group["units"]) if r is not None]
        if len(rows) < 2:
            continue
        cats = {int(units.category[r]) for _, r in rows}
        xs = [float(units.start[r] + units.end[r]) / 2 for _, r in rows]
        ax.plot(xs, [y for y, _ in rows], color="red" if len(cats) > 1 else "0.35", linewidth=1.0, zorder=3)
    ax.set_yticks(list(lane.values()), plain_all(names))
    ax.set_xlim(start, end)
    ax.set_xlabel("time (s)")
    if title:
        ax.set_title(plain(title), fontsize=10)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


def _unmatched_rows(alignment: Mapping[str, Any] | None) -> set[int]:
    """UnitSet rows that the alignment leaves alone in their group."""
    out: set[int] = set()
    for group in (alignment or {}).get("groups", []):
        present = [r for r in group["units"] if r is not None]
        if len(present) == 1:
            out.add(int(present[0]))
    return out
