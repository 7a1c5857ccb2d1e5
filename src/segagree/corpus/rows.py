"""The run's summary rows, one schema for every track: one long-format row per (text, speaker,
annotators, measure).

Columns (:data:`COLUMNS`): ``text, speaker, annotators, measure, value, note``, then what the token
track adds (``annotator_a, annotator_b, layer, scheme, scheme_digest, mode, signature``; empty in
a run in time). ``annotators`` is ``A|B`` for a token pair, every annotator of the text for a text
in time. Token measure names are those of ``compare --json`` (``sf``, ``sf_b``, ``kappa_sf``,
``kappa_sf_b``, any other measure's name) plus counts (``n_tokens``, ``cost``, ``edits``,
``matches`` ... ``deletions``, ``transcript_mismatches``). Rows pooled over a text's speakers have
speaker ``ALL``; rows pooled over texts have text ``ALL`` (:data:`POOLED`, the one name of a pooled
row) and come from summed statistics (:func:`token_pooled_rows`; S_f from the summed cost and
tokens, S_f^B from the summed cost and edits, every other measure from its summed sufficient
statistics kept in the log). Rows are made one task result at a time (:func:`rows_for`), so a
summary of any size is written as a stream (:mod:`segagree.outputs.summary`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from segagree.corpus.config import RunConfig
from segagree.metrics.boundary.sf import SF_NAMES, SfStats
from segagree.scoring.time.units import POOLED  # the text and speaker of a pooled row, in every track

SF, SF_B = SF_NAMES  # S_f's and S_f^B's names, the keys of compare results

COLUMNS = [
    "text",
    "speaker",
    "annotators",
    "measure",
    "value",
    "note",
    "annotator_a",
    "annotator_b",
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
        "annotators": f"{result['annotator_a']}|{result['annotator_b']}",
        "note": "",
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
        rows.append({**base, "speaker": speaker, "measure": metric, "value": value})

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
    from segagree.scoring.subtitles.evaluation import split_suber

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
        # each kappa's chance baseline beside it: the mean similarity of the simulated chance pairs
        for speaker, values in kappa_chance_values(kappa).items():
            for metric, value in values.items():
                add(speaker, metric, value)
    return rows


def kappa_chance_values(kappa: dict[str, Any]) -> dict[str, dict[str, float]]:
    """speaker (or ALL) -> {kappa_sf_chance, kappa_sf_b_chance}: the chance similarity E[S] each
    kappa corrects for (the mean of the simulated chance pairs, or the exact expectation)."""
    out: dict[str, dict[str, float]] = {}
    entries = [*((s, v) for s, v in (kappa.get("per_speaker") or {}).items()), (POOLED, kappa.get("pooled"))]
    for speaker, entry in entries:
        vals = {
            f"kappa_{target}_chance": (entry.get(target) or {})["chance_mean"]
            for target in (SF, SF_B)
            if entry and (entry.get(target) or {}).get("chance_mean") is not None
        }
        if vals:
            out[speaker] = vals
    return out


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
        pair = f"{entry['annotator_a']}|{entry['annotator_b']}"
        base = {"text": POOLED, "speaker": POOLED, "annotators": pair, "note": "", "annotator_a": entry["annotator_a"]}
        base.update(annotator_b=entry["annotator_b"], layer="subtitle", scheme="subtitle", scheme_digest="")
        base.update(mode="", signature="pooled over " + ",".join(entry["texts"]))
        for metric, value in entry["values"].items():
            if value is not None:
                rows.append({**base, "measure": metric, "value": value})
    return rows


def token_pooled_rows(lights: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Rows pooled over texts (text and speaker ``ALL``) per annotator pair, then over every pair
    (annotators ``ALL``) when there are several: S_f and S_f^B from the summed cost, tokens and
    edits, every other measure from its summed sufficient statistics (the light records')."""
    from segagree.metrics.registry import get_measure
    from segagree.scoring.pooling import pool
    from segagree.scoring.stats_codec import decode

    groups: dict[str, list[Mapping[str, Any]]] = {}
    for r in lights:
        if r.get("ok") and r.get(SF) is not None:
            groups.setdefault(f"{r['annotator_a']}|{r['annotator_b']}", []).append(r)
    if len(groups) > 1:
        groups[POOLED] = [r for rs in list(groups.values()) for r in rs]
    rows: list[dict[str, Any]] = []
    for label, rs in groups.items():
        a, _, b = label.partition("|")
        texts = sorted({r["text"] for r in rs})
        base = {"text": POOLED, "speaker": POOLED, "annotators": label, "annotator_a": a, "annotator_b": b}
        base.update(note=f"pooled over {len(texts)} texts", layer="", scheme="", scheme_digest="", mode="")
        base["signature"] = ""
        summed = SfStats(
            cost=sum(float(r["cost"]) for r in rs),
            n_tokens=sum(int(r["n_tokens"]) for r in rs),
            edits=sum(int(r["edits"]) for r in rs),
        )
        rows.append({**base, "measure": SF, "value": summed.sf})
        rows.append({**base, "measure": SF_B, "value": summed.sf_b})
        names = list(dict.fromkeys(n for r in rs for n in (r.get("statistics") or {})))
        for name in names:
            stats = [decode(r["statistics"][name]) for r in rs if name in (r.get("statistics") or {})]
            result = pool(get_measure(name), stats, {})
            note = base["note"] if result.get("value") is not None else str(result.get("reason") or "undefined")
            rows.append({**base, "measure": name, "value": result.get("value"), "note": note})
    return rows
