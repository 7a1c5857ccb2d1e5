"""The report's page per text, ``OUTDIR/texts/NAME.html``, linked from ``report.html``'s table.

A text's page holds everything about its annotator pairs: S_f, S_f^B, kappa (with intervals),
costs and operation counts per speaker (the numbers of ``summary.csv``, tagged with their keys),
the other metrics, boundary agreement along the text, operations by endnote type, the confusion
of endnote types, the transcript mismatches, subtitle metrics and the signatures. With
``report_plots = "all"`` each pair's matplotlib PNGs sit under ``OUTDIR/plots/`` and are linked
(drawn again only when what they show changed).

A page is written again only when what it shows changed: its digest (the text's task keys --
inputs' content and scoring settings --, names, files, outcomes, the settings and the version)
is kept in the run's manifest. Pages are rendered from the resume log one text at a time, in
worker processes when there are many.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from segagree.corpus.config import RunConfig
from segagree.corpus.outcome import RunOutcome, texts_of
from segagree.corpus.rows import POOLED, rows_for
from segagree.files.atomic import atomic_path, output_plan, write_text_atomic
from segagree.metrics.boundary.sf import SF_NAMES
from segagree.model.digest import text_digest
from segagree.outputs import plots
from segagree.outputs.report_format import (
    confusion_rows,
    fmt_count,
    fmt_interval,
    fmt_score,
    heat_rows,
    kappa_interval,
    operation_bars,
    pair_pngs,
    plain_cell,
    png_size,
    settings_digest,
    slugify,
    summary_cell,
    template_environment,
    type_palette,
)
from segagree.version import version

SF, SF_B = SF_NAMES  # S_f's and S_f^B's names (their cards'), the keys of compare results

PAGES_DIR = "texts"
PLOTS_DIR = "plots"
PLOT_INDEX = ".index.json"  # png name -> the digest of what it was drawn from
TEMPLATE = "text.html.j2"
MAX_MISMATCHES = 50
OP_KEYS = ("matches", "substitutions", "transpositions", "insertions", "deletions")
#: Fewest pages worth rendering in worker processes.
MIN_PARALLEL_PAGES = 64
SECTIONS = (
    ("scores", "Scores"),
    ("agreement", "Boundary agreement along the text"),
    ("operations", "Operations by endnote type"),
    ("confusion", "Confusion of endnote types"),
    ("mismatches", "Transcript mismatches"),
    ("subtitles", "Subtitle metrics"),
    ("signatures", "Signatures"),
)


def page_name(text: str) -> str:
    """The file name of a text's page: the name itself where it is file-name safe, else a slug
    with a short hash of the name (two names that slug alike still get two pages)."""
    slug = slugify(text)
    if slug == text:
        return f"{slug}.html"
    return f"{slug}-{text_digest(text, 6)}.html"


def page_link(text: str) -> str:
    """The page's address relative to ``report.html``."""
    return f"{PAGES_DIR}/{page_name(text)}"


def page_digest(lights: Sequence[Mapping[str, Any]], settings: str) -> str:
    """What a text's page shows: its pairs' keys, names, files and outcomes, and ``settings``."""
    pairs = [[r["key"], r["annotator_a"], r["annotator_b"], r["file_a"], r["file_b"], r["ok"]] for r in lights]
    return settings_digest([version(), settings, pairs])


@dataclass
class PagesWritten:
    """The text pages' digests (text -> digest, for the manifest) and the pages written this time."""

    digests: dict[str, str] = field(default_factory=dict)
    rebuilt: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------------------ one text


def _label(r: Mapping[str, Any]) -> str:
    return f"{r['text']}: {r['annotator_a']} vs {r['annotator_b']}"


