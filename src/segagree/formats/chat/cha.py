"""CLAN CHAT ``.cha`` files (read and write), with a small own line parser.

Format (CHAT manual, talkbank.org/manuals/CHAT.pdf): UTF-8 lines; ``@`` headers
(``@Participants:`` ``CODE [Name] Role, ...``, ``@Options: CA``, ``@Begin``/``@End``, gems
``@G:``/``@Bg``/``@Eg`` and comments also inside the body); ``*CODE:`` main tiers, one utterance
each, ending in a terminator (``.`` ``?`` ``!`` ``+...`` ``+/.`` ...) and optionally a time
bullet ``\\x15start_end\\x15`` (ms); ``%xxx:`` dependent tiers (``%mor``, ``%gra``, ``%pho``,
``%com`` ...) after their utterance; a line starting with a tab continues the line before it.

Why an own parser and not pylangacq
-----------------------------------
pylangacq (MIT, 0.23, parsing in Rust through ``rustling``, MIT) was tried on the twelve real
files of ``shared/corpora/chat``: in its default strict mode it refuses eleven (unknown roles
``self``/``Customer``, no ``@UTF8`` first, ``@Media`` not matching the file name, a missing
terminator in loose CHAT, ``&pic`` old notation, a %mor/word misalignment); with
``strict=False`` it reads them but finds utterance counts that differ from the main-tier lines
(1012 against 996 in teicorpo_0042, 206 against 196 in teicorpo_064), and it keeps neither the
raw lines nor the positions of headers inside the body, which a lossless write needs. Speed
(``bench/bench_chat_read.py``, the 4824-line Eve file): pylangacq 0.13 s; this module 0.065 s to
parse and tokenise and 0.14 s with the Document's pandas token table, whose fixed cost dominates
on small files. Both are far below the cost of scoring, so speed does not decide. This module
therefore parses lines itself, is lenient where real files are (lower-case headers, spaces
instead of a tab, CA symbols; no ``@End`` is read but reported as ``end-missing``, since the file
may have been cut short), and pylangacq is used in the tests only, as an independent reader of
the files this module writes (same utterance count).

How it maps to the model (reading)
----------------------------------
* **units**: one per main tier (its continuation lines included); in the **IU layout** (some
  main tier has two or more bulleted lines with words: SBCSAE as TalkBank publishes it, one
  intonation unit per line) one per bulleted line with words, a wordless line (a pause, an
  event) joining the next unit of its tier, and a tier without words being no unit (its lines
  go before the next one); ``chat_units="main-tiers"`` / ``"lines"`` forces either reading.
  A unit's **boundary** is its terminator (the last token, or glued to the last word as CA and
  loose CHAT write ``curry?``), coded in the reading scheme: the ``chat`` scheme keeps every
  terminator, any other scheme (the Du Bois default) gets the documented Du Bois endnote
  (:mod:`segagree.formats.chat.terminators`); no terminator is continuing ``,`` in the IU
  layout (SBCSAE's CHAT keeps ``.`` ``?`` ``--`` and drops the comma), else unclassified;
* **speaker**: the participant's name in ``@Participants`` where one is given
  (``CHI Lily Target_Child`` -> ``Lily``; in old files a second field that is no CHAT role,
  ``CHI Laetitia``), else the code (``MOT Mother`` -> ``MOT``), as
  TEICORPO's ELAN export names them; every declared participant is a speaker, also a silent
  one; a code that speaks without being declared is its own speaker (``speaker-undeclared``);
* **times**: the bullets' ms as seconds; with several bullets (CA: timed pauses on their own
  continuation lines) the unit spans from the smallest start to the largest end, so bullets
  out of order never make a unit end before it starts. A unit without a bullet has no times,
  nor one whose only bullet ends before it starts (a slip in SBCSAE 34: ``times-dropped``);
* **tokens**: the main tier split at whitespace after removing the CHAT manual's marks
  (:mod:`segagree.formats.chat.marks`: bullets and control bytes, codes, comments, pauses,
  events and long-event scopes, overlap marks also inside words, ``xxx`` ``yyy`` ``www`` ``0``,
  linkers). In **CA mode** (``@Options: CA``, or ``ca=True``) tokens are also cleared of CA
  prosodic marks (stress U+0332, ``↑↓``, ``°``, ``≈``, ``∬``, ``∙``, ``ʔ``, ``><``, lengthening
  ``:``, intonation ``.,?!`` inside the line, parentheses of uncertain words), lower-cased
  (capitals mark loudness in CA; not in the IU layout, whose capitals are ordinary), and in-/
  out-breaths (``hhh`` ``.hh``) are dropped, so that a CA transcript and a plain one of the same
  talk align;
* everything else is kept in token columns of the unit (and written back): ``chat_code`` (the
  speaker code), ``chat_raw`` (the unit's lines as written: the main tier with its continuation
  lines, or in the IU layout its own line(s)),
  ``chat_deps`` (its dependent tiers), ``chat_before`` (body lines since the previous
  utterance: gems, comments, blank lines, utterances without words), these three on the unit's
  first token only (the others have ``""``: the text is held once), and ``terminator``;
  the header lines and what follows the last utterance are in ``meta['chat']``;
* an utterance left without words (CA ``(        )``, inaudible) gets the token ``0``, CHAT's
  spelling of "no words" (``repaired`` read loss), so every main tier is a unit (outside the
  IU layout); lines the
  parser cannot place stay in ``chat_before`` of the next unit (``lines-unparsed``).

Writing
-------
Utterances whose tokens, boundary and times still match their ``chat_raw`` are written as they
were read (with their dependent tiers); others are written ``*CODE:\\ttokens terminator
\\x15start_end\\x15`` (a continuation line ``\\ttokens ...`` where the unit was one, in the IU
layout) (``dependent-tiers-dropped`` for tiers that no longer fit). The terminator is
the one read when it still codes the unit's boundary, else the CHAT terminator of the boundary's
type (Du Bois ``--`` -> ``+...``; ``,`` -> CA's line-final ``,``, which CLAN's CA mode reads but
strict CHAT parsers such as pylangacq refuse); unclassified units get ``+.`` ("broken for
coding") where it reads back unclassified (Du Bois schemes), else no terminator; types of other
schemes with no CHAT spelling are written without one (``types-dropped``). Speaker codes and
``@Participants`` come from ``meta['chat']`` (silent participants stay declared), else are made
from the names (``speakers-renamed`` when a name is not one CHAT word). Every generated line is
tokenised again, and tokens that would read back differently are reported (``tokens-changed``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from segagree.errors import InputError, UsageError
from segagree.files.atomic import write_text_atomic
from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.formats.base import Adapter
from segagree.formats.chat.lines import (
    Record,
    bullet_times,
    bullet_times_quiet,
    content_of,
    line_segments,
    records,
    span,
)
from segagree.formats.chat.marks import tokenise
from segagree.formats.chat.terminators import terminator_code, terminator_for
from segagree.model import BoundaryScheme, Document, builtin_scheme, from_units
from segagree.model.losses import LossReport

__all__ = ["ADAPTER", "NO_WORDS", "OWN_COLUMNS", "UNIT_CHOICES", "read", "speaker_names", "tokenise", "write"]

# The token of an utterance that has no words left (CHAT writes `0` for "no words").
NO_WORDS = "0"
# Token columns this module owns (everything else is another format's metadata).
OWN_COLUMNS = ("chat_code", "chat_raw", "chat_deps", "chat_before", "terminator")
#: Values of the ``chat_units`` reader option: a unit per bulleted line (the IU layout) or per
#: main tier; by default lines where the file has the IU layout.
UNIT_CHOICES = ("lines", "main-tiers")


# CHAT's standard participant roles (CLAN's depfile); a second field that is none of them is a
# name (old CHAT files write `CHI Laetitia` without a role).
ROLES = frozenset(
    r.lower()
    for r in (
        "Target_Child Target_Adult Child Mother Father Brother Sister Sibling Grandfather Grandmother "
        "Relative Participant Investigator Partner Boy Girl Adult Teenager Male Female Visitor Friend "
        "Playmate Caretaker Environment Group Unidentified Uncertain Other Text Media PlayRole LENA "
        "Justice Attorney Doctor Nurse Student Teacher Host Guest Leader Member Narrator Speaker "
        "Audience Observer Camera_Operator Babysitter Non_Human Interviewer Interviewee Patient Clinician"
    ).split()
)


def _participants(value: str) -> list[dict[str, str]]:
    """``CODE [Name] Role`` entries of ``@Participants``."""
    out = []
    for entry in value.split(","):
        fields = entry.split()
        if not fields:
            continue
        code, rest = fields[0], fields[1:]
        if len(rest) >= 2:
            name, role = rest[0], rest[-1]
        elif rest and rest[0].lower() not in ROLES:
            name, role = rest[0], ""
        else:
            name, role = "", rest[0] if rest else ""
        out.append({"code": code, "name": name, "role": role})
    return out


def speaker_names(participants: list[dict[str, str]]) -> dict[str, str]:
    """Participant code -> speaker name: the name where one is given, else the code; a name that
    an earlier participant already has gives way to the code (``OBS1 Observer``, ``OBS2 Observer``)."""
    name_of: dict[str, str] = {}
    for p in participants:
        name = p["name"] or p["code"]
        if name in name_of.values():
            name = p["code"] if p["code"] not in name_of.values() else f"{name} ({p['code']})"
        name_of.setdefault(p["code"], name)
    return name_of


@dataclass
class _Utterance:
    """A main tier with its dependent tiers and the body lines before it."""

    record: Record
    deps: list[str] = field(default_factory=list)
    before: list[str] = field(default_factory=list)
    worded: list[list[str]] | None = None  # its line units, once computed


@dataclass
class _Body:
    """A file's lines grouped: the header, the utterances and what follows the last one."""

    header: list[str]
    utterances: list[_Utterance]
    trailer: list[str]
    participants: list[dict[str, str]]
    options: str


