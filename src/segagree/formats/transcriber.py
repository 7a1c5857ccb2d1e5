"""Transcriber ``.trs`` files (read and write), parsed with lxml.

Format (Transcriber's ``trans-14.dtd``): ``<Trans>`` holds ``<Speakers>`` (``<Speaker id name
.../>``), ``<Topics>`` and one ``<Episode>`` of ``<Section>`` s, each a sequence of ``<Turn
speaker="ids" startTime endTime>``. A turn's text is mixed content cut by empty elements:
``<Sync time/>`` starts a new timed segment, ``<Who nb="N"/>`` gives the rest of the segment to
the N-th speaker of a multi-speaker (overlapping) turn ``speaker="spk1 spk2"``, and
``<Event/>``, ``<Comment/>``, ``<Background/>`` mark noises, comments and background sounds.
Files declare their encoding (ISO-8859-1 for most); lxml honours the declaration.

How it maps to the model (reading)
----------------------------------
* **speaker** = the ``Speaker``'s ``name`` (its id where the name is empty). Ids that share a
  name are one speaker (as in TEICORPO's ELAN export of the same file, where ``L1`` and ``SD``
  are both ``Mélanie``); each token keeps its speaker id in the column ``trs_speaker``. Every
  listed speaker is a speaker, also a silent one;
* **units**: each ``Sync``-delimited segment of a turn, and within a multi-speaker turn each
  ``Who`` part, as a unit of its speaker; empty segments are gaps, not units. Times: the
  segment's ``Sync`` time to the next ``Sync`` (or the turn's ``endTime``); ``Who`` parts of
  one segment share its times;
* **tokens** = the text split at whitespace; **boundary** = a final endnote of the text
  (:func:`segagree.formats.endnotes.split_endnote`, Transcriber texts rarely have one, so most
  units are unclassified);
* ``Event``, ``Comment`` and ``Background`` elements inside a unit are kept in the token column
  ``trs_marks`` (JSON: position among the unit's tokens, tag, attributes) and written back where
  they were; those in segments without words are reported (``marks-dropped``). Turn and
  section attributes, topics and the speaker table are kept in ``meta['trs']`` (with each
  turn's section, ``turn_sections``) and the columns ``trs_turn``/``trs_section``;
* text in a turn without a speaker (the DTD makes ``speaker`` optional) is read as speaker
  ``no_speaker`` (``--no-speaker NAME``; default ``unknown``, reported ``speaker-assumed``); in a
  file with no ``<Speakers>`` list at all (``teicorpo_badfile.trs``) it is an error unless
  ``no_speaker`` is given. Empty speaker-less turns (silences) are ignored.

Writing
-------
The speaker table, sections and turns are rebuilt from ``meta['trs']`` and the columns where
the document came from a ``.trs`` file (turns without words written back in their place, with
their declared speakers and times; a turn's declared times kept where they enclose its words);
otherwise one speaker per document speaker
(``spk1``, ``spk2`` ...), one section, and a turn per run of one speaker's units, with units of
several speakers that share their exact times written as one ``Who`` turn. Each unit becomes a
``Sync`` at its start with its tokens (and endnote) as text, plus an empty ``Sync`` at its end when
the next unit does not start there. Transcriber needs times: a document without times gets 1 s
per unit in discourse order (``times-invented``). Units of different speakers that overlap
without sharing their times (ELAN, CHAT bullets) give turns that overlap earlier ones; they read
back here exactly, but Transcriber itself expects sequential turns. Output is in the encoding the file was read in
(ISO-8859-1 or UTF-8; characters it lacks become character references), UTF-8 otherwise.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from segagree.errors import InputError, SegagreeError
from segagree.files.atomic import atomic_path
from segagree.files.xml import check_xml_text, note_xml_read_losses, read_root
from segagree.formats.base import Adapter
from segagree.formats.endnotes import endnote_text, labels_as_written, split_endnote, unit_layer_to_write
from segagree.formats.timing import BadTime, parse_seconds
from segagree.model import BoundaryScheme, Document, builtin_scheme, from_units
from segagree.model.losses import LossReport

OWN_COLUMNS = ("trs_speaker", "trs_turn", "trs_section", "trs_marks")
MARK_TAGS = ("Event", "Comment", "Background")
EXPECTED = "a Transcriber transcription (<Trans>)"


def _time(value: str | None, path: Path, el: etree._Element, attr: str) -> float | None:
    try:
        return parse_seconds(value)
    except BadTime as why:
        raise InputError(f"{attr}={why}", path=path, place=f"line {el.sourceline} <{el.tag}>") from None


class _Part:
    """Text and marks of one unit in the making."""

    def __init__(self, speaker_id: str, start: float | None, line: int) -> None:
        self.speaker_id, self.start, self.line = speaker_id, start, line
        self.end: float | None = None
        self.words: list[str] = []
        self.marks: list[list[Any]] = []

    def add_text(self, text: str | None) -> None:
        if text:
            self.words.extend(text.split())

    def add_mark(self, el: etree._Element) -> None:
        self.marks.append([len(self.words), el.tag, dict(el.attrib)])


# Elements read (or kept in meta) under each parent; anything else is reported as not read.
_KNOWN_CHILDREN = {
    "Trans": ("Speakers", "Topics", "Episode"),
    "Speakers": ("Speaker",),
    "Topics": ("Topic",),
    "Episode": ("Section",),
}


def _unread_elements(root: etree._Element) -> dict[str, tuple[int, int]]:
    """``<parent>``'s ``<child>`` elements the reader does not read: (count, first line) by name.
    XML comments and processing instructions count too (the writer does not keep them)."""
    found: dict[str, tuple[int, int]] = {}

    def note(what: str, el: etree._Element) -> None:
        n, line = found.get(what, (0, el.sourceline or 0))
        found[what] = (n + 1, line)

    for el in root.iter():
        if not isinstance(el.tag, str):
            note("an XML comment or processing instruction", el)
            continue
        known = _KNOWN_CHILDREN.get(el.tag)
        if known is None:
            continue
        for child in el:
            if isinstance(child.tag, str) and child.tag not in known:
                note(f"<{child.tag}> in <{el.tag}>", child)
    return found


# The speaker of text in a speaker-less <Turn> (the DTD makes ``speaker`` optional) unless the
# reader is given one (``no_speaker``, ``--no-speaker``).
NO_SPEAKER = "unknown"


def read(path: Path, *, scheme: BoundaryScheme | None = None, no_speaker: str | None = None, **_: Any) -> Document:
    """Read a Transcriber file into a Document (see the module docstring).

    Args:
        path: the ``.trs`` file.
        scheme: the endnote scheme of the ``iu`` layer (default Du Bois).
        no_speaker: speaker name for text in turns without a speaker (default: :data:`NO_SPEAKER`
            when the file lists its speakers, reported; an error in a file with no ``<Speakers>``).
    """
    scheme = scheme or builtin_scheme("dubois")
    path = Path(path)
    tree, root, misdeclared = read_root(path, "Trans", EXPECTED)
    speakers_table = [dict(s.attrib) for s in root.iterfind("Speakers/Speaker")]
    name_of: dict[str, str] = {}
    for s in speakers_table:
        sid = s.get("id") or ""
        if not sid:
            raise InputError("a <Speaker> without an id", path=path)
        name_of[sid] = (s.get("name") or "").strip() or sid
    speakers = list(dict.fromkeys(name_of.values()))
    unread = _unread_elements(root)
    found = _Turns()
    for section in root.iter("Section"):
        _read_section(section, path, name_of, found)
    units, assumed = _units(found.parts, name_of, no_speaker, scheme, path)
    if not units:
        raise InputError("no turn has text; nothing to read", path=path)
    meta = {
        "trs": {
            "trans": dict(root.attrib),
            "speakers": speakers_table,
            "topics": [dict(t.attrib) for t in root.iterfind("Topics/Topic")],
            "episode": dict(root.find("Episode").attrib) if root.find("Episode") is not None else {},
            "sections": found.sections,
            "turns": found.turns,
            "turn_sections": found.turn_sections,
            "encoding": (tree.docinfo.encoding or "UTF-8"),
        }
    }
    doc = from_units(
        path.stem,
        units,
        layer="iu",
        scheme=scheme,
        speakers=speakers,
        source_path=str(path),
        source_format="transcriber",
        meta=meta,
    )
    note_xml_read_losses(doc, tree, misdeclared, unread)
    if found.lost_marks:
        doc.losses.add(
            "marks-dropped",
            "Event/Comment/Background elements in segments without words are not kept",
            count=found.lost_marks,
        )
    if assumed:
        name = no_speaker or NO_SPEAKER
        doc.losses.add(
            "speaker-assumed",
            f"text in <Turn>s without a speaker is read as speaker {name!r}"
            + ("" if no_speaker else " (name it with no_speaker='NAME', --no-speaker NAME)"),
            where=f"line {assumed[0]}",
            count=len(assumed),
        )
    return doc


@dataclass
class _Turns:
    """What the sections hold: the unit parts with their turn and section, the turns' and
    sections' attributes, each turn's section, and the marks of parts without words."""

    parts: list[tuple[_Part, int, int]] = field(default_factory=list)
    turns: list[dict[str, str]] = field(default_factory=list)
    turn_sections: list[int] = field(default_factory=list)
    sections: list[dict[str, str]] = field(default_factory=list)
    lost_marks: int = 0


def _read_section(section: etree._Element, path: Path, name_of: dict[str, str], found: _Turns) -> None:
    """Add the turns of one ``<Section>`` to ``found``."""
    found.sections.append(dict(section.attrib))
    sec_index = len(found.sections) - 1
    for child in section:
        if isinstance(child.tag, str) and child.tag != "Turn":
            raise InputError(
                f"unexpected <{child.tag}> in a <Section>; expected Turn elements",
                path=path,
                place=f"line {child.sourceline}",
            )
    for turn in section.iterfind("Turn"):
        found.turns.append(dict(turn.attrib))
        found.turn_sections.append(sec_index)
        _read_turn(turn, len(found.turns) - 1, sec_index, path, name_of, found)


def _read_turn(
    turn: etree._Element, t_index: int, sec_index: int, path: Path, name_of: dict[str, str], found: _Turns
) -> None:
    """Cut one ``<Turn>`` into parts: a new one at each ``<Sync>`` (a new segment) and ``<Who>``
    (another speaker of the segment); parts with words are added to ``found``."""
    ids = (turn.get("speaker") or "").split()
    t_start = _time(turn.get("startTime"), path, turn, "startTime")
    t_end = _time(turn.get("endTime"), path, turn, "endTime")
    for sid in ids:
        if sid not in name_of:
            raise InputError(
                f"turn speaker {sid!r} is not in <Speakers> ({sorted(name_of) or 'none'})",
                path=path,
                place=f"line {turn.sourceline} <Turn>",
            )
    segment: list[_Part] = []

    def new_part(sid: str, start: float | None, line: int) -> _Part:
        p = _Part(sid, start, line)
        segment.append(p)
        return p

    def close(end: float | None) -> None:
        for p in segment:
            if p.words and end is not None and p.start is not None and end < p.start:
                raise InputError(
                    f"a segment starting at {p.start} s ends at {end} s, before it starts; "
                    "expected Sync times (and the turn's endTime) in increasing order",
                    path=path,
                    place=f"line {p.line}",
                )
            p.end = end
            if p.words:
                found.parts.append((p, t_index, sec_index))
            else:
                found.lost_marks += len(p.marks)
        segment.clear()

    first_id = ids[0] if ids else ""
    cur = new_part(first_id, t_start, turn.sourceline)
    seg_start = t_start
    cur.add_text(turn.text)
    for el in turn:
        if el.tag == "Sync":
            t = _time(el.get("time"), path, el, "time")
            if t is None:
                raise InputError("<Sync> without a time", path=path, place=f"line {el.sourceline} <Sync>")
            close(t)
            seg_start = t
            cur = new_part(first_id, t, el.sourceline)
        elif el.tag == "Who":
            sid = _who(el, ids, path)
            if not cur.words and not cur.marks and cur in segment:
                segment.remove(cur)
            cur = new_part(sid, seg_start, el.sourceline)
        elif el.tag in MARK_TAGS:
            cur.add_mark(el)
        elif isinstance(el.tag, str):
            raise InputError(
                f"unexpected <{el.tag}> in a <Turn>; expected Sync, Who, Event, Comment or Background",
                path=path,
                place=f"line {el.sourceline}",
            )
        cur.add_text(el.tail)
    close(t_end)


def _who(el: etree._Element, ids: list[str], path: Path) -> str:
    """The speaker id a ``<Who nb="N"/>`` names: the N-th of its turn's speakers."""
    try:
        nb = int(el.get("nb") or "")
        sid = ids[nb - 1]
        if nb < 1:
            raise IndexError
    except (ValueError, IndexError):
        raise InputError(
            f"<Who nb={el.get('nb')!r}> does not name one of the turn's {len(ids)} speakers",
            path=path,
            place=f"line {el.sourceline} <Who>",
        ) from None
    return sid


