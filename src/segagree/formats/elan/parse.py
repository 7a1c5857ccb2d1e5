"""The structure of an ELAN ``.eaf`` file, read from the lxml tree and checked.

ELAN's own schema (EAFv3.0.xsd, also 2.7/2.8) defines the parts read here: ``HEADER``
(``MEDIA_DESCRIPTOR``, ``LINKED_FILE_DESCRIPTOR``, ``PROPERTY``), ``TIME_ORDER`` (``TIME_SLOT``
with an id and an optional ``TIME_VALUE`` in milliseconds), ``TIER`` (``ALIGNABLE_ANNOTATION``
between two time slots, ``REF_ANNOTATION`` pointing to another annotation), ``LINGUISTIC_TYPE``
and the parts segagree does not carry (``LICENSE``, ``CONTROLLED_VOCABULARY``,
``EXTERNAL_REF``, ``LEXICON_REF``, ``LANGUAGE``, ``LOCALE``).

The result mirrors what pympi-ling's ``Eaf`` offers (``tiers``, ``timeslots``,
``linguistic_types``, ``properties``), built from the one lxml parse instead of pympi's second
ElementTree parse: that second parse took 70 s on a file with a 50 MB attribute, let internal
entities through differently, and raised bare ``KeyError``/``ValueError``/``IndexError`` on
damaged files. Here every reference is checked and refused with its line: a time slot without
an id or with a time that is not a finite number of milliseconds from 0 to ten days, an
annotation whose time slot or referenced annotation does not exist, an annotation that ends
before it starts, duplicate tier ids.

A plainly valid file is read by a fast path (no ElementPath, no helper call per annotation,
checks made column by column); any fault, or anything unusual (markup inside a value), sends
the file to the element-by-element walk, which refuses the first fault with its line.
"""

from __future__ import annotations

import math
import operator
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from segagree.errors import InputError
from segagree.formats.timing import MAX_MS, parse_milliseconds

# Annotation attributes that point into parts segagree does not carry.
_ANNOTATION_EXTRAS = ("CVE_REF", "EXT_REF", "LANG_REF", "SVG_REF")
# One annotation holds a unit (a few words to a paragraph); a megabyte of text in one is damage
# or an attack, and would take tens of seconds to tokenise (libxml2 itself stops at 10 MB).
MAX_VALUE_CHARS = 1_000_000
# Parts of the file segagree keeps nowhere in a Document (reported as read losses).
UNCARRIED = {
    "LICENSE": "licence",
    "CONTROLLED_VOCABULARY": "controlled vocabularies",
    "EXTERNAL_REF": "external references",
    "LEXICON_REF": "lexicon references",
    "LANGUAGE": "languages",
    "LOCALE": "locales",
}


@dataclass
class Tier:
    """One ``TIER``: attributes, position, annotations."""

    attrs: dict[str, str]
    ordinal: int
    line: int
    # (id, slot1, slot2, value) in document order, duplicates kept.
    aligned: list[tuple[str, str, str, str]] = field(default_factory=list)
    # id -> (annotation ref, value, previous); a repeated id keeps the last (as pympi).
    refs: dict[str, tuple[str, str, str | None]] = field(default_factory=dict)
    # Source lines of the annotations, for error messages: filled by the element-by-element
    # walk only (the fast path hands every doubtful file to that walk, which names the line).
    aligned_lines: list[int] = field(default_factory=list)
    ref_lines: dict[str, int] = field(default_factory=dict)

    def aligned_ids(self) -> set[str]:
        return {a[0] for a in self.aligned}


@dataclass
class EafFile:
    """What the reader needs from an ``.eaf`` file (see the module docstring)."""

    adocument: dict[str, str]
    header: dict[str, str]
    media_descriptors: list[dict[str, str]]
    linked_files: list[dict[str, str]]
    properties: list[tuple[str, str]]
    timeslots: dict[str, float | None]
    tiers: dict[str, Tier]
    linguistic_types: dict[str, dict[str, str]]
    uncarried: Counter[str]

    def ms(self, slot: str) -> float:
        """A slot's time in seconds (NaN when unaligned)."""
        value = self.timeslots.get(slot)
        return math.nan if value is None else value / 1000.0


def _at_line(message: str, path: Path | None, el: Any) -> InputError:
    """The error for a fault in ``path`` at the source line of element ``el``."""
    return InputError(message, path=path, place=f"line {el.sourceline}")


def _text(el: Any, path: Path | None = None) -> str:
    """An element's whole text (entities already expanded by the parser), at most
    :data:`MAX_VALUE_CHARS` characters."""
    text = "".join(el.itertext()) if el is not None else ""
    if len(text) > MAX_VALUE_CHARS:
        raise _at_line(
            f"an annotation of {len(text)} characters; expected at most {MAX_VALUE_CHARS} (one unit's text)", path, el
        )
    return text


