"""What ``segagree panel -o DIR`` writes: ``panel.csv`` (the summary schema), ``panel.json`` and
``panel.html``, a self-contained page with the machines' changes drawn against the held-out
humans' (each with its interval) and a view per text."""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from segagree.files.atomic import check_output, write_text_atomic
from segagree.files.cells import safe_rows

#: The summary schema's columns (as every run's summary.csv), plus what a panel adds.
COLUMNS = ["text", "speaker", "annotators", "measure", "value", "note", "low", "high"]
ALL = "ALL"

# No script runs in the page, nothing is fetched: a strict policy (inline styles only).
_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def panel_label(result: Mapping[str, Any], joiner: str) -> str:
    """The panel's coefficient as named in rows and pages: ``pi_b`` / ``pi with B``, or ``gamma``."""
    if result["coefficient"] == result["measure"]:
        return str(result["coefficient"])
    measure = result["measure"] if joiner == "_" else str(result["measure"]).upper()
    return f"{result['coefficient']}{joiner}{measure}"


def panel_rows(result: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """One long-format row per number of the panel (pooled over texts: text and speaker ``ALL``)."""
    coef = panel_label(result, "_")
    humans = "+".join(result["humans"])

    def row(annotators: str, measure: str, value: Any, note: str = "", ci: Mapping[str, Any] | None = None) -> dict:
        ci = ci or {}
        return {
            "text": ALL,
            "speaker": ALL,
            "annotators": annotators,
            "measure": measure,
            "value": value,
            "note": note,
            "low": ci.get("low", ""),
            "high": ci.get("high", ""),
        }

    for machine, r in result["results"].items():
        added, replaced, cons = r["added"], r["replaced"], r["consistency"]
        yield row(humans, f"panel:{coef}:humans", added["humans"])
        yield row(f"{humans}+{machine}", f"panel:{coef}:with_machine", added["with_machine"])
        yield row(
            machine, f"panel:{coef}:added_change", added["change"], r.get("verdict_code", ""), added.get("interval")
        )
        yield row(machine, f"panel:{coef}:replaced_mean", replaced["mean"])
        yield row(machine, f"panel:{coef}:replaced_change", replaced["change"], "", replaced.get("interval"))
        yield row(
            machine,
            f"panel:{result['measure']}:consistency",
            cons["machine"],
            f"consistency rank {cons['rank']} of {cons['of']}",
        )
        rank = r["rank"]
        yield row(machine, "panel:rank", rank["rank"], f"rank {rank['rank']} of {rank['of']} by {rank['by']}")
        for human, value in cons["humans"].items():
            yield row(human, f"panel:{result['measure']}:consistency", value)
        for human, h in r["human_changes"]["per_human"].items():
            yield row(human, f"panel:{coef}:held_out_change", h["change"], "", h.get("interval"))
        chance = r.get("chance") or {}
        yield row(f"{humans}+{machine}", f"panel:{coef}:chance", chance.get("mean"), "", chance)
        yield row(f"{humans}+{machine}", f"panel:{coef}:chance_corrected", chance.get("corrected"))
        yield row(machine, "panel:verdict", "", r["verdict"])
    item_text = result.get("item_text") or {}
    for item, per in (result.get("per_item") or {}).items():
        text, speaker = _text_and_speaker(item, item_text.get(item))
        for machine, values in per.items():
            added = values["added"]
            place = {"text": text, "speaker": speaker}
            yield {**row(humans, f"panel:{coef}:humans", added["humans"]), **place}
            yield {**row(f"{humans}+{machine}", f"panel:{coef}:with_machine", added["with_machine"]), **place}
            yield {**row(machine, f"panel:{coef}:added_change", added["change"]), **place}


def _text_and_speaker(item: str, text: str | None) -> tuple[str, str]:
    """An item's text and speaker: ``TEXT [SPEAKER]`` for one speaker of a text of several, else
    the text (whose name may itself hold brackets: a document ``a [b]``), speaker ALL."""
    if text is None:
        text = item
    rest = item[len(text) :] if item.startswith(text) else ""
    if rest.startswith(" [") and rest.endswith("]"):
        return text, rest[2:-1]
    return text, ALL


def panel_csv(result: Mapping[str, Any]) -> str:
    """``panel.csv``: :func:`panel_rows` in the summary schema (no cell a spreadsheet would run)."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n", restval="")
    writer.writeheader()
    writer.writerows(safe_rows(panel_rows(result)))
    return buf.getvalue()


def panel_paths(outdir: Path) -> dict[str, Path]:
    """The files :func:`write_panel` writes into ``outdir``, by output name."""
    return {"panel_csv": outdir / "panel.csv", "panel_json": outdir / "panel.json", "panel_html": outdir / "panel.html"}


def write_panel(outdir: Path, result: Mapping[str, Any]) -> dict[str, str]:
    """Write ``panel.csv``, ``panel.json`` and ``panel.html`` into ``outdir``, each atomically."""
    paths = panel_paths(outdir)
    for path in paths.values():  # all three refused before any is written
        check_output(path)
    outdir.mkdir(parents=True, exist_ok=True)
    texts = {  # all three built before any is written: none fails half-way
        "panel_csv": panel_csv(result),
        "panel_json": json.dumps(result, indent=1, ensure_ascii=False, allow_nan=False) + "\n",
        "panel_html": panel_page(result),
    }
    for key, text in texts.items():
        write_text_atomic(paths[key], text)
    return {k: str(v) for k, v in paths.items()}


# --- the page -------------------------------------------------------------------------------------


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _num(value: Any, signed: bool = False) -> str:
    if value is None or value == "":
        return "–"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def _interval_cell(ci: Mapping[str, Any]) -> str:
    """An interval as ``[low, high]``, or why there is none (one item)."""
    if ci.get("low") is None and ci.get("reason"):
        return _e(f"none: {ci['reason']}")
    return f"[{_num(ci.get('low'), True)}, {_num(ci.get('high'), True)}]"


def changes_plot(result: Mapping[str, Any], width: int = 640) -> str:
    """An SVG dot plot: each held-out human's change and each machine's, with their intervals,
    on one axis with 0 marked; machines in orange, humans in grey."""
    entries: list[tuple[str, float, Any, Any, bool]] = []
    first = next(iter(result["results"].values()))
    for human, h in first["human_changes"]["per_human"].items():
        ci = h.get("interval") or {}
        if h["change"] is not None:  # two humans: no human is held out
            entries.append((f"{human} (held out)", h["change"], ci.get("low"), ci.get("high"), False))
    for machine, r in result["results"].items():
        ci = r["added"].get("interval") or {}
        if r["added"]["change"] is not None:
            entries.append((machine, r["added"]["change"], ci.get("low"), ci.get("high"), True))
    values = [v for _, c, lo, hi, _ in entries for v in (c, lo, hi) if isinstance(v, int | float)] + [0.0]
    lo_v, hi_v = min(values), max(values)
    pad = (hi_v - lo_v) * 0.08 or 0.05
    lo_v, hi_v = lo_v - pad, hi_v + pad
    left, right, row_h = 170, 20, 22
    height = row_h * len(entries) + 40

    def x(v: float) -> float:
        return left + (v - lo_v) / (hi_v - lo_v) * (width - left - right)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="change in the coefficient when each annotator joins the humans">',
        f'<line x1="{x(0):.1f}" y1="10" x2="{x(0):.1f}" y2="{height - 25}" stroke="#999" stroke-dasharray="3,3"/>',
    ]
    for i, (label, change, low, high, machine) in enumerate(entries):
        y = 20 + i * row_h
        colour = "#d95f02" if machine else "#555"
        parts.append(f'<text x="{left - 8}" y="{y + 4}" text-anchor="end" font-size="12">{_e(label)}</text>')
        if isinstance(low, int | float) and isinstance(high, int | float):
            parts.append(f'<line x1="{x(low):.1f}" y1="{y}" x2="{x(high):.1f}" y2="{y}" stroke="{colour}"/>')
        if isinstance(change, int | float):  # (undefined where the panel without one has too few members)
            parts.append(f'<circle cx="{x(change):.1f}" cy="{y}" r="4" fill="{colour}"/>')
    for v in (lo_v, 0.0, hi_v):
        parts.append(f'<text x="{x(v):.1f}" y="{height - 8}" text-anchor="middle" font-size="11">{v:+.3f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def panel_page(result: Mapping[str, Any]) -> str:
    """``panel.html``: the verdicts, the plot, the table of every machine, and the view per text."""
    coef = _e(panel_label(result, " with "))
    rows = []
    for machine, r in result["results"].items():
        ci = r["added"].get("interval") or {}
        rows.append(
            "<tr>"
            + "".join(
                f"<td>{c}</td>"
                for c in (
                    _e(machine),
                    _num(r["added"]["humans"]),
                    _num(r["added"]["with_machine"]),
                    _num(r["added"]["change"], True),
                    _interval_cell(ci),
                    _num(r["replaced"]["mean"]),
                    _num(r["replaced"]["change"], True),
                    _e(f"{r['rank']['rank']} of {r['rank']['of']} by {r['rank']['by']}"),
                    _num((r.get("chance") or {}).get("mean")),
                    _e(r["verdict"]),
                )
            )
            + "</tr>"
        )
    texts = []
    for item, per in (result.get("per_item") or {}).items():
        humans_value = next(iter(per.values()))["added"]["humans"] if per else None
        cells = "; ".join(f"{_e(m)}: {_num(v['added']['change'], True)}" for m, v in per.items())
        texts.append(f"<tr><td>{_e(item)}</td><td>{_num(humans_value)}</td><td>{cells}</td></tr>")
    notes = "".join(f"<li>{_e(n)}</li>" for n in result.get("notes") or [])
    verdicts = "".join(f"<li><b>{_e(m)}</b>: {_e(r['verdict'])}</li>" for m, r in result["results"].items())
    defs = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in (result.get("definitions") or {}).items())
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<title>segagree panel</title>
<style>body{{font-family:system-ui,sans-serif;margin:2em;max-width:70em}}table{{border-collapse:collapse}}
td,th{{border-bottom:1px solid #ddd;padding:.3em .6em;text-align:right}}td:first-child,th:first-child{{text-align:left}}
td:last-child{{text-align:left}}</style></head><body>
<h1>Is the segmenter as good as a person?</h1>
<p>Humans: {_e(", ".join(result["humans"]))}. Coefficient: {coef}. Bootstrap over items; chance from random
panels keeping each annotator's boundary counts.</p>
<h2>Verdicts</h2><ul>{verdicts}</ul>
<h2>Change when each annotator joins the humans</h2>
{changes_plot(result)}
<h2>Every number</h2>
<table><tr><th>machine</th><th>humans</th><th>with machine</th><th>change</th><th>interval</th>
<th>replaced mean</th><th>replaced change</th><th>rank</th><th>chance</th><th>verdict</th></tr>
{"".join(rows)}</table>
<h2>Per text (harder texts have lower human agreement)</h2>
<table><tr><th>text</th><th>humans</th><th>change with each machine</th></tr>{"".join(texts)}</table>
{f"<h2>Notes</h2><ul>{notes}</ul>" if notes else ""}
<h2>What the numbers mean</h2><dl>{defs}</dl>
</body></html>
"""
