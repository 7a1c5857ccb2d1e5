"""Scoring units in time: every chosen measure of the registry's ``time`` group, per speaker and
pooled (the speakers' statistics added, as the measure contract says), as one JSON-ready dict.

The result::

    {"annotators": [...], "speakers": [...], "continuum": [start, end], "category": "label",
     "units": {annotator: n}, "notes": [...], "parameters": {...},
     "measures": {name: {"pooled": result.to_dict(), "speakers": {speaker: result.to_dict()}}},
     name: pooled value, ...}

Every measure's pooled value is also a top-level key under its own name, and the other keys of its
pooled ``to_dict()`` (a per-category dict, a disorder...) are top-level keys too, the first measure in
registry order winning a key two measures share, so ``result[name]`` and those keys read directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from segagree.errors import UsageError
from segagree.metrics.contract import Measure
from segagree.metrics.registry import get_measure, group_names
from segagree.scoring.pooling import pool
from segagree.scoring.time.items import score_items
from segagree.scoring.time.units import POOLED, TimedUnits

__all__ = [
    "TIME_GROUP",
    "best_alignments",
    "score_time",
    "score_time_statistics",
    "time_measures",
    "unshared_label_notes",
]

TIME_GROUP = "time"
# Keys of a result's to_dict that belong to the measure only (never lifted to the top level).
_OWN_KEYS = {
    "value",
    "reason",
    "not_applicable",
    "resolution",
    "parameters",
    "D_o",
    "D_e",
    "signature",
    "note",
    "elan_printed",
}


def time_measures(names: Sequence[str] | None = None) -> list[Measure[Any, Any, Any]]:
    """The chosen measures (default: every measure of the ``time`` group); each must read times."""
    chosen = list(names) if names else group_names(TIME_GROUP)
    measures = [get_measure(n) for n in chosen]
    wrong = [m.name for m in measures if m.card.needs != "times"]
    if wrong:
        raise UsageError(f"{wrong} do not read units in time; time measures: {', '.join(group_names(TIME_GROUP))}")
    return measures


def best_alignments(
    timed: TimedUnits, name: str | None = None, params: Mapping[str, Any] | None = None
) -> tuple[str, dict[str, dict[str, Any]]]:
    """The best alignment of each speaker's units (``{"groups": [{"units": [row or None per annotator],
    "disorder": d}]}``) from ``name``, or from the first measure of the time group whose result holds an
    alignment. Only the observed disorder is needed: one sampled continuum unless ``samples`` is given."""
    given = {"samples": 1, **{k: v for k, v in (params or {}).items() if v is not None}}
    candidates = [get_measure(name)] if name else time_measures()
    for measure in candidates:
        found: dict[str, dict[str, Any]] = {}
        for speaker, unit_set in timed.speakers.items():
            try:
                out = measure.score(measure.statistics(unit_set, given), given).to_dict()
            except ValueError as err:
                raise UsageError(f"{measure.name}: {err}") from None
            if "alignment" in out:  # a speaker the measure does not apply to (no units) has none
                found[speaker] = out["alignment"]
        if found:
            return measure.name, found
    raise UsageError(
        f"{name or 'no measure of the time group'} gives no best alignment for every speaker (see segagree metrics)"
    )


def _loaded_files(given: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters given as files, read: ``uem`` (a NIST UEM file's scored regions per recording)."""
    uem = given.get("uem")
    if isinstance(uem, (str, Path)):
        from segagree.formats.timed_lists import read_uem

        return {"uem": read_uem(Path(uem))}
    return {}


def _unscored_reference_notes(timed: TimedUnits) -> list[str]:
    """DER and JER: a recording only the reference (the first annotator) has is left out with the
    others; pyannote.metrics and dscore count its speech as missed, which --missing-as-empty does."""
    left = timed.plan.left_out if timed.plan is not None else {}
    first = timed.annotators[0] if timed.annotators else None
    only_ref = [s for s, holders in left.items() if first in holders and len(holders) < len(timed.annotators)]
    if not only_ref:
        return []
    return [
        f"DER and JER: {', '.join(map(repr, only_ref))} is in the reference's files only: pyannote.metrics and "
        "dscore would count its speech as missed detection; --missing-as-empty scores it so"
    ]


def unshared_label_notes(timed: TimedUnits) -> list[str]:
    """With ``category="label"``, a note for each pair of annotators whose unit labels share none
    (gamma counts every unit a category mismatch then)."""
    from segagree.metrics.unitizing.labels import ADVICE, annotator_labels, unshared_pairs

    if timed.category != "label":
        return []
    pairs = unshared_pairs(annotator_labels(timed.speakers.values()), list(timed.annotators))
    return [f"the unit labels of {a} and {b} share none: {ADVICE}" for a, b in pairs]


def score_time(
    timed: TimedUnits,
    names: Sequence[str] | None = None,
    params: Mapping[str, Any] | None = None,
    jobs: int | None = None,
) -> dict[str, Any]:
    """Score the units with the chosen measures (see the module docstring); ``jobs``: worker processes
    over the speakers and recordings (:mod:`segagree.scoring.time.items`; the same numbers for any value)."""
    return score_time_statistics(timed, names, params, jobs)[0]


def score_time_statistics(
    timed: TimedUnits,
    names: Sequence[str] | None = None,
    params: Mapping[str, Any] | None = None,
    jobs: int | None = None,
) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """:func:`score_time`'s result and, per measure, each speaker's statistics (to pool them with other
    texts' by :func:`segagree.scoring.pooling.pool`)."""
    measures = time_measures(names)
    given = {k: v for k, v in (params or {}).items() if v is not None}
    loaded = _loaded_files(given)
    items = list(timed.speakers.items())
    result: dict[str, Any] = timed.to_dict()
    result["speakers"] = [s for s, _ in items if s] or [POOLED]
    result["parameters"] = given
    run_params = {**given, **loaded}
    if len(items) == 1 and (jobs or 1) > 1 and "jobs" not in given:
        run_params = {**run_params, "jobs": jobs}  # one item: the workers sample gamma's continua instead
    per_item = score_items(measures, [u for _, u in items], run_params, jobs)
    scored = {}
    for k, m in enumerate(measures):
        stats = [scores[k][0] for scores in per_item]
        res: dict[str, Any] = {"pooled": pool(m, stats, run_params)}
        if len(items) > 1:
            res["speakers"] = {speaker: scores[k][1] for (speaker, _), scores in zip(items, per_item, strict=True)}
        scored[m.name] = (res, stats)
    result["measures"] = {name: res for name, (res, _) in scored.items()}
    if any(m.compares_categories for m in measures):
        result["notes"] = [*result.get("notes", []), *unshared_label_notes(timed)]
    if any(m.card.group == "diarization" for m in measures):
        result["notes"] = [*result.get("notes", []), *_unscored_reference_notes(timed)]
    for name, res in result["measures"].items():
        result[name] = res["pooled"].get("value")
    for res in result["measures"].values():  # in registry order: the first measure's key wins
        for key, value in res["pooled"].items():
            if key not in _OWN_KEYS and key not in result["measures"]:
                result.setdefault(key, value)
    return result, {name: stats for name, (_, stats) in scored.items()}
