"""EXMARaLDA basic transcriptions ``.exb`` (read and write), parsed with lxml.

Format (EXMARaLDA's ``basic-transcription.dtd``): ``<head>`` holds ``<meta-information>`` and
the ``<speakertable>`` (``<speaker id>`` with an ``<abbreviation>``, sex, languages and
user-defined ``<ud-information>``); ``<basic-body>`` holds the ``<common-timeline>`` (``<tli
id [time] [type="intp"]>`` points in document order; a point without ``time`` is untimed, one
with ``type="intp"`` has an interpolated time) and ``<tier id speaker category type>`` s of
``<event start end>`` s between two points. Tier types: ``t`` transcription, ``a`` annotation,
``d`` description.

How it maps to the model (reading)
----------------------------------
* **units**: every non-empty event of a transcription tier (``type="t"``), as EXMARaLDA
  segments speech (HIAT transcripts split one utterance over several events, so a unit is an
  event, not an utterance); discourse order by the start point's position in the timeline, ties
  by tier order;
* **speaker** = the tier speaker's ``abbreviation`` (its id where that is empty); a speaker's
  second transcription tier is the speaker ``"ABBR [category]"``, and a transcription tier
  without a speaker (token layers of Pepper/ANNIS exports) is the speaker named by its category
  (else its id), so no two tiers' events are mixed into one stream. Every speaker of the
  speaker table is a speaker, also one without a transcription tier;
* **times**: the points' times; an untimed point stays unknown (NaN): its time is *not*
  interpolated, since EXMARaLDA's own interpolation is only an editing aid. Interpolated
  points (``type="intp"``) keep their time and type;
* **tokens** = the event text split at whitespace, with a final Du Bois endnote split off
  (:func:`segagree.formats.endnotes.split_endnote`; HIAT's ``…`` and ``˙`` are not endnotes
  and stay in the word);
* kept for writing back (``meta['exb']`` and the columns ``exb_tier``, ``exb_start``,
  ``exb_end``): the meta-information, the speaker table, the timeline, the attributes of every
  tier, the annotation and description tiers (type ``a``/``d``) with their events, and the
  ``tierformat-table``; reported: empty events and ``ud-information`` inside events.
* a file without tiers (``pepper_expected_empty_doc1.exb``: empty speaker table, no timeline, no
  tiers) or whose transcription tiers have no text is an InputError: there is nothing to score.

Writing
-------
A document read from ``.exb`` whose units still sit on their own timeline points is written with
its timeline, speaker table, tier attributes and annotation tiers as read. Any other document gets
a new timeline (every distinct unit time; a unit without times gets untimed points placed after
the previous unit in discourse order), one speaker and one ``v`` transcription tier per speaker,
and one event per unit (tokens and endnote as text); annotation tiers of the old timeline are then
dropped (``tiers-dropped``). Overlapping units of one speaker share its tier
(``overlap-in-tier``: EXMARaLDA's editor expects none), and units whose timeline order differs from
the document's order are read back in timeline order (``reordered``).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from lxml import etree

from segagree.errors import InputError, SegagreeError
from segagree.files.atomic import atomic_path
from segagree.files.xml import check_xml_text, note_xml_read_losses, read_root
from segagree.formats.base import Adapter
from segagree.formats.endnotes import endnote_text, labels_as_written, split_endnote, unit_layer_to_write
from segagree.formats.timing import BadTime, parse_seconds
from segagree.model import BoundaryScheme, Document, builtin_scheme, from_units
from segagree.model.losses import LossReport

OWN_COLUMNS = ("exb_tier", "exb_start", "exb_end")
EXPECTED = "an EXMARaLDA basic transcription (<basic-transcription>)"


def _event_text(ev: etree._Element) -> str:
    """The event's text without the text of ``ud-information`` children."""
    return (ev.text or "") + "".join(child.tail or "" for child in ev)


def _xml_string(el: etree._Element | None) -> str:
    return etree.tostring(el, encoding="unicode") if el is not None else ""


