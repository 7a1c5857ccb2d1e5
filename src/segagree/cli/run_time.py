"""``segagree run CORPUS -o OUTDIR --time``: time-based unitizing agreement of a corpus folder, per text
and pooled over texts (the printing; the work is :func:`segagree.api.run_time`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from segagree.cli.agree_time import literal, measure_params, plan_reading
from segagree.cli.common import Reading, fmt_score, new_table, print_json, say, stdout

#: At most this many texts get a column in the printed table; summary.csv and report.html have all.
MAX_TEXT_COLUMNS = 6
POOLED = "ALL"  # the pooled rows' text and speaker (segagree.pipeline.units.POOLED)


def run_corpus_time(
    corpus: Path, output: Path, opts: dict[str, Any], reading: Reading, scheme: str | None, **how: bool
) -> None:
    """Score, write and print; ``how`` holds ``report``, ``quiet`` and ``json_out``. Exit code 1 when a
    text failed (its error is listed; the other texts are scored and written)."""
    import segagree.api as api

    started = time.time()
    try:
        done = api.run_time(
            corpus,
            output,
            measures=list(opts["measures"]) or None,
            params=measure_params(opts),
            category=opts["category"].lower(),
            format=reading.format,
            scheme=scheme,
            read_options=reading.options,
            report=how["report"],
            reading=plan_reading(opts),
        )
    except BaseException:
        api.remove_stale_run_outputs(output, started)
        raise
    rows = done.rows()
    failures = [f"{text}: {error}" for text, error in done.failures.items()]
    if how["json_out"]:
        print_json({"outputs": done.outputs, "rows": rows, "failures": failures, "skipped": done.corpus.skipped})
    else:
        _print_table(rows, list(done.texts))
    if not how["quiet"]:
        say(f"{len(done.texts)} texts scored; wrote " + ", ".join(Path(p).name for p in done.outputs.values()))
    for line in done.corpus.skipped:
        say(f"skipped: {line}")
    for line in failures:
        say(f"failed: {line}")
    if failures:
        raise SystemExit(1)


def _print_table(rows: list[dict[str, Any]], texts: list[str]) -> None:
    """A row per measure (per category): the corpus pooled value, and each text's if they are few."""
    shown = texts if len(texts) <= MAX_TEXT_COLUMNS else []
    values = {(r["text"], r["measure"]): r for r in rows if r["speaker"] == POOLED}
    title = "segagree run --time: pooled over speakers" + ("" if shown else " (per text: summary.csv, report.html)")
    table = new_table(title=title)
    for col in ("measure", *shown, "all texts", "note"):
        table.add_column(col, justify="left" if col in ("measure", "note") else "right", overflow="fold")
    for (text, measure), row in values.items():
        if text == POOLED:
            cells = (fmt_score(values[(t, measure)]["value"]) if (t, measure) in values else "-" for t in shown)
            table.add_row(literal(measure), *cells, fmt_score(row["value"]), literal(row["note"]))
    stdout().print(table)
