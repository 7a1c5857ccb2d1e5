"""What the run report's figures show of one pair, as plain numbers (no drawing here).

:func:`figure_data` condenses one pair's token tracks and operation rows into the few numbers
the report draws (agreement per window, the confusion matrix of boundary types, operation
counts by type pair). A corpus run computes it in the worker that scored the pair, so the
per-token arrays never travel to the main process; the resume log keeps it instead of them.
:mod:`segagree.outputs.plots` draws these numbers.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["agreement_windows", "confusion_counts", "figure_data", "nice_window", "operation_counts"]


def figure_data(result: Mapping[str, Any]) -> dict[str, Any]:
    """What the report draws of one successful pair, from its tracks and operation rows.

    Keys: ``window`` (tokens per window), ``agreement`` (one entry per speaker: ``speaker``,
    ``n`` tokens, ``agree`` and ``bound`` counts per window, see :func:`agreement_windows`),
    ``confusion`` (A's type x B's type at positions where both put a boundary, None without
    boundary types or tracks) and ``operations`` (``[type A, type B, operation, count]``,
    sorted). A result that already carries ``figures`` (from the resume log) returns them.
    """
    if result.get("figures"):
        return result["figures"]
    tracks = result.get("tracks") or {}
    symbols = result["compare"]["scheme"]["symbols"]
    longest = max((len(t["a"]) for t in tracks.values()), default=0)
    window = nice_window(longest)
    agreement = []
    for speaker, track in tracks.items():
        n_agree, n_bound, _ = agreement_windows(track["a"], track["b"], window)
        agreement.append(
            {"speaker": speaker, "n": len(track["a"]), "agree": n_agree.tolist(), "bound": n_bound.tolist()}
        )
    confusion = confusion_counts(tracks, symbols).tolist() if len(symbols) >= 2 and tracks else None
    counts = operation_counts(result.get("operation_rows") or [])
    operations = [[ta, tb, op, n] for (ta, tb, op), n in sorted(counts.items())]
    return {"window": window, "agreement": agreement, "confusion": confusion, "operations": operations}


def nice_window(n_tokens: int, *, max_windows: int = 40, minimum: int = 5) -> int:
    """A round window size (5, 10, 20, 25, 50, 100, ...) giving at most ``max_windows`` windows."""
    need = max(minimum, math.ceil(max(n_tokens, 1) / max_windows))
    scale = 1
    while True:
        for step in (1, 2, 2.5, 5):
            size = int(step * scale)
            if size >= need and step * scale == size:
                return size
        scale *= 10


def agreement_windows(a: Sequence[int], b: Sequence[int], window: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per window of ``window`` tokens: (agreeing positions, boundary positions, share).

    A boundary position is one where at least one annotator put a boundary; it agrees when
    both put one of the same type. ``share`` is NaN for windows without boundary positions.
    """
    av = np.asarray(a, dtype=np.int64)
    bv = np.asarray(b, dtype=np.int64)
    if av.shape != bv.shape:
        raise ValueError(f"tracks of different lengths: {av.size} and {bv.size}")
    n_win = max(1, math.ceil(av.size / window))
    boundary = (av != 0) | (bv != 0)
    agree = boundary & (av == bv)
    idx = np.arange(av.size) // window
    n_agree = np.bincount(idx[agree], minlength=n_win)[:n_win]
    n_bound = np.bincount(idx[boundary], minlength=n_win)[:n_win]
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(n_bound > 0, n_agree / np.maximum(n_bound, 1), np.nan)
    return n_agree, n_bound, share


def operation_counts(rows: Sequence[Mapping[str, Any]]) -> Counter[tuple[str, str, str]]:
    """Counts of operations by (A's type, B's type, operation)."""
    return Counter((str(r["type_a"]), str(r["type_b"]), str(r["op"])) for r in rows)


def confusion_counts(tracks: Mapping[str, Mapping[str, Sequence[int]]], symbols: Sequence[str]) -> np.ndarray:
    """Pass-1 pairs: a (k x k) count matrix, A's type (rows) x B's type (columns).

    Counts positions where both annotators put a boundary; ``k = len(symbols) - 1`` (code 0,
    no boundary, is left out).
    """
    k = max(len(symbols) - 1, 0)
    matrix = np.zeros((k, k), dtype=np.int64)
    for track in tracks.values():
        a = np.asarray(track["a"], dtype=np.int64)
        b = np.asarray(track["b"], dtype=np.int64)
        both = (a != 0) & (b != 0)
        np.add.at(matrix, (a[both] - 1, b[both] - 1), 1)
    return matrix
