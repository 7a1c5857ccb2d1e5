"""The run's summary rows: one long-format row per (text, speaker, annotator pair, metric).

Columns: ``text, speaker, annotator_a, annotator_b, metric, value`` then the parameters
(``layer, scheme, scheme_digest, mode, signature``). Metric names are those of
``compare --json`` (``sf``, ``sf_b``, ``kappa_sf``, ``kappa_sf_b``, any other metric's name)
plus counts (``n_tokens``, ``cost``, ``edits``, ``matches`` ... ``deletions``,
``transcript_mismatches``). Pooled rows have speaker ``ALL``; pooled values come from summed
statistics. Rows are made one task result at a time (:func:`rows_for`), so a summary of any
size is written as a stream (:mod:`segagree.outputs.summary`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from segagree.metrics.sf import SF_NAMES
from segagree.pipeline.config import RunConfig

SF, SF_B = SF_NAMES  # S_f's and S_f^B's names, the keys of compare results

POOLED = "ALL"
COLUMNS = [
    "text",
    "speaker",
    "annotator_a",
    "annotator_b",
    "metric",
    "value",
    "layer",
    "scheme",
    "scheme_digest",
    "mode",
    "signature",
]
COUNT_KEYS = ("n_tokens", "cost", "edits", "matches", "substitutions", "transpositions", "insertions", "deletions")


def rows_for(result: dict[str, Any], config: RunConfig) -> list[dict[str, Any]]:
    comp = result["compare"]
    base = {
        "text": result["text"],
        "annotator_a": result["annotator_a"],
        "annotator_b": result["annotator_b"],
        "layer": comp.get("layer", ""),
        "scheme": comp["scheme"]["name"],
        "scheme_digest": comp["scheme"]["digest"],
        "mode": comp.get("mode", config.mode),
        "signature": comp["signature"],
    }
    rows: list[dict[str, Any]] = []

    def add(speaker: str, metric: str, value: Any) -> None:
        if value is None:
            return
        rows.append({**base, "speaker": speaker, "metric": metric, "value": value})

    per_speaker = comp["per_speaker"]
    for speaker, stats in [*per_speaker.items(), (POOLED, comp)]:
        add(speaker, SF, stats[SF])
        add(speaker, SF_B, stats[SF_B])
        for key in COUNT_KEYS:
            add(speaker, key, stats.get(key))
    mismatches = comp.get("mismatches", [])
    for speaker in per_speaker:
        add(speaker, "transcript_mismatches", sum(1 for m in mismatches if m["speaker"] == speaker))
    add(POOLED, "transcript_mismatches", len(mismatches))
    from segagree.pipeline.subtitles import split_suber

    suber, _, others = split_suber(comp.get("metrics", {}))
    for sub, value in (suber or {}).items():  # SubER's own names, one row each
        add(POOLED, f"suber:{sub}", value)
    for name, res in others.items():
        for speaker, value in (res.get("per_speaker") or {}).items():
            add(speaker, name, value)
        add(POOLED, name, res.get("value"))
    kappa = result.get("kappa")
    if kappa:
        for speaker, values in kappa_values(kappa).items():
            for metric, value in values.items():
                add(speaker, metric, value)
    return rows


def kappa_values(kappa: dict[str, Any]) -> dict[str, dict[str, float]]:
    """speaker (or ALL) -> {kappa_sf, kappa_sf_b, kappa_sf_se, kappa_sf_b_se} from a kappa result."""
    out: dict[str, dict[str, float]] = {}
    entries = [*((s, v) for s, v in (kappa.get("per_speaker") or {}).items()), (POOLED, kappa.get("pooled"))]
    for speaker, entry in entries:
        if not entry:
            continue
        vals: dict[str, float] = {}
        for target in (SF, SF_B):
            part = entry.get(target) or {}
            if part.get("kappa") is not None:
                vals[f"kappa_{target}"] = part["kappa"]
            if part.get("se") is not None:
                vals[f"kappa_{target}_se"] = part["se"]
        out[speaker] = vals
    return out


def subtitle_pooled_rows(pooled: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of subtitle metrics pooled over texts (text ``ALL``), one entry per annotator pair."""
    rows: list[dict[str, Any]] = []
    for entry in pooled:
        base = {"text": POOLED, "speaker": POOLED, "annotator_a": entry["annotator_a"]}
        base.update(annotator_b=entry["annotator_b"], layer="subtitle", scheme="subtitle", scheme_digest="")
        base.update(mode="", signature="pooled over " + ",".join(entry["texts"]))
        for metric, value in entry["values"].items():
            if value is not None:
                rows.append({**base, "metric": metric, "value": value})
    return rows


def summary_rows(results: Iterable[dict[str, Any]], config: RunConfig) -> list[dict[str, Any]]:
    """Long-format rows of every successful task, in task order."""
    return list(iter_rows(results, config))


def iter_rows(results: Iterable[dict[str, Any]], config: RunConfig) -> Iterator[dict[str, Any]]:
    """:func:`summary_rows` one row at a time (the results may be read lazily from the log)."""
    for result in results:
        if result.get("ok"):
            yield from rows_for(result, config)
