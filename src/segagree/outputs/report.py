"""``OUTDIR/report.html``: one self-contained page about a corpus run.

The page has inline CSS, its figures embedded as base64 PNG (also saved under
``OUTDIR/plots/``), no JavaScript and no external resources, so it can be mailed or archived
as a single file. Sections:

* a header with the corpus, the texts and pairs scored, and the signature;
* **Corpus scores**: pooled S_f and S_f^B per annotator pair and over all pairs, with a seeded
  percentile bootstrap interval over texts (from each text's summed cost, tokens and edits);
* **Scores per text**: S_f, S_f^B, cost, operation counts and kappa (with its interval) per
  text, pair and speaker -- the same numbers as ``summary.csv``;
* **Boundary agreement along the texts**: a heat map per text and pair (speaker x windows of
  tokens, colour = share of boundary positions where both annotators agree);
* **Operations by endnote type**: counts of operations by A's type and B's type;
* **Confusion of endnote types**: positions where both annotators put a boundary, A's type
  against B's type;
* **Transcript mismatches** the alignment bridged (the first :data:`MAX_MISMATCHES` per pair);
* **Subtitle metrics**, only when a result carries a ``subtitles`` dict (metric -> value);
* **Failures and skipped files**; **Settings and signature**.
"""

from __future__ import annotations

import base64
import html
import math
import re
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from segagree import __version__
from segagree.adapters.base import atomic_path, write_text_atomic
from segagree.outputs import plots
from segagree.outputs.summary import POOLED, kappa_values
from segagree.pipeline.config import RunConfig

if TYPE_CHECKING:
    from segagree.pipeline.results import RunOutcome

__all__ = ["BOOTSTRAP_RESAMPLES", "MAX_MISMATCHES", "REPORT_NAME", "PLOTS_DIR", "write_report"]

REPORT_NAME = "report.html"
PLOTS_DIR = "plots"
MAX_MISMATCHES = 50
BOOTSTRAP_RESAMPLES = 2000
Z95 = 1.959963984540054
OP_KEYS = ("matches", "substitutions", "transpositions", "insertions", "deletions")

CSS = """
:root { --ink: #1d2330; --muted: #5b6475; --line: #d9dde5; --band: #f4f6f9; --accent: #00336f; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
header { background: var(--accent); color: #fff; padding: 1.4rem 2rem 1.2rem; }
header h1 { margin: 0 0 .3rem; font-size: 1.6rem; font-weight: 650; }
header p { margin: .15rem 0; color: #dfe6f2; }
header code { color: #fff; background: rgba(255,255,255,.12); padding: .05rem .35rem; border-radius: 3px; }
nav { display: flex; flex-wrap: wrap; gap: .3rem 1.1rem; padding: .6rem 2rem; border-bottom: 1px solid var(--line);
  background: var(--band); font-size: .9rem; }
nav a { color: var(--accent); text-decoration: none; white-space: nowrap; }
nav a:hover { text-decoration: underline; }
main { max-width: 1320px; margin: 0 auto; padding: .5rem 2rem 3rem; }
section { margin-top: 2.2rem; }
h2 { font-size: 1.3rem; border-bottom: 2px solid var(--accent); padding-bottom: .2rem; margin-bottom: .8rem; }
h3 { font-size: 1.05rem; margin: 1.6rem 0 .5rem; }
p.note, figcaption, .muted { color: var(--muted); font-size: .88rem; }
.cards { display: flex; flex-wrap: wrap; gap: .8rem; margin: 1rem 0 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .6rem .9rem; min-width: 9.5rem; background: #fff; }
.card .value { font-size: 1.45rem; font-weight: 650; font-variant-numeric: tabular-nums; }
.card .label { color: var(--muted); font-size: .8rem; }
.card .ci { color: var(--muted); font-size: .8rem; font-variant-numeric: tabular-nums; }
.tablewrap { overflow-x: auto; }
table { border-collapse: collapse; margin: .4rem 0 1rem; font-size: .88rem; }
th, td { padding: .28rem .5rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: var(--band); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.pooled td { font-weight: 600; border-top: 1px solid #aab2c0; }
tr.speaker td:first-child, tr.speaker td:nth-child(2) { color: var(--muted); }
td.ci { color: var(--muted); white-space: nowrap; font-variant-numeric: tabular-nums; font-size: .8rem; }
td { white-space: nowrap; }
td.error { white-space: normal; }
figure { margin: .6rem 0 1.4rem; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
figcaption { margin-top: .3rem; max-width: 60rem; }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .85em; }
.ok { color: #00613b; } .bad { color: #a33b00; font-weight: 600; }
footer { color: var(--muted); font-size: .8rem; text-align: center; padding: 1rem; border-top: 1px solid var(--line); }
"""


