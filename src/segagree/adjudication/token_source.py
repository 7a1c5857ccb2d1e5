"""The gold of a token review written on annotator A's own file (ELAN, TextGrid): only the
changed units edited.

The gold annotation has A's tokens with adjudicated boundaries. Written to ELAN from an ELAN file
(or to TextGrid from a TextGrid), it is A's file with, on each unit tier, only the units the
decisions changed replaced (:func:`segagree.formats.elan.replace_tier.replace_eaf_tier`,
:func:`segagree.formats.praat.replace_tier.replace_textgrid_tier`, which keeps the tier's pauses).
Every other tier (dependent tiers such as ``lex@CHI`` or ``xds@FA1``, tiers not reviewed, a
TextGrid's point tiers), the time slots, the header and every unit the decisions left as it was
stay the elements they were, values spelled as the annotator wrote them. A unit is identified by
its **source identity**, the reader's token columns ``tier`` and ``annotation_id`` (the annotation
its tokens came from; in a TextGrid, its tier and time span), never by its re-joined text: a gold
unit whose tokens and boundary are exactly one annotation's is that annotation, kept.

A changed unit (a boundary added, moved, removed or retyped inside or at its end) is written as
its tokens and its endnote (:func:`segagree.formats.endnotes.unit_value`, glued to the last word
where the file glues them) with the times of its first and last tokens; a token edge without a
time (a split inside an annotation, B's file not at hand) gets one interpolated by token count
across the annotation it lies in (``times-interpolated``, one line per unit). A changed unit that
starts where an annotation started continues that annotation (same id: its symbolic dependents
stay); every dependent annotation that no longer fits is listed by the replacer, one per line.

When this cannot be done (another output format, tokens without the source columns or read from
word tiers, speakers that are not tier names, a unit across two tiers, changed units that would
overlap on a tier) :func:`write_on_source` says why, and the caller writes the gold from the model.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from segagree.adjudication.steps import Step, replace_in_steps, units_said
from segagree.formats.elan.replace_tier import replace_eaf_tier
from segagree.formats.endnotes import unit_value
from segagree.formats.gold_spans import GoldSpan, Origin
from segagree.formats.praat.replace_tier import replace_textgrid_tier
from segagree.model import Document, Unit
from segagree.model.losses import LossReport

__all__ = ["OnSource", "write_on_source"]

_SOURCE_COLUMNS = ("tier", "annotation_id")


@dataclass
class _Placed:
    tier: str
    span: GoldSpan
    origin: Origin | None


@dataclass
class OnSource:
    """A gold written on A's file: the losses, and per tier what its units are."""

    losses: LossReport
    #: tier -> (units kept as written, changed units continuing an annotation, new units, A's
    #: annotations removed)
    tiers: dict[str, tuple[int, int, int, int]]

    def lines(self) -> list[str]:
        out = []
        for tier, (kept, changed, new, removed) in self.tiers.items():
            parts = [f"{kept} kept as written"] + [
                f"{n} {what}"
                for n, what in ((changed, "changed"), (new, "new"), (removed, "of A's removed (merged)"))
                if n
            ]
            out.append(f"  tier {tier!r}: {units_said(kept + changed + new)} ({', '.join(parts)})")
        return out


def write_on_source(
    doc_a: Document, gold: Document, layer: str, output: Path, target: str
) -> tuple[OnSource | None, str]:
    """Write ``gold`` (A's tokens, adjudicated ``layer``) on A's file (see the module docstring).
    Returns what was written, or None and why it could not be done."""
    why = _unusable(doc_a, layer, target)
    if why:
        return None, why
    placed, losses, why = _place_units(doc_a, gold, layer)
    if why:
        return None, why
    by_tier: dict[str, list[_Placed]] = {}
    for p in placed:
        by_tier.setdefault(p.tier, []).append(p)
    a_units = doc_a.units(layer)
    tier_col = _tiers_of(doc_a)
    a_start, a_end = doc_a.column("start").astype(float), doc_a.column("end").astype(float)
    held: dict[str, list[tuple[float, float]]] = {}
    for u in a_units:
        held.setdefault(str(tier_col[u.rows[0]]), []).append((float(a_start[u.rows[0]]), float(a_end[u.rows[-1]])))
    a_count = {tier: len(spans) for tier, spans in held.items()}
    changed = [
        tier
        for tier, units in by_tier.items()
        if len(units) != a_count.get(tier, 0) or not all(p.origin is not None and p.origin.kept for p in units)
    ]
    steps: list[Step] = []
    for tier in changed:
        units = sorted(by_tier[tier], key=lambda p: (p.span[0], p.span[1]))
        overlap = next((b for a, b in zip(units, units[1:], strict=False) if b.span[0] < a.span[1] - 1e-9), None)
        if overlap is not None:
            return None, f"changed units of tier {tier!r} would overlap at {overlap.span[0]:g} s"
        spans, origins = [p.span for p in units], [p.origin for p in units]
        steps.append(_step(doc_a.source_format, tier, spans, origins, held.get(tier, [])))
    losses.extend(replace_in_steps(Path(doc_a.source_path), output, steps))
    counts: dict[str, tuple[int, int, int, int]] = {}
    for tier, units in by_tier.items():
        kept = sum(p.origin is not None and p.origin.kept for p in units)
        continued = sum(p.origin is not None and not p.origin.kept for p in units)
        new = len(units) - kept - continued
        counts[tier] = (kept, continued, new, a_count.get(tier, 0) - kept - continued)
    return OnSource(losses, counts), ""


