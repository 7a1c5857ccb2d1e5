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

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from segagree.errors import UsageError
from segagree.metrics.chance.bootstrap import bootstrap_ci
from segagree.metrics.chance.panel import change_rank, rank_after_ties, verdict
from segagree.metrics.contract import UnitSet
from segagree.metrics.unitizing.gamma import GammaMeasure, GammaStats

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


def _num(x: Any) -> float | None:
    value = float(x)
    return value if np.isfinite(value) else None


def _interval(ci: Mapping[str, Any], column: int) -> dict[str, Any]:
    low, high = ci.get("low"), ci.get("high")
    return {
        "low": None if low is None else _num(low[column]),
        "high": None if high is None else _num(high[column]),
        "level": ci["level"],
        "n_boot": ci["n_boot"],
        "seed": ci["seed"],
    }


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
    unknown = [m for m in [*machines, *(humans or ())] if m not in names]
    if unknown:
        raise UsageError(f"no annotations by {', '.join(map(repr, unknown))}; the annotators are {', '.join(names)}")
    if not machines:
        raise UsageError("name the segmenter(s) to judge")
    both = sorted(set(machines) & set(humans or ()))
    if both:
        raise UsageError(f"{', '.join(both)} named both as human and as machine")
    human_list = sorted(humans) if humans else sorted(a for a in names if a not in machines)
    machine_list = sorted(machines)
    if len(human_list) < 2:
        raise UsageError(f"a panel needs two or more humans, found {len(human_list)}")
    item_names = sorted(items)
    units = [items[i] for i in item_names]
    missing = [f"{i} ({a})" for i in item_names for a in [*human_list, *machine_list] if a not in items[i].annotators]
    if missing:
        raise UsageError("every annotator must be on every item; missing: " + ", ".join(missing))
    gamma_params = {"seed": seed, **(params or {})}

    panels: dict[tuple[str, ...], PanelSums] = {}

    def sums(members: Sequence[str]) -> PanelSums:
        key = tuple(sorted(members))
        if key not in panels:
            panels[key] = panel_sums(units, key, gamma_params)
        return panels[key]

    with_changes = len(human_list) >= 3
    everyone = [*human_list, *machine_list]
    pairs = list(itertools.combinations(sorted(everyone), 2))
    ones = np.ones((1, len(units)))
    pair_gamma = {p: float(sums(p).gamma(ones)[0]) for p in pairs}

    def changes(w: np.ndarray) -> np.ndarray:
        base = sums(human_list).gamma(w)
        cols = []
        for m in machine_list:
            cols.append(sums([*human_list, m]).gamma(w) - base)
            replaced = [sums([*(x for x in human_list if x != h), m]).gamma(w) for h in human_list]
            cols.append(np.mean(replaced, axis=0) - base)
        if with_changes:
            cols.extend(base - sums([x for x in human_list if x != h]).gamma(w) for h in human_list)
        return np.stack(cols, axis=1)

    point = changes(ones)[0]
    ci = bootstrap_ci(len(units), changes, n_boot=n_boot, seed=seed, level=level, unit="item")
    n_m = len(machine_list)

    def mean_gamma(who: str, others: Sequence[str]) -> float:
        return float(np.mean([pair_gamma[tuple(sorted((who, o)))] for o in others]))  # type: ignore[index]

    human_consistency = {h: mean_gamma(h, [o for o in human_list if o != h]) for h in human_list}
    human_changes: dict[str, dict[str, Any]] = {}
    for j, h in enumerate(human_list):
        col = 2 * n_m + j
        human_changes[h] = (
            {"change": _num(point[col]), "interval": _interval(ci, col)}
            if with_changes
            else {"change": None, "interval": None}
        )
    human_values = [v["change"] for v in human_changes.values() if v["change"] is not None]
    results: dict[str, Any] = {}
    base_value = _num(sums(human_list).gamma(ones)[0])
    for k, m in enumerate(machine_list):
        with_m = _num(sums([*human_list, m]).gamma(ones)[0])
        per_human = {h: _num(sums([*(x for x in human_list if x != h), m]).gamma(ones)[0]) for h in human_list}
        change, interval = _num(point[2 * k]), _interval(ci, 2 * k)
        added = {"humans": base_value, "with_machine": with_m, "change": change, "interval": interval}
        consistency = {
            "machine": mean_gamma(m, human_list),
            "humans": human_consistency,
            "rank": rank_after_ties(mean_gamma(m, human_list), list(human_consistency.values())),
            "of": len(human_list) + 1,
        }
        ranking = change_rank(change, human_values)
        said, code = verdict(change, interval, human_values, ranking["rank"], ranking["of"], consistency)
        values = [v for v in per_human.values() if v is not None]
        results[m] = {
            "added": added,
            "replaced": {
                "mean": _num(np.mean(values)) if values else None,
                "change": _num(point[2 * k + 1]),
                "per_human": per_human,
                "interval": _interval(ci, 2 * k + 1),
            },
            "consistency": consistency,
            "human_changes": {"per_human": human_changes, "machine": change, **ranking},
            "chance": {
                "mean": 0.0,
                "corrected": with_m,
                "note": "gamma is chance-corrected by construction: its expected disorder comes from "
                f"{gamma_params.get('samples', 30)} random continua per panel, so its chance level is 0",
            },
            "verdict": said,
            "verdict_code": code,
        }
    per_item: dict[str, Any] = {}
    for i, name in enumerate(item_names):
        w = np.zeros((1, len(units)))
        w[0, i] = 1
        base_i = _num(sums(human_list).gamma(w)[0])
        per_item[name] = {}
        for m in machine_list:
            with_i = _num(sums([*human_list, m]).gamma(w)[0])
            change = None if base_i is None or with_i is None else with_i - base_i
            per_item[name][m] = {"added": {"humans": base_i, "with_machine": with_i, "change": change}}
    return {
        "measure": _GAMMA.card.name,
        "coefficient": _GAMMA.card.name,
        "humans": human_list,
        "machines": machine_list,
        "per_item": per_item,
        "results": results,
    }