def _lines_of(it: Record | str) -> list[str]:
    return [it] if isinstance(it, str) else it.lines


def _group(items: list[Record | str], path: Path) -> _Body:
    """Header lines, utterances (main tier, dependent tiers, lines before it) and trailer."""
    first_main = next((i for i, it in enumerate(items) if isinstance(it, Record) and it.kind == "*"), None)
    if first_main is None:
        raise InputError("no utterance (no line starting '*CODE:'); expected a CHAT transcript", path=path)
    participants: list[dict[str, str]] = []
    options = ""
    for it in items:
        if isinstance(it, Record) and it.kind == "@":
            tag = it.tag.lower()
            if tag == "participants":
                participants.extend(_participants(it.content))
            elif tag == "options":
                options = it.content
    header = [ln for it in items[:first_main] for ln in _lines_of(it)]
    utterances: list[_Utterance] = []
    before: list[str] = []
    for it in items[first_main:]:
        if isinstance(it, Record) and it.kind == "*":
            utterances.append(_Utterance(it, before=before))
            before = []
        elif isinstance(it, Record) and it.kind == "%" and not before:
            utterances[-1].deps.extend(it.lines)
        else:
            before.extend(_lines_of(it))
    return _Body(header, utterances, before, participants, options)


def _worded_lines(utt: _Utterance, ca: bool) -> list[list[str]]:
    """The utterance's line units: its bulleted lines with words, each with the wordless lines
    before it (a pause line) or, at the end, after it; [] when no line has words."""
    if utt.worded is not None:
        return utt.worded
    out: list[list[str]] = []
    pending: list[str] = []
    for seg in line_segments(utt.record.lines):
        if not tokenise(content_of(seg), ca=ca)[0]:
            pending.extend(seg)
            continue
        out.append(pending + seg)
        pending = []
    if out and pending:
        out[-1].extend(pending)
    utt.worded = out
    return out