def _step(
    kind: str, tier: str, spans: Sequence[GoldSpan], origins: Sequence[Origin | None], held: list[tuple[float, float]]
) -> Step:
    # ``held``: A's units of the tier; what else the tier holds (pauses, blank or endnote-only
    # annotations the reader skipped) is kept where no gold unit overlaps it.
    if kind == "eaf":
        return lambda source, target: replace_eaf_tier(source, target, tier, spans, origins, held)
    return lambda source, target: replace_textgrid_tier(source, target, tier, spans, (), origins, held)


def _unusable(doc_a: Document, layer: str, target: str) -> str:
    """Why A's file cannot be the gold's base (empty when it can)."""
    if target != doc_a.source_format or target not in ("eaf", "textgrid"):
        return f"A's file is {doc_a.source_format or 'not a file'}, the gold is written as {target}"
    if not doc_a.source_path or not Path(doc_a.source_path).is_file():
        return "A's file is not at hand"
    if target == "eaf" and any(c not in doc_a.column_names() for c in _SOURCE_COLUMNS):
        return "A's tokens do not record the annotation they came from"
    if len(doc_a.layers) != 1 or layer not in doc_a.layers:
        return f"layer {layer!r} is not the one A's annotations are units of"
    words = doc_a.meta.get("word_tiers")
    if isinstance(words, dict) and words:
        # Tokens read from word annotations: a changed unit would need its words re-divided.
        return f"A's tokens come from word tiers ({', '.join(sorted(map(str, words.values())))})"
    if target == "textgrid" and (doc_a.meta.get("speaker_tier") or doc_a.meta.get("renamed_tiers")):
        return "A's speakers are not its tiers' names (a speaker tier, or renamed tiers)"
    return ""


def _tiers_of(doc_a: Document) -> np.ndarray:
    """Each token's source tier: the ELAN reader's ``tier`` column, else (TextGrid) its speaker."""
    if "tier" in doc_a.column_names():
        return doc_a.column("tier")
    return np.asarray(doc_a.column("speaker"), dtype=object)


def _place_units(doc_a: Document, gold: Document, layer: str) -> tuple[list[_Placed], LossReport, str]:
    """Each gold unit's tier, span, value and origin; the times interpolated (as losses)."""
    losses = LossReport()
    a_units = doc_a.units(layer)
    tier = _tiers_of(doc_a)
    aid = doc_a.column("annotation_id") if "annotation_id" in doc_a.column_names() else np.full(len(tier), "")
    a_start = doc_a.column("start").astype(float)
    a_end = doc_a.column("end").astype(float)
    starts, ends = gold.column("start").astype(float), gold.column("end").astype(float)
    text = gold.column("text")
    by_rows = {u.rows: u for u in a_units}
    owner = np.empty(len(tier), dtype=np.int64)
    for k, u in enumerate(a_units):
        owner[list(u.rows)] = k
    first_rows = {u.rows[0]: u for u in a_units}
    scheme = gold.layer(layer).scheme
    glued = doc_a.meta.get("endnote_style") == "glued"  # how the file spells endnotes (TextGrid)
    placed: list[_Placed] = []
    for g in gold.units(layer):
        t = str(tier[g.rows[0]])
        if any(str(tier[r]) != t for r in g.rows):
            return [], losses, f"a gold unit runs across tiers {sorted({str(tier[r]) for r in g.rows})}"
        a = by_rows.get(g.rows)
        if a is not None and a.boundary == g.boundary:
            s, e = float(a_start[g.rows[0]]), float(a_end[g.rows[-1]])
            if math.isnan(s) or math.isnan(e):
                return [], losses, f"an annotation of tier {t!r} has no time"
            placed.append(_Placed(t, (s, e, ""), Origin(s, e, kept=True, annotation_id=str(aid[g.rows[0]]))))
            continue
        s, s_known = _edge(starts, g.rows[0], True, a_units[owner[g.rows[0]]], a_start, a_end)
        e, e_known = _edge(ends, g.rows[-1], False, a_units[owner[g.rows[-1]]], a_start, a_end)
        value = unit_value([str(text[r]) for r in g.rows], g.boundary, scheme, glued=glued, alone=True)
        if not (s_known and e_known):
            losses.add(
                "times-interpolated",
                f"the unit {value!r} starts or ends inside an annotation; its time there is interpolated by "
                "token count across that annotation",
                where=f"tier {t!r} {s:g}-{e:g} s",
            )
        continued = first_rows.get(g.rows[0])
        origin = None
        if continued is not None:
            cs, ce = float(a_start[continued.rows[0]]), float(a_end[continued.rows[-1]])
            origin = Origin(cs, ce, kept=False, same_label=False, annotation_id=str(aid[g.rows[0]]))
        placed.append(_Placed(t, (s, e, value), origin))
    return placed, losses, ""


def _edge(
    times: np.ndarray, row: int, start: bool, a: Unit, a_start: np.ndarray, a_end: np.ndarray
) -> tuple[float, bool]:
    """A token's start (or end) time, and whether the file gave it; else interpolated by token
    count between the start and end of the annotation ``a`` it lies in."""
    if not math.isnan(times[row]):
        return float(times[row]), True
    lo, hi = float(a_start[a.rows[0]]), float(a_end[a.rows[-1]])
    k = a.rows.index(row) + (0 if start else 1)
    return round(lo + (hi - lo) * k / len(a.rows), 3), False
