"""Figures of the run report: the numbers they show, light colour helpers, and matplotlib PNGs.

:func:`figure_data` condenses one pair's tracks and operations into the few numbers the
report's figures draw (agreement per window, the confusion matrix, operation counts by type
pair); it is what the resume log keeps instead of the arrays, and what the report's light
HTML/SVG graphics are drawn from. The ``*_png`` functions draw the same data with matplotlib's
Agg canvas into PNG bytes (``report_plots = "all"`` saves them under ``OUTDIR/plots/``).
matplotlib is imported only by them, so a report without PNGs never loads it. Figures are
built on :class:`matplotlib.figure.Figure` with an explicit Agg canvas, so they never touch
pyplot's global state or the user's interactive backend, and work without a display.

Colours: the sequential colour map is ``cividis`` (readable with every common colour-vision
deficiency and in greyscale); categories use the Okabe-Ito palette.

The intervals drawn come from :mod:`segagree.metrics.chance.bootstrap`.
"""

from __future__ import annotations

import io
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from segagree.metrics.boundary.sf import SF_NAMES
from segagree.metrics.chance.kappa import KAPPA_NAMES
from segagree.outputs.plot_text import plain, plain_all
from segagree.scoring.tokens.pair_figures import (
    agreement_windows,
    confusion_counts,
    figure_data,
    nice_window,
    operation_counts,
)

SF, SF_B = SF_NAMES  # S_f's and S_f^B's names, the keys of compare results
KAPPA_SF = KAPPA_NAMES[0]  # kappa of S_f's name

if TYPE_CHECKING:
    from matplotlib.colors import Colormap
    from matplotlib.figure import Figure

__all__ = [
    "OKABE_ITO",
    "OP_ORDER",
    "agreement_windows",
    "boundary_agreement_png",
    "confusion_counts",
    "confusion_png",
    "figure_data",
    "share_colour",
    "nice_window",
    "operation_counts",
    "operations_png",
    "scores_png",
]

SEQUENTIAL = "cividis"
#: Okabe & Ito (2008) colour-blind-safe qualitative palette (black left out).
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")
OP_ORDER = ("match", "substitution", "transposition", "insertion", "deletion")
OP_COLOURS = dict(zip(OP_ORDER, OKABE_ITO, strict=False))
MISSING_COLOUR = "#ffffff"  # windows without any boundary
PAST_END_COLOUR = "#b0b0b0"
DPI = 110


#: cividis sampled at 0, 0.1, ..., 1 (matplotlib's colour map), for the HTML graphics.
CIVIDIS_STOPS = (
    "#00224e", "#083370", "#35456c", "#4f576c", "#666970", "#7d7c78",
    "#948e77", "#aea371", "#c8b866", "#e5cf52", "#fee838",
)  # fmt: skip


def share_colour(share: float) -> str:
    """The cividis colour of a share in 0..1 (linear between :data:`CIVIDIS_STOPS`), as #rrggbb."""
    x = min(max(float(share), 0.0), 1.0) * (len(CIVIDIS_STOPS) - 1)
    i = min(int(x), len(CIVIDIS_STOPS) - 2)
    f = x - i
    lo, hi = CIVIDIS_STOPS[i], CIVIDIS_STOPS[i + 1]
    rgb = [round(int(lo[k : k + 2], 16) * (1 - f) + int(hi[k : k + 2], 16) * f) for k in (1, 3, 5)]
    return "#" + "".join(f"{v:02x}" for v in rgb)


def share_ink(share: float) -> str:
    """Black or white text, whichever reads better on :func:`share_colour` (same rule as the PNGs)."""
    colour = share_colour(share)
    r, g, b = (int(colour[k : k + 2], 16) / 255 for k in (1, 3, 5))
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 else "white"