def continuing_default(term: str | None, scheme: BoundaryScheme, iu_layout: bool) -> int | None:
    """The boundary code of a unit's terminator; in the IU layout no terminator is Du Bois
    continuing ``,`` (SBCSAE's CHAT writes the final ``.`` ``?`` ``--`` but drops the comma)."""
    if term is None and iu_layout:
        return terminator_code(",", scheme)
    return terminator_code(term, scheme)


@dataclass
class _Reading:
    """What one read collects besides the units."""

    path: Path
    scheme: BoundaryScheme
    ca: bool
    iu_layout: bool
    name_of: dict[str, str]
    speakers: list[str]
    undeclared: dict[str, int] = field(default_factory=dict)
    wordless: int = 0
    reversed: list[int] = field(default_factory=list)

    @property
    def lower(self) -> bool:
        # CA capitals mark loudness; a Du Bois transcript in CA-CHAT (the IU layout) writes
        # ordinary capitals, which the other transcript of the same talk has too.
        return self.ca and not self.iu_layout

    def speaker(self, code: str) -> str:
        if code not in self.name_of:
            self.undeclared[code] = self.undeclared.get(code, 0) + 1
            name = code if code not in self.name_of.values() else f"{code} (undeclared)"
            self.name_of[code] = name
            self.speakers.append(name)
        elif code in self.undeclared:
            self.undeclared[code] += 1
        return self.name_of[code]

    def unit(self, utt: _Utterance, lines: list[str], line_no: int) -> dict[str, Any]:
        """One unit from some lines of a main tier (``line_no``: the first line's number)."""
        content = content_of(lines)
        times = bullet_times("\n".join(lines), self.path, line_no)
        tokens, term = tokenise(content, ca=self.ca, lower=self.lower)
        if not tokens:
            # CA `(        )` (inaudible) and the like: CHAT's own spelling of "no words".
            self.wordless += 1
            tokens = [NO_WORDS]
        code = continuing_default(term, self.scheme, self.iu_layout)
        if code is None:
            raise InputError(
                f"utterance without a terminator the scheme {self.scheme.name!r} can express, and the scheme "
                "has no unclassified type; use the chat or dubois scheme",
                path=self.path,
                place=f"line {line_no}",
            )
        start, end = span(times)
        if start is not None and end is not None and start > end:
            # A typing slip in a published file (SBCSAE 34: `13548020_1357988`): the unit is
            # read without times, and the reversed bullet is reported.
            self.reversed.append(line_no)
            start = end = None
        meta = {
            "chat_code": utt.record.tag,
            "chat_raw": "\n".join(lines),
            "chat_deps": "",
            "chat_before": "",
            "terminator": term or "",
        }
        speaker = self.speaker(utt.record.tag)
        return {"speaker": speaker, "tokens": tokens, "boundary": code, "start": start, "end": end, "meta": meta}


