"""``summary.csv`` and ``summary.json`` of a corpus run, written as streams.

The rows are :mod:`segagree.pipeline.rows`' (long format, one row per text, speaker, annotator
pair and metric; pooled rows have speaker ``ALL``). Both files are written one task result at a
time, read back from the resume log, so their size never sits in memory; the subtitle metrics
pooled over texts (text ``ALL``) come last, from summed statistics.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from segagree.adapters.base import atomic_path
from segagree.adapters.cells import safe_rows
from segagree.pipeline.config import RunConfig
from segagree.pipeline.rows import (
    COLUMNS,
    COUNT_KEYS,
    POOLED,
    iter_rows,
    kappa_values,
    rows_for,
    subtitle_pooled_rows,
    summary_rows,
)
from segagree.pipeline.subtitles import pooled_over_texts
from segagree.version import version

if TYPE_CHECKING:
    from segagree.pipeline.outcome import RunOutcome

__all__ = [
    "COLUMNS",
    "COUNT_KEYS",
    "POOLED",
    "kappa_values",
    "rows_for",
    "subtitle_pooled_rows",
    "summary_rows",
    "write_summary",
]


def _all_rows(outcome: RunOutcome, config: RunConfig) -> Iterable[dict[str, Any]]:
    """Every row in task order, then the subtitle metrics pooled over texts."""
    yield from iter_rows(outcome.results, config)
    yield from subtitle_pooled_rows(pooled_over_texts(outcome.subtitle_results()))


def _write_json_list(fh: IO[str], items: Iterable[Any]) -> None:
    fh.write("[")
    for i, item in enumerate(items):
        fh.write(("\n  " if i == 0 else ",\n  ") + json.dumps(item, ensure_ascii=False))
    fh.write("\n ]")


def _write_json(path: Path, outcome: RunOutcome, config: RunConfig) -> None:
    head = {
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
    }
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8") as fh:
        fh.write("{\n")
        for key, value in head.items():
            fh.write(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},\n")
        fh.write(' "rows": ')
        _write_json_list(fh, _all_rows(outcome, config))
        fh.write(',\n "mismatches": {')
        first = True
        for r in outcome.results:
            if r.get("ok"):
                key = f"{r['text']}|{r['annotator_a']}|{r['annotator_b']}"
                value = json.dumps(r["compare"].get("mismatches", []), ensure_ascii=False)
                fh.write(("\n  " if first else ",\n  ") + f"{json.dumps(key, ensure_ascii=False)}: {value}")
                first = False
        fh.write("\n }\n}\n")


def write_summary(outdir: Path, outcome: RunOutcome, config: RunConfig) -> dict[str, str]:
    """Write ``summary.csv`` and ``summary.json`` atomically, as streams; return their paths."""
    csv_path = outdir / "summary.csv"
    with atomic_path(csv_path) as tmp, tmp.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(safe_rows(_all_rows(outcome, config)))  # OWASP: no cell a spreadsheet runs
    json_path = outdir / "summary.json"
    _write_json(json_path, outcome, config)
    return {"summary_csv": str(csv_path), "summary_json": str(json_path)}
