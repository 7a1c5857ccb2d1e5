"""Reading units in time by the annotation plan (:mod:`segagree.scoring.time.plan`): files, tiers
and tables to :class:`segagree.scoring.time.units.TimedUnits`, with the plan that says how they were read.

One rule in every format: a unit whose label is a gap label is a gap (counted per file and tier), so
ELAN, Praat and a table of the same units give the same units. The Praat reader is asked for every
labelled interval (its own gap list emptied) so that the gap labels are applied here, once.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from segagree.errors import InputError, UsageError
from segagree.formats import format_for, read_document
from segagree.formats.elan.tab_export import is_elan_export
from segagree.model import Document
from segagree.scoring.time.plan import DEFAULT_GAP_LABELS, PlanRow, TimePlan, match_tiers, select_tiers
from segagree.scoring.time.units import (
    CATEGORY_MODES,
    SINGLE,
    UNTIMED_MODES,
    RawUnit,
    TimedUnits,
    UnitReading,
    build_timed_units,
    check_unit,
    check_window,
    document_units,
    reader_notes,
)
from segagree.scoring.time.units_table import (
    expected_columns,
    is_transcript_table,
    is_units_table,
    looks_like_table,
    read_units_table,
)

__all__ = ["read_annotator_files", "read_by_plan", "read_timed_units"]


def _gap_set(how: UnitReading) -> set[str]:
    labels = DEFAULT_GAP_LABELS if how.gap_labels is None else how.gap_labels
    return {g.strip() for g in labels if g.strip()}


def _split_gaps(units: list[RawUnit], gaps: set[str]) -> tuple[list[RawUnit], Counter[tuple[str, str, str, str]]]:
    """Units that are not gaps, and the gaps counted per (annotator, speaker, recording, label)."""
    kept: list[RawUnit] = []
    counted: Counter[tuple[str, str, str, str]] = Counter()
    for u in units:
        label = u.text.strip()
        if label in gaps:
            counted[(u.annotator, u.speaker, u.recording, label)] += 1
        else:
            kept.append(u)
    return kept, counted


def _gaps_of(
    counted: Counter[tuple[str, str, str, str]], annotator: str, speaker: str, recording: str = ""
) -> dict[str, int]:
    return {lab: n for (a, s, r, lab), n in counted.items() if (a, s, r) == (annotator, speaker, recording)}


# --- tables -----------------------------------------------------------------------------------
def _read_tables(paths: Sequence[Path], how: UnitReading, names: Sequence[str | None]) -> TimedUnits:
    """Units tables; ``names`` the annotator each file declares when it has no rows (else its stem)."""
    gaps = _gap_set(how)
    units: list[RawUnit] = []
    found: list[str] = []
    plan = TimePlan("table", gap_labels=tuple(sorted(gaps)), time_unit=how.time_unit)
    sources: dict[tuple[str, str, str], str] = {}
    for path, name in zip(paths, names, strict=True):
        table = read_units_table(path, time_unit=how.time_unit, text_column=how.text_column)
        if not table.rows:
            declared = name or path.stem
            if declared not in found:
                found.append(declared)
            plan.notes.append(f"{path.name} has a header and no rows: annotator {declared!r} has no units")
            continue
        if table.recording_column:
            plan.notes.append(f"{path.name}: column {table.recording_column!r} names the recordings, one text each")
        for r in table.rows:
            category = None if how.category == "none" else r.category
            unit = RawUnit(r.annotator, r.speaker, r.start, r.end, category, r.text, r.where, r.recording)
            check_unit(unit)
            units.append(unit)
            sources.setdefault((r.annotator, r.speaker, r.recording), path.name)
        found.extend(a for a in table.annotators if a not in found)
    units, counted = _split_gaps(units, gaps)
    for a, spk, rec, _ in counted:
        sources.setdefault((a, spk, rec), "")
    tally = Counter((u.annotator, u.speaker, u.recording) for u in units)
    speakers = {spk for (_, spk, _) in sources}
    left_out = _table_left_out(sources, found, how.missing_as_empty) if len(speakers) > 1 else {}
    for (a, spk, rec), file in sources.items():
        scored = None if spk in left_out else spk
        row = PlanRow(file, "", a, scored, rec, tally[(a, spk, rec)], _gaps_of(counted, a, spk, rec))
        if scored is None:
            row.why = f"speaker {spk!r} only in {', '.join(left_out[spk])}"
        plan.rows.append(row)
    plan.left_out = left_out
    units = [u for u in units if u.speaker not in left_out]
    return _built(units, found, how, plan, [])


def _table_left_out(
    sources: Mapping[tuple[str, str, str], str], found: Sequence[str], keep: bool
) -> dict[str, list[str]]:
    """Speakers of a table that only some annotators have (left out unless ``keep``)."""
    holders: dict[str, list[str]] = {}
    for a, spk, _ in sources:
        if a not in holders.setdefault(spk, []):
            holders[spk].append(a)
    return {} if keep else {s: who for s, who in holders.items() if len(who) < len(found)}


def _built(
    units: list[RawUnit], found: Sequence[str], how: UnitReading, plan: TimePlan, notes: list[str]
) -> TimedUnits:
    timed = build_timed_units(
        units,
        found,
        annotators=how.annotators,
        continuum=how.continuum,
        category=how.category,
        notes=notes,
        window=how.window,
    )
    plan.annotators = list(timed.annotators)
    timed.plan = plan
    return timed


# --- files ------------------------------------------------------------------------------------
def _read(path: Path, how: UnitReading, by_tier: bool) -> Document:
    options = dict(how.options)
    if not by_tier:
        options.pop("tiers", None)  # chosen here, per file (see select_tiers)
    name = format_for(path, how.fmt).name
    if name == "eaf":
        # The tiers are the speakers (or the annotators), whatever their participant, unless asked.
        options.setdefault("speaker_from", "tier")
        # Dependent time-aligned tiers (Included_In, Time_Subdivision: upper_body, arms under a
        # movement tier) are segmentations of their own: read, listed in the plan, scored by the
        # same rule as top-level tiers, and chosen with --tier like them.
        options.setdefault("dependent_tiers", True)
        # A time-aligned tier without annotations is an annotator (or tier) with no units, as a
        # blank TextGrid tier or a header-only units table is.
        options.setdefault("empty_tiers", True)
    if name == "textgrid":
        options["gap_labels"] = ()  # every labelled interval is read; the gap labels apply below
    if by_tier and how.annotator_tiers:
        options["tiers"] = list(how.annotator_tiers)
    return read_document(path, how.fmt, scheme=how.scheme, **options)


def _doc_tiers(doc: Document, units: Sequence[RawUnit], renames: Mapping[str, str]) -> list[str]:
    """The tiers (speakers) of a document, empty ones included, renamed."""
    names = list(doc.speakers) + [u.speaker for u in units]
    return list(dict.fromkeys(renames.get(n, n) for n in names))


def _file_units(doc: Document, annotator: str, how: UnitReading) -> tuple[list[RawUnit], list[str]]:
    """One annotator's units (speaker = the tier as renamed) and its tiers after ``--tier``."""
    renames = dict(how.speaker_map or {})
    raw = document_units(doc, annotator, how.category, how.layer, untimed=how.untimed)
    raw = [_with(u, speaker=renames.get(u.speaker, u.speaker)) for u in raw]
    tiers = _doc_tiers(doc, raw, renames)
    spec = list(how.options.get("tiers") or [])
    if spec:
        path = Path(doc.source_path or doc.name)
        tiers = select_tiers(spec, path.name, path.stem, tiers)
        raw = [u for u in raw if u.speaker in tiers]
    return raw, tiers


