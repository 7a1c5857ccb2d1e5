"""The contrastive study of ``segagree study``: every subtitle metric over a grid of degraded references.

Following the questions of EvalSubtitle's metric overview (Karakanta, Buet, Cettolo & Yvon 2022,
"Comparing metrics on contrastive pairs"): how do BLEU-br and TER-br respond, next to the standard
segmentation metrics, when the reference's segmentation is gradually degraded?

**Sentences.** A reference without a ``sentence`` layer (SRT, WebVTT) gets one from its
punctuation (:func:`with_sentence_layer`), inherited by every degraded copy, so that the
sentence-level metrics (BLEU_br, Sigma, TER_br) apply at every grid point.

**Grid.** For each operation of :mod:`segagree.subtitle_tools.degrade` (shift with n = 1, 2, 3 words,
insert, delete, retype), each proportion ``p`` and each seed, the reference degraded by that
operation is scored as a hypothesis against the reference with the subtitle metrics
(:func:`segagree.scoring.subtitles.evaluation.evaluate_pair`; SubER's metrics flattened as ``suber:NAME``).
One row per (operation, n, p, seed, metric) with the raw ``value``.

**Normalisation** (so that metrics of different directions and ranges share one axis): for each
metric, ``identity`` is its mean value at p = 0 (the reference against itself) and ``worst`` the
worst value seen anywhere on the grid (lowest for higher-is-better, highest for lower-is-better);
``normalised = (value - worst) / (identity - worst)``: 1 at the identity, 0 at the worst
degradation seen, higher is better whatever the metric's own direction. A metric that never moves
is 1 everywhere. Style descriptions of the hypothesis alone (reading speed, lines per block, CPL
conformity) can exceed 1 when a degradation happens to improve them. A metric with no direction
(``none``: length ratio) is normalised as higher-better.

**Answers** (per metric and operation, from the mean over seeds at each p):

* *monotonicity*: Spearman's rho between p and the normalised values (all seeds; -1 = falls
  steadily), and the share of consecutive p steps whose mean does not rise;
* *sensitivity*: the least-squares slope of the normalised mean against p (normalised units per
  unit of p; -1 = falls from identity to the worst over the range), and per operation the metrics
  ranked by it (steepest first), which places BLEU-br and TER-br among the segmentation metrics;
* *saturation* (BLEU-br): the smallest p below the largest from which the normalised mean stays
  within 5% of the range of its value at the largest p (None: still falling at the largest p, or
  never moving);
* *normalised BLEU-br*: the normalised BLEU-br against p; the data support one linear
  normalisation when the linear fit's R^2 is at least 0.9 for every operation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.errors import UsageError
from segagree.metrics.subtitles.measures import BLEU_BR as BLEU_BR_CARD
from segagree.model import Document
from segagree.scoring.subtitles.breaks import subtitle_breaks
from segagree.subtitle_tools.degrade import degrade_document

__all__ = [
    "GRID_OPERATIONS",
    "StudyResult",
    "analyse",
    "better_direction",
    "normalise",
    "normalised_values",
    "run_study",
]

#: (operation, n) of the grid: shift by up to 1, 2, 3 words, insert, delete, retype.
GRID_OPERATIONS: tuple[tuple[str, int], ...] = (
    ("shift", 1),
    ("shift", 2),
    ("shift", 3),
    ("insert", 0),
    ("delete", 0),
    ("retype", 0),
)
BLEU_BR = BLEU_BR_CARD.name
# SubER's own metric names (registered measures answer from their cards)
_LOWER = ("ter", "wer", "cer", "suber", "as-ter", "as-wer", "t-ter", "t-wer")


@dataclass
class StudyResult:
    """The long table of the grid, the systems' values and the answers (see the module docstring)."""

    rows: list[dict[str, Any]]
    systems: dict[str, dict[str, float]]
    systems_normalised: dict[str, dict[str, float]]
    analysis: dict[str, Any]
    reference: str
    settings: dict[str, Any] = field(default_factory=dict)


def better_direction(metric: str) -> str:
    """``higher``, ``lower`` or ``none`` for a flattened subtitle metric name.

    The registry's card when the measure is registered, else by name: error rates (Pk,
    WindowDiff, TER, WER, CER, SubER and their variants) are lower-better, ``length_ratio`` has
    no direction, the rest (F1, S, B, BLEU, chrF, Sigma, conformity) are higher-better.
    """
    from segagree.metrics.registry import MEASURES, get_measure

    if metric in MEASURES:
        return get_measure(metric).card.better
    low = metric.lower().removeprefix("suber:")
    if "length_ratio" in low:
        return "none"
    return "lower" if low.startswith(_LOWER) or "-ter" in low or "-wer" in low else "higher"


