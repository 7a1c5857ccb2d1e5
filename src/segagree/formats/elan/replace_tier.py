"""One tier of an ELAN file replaced, everything else of the file kept as it was.

An adjudicated gold of time units is the reference annotator's file with only the reviewed tier
changed (:mod:`segagree.adjudication.time_source`): its header (media descriptors, properties),
the other tiers and their time slots, linguistic types, controlled vocabularies, languages and
licence stay the same elements, serialised by lxml as they were read.

On the replaced tier, an annotation whose time span (in ms) and value equal a gold unit's is kept
as it is (its id, slots, attributes, and the dependent annotations that refer to it); the others
are removed and the remaining gold units get new annotations (new ids after the file's highest
``a<N>``, new time slots after its highest ``ts<N>``; ``lastUsedAnnotation`` updated). Time slots
no annotation refers to any more are removed. A gold unit's time is written in whole
milliseconds (``times-rounded`` when that rounds).

What cannot stay as it was is reported as a loss: symbolic annotations of dependent tiers that
referred to a removed annotation are removed with it (``dependents-dropped``); time-aligned
dependent annotations (``Included_In``, ``Time_Subdivision``) are kept, and those no longer
inside a gold annotation are counted (``dependents-outside``); removed annotations' ``CVE_REF``,
``EXT_REF`` and ``LANG_REF`` attributes (``annotation-attributes-dropped``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lxml import etree

from segagree.errors import InputError
from segagree.files.atomic import atomic_path
from segagree.files.memory import read_bytes
from segagree.files.xml import parse_xml
from segagree.model.losses import LossReport

__all__ = ["GoldSpan", "replace_eaf_tier"]

# (start s, end s, value) of one gold annotation.
GoldSpan = tuple[float, float, str]
_NUMBERED = re.compile(r"^(?:ts|a)(\d+)$")
_ATTRIBUTES_DROPPED = ("CVE_REF", "EXT_REF", "LANG_REF")


def _next_number(ids: Sequence[str]) -> int:
    """One more than the highest number of ids of the form ``ts<N>`` / ``a<N>`` (1 when none)."""
    numbers = [int(m.group(1)) for m in map(_NUMBERED.match, ids) if m]
    return max(numbers, default=0) + 1


def _ms(seconds: float) -> int:
    return round(seconds * 1000.0)


def _indent(tier: Any) -> tuple[str, str, str]:
    """(before each annotation, after the last one, one level of indentation), as the file has them."""
    outer = tier.tail if tier.tail and not tier.tail.strip() else "\n\t"
    inner = tier.text if len(tier) and tier.text and not tier.text.strip() else outer + "\t"
    step = inner[len(outer) :] if inner.startswith(outer) and len(inner) > len(outer) else "\t"
    last = tier[-1].tail if len(tier) and tier[-1].tail is not None else outer
    return inner, last, step


def _annotation(aid: str, ts1: str, ts2: str, value: str, inner: str, step: str) -> Any:
    """``<ANNOTATION><ALIGNABLE_ANNOTATION ...><ANNOTATION_VALUE>`` indented as the file's."""
    ann = etree.Element("ANNOTATION")
    ann.text = inner + step
    aligned = etree.SubElement(
        ann, "ALIGNABLE_ANNOTATION", {"ANNOTATION_ID": aid, "TIME_SLOT_REF1": ts1, "TIME_SLOT_REF2": ts2}
    )
    aligned.text = inner + step * 2
    aligned.tail = inner
    value_el = etree.SubElement(aligned, "ANNOTATION_VALUE")
    value_el.text = value
    value_el.tail = inner + step
    return ann


def _slot_times(root: Any) -> dict[str, int | None]:
    out: dict[str, int | None] = {}
    for slot in root.iterfind("TIME_ORDER/TIME_SLOT"):
        value = slot.get("TIME_VALUE")
        out[slot.get("TIME_SLOT_ID")] = int(value) if value not in (None, "") else None
    return out


