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
* **units**: one per main tier (its continuation lines included); a unit's **boundary** is its
  terminator (the last token, or glued to the last word as CA and loose CHAT write
  ``curry?``), coded in the reading scheme: the ``chat`` scheme keeps every terminator, any
  other scheme (the Du Bois default) gets the documented Du Bois endnote
  (:mod:`segagree.adapters.chat_terminators`); no terminator is unclassified;
* **speaker**: the participant's name in ``@Participants`` where one is given
  (``CHI Lily Target_Child`` -> ``Lily``; in old files a second field that is no CHAT role,
  ``CHI Laetitia``), else the code (``MOT Mother`` -> ``MOT``), as
  TEICORPO's ELAN export names them; every declared participant is a speaker, also a silent
  one; a code that speaks without being declared is its own speaker (``speaker-undeclared``);
* **times**: the bullets' ms as seconds; with several bullets (CA: timed pauses on their own
  continuation lines) the unit spans from the smallest start to the largest end, so bullets
  out of order never make a unit end before it starts. A unit without a bullet has no times;
* **tokens**: the main tier split at whitespace after removing bullets, bracketed codes
  (``[/]`` ``[: because]`` ``[+ IMP]``), ``((comments))``, pauses (``(.)`` ``(1.2)``), events
  (``&=laughs``), the untranscribed ``0``, utterance-initial linkers (``+<`` ``+,``) and the
  scope brackets ``<`` ``>`` at word edges. In **CA mode** (``@Options: CA``, or ``ca=True``)
  tokens are also cleared of CA prosodic marks (stress U+0332, ``↑↓``, ``⌈⌉⌊⌋``, ``°``, ``≈``,
  ``∬``, ``∙``, ``><``, lengthening ``:``, intonation ``.,?!`` inside the line, parentheses of
  uncertain words), lower-cased (capitals mark loudness in CA), and in-/out-breaths
  (``hhh`` ``.hh``) are dropped, so that a CA transcript and a plain one of the same talk align;
* everything else is kept in token columns of the unit (and written back): ``chat_code`` (the
  speaker code), ``chat_raw`` (the main tier as written, with continuation lines),
  ``chat_deps`` (its dependent tiers), ``chat_before`` (body lines since the previous
  utterance: gems, comments, blank lines, utterances without words) and ``terminator``;
  the header lines and what follows the last utterance are in ``meta['chat']``;
* an utterance left without words (CA ``(        )``, inaudible) gets the token ``0``, CHAT's
  spelling of "no words" (``repaired`` read loss), so every main tier is a unit; lines the
  parser cannot place stay in ``chat_before`` of the next unit (``lines-unparsed``).

Writing
-------
Utterances whose tokens, boundary and times still match their ``chat_raw`` are written as they
were read (with their dependent tiers); others are written ``*CODE:\\ttokens terminator
\\x15start_end\\x15`` (``dependent-tiers-dropped`` for tiers that no longer fit). The terminator is
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
from pathlib import Path
from typing import Any

from segagree.adapters.base import Adapter, LossReport, decode_text, read_bytes, write_text_atomic
from segagree.adapters.chat_terminators import split_terminator, terminator_code, terminator_for
from segagree.adapters.checks import MAX_SECONDS
from segagree.errors import InputError
from segagree.schemas import BoundaryScheme, Document, builtin_scheme, from_units

# The token of an utterance that has no words left (CHAT writes `0` for "no words").
NO_WORDS = "0"
# Token columns this module owns (everything else is another format's metadata).
OWN_COLUMNS = ("chat_code", "chat_raw", "chat_deps", "chat_before", "terminator")

