"""``summary.csv`` and ``summary.json`` of a corpus run, one schema for every track, written as streams.

The rows are :mod:`segagree.corpus.rows`' (long format: ``text, speaker, annotators, measure,
value, note`` and the token track's columns, the same names in both files; rows pooled over a
text's speakers have speaker ``ALL``, rows pooled over texts text ``ALL``). Both files are written
one task result at a time, read back from the resume log, so their size never sits in memory;
the values pooled over texts come last, computed once per run
(:attr:`segagree.corpus.outcome.RunOutcome.pooled_rows`).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from segagree.corpus.rows import (
    COLUMNS,
    COUNT_KEYS,
    POOLED,
    kappa_values,
    rows_for,
    subtitle_pooled_rows,
)
from segagree.files.atomic import atomic_path
from segagree.files.cells import safe_rows
from segagree.version import version

if TYPE_CHECKING:
    from segagree.corpus.outcome import RunOutcome

__all__ = [
    "COLUMNS",
    "COUNT_KEYS",
    "POOLED",
    "kappa_values",
    "rows_for",
    "subtitle_pooled_rows",
    "write_summary",
]


def _write_json_list(fh: IO[str], items: Iterable[Any]) -> None:
    encode = json.JSONEncoder(ensure_ascii=False, default=_json_default).encode  # one for every row
    fh.write("[")
    for i, item in enumerate(items):
        fh.write(("\n  " if i == 0 else ",\n  ") + encode(item))
    fh.write("\n ]")


def _json_default(value: Any) -> Any:
    """numpy scalars and arrays as plain JSON."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)


def _head(outcome: RunOutcome) -> dict[str, Any]:
    failures = [
        {"text": r["text"], "annotator_a": r["annotator_a"], "annotator_b": r["annotator_b"], "error": r["error"]}
        for r in outcome.failures
    ]
    head: dict[str, Any] = {
        "segagree": version(),
        "track": outcome.track,
        "corpus": str(outcome.corpus.root),
        "layout": outcome.corpus.layout,
        "settings": outcome.config.to_dict() if outcome.config is not None else {},
        "skipped": outcome.corpus.skipped,
    }
    if outcome.track == "time":
        for f, light in zip(failures, outcome.failures, strict=True):
            f.update(files={a: Path(p).name for a, p in (light.get("files") or {}).items()})
        config = outcome.config
        head.update(measures=config.measures, parameters=config.params, reading=config.reading())
        head["pooled"] = outcome.pooled
    else:
        head["texts"] = sorted(outcome.corpus.texts)
    head["failures"] = failures
    return head


def _tail(outcome: RunOutcome) -> Iterator[tuple[str, Any]]:
    """(key, value) of the JSON object after the rows: per pair its transcript mismatches (token
    track), per text its full result and files (time track); read from the log one at a time."""
    for r in outcome.results:
        if not r.get("ok"):
            continue
        if outcome.track == "time":
            files = {a: Path(p).name for a, p in (r.get("files") or {}).items()}
            yield r["text"], {"files": files, **r["result"]}
        else:
            yield f"{r['text']}|{r['annotator_a']}|{r['annotator_b']}", r["compare"].get("mismatches", [])


def _write_json(path: Path, outcome: RunOutcome) -> None:
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8") as fh:
        fh.write("{\n")
        for key, value in _head(outcome).items():
            fh.write(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False, default=_json_default)},\n")
        fh.write(' "rows": ')
        _write_json_list(fh, outcome.iter_rows())
        fh.write(f",\n {json.dumps('texts' if outcome.track == 'time' else 'mismatches')}: {{")
        for i, (key, value) in enumerate(_tail(outcome)):
            line = (
                f"{json.dumps(key, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False, default=_json_default)}"
            )
            fh.write(("\n  " if i == 0 else ",\n  ") + line)
        fh.write("\n }\n}\n")


def write_summary(outdir: Path, outcome: RunOutcome) -> dict[str, str]:
    """Write ``summary.csv`` and ``summary.json`` atomically, as streams; return their paths."""
    csv_path = outdir / "summary.csv"
    with atomic_path(csv_path) as tmp, tmp.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n", restval="")
        writer.writeheader()
        writer.writerows(safe_rows(outcome.iter_rows()))  # the data as is; OWASP's guard with --csv-guard
    json_path = outdir / "summary.json"
    _write_json(json_path, outcome)
    return {"summary_csv": str(csv_path), "summary_json": str(json_path)}