def _with(u: RawUnit, **changes: Any) -> RawUnit:
    fields = {k: getattr(u, k) for k in RawUnit.__dataclass_fields__}
    fields.update(changes)
    return RawUnit(**fields)


def _read_files(docs: Sequence[Document], how: UnitReading) -> TimedUnits:
    """One file per annotator: tiers matched across files by name (see the plan's rules)."""
    gaps = _gap_set(how)
    units: list[RawUnit] = []
    tiers: dict[str, list[str]] = {}
    files: dict[str, str] = {}
    notes: list[str] = []
    for doc in docs:
        name = doc.annotator or doc.name
        if name in tiers:
            raise UsageError(
                f"two files give the annotator {name!r} (the annotator is the file stem); rename one of the files"
            )
        notes.extend(reader_notes(doc))
        more, tiers[name] = _file_units(doc, name, how)
        files[name] = Path(doc.source_path).name if doc.source_path else doc.name
        units.extend(more)
    units, counted = _split_gaps(units, gaps)
    plan = TimePlan("files", gap_labels=tuple(sorted(gaps)), time_unit="s")
    single = all(len(t) <= 1 for t in tiers.values())
    if single:  # one tier per file: one stream each, whatever its name
        mapping: dict[tuple[str, str], str | None] = {(a, t): SINGLE for a, ts in tiers.items() for t in ts}
        names = {t for ts in tiers.values() for t in ts}
        if len(names) > 1:
            plan.notes.append(f"each file has one tier ({', '.join(sorted(names))}): one stream per annotator")
    else:
        mapping, plan.left_out, more_notes = match_tiers(tiers, files, missing_as_empty=how.missing_as_empty)
        plan.notes.extend(more_notes)
        for spk, who in list(plan.left_out.items()):
            notes.append(f"tier {spk!r} is only in {', '.join(who)}'s files: left out of every score (ALL too)")
    tally = Counter((u.annotator, u.speaker) for u in units)
    for a, ts in tiers.items():
        for t in ts:
            row = PlanRow(files[a], t, a, mapping[(a, t)], "", tally[(a, t)], _gaps_of(counted, a, t))
            if row.speaker is None:
                row.why = "not every annotator has this tier"
            plan.rows.append(row)
    units = [
        _with(u, speaker=mapping[(u.annotator, u.speaker)])
        for u in units
        if mapping.get((u.annotator, u.speaker)) is not None
    ]
    timed = _built(units, list(tiers), how, plan, notes)
    names = {t for ts in tiers.values() for t in ts}
    if single and len(names) == 1 and SINGLE in timed.speakers:
        # one stream, named alike in every file (an RTTM's recording): the item keeps that name for
        # what is given per recording (a UEM's regions)
        timed.speakers[SINGLE] = replace(timed.speakers[SINGLE], name=next(iter(names)))
    return timed