# Elements read (or kept in meta) under each parent; anything else is reported as not read.
_KNOWN_CHILDREN = {
    "basic-transcription": ("head", "basic-body", "tierformat-table"),
    "head": ("meta-information", "speakertable"),
    "basic-body": ("common-timeline", "tier"),
    "common-timeline": ("tli",),
    "tier": ("event",),
}


def _unread_elements(root: etree._Element) -> dict[str, tuple[int, int]]:
    """``<parent>``'s ``<child>`` elements and XML comments the reader neither reads nor keeps:
    (count, first line) by description. (``head``'s parts are kept whole, as XML.)"""
    found: dict[str, tuple[int, int]] = {}
    # Annotation and description tiers are kept whole (as XML); transcription tiers are not.
    t_tiers = [t for t in root.iterfind("basic-body/tier") if t.get("type") == "t"]
    for parent, known in _KNOWN_CHILDREN.items():
        parents = [root] if parent == root.tag else t_tiers if parent == "tier" else root.iter(parent)
        for el in parents:
            for child in el:
                if isinstance(child.tag, str) and child.tag in known:
                    continue
                if parent == "head" and not isinstance(child.tag, str):
                    continue  # comments beside the kept meta-information: harmless
                what = f"<{child.tag}> in <{parent}>" if isinstance(child.tag, str) else f"an XML comment in <{parent}>"
                n, line = found.get(what, (0, child.sourceline or 0))
                found[what] = (n + 1, line)
    for ev in (ev for t in t_tiers for ev in t.iterfind("event")):
        for child in ev:
            if not (isinstance(child.tag, str) and child.tag == "ud-information"):
                what = f"<{child.tag}> in <event>" if isinstance(child.tag, str) else "an XML comment in <event>"
                n, line = found.get(what, (0, child.sourceline or 0))
                found[what] = (n + 1, line)
    return found


def read(path: Path, *, scheme: BoundaryScheme | None = None, **_: Any) -> Document:
    """Read an EXMARaLDA basic transcription into a Document (see the module docstring)."""
    scheme = scheme or builtin_scheme("dubois")
    path = Path(path)
    tree, root, misdeclared = read_root(path, "basic-transcription", EXPECTED)
    body = root.find("basic-body")
    if body is None:
        raise InputError(f"no <basic-body>; expected {EXPECTED}", path=path)
    tiers = body.findall("tier")
    if not tiers:
        raise InputError("no tiers in <basic-body>: the transcription is empty, nothing to read", path=path)
    line = _Timeline(path)
    for tli in body.iterfind("common-timeline/tli"):
        line.add(tli)
    name_of = _speaker_table(root)
    speakers = list(name_of.values())
    found = _Events()
    table_names = set(speakers)
    for t_pos, tier in enumerate(tiers):
        _read_tier(tier, t_pos, name_of, table_names, line, scheme, path, found)
    if not found.units:
        raise InputError("no transcription tier (type 't') has text; nothing to read", path=path)
    found.units.sort(key=lambda r: r[:3])
    head = root.find("head")
    meta = {
        "exb": {
            "meta_information": _xml_string(head.find("meta-information")) if head is not None else "",
            "speakertable": _xml_string(head.find("speakertable")) if head is not None else "",
            "timeline": line.points,
            "tiers": found.tier_attrs,
            "tier_speakers": found.tier_speaker,
            "other_tiers": found.other_tiers,
            "tierformat_table": _xml_string(root.find("tierformat-table")),
        }
    }
    speakers += [s for s in dict.fromkeys(found.tier_speaker.values()) if s not in table_names]
    doc = from_units(
        path.stem,
        [u for *_, u in found.units],
        layer="iu",
        scheme=scheme,
        speakers=speakers,
        source_path=str(path),
        source_format="exmaralda",
        meta=meta,
    )
    if found.empty:
        doc.losses.add("events-dropped", "empty events of transcription tiers are no units", count=found.empty)
    note_xml_read_losses(doc, tree, misdeclared, _unread_elements(root))
    if found.ud_in_events:
        doc.losses.add("meta-dropped", "<ud-information> inside events is not kept", count=found.ud_in_events)
    if line.clamped:
        doc.losses.add(
            "repaired",
            f"timeline points a little earlier (at most {MAX_CLAMP * 1000:g} ms) than the point before them "
            "were moved to its time",
            where=line.clamped[0],
            count=len(line.clamped),
        )
    return doc


