"""File-level data a reader keeps in ``doc.meta`` for its own writer, and its loss elsewhere.

Readers keep what the model has no column for (CHAT headers, ELAN media descriptors, a
TextGrid's declared time range, Transcriber's speaker table...) in ``doc.meta`` so that writing
the same format gives the file back. Written to *another* format, that data is gone, and the
loss-report contract (model/losses.py) says the writer must say so. Rather than each writer
knowing every other format's keys, :func:`note_foreign_meta` runs after every write, for every
target except the source's own format and the native JSON (which keeps ``meta`` whole).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from typing import Any

from segagree.model import Document
from segagree.model.losses import LossReport

# Formats that keep meta whole (the native JSON) or whose own writer reports its keys.
_KEEPS_ALL = {"json"}
# (target, source) pairs where the target's writer carries the source's kept data in the file: an
# ELAN file written from CHAT keeps the CHAT header in a property (segagree.formats.chat.elan_bridge).
_CARRIED = {("eaf", "chat")}


def _chat(doc: Document) -> list[str]:
    chat = doc.meta.get("chat")
    if not isinstance(chat, dict):
        return []
    header = [str(x).split(":", 1)[0].split("\t", 1)[0] for x in chat.get("header") or [] if str(x).strip()]
    own = {"@UTF8", "@Begin", "@End"}  # what any CHAT file has: no information
    header = [h for h in header if h not in own]
    out = []
    if header:
        tags = sorted(set(header))
        out.append(f"CHAT header lines ({', '.join(tags[:8])}{', ...' if len(tags) > 8 else ''})")
    trailer = [x for x in chat.get("trailer") or [] if str(x).strip() and str(x).strip() != "@End"]
    if trailer:
        out.append("CHAT lines after the last utterance")
    return out


def _trs(doc: Document) -> list[str]:
    trs = doc.meta.get("trs")
    if not isinstance(trs, dict):
        return []
    names = {
        "trans": "Transcriber <Trans> attributes",
        "speakers": "the Transcriber speaker table",
        "topics": "Transcriber topics",
        "episode": "Transcriber episode attributes",
        "sections": "Transcriber section attributes",
        "turns": "Transcriber turn attributes",
    }
    return [what for key, what in names.items() if trs.get(key)]


def _exb(doc: Document) -> list[str]:
    exb = doc.meta.get("exb")
    if not isinstance(exb, dict):
        return []
    names = {
        "meta_information": "EXMARaLDA meta-information",
        "speakertable": "the EXMARaLDA speaker table",
        "timeline": "the EXMARaLDA timeline's point ids and untimed points",
        "tiers": "EXMARaLDA tier attributes",
        "other_tiers": "EXMARaLDA annotation tiers",
        "tierformat_table": "the EXMARaLDA tier format table",
    }
    return [what for key, what in names.items() if exb.get(key)]


def _eaf(doc: Document) -> list[str]:
    names = {
        "media_descriptors": "ELAN media descriptors",
        "property_list": "ELAN header properties",
        "unit_tier_attrs": "ELAN tier attributes (participants, annotators, linguistic types)",
        "author": "the ELAN author",
    }
    return [what for key, what in names.items() if doc.meta.get(key)]


def _time(value: Any) -> float | None:
    try:
        t = float(value)
    except (TypeError, ValueError):
        return None
    return t if math.isfinite(t) else None


def _textgrid(doc: Document) -> list[str]:
    """A TextGrid's declared range, where it says more than the token times do."""
    xmin, xmax = _time(doc.meta.get("xmin")), _time(doc.meta.get("xmax"))
    if xmin is None and xmax is None:
        return []
    times = doc.tokens[["start", "end"]].to_numpy(dtype=float).ravel() if doc.n_tokens else []
    known = [t for t in times if math.isfinite(t)]
    last = max(known) if known else 0.0
    first = min(known) if known else 0.0
    wider = (xmin is not None and xmin < first - 1e-9 and xmin != 0.0) or (xmax is not None and xmax > last + 1e-9)
    ranges = doc.meta.get("tier_ranges")
    narrower = isinstance(ranges, dict) and any(
        isinstance(r, list | tuple) and len(r) == 2 and (_time(r[0]), _time(r[1])) != (xmin, xmax)
        for r in ranges.values()
    )
    out = []
    if wider:
        out.append(f"the TextGrid's time range ({xmin:g} to {xmax:g} s, beyond the last time {last:g} s)")
    if narrower:
        out.append("TextGrid tier ranges narrower than the file's")
    return out


def _edus(doc: Document) -> list[str]:
    edus = doc.meta.get("edus")
    if not isinstance(edus, dict):
        return []
    out = []
    if edus.get("indent") or edus.get("trail"):
        out.append("the .edus lines' indentation and trailing spaces")
    if edus.get("lines"):
        out.append(f"the spacing inside {len(edus['lines'])} .edus line(s)")
    if edus.get("newline") == "\r\n":
        out.append("the .edus file's CRLF line ends")
    return out


# source format -> what of its kept meta the document holds (empty: nothing of note)
_FOREIGN: dict[str, Callable[[Document], list[str]]] = {
    "edus": _edus,
    "chat": _chat,
    "transcriber": _trs,
    "exmaralda": _exb,
    "eaf": _eaf,
    "textgrid": _textgrid,
}


def filled_cells(doc: Document, columns: list[str]) -> int:
    """How many cells of the token ``columns`` hold something (not NaN, None or blank)."""
    n = 0
    for col in columns:
        values = doc.tokens[col]
        n += int((values.notna() & (values.astype(str).str.strip() != "")).sum())
    return n


def note_dropped_columns(doc: Document, columns: list[str], target: str, losses: LossReport) -> None:
    """Report the token ``columns`` that ``target`` (a format named with its article, e.g.
    "a TextGrid") has no place for, counting their non-empty cells; nothing when there are none."""
    if columns:
        losses.add(
            "meta-dropped",
            f"token columns have no place in {target} (their non-empty cells are lost)",
            where=", ".join(columns),
            count=filled_cells(doc, columns),
        )


def note_foreign_meta(doc: Document, target: str, losses: LossReport) -> None:
    """Report the file-level data other formats' readers kept that ``target`` cannot hold.

    Every known kind of kept data is checked regardless of ``doc.source_format`` (a document
    read from native JSON still carries the CHAT headers of the file it came from).
    """
    if target in _KEEPS_ALL:
        return
    for fmt, held in _FOREIGN.items():
        if fmt == target or (target, fmt) in _CARRIED:
            continue
        what = held(doc)
        if what:
            losses.add("meta-dropped", f"{target} has no place for {'; '.join(what)}", where=fmt)


def note_words_between_spaces(
    losses: LossReport, *, split: int, empty: int, odd_speakers: Collection[str], holder: str, speaker_rule: str
) -> None:
    """The write losses of a format that holds a unit's words between spaces (Du Bois text, a
    table row): tokens holding spaces split on reading back, empty tokens dropped, and speaker
    names its reader changes (``speaker_rule`` says how)."""
    losses.add_count("tokens-split", "tokens holding spaces are split on reading back", split)
    losses.add_count("tokens-dropped", f"empty tokens are not kept ({holder} holds words between spaces)", empty)
    if odd_speakers:
        losses.add("speakers-changed", f"speaker names {sorted(odd_speakers)} read back differently ({speaker_rule})")
