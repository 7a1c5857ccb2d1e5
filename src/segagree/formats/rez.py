"""Rezonator ``.rez`` files (read only), Rezonator 0.17 to 1.1.x.

What the format holds
---------------------
A ``.rez`` file is UTF-8 JSON followed by a NUL byte (GameMaker writes NUL-terminated
buffers; beautified copies have none). ``ROOT[0]`` is a header plus ``nodeMap``, a flat
``id -> node`` dict. The header names the user-defined fields:

* ``docNode`` (>= 0.20.5) or ``discourseNode`` (<= 0.20.3): the ``doc`` node, whose
  ``unitList`` holds the units (intonation units, one per line) in discourse order;
* ``participantField`` (>= 0.20.5) or ``speakerField`` (<= 0.20.3): the unit ``tagMap`` key
  holding the speaker's name;
* ``displayTokenField`` / ``tokenImportDisplayTokenColName``: the token ``tagMap`` key of the
  word as displayed; ``tokenImportTranscriptColName``: the key of the transcription;
* ``unitImportTurnDelimColName``: the unit ``tagMap`` key of the turn number (may be null);
* ``unitImportUnitStartColName`` / ``...EndColName``: unit ``tagMap`` keys of the times
  (used when ``unitStart``/``unitEnd`` are empty, as in 0.17).

A unit's tokens are reached through ``unit.entryList -> entry.token`` and ordered by
``docTokenSeq`` (``discourseTokenSeq`` before 0.20.5), else ``tokenOrder`` (``tokenSeq``).
Santa Barbara Corpus files mark the endnote as a token of its own with
``tagMap.kind = "endnote"`` and ``tagMap.endNote`` in continuing / final / appeal / break /
suspended.

How it maps to the model
------------------------
* units -> the ``iu`` layer (the given scheme, DuBois by default), sorted by ``unitSeq``;
  the unit's boundary is after its last token;
* speaker -> the participant field with a trailing ``;`` stripped (``MARCIA;`` -> ``MARCIA``,
  ``>ENV;`` -> ``>ENV``); the raw labels are kept in ``meta['speaker_labels']``;
* endnote tokens are boundaries, not words: ``continuing`` -> ``,``, ``final`` -> ``.``,
  ``appeal`` -> ``?``, ``break`` -> ``--`` (looked up in the scheme by symbol, then by the
  token's own text, e.g. ``—``); ``suspended`` (the unit is continued later) -> unclassified.
  The raw ``endNote`` value is kept in the token column ``endnote_raw``;
* a unit without an endnote token: in a file that uses endnote tokens it is unclassified
  (the transcriber wrote none, e.g. a unit of ``(H)`` or ``###``; splitting a final ``.``
  off a word there would invent a type); in a file without endnote tokens its final
  punctuation is split off with :func:`split_endnote`, else it is unclassified;
* turns -> a second layer ``turn`` (scheme ``turn``), a boundary after the last token of each
  turn: per speaker, a turn ends where the next unit of that speaker has another value in the
  header's turn column, or, without a turn column, where the next unit in discourse order
  belongs to another speaker;
* times -> ``unitStart``/``unitEnd`` (strings, seconds) or the tagMap time columns, as the
  start of the unit's first token and the end of its last (tokens have no times);
* pauses, vocalisms, laughs, ``anno`` and ``action`` tokens stay tokens; an SBC ``startnote``
  (empty text, transcript ``&``) becomes the token ``&``: a token whose display text is empty
  takes its transcript; a token with neither is dropped (counted in ``meta['dropped_tokens']``);
* token columns: ``transcript`` (the transcription field), ``kind`` (SBC token kind),
  ``endnote_raw``, ``unit_id`` (the unit delimiter field) and ``turn`` where the file has them;
* a unit with no word tokens (only an endnote) is skipped and listed in
  ``meta['dropped_units']`` (none occur in the known files).

Not represented: chains (tracks/trails, resonances, stacks, cards), chunks, links, trees,
POS and other token tags, UI state; ``meta['not_represented']`` counts those nodes.
Files from Rezonator 0.8 and earlier (grid format, no ``nodeMap``) are refused.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from segagree.errors import InputError
from segagree.files.memory import read_bytes
from segagree.formats.base import Adapter
from segagree.formats.endnotes import split_endnote
from segagree.formats.timing import MAX_SECONDS
from segagree.model import BoundaryScheme, Document, builtin_scheme, from_units

# SBC endNote values and the DuBois symbol each one stands for; "suspended" has none.
ENDNOTE_SYMBOLS = {"continuing": ",", "final": ".", "appeal": "?", "break": "--"}
SUSPENDED = "suspended"

# Node types that make up the text; every other typed node is annotation we do not carry.
_TEXT_NODES = {"corpus", "doc", "unit", "entry", "token", "map", "list"}


def _num(value: Any) -> float:
    """A number from a GameMaker value (``"0.25"``, ``1.0``, ``3``, ``""``); NaN if none."""
    if value is None or isinstance(value, bool):
        return math.nan
    try:
        out = float(value)
    except (TypeError, ValueError, OverflowError):
        return math.nan
    return out if math.isfinite(out) else math.nan


def _time(value: Any, path: Path, where: str) -> float:
    """A unit time (seconds, a number or a numeric string); NaN when empty. Anything else, and
    times no recording has (inf, negative, beyond ten days), is refused with its JSON path."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return math.nan
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InputError(f"{type(value).__name__} where a time in seconds was expected", path=path, place=where)
    try:
        out = float(value)
    except (ValueError, OverflowError):
        raise InputError(f"{value!r} is not a time in seconds", path=path, place=where) from None
    if not math.isfinite(out) or out < 0 or out > MAX_SECONDS:
        raise InputError(
            f"time {value!r} is impossible; expected a finite time from 0 to {MAX_SECONDS:.0f} s",
            path=path,
            place=where,
        )
    return out


