"""The frame every panel shares once its coefficient is known: a machine among human annotators
(Fournier & Inkpen 2012, section 3.4; Medelyan & Witten 2006), for any multi-annotator
coefficient that can be scored on weighted items.

:func:`assemble_panel` takes ``coefficient(members, weights)``: the coefficient of the panel
``members`` pooled over items with each row of ``weights`` (item counts of a bootstrap resample, or
ones), and ``pair_value(a, b)``: the pooled agreement of two annotators (for consistency). It
returns :mod:`segagree.metrics.chance.panel`'s structure: ``added``, ``replaced``, ``consistency``,
``human_changes``, ``verdict`` per machine, and ``per_item``; the caller adds ``chance``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from segagree.errors import UsageError
from segagree.metrics.chance.bootstrap import bootstrap_ci
from segagree.metrics.chance.panel_verdict import change_rank, rank_after_ties, read_machine

Coefficient = Callable[[Sequence[str], np.ndarray], np.ndarray]


def _num(x: Any) -> float | None:
    value = float(x)
    return value if np.isfinite(value) else None


def _interval(ci: dict[str, Any], column: int) -> dict[str, Any]:
    low, high = ci.get("low"), ci.get("high")
    return {
        "low": None if low is None else _num(low[column]),
        "high": None if high is None else _num(high[column]),
        "level": ci.get("level"),
        "n_boot": ci.get("n_boot"),
        "seed": ci.get("seed"),
        "reason": ci.get("reason"),  # why there is none (one item)
    }


def choose_members(
    annotators: Sequence[str], machines: Sequence[str], humans: Sequence[str] | None
) -> tuple[list[str], list[str]]:
    """The humans and the machines of a panel (each sorted), checked against the annotators found.

    Raises:
        UsageError: no machine, a machine or human no annotation names, a name both human and
            machine, or fewer than two humans.
    """
    if not machines:
        raise UsageError("name the segmenter(s) to judge with --machine NAME")
    known = list(annotators)
    unknown = [m for m in [*machines, *(humans or [])] if m not in known]
    if unknown:
        raise UsageError(f"no annotations by {', '.join(map(repr, unknown))}; the annotators are {', '.join(known)}")
    both = sorted(set(machines) & set(humans or ()))
    if both:
        raise UsageError(f"{', '.join(both)} named both as human and as machine")
    chosen = sorted(humans) if humans else sorted(a for a in known if a not in machines)
    if len(chosen) < 2:
        raise UsageError(f"a panel needs two or more humans, found {len(chosen)} ({', '.join(chosen) or 'none'})")
    return chosen, sorted(machines)


def _without(people: Sequence[str], who: str) -> list[str]:
    return [p for p in people if p != who]


def assemble_panel(
    coefficient: Coefficient,
    pair_value: Callable[[str, str], float],
    humans: Sequence[str],
    machines: Sequence[str],
    items: Sequence[str],
    *,
    n_boot: int,
    seed: int,
    level: float,
    name: str,
    humans_chance: float | None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(results, per_item)`` of each machine among ``humans`` (see the module docstring).

    ``human_changes`` (``coef(H) - coef(H - h)``) need three humans or more; with two, the
    verdict reads the consistency ranks instead. ``name`` is the coefficient's (as the verdict
    prints it) and ``humans_chance`` the chance level of the humans' own panel (None: unknown).
    """
    human_list, machine_list = list(humans), list(machines)
    with_changes = len(human_list) >= 3

    def changes(w: np.ndarray) -> np.ndarray:
        base = coefficient(human_list, w)
        cols = []
        for m in machine_list:
            cols.append(coefficient([*human_list, m], w) - base)
            replaced = [coefficient([*_without(human_list, h), m], w) for h in human_list]
            cols.append(np.mean(replaced, axis=0) - base)
        if with_changes:
            cols.extend(base - coefficient(_without(human_list, h), w) for h in human_list)
        return np.stack(cols, axis=1)

    ones = np.ones((1, len(items)))
    point = changes(ones)[0]
    ci = bootstrap_ci(len(items), changes, n_boot=n_boot, seed=seed, level=level, unit="item")
    n_m = len(machine_list)

    def mean_value(who: str, others: Sequence[str]) -> float:
        return float(np.mean([pair_value(who, o) for o in others]))

    human_consistency = {h: mean_value(h, _without(human_list, h)) for h in human_list}
    human_changes: dict[str, dict[str, Any]] = {
        h: (
            {"change": _num(point[2 * n_m + j]), "interval": _interval(ci, 2 * n_m + j)}
            if with_changes
            else {"change": None, "interval": {**_interval(ci, 0), "low": None, "high": None}}
        )
        for j, h in enumerate(human_list)
    }
    human_values = [v["change"] for v in human_changes.values() if v["change"] is not None]
    base_value = _num(coefficient(human_list, ones)[0])
    results: dict[str, Any] = {}
    for k, m in enumerate(machine_list):
        with_m = _num(coefficient([*human_list, m], ones)[0])
        per_human = {h: _num(coefficient([*_without(human_list, h), m], ones)[0]) for h in human_list}
        change, interval = _num(point[2 * k]), _interval(ci, 2 * k)
        machine_value = mean_value(m, human_list)
        consistency = {
            "machine": machine_value,
            "humans": human_consistency,
            "rank": rank_after_ties(machine_value, list(human_consistency.values())),
            "of": len(human_list) + 1,
        }
        reading = read_machine(
            change,
            interval,
            human_values,
            consistency,
            coefficient=name,
            humans_value=base_value,
            humans_chance=humans_chance,
        )
        values = [v for v in per_human.values() if v is not None]
        results[m] = {
            "added": {"humans": base_value, "with_machine": with_m, "change": change, "interval": interval},
            "replaced": {
                "mean": _num(np.mean(values)) if values else None,
                "change": _num(point[2 * k + 1]),
                "per_human": per_human,
                "interval": _interval(ci, 2 * k + 1),
            },
            "consistency": consistency,
            "human_changes": {"per_human": human_changes, "machine": change, **change_rank(change, human_values)},
            **reading,
        }
    per_item: dict[str, Any] = {}
    for i, name in enumerate(items):
        w = np.zeros((1, len(items)))
        w[0, i] = 1
        base_i = _num(coefficient(human_list, w)[0])
        per_item[name] = {}
        for m in machine_list:
            with_i = _num(coefficient([*human_list, m], w)[0])
            delta = None if base_i is None or with_i is None else with_i - base_i
            per_item[name][m] = {"added": {"humans": base_i, "with_machine": with_i, "change": delta}}
    return results, per_item