def _dependents(root: Any, tier_id: str) -> list[Any]:
    """Every tier below ``tier_id`` (children, their children ...), in file order."""
    below, frontier = [], {tier_id}
    tiers = root.findall("TIER")
    while frontier:
        found = [t for t in tiers if t.get("PARENT_REF") in frontier and t not in below]
        below.extend(found)
        frontier = {t.get("TIER_ID") for t in found}
    return below


def _drop_orphans(dependents: list[Any], removed_ids: set[str]) -> list[str]:
    """Remove the symbolic annotations of dependent tiers that refer to a removed annotation (and,
    level by level, those that refer to them); the tiers they were on."""
    tiers_hit: list[str] = []
    gone = set(removed_ids)
    changed = True
    while changed:
        changed = False
        for tier in dependents:
            for ann in list(tier.iterfind("ANNOTATION")):
                ref = ann.find("REF_ANNOTATION")
                if ref is not None and ref.get("ANNOTATION_REF") in gone:
                    gone.add(ref.get("ANNOTATION_ID"))
                    _remove(ann)
                    tiers_hit.append(tier.get("TIER_ID"))
                    changed = True
    return tiers_hit


def _remove(el: Any) -> None:
    """Remove an element, keeping the whitespace that followed it in place of its own."""
    parent = el.getparent()
    previous = el.getprevious()
    if previous is not None:
        previous.tail = el.tail
    else:
        parent.text = el.tail
    parent.remove(el)


def replace_eaf_tier(source: Path, output: Path, tier_id: str, gold: Sequence[GoldSpan]) -> LossReport:
    """Write ``source`` to ``output`` with tier ``tier_id``'s annotations replaced by ``gold``
    (ordered, not overlapping: the caller checks), everything else kept (see the module docstring).

    Raises:
        InputError: the file has no such tier, or the tier holds symbolic annotations (no times).
    """
    losses = LossReport()
    tree = parse_xml(read_bytes(source), source, expected="an ELAN annotation document")
    root = tree.getroot()
    if root.tag != "ANNOTATION_DOCUMENT":
        raise InputError(f"root element is <{root.tag}>, expected <ANNOTATION_DOCUMENT> (ELAN .eaf)", path=source)
    tier = next((t for t in root.iterfind("TIER") if t.get("TIER_ID") == tier_id), None)
    if tier is None:
        raise InputError(f"no tier {tier_id!r} to put the gold units on", path=source)
    if tier.find("ANNOTATION/REF_ANNOTATION") is not None:
        raise InputError(f"tier {tier_id!r} holds symbolic annotations (no times of their own)", path=source)
    slots = _slot_times(root)
    old: dict[tuple[int | None, int | None, str], list[Any]] = {}
    for ann in tier.iterfind("ANNOTATION"):
        al = ann.find("ALIGNABLE_ANNOTATION")
        value = al.findtext("ANNOTATION_VALUE") or ""
        key = (slots.get(al.get("TIME_SLOT_REF1")), slots.get(al.get("TIME_SLOT_REF2")), value)
        old.setdefault(key, []).append(ann)
    all_ids = [el.get("ANNOTATION_ID") or "" for el in root.iter("ALIGNABLE_ANNOTATION", "REF_ANNOTATION")]
    next_aid, next_ts = _next_number(all_ids), _next_number(list(slots))
    inner, last, step = _indent(tier)
    order = root.find("TIME_ORDER")
    if order is None:
        raise InputError("the file has no TIME_ORDER", path=source)
    rounded = 0
    new_children: list[Any] = []
    new_slots: list[tuple[str, int]] = []
    for start, end, value in gold:
        s_ms, e_ms = _ms(start), _ms(end)
        rounded += abs(s_ms - start * 1000.0) > 1e-6 or abs(e_ms - end * 1000.0) > 1e-6
        same = old.get((s_ms, e_ms, value))
        if same:
            new_children.append(same.pop(0))
            continue
        ts1, ts2 = f"ts{next_ts}", f"ts{next_ts + 1}"
        next_ts += 2
        new_slots += [(ts1, s_ms), (ts2, e_ms)]
        new_children.append(_annotation(f"a{next_aid}", ts1, ts2, value, inner, step))
        next_aid += 1
    removed = [ann for anns in old.values() for ann in anns]
    removed_ids = {ann.find("ALIGNABLE_ANNOTATION").get("ANNOTATION_ID") for ann in removed}
    attributes = sum(any(ann.find("ALIGNABLE_ANNOTATION").get(a) for a in _ATTRIBUTES_DROPPED) for ann in removed)
    for child in list(tier):
        tier.remove(child)
    tier.text = inner if new_children else None
    for k, ann in enumerate(new_children):
        ann.tail = inner if k < len(new_children) - 1 else last
        tier.append(ann)
    _add_slots(order, new_slots)
    dependents = _dependents(root, tier_id)
    orphans = _drop_orphans(dependents, removed_ids)
    _drop_unused_slots(root, order)
    _update_last_used(root, next_aid - 1)
    outside = _outside_count(root, dependents, gold)
    losses.add_count(
        "times-rounded", f"gold times on tier {tier_id!r} rounded to whole milliseconds (ELAN's unit)", rounded
    )
    if orphans:
        losses.add(
            "dependents-dropped",
            f"symbolic annotations of {', '.join(dict.fromkeys(orphans))} referred to annotations of "
            f"{tier_id!r} the gold does not keep, and were removed with them",
            count=len(orphans),
        )
    losses.add_count(
        "dependents-outside",
        f"time-aligned annotations of tiers depending on {tier_id!r} kept as they were, no longer inside a gold "
        "annotation (check them in ELAN)",
        outside,
    )
    losses.add_count(
        "annotation-attributes-dropped",
        f"replaced annotations of {tier_id!r} had CVE_REF, EXT_REF or LANG_REF attributes; new ones have none",
        attributes,
    )
    encoding = tree.docinfo.encoding or "UTF-8"
    with atomic_path(output, inputs=(source,)) as tmp:
        tmp.write_bytes(etree.tostring(tree, xml_declaration=True, encoding=encoding) + b"\n")
    return losses