def _need(el: Any, attr: str, what: str, path: Path) -> str:
    value = el.get(attr)
    if value is None or not value.strip():
        raise _at_line(f"{what} has no {attr}; ELAN requires one", path, el)
    return value


def _time_value(el: Any, slot: str, path: Path) -> float | None:
    raw = el.get("TIME_VALUE")
    if raw is None:
        return None
    # ELAN's schema types TIME_VALUE as xsd:unsignedInt (whole milliseconds).
    value = parse_milliseconds(raw)
    if value is None:
        raise _at_line(
            f"time slot {slot!r} has TIME_VALUE {raw[:40]!r}; expected whole milliseconds from 0 to {MAX_MS:.0f}",
            path,
            el,
        )
    return value


def _elements(root: Any) -> Iterator[tuple[str, Any]]:
    """The document's child elements with their tags, comments and processing instructions
    left out."""
    for el in root:
        if isinstance(el.tag, str):
            yield el.tag, el


def _empty_file(root: Any) -> EafFile:
    """An :class:`EafFile` with only the ``ANNOTATION_DOCUMENT`` attributes (namespaced ones
    left out), ready for the elements to fill."""
    return EafFile(
        adocument={k: v for k, v in root.attrib.items() if not k.startswith("{")},
        header={},
        media_descriptors=[],
        linked_files=[],
        properties=[],
        timeslots={},
        tiers={},
        linguistic_types={},
        uncarried=Counter(),
    )


def _short_text(el: Any) -> str | None:
    """An element's whole text, or None when it is over :data:`MAX_VALUE_CHARS` characters
    (where :func:`_text` would refuse it)."""
    text = "".join(el.itertext())
    return None if len(text) > MAX_VALUE_CHARS else text


def _read_header(el: Any, out: EafFile, text_of: Callable[[Any], str | None]) -> bool:
    """Store a ``HEADER``'s attributes, media descriptors, linked files and properties in
    ``out``; False (stopping there) when ``text_of`` gives None for a property's text."""
    out.header = dict(el.attrib)
    for sub in el:
        if sub.tag == "MEDIA_DESCRIPTOR":
            out.media_descriptors.append(dict(sub.attrib))
        elif sub.tag == "LINKED_FILE_DESCRIPTOR":
            out.linked_files.append(dict(sub.attrib))
        elif sub.tag == "PROPERTY":
            text = text_of(sub)
            if text is None:
                return False
            out.properties.append((sub.get("NAME") or "", text))
    return True


# Ids given to ALIGNABLE_ANNOTATIONs that have none (by line), and how their count is reported.
MISSING_ID_PREFIX = "segagree_noid_line"
MISSING_ID_KEY = "annotations without ANNOTATION_ID (read with ids given: segagree_noid_line<N>)"


def _walk_structure(tree: etree._ElementTree, path: Path) -> EafFile:
    """Walk the document element by element, collect its parts and check every reference
    (refusing the first fault with its line)."""
    root = tree.getroot()
    out = _empty_file(root)
    for tag, el in _elements(root):
        if tag == "HEADER":
            _read_header(el, out, _text)
        elif tag == "TIME_ORDER":
            for sub in el:
                if sub.tag != "TIME_SLOT":
                    continue
                sid = _need(sub, "TIME_SLOT_ID", "a TIME_SLOT", path)
                if sid in out.timeslots:
                    raise _at_line(f"time slot id {sid!r} is used twice; ELAN ids are unique", path, sub)
                out.timeslots[sid] = _time_value(sub, sid, path)
        elif tag == "TIER":
            tid = _need(el, "TIER_ID", "a TIER", path)
            if tid in out.tiers:
                raise _at_line(
                    f"tier id {tid!r} is used twice (first on line {out.tiers[tid].line}); ELAN tier ids are unique",
                    path,
                    el,
                )
            tier = Tier(dict(el.attrib), len(out.tiers), el.sourceline or 0)
            for ann in el.iterfind("ANNOTATION/*"):
                line = ann.sourceline or 0
                if any(a in ann.attrib for a in _ANNOTATION_EXTRAS):
                    out.uncarried["annotation attributes (CVE_REF, EXT_REF, LANG_REF, SVG_REF)"] += 1
                if ann.tag == "ALIGNABLE_ANNOTATION":
                    aid = ann.get("ANNOTATION_ID") or ""
                    if not aid:
                        # Scripts insert annotations without ids and ELAN opens them; nothing can
                        # refer to such an annotation, so an id of our own loses nothing but the
                        # absence, which is reported.
                        aid = f"{MISSING_ID_PREFIX}{line}"
                        out.uncarried[MISSING_ID_KEY] += 1
                    ts1 = _need(ann, "TIME_SLOT_REF1", f"annotation {aid!r}", path)
                    ts2 = _need(ann, "TIME_SLOT_REF2", f"annotation {aid!r}", path)
                    tier.aligned.append((aid, ts1, ts2, _text(ann.find("ANNOTATION_VALUE"), path)))
                    tier.aligned_lines.append(line)
                elif ann.tag == "REF_ANNOTATION":
                    aid = _need(ann, "ANNOTATION_ID", "a REF_ANNOTATION", path)
                    ref = _need(ann, "ANNOTATION_REF", f"annotation {aid!r}", path)
                    value = _text(ann.find("ANNOTATION_VALUE"), path)
                    tier.refs[aid] = (ref, value, ann.get("PREVIOUS_ANNOTATION"))
                    tier.ref_lines[aid] = line
            out.tiers[tid] = tier
        elif tag == "LINGUISTIC_TYPE":
            ltid = _need(el, "LINGUISTIC_TYPE_ID", "a LINGUISTIC_TYPE", path)
            out.linguistic_types[ltid] = dict(el.attrib)
        elif tag in UNCARRIED:
            out.uncarried[UNCARRIED[tag]] += 1
    _check_references(out, path)
    return out