def _flatten(metrics: Mapping[str, Any]) -> dict[str, float]:
    from segagree.scoring.subtitles.evaluation import subtitle_values

    out = {}
    for name, value in subtitle_values(metrics).items():
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            out[name] = float(value)
    return out


def _score(ref: Document, hyp: Document, metrics: str | Sequence[str], options: Mapping[str, Any]) -> dict[str, float]:
    from segagree.scoring.subtitles.evaluation import evaluate_pair

    return _flatten(evaluate_pair(ref, hyp, metrics, dict(options))["metrics"])


def _grid_point(
    ref: Document, op: str, n: int, p: float, seed: int, metrics: Any, options: Mapping[str, Any]
) -> list[dict[str, Any]]:
    degraded = degrade_document(ref, op, p, seed=seed, n=max(n, 1)).document
    values = _score(ref, degraded, metrics, options)
    return [{"operation": op, "n": n, "p": p, "seed": seed, "metric": m, "value": v} for m, v in values.items()]


def run_study(
    reference: Document,
    hypotheses: Sequence[Document] = (),
    *,
    ps: Sequence[float] = (0.0, 0.25, 0.5, 0.75, 1.0),
    seeds: Sequence[int] = (0, 1, 2),
    operations: Sequence[tuple[str, int]] = GRID_OPERATIONS,
    metrics: str | Sequence[str] = "subtitles",
    options: Mapping[str, Any] | None = None,
    jobs: int = 1,
) -> StudyResult:
    """Score the grid (module docstring); ``jobs`` > 1 runs grid points in parallel (joblib)."""
    ps = sorted({float(p) for p in ps})
    if not ps or ps[0] < 0 or ps[-1] > 1 or len(ps) < 2:
        raise UsageError(f"the study needs two or more proportions from 0 to 1, not {ps}")
    if not seeds:
        raise UsageError("the study needs at least one seed")
    opts = dict(options or {})
    opts.setdefault("use_source_files", False)
    reference = with_sentence_layer(reference)
    tasks = [(op, n, p, s) for op, n in operations for p in ps for s in seeds]
    if jobs > 1:
        from joblib import Parallel, delayed

        parts = Parallel(n_jobs=jobs)(delayed(_grid_point)(reference, *t, metrics, opts) for t in tasks)
    else:
        parts = [_grid_point(reference, *t, metrics, opts) for t in tasks]
    rows = [r for part in parts for r in part]
    systems = {h.name or f"system {i + 1}": _score(reference, h, metrics, opts) for i, h in enumerate(hypotheses)}
    bounds = normalise(rows)
    placed = {name: normalised_values(values, bounds) for name, values in systems.items()}
    settings = {"ps": ps, "seeds": list(seeds), "operations": [list(o) for o in operations], "metrics": metrics}
    return StudyResult(rows, systems, placed, analyse(rows, placed), reference.name, settings)


def _scaled(value: float, identity: float, worst: float) -> float:
    span = identity - worst
    return float("nan") if math.isnan(span) else 1.0 if span == 0 else (value - worst) / span


def normalised_values(values: Mapping[str, float], bounds: Mapping[str, Mapping[str, Any]]) -> dict[str, float]:
    """A system's values on the grid's normalised scale (metrics the grid has)."""
    return {m: _scaled(v, bounds[m]["identity"], bounds[m]["worst"]) for m, v in values.items() if m in bounds}


def with_sentence_layer(doc: Document) -> Document:
    """``doc`` with a ``sentence`` layer: its own (tagged text), else the sentence ends of
    :func:`segagree.scoring.subtitles.breaks.subtitle_breaks` (words ending in ``.``, ``!``, ``?``).

    EvalSubtitle's sentence-level metrics (BLEU_br, Sigma, TER_br) read SRT sentences from
    punctuation *followed by a break*, so moving or deleting a break changes the number of sentences
    and the metrics stop applying. With the layer, the reference and each degraded copy (which
    inherits it) keep the same sentences, whatever their breaks.
    """
    if "sentence" in doc.layers:
        return doc
    from segagree.model import builtin_scheme
    from segagree.model.document import Layer

    ends = subtitle_breaks(doc).sentence_ends.astype(np.int16)
    return doc.replace(layers={**doc.layers, "sentence": Layer("sentence", builtin_scheme("sentence"), ends)})


