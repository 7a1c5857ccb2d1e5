"""What ``segagree study`` writes: ``study.csv``, response-curve PNGs and ``study.html``.

* ``study.csv``: one row per (operation, n, p, seed, metric) with ``value`` (the metric's own
  scale), ``better`` and ``normalised`` (1 = the reference against itself, 0 = the worst value on
  the grid, higher is better; :mod:`segagree.subtitle_tools.study`), then one row per system hypothesis
  and metric (``operation`` = ``system``, ``system`` = its name, p and seed empty).
* ``plots/op_OPERATION.png``: the normalised response curves of every metric for one operation
  (mean over seeds), the key metrics drawn heavier; ``plots/metric_METRIC.png``: one key metric
  under every operation. System hypotheses are drawn as points at their normalised value, at the p
  where the curve reaches it (or at the right edge when it never does).
* ``study.html``: the answers (monotonicity, sensitivity, BLEU-br's saturation, a normalised
  BLEU-br) as tables computed from the same numbers.
"""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path
from typing import Any

from segagree.files.atomic import atomic_path, write_text_atomic
from segagree.files.cells import safe_rows
from segagree.metrics.boundary.boundary_edit import B_CARD, S_CARD
from segagree.metrics.boundary.windows import PK_CARD, WINDOWDIFF_CARD
from segagree.metrics.subtitles.measures import SIGMA, TER_BR
from segagree.outputs.plot_text import plain
from segagree.subtitle_tools.study import BLEU_BR, StudyResult

__all__ = ["KEY_METRICS", "write_study"]

# Pk, WindowDiff and F1 with both break types counted as one (the subtitle measures' `_eox` names).
PK_EOX, WINDOWDIFF_EOX, F1_EOX = (f"{name}_eox" for name in (PK_CARD.name, WINDOWDIFF_CARD.name, "f1"))
KEY_METRICS: tuple[str, ...] = (
    BLEU_BR,
    TER_BR.name,
    SIGMA.name,
    B_CARD.name,
    S_CARD.name,
    PK_EOX,
    WINDOWDIFF_EOX,
    F1_EOX,
)
# The columns of the system table (the key metrics that have one value per system).
SYSTEM_METRICS: tuple[str, ...] = (BLEU_BR, TER_BR.name, SIGMA.name, B_CARD.name, PK_EOX, WINDOWDIFF_EOX)
COLUMNS: tuple[str, ...] = ("operation", "n", "p", "seed", "metric", "value", "better", "normalised", "system")


def slugify(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)


def _csv_rows(result: StudyResult) -> Any:
    yield from ({**r, "system": ""} for r in result.rows)
    for name, values in result.systems.items():
        norm = result.systems_normalised.get(name, {})
        for metric, v in values.items():
            yield {
                "operation": "system",
                "n": "",
                "p": "",
                "seed": "",
                "metric": metric,
                "value": v,
                "normalised": norm.get(metric, ""),
                "system": name,
            }


def _write_csv(result: StudyResult, path: Path) -> None:
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(COLUMNS), extrasaction="ignore")
        w.writeheader()
        w.writerows(safe_rows(_csv_rows(result)))  # the data as is; OWASP's guard with --csv-guard


def _plot(ax: Any, curve: dict[str, Any], label: str, heavy: bool) -> None:
    ax.plot(
        curve["p"], curve["mean"], label=plain(label), linewidth=2.2 if heavy else 0.8, alpha=1.0 if heavy else 0.45
    )


def _systems_on(ax: Any, result: StudyResult, metric: str, op: str, curve: dict[str, Any]) -> None:
    for name in result.systems:
        y = result.systems_normalised.get(name, {}).get(metric)
        if y is None or not math.isfinite(y):
            continue
        x = result.analysis["systems_equivalent_p"].get(name, {}).get(metric, {}).get(op)
        ax.plot([curve["p"][-1] * 1.04 if x is None else x], [y], marker="o", color="black", linestyle="none")
        ax.annotate(
            plain(name),
            (curve["p"][-1] * 1.04 if x is None else x, y),
            fontsize=7,
            xytext=(3, 3),
            textcoords="offset points",
        )


def _figure(title: str) -> tuple[Any, Any]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 4.8))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    ax.set_title(plain(title), fontsize=10)
    ax.set_xlabel("p (proportion of breaks degraded)")
    ax.set_ylabel("normalised score (1 = identity, higher = better)")
    ax.grid(alpha=0.3)
    return fig, ax


def _save(fig: Any, path: Path) -> None:
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=90, bbox_inches="tight")


def _write_plots(result: StudyResult, folder: Path) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    curves = result.analysis["curves"]
    ops = sorted({op for c in curves.values() for op in c})
    written = []
    for op in ops:
        fig, ax = _figure(f"Response of every subtitle metric to '{op}'")
        for metric, by_op in sorted(curves.items()):
            if op in by_op:
                _plot(ax, by_op[op], metric if metric in KEY_METRICS else "_" + metric, metric in KEY_METRICS)
        ax.legend(fontsize=7, loc="lower left")
        name = f"op_{slugify(op)}.png"
        _save(fig, folder / name)
        written.append(name)
    for metric in KEY_METRICS:
        if metric not in curves:
            continue
        fig, ax = _figure(f"{metric} under every degradation")
        for op, curve in sorted(curves[metric].items()):
            _plot(ax, curve, op, True)
            _systems_on(ax, result, metric, op, curve)
        ax.legend(fontsize=7, loc="lower left")
        name = f"metric_{slugify(metric)}.png"
        _save(fig, folder / name)
        written.append(name)
    return written


def _html(result: StudyResult, plots: list[str]) -> str:
    from segagree.outputs.report_format import template_environment

    curves = result.analysis["curves"]
    ops = sorted({op for c in curves.values() for op in c})
    table = []
    for metric in sorted(curves, key=lambda m: (m not in KEY_METRICS, m)):
        cells = []
        for op in ops:
            c = curves[metric].get(op)
            cells.append(None if c is None else c)
        table.append({"metric": metric, "key": metric in KEY_METRICS, "cells": cells})
    context = {
        "reference": result.reference,
        "settings": result.settings,
        "ops": ops,
        "table": table,
        "saturation": result.analysis["bleu_br_saturation"],
        "moves": result.analysis["bleu_br_moves"],
        "ranking": result.analysis["sensitivity_ranking"],
        "normalised": result.analysis["normalised_bleu_br"],
        "systems": result.systems,
        "plots": plots,
        "system_metrics": SYSTEM_METRICS,
        "bold_metrics": (BLEU_BR, TER_BR.name),
    }
    return template_environment().get_template("study.html.j2").render(context)


def write_study(result: StudyResult, out_dir: str | Path) -> dict[str, Any]:
    """Write ``study.csv``, ``plots/*.png`` and ``study.html`` into ``out_dir``; return their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    _write_csv(result, out / "study.csv")
    plots = [f"plots/{p}" for p in _write_plots(result, out / "plots")]
    write_text_atomic(out / "study.html", _html(result, plots))
    return {"csv": str(out / "study.csv"), "html": str(out / "study.html"), "plots": [str(out / p) for p in plots]}