# Timeline points this much (seconds) earlier than the point before them are rounding noise
# (2.3e-7 s in a published INEL file) and are moved to its time; larger inversions are refused.
MAX_CLAMP = 0.001


class _Timeline:
    """The common timeline: points in document order (id, time, type), their index by id, and
    the places of points whose time was clamped."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.points: list[dict[str, Any]] = []
        self.index: dict[str, int] = {}
        self.clamped: list[str] = []
        self._last: tuple[float, str] | None = None

    def add(self, tli: etree._Element) -> None:
        """Add one ``<tli>``: an id not seen before and a possible time that does not decrease."""
        path = self.path
        tid = tli.get("id")
        if not tid:
            raise InputError("a <tli> without an id", path=path, place=f"line {tli.sourceline}")
        if tid in self.index:
            raise InputError(f"duplicate timeline point id {tid!r}", path=path, place=f"line {tli.sourceline}")
        try:
            time = parse_seconds(tli.get("time"))
        except BadTime as why:
            raise InputError(
                f"time of point {tid!r} is not a time in a recording: {why}", path=path, place=f"line {tli.sourceline}"
            ) from None
        last = self._last
        if time is not None and last is not None and time < last[0]:
            if last[0] - time > MAX_CLAMP:
                raise InputError(
                    f"point {tid!r} at {time} s comes after point {last[1]!r} at {last[0]} s "
                    "in the timeline; expected times that do not decrease in document order",
                    path=path,
                    place=f"line {tli.sourceline}",
                )
            self.clamped.append(f"line {tli.sourceline}, point {tid!r}")
            time = last[0]
        if time is not None:
            self._last = (time, tid)
        self.index[tid] = len(self.points)
        self.points.append({"id": tid, "time": time, "type": tli.get("type")})

    def time(self, tid: str) -> float | None:
        time: float | None = self.points[self.index[tid]]["time"]
        return time


def _speaker_table(root: etree._Element) -> dict[str, str]:
    """Speaker id -> name: its abbreviation (its id when blank or taken)."""
    name_of: dict[str, str] = {}
    for sp in root.findall("head/speakertable/speaker"):
        sid = sp.get("id") or ""
        name = (sp.findtext("abbreviation") or "").strip() or sid
        if name in name_of.values():
            name = sid
        name_of[sid] = name
    return name_of


@dataclass
class _Events:
    """What the tiers hold: units (with their sort key), tier attributes and speakers, the
    tiers that are not transcription tiers, and counts of what is not read."""

    units: list[tuple[int, int, int, dict[str, Any]]] = field(default_factory=list)
    tier_speaker: dict[str, str] = field(default_factory=dict)
    # How many tiers hold each name of tier_speaker, and how many "_" were last added to a name:
    # thousands of tiers of one speaker and category are named in linear time.
    name_count: Counter[str] = field(default_factory=Counter)
    underscores: dict[tuple[str, bool], int] = field(default_factory=dict)
    tier_attrs: list[dict[str, str]] = field(default_factory=list)
    other_tiers: list[dict[str, Any]] = field(default_factory=list)
    empty: int = 0
    ud_in_events: int = 0


def _name_tier(found: _Events, tid: str, name: str) -> None:
    """Record ``name`` as tier ``tid``'s speaker (a repeated tier id gives up its former name)."""
    old = found.tier_speaker.get(tid)
    if old is not None:
        found.name_count[old] -= 1
        if not found.name_count[old]:
            del found.name_count[old]
            found.underscores.clear()  # a freed name may be the first free one again
    found.tier_speaker[tid] = name
    found.name_count[name] += 1


