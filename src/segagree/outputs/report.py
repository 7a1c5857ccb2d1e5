"""``OUTDIR/report.html``: one self-contained page about a corpus run.

The page is rendered from the Jinja2 template ``outputs/templates/report.html.j2`` (autoescaped;
change the look there, not here): inline CSS, no JavaScript, no external resources, so it can
be mailed or archived as a single file. This module prepares the numbers; the template draws.

Figures are light so that a corpus of many texts stays a small page (60 SBC documents: about
1.3 MB, against 13.5 MB of base64 PNGs before): the corpus-level dot plot of scores is inline
SVG; the per-text graphics (agreement along the text, operations by endnote type, confusion of
endnote types) are HTML tables coloured with CSS (cividis in steps of 0.1, exact counts in the
cells or tooltips), which a reader can scan, search and copy. With ``report_plots = "all"``
each text and pair also gets matplotlib PNGs under ``OUTDIR/plots/``, shown lazily from there
(linked, not embedded), and drawn again only when what they show changed. Sections:

* a header with the corpus, the texts and pairs scored, and the signature;
* **Corpus scores**: pooled S_f and S_f^B per annotator pair and over all pairs, with a seeded
  percentile bootstrap interval over texts (from each text's summed cost, tokens and edits);
* **Scores per text**: S_f, S_f^B, cost, operation counts and kappa (with its interval) per
  text, pair and speaker -- the same numbers as ``summary.csv`` -- and their dot plot;
* **Boundary agreement along the texts**: per text and pair, speaker x windows of tokens,
  colour = share of boundary positions where both annotators agree;
* **Operations by endnote type**: counts of operations by A's type and B's type, over the
  corpus and per pair;
* **Confusion of endnote types**: positions where both annotators put a boundary, A's type
  against B's type, over the corpus and per pair;
* **Transcript mismatches** the alignment bridged (the first :data:`MAX_MISMATCHES` per pair);
* **Subtitle metrics**, only when a result carries a ``subtitles`` dict (metric -> value);
* **Failures and skipped files**; **Settings and signature**.
"""

from __future__ import annotations

import json
import math
import re
import struct
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from markupsafe import Markup

from segagree.adapters.base import atomic_path, write_text_atomic
from segagree.metrics.kappa import KAPPA_NAMES
from segagree.metrics.sf import SF_NAMES
from segagree.outputs import plots
from segagree.outputs.summary import POOLED, kappa_values
from segagree.pipeline.config import RunConfig
from segagree.version import version

SF, SF_B = SF_NAMES  # S_f's and S_f^B's names, the keys of compare results
KAPPA_SF = KAPPA_NAMES[0]  # kappa of S_f's name

if TYPE_CHECKING:
    import jinja2

    from segagree.pipeline.results import RunOutcome

__all__ = ["BOOTSTRAP_RESAMPLES", "MAX_MISMATCHES", "PLOTS_DIR", "REPORT_NAME", "TEMPLATE", "write_report"]

REPORT_NAME = "report.html"
PLOTS_DIR = "plots"
PLOT_INDEX = ".index.json"  # png name -> the digest of what it was drawn from
TEMPLATE = "report.html.j2"
MAX_MISMATCHES = 50
BOOTSTRAP_RESAMPLES = 2000
Z95 = 1.959963984540054
SF_HTML = "S<sub>f</sub>"  # fixed markup, the only HTML that comes from Python
SFB_HTML = "S<sub>f</sub><sup>B</sup>"
OP_KEYS = ("matches", "substitutions", "transpositions", "insertions", "deletions")
SECTIONS = (
    ("corpus", "Corpus scores"),
    ("texts", "Scores per text"),
    ("agreement", "Boundary agreement along the texts"),
    ("operations", "Operations by endnote type"),
    ("confusion", "Confusion of endnote types"),
    ("mismatches", "Transcript mismatches"),
    ("subtitles", "Subtitle metrics"),
    ("problems", "Failures and skipped files"),
    ("settings", "Settings and signature"),
)


@cache
def _environment() -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("segagree.outputs", "templates"),
        autoescape=True,  # every value is escaped; markup only from the template
        undefined=jinja2.StrictUndefined,  # a misspelt name fails loudly, not as an empty string
        trim_blocks=False,
        keep_trailing_newline=True,
    )


