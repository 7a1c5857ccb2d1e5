"""ELAN ``.eaf`` files (read and write), through pympi-ling with lxml for error positions.

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
  the default), or always the tier id (``speaker_from="tier"``). Tiers with the same
  participant are merged into one speaker;
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

Writing
-------
One top-level tier per speaker (``TIER_ID`` = ``PARTICIPANT`` = the speaker, linguistic type
``IU``) with one annotation per unit whose value is the tokens joined by spaces, plus
``" " + symbol`` when the boundary is typed; and a ``<speaker>-words`` child tier (type
``words``, ``Symbolic_Subdivision``) with the tokens, so they round-trip exactly. Units of one
speaker that overlap in time go to an extra tier ``<speaker> (2)`` with the same participant,
since ELAN forbids overlaps within a tier. Times are written in ms (``times-rounded`` loss if
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
import tempfile
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from lxml import etree

from segagree.adapters.base import Adapter, LossReport, read_bytes
from segagree.adapters.endnotes import endnote_text, note_unit_layer_losses, split_endnote
from segagree.adapters.xml import parse_xml
from segagree.errors import InputError, UsageError
from segagree.schemas import BoundaryScheme, Document, builtin_scheme, from_units

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
    """Parse with lxml (:func:`segagree.adapters.xml.parse_xml`): safe, with a precise error position."""
    tree = parse_xml(read_bytes(path), path, expected="an ELAN annotation document")
    root = tree.getroot()
    if root.tag != "ANNOTATION_DOCUMENT":
        raise InputError(
            f"root element is <{root.tag}>, expected <ANNOTATION_DOCUMENT> (ELAN .eaf)",
            path=path,
            place=f"line {root.sourceline}",
        )
    return tree


def _load_pympi(path: Path, tree: etree._ElementTree) -> Any:
    """pympi's Eaf for the file. pympi deletes xsi:noNamespaceSchemaLocation unconditionally,
    so a file without it is parsed from a copy that has it."""
    from pympi.Elan import Eaf

    root = tree.getroot()
    try:
        with _quiet_pympi():
            if root.get(f"{{{XSI}}}noNamespaceSchemaLocation") is not None:
                return Eaf(str(path))
            root.set(f"{{{XSI}}}noNamespaceSchemaLocation", "")
            with tempfile.TemporaryDirectory() as tmp:
                copy = Path(tmp) / "copy.eaf"
                tree.write(str(copy), xml_declaration=True, encoding="UTF-8")
                return Eaf(str(copy))
    except Exception as err:  # pympi raises bare Exception/KeyError/ValueError on bad input
        raise InputError(
            f"pympi cannot read it ({type(err).__name__}: {err}); expected a valid ELAN file",
            path=path,
        ) from None


def _ms(value: int | None) -> float:
    return math.nan if value is None else value / 1000.0


def _chain_order(ids: list[str], prev: dict[str, str | None]) -> list[str]:
    """Order sibling REF_ANNOTATIONs by their PREVIOUS_ANNOTATION chain (document order for
    anything the chain does not reach)."""
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
    return out


class _EafView:
    """What the reader needs from a pympi Eaf: tiers, their types, children, annotations."""

    def __init__(self, eaf: Any, tree: etree._ElementTree) -> None:
        self.eaf = eaf
        self.xml_tiers: dict[str, Any] = {}
        for el in tree.getroot().iterfind("TIER"):
            self.xml_tiers.setdefault(el.get("TIER_ID"), el)
        self.order = sorted(eaf.tiers, key=lambda t: eaf.tiers[t][3])
        self.children: dict[str, list[str]] = {t: [] for t in self.order}
        for t in self.order:
            parent = self.attrs(t).get("PARENT_REF")
            if parent in self.children:
                self.children[parent].append(t)

    def attrs(self, tier: str) -> dict[str, Any]:
        return self.eaf.tiers[tier][2]

    def alignable(self, tier: str) -> list[tuple[str, str, str, str]]:
        """``(id, slot1, slot2, value)`` of a tier's aligned annotations in document order.

        Read from the XML, not from pympi: pympi keys annotations by id, so a file with
        duplicate ids (teicorpo_test.eaf has 24) would silently lose annotations.
        """
        el = self.xml_tiers.get(tier)
        if el is None:
            return []
        return [
            (
                a.get("ANNOTATION_ID") or "",
                a.get("TIME_SLOT_REF1") or "",
                a.get("TIME_SLOT_REF2") or "",
                a.findtext("ANNOTATION_VALUE") or "",
            )
            for a in el.iterfind("ANNOTATION/ALIGNABLE_ANNOTATION")
        ]

    def stereotype(self, tier: str) -> str | None:
        lt = self.eaf.linguistic_types.get(self.attrs(tier).get("LINGUISTIC_TYPE_REF"), {})
        return lt.get("CONSTRAINTS")

    def alignable_type(self, tier: str) -> bool:
        lt = self.eaf.linguistic_types.get(self.attrs(tier).get("LINGUISTIC_TYPE_REF"))
        if lt is None:  # unknown type: judge by the annotations
            return bool(self.eaf.tiers[tier][0]) or not self.eaf.tiers[tier][1]
        return str(lt.get("TIME_ALIGNABLE", "true")).lower() == "true"

    def is_unit_tier(self, tier: str) -> bool:
        return (
            not self.attrs(tier).get("PARENT_REF")
            and self.alignable_type(tier)
            and any(v.strip() for _, _, _, v in self.alignable(tier))
        )

    def word_tier(self, tier: str) -> tuple[str, list[str]] | None:
        """The unit tier's word tier and the association tiers on the way to it."""
        level: list[tuple[str, list[str]]] = [(tier, [])]
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
                if self.stereotype(child) == "Symbolic_Association"
            ]
        return None

    def words_by_unit(
        self, unit_tier: str, word_tier: str, via: list[str]
    ) -> dict[str, list[tuple[str, float, float]]]:
        """Unit annotation id -> its words ``(value, start, end)`` in order."""
        eaf = self.eaf
        # Map association annotations back to the unit annotation they stand for.
        to_unit = {aid: aid for aid in eaf.tiers[unit_tier][0]}
        for assoc in via:
            for aid, (ref, _v, _p, _s) in eaf.tiers[assoc][1].items():
                if ref in to_unit:
                    to_unit[aid] = to_unit[ref]
        out: dict[str, list[tuple[str, float, float]]] = {}
        if self.stereotype(word_tier) == "Symbolic_Subdivision":
            groups: dict[str, list[str]] = {}
            prev: dict[str, str | None] = {}
            values: dict[str, str] = {}
            for aid, (ref, value, previous, _svg) in eaf.tiers[word_tier][1].items():
                unit = to_unit.get(ref)
                if unit is None:
                    continue
                groups.setdefault(unit, []).append(aid)
                prev[aid] = previous
                values[aid] = value
            for unit, ids in groups.items():
                out[unit] = [(values[a], math.nan, math.nan) for a in _chain_order(ids, prev)]
            return out
        # Time_Subdivision: children share slots; follow them from the parent's first slot.
        by_start: dict[str, tuple[str, str, str]] = {}
        for aid, (ts1, ts2, value, _svg) in eaf.tiers[word_tier][0].items():
            by_start.setdefault(ts1, (aid, ts2, value))
        for uid, ts1, ts2, _v in self.alignable(unit_tier):
            words: list[tuple[str, float, float]] = []
            cur, guard = ts1, 0
            while cur in by_start and cur != ts2 and guard <= len(by_start):
                _aid, nxt, value = by_start[cur]
                words.append((value, _ms(eaf.timeslots.get(cur)), _ms(eaf.timeslots.get(nxt))))
                cur, guard = nxt, guard + 1
            if words and uid not in out:
                out[uid] = words
        return out


