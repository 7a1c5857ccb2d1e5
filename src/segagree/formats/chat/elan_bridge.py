"""CHAT in ELAN and back: what the ELAN writer writes for a Document read from CHAT, and what the ELAN
reader restores from such a file, so that CHAT -> ELAN -> CHAT gives the transcript back.

In the ELAN file (the convention of CLAN's and pylangacq's CHAT-to-ELAN conversions):

* a unit tier per speaker code (``CHI``; ``PARTICIPANT`` the speaker's name), each utterance one
  annotation whose value is the **main tier as written** without ``*CODE:`` and without its time
  bullets: its words, CHAT marks and terminator (``what's that ! [?]``, ``+< yes .``), so ELAN shows
  what the transcriber wrote and the terminator is not re-spelled as a Du Bois endnote;
* each **dependent tier** (``%mor``, ``%gra``, ``%com`` ...) a ``Symbolic_Association`` child tier
  named ``mor@CHI`` (``{tier}@{code}``), one annotation per utterance that has it;
* a header property ``segagree-chat`` (JSON) with what ELAN has no place for: the CHAT header and
  trailer lines, the lines between utterances (comments, gems), which utterances continue a main tier
  (SBCSAE's one intonation unit per line), and the lines of utterances whose ELAN value and child
  tiers do not give them back exactly (a main tier over several lines, bullets inside it, dependent
  tiers over several lines, in their order), each with the value written, so that a value edited in
  ELAN is read as edited.

Reading such a file back, the unit's words come from the ELAN word tier (as for every file segagree
writes) and its boundary from the value's terminator (:mod:`segagree.formats.chat.terminators`); the
CHAT token columns (``chat_code``, ``chat_raw``, ``chat_deps``, ``chat_before``, ``terminator``) and
``meta['chat']`` are restored, and the CHAT writer writes each unchanged utterance as it was read.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from segagree.formats.chat.lines import DEP, bullet_times_quiet, content_of, span
from segagree.formats.chat.marks import BULLET, tokenise
from segagree.formats.chat.terminators import terminator_code
from segagree.model import BoundaryScheme, Document
from segagree.model.losses import LossReport

PROP_CHAT = "segagree-chat"
DEP_TYPE = "chat-dependent"
# The token columns this bridge writes into the ELAN file (and restores from it).
WRITTEN_COLUMNS = ("chat_code", "chat_raw", "chat_deps", "chat_before", "terminator")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_OVERFLOW = re.compile(r" \(\d+\)_*$")


@dataclass
class ChatForElan:
    """What the ELAN writer writes for a CHAT document: per unit its value, its tier (speaker code)
    and its dependent tiers ``(name, value)``, and the header property."""

    values: list[str | None]
    codes: list[str | None]
    deps: list[list[tuple[str, str]]]
    stash: dict[str, Any] = field(default_factory=dict)
    raw_of: list[tuple[str, str, str, str]] = field(default_factory=list)  # per unit: raw, deps, before, value

    def property_value(self, aids: Sequence[str], tier_of_unit: Sequence[str]) -> str:
        """The ``segagree-chat`` property, with each unit's kept lines under its annotation id."""
        keep: dict[str, Any] = {}
        cont: list[str] = []
        # The reader gives a unit's dependent tiers in the order of the child tiers of its tier.
        names: dict[str, list[str]] = {}
        for tid, dep_list in zip(tier_of_unit, self.deps, strict=True):
            names.setdefault(tid, [])
            names[tid].extend(n for n, _ in dep_list if n not in names[tid])
        units = zip(aids, tier_of_unit, self.raw_of, self.deps, strict=True)
        for aid, tid, (raw, deps, before, value), dep_list in units:
            entry: dict[str, str] = {}
            if raw and raw[:1] in (" ", "\t"):
                cont.append(aid)
            in_order = sorted(dep_list, key=lambda d: names[tid].index(d[0]))
            rebuilt_raw, rebuilt_deps = _rebuilt(value, raw), "\n".join(f"%{n}:\t{v}" for n, v in in_order)
            if raw and raw != rebuilt_raw:
                entry["raw"] = raw
            if deps != rebuilt_deps:
                entry["deps"] = deps
            if before:
                entry["before"] = before
            if entry:
                entry["value"] = value
                keep[aid] = entry
        payload = {**self.stash, "units": keep, "continues": cont, "order": list(aids)}
        return json.dumps(payload, ensure_ascii=True)


def _clean_value(raw: str) -> str:
    """A main tier's content for an ELAN value: no ``*CODE:``, no bullets, one line, XML-safe."""
    content = content_of(raw.split("\n")) if raw else ""
    content = BULLET.sub(" ", content)
    return " ".join(_NOT_XML.sub("", content).split())


def _rebuilt(value: str, raw: str) -> str:
    """The main-tier line the reader rebuilds from an ELAN value (and the raw line's code and times)."""
    head = raw.split("\n", 1)[0]
    code = head[1 : head.index(":")] if head.startswith("*") and ":" in head else ""
    start, end = span(bullet_times_quiet(raw))
    bullet = f" \x15{round(start * 1000)}_{round(end * 1000)}\x15" if start is not None and end is not None else ""
    lead = "\t" if raw[:1] in (" ", "\t") or not code else f"*{code}:\t"
    return f"{lead}{value}{bullet}"


