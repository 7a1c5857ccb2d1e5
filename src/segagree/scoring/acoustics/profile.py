"""The cue profile of a review: which cues the agreed boundaries have and the disputed ones lack.

Each boundary point of a pair falls in one **category**: ``agreed`` (both annotators put the same
type there: S_f's match), ``type change`` (both put one, of different types: a substitution),
``shift`` (a transposition: the point of the annotator who has the boundary earlier is A's, the
other B's; both are counted), ``insertion`` (only B), ``deletion`` (only A), and ``unmarked``: gaps
between tokens where neither has a boundary, measured where the token times place them (word times).
Its **type** is the boundary type of the annotator who has it (A's for an agreed point and a type
change; the types of both, ``,/.``, are the type change's own group as well).

:func:`cue_profile` gives, per pair, type (``all`` too) and category, the mean of every cue over
the points that have it, with a seeded percentile bootstrap interval over points
(:func:`segagree.metrics.chance.bootstrap.bootstrap_ci`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from segagree.metrics.chance.bootstrap import bootstrap_ci

__all__ = ["CATEGORIES", "PROFILE_CUES", "ProfilePoint", "cue_profile", "operation_points"]

CATEGORIES = ("agreed", "type change", "shift", "insertion", "deletion", "unmarked")
OP_CATEGORY = {
    "match": "agreed",
    "substitution": "type change",
    "transposition": "shift",
    "insertion": "insertion",
    "deletion": "deletion",
}
PROFILE_CUES = ("pause", "f0_reset", "f0_reset_range", "intensity_reset", "rate_before", "rate_after", "lengthening")
ALL_TYPES = "all"
N_BOOT = 1000

#: (pair, type, category, cues)
ProfilePoint = tuple[str, str, str, Mapping[str, Any]]


def operation_points(pair: str, operation_rows: Sequence[Mapping[str, Any]]) -> list[ProfilePoint]:
    """The profile points of a pair's operation rows (with their cues)."""
    out: list[ProfilePoint] = []
    for op in operation_rows:
        category = OP_CATEGORY.get(str(op["op"]))
        if category is None or "cue_note" not in op:
            continue
        kind = str(op["type_b"] if op["op"] == "insertion" else op["type_a"])
        out.append((pair, kind, category, op))
        if op["op"] == "transposition" and op.get("pause_b") is not None:
            out.append((pair, str(op["type_b"]), category, {"pause": op["pause_b"], "f0_reset": op.get("f0_reset_b")}))
    return out


def _mean_interval(values: np.ndarray, seed: int) -> tuple[float | None, float | None, str]:
    def mean(weights: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            return (weights @ values) / weights.sum(axis=1)

    found = bootstrap_ci(len(values), mean, n_boot=N_BOOT, seed=seed, unit="boundary")
    return found["low"], found["high"], found["reason"] or ""


def cue_profile(points: Iterable[ProfilePoint], *, seed: int = 12345) -> list[dict[str, Any]]:
    """Rows ``{pair, type, category, cue, n, mean, low, high, note}``: per pair, boundary type (and
    ``all``) and category, each cue's mean over the points that have it and its 95 % interval."""
    groups: dict[tuple[str, str, str], list[Mapping[str, Any]]] = {}
    for pair, kind, category, cues in points:
        for k in (kind, ALL_TYPES) if category != "unmarked" else (ALL_TYPES,):
            groups.setdefault((pair, k, category), []).append(cues)
    order = {c: i for i, c in enumerate(CATEGORIES)}
    rows = []
    for (pair, kind, category), members in sorted(
        groups.items(), key=lambda g: (g[0][0], g[0][1] != ALL_TYPES, g[0][1], order[g[0][2]])
    ):
        for cue in PROFILE_CUES:
            values = np.asarray([float(m[cue]) for m in members if m.get(cue) is not None], dtype=np.float64)
            values = values[np.isfinite(values)]
            row: dict[str, Any] = {"pair": pair, "type": kind, "category": category, "cue": cue, "n": len(values)}
            if len(values):
                low, high, note = _mean_interval(values, seed)
                row.update(mean=float(values.mean()), low=low, high=high, note=note)
            else:
                row.update(mean=None, low=None, high=None, note="no point with this cue")
            rows.append(row)
    return rows