def _tier_speaker(
    tier: etree._Element, tid: str, name_of: dict[str, str], speakers: set[str], found: _Events, path: Path
) -> str:
    """The speaker of a transcription tier: its speaker's name (with its category when another
    tier has that speaker), else its category or id; made unique among the tiers by adding ``_``
    until it is free (the count added last time is where the search resumes: names are only
    taken, so every shorter one is still taken)."""
    taken = found.name_count
    spk_id = tier.get("speaker")
    if spk_id:
        if spk_id not in name_of:
            raise InputError(
                f"tier {tid!r} names speaker {spk_id!r}, which is not in the speaker table",
                path=path,
                place=f"line {tier.sourceline}",
            )
        name = name_of[spk_id]
        if name in taken:
            name = f"{name} [{tier.get('category') or tid}]"
    else:
        name = (tier.get("category") or "").strip() or tid
    key = (name, bool(spk_id))  # a tier without a speaker also avoids the speaker table's names
    added = found.underscores.get(key, 0)
    name += "_" * added
    while name in taken or (name in speakers and not spk_id):
        name += "_"
        added += 1
    found.underscores[key] = added
    return name


def _read_tier(
    tier: etree._Element,
    t_pos: int,
    name_of: dict[str, str],
    speakers: set[str],
    line: _Timeline,
    scheme: BoundaryScheme,
    path: Path,
    found: _Events,
) -> None:
    """Add one tier to ``found``: a transcription tier's events as units, any other tier kept."""
    attrs = dict(tier.attrib)
    tid = attrs.get("id") or f"#{t_pos}"
    found.tier_attrs.append(attrs)
    if attrs.get("type") != "t":
        found.other_tiers.append({"attrs": attrs, "xml": _xml_string(tier)})
        return
    name = _tier_speaker(tier, tid, name_of, speakers, found, path)
    _name_tier(found, tid, name)
    index = line.index
    for e_pos, ev in enumerate(tier.iterfind("event")):
        s_id, e_id = ev.get("start"), ev.get("end")
        if s_id not in index or e_id not in index:
            raise InputError(
                f"event points {s_id!r}-{e_id!r} are not in the common timeline",
                path=path,
                place=f"line {ev.sourceline}, tier {tid!r}",
            )
        if index[e_id] <= index[s_id]:
            raise InputError(
                f"event ends at {e_id!r}, not after its start {s_id!r} in the timeline",
                path=path,
                place=f"line {ev.sourceline}, tier {tid!r}",
            )
        found.ud_in_events += sum(1 for c in ev if c.tag == "ud-information")
        written = _event_text(ev)
        words = written.split()
        if not words:
            found.empty += 1
            continue
        toks, code = split_endnote(words, scheme)
        if not toks:
            toks, code = words, None
        if code is None:
            code = scheme.unclassified_code
        if code is None:
            raise InputError(
                f"an event without an endnote, and the scheme {scheme.name!r} has no unclassified type",
                path=path,
                place=f"line {ev.sourceline}",
            )
        unit = {
            "speaker": name,
            "tokens": toks,
            "boundary": code,
            "start": line.time(s_id),
            "end": line.time(e_id),
            "meta": {"exb_tier": tid, "exb_start": s_id, "exb_end": e_id},
            "value": written,
        }
        found.units.append((index[s_id], t_pos, e_pos, unit))


# --- writing ---------------------------------------------------------------------------


def _fmt(t: float) -> str:
    return repr(float(t))


def _same(a: float | None, b: float) -> bool:
    return (a is None and math.isnan(b)) or (a is not None and not math.isnan(b) and a == b)