def _obj(value: Any, path: Path, where: str, *, optional: bool = True) -> dict[str, Any]:
    """A JSON object (``{}`` for a missing optional one); anything else is refused."""
    if value is None and optional:
        return {}
    if not isinstance(value, dict):
        raise InputError(f"{type(value).__name__} where a JSON object was expected", path=path, place=where)
    return value


def _list(value: Any, path: Path, where: str) -> list[Any]:
    """A JSON array (``[]`` for a missing one); anything else is refused."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise InputError(f"{type(value).__name__} where a JSON array was expected", path=path, place=where)
    return value


def _text(value: Any, path: Path, where: str) -> str:
    """A token field: text (numbers are written as text); objects and arrays are refused."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise InputError(f"{type(value).__name__} where text was expected", path=path, place=where)


def _field(hdr: dict[str, Any], *keys: str, path: Path) -> str | None:
    """The first header field naming a key; must be a string when set."""
    for key in keys:
        value = hdr.get(key)
        if value in (None, ""):
            continue
        if not isinstance(value, str):
            raise InputError(
                f"{type(value).__name__} where a field name (text) was expected", path=path, place=f"ROOT[0].{key}"
            )
        return value
    return None


def _seq(value: Any, path: Path, where: str) -> tuple[bool, float]:
    """Sort key of a sequence number (``unitSeq``, ``docTokenSeq``, ``tokenOrder``; a number or
    a numeric string): missing ones last. Anything else is refused with its JSON path."""
    if value is None or value == "":
        return (True, 0.0)
    n = _num(value)
    if math.isnan(n):
        raise InputError(f"{value!r} where a sequence number was expected", path=path, place=where)
    return (False, n)


def _clean_speaker(raw: str) -> str:
    """``MARCIA;`` -> ``MARCIA``; ``>ENV;`` -> ``>ENV`` (the ``;`` is an import artefact)."""
    return raw.strip().rstrip(";").strip()


def _load(path: Path) -> dict[str, Any]:
    """Decode the file (trailing NULs stripped) into the ``ROOT[0]`` header dict."""
    raw = read_bytes(path).rstrip(b"\x00")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {err.start}); expected Rezonator JSON", path=path) from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:
        if not isinstance(err, json.JSONDecodeError):  # over-long integer literals, deep nesting
            raise InputError(f"unreadable JSON ({type(err).__name__})", path=path) from err

        raise InputError(
            f"invalid JSON: {err.msg} (char {err.pos}); expected a complete Rezonator file",
            path=path,
            place=f"line {err.lineno} column {err.colno}",
        ) from None
    root = data.get("ROOT") if isinstance(data, dict) else None
    if not isinstance(root, list) or not root or not isinstance(root[0], dict):
        raise InputError(
            "not a Rezonator file: expected a JSON object with a non-empty 'ROOT' list",
            path=path,
        )
    header = root[0]
    if "nodeMap" not in header:
        if any(k in header for k in ("dynaWordGrid", "wordGrid", "unitGrid", "lineGrid")):
            raise InputError(
                "Rezonator 0.8 or earlier grid format (no 'nodeMap') is not supported; "
                "open and save it in Rezonator 0.17 or later",
                path=path,
                place="ROOT[0]",
            )
        raise InputError("expected a 'nodeMap' object (Rezonator 0.17 or later)", path=path, place="ROOT[0]")
    if not isinstance(header["nodeMap"], dict):
        raise InputError("'nodeMap' must be an object", path=path, place="ROOT[0]")
    return header