_MAIN = re.compile(r"^\*([^:\s]+):[ \t]?(.*)$")
_DEP = re.compile(r"^%([^:\s]+):[ \t]?(.*)$")
_HEADER = re.compile(r"^@([^:\t]*?)\s*(?::[ \t]*(.*))?$")
_BULLET = re.compile("\x15([^\x15]*)\x15")
_BULLET_TIMES = re.compile(r"(?:^|_)(\d+)_(\d+)$")
_CODES = re.compile(r"\[[^\]]*\]")
_COMMENT = re.compile(r"\(\([^)]*\)\)")
_PAUSE = re.compile(r"\((?:\.{1,3}|\d+(?::\d+)?(?:\.\d*)?)\)")
_LINKERS = {"+<", "+,", "++", "+^", '+"', "+\u2248", "+\u224b"}
# CA prosodic marks removed from tokens in CA mode (CHAT manual, CA chapter).
_CA_MARKS = "↑↓°≈≋∬∙▔▁∆∇☺♋⁎∲§∾⁑⤇∮↻⤆„‡<>\u0332:=()"
# Overlap brackets stand between words even when glued to them (`but⌈(>ye:h<)`).
_CA_OVERLAP = re.compile("[⌈⌉⌊⌋]")
_CA_TABLE = str.maketrans("", "", _CA_MARKS)
_CA_ENDS = ".,?!⇗↗→↘⇘"
_CA_INNER = re.compile(r"(?<=\w)[.?!,]+(?=\w)")
# In- and out-breaths, also aspirated and clicked (`hhh` `.hh` `pHhhh` `khh` `hhhrh` `tch`).
_BREATH = re.compile(r"^(?:[ptk]?h{2,}r?h*|tch)$")


def tokenise(text: str, *, ca: bool) -> tuple[list[str], str | None]:
    """A main tier's words and terminator (see the module docstring)."""
    text = _BULLET.sub(" ", text)
    text = _CODES.sub(" ", text)
    text = _COMMENT.sub(" ", text)
    text = _PAUSE.sub(" ", text)
    if ca:
        text = _CA_OVERLAP.sub(" ", text)
    raw = text.split()
    while raw and raw[0] in _LINKERS:
        raw = raw[1:]
    if not ca:
        toks = [t.lstrip("<").rstrip(">") if t not in ("<", ">") else "" for t in raw]
        toks = [t if t.startswith("+") else t.lstrip("<").rstrip(">") for t in toks]
        return split_terminator([t for t in toks if t])
    toks = [t.translate(_CA_TABLE) for t in raw]
    toks = [t for t in toks if t]
    toks, term = split_terminator(toks)
    words: list[str] = []
    for tok in toks:
        for part in _CA_INNER.split(tok.strip(_CA_ENDS).lower()):
            part = part.strip(_CA_ENDS)
            if part and not _BREATH.match(part):
                words.append(part)
    return words, term


def _bullet_times(text: str, path: Path, line: int) -> list[tuple[float, float]]:
    out = []
    for m in _BULLET.finditer(text):
        times = _BULLET_TIMES.search(m.group(1).strip())
        if times is None:
            raise InputError(
                f"bad time bullet {m.group(1)!r}; expected START_END in milliseconds",
                path=path,
                place=f"line {line}",
            )
        # (Compare digit counts first: int('9' * 400) / 1000 overflows a float.)
        too_long = max(len(times.group(1).lstrip("0")), len(times.group(2).lstrip("0"))) > 12
        s, e = (math.inf, math.inf) if too_long else (int(times.group(1)) / 1000.0, int(times.group(2)) / 1000.0)
        if max(s, e) > MAX_SECONDS:
            raise InputError(
                f"time bullet {m.group(1)!r} lies beyond {MAX_SECONDS:.0f} s; expected milliseconds of a recording",
                path=path,
                place=f"line {line}",
            )
        out.append((s, e))
    if text.count("\x15") % 2:
        raise InputError("unpaired time bullet mark (\\x15)", path=path, place=f"line {line}")
    return out


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


class _Record:
    """One logical line: a header, main tier or dependent tier with its continuation lines."""

    __slots__ = ("kind", "tag", "lines", "line")

    def __init__(self, kind: str, tag: str, line: int, raw: str) -> None:
        self.kind, self.tag, self.line, self.lines = kind, tag, line, [raw]

    @property
    def content(self) -> str:
        first = self.lines[0]
        m = (_MAIN if self.kind == "*" else _DEP if self.kind == "%" else _HEADER).match(first)
        head = (m.group(2) or "") if m else ""
        return " ".join([head, *(ln.strip() for ln in self.lines[1:])])


