"""CoNLL-U (Universal Dependencies) and the DISRPT shared tasks' ``.tok`` / ``.conllu`` files.

CoNLL-U holds one word per line in ten tab-separated columns (ID, FORM, LEMMA, UPOS, XPOS, FEATS,
HEAD, DEPREL, DEPS, MISC), ``#`` comment lines, and a blank line after every sentence. DISRPT's
files use the same columns and mark discourse units in MISC: ``BeginSeg=Yes`` on a unit's first
word (its ``.tok`` files have no sentence breaks).

Mapping to the model (reading):

* **Tokens**: the syntactic words (integer IDs), as DISRPT's scorer counts them. A multiword token
  (a range line ``1-2``) is not a token: its words are; empty nodes (``1.1``) are skipped. Both are
  reported (``multiword-tokens``, ``empty-nodes``).
* **Speakers**: each document (``# newdoc id = ...``) is a speaker, its words one stream, so a
  DISRPT file's documents are scored one by one and pooled over the file (micro-average). Words
  before any ``newdoc`` belong to the speaker ``TEXT``; an id met again continues its document
  (the speakers of a conversation written as documents take turns).
* **Layers**: ``sentence`` (scheme ``sentence``): a boundary after a sentence's last word, where
  the file has blank lines; ``edu`` (scheme ``edu``): a boundary before every ``BeginSeg=Yes``
  word (after the word before it) and at each document's end. The main layer is ``edu`` where the
  file marks units, else ``sentence``.
* Every word's ten columns are kept in the token column ``conllu`` (tab-joined) for the writer.
  Comments other than ``newdoc`` are counted and reported (``comments``), as are PDTB-style
  connective spans (``Seg=B-Conn`` / ``I-Conn``, ``connectives``): the model has no spans.

Writing: a word per line with its kept columns (or ``ID FORM _ _ _ _ _ _ _ MISC`` for words read
from elsewhere), IDs renumbered per sentence, ``BeginSeg=Yes`` in MISC from the ``edu`` layer,
a blank line after each sentence of the ``sentence`` layer, ``# newdoc id`` per speaker.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from segagree.errors import InputError, UsageError
from segagree.files.atomic import atomic_path
from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.formats.base import Adapter
from segagree.model import Document, builtin_scheme, from_units
from segagree.model.losses import LossReport
from segagree.model.scheme import BoundaryScheme

NO_DOCUMENT = "TEXT"
WRITTEN_LAYERS = ("edu", "sentence")
BEGIN = "BeginSeg=Yes"


class _Stream:
    """A run of one document's words as they are read: columns, and where sentences end and units begin."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.columns: list[list[str]] = []
        self.sentence_end: list[bool] = []
        self.begins: list[bool] = []


def _parse(text: str, path: Path) -> tuple[list[_Stream], dict[str, int]]:
    streams: list[_Stream] = []
    counts = {"multiword": 0, "empty": 0, "comments": 0, "connectives": 0}
    current: _Stream | None = None
    for no, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        line = raw.rstrip("\n")
        if not line.strip():
            if current is not None and current.columns:
                current.sentence_end[-1] = True
            continue
        if line.startswith("#"):
            key, _, value = line[1:].partition("=")
            if key.strip() == "newdoc id":
                current = _Stream(value.strip() or f"document {len(streams) + 1}")
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
        counts["connectives"] += any(m in ("Seg=B-Conn", "Seg=I-Conn") for m in misc)
        current.columns.append(cols)
        current.sentence_end.append(False)
        current.begins.append(BEGIN in misc)
    return [s for s in streams if s.columns], counts


