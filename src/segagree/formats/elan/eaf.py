"""ELAN ``.eaf`` files: read with lxml alone (:mod:`segagree.formats.elan.parse`, every
reference checked), written with pympi-ling.

What the format holds
---------------------
An EAF file is XML: ``TIME_ORDER`` holds time slots (milliseconds, or no value when
unaligned); each ``TIER`` has a linguistic type (whose ``CONSTRAINTS`` stereotype says how its
annotations relate to the parent tier), an optional ``PARENT_REF`` and an optional
``PARTICIPANT``. Top-level tiers hold ``ALIGNABLE_ANNOTATION`` s between two time slots;
``Symbolic_Subdivision`` children hold ``REF_ANNOTATION`` s pointing to a parent annotation
and ordered by ``PREVIOUS_ANNOTATION`` chains; ``Time_Subdivision`` children tile the parent
with alignable annotations that share its first and last slots; ``Symbolic_Association``
children hold one value per parent annotation.

How it maps to the model (reading)
----------------------------------
* **unit tiers** are the top-level tiers (no ``PARENT_REF``) whose linguistic type is
  time-alignable and that have at least one non-blank annotation, or exactly the tiers named
  in ``tiers=[...]``. Every other tier is ignored and listed in ``meta['ignored_tiers']``
  (a word tier used for tokens is listed in ``meta['word_tiers']`` instead);
* **speaker** = the tier's ``PARTICIPANT``, else the tier id (``speaker_from="participant"``,
  the default), or always the tier id (``speaker_from="tier"``, ``--speaker-from tier``). Tiers
  with the same participant are merged into one speaker, reported ``speakers-merged`` (not in a
  file segagree wrote: its tiers are a Document's speakers already). A tier named in ``tiers``
  whose linguistic type is not time-alignable (a symbolic type) but which is top-level and holds
  aligned annotations is read with their times, reported ``repaired``; so are, when no tier is
  named and no top-level tier is declared time-alignable, the top-level tiers holding aligned
  annotations;
* **units** = the tier's annotations, ordered by start time within a tier (document order
  for ties and unaligned slots); discourse order across tiers is by start time, ties by tier
  order. Blank annotations are skipped (counted in ``meta['empty_annotations']``);
* **tokens** = the annotations of the unit's word tier when it has any: the first
  ``Symbolic_Subdivision`` (else ``Time_Subdivision``) child, searched level by level through
  ``Symbolic_Association`` children (``ref@SP -> tx@SP -> mot@SP``); symbolic words follow the
  ``PREVIOUS_ANNOTATION`` chain, time-subdivision words the chain of shared slots, and give
  token times (NaN when unaligned). Without word annotations the unit's value is split at
  whitespace;
* **endnote**: without a word tier, the unit's final token (or a final glued ``,.?``) via
  :func:`split_endnote`. With one, a final word that is an endnote spelling (CLAN ``.``),
  else a final standalone endnote in the unit's value; else unclassified. Files written by
  this module say so in a header ``PROPERTY`` and are read back exactly (words verbatim,
  endnote = what the value has beyond the joined words);
* a unit with no tokens left (only an endnote) is skipped and listed in
  ``meta['dropped_units']``;
* token columns ``tier`` and ``annotation_id`` record each unit's source. Unit-tier
  annotations are read from the XML itself, so duplicate annotation ids (24 in
  teicorpo_test.eaf, which pympi would collapse) lose nothing; they are listed in
  ``meta['duplicate_annotation_ids']``.
* **read losses** (``doc.losses``): tiers not read (dependent, ignored or empty), blank
  annotations, endnote-only units, unit text that differs from its words, controlled
  vocabularies, licence, external and lexicon references, languages, locales, linked files,
  and word tiers renamed on writing. Kept in ``meta`` and written back: author, date, EAF
  version (2.7/2.8/3.0), header attributes, media descriptors, properties, and the unit
  tiers' names, participants, annotators and linguistic types.

Writing
-------
One top-level tier per speaker and source tier (the ``tier`` token column when the document
came from ELAN; else ``TIER_ID`` = ``PARTICIPANT`` = the speaker, linguistic type ``IU``),
keeping the source annotation ids when they are unique (else ``ids-renumbered``), with one
annotation per unit whose value is the tokens joined by spaces, plus
``" " + symbol`` when the boundary is typed; and a ``<speaker>-words`` child tier (type
``words``, ``Symbolic_Subdivision``) with the tokens, so they round-trip exactly. Units of one
speaker that overlap in time go to an extra tier ``<speaker> (2)`` with the same participant,
since ELAN forbids overlaps within a tier (each such unit listed, ``units-moved``). A document
read from CHAT has a tier per speaker code whose values are its main tiers as written, its
dependent tiers as ``mor@CHI`` child tiers, and what ELAN has no place for in a header property,
so that reading the file back gives the CHAT file again (:mod:`segagree.formats.chat.elan_bridge`).
Times are written in ms (``times-rounded`` loss if
that loses precision); a document without times gets invented times, 1 s per unit in
discourse order (``times-invented`` loss, and a header property so that reading it back gives
NaN times again); units without a time get unaligned slots (``times-unaligned``). ELAN has no
order across tiers but time, so a document whose units are not in time order is read back in
time order (``reordered`` loss; e.g. SBC ``.rez`` files, ordered by unitSeq). Word times
inside units (``times-dropped``) and layers other than ``iu`` (``layer-dropped``) are not
written. pympi's printed/warned notices are captured and logged, never printed.
"""

from __future__ import annotations

import contextlib
import io
import logging
import math
import operator
import re
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from lxml import etree

from segagree.errors import InputError, SegagreeError, UsageError
from segagree.files.memory import read_bytes
from segagree.files.xml import parse_xml
from segagree.formats.base import Adapter
from segagree.formats.chat.elan_bridge import (
    PROP_CHAT,
    WRITTEN_COLUMNS,
    ChatForElan,
    add_dependent_tiers,
    chat_for_elan,
    chat_stash,
    dependent_tier_ids,
    discourse_order,
    is_chat_file,
    restore_chat_columns,
    value_boundary,
)
from segagree.formats.checks import check_times
from segagree.formats.elan.parse import EafFile, read_structure
from segagree.formats.elan.xml_text import eaf_bytes
from segagree.formats.endnotes import endnote_text, split_endnote, unit_layer_to_write
from segagree.formats.kept_meta import note_dropped_columns
from segagree.model import BoundaryScheme, Document, UnitColumns, builtin_scheme
from segagree.model.losses import LossReport
from segagree.model.source import keep_structure, unit_values

log = logging.getLogger(__name__)

XSI = "http://www.w3.org/2001/XMLSchema-instance"
# Header properties this module writes (and reads back) to make its own files unambiguous.
PROP_WORDS = "segagree-word-tier"
PROP_WORDS_VALUE = "tokens-without-endnote"
PROP_TIMES = "segagree-times"
PROP_TIMES_VALUE = "invented"
UNIT_TYPE = "IU"
WORD_TYPE = "words"
SUBDIVISIONS = ("Symbolic_Subdivision", "Time_Subdivision")
# Dependent tiers whose annotations have times of their own (ELAN's time-alignable stereotypes).
TIMED_DEPENDENT = ("Included_In", "Time_Subdivision")
KNOWN_VERSIONS = ("2.7", "2.8", "3.0")
UNNAMED = "(unnamed)"  # the tier id of a speaker whose name is blank
# Header properties that the writer computes itself (never copied from a source file).
OWN_PROPERTIES = (PROP_WORDS, PROP_TIMES, PROP_CHAT, "lastUsedAnnotation")