def _score_rows(
    r: Mapping[str, Any], values: Mapping[tuple[str, ...], Any], kappa_on: bool, how_seen: set[str]
) -> list[dict[str, Any]]:
    """A pair's pooled row, then a row per speaker, each cell tagged with its summary key."""
    t, a, b = r["text"], r["annotator_a"], r["annotator_b"]
    per_speaker = r["compare"]["per_speaker"]
    rows = []
    for speaker in [POOLED, *per_speaker]:
        pooled = speaker == POOLED
        k = (t, a, b, speaker)
        row: dict[str, Any] = {"pooled": pooled, "speaker": speaker}
        for key, fmt in (
            ("n_tokens", "count"),
            (SF, "score"),
            (SF_B, "score"),
            ("cost", "count"),
            ("edits", "count"),
        ):
            row[key] = summary_cell(values, (*k, key), fmt)
        if kappa_on:
            for target in (SF, SF_B):
                low, high, how = kappa_interval(r, speaker, target)
                how_seen.add(how)
                row[f"kappa_{target}"] = summary_cell(values, (*k, f"kappa_{target}"))
                row[f"kappa_{target}_interval"] = fmt_interval(low, high) or (
                    f"undefined: {how}" if how not in ("", "ci", "se") else ""
                )
        ops = []
        for key in OP_KEYS:
            if (*k, key) in values or not pooled:
                ops.append(summary_cell(values, (*k, key), "count"))
            else:  # the summary has no pooled operation counts: sum the speakers'
                ops.append(plain_cell(sum(int(st.get(key) or 0) for st in per_speaker.values())))
        row["ops"] = ops
        rows.append(row)
    return rows


def _mismatches(r: Mapping[str, Any], anchor: str) -> dict[str, Any] | None:
    found = r["compare"].get("mismatches") or []
    if not found:
        return None
    rows = [
        {
            "speaker": m.get("speaker", ""),
            "kind": m.get("kind", ""),
            "position_a": fmt_count(m.get("position_a")),
            "position_b": fmt_count(m.get("position_b")),
            "token_a": m.get("token_a", ""),
            "token_b": m.get("token_b", ""),
        }
        for m in found[:MAX_MISMATCHES]
    ]
    key = f"{r['text']}|{r['annotator_a']}|{r['annotator_b']}"
    return {"anchor": anchor, "label": _label(r), "key": key, "total": len(found), "rows": rows}