def _node(nm: dict[str, Any], node_id: Any, kind: str, path: Path, where: str) -> dict[str, Any]:
    node = nm.get(node_id) if isinstance(node_id, str) else None
    if not isinstance(node, dict):
        raise InputError(f"{kind} node {node_id!r} is missing from nodeMap", path=path, place=where)
    return node


def _token_sort_key(token: dict[str, Any], index: int, path: Path, where: str) -> tuple[Any, ...]:
    # Global order first (docTokenSeq >= 0.20.5, discourseTokenSeq before), then the order
    # within the unit (tokenOrder / tokenSeq), then entryList position.
    glob_key = "docTokenSeq" if "docTokenSeq" in token else "discourseTokenSeq"
    local_key = "tokenOrder" if "tokenOrder" in token else "tokenSeq"
    glob = _seq(token.get(glob_key), path, f"{where}.{glob_key}")
    local = _seq(token.get(local_key), path, f"{where}.{local_key}")
    return (glob, local, index)


def _endnote_code(raw: str, text: str, scheme: BoundaryScheme) -> int | None:
    """Scheme code of an endnote token (None when the scheme cannot express it)."""
    if raw == SUSPENDED:
        return scheme.unclassified_code
    for candidate in (ENDNOTE_SYMBOLS.get(raw), text.strip()):
        if candidate:
            code = scheme.find_code(candidate)
            if code:
                return code
    return scheme.unclassified_code


def read(path: Path, *, scheme: BoundaryScheme | None = None, **_: Any) -> Document:
    """Read a Rezonator ``.rez`` file into a Document (see the module docstring)."""
    scheme = scheme or builtin_scheme("dubois")
    path = Path(path)
    hdr = _load(path)
    nm: dict[str, Any] = hdr["nodeMap"]
    doc_id = _field(hdr, "docNode", "discourseNode", path=path)
    if not doc_id:
        raise InputError("header has neither 'docNode' nor 'discourseNode'", path=path, place="ROOT[0]")
    doc_node = _node(nm, doc_id, "doc", path, "ROOT[0].docNode")
    fields = _Fields.of(hdr, path)
    unit_ids = doc_node.get("unitList")
    if not isinstance(unit_ids, list):
        raise InputError("doc node has no 'unitList' array", path=path, place=f"nodeMap[{doc_id!r}]")
    units = [
        (uid, _node(nm, uid, "unit", path, f"nodeMap[{doc_id!r}].unitList[{i}]")) for i, uid in enumerate(unit_ids)
    ]
    # unitList is in discourse order in every known file; unitSeq is the documented order.
    units.sort(key=lambda pair: _seq(pair[1].get("unitSeq"), path, f"nodeMap[{pair[0]!r}].unitSeq"))
    found = _Found()
    # First pass: each unit's tokens (endnote tokens separated out).
    parsed = [_parse_unit(uid, unit, nm, fields, path, found) for uid, unit in units]
    # Second pass: boundaries, dropped tokens/units.
    kept, dropped_units, dropped_tokens = _classify_units(parsed, found.any_endnote_token, scheme, path)
    turn_scheme = builtin_scheme("turn")
    turn_code = turn_scheme.code(turn_scheme.types[0].symbol)
    ends_turn = _turn_ends(kept, fields.turn is not None)
    has_transcript = fields.transcript is not None and any(w["transcript"] for p in kept for w in p["words"])
    has_kind = any(w["kind"] for p in kept for w in p["words"])
    unit_dicts: list[dict[str, Any]] = []
    turn_codes: list[list[int]] = []
    for i, p in enumerate(kept):
        unit_dicts.append(_unit_dict(p, fields, found.any_endnote_token))
        turn_codes.append([0] * (len(p["words"]) - 1) + [turn_code if ends_turn[i] else 0])
    labels: dict[str, list[str]] = {}
    for p in kept:
        raws = labels.setdefault(p["speaker"], [])
        if p["raw_speaker"] not in raws:
            raws.append(p["raw_speaker"])
    other_nodes: Counter[str] = Counter(
        str(v.get("type"))
        for v in nm.values()
        if isinstance(v, dict) and isinstance(v.get("type"), str) and v["type"] not in _TEXT_NODES
    )
    meta_doc: dict[str, Any] = {
        "rezonator_version": str(hdr.get("version") or ""),
        "import_type": hdr.get("importType"),
        "doc_node": doc_id,
        "fields": fields.as_meta(),
        "speaker_labels": labels,
        "endnote_tokens": found.any_endnote_token,
        "dropped_units": dropped_units,
        "dropped_tokens": dropped_tokens,
        "not_represented": dict(sorted(other_nodes.items())),
    }
    if not unit_dicts:
        raise InputError("the document has no unit with tokens", path=path, place=f"nodeMap[{doc_id!r}]")
    doc = from_units(
        path.stem,
        unit_dicts,
        layer="iu",
        scheme=scheme,
        extra_layers={"turn": (turn_scheme, turn_codes)},
        source_path=str(path),
        source_format="rez",
        meta=meta_doc,
    )
    # Token-level columns (from_units copies unit meta only), in the same token order.
    if has_transcript:
        doc.set_column("transcript", [w["transcript"] for p in kept for w in p["words"]])
    if has_kind:
        doc.set_column("kind", [w["kind"] for p in kept for w in p["words"]])
    _note_read_losses(
        doc, found.lost_tokens, dropped_units, other_nodes, found.token_tags, found.unit_tags, meta_doc["fields"]
    )
    return doc


