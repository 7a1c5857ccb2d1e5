"""Running the metrics other than S_f on an AnnotationPair, per speaker and pooled.

``RUNNERS`` maps a metric name (as in ``compare --metric`` and ``segagree metrics``) to a
function ``(pair, options) -> {"value": pooled, "per_speaker": {...}, "params": {...}}``.
Pooled values come from summed statistics, never from averaged per-speaker scores.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from segagree.errors import UsageError
from segagree.pipeline.pairing import AnnotationPair

Runner = Callable[[AnnotationPair, Mapping[str, Any]], dict[str, Any]]

RUNNERS: dict[str, Runner] = {}

# Names that `compare` computes itself (the S_f engine) and accepts in --metric lists.
SF_NAMES = ("sf", "sf_b")


def known_metrics() -> list[str]:
    """Every metric name `compare --metric` accepts."""
    return [*SF_NAMES, *RUNNERS]


def resolve_metric_names(spec: str | Sequence[str]) -> list[str]:
    """Expand ``all`` and comma lists; raise UsageError naming an unknown metric."""
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    out: list[str] = []
    for raw in names:
        name = raw.strip().lower()
        if not name:
            continue
        if name == "all":
            out.extend(known_metrics())
            continue
        if name not in known_metrics():
            raise UsageError(f"unknown metric {raw!r}; known: {', '.join(known_metrics())} (or 'all')")
        out.append(name)
    return list(dict.fromkeys(out))


def run_metrics(pair: AnnotationPair, names: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
    """Every requested metric except S_f (which the caller computes) on ``pair``."""
    return {name: RUNNERS[name](pair, options) for name in names if name not in SF_NAMES}
