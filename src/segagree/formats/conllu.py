"""CoNLL-U (Universal Dependencies) and the DISRPT shared tasks' ``.tok`` / ``.conllu`` files.

CoNLL-U holds one word per line in ten tab-separated columns (ID, FORM, LEMMA, UPOS, XPOS, FEATS,
HEAD, DEPREL, DEPS, MISC), ``#`` comment lines, and a blank line after every sentence. DISRPT's
files use the same columns and mark discourse units in MISC: ``BeginSeg=Yes`` on a unit's first
word (its ``.tok`` files have no sentence breaks).

Mapping to the model (reading):

* **Tokens**: the syntactic words (integer IDs), as DISRPT's scorer counts them. A multiword token
  (a range line ``1-2``) is not a token: its words are; empty nodes (``1.1``) are skipped. Both are
  reported (``multiword-tokens``, ``empty-nodes``).
* **Speakers**: each document (``# newdoc id = ...``, or DISRPT's ``# newdoc_id = ...``, whose
  spelling is written back) is a speaker, its words one stream, so a
  DISRPT file's documents are scored one by one and pooled over the file (micro-average). Words
  before any ``newdoc`` belong to the speaker ``TEXT``; an id met again continues its document
  (the speakers of a conversation written as documents take turns).
* **Layers**: ``sentence`` (scheme ``sentence``): a boundary after a sentence's last word, where
  the file has blank lines; ``edu`` (scheme ``edu``): a boundary before every ``BeginSeg=Yes``
  word (after the word before it) and at each document's end; ``connective`` (scheme
  ``connective``) where the file has PDTB-style connective spans (``Seg=B-Conn`` on a span's first
  word, ``Seg=I-Conn`` on the others). A layer holds a boundary after every unit and has no gaps,
  so the words outside connectives are units too: ``<conn>`` ends a connective span, ``<o>`` a
  maximal stretch of words outside connectives (two adjacent connectives are two ``<conn>``
  units). A span thus begins after a boundary and ends at ``<conn>``; an ``I-Conn`` with no
  connective before it is read as outside (``connective-orphans``). The main layer is ``edu``
  where the file marks units, else ``connective`` where it marks connectives, else ``sentence``.
* Every word's ten columns are kept in the token column ``conllu`` (tab-joined) for the writer.
  Comments other than ``newdoc`` are counted and reported (``comments``).

Writing: a word per line with its kept columns (or ``ID FORM _ _ _ _ _ _ _ MISC`` for words read
from elsewhere), IDs renumbered per sentence, ``BeginSeg=Yes`` in MISC from the ``edu`` layer,
``Seg=B-Conn`` / ``Seg=I-Conn`` from the ``connective`` layer (where the word's MISC had its label),
a blank line after each sentence of the ``sentence`` layer, ``# newdoc id`` per speaker.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from segagree.errors import InputError, UsageError
from segagree.files.atomic import atomic_path
from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.formats.base import Adapter
from segagree.model import Document, Layer, builtin_scheme, from_units
from segagree.model.losses import LossReport
from segagree.model.scheme import BoundaryScheme

NO_DOCUMENT = "TEXT"
WRITTEN_LAYERS = ("edu", "sentence", "connective")
BEGIN = "BeginSeg=Yes"
B_CONN, I_CONN = "Seg=B-Conn", "Seg=I-Conn"
#: UD writes ``# newdoc id = X``, the DISRPT shared tasks ``# newdoc_id = X``: both are read, and
#: the file's own spelling written back.
NEWDOC_KEYS = ("newdoc id", "newdoc_id")
CONN, OUTSIDE = 1, 2  # codes of the connective scheme's <conn> and <o>


def _newdoc_key(line: str) -> tuple[str, str] | None:
    """(key as spelled, id) of a ``# newdoc id = X`` / ``# newdoc_id = X`` line, else None."""
    key, _, value = line[1:].partition("=")
    return (key.strip(), value.strip()) if key.strip() in NEWDOC_KEYS else None


