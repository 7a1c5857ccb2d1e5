"""``OUTDIR/report.html``: the entry page of a corpus run's report, small whatever the corpus size.

The page is rendered from the Jinja2 template ``outputs/templates/report.html.j2`` (autoescaped;
change the look there, not here): inline CSS, one small inline script (sorting and filtering
the table; no library, nothing fetched), no external resources, so it works offline. This
module prepares the numbers; the template draws. It holds the corpus overview and a table row
per text and pair; everything else about a text is on the text's own page
(``OUTDIR/texts/NAME.html``, :mod:`segagree.outputs.text_pages`), linked from the table. At 2,000
texts the entry page is about 0.6 MB. Sections:

* a header with the corpus, the texts and pairs scored, and the signature;
* **Corpus scores**: pooled S_f and S_f^B per annotator pair and over all pairs, with a seeded
  percentile bootstrap interval over texts (from each text's summed cost, tokens and edits);
* **Distribution over texts**: a histogram of pooled S_f and S_f^B over texts and pairs (and,
  for at most :data:`MAX_DOTS` pairs, the dot plot of each pair with kappa);
* **Lowest agreement**: the :data:`MAX_WORST` pairs with the lowest S_f, linked;
* **Scores per text**: the sortable, filterable table of every text and pair (pooled S_f,
  S_f^B, kappa, cost, edits, transcript mismatches; failures with their error);
* **Operations by endnote type** and **Confusion of endnote types** over the corpus;
* **Subtitle metrics** pooled over texts, only when a result carries subtitle metrics;
* **Failures and skipped files**; **Settings and signature**.

The page is built from the light records of the run (:mod:`segagree.corpus.results_log`) and
one pass over the results read back from the resume log, so its memory does not grow with the
corpus beyond the table's rows.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from markupsafe import Markup

from segagree.corpus.config import RunConfig
from segagree.corpus.outcome import RunOutcome, texts_of
from segagree.corpus.rows import POOLED
from segagree.files.atomic import atomic_path, write_text_atomic
from segagree.metrics.boundary.sf import SF_NAMES
from segagree.metrics.chance.bootstrap import bootstrap_over_texts
from segagree.metrics.chance.kappa import KAPPA_NAMES
from segagree.outputs import plots
from segagree.outputs.report_format import (
    confusion_rows,
    dot_plot,
    flatten_settings,
    fmt_count,
    fmt_exact,
    fmt_interval,
    fmt_score,
    fmt_setting,
    kappa_interval,
    operation_bars,
    template_environment,
    type_palette,
)
from segagree.outputs.text_pages import (
    MAX_MISMATCHES,
    PLOTS_DIR,
    page_link,
    subtitle_cells,
    write_text_pages,
)
from segagree.version import version

SF, SF_B = SF_NAMES  # S_f's and S_f^B's names (their cards'), the keys of compare results
KAPPA_SF, KAPPA_SF_B = KAPPA_NAMES  # the kappas' names (their cards')

__all__ = [
    "BOOTSTRAP_RESAMPLES",
    "MAX_MISMATCHES",
    "PLOTS_DIR",
    "REPORT_NAME",
    "TEMPLATE",
    "write_report",
    "write_text_pages",
]

REPORT_NAME = "report.html"
TEMPLATE = "report.html.j2"
BOOTSTRAP_RESAMPLES = 2000
SF_HTML = "S<sub>f</sub>"  # fixed markup, the only HTML that comes from Python
SFB_HTML = "S<sub>f</sub><sup>B</sup>"
SECTIONS = (
    ("corpus", "Corpus scores"),
    ("distribution", "Distribution over texts"),
    ("worst", "Lowest agreement"),
    ("texts", "Scores per text"),
    ("operations", "Operations by endnote type"),
    ("confusion", "Confusion of endnote types"),
    ("subtitles", "Subtitle metrics"),
    ("problems", "Failures and skipped files"),
    ("settings", "Settings and signature"),
)

MAX_DOTS = 100  # the per-pair dot plot is drawn for corpora of at most this many pairs
MAX_WORST = 10
HIST_BIN = 0.05


def _bootstrap_group(
    name: str, sf_stats: dict[str, tuple[float, float]], sfb_stats: dict[str, tuple[float, float]], seed: int
) -> dict[str, Any]:
    group: dict[str, Any] = {"name": name, "pooled": name == "all pairs"}
    for key, st in ((SF, sf_stats), (SF_B, sfb_stats)):
        i = bootstrap_over_texts(st, resamples=BOOTSTRAP_RESAMPLES, seed=seed)
        group["n_texts"] = i.n_texts
        group[key] = {
            "exact": fmt_exact(i.estimate),
            "shown": fmt_score(i.estimate),
            "interval": fmt_interval(i.low, i.high) or i.note,
        }
    return group


def histogram(lights: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """Geometry of the SVG histogram of pooled S_f and S_f^B over pairs (bins of :data:`HIST_BIN`)."""
    series = [[float(r[k]) for r in lights if r.get(k) is not None and math.isfinite(float(r[k]))] for k in (SF, SF_B)]
    if not any(series):
        return None
    low = max(-1.0, math.floor(min(min(s) for s in series if s) / HIST_BIN) * HIST_BIN)
    n_bins = max(1, round((1.0 - low) / HIST_BIN))
    counts = np.zeros((2, n_bins), dtype=int)
    outside = 0
    for k, values in enumerate(series):
        for v in values:
            b = min(n_bins - 1, int((v - low) / HIST_BIN))
            outside += b < 0
            counts[k, max(b, 0)] += 1
    left, top, plot_w, plot_h = 50, 10, 520, 160
    bottom, slot = top + plot_h, plot_w / n_bins
    peak = max(int(counts.max()), 1)
    colours = plots.OKABE_ITO[:2]
    bars = []
    for k in range(2):
        for b in range(n_bins):
            n = int(counts[k, b])
            if not n:
                continue
            h = round(plot_h * n / peak, 1)
            lo = low + b * HIST_BIN
            tip = f"{('S_f', 'S_f^B')[k]} in [{lo:.2f}, {lo + HIST_BIN:.2f}): {n}"
            bars.append(
                {
                    "x": round(left + b * slot + k * slot / 2, 1),
                    "y": round(bottom - h, 1),
                    "w": round(slot / 2, 1),
                    "h": h,
                    "colour": colours[k],
                    "tip": tip,
                }
            )
    step = max(1, math.ceil(n_bins / 10))
    ticks = [{"x": round(left + b * slot, 1), "label": f"{low + b * HIST_BIN:.2f}"} for b in range(0, n_bins + 1, step)]
    return {
        "bars": bars,
        "ticks": ticks,
        "left": left,
        "right": left + plot_w,
        "top": top,
        "bottom": bottom,
        "width": left + plot_w + 80,
        "height": bottom + 40,
        "top_count": peak,
        "bin": HIST_BIN,
        "colours": colours,
        "outside": outside,
    }


def _shown_row(r: Mapping[str, Any], link: str | None) -> dict[str, Any]:
    """A pair's row of the entry table (pooled scores as shown)."""
    return {
        "text": r["text"],
        "pair": f"{r['annotator_a']} vs {r['annotator_b']}",
        "link": link,
        "failed": not r.get("ok"),
        "error": r.get("error") or "",
        "n_tokens": fmt_count(r.get("n_tokens")),
        SF: fmt_score(r.get(SF)),
        SF_B: fmt_score(r.get(SF_B)),
        KAPPA_SF: fmt_score(r.get(KAPPA_SF)),
        KAPPA_SF_B: fmt_score(r.get(KAPPA_SF_B)),
        "cost": fmt_count(r.get("cost")),
        "edits": fmt_count(r.get("edits")),
        "mismatches": r.get("mismatches", 0),
    }