def _own_timeline(doc: Document, units: list[Any]) -> bool:
    """True when every unit still sits on the timeline points it was read from."""
    exb = doc.meta.get("exb") or {}
    timeline = exb.get("timeline")
    if not timeline or not all(c in doc.tokens.columns for c in OWN_COLUMNS):
        return False
    time_of = {p["id"]: p["time"] for p in timeline}
    tok = doc.tokens
    starts = tok["start"].to_numpy(dtype=float)
    ends = tok["end"].to_numpy(dtype=float)
    start_ids, end_ids = tok["exb_start"].to_numpy(), tok["exb_end"].to_numpy()  # (once, not per unit)
    for u in units:
        s_id, e_id = start_ids[u.rows[0]], end_ids[u.rows[0]]
        if s_id not in time_of or e_id not in time_of:
            return False
        if not (_same(time_of[s_id], starts[u.rows[0]]) and _same(time_of[e_id], ends[u.rows[-1]])):
            return False
    return True


class _Point:
    """A point of a new timeline: its time (None: untimed), its place in the list (``label``s
    increase along it; ``before``/``after``), the timed points around it in the list (``tprev``/
    ``tnext`` of a timed point; ``left``/``right`` of an untimed one, set when it is made)."""

    __slots__ = ("after", "before", "label", "left", "right", "time", "tnext", "tprev")

    def __init__(self, time: float | None) -> None:
        self.time = time
        self.label = 0
        self.before: _Point | None = None
        self.after: _Point | None = None
        self.tprev: _Point | None = None
        self.tnext: _Point | None = None
        self.left: _Point | None = None
        self.right: _Point | None = None


# Gap between the labels of neighbouring points after a relabelling: 256 points can be put into
# one place, one between the last two, before the list is labelled again.
_LABEL_GAP = 1 << 256


class _PointList:
    """The timeline as a linked list whose labels compare places in constant time (order
    maintenance: a new point takes the mean of its neighbours' labels; when there is no room the
    whole list is labelled again, at most once per 256 insertions into one place; a point put at
    the end takes the last label and one gap)."""

    def __init__(self, times: list[float]) -> None:
        self.head, self.tail = _Point(None), _Point(None)
        self.head.after, self.tail.before = self.tail, self.head
        self.first_timed: _Point | None = None
        last: _Point | None = None
        for t in times:
            p = _Point(t)
            self.insert_after(self.tail.before, p)
            self.link_timed(p, last, None)
            last = p

    def insert_after(self, node: _Point | None, new: _Point) -> None:
        node = node or self.head
        nxt = node.after
        assert nxt is not None
        if nxt is self.tail:
            # Appending (the usual case: units in discourse order) moves the tail on by a gap
            # instead: halving the last gap would label the whole list again every 256 points.
            new.label, nxt.label = node.label + _LABEL_GAP, node.label + 2 * _LABEL_GAP
        else:
            if nxt.label - node.label < 2:
                self._relabel()
            new.label = (node.label + nxt.label) // 2
        new.before, new.after, node.after, nxt.before = node, nxt, new, new

    def _relabel(self) -> None:
        node: _Point | None = self.head
        k = 0
        while node is not None:
            node.label = k * _LABEL_GAP
            node, k = node.after, k + 1

    def link_timed(self, new: _Point, left: _Point | None, right: _Point | None) -> None:
        """Put a timed point between the timed points ``left`` and ``right`` (None: the ends)."""
        new.tprev, new.tnext = left, right
        if left is None:
            self.first_timed = new
        else:
            left.tnext = new
        if right is not None:
            right.tprev = new

    def around(self, node: _Point) -> tuple[_Point | None, _Point | None]:
        """The timed points just before and just after a place right behind ``node``."""
        if node is self.head:
            return None, self.first_timed
        if node.time is not None:
            return node, node.tnext
        return node.left, node.right

    def points(self) -> list[_Point]:
        out, node = [], self.head.after
        while node is not None and node is not self.tail:
            out.append(node)
            node = node.after
        return out


