"""The outputs of a corpus run in time (``segagree run --time``): ``summary.csv``, ``summary.json`` and
``report.html``, each written atomically (temp file then rename).

* ``summary.csv``: :func:`segagree.pipeline.time_corpus.time_rows`' long-format rows (``text, speaker,
  annotators, measure, value, note``), the corpus pooled last (text ``ALL``);
* ``summary.json``: the run (every text's full result, as ``agree --time --json`` gives it, the pooled
  results, failures, skipped files, settings) and the same rows;
* ``report.html``: one self-contained page (template ``templates/time_report.html.j2``, autoescaped, the
  run report's CSS inlined): a table per measure with a row per text (and speaker) and the corpus
  pooled, then the texts' files and notes, failures and settings.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from segagree.adapters.base import atomic_path, write_text_atomic
from segagree.adapters.cells import safe_rows
from segagree.metrics.registry import get_measure
from segagree.outputs.report_format import _environment, _exact, _flatten, _score, _setting
from segagree.pipeline.time_corpus import TIME_COLUMNS, TimeCorpusRun, time_rows
from segagree.pipeline.units import POOLED
from segagree.version import version

__all__ = ["TIME_TEMPLATE", "write_time_outputs"]

TIME_TEMPLATE = "time_report.html.j2"


def _json_default(value: Any) -> Any:
    """numpy scalars and arrays as plain JSON."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)


def _write_csv(path: Path, rows: Iterable[Mapping[str, Any]]) -> None:
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=TIME_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(safe_rows(rows))  # OWASP: no cell a spreadsheet runs


def _write_json(path: Path, run: TimeCorpusRun, rows: list[dict[str, Any]]) -> None:
    payload = {"segagree": version(), **run.to_dict(), "rows": rows}
    write_text_atomic(path, json.dumps(payload, ensure_ascii=False, indent=1, default=_json_default) + "\n")


def _measure_tables(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One table per measure: a column per value (``value``, or one per category), a row per text and
    speaker, the corpus pooled last."""
    tables: dict[str, dict[str, Any]] = {}
    for row in rows:
        name, _, category = str(row["measure"]).partition(":")
        table = tables.get(name)
        if table is None:
            card = get_measure(name).card
            table = tables[name] = {"name": name, "title": card.title, "better": card.better, "columns": [], "rows": {}}
        column = category or "value"
        if column not in table["columns"]:
            table["columns"].append(column)
        key = (row["text"], row["speaker"])
        line = table["rows"].setdefault(key, {"text": row["text"], "speaker": row["speaker"], "cells": {}, "note": ""})
        line["cls"] = "pooled" if row["text"] == POOLED else ("speaker" if row["speaker"] != POOLED else "")
        line["cells"][column] = {"shown": _score(row["value"]), "exact": _exact(row["value"])}
        line["note"] = line["note"] or row["note"]
    for table in tables.values():
        table["rows"] = list(table["rows"].values())
    return list(tables.values())


def _context(run: TimeCorpusRun, rows: list[dict[str, Any]]) -> dict[str, Any]:
    texts = [
        {"name": t, "files": run.files(t), "units": r["units"], "speakers": r["speakers"], "notes": r["notes"]}
        for t, r in run.texts.items()
    ]
    settings = [(f"parameters.{k}", _setting(v)) for k, v in _flatten(run.parameters) if v is not None] + [
        (f"reading.{k}", _setting(v)) for k, v in _flatten(run.reading) if v is not None
    ]
    return {
        "corpus": run.corpus,
        "version": version(),
        "measures": run.measures,
        "tables": _measure_tables(rows),
        "texts": texts,
        "failures": [{"text": t, "files": run.files(t), "error": e} for t, e in run.failures.items()],
        "skipped": run.corpus.skipped,
        "settings": settings,
        "palette": [],  # the shared CSS's colour steps and operation colours: not used on this page
        "op_colours": [],
    }


def write_time_outputs(outdir: Path, run: TimeCorpusRun, *, report: bool = True) -> dict[str, str]:
    """Write ``summary.csv``, ``summary.json`` and (``report``) ``report.html`` into ``outdir``; return
    their paths by key (``summary_csv``, ``summary_json``, ``report``), also kept in ``run.outputs``."""
    outdir.mkdir(parents=True, exist_ok=True)
    rows = list(time_rows(run))
    paths = {"summary_csv": outdir / "summary.csv", "summary_json": outdir / "summary.json"}
    _write_csv(paths["summary_csv"], rows)
    _write_json(paths["summary_json"], run, rows)
    if report:
        paths["report"] = outdir / "report.html"
        html = _environment().get_template(TIME_TEMPLATE).render(**_context(run, rows))
        write_text_atomic(paths["report"], html)
    run.outputs = {k: str(p) for k, p in paths.items()}
    return run.outputs