def _records(text: str) -> tuple[list[_Record | str], int]:
    """Records and loose lines (str) in file order, and how many lines could not be placed."""
    out: list[_Record | str] = []
    current: _Record | None = None
    stray = 0
    for n, line in enumerate(text.split("\n"), start=1):
        if line.endswith("\r"):
            line = line[:-1]
        if line[:1] in (" ", "\t") and current is not None:
            current.lines.append(line)
            continue
        if line.startswith("*") and _MAIN.match(line):
            current = _Record("*", _MAIN.match(line).group(1), n, line)  # type: ignore[union-attr]
        elif line.startswith("%") and _DEP.match(line):
            current = _Record("%", _DEP.match(line).group(1), n, line)  # type: ignore[union-attr]
        elif line.startswith("@"):
            m = _HEADER.match(line)
            # A header the pattern cannot split (a tab inside its name) keeps its first word as tag.
            tag = (m.group(1) or "") if m else re.split(r"[:\s]", line[1:], maxsplit=1)[0]
            current = _Record("@", tag.strip(), n, line)
        else:
            current = None
            if line.strip():
                stray += 1
            out.append(line)
            continue
        out.append(current)
    if out and out[-1] == "":
        out.pop()  # the final newline
    return out, stray


def read(
    path: Path, *, scheme: BoundaryScheme | None = None, ca: bool | None = None, encoding: str | None = None, **_: Any
) -> Document:
    """Read a CHAT file into a Document (see the module docstring).

    Args:
        path: the ``.cha`` file.
        scheme: the scheme of the ``iu`` layer: ``chat`` keeps every terminator, any other gets
            their Du Bois endnotes (default Du Bois).
        ca: CA tokenisation on/off; by default on when ``@Options`` says ``CA``.
    """
    scheme = scheme or builtin_scheme("dubois")
    path = Path(path)
    raw_bytes = read_bytes(path)
    # Not UTF-8 (as CHAT requires): decode_text detects the encoding and reports it in doc.losses.
    text = decode_text(raw_bytes, path, encoding=encoding)
    doc_losses: list[tuple[str, str, str | None, int | None]] = []
    items, stray = _records(text)
    if not any(isinstance(it, _Record) and it.kind == "@" and it.tag.lower() == "end" for it in items):
        # CHAT files end with `@End`; without it the file may have been cut short (a real CABNC
        # fragment also lacks it, so this is reported, not refused).
        doc_losses.append(("end-missing", "no @End line: the file may be cut short", "end of file", None))
    newline = "\r\n" if "\r\n" in text else "\n"

    participants: list[dict[str, str]] = []
    options = ""
    first_main = next((i for i, it in enumerate(items) if isinstance(it, _Record) and it.kind == "*"), None)
    if first_main is None:
        raise InputError("no utterance (no line starting '*CODE:'); expected a CHAT transcript", path=path)
    for it in items:
        if isinstance(it, _Record) and it.kind == "@":
            tag = it.tag.lower()
            if tag == "participants":
                participants.extend(_participants(it.content))
            elif tag == "options":
                options = it.content
    if ca is None:
        ca = "CA" in re.split(r"[\s,]+", options)

    name_of = speaker_names(participants)
    speakers = list(name_of.values())

    def lines_of(it: _Record | str) -> list[str]:
        return [it] if isinstance(it, str) else it.lines

    header = [ln for it in items[:first_main] for ln in lines_of(it)]
    units: list[dict[str, Any]] = []
    before: list[str] = []
    undeclared: dict[str, int] = {}
    wordless = 0
    i = first_main
    while i < len(items):
        it = items[i]
        if not (isinstance(it, _Record) and it.kind == "*"):
            before.extend(lines_of(it))
            i += 1
            continue
        deps: list[str] = []
        j = i + 1
        while j < len(items) and isinstance(items[j], _Record) and items[j].kind == "%":  # type: ignore[union-attr]
            deps.extend(items[j].lines)  # type: ignore[union-attr]
            j += 1
        content = it.content
        times = _bullet_times(content, path, it.line)
        tokens, term = tokenise(content, ca=ca)
        if not tokens:
            # CA `(        )` (inaudible) and the like: CHAT's own spelling of "no words".
            wordless += 1
            tokens = [NO_WORDS]
        code = terminator_code(term, scheme)
        if code is None:
            raise InputError(
                f"utterance without a terminator the scheme {scheme.name!r} can express, and the scheme "
                "has no unclassified type; use the chat or dubois scheme",
                path=path,
                place=f"line {it.line}",
            )
        if it.tag not in name_of:
            undeclared[it.tag] = undeclared.get(it.tag, 0) + 1
            name = it.tag if it.tag not in name_of.values() else f"{it.tag} (undeclared)"
            name_of[it.tag] = name
            speakers.append(name)
        if times and min(s for s, _ in times) > max(e for _, e in times):
            raise InputError(
                f"the utterance's time bullets end before they start ({content.count(chr(0x15)) // 2} bullets); "
                "expected START_END with START <= END",
                path=path,
                place=f"line {it.line}",
            )
        units.append(
            {
                "speaker": name_of[it.tag],
                "tokens": tokens,
                "boundary": code,
                "start": min(s for s, _ in times) if times else None,
                "end": max(e for _, e in times) if times else None,
                "meta": {
                    "chat_code": it.tag,
                    "chat_raw": "\n".join(it.lines),
                    "chat_deps": "\n".join(deps),
                    "chat_before": "\n".join(before),
                    "terminator": term or "",
                },
            }
        )
        before = []
        i = j
    if not units:
        raise InputError("no utterance has words; nothing to read", path=path)
    meta = {
        "chat": {
            "header": header,
            "trailer": before,
            "participants": participants,
            "ca": ca,
            "newline": newline,
        }
    }
    doc = from_units(
        path.stem,
        units,
        layer="iu",
        scheme=scheme,
        speakers=speakers,
        source_path=str(path),
        source_format="chat",
        meta=meta,
    )
    for kind, msg, where, count in doc_losses:
        doc.losses.add(kind, msg, where=where, count=count)
    for code_, n in undeclared.items():
        doc.losses.add("speaker-undeclared", f"speaker code {code_!r} is not in @Participants", count=n)
    if wordless:
        doc.losses.add(
            "repaired",
            f"utterances with nothing but pauses, comments or CA marks got the token {NO_WORDS!r}",
            count=wordless,
        )
    if stray:
        doc.losses.add("lines-unparsed", "lines that are no header, tier or continuation (kept as text)", count=stray)
    return doc


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