def _read_tiers(doc: Document, how: UnitReading) -> TimedUnits:
    """One file whose tiers are the annotators; a tier without units is one only when named."""
    gaps = _gap_set(how)
    units, counted = _split_gaps(document_units(doc, None, how.category, how.layer, untimed=how.untimed), gaps)
    named = list(how.annotator_tiers or []) or list(how.annotators or [])
    with_units = list(dict.fromkeys(u.annotator for u in units))
    tiers = list(dict.fromkeys([*doc.speakers, *with_units, *(t for t in named if t in doc.speakers)]))
    found = [t for t in named if t in tiers] + [t for t in with_units if t not in named]
    plan = TimePlan("tiers", gap_labels=tuple(sorted(gaps)), time_unit="s")
    file = Path(doc.source_path).name if doc.source_path else doc.name
    tally = Counter(u.annotator for u in units)
    for t in tiers:
        row = PlanRow(file, t, t, SINGLE if t in found else None, "", tally[t], _gaps_of(counted, t, SINGLE))
        if t not in found:
            row.why = "no units and not named (--annotator-tier NAME makes it an annotator with no units)"
        plan.rows.append(row)
    if how.missing_as_empty:
        plan.notes.append("--missing-as-empty does not apply: the tiers of one file are the annotators")
    if how.annotator_tiers:
        how = UnitReading(**{**how.__dict__, "annotators": how.annotators or how.annotator_tiers})
    return _built(units, found, how, plan, reader_notes(doc))


def read_by_plan(
    sources: Sequence[str | Path | Document], how: UnitReading, names: Sequence[str | None] | None = None
) -> TimedUnits:
    """Read the sources (see :func:`read_timed_units`); ``names`` are the
    annotators a corpus gives each file (else file stems)."""
    paths = [s for s in sources if not isinstance(s, Document)]
    tables = [Path(s) for s in paths if is_units_table(s)]
    if tables:
        if len(tables) != len(sources):
            raise UsageError("give either units tables or annotation files, not both")
        return _read_tables(tables, how, list(names) if names else [None] * len(tables))
    if how.time_unit != "s" or how.text_column:
        raise UsageError("--time-unit and --text-column read units tables (CSV/TSV); these files are not units tables")
    for s in paths:
        if looks_like_table(s) and how.fmt is None and not (is_transcript_table(s) or is_elan_export(s)):
            raise InputError(
                f"not a units table and not a transcript table (Speaker, Utterance); {expected_columns()}", path=s
            )
    tiers = list(how.annotator_tiers or [])
    if tiers and len(sources) != 1:
        raise UsageError("--annotator-tier reads one file whose tiers are the annotators; give one file")
    # one file is one whose tiers are the annotators, unless the caller names its annotator (a corpus text
    # whose other declared annotators have no file)
    by_tier = bool(tiers) or (len(sources) == 1 and not any(names or ()))
    docs = [s if isinstance(s, Document) else _read(Path(s), how, by_tier) for s in sources]
    if by_tier:
        return _read_tiers(docs[0], how)
    for doc, source, name in zip(docs, sources, names or [None] * len(docs), strict=True):
        if name:
            doc.annotator = name
        elif not isinstance(source, Document):
            doc.annotator = Path(source).stem
    return _read_files(docs, how)


_DEFAULT = UnitReading()


def _plan_reading(how: UnitReading) -> UnitReading:
    """The reader option ``gap_labels`` (``--gap-label``) is the plan's gap list in time mode."""
    from dataclasses import replace

    if "gap_labels" not in how.options:
        return how
    options = {k: v for k, v in how.options.items() if k != "gap_labels"}
    given = tuple(how.options["gap_labels"] or ())
    return replace(how, options=options, gap_labels=how.gap_labels if how.gap_labels is not None else given)


def check_category(category: str) -> None:
    """Refuse a category other than :data:`CATEGORY_MODES` (what a unit's category is)."""
    if category not in CATEGORY_MODES:
        raise UsageError(f"category must be one of {CATEGORY_MODES}, not {category!r}")