def _new_timeline(units: list[Any], starts: Any, ends: Any) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """A timeline for units in discourse order, and each unit's (start, end) point ids.

    The timed points are the units' distinct times in order; an untimed start or end gets a point
    of its own next to its unit's other end or the previous unit's end. Places are compared by
    the labels of :class:`_PointList` (the list is never searched): linear in the units, where
    searching a Python list for each unit was quadratic."""
    times = sorted({t for u in units for t in (starts[u.rows[0]], ends[u.rows[-1]]) if not math.isnan(t)})
    line = _PointList(times)
    at: dict[float, _Point] = {}
    node = line.head.after
    while node is not None and node is not line.tail:
        assert node.time is not None
        at[node.time] = node
        node = node.after
    pairs: list[tuple[_Point, _Point]] = []
    prev: _Point | None = None

    def untimed_after(node: _Point | None) -> _Point:
        new = _Point(None)
        new.left, new.right = line.around(node or line.head)
        line.insert_after(node, new)
        return new

    for u in units:
        s, e = starts[u.rows[0]], ends[u.rows[-1]]
        if not math.isnan(s):
            sp = at[s]
            if prev is not None and prev.time is None and sp.label < prev.label:
                # After an untimed unit: a point of the same time behind it keeps the discourse order,
                # where the timed neighbours allow it (prev was made in the last step: its
                # neighbours are current).
                before, after = prev.left, prev.right
                if (before is None or before.time <= s) and (after is None or after.time >= s):
                    sp = _Point(s)
                    line.insert_after(prev, sp)
                    line.link_timed(sp, before, after)
                    at[s] = sp
        elif not math.isnan(e):
            target = at[e]
            sp = _Point(None)
            sp.left, sp.right = target.tprev, target
            line.insert_after(target.before, sp)
        else:
            sp = untimed_after(prev)
        if not math.isnan(e) and e > (s if not math.isnan(s) else -1.0):
            ep = at[e]
        elif math.isnan(e):
            ep = untimed_after(sp)
        else:
            ep = _Point(e)
            left, right = line.around(sp)
            line.insert_after(sp, ep)
            line.link_timed(ep, left, right)
        pairs.append((sp, ep))
        prev = ep
    points = line.points()
    ids = {id(p): f"T{k}" for k, p in enumerate(points)}
    timeline = [{"id": ids[id(p)], "time": p.time, "type": None} for p in points]
    return timeline, [(ids[id(a)], ids[id(b)]) for a, b in pairs]


def write(doc: Document, path: Path, *, losses: LossReport, **_: Any) -> None:
    """Write a Document as an EXMARaLDA basic transcription (see the module docstring)."""
    check_xml_text(doc, path)
    try:
        _write(doc, path, losses=losses)
    except ValueError as err:  # lxml refuses a value XML cannot hold (in metadata kept from elsewhere)
        raise SegagreeError(f"cannot be written as an EXMARaLDA basic transcription: {err}", path=path) from None