@contextlib.contextmanager
def _quiet_pympi() -> Iterator[None]:
    """Capture what pympi prints or warns (version notices) and log it instead."""
    out = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        yield
    for w in caught:
        log.warning("pympi: %s", w.message)
    for line in out.getvalue().splitlines():
        if line.strip():
            log.warning("pympi: %s", line.strip())


def _parse_xml(path: Path) -> etree._ElementTree:
    """Parse with lxml (:func:`segagree.files.xml.parse_xml`): safe, with a precise error position."""
    tree = parse_xml(read_bytes(path), path, expected="an ELAN annotation document")
    root = tree.getroot()
    if root.tag != "ANNOTATION_DOCUMENT":
        raise InputError(
            f"root element is <{root.tag}>, expected <ANNOTATION_DOCUMENT> (ELAN .eaf)",
            path=path,
            place=f"line {root.sourceline}",
        )
    return tree


def _chain_order(ids: list[str], prev: dict[str, str | None], broken: list[str] | None = None) -> list[str]:
    """Order sibling REF_ANNOTATIONs by their PREVIOUS_ANNOTATION chain (document order for
    anything the chain does not reach). A chain that is not one line through all siblings
    (two heads, a fork, a loop) has its first id appended to ``broken``."""
    # The usual case first: each word points to the one before it, the first to none of them.
    first = prev.get(ids[0])
    if (first is None or first not in ids) and all(map(operator.eq, map(prev.get, ids[1:]), ids)):
        return ids
    members = set(ids)
    nxt: dict[str, str] = {}
    heads = []
    for aid in ids:
        p = prev.get(aid)
        if p in members and p not in nxt:
            nxt[p] = aid
        else:
            heads.append(aid)
    out: list[str] = []
    seen: set[str] = set()
    for head in heads:
        cur: str | None = head
        while cur is not None and cur not in seen:
            out.append(cur)
            seen.add(cur)
            cur = nxt.get(cur)
    out.extend(a for a in ids if a not in seen)
    if broken is not None and len(ids) > 1 and (len(heads) != 1 or len(seen) != len(ids)):
        broken.append(ids[0])
    return out


_first = operator.itemgetter(0)
# A unit's word values, and their start and end times (None for a symbolic word tier: no times).
_Words = tuple[list[str], list[float] | None, list[float] | None]
_NO_WORDS: _Words = ([], None, None)
_first_two = operator.itemgetter(0, 1)


class _EafView:
    """What the reader needs from the file: tiers, their types, children, annotations."""

    def __init__(self, eaf: EafFile) -> None:
        self.eaf = eaf
        self.order = sorted(eaf.tiers, key=lambda t: eaf.tiers[t].ordinal)
        self.broken_chains: list[str] = []  # words whose PREVIOUS_ANNOTATION chain was repaired
        self.orphan_words: list[str] = []  # word annotations whose parent is not a unit
        self.children: dict[str, list[str]] = {t: [] for t in self.order}
        nan = math.nan
        self.seconds = {slot: nan if ms is None else ms / 1000.0 for slot, ms in eaf.timeslots.items()}
        for t in self.order:
            parent = self.attrs(t).get("PARENT_REF")
            if parent in self.children:
                self.children[parent].append(t)

    def attrs(self, tier: str) -> dict[str, Any]:
        return self.eaf.tiers[tier].attrs

    def alignable(self, tier: str) -> list[tuple[str, str, str, str]]:
        """``(id, slot1, slot2, value)`` of a tier's aligned annotations in document order,
        duplicate ids kept (teicorpo_test.eaf has 24; pympi would collapse them)."""
        return self.eaf.tiers[tier].aligned

    def stereotype(self, tier: str) -> str | None:
        lt = self.eaf.linguistic_types.get(self.attrs(tier).get("LINGUISTIC_TYPE_REF") or "", {})
        return lt.get("CONSTRAINTS")

    def alignable_type(self, tier: str) -> bool:
        lt = self.eaf.linguistic_types.get(self.attrs(tier).get("LINGUISTIC_TYPE_REF") or "")
        if lt is None:  # unknown type: judge by the annotations
            return bool(self.eaf.tiers[tier].aligned) or not self.eaf.tiers[tier].refs
        return str(lt.get("TIME_ALIGNABLE", "true")).lower() == "true"

    def is_unit_tier(self, tier: str) -> bool:
        return (
            not self.attrs(tier).get("PARENT_REF")
            and self.alignable_type(tier)
            and any(v.strip() for _, _, _, v in self.alignable(tier))
        )

    def is_timed_dependent(self, tier: str) -> bool:
        """A dependent tier with annotations of its own times (``Included_In``: inside a parent
        annotation; ``Time_Subdivision``: tiling it), holding text: a segmentation of its own,
        such as ``upper_body`` and ``arms`` under a movement tier."""
        return (
            bool(self.attrs(tier).get("PARENT_REF"))
            and self.stereotype(tier) in TIMED_DEPENDENT
            and any(v.strip() for _, _, _, v in self.alignable(tier))
        )

    def word_tier(self, tier: str) -> tuple[str, list[str]] | None:
        """The unit tier's word tier and the association tiers on the way to it."""
        level: list[tuple[str, list[str]]] = [(tier, [])]
        seen = {tier}
        while level:
            for stereo in SUBDIVISIONS:
                for parent, via in level:
                    for child in self.children[parent]:
                        if self.stereotype(child) == stereo:
                            return child, via
            level = [
                (child, [*via, child])
                for parent, via in level
                for child in self.children[parent]
                if self.stereotype(child) == "Symbolic_Association" and child not in seen
            ]
            seen.update(child for child, _ in level)
        return None

    def words_by_unit(self, unit_tier: str, word_tier: str, via: list[str]) -> dict[str, _Words]:
        """Unit annotation id -> its words in order: values, starts and ends (None for a
        symbolic word tier, whose words have no times)."""
        tiers = self.eaf.tiers
        # Map association annotations back to the unit annotation they stand for.
        to_unit = {aid: aid for aid in tiers[unit_tier].aligned_ids()}
        for assoc in via:
            for aid, (ref, _v, _p) in tiers[assoc].refs.items():
                if ref in to_unit:
                    to_unit[aid] = to_unit[ref]
        out: dict[str, _Words] = {}
        if self.stereotype(word_tier) == "Symbolic_Subdivision":
            refs = tiers[word_tier].refs
            groups: dict[str, list[str]] = {}
            for aid, (ref, _value, _previous) in refs.items():
                unit = to_unit.get(ref)
                if unit is None:  # refers to an annotation that is not on its parent's path
                    self.orphan_words.append(aid)
                    continue
                group = groups.get(unit)
                if group is None:
                    groups[unit] = [aid]
                else:
                    group.append(aid)
            prev = {aid: previous for aid, (_r, _v, previous) in refs.items()}
            for unit, ids in groups.items():
                out[unit] = ([refs[a][1] for a in _chain_order(ids, prev, self.broken_chains)], None, None)
            return out
        # Time_Subdivision: children share slots; follow them from the parent's first slot.
        by_start: dict[str, tuple[str, str, str]] = {}
        for aid, ts1, ts2, value in tiers[word_tier].aligned:
            by_start.setdefault(ts1, (aid, ts2, value))
        for uid, ts1, ts2, _v in self.alignable(unit_tier):
            words: list[tuple[str, float, float]] = []
            cur, guard = ts1, 0
            while cur in by_start and cur != ts2 and guard <= len(by_start):
                _aid, nxt, value = by_start[cur]
                words.append((value, self.eaf.ms(cur), self.eaf.ms(nxt)))
                cur, guard = nxt, guard + 1
            if words and uid not in out:
                out[uid] = ([w[0] for w in words], [w[1] for w in words], [w[2] for w in words])
        return out


