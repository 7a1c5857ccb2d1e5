"""One tier of an ELAN file replaced, everything else of the file kept as it was.

An adjudicated gold of time units is the reference annotator's file with only the reviewed tier
changed (:mod:`segagree.adjudication.time_source`): its header (media descriptors, properties),
the other tiers and their time slots, linguistic types, controlled vocabularies, languages and
licence stay the same elements, serialised by lxml as they were read.

On the replaced tier, a gold unit that *is* an annotation of the file (its
:class:`~segagree.formats.gold_spans.Origin`: the source annotation with that time span, kept) is
that annotation as it is: its id, slots, value as written, attributes, and the dependent
annotations that refer to it. A gold unit that *replaces* one (a decision changed its times or its
label) continues that annotation: same id, so its symbolic dependents stay; its slots moved to the
new times (a slot no other annotation uses is moved in place, else a new one is made); its value
kept when only the times changed. A gold unit without an origin is kept as an annotation whose
time span (in ms) and value equal it, else gets a new annotation (new ids after the file's highest
``a<N>``, new time slots after its highest ``ts<N>``; ``lastUsedAnnotation`` updated). The other
annotations of the tier are removed; time slots no annotation refers to any more are removed. A
gold unit's time is written in whole milliseconds (``times-rounded`` when that rounds).

What cannot stay as it was is reported, one annotation per line (tier, time, value): symbolic
annotations of dependent tiers that referred to a removed annotation are removed with it
(``dependent-dropped``); time-aligned dependent annotations (``Included_In``,
``Time_Subdivision``) are kept, and those no longer inside a gold annotation are listed
(``dependent-outside``); removed annotations' ``CVE_REF``, ``EXT_REF`` and ``LANG_REF`` attributes
are counted (``annotation-attributes-dropped``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lxml import etree

from segagree.errors import InputError
from segagree.files.atomic import atomic_path
from segagree.files.memory import read_bytes
from segagree.files.xml import parse_xml
from segagree.formats.gold_spans import GoldSpan, Origin
from segagree.model.losses import LossReport

__all__ = ["GoldSpan", "replace_eaf_tier"]

# (tier, start ms, end ms, value) of a dependent annotation listed in the report.
_Listed = tuple[str, int | None, int | None, str]
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


def _drop_orphans(dependents: list[Any], removed: dict[str, tuple[int | None, int | None]]) -> list[_Listed]:
    """Remove the symbolic annotations of dependent tiers that refer to a removed annotation (and,
    level by level, those that refer to them); each one's tier, its parent's time span and value."""
    dropped: list[_Listed] = []
    gone = dict(removed)
    changed = True
    while changed:
        changed = False
        for tier in dependents:
            for ann in list(tier.iterfind("ANNOTATION")):
                ref = ann.find("REF_ANNOTATION")
                if ref is not None and ref.get("ANNOTATION_REF") in gone:
                    span = gone[ref.get("ANNOTATION_REF")]
                    gone[ref.get("ANNOTATION_ID")] = span
                    dropped.append((tier.get("TIER_ID"), *span, ref.findtext("ANNOTATION_VALUE") or ""))
                    _remove(ann)
                    changed = True
    return dropped


def _remove(el: Any) -> None:
    """Remove an element, keeping the whitespace that followed it in place of its own."""
    parent = el.getparent()
    previous = el.getprevious()
    if previous is not None:
        previous.tail = el.tail
    else:
        parent.text = el.tail
    parent.remove(el)


def replace_eaf_tier(
    source: Path,
    output: Path,
    tier_id: str,
    gold: Sequence[GoldSpan],
    origins: Sequence[Origin | None] = (),
    reviewed: Sequence[tuple[float, float]] | None = None,
) -> LossReport:
    """Write ``source`` to ``output`` with tier ``tier_id``'s annotations replaced by ``gold``
    (ordered, not overlapping: the caller checks), everything else kept (see the module docstring).
    ``origins``: for each gold unit, the source annotation it is or replaces (None: a new unit).
    ``reviewed``: the spans (s) of the tier's annotations the review held; given, an annotation
    the review did not hold (outside its window, a pause) stays as it was where no gold unit
    overlaps it, and is listed where one does (``unit-dropped``).

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
    order = root.find("TIME_ORDER")
    if order is None:
        raise InputError("the file has no TIME_ORDER", path=source)
    state = _Placing(root, tier, order)
    rounded = 0
    placed: dict[int, Any] = {}
    # Units with an origin first: an equal-looking unit without one must not take their annotation.
    first_origins = sorted(range(len(gold)), key=lambda k: k >= len(origins) or origins[k] is None)
    for k in first_origins:
        start, end, value = gold[k]
        s_ms, e_ms = _ms(start), _ms(end)
        rounded += abs(s_ms - start * 1000.0) > 1e-6 or abs(e_ms - end * 1000.0) > 1e-6
        placed[k] = state.place(s_ms, e_ms, value, origins[k] if k < len(origins) else None)
    new_children = [placed[k] for k in range(len(gold))]
    if reviewed is not None:
        new_children += _not_reviewed(state, gold, reviewed, tier_id, losses)
        new_children.sort(key=lambda ann: state.span_of(ann.find("ALIGNABLE_ANNOTATION"))[0] or 0)
    removed = [ann for ann in state.annotations if id(ann) not in state.used]
    removed_spans = {}
    for ann in removed:
        al = ann.find("ALIGNABLE_ANNOTATION")
        removed_spans[al.get("ANNOTATION_ID")] = state.span_of(al)
    attributes = sum(any(ann.find("ALIGNABLE_ANNOTATION").get(a) for a in _ATTRIBUTES_DROPPED) for ann in removed)
    for child in list(tier):
        tier.remove(child)
    tier.text = state.inner if new_children else None
    for k, ann in enumerate(new_children):
        ann.tail = state.inner if k < len(new_children) - 1 else state.last
        tier.append(ann)
    _add_slots(order, state.new_slots)
    dependents = _dependents(root, tier_id)
    orphans = _drop_orphans(dependents, removed_spans)
    _drop_unused_slots(root, order)
    _update_last_used(root, state.next_aid - 1)
    losses.add_count(
        "times-rounded", f"gold times on tier {tier_id!r} rounded to whole milliseconds (ELAN's unit)", rounded
    )
    for dep_tier, a, b, value in orphans:
        losses.add(
            "dependent-dropped",
            f"{value!r} referred to an annotation of {tier_id!r} the gold does not keep, and was removed with it",
            where=_place(dep_tier, a, b),
        )
    for dep_tier, a, b, value in _outside(root, dependents, gold):
        losses.add(
            "dependent-outside",
            f"{value!r} kept as it was, no longer inside a gold annotation of {tier_id!r} (check it in ELAN)",
            where=_place(dep_tier, a, b),
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


def _not_reviewed(
    state: _Placing, gold: Sequence[GoldSpan], reviewed: Sequence[tuple[float, float]], tier_id: str, losses: LossReport
) -> list[Any]:
    """The annotations of the tier the review did not hold, kept where no gold unit overlaps
    them; the others listed as dropped."""
    held = {(_ms(s), _ms(e)) for s, e in reviewed}
    spans = [(_ms(s), _ms(e)) for s, e, _ in gold]
    kept = []
    for ann in state.annotations:
        al = ann.find("ALIGNABLE_ANNOTATION")
        a, b = state.span_of(al)
        if id(ann) in state.used or (a, b) in held or a is None or b is None:
            continue
        if any(s < b and a < e for s, e in spans):
            losses.add(
                "unit-dropped",
                f"{al.findtext('ANNOTATION_VALUE') or ''!r} was not in the review and overlaps a gold unit",
                where=_place(tier_id, a, b),
            )
            continue
        state.used.add(id(ann))
        kept.append(ann)
    return kept


def _place(tier: str, a: int | None, b: int | None) -> str:
    """``tier 'lex@CHI' 5.2-6 s`` (the annotation's or its parent's time span)."""
    if a is None or b is None:
        return f"tier {tier!r} (unaligned)"
    return f"tier {tier!r} {a / 1000:g}-{b / 1000:g} s"


class _Placing:
    """The annotations of the replaced tier and the gold units placed on it one by one."""

    def __init__(self, root: Any, tier: Any, order: Any) -> None:
        self.slots = _slot_times(root)
        self.annotations = list(tier.iterfind("ANNOTATION"))
        self.used: set[int] = set()
        # The tier's annotations by id and by span (ms), in file order: each gold unit looks up its own.
        self.by_id: dict[str, list[Any]] = {}
        self.by_span: dict[tuple[int | None, int | None], list[Any]] = {}
        for ann in self.annotations:
            al = ann.find("ALIGNABLE_ANNOTATION")
            self.by_id.setdefault(al.get("ANNOTATION_ID") or "", []).append(ann)
            self.by_span.setdefault(self.span_of(al), []).append(ann)
        self.refs: Counter[str] = Counter()
        for al in root.iter("ALIGNABLE_ANNOTATION"):
            self.refs.update((al.get("TIME_SLOT_REF1"), al.get("TIME_SLOT_REF2")))
        self.by_order = {slot.get("TIME_SLOT_ID"): slot for slot in order.iterfind("TIME_SLOT")}
        all_ids = [el.get("ANNOTATION_ID") or "" for el in root.iter("ALIGNABLE_ANNOTATION", "REF_ANNOTATION")]
        self.next_aid, self.next_ts = _next_number(all_ids), _next_number(list(self.slots))
        self.inner, self.last, self.step = _indent(tier)
        self.new_slots: list[tuple[str, int]] = []

    def span_of(self, al: Any) -> tuple[int | None, int | None]:
        return self.slots.get(al.get("TIME_SLOT_REF1")), self.slots.get(al.get("TIME_SLOT_REF2"))

    def _find(self, span: tuple[int, int], value: str | None, aid: str = "") -> Any:
        """The first unused annotation of the tier with that id (if given), else with that span
        (and value, unless None)."""
        for ann in self.by_id.get(aid, []) if aid else self.by_span.get(span, []):
            al = ann.find("ALIGNABLE_ANNOTATION")
            if id(ann) in self.used:
                continue
            if aid or value is None or (al.findtext("ANNOTATION_VALUE") or "") == value:
                self.used.add(id(ann))
                return ann
        return None

    def place(self, s_ms: int, e_ms: int, value: str, origin: Origin | None) -> Any:
        """The annotation of one gold unit: its source annotation (kept or continued), an equal
        one, or a new one."""
        if origin is not None:
            ann = self._find((_ms(origin.start), _ms(origin.end)), None, origin.annotation_id)
            if ann is not None:
                al = ann.find("ALIGNABLE_ANNOTATION")
                if self.span_of(al) != (s_ms, e_ms):
                    self._retime(al, s_ms, e_ms)
                if not origin.kept and not origin.same_label:
                    value_el = al.find("ANNOTATION_VALUE")
                    if value_el is None:
                        value_el = etree.SubElement(al, "ANNOTATION_VALUE")
                    value_el.text = value
                return ann
        same = self._find((s_ms, e_ms), value)
        if same is not None:
            return same
        ts1, ts2 = self._new_slot(s_ms), self._new_slot(e_ms)
        ann = _annotation(f"a{self.next_aid}", ts1, ts2, value, self.inner, self.step)
        self.next_aid += 1
        return ann

    def _new_slot(self, ms: int) -> str:
        sid = f"ts{self.next_ts}"
        self.next_ts += 1
        self.new_slots.append((sid, ms))
        self.slots[sid] = ms
        return sid

    def _retime(self, al: Any, s_ms: int, e_ms: int) -> None:
        """Move a continued annotation to new times: a slot it alone uses is given the new time,
        a shared one is left to the others and a new slot made."""
        for attr, ms in (("TIME_SLOT_REF1", s_ms), ("TIME_SLOT_REF2", e_ms)):
            sid = al.get(attr)
            if self.slots.get(sid) == ms:
                continue
            if self.refs[sid] == 1 and sid in self.by_order:
                self.by_order[sid].set("TIME_VALUE", str(ms))
                self.slots[sid] = ms
            else:
                self.refs[sid] -= 1
                al.set(attr, self._new_slot(ms))


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


def _outside(root: Any, dependents: list[Any], gold: Sequence[GoldSpan]) -> list[_Listed]:
    """Time-aligned annotations of dependent tiers not inside any gold span (in ms): tier, span, value."""
    slots = _slot_times(root)
    spans = [(_ms(s), _ms(e)) for s, e, _ in gold]
    out: list[_Listed] = []
    for tier in dependents:
        for al in tier.iterfind("ANNOTATION/ALIGNABLE_ANNOTATION"):
            a, b = slots.get(al.get("TIME_SLOT_REF1")), slots.get(al.get("TIME_SLOT_REF2"))
            if a is None or b is None:
                continue
            if not any(s <= a and b <= e for s, e in spans):
                out.append((tier.get("TIER_ID"), a, b, al.findtext("ANNOTATION_VALUE") or ""))
    return out