def write(doc: Document, path: Path, *, losses: LossReport, **_: Any) -> None:
    """Write a Document as CHAT (see the module docstring)."""
    layer_name = "iu" if "iu" in doc.layers else doc.layer().name
    layer = doc.layer(layer_name)
    scheme = layer.scheme
    for other in doc.layers:
        if other != layer_name:
            losses.add("layer-dropped", f"CHAT holds one utterance layer; layer {other!r} is not written")
    if layer_name != "iu":
        losses.add("layer-renamed", f"CHAT utterances read back as layer 'iu' (written from layer {layer_name!r})")
    extra = [c for c in doc.meta_columns() if c not in OWN_COLUMNS]
    if extra:
        losses.add("meta-dropped", f"CHAT keeps no token metadata; dropped {extra}")
    chat_meta = doc.meta.get("chat") or {}
    ca = bool(chat_meta.get("ca"))
    nl = chat_meta.get("newline") or "\n"
    codes, decl = _speaker_codes(doc, losses)

    header = list(chat_meta.get("header") or [])
    own_decl = [dict(p) for p in chat_meta.get("participants") or []]
    if header and decl == own_decl:
        pass  # the header as read
    elif header:
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
    else:
        header = ["@UTF8", "@Begin", "@Languages:\tund", _participants_line(decl)]
        header += [f"@ID:\tund|segagree|{p['code']}|||||{p['role'] or 'Unidentified'}|||" for p in decl]
        if ca:
            header.append("@Options:\tCA")

    cols = doc.tokens
    text = cols["text"].to_numpy()
    starts = cols["start"].to_numpy(dtype=float)
    ends = cols["end"].to_numpy(dtype=float)

    def col(name: str, row: int) -> str:
        if name not in cols.columns:
            return ""
        v = cols[name].iat[row]
        return v if isinstance(v, str) else ""

    out = list(header)
    regenerated = deps_dropped = changed = rounded = half_timed = reversed_ = inner_times = untyped = 0
    for u in doc.units(layer_name):
        first, last = u.rows[0], u.rows[-1]
        toks = [str(text[r]) for r in u.rows]
        before = col("chat_before", first)
        if before:
            out.extend(before.split("\n"))
        s, e = starts[first], ends[last]
        if any(not math.isnan(starts[r]) for r in u.rows[1:]) or any(not math.isnan(ends[r]) for r in u.rows[:-1]):
            inner_times += 1
        raw = col("chat_raw", first)
        term = terminator_for(u.boundary, scheme, col("terminator", last) or None)
        if raw and col("chat_code", first) == codes[u.speaker]:
            rt, rterm = tokenise(raw.split(":", 1)[1] if ":" in raw else raw, ca=ca)
            rt = rt or [NO_WORDS]
            bullets = [(a, b) for a, b in _bullet_times_quiet(raw)]
            same_times = (
                (not bullets and math.isnan(s) and math.isnan(e))
                or bullets
                and min(a for a, _ in bullets) == s
                and max(b for _, b in bullets) == e
            )
            if rt == toks and terminator_code(rterm, scheme) == u.boundary and same_times:
                out.extend(raw.split("\n"))
                deps = col("chat_deps", first)
                if deps:
                    out.extend(deps.split("\n"))
                continue
        regenerated += 1
        if term is None and u.boundary != scheme.unclassified_code:
            untyped += 1
        if col("chat_deps", first):
            deps_dropped += 1
        line = f"*{codes[u.speaker]}:\t" + " ".join(toks) + (f" {term}" if term else "")
        if not math.isnan(s) and not math.isnan(e) and s > e:
            reversed_ += 1  # (a unit whose first word starts after its last word ends)
        elif not math.isnan(s) and not math.isnan(e):
            rounded += abs(_ms(s) / 1000 - s) > 1e-9 or abs(_ms(e) / 1000 - e) > 1e-9
            line += f" \x15{_ms(s)}_{_ms(e)}\x15"
        elif not (math.isnan(s) and math.isnan(e)):
            half_timed += 1
        back, bterm = tokenise(line.split(":", 1)[1], ca=ca)
        if back != toks or terminator_code(bterm, scheme) != u.boundary:
            changed += 1
        out.append(line)
    out.extend(chat_meta.get("trailer") or ([] if chat_meta else ["@End"]))
    if deps_dropped:
        losses.add(
            "dependent-tiers-dropped",
            "utterances whose words, terminator or times changed lose their dependent tiers",
            count=deps_dropped,
        )
    if changed:
        losses.add(
            "tokens-changed",
            "tokens CHAT reads differently (spaces, brackets, pauses, CA marks) will not read back the same",
            count=changed,
        )
    if untyped:
        kinds = ", ".join(t.symbol for t in scheme.types)
        losses.add(
            "types-dropped",
            f"boundaries of scheme {scheme.name!r} ({kinds}) with no CHAT terminator are written without one",
            count=untyped,
        )
    if rounded:
        losses.add("times-rounded", "CHAT bullets hold whole milliseconds; finer times were rounded", count=rounded)
    if reversed_:
        losses.add("times-dropped", "units that end before they start get no bullet", count=reversed_)
    if half_timed:
        losses.add("times-dropped", "units with only a start or only an end time get no bullet", count=half_timed)
    if inner_times:
        losses.add("times-dropped", "word times inside utterances are not written", count=inner_times)
    write_text_atomic(path, nl.join(out) + nl)


def _bullet_times_quiet(text: str) -> list[tuple[float, float]]:
    out = []
    for m in _BULLET.finditer(text):
        times = _BULLET_TIMES.search(m.group(1).strip())
        if times and max(len(times.group(1)), len(times.group(2))) <= 15:
            out.append((int(times.group(1)) / 1000.0, int(times.group(2)) / 1000.0))
    return out


ADAPTER = Adapter(
    name="chat",
    extensions=(".cha",),
    description="CLAN CHAT .cha: main-tier utterances as units, terminators as boundaries, bullets as times",
    read=read,
    write=write,
)