def _units(body: _Body, reading: _Reading, ca: bool) -> list[Mapping[str, Any]]:
    """The units of every utterance: its worded lines in the IU layout, else the whole tier; an
    utterance without words in the IU layout is no unit (its lines go before the next one)."""
    units: list[Mapping[str, Any]] = []
    before: list[str] = []
    for utt in body.utterances:
        before.extend(utt.before)
        parts = _worded_lines(utt, ca) if reading.iu_layout else [utt.record.lines]
        if not parts:
            before.extend([*utt.record.lines, *utt.deps])
            continue
        offset = 0
        for k, lines in enumerate(parts):
            unit = reading.unit(utt, lines, utt.record.line + offset)
            offset += len(lines)
            if k == 0:
                unit["meta"]["chat_before"] = "\n".join(before)
            if k == len(parts) - 1:
                unit["meta"]["chat_deps"] = "\n".join(utt.deps)
            units.append(unit)
        before = []
    body.trailer = before + body.trailer
    return units


def has_iu_layout(body: _Body, ca: bool) -> bool:
    """Whether some main tier has two or more bulleted lines with words (SBCSAE's layout)."""
    return any(len(_worded_lines(utt, ca)) > 1 for utt in body.utterances if len(utt.record.lines) > 1)


def read(
    path: Path,
    *,
    scheme: BoundaryScheme | None = None,
    ca: bool | None = None,
    encoding: str | None = None,
    chat_units: str | None = None,
    **_: Any,
) -> Document:
    """Read a CHAT file into a Document (see the module docstring).

    Args:
        path: the ``.cha`` file.
        scheme: the scheme of the ``iu`` layer: ``chat`` keeps every terminator, any other gets
            their Du Bois endnotes (default Du Bois).
        ca: CA tokenisation on/off; by default on when ``@Options`` says ``CA``.
        chat_units: ``lines`` (a unit per bulleted line with words, the IU layout) or
            ``main-tiers`` (a unit per main tier); by default lines where some main tier has
            two or more bulleted lines with words.
    """
    if chat_units is not None and chat_units not in UNIT_CHOICES:
        raise UsageError(f"chat_units must be one of {list(UNIT_CHOICES)}, not {chat_units!r}")
    scheme = scheme or builtin_scheme("dubois")
    path = Path(path)
    # Not UTF-8 (as CHAT requires): decode_text detects the encoding and reports it in doc.losses.
    text = decode_text(read_bytes(path), path, encoding=encoding)
    items, stray = records(text)
    body = _group(items, path)
    if ca is None:
        ca = "CA" in re.split(r"[\s,]+", body.options)
    iu_layout = chat_units == "lines" or (chat_units is None and has_iu_layout(body, ca))
    name_of = speaker_names(body.participants)
    reading = _Reading(path, scheme, ca, iu_layout, name_of, list(name_of.values()))
    units = _units(body, reading, ca)
    if not units:
        raise InputError("no utterance has words; nothing to read", path=path)
    newline = "\r\n" if "\r\n" in text else "\n"
    meta = {
        "chat": {
            "header": body.header,
            "trailer": body.trailer,
            "participants": body.participants,
            "ca": ca,
            "iu_layout": iu_layout,
            "newline": newline,
        }
    }
    doc = from_units(
        path.stem,
        units,
        layer="iu",
        scheme=scheme,
        speakers=reading.speakers,
        source_path=str(path),
        source_format="chat",
        meta=meta,
    )
    _once_per_unit(doc, units)
    _report_reading(doc, items, reading, stray)
    return doc