def _slug(value: str) -> str:
    """A file-name-safe version of a text or annotator name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", value).strip("._") or "_"


def _png_size(png: bytes) -> tuple[int, int]:
    """(width, height) in pixels from a PNG's IHDR chunk."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    return struct.unpack(">II", png[16:24])


def _score(value: Any) -> str:
    """A score with three decimals ('—' when missing or not a number)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{float(value):.3f}"


def _count(value: Any) -> str:
    """A count or a cost: integers plainly, fractions with up to three decimals."""
    if value is None:
        return "—"
    number = float(value)
    if number.is_integer():
        return str(int(number))
    return f"{number:.3f}".rstrip("0").rstrip(".")


def _exact(value: Any) -> str:
    """A number as written into ``data-value`` attributes: exact (``repr`` of a float)."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        return str(value)
    if isinstance(value, int | np.integer):
        return str(int(value))
    return repr(float(value))


def _interval(low: float | None, high: float | None) -> str:
    return "" if low is None or high is None else f"[{low:.3f}, {high:.3f}]"


def _cell(values: Mapping[tuple[str, ...], Any], key: tuple[str, ...], fmt: str = "score") -> dict[str, Any]:
    """A table cell holding a summary value, tagged with its summary key and exact value."""
    value = values.get(key)
    shown = _score(value) if fmt == "score" else _count(value)
    if value is None:
        return {"key": None, "exact": None, "shown": shown}
    return {"key": "|".join(key), "exact": _exact(value), "shown": shown}


def _plain(shown: Any) -> dict[str, Any]:
    return {"key": None, "exact": None, "shown": str(shown)}


def _kappa_interval(result: Mapping[str, Any], speaker: str, target: str) -> tuple[float | None, float | None, str]:
    """(low, high, how) of kappa for one speaker (or ALL).

    ``how`` is ``"ci"`` for bounds the kappa computation gave, ``"se"`` for kappa ± 1.96 SE,
    else the reason kappa is undefined (or ``""``).
    """
    kappa = result.get("kappa")
    if not kappa:
        return None, None, ""
    raw = (kappa.get("pooled") if speaker == POOLED else (kappa.get("per_speaker") or {}).get(speaker)) or {}
    part = raw.get(target) or {}
    ci = part.get("ci")
    if isinstance(ci, Sequence) and len(ci) == 2 and None not in ci:
        return float(ci[0]), float(ci[1]), "ci"
    if part.get("ci_low") is not None and part.get("ci_high") is not None:
        return float(part["ci_low"]), float(part["ci_high"]), "ci"
    vals = kappa_values(kappa).get(speaker, {})
    k = vals.get(f"kappa_{target}", part.get("kappa"))
    se = next(
        (v for v in (vals.get(f"kappa_{target}_se"), part.get("kappa_se"), part.get("se")) if v is not None), None
    )
    if k is None:
        return None, None, str(part.get("reason") or "")
    if se is None:
        return None, None, ""
    return k - Z95 * se, k + Z95 * se, "se"


def _level(share: float) -> int:
    """The colour step (0..10) of a share in 0..1."""
    return min(10, max(0, int(round(float(share) * 10))))


def _palette() -> list[dict[str, Any]]:
    return [
        {"bg": plots.share_colour(i / 10), "ink": plots.share_ink(i / 10), "share": f"{i / 10:.1f}"} for i in range(11)
    ]


def _heat(fig: Mapping[str, Any]) -> dict[str, Any] | None:
    """Rows of the agreement heat map of one pair (None without tracks)."""
    entries = fig["agreement"]
    if not entries:
        return None
    window = int(fig["window"])
    n_win = max([1, *(len(e["bound"]) for e in entries)])
    labelled = n_win <= 24  # counts in the cells when they fit, as tooltips always
    rows = []
    for e in entries:
        ends = math.ceil(e["n"] / window)
        cells = []
        for col in range(n_win):
            if col >= ends or col >= len(e["bound"]):
                cells.append({"cls": "pe", "tip": "past the speaker's last token", "text": ""})
                continue
            agree, bound = int(e["agree"][col]), int(e["bound"][col])
            if not bound:
                cells.append({"cls": "nb", "tip": "no boundary", "text": ""})
                continue
            text = f"{agree}/{bound}"
            cells.append({"cls": f"q{_level(agree / bound)}", "tip": f"{text} agree", "text": text if labelled else ""})
        rows.append({"speaker": e["speaker"], "cells": cells})
    step = max(1, math.ceil(n_win / 12))
    ticks = [str(col * window) if col % step == 0 else "" for col in range(n_win)]
    return {"rows": rows, "ticks": ticks, "window": window}