def read(
    path: Path,
    *,
    scheme: BoundaryScheme | None = None,
    tiers: list[str] | tuple[str, ...] | None = None,
    speaker_from: str = "participant",
    dependent_tiers: bool = False,
    empty_tiers: bool = False,
    **_: Any,
) -> Document:
    """Read an ELAN file into a Document (see the module docstring).

    Args:
        path: the ``.eaf`` file.
        scheme: the endnote scheme of the ``iu`` layer (default DuBois).
        tiers: the unit tiers to use (default: every top-level time-aligned tier with text).
        speaker_from: ``"participant"`` (the tier's PARTICIPANT, else its id) or ``"tier"``.
        dependent_tiers: also read, as unit tiers of their own, the dependent time-aligned tiers
            (``Included_In``, ``Time_Subdivision``) that hold text (a tier named in ``tiers``
            may be one of them whatever this says); reported ``dependent-tiers-read``.
        empty_tiers: keep the time-aligned tiers without annotations (those that would be unit
            tiers if they had any) as speakers with no units, as a blank TextGrid tier or a
            header-only units table is an annotator with no units. A file whose time-aligned
            tiers are all empty is read so whatever this says: a Document with no tokens.
    """
    scheme = scheme or builtin_scheme("dubois")
    path = Path(path)
    if speaker_from not in ("participant", "tier"):
        raise UsageError(f"speaker_from must be 'participant' or 'tier', got {speaker_from!r}")
    tree = _parse_xml(path)
    eaf = read_structure(tree, path)
    version = eaf.adocument.get("VERSION")
    if version not in KNOWN_VERSIONS:
        log.warning("%s: unknown version %r of the ELAN format; reading it as 3.0", path, version)
    view = _EafView(eaf)
    props = dict(eaf.properties)
    own_words = props.get(PROP_WORDS) == PROP_WORDS_VALUE
    times_invented = props.get(PROP_TIMES) == PROP_TIMES_VALUE
    chosen, symbolic = _chosen_tiers(view, tiers, path, dependent_tiers)
    found = _RawUnits()
    for tier_index, tier in enumerate(chosen):
        _collect_tier_units(view, tier, tier_index, speaker_from, found)
    found.units.sort(key=_first)
    chat = is_chat_file(props) and own_words
    if chat:
        found.units = discourse_order(found.units, props, aid_at=2, start_at=6)
        found.used |= dependent_tier_ids(eaf)
    if found.duplicates:
        log.debug("%s: duplicate annotation ids %s (all annotations kept)", path, found.duplicates)
    chat_meta = (chat_stash(props).get("meta") or {}) if chat else {}
    layout = {"iu_layout": bool(chat_meta.get("iu_layout")), "ca": bool(chat_meta.get("ca"))}
    built = _unit_columns(found, scheme, own_words, times_invented, path, chat=chat, chat_layout=layout)
    empty = _empty_tiers(view, dependent_tiers) if (empty_tiers or not chosen) else []
    if not built.tiers and not empty:
        raise InputError(f"the unit tiers {chosen} hold no tokens", path=path)
    # Speakers in tier order (the order a writer emits them), not first-utterance order.
    tier_speaker = dict(zip(built.tiers, built.cols.speakers, strict=True))
    for t in empty:
        participant = (view.attrs(t).get("PARTICIPANT") or "").strip()
        tier_speaker.setdefault(t, participant if speaker_from == "participant" and participant else t)
    speakers = list(dict.fromkeys(tier_speaker[t] for t in [*chosen, *empty] if t in tier_speaker))
    ignored = [t for t in view.order if t not in found.used]
    meta = _read_meta(eaf, chosen, tier_speaker, found, built, ignored, props)
    if times_invented:
        meta["times_invented"] = True
    doc = built.cols.build(
        path.stem,
        layer="iu",
        scheme=scheme,
        speakers=speakers,
        source_path=str(path),
        source_format="eaf",
        meta=meta,
    )
    # Each unit's source, as token columns.
    doc.set_column("tier", np.repeat(np.asarray(built.tiers, dtype=object), built.cols.sizes))
    doc.set_column("annotation_id", np.repeat(np.asarray(built.aids, dtype=object), built.cols.sizes))
    if chat:
        # Written from CHAT: its main tiers, dependent tiers and header come back (formats.chat.elan_bridge).
        restore_chat_columns(doc, eaf, built.tiers, built.aids, props)
    _note_read_losses(doc.losses, eaf, view, ignored, found.empty, built.dropped, found.word_tiers, own_words)
    for tier in ignored:
        keep_structure(doc, f"tier {tier!r}", len(eaf.tiers[tier].aligned) + len(eaf.tiers[tier].refs))
    _note_unit_losses(doc.losses, view, built)
    # A file segagree wrote holds the speakers of a Document: its merge was reported on first reading.
    _note_speaker_sources(doc.losses, view, chosen, tier_speaker, "tier" if own_words else speaker_from, symbolic)
    dependents = [t for t in chosen if view.attrs(t).get("PARENT_REF")]
    if dependents:
        doc.losses.note(
            "dependent-tiers-read",
            "dependent time-aligned tiers (Included_In, Time_Subdivision) read as unit tiers of their own: "
            + ", ".join(dependents),
            count=len(dependents),
        )
    return doc


# (sort key, tier, annotation id, speaker, value, words, start, end) of a unit annotation.
_RawUnit = tuple[tuple[float, int, int], str, str, str, str, _Words, float, float]


@dataclass
class _RawUnits:
    """The unit annotations of the chosen tiers, with their words, before endnotes are read."""

    units: list[_RawUnit] = field(default_factory=list)
    word_tiers: dict[str, str] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    duplicates: list[str] = field(default_factory=list)
    empty: int = 0


@dataclass
class _Built:
    """The units as Document columns, each unit's tier and annotation id, and what was lost."""

    cols: UnitColumns
    tiers: list[str] = field(default_factory=list)
    aids: list[str] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)
    value_differs: list[str] = field(default_factory=list)
    blank_words: int = 0


def _empty_tiers(view: _EafView, dependent_tiers: bool) -> list[str]:
    """The time-aligned tiers with no text that would be unit tiers if they had some: top-level
    (and, with ``dependent_tiers``, Included_In and Time_Subdivision) tiers, in file order."""
    out = []
    for t in view.order:
        if any(v.strip() for _, _, _, v in view.alignable(t)) or view.eaf.tiers[t].refs:
            continue
        dependent = bool(view.attrs(t).get("PARENT_REF"))
        if dependent and not (dependent_tiers and view.stereotype(t) in TIMED_DEPENDENT):
            continue
        if not dependent and not view.alignable_type(t):
            continue
        out.append(t)
    return out


