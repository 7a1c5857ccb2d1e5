"""Is the segmenter as good as a person, in time? The panel of :mod:`segagree.metrics.chance.panel`
with gamma (Mathet, Widlöcher & Métivier 2015) as the agreement of a panel of annotators who drew
their own units.

For one machine ``m`` and the humans ``H``: ``added`` is gamma of ``H`` and of ``H + m`` and their
difference (Fournier & Inkpen 2012, section 3.4, with gamma as the multi-annotator coefficient);
``replaced`` the mean gamma of ``H - h + m`` over ``h`` (Medelyan & Witten 2006); ``consistency``
each annotator's mean pairwise gamma with the humans and the machine's rank; ``human_changes`` the
change ``gamma(H) - gamma(H - h)`` each human causes (three humans or more); ``verdict`` as the token
panel's. gamma is chance-corrected by construction (its expected disorder comes from random
continua), so its chance level is 0 and ``chance`` says so.

Pooled over items (one speaker of one text each) as ``run --time`` pools gamma: the observed and
each sampled continuum's disorders and unit counts are summed over items (``GammaStats``), so a
bootstrap resample of the items is a weighted sum of the same per-item statistics. Every sub-panel
of an item is scored once, with the same seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from segagree.errors import UsageError
from segagree.metrics.chance.panel_frame import assemble_panel, choose_members
from segagree.metrics.contract import UnitSet
from segagree.metrics.unitizing.gamma import GammaMeasure, GammaStats
from segagree.metrics.unitizing.labels import ADVICE, annotator_labels

_GAMMA = GammaMeasure()


def subset(units: UnitSet, names: Sequence[str]) -> UnitSet:
    """The units of the annotators ``names`` only (in that order), over the same continuum."""
    index = [list(units.annotators).index(n) for n in names]
    remap = np.full(len(units.annotators), -1, dtype=np.int64)
    remap[index] = np.arange(len(index))
    keep = np.isin(units.annotator, index)
    text = [t for t, k in zip(units.text, keep, strict=True) if k] if len(units.text) else []
    return UnitSet(
        list(names),
        units.categories,
        remap[units.annotator[keep]],
        units.start[keep],
        units.end[keep],
        units.category[keep],
        text,
        units.continuum,
        units.name,
    )


@dataclass(frozen=True)
class PanelSums:
    """gamma's additive statistics of one panel, per item: observed disorder sum and mean units,
    and per sampled continuum the same (rows: items; columns: samples)."""

    observed_sum: np.ndarray
    observed_units: np.ndarray
    sample_sums: np.ndarray
    sample_units: np.ndarray

    def gamma(self, weights: np.ndarray) -> np.ndarray:
        """gamma pooled over items for each row of ``weights`` (resample counts), as
        :meth:`GammaMeasure.score` pools summed statistics; NaN where no item applies."""
        with np.errstate(all="ignore"):
            observed = (weights @ self.observed_sum) / (weights @ self.observed_units)
            draws = (weights @ self.sample_sums) / (weights @ self.sample_units)
            expected = draws.mean(axis=1)
            value = 1 - observed / expected
        return np.where(observed == 0, 1.0, value)


def unshared_labels(items: Mapping[str, UnitSet], machines: Sequence[str], humans: Sequence[str]) -> list[str]:
    """A note for each machine whose unit labels share none with any human's on any item
    (:mod:`segagree.metrics.unitizing.labels`)."""
    own = annotator_labels(items.values())
    theirs = set().union(*(own.get(h, set()) for h in humans))
    return [
        f"{m}'s unit labels share none with the humans' (such as speaker labels of different systems): {ADVICE}"
        for m in machines
        if own.get(m) and theirs and not own[m] & theirs
    ]


def panel_sums(items: Sequence[UnitSet], names: Sequence[str], params: Mapping[str, Any]) -> PanelSums:
    """:class:`PanelSums` of the panel ``names`` on every item (an item gamma does not apply to,
    e.g. no unit at all, adds nothing)."""
    stats: list[GammaStats] = [_GAMMA.statistics(subset(u, names), params) for u in items]
    n_samples = max((s.sample_sums.size for s in stats), default=0)

    def column(values: np.ndarray) -> np.ndarray:
        return values if values.size == n_samples else np.zeros(n_samples)

    return PanelSums(
        np.array([s.observed_sum for s in stats], dtype=float),
        np.array([s.observed_units if s.alignments else 0.0 for s in stats], dtype=float),
        np.array([column(s.sample_sums) for s in stats], dtype=float).reshape(len(stats), n_samples),
        np.array([column(s.sample_units) for s in stats], dtype=float).reshape(len(stats), n_samples),
    )


def gamma_panel(
    items: Mapping[str, UnitSet],
    machines: Sequence[str],
    *,
    humans: Sequence[str] | None = None,
    params: Mapping[str, Any] | None = None,
    n_boot: int = 1000,
    seed: int = 12345,
    level: float = 0.95,
) -> dict[str, Any]:
    """The panel of machines among human annotators with gamma (see the module docstring).

    Args:
        items: item name -> the units of every annotator on it (one speaker of one text).
        machines: the annotators judged; humans: the others by default.
        params: gamma's parameters (``samples``, ``alpha``, ``beta``, ``seed``...); the seed of
            gamma's sampled continua defaults to ``seed``.
        n_boot, seed, level: the paired bootstrap over items.

    Returns:
        The token panel's structure: ``measure`` (``gamma``), ``coefficient``, ``humans``,
        ``machines``, ``per_item`` and ``results`` per machine.

    Raises:
        UsageError: an unknown or doubly named annotator, fewer than two humans, no item.
    """
    if not items:
        raise UsageError("a gamma panel needs at least one text with units")
    names = list(dict.fromkeys(a for u in items.values() for a in u.annotators))
    human_list, machine_list = choose_members(names, machines, humans)
    item_names = sorted(items)
    units = [items[i] for i in item_names]
    missing = [f"{i} ({a})" for i in item_names for a in [*human_list, *machine_list] if a not in items[i].annotators]
    if missing:
        raise UsageError("every annotator must be on every item; missing: " + ", ".join(missing))
    gamma_params = {"seed": seed, **(params or {})}

    panels: dict[tuple[str, ...], PanelSums] = {}

    def coefficient(members: Sequence[str], weights: np.ndarray) -> np.ndarray:
        key = tuple(sorted(members))
        if key not in panels:
            panels[key] = panel_sums(units, key, gamma_params)
        return panels[key].gamma(weights)

    ones = np.ones((1, len(units)))

    def pair_value(a: str, b: str) -> float:
        return float(coefficient([a, b], ones)[0])

    results, per_item = assemble_panel(
        coefficient,
        pair_value,
        human_list,
        machine_list,
        item_names,
        n_boot=n_boot,
        seed=seed,
        level=level,
        name=_GAMMA.card.name,
        humans_chance=0.0,  # gamma's expected disorder is chance's: 0 is its chance level
    )
    for result in results.values():
        result["chance"] = {
            "mean": 0.0,
            "corrected": result["added"]["with_machine"],
            "humans_mean": 0.0,
            "note": "gamma is chance-corrected by construction: its expected disorder comes from "
            f"{gamma_params.get('samples', 30)} random continua per panel, so its chance level is 0",
        }
    return {
        "measure": _GAMMA.card.name,
        "coefficient": _GAMMA.card.name,
        "humans": human_list,
        "machines": machine_list,
        "per_item": per_item,
        "results": results,
    }
