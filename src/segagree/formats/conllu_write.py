"""Writing CoNLL-U and DISRPT files (the reader and the mapping are in :mod:`segagree.formats.conllu`).

A word per line with its kept columns (or ``ID FORM _ _ _ _ _ _ _ MISC`` for words read from
elsewhere) and the lines kept with it (comments, its document's newdoc line, multiword-token
ranges, empty nodes), IDs renumbered per sentence, ``BeginSeg=Yes`` in MISC from the ``edu`` layer
(or from the unit layer of a Document read from another format), ``Seg=B-Conn`` / ``Seg=I-Conn``
from the ``connective`` layer, a blank line after each sentence of the ``sentence`` layer,
``# newdoc id`` per speaker. A MISC field whose labels did not change is written as the file had it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from segagree.errors import UsageError
from segagree.files.atomic import atomic_path
from segagree.formats.conllu_columns import (
    AFTER,
    B_CONN,
    BEFORE,
    BEGIN,
    EMPTY,
    I_CONN,
    NEWDOC_KEYS,
    NO_DOCUMENT,
    RANGE,
    WRITTEN_LAYERS,
    connective_labels,
    newdoc_key,
)
from segagree.model import Document, Layer
from segagree.model.losses import LossReport


def write(doc: Document, path: Path, *, losses: LossReport, **options: Any) -> None:
    """Write a Document as CoNLL-U (see the module docstring). ``layer`` (what adjudication names:
    the layer its decisions changed) must be one the format holds; every such layer is written."""
    layer = options.pop("layer", None)
    if layer is not None and layer not in WRITTEN_LAYERS:
        raise UsageError(f"CoNLL-U holds the layers {', '.join(WRITTEN_LAYERS)}, not {layer!r}")
    endnotes = options.pop("endnotes", None)
    if endnotes not in (None, "words", "drop"):
        raise UsageError(f"CoNLL-U writes endnotes as 'words' or drops them ('drop'), not {endnotes!r}")
    if options:
        raise UsageError(f"unknown CoNLL-U writer option(s) {sorted(options)}")
    units = _foreign_units(doc)
    for name in doc.layers:
        if name not in WRITTEN_LAYERS and (units is None or name != units.name):
            losses.add(
                "layer-dropped",
                f"layer {name!r}: CoNLL-U holds sentences, BeginSeg units and connective spans only",
                where=name,
            )
    if units is not None:
        losses.add(
            "layer-renamed",
            f"the units of layer {units.name!r} are written as DISRPT units (BeginSeg=Yes on each unit's first "
            "word) and read back as layer 'edu'",
            where=units.name,
        )
    text = "\n".join(_lines(doc, losses, units, endnotes == "words")) + "\n"
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8", newline="\n")
    if doc.has_times:
        losses.add("times-dropped", "CoNLL-U has no times")


def _one_line(value: str) -> str:
    """A value with no tab or line break (which would break the columns or start a line)."""
    return " ".join(value.replace("\t", " ").split())


def _kept(doc: Document, name: str, n: int) -> list[str]:
    return doc.column(name).tolist() if name in doc.column_names() else [""] * n


class _Writer:
    """The state of one write: the lines so far, IDs renumbered per sentence, and what changed."""

    def __init__(self, losses: LossReport) -> None:
        self.lines: list[str] = []
        self.losses = losses
        self.word_id = 0
        self.changed: dict[str, int] = {}

    def count(self, kind: str) -> None:
        self.changed[kind] = self.changed.get(kind, 0) + 1

    def kept_line(self, line: str, shift: int, sentence_start: bool) -> None:
        """A kept comment, multiword-token or empty-node line, its IDs moved by ``shift``; a
        comment only at a sentence's start (CoNLL-U has comments before sentences only)."""
        if line.startswith("#"):
            if sentence_start and "\r" not in line:
                self.lines.append(line)
            else:
                self.count("comments")
            return
        cols = line.split("\t")
        if len(cols) != 10 or "\r" in line:
            self.count("kept lines")
            return
        if RANGE.fullmatch(cols[0]):
            first, last = (int(x) + shift for x in cols[0].split("-"))
            cols[0] = f"{first}-{last}"
        elif EMPTY.fullmatch(cols[0]):
            head, _, tail = cols[0].partition(".")
            cols[0] = f"{int(head) + shift}.{tail}"
        else:
            self.count("kept lines")
            return
        self.lines.append("\t".join(cols))