def _dependents(deps: str) -> list[tuple[str, str]]:
    """A unit's dependent tiers as (name, content) pairs, continuation lines joined."""
    out: list[tuple[str, str]] = []
    for line in deps.split("\n") if deps else []:
        m = DEP.match(line)
        if m:
            out.append((m.group(1), m.group(2).strip()))
        elif out and line[:1] in (" ", "\t"):
            name, value = out[-1]
            out[-1] = (name, f"{value} {line.strip()}".strip())
    return [(n, " ".join(_NOT_XML.sub("", v).split())) for n, v in out]


def chat_for_elan(
    doc: Document, units: Sequence[Any], scheme: BoundaryScheme, losses: LossReport
) -> ChatForElan | None:
    """The CHAT parts of a Document read from CHAT (None for any other Document). A unit whose words,
    boundary or times changed since reading (a decision of a review) is written from its tokens, and
    its dependent tiers, which may no longer fit, are not written (counted)."""
    if "chat_raw" not in doc.meta_columns():
        return None
    from segagree.formats.chat.cha import raw_fits  # (the CHAT writer's own rule)

    columns = {c: doc.column(c) for c in WRITTEN_COLUMNS if c in doc.meta_columns()}
    found = doc.meta.get("chat")
    chat: dict[str, Any] = found if isinstance(found, dict) else {}
    layout = {"ca": bool(chat.get("ca")), "iu_layout": bool(chat.get("iu_layout"))}
    text, starts, ends = doc.column("text"), doc.column("start"), doc.column("end")
    dropped = 0

    def first(name: str, u: Any) -> str:
        values = columns.get(name)
        v = values[u.rows[0]] if values is not None else ""
        return v if isinstance(v, str) else ""

    out = ChatForElan([], [], [])
    for u in units:
        raw, deps = first("chat_raw", u), first("chat_deps", u)
        toks = [str(text[r]) for r in u.rows]
        fits = bool(raw) and raw_fits(
            raw, toks, u.boundary, float(starts[u.rows[0]]), float(ends[u.rows[-1]]), scheme, **layout
        )
        if not fits:
            dropped += bool(deps)
            raw, deps = "", ""
        value = _clean_value(raw) if raw else None
        out.values.append(value)
        out.codes.append(first("chat_code", u) or None)
        out.deps.append(_dependents(deps))
        out.raw_of.append((raw, deps, first("chat_before", u), value or ""))
    losses.add_count(
        "dependent-tiers-dropped",
        "utterances whose words, terminator or times changed lose their dependent tiers",
        dropped,
    )
    if chat:
        out.stash["meta"] = chat
    out.stash["speakers"] = list(doc.speakers)
    return out


def add_dependent_tiers(eaf: Any, chat: ChatForElan, aids: Sequence[str], tier_of_unit: Sequence[str]) -> None:
    """The ``{name}@{tier}`` Symbolic_Association tiers of every unit's dependent tiers (in the order
    they first appear under each unit tier), one annotation per unit that has it."""
    made: dict[str, str] = {}
    next_id = max([eaf.maxaid, *(int(a[1:]) for a in eaf.annotations if a[:1] == "a" and a[1:].isdigit())])
    if any(chat.deps):
        eaf.add_linguistic_type(DEP_TYPE, constraints="Symbolic_Association", timealignable=False)
    for aid, tid, deps in zip(aids, tier_of_unit, chat.deps, strict=True):
        for name, value in deps:
            dep_tier = f"{name}@{tid}"
            if dep_tier not in made:
                participant = eaf.tiers[tid][2].get("PARTICIPANT")
                eaf.add_tier(dep_tier, ling=DEP_TYPE, parent=tid, part=participant)
                made[dep_tier] = tid
            next_id += 1
            ref_id = f"a{next_id}"
            eaf.tiers[dep_tier][1][ref_id] = (aid, value, None, None)
            eaf.annotations[ref_id] = dep_tier
    eaf.maxaid = next_id


def is_chat_file(properties: dict[str, str]) -> bool:
    """Whether an ELAN file was written from CHAT by segagree (its header property)."""
    return PROP_CHAT in properties


def chat_stash(properties: dict[str, str]) -> dict[str, Any]:
    """The ``segagree-chat`` property read back ({} when absent or damaged)."""
    try:
        stash = json.loads(properties.get(PROP_CHAT) or "{}")
    except ValueError:
        return {}
    return stash if isinstance(stash, dict) else {}


@lru_cache(maxsize=8192)
def _terminator(value: str, ca: bool) -> str | None:
    """A main tier's terminator (asked for twice per unit on reading: once for the boundary, once
    for the ``terminator`` column)."""
    return tokenise(value, ca=ca)[1]