@dataclass(frozen=True)
class _Fields:
    """The header's names of the fields the reader uses (participant, display token, ...)."""

    participant: str
    display_token: str
    transcript: str | None
    turn: str | None
    unit_start: str | None
    unit_end: str | None
    unit_delimiter: str | None

    @classmethod
    def of(cls, hdr: dict[str, Any], path: Path) -> _Fields:
        speaker_field = _field(hdr, "participantField", "speakerField", path=path)
        if not speaker_field:
            raise InputError("header has neither 'participantField' nor 'speakerField'", path=path, place="ROOT[0]")
        display_field = _field(hdr, "displayTokenField", "tokenImportDisplayTokenColName", path=path)
        if not display_field:
            raise InputError(
                "header has neither 'displayTokenField' nor 'tokenImportDisplayTokenColName'",
                path=path,
                place="ROOT[0]",
            )
        return cls(
            speaker_field,
            display_field,
            _field(hdr, "tokenImportTranscriptColName", path=path),
            _field(hdr, "unitImportTurnDelimColName", path=path),
            _field(hdr, "unitImportUnitStartColName", path=path),
            _field(hdr, "unitImportUnitEndColName", path=path),
            _field(hdr, "unitDelimField", path=path),
        )

    def as_meta(self) -> dict[str, str | None]:
        return {
            "participant": self.participant,
            "display_token": self.display_token,
            "transcript": self.transcript,
            "turn": self.turn,
            "unit_start": self.unit_start,
            "unit_end": self.unit_end,
            "unit_delimiter": self.unit_delimiter,
        }


@dataclass
class _Found:
    """What the first pass counts over all units: tag names in use, tokens without text, and
    whether the file has endnote tokens."""

    token_tags: Counter[str] = field(default_factory=Counter)
    unit_tags: Counter[str] = field(default_factory=Counter)
    lost_tokens: list[str] = field(default_factory=list)
    any_endnote_token: bool = False


