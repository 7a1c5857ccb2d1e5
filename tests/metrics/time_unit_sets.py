"""Building UnitSets for the time-measure tests (imported by tests/metrics/test_*.py)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from segagree.metrics.contract import UnitSet


def make_unit_set(
    units: Sequence[tuple[int, float, float, str]],
    annotators: Sequence[str],
    continuum: tuple[float, float],
    categories: Sequence[str] | None = None,
) -> UnitSet:
    """Units given as (annotator index, start, end, category label)."""
    cats = list(categories) if categories is not None else sorted({u[3] for u in units})
    return UnitSet(
        annotators=tuple(annotators),
        categories=tuple(cats),
        annotator=np.array([u[0] for u in units], dtype=np.int64),
        start=np.array([u[1] for u in units], dtype=float),
        end=np.array([u[2] for u in units], dtype=float),
        category=np.array([cats.index(u[3]) for u in units], dtype=np.int64),
        text=tuple("" for _ in units),
        continuum=(float(continuum[0]), float(continuum[1])),
    )