def _chosen_tiers(
    view: _EafView, tiers: list[str] | tuple[str, ...] | None, path: Path, dependent_tiers: bool = False
) -> tuple[list[str], list[str]]:
    """The unit tiers: those asked for, else every top-level time-aligned tier with text (and,
    with ``dependent_tiers``, every dependent time-aligned tier with text, in file order).

    A tier asked for by name whose linguistic type says it is not time-aligned (a symbolic
    type) is read all the same when it is top-level and its annotations are time-aligned (ELAN
    and pympi read them), and so are, when no tier is named and none is declared time-aligned,
    the top-level tiers with time-aligned annotations; such tiers are returned second, to be
    reported.
    """
    eaf = view.eaf
    if tiers is None:
        chosen = [t for t in view.order if view.is_unit_tier(t) or (dependent_tiers and view.is_timed_dependent(t))]
        if not chosen:
            # No tier is declared time-aligned: top-level tiers whose annotations are time-aligned
            # all the same (a symbolic type given to the one transcription tier) are read as
            # when named, and reported.
            timed = [
                t
                for t in view.order
                if not view.attrs(t).get("PARENT_REF") and any(v.strip() for _, _, _, v in view.alignable(t))
            ]
            if timed:
                return timed, timed
            if _empty_tiers(view, dependent_tiers):
                return [], []  # time-aligned tiers without annotations: read as speakers with no units
            raise InputError(
                f"no top-level time-aligned tier with annotations; tiers: {view.order or 'none'}",
                path=path,
            )
        return chosen, []
    chosen = list(dict.fromkeys(tiers))
    symbolic: list[str] = []
    for t in chosen:
        if t not in eaf.tiers:
            raise UsageError(f"no tier {t!r}; tiers: {view.order}", path=path)
        if view.attrs(t).get("PARENT_REF"):
            if view.stereotype(t) not in TIMED_DEPENDENT:
                raise UsageError(
                    f"tier {t!r} is a dependent tier of type {view.stereotype(t)} (no times of its own), so it cannot "
                    "hold units; expected a top-level, Included_In or Time_Subdivision tier",
                    path=path,
                )
            continue
        if not (view.alignable_type(t) or view.alignable(t)):
            raise UsageError(
                f"tier {t!r} is not a time-aligned tier, so it cannot hold units",
                path=path,
            )
        if not view.alignable_type(t):
            symbolic.append(t)
    if not chosen:
        raise InputError(f"no tier asked for; tiers: {view.order or 'none'}", path=path)
    return chosen, symbolic


def _collect_tier_units(view: _EafView, tier: str, tier_index: int, speaker_from: str, found: _RawUnits) -> None:
    """Add the unit annotations of ``tier`` (time order; unaligned ones where they stand) to ``found``."""
    found.used.add(tier)
    nan = math.nan
    seconds = view.seconds
    attrs = view.attrs(tier)
    participant = (attrs.get("PARTICIPANT") or "").strip()
    speaker = participant if speaker_from == "participant" and participant else tier
    word_tier = view.word_tier(tier)
    words: dict[str, _Words] = {}
    if word_tier:
        name, via = word_tier
        words = view.words_by_unit(tier, name, via)
        found.word_tiers[tier] = name
        found.used.add(name)
    last_start = -math.inf
    keyed = []
    for idx, (aid, ts1, ts2, value) in enumerate(view.alignable(tier)):
        start, end = seconds.get(ts1, nan), seconds.get(ts2, nan)
        # Unaligned starts sort where they stand in the document, after the last known one.
        if start == start:  # not NaN
            last_start = start
        keyed.append((last_start, idx, aid, start, end, value))
    keyed.sort(key=_first_two)
    seen_ids: set[str] = set()
    for key, idx, aid, start, end, value in keyed:
        # A duplicated id's words belong to its first annotation only.
        if aid in seen_ids:
            found.duplicates.append(aid)
            unit_words = _NO_WORDS
        else:
            seen_ids.add(aid)
            unit_words = words.get(aid, _NO_WORDS)
        if not unit_words[0] and not value.strip():
            found.empty += 1
            continue
        found.units.append(((key, tier_index, idx), tier, aid, speaker, value, unit_words, start, end))


def _unit_columns(
    found: _RawUnits,
    scheme: BoundaryScheme,
    own_words: bool,
    times_invented: bool,
    path: Path,
    *,
    chat: bool = False,
    chat_layout: dict[str, bool] | None = None,
) -> _Built:
    """Each unit's tokens and endnote (from its words, else its value) as Document columns.
    Filled directly (a dict per unit and from_units cost a second of a 250k-word file). In a file
    written from CHAT (``chat``) the value is the main tier as written: its terminator is the endnote."""
    unclassified = scheme.unclassified_code
    built = _Built(UnitColumns())
    cols = built.cols
    token_times = False
    symbols: dict[int, str] = {}  # endnote_text per code, decided once
    for _key, tier, aid, speaker, value, unit_words, start, end in found.units:
        values, w_starts, w_ends = unit_words
        if w_starts is None or w_ends is None:  # symbolic words: no times
            timed = []
            texts = [w for v in values if (w := v.strip())]
        else:
            timed = [(w, s, e) for v, s, e in zip(values, w_starts, w_ends, strict=True) if (w := v.strip())]
            texts = [w for w, _, _ in timed]
        built.blank_words += len(values) - len(texts)
        t_starts: list[float] = []
        t_ends: list[float] = []
        if texts:
            toks, code = _endnote_with_words(texts, value, scheme, own_words)
            if chat:
                toks, code = texts, value_boundary(value, scheme, **(chat_layout or {}))
            # The unit's own text is not kept when it says something else than its words.
            symbol = ""
            if code is not None:
                symbol = symbols.get(code) or symbols.setdefault(code, endnote_text(code, scheme))
            spelled = " ".join(value.split()) == " ".join(toks + ([symbol] if symbol else []))
            if not (spelled or chat or _spells_words(value, toks, code, scheme)):
                built.value_differs.append(aid)
            # Symbolic words have no times: as NaN token times, they changed nothing.
            timed = timed[: len(toks)]
            t_starts = [s for _, s, _ in timed]
            t_ends = [e for _, _, e in timed]
        else:
            toks, code = split_endnote(value.split(), scheme)
        if code is None:
            code = unclassified
        if code is None:
            raise InputError(
                f"the unit has no endnote the scheme {scheme.name!r} can express and the scheme "
                "has no unclassified type; use a scheme with one (e.g. dubois)",
                path=path,
                place=f"tier {tier!r}, annotation {aid!r}",
            )
        if not toks:
            built.dropped.append({"tier": tier, "annotation": aid, "value": value})
            continue
        if times_invented:
            cols.add(speaker, toks, len(toks), code)
        else:
            cols.add(speaker, toks, len(toks), code, start, end)
        cols.values.append(value)
        if t_starts and not times_invented:
            token_times = True
            cols.token_starts.append(t_starts)
            cols.token_ends.append(t_ends)
        else:
            cols.token_starts.append(None)
            cols.token_ends.append(None)
        built.tiers.append(tier)
        built.aids.append(aid)
    if not token_times:
        cols.token_starts, cols.token_ends = [], []
    return built