def _write(doc: Document, path: Path, *, losses: LossReport) -> None:
    layer = unit_layer_to_write(doc, losses, "EXMARaLDA")
    layer_name, scheme = layer.name, layer.scheme
    extra = [c for c in doc.meta_columns() if c not in OWN_COLUMNS]
    if extra:
        losses.add("meta-dropped", f"EXMARaLDA events keep no token metadata; dropped {extra}")
    exb = doc.meta.get("exb") or {}
    units = doc.units(layer_name)
    tok = doc.tokens
    text = tok["text"].to_numpy()
    starts, ends = _unit_times(doc, units, losses)

    own = _own_timeline(doc, units)
    root = etree.Element("basic-transcription")
    head = etree.SubElement(root, "head")
    tier_of_unit: list[str] = []
    tiers_out: list[dict[str, str]] = []
    if own:
        timeline = exb["timeline"]
        start_ids, end_ids = tok["exb_start"].to_numpy(), tok["exb_end"].to_numpy()
        points = [(str(start_ids[u.rows[0]]), str(end_ids[u.rows[0]])) for u in units]
        head.append(etree.fromstring(exb["meta_information"]) if exb.get("meta_information") else _meta_info(doc))
        head.append(etree.fromstring(exb["speakertable"]) if exb.get("speakertable") else etree.Element("speakertable"))
        known = {a.get("id"): a for a in exb.get("tiers") or []}
        tier_speakers = exb.get("tier_speakers") or {}
        tier_ids = tok["exb_tier"].to_numpy()
        for u in units:
            tid = str(tier_ids[u.rows[0]])
            if tid not in known or tier_speakers.get(tid) != u.speaker:
                own = False
                break
            tier_of_unit.append(tid)
        tiers_out = [a for a in exb.get("tiers") or []]
    if not own:
        if exb.get("other_tiers"):
            losses.add(
                "tiers-dropped",
                "annotation/description tiers refer to the old timeline and are not written",
                count=len(exb["other_tiers"]),
            )
        timeline, points = _new_timeline(units, starts, ends)
        head.clear()
        head.append(_meta_info(doc))
        tiers_out, tier_id = _new_speaker_table(doc, head, losses)
        tier_of_unit = [tier_id[u.speaker] for u in units]
        _note_new_order(doc, units, timeline, points, tier_of_unit, losses)

    body = etree.SubElement(root, "basic-body")
    tl = etree.SubElement(body, "common-timeline")
    for p in timeline:
        attrs = {"id": p["id"]}
        if p["time"] is not None:
            attrs["time"] = _fmt(p["time"])
        if p.get("type"):
            attrs["type"] = p["type"]
        etree.SubElement(tl, "tli", attrs)
    pos = {p["id"]: i for i, p in enumerate(timeline)}
    events: dict[str, list[tuple[int, int, str]]] = {a.get("id", ""): [] for a in tiers_out}
    changed = 0
    originals = labels_as_written(doc, units, scheme, losses, "an EXMARaLDA event")
    for k, u in enumerate(units):
        words = [str(text[r]) for r in u.rows]
        symbol = endnote_text(u.boundary, scheme)
        # An unchanged unit keeps its event text as the annotator wrote it.
        value = originals[k] or " ".join([*words, symbol] if symbol else words)
        back, code = split_endnote(value.split(), scheme)
        if back != words or (code if code is not None else scheme.unclassified_code) != u.boundary:
            changed += 1
        events[tier_of_unit[k]].append((pos[points[k][0]], k, value))
    losses.add_count(
        "tokens-changed", "units whose tokens (spaces, glued endnotes) will not read back the same", changed
    )
    other_xml = {t["attrs"].get("id"): t["xml"] for t in exb.get("other_tiers") or []} if own else {}
    for attrs in tiers_out:
        tid = attrs.get("id", "")
        if tid in other_xml:
            body.append(etree.fromstring(other_xml[tid]))
            continue
        if attrs.get("type") != "t" and not own:
            continue
        tier_el = etree.SubElement(body, "tier", attrs)
        for _, k, value in sorted(events.get(tid, [])):
            ev = etree.SubElement(tier_el, "event", {"start": points[k][0], "end": points[k][1]})
            ev.text = value
    if own and exb.get("tierformat_table"):
        root.append(etree.fromstring(exb["tierformat_table"]))
    elif exb.get("tierformat_table"):
        losses.add("meta-dropped", "the <tierformat-table> (display formats of the old tiers) is not written")
    etree.indent(root, space="  ")
    data = etree.tostring(etree.ElementTree(root), xml_declaration=True, encoding="UTF-8")
    with atomic_path(path) as tmp:
        tmp.write_bytes(data + b"\n")