def document_ids(path: Path) -> list[str]:
    """The ids of a file's documents that hold words, in order of first appearance, as :func:`read`
    names its speakers (words before any ``# newdoc id`` are the document ``TEXT``); a scan of the
    lines' first characters, so a corpus run can list a file's documents without reading it whole."""
    ids: dict[str, None] = {}
    current: str | None = None
    seen = 0
    for raw in decode_text(read_bytes(path), path).replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if raw.startswith("#"):
            key, _, value = raw[1:].partition("=")
            if key.strip() == "newdoc id":
                seen += 1
                current = value.strip() or f"document {seen}"
        elif raw.strip() and raw[:1].isdigit():
            if current is None:  # words before any newdoc: read() opens the stream TEXT for them
                seen += 1
                current = NO_DOCUMENT
            ids.setdefault(current)
    return list(ids)


def read(path: Path, *, scheme: BoundaryScheme, **options: Any) -> Document:
    """Read a CoNLL-U or DISRPT file (see the module docstring); ``scheme`` is not used."""
    if options:
        raise UsageError(f"unknown CoNLL-U reader option(s) {sorted(options)}")
    runs, counts = _parse(decode_text(read_bytes(path), path), path)
    if not runs:
        raise InputError("no words: a CoNLL-U file needs at least one word line", path=path)
    has_units = any(any(r.begins) for r in runs)
    has_sentences = any(any(r.sentence_end[:-1]) for r in runs) or not has_units
    # A document id met again continues that document's stream (a conversation's speakers).
    names = list(dict.fromkeys(r.name for r in runs))
    units: list[dict[str, Any]] = []
    other: list[list[int]] = []
    for r in runs:
        n = len(r.columns)
        # a run ends its units: another document's words follow, or the file ends
        edu_end = [(i + 1 < n and r.begins[i + 1]) or i == n - 1 for i in range(n)]
        sent_end = [r.sentence_end[i] or i == n - 1 for i in range(n)]
        main, second = (edu_end, sent_end) if has_units else (sent_end, edu_end)
        start = 0
        for i in range(n):
            if main[i]:
                units.append({"speaker": r.name, "tokens": [c[1] for c in r.columns[start : i + 1]], "boundary": 1})
                other.append([1 if second[j] else 0 for j in range(start, i + 1)])
                start = i + 1
    main_layer = "edu" if has_units else "sentence"
    extra = {"sentence": (builtin_scheme("sentence"), other)} if has_units and has_sentences else {}
    doc = from_units(
        path.name,
        units,
        layer=main_layer,
        scheme=builtin_scheme(main_layer),
        speakers=names,
        extra_layers=extra,
        source_path=str(path),
        source_format="conllu",
        meta={"documents": names if names != [NO_DOCUMENT] else []},
    )
    doc.set_column("conllu", ["\t".join(c) for r in runs for c in r.columns])
    notes = {
        "multiword": ("multiword-tokens", "multiword token lines are not tokens (their words are) and are not written"),
        "empty": ("empty-nodes", "empty nodes (enhanced dependencies) are not words: skipped"),
        "comments": ("comments", "comment lines other than '# newdoc id' are not kept"),
        "connectives": ("connectives", "connective spans (Seg=B-Conn/I-Conn) are not read: the model has no spans"),
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
    for name in doc.layers:
        if name not in WRITTEN_LAYERS:
            losses.add("layer-dropped", f"layer {name!r}: CoNLL-U holds sentences and BeginSeg units only", where=name)
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
            if sentence is not None and lines and lines[-1] != "":
                lines.append("")
            if speakers[i] != NO_DOCUMENT or len(doc.speakers) > 1:
                lines.append(f"# newdoc id = {names[speakers[i]]}")
            word_id = 0
        word_id += 1
        cols = kept[i].split("\t") if kept[i] and kept[i].count("\t") == 9 else [str(word_id), forms[i], *["_"] * 8]
        cols[0], cols[1] = str(word_id), forms[i]
        misc = [m for m in cols[9].split("|") if m and m != "_" and m != BEGIN]
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


ADAPTER = Adapter(
    name="conllu",
    extensions=(".conllu", ".tok"),
    description="CoNLL-U (Universal Dependencies sentences) and DISRPT .tok/.conllu discourse units "
    "(BeginSeg=Yes); documents (# newdoc id) as speakers",
    read=read,
    write=write,
)