def subtitle_cells(r: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A result's subtitle metrics (``r["subtitles"]``: metric -> value) as table rows."""
    subs = r.get("subtitles")
    if not isinstance(subs, Mapping):
        return []
    out = []
    for metric, value in subs.items():
        shown = fmt_score(value) if isinstance(value, float) else str(value)
        key = f"{r['text']}|{r['annotator_a']}|{r['annotator_b']}|{metric}"
        out.append(
            {
                "text": r["text"],
                "pair": f"{r['annotator_a']} vs {r['annotator_b']}",
                "metric": metric,
                "key": key,
                "shown": shown,
            }
        )
    return out


def kappa_note(how_seen: set[str]) -> str:
    """How the kappa intervals were made, for the notes under the tables."""
    parts = []
    if "ci" in how_seen:
        parts.append("intervals as reported by the kappa computation")
    if "se" in how_seen:
        parts.append(
            "intervals κ ± 1.96 × its Monte Carlo standard error (the simulation's uncertainty, not the texts')"
        )
    return " and ".join(parts)


def _pair_entry(
    i: int,
    r: Mapping[str, Any],
    values: Mapping[tuple[str, ...], Any],
    kappa_on: bool,
    how_seen: set[str],
    png: Mapping[str, Any],
) -> dict[str, Any]:
    symbols = r["compare"]["scheme"]["symbols"]
    has_sf = r["compare"].get(SF) is not None
    fig = r.get("figures") if has_sf else None
    names = sorted(
        n
        for n in r["compare"].get("metrics", {})
        if (r["text"], r["annotator_a"], r["annotator_b"], POOLED, n) in values
    )
    return {
        "anchor": f"pair-{i}",
        "label": _label(r),
        "file_a": r["file_a"],
        "file_b": r["file_b"],
        "score_rows": _score_rows(r, values, kappa_on, how_seen) if has_sf else [],
        "other": [(n, summary_cell(values, (r["text"], r["annotator_a"], r["annotator_b"], POOLED, n))) for n in names],
        "figures": fig,
        "heat": heat_rows(fig) if fig else None,
        "ops": operation_bars(fig["operations"], symbols) if fig else None,
        "confusion": confusion_rows(fig["confusion"], symbols)
        if fig and fig["confusion"] is not None and len(symbols) >= 2
        else None,
        "png": png,
    }


def text_context(
    text: str,
    results: Sequence[Mapping[str, Any]],
    config: RunConfig,
    corpus_root: str,
    pngs: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """Everything ``text.html.j2`` needs for one text (``results``: its successful pairs)."""
    values: dict[tuple[str, ...], Any] = {
        (row["text"], row["annotator_a"], row["annotator_b"], row["speaker"], row["measure"]): row["value"]
        for r in results
        for row in rows_for(dict(r), config)
    }
    kappa_on = any(r.get("kappa") for r in results)
    how_seen: set[str] = set()
    pairs = [
        _pair_entry(i, r, values, kappa_on, how_seen, png) for i, (r, png) in enumerate(zip(results, pngs, strict=True))
    ]
    mismatches = [m for i, r in enumerate(results) if (m := _mismatches(r, f"pair-{i}"))]
    subtitles = [cell for r in results for cell in subtitle_cells(r)]
    return {
        "version": version(),
        "text": text,
        "corpus_root": corpus_root,
        "config": config,
        "pairs": pairs,
        # what the pairs compared, which the files' layers decide over the configured ones
        "layers_used": sorted({str(r["compare"]["layer"]) for r in results if r["compare"].get("layer")}),
        "schemes_used": sorted({str(r["compare"]["scheme"]["name"]) for r in results if r["compare"].get("scheme")}),
        "notes": sorted({n for r in results for n in r["compare"].get("notes") or []}),
        "kappa_on": kappa_on,
        "kappa_note": kappa_note(how_seen),
        "mismatches": mismatches,
        "max_mismatches": MAX_MISMATCHES,
        "subtitles": subtitles,
        "toc": [(a, t) for a, t in SECTIONS if a != "subtitles" or subtitles],
        "signatures": sorted({r["compare"]["signature"] for r in results if r["compare"].get("signature")}),
        "kappa_signatures": [
            (_label(r), str(r["kappa"]["signature"]))
            for r in results
            if isinstance(r.get("kappa"), Mapping) and r["kappa"].get("signature")
        ],
        "palette": type_palette(),
        "op_colours": list(plots.OP_COLOURS.items()),
    }


def write_text_page(
    outdir: Path,
    text: str,
    results: Sequence[Mapping[str, Any]],
    config: RunConfig,
    corpus_root: str,
    pngs: Sequence[Mapping[str, Any]] | None = None,
) -> str:
    """Render and write one text's page (a module-level function, so workers can run it)."""
    empty = {"agreement": None, "operations": None, "confusion": None}
    context = text_context(text, results, config, corpus_root, pngs or [empty] * len(results))
    path = outdir / PAGES_DIR / page_name(text)
    page = template_environment().get_template(TEMPLATE).render(context)
    if config.review_pages:  # the review part of the text, appended to the page
        from segagree.outputs.review_page import text_review_section

        page = page.replace("</main>", text_review_section(results, config, path.parent) + "\n</main>", 1)
    with output_plan(outdir):  # (in a worker too: nothing written outside the run's folder)
        write_text_atomic(path, page)
    return f"{PAGES_DIR}/{path.name}"


# ------------------------------------------------------------------------------------ PNGs


class _Pngs:
    """``report_plots = "all"``: each pair's PNGs under ``plots/``, drawn again only when what
    they show changed; ``.index.json`` maps each PNG to the digest it was drawn from and its size."""

    def __init__(self, outdir: Path) -> None:
        self.folder = outdir / PLOTS_DIR
        self.index_path = self.folder / PLOT_INDEX
        try:
            self.index: dict[str, Any] = json.loads(self.index_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.index = {}
        self.changed = False
        self.used: set[str] = set()

    def refs(self, r: Mapping[str, Any]) -> dict[str, Any]:
        """The PNGs of one pair (drawn now if missing or stale), as the template's image references."""
        empty: dict[str, Any] = {"agreement": None, "operations": None, "confusion": None}
        fig = r.get("figures")
        if not fig or r["compare"].get(SF) is None:
            return empty
        symbols = r["compare"]["scheme"]["symbols"]
        stem = f"{slugify(r['text'])}__{slugify(r['annotator_a'])}_vs_{slugify(r['annotator_b'])}"
        while any(n.startswith(stem + "__") for n in self.used):  # two names that slug alike
            stem += "_"
        digest = settings_digest([version(), _label(r), symbols, fig])
        names = {kind: f"{stem}__{kind}.png" for kind in empty}
        self.used.update(names.values())
        if any(
            self.index.get(n, {}).get("digest") != digest or not (self.folder / n).is_file() for n in names.values()
        ):
            drawn = pair_pngs(_label(r), symbols, fig)
            for kind, png in drawn.items():
                with atomic_path(self.folder / names[kind]) as tmp:
                    tmp.write_bytes(png)
                width, height = png_size(png)
                self.index[names[kind]] = {"digest": digest, "width": width, "height": height}
            for kind in set(names) - set(drawn):
                self.index.pop(names[kind], None)
            self.changed = True
        for kind, name in names.items():
            meta = self.index.get(name)
            empty[kind] = (
                {
                    "src": f"../{PLOTS_DIR}/{name}",
                    "width": meta["width"],
                    "height": meta["height"],
                    "alt": f"{kind} figure of {_label(r)}",
                }
                if meta
                else None
            )
        return empty

    def save(self) -> None:
        if self.changed:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_text_atomic(self.index_path, json.dumps(self.index, indent=1, sort_keys=True) + "\n")


# ------------------------------------------------------------------------------------ all texts
def pages_to_write(
    outdir: Path, outcome: RunOutcome, settings: str, old: Mapping[str, str]
) -> tuple[PagesWritten, list[tuple[str, list[int]]]]:
    """Every text's page digest (in the returned :class:`PagesWritten`) and the texts, with their
    result indexes, whose page is missing or out of date (``old``: the previous run's digests);
    both tracks' reports share this step."""
    lights = outcome.pairs
    out = PagesWritten()
    todo = []
    for text, indexes in texts_of(outcome).items():
        digest = page_digest([lights[i] for i in indexes], settings)
        out.digests[text] = digest
        if old.get(text) != digest or not (outdir / page_link(text)).is_file():
            todo.append((text, indexes))
    return out, todo


def write_text_pages(
    outdir: Path, outcome: RunOutcome, config: RunConfig, old: Mapping[str, str], *, jobs: int = 1
) -> PagesWritten:
    """Write the page of every text whose page is missing or out of date; remove the pages of
    texts no longer in the run. ``old``: the manifest's page digests of the previous run."""
    outdir = Path(outdir)
    # scoring settings, the figures' kind, and the review part
    settings = settings_digest([config.digest, config.report_plots, config.review_pages])
    out, todo = pages_to_write(outdir, outcome, settings, old)
    corpus_root = str(outcome.corpus.root)
    if config.report_plots == "all":
        pngs = _Pngs(outdir)
        for text, indexes in todo:
            results = [outcome.results[i] for i in indexes]
            out.rebuilt.append(
                write_text_page(outdir, text, results, config, corpus_root, [pngs.refs(r) for r in results])
            )
        pngs.save()
    else:
        out.rebuilt += _render_many(outdir, outcome, config, todo, jobs)
    for text in set(old) - set(out.digests):
        (outdir / page_link(text)).unlink(missing_ok=True)
    return out


def _render_many(
    outdir: Path, outcome: RunOutcome, config: RunConfig, todo: list[tuple[str, list[int]]], jobs: int
) -> list[str]:
    corpus_root = str(outcome.corpus.root)

    def inputs() -> Iterator[tuple[str, list[dict[str, Any]]]]:  # read from the log one text at a time
        for text, indexes in todo:
            yield text, [outcome.results[i] for i in indexes]

    if jobs > 1 and len(todo) >= MIN_PARALLEL_PAGES:
        from joblib import Parallel, delayed

        parallel = Parallel(n_jobs=jobs, backend="loky", return_as="generator", batch_size=16)
        return list(parallel(delayed(write_text_page)(outdir, t, rs, config, corpus_root) for t, rs in inputs()))
    return [write_text_page(outdir, t, rs, config, corpus_root) for t, rs in inputs()]