def _units(
    parts: list[tuple[_Part, int, int]],
    name_of: dict[str, str],
    no_speaker: str | None,
    scheme: BoundaryScheme,
    path: Path,
) -> tuple[list[dict[str, Any]], list[int]]:
    """One unit per part with words (see the module docstring), and the lines of the parts
    whose speaker was assumed (no speaker on their turn)."""
    units: list[dict[str, Any]] = []
    assumed: list[int] = []
    for p, t_index, sec_index in parts:
        if not p.speaker_id:
            if no_speaker is None and not name_of:
                raise InputError(
                    "text in a <Turn> without a speaker and the file has no <Speakers> list; "
                    "expected speaker=\"id\" on every turn with text (or give no_speaker='NAME', --no-speaker NAME)",
                    path=path,
                    place=f"line {p.line}",
                )
            name = no_speaker or NO_SPEAKER
            assumed.append(p.line)
        else:
            name = name_of[p.speaker_id]
        toks, code = split_endnote(p.words, scheme)
        code = code if code is not None else scheme.unclassified_code
        if code is None:
            raise InputError(
                f"a segment without an endnote, and the scheme {scheme.name!r} has no unclassified type",
                path=path,
                place=f"line {p.line}",
            )
        if not toks:
            toks = p.words  # a lone endnote-like token is a word here
            code = scheme.unclassified_code or code
        units.append(
            {
                "speaker": name,
                "tokens": toks,
                "boundary": code,
                "value": " ".join(p.words),  # the words as written, endnote glued or not
                "start": p.start,
                "end": p.end,
                "meta": {
                    "trs_speaker": p.speaker_id,
                    "trs_turn": t_index,
                    "trs_section": sec_index,
                    "trs_marks": json.dumps(p.marks, ensure_ascii=False) if p.marks else "",
                },
            }
        )
    return units, assumed