def _check_reading(how: UnitReading) -> None:
    """Refuse a category, an untimed mode or a window that cannot be (before any file is read)."""
    check_category(how.category)
    if how.untimed not in UNTIMED_MODES:
        raise UsageError(f"untimed must be one of {UNTIMED_MODES}, not {how.untimed!r}")
    if how.window is not None:
        check_window(how.window)


def annotator_names(
    sources: Sequence[str | Path | Document], named: Mapping[str, str | Path] | None = None
) -> tuple[list[str | Path | Document], list[str | None], list[str]]:
    """The sources, the annotator each file is (None: its stem, as usual) and notes saying why.

    ``named`` maps annotator -> file (``--annotator NAME=FILE``); a named file not among ``sources`` is
    added. Files whose stems collide (``audited/X.TextGrid`` and ``mfa/X.TextGrid``: a hand-corrected and
    a forced-aligned set) are named after their folders, or after their paths below the folder the
    colliding files share when the folders are named alike too.
    """
    items: list[str | Path | Document] = list(sources)
    key = {Path(s).resolve(): i for i, s in enumerate(items) if not isinstance(s, Document)}
    names: list[str | None] = [None] * len(items)
    for name, file in (named or {}).items():
        if not str(name).strip() or "=" in str(name):
            raise UsageError(f"--annotator takes NAME=FILE with a non-empty NAME, not {name!r}={file}")
        where = Path(file).resolve()
        if where not in key:
            key[where] = len(items)
            items.append(Path(file))
            names.append(None)
        if names[key[where]] is not None:
            raise UsageError(f"--annotator names {file} twice ({names[key[where]]!r} and {name!r})")
        names[key[where]] = str(name).strip()
    unnamed = [i for i, s in enumerate(items) if names[i] is None and not isinstance(s, Document)]
    stems = Counter(Path(items[i]).stem for i in unnamed)  # type: ignore[arg-type]
    taken = {n for n in names if n}
    notes: list[str] = []
    for stem in sorted(st for st in stems if stems[st] > 1 or st in taken):
        clash = [i for i in unnamed if Path(items[i]).stem == stem]  # type: ignore[arg-type]
        paths = [Path(items[i]).resolve() for i in clash]  # type: ignore[arg-type]
        by_folder = [p.parent.name for p in paths]
        if len(set(by_folder)) < len(paths) or not all(by_folder) or taken & set(by_folder):
            common = Path(os.path.commonpath([str(p.parent) for p in paths]))
            by_folder = [p.relative_to(common).with_suffix("").as_posix() for p in paths]
        for i, name in zip(clash, by_folder, strict=True):
            names[i] = name
        taken |= set(by_folder)
        shown = ", ".join(f"{n} = {Path(items[i])}" for i, n in zip(clash, by_folder, strict=True))  # type: ignore[arg-type]
        notes.append(
            f"files share the stem {stem!r}: their annotators are named after their folders ({shown}); "
            "--annotator NAME=FILE names them yourself"
        )
    if len({n for n in names if n}) < len([n for n in names if n]):
        raise UsageError(f"two files give the same annotator name ({', '.join(n for n in names if n)})")
    return items, names, notes


def read_timed_units(
    sources: Sequence[str | Path | Document],
    how: UnitReading = _DEFAULT,
    named: Mapping[str, str | Path] | None = None,
) -> TimedUnits:
    """Read units from files (one per annotator, one with a tier per annotator, or units tables)
    or Documents, by the annotation plan (:mod:`segagree.scoring.time.plan`); the result's ``plan``
    says how each file and tier was read. ``named`` maps annotator -> file (see :func:`annotator_names`)."""
    _check_reading(how)
    if not sources and not named:
        raise UsageError("give the annotation files (one per annotator), one file with --annotator-tier, or a table")
    items, names, notes = annotator_names(sources, named)
    if named and any(not isinstance(s, Document) and is_units_table(s) for s in items):
        raise UsageError(
            "--annotator names the annotator of a file with one annotator's units; a units table names its "
            "annotators in its annotator column"
        )
    timed = read_by_plan(items, _plan_reading(how), names if any(names) else None)
    if timed.plan is not None:
        timed.plan.notes.extend(notes)
    timed.notes.extend(notes)
    return timed


def read_annotator_files(files: Mapping[str, str | Path], how: UnitReading = _DEFAULT) -> TimedUnits:
    """Read one file per annotator whose name the caller gives (a corpus's ``TEXT.ANNOTATOR.EXT``),
    not the file stem; units tables name their own annotators (a header-only table declares the
    given name with no units)."""
    _check_reading(how)
    return read_by_plan([Path(p) for p in files.values()], _plan_reading(how), list(files))