def esc(value: Any) -> str:
    """HTML-escape anything (as text, quotes included)."""
    return html.escape(str(value), quote=True)


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


@dataclass
class _Pair:
    """One successful task and what the report draws from it."""

    result: dict[str, Any]
    anchor: str
    stem: str

    @property
    def text(self) -> str:
        return self.result["text"]

    @property
    def a(self) -> str:
        return self.result["annotator_a"]

    @property
    def b(self) -> str:
        return self.result["annotator_b"]

    @property
    def label(self) -> str:
        return f"{self.text}: {self.a} vs {self.b}"


@dataclass
class _Builder:
    outdir: Path
    outcome: RunOutcome
    config: RunConfig
    values: dict[tuple[str, str, str, str, str], Any] = field(default_factory=dict)
    pairs: list[_Pair] = field(default_factory=list)
    plots_written: list[Path] = field(default_factory=list)
    jobs: int = 1
    rendered: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for row in self.outcome.rows:
            key = (row["text"], row["annotator_a"], row["annotator_b"], row["speaker"], row["metric"])
            self.values[key] = row["value"]
        used: set[str] = set()
        for i, result in enumerate(r for r in self.outcome.results if r.get("ok")):
            stem = f"{_slug(result['text'])}__{_slug(result['annotator_a'])}_vs_{_slug(result['annotator_b'])}"
            while stem in used:  # two names that slug alike
                stem += "_"
            used.add(stem)
            self.pairs.append(_Pair(result, f"pair-{i}", stem))
        # The per-pair figures dominate the report's cost: render them up front, in parallel.
        jobs = min(self.jobs, len(self.pairs))
        if jobs > 1:
            from joblib import Parallel, delayed

            figures = Parallel(n_jobs=jobs, backend="loky")(
                delayed(_pair_figures)(p.result, p.label) for p in self.pairs
            )
        else:
            figures = [_pair_figures(p.result, p.label) for p in self.pairs]
        self.rendered = {p.stem: f for p, f in zip(self.pairs, figures, strict=True)}

    # ------------------------------------------------------------------ helpers

    def figure(self, png: bytes, name: str, alt: str, caption: str) -> str:
        """Save ``png`` under plots/ and return a <figure> embedding it."""
        path = self.outdir / PLOTS_DIR / name
        with atomic_path(path) as tmp:
            tmp.write_bytes(png)
        self.plots_written.append(path)
        width, height = _png_size(png)
        data = base64.b64encode(png).decode("ascii")
        return (
            f'<figure><img src="data:image/png;base64,{data}" width="{width}" height="{height}" '
            f'alt="{esc(alt)}"><figcaption>{caption} <span class="mono">({esc(PLOTS_DIR + "/" + name)})</span>'
            "</figcaption></figure>"
        )

    def cell(self, pair: _Pair, speaker: str, metric: str, fmt: str = "score") -> str:
        """A table cell holding a summary value, tagged with its summary key and exact value."""
        value = self.values.get((pair.text, pair.a, pair.b, speaker, metric))
        shown = _score(value) if fmt == "score" else _count(value)
        if value is None:
            return f'<td class="num">{shown}</td>'
        key = "|".join((pair.text, pair.a, pair.b, speaker, metric))
        return f'<td class="num" data-key="{esc(key)}" data-value="{esc(_exact(value))}">{shown}</td>'

    def kappa_interval(self, pair: _Pair, speaker: str, target: str) -> tuple[float | None, float | None, str]:
        """(low, high, how) of kappa for one speaker (or ALL).

        ``how`` is ``"ci"`` for bounds the kappa computation gave, ``"se"`` for kappa ± 1.96 SE,
        else the reason kappa is undefined (or ``""``).
        """
        kappa = pair.result.get("kappa")
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

    def signatures(self) -> list[str]:
        return sorted({p.result["compare"]["signature"] for p in self.pairs})

    # ------------------------------------------------------------------ sections

    def header(self) -> str:
        corpus = self.outcome.corpus
        n_texts = len({p.text for p in self.pairs})
        sigs = self.signatures()
        sig_html = ", ".join(f"<code>{esc(s)}</code>" for s in sigs) or "<code>—</code>"
        scheme = esc(self.config.scheme)
        return (
            "<header><h1>Segmentation agreement report</h1>"
            f"<p>Corpus <code>{esc(corpus.root)}</code> ({esc(corpus.layout)} layout): "
            f"{n_texts} text{'s' if n_texts != 1 else ''} scored, {len(self.pairs)} annotator "
            f"pair{'s' if len(self.pairs) != 1 else ''}, {len(self.outcome.failures)} failed, "
            f"{len(corpus.skipped)} skipped.</p>"
            f"<p>Scheme <code>{scheme}</code>, layer <code>{esc(self.config.layer)}</code>, "
            f"mode <code>{esc(self.config.mode)}</code>, transpositions "
            f"<code>{'on' if self.config.transpositions else 'off'}</code>, kappa "
            f"<code>{'on' if self.config.kappa.enabled else 'off'}</code>.</p>"
            f"<p>Signature {sig_html}</p></header>"
        )

    def corpus_stats(self) -> list[tuple[str, dict[str, tuple[float, float]], dict[str, tuple[float, float]]]]:
        """Per group (each annotator pair, then all pairs): text -> (cost, tokens), text -> (cost, edits)."""
        groups: dict[str, tuple[dict[str, tuple[float, float]], dict[str, tuple[float, float]]]] = {}

        def add(group: str, text: str, comp: Mapping[str, Any]) -> None:
            sf_stats, sfb_stats = groups.setdefault(group, ({}, {}))
            c0, n0 = sf_stats.get(text, (0.0, 0.0))
            sf_stats[text] = (c0 + float(comp["cost"]), n0 + float(comp["n_tokens"]))
            c1, e1 = sfb_stats.get(text, (0.0, 0.0))
            sfb_stats[text] = (c1 + float(comp["cost"]), e1 + float(comp["edits"]))

        for p in self.pairs:
            add(f"{p.a} vs {p.b}", p.text, p.result["compare"])
        for p in self.pairs:
            add("all pairs", p.text, p.result["compare"])
        return [(g, s, b) for g, (s, b) in groups.items()]

    def section_corpus(self) -> str:
        groups = self.corpus_stats()
        seed = self.config.kappa.seed
        parts = ['<section id="corpus"><h2>Corpus scores</h2>']
        if not groups:
            parts.append("<p>No pair was scored.</p></section>")
            return "".join(parts)
        rows = []
        cards = []
        for name, sf_stats, sfb_stats in groups:
            sf_i = plots.bootstrap_over_texts(sf_stats, resamples=BOOTSTRAP_RESAMPLES, seed=seed)
            sfb_i = plots.bootstrap_over_texts(sfb_stats, resamples=BOOTSTRAP_RESAMPLES, seed=seed)
            cls = ' class="pooled"' if name == "all pairs" else ""
            rows.append(
                f'<tr{cls}><td>{esc(name)}</td><td class="num">{sf_i.n_texts}</td>'
                f'<td class="num" data-corpus="{esc(name)}|sf" data-value="{_exact(sf_i.estimate)}">'
                f"{_score(sf_i.estimate)}</td>"
                f'<td class="ci">{esc(_interval(sf_i.low, sf_i.high) or sf_i.note)}</td>'
                f'<td class="num" data-corpus="{esc(name)}|sf_b" data-value="{_exact(sfb_i.estimate)}">'
                f"{_score(sfb_i.estimate)}</td>"
                f'<td class="ci">{esc(_interval(sfb_i.low, sfb_i.high) or sfb_i.note)}</td></tr>'
            )
            if name == "all pairs":
                for label, interval in (
                    ("S<sub>f</sub>, all texts and pairs", sf_i),
                    ("S<sub>f</sub><sup>B</sup>, all texts and pairs", sfb_i),
                ):
                    cards.append(
                        f'<div class="card"><div class="label">{label}</div>'
                        f'<div class="value">{_score(interval.estimate)}</div>'
                        f'<div class="ci">{esc(_interval(interval.low, interval.high) or interval.note)}</div></div>'
                    )
        cards.append(
            f'<div class="card"><div class="label">texts scored</div>'
            f'<div class="value">{len({p.text for p in self.pairs})}</div></div>'
        )
        cards.append(
            f'<div class="card"><div class="label">annotator pairs scored</div>'
            f'<div class="value">{len(self.pairs)}</div></div>'
        )
        n_fail = len(self.outcome.failures)
        cards.append(
            f'<div class="card"><div class="label">failed pairs</div>'
            f'<div class="value {"bad" if n_fail else "ok"}">{n_fail}</div></div>'
        )
        n_mis = sum(len(p.result["compare"].get("mismatches", [])) for p in self.pairs)
        cards.append(
            f'<div class="card"><div class="label">transcript mismatches</div><div class="value">{n_mis}</div></div>'
        )
        parts.append(f'<div class="cards">{"".join(cards)}</div>')
        parts.append(
            '<div class="tablewrap"><table><thead><tr><th>annotators</th><th class="num">texts</th>'
            '<th class="num">S<sub>f</sub></th><th>95% interval</th><th class="num">S<sub>f</sub><sup>B</sup></th>'
            f"<th>95% interval</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        )
        parts.append(
            '<p class="note">Pooled scores come from summed statistics: S<sub>f</sub> = 1 − Σcost / Σtokens and '
            "S<sub>f</sub><sup>B</sup> = 1 − Σcost / Σedits over texts (and speakers), never from averaged "
            f"scores. Intervals: percentile bootstrap over texts ({BOOTSTRAP_RESAMPLES} resamples of the texts "
            f"with replacement, seed {seed}, <code>segagree.metrics.fleiss.bootstrap_ci</code>) of each text's "
            "summed cost, tokens and edits; they show how much the pooled score depends on which texts were annotated. "
            "A corpus of a single text has no interval.</p></section>"
        )
        return "".join(parts)

    def section_texts(self) -> str:
        parts = ['<section id="texts"><h2>Scores per text</h2>']
        if not self.pairs:
            parts.append("<p>No pair was scored.</p></section>")
            return "".join(parts)
        kappa_on = any(p.result.get("kappa") for p in self.pairs)
        head = (
            '<tr><th>text</th><th>annotators</th><th>speaker</th><th class="num">tokens</th>'
            '<th class="num">S<sub>f</sub></th><th class="num">S<sub>f</sub><sup>B</sup></th>'
        )
        if kappa_on:
            head += (
                '<th class="num">κ(S<sub>f</sub>)</th><th>interval</th>'
                '<th class="num">κ(S<sub>f</sub><sup>B</sup>)</th><th>interval</th>'
            )
        head += (
            '<th class="num">cost</th><th class="num">edits</th>'
            '<th class="num" title="matches">M</th><th class="num" title="substitutions">S</th>'
            '<th class="num" title="transpositions">T</th><th class="num" title="insertions">I</th>'
            '<th class="num" title="deletions">D</th></tr>'
        )
        body = []
        how_seen: set[str] = set()
        for p in self.pairs:
            per_speaker = p.result["compare"]["per_speaker"]
            for speaker in [POOLED, *per_speaker]:
                pooled = speaker == POOLED
                cells = [
                    f"<td>{esc(p.text)}</td><td>{esc(p.a)} vs {esc(p.b)}</td><td>all</td>"
                    if pooled
                    else f"<td></td><td></td><td>{esc(speaker)}</td>",
                    self.cell(p, speaker, "n_tokens", "count"),
                    self.cell(p, speaker, "sf"),
                    self.cell(p, speaker, "sf_b"),
                ]
                if kappa_on:
                    for target in ("sf", "sf_b"):
                        low, high, how = self.kappa_interval(p, speaker, target)
                        how_seen.add(how)
                        cells.append(self.cell(p, speaker, f"kappa_{target}"))
                        shown = _interval(low, high) or (f"undefined: {how}" if how not in ("", "ci", "se") else "")
                        cells.append(f'<td class="ci">{esc(shown)}</td>')
                cells += [self.cell(p, speaker, "cost", "count"), self.cell(p, speaker, "edits", "count")]
                for key in OP_KEYS:
                    if (p.text, p.a, p.b, speaker, key) in self.values or not pooled:
                        cells.append(self.cell(p, speaker, key, "count"))
                    else:  # the summary has no pooled operation counts: sum the speakers'
                        total = sum(int(st.get(key) or 0) for st in per_speaker.values())
                        cells.append(f'<td class="num">{total}</td>')
                body.append(f'<tr class="{"pooled" if pooled else "speaker"}">{"".join(cells)}</tr>')
        parts.append(f'<div class="tablewrap"><table><thead>{head}</thead><tbody>{"".join(body)}</tbody></table></div>')
        notes = [
            "Bold rows (speaker <i>all</i>) pool all speakers of a pair from summed statistics; the rows "
            "below are its speakers. "
            "M, S, T, I, D: matches, substitutions, transpositions, insertions and deletions of S<sub>f</sub>'s "
            "optimal alignment. The numbers are those of <code>summary.csv</code>."
        ]
        if not kappa_on:
            notes.append(
                "Kappa was not computed "
                + ("(disabled in the settings)." if not self.config.kappa.enabled else "for any pair.")
            )
        else:
            notes.append(
                f"κ: chance-corrected agreement against {self.config.kappa.sims} simulated "
                f"{esc(self.config.kappa.chance)} chance annotations; "
                + ("intervals as reported by the kappa computation" if "ci" in how_seen else "")
                + (" and " if {"ci", "se"} <= how_seen else "")
                + (
                    "intervals κ ± 1.96 × its Monte Carlo standard error (the simulation's uncertainty, not the texts')"
                    if "se" in how_seen
                    else ""
                )
                + "."
            )
        parts.append(f'<p class="note">{" ".join(notes)}</p>')
        entries = []
        for p in self.pairs:
            entry: dict[str, Any] = {
                "label": p.label,
                "sf": self.values.get((p.text, p.a, p.b, POOLED, "sf")),
                "sf_b": self.values.get((p.text, p.a, p.b, POOLED, "sf_b")),
            }
            k = self.values.get((p.text, p.a, p.b, POOLED, "kappa_sf"))
            if k is not None:
                low, high, _ = self.kappa_interval(p, POOLED, "sf")
                entry.update(
                    kappa_sf=k,
                    kappa_sf_low=low if low is not None else k,
                    kappa_sf_high=high if high is not None else k,
                )
            entries.append(entry)
        png = plots.scores_png(entries, title="Scores per text and annotator pair (all speakers)")
        parts.append(
            self.figure(
                png,
                "scores.png",
                "dot plot of S_f and S_f^B per text and pair",
                "S<sub>f</sub> (circles) and S<sub>f</sub><sup>B</sup> (squares) per text and pair"
                + (", κ(S<sub>f</sub>) (diamonds) with its interval" if kappa_on else "")
                + ".",
            )
        )
        parts.append(self.other_metrics())
        parts.append("</section>")
        return "".join(parts)

    def other_metrics(self) -> str:
        """Pooled values of the metrics other than S_f, when the settings asked for any."""
        names = sorted({n for p in self.pairs for n in p.result["compare"].get("metrics", {})})
        if not names:
            return ""
        head = "".join(f'<th class="num">{esc(n)}</th>' for n in names)
        body = []
        for p in self.pairs:
            cells = "".join(self.cell(p, POOLED, n) for n in names)
            body.append(f"<tr><td>{esc(p.text)}</td><td>{esc(p.a)} vs {esc(p.b)}</td>{cells}</tr>")
        return (
            '<h3>Other metrics (all speakers)</h3><div class="tablewrap"><table><thead><tr><th>text</th>'
            f"<th>annotators</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
        )

    def section_heatmaps(self) -> str:
        parts = [
            '<section id="agreement"><h2>Boundary agreement along the texts</h2>',
            '<p class="note">One row per speaker, along that speaker\'s tokens in windows; the colour is the '
            "share of the window's boundary positions (a boundary by either annotator) where both annotators "
            "put a boundary of the same type at the same token (dark: disagreement, yellow: agreement; the "
            "numbers are agreeing / boundary positions). White: no boundary in the window; hatched: past the "
            "speaker's last token. A transposition "
            "shows as disagreement at both positions. After Fournier &amp; Inkpen (2012), Figure 11.</p>",
        ]
        for p in self.pairs:
            parts.append(f'<h3 id="{p.anchor}-agreement">{esc(p.label)}</h3>')
            tracks = p.result.get("tracks") or {}
            if not tracks:
                parts.append('<p class="note">No token tracks in this result.</p>')
                continue
            png, window = self.rendered[p.stem]["agreement"]
            parts.append(
                self.figure(
                    png,
                    f"{p.stem}__agreement.png",
                    f"heat map of boundary agreement along {p.label}",
                    f"Windows of {window} tokens.",
                )
            )
        parts.append("</section>")
        return "".join(parts)

    def section_operations(self) -> str:
        parts = [
            '<section id="operations"><h2>Operations by endnote type</h2>',
            "<p class=\"note\">Every operation of S<sub>f</sub>'s alignment by annotator A's endnote type and "
            "annotator B's (<i>none</i>: no boundary), coloured by operation: matches, substitutions "
            "(different types at one position), transpositions (a boundary moved to a nearby token), "
            "insertions (only B) and deletions (only A). After Lai, Li &amp; Zhang (2023), Figure 6.</p>",
        ]
        for p in self.pairs:
            rows = p.result.get("operation_rows") or []
            counts = plots.operation_counts(rows)
            total = sum(n for (_, _, op), n in counts.items() if op != "match")
            png = self.rendered[p.stem]["operations"]
            parts.append(f'<h3 id="{p.anchor}-operations">{esc(p.label)}</h3>')
            parts.append(
                self.figure(
                    png,
                    f"{p.stem}__operations.png",
                    f"bar chart of operations by endnote type for {p.label}",
                    f"{len(rows)} operations, {total} of them not matches.",
                )
            )
        parts.append("</section>")
        return "".join(parts)

    def section_confusion(self) -> str:
        parts = [
            '<section id="confusion"><h2>Confusion of endnote types</h2>',
            '<p class="note">Positions where both annotators put a boundary (the pairs of S<sub>f</sub>\'s '
            "first pass): annotator A's type (rows) against annotator B's (columns). The diagonal (bold) "
            "is agreement on the type; the rest are substitutions.</p>",
        ]
        for p in self.pairs:
            symbols = p.result["compare"]["scheme"]["symbols"]
            tracks = p.result.get("tracks") or {}
            parts.append(f'<h3 id="{p.anchor}-confusion">{esc(p.label)}</h3>')
            if len(symbols) < 2 or not tracks:
                parts.append('<p class="note">No boundary types or token tracks in this result.</p>')
                continue
            png, matrix = self.rendered[p.stem]["confusion"]
            both = int(matrix.sum())
            same = int(matrix.trace())
            share = f" ({same / both:.0%})" if both else ""
            parts.append(
                self.figure(
                    png,
                    f"{p.stem}__confusion.png",
                    f"confusion matrix of endnote types for {p.label}",
                    f"{both} positions with a boundary by both annotators, {same} of the same type{share}.",
                )
            )
        parts.append("</section>")
        return "".join(parts)

    def section_mismatches(self) -> str:
        parts = [
            '<section id="mismatches"><h2>Transcript mismatches</h2>',
            '<p class="note">Tokens where the two transcripts differ, bridged by aligning them: '
            "<i>substitution</i> (different words at one place), <i>only_a</i> / <i>only_b</i> (a token in "
            "one transcript only). Positions are 0-based token indexes in each annotator's speaker stream. "
            f"At most {MAX_MISMATCHES} are listed per pair; all are in <code>summary.json</code>.</p>",
        ]
        any_listed = False
        for p in self.pairs:
            mismatches = p.result["compare"].get("mismatches") or []
            if not mismatches:
                continue
            any_listed = True
            shown = mismatches[:MAX_MISMATCHES]
            parts.append(
                f'<h3 id="{p.anchor}-mismatches">{esc(p.label)}: '
                f'<span data-mismatches="{esc(p.text)}|{esc(p.a)}|{esc(p.b)}">{len(mismatches)}</span> '
                f"mismatch{'es' if len(mismatches) != 1 else ''}"
                + (f", first {len(shown)} shown" if len(shown) < len(mismatches) else "")
                + "</h3>"
            )
            rows = "".join(
                f"<tr><td>{esc(m.get('speaker', ''))}</td><td>{esc(m.get('kind', ''))}</td>"
                f'<td class="num">{_count(m.get("position_a"))}</td><td class="num">{_count(m.get("position_b"))}</td>'
                f"<td>{esc(m.get('token_a', ''))}</td><td>{esc(m.get('token_b', ''))}</td></tr>"
                for m in shown
            )
            parts.append(
                '<div class="tablewrap"><table><thead><tr><th>speaker</th><th>kind</th><th class="num">position A</th>'
                '<th class="num">position B</th><th>token A</th><th>token B</th></tr></thead>'
                f"<tbody>{rows}</tbody></table></div>"
            )
        if not any_listed:
            parts.append("<p>No transcript mismatches: the annotators' transcripts are identical.</p>")
        parts.append("</section>")
        return "".join(parts)

    def section_subtitles(self) -> str:
        """Hook for subtitle runs: any result's ``subtitles`` dict (metric -> value) as a table."""
        withsubs = [p for p in self.pairs if isinstance(p.result.get("subtitles"), Mapping) and p.result["subtitles"]]
        if not withsubs:
            return ""
        rows = []
        for p in withsubs:
            for metric, value in p.result["subtitles"].items():
                if isinstance(value, bool) or not isinstance(value, int | float):
                    shown = esc(value)
                elif isinstance(value, int):
                    shown = str(value)
                else:
                    shown = _score(value)
                rows.append(
                    f"<tr><td>{esc(p.text)}</td><td>{esc(p.a)} vs {esc(p.b)}</td><td>{esc(metric)}</td>"
                    f'<td class="num" data-subtitle="{esc(p.text)}|{esc(p.a)}|{esc(p.b)}|{esc(metric)}">'
                    f"{shown}</td></tr>"
                )
        return (
            '<section id="subtitles"><h2>Subtitle metrics</h2><div class="tablewrap"><table><thead><tr><th>text</th>'
            '<th>annotators</th><th>metric</th><th class="num">value</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div></section>"
        )

    def section_problems(self) -> str:
        parts = ['<section id="problems"><h2>Failures and skipped files</h2>']
        failures = self.outcome.failures
        if failures:
            rows = "".join(
                f"<tr><td>{esc(r['text'])}</td><td>{esc(r['annotator_a'])}</td><td>{esc(r['annotator_b'])}</td>"
                f'<td class="bad error">{esc(r.get("error") or "unknown error")}</td></tr>'
                for r in failures
            )
            parts.append(
                f"<h3>{len(failures)} failed pair{'s' if len(failures) != 1 else ''}</h3>"
                '<div class="tablewrap"><table><thead><tr><th>text</th><th>annotator A</th><th>annotator B</th>'
                f"<th>error</th></tr></thead><tbody>{rows}</tbody></table></div>"
            )
        else:
            parts.append('<p class="ok">No pair failed.</p>')
        skipped = self.outcome.corpus.skipped
        if skipped:
            items = "".join(f"<li>{esc(s)}</li>" for s in skipped)
            parts.append(f"<h3>{len(skipped)} skipped</h3><ul>{items}</ul>")
        else:
            parts.append('<p class="ok">No file was skipped.</p>')
        parts.append("</section>")
        return "".join(parts)

    def section_settings(self) -> str:
        rows = []
        for key, value in _flatten(self.config.to_dict()):
            rows.append(f'<tr><td class="mono">{esc(key)}</td><td class="mono">{esc(_setting(value))}</td></tr>')
        schemes = sorted(
            {
                (
                    p.result["compare"]["scheme"]["name"],
                    p.result["compare"]["scheme"]["digest"],
                    " ".join(p.result["compare"]["scheme"]["symbols"][1:]),
                )
                for p in self.pairs
            }
        )
        scheme_rows = "".join(
            f'<tr><td class="mono">{esc(n)}</td><td class="mono">{esc(d)}</td><td class="mono">{esc(s)}</td></tr>'
            for n, d, s in schemes
        )
        sigs = "".join(f"<li><code>{esc(s)}</code></li>" for s in self.signatures()) or "<li>none (no pair scored)</li>"
        kappa_sigs = [
            (p.label, str(p.result["kappa"]["signature"]))
            for p in self.pairs
            if isinstance(p.result.get("kappa"), Mapping) and p.result["kappa"].get("signature")
        ]
        kappa_html = ""
        if kappa_sigs:
            kappa_rows = "".join(
                f'<tr><td>{esc(label)}</td><td class="mono">{esc(sig)}</td></tr>' for label, sig in kappa_sigs
            )
            kappa_html = (
                "<p>Kappa signatures (each pair's seed is derived from the run seed, the text and the pair):</p>"
                '<div class="tablewrap"><table><thead><tr><th>pair</th><th>kappa signature</th></tr></thead>'
                f"<tbody>{kappa_rows}</tbody></table></div>"
            )
        try:
            digest = self.config.digest
        except Exception as err:  # a scheme file gone since the run: still write the report
            digest = f"unavailable ({err})"
        return (
            '<section id="settings"><h2>Settings and signature</h2>'
            f"<p>Signature of the scores (quote it with the numbers):</p><ul>{sigs}</ul>"
            f"<p>Settings digest <code>{esc(digest)}</code> (the resume cache key part), segagree "
            f"<code>{esc(__version__)}</code>.</p>{kappa_html}"
            + (
                '<div class="tablewrap"><table><thead><tr><th>scheme</th><th>digest</th><th>endnote types</th></tr>'
                f"</thead><tbody>{scheme_rows}</tbody></table></div>"
                if schemes
                else ""
            )
            + '<div class="tablewrap"><table><thead><tr><th>setting</th><th>value</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div></section>"
        )

    # ------------------------------------------------------------------ page

    def render(self) -> str:
        sections = [
            self.section_corpus(),
            self.section_texts(),
            self.section_heatmaps(),
            self.section_operations(),
            self.section_confusion(),
            self.section_mismatches(),
            self.section_subtitles(),
            self.section_problems(),
            self.section_settings(),
        ]
        body = "".join(s for s in sections if s)
        toc = "".join(
            f'<a href="#{anchor}">{esc(title)}</a>'
            for anchor, title in re.findall(r'<section id="([^"]+)"><h2>([^<]+)</h2>', body)
        )
        title = f"segagree report: {self.outcome.corpus.root}"
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)}</title><style>{CSS}</style></head><body>"
            f"{self.header()}<nav>{toc}</nav><main>{body}</main>"
            f"<footer>segagree {esc(__version__)} · {esc(', '.join(self.signatures()))}</footer>"
            "</body></html>\n"
        )


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