def normalise(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Add ``better`` and ``normalised`` to every row (module docstring); return each metric's
    ``identity``, ``worst`` and ``better``."""
    by_metric: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_metric.setdefault(r["metric"], []).append(r)
    bounds: dict[str, dict[str, Any]] = {}
    for metric, rs in by_metric.items():
        better = better_direction(metric)
        sign = -1.0 if better == "lower" else 1.0
        ident = [r["value"] for r in rs if r["p"] == 0.0]
        identity = float(np.mean(ident)) if ident else float("nan")
        worst = min(sign * r["value"] for r in rs) * sign
        bounds[metric] = {"identity": identity, "worst": worst, "better": better}
        for r in rs:
            r["better"] = better
            r["normalised"] = _scaled(r["value"], identity, worst)
    return bounds


def _spearman(x: np.ndarray, y: np.ndarray) -> float | None:
    """Spearman's rho (Pearson correlation of average ranks); None when either side is constant."""
    import pandas as pd

    rx, ry = pd.Series(x).rank().to_numpy(), pd.Series(y).rank().to_numpy()
    if np.ptp(rx) == 0 or np.ptp(ry) == 0:
        return None
    return float(np.corrcoef(rx, ry)[0, 1])


def _curve_stats(points: list[dict[str, Any]]) -> dict[str, Any]:
    ps = np.array([r["p"] for r in points], dtype=float)
    ys = np.array([r["normalised"] for r in points], dtype=float)
    grid = np.unique(ps)
    means = np.array([ys[ps == p].mean() for p in grid])
    steps = np.diff(means)
    slope, intercept = np.polyfit(grid, means, 1)
    fit = slope * grid + intercept
    ss_tot = float(np.sum((means - means.mean()) ** 2))
    r2 = 1.0 - float(np.sum((means - fit) ** 2)) / ss_tot if ss_tot > 0 else None
    spread = abs(means[0] - means[-1])
    close = np.abs(means - means[-1]) <= 0.05 * spread if spread > 0 else np.ones_like(means, dtype=bool)
    # the first p from which the curve stays near its end value
    sat = next((float(grid[i]) for i in range(len(grid)) if close[i:].all()), float(grid[-1]))
    if sat == float(grid[-1]):
        sat = math.nan  # still falling at the largest p: no saturation on this grid
    return {
        "p": grid.tolist(),
        "mean": means.tolist(),
        "spearman": _spearman(ps, ys),
        "monotone_share": float(np.mean(steps <= 1e-12)) if steps.size else 1.0,
        "slope": float(slope),
        "r2": r2,
        "saturates_at": None if spread == 0 or math.isnan(sat) else sat,
        "moves": bool(spread > 0),
    }


def _equivalent_p(curve: dict[str, Any], y: float) -> float | None:
    """The p at which a falling normalised curve first reaches ``y`` (linear between grid points)."""
    p, m = curve["p"], curve["mean"]
    for i in range(1, len(p)):
        lo, hi = sorted((m[i - 1], m[i]))
        if lo <= y <= hi and m[i - 1] != m[i]:
            return p[i - 1] + (p[i] - p[i - 1]) * (m[i - 1] - y) / (m[i - 1] - m[i])
    return None


def analyse(rows: list[dict[str, Any]], systems: Mapping[str, Mapping[str, float]]) -> dict[str, Any]:
    """The answers of the module docstring, from normalised rows and the systems' normalised values."""
    curves: dict[str, dict[str, dict[str, Any]]] = {}
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        key = f"{r['operation']}-{r['n']}" if r["operation"] == "shift" else r["operation"]
        groups.setdefault((r["metric"], key), []).append(r)
    for (metric, op), pts in groups.items():
        finite = [r for r in pts if math.isfinite(r["normalised"])]
        if len({r["p"] for r in finite}) >= 2:  # a metric not applicable at some p has no curve
            curves.setdefault(metric, {})[op] = _curve_stats(finite)
    bleu = curves.get(BLEU_BR, {})
    r2s = [c["r2"] for c in bleu.values() if c["r2"] is not None]
    normalised_bleu = {
        "supported": bool(r2s) and min(r2s) >= 0.9,
        "min_r2": min(r2s) if r2s else None,
        "definition": "(BLEU_br - worst) / (identity - worst), identity = BLEU_br of the reference against itself",
    }
    placed: dict[str, dict[str, dict[str, float | None]]] = {}
    for name, norm in systems.items():
        placed[name] = {
            metric: {op: _equivalent_p(c, norm[metric]) for op, c in ops.items()}
            for metric, ops in curves.items()
            if metric in norm
        }
    ops = sorted({op for c in curves.values() for op in c})
    # Sensitivity ranking per operation: steepest fall first (how BLEU-br/TER-br compare with the rest).
    ranking = {
        op: sorted(((m, c[op]["slope"]) for m, c in curves.items() if op in c), key=lambda x: x[1]) for op in ops
    }
    return {
        "curves": curves,
        "sensitivity_ranking": ranking,
        "bleu_br_saturation": {op: c["saturates_at"] for op, c in bleu.items()},
        "bleu_br_moves": {op: c["moves"] for op, c in bleu.items()},
        "normalised_bleu_br": normalised_bleu,
        "systems_equivalent_p": placed,
    }