def read_structure(tree: etree._ElementTree, path: Path) -> EafFile:
    """The file's parts, every reference checked (see the module docstring).

    :func:`_fast_structure` reads a plainly valid file with as little Python work per
    annotation as lxml allows; anything it does not accept as such, and every fault, goes to
    :func:`_walk_structure`, which decides element by element and refuses the first fault with
    its line. Both give the same result on every file the fast path accepts."""
    out = _fast_structure(tree, path)
    return out if out is not None else _walk_structure(tree, path)


_EXTRAS = frozenset(_ANNOTATION_EXTRAS)
_REF = operator.itemgetter(0)  # a REF_ANNOTATION's referenced id
_EXTRAS_KEY = "annotation attributes (CVE_REF, EXT_REF, LANG_REF, SVG_REF)"


def _fast_structure(tree: etree._ElementTree, path: Path) -> EafFile | None:
    """What :func:`_walk_structure` gives, or None when the file is not plainly valid (then
    the walk decides, and names the fault)."""
    root = tree.getroot()
    out = _empty_file(root)
    for tag, el in _elements(root):
        if tag == "HEADER":
            if not _read_header(el, out, _short_text):
                return None
        elif tag == "TIME_ORDER":
            if not _fast_timeslots(el, out.timeslots):
                return None
        elif tag == "TIER":
            tid = el.get("TIER_ID")
            if tid is None or not tid.strip() or tid in out.tiers:
                return None
            tier = Tier(dict(el.attrib), len(out.tiers), el.sourceline or 0)
            if not _fast_annotations(el, tier, out.uncarried):
                return None
            out.tiers[tid] = tier
        elif tag == "LINGUISTIC_TYPE":
            ltid = el.get("LINGUISTIC_TYPE_ID")
            if ltid is None or not ltid.strip():
                return None
            out.linguistic_types[ltid] = dict(el.attrib)
        elif tag in UNCARRIED:
            out.uncarried[UNCARRIED[tag]] += 1
    return out if _references_hold(out) else None


def _fast_timeslots(el: Any, slots: dict[str, float | None]) -> bool:
    """Add a ``TIME_ORDER``'s slots as the walk reads them; False when it would refuse one
    (no id, a repeated id, a time that is not whole milliseconds from 0 to ten days)."""
    ids: list[str | None] = []
    raws: list[str | None] = []
    for sub in el:
        if sub.tag == "TIME_SLOT":
            ids.append(sub.get("TIME_SLOT_ID"))
            raws.append(sub.get("TIME_VALUE"))
    if None in ids or not all(map(str.strip, ids)):  # type: ignore[arg-type]
        return False
    n = len(slots)
    for sid, raw in zip(ids, raws, strict=True):
        if raw is None:
            slots[sid] = None  # type: ignore[index]
            continue
        value = parse_milliseconds(raw)
        if value is None:
            return False
        slots[sid] = value  # type: ignore[index]
    return len(slots) == n + len(ids)  # no id repeated


def _filled(column: list[str | None]) -> bool:
    """Every value present and not blank (what the walk's ``_need`` requires)."""
    return None not in column and all(map(str.strip, column))  # type: ignore[arg-type]


def _plain_value(ann: Any) -> str | None:
    """The text of an annotation's first ``ANNOTATION_VALUE`` ("" without one), or None when
    that value holds markup (elements, comments, processing instructions: the walk joins
    their text)."""
    if len(ann) == 1:
        child = ann[0]
        if child.tag == "ANNOTATION_VALUE":
            return None if len(child) else (child.text or "")
        return ""
    for child in ann:
        if child.tag == "ANNOTATION_VALUE":
            return None if len(child) else (child.text or "")
    return ""