def _pair_figures(result: Mapping[str, Any], label: str) -> dict[str, Any]:
    """The three figures of one pair (a module-level function so worker processes can run it)."""
    out: dict[str, Any] = {}
    tracks = result.get("tracks") or {}
    symbols = result["compare"]["scheme"]["symbols"]
    rows = result.get("operation_rows") or []
    if tracks:
        out["agreement"] = plots.boundary_agreement_png(tracks, title=f"Boundary agreement — {label}")
    out["operations"] = plots.operations_png(rows, symbols, title=f"Operations by endnote type — {label}")
    if len(symbols) >= 2 and tracks:
        matrix = plots.confusion_counts(tracks, symbols)
        title = f"Endnote types where both put a boundary\n{label}"
        out["confusion"] = (plots.confusion_png(matrix, symbols, title=title), matrix)
    return out


def write_report(outdir: Path, outcome: RunOutcome, config: RunConfig, *, jobs: int = 1) -> Path:
    """Write ``OUTDIR/report.html`` and its figures under ``OUTDIR/plots/``; return the report's path.

    ``jobs`` > 1 renders the per-pair figures in that many worker processes.
    """
    outdir = Path(outdir)
    builder = _Builder(outdir, outcome, config, jobs=jobs)
    page = builder.render()
    path = outdir / REPORT_NAME
    write_text_atomic(path, page)
    return path