def _add_slots(order: Any, new_slots: list[tuple[str, int]]) -> None:
    """Append time slots to TIME_ORDER, indented as its last slot."""
    if not new_slots:
        return
    inner = order.text if order.text and len(order) else "\n\t\t"
    last = order[-1].tail if len(order) and order[-1].tail is not None else "\n\t"
    if len(order):
        order[-1].tail = inner
    else:
        order.text = inner
    for k, (sid, ms) in enumerate(new_slots):
        slot = etree.SubElement(order, "TIME_SLOT", {"TIME_SLOT_ID": sid, "TIME_VALUE": str(ms)})
        slot.tail = inner if k < len(new_slots) - 1 else last


def _drop_unused_slots(root: Any, order: Any) -> None:
    used: set[str] = set()
    for al in root.iter("ALIGNABLE_ANNOTATION"):
        used.update((al.get("TIME_SLOT_REF1"), al.get("TIME_SLOT_REF2")))
    for slot in list(order):
        if slot.tag == "TIME_SLOT" and slot.get("TIME_SLOT_ID") not in used:
            _remove(slot)


def _update_last_used(root: Any, highest: int) -> None:
    for prop in root.iterfind("HEADER/PROPERTY"):
        if prop.get("NAME") == "lastUsedAnnotation":
            try:
                if int((prop.text or "0").strip()) < highest:
                    prop.text = str(highest)
            except ValueError:
                prop.text = str(highest)


def _outside_count(root: Any, dependents: list[Any], gold: Sequence[GoldSpan]) -> int:
    """Time-aligned annotations of dependent tiers not inside any gold span (in ms)."""
    slots = _slot_times(root)
    spans = [(_ms(s), _ms(e)) for s, e, _ in gold]
    n = 0
    for tier in dependents:
        for al in tier.iterfind("ANNOTATION/ALIGNABLE_ANNOTATION"):
            a, b = slots.get(al.get("TIME_SLOT_REF1")), slots.get(al.get("TIME_SLOT_REF2"))
            if a is None or b is None:
                continue
            n += not any(s <= a and b <= e for s, e in spans)
    return n
