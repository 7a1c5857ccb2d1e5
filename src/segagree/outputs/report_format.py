"""Formatting helpers of the run report's pages: numbers as shown, table cells tagged with their
summary keys, colour steps, heat maps, operation bars, confusion matrices, the dot plot's
geometry, and the Jinja2 environment (autoescaped) that renders the templates.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from segagree.corpus.rows import POOLED, kappa_values
from segagree.metrics.boundary.sf import SF_NAMES
from segagree.metrics.chance.kappa import KAPPA_NAMES
from segagree.model.digest import json_digest
from segagree.outputs import plots

SF, SF_B = SF_NAMES  # S_f's and S_f^B's names (their cards'), the keys of compare results
KAPPA_SF, KAPPA_SF_B = KAPPA_NAMES  # the kappas' names (their cards')

if TYPE_CHECKING:
    import jinja2

Z95 = 1.959963984540054


@cache
def template_environment() -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("segagree.outputs", "templates"),
        autoescape=True,  # every value is escaped; markup only from the template
        undefined=jinja2.StrictUndefined,  # a misspelt name fails loudly, not as an empty string
        trim_blocks=False,
        keep_trailing_newline=True,
    )


def slugify(value: str) -> str:
    """A file-name-safe version of a text or annotator name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", value).strip("._") or "_"


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) in pixels from a PNG's IHDR chunk."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    return struct.unpack(">II", png[16:24])


def fmt_score(value: Any) -> str:
    """A score with three decimals ('—' when missing or not a number)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{float(value):.3f}"


def fmt_count(value: Any) -> str:
    """A count or a cost: integers plainly, fractions with up to three decimals."""
    if value is None:
        return "—"
    number = float(value)
    if number.is_integer():
        return str(int(number))
    return f"{number:.3f}".rstrip("0").rstrip(".")


def fmt_exact(value: Any) -> str:
    """A number as written into ``data-value`` attributes: exact (``repr`` of a float)."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        return str(value)
    if isinstance(value, int | np.integer):
        return str(int(value))
    return repr(float(value))


def fmt_interval(low: float | None, high: float | None) -> str:
    return "" if low is None or high is None else f"[{low:.3f}, {high:.3f}]"


def summary_cell(values: Mapping[tuple[str, ...], Any], key: tuple[str, ...], fmt: str = "score") -> dict[str, Any]:
    """A table cell holding a summary value, tagged with its summary key and exact value."""
    value = values.get(key)
    shown = fmt_score(value) if fmt == "score" else fmt_count(value)
    if value is None:
        return {"key": None, "exact": None, "shown": shown}
    return {"key": "|".join(key), "exact": fmt_exact(value), "shown": shown}


def plain_cell(shown: Any) -> dict[str, Any]:
    return {"key": None, "exact": None, "shown": str(shown)}


def kappa_interval(result: Mapping[str, Any], speaker: str, target: str) -> tuple[float | None, float | None, str]:
    """(low, high, how) of kappa for one speaker (or ALL).

    ``how`` is ``"ci"`` for bounds the kappa computation gave, ``"se"`` for kappa ± 1.96 SE,
    else the reason kappa is undefined (or ``""``).
    """
    kappa = result.get("kappa")
    if not kappa:
        return None, None, ""
    raw = (kappa.get("pooled") if speaker == POOLED else (kappa.get("per_speaker") or {}).get(speaker)) or {}
    part = raw.get(target) or {}
    ci = part.get("ci")
    if isinstance(ci, Sequence) and len(ci) == 2 and None not in ci:
        return float(ci[0]), float(ci[1]), "ci"
    if part.get("ci_low") is not None and part.get("ci_high") is not None:
        return float(part["ci_low"]), float(part["ci_high"]), "ci"
    vals = kappa_values(kappa).get(speaker, {})
    k = vals.get(f"kappa_{target}", part.get("kappa"))
    se = next(
        (v for v in (vals.get(f"kappa_{target}_se"), part.get("kappa_se"), part.get("se")) if v is not None), None
    )
    if k is None:
        return None, None, str(part.get("reason") or "")
    if se is None:
        return None, None, ""
    return k - Z95 * se, k + Z95 * se, "se"


def _level(share: float) -> int:
    """The colour step (0..10) of a share in 0..1."""
    return min(10, max(0, int(round(float(share) * 10))))


def type_palette() -> list[dict[str, Any]]:
    return [
        {"bg": plots.share_colour(i / 10), "ink": plots.share_ink(i / 10), "share": f"{i / 10:.1f}"} for i in range(11)
    ]


def heat_rows(fig: Mapping[str, Any]) -> dict[str, Any] | None:
    """Rows of the agreement heat map of one pair (None without tracks)."""
    entries = fig["agreement"]
    if not entries:
        return None
    window = int(fig["window"])
    n_win = max([1, *(len(e["bound"]) for e in entries)])
    labelled = n_win <= 24  # counts in the cells when they fit, as tooltips always
    rows = []
    for e in entries:
        ends = math.ceil(e["n"] / window)
        cells = []
        for col in range(n_win):
            if col >= ends or col >= len(e["bound"]):
                cells.append({"cls": "pe", "tip": "past the speaker's last token", "text": ""})
                continue
            agree, bound = int(e["agree"][col]), int(e["bound"][col])
            if not bound:
                cells.append({"cls": "nb", "tip": "no boundary", "text": ""})
                continue
            text = f"{agree}/{bound}"
            cells.append({"cls": f"q{_level(agree / bound)}", "tip": f"{text} agree", "text": text if labelled else ""})
        rows.append({"speaker": e["speaker"], "cells": cells})
    step = max(1, math.ceil(n_win / 12))
    ticks = [str(col * window) if col % step == 0 else "" for col in range(n_win)]
    return {"rows": rows, "ticks": ticks, "window": window}