def _read_meta(
    eaf: EafFile,
    chosen: list[str],
    tier_speaker: dict[str, str],
    found: _RawUnits,
    built: _Built,
    ignored: list[str],
    props: dict[str, str],
) -> dict[str, Any]:
    """The Document's ``meta``: what was read from where, and what is kept to be written back."""
    return {
        "eaf_version": eaf.adocument.get("VERSION"),
        "author": eaf.adocument.get("AUTHOR"),
        "date": eaf.adocument.get("DATE"),
        "unit_tiers": {t: tier_speaker.get(t) for t in chosen},
        "word_tiers": found.word_tiers,
        "ignored_tiers": ignored,
        "empty_annotations": found.empty,
        "duplicate_annotation_ids": found.duplicates,
        "dropped_units": built.dropped,
        "properties": props,
        "media": [Path(str(m.get("MEDIA_URL", ""))).name for m in eaf.media_descriptors],
        # Kept to be written back (so they are not losses).
        "media_descriptors": eaf.media_descriptors,
        "header": eaf.header,
        "property_list": [[k, v] for k, v in eaf.properties if k not in OWN_PROPERTIES],
        "unit_tier_attrs": {t: _kept_tier_attrs(eaf.tiers[t].attrs) for t in chosen},
        "unit_tier_types": {
            lt: _kept_type_attrs(eaf.linguistic_types[lt])
            for lt in dict.fromkeys(eaf.tiers[t].attrs.get("LINGUISTIC_TYPE_REF") for t in chosen)
            if lt in eaf.linguistic_types
        },
    }


def _note_unit_losses(losses: LossReport, view: _EafView, built: _Built) -> None:
    """Unit values that are not their words, blank and orphan words, repaired word chains."""
    if built.value_differs:
        # Not a loss: the value is kept as written (Document.source) and written back with it.
        losses.note(
            "labels-kept",
            "unit annotations whose text is not their words (and endnote): the words are scored, the text is "
            f"kept as written ({', '.join(built.value_differs[:5])})",
            count=len(built.value_differs),
        )
    losses.add_count("annotations-dropped", "blank word annotations are not read", built.blank_words)
    losses.add_items(
        "annotations-dropped",
        "word annotations whose ANNOTATION_REF is not an annotation of their parent tier",
        view.orphan_words,
    )
    losses.add_items(
        "repaired",
        "word PREVIOUS_ANNOTATION chains that are not one line through a unit's words; "
        "the words were put in document order where the chain fails",
        view.broken_chains,
    )


def _note_speaker_sources(
    losses: LossReport,
    view: _EafView,
    chosen: list[str],
    tier_speaker: dict[str, str],
    speaker_from: str,
    symbolic: list[str],
) -> None:
    """Report unit tiers merged into one speaker by a shared PARTICIPANT (``speaker_from="tier"``
    keeps them apart), and tiers of a symbolic linguistic type read as time-aligned."""
    by_speaker: dict[str, list[str]] = {}
    for t in chosen:
        if t in tier_speaker:
            by_speaker.setdefault(tier_speaker[t], []).append(t)
    for speaker, merged in by_speaker.items():
        if len(merged) > 1 and speaker_from == "participant":
            losses.add(
                "speakers-merged",
                f"tiers {merged} share PARTICIPANT {speaker!r} and are read as one speaker "
                "(speaker_from='tier', --speaker-from tier, keeps one speaker per tier)",
                where=f"speaker {speaker!r}",
                count=len(merged),
            )
    for t in symbolic:
        lt = view.attrs(t).get("LINGUISTIC_TYPE_REF")
        losses.add(
            "repaired",
            f"tier {t!r} is of linguistic type {lt!r}, declared not time-aligned, but its annotations are "
            "time-aligned; they are read as units with their times",
            where=f"tier {t!r}",
            count=len(view.alignable(t)),
        )


# Unit tier attributes written back: the rest (LANG_REF, DEFAULT_LOCALE, EXT_REF) refer to
# parts of the file that are not carried (reported as such).
_TIER_KEEP = ("LINGUISTIC_TYPE_REF", "PARTICIPANT", "ANNOTATOR")
_TYPE_KEEP = ("LINGUISTIC_TYPE_ID", "TIME_ALIGNABLE", "GRAPHIC_REFERENCES")


def _kept_tier_attrs(attrs: dict[str, str]) -> dict[str, str]:
    return {k: attrs[k] for k in _TIER_KEEP if attrs.get(k) is not None}


def _kept_type_attrs(attrs: dict[str, str]) -> dict[str, str]:
    return {k: attrs[k] for k in _TYPE_KEEP if attrs.get(k) is not None}


def _note_read_losses(
    losses: LossReport,
    eaf: EafFile,
    view: _EafView,
    ignored: list[str],
    empty: int,
    dropped: list[dict[str, Any]],
    word_tiers: dict[str, str],
    own_words: bool,
) -> None:
    """Record in the Document's read report what the file holds that the Document does not."""
    for tier in ignored:
        t = eaf.tiers[tier]
        n = len(t.aligned) + len(t.refs)
        kind = "dependent" if t.attrs.get("PARENT_REF") else "independent"
        what = f"{kind} tier not read" if n else f"empty {kind} tier not written back"
        losses.add("tier-ignored", what, where=f"tier {tier!r}", count=n)
    losses.add_count("annotations-dropped", "blank annotations on unit tiers are not read", empty)
    if dropped:
        losses.add(
            "units-dropped",
            "annotations with an endnote and no words are not read",
            where=", ".join(f"{d['tier']}/{d['annotation']}" for d in dropped[:5]),
            count=len(dropped),
        )
    for what, n in sorted(eaf.uncarried.items()):
        losses.add("meta-dropped", f"{what} are not carried", count=n)
    if eaf.linked_files:
        losses.add("meta-dropped", "linked file descriptors are not carried", count=len(eaf.linked_files))
    if word_tiers and not own_words:
        losses.add(
            "tiers-renamed",
            "word tiers become tokens; written back as '<tier>-words' symbolic subdivisions",
            where=", ".join(f"{u} -> {w}" for u, w in word_tiers.items()),
        )


def _spells_words(value: str, toks: list[str], code: int | None, scheme: BoundaryScheme) -> bool:
    """True when ``value`` read as a label (split at spaces, a final glued endnote split off)
    gives the unit's words and endnote: the same unit, spelled otherwise."""
    vtoks, vcode = split_endnote(value.split(), scheme)
    return vtoks == toks and (vcode == code or code is None)


def _endnote_with_words(
    words: list[str], value: str, scheme: BoundaryScheme, own: bool
) -> tuple[list[str], int | None]:
    """Tokens and endnote code of a unit that has a word tier."""
    if own:
        # Written by this module: value = words joined [+ " " + endnote symbol], or the value
        # as the source spelled it, whose tokens are the words.
        joined = " ".join(words)
        if value == joined:
            return words, None
        if value.startswith(joined + " "):
            code = scheme.find_code(value[len(joined) + 1 :])
            if code:
                return words, code
        vtoks, vcode = split_endnote(value.split(), scheme)
        if vtoks == words:
            return words, vcode
    toks, code = split_endnote(words, scheme, glued=False)
    if code is not None:
        return toks, code
    vtoks = value.split()
    if vtoks:
        rest, vcode = split_endnote(vtoks, scheme, glued=False)
        if vcode is not None and len(rest) == len(vtoks) - 1:
            return words, vcode
    return words, None