def _label(symbol: str) -> str:
    return "none" if symbol == "none" else f"‘{symbol}’"


def _ops(operations: Iterable[Sequence[Any]], symbols: Sequence[str]) -> dict[str, Any]:
    """Bar rows of operations by (A's type, B's type, operation), in the PNG's order."""
    order = {s: i for i, s in enumerate(symbols)}
    items = sorted(
        ((str(ta), str(tb), str(op), int(n)) for ta, tb, op, n in operations),
        key=lambda t: (
            plots.OP_ORDER.index(t[2]) if t[2] in plots.OP_ORDER else 99,
            order.get(t[0], 99),
            order.get(t[1], 99),
        ),
    )
    top = max((n for *_, n in items), default=0)
    rows = [
        {"a": _label(ta), "b": _label(tb), "op": op, "n": n, "width": f"{100 * n / top:.1f}" if top else "0"}
        for ta, tb, op, n in items
    ]
    total = sum(n for *_, n in items)
    edits = sum(n for _, _, op, n in items if op != "match")
    return {"rows": rows, "total": total, "edits": edits}


def _confusion(matrix: Sequence[Sequence[int]], symbols: Sequence[str]) -> dict[str, Any]:
    m = np.asarray(matrix, dtype=np.int64)
    top = max(int(m.max()) if m.size else 0, 1)
    labels = [_label(s) for s in symbols[1:]]
    rows = [
        {
            "label": labels[i],
            "cells": [
                {"n": int(m[i, j]), "cls": f"q{_level(m[i, j] / top)}", "diag": i == j} for j in range(len(labels))
            ],
        }
        for i in range(len(labels))
    ]
    both, same = int(m.sum()), int(np.trace(m)) if m.size else 0
    share = f" ({same / both:.0%})" if both else ""
    caption = f"{both} positions with a boundary by both annotators, {same} of the same type{share}."
    return {"labels": labels, "rows": rows, "caption": caption}


