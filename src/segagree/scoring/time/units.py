"""Units in time: the input of time-based unitizing agreement (gamma, alpha-U, uα, ELAN's kappa).

Annotators who draw their own time spans share no token stream, so their annotations are read as
**units**: per annotator (and speaker) the start, end, category and text of each unit
(:class:`segagree.metrics.contract.UnitSet`). Sources:

* **one file per annotator** of any timed format segagree reads (ELAN, Praat, SRT, WebVTT, CHAT with
  bullets, Transcriber, EXMARaLDA, time tables); the annotator is the file stem, a unit is a unit of
  the Document's layer (``iu`` by default) with its time span, and the file's speakers (tiers) are
  scored each on their own and pooled;
* **one file with one tier per annotator** (``annotator_tiers=[...]``, or every unit tier of a file
  given alone): the tiers are read as the annotators (ELAN tiers by tier id, not participant);
* **a units table** (CSV/TSV) with the header ``annotator,start,end,category`` (optional
  ``speaker`` and ``text``; names case-insensitive, any order), or pygamma-agreement's headerless
  ``annotator,category,start,end``.

The category of a unit (``category=``): ``"label"`` its text as written, with its endnote; ``"endnote"``
its boundary type (the IU endnote ``,`` ``.`` ``?`` ``--`` or the unclassified ``;``); ``"none"`` no
category. The continuum is ``continuum=(start, end)``, by default ``[min(0, first start), last end]``
over every unit of every speaker. A unit without a time, with a reversed, NaN or infinite time, is an
error naming the file and the place. Units of one annotator may overlap; :func:`overlap_notes` says
where, for the measures that need a partition.

Readers skip blank annotations (ELAN) and units holding only an endnote; what a reader dropped is in
each Document's ``losses`` and is repeated in :attr:`TimedUnits.notes`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from segagree.errors import InputError, UsageError
from segagree.formats.endnotes import endnote_text
from segagree.metrics.contract import UnitSet
from segagree.model import BoundaryScheme, Document
from segagree.model.document import Unit
from segagree.scoring.time.categories import CATEGORY_MODES
from segagree.scoring.time.plan import TimePlan

__all__ = [
    "CATEGORY_MODES",
    "POOLED",
    "RawUnit",
    "TimedUnits",
    "check_unit",
    "UnitReading",
    "overlap_notes",
    "reader_notes",
    "units_from_documents",
]

POOLED = "ALL"  # the name of the pooled row (every speaker's statistics added)
SINGLE = ""  # the speaker name of a source with no speakers of its own (a table, one tier each)


@dataclass(frozen=True)
class RawUnit:
    """One unit as read: who drew it, which speaker, when, its category and its text; ``where``
    names the file and place for messages."""

    annotator: str
    speaker: str
    start: float
    end: float
    category: str | None
    text: str
    where: str
    recording: str = ""


@dataclass
class TimedUnits:
    """Every speaker's :class:`UnitSet` (in speaker order), the annotators, the continuum and
    notes (what readers dropped, overlapping units)."""

    annotators: list[str]
    speakers: dict[str, UnitSet]
    continuum: tuple[float, float]
    category: str
    notes: list[str] = field(default_factory=list)
    plan: TimePlan | None = None
    recordings: dict[str, tuple[str, str]] = field(default_factory=dict)  # item -> (recording, speaker)
    window: dict[str, Any] | None = None  # the time window and what it did to the units (see clip_to_window)

    def by_recording(self) -> dict[str, TimedUnits]:
        """One TimedUnits per recording (each a text of its own), or ``{"": self}`` without recordings."""
        if not any(rec for rec, _ in self.recordings.values()):
            return {"": self}
        out: dict[str, TimedUnits] = {}
        for key, us in self.speakers.items():
            rec, spk = self.recordings[key]
            part = out.setdefault(rec, TimedUnits(self.annotators, {}, us.continuum, self.category, [], self.plan))
            part.speakers[spk] = us
            part.recordings[spk] = ("", spk)
        for part in out.values():
            kept = [n for n in self.notes if not n.startswith(("speaker ", "recording "))]  # redone per part
            part.notes = kept + overlap_notes(part)
        return out

    @property
    def unit_counts(self) -> dict[str, int]:
        """Units per annotator over every speaker."""
        counts = dict.fromkeys(self.annotators, 0)
        for us in self.speakers.values():
            for i, n in enumerate(np.bincount(us.annotator, minlength=len(us.annotators)).tolist()):
                counts[us.annotators[i]] += n
        return counts

    def to_dict(self) -> dict[str, Any]:
        out = {
            "annotators": list(self.annotators),
            "speakers": list(self.speakers),
            "continuum": list(self.continuum),
            "category": self.category,
            "units": self.unit_counts,
            "notes": list(self.notes),
        }
        continua = {k: list(us.continuum) for k, us in self.speakers.items()}
        if any(tuple(c) != tuple(self.continuum) for c in continua.values()):
            out["continua"] = continua  # one per recording
        if self.window is not None:
            out["window"] = dict(self.window)
        if self.plan is not None:
            out["plan"] = self.plan.to_dict()
        return out


# --- checking times ---------------------------------------------------------------------------
def check_unit(unit: RawUnit) -> None:
    """Refuse a unit whose times cannot be a span of a recording."""
    for name, t in (("start", unit.start), ("end", unit.end)):
        if not math.isfinite(t):
            what = "no" if math.isnan(t) else "an infinite"
            raise InputError(
                f"the unit {unit.text[:40]!r} has {what} {name} time; time-based agreement needs every unit's "
                "start and end (finite seconds)",
                place=unit.where,
            )
    if unit.end < unit.start:
        raise InputError(
            f"the unit {unit.text[:40]!r} ends ({unit.end}) before it starts ({unit.start}); expected start <= end",
            place=unit.where,
        )


# --- from Documents ---------------------------------------------------------------------------
def _category(mode: str, label: str, code: int, scheme: BoundaryScheme) -> str | None:
    if mode == "none":
        return None
    if mode == "endnote":
        return scheme.symbol(code) if code else "none"
    return label


UNTIMED_MODES = ("skip", "refuse")


def untimed_units(doc: Document, layer: str | None = None) -> list[Unit]:
    """The units of a CHAT file that have no time at all (an utterance without a time bullet).

    In CHAT a bullet times one utterance; an utterance without one is not part of the next (unlike a
    subtitle line without an end, which runs on into the block's next line), so it is no unit in time.
    """
    if doc.source_format != "chat":
        return []
    starts, ends = doc.column("start"), doc.column("end")
    return [u for u in doc.units(layer) if math.isnan(float(starts[u.rows[0]])) and math.isnan(float(ends[u.rows[-1]]))]


def _untimed_lines(doc: Document, units: Sequence[Unit], shown: int = 3) -> str:
    """The first of ``units`` as written (CHAT's main tier line), for messages."""
    raw = doc.column("chat_raw") if "chat_raw" in doc.meta_columns() else None
    text = doc.column("text")
    lines = []
    for u in units[:shown]:
        line = str(raw[u.rows[0]]).splitlines()[0] if raw is not None and raw[u.rows[0]] else ""
        lines.append(line.replace("\t", " ") or f"{u.speaker}: {' '.join(str(text[r]) for r in u.rows)}")
    more = f" and {len(units) - shown} more" if len(units) > shown else ""
    return "; ".join(repr(x[:60]) for x in lines) + more


def untimed_note(doc: Document, layer: str | None = None) -> str | None:
    """The note listing a CHAT file's utterances without a time bullet (None: there are none)."""
    skipped = untimed_units(doc, layer)
    if not skipped:
        return None
    name = Path(doc.source_path).name if doc.source_path else doc.name
    return (
        f"{name}: {len(skipped)} utterances without a time bullet are skipped ({_untimed_lines(doc, skipped)}); "
        "--untimed refuse refuses such a file"
    )


def check_untimed(doc: Document, untimed: str, layer: str | None = None) -> None:
    """Refuse a CHAT file with utterances without a time bullet when ``untimed`` is ``refuse``."""
    if untimed not in UNTIMED_MODES:
        raise UsageError(f"untimed must be one of {UNTIMED_MODES}, not {untimed!r}")
    skipped = untimed_units(doc, layer)
    if skipped and untimed == "refuse":
        raise InputError(
            f"{len(skipped)} utterances have no time bullet ({_untimed_lines(doc, skipped)}); time-based agreement "
            "needs times (--untimed skip scores the timed utterances and lists these)",
            path=doc.source_path or doc.name,
        )


def _timed_runs(doc: Document, layer: str | None) -> list[list[Unit]]:
    """The layer's units grouped into units in time: a unit without an end time (a subtitle line
    inside a block) runs on into the next units of its speaker until one has an end time. CHAT
    utterances without any time are left out (:func:`untimed_units`)."""
    ends = doc.column("end")
    runs: list[list[Unit]] = []
    open_run: dict[str, list[Unit]] = {}
    skipped = {u.rows[0] for u in untimed_units(doc, layer)}
    for unit in doc.units(layer):
        if unit.rows[0] in skipped:
            continue
        run = open_run.setdefault(unit.speaker, [])
        run.append(unit)
        if not math.isnan(float(ends[unit.rows[-1]])):
            runs.append(open_run.pop(unit.speaker))
    runs.extend(r for r in open_run.values() if r)  # a speaker's last units without an end time
    runs.sort(key=lambda r: r[0].rows[0])
    return runs


def document_units(
    doc: Document, annotator: str | None, mode: str, layer: str | None = None, *, untimed: str = "skip"
) -> list[RawUnit]:
    """The units of a Document's layer as :class:`RawUnit` s.

    ``annotator`` None: every speaker (tier) of the document is an annotator (one tier per
    annotator); else every unit is that annotator's and keeps its speaker. The label is the unit's
    tokens joined by spaces, plus its endnote as a separate token (as the unit reads in ELAN or Praat);
    a unit without an end time joins the next ones up to one with an end (see :func:`_timed_runs`),
    and its category is then the last one's endnote. CHAT utterances without a time bullet are
    skipped (``untimed="skip"``, listed by :func:`reader_notes`) or refused (``"refuse"``).
    """
    check_untimed(doc, untimed, layer)
    scheme = doc.layer(layer).scheme
    text, starts, ends = doc.column("text"), doc.column("start"), doc.column("end")
    out: list[RawUnit] = []
    for i, run in enumerate(_timed_runs(doc, layer)):
        labels = []
        for unit in run:
            words = " ".join(str(text[r]) for r in unit.rows)
            note = endnote_text(unit.boundary, scheme) if unit.boundary else ""
            labels.append(f"{words} {note}" if note else words)
        label = " ".join(labels)
        first, last = run[0], run[-1]
        raw = RawUnit(
            annotator=first.speaker if annotator is None else annotator,
            speaker=SINGLE if annotator is None else first.speaker,
            start=float(starts[first.rows[0]]),
            end=float(ends[last.rows[-1]]),
            category=_category(mode, label, last.boundary, scheme),
            text=label,
            where=f"{doc.source_path or doc.name}: speaker {first.speaker!r}, unit {i + 1}",
        )
        check_unit(raw)
        out.append(raw)
    return out


def reader_notes(doc: Document) -> list[str]:
    """What the reader dropped that could have been a unit, or moved."""
    name = Path(doc.source_path).name if doc.source_path else doc.name
    notes = []
    blank = doc.meta.get("empty_annotations")
    if blank:
        notes.append(f"{name}: {blank} blank annotations are not read as units")
    dropped = doc.meta.get("dropped_units")
    if dropped:
        notes.append(f"{name}: {len(dropped)} annotations holding only an endnote are not read as units")
    untimed = untimed_note(doc)
    if untimed:
        notes.append(untimed)
    for item in doc.losses.notes:
        if item.kind == "dependent-tiers-read":
            notes.append(f"{name}: {item.message}; scored as tiers of their own (choose with --tier)")
    notes.extend(f"{name}: {line}" for line in doc.losses.scoring_lines())
    return notes


def units_from_documents(
    docs: Sequence[Document],
    *,
    one_tier_per_annotator: bool = False,
    category: str = "label",
    layer: str | None = None,
) -> tuple[list[RawUnit], list[str], list[str]]:
    """Units of Documents, their annotators in order, and notes.

    One Document per annotator (annotator = ``doc.annotator`` or its name, i.e. the file stem), or
    with ``one_tier_per_annotator`` Documents whose speakers are the annotators.
    """
    units: list[RawUnit] = []
    names: list[str] = []
    notes: list[str] = []
    for doc in docs:
        notes.extend(reader_notes(doc))
        if one_tier_per_annotator:
            units.extend(document_units(doc, None, category, layer))
            names.extend(doc.speakers)
            continue
        name = doc.annotator or doc.name
        if name in names:
            raise UsageError(
                f"two files give the annotator {name!r} (the annotator is the file stem); rename one of the files"
            )
        names.append(name)
        units.extend(document_units(doc, name, category, layer))
    # Files with one speaker each (one tier per file, named differently) hold one stream each.
    if not one_tier_per_annotator and all(len(d.speakers) <= 1 for d in docs):
        units = [RawUnit(u.annotator, SINGLE, u.start, u.end, u.category, u.text, u.where) for u in units]
    return units, list(dict.fromkeys(names)), notes


# --- building the UnitSets --------------------------------------------------------------------
def _order_annotators(found: Sequence[str], declared: Sequence[str] | None) -> list[str]:
    if not declared:
        return list(found)
    order = list(dict.fromkeys(a.strip() for a in declared if a.strip()))
    unknown = [a for a in found if a not in order]
    if unknown:
        raise UsageError(f"annotators {unknown} are in the data but not in --annotators {order}")
    return order


def default_continuum(units: Sequence[RawUnit]) -> tuple[float, float]:
    """``[min(0, first start), last end]`` (pygamma-agreement's default bounds)."""
    if not units:
        return (0.0, 0.0)
    return (min(0.0, min(u.start for u in units)), max(u.end for u in units))


def unit_set(
    units: Sequence[RawUnit], annotators: Sequence[str], continuum: tuple[float, float], name: str = ""
) -> UnitSet:
    """One speaker's UnitSet (the item ``name``): units sorted by annotator, start, end; categories in
    order of first appearance in that order."""
    index = {a: i for i, a in enumerate(annotators)}
    ordered = sorted(units, key=lambda u: (index[u.annotator], u.start, u.end))
    cats = list(dict.fromkeys(u.category for u in ordered if u.category is not None))
    cat_index = {c: i for i, c in enumerate(cats)}
    return UnitSet(
        annotators=tuple(annotators),
        categories=tuple(cats),
        annotator=np.asarray([index[u.annotator] for u in ordered], dtype=np.int64),
        start=np.asarray([u.start for u in ordered], dtype=float),
        end=np.asarray([u.end for u in ordered], dtype=float),
        category=np.asarray([-1 if u.category is None else cat_index[u.category] for u in ordered], dtype=np.int64),
        text=tuple(u.text for u in ordered),
        continuum=continuum,
        name=name,
    )


def item_name(recording: str, speaker: str) -> str:
    """The name of one scored item: the speaker, or the recording (``REC/SPEAKER`` with both)."""
    if recording and speaker:
        return f"{recording}/{speaker}"
    return recording or speaker


def _recording_spans(
    units: Sequence[RawUnit], span: tuple[float, float], *, given: bool
) -> dict[str, tuple[float, float]]:
    """Each recording's continuum: its own default one (a recording is a text of its own), or the
    given continuum for all."""
    recordings: dict[str, list[RawUnit]] = {}
    for u in units:
        recordings.setdefault(u.recording, []).append(u)
    if given or set(recordings) <= {""}:
        return dict.fromkeys(recordings, span)
    return {rec: default_continuum(us) for rec, us in recordings.items()}


def check_window(window: tuple[float, float]) -> tuple[float, float]:
    """A time window as two finite seconds START < END (refused otherwise)."""
    try:
        start, end = float(window[0]), float(window[1])
    except (TypeError, ValueError, IndexError):
        raise UsageError(f"the window must be START,END in seconds, got {window!r}") from None
    if not (math.isfinite(start) and math.isfinite(end) and 0 <= start < end):
        raise UsageError(f"the window must be START,END with 0 <= START < END (seconds), got {window!r}")
    return start, end


def clip_to_window(units: Sequence[RawUnit], window: tuple[float, float]) -> tuple[list[RawUnit], dict[str, Any]]:
    """The units within a time window and what was done: a unit crossing an edge is clipped to the
    window (the continuum of gamma and alpha-U is the window, so no unit may reach beyond it), one
    wholly outside is left out; a unit touching an edge from outside (ending at its start) is outside."""
    start, end = window
    kept: list[RawUnit] = []
    clipped = outside = 0
    for u in units:
        inside = (u.start < end and u.end > start) or (u.start == u.end and start <= u.start <= end)
        if not inside:
            outside += 1
            continue
        s, e = max(u.start, start), min(u.end, end)
        if (s, e) != (u.start, u.end):
            clipped += 1
            u = RawUnit(u.annotator, u.speaker, s, e, u.category, u.text, u.where, u.recording)
        kept.append(u)
    return kept, {"start": start, "end": end, "units": len(kept), "clipped": clipped, "outside": outside}


def window_note(window: Mapping[str, Any]) -> str:
    """The window in words, for the notes of a result."""
    return (
        f"window [{window['start']:g}, {window['end']:g}] s (the continuum): {window['units']} units scored, "
        f"{window['clipped']} of them crossing an edge and clipped to it, {window['outside']} outside left out"
    )


def build_timed_units(
    units: Sequence[RawUnit],
    found: Sequence[str],
    *,
    annotators: Sequence[str] | None = None,
    continuum: tuple[float, float] | None = None,
    category: str = "label",
    notes: Sequence[str] = (),
    window: tuple[float, float] | None = None,
) -> TimedUnits:
    """Group units by speaker into UnitSets over one continuum; with a ``window``, only the units
    within it (:func:`clip_to_window`), over the window as the continuum."""
    order = _order_annotators(found, annotators)
    if len(order) < 2:
        raise UsageError(f"time-based agreement needs two or more annotators, got {order}")
    clipped: dict[str, Any] | None = None
    if window is not None:
        window = check_window(window)
        if continuum is not None and tuple(map(float, continuum)) != window:
            raise UsageError("give a window or a continuum, not both (the window is the continuum)")
        units, clipped = clip_to_window(units, window)
        continuum = window
        notes = [*notes, window_note(clipped)]
    span = default_continuum(units) if continuum is None else (float(continuum[0]), float(continuum[1]))
    if not (math.isfinite(span[0]) and math.isfinite(span[1]) and span[0] < span[1]):
        raise UsageError(f"the continuum must be START,END with START < END (seconds), got {span}")
    outside = [u for u in units if u.start < span[0] or u.end > span[1]]
    if outside:
        u = outside[0]
        raise InputError(
            f"the unit [{u.start}, {u.end}] lies outside the continuum [{span[0]}, {span[1]}] "
            f"({len(outside)} such units)",
            place=u.where,
        )
    by_speaker: dict[str, list[RawUnit]] = {}
    for u in units:
        by_speaker.setdefault(item_name(u.recording, u.speaker), []).append(u)
    spans = _recording_spans(units, span, given=continuum is not None)
    sets = {key: unit_set(us, order, spans[us[0].recording], key) for key, us in by_speaker.items()}
    result = TimedUnits(order, sets, span, category, list(notes), window=clipped)
    result.recordings = {key: (us[0].recording, us[0].speaker) for key, us in by_speaker.items()}
    result.notes.extend(overlap_notes(result))
    return result


def _overlapping(starts: np.ndarray, ends: np.ndarray) -> int:
    """How many units overlap one before them (sorted by start)."""
    if starts.size < 2:
        return 0
    order = np.argsort(starts, kind="stable")
    reach = np.maximum.accumulate(ends[order])[:-1]
    return int(np.count_nonzero(starts[order][1:] < reach))


def overlaps_within_annotators(us: UnitSet, *, same_category: bool = False) -> dict[str, int]:
    """annotator -> how many of their units overlap another of theirs (of the same category)."""
    out: dict[str, int] = {}
    cats = np.unique(us.category) if same_category else np.zeros(1, dtype=np.int64)
    for i, name in enumerate(us.annotators):
        n = 0
        for c in cats.tolist():
            mine = (us.annotator == i) & ((us.category == c) if same_category else True)
            n += _overlapping(us.start[mine], us.end[mine])
        if n:
            out[name] = n
    return out


def overlap_notes(timed: TimedUnits) -> list[str]:
    """One note per speaker whose annotators' own units overlap (alpha-U, uα, ELAN's kappa,
    purity and coverage read each annotator as a partition of the continuum)."""
    notes = []
    for spk, us in timed.speakers.items():
        found = overlaps_within_annotators(us)
        if found:
            who = ", ".join(f"{a}: {n}" for a, n in found.items())
            same = overlaps_within_annotators(us, same_category=True)
            within = ", ".join(f"{a}: {n}" for a, n in same.items()) or "none"
            rec, speaker = timed.recordings.get(spk, ("", spk))
            # a units table's recording is a text of its own, not a speaker
            parts = ([f"recording {rec!r}"] if rec else []) + ([f"speaker {speaker!r}"] if speaker else [])
            where = ", ".join(parts) + ": " if parts else ""
            notes.append(
                f"{where}units of one annotator overlap ({who}; within one category: {within}); gamma aligns them "
                "as they are; alpha-U needs no overlap within a category, the uα family, ELAN's kappa, purity and "
                "coverage read each annotator's units as a partition (see their cards)"
            )
    return notes


@dataclass(frozen=True)
class UnitReading:
    """How to read units (see :func:`segagree.api.read_time_units` for each field).

    ``gap_labels`` None: :data:`segagree.scoring.time.plan.DEFAULT_GAP_LABELS`; ``()``: none.
    ``speaker_map`` renames tiers (speakers) before they are matched across files;
    ``missing_as_empty`` scores a tier only some annotators have; ``time_unit`` and ``text_column``
    read units tables (:mod:`segagree.scoring.time.units_table`); ``window`` scores only the units
    within (START, END) seconds, clipped to it, over it as the continuum (:func:`clip_to_window`);
    ``untimed`` skips (and lists) or refuses CHAT utterances without a time bullet."""

    annotators: Sequence[str] | None = None
    annotator_tiers: Sequence[str] | None = None
    continuum: tuple[float, float] | None = None
    category: str = "label"
    fmt: str | None = None
    scheme: BoundaryScheme | str | None = None
    layer: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    gap_labels: Sequence[str] | None = None
    speaker_map: Mapping[str, str] | None = None
    missing_as_empty: bool = False
    time_unit: str = "s"
    text_column: str | None = None
    window: tuple[float, float] | None = None
    untimed: str = "skip"