def _fast_annotations(el: Any, tier: Tier, uncarried: Counter[str]) -> bool:
    """Fill ``tier`` from a ``TIER`` element; False when the walk would refuse an annotation
    (a missing id, slot or reference, a value over :data:`MAX_VALUE_CHARS`) or when a value
    holds markup (the walk reads those)."""
    extras = 0
    a_ids: list[str | None] = []
    a_s1: list[str | None] = []
    a_s2: list[str | None] = []
    a_values: list[str] = []
    r_ids: list[str | None] = []
    r_refs: list[str | None] = []
    r_values: list[str] = []
    r_prevs: list[str | None] = []
    # The walk's ``iterfind("ANNOTATION/*")`` and ``find("ANNOTATION_VALUE")``, spelled out:
    # lxml's ElementPath and XPath cost more than the rest of the loop together.
    # Indexing a lone child (the usual shape) is much cheaper than iterating children in lxml.
    for wrap in el:
        if wrap.tag != "ANNOTATION":
            continue
        for ann in (wrap[0],) if len(wrap) == 1 else wrap:
            tag = ann.tag
            if not isinstance(tag, str):  # comments, processing instructions
                continue
            if not _EXTRAS.isdisjoint(ann.keys()):
                extras += 1
            if tag != "ALIGNABLE_ANNOTATION" and tag != "REF_ANNOTATION":
                continue
            text = _plain_value(ann)
            if text is None:
                return False
            get = ann.get
            if tag == "ALIGNABLE_ANNOTATION":
                a_ids.append(get("ANNOTATION_ID"))
                a_s1.append(get("TIME_SLOT_REF1"))
                a_s2.append(get("TIME_SLOT_REF2"))
                a_values.append(text)
            else:
                r_ids.append(get("ANNOTATION_ID"))
                r_refs.append(get("ANNOTATION_REF"))
                r_values.append(text)
                r_prevs.append(get("PREVIOUS_ANNOTATION"))
    if extras:
        uncarried[_EXTRAS_KEY] += extras
    if a_ids:
        if not (_filled(a_ids) and _filled(a_s1) and _filled(a_s2)) or max(map(len, a_values)) > MAX_VALUE_CHARS:
            return False
        tier.aligned = list(zip(a_ids, a_s1, a_s2, a_values, strict=True))  # type: ignore[arg-type]
    if r_ids:
        if not (_filled(r_ids) and _filled(r_refs)) or max(map(len, r_values)) > MAX_VALUE_CHARS:
            return False
        # A repeated id keeps its first place and its last value, as the walk's dict does.
        tier.refs = dict(zip(r_ids, zip(r_refs, r_values, r_prevs, strict=True), strict=True))  # type: ignore[arg-type]
    return True


def _references_hold(eaf: EafFile) -> bool:
    """What :func:`_check_references` checks, as a yes or no."""
    slots = eaf.timeslots
    ids: set[str] = set()
    for tier in eaf.tiers.values():
        ids |= tier.aligned_ids()
        ids |= set(tier.refs)
    for tier in eaf.tiers.values():
        for _aid, ts1, ts2, _value in tier.aligned:
            if ts1 not in slots or ts2 not in slots:
                return False
            start, end = slots[ts1], slots[ts2]
            if start is not None and end is not None and end < start:
                return False
        if not ids.issuperset(map(_REF, tier.refs.values())):
            return False
    return True


def _check_references(eaf: EafFile, path: Path) -> None:
    """Every time slot and annotation a tier refers to exists; no annotation ends before it starts."""
    ids: set[str] = set()
    for tier in eaf.tiers.values():
        ids |= tier.aligned_ids()
        ids |= set(tier.refs)
    for name, tier in eaf.tiers.items():
        for (aid, ts1, ts2, _value), line in zip(tier.aligned, tier.aligned_lines, strict=True):
            for slot in (ts1, ts2):
                if slot not in eaf.timeslots:
                    raise InputError(
                        f"annotation {aid!r} refers to time slot {slot!r}, which TIME_ORDER does not define",
                        path=path,
                        place=f"tier {name!r}, line {line}",
                    )
            start, end = eaf.timeslots[ts1], eaf.timeslots[ts2]
            if start is not None and end is not None and end < start:
                raise InputError(
                    f"annotation {aid!r} ends ({end:g} ms) before it starts ({start:g} ms); expected start <= end",
                    path=path,
                    place=f"tier {name!r}, line {line}",
                )
        for aid, (ref, _value, _prev) in tier.refs.items():
            if ref not in ids:
                raise InputError(
                    f"annotation {aid!r} refers to annotation {ref!r}, which the file does not have",
                    path=path,
                    place=f"tier {name!r}, line {tier.ref_lines[aid]}",
                )