class _Figures:
    """Corpus-level figure data summed in one pass over the results: operations by type pair,
    the confusion matrix (when every pair has one over the same types), the schemes, the pooled
    kappa intervals of the dot plot, and the subtitle metrics pooled over texts."""

    def __init__(self, outcome: RunOutcome, dots_wanted: bool) -> None:
        self.operations: Counter[tuple[str, str, str]] = Counter()
        self.confusion: np.ndarray | None = None
        self.confusion_ok = True
        self.schemes: set[tuple[str, str, str]] = set()
        self.layers: set[str] = set()  # the layers the pairs compared (a DISRPT run: edu or connective)
        self.symbols: list[str] = []
        self.kappa_intervals: dict[tuple[str, str, str], tuple[float | None, float | None]] = {}
        n = 0
        for r in outcome.results:
            if not r.get("ok") or r["compare"].get(SF) is None:
                continue
            n += 1
            self._add(r, dots_wanted)
        self.confusion_ok = self.confusion_ok and n >= 2 and len(self.schemes) == 1

    def _add(self, r: Mapping[str, Any], dots_wanted: bool) -> None:
        scheme = r["compare"]["scheme"]
        self.schemes.add((scheme["name"], scheme["digest"], " ".join(scheme["symbols"][1:])))
        if r["compare"].get("layer"):
            self.layers.add(str(r["compare"]["layer"]))
        self.symbols = self.symbols or list(scheme["symbols"])
        fig = plots.figure_data(r)
        for ta, tb, op, count in fig["operations"]:
            self.operations[(ta, tb, op)] += count
        if fig["confusion"] is None:
            self.confusion_ok = False
        elif self.confusion_ok:
            m = np.asarray(fig["confusion"])
            if self.confusion is None:
                self.confusion = m.copy()
            elif self.confusion.shape == m.shape:
                self.confusion += m
            else:
                self.confusion_ok = False
        if dots_wanted:
            low, high, _ = kappa_interval(r, POOLED, SF)
            self.kappa_intervals[(r["text"], r["annotator_a"], r["annotator_b"])] = (low, high)