# The unit's lines as read, its dependent tiers and the lines before it: on its first token only
# (the other tokens have ""), so a file's text is held once, not once per token (a 60 KB line of
# 8,000 words would be 500 MB of copies in the native JSON).
_ONCE = ("chat_raw", "chat_deps", "chat_before")


def _once_per_unit(doc: Document, units: list[Mapping[str, Any]]) -> None:
    counts = np.fromiter((len(u["tokens"]) for u in units), dtype=np.int64, count=len(units))
    first = np.cumsum(counts) - counts
    for col in _ONCE:
        values = np.full(doc.n_tokens, "", dtype=object)
        values[first] = [u["meta"][col] for u in units]
        doc.set_column(col, values)


def _report_reading(doc: Document, items: list[Record | str], reading: _Reading, stray: int) -> None:
    if not any(isinstance(it, Record) and it.kind == "@" and it.tag.lower() == "end" for it in items):
        # CHAT files end with `@End`; without it the file may have been cut short (a real CABNC
        # fragment also lacks it, so this is reported, not refused).
        doc.losses.add("end-missing", "no @End line: the file may be cut short", where="end of file")
    for code_, n in reading.undeclared.items():
        doc.losses.add("speaker-undeclared", f"speaker code {code_!r} is not in @Participants", count=n)
    if reading.wordless:
        doc.losses.add(
            "repaired",
            f"utterances with nothing but pauses, comments or CA marks got the token {NO_WORDS!r}",
            count=reading.wordless,
        )
    if reading.reversed:
        lines = ", ".join(str(n) for n in reading.reversed[:5]) + (" ..." if len(reading.reversed) > 5 else "")
        doc.losses.add(
            "times-dropped",
            f"units whose time bullets end before they start are read without times (line {lines})",
            count=len(reading.reversed),
        )
    if stray:
        doc.losses.add("lines-unparsed", "lines that are no header, tier or continuation (kept as text)", count=stray)