def _foreign_units(doc: Document) -> Layer | None:
    """The unit layer of a Document that holds none of CoNLL-U's layers (read from ELAN, a
    TextGrid, a transcript): written as DISRPT's ``BeginSeg`` units, so that its units survive."""
    if any(name in doc.layers for name in WRITTEN_LAYERS) or not doc.layers:
        return None
    return doc.layer()


def _endnote_words(layer: Layer | None) -> list[str] | None:
    """After each token, the endnote its unit ends with where the scheme writes one (``.``, ``,``,
    ``?``: a transcript's punctuation, which its reader took off the words): written as a word of
    its own, so the words of a DISRPT file sent through a TextGrid come back."""
    if layer is None:
        return None
    written = {k + 1: t.symbol for k, t in enumerate(layer.scheme.types) if not t.symbol.startswith("<")}
    if not written:
        return None
    return [written.get(int(c), "") for c in layer.boundaries.tolist()]


def _report_endnotes(endnotes: list[str], as_words: bool, losses: LossReport) -> list[str] | None:
    """The endnotes to write as words (``as_words``), or None with the loss reported."""
    count = sum(map(bool, endnotes))
    shown = ", ".join(sorted({e for e in endnotes if e}))
    if as_words:
        losses.add(
            "tokens-added", f"the units' endnotes ({shown}) are written as words after their last words", count=count
        )
        return endnotes
    losses.add(
        "types-dropped",
        f"BeginSeg units have no types: the units' endnotes ({shown}: a transcript's punctuation, or the words '.' "
        "and ',' of a DISRPT file sent through a TextGrid) are not written; write them as words with --endnotes words",
        count=count,
    )
    return None


