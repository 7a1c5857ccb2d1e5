"""A timeline of the annotators' units in time, with the best alignment drawn over them.

One lane per annotator (top to bottom in the annotators' order), each unit a bar coloured by its
category and labelled with it; an aligned group's units are joined by a line through their midpoints
(grey for a match or a shift, red for a category mismatch); a unit aligned with nobody is outlined
in red. :func:`timeline_geometry` computes the picture once (numbers only); :func:`timeline_png`
draws it with matplotlib (``review --time --plot``; imported here only, on an explicit Agg canvas,
no display needed) and the run report's text pages draw the same geometry as inline SVG (template
``time_text.html.j2``; milliseconds per text instead of a second).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from segagree.metrics.contract import UnitSet
from segagree.outputs.plot_text import plain, plain_all

__all__ = ["CATEGORY_COLOURS", "timeline_geometry", "timeline_png", "timeline_svg_layout"]

DPI = 110
LANE = 0.6  # bar height, in lanes
#: matplotlib's tab10, the categories' colours in both drawings (cycled); grey: no category.
CATEGORY_COLOURS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
NO_CATEGORY = "#b3b3b3"


def timeline_geometry(units: UnitSet, alignment: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The picture as numbers: ``names`` (lanes top to bottom), ``continuum``, ``bars`` (lane, start,
    end, colour, label, unmatched) and ``links`` (the (time, lane) points of an aligned group, and
    whether its categories differ)."""
    names = list(units.annotators)
    lane = {i: i for i in range(len(names))}  # lane 0 at the top
    unmatched = _unmatched_rows(alignment)
    bars = []
    for k in range(units.start.size):
        cat = int(units.category[k])
        colour = CATEGORY_COLOURS[cat % len(CATEGORY_COLOURS)] if cat >= 0 else NO_CATEGORY
        bars.append(
            {
                "lane": lane[int(units.annotator[k])],
                "start": float(units.start[k]),
                "end": float(units.end[k]),
                "colour": colour,
                "label": units.categories[cat] if cat >= 0 else "",
                "unmatched": k in unmatched,
            }
        )
    links = []
    for group in (alignment or {}).get("groups", []):
        rows = [(lane[a], r) for a, r in enumerate(group["units"]) if r is not None]
        if len(rows) < 2:
            continue
        cats = {int(units.category[r]) for _, r in rows}
        points = [(float(units.start[r] + units.end[r]) / 2, y) for y, r in rows]
        links.append({"points": points, "mismatch": len(cats) > 1})
    start, end = units.continuum
    return {"names": names, "continuum": (float(start), float(end)), "bars": bars, "links": links}


def timeline_png(units: UnitSet, alignment: Mapping[str, Any] | None = None, *, title: str = "") -> bytes:
    """The timeline of one speaker's units (and their alignment, ``{"groups": [{"units": [...]}]}``)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    geo = timeline_geometry(units, alignment)
    names = geo["names"]
    start, end = geo["continuum"]
    fig = Figure(figsize=(max(6.0, min(30.0, (end - start) / 2)), 1.0 + 0.7 * len(names)), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    top = len(names) - 1  # matplotlib's y grows upwards: lane 0 drawn at the top
    for bar in geo["bars"]:
        y, width = top - bar["lane"], bar["end"] - bar["start"]
        edge = "red" if bar["unmatched"] else "black"
        ax.barh(y, width, left=bar["start"], height=LANE, color=bar["colour"], edgecolor=edge, linewidth=0.8)
        if bar["label"]:
            ax.text(bar["start"] + width / 2, y, plain(bar["label"]), ha="center", va="center", fontsize=7)
    for link in geo["links"]:
        xs = [x for x, _ in link["points"]]
        ax.plot(
            xs,
            [top - y for _, y in link["points"]],
            color="red" if link["mismatch"] else "0.35",
            linewidth=1.0,
            zorder=3,
        )
    ax.set_yticks([top - i for i in range(len(names))], plain_all(names))
    ax.set_xlim(start, end)
    ax.set_xlabel("time (s)")
    if title:
        ax.set_title(plain(title), fontsize=10)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


def timeline_svg_layout(
    geo: Mapping[str, Any], *, px_per_second: float = 24.0, max_width: int = 2400
) -> dict[str, Any]:
    """:func:`timeline_geometry` in SVG pixels (the template draws it): lanes of 30 px under a 70 px
    column of names, a time axis with ticks every 1, 2, 5, 10 ... seconds."""
    start, end = geo["continuum"]
    span = max(end - start, 1e-9)
    left, lane_h, bar_h = 70, 30, 20
    width = int(min(max_width, max(500, span * px_per_second))) + left + 10
    scale = (width - left - 10) / span

    def x(t: float) -> float:
        return round(left + (t - start) * scale, 1)

    def y(lane: int) -> float:
        return lane * lane_h + lane_h / 2

    bars = [
        {
            **b,
            "x": x(b["start"]),
            "y": round(y(b["lane"]) - bar_h / 2, 1),
            "w": max(round(x(b["end"]) - x(b["start"]), 1), 0.5),
        }
        for b in geo["bars"]
    ]
    links = [
        {"points": " ".join(f"{x(t)},{y(lane)}" for t, lane in link["points"]), "mismatch": link["mismatch"]}
        for link in geo["links"]
    ]
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 1e9) if span / s <= 12)
    first = int(start // step + (start % step > 0))
    ticks = [{"x": x(k * step), "label": f"{k * step:g}"} for k in range(first, int(end // step) + 1)]
    height = len(geo["names"]) * lane_h + 30
    lanes = [{"name": n, "y": y(i)} for i, n in enumerate(geo["names"])]
    return {"width": width, "height": height, "axis": height - 25, "left": left, "right": width - 10, "bars": bars,
            "links": links, "ticks": ticks, "lanes": lanes}  # fmt: skip


def _unmatched_rows(alignment: Mapping[str, Any] | None) -> set[int]:
    """UnitSet rows that the alignment leaves alone in their group."""
    out: set[int] = set()
    for group in (alignment or {}).get("groups", []):
        present = [r for r in group["units"] if r is not None]
        if len(present) == 1:
            out.add(int(present[0]))
    return out
