"""MuST-Cinema tagged text: one sentence per line, ``<eol>``/``<eob>`` break tags between words.

The format of MuST-Cinema (Karakanta, Negri & Turchi 2020), EvalSubtitle and SubER's ``plain``
input: each line of the file is one sentence; ``<eob>`` after a word ends a subtitle block,
``<eol>`` ends a line inside a block; words and tags are separated by whitespace. Example::

    Imaginez que vous vous réveillez <eol> un matin et qu'un inconnu, <eob> ou parfois... <eob>

Such files carry no extension of their own (``amara.fr``, ``cascade.en``), so the format is
chosen with ``--from tagged``/``--to tagged`` (or the extensions ``.tagged`` and ``.eob``).

Mapping to the model (reading):

* **Tokens**: the whitespace-separated words of every line, one speaker ``SUBTITLE``, no times.
* **Layer** ``subtitle`` (scheme ``subtitle``): the tag after a word. Where several tags follow
  one word (``existent, <eol> <eob>``, as in the MuST-Cinema reference) the layer holds the last
  one (SubER's reading) and the token column ``tags`` keeps the whole sequence, so that
  EvalSubtitle's metrics, which count every tag, and the writer see all of them.
* **Layer** ``sentence`` (scheme ``sentence``): ``<s>`` after the last word of every line.
* A tag glued to a word (``nous"<eob>``) is split from it, as EvalSubtitle does (SubER's reader
  keeps ``nous"<eob>`` as one word): reported as ``tags-unglued``. A tag before the first word of
  a line has no word to follow and is dropped (``tag-dropped``), as SubER's reader does. Empty
  lines are kept in ``meta['empty_lines']`` (0-based line numbers) and written back.

Writing: one line per sentence of the ``sentence`` layer (a document without one is written as
one sentence per ``<eob>`` block, ``layer-dropped``; a unit layer without subtitle types, one unit
per line), the subtitle breaks as tags, the ``tags``
column where present; times, speakers and other layers cannot be written (reported).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from segagree.errors import InputError, UsageError
from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.formats.base import Adapter
from segagree.model import Document, builtin_scheme, from_units
from segagree.model.losses import LossReport
from segagree.model.scheme import BoundaryScheme

SPEAKER = "SUBTITLE"
TAGS = ("<eob>", "<eol>")
_GLUED = re.compile(r"(<eob>|<eol>)")


def _split_line(line: str) -> tuple[list[str], list[list[str]], int, int]:
    """Words of one line, the tags after each, glued tags split and leading tags dropped."""
    words: list[str] = []
    tags: list[list[str]] = []
    glued = dropped = 0
    for raw in line.split():
        parts = [p for p in _GLUED.split(raw) if p] if raw not in TAGS else [raw]
        if len(parts) > 1:
            glued += 1
        for part in parts:
            if part in TAGS:
                if words:
                    tags[-1].append(part)
                else:
                    dropped += 1
            else:
                words.append(part)
                tags.append([])
    return words, tags, glued, dropped


def read(path: Path, *, scheme: BoundaryScheme, **options: Any) -> Document:
    """Read a tagged-text file (see the module docstring); ``scheme`` is not used."""
    if options:
        raise UsageError(f"unknown tagged-text reader option(s) {sorted(options)}")
    text = decode_text(read_bytes(path), path)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    sub = builtin_scheme("subtitle")
    code = {"<eob>": sub.code("<eob>"), "<eol>": sub.code("<eol>")}
    units: list[dict[str, Any]] = []
    sentence_codes: list[list[int]] = []
    empty: list[int] = []
    multi: dict[int, str] = {}
    n_tokens = glued_total = 0
    dropped_at: list[int] = []
    for no, line in enumerate(lines):
        words, tags, glued, dropped = _split_line(line)
        glued_total += glued
        if dropped:
            dropped_at.append(no + 1)
        if not words:
            empty.append(no)
            continue
        start = 0
        for i, t in enumerate(tags):
            if len(t) > 1:
                multi[n_tokens + i] = " ".join(t)
            if t or i == len(words) - 1:
                units.append({"speaker": SPEAKER, "tokens": words[start : i + 1], "boundary": code[t[-1]] if t else 0})
                sentence_codes.append([0] * (i - start) + [1 if i == len(words) - 1 else 0])
                start = i + 1
        n_tokens += len(words)
    if not units:
        raise InputError("no words: a tagged-text file needs at least one word", path=path)
    meta: dict[str, Any] = {"sentences": len(lines) - len(empty)}
    if empty:
        meta["empty_lines"] = empty
    doc = from_units(
        path.name,
        units,
        layer="subtitle",
        scheme=sub,
        extra_layers={"sentence": (builtin_scheme("sentence"), sentence_codes)},
        source_path=str(path),
        source_format="tagged",
        meta=meta,
    )
    if multi:
        tag_column = [""] * doc.n_tokens
        for i, joined in multi.items():
            tag_column[i] = joined
        doc.set_column("tags", tag_column)
    if glued_total:
        doc.losses.add("tags-unglued", "tags written against a word were split from it", count=glued_total)
    if dropped_at:
        doc.losses.add(
            "tag-dropped",
            "a tag before the first word of a line follows no word and was dropped",
            where=f"line {dropped_at[0]}",
            count=len(dropped_at),
        )
    if empty:
        doc.losses.add("empty-lines", "empty lines hold no tokens (kept in meta['empty_lines'])", count=len(empty))
    return doc


def tagged_lines(doc: Document, layer: str | None = None) -> tuple[list[list[tuple[str, tuple[str, ...]]]], bool]:
    """The sentences of ``doc`` as lists of (word, tags after it), and whether a sentence layer cut them.

    Used by the writer and by the subtitle metrics. Without a ``sentence`` layer every
    ``<eob>`` block is a sentence.
    """
    name = layer or ("subtitle" if "subtitle" in doc.layers else None)
    lay = doc.layer(name)
    symbols = lay.scheme.symbols
    codes = lay.boundaries.tolist()
    words = doc.tokens["text"].astype(str).tolist()
    extra = doc.tokens["tags"].fillna("").astype(str).tolist() if "tags" in doc.tokens else [""] * len(words)
    has_sentences = "sentence" in doc.layers and name != "sentence"
    ends = doc.layers["sentence"].boundaries.tolist() if has_sentences else None
    if ends is None and lay.scheme.find_code("<eob>") is None:
        ends = codes  # a unit layer without subtitle breaks: one unit per line
    out: list[list[tuple[str, tuple[str, ...]]]] = []
    cur: list[tuple[str, tuple[str, ...]]] = []
    for i, w in enumerate(words):
        if extra[i]:
            tags = tuple(extra[i].split())
        else:
            sym = symbols[codes[i]] if codes[i] else ""
            tags = (sym,) if sym in TAGS else ()
        cur.append((w, tags))
        end = ends[i] != 0 if ends is not None else bool(tags and tags[-1] == "<eob>")
        if end or i == len(words) - 1:
            out.append(cur)
            cur = []
    return out, has_sentences


def write(doc: Document, path: Path, *, losses: LossReport, **options: Any) -> None:
    """Write ``doc`` as tagged text (see the module docstring)."""
    if options:
        raise UsageError(f"unknown tagged-text writer option(s) {sorted(options)}")
    lay = doc.layer("subtitle" if "subtitle" in doc.layers else None)
    subtitles = lay.scheme.find_code("<eob>") is not None
    if not subtitles:
        losses.add("layer-dropped", f"layer {lay.name!r} has no <eob>/<eol> types: one unit per line, types not kept")
    sentences, has_sentences = tagged_lines(doc, lay.name)
    if subtitles and not has_sentences:
        losses.add("layer-dropped", "no 'sentence' layer: every <eob> block is written as one line")
    for other in doc.layers:
        if other not in (lay.name, "sentence"):
            losses.add("layer-dropped", f"tagged text holds only sentences and breaks; layer {other!r} is not written")
    if len(doc.speakers) > 1:
        losses.add("speakers-merged", f"speakers {doc.speakers} are written as one text")
    if doc.has_times:
        losses.add("times-dropped", "tagged text has no times")
    lines = [" ".join(w if not t else w + " " + " ".join(t) for w, t in s) for s in sentences]
    for no in doc.meta.get("empty_lines") or []:
        if isinstance(no, (int, np.integer)) and 0 <= no <= len(lines):
            lines.insert(int(no), "")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8", newline="")


ADAPTER = Adapter(
    name="tagged",
    extensions=(".tagged", ".eob"),
    description="MuST-Cinema tagged text: one sentence per line, <eol>/<eob> break tags (SubER's plain)",
    read=read,
    write=write,
)