def _lines(doc: Document, losses: LossReport, units: Layer | None = None, endnote_words: bool = False) -> list[str]:
    """The file's lines: each document's newdoc line, each word with its kept lines, blank lines
    after sentences (and between the documents of a file that had them there); ``units``: a
    foreign unit layer written as ``BeginSeg`` units (:func:`_foreign_units`), its endnotes as
    words after the units' last words with ``endnote_words`` (else reported as dropped)."""
    n = doc.n_tokens
    forms = [_one_line(w) or "_" for w in doc.column("text").tolist()]
    changed_forms = sum(f != w for f, w in zip(forms, doc.column("text").tolist(), strict=True))
    if changed_forms:
        losses.add("tokens-changed", "a FORM holds no tab, line break or leading space", count=changed_forms)
    speakers = [doc.speakers[i] for i in doc.speaker_codes().tolist()]
    kept, before, after = _kept(doc, "conllu", n), _kept(doc, BEFORE, n), _kept(doc, AFTER, n)
    edu_layer = doc.layers.get("edu", units)
    edu = edu_layer.boundaries.tolist() if edu_layer is not None else None
    endnotes = _endnote_words(units)
    if endnotes is not None and any(endnotes):
        endnotes = _report_endnotes(endnotes, endnote_words, losses)
    sentence = doc.layers["sentence"].boundaries.tolist() if "sentence" in doc.layers else None
    conn = connective_labels(doc) if "connective" in doc.layers else [""] * n
    between_documents = bool(doc.meta.get("blank_between_documents"))
    key = doc.meta.get("newdoc") if doc.meta.get("newdoc") in NEWDOC_KEYS else NEWDOC_KEYS[0]
    names = {s: _one_line(s) or "document" for s in doc.speakers}
    changed_names = sorted(s for s in doc.speakers if names[s] != s)
    if changed_names:
        losses.add("speaker-changed", "document ids hold no tabs or line breaks", where=", ".join(changed_names))
    out = _Writer(losses)
    sentence_start = True
    for i in range(n):
        new_doc = i == 0 or speakers[i] != speakers[i - 1]
        if new_doc:
            if (sentence is not None or between_documents) and out.lines and out.lines[-1] != "":
                out.lines.append("")
            sentence_start, out.word_id = True, 0
        # a word's line as read (of fewer than ten columns too: its last is MISC, as it was read)
        cols = kept[i].split("\t") if 2 <= kept[i].count("\t") <= 9 and "\n" not in kept[i] else []
        if not cols:
            if kept[i]:
                out.count("kept lines")
            cols = [str(out.word_id + 1), forms[i], *["_"] * 8]
        shift = out.word_id + 1 - int(cols[0]) if cols[0].isdigit() else 0
        own = before[i].split("\n") if before[i] else []
        newdoc = [ln for ln in own if ln.startswith("#") and newdoc_key(ln) is not None]
        if new_doc and (speakers[i] != NO_DOCUMENT or len(doc.speakers) > 1):
            # the file's own line where it names this document (an empty id named by its place)
            if not any(newdoc_key(ln)[1] in (speakers[i], "") for ln in newdoc):  # type: ignore[index]
                own = [ln for ln in own if ln not in newdoc]
                out.lines.append(f"# {key} = {names[speakers[i]]}")
        else:
            own = [ln for ln in own if ln not in newdoc]
        for line in own:
            out.kept_line(line, shift, sentence_start)
        out.word_id += 1
        cols = [_one_line(c) or "_" for c in cols]
        cols[0], cols[1] = str(out.word_id), forms[i]
        # an orphan I-Conn stays where it reads back as one (after a word outside connectives)
        orphan = not conn[i] and (new_doc or not conn[i - 1])
        cols[-1] = _misc(cols[-1], conn[i], edu is not None and (new_doc or edu[i - 1] != 0), orphan)
        out.lines.append("\t".join(cols))
        for line in after[i].split("\n") if after[i] else []:
            out.kept_line(line, shift, False)
        if endnotes is not None and endnotes[i]:
            out.word_id += 1
            out.lines.append("\t".join([str(out.word_id), endnotes[i], *["_"] * 8]))
        sentence_start = False
        last_of_doc = i == n - 1 or speakers[i + 1] != speakers[i]
        if sentence is not None and (sentence[i] or last_of_doc):
            out.lines.append("")
            sentence_start, out.word_id = True, 0
    if out.lines and out.lines[-1] == "" and doc.meta.get("final_blank") is False:
        out.lines.pop()
    elif doc.meta.get("final_blank") and out.lines[-1:] != [""]:
        out.lines.append("")
    for kind, count in out.changed.items():
        losses.add(
            "conllu-lines-dropped",
            f"{kind} that no longer fit where the words are (or hold a line break) are not written",
            where=kind,
            count=count,
        )
    return out.lines


def _misc(misc: str, conn: str, begins: bool, orphan: bool) -> str:
    """MISC with ``BeginSeg=Yes`` first where a unit begins and the connective label back in its
    place (DISRPT writes ``Seg=B-Conn|SpaceAfter=No``); a kept orphan ``I-Conn`` where ``orphan``."""
    items = [m for m in misc.split("|") if m and m != "_"]
    was_conn = "B" if B_CONN in items else "I" if I_CONN in items else ""
    if (BEGIN in items) == begins and (was_conn == conn or (orphan and was_conn == "I" and not conn)):
        return misc  # the labels the file had: the field as written
    begin_at = items.index(BEGIN) if BEGIN in items else 0  # where the file had it (GUM writes it last)
    items = [m for m in items if m != BEGIN]
    at = next((k for k, m in enumerate(items) if m in (B_CONN, I_CONN)), 0)
    keep = orphan and I_CONN in items
    items = [m for m in items if m not in (B_CONN, I_CONN)]
    if conn or keep:
        items.insert(at, B_CONN if conn == "B" else I_CONN)
    if begins:
        items.insert(min(begin_at, len(items)), BEGIN)
    return "|".join(items) or "_"