def _png(fig: Figure) -> bytes:
    """Render a figure to PNG bytes with the Agg canvas."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _cmap() -> Colormap:
    from matplotlib import colormaps

    return colormaps[SEQUENTIAL].with_extremes(bad=MISSING_COLOUR)


def _text_colour(cmap: Colormap, share: float) -> str:
    """Black or white, whichever reads better on the colour map at ``share`` (0..1)."""
    r, g, b, _ = cmap(share)
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 else "white"


def _label(symbol: str) -> str:
    """An endnote symbol as an axis label (``none`` stays a word, symbols get quotes)."""
    return "none" if symbol == "none" else plain(f"‘{symbol}’")


# --------------------------------------------------------------------------- agreement along a text


def boundary_agreement_png(data: Mapping[str, Any], *, title: str) -> bytes:
    """Heat map of boundary agreement along a text (after Fournier & Inkpen 2012, Figure 11).

    ``data`` is :func:`figure_data`'s. x: position in each speaker's token stream, in windows of
    ``data["window"]`` tokens; y: speaker; colour: share of the window's boundary positions
    where A and B agree (same position, same type). White: no boundary by either annotator in
    the window; hatched: past the speaker's last token.
    """
    from matplotlib.patches import Rectangle

    entries = data["agreement"]
    window = data["window"]
    speakers = [e["speaker"] for e in entries]
    n_win = max([1, *(len(e["bound"]) for e in entries)])
    grid = np.full((max(len(speakers), 1), n_win), np.nan)
    counts: dict[tuple[int, int], tuple[int, int]] = {}
    for row, e in enumerate(entries):
        for col, (agree, bound) in enumerate(zip(e["agree"], e["bound"], strict=True)):
            if bound:
                grid[row, col] = agree / bound
            counts[(row, col)] = (int(agree), int(bound))
    cmap = _cmap()
    height = 1.8 + 0.42 * max(len(speakers), 1)
    fig = _figure(min(max(6.5, 0.3 * n_win + 2.8), 13.0), height)
    ax = fig.add_subplot()
    image = ax.imshow(grid, aspect="auto", cmap=cmap, vmin=0.0, vmax=1.0, interpolation="nearest")
    for row, e in enumerate(entries):  # windows past the speaker's last token: hatched
        first_empty = math.ceil(e["n"] / window)
        if first_empty < n_win:
            ax.add_patch(
                Rectangle(
                    (first_empty - 0.5, row - 0.5),
                    n_win - first_empty,
                    1.0,
                    facecolor="white",
                    edgecolor=PAST_END_COLOUR,
                    hatch="////",
                    linewidth=0,
                )
            )
    ax.set_yticks(range(len(speakers)), labels=plain_all(speakers) or ["(no speakers)"], fontsize=9)
    step = max(1, math.ceil(n_win / 12))
    ticks = list(range(0, n_win + 1, step))
    ax.set_xticks([t - 0.5 for t in ticks], labels=[str(t * window) for t in ticks], fontsize=9)
    ax.set_xticks([c - 0.5 for c in range(1, n_win)], minor=True)
    ax.set_yticks([r - 0.5 for r in range(1, len(speakers))], minor=True)
    ax.grid(which="minor", color="white", linewidth=1.2)
    ax.tick_params(which="minor", length=0)
    for spine in ax.spines.values():
        spine.set_edgecolor(PAST_END_COLOUR)
    ax.set_xlabel(f"token position in the speaker's stream (windows of {window} tokens)", fontsize=10)
    ax.set_ylabel("speaker", fontsize=10)
    ax.set_title(plain(title), fontsize=11)
    if n_win <= 24:
        for (row, col), (agree, bound) in counts.items():
            if bound:
                ax.text(
                    col,
                    row,
                    f"{agree}/{bound}",
                    ha="center",
                    va="center",
                    fontsize=7.5,
                    color=_text_colour(cmap, agree / bound),
                )
    bar = fig.colorbar(image, ax=ax, fraction=0.04, pad=0.015)
    bar.set_label("share of boundary\npositions agreeing", fontsize=9)
    bar.ax.tick_params(labelsize=8)
    return _png(fig)


# --------------------------------------------------------------------------- operations and confusion


def operations_png(operations: Sequence[Sequence[Any]], symbols: Sequence[str], *, title: str) -> bytes:
    """Operations by endnote type (after Lai, Li & Zhang 2023, Figure 6).

    ``operations``: ``[type A, type B, operation, count]`` (:func:`figure_data`). One horizontal
    bar per (A's type -> B's type) that occurs, coloured by the operation (match, substitution,
    transposition, insertion, deletion), with its count.
    """
    from matplotlib.patches import Patch

    counts: Counter[tuple[str, str, str]] = Counter({(ta, tb, op): n for ta, tb, op, n in operations})
    order = {s: i for i, s in enumerate(symbols)}

    def key(item: tuple[tuple[str, str, str], int]) -> tuple[int, int, int]:
        (ta, tb, op), _ = item
        return (OP_ORDER.index(op) if op in OP_ORDER else 99, order.get(ta, 99), order.get(tb, 99))

    items = sorted(counts.items(), key=key)
    height = 1.6 + 0.3 * max(len(items), 1)
    fig = _figure(7.5, min(height, 14.0))
    ax = fig.add_subplot()
    if not items:
        ax.text(0.5, 0.5, "no boundaries in either annotation", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        ax.set_title(plain(title), fontsize=11)
        return _png(fig)
    labels = [f"A {_label(ta)} → B {_label(tb)}" for (ta, tb, _), _ in items]
    values = [n for _, n in items]
    colours = [OP_COLOURS.get(op, "#999999") for (_, _, op), _ in items]
    ypos = np.arange(len(items))
    ax.barh(ypos, values, color=colours, edgecolor="black", linewidth=0.4)
    ax.set_yticks(ypos, labels=labels, fontsize=9)
    ax.invert_yaxis()
    for y, v in zip(ypos, values, strict=True):
        ax.text(float(v), float(y), f" {v}", va="center", ha="left", fontsize=8.5)
    ax.set_xlim(0, max(values) * 1.15 + 0.5)
    ax.set_xlabel("number of operations", fontsize=10)
    ax.set_title(plain(title), fontsize=11)
    ax.spines[["top", "right"]].set_visible(False)
    present = [op for op in OP_ORDER if any(k[2] == op for k in counts)]
    ax.legend(
        handles=[Patch(facecolor=OP_COLOURS[op], edgecolor="black", linewidth=0.4, label=op) for op in present],
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=8.5,
        frameon=False,
        title="operation",
        title_fontsize=9,
    )
    return _png(fig)


def confusion_png(matrix: np.ndarray, symbols: Sequence[str], *, title: str) -> bytes:
    """Annotated heat map of a confusion matrix of endnote types (symbols without ``none``)."""
    labels = [_label(s) for s in symbols[1:]]
    k = len(labels)
    fig = _figure(max(4.6, 0.65 * k + 2.6), max(3.8, 0.6 * k + 2.0))
    ax = fig.add_subplot()
    cmap = _cmap()
    top = max(int(matrix.max()) if matrix.size else 0, 1)
    image = ax.imshow(matrix, cmap=cmap, vmin=0, vmax=top, interpolation="nearest")
    ax.set_xticks(range(k), labels=labels, fontsize=9)
    ax.set_yticks(range(k), labels=labels, fontsize=9)
    ax.set_xlabel("annotator B's type", fontsize=10)
    ax.set_ylabel("annotator A's type", fontsize=10)
    ax.set_title(plain(title), fontsize=11)
    for i in range(k):
        for j in range(k):
            ax.text(
                j,
                i,
                str(int(matrix[i, j])),
                ha="center",
                va="center",
                fontsize=9,
                color=_text_colour(cmap, matrix[i, j] / top),
                fontweight="bold" if i == j else "normal",
            )
    bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    bar.set_label("positions", fontsize=9)
    bar.ax.tick_params(labelsize=8)
    return _png(fig)


# --------------------------------------------------------------------------- corpus scores


def scores_png(entries: Sequence[Mapping[str, Any]], *, title: str) -> bytes:
    """Dot plot of S_f and S_f^B per text and pair; kappa intervals as bars where given.

    Each entry: ``label``, ``sf``, ``sf_b`` and optional ``kappa_sf``, ``kappa_sf_low``,
    ``kappa_sf_high`` (drawn as a third marker with its interval).
    """
    labels = [plain(e["label"]) for e in entries]
    y = np.arange(len(entries))
    fig = _figure(8.0, min(1.6 + 0.4 * max(len(entries), 1), 16.0))
    ax = fig.add_subplot()
    series = [
        (SF, r"$S_f$", "o", OKABE_ITO[0]),
        (SF_B, r"$S_f^B$", "s", OKABE_ITO[1]),
        (KAPPA_SF, r"$\kappa(S_f)$", "D", OKABE_ITO[2]),
    ]
    offsets = {SF: -0.18, SF_B: 0.0, KAPPA_SF: 0.18}
    for key, name, marker, colour in series:
        pts = [(i, e[key]) for i, e in enumerate(entries) if e.get(key) is not None]
        if not pts:
            continue
        ys = np.array([p[0] for p in pts]) + offsets[key]
        xs = np.array([p[1] for p in pts], dtype=float)
        if key == KAPPA_SF:
            lows = np.array([entries[i].get("kappa_sf_low", v) for i, v in pts], dtype=float)
            highs = np.array([entries[i].get("kappa_sf_high", v) for i, v in pts], dtype=float)
            ax.errorbar(xs, ys, xerr=[xs - lows, highs - xs], fmt="none", ecolor=colour, elinewidth=1.2, capsize=2.5)
        ax.plot(
            xs,
            ys,
            linestyle="none",
            marker=marker,
            color=colour,
            markeredgecolor="black",
            markeredgewidth=0.5,
            markersize=6,
            label=name,
        )
    ax.set_yticks(y, labels=labels, fontsize=9)
    ax.set_ylim(len(entries) - 0.5, -0.5)
    ax.set_xlim(min(0.0, ax.get_xlim()[0]), 1.02)
    ax.axvline(1.0, color="#888888", linewidth=0.6, linestyle=":")
    ax.set_xlabel("score (1 = identical segmentation)", fontsize=10)
    ax.set_title(plain(title), fontsize=11)
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.spines[["top", "right"]].set_visible(False)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8.5, frameon=False)
    return _png(fig)


def cue_profile_png(
    rows: Sequence[Mapping[str, Any]], *, title: str, cues: Sequence[str] = ("pause", "f0_reset")
) -> bytes:
    """The cue profile (:func:`segagree.scoring.acoustics.profile.cue_profile`'s rows of one pair and
    type, ``all``): per cue a panel, the mean of each category (agreed, the kinds of disagreement,
    unmarked) with its 95 % bootstrap interval; the agreed mean as a dotted line."""
    names = {"pause": "pause (s)", "f0_reset": "F0 reset (semitones)", "intensity_reset": "intensity reset (dB)"}
    fig = _figure(4.2 * len(cues), 3.4)
    for k, cue in enumerate(cues, start=1):
        ax = fig.add_subplot(1, len(cues), k)
        mine = [r for r in rows if r["cue"] == cue and r["mean"] is not None]
        labels = [f"{r['category']}\n(n={r['n']})" for r in mine]
        y = np.arange(len(mine))
        means = np.array([r["mean"] for r in mine], dtype=float)
        lows = np.array([r["low"] if r["low"] is not None else r["mean"] for r in mine], dtype=float)
        highs = np.array([r["high"] if r["high"] is not None else r["mean"] for r in mine], dtype=float)
        colours = [OKABE_ITO[0] if r["category"] == "agreed" else OKABE_ITO[5] for r in mine]
        if len(mine):
            ax.errorbar(means, y, xerr=[means - lows, highs - means], fmt="none", ecolor="#555555", capsize=3)
            ax.scatter(means, y, c=colours, edgecolors="black", linewidths=0.5, zorder=3)
            for r in mine:
                if r["category"] == "agreed":
                    ax.axvline(r["mean"], color=OKABE_ITO[0], linewidth=0.8, linestyle=":")
        ax.set_yticks(y, labels=labels, fontsize=8)
        ax.set_ylim(len(mine) - 0.5, -0.5)
        ax.set_xlabel(names.get(cue, cue), fontsize=9)
        if cue == "f0_reset":
            ax.axvline(0, color="#888888", linewidth=0.6)
    fig.suptitle(plain(title), fontsize=10)
    return _png(fig)