def value_boundary(value: str, scheme: BoundaryScheme, iu_layout: bool, ca: bool = False) -> int | None:
    """The boundary code of a CHAT main tier written as an ELAN value: its terminator's."""
    term = _terminator(value, ca)
    if term is None and iu_layout:
        return terminator_code(",", scheme)
    return terminator_code(term, scheme)


def restore_chat_columns(
    doc: Document, eaf: Any, tiers: Sequence[str], aids: Sequence[str], properties: dict[str, str]
) -> None:
    """Give a Document read from a CHAT-derived ELAN file its CHAT token columns and ``meta['chat']``."""
    stash = chat_stash(properties)
    kept: dict[str, Any] = stash["units"] if isinstance(stash.get("units"), dict) else {}
    continues = set(stash.get("continues") or [])
    children: dict[str, list[str]] = {}
    for tid, tier in eaf.tiers.items():
        parent = tier.attrs.get("PARENT_REF")
        if parent and tid.endswith("@" + parent):
            children.setdefault(parent, []).append(tid)
    value_of = {aid: value for tier in eaf.tiers.values() for aid, _, _, value in tier.aligned}
    refs = {t: {ref: value for ref, value, _ in eaf.tiers[t].refs.values()} for ts in children.values() for t in ts}
    starts, ends = doc.column("start"), doc.column("end")
    meta: dict[str, Any] = stash["meta"] if isinstance(stash.get("meta"), dict) else {}
    cols: dict[str, list[str]] = {c: [] for c in WRITTEN_COLUMNS}
    units = list(doc.units())
    for u, tid, aid in zip(units, tiers, aids, strict=True):
        code = _OVERFLOW.sub("", tid)
        value = value_of.get(aid, "")
        entry: dict[str, Any] = kept[aid] if isinstance(kept.get(aid), dict) else {}
        same = entry.get("value") == value
        s, e = float(starts[u.rows[0]]), float(ends[u.rows[-1]])
        raw = str(entry["raw"]) if same and entry.get("raw") else _line(code, value, s, e, aid in continues)
        deps = [f"%{t.split('@', 1)[0]}:\t{refs[t][aid]}" for t in children.get(tid, []) if aid in refs[t]]
        dep_text = str(entry["deps"]) if same and "deps" in entry else "\n".join(deps)
        cols["chat_code"].append(code)
        cols["chat_raw"].append(raw)
        cols["chat_deps"].append(dep_text)
        cols["chat_before"].append(str(entry.get("before", "")))
        cols["terminator"].append(_terminator(value, bool(meta.get("ca"))) or "")
    firsts = np.asarray([u.rows[0] for u in units], dtype=np.int64)
    owner = np.full(doc.n_tokens, -1, dtype=np.int64)  # each token's unit
    for k, u in enumerate(units):
        if u.rows[-1] - u.rows[0] + 1 == len(u.rows):
            owner[u.rows[0] : u.rows[-1] + 1] = k  # (a slice: one fancy index per unit was most of the time)
        else:
            owner[list(u.rows)] = k
    for name, per_unit in cols.items():
        per = np.asarray(per_unit, dtype=object)
        if name in ("chat_code", "terminator"):  # on every token of the unit, as the CHAT reader has them
            values = np.where(owner >= 0, per[np.maximum(owner, 0)], "").astype(object)
        else:  # on the unit's first token only
            values = np.full(doc.n_tokens, "", dtype=object)
            values[firsts] = per
        doc.set_column(name, values)
    if meta:
        doc.meta["chat"] = meta
    speakers = stash.get("speakers")
    if isinstance(speakers, list) and set(doc.speakers) <= set(speakers):
        doc.speakers = [str(s) for s in speakers]  # silent participants have no tier in ELAN


def dependent_tier_ids(eaf: Any) -> set[str]:
    """The tiers of a CHAT-derived ELAN file that hold dependent tiers (``mor@CHI`` under ``CHI``)."""
    return {tid for tid, tier in eaf.tiers.items() if (p := tier.attrs.get("PARENT_REF")) and tid.endswith("@" + p)}


def discourse_order(units: list[Any], properties: dict[str, str], aid_at: int, start_at: int) -> list[Any]:
    """The units of a CHAT-derived ELAN file in the utterance order of the CHAT file (kept in the
    header property: ELAN orders tiers by time only); units added since, by time among them."""
    order = chat_stash(properties).get("order")
    if not isinstance(order, list):
        return units
    rank = {aid: i for i, aid in enumerate(order)}
    known = sorted((u for u in units if u[aid_at] in rank), key=lambda u: rank[u[aid_at]])
    for new in (u for u in units if u[aid_at] not in rank):
        t = new[start_at]
        at = next((k for k, u in enumerate(known) if u[start_at] == u[start_at] and u[start_at] > t), len(known))
        known.insert(at, new)
    return known


def _line(code: str, value: str, s: float, e: float, continues: bool) -> str:
    bullet = "" if math.isnan(s) or math.isnan(e) else f" \x15{round(s * 1000)}_{round(e * 1000)}\x15"
    return ("\t" if continues else f"*{code}:\t") + value + bullet