def _label(symbol: str) -> str:
    return "none" if symbol == "none" else f"‘{symbol}’"


def operation_bars(operations: Iterable[Sequence[Any]], symbols: Sequence[str]) -> dict[str, Any]:
    """Bar rows of operations by (A's type, B's type, operation), in the PNG's order."""
    order = {s: i for i, s in enumerate(symbols)}
    items = sorted(
        ((str(ta), str(tb), str(op), int(n)) for ta, tb, op, n in operations),
        key=lambda t: (
            plots.OP_ORDER.index(t[2]) if t[2] in plots.OP_ORDER else 99,
            order.get(t[0], 99),
            order.get(t[1], 99),
        ),
    )
    top = max((n for *_, n in items), default=0)
    rows = [
        {"a": _label(ta), "b": _label(tb), "op": op, "n": n, "width": f"{100 * n / top:.1f}" if top else "0"}
        for ta, tb, op, n in items
    ]
    total = sum(n for *_, n in items)
    edits = sum(n for _, _, op, n in items if op != "match")
    return {"rows": rows, "total": total, "edits": edits}


def confusion_rows(matrix: Sequence[Sequence[int]] | np.ndarray, symbols: Sequence[str]) -> dict[str, Any]:
    m = np.asarray(matrix, dtype=np.int64)
    top = max(int(m.max()) if m.size else 0, 1)
    labels = [_label(s) for s in symbols[1:]]
    rows = [
        {
            "label": labels[i],
            "cells": [
                {"n": int(m[i, j]), "cls": f"q{_level(m[i, j] / top)}", "diag": i == j} for j in range(len(labels))
            ],
        }
        for i in range(len(labels))
    ]
    both, same = int(m.sum()), int(np.trace(m)) if m.size else 0
    share = f" ({same / both:.0%})" if both else ""
    caption = f"{both} positions with a boundary by both annotators, {same} of the same type{share}."
    return {"labels": labels, "rows": rows, "caption": caption}


def dot_plot(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Geometry of the SVG dot plot: S_f, S_f^B and kappa (with its interval) per text and pair."""
    values = [v for e in entries for v in (e.get(SF), e.get(SF_B), e.get("kappa_sf_low")) if v is not None]
    finite = [float(v) for v in values if math.isfinite(float(v))]
    lo = min([0.0, *finite])
    lo = math.floor(lo * 5) / 5  # a multiple of 0.2
    hi = 1.02
    longest = max((len(e["label"]) for e in entries), default=10)
    left = min(max(120, int(longest * 6.4) + 16), 340)
    width_plot = 460
    right = left + width_plot
    top, row = 10, 24
    bottom = top + row * max(len(entries), 1)

    def x(v: Any) -> float | None:
        if v is None or not math.isfinite(float(v)):
            return None
        return round(left + (float(v) - lo) / (hi - lo) * width_plot, 1)

    step = 0.1 if hi - lo <= 1.1 else 0.2
    ticks = []
    t = lo
    while t <= 1.0 + 1e-9:
        ticks.append({"x": x(t), "label": f"{t:.1f}"})
        t = round(t + step, 10)
    out = []
    for i, e in enumerate(entries):
        y = top + row * i + row / 2
        item: dict[str, Any] = {"label": e["label"], "y": y, SF: None, SF_B: None, "kappa": None}
        for key in (SF, SF_B):
            if x(e.get(key)) is not None:
                item[key] = {"x": x(e[key]), "shown": fmt_score(e[key])}
        k = e.get(KAPPA_SF)
        if x(k) is not None:
            low = x(e.get("kappa_sf_low", k))
            high = x(e.get("kappa_sf_high", k))
            item["kappa"] = {
                "x": x(k),
                "low": low if low is not None else x(k),
                "high": high if high is not None else x(k),
                "shown": fmt_score(k),
            }
        out.append(item)
    return {
        "entries": out,
        "ticks": ticks,
        "left": left,
        "right": right,
        "top": top,
        "bottom": bottom,
        "one": x(1.0),
        "width": right + 90,
        "height": bottom + 40,
        "colours": plots.OKABE_ITO[:3],
    }


def settings_digest(payload: Any) -> str:
    return json_digest(payload, 16, default=str)


def flatten_settings(d: Mapping[str, Any], prefix: str = "") -> Iterable[tuple[str, Any]]:
    for key, value in d.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            yield from flatten_settings(value, f"{name}.")
        else:
            yield name, value


def fmt_setting(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value) or "(none)"
    if isinstance(value, Mapping):
        return "(none)" if not value else str(value)
    return str(value)


def pair_pngs(label: str, symbols: Sequence[str], fig: Mapping[str, Any]) -> dict[str, bytes]:
    """The matplotlib PNGs of one pair (a module-level function so worker processes can run it)."""
    out: dict[str, bytes] = {}
    if fig["agreement"]:
        out["agreement"] = plots.boundary_agreement_png(fig, title=f"Boundary agreement — {label}")
    out["operations"] = plots.operations_png(fig["operations"], symbols, title=f"Operations by endnote type — {label}")
    if fig["confusion"] is not None and len(symbols) >= 2:
        title = f"Endnote types where both put a boundary\n{label}"
        out["confusion"] = plots.confusion_png(np.asarray(fig["confusion"]), symbols, title=title)
    return out