def _parse_unit(
    uid: str, unit: dict[str, Any], nm: dict[str, Any], fields: _Fields, path: Path, found: _Found
) -> dict[str, Any]:
    """One unit node as a dict: speaker, words (text, transcript, kind), endnote token, times."""
    where = f"nodeMap[{uid!r}]"
    tag = _obj(unit.get("tagMap"), path, f"{where}.tagMap")
    found.unit_tags.update(k for k, v in tag.items() if v not in (None, ""))
    raw_speaker = tag.get(fields.participant)
    if not isinstance(raw_speaker, str) or not _clean_speaker(raw_speaker):
        raise InputError(
            f"unit has no speaker in tagMap field {fields.participant!r} (the header's participant field)",
            path=path,
            place=where,
        )
    words, endnote = _unit_words(where, unit, nm, fields, path, found)
    start = _time(unit.get("unitStart"), path, f"{where}.unitStart")
    end = _time(unit.get("unitEnd"), path, f"{where}.unitEnd")
    if math.isnan(start) and fields.unit_start:
        start = _time(tag.get(fields.unit_start), path, f"{where}.tagMap.{fields.unit_start}")
    if math.isnan(end) and fields.unit_end:
        end = _time(tag.get(fields.unit_end), path, f"{where}.tagMap.{fields.unit_end}")
    if end < start:
        raise InputError(f"the unit ends ({end:g} s) before it starts ({start:g} s)", path=path, place=where)
    return {
        "node": uid,
        "seq": unit.get("unitSeq"),
        "raw_speaker": raw_speaker,
        "speaker": _clean_speaker(raw_speaker),
        "words": words,
        "endnote": endnote,
        "start": start,
        "end": end,
        "turn": tag.get(fields.turn) if fields.turn else None,
        "unit_id": tag.get(fields.unit_delimiter) if fields.unit_delimiter else None,
    }


def _unit_words(
    where: str, unit: dict[str, Any], nm: dict[str, Any], fields: _Fields, path: Path, found: _Found
) -> tuple[list[dict[str, str]], tuple[str, str] | None]:
    """A unit's word tokens in order, and its endnote token (its endNote value and text), if any."""
    entries = _list(unit.get("entryList"), path, f"{where}.entryList")
    toks = []
    for i, eid in enumerate(entries):
        entry = _node(nm, eid, "entry", path, f"{where}.entryList[{i}]")
        tid = entry.get("token")
        toks.append((tid, _node(nm, tid, "token", path, f"nodeMap[{eid!r}].token"), i))
    toks.sort(key=lambda item: _token_sort_key(item[1], item[2], path, f"nodeMap[{item[0]!r}]"))
    words: list[dict[str, str]] = []
    endnote: tuple[str, str] | None = None
    display, transcript_field = fields.display_token, fields.transcript
    for tid, tok, _ in toks:
        twhere = f"nodeMap[{tid!r}].tagMap"
        ttag = _obj(tok.get("tagMap"), path, twhere)
        found.token_tags.update(k for k, v in ttag.items() if v not in (None, ""))
        text = _text(ttag.get(display), path, f"{twhere}.{display}").strip()
        kind = _text(ttag.get("kind"), path, f"{twhere}.kind")
        if kind.lower() == "endnote":
            found.any_endnote_token = True
            endnote = (_text(ttag.get("endNote"), path, f"{twhere}.endNote").strip().lower(), text)
            continue
        transcript = _text(ttag.get(transcript_field), path, f"{twhere}.{transcript_field}") if transcript_field else ""
        if not text and not transcript.strip():
            others = {k: v for k, v in ttag.items() if v not in (None, "") and k != "Col 0"}
            found.lost_tokens.append(f"{tid} {others}" if others else str(tid))
        words.append({"text": text or transcript.strip(), "transcript": transcript, "kind": kind})
    return words, endnote