# --- writing ---------------------------------------------------------------------------


def _fmt(t: float) -> str:
    return repr(float(t))


def _kept_time(value: Any) -> float | None:
    """A turn time kept from the file read, or None when absent or not a number."""
    try:
        t = float(value)
    except (TypeError, ValueError):
        return None
    return t if math.isfinite(t) else None


def write(doc: Document, path: Path, *, losses: LossReport, **_: Any) -> None:
    """Write a Document as a Transcriber file (see the module docstring)."""
    check_xml_text(doc, path)
    try:
        _write(doc, path, losses=losses)
    except ValueError as err:  # lxml refuses a value XML cannot hold (in metadata kept from elsewhere)
        raise SegagreeError(f"cannot be written as a Transcriber file: {err}", path=path) from None
    if not doc.n_tokens:
        # The reader refuses a file without text (nothing to read), so this one does not read back.
        losses.add("units-dropped", "the annotation has no units; a Transcriber file without text does not read back")
        return
    # Transcriber segments run from one Sync to the next, so units out of time order within a
    # speaker's turn (overlapping, or untimed ones between timed ones) cannot be written so that
    # they read back; refuse rather than leave a file segagree itself refuses.
    try:
        read(path)
    except InputError as err:
        raise SegagreeError(
            f"the units cannot be written as Transcriber segments that read back ({err.place or ''} of the output: "
            f"{err.message}); Transcriber needs each speaker's segments in time order",
            path=path,
        ) from None