# --- writing ---------------------------------------------------------------------------


def write(doc: Document, path: Path, *, losses: LossReport, **_: Any) -> None:
    """Write a Document as ELAN (see the module docstring). ``path`` is written as given."""
    from pympi.Elan import Eaf, to_adocument

    check_times(doc, path)
    _check_xml_text(doc, path)
    layer = unit_layer_to_write(doc, losses, "ELAN")
    units = doc.units(layer.name) if doc.speakers else []  # (speaker_rows needs a speaker)
    invent = not doc.has_times
    if invent:
        losses.add(
            "times-invented",
            "the document has no times; ELAN needs them, so each unit got 1 s in discourse "
            "order (marked in the header property 'segagree-times')",
        )
    else:
        _note_inner_times(doc, units, losses)
    with _quiet_pympi():
        eaf = Eaf(author="segagree")
    eaf.remove_tier("default")
    eaf.linguistic_types.pop("default-lt", None)
    eaf.add_linguistic_type(UNIT_TYPE, timealignable=True)
    eaf.add_linguistic_type(WORD_TYPE, constraints="Symbolic_Subdivision", timealignable=False)
    _restore_header(eaf, doc.meta, losses)
    eaf.add_property(PROP_WORDS, PROP_WORDS_VALUE)
    if invent:
        eaf.add_property(PROP_TIMES, PROP_TIMES_VALUE)
    chat = chat_for_elan(doc, units, layer.scheme, losses)  # a CHAT document: its main and dependent tiers as written
    _note_dropped(doc, units, losses, written=WRITTEN_COLUMNS if chat else (), silent_kept=chat is not None)
    spans = _unit_spans(doc, units, invent, losses)
    tiers = _TierPlan.of(doc, units, spans, losses, tier_names=chat.codes if chat else None)
    if chat is None:  # (a CHAT document's utterance order is kept in its header property)
        _note_reordering(units, spans, tiers, losses)
    word_tier_of = tiers.add_to(eaf, doc)
    values = chat.values if chat else None
    aids = _add_annotations(eaf, doc, units, spans, tiers.tier_of_unit, word_tier_of, layer.scheme, losses, values)
    if chat:
        _add_chat(eaf, chat, aids, tiers.tier_of_unit)
    try:
        data = eaf_bytes(eaf)  # (pympi's to_adocument and ElementTree's write, byte for byte)
        if data is None:
            with _quiet_pympi():
                root = to_adocument(eaf, pretty=True)
            ET.ElementTree(root).write(str(path), xml_declaration=True, encoding="UTF-8")
        else:
            path.write_bytes(data)
    except (ValueError, TypeError, KeyError, IndexError) as err:  # pympi on values it cannot hold
        log.debug("pympi could not write %s", path, exc_info=True)
        raise SegagreeError(f"cannot write this document as ELAN ({type(err).__name__})", path=path) from err


def _add_chat(eaf: Any, chat: ChatForElan, aids: list[str], tier_of_unit: list[str]) -> None:
    """A CHAT document's dependent tiers and the header property of what ELAN has no place for."""
    add_dependent_tiers(eaf, chat, aids, tier_of_unit)
    eaf.add_property(PROP_CHAT, chat.property_value(aids, tier_of_unit))
    last = eaf.maxaid
    eaf.properties = [(k, last if k == "lastUsedAnnotation" else v) for k, v in eaf.properties]


def _note_inner_times(doc: Document, units: list[Any], losses: LossReport) -> None:
    """Report word times inside units: the word tier is symbolic, so they are not written."""
    starts = doc.tokens["start"].to_numpy(dtype=float)
    ends = doc.tokens["end"].to_numpy(dtype=float)
    inner = np.ones(len(starts), dtype=bool)
    for u in units:
        inner[u.rows[0]] = False
    inner_start = ~np.isnan(starts) & inner
    inner = np.ones(len(ends), dtype=bool)
    for u in units:
        inner[u.rows[-1]] = False
    if inner_start.any() or (~np.isnan(ends) & inner).any():
        losses.add(
            "times-dropped",
            "word times inside units are not written (the word tier is symbolic)",
        )


def _unit_spans(
    doc: Document, units: list[Any], invent: bool, losses: LossReport
) -> list[tuple[int | None, int | None]]:
    """Unit times in ms (1 s per unit when invented); precision lost, units without times
    (unaligned slots) and reversed units are reported."""
    starts = doc.tokens["start"].to_numpy(dtype=float)
    ends = doc.tokens["end"].to_numpy(dtype=float)
    spans: list[tuple[int | None, int | None]] = []
    rounded = missing = False
    reversed_units = 0
    for i, u in enumerate(units):
        if invent:
            spans.append((i * 1000, (i + 1) * 1000))
            continue
        pair: list[int | None] = []
        for t in (starts[u.rows[0]], ends[u.rows[-1]]):
            if math.isnan(t):
                missing = True
                pair.append(None)
            else:
                ms = int(round(t * 1000))
                rounded = rounded or abs(ms / 1000 - t) > 1e-9
                pair.append(ms)
        first, last = pair
        if first is not None and last is not None and last < first:
            # The unit's last token ends before its first starts (tokens out of time order).
            reversed_units += 1
            last = first
        spans.append((first, last))
    if reversed_units:
        losses.add(
            "times-changed",
            "units whose last token ends before their first token starts were written with end = start",
            count=reversed_units,
        )
    if rounded:
        losses.add("times-rounded", "ELAN stores whole milliseconds; finer times were rounded")
    if missing:
        losses.add(
            "times-unaligned",
            "some units have no start or end time; they are written with unaligned time slots",
        )
    return spans