def _classify_units(
    parsed: list[dict[str, Any]], any_endnote_token: bool, scheme: BoundaryScheme, path: Path
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """Each unit's boundary (its endnote token, else a final endnote in its words); units with
    words kept, the others listed; and the number of tokens without text dropped."""
    dropped_units: list[dict[str, Any]] = []
    dropped_tokens = 0
    kept: list[dict[str, Any]] = []
    for p in parsed:
        words = [w for w in p["words"] if w["text"]]
        dropped_tokens += len(p["words"]) - len(words)
        raw_endnote = ""
        if p["endnote"] is not None:
            raw_endnote, en_text = p["endnote"]
            code = _endnote_code(raw_endnote, en_text, scheme)
        elif any_endnote_token:
            code = scheme.unclassified_code
        else:
            texts, code = split_endnote([w["text"] for w in words], scheme)
            if len(texts) < len(words):  # a standalone endnote token was removed
                words = words[: len(texts)]
            for w, t in zip(words, texts, strict=True):
                w["text"] = t
            if code is None:
                code = scheme.unclassified_code
        if code is None:
            raise InputError(
                f"unit {p['seq']} has no endnote the scheme {scheme.name!r} can express and "
                "the scheme has no unclassified type; use a scheme with one (e.g. dubois)",
                path=path,
                place=f"node {p['node']!r}",
            )
        if not words:
            dropped_units.append(
                {
                    "unitSeq": int(_num(p["seq"])) if not math.isnan(_num(p["seq"])) else None,
                    "node": p["node"],
                    "speaker": p["speaker"],
                    "endnote": raw_endnote or None,
                }
            )
            continue
        p["words"], p["code"], p["endnote_raw"] = words, code, raw_endnote
        kept.append(p)
    return kept, dropped_units, dropped_tokens


def _turn_ends(kept: list[dict[str, Any]], by_turn_field: bool) -> list[bool]:
    """Whether each unit ends its speaker's turn: per speaker, a turn ends where that speaker's
    next unit starts a new turn (the turn field), else where the next unit is another speaker's."""
    ends_turn = [False] * len(kept)
    if by_turn_field:
        last_of: dict[str, int] = {}
        for i, p in enumerate(kept):
            j = last_of.get(p["speaker"])
            if j is not None and kept[j]["turn"] != p["turn"]:
                ends_turn[j] = True
            last_of[p["speaker"]] = i
        for j in last_of.values():
            ends_turn[j] = True
    else:
        for i, p in enumerate(kept):
            ends_turn[i] = i + 1 == len(kept) or kept[i + 1]["speaker"] != p["speaker"]
    return ends_turn


def _unit_dict(p: dict[str, Any], fields: _Fields, any_endnote_token: bool) -> dict[str, Any]:
    """A kept unit as :func:`from_units` takes it, with its unit id, turn and raw endnote as meta."""
    meta: dict[str, Any] = {}
    if fields.unit_delimiter:
        meta["unit_id"] = "" if p["unit_id"] is None else str(p["unit_id"])
    if fields.turn:
        meta["turn"] = "" if p["turn"] is None else str(p["turn"])
    if any_endnote_token:
        meta["endnote_raw"] = p["endnote_raw"]
    return {
        "speaker": p["speaker"],
        "tokens": [w["text"] for w in p["words"]],
        "boundary": p["code"],
        "start": None if math.isnan(p["start"]) else p["start"],
        "end": None if math.isnan(p["end"]) else p["end"],
        "meta": meta,
    }


def _note_read_losses(
    doc: Document,
    lost_tokens: list[str],
    dropped_units: list[dict[str, Any]],
    other_nodes: Counter[str],
    token_tags: Counter[str],
    unit_tags: Counter[str],
    fields: dict[str, Any],
) -> None:
    """Record what the file holds that the Document does not carry."""
    losses = doc.losses
    if lost_tokens:
        losses.add(
            "tokens-dropped",
            "tokens with neither display text nor transcript",
            where="; ".join(lost_tokens[:3]) + (" ..." if len(lost_tokens) > 3 else ""),
            count=len(lost_tokens),
        )
    if dropped_units:
        losses.add("units-dropped", "units holding only an endnote token", count=len(dropped_units))
    for kind, n in sorted(other_nodes.items()):
        losses.add(
            "annotations-dropped", f"Rezonator {kind} nodes (chains, links, chunks ...) are not carried", count=n
        )
    carried = {fields["display_token"], fields["transcript"], "kind", "endNote"}
    extra = sorted(k for k in token_tags if k not in carried)
    if extra:
        losses.add("meta-dropped", f"token fields {extra} are not carried", count=sum(token_tags[k] for k in extra))
    carried = {
        fields["participant"],
        fields["turn"],
        fields["unit_start"],
        fields["unit_end"],
        fields["unit_delimiter"],
    }
    extra = sorted(k for k in unit_tags if k not in carried)
    if extra:
        losses.add("meta-dropped", f"unit fields {extra} are not carried", count=sum(unit_tags[k] for k in extra))


ADAPTER = Adapter(
    name="rez",
    extensions=(".rez",),
    description="Rezonator .rez (0.17-1.1.x): units, speakers, endnote tokens, turns (read only)",
    read=read,
    write=None,
)