def read(
    path: Path,
    *,
    scheme: BoundaryScheme | None = None,
    tiers: list[str] | tuple[str, ...] | None = None,
    speaker_from: str = "participant",
    **_: Any,
) -> Document:
    """Read an ELAN file into a Document (see the module docstring).

    Args:
        path: the ``.eaf`` file.
        scheme: the endnote scheme of the ``iu`` layer (default DuBois).
        tiers: the unit tiers to use (default: every top-level time-aligned tier with text).
        speaker_from: ``"participant"`` (the tier's PARTICIPANT, else its id) or ``"tier"``.
    """
    scheme = scheme or builtin_scheme("dubois")
    path = Path(path)
    if speaker_from not in ("participant", "tier"):
        raise UsageError(f"speaker_from must be 'participant' or 'tier', got {speaker_from!r}")
    tree = _parse_xml(path)
    eaf = _load_pympi(path, tree)
    view = _EafView(eaf, tree)
    props = {k: v for k, v in eaf.properties}
    own_words = props.get(PROP_WORDS) == PROP_WORDS_VALUE
    times_invented = props.get(PROP_TIMES) == PROP_TIMES_VALUE

    if tiers is not None:
        chosen = list(dict.fromkeys(tiers))
        for t in chosen:
            if t not in eaf.tiers:
                raise UsageError(f"no tier {t!r}; tiers: {view.order}", path=path)
            if view.attrs(t).get("PARENT_REF") or not view.alignable_type(t):
                raise UsageError(
                    f"tier {t!r} is not a top-level time-aligned tier, so it cannot hold units",
                    path=path,
                )
    else:
        chosen = [t for t in view.order if view.is_unit_tier(t)]
    if not chosen:
        raise InputError(
            f"no top-level time-aligned tier with annotations; tiers: {view.order or 'none'}",
            path=path,
        )

    word_tiers: dict[str, str] = {}
    used: set[str] = set(chosen)
    raw_units: list[dict[str, Any]] = []
    duplicates: list[str] = []
    empty = 0
    for tier_index, tier in enumerate(chosen):
        attrs = view.attrs(tier)
        participant = (attrs.get("PARTICIPANT") or "").strip()
        speaker = participant if speaker_from == "participant" and participant else tier
        found = view.word_tier(tier)
        words: dict[str, list[tuple[str, float, float]]] = {}
        if found:
            word_tier, via = found
            words = view.words_by_unit(tier, word_tier, via)
            word_tiers[tier] = word_tier
            used.add(word_tier)
        anns = view.alignable(tier)
        last_start = -math.inf
        keyed = []
        for idx, (aid, ts1, ts2, value) in enumerate(anns):
            start, end = _ms(eaf.timeslots.get(ts1)), _ms(eaf.timeslots.get(ts2))
            # Unaligned starts sort where they stand in the document, after the last known one.
            last_start = last_start if math.isnan(start) else start
            keyed.append((last_start, idx, aid, start, end, value))
        keyed.sort(key=lambda k: (k[0], k[1]))
        seen_ids: set[str] = set()
        for key, idx, aid, start, end, value in keyed:
            # A duplicated id's words belong to its first annotation only.
            unit_words = [] if aid in seen_ids else words.get(aid, [])
            if aid in seen_ids:
                duplicates.append(aid)
            seen_ids.add(aid)
            if not value.strip() and not unit_words:
                empty += 1
                continue
            raw_units.append(
                {
                    "key": (key, tier_index, idx),
                    "tier": tier,
                    "aid": aid,
                    "speaker": speaker,
                    "value": value or "",
                    "words": unit_words,
                    "start": start,
                    "end": end,
                }
            )
    raw_units.sort(key=lambda u: u["key"])
    if duplicates:
        log.warning("%s: duplicate annotation ids %s (all annotations kept)", path, duplicates)

    unclassified = scheme.unclassified_code
    units: list[dict[str, Any]] = []
    dropped: list[dict[str, Any]] = []
    for u in raw_units:
        word_list = [(v.strip(), s, e) for v, s, e in u["words"] if v and v.strip()]
        if word_list:
            texts = [w for w, _, _ in word_list]
            toks, code = _endnote_with_words(texts, u["value"], scheme, own_words)
            word_list = word_list[: len(toks)]
            t_starts = [s for _, s, _ in word_list]
            t_ends = [e for _, _, e in word_list]
        else:
            toks, code = split_endnote(u["value"].split(), scheme)
            t_starts = t_ends = []
        if code is None:
            code = unclassified
        if code is None:
            raise InputError(
                f"the unit has no endnote the scheme {scheme.name!r} can express and the scheme "
                "has no unclassified type; use a scheme with one (e.g. dubois)",
                path=path,
                place=f"tier {u['tier']!r}, annotation {u['aid']!r}",
            )
        if not toks:
            dropped.append({"tier": u["tier"], "annotation": u["aid"], "value": u["value"]})
            continue
        unit: dict[str, Any] = {
            "speaker": u["speaker"],
            "tokens": toks,
            "boundary": code,
            "start": None if times_invented or math.isnan(u["start"]) else u["start"],
            "end": None if times_invented or math.isnan(u["end"]) else u["end"],
            "meta": {"tier": u["tier"], "annotation_id": u["aid"]},
        }
        if t_starts and not times_invented:
            unit["token_starts"] = t_starts
            unit["token_ends"] = t_ends
        units.append(unit)
    if not units:
        raise InputError(f"the unit tiers {chosen} hold no tokens", path=path)

    # Speakers in tier order (the order a writer emits them), not first-utterance order.
    tier_speaker = {u["meta"]["tier"]: u["speaker"] for u in units}
    speakers = list(dict.fromkeys(tier_speaker[t] for t in chosen if t in tier_speaker))
    meta: dict[str, Any] = {
        "eaf_version": eaf.adocument.get("VERSION"),
        "author": eaf.adocument.get("AUTHOR"),
        "date": eaf.adocument.get("DATE"),
        "unit_tiers": {t: tier_speaker.get(t) for t in chosen},
        "word_tiers": word_tiers,
        "ignored_tiers": [t for t in view.order if t not in used],
        "empty_annotations": empty,
        "duplicate_annotation_ids": duplicates,
        "dropped_units": dropped,
        "properties": props,
        "media": [Path(str(m.get("MEDIA_URL", ""))).name for m in eaf.media_descriptors],
    }
    if times_invented:
        meta["times_invented"] = True
    return from_units(
        path.stem,
        units,
        layer="iu",
        scheme=scheme,
        speakers=speakers,
        source_path=str(path),
        source_format="eaf",
        meta=meta,
    )