@dataclass
class _TierPlan:
    """Tiers: per speaker and source tier (the reader's token column ``tier``, else the
    speaker), a main tier and overflow tiers for units overlapping earlier ones."""

    tier_of_unit: list[str]
    tiers_of: dict[tuple[str, str], list[tuple[str, int]]]  # -> [(tier id, last end ms)]
    taken: set[str]
    speakers: list[str]  # the document's, in the order their tiers are written

    @classmethod
    def of(
        cls,
        doc: Document,
        units: list[Any],
        spans: list[tuple[int | None, int | None]],
        losses: LossReport,
        tier_names: list[str | None] | None = None,
    ) -> _TierPlan:
        """The tier of each unit: ``tier_names`` (a CHAT document's speaker codes), else the source
        tier (token column ``tier``), else the speaker; a unit overlapping an earlier unit of its
        tier goes to an extra tier (ELAN's tiers hold no overlapping annotations), each one listed."""
        source_tier = tier_names if tier_names is not None else _unit_column(doc, units, "tier")
        moved: list[str] = []
        taken: set[str] = set()
        renamed: list[str] = []
        tier_of_unit: list[str] = []
        tiers_of: dict[tuple[str, str], list[tuple[str, int]]] = {}
        for u, (s, e), wanted in zip(units, spans, source_tier, strict=True):
            key = (u.speaker, wanted or u.speaker.strip() or UNNAMED)
            slots = tiers_of.setdefault(key, [])
            for k, (tid, last_end) in enumerate(slots):
                if s is None or last_end <= s:
                    slots[k] = (tid, e if e is not None else last_end)
                    tier_of_unit.append(tid)
                    break
            else:
                tid = key[1] if not slots else f"{key[1]} ({len(slots) + 1})"
                while tid in taken:
                    tid += "_"
                if slots:
                    moved.append(f"{u.speaker} {_seconds_text(s)}-{_seconds_text(e)} s on {tid!r}")
                if tid != key[1] and wanted:
                    renamed.append(wanted)
                taken.add(tid)
                slots.append((tid, e if e is not None else (s if s is not None else 0)))
                tier_of_unit.append(tid)
        _note_speaker_names(doc, units, losses)
        if renamed:
            losses.add(
                "tiers-renamed",
                "units of these tiers overlap or share a tier name with another speaker; "
                "they are written on extra tiers",
                where=", ".join(dict.fromkeys(renamed)),
            )
        if moved:
            losses.add(
                "units-moved",
                "units overlapping an earlier unit of their tier (an ELAN tier holds no overlapping annotations) "
                "are written on an extra tier of their speaker",
                where="; ".join(moved),
                count=len(moved),
            )
        return cls(tier_of_unit, tiers_of, taken, list(doc.speakers))

    def order(self) -> list[str]:
        """The unit tiers in the order :meth:`add_to` writes them (speaker by speaker)."""
        return [
            tid
            for speaker in self.speakers
            for (spk, _), slots in self.tiers_of.items()
            if spk == speaker
            for tid, _ in slots
        ]

    def add_to(self, eaf: Any, doc: Document) -> dict[str, str]:
        """Add the unit tiers (in speaker order) and a word tier under each; return the word
        tier of each unit tier."""
        word_tier_of: dict[str, str] = {}
        for speaker in self.speakers:
            for (spk, _), slots in self.tiers_of.items():
                if spk != speaker:
                    continue
                for tid, _ in slots:
                    eaf.add_tier(tid, tier_dict=_unit_tier_dict(eaf, tid, speaker, doc.meta))
                    wid = f"{tid}-words"
                    while wid in self.taken or wid in eaf.tiers:
                        wid += "_"
                    self.taken.add(wid)
                    eaf.add_tier(wid, ling=WORD_TYPE, parent=tid, part=speaker)
                    word_tier_of[tid] = wid
        overflow = [t for sl in self.tiers_of.values() for t, _ in sl[1:]]
        if overflow:
            log.info("overlapping units of one speaker written on extra tiers %s", overflow)
        return word_tier_of


def _seconds_text(ms: int | None) -> str:
    return "?" if ms is None else f"{ms / 1000:g}"


def _note_speaker_names(doc: Document, units: list[Any], losses: LossReport) -> None:
    """Speaker names ELAN gives back otherwise: trimmed, or the placeholder for a blank one."""
    padded = [s for s in doc.speakers if s.strip() and s != s.strip()]
    if padded:
        # The reader trims PARTICIPANT (ELAN shows no outer whitespace): `a\n\t` reads back as `a`.
        losses.add(
            "speakers-renamed",
            "speaker names with whitespace around them read back trimmed",
            where=", ".join(repr(s) for s in padded[:5]),
            count=len(padded),
        )
    unnamed = [s for s in doc.speakers if not s.strip()]
    if unnamed and units:
        losses.add(
            "speakers-renamed", f"ELAN tier ids cannot be blank; speaker {unnamed[0]!r} is written as {UNNAMED!r}"
        )


def _add_annotations(
    eaf: Any,
    doc: Document,
    units: list[Any],
    spans: list[tuple[int | None, int | None]],
    tier_of_unit: list[str],
    word_tier_of: dict[str, str],
    scheme: BoundaryScheme,
    losses: LossReport,
    values: list[str | None] | None = None,
) -> list[str]:
    """Time slots (numbered in time order, unaligned ones last, as ELAN writes them), each unit
    as an aligned annotation (its value ``values[i]`` when given, else its tokens and endnote) and
    each of its tokens as a symbolic word annotation; the unit annotations' ids."""
    times = sorted({t for span in spans for t in span if t is not None})
    slot_of = {t: f"ts{i}" for i, t in enumerate(times, start=1)}
    for t, sid in slot_of.items():
        eaf.timeslots[sid] = t
    n_slots = len(times)
    text = doc.tokens["text"].to_numpy()
    kept_ids = _kept_annotation_ids(doc, units, losses)
    used_ids = {a for a in kept_ids if a}
    next_aid = 0

    def new_aid() -> str:
        nonlocal next_aid
        next_aid += 1
        while f"a{next_aid}" in used_ids:
            next_aid += 1
        return f"a{next_aid}"

    def slot(t: int | None) -> str:
        nonlocal n_slots
        if t is not None:
            return slot_of[t]
        n_slots += 1
        eaf.timeslots[f"ts{n_slots}"] = None
        return f"ts{n_slots}"

    aids: list[str] = []
    given = values if values is not None else [None] * len(units)
    originals = unit_values(doc, units)
    rows = zip(units, spans, tier_of_unit, kept_ids, given, originals, strict=True)
    for u, (s, e), tid, kept, as_written, original in rows:
        toks = [str(text[r]) for r in u.rows]
        symbol = endnote_text(u.boundary, scheme)
        # A CHAT main tier as written; else a unit unchanged since reading keeps its value as the annotator wrote it.
        if as_written is None:
            as_written = original
        value = as_written if as_written is not None else " ".join(toks) + (f" {symbol}" if symbol else "")
        aid = kept or new_aid()
        aids.append(aid)
        eaf.tiers[tid][0][aid] = (slot(s), slot(e), value, None)
        eaf.annotations[aid] = tid
        prev = None
        wid = word_tier_of[tid]
        for tok in toks:
            waid = new_aid()
            eaf.tiers[wid][1][waid] = (aid, tok, prev, None)
            eaf.annotations[waid] = wid
            prev = waid
    last_aid = max([next_aid] + [int(a[1:]) for a in used_ids if a[:1] == "a" and a[1:].isdigit()])
    eaf.maxaid, eaf.maxts = last_aid, n_slots
    # ELAN continues numbering new annotations from this property.
    eaf.properties = [(k, last_aid if k == "lastUsedAnnotation" else v) for k, v in eaf.properties]
    return aids


# XML 1.0 forbids these characters anywhere in a document; ElementTree would write them anyway.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _note_reordering(
    units: list[Any], spans: list[tuple[int | None, int | None]], tiers: _TierPlan, losses: LossReport
) -> None:
    """Report units that will come back in another order. The reader orders units by start time
    (an unaligned start after the last known one), ties by tier order, then document order; the
    tiers are written speaker by speaker. A speaker's own units that move are named with the
    speaker and their count; units that move only across speakers are counted once."""
    rank = {tid: k for k, tid in enumerate(tiers.order())}
    keys = []
    last = -1
    for i, (start, _) in enumerate(spans):
        if start is not None:
            last = start
        keys.append((last, rank[tiers.tier_of_unit[i]], i))
    reread = sorted(range(len(units)), key=keys.__getitem__)
    moved = sum(1 for pos, i in enumerate(reread) if i != pos)
    own: dict[str, int] = {}
    for speaker in dict.fromkeys(u.speaker for u in units):
        mine = [i for i in range(len(units)) if units[i].speaker == speaker]
        back = [i for i in reread if units[i].speaker == speaker]
        n = sum(1 for a, b in zip(mine, back, strict=True) if a != b)
        if n:
            own[speaker] = n
    for speaker, n in own.items():
        losses.add(
            "reordered",
            f"units of speaker {speaker!r} are not in the order ELAN gives them back (by start time, then tier); "
            "this speaker's own units come back in another order",
            where=f"speaker {speaker!r}",
            count=n,
        )
    if moved and not own:
        # ELAN has no order across tiers but time: a reader interleaves speakers by start.
        losses.add(
            "reordered",
            f"{moved} units are not in the order ELAN gives them back (by start time, then tier); "
            "the order across speakers will differ when read back",
        )