# --- writing ---------------------------------------------------------------------------

_CODE_OK = re.compile(r"^[A-Za-z0-9_'+\-]+$")


def _speaker_codes(doc: Document, losses: LossReport) -> tuple[dict[str, str], list[dict[str, str]]]:
    """Speaker -> code, and the participants to declare."""
    known = (doc.meta.get("chat") or {}).get("participants") or []
    codes: dict[str, str] = {}
    decl: list[dict[str, str]] = []
    names = speaker_names(known)
    by_name = {names[p["code"]]: p for p in known if names.get(p["code"])}
    if "chat_code" in doc.tokens.columns:
        for spk, code in zip(doc.tokens["speaker"], doc.tokens["chat_code"], strict=True):
            if isinstance(code, str) and code and spk not in codes and _CODE_OK.match(code):
                codes[spk] = code
    taken = set(codes.values())
    renamed = []
    for spk in doc.speakers:
        p = by_name.get(spk)
        if p is not None and codes.get(spk, p["code"]) == p["code"]:
            codes[spk] = p["code"]
            taken.add(p["code"])
            decl.append(dict(p))
            continue
        if spk not in codes:
            base = re.sub(r"[^A-Za-z0-9]", "", spk).upper()[:3] or "SPK"
            code, k = base, 1
            while code in taken:
                k += 1
                code = f"{base}{k}"
            codes[spk] = code
            taken.add(code)
        code = codes[spk]
        if spk == code:
            decl.append({"code": code, "name": "", "role": "Unidentified"})
            continue
        name = re.sub(r"\s+", "_", spk.strip()) or code
        if name != spk or not _CODE_OK.match(name):
            renamed.append(spk)
        decl.append({"code": code, "name": name, "role": "Unidentified"})
    if renamed:
        losses.add(
            "speakers-renamed",
            f"CHAT participant names are single words; written with '_' or unreadable characters: {renamed}",
        )
    return codes, decl


def _participants_line(decl: list[dict[str, str]]) -> str:
    parts = [" ".join(x for x in (p["code"], p["name"], p["role"] or "Unidentified") if x) for p in decl]
    return "@Participants:\t" + ", ".join(parts)


def _ms(t: float) -> int:
    return int(round(t * 1000))


def _layer_to_write(doc: Document, losses: LossReport) -> str:
    """The one utterance layer CHAT holds (``iu``, else the first); the others are reported."""
    layer_name = "iu" if "iu" in doc.layers else doc.layer().name
    for other in doc.layers:
        if other != layer_name:
            losses.add("layer-dropped", f"CHAT holds one utterance layer; layer {other!r} is not written")
    if layer_name != "iu":
        losses.add("layer-renamed", f"CHAT utterances read back as layer 'iu' (written from layer {layer_name!r})")
    extra = [c for c in doc.meta_columns() if c not in OWN_COLUMNS]
    if extra:
        losses.add("meta-dropped", f"CHAT keeps no token metadata; dropped {extra}")
    return layer_name


