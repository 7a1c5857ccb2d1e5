"""The report of a run in time (``segagree run --time``): ``report.html`` and a page per text.

The entry page (template ``time_report.html.j2``, autoescaped, the token report's CSS, macros and
table script shared) holds, per measure, the value pooled over every text by summed statistics with
a seeded percentile bootstrap interval over texts (:func:`segagree.scoring.pooling.bootstrap_pooled`),
the distribution of the texts' values, the lowest texts, and one sortable, filterable table of texts
by measures, each text linked to its page. A text's page (``texts/NAME.html``, template
``time_text.html.j2``) is a list of sections (:data:`TEXT_SECTIONS`, each a function of the text's
record returning its part of the page, so more sections can be added): its measures per speaker,
per category and per annotator pair, and a timeline of every annotator's units per speaker with
gamma's best alignment (the ``review --time --plot`` picture,
:func:`segagree.outputs.time_plot.timeline_geometry`, drawn as inline SVG).

Pages are written only when what they show changed (their digests are kept in the run's
manifest, as for the token report); the entry page is written from the light records and the
outcome's pooled values (computed once per run).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from segagree.corpus.outcome import RunOutcome, texts_of
from segagree.corpus.rows import POOLED
from segagree.corpus.time_track import measure_values
from segagree.files.atomic import output_plan, write_text_atomic
from segagree.metrics.registry import get_measure
from segagree.outputs.report_format import (
    flatten_settings,
    fmt_exact,
    fmt_interval,
    fmt_score,
    fmt_setting,
    settings_digest,
    template_environment,
)
from segagree.outputs.text_pages import PAGES_DIR, PagesWritten, page_link, pages_to_write
from segagree.scoring.pooling import bootstrap_pooled
from segagree.version import version

__all__ = ["REPORT_NAME", "TEXT_SECTIONS", "write_report", "write_text_pages"]

REPORT_NAME = "report.html"
TEMPLATE = "time_report.html.j2"
TEXT_TEMPLATE = "time_text.html.j2"
BOOTSTRAP_RESAMPLES = 200
BOOTSTRAP_SEED = 12345
MAX_LOWEST = 10
#: Fewest pages worth rendering in worker processes: a page with its timeline takes ~30 ms, a worker about a
#: second to start (none when the run's scoring already started them).
MIN_PARALLEL_PAGES = 32


# ---------------------------------------------------------------------------------- entry page


def _scalar(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else None


def _interval_of(name: str, per_text: Sequence[Sequence[Any]], params: Mapping[str, Any]) -> tuple[Any, Any]:
    """The bootstrap interval over texts of one measure (a worker's job when there are several)."""
    return bootstrap_pooled(get_measure(name), per_text, params, resamples=BOOTSTRAP_RESAMPLES, seed=BOOTSTRAP_SEED)


def _intervals(outcome: RunOutcome, jobs: int) -> dict[str, tuple[Any, Any]]:
    """Per measure with one number, its interval over texts; in ``jobs`` worker processes when > 1
    (joblib reuses the scoring's warm workers)."""
    params = outcome.config.params
    todo = [
        (name, list(outcome.text_statistics.get(name, {}).values()))
        for name, pooled in outcome.pooled.items()
        if _scalar(pooled.get("value")) is not None
    ]
    if jobs > 1 and len(todo) > 1:
        from joblib import Parallel, delayed

        done = Parallel(n_jobs=jobs, backend="loky")(delayed(_interval_of)(n, per, params) for n, per in todo)
    else:
        done = [_interval_of(n, per, params) for n, per in todo]
    return {name: interval for (name, _), interval in zip(todo, done, strict=True)}


def _corpus_rows(outcome: RunOutcome, jobs: int = 1) -> list[dict[str, Any]]:
    """Per measure (per category where the value is one per category): the pooled value, its
    interval over texts, the texts' values' spread."""
    rows = []
    intervals = _intervals(outcome, jobs)
    n_texts = len(texts_of(outcome))
    for name, pooled in outcome.pooled.items():
        card = get_measure(name).card
        for label, value, note in measure_values(name, pooled):
            low, high = intervals.get(name, (None, None)) if label == name else (None, None)
            values = [v for v in (_scalar(r.get("values", {}).get(label)) for r in outcome.pairs) if v is not None]
            rows.append(
                {
                    "label": label,
                    "title": card.title,
                    "better": card.better,
                    "shown": fmt_score(value),
                    "exact": fmt_exact(value),
                    "interval": fmt_interval(low, high) or ("" if n_texts > 1 else "a single text"),
                    "note": note,
                    "strip": _strip(values),
                }
            )
    return rows


def _strip(values: Sequence[float], width: int = 240, height: int = 18) -> dict[str, Any] | None:
    """Geometry of a small SVG strip of the texts' values on [min(0, lowest), 1]."""
    if not values:
        return None
    low = min(0.0, min(values))
    high = max(1.0, max(values))
    span = high - low or 1.0
    xs = [round(4 + (width - 8) * (v - low) / span, 1) for v in values]
    return {"width": width, "height": height, "xs": xs, "low": f"{low:g}", "high": f"{high:g}"}


def _table(outcome: RunOutcome, labels: list[str]) -> list[dict[str, Any]]:
    rows = []
    with_page = set(texts_of(outcome))
    for light in outcome.pairs:
        values = light.get("values") or {}
        cells = [
            {"shown": fmt_score(values.get(lab)), "exact": fmt_exact(values.get(lab)), "key": None} for lab in labels
        ]
        rows.append(
            {
                "text": light["text"],
                "link": page_link(light["text"]) if light["text"] in with_page else None,
                "annotators": ", ".join(light.get("annotators") or []),
                "cells": cells,
                "error": light.get("error") or "",
            }
        )
    return rows


def _lowest(outcome: RunOutcome, label: str) -> list[dict[str, Any]]:
    scored = [(v, r["text"]) for r in outcome.pairs if (v := _scalar((r.get("values") or {}).get(label))) is not None]
    return [{"text": t, "link": page_link(t), "shown": fmt_score(v)} for v, t in sorted(scored)[:MAX_LOWEST]]


def _context(outcome: RunOutcome, jobs: int = 1) -> dict[str, Any]:
    config = outcome.config
    labels = list(dict.fromkeys(lab for r in outcome.pairs for lab in (r.get("values") or {})))
    corpus_rows = _corpus_rows(outcome, jobs)
    first = next((r["label"] for r in corpus_rows if r["strip"] is not None), labels[0] if labels else "")
    settings = [(f"parameters.{k}", fmt_setting(v)) for k, v in flatten_settings(config.params) if v is not None]
    settings += [(f"reading.{k}", fmt_setting(v)) for k, v in flatten_settings(config.reading()) if v is not None]
    failures = [
        {"text": r["text"], "files": {a: Path(p).name for a, p in (r.get("files") or {}).items()}, "error": r["error"]}
        for r in outcome.failures
    ]
    return {
        "corpus": outcome.corpus,
        "version": version(),
        "measures": config.measures,
        "corpus_rows": corpus_rows,
        "labels": labels,
        "table": _table(outcome, labels),
        "lowest_label": first,
        "lowest": _lowest(outcome, first) if first else [],
        "n_texts": len(texts_of(outcome)),
        "failures": failures,
        "skipped": outcome.corpus.skipped,
        "settings": settings,
        "resamples": BOOTSTRAP_RESAMPLES,
        "seed": BOOTSTRAP_SEED,
        "palette": [],  # the shared CSS's colour steps and operation colours: not used on this page
        "op_colours": [],
        "panel": [
            {"machine": m, "verdict": r["verdict"]} for m, r in ((outcome.panel or {}).get("results") or {}).items()
        ],
    }


def write_report(outdir: Path, outcome: RunOutcome, config: Any, *, jobs: int = 1) -> Path:
    """Write ``report.html`` (see the module docstring); return its path."""
    path = Path(outdir) / REPORT_NAME
    html = template_environment().get_template(TEMPLATE).render(**_context(outcome, jobs))
    write_text_atomic(path, html)
    return path


# ----------------------------------------------------------------------------------- text pages

Section = Callable[[Mapping[str, Any], Path, Any], dict[str, Any] | None]


def _speakers_section(record: Mapping[str, Any], outdir: Path, config: Any) -> dict[str, Any] | None:
    """Each measure per speaker, and pooled over the text's speakers (speaker ALL)."""
    result = record["result"]
    speakers = [s for s in result["speakers"] if s != POOLED]
    columns = [*speakers, POOLED] if len(speakers) > 1 else [POOLED]
    rows: list[dict[str, Any]] = []
    for name, res in result["measures"].items():
        per = {**(res.get("speakers") or {}), POOLED: res["pooled"]}
        by_label: dict[str, dict[str, Any]] = {}
        for col in columns:
            for label, value, note in measure_values(name, per.get(col, {})):
                line = by_label.setdefault(label, {"label": label, "cells": {}, "note": ""})
                line["cells"][col] = {"shown": fmt_score(value), "exact": fmt_exact(value)}
                line["note"] = line["note"] or note
        rows += by_label.values()
    categories = [r for r in rows if ":" in r["label"]]
    return {"columns": columns, "rows": [r for r in rows if ":" not in r["label"]], "categories": categories}


def _pairs_section(record: Mapping[str, Any], outdir: Path, config: Any) -> dict[str, Any] | None:
    """Per annotator pair, the numbers of every measure that has them (ELAN's kappa, boundary F1 ...)."""
    pairs: dict[str, dict[str, Any]] = {}
    columns: list[str] = []
    for name, res in record["result"]["measures"].items():
        for key, per_pair in res["pooled"].items():
            if not key.endswith("_pairs") or not isinstance(per_pair, Mapping):
                continue
            for pair, values in per_pair.items():
                for field, value in values.items():
                    if _scalar(value) is None:
                        continue
                    column = f"{name}.{field}"
                    if column not in columns:
                        columns.append(column)
                    pairs.setdefault(pair, {})[column] = {"shown": fmt_score(value), "exact": fmt_exact(value)}
    if not pairs:
        return None
    return {"columns": columns, "rows": [{"pair": p, "cells": c} for p, c in pairs.items()]}


def _timeline_section(record: Mapping[str, Any], outdir: Path, config: Any) -> dict[str, Any] | None:
    """A timeline per speaker (inline SVG, the ``review --time --plot`` picture's geometry): every
    annotator's units and, where a measure gives one (gamma's, Mathet et al. 2015), its best alignment."""
    from segagree.corpus.time_track import read_task_units
    from segagree.outputs.time_plot import timeline_geometry, timeline_svg_layout

    timed = read_task_units(record["files"], config.how, record.get("annotator_b") or "")
    aligning = next((r for r in record["result"]["measures"].values() if _has_alignment(r)), None)
    figures = []
    for speaker, units in timed.speakers.items():
        alignment = None
        if aligning:
            found = (aligning.get("speakers") or {}).get(speaker) or aligning["pooled"]
            alignment = found.get("alignment")
        layout = timeline_svg_layout(timeline_geometry(units, alignment))
        figures.append({"speaker": speaker or POOLED, "svg": layout, "units": int(units.start.size)})
    return {"figures": figures, "aligned": aligning is not None}


def _has_alignment(result: Mapping[str, Any]) -> bool:
    """Whether a measure's result (pooled and per speaker) holds a best alignment."""
    return "alignment" in result["pooled"] or any("alignment" in r for r in (result.get("speakers") or {}).values())


def _files_section(record: Mapping[str, Any], outdir: Path, config: Any) -> dict[str, Any] | None:
    result = record["result"]
    files = {a: Path(p).name for a, p in record["files"].items()}
    return {"files": files, "units": result.get("units", {}), "notes": result.get("notes", [])}


#: The sections of a text's page, in order: (id, title, function of the record). Another part of
#: segagree can add one (its template block is ``time_text.html.j2``'s ``section`` macro by id).
TEXT_SECTIONS: list[tuple[str, str, Section]] = [
    ("speakers", "Measures per speaker", _speakers_section),
    ("pairs", "Per annotator pair", _pairs_section),
    ("timeline", "Timeline and gamma's alignment", _timeline_section),
    ("files", "Files and units", _files_section),
]


def write_text_page(outdir: Path, record: Mapping[str, Any], config: Any, corpus_root: str) -> str:
    """Write one text's page; return its path relative to ``outdir``."""
    sections = []
    for key, title, build in TEXT_SECTIONS:
        data = build(record, outdir, config)
        if data is not None:
            sections.append({"id": key, "title": title, "data": data})
    html = (
        template_environment()
        .get_template(TEXT_TEMPLATE)
        .render(
            text=record["text"],
            corpus_root=corpus_root,
            annotators=record["annotators"],
            sections=sections,
            version=version(),
            palette=[],
            op_colours=[],
        )
    )
    link = page_link(record["text"])
    with output_plan(outdir):  # (in a worker too: nothing written outside the run's folder)
        write_text_atomic(outdir / link, html)
    return link


def write_text_pages(
    outdir: Path, outcome: RunOutcome, config: Any, old: Mapping[str, str], *, jobs: int = 1
) -> PagesWritten:
    """Write the page of every text whose page is missing or out of date; remove the pages of texts
    no longer in the run. ``old``: the manifest's page digests of the previous run."""
    outdir = Path(outdir)
    out, texts = pages_to_write(outdir, outcome, settings_digest([config.digest, "time"]), old)
    todo = [indexes[0] for _, indexes in texts]  # a time text is one task
    (outdir / PAGES_DIR).mkdir(parents=True, exist_ok=True)
    root = str(outcome.corpus.root)

    def records() -> Iterator[Mapping[str, Any]]:  # read from the log one text at a time
        for i in todo:
            yield outcome.results[i]

    if jobs > 1 and len(todo) >= MIN_PARALLEL_PAGES:
        from joblib import Parallel, delayed

        parallel = Parallel(n_jobs=jobs, backend="loky", return_as="generator")
        out.rebuilt += list(parallel(delayed(write_text_page)(outdir, r, config, root) for r in records()))
    else:
        out.rebuilt += [write_text_page(outdir, r, config, root) for r in records()]
    for text in set(old) - set(out.digests):
        (outdir / page_link(text)).unlink(missing_ok=True)
    return out
