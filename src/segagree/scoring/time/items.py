"""Scoring the items of time-based agreement (a recording's speaker each) in this process or in worker processes.

Each item's statistics depend on the item and the parameters only: gamma's sampled continua are drawn
from ``SeedSequence(seed)`` for every item alike (the seed does not depend on the item's place in the
run), so the statistics, hence every per-item and pooled number, are the same whichever process scores
an item and in whatever order. Items are scored one at a time with every measure in turn, so gamma,
gamma-cat and gamma-k share the item's alignments (:func:`segagree.metrics.unitizing.gamma_core.gamma_core`
keeps the last few) instead of aligning every item once per measure.

With ``jobs`` > 1 the items go to ``jobs`` worker processes (forked where the OS can: no re-import;
each measure's lazy imports are made before the fork), the largest first so that a long item does
not finish alone at the end; results come back in the items' order. gamma's own sample workers (its
``jobs`` parameter) are then turned off in the workers (one level of processes: the same numbers, no
oversubscription). Measures that are all ``light`` (DER, JER: linear in the item) are scored in this
process whatever ``jobs`` says: workers' start-up and imports cost more than such items (4 AMI
meetings: 4.3 s with two workers, 1.6 s without).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from segagree.cpus import usable_cpus
from segagree.errors import UsageError
from segagree.metrics.contract import Measure, UnitSet
from segagree.metrics.registry import get_measure

__all__ = ["ItemScores", "score_items", "worker_count"]

# One item's results: per measure (in the measures' order), its statistics and its own result (to_dict()).
ItemScores = list[tuple[Any, dict[str, Any]]]


def worker_count(jobs: int | None, items: int) -> int:
    """Worker processes for ``items`` items: ``jobs`` (default 1), at most the CPUs this process may use
    and the items (more only adds start-up)."""
    return max(1, min(jobs or 1, usable_cpus(), items))


def score_item(measures: Sequence[Measure[Any, Any, Any]], unit_set: UnitSet, params: Mapping[str, Any]) -> ItemScores:
    """Every measure's statistics and result on one item; a parameter a measure refuses is a usage error."""
    out: ItemScores = []
    for measure in measures:
        try:
            stats = measure.statistics(unit_set, params)
            out.append((stats, measure.score(stats, params).to_dict()))
        except ValueError as err:
            raise UsageError(f"{measure.name}: {err}") from None
    return out


def _worker(args: tuple[list[str], UnitSet, dict[str, Any]]) -> ItemScores:
    names, unit_set, params = args
    return score_item([get_measure(n) for n in names], unit_set, params)


def _size(unit_set: UnitSet) -> int:
    return int(np.asarray(unit_set.start).size)


def score_items(
    measures: Sequence[Measure[Any, Any, Any]],
    unit_sets: Sequence[UnitSet],
    params: Mapping[str, Any],
    jobs: int | None = None,
) -> list[ItemScores]:
    """:func:`score_item` of each item, in ``jobs`` worker processes (see the module docstring); the
    results in the items' order, the same for any ``jobs``."""
    workers = 1 if all(m.light for m in measures) else worker_count(jobs, len(unit_sets))
    if workers == 1:
        return [score_item(measures, u, params) for u in unit_sets]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    for measure in measures:
        measure.warm()  # imported once here, inherited by the forked workers

    names = [m.name for m in measures]
    inner = {**params, "jobs": None}  # gamma's sample workers: off inside a worker
    order = sorted(range(len(unit_sets)), key=lambda i: -_size(unit_sets[i]))
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        done = pool.map(_worker, [(names, unit_sets[i], inner) for i in order])
        found = dict(zip(order, done, strict=True))
    return [found[i] for i in range(len(unit_sets))]