def _header_lines(chat_meta: dict[str, Any], decl: list[dict[str, str]], losses: LossReport) -> list[str]:
    """The header as read (``@Participants`` rewritten if the speakers changed), else a new one."""
    header = list(chat_meta.get("header") or [])
    own_decl = [dict(p) for p in chat_meta.get("participants") or []]
    if header and decl == own_decl:
        return header
    if header:
        idx = [k for k, ln in enumerate(header) if ln.lower().startswith("@participants")]
        if idx:
            k = idx[0]
            end = k + 1
            while end < len(header) and header[end][:1] in (" ", "\t") and header[end].strip():
                end += 1
            header[k:end] = [_participants_line(decl)]
        else:
            header.append(_participants_line(decl))
        losses.add("header-changed", "@Participants rewritten for the document's speakers")
        return header
    header = ["@UTF8", "@Begin", "@Languages:\tund", _participants_line(decl)]
    header += [f"@ID:\tund|segagree|{p['code']}|||||{p['role'] or 'Unidentified'}|||" for p in decl]
    if chat_meta.get("ca"):
        header.append("@Options:\tCA")
    return header


def reads_back(
    content: str, toks: list[str], boundary: int, scheme: BoundaryScheme, *, ca: bool, iu_layout: bool
) -> bool:
    """Whether a main tier's content reads back as these words and this boundary."""
    back, term = tokenise(content, ca=ca, lower=ca and not iu_layout)
    return (back or [NO_WORDS]) == toks and continuing_default(term, scheme, iu_layout) == boundary


def raw_fits(
    raw: str, toks: list[str], boundary: int, s: float, e: float, scheme: BoundaryScheme, *, ca: bool, iu_layout: bool
) -> bool:
    """Whether a unit's line(s) as read (``chat_raw``) still hold its words, boundary and times."""
    start, end = span(bullet_times_quiet(raw))
    if start is None or end is None or start > end:  # (a reversed bullet is read as no times)
        same_times = math.isnan(s) and math.isnan(e)
    else:
        same_times = start == s and end == e
    return same_times and reads_back(content_of(raw.split("\n")), toks, boundary, scheme, ca=ca, iu_layout=iu_layout)


# The token columns a write reads per unit (CHAT's own lines as read, and the terminator).
_WRITE_COLUMNS = ("chat_before", "chat_raw", "chat_deps", "chat_code", "terminator")


