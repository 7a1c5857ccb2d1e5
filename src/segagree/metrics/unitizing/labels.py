"""Unit labels shared between annotators: gamma and its kin compare units' categories, and a
category read from labels that mean nothing across annotators (a diarization system's ``spk0``
beside the humans' speaker names) makes every unit a category mismatch. Said in a note."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from segagree.metrics.contract import UnitSet

__all__ = ["annotator_labels", "unshared_pairs"]

ADVICE = "gamma compares categories, so read the units with --category none unless the labels mean the same"


def annotator_labels(unit_sets: Iterable[UnitSet]) -> dict[str, set[str]]:
    """Each annotator's unit labels over the unit sets (units without a category left out)."""
    own: dict[str, set[str]] = {}
    for units in unit_sets:
        for k, name in enumerate(units.annotators):
            codes = units.category[(units.annotator == k) & (units.category >= 0)]
            own.setdefault(name, set()).update(units.categories[int(c)] for c in np.unique(codes))
    return own


def unshared_pairs(labels: dict[str, set[str]], names: Sequence[str]) -> list[tuple[str, str]]:
    """The pairs of annotators (in ``names``' order) that both have labels and share none."""
    return [
        (a, b)
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        if labels.get(a) and labels.get(b) and not labels[a] & labels[b]
    ]