class _Stream:
    """A run of one document's words as they are read: columns, and where sentences end and units begin."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.columns: list[list[str]] = []
        self.sentence_end: list[bool] = []
        self.begins: list[bool] = []
        self.conn: list[str] = []  # "B", "I" or "" per word (MISC's Seg=B-Conn / Seg=I-Conn)

    def connective_codes(self) -> tuple[list[int], int]:
        """The ``connective`` layer's code after each word (:data:`CONN` where a connective span
        ends, :data:`OUTSIDE` where a stretch outside connectives ends, 0 inside either), and the
        number of ``I-Conn`` words with no connective before them (read as outside, as seg_eval.py
        ignores spans that do not begin with B-Conn)."""
        n = len(self.conn)
        inside = [False] * n
        orphans = 0
        for i, label in enumerate(self.conn):
            if label == "B":
                inside[i] = True
            elif label == "I":
                inside[i] = i > 0 and inside[i - 1]
                orphans += not inside[i]
        codes = [0] * n
        for i in range(n):
            if i == n - 1:
                codes[i] = CONN if inside[i] else OUTSIDE
            elif inside[i]:  # a span ends before a word that is not its I-Conn
                codes[i] = 0 if self.conn[i + 1] == "I" else CONN
            elif self.conn[i + 1] == "B":
                codes[i] = OUTSIDE
        return codes, orphans


def _parse(text: str, path: Path) -> tuple[list[_Stream], dict[str, int], str]:
    streams: list[_Stream] = []
    counts = {"multiword": 0, "empty": 0, "comments": 0}
    current: _Stream | None = None
    newdoc_key = ""
    for no, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        line = raw.rstrip("\n")
        if not line.strip():
            if current is not None and current.columns:
                current.sentence_end[-1] = True
            continue
        if line.startswith("#"):
            newdoc = _newdoc_key(line)
            if newdoc is not None:
                newdoc_key = newdoc_key or newdoc[0]  # the file's first spelling is written back
                current = _Stream(newdoc[1] or f"document {len(streams) + 1}")
                streams.append(current)
            else:
                counts["comments"] += 1
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise InputError(f"expected 10 tab-separated columns, found {len(cols)}", path=path, place=f"line {no}")
        word_id = cols[0]
        if "-" in word_id:
            counts["multiword"] += 1
            continue
        if "." in word_id:
            counts["empty"] += 1
            continue
        if not word_id.isdigit():
            raise InputError(
                f"word ID {word_id!r} is not a number, a range or an empty node", path=path, place=f"line {no}"
            )
        if not cols[1]:
            raise InputError("empty FORM", path=path, place=f"line {no}")
        if current is None:
            current = _Stream(NO_DOCUMENT)
            streams.append(current)
        misc = cols[9].split("|")
        current.columns.append(cols)
        current.sentence_end.append(False)
        current.begins.append(BEGIN in misc)
        current.conn.append("B" if B_CONN in misc else "I" if I_CONN in misc else "")
    return [s for s in streams if s.columns], counts, newdoc_key or NEWDOC_KEYS[0]


def document_ids(path: Path) -> list[str]:
    """The ids of a file's documents that hold words, in order of first appearance, as :func:`read`
    names its speakers (words before any ``# newdoc id`` are the document ``TEXT``); a scan of the
    lines' first characters, so a corpus run can list a file's documents without reading it whole.
    An InputError where a line is neither a comment nor ten columns (the error :func:`read` gives)."""
    ids: dict[str, None] = {}
    current: str | None = None
    seen = 0
    text = decode_text(read_bytes(path), path).replace("\r\n", "\n").replace("\r", "\n")
    for no, raw in enumerate(text.split("\n"), 1):
        newdoc = _newdoc_key(raw) if raw.startswith("#") else None
        if newdoc is not None:
            seen += 1
            current = newdoc[1] or f"document {seen}"
        elif raw.strip() and not raw.startswith("#"):
            columns = raw.count("\t") + 1
            if columns != 10:
                raise InputError(f"expected 10 tab-separated columns, found {columns}", path=path, place=f"line {no}")
            if current is None:  # words before any newdoc: read() opens the stream TEXT for them
                seen += 1
                current = NO_DOCUMENT
            ids.setdefault(current)
    return list(ids)


def read(path: Path, *, scheme: BoundaryScheme, **options: Any) -> Document:
    """Read a CoNLL-U or DISRPT file (see the module docstring); ``scheme`` is not used."""
    if options:
        raise UsageError(f"unknown CoNLL-U reader option(s) {sorted(options)}")
    runs, counts, newdoc_key = _parse(decode_text(read_bytes(path), path), path)
    if not runs:
        raise InputError("no words: a CoNLL-U file needs at least one word line", path=path)
    has_units = any(any(r.begins) for r in runs)
    has_conn = any(any(r.conn) for r in runs)
    has_sentences = any(any(r.sentence_end[:-1]) for r in runs) or not (has_units or has_conn)
    # A document id met again continues that document's stream (a conversation's speakers).
    names = list(dict.fromkeys(r.name for r in runs))
    # per layer, the code after each word of each run; a run ends its units (another document's
    # words follow, or the file ends)
    codes: dict[str, list[list[int]]] = {"edu": [], "sentence": [], "connective": []}
    orphans = 0
    for r in runs:
        n = len(r.columns)
        codes["edu"].append([int((i + 1 < n and r.begins[i + 1]) or i == n - 1) for i in range(n)])
        codes["sentence"].append([int(r.sentence_end[i] or i == n - 1) for i in range(n)])
        conn, lost = r.connective_codes()
        codes["connective"].append(conn)
        orphans += lost
    present = [name for name, has in (("edu", has_units), ("connective", has_conn), ("sentence", has_sentences)) if has]
    main_layer, others = present[0], present[1:]
    units: list[dict[str, Any]] = []
    extra_codes: dict[str, list[list[int]]] = {name: [] for name in others}
    for k, r in enumerate(runs):
        main, start = codes[main_layer][k], 0
        for i, code in enumerate(main):
            if code:
                units.append({"speaker": r.name, "tokens": [c[1] for c in r.columns[start : i + 1]], "boundary": code})
                for name in others:
                    extra_codes[name].append(codes[name][k][start : i + 1])
                start = i + 1
    doc = from_units(
        path.name,
        units,
        layer=main_layer,
        scheme=builtin_scheme(main_layer),
        speakers=names,
        extra_layers={name: (builtin_scheme(name), extra_codes[name]) for name in others},
        source_path=str(path),
        source_format="conllu",
        meta={
            "documents": names if names != [NO_DOCUMENT] else [],
            "newdoc": newdoc_key,
            # DISRPT's .tok files have no sentences but a blank line between documents
            "blank_between_documents": len(runs) > 1 and all(r.sentence_end[-1] for r in runs[:-1]),
        },
    )
    doc.set_column("conllu", ["\t".join(c) for r in runs for c in r.columns])
    counts["orphans"] = orphans
    notes = {
        "multiword": ("multiword-tokens", "multiword token lines are not tokens (their words are) and are not written"),
        "empty": ("empty-nodes", "empty nodes (enhanced dependencies) are not words: skipped"),
        "comments": ("comments", "comment lines other than '# newdoc id' are not kept"),
        "orphans": (
            "connective-orphans",
            "Seg=I-Conn words with no connective before them are read as outside connectives "
            "(seg_eval.py counts no span that does not begin with B-Conn) and written without it",
        ),
    }
    for key, (kind, message) in notes.items():
        if counts[key]:
            doc.losses.add(kind, message, count=counts[key])
    return doc


def write(doc: Document, path: Path, *, losses: LossReport, **options: Any) -> None:
    """Write a Document as CoNLL-U (see the module docstring). ``layer`` (what adjudication names:
    the layer its decisions changed) must be one the format holds; every such layer is written."""
    layer = options.pop("layer", None)
    if layer is not None and layer not in WRITTEN_LAYERS:
        raise UsageError(f"CoNLL-U holds the layers {', '.join(WRITTEN_LAYERS)}, not {layer!r}")
    if options:
        raise UsageError(f"unknown CoNLL-U writer option(s) {sorted(options)}")
    n = doc.n_tokens
    words = doc.column("text").tolist()
    speakers = [doc.speakers[i] for i in doc.speaker_codes().tolist()]
    kept = doc.column("conllu").tolist() if "conllu" in doc.column_names() else [""] * n
    edu = doc.layers["edu"].boundaries.tolist() if "edu" in doc.layers else None
    sentence = doc.layers["sentence"].boundaries.tolist() if "sentence" in doc.layers else None
    conn = _connective_labels(doc) if "connective" in doc.layers else [""] * n
    for name in doc.layers:
        if name not in WRITTEN_LAYERS:
            losses.add(
                "layer-dropped",
                f"layer {name!r}: CoNLL-U holds sentences, BeginSeg units and connective spans only",
                where=name,
            )
    between_documents = bool(doc.meta.get("blank_between_documents"))
    newdoc_key = doc.meta.get("newdoc") if doc.meta.get("newdoc") in NEWDOC_KEYS else NEWDOC_KEYS[0]
    # a tab or a line break in a name or a word would break the columns: written as a space
    names = {s: " ".join(s.split()) or "document" for s in doc.speakers}
    changed_names = sorted(s for s in doc.speakers if names[s] != s)
    if changed_names:
        losses.add("speaker-changed", "document ids hold no tabs or line breaks", where=", ".join(changed_names))
    forms = [" ".join(w.replace("\t", " ").split()) or "_" for w in words]
    changed_forms = sum(f != w for f, w in zip(forms, words, strict=True))
    if changed_forms:
        losses.add("tokens-changed", "a FORM holds no tab, line break or leading space", count=changed_forms)
    lines: list[str] = []
    word_id = 0
    for i in range(n):
        new_doc = i == 0 or speakers[i] != speakers[i - 1]
        if new_doc:
            if (sentence is not None or between_documents) and lines and lines[-1] != "":
                lines.append("")
            if speakers[i] != NO_DOCUMENT or len(doc.speakers) > 1:
                lines.append(f"# {newdoc_key} = {names[speakers[i]]}")
            word_id = 0
        word_id += 1
        cols = kept[i].split("\t") if kept[i] and kept[i].count("\t") == 9 else [str(word_id), forms[i], *["_"] * 8]
        cols[0], cols[1] = str(word_id), forms[i]
        items = [m for m in cols[9].split("|") if m and m != "_" and m != BEGIN]
        # a connective label goes back where the file had one (DISRPT writes Seg=...|SpaceAfter=No)
        at = next((k for k, m in enumerate(items) if m in (B_CONN, I_CONN)), 0)
        misc = [m for m in items if m not in (B_CONN, I_CONN)]
        if conn[i]:
            misc.insert(at, B_CONN if conn[i] == "B" else I_CONN)
        begins = edu is not None and (new_doc or edu[i - 1] != 0)
        cols[9] = "|".join(([BEGIN] if begins else []) + misc) or "_"
        lines.append("\t".join(cols))
        last_of_doc = i == n - 1 or speakers[i + 1] != speakers[i]
        if (sentence is not None and sentence[i]) or (sentence is not None and last_of_doc):
            lines.append("")
            word_id = 0
    text = "\n".join(lines).rstrip("\n") + "\n" + ("\n" if sentence is not None else "")
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8", newline="\n")
    if doc.has_times:
        losses.add("times-dropped", "CoNLL-U has no times")


def with_unmarked_layer(doc: Document, name: str) -> Document:
    """``doc`` with the layer ``name`` (``edu`` or ``connective``) a CoNLL-U file that marks none
    of its kind has: a prediction that begins no unit (no ``BeginSeg=Yes``) or finds no connective
    reads without that layer, and is scored as a file with none (each document one unit, or one
    stretch outside connectives), as the official scorer scores it. Other documents unchanged."""
    if doc.source_format != ADAPTER.name or name in doc.layers or name not in ("edu", "connective"):
        return doc
    codes = np.zeros(doc.n_tokens, dtype=np.int16)
    for rows in doc.speaker_rows().values():
        if len(rows):
            codes[rows[-1]] = 1 if name == "edu" else OUTSIDE
    return doc.replace(layers={**doc.layers, name: Layer(name, builtin_scheme(name), codes)})


def _connective_labels(doc: Document) -> list[str]:
    """Each token's connective label from the ``connective`` layer: "B" on the first word of a unit
    ending in ``<conn>``, "I" on its other words, "" elsewhere (a stream's unclosed end is outside)."""
    codes = doc.layers["connective"].boundaries
    labels = [""] * doc.n_tokens
    for rows in doc.speaker_rows().values():
        kind = 0
        for k in range(len(rows) - 1, -1, -1):  # each word takes the type of the boundary ending its unit
            kind = int(codes[rows[k]]) or (kind if k < len(rows) - 1 else OUTSIDE)
            if kind == CONN:
                first = k == 0 or codes[rows[k - 1]] != 0
                labels[rows[k]] = "B" if first else "I"
    return labels


ADAPTER = Adapter(
    name="conllu",
    extensions=(".conllu", ".tok"),
    description="CoNLL-U (Universal Dependencies sentences) and DISRPT .tok/.conllu discourse units "
    "(BeginSeg=Yes) and connective spans (Seg=B-Conn/I-Conn); documents (# newdoc id) as speakers",
    read=read,
    write=write,
)