class _Entry:
    """Everything the entry page needs, from the light records and one pass over the results."""

    def __init__(self, outdir: Path, outcome: RunOutcome, config: RunConfig) -> None:
        self.outdir = outdir
        self.outcome = outcome
        self.config = config
        self.lights = outcome.pairs
        self.scored = [r for r in self.lights if r.get("ok") and r.get(SF) is not None]
        self.with_page = set(texts_of(outcome))

    def link(self, r: Mapping[str, Any]) -> str | None:
        return page_link(r["text"]) if r["text"] in self.with_page else None

    def groups(self) -> list[dict[str, Any]]:
        """Per group (each annotator pair, then all pairs): pooled S_f and S_f^B with intervals."""
        stats: dict[str, tuple[dict[str, tuple[float, float]], dict[str, tuple[float, float]]]] = {}
        for r in self.scored:
            for group in (f"{r['annotator_a']} vs {r['annotator_b']}", "all pairs"):
                sf_stats, sfb_stats = stats.setdefault(group, ({}, {}))
                c0, n0 = sf_stats.get(r["text"], (0.0, 0.0))
                sf_stats[r["text"]] = (c0 + float(r["cost"]), n0 + float(r["n_tokens"]))
                c1, e1 = sfb_stats.get(r["text"], (0.0, 0.0))
                sfb_stats[r["text"]] = (c1 + float(r["cost"]), e1 + float(r["edits"]))
        order = sorted(stats, key=lambda g: g == "all pairs")  # the pairs first, then all pairs
        return [_bootstrap_group(g, *stats[g], seed=self.config.kappa.seed) for g in order]

    def cards(self, groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
        cards: list[dict[str, Any]] = []
        for g in groups:
            if g["pooled"]:
                for key, label in ((SF, SF_HTML), (SF_B, SFB_HTML)):
                    cards.append(
                        {
                            "label": Markup(f"{label}, all texts and pairs"),
                            "value": g[key]["shown"],
                            "ci": g[key]["interval"],
                        }
                    )
        n_fail = len(self.outcome.failures)
        cards += [
            {"label": "texts scored", "value": len({r["text"] for r in self.scored}), "ci": None},
            {"label": "annotator pairs scored", "value": len(self.scored), "ci": None},
            {"label": "failed pairs", "value": n_fail, "ci": None, "cls": "bad" if n_fail else "ok"},
            {"label": "transcript mismatches", "value": sum(r.get("mismatches", 0) for r in self.scored), "ci": None},
        ]
        for c in cards:
            c.setdefault("cls", "")
        return cards

    def worst(self) -> list[dict[str, Any]]:
        lowest = sorted(self.scored, key=lambda r: float(r[SF]))[:MAX_WORST]
        return [_shown_row(r, self.link(r)) for r in lowest]

    def dots(self, figures: _Figures) -> dict[str, Any] | None:
        if not self.scored or len(self.scored) > MAX_DOTS:
            return None
        return dot_plot(self.dot_entries(figures))

    def dot_entries(self, figures: _Figures) -> list[dict[str, Any]]:
        entries = []
        for r in self.scored:
            entry: dict[str, Any] = {
                "label": f"{r['text']}: {r['annotator_a']} vs {r['annotator_b']}",
                SF: r[SF],
                SF_B: r[SF_B],
            }
            if r.get(KAPPA_SF) is not None:
                low, high = figures.kappa_intervals.get((r["text"], r["annotator_a"], r["annotator_b"]), (None, None))
                k = r[KAPPA_SF]
                entry.update(
                    kappa_sf=k, kappa_sf_low=k if low is None else low, kappa_sf_high=k if high is None else high
                )
            entries.append(entry)
        return entries

    def scores_png(self, figures: _Figures) -> str | None:
        if self.config.report_plots != "all" or not self.scored or len(self.scored) > MAX_DOTS:
            return None
        png = plots.scores_png(self.dot_entries(figures), title="Scores per text and annotator pair (all speakers)")
        with atomic_path(self.outdir / PLOTS_DIR / "scores.png") as tmp:
            tmp.write_bytes(png)
        return f"{PLOTS_DIR}/scores.png"

    def subtitles(self) -> list[dict[str, Any]]:
        """Subtitle metrics: each pair's (for at most :data:`MAX_DOTS` such pairs; else on the
        text pages only), then pooled over texts (text ALL)."""
        from segagree.corpus.rows import subtitle_pooled_rows

        results = self.outcome.subtitle_results()
        cells = [cell for r in results for cell in subtitle_cells(r)] if len(results) <= MAX_DOTS else []
        pooled: dict[tuple[str, str], dict[str, Any]] = {}
        for row in subtitle_pooled_rows(self.outcome.subtitle_pooled):  # pooled once per run
            pair = (row["annotator_a"], row["annotator_b"])
            entry = pooled.setdefault(pair, {"text": POOLED, "annotator_a": pair[0], "annotator_b": pair[1]})
            entry.setdefault("subtitles", {})[row["measure"]] = row["value"]
        return cells + [cell for entry in pooled.values() for cell in subtitle_cells(entry)]

    def settings(self) -> dict[str, Any]:
        try:
            digest = self.config.digest
        except Exception as err:  # a scheme file gone since the run: still write the report
            digest = f"unavailable ({err})"
        return {
            "settings": [(k, fmt_setting(v)) for k, v in flatten_settings(self.config.to_dict())],
            "settings_digest": digest,
        }

    def panel(self) -> list[dict[str, Any]]:
        """``run --machine``: each machine's verdict, shown with a link to ``panel.html``."""
        results = (self.outcome.panel or {}).get("results") or {}
        return [{"machine": m, "verdict": r["verdict"]} for m, r in results.items()]

    def cues(self) -> dict[str, Any] | None:
        """``run --cues``: the pooled cue profile's pause and F0 reset rows, and its plot."""
        found = self.outcome.cue_profile
        if not found:
            return None
        shown = lambda v: "–" if v is None else f"{v:.3f}"  # noqa: E731
        table = [
            {
                "category": r["category"],
                "cue": r["cue"],
                "n": r["n"],
                "mean": shown(r["mean"]),
                "interval": "–" if r["low"] is None else f"[{r['low']:.3f}, {r['high']:.3f}]",
            }
            for r in found["rows"]
            if r["pair"] == "all pairs" and r["type"] == "all" and r["cue"] in ("pause", "f0_reset") and r["n"]
        ]
        return {**found, "table": table}

    def context(self) -> dict[str, Any]:
        """The template's variables, step by step."""
        figures = _Figures(self.outcome, dots_wanted=0 < len(self.scored) <= MAX_DOTS)
        groups = self.groups() if self.scored else []
        subtitles = self.subtitles()
        corpus_confusion = (
            confusion_rows(figures.confusion, figures.symbols)
            if figures.confusion_ok and figures.confusion is not None
            else None
        )
        return {
            "version": version(),
            "corpus": self.outcome.corpus,
            "config": self.config,
            "n_texts": len({r["text"] for r in self.scored}),
            "n_pairs": len(self.scored),
            "failures": self.outcome.failures,
            "skipped": self.outcome.corpus.skipped,
            "signatures": sorted({r["signature"] for r in self.scored if r.get("signature")}),
            "toc": [(a, t) for a, t in SECTIONS if a != "subtitles" or subtitles],
            "groups": groups,
            "cards": self.cards(groups),
            "resamples": BOOTSTRAP_RESAMPLES,
            "kappa_on": any(r.get(KAPPA_SF) is not None for r in self.scored),
            "hist": histogram(self.scored),
            "dots": self.dots(figures),
            "max_dots": MAX_DOTS,
            "scores_png": self.scores_png(figures),
            "worst": self.worst(),
            "table": [_shown_row(r, self.link(r)) for r in self.lights],
            "palette": type_palette(),
            "op_colours": list(plots.OP_COLOURS.items()),
            "corpus_ops": operation_bars([[*k, n] for k, n in figures.operations.items()], figures.symbols),
            "corpus_confusion": corpus_confusion,
            "subtitles": subtitles,
            "schemes": sorted(figures.schemes),
            # what the pairs compared, which a file's layers decide over the configured ones
            "schemes_used": sorted({name for name, _, _ in figures.schemes}),
            "layers_used": sorted(figures.layers),
            "panel": self.panel(),
            "cues": self.cues(),
            **self.settings(),
        }


def render_report(outdir: Path, outcome: RunOutcome, config: RunConfig, *, jobs: int = 1) -> str:
    """The entry page's HTML (see the module docstring)."""
    context = _Entry(Path(outdir), outcome, config).context()
    return template_environment().get_template(TEMPLATE).render(context)


def write_report(outdir: Path, outcome: RunOutcome, config: RunConfig, *, jobs: int = 1) -> Path:
    """Write the entry page ``OUTDIR/report.html`` (with ``report_plots = "all"`` and few pairs,
    also ``plots/scores.png``); return its path. The text pages are :func:`write_text_pages`'."""
    outdir = Path(outdir)
    page = render_report(outdir, outcome, config, jobs=jobs)
    path = outdir / REPORT_NAME
    write_text_atomic(path, page)
    return path