def _unit_times(doc: Document, units: list[Any], losses: LossReport) -> tuple[np.ndarray, np.ndarray]:
    """Token times for the timeline: word times inside units are not written (reported), and a
    unit whose first word starts after its last word ends, which has no place on a timeline, is
    written untimed (reported)."""
    tok = doc.tokens
    starts = tok["start"].to_numpy(dtype=float)
    ends = tok["end"].to_numpy(dtype=float)
    inner = sum(
        1
        for u in units
        if any(not math.isnan(starts[r]) for r in u.rows[1:]) or any(not math.isnan(ends[r]) for r in u.rows[:-1])
    )
    losses.add_count("times-dropped", "word times inside units are not written", inner)
    # A unit whose first word starts after its last word ends has no place on a timeline.
    starts, ends = starts.copy(), ends.copy()
    backwards = [u for u in units if starts[u.rows[0]] > ends[u.rows[-1]]]
    for u in backwards:
        starts[u.rows[0]] = ends[u.rows[-1]] = math.nan
    if backwards:
        losses.add("times-dropped", "units that end before they start are written untimed", count=len(backwards))
    return starts, ends


def _new_speaker_table(
    doc: Document, head: etree._Element, losses: LossReport
) -> tuple[list[dict[str, str]], dict[str, str]]:
    """A new speaker table in ``head`` (one speaker ``SPKn`` and one transcription tier ``TIEn``
    per document speaker); names the reader gives back otherwise are reported."""
    table = etree.SubElement(head, "speakertable")
    tiers_out: list[dict[str, str]] = []
    tier_id: dict[str, str] = {}
    for k, spk in enumerate(doc.speakers):
        sp = etree.SubElement(table, "speaker", {"id": f"SPK{k}"})
        etree.SubElement(sp, "abbreviation").text = spk
        for child in ("sex", "languages-used", "l1", "l2", "ud-speaker-information", "comment"):
            el = etree.SubElement(sp, child)
            if child == "sex":
                el.set("value", "u")
        tier_id[spk] = f"TIE{k}"
        tiers_out.append(
            {"id": f"TIE{k}", "speaker": f"SPK{k}", "category": "v", "type": "t", "display-name": f"{spk} [v]"}
        )
    # The reader takes the trimmed abbreviation, else (empty, or a name taken) the id.
    seen: list[str] = []
    renamed = 0
    for k, spk in enumerate(doc.speakers):
        name = spk.strip() or f"SPK{k}"
        name = f"SPK{k}" if name in seen else name
        seen.append(name)
        renamed += name != spk
    if renamed:
        losses.add(
            "speakers-renamed",
            "speaker names that are empty, padded with spaces or the same once trimmed read back as "
            "their EXMARaLDA speaker id (SPKn)",
            count=renamed,
        )
    return tiers_out, tier_id


def _note_new_order(
    doc: Document,
    units: list[Any],
    timeline: list[dict[str, Any]],
    points: list[tuple[str, str]],
    tier_of_unit: list[str],
    losses: LossReport,
) -> None:
    """Units the reader gives back in timeline order (reordered), and units of one speaker that
    overlap on its tier."""
    pos = {p["id"]: i for i, p in enumerate(timeline)}
    order = sorted(range(len(units)), key=lambda k: (pos[points[k][0]], doc.speakers.index(units[k].speaker), k))
    if order != sorted(order):
        losses.add("reordered", "units not in timeline order are read back in timeline order")
    last_end: dict[str, int] = {}
    overlap = 0
    for k in order:
        t = tier_of_unit[k]
        if pos[points[k][0]] < last_end.get(t, -1):
            overlap += 1
        last_end[t] = max(last_end.get(t, -1), pos[points[k][1]])
    losses.add_count("overlap-in-tier", "units of one speaker overlap on its tier", overlap)


def _meta_info(doc: Document) -> etree._Element:
    mi = etree.Element("meta-information")
    etree.SubElement(mi, "project-name")
    etree.SubElement(mi, "transcription-name").text = doc.name
    etree.SubElement(mi, "referenced-file", {"url": ""})
    etree.SubElement(mi, "ud-meta-information")
    etree.SubElement(mi, "comment").text = "written by segagree"
    etree.SubElement(mi, "transcription-convention")
    return mi


ADAPTER = Adapter(
    name="exmaralda",
    extensions=(".exb",),
    description="EXMARaLDA .exb: events of transcription tiers as units on the common timeline",
    read=read,
    write=write,
)