def _check_xml_text(doc: Document, path: Path) -> None:
    """Refuse text that XML cannot hold (control characters), naming the token or speaker."""
    for speaker in doc.speakers:
        if _NOT_XML.search(speaker):
            raise SegagreeError(f"speaker {speaker!r} holds a character XML cannot hold", path=path)
    texts = doc.tokens["text"].astype(str)
    bad = texts.str.contains(_NOT_XML)
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise SegagreeError(
            f"token {texts.iat[i]!r} (row {i + 1}) holds a control character XML cannot hold; "
            "remove it or convert to a text format",
            path=path,
        )


def _unit_column(doc: Document, units: list[Any], column: str) -> list[str | None]:
    """Each unit's value of a token column (its first token's), or None without the column."""
    if column not in doc.tokens.columns:
        return [None] * len(units)
    values = doc.tokens[column].to_numpy()
    out: list[str | None] = []
    for u in units:
        v = values[u.rows[0]]
        out.append(v.strip() if isinstance(v, str) and v.strip() else None)
    return out


_XML_ID = re.compile(r"^[A-Za-z_][\w.\-]*$")


def _kept_annotation_ids(doc: Document, units: list[Any], losses: LossReport) -> list[str | None]:
    """The source annotation ids (token column ``annotation_id``) that can be written again:
    valid XML ids, each used once. The others are renumbered (a loss when they existed)."""
    wanted = _unit_column(doc, units, "annotation_id")
    seen: set[str] = set()
    out: list[str | None] = []
    lost = 0
    for aid in wanted:
        if aid is not None and _XML_ID.match(aid) and aid not in seen:
            seen.add(aid)
            out.append(aid)
        else:
            lost += aid is not None
            out.append(None)
    losses.add_count("ids-renumbered", "annotation ids used twice or not valid XML ids get new ids", lost)
    return out


def _note_dropped(
    doc: Document, units: list[Any], losses: LossReport, written: Sequence[str] = (), silent_kept: bool = False
) -> None:
    """Token columns, empty tokens and speakers without units that the file will not give back
    (``written``: columns the file holds otherwise, a CHAT document's lines; ``silent_kept``: the
    speakers are kept in a header property, a CHAT document's)."""
    extra = [c for c in doc.meta_columns() if c not in ("tier", "annotation_id", *written)]
    note_dropped_columns(doc, extra, "an ELAN file", losses)
    for col in ("tier", "annotation_id"):
        if col in doc.tokens.columns:
            values = doc.tokens[col].to_numpy()
            varying = sum(1 for u in units if any(values[r] != values[u.rows[0]] for r in u.rows))
            if varying:
                losses.add("meta-dropped", f"column {col!r} varies inside units; only the first value is written")
    blank = int((doc.tokens["text"].astype(str).str.strip() == "").sum())
    losses.add_count("tokens-dropped", "empty tokens are written but read back as nothing", blank)
    silent = [s for s in doc.speakers if not (doc.tokens["speaker"] == s).any()]
    if silent and not silent_kept:
        losses.add("speakers-dropped", "speakers without tokens have no tier", where=", ".join(silent))


def _unit_tier_dict(eaf: Any, tid: str, speaker: str, meta: dict[str, Any]) -> dict[str, str | None]:
    """A unit tier's attributes: the source tier's (type, participant, annotator) when an EAF
    reader kept them for a tier of this name and they still fit, else type ``IU``."""
    out: dict[str, str | None] = {"TIER_ID": tid, "LINGUISTIC_TYPE_REF": UNIT_TYPE, "PARTICIPANT": speaker}
    kept = meta.get("unit_tier_attrs")
    kept = kept.get(tid) if isinstance(kept, dict) else None
    if not isinstance(kept, dict):
        return out
    found = meta.get("unit_tier_types")
    types: dict[str, Any] = found if isinstance(found, dict) else {}
    lt = kept.get("LINGUISTIC_TYPE_REF")
    lt_attrs = types.get(lt) if isinstance(lt, str) else None
    if (
        isinstance(lt, str)
        and isinstance(lt_attrs, dict)
        and lt_attrs.get("LINGUISTIC_TYPE_ID") == lt
        and str(lt_attrs.get("TIME_ALIGNABLE", "true")).lower() == "true"
        and lt not in (WORD_TYPE,)
        and all(isinstance(v, str) for v in lt_attrs.values())
    ):
        eaf.linguistic_types.setdefault(lt, dict(lt_attrs))
        out["LINGUISTIC_TYPE_REF"] = lt
    participant = kept.get("PARTICIPANT")
    if participant is None and tid == speaker:
        out["PARTICIPANT"] = None  # the source tier had none; the reader falls back to the id
    if isinstance(kept.get("ANNOTATOR"), str):
        out["ANNOTATOR"] = kept["ANNOTATOR"]
    return out


def _restore_header(eaf: Any, meta: dict[str, Any], losses: LossReport) -> None:
    """Write back what an EAF reader kept in ``meta``: author, date, header attributes, media
    descriptors and properties (so converting ELAN to ELAN keeps them)."""
    for key in ("author", "date"):
        if isinstance(meta.get(key), str):
            eaf.adocument[key.upper()] = meta[key]
    header = meta.get("header")
    if isinstance(header, dict) and all(isinstance(v, str) for v in header.values()):
        eaf.header.update({str(k): v for k, v in header.items()})
    media = meta.get("media_descriptors")
    if isinstance(media, list) and all(isinstance(m, dict) for m in media):
        eaf.media_descriptors = [{str(k): str(v) for k, v in m.items() if v is not None} for m in media]
    props = meta.get("property_list")
    if isinstance(props, list):
        for item in props:
            if isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], str):
                if item[0] not in OWN_PROPERTIES:
                    eaf.add_property(item[0], "" if item[1] is None else str(item[1]))
    version = meta.get("eaf_version")
    if version in KNOWN_VERSIONS:
        # What this writer writes is valid in every known version: keep the source's.
        eaf.adocument.update(VERSION=version, FORMAT=version)
        eaf.adocument["xsi:noNamespaceSchemaLocation"] = f"http://www.mpi.nl/tools/elan/EAFv{version}.xsd"
    elif isinstance(version, str):
        losses.add("format-changed", f"EAF version {version!r} is written as {eaf.adocument.get('VERSION')}")


ADAPTER = Adapter(
    name="eaf",
    extensions=(".eaf",),
    description="ELAN .eaf: one tier per speaker, annotations as units, word tiers as tokens",
    read=read,
    write=write,
)
