"""The run's summary: one long-format row per (text, speaker, annotator pair, metric).

Columns: ``text, speaker, annotator_a, annotator_b, metric, value`` then the parameters
(``layer, scheme, scheme_digest, mode, signature``). Metric names are those of
``compare --json`` (``sf``, ``sf_b``, ``kappa_sf``, ``kappa_sf_b``, any other metric's name)
plus counts (``n_tokens``, ``cost``, ``edits``, ``matches`` ... ``deletions``,
``transcript_mismatches``). Pooled rows have speaker ``ALL``; pooled values come from summed
statistics.
"""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING, Any

from segagree.adapters.base import write_text_atomic
from segagree.metrics.sf import SF_NAMES
from segagree.pipeline.config import RunConfig
from segagree.version import version

SF, SF_B = SF_NAMES  # S_f's and S_f^B's names, the keys of compare results

if TYPE_CHECKING:
    from segagree.pipeline.results import RunOutcome

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


def _rows_for(result: dict[str, Any], config: RunConfig) -> list[dict[str, Any]]:
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


def summary_rows(results: list[dict[str, Any]], config: RunConfig) -> list[dict[str, Any]]:
    """Long-format rows of every successful task, in task order."""
    rows: list[dict[str, Any]] = []
    for result in results:
        if result.get("ok"):
            rows.extend(_rows_for(result, config))
    return rows


def write_summary(outdir, outcome: RunOutcome, config: RunConfig) -> dict[str, str]:
    """Write ``summary.csv`` and ``summary.json`` atomically; return their paths."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in outcome.rows:
        writer.writerow(row)
    csv_path = outdir / "summary.csv"
    write_text_atomic(csv_path, buf.getvalue())
    doc = {
        "segagree": version(),
        "corpus": str(outcome.corpus.root),
        "layout": outcome.corpus.layout,
        "settings": config.to_dict(),
        "texts": sorted(outcome.corpus.texts),
        "skipped": outcome.corpus.skipped,
        "failures": [
            {"text": r["text"], "annotator_a": r["annotator_a"], "annotator_b": r["annotator_b"], "error": r["error"]}
            for r in outcome.failures
        ],
        "rows": outcome.rows,
        "mismatches": {
            f"{r['text']}|{r['annotator_a']}|{r['annotator_b']}": r["compare"].get("mismatches", [])
            for r in outcome.results
            if r.get("ok")
        },
    }
    json_path = outdir / "summary.json"
    write_text_atomic(json_path, json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
    return {"summary_csv": str(csv_path), "summary_json": str(json_path)}
