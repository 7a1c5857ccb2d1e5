"""A measure's output, per item and pooled from summed statistics: the ``metrics`` entries of
``compare --json`` (see :mod:`segagree.scoring.metric_runner`), for every way a measure's input is built.

Light on purpose (no numpy, no model): the official scorers' own reading of two files
(:mod:`segagree.scoring.tokens.disrpt_files`) gives its output through here too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from segagree.errors import SegagreeError
from segagree.metrics.contract import Measure, NotApplicableResult

__all__ = ["WHOLE", "pooled_output", "run_items"]

# The key of an item that covers the whole text (not one speaker).
WHOLE = ""


def _whole_text(measure: Measure[Any, Any, Any], item: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """A measure of the whole text: its result's dict, with ``value`` and ``per_speaker`` always present."""
    try:
        result = measure.score(measure.statistics(item, options), options)
    except SegagreeError as err:
        result = NotApplicableResult(measure.name, err.message)
    out = result.to_dict()
    return {**out, "value": result.value, "per_speaker": out.get("per_speaker", {})}


def run_items(
    measure: Measure[Any, Any, Any],
    items: Mapping[str, Any],
    options: Mapping[str, Any],
    statistics: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One measure on its built input (:data:`segagree.scoring.metric_runner.INPUTS`): per item, and
    pooled from the summed statistics (also put in ``statistics[name]`` when given, for pooling over texts)."""
    if set(items) == {WHOLE}:
        return _whole_text(measure, items[WHOLE], options)
    computed: dict[str, Any] = {}
    for speaker, item in items.items():
        try:
            computed[speaker] = measure.statistics(item, options)
        except SegagreeError as err:  # e.g. a window measure on a one-token stream
            computed[speaker] = err
    return pooled_output(measure, computed, options, statistics)


def pooled_output(
    measure: Measure[Any, Any, Any],
    computed: Mapping[str, Any],
    options: Mapping[str, Any],
    statistics: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A measure's output from its statistics per item (or the SegagreeError that item raised): the
    value per item, and the pooled value from the summed statistics (also put in
    ``statistics[name]`` when given, for pooling over texts)."""
    per: dict[str, Any] = {}
    skipped: dict[str, str] = {}
    chosen: dict[str, dict[str, Any]] = {}
    stats = []
    for speaker, st in computed.items():
        try:
            if isinstance(st, SegagreeError):
                raise st
            result = measure.score(st, options)
        except SegagreeError as err:
            per[speaker], skipped[speaker] = None, err.message
            continue
        stats.append(st)
        per[speaker] = result.value
        for key, value in result.to_dict().get("params", {}).items():
            chosen.setdefault(key, {})[speaker] = value
    out: dict[str, Any] = {"value": None, "per_speaker": per}
    if stats:
        summed = measure.add(stats)
        if statistics is not None:
            statistics[measure.name] = summed
        pooled = measure.score(summed, options)
        out["value"] = pooled.value
        pooled_dict = pooled.to_dict()
        out["signature"] = pooled_dict.get("signature", "")
        # what a measure reports beside its value (an official scorer's precision and recall, its counts)
        extra = {k: v for k, v in pooled_dict.items() if k not in ("value", "params", "signature")}
        if extra:
            out["pooled"] = extra
    if chosen:
        out["params"] = chosen
    if skipped:
        out["skipped"] = skipped
    return out