def _dots(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Geometry of the SVG dot plot: S_f, S_f^B and kappa (with its interval) per text and pair."""
    values = [v for e in entries for v in (e.get(SF), e.get(SF_B), e.get("kappa_sf_low")) if v is not None]
    finite = [float(v) for v in values if math.isfinite(float(v))]
    lo = min([0.0, *finite])
    lo = math.floor(lo * 5) / 5  # a multiple of 0.2
    hi = 1.02
    longest = max((len(e["label"]) for e in entries), default=10)
    left = min(max(120, int(longest * 6.4) + 16), 340)
    width_plot = 460
    right = left + width_plot
    top, row = 10, 24
    bottom = top + row * max(len(entries), 1)

    def x(v: Any) -> float | None:
        if v is None or not math.isfinite(float(v)):
            return None
        return round(left + (float(v) - lo) / (hi - lo) * width_plot, 1)

    step = 0.1 if hi - lo <= 1.1 else 0.2
    ticks = []
    t = lo
    while t <= 1.0 + 1e-9:
        ticks.append({"x": x(t), "label": f"{t:.1f}"})
        t = round(t + step, 10)
    out = []
    for i, e in enumerate(entries):
        y = top + row * i + row / 2
        item: dict[str, Any] = {"label": e["label"], "y": y, SF: None, SF_B: None, "kappa": None}
        for key in (SF, SF_B):
            if x(e.get(key)) is not None:
                item[key] = {"x": x(e[key]), "shown": _score(e[key])}
        k = e.get(KAPPA_SF)
        if x(k) is not None:
            low = x(e.get("kappa_sf_low", k))
            high = x(e.get("kappa_sf_high", k))
            item["kappa"] = {
                "x": x(k),
                "low": low if low is not None else x(k),
                "high": high if high is not None else x(k),
                "shown": _score(k),
            }
        out.append(item)
    return {
        "entries": out,
        "ticks": ticks,
        "left": left,
        "right": right,
        "top": top,
        "bottom": bottom,
        "one": x(1.0),
        "width": right + 90,
        "height": bottom + 40,
        "colours": plots.OKABE_ITO[:3],
    }


class _Report:
    """Everything the template needs, prepared from a run's outcome."""

    def __init__(self, outdir: Path, outcome: RunOutcome, config: RunConfig, jobs: int) -> None:
        self.outdir = outdir
        self.outcome = outcome
        self.config = config
        self.jobs = jobs
        self.values: dict[tuple[str, ...], Any] = {}
        for row in outcome.rows:
            key = (row["text"], row["annotator_a"], row["annotator_b"], row["speaker"], row["metric"])
            self.values[key] = row["value"]
        ok = [r for r in outcome.results if r.get("ok")]
        # Subtitle pairs whose words do not align (machine output) have no S_f: only the subtitle table.
        self.results = [r for r in ok if r["compare"].get(SF) is not None]
        self.subtitle_only = [r for r in ok if r["compare"].get(SF) is None]
        self.figures = [plots.figure_data(r) for r in self.results]
        self.stems: list[str] = []
        used: set[str] = set()
        for result in self.results:
            stem = f"{_slug(result['text'])}__{_slug(result['annotator_a'])}_vs_{_slug(result['annotator_b'])}"
            while stem in used:  # two names that slug alike
                stem += "_"
            used.add(stem)
            self.stems.append(stem)

    @staticmethod
    def label(r: Mapping[str, Any]) -> str:
        return f"{r['text']}: {r['annotator_a']} vs {r['annotator_b']}"

    def signatures(self) -> list[str]:
        return sorted({r["compare"]["signature"] for r in self.results})

    # ------------------------------------------------------------------ corpus

    def groups(self) -> list[dict[str, Any]]:
        """Per group (each annotator pair, then all pairs): pooled S_f and S_f^B with intervals."""
        stats: dict[str, tuple[dict[str, tuple[float, float]], dict[str, tuple[float, float]]]] = {}

        def add(group: str, text: str, comp: Mapping[str, Any]) -> None:
            sf_stats, sfb_stats = stats.setdefault(group, ({}, {}))
            c0, n0 = sf_stats.get(text, (0.0, 0.0))
            sf_stats[text] = (c0 + float(comp["cost"]), n0 + float(comp["n_tokens"]))
            c1, e1 = sfb_stats.get(text, (0.0, 0.0))
            sfb_stats[text] = (c1 + float(comp["cost"]), e1 + float(comp["edits"]))

        for r in self.results:
            add(f"{r['annotator_a']} vs {r['annotator_b']}", r["text"], r["compare"])
        for r in self.results:
            add("all pairs", r["text"], r["compare"])
        seed = self.config.kappa.seed
        out = []
        for name, (sf_stats, sfb_stats) in stats.items():
            group: dict[str, Any] = {"name": name, "pooled": name == "all pairs"}
            for key, st in ((SF, sf_stats), (SF_B, sfb_stats)):
                i = plots.bootstrap_over_texts(st, resamples=BOOTSTRAP_RESAMPLES, seed=seed)
                group["n_texts"] = i.n_texts
                group[key] = {
                    "exact": _exact(i.estimate),
                    "shown": _score(i.estimate),
                    "interval": _interval(i.low, i.high) or i.note,
                }
            out.append(group)
        return out

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
        n_mis = sum(len(r["compare"].get("mismatches", [])) for r in self.results)
        cards += [
            {"label": "texts scored", "value": len({r["text"] for r in self.results}), "ci": None},
            {"label": "annotator pairs scored", "value": len(self.results), "ci": None},
            {"label": "failed pairs", "value": n_fail, "ci": None, "cls": "bad" if n_fail else "ok"},
            {"label": "transcript mismatches", "value": n_mis, "ci": None},
        ]
        for c in cards:
            c.setdefault("cls", "")
        return cards

    # ------------------------------------------------------------------ texts

    def score_rows(self, kappa_on: bool) -> tuple[list[dict[str, Any]], set[str]]:
        rows = []
        how_seen: set[str] = set()
        v = self.values
        for r in self.results:
            t, a, b = r["text"], r["annotator_a"], r["annotator_b"]
            per_speaker = r["compare"]["per_speaker"]
            for speaker in [POOLED, *per_speaker]:
                pooled = speaker == POOLED
                k = (t, a, b, speaker)
                row: dict[str, Any] = {
                    "pooled": pooled,
                    "text": t,
                    "pair": f"{a} vs {b}",
                    "speaker": speaker,
                    "n_tokens": _cell(v, (*k, "n_tokens"), "count"),
                    SF: _cell(v, (*k, SF)),
                    SF_B: _cell(v, (*k, SF_B)),
                    "cost": _cell(v, (*k, "cost"), "count"),
                    "edits": _cell(v, (*k, "edits"), "count"),
                }
                if kappa_on:
                    for target in (SF, SF_B):
                        low, high, how = _kappa_interval(r, speaker, target)
                        how_seen.add(how)
                        row[f"kappa_{target}"] = _cell(v, (*k, f"kappa_{target}"))
                        row[f"kappa_{target}_interval"] = _interval(low, high) or (
                            f"undefined: {how}" if how not in ("", "ci", "se") else ""
                        )
                ops = []
                for key in OP_KEYS:
                    if (*k, key) in v or not pooled:
                        ops.append(_cell(v, (*k, key), "count"))
                    else:  # the summary has no pooled operation counts: sum the speakers'
                        ops.append(_plain(sum(int(st.get(key) or 0) for st in per_speaker.values())))
                row["ops"] = ops
                rows.append(row)
        return rows, how_seen

    def dot_entries(self) -> list[dict[str, Any]]:
        entries = []
        for r in self.results:
            k = (r["text"], r["annotator_a"], r["annotator_b"], POOLED)
            entry: dict[str, Any] = {
                "label": self.label(r),
                SF: self.values.get((*k, SF)),
                SF_B: self.values.get((*k, SF_B)),
            }
            kappa = self.values.get((*k, KAPPA_SF))
            if kappa is not None:
                low, high, _ = _kappa_interval(r, POOLED, SF)
                entry.update(
                    kappa_sf=kappa,
                    kappa_sf_low=low if low is not None else kappa,
                    kappa_sf_high=high if high is not None else kappa,
                )
            entries.append(entry)
        return entries

    def other_metrics(self) -> dict[str, Any]:
        names = sorted({n for r in self.results for n in r["compare"].get("metrics", {})})
        rows = [
            {
                "text": r["text"],
                "pair": f"{r['annotator_a']} vs {r['annotator_b']}",
                "cells": [
                    _cell(self.values, (r["text"], r["annotator_a"], r["annotator_b"], POOLED, n)) for n in names
                ],
            }
            for r in self.results
        ]
        return {"names": names, "rows": rows}

    # ------------------------------------------------------------------ figures

    def corpus_operations(self) -> dict[str, Any]:
        total: Counter[tuple[str, str, str]] = Counter()
        for fig in self.figures:
            for ta, tb, op, n in fig["operations"]:
                total[(ta, tb, op)] += n
        symbols = self.results[0]["compare"]["scheme"]["symbols"] if self.results else []
        return _ops([[*k, n] for k, n in total.items()], symbols)

    def corpus_confusion(self) -> dict[str, Any] | None:
        """Summed confusion matrix, when every pair has one over the same endnote types."""
        schemes = {tuple(r["compare"]["scheme"]["symbols"]) for r in self.results}
        mats = [f["confusion"] for f in self.figures]
        if len(self.results) < 2 or len(schemes) != 1 or any(m is None for m in mats):
            return None
        return _confusion(np.sum([np.asarray(m) for m in mats], axis=0), next(iter(schemes)))

    def pngs(self) -> list[dict[str, Any]]:
        """With ``report_plots = "all"``: each pair's PNGs under plots/ (drawn again only when
        what they show changed), as the template's image references."""
        empty = {"agreement": None, "operations": None, "confusion": None}
        if self.config.report_plots != "all":
            return [dict(empty) for _ in self.results]
        folder = self.outdir / PLOTS_DIR
        index_path = folder / PLOT_INDEX
        try:
            index: dict[str, Any] = json.loads(index_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            index = {}
        todo = []
        wanted = []
        for result, fig, stem in zip(self.results, self.figures, self.stems, strict=True):
            digest = _digest([version(), self.label(result), result["compare"]["scheme"]["symbols"], fig])
            names = {kind: f"{stem}__{kind}.png" for kind in empty}
            wanted.append(names)
            if any(index.get(n, {}).get("digest") != digest or not (folder / n).is_file() for n in names.values()):
                todo.append((stem, names, digest, result, fig))
        jobs = min(self.jobs, len(todo)) if len(todo) >= 4 else 1  # a pool costs about a second
        args = [(self.label(r), r["compare"]["scheme"]["symbols"], fig) for _, _, _, r, fig in todo]
        if jobs > 1:
            from joblib import Parallel, delayed

            drawn = Parallel(n_jobs=jobs, backend="loky")(delayed(_pair_pngs)(*a) for a in args)
        else:
            drawn = [_pair_pngs(*a) for a in args]
        for (_, names, digest, _, _), pngs in zip(todo, drawn, strict=True):
            for kind, png in pngs.items():
                with atomic_path(folder / names[kind]) as tmp:
                    tmp.write_bytes(png)
                width, height = _png_size(png)
                index[names[kind]] = {"digest": digest, "width": width, "height": height}
            for kind in set(names) - set(pngs):
                index.pop(names[kind], None)
        if todo:
            folder.mkdir(parents=True, exist_ok=True)
            write_text_atomic(index_path, json.dumps(index, indent=1, sort_keys=True) + "\n")
        out = []
        for result, names in zip(self.results, wanted, strict=True):
            refs: dict[str, Any] = {}
            for kind, name in names.items():
                meta = index.get(name)
                refs[kind] = (
                    {
                        "src": f"{PLOTS_DIR}/{name}",
                        "width": meta["width"],
                        "height": meta["height"],
                        "alt": f"{kind} figure of {self.label(result)}",
                    }
                    if meta
                    else None
                )
            out.append(refs)
        return out

    # ------------------------------------------------------------------ page

    def context(self) -> dict[str, Any]:
        corpus = self.outcome.corpus
        kappa_on = any(r.get("kappa") for r in self.results)
        groups = self.groups() if self.results else []
        score_rows, how_seen = self.score_rows(kappa_on)
        kappa_note = (
            ("intervals as reported by the kappa computation" if "ci" in how_seen else "")
            + (" and " if {"ci", "se"} <= how_seen else "")
            + (
                "intervals κ ± 1.96 × its Monte Carlo standard error (the simulation's uncertainty, not the texts')"
                if "se" in how_seen
                else ""
            )
        )
        pngs = self.pngs()
        pairs = []
        for i, (r, fig, png) in enumerate(zip(self.results, self.figures, pngs, strict=True)):
            symbols = r["compare"]["scheme"]["symbols"]
            pairs.append(
                {
                    "anchor": f"pair-{i}",
                    "label": self.label(r),
                    "heat": _heat(fig),
                    "ops": _ops(fig["operations"], symbols),
                    "confusion": _confusion(fig["confusion"], symbols)
                    if fig["confusion"] is not None and len(symbols) >= 2
                    else None,
                    "png": png,
                }
            )
        mismatches = []
        for i, r in enumerate(self.results):
            found = r["compare"].get("mismatches") or []
            if found:
                mismatches.append(
                    {
                        "anchor": f"pair-{i}",
                        "label": self.label(r),
                        "key": f"{r['text']}|{r['annotator_a']}|{r['annotator_b']}",
                        "total": len(found),
                        "rows": [
                            {
                                "speaker": m.get("speaker", ""),
                                "kind": m.get("kind", ""),
                                "position_a": _count(m.get("position_a")),
                                "position_b": _count(m.get("position_b")),
                                "token_a": m.get("token_a", ""),
                                "token_b": m.get("token_b", ""),
                            }
                            for m in found[:MAX_MISMATCHES]
                        ],
                    }
                )
        subtitles = []
        # Per file, then pooled over texts (summary rows with text ALL).
        pooled: dict[tuple[str, str], dict[str, Any]] = {}
        for row in self.outcome.rows:
            if row["text"] == POOLED and row.get("layer") == "subtitle":
                entry = pooled.setdefault((row["annotator_a"], row["annotator_b"]), {"text": POOLED, "subtitles": {}})
                entry.update(annotator_a=row["annotator_a"], annotator_b=row["annotator_b"])
                entry["subtitles"][row["metric"]] = row["value"]
        for r in [*self.results, *self.subtitle_only, *pooled.values()]:
            subs = r.get("subtitles")
            if not isinstance(subs, Mapping):
                continue
            for metric, value in subs.items():
                if isinstance(value, bool) or not isinstance(value, int | float):
                    shown = str(value)
                elif isinstance(value, int):
                    shown = str(value)
                else:
                    shown = _score(value)
                subtitles.append(
                    {
                        "text": r["text"],
                        "pair": f"{r['annotator_a']} vs {r['annotator_b']}",
                        "metric": metric,
                        "key": f"{r['text']}|{r['annotator_a']}|{r['annotator_b']}|{metric}",
                        "shown": shown,
                    }
                )
        schemes = sorted(
            {
                (
                    r["compare"]["scheme"]["name"],
                    r["compare"]["scheme"]["digest"],
                    " ".join(r["compare"]["scheme"]["symbols"][1:]),
                )
                for r in self.results
            }
        )
        try:
            digest = self.config.digest
        except Exception as err:  # a scheme file gone since the run: still write the report
            digest = f"unavailable ({err})"
        scores_png = None
        if self.config.report_plots == "all" and self.results:
            scores = plots.scores_png(self.dot_entries(), title="Scores per text and annotator pair (all speakers)")
            with atomic_path(self.outdir / PLOTS_DIR / "scores.png") as tmp:
                tmp.write_bytes(scores)
            scores_png = f"{PLOTS_DIR}/scores.png"
        toc = [(a, t) for a, t in SECTIONS if a != "subtitles" or subtitles]
        return {
            "version": version(),
            "corpus": corpus,
            "config": self.config,
            "n_texts": len({r["text"] for r in self.results}),
            "pairs": pairs,
            "failures": self.outcome.failures,
            "skipped": corpus.skipped,
            "signatures": self.signatures(),
            "toc": toc,
            "groups": groups,
            "cards": self.cards(groups),
            "resamples": BOOTSTRAP_RESAMPLES,
            "kappa_on": kappa_on,
            "kappa_note": kappa_note,
            "score_rows": score_rows,
            "dots": _dots(self.dot_entries()),
            "scores_png": scores_png,
            "other_metrics": self.other_metrics(),
            "palette": _palette(),
            "op_colours": list(plots.OP_COLOURS.items()),
            "corpus_ops": self.corpus_operations(),
            "corpus_confusion": self.corpus_confusion(),
            "mismatches": mismatches,
            "max_mismatches": MAX_MISMATCHES,
            "subtitles": subtitles,
            "schemes": schemes,
            "settings": [(k, _setting(val)) for k, val in _flatten(self.config.to_dict())],
            "settings_digest": digest,
            "kappa_signatures": [
                (self.label(r), str(r["kappa"]["signature"]))
                for r in self.results
                if isinstance(r.get("kappa"), Mapping) and r["kappa"].get("signature")
            ],
        }


def _digest(payload: Any) -> str:
    import hashlib

    return hashlib.sha1(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _flatten(d: Mapping[str, Any], prefix: str = "") -> Iterable[tuple[str, Any]]:
    for key, value in d.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            yield from _flatten(value, f"{name}.")
        else:
            yield name, value


def _setting(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value) or "(none)"
    if isinstance(value, Mapping):
        return "(none)" if not value else str(value)
    return str(value)


def _pair_pngs(label: str, symbols: Sequence[str], fig: Mapping[str, Any]) -> dict[str, bytes]:
    """The matplotlib PNGs of one pair (a module-level function so worker processes can run it)."""
    out: dict[str, bytes] = {}
    if fig["agreement"]:
        out["agreement"] = plots.boundary_agreement_png(fig, title=f"Boundary agreement — {label}")
    out["operations"] = plots.operations_png(fig["operations"], symbols, title=f"Operations by endnote type — {label}")
    if fig["confusion"] is not None and len(symbols) >= 2:
        title = f"Endnote types where both put a boundary\n{label}"
        out["confusion"] = plots.confusion_png(np.asarray(fig["confusion"]), symbols, title=title)
    return out


def render_report(outdir: Path, outcome: RunOutcome, config: RunConfig, *, jobs: int = 1) -> str:
    """The report's HTML (see the module docstring); PNGs are written when the settings ask."""
    context = _Report(Path(outdir), outcome, config, jobs).context()
    return _environment().get_template(TEMPLATE).render(context)


def write_report(outdir: Path, outcome: RunOutcome, config: RunConfig, *, jobs: int = 1) -> Path:
    """Write ``OUTDIR/report.html`` (and, with ``report_plots = "all"``, its PNGs under
    ``OUTDIR/plots/``); return the report's path. ``jobs`` > 1 draws the PNGs in that many
    worker processes."""
    outdir = Path(outdir)
    page = render_report(outdir, outcome, config, jobs=jobs)
    path = outdir / REPORT_NAME
    write_text_atomic(path, page)
    return path
