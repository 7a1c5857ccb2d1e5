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
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from segagree.adapters.checks import MAX_SECONDS
from segagree.errors import InputError

MAX_MS = MAX_SECONDS * 1000.0
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
    # (id, slot1, slot2, value, line) in document order, duplicates kept.
    aligned: list[tuple[str, str, str, str, int]] = field(default_factory=list)
    # id -> (annotation ref, value, previous, line); a repeated id keeps the last (as pympi).
    refs: dict[str, tuple[str, str, str | None, int]] = field(default_factory=dict)

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


def _text(el: Any, path: Path | None = None) -> str:
    """An element's whole text (entities already expanded by the parser), at most
    :data:`MAX_VALUE_CHARS` characters."""
    text = "".join(el.itertext()) if el is not None else ""
    if len(text) > MAX_VALUE_CHARS:
        raise InputError(
            f"an annotation of {len(text)} characters; expected at most {MAX_VALUE_CHARS} (one unit's text)",
            path=path,
            place=f"line {el.sourceline}",
        )
    return text


def _need(el: Any, attr: str, what: str, path: Path) -> str:
    value = el.get(attr)
    if value is None or not value.strip():
        raise InputError(f"{what} has no {attr}; ELAN requires one", path=path, place=f"line {el.sourceline}")
    return value


def _time_value(el: Any, slot: str, path: Path) -> float | None:
    raw = el.get("TIME_VALUE")
    if raw is None:
        return None
    try:
        value = float(raw.strip())
    except ValueError:
        value = math.nan
    # ELAN's schema types TIME_VALUE as xsd:unsignedInt (whole milliseconds).
    if not math.isfinite(value) or value < 0 or value > MAX_MS or not value.is_integer():
        raise InputError(
            f"time slot {slot!r} has TIME_VALUE {raw[:40]!r}; expected whole milliseconds from 0 to {MAX_MS:.0f}",
            path=path,
            place=f"line {el.sourceline}",
        )
    return value


def read_structure(tree: etree._ElementTree, path: Path) -> EafFile:
    """Walk the document once, collect its parts and check every reference."""
    root = tree.getroot()
    out = EafFile(
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
    for el in root:
        tag = el.tag
        if not isinstance(tag, str):  # comments, processing instructions
            continue
        if tag == "HEADER":
            out.header = dict(el.attrib)
            for sub in el:
                if sub.tag == "MEDIA_DESCRIPTOR":
                    out.media_descriptors.append(dict(sub.attrib))
                elif sub.tag == "LINKED_FILE_DESCRIPTOR":
                    out.linked_files.append(dict(sub.attrib))
                elif sub.tag == "PROPERTY":
                    out.properties.append((sub.get("NAME") or "", _text(sub)))
        elif tag == "TIME_ORDER":
            for sub in el:
                if sub.tag != "TIME_SLOT":
                    continue
                sid = _need(sub, "TIME_SLOT_ID", "a TIME_SLOT", path)
                if sid in out.timeslots:
                    raise InputError(
                        f"time slot id {sid!r} is used twice; ELAN ids are unique",
                        path=path,
                        place=f"line {sub.sourceline}",
                    )
                out.timeslots[sid] = _time_value(sub, sid, path)
        elif tag == "TIER":
            tid = _need(el, "TIER_ID", "a TIER", path)
            if tid in out.tiers:
                raise InputError(
                    f"tier id {tid!r} is used twice (first on line {out.tiers[tid].line}); ELAN tier ids are unique",
                    path=path,
                    place=f"line {el.sourceline}",
                )
            tier = Tier(dict(el.attrib), len(out.tiers), el.sourceline or 0)
            for ann in el.iterfind("ANNOTATION/*"):
                line = ann.sourceline or 0
                if any(a in ann.attrib for a in _ANNOTATION_EXTRAS):
                    out.uncarried["annotation attributes (CVE_REF, EXT_REF, LANG_REF, SVG_REF)"] += 1
                if ann.tag == "ALIGNABLE_ANNOTATION":
                    aid = _need(ann, "ANNOTATION_ID", "an ALIGNABLE_ANNOTATION", path)
                    ts1 = _need(ann, "TIME_SLOT_REF1", f"annotation {aid!r}", path)
                    ts2 = _need(ann, "TIME_SLOT_REF2", f"annotation {aid!r}", path)
                    tier.aligned.append((aid, ts1, ts2, _text(ann.find("ANNOTATION_VALUE"), path), line))
                elif ann.tag == "REF_ANNOTATION":
                    aid = _need(ann, "ANNOTATION_ID", "a REF_ANNOTATION", path)
                    ref = _need(ann, "ANNOTATION_REF", f"annotation {aid!r}", path)
                    value = _text(ann.find("ANNOTATION_VALUE"), path)
                    tier.refs[aid] = (ref, value, ann.get("PREVIOUS_ANNOTATION"), line)
            out.tiers[tid] = tier
        elif tag == "LINGUISTIC_TYPE":
            ltid = _need(el, "LINGUISTIC_TYPE_ID", "a LINGUISTIC_TYPE", path)
            out.linguistic_types[ltid] = dict(el.attrib)
        elif tag in UNCARRIED:
            out.uncarried[UNCARRIED[tag]] += 1
    _check_references(out, path)
    return out


def _check_references(eaf: EafFile, path: Path) -> None:
    """Every time slot and annotation a tier refers to exists; no annotation ends before it starts."""
    ids: set[str] = set()
    for tier in eaf.tiers.values():
        ids |= tier.aligned_ids()
        ids |= set(tier.refs)
    for name, tier in eaf.tiers.items():
        for aid, ts1, ts2, _value, line in tier.aligned:
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
        for aid, (ref, _value, _prev, line) in tier.refs.items():
            if ref not in ids:
                raise InputError(
                    f"annotation {aid!r} refers to annotation {ref!r}, which the file does not have",
                    path=path,
                    place=f"tier {name!r}, line {line}",
                )