@dataclass
class _Writing:
    """The state of one write: the document's columns, the reading rules, and the counts of
    what could not be written as it was."""

    doc: Document
    scheme: BoundaryScheme
    codes: dict[str, str]
    ca: bool
    iu_layout: bool
    counts: dict[str, int] = field(default_factory=dict)
    last_code: str = ""

    def __post_init__(self) -> None:
        cols = self.doc.tokens
        self.text = cols["text"].to_numpy()
        self.starts = cols["start"].to_numpy(dtype=float)
        self.ends = cols["end"].to_numpy(dtype=float)
        # The CHAT columns as arrays once: a pandas lookup per unit and column cost most of a write.
        self.columns = {name: cols[name].to_numpy() for name in _WRITE_COLUMNS if name in cols.columns}

    def col(self, name: str, row: int) -> str:
        values = self.columns.get(name)
        if values is None:
            return ""
        v = values[row]
        return v if isinstance(v, str) else ""

    def count(self, what: str, n: int | bool = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + int(n)

    def reads_back(self, content: str, toks: list[str], boundary: int) -> bool:
        return reads_back(content, toks, boundary, self.scheme, ca=self.ca, iu_layout=self.iu_layout)

    def raw_fits(self, raw: str, toks: list[str], boundary: int, s: float, e: float) -> bool:
        return raw_fits(raw, toks, boundary, s, e, self.scheme, ca=self.ca, iu_layout=self.iu_layout)

    def unit_lines(self, u: Any) -> list[str]:
        """The lines of one unit: those read where they still fit, else a new line."""
        first, last = u.rows[0], u.rows[-1]
        toks = [str(self.text[r]) for r in u.rows]
        out = self.col("chat_before", first).split("\n") if self.col("chat_before", first) else []
        s, e = self.starts[first], self.ends[last]
        inner = any(not math.isnan(self.starts[r]) for r in u.rows[1:])
        self.count("inner_times", inner or any(not math.isnan(self.ends[r]) for r in u.rows[:-1]))
        raw, code = self.col("chat_raw", first), self.codes[u.speaker]
        deps = self.col("chat_deps", first)
        continues = raw[:1] in (" ", "\t") and self.last_code == code and not out
        if raw and self.col("chat_code", first) == code and (continues or raw[:1] not in (" ", "\t")):
            if self.raw_fits(raw, toks, u.boundary, s, e):
                self.last_code = code if not deps else ""
                return out + raw.split("\n") + (deps.split("\n") if deps else [])
        self.count("regenerated")
        term = terminator_for(u.boundary, self.scheme, self.col("terminator", last) or None)
        self.count("untyped", term is None and u.boundary != self.scheme.unclassified_code)
        self.count("deps_dropped", bool(deps))
        words = " ".join(toks) + (f" {term}" if term else "")
        # CHAT's time-bullet mark inside a word would end the line's words: it is not written
        self.count("changed", "\x15" in words)
        words = words.replace("\x15", "")
        line = ("\t" if continues else f"*{code}:\t") + words
        if not math.isnan(s) and not math.isnan(e) and s > e:
            self.count("reversed")  # (a unit whose first word starts after its last word ends)
        elif not math.isnan(s) and not math.isnan(e):
            self.count("rounded", abs(_ms(s) / 1000 - s) > 1e-9 or abs(_ms(e) / 1000 - e) > 1e-9)
            line += f" \x15{_ms(s)}_{_ms(e)}\x15"
        elif not (math.isnan(s) and math.isnan(e)):
            self.count("half_timed")
        self.count("changed", not self.reads_back(words, toks, u.boundary))
        self.last_code = code
        return [*out, line]


# kind, message of each count a write reports.
_WRITE_LOSSES = (
    (
        "deps_dropped",
        "dependent-tiers-dropped",
        "utterances whose words, terminator or times changed lose their dependent tiers",
    ),
    (
        "changed",
        "tokens-changed",
        "tokens CHAT reads differently (spaces, brackets, pauses, CA marks) will not read back the same",
    ),
    ("rounded", "times-rounded", "CHAT bullets hold whole milliseconds; finer times were rounded"),
    ("reversed", "times-dropped", "units that end before they start get no bullet"),
    ("half_timed", "times-dropped", "units with only a start or only an end time get no bullet"),
    ("inner_times", "times-dropped", "word times inside utterances are not written"),
)


def write(doc: Document, path: Path, *, losses: LossReport, **_: Any) -> None:
    """Write a Document as CHAT (see the module docstring)."""
    layer_name = _layer_to_write(doc, losses)
    scheme = doc.layer(layer_name).scheme
    chat_meta = doc.meta.get("chat") or {}
    codes, decl = _speaker_codes(doc, losses)
    out = _header_lines(chat_meta, decl, losses)
    writing = _Writing(doc, scheme, codes, bool(chat_meta.get("ca")), bool(chat_meta.get("iu_layout")))
    for u in doc.units(layer_name):
        out.extend(writing.unit_lines(u))
    out.extend(chat_meta.get("trailer") or ([] if chat_meta else ["@End"]))
    counts = writing.counts
    for key, kind, message in _WRITE_LOSSES:
        if counts.get(key):
            losses.add(kind, message, count=counts[key])
        if key == "changed" and counts.get("untyped"):
            kinds = ", ".join(t.symbol for t in scheme.types)
            losses.add(
                "types-dropped",
                f"boundaries of scheme {scheme.name!r} ({kinds}) with no CHAT terminator are written without one",
                count=counts["untyped"],
            )
    nl = chat_meta.get("newline") or "\n"
    write_text_atomic(path, nl.join(out) + nl)


ADAPTER = Adapter(
    name="chat",
    extensions=(".cha",),
    description="CLAN CHAT .cha: main-tier utterances as units, terminators as boundaries, bullets as times",
    read=read,
    write=write,
)