def _write(doc: Document, path: Path, *, losses: LossReport) -> None:
    layer = unit_layer_to_write(doc, losses, "Transcriber")
    extra = [c for c in doc.meta_columns() if c not in OWN_COLUMNS]
    if extra:
        losses.add("meta-dropped", f"Transcriber keeps no token metadata; dropped {extra}")
    out = _TrsWriter(doc, layer.name, layer.scheme, losses)
    out.speaker_table()
    out.unit_spans()
    out.group_turns()
    out.build()
    out.note_losses()
    trs = out.trs
    encoding = str(trs.get("encoding") or "UTF-8")
    if encoding.upper() not in ("UTF-8", "ISO-8859-1"):
        encoding = "UTF-8"
    data = etree.tostring(
        etree.ElementTree(out.root),
        xml_declaration=True,
        encoding=encoding,
        doctype='<!DOCTYPE Trans SYSTEM "trans-14.dtd">',
    )
    with atomic_path(path) as tmp:
        tmp.write_bytes(data + b"\n")


class _TrsWriter:
    """One Transcriber file in the making, built in named steps (see the module docstring):
    the speaker table, the unit times, the turns, then the XML tree and the losses."""

    def __init__(self, doc: Document, layer_name: str, scheme: BoundaryScheme, losses: LossReport) -> None:
        self.doc, self.scheme, self.losses = doc, scheme, losses
        self.trs: dict[str, Any] = doc.meta.get("trs") or {}
        self.tok = doc.tokens
        self.text = self.tok["text"].to_numpy()
        self.units = doc.units(layer_name)
        # Each unchanged unit's words as the source spelled them, where they read back as its tokens.
        spelled = labels_as_written(doc, self.units, scheme, losses, "a Transcriber turn", spacing=False)
        self.originals: dict[tuple[int, ...], str] = {
            u.rows: v for u, v in zip(self.units, spelled, strict=True) if v is not None
        }
        self.spans: list[tuple[float, float]] = []
        self.table: list[dict[str, str]] = []
        self.name_of: dict[str, str] = {}
        self.id_of: dict[str, str] = {}
        self.turns: list[list[list[int]]] = []  # turn -> segments -> unit indices
        self.turn_keys: list[tuple[str, int] | None] = []
        self.root = etree.Element("Trans", dict(self.trs.get("trans") or {}))
        self.episode: etree._Element | None = None
        self.sections_meta: list[dict[str, str]] = self.trs.get("sections") or []
        self.turns_meta: list[dict[str, str]] = self.trs.get("turns") or []
        self.turn_sections: list[int] = self.trs.get("turn_sections") or []
        self.section: etree._Element | None = None
        self.section_key: Any = object()
        self.written_turns: set[int] = set()
        self.written_sections: set[int] = set()
        self.used_turns: set[int] = set()
        self.next_kept = 0  # the next kept turn index not yet written
        self.keep_empty = "trs_turn" in self.tok.columns and len(self.turn_sections) == len(self.turns_meta)
        self.lost_marks = self.changed = self.respeakered = 0
        self.columns: dict[str, Any] = {}

    def col(self, name: str, row: int) -> Any:
        values = self.columns.get(name)
        if values is None:
            if name not in self.tok.columns:
                return None
            # Each column as an array once: a pandas lookup per call cost a fifth of a write.
            values = self.columns[name] = self.tok[name].to_numpy()
        v = values[row]
        return None if isinstance(v, float) and math.isnan(v) else v

    def speaker_table(self) -> None:
        """Speaker ids: as read where the names still match, else new ones (``spkN``)."""
        doc, losses = self.doc, self.losses
        table = [dict(s) for s in self.trs.get("speakers") or []]
        name_of = {s["id"]: (s.get("name") or "").strip() or s["id"] for s in table if s.get("id")}
        id_of: dict[str, str] = {}
        for s in table:
            if s.get("id") and name_of[s["id"]] in doc.speakers:
                id_of.setdefault(name_of[s["id"]], s["id"])
        table = [s for s in table if s.get("id") and name_of[s["id"]] in doc.speakers]
        for spk in doc.speakers:
            if spk not in id_of:
                k = len(table) + 1
                while f"spk{k}" in name_of:
                    k += 1
                id_of[spk] = f"spk{k}"
                name_of[f"spk{k}"] = spk
                table.append({"id": f"spk{k}", "name": spk})
        # What the reader will make of this table: trimmed names, else ids; ids sharing a name merge.
        back = list(dict.fromkeys((s.get("name") or "").strip() or s["id"] for s in table))
        if back != list(doc.speakers):
            changed = [s for s in doc.speakers if s not in back]
            if changed:
                losses.add(
                    "speakers-renamed",
                    "speaker names that are empty or padded with spaces read back trimmed, or as their id",
                    count=len(changed),
                )
            else:
                losses.add("reordered", "speakers read back in the order of the Transcriber speaker table")
        self.table, self.name_of, self.id_of = table, name_of, id_of

    def unit_spans(self) -> None:
        """Each unit's (start, end): its times, gaps filled from the previous unit's end, or 1 s
        per unit when the document has no times."""
        units, losses = self.units, self.losses
        starts = self.tok["start"].to_numpy(dtype=float)
        ends = self.tok["end"].to_numpy(dtype=float)
        invent = not self.doc.has_times
        if invent:
            losses.add("times-invented", "the document has no times; Transcriber needs them, so each unit got 1 s")
        filled = 0
        prev_end = 0.0
        for i, u in enumerate(units):
            if invent:
                self.spans.append((float(i), float(i + 1)))
                continue
            s, e = starts[u.rows[0]], ends[u.rows[-1]]
            if math.isnan(s) or math.isnan(e):
                filled += 1
                s = prev_end if math.isnan(s) else s
                e = max(s, e) if not math.isnan(e) else s
            self.spans.append((s, e))
            prev_end = e
        losses.add_count("times-invented", "units without a start or end got the previous unit's end", filled)
        inner = sum(
            1
            for u in units
            if any(not math.isnan(starts[r]) for r in u.rows[1:]) or any(not math.isnan(ends[r]) for r in u.rows[:-1])
        )
        losses.add_count("times-dropped", "word times inside units are not written", inner)

    def sid(self, u: Any) -> str:
        own = self.col("trs_speaker", u.rows[0])
        if isinstance(own, str) and own in self.name_of and self.name_of[own] == u.speaker:
            return own
        return self.id_of[u.speaker]

    def group_turns(self) -> None:
        """Turns: the turn index read, else runs of one speaker; units sharing exact times and
        turn with different speakers are the Who parts of one segment."""
        units, spans, turns, turn_keys = self.units, self.spans, self.turns, self.turn_keys
        for k, u in enumerate(units):
            raw = self.col("trs_turn", u.rows[0])
            key = ("trs", int(raw)) if raw is not None else None
            if turns and turn_keys[-1] == key and key is not None:
                same = turns[-1][-1]
                if spans[same[0]] == spans[k] and all(units[j].speaker != u.speaker for j in same):
                    same.append(k)
                else:
                    turns[-1].append([k])
                continue
            if key is None and turns and turn_keys[-1] is None:
                last = turns[-1][-1]
                if spans[last[0]] == spans[k] and all(units[j].speaker != u.speaker for j in last):
                    last.append(k)
                    continue
                if all(units[j].speaker == u.speaker for seg in turns[-1] for j in seg) and len(turns[-1][-1]) == 1:
                    turns[-1].append([k])
                    continue
            turns.append([[k]])
            turn_keys.append(key)
        self.used_turns = {k[1] for k in turn_keys if k is not None}

    def build(self) -> None:
        """The XML tree: header elements, then every turn in its section, with the kept turns
        without words in their place."""
        root = self.root
        if not len(root.attrib):
            root.set("version", "1")
        sp_el = etree.SubElement(root, "Speakers")
        for s in self.table:
            etree.SubElement(sp_el, "Speaker", s)
        if self.trs.get("topics"):
            top = etree.SubElement(root, "Topics")
            for t in self.trs["topics"]:
                etree.SubElement(top, "Topic", t)
        self.episode = etree.SubElement(root, "Episode", self.trs.get("episode") or {})
        for t_i, segs in enumerate(self.turns):
            key = self.turn_keys[t_i]
            if key is not None:
                self.empty_turns_before(key[1])
            self.open_section(self.col("trs_section", self.units[segs[0][0]].rows[0]))
            self.write_turn(segs, key)
        self.empty_turns_before(len(self.turns_meta))

    def open_section(self, sec_key: Any) -> None:
        if self.section is None or sec_key != self.section_key:
            known = sec_key is not None and int(sec_key) < len(self.sections_meta)
            attrs = dict(self.sections_meta[int(sec_key)]) if known else {}
            attrs.setdefault("type", "report")
            assert self.episode is not None
            self.section = etree.SubElement(self.episode, "Section", attrs)
            self.section_key = sec_key
            if sec_key is not None:
                self.written_sections.add(int(sec_key))

    def empty_turns_before(self, limit: int) -> None:
        """Write the kept turns without words whose index is below ``limit``."""
        while self.keep_empty and self.next_kept < limit:
            if self.next_kept not in self.used_turns:
                self.open_section(self.turn_sections[self.next_kept])
                attrs = dict(self.turns_meta[self.next_kept])
                el = etree.SubElement(self.section, "Turn", attrs)
                el.text = "\n"
                etree.SubElement(el, "Sync", {"time": attrs.get("startTime", "0")}).tail = "\n"
                self.written_turns.add(self.next_kept)
            self.next_kept += 1

    def write_turn(self, segs: list[list[int]], key: tuple[str, int] | None) -> None:
        """One ``<Turn>``: its attributes (declared ones kept where they still hold), a ``<Sync>``
        per segment and a ``<Who>`` per speaker of a shared segment."""
        units, spans = self.units, self.spans
        attrs = dict(self.turns_meta[key[1]]) if key is not None and key[1] < len(self.turns_meta) else {}
        if key is not None:
            self.written_turns.add(key[1])
        kept_speaker = attrs.get("speaker")
        declared = (kept_speaker or "").split()
        members: list[str] = []
        for seg in segs:
            for k in seg:
                s_id = self.sid(units[k])
                if s_id not in members:
                    members.append(s_id)
        if len(declared) > 1 and set(members) <= set(declared):
            members = declared  # an overlap turn keeps its declared speakers (Who numbers)
        who = any(len(seg) > 1 for seg in segs) or len(members) > 1
        t_start = spans[segs[0][0]][0]
        t_end = max(spans[k][1] for seg in segs for k in seg)
        attrs["speaker"] = " ".join(members)
        if kept_speaker is not None and kept_speaker.split() != members:
            self.respeakered += 1  # e.g. an overlap turn whose second speaker said no words
        # The declared turn times where they enclose the words (a turn may open or close with
        # a stretch without words), in their own spelling; else the words' span.
        kept_start, kept_end = _kept_time(attrs.get("startTime")), _kept_time(attrs.get("endTime"))
        lead = kept_start is not None and kept_start < t_start
        attrs["startTime"] = attrs["startTime"] if kept_start is not None and kept_start <= t_start else _fmt(t_start)
        if kept_end is not None and kept_end >= t_end:
            t_end = kept_end
        else:
            attrs["endTime"] = _fmt(t_end)
        turn_el = etree.SubElement(self.section, "Turn", attrs)
        if lead:
            etree.SubElement(turn_el, "Sync", {"time": attrs["startTime"]}).tail = "\n"
        for n_seg, seg in enumerate(segs):
            s, e = spans[seg[0]]
            last: etree._Element = etree.SubElement(turn_el, "Sync", {"time": _fmt(s)})
            last.tail = "\n"
            for k in seg:
                u = units[k]
                if who:
                    last = etree.SubElement(turn_el, "Who", {"nb": str(members.index(self.sid(u)) + 1)})
                    last.tail = "\n"
                last = self.write_unit_text(turn_el, last, u)
            nxt = spans[segs[n_seg + 1][0]][0] if n_seg + 1 < len(segs) else None
            if nxt is not None and nxt != e or nxt is None and e != t_end:
                etree.SubElement(turn_el, "Sync", {"time": _fmt(e)}).tail = "\n"
        turn_el.text = "\n"

    def write_unit_text(self, turn_el: etree._Element, last: etree._Element, u: Any) -> etree._Element:
        """A unit's tokens (and endnote) as text after ``last``, with its kept marks where they
        were; returns the last element written."""
        scheme = self.scheme
        words = [str(self.text[r]) for r in u.rows]
        symbol = endnote_text(u.boundary, scheme)
        toks = [*words, symbol] if symbol else words
        marks = json.loads(self.col("trs_marks", u.rows[0]) or "[]")
        original = self.originals.get(u.rows)
        if original is not None:
            spelled = original.split()
            # As the annotator wrote it, where the kept marks still fall between the same words.
            if len(spelled) == len(toks) or not marks:
                toks = spelled
        back, back_code = split_endnote(" ".join(toks).split(), scheme)
        if back != words or (back_code if back_code is not None else scheme.unclassified_code) != u.boundary:
            self.changed += 1
        pos = 0
        for m_pos, tag, m_attrs in sorted(marks, key=lambda m: m[0]):
            if tag not in MARK_TAGS:
                self.lost_marks += 1
                continue
            m_pos = min(int(m_pos), len(toks))
            pieces = toks[pos:m_pos]
            last.tail = (last.tail or "") + (" ".join(pieces) + "\n" if pieces else "")
            last = etree.SubElement(turn_el, tag, {k2: str(v) for k2, v in m_attrs.items()})
            last.tail = "\n"
            pos = m_pos
        rest = toks[pos:]
        if rest:
            last.tail = (last.tail or "") + " ".join(rest) + "\n"
        return last

    def note_losses(self) -> None:
        """Marks, turns and sections not written; turns respeakered; tokens that read back otherwise."""
        losses, tok = self.losses, self.tok
        losses.add_count("marks-dropped", "unknown mark elements were not written", self.lost_marks)
        # Turns and sections the reader kept but no unit belongs to (no words): not written, so
        # the turn and section numbers of what follows change on reading back.
        if "trs_turn" in tok.columns and len(self.written_turns) < len(self.turns_meta):
            losses.add(
                "turns-dropped",
                "turns without words are not written (their times, speakers and marks)",
                count=len(self.turns_meta) - len(self.written_turns),
            )
        if "trs_section" in tok.columns and len(self.written_sections) < len(self.sections_meta):
            losses.add(
                "turns-dropped",
                "sections without words are not written",
                count=len(self.sections_meta) - len(self.written_sections),
            )
        if self.respeakered:
            losses.add(
                "meta-changed",
                "turns are written with the speakers who have words in them, not as declared",
                count=self.respeakered,
            )
        if self.changed:
            losses.add(
                "tokens-changed",
                "units whose tokens (spaces, glued endnotes) will not read back the same",
                count=self.changed,
            )


ADAPTER = Adapter(
    name="transcriber",
    extensions=(".trs",),
    description="Transcriber .trs: Sync segments (and Who parts of overlapping turns) as units",
    read=read,
    write=write,
)