def _endnote_with_words(
    words: list[str], value: str, scheme: BoundaryScheme, own: bool
) -> tuple[list[str], int | None]:
    """Tokens and endnote code of a unit that has a word tier."""
    if own:
        # Written by this module: value = words joined [+ " " + endnote symbol].
        joined = " ".join(words)
        if value == joined:
            return words, None
        if value.startswith(joined + " "):
            code = scheme.find_code(value[len(joined) + 1 :])
            if code:
                return words, code
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

    layer_name = "iu" if "iu" in doc.layers else doc.layer().name
    layer = doc.layer(layer_name)
    scheme = layer.scheme
    for other in doc.layers:
        if other != layer_name:
            losses.add(
                "layer-dropped",
                f"ELAN holds one unit layer per tier; layer {other!r} is not written",
            )
    note_unit_layer_losses(layer_name, scheme, losses, "ELAN")
    units = doc.units(layer_name)
    starts = doc.tokens["start"].to_numpy(dtype=float)
    ends = doc.tokens["end"].to_numpy(dtype=float)
    invent = not doc.has_times
    if invent:
        losses.add(
            "times-invented",
            "the document has no times; ELAN needs them, so each unit got 1 s in discourse "
            "order (marked in the header property 'segagree-times')",
        )
    else:
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

    with _quiet_pympi():
        eaf = Eaf(author="segagree")
    eaf.remove_tier("default")
    eaf.linguistic_types.pop("default-lt", None)
    eaf.add_linguistic_type(UNIT_TYPE, timealignable=True)
    eaf.add_linguistic_type(WORD_TYPE, constraints="Symbolic_Subdivision", timealignable=False)
    eaf.add_property(PROP_WORDS, PROP_WORDS_VALUE)
    if invent:
        eaf.add_property(PROP_TIMES, PROP_TIMES_VALUE)

    # Unit times in ms; note precision lost and units without times (unaligned slots).
    spans: list[tuple[int | None, int | None]] = []
    rounded = missing = False
    for i, u in enumerate(units):
        if invent:
            spans.append((i * 1000, (i + 1) * 1000))
            continue
        pair = []
        for t in (starts[u.rows[0]], ends[u.rows[-1]]):
            if math.isnan(t):
                missing = True
                pair.append(None)
            else:
                ms = int(round(t * 1000))
                rounded = rounded or abs(ms / 1000 - t) > 1e-9
                pair.append(ms)
        spans.append((pair[0], pair[1]))
    known = [sp[0] for sp in spans if sp[0] is not None]
    late = sum(1 for a, b in zip(known, known[1:], strict=False) if b < a)
    if late:
        # ELAN has no order across tiers but time: a reader interleaves speakers by start.
        losses.add(
            "reordered",
            f"{late} units start before the unit preceding them; ELAN orders units by time, "
            "so the order across speakers will differ when read back",
        )
    if rounded:
        losses.add("times-rounded", "ELAN stores whole milliseconds; finer times were rounded")
    if missing:
        losses.add(
            "times-unaligned",
            "some units have no start or end time; they are written with unaligned time slots",
        )

    # Tiers: per speaker, a main tier and overflow tiers for units overlapping earlier ones.
    taken = set()
    tier_of_unit: list[str] = []
    tiers_of: dict[str, list[tuple[str, int]]] = {}  # speaker -> [(tier id, last end ms)]
    for u, (s, e) in zip(units, spans, strict=True):
        slots = tiers_of.setdefault(u.speaker, [])
        for k, (tid, last_end) in enumerate(slots):
            if s is None or last_end <= s:
                slots[k] = (tid, e if e is not None else last_end)
                tier_of_unit.append(tid)
                break
        else:
            tid = u.speaker if not slots else f"{u.speaker} ({len(slots) + 1})"
            while tid in taken:
                tid += "_"
            taken.add(tid)
            slots.append((tid, e if e is not None else (s if s is not None else 0)))
            tier_of_unit.append(tid)
    word_tier_of: dict[str, str] = {}
    for speaker in doc.speakers:
        for tid, _ in tiers_of.get(speaker, []):
            eaf.add_tier(tid, ling=UNIT_TYPE, part=speaker)
            wid = f"{tid}-words"
            while wid in taken or wid in eaf.tiers:
                wid += "_"
            taken.add(wid)
            eaf.add_tier(wid, ling=WORD_TYPE, parent=tid, part=speaker)
            word_tier_of[tid] = wid
    overflow = [t for sl in tiers_of.values() for t, _ in sl[1:]]
    if overflow:
        log.info("overlapping units of one speaker written on extra tiers %s", overflow)

    # Time slots numbered in time order (unaligned ones last), as ELAN writes them.
    times = sorted({t for span in spans for t in span if t is not None})
    slot_of = {t: f"ts{i}" for i, t in enumerate(times, start=1)}
    for t, sid in slot_of.items():
        eaf.timeslots[sid] = t
    n_slots = len(times)
    text = doc.tokens["text"].to_numpy()
    next_aid = 0

    def new_aid() -> str:
        nonlocal next_aid
        next_aid += 1
        return f"a{next_aid}"

    def slot(t: int | None) -> str:
        nonlocal n_slots
        if t is not None:
            return slot_of[t]
        n_slots += 1
        eaf.timeslots[f"ts{n_slots}"] = None
        return f"ts{n_slots}"

    for u, (s, e), tid in zip(units, spans, tier_of_unit, strict=True):
        toks = [str(text[r]) for r in u.rows]
        symbol = endnote_text(u.boundary, scheme)
        value = " ".join(toks) + (f" {symbol}" if symbol else "")
        aid = new_aid()
        eaf.tiers[tid][0][aid] = (slot(s), slot(e), value, None)
        eaf.annotations[aid] = tid
        prev = None
        wid = word_tier_of[tid]
        for tok in toks:
            waid = new_aid()
            eaf.tiers[wid][1][waid] = (aid, tok, prev, None)
            eaf.annotations[waid] = wid
            prev = waid
    eaf.maxaid, eaf.maxts = next_aid, n_slots
    # ELAN continues numbering new annotations from this property.
    eaf.properties = [(k, next_aid if k == "lastUsedAnnotation" else v) for k, v in eaf.properties]

    with _quiet_pympi():
        root = to_adocument(eaf, pretty=True)
    ET.ElementTree(root).write(str(path), xml_declaration=True, encoding="UTF-8")


ADAPTER = Adapter(
    name="eaf",
    extensions=(".eaf",),
    description="ELAN .eaf: one tier per speaker, annotations as units, word tiers as tokens",
    read=read,
    write=write,
)
