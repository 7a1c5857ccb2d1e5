"""The documents of a multi-document CoNLL-U / DISRPT file as texts of a corpus run.

A DISRPT file (``eng.rst.gum_dev.tok``) holds many documents (``# newdoc id = ...``), each a text
of its own: a segmenter is judged per document and pooled over documents. ``compare`` and
``agree`` on two such files read the documents as speakers of one text; a corpus run (and a
panel) splits a text whose CoNLL-U files hold two or more distinct documents into one text per
document, named ``TEXT/DOCUMENT`` (``eng.rst.gum_dev/GUM_academic_art``). Documents are paired
across annotators by id; a document missing from an annotator's file is reported, never dropped
in silence.

The text name says which document of a file a task reads: discovered text names never hold a
``/`` (they come from file and folder names), so :func:`read_text_document` reads the document
after the first ``/`` of a text name from a CoNLL-U file, wherever a text's files are read again
(the task, the review page, adjudication).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from segagree.errors import InputError, SegagreeError
from segagree.formats import format_for, read_document
from segagree.formats.conllu import NO_DOCUMENT, document_ids
from segagree.model import Document
from segagree.model.losses import read_losses

#: Joins a file's text name and a document id in a run's text names.
DOCUMENT_SEPARATOR = "/"
CONLLU = "conllu"


def _is_conllu(path: Path, fmt: str | None = None) -> bool:
    try:
        return format_for(path, fmt).name == CONLLU
    except SegagreeError:  # an unknown format is not CoNLL-U: the task reading the file says so
        return False


def split_documents(texts: MutableMapping[str, dict[str, Path]], fmt: str | None = None) -> list[str]:
    """Replace every text whose CoNLL-U files hold two or more distinct documents by one text per
    document (``TEXT/DOCUMENT``, each annotator's file as is), in place; return the notes: a
    document one annotator's file lacks (the document is scored by the annotators that have it).

    Documents are ordered as they first appear in the files (annotators in name order)."""
    notes: list[str] = []
    for text in list(texts):
        files = texts[text]
        if not all(_is_conllu(p, fmt) for p in files.values()):
            continue
        try:
            ids = {who: document_ids(path) for who, path in files.items()}
        except SegagreeError:  # an unreadable file: its text's task reports it, as for any other text
            continue
        if not all(ids.values()):  # a file without words: likewise
            continue
        bare = sorted(who for who, found in ids.items() if found == [NO_DOCUMENT])
        if bare and len(ids) > len(bare) and any(len(found) > 1 for found in ids.values()):
            # a segmenter's output has no newdoc lines: the files are compared whole, one stream each
            notes.append(
                f"{text}: not split into documents: the file of {', '.join(bare)} has no '# newdoc id' lines, so "
                "each file is scored as one stream of its words, as the official scripts score it"
            )
            continue
        order = list(dict.fromkeys(d for who in sorted(ids) for d in ids[who]))
        sets = {who: set(found) for who, found in ids.items()}  # (looked up once per document)
        if len(order) < 2:
            continue
        del texts[text]
        for doc_id in order:
            part = text_part(doc_id)
            if part != doc_id:
                notes.append(
                    f"{text}: document {doc_id[:80]!r}{'...' if len(doc_id) > 80 else ''} is the text {text}/{part} "
                    "(a document id names a text and its outputs, review/TEXT/DOCUMENT.xlsx: one holding a path "
                    "separator, a control character, or too long for a file name, is named by a safe form of it)"
                )
            name = f"{text}{DOCUMENT_SEPARATOR}{part}"
            have = {who: path for who, path in sorted(files.items()) if doc_id in sets[who]}
            lacking = [f"{who} ({files[who].name})" for who in sorted(files) if who not in have]
            if lacking:
                notes.append(f"{name}: document {doc_id!r} is not in the file of {', '.join(lacking)}")
            texts[name] = have
    return notes


#: The longest document id used as it is in a text name (bytes of UTF-8): file systems allow 255
#: per name, and outputs add to it (``DOCUMENT.xlsx``, a page's hash).
MAX_ID_BYTES = 120


def usable_id(doc_id: str) -> bool:
    """Whether a document id can be the last part of a text name as it is, which outputs use as a
    path (``review/TEXT/DOCUMENT.xlsx``): no separator, no control character, not ``.`` or ``..``,
    at most :data:`MAX_ID_BYTES` bytes."""
    return (
        doc_id not in ("", ".", "..")
        and "/" not in doc_id
        and "\\" not in doc_id
        and all(ch.isprintable() for ch in doc_id)
        and len(doc_id.encode("utf-8", "surrogatepass")) <= MAX_ID_BYTES
    )


def text_part(doc_id: str) -> str:
    """The last part of the text name of document ``doc_id``: the id where :func:`usable_id`, else a
    safe form of it, its readable start and a hash of the whole id (two ids never share one)."""
    if usable_id(doc_id):
        return doc_id
    import hashlib

    readable = "".join(ch if ch.isprintable() and ch not in "/\\" else "_" for ch in doc_id)
    readable = readable.encode("utf-8", "ignore")[:60].decode("utf-8", "ignore").strip(". ") or "document"
    digest = hashlib.sha1(doc_id.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{readable}~{digest}"


def document_of(text: str) -> str | None:
    """The document id a text name selects (after its first ``/``), or None."""
    _, sep, doc_id = text.partition(DOCUMENT_SEPARATOR)
    return doc_id if sep else None


def select_document(
    doc: Document, text: str, split: Mapping[str, Document] | None = None, parts: Mapping[str, str] | None = None
) -> Document:
    """``doc`` restricted to the document ``text`` names (:func:`document_of`), unchanged when the
    text names none or ``doc`` was not read from a CoNLL-U file. ``split``: ``doc``'s documents
    already split (:meth:`~segagree.model.Document.split_speakers`) and ``parts``: each text part
    -> its document id (:func:`text_part`), so that selecting each document of a file costs its
    own size, not the file's."""
    part = document_of(text)
    if part is None or doc.source_format != CONLLU:
        return doc
    if parts is not None:
        doc_id = parts.get(part, part)
    else:
        doc_id = next((s for s in doc.speakers if text_part(s) == part), part)
    if doc_id not in (split if split is not None else doc.speakers):
        raise InputError(
            f"no document {doc_id!r} (text {text!r}); the file has {', '.join(doc.speakers)}",
            path=doc.source_path or None,
        )
    if split is not None:
        one = split[doc_id]
        losses = read_losses()
        losses.extend(one.losses)
    else:
        one = doc.select_speakers([doc_id])
        # the other documents are other texts of the run, not losses of this one
        losses = read_losses()
        losses.extend(loss for loss in one.losses if loss.kind != "speakers-dropped")
    losses.notes[:] = list(one.losses.notes)
    return one.replace(name=text, meta={**one.meta, "documents": [doc_id]}, losses=losses)


@dataclass
class _Whole:
    """A whole file read for its documents, and those documents split once (on first use)."""

    doc: Document
    tokens: int
    split: dict[str, Document] | None = None
    part_ids: dict[str, str] | None = None

    def documents(self) -> dict[str, Document]:
        if self.split is None:
            self.split = self.doc.split_speakers()
        return self.split

    def parts(self) -> dict[str, str]:
        """Each document's text part (:func:`text_part`) -> its id, the first of equal parts."""
        if self.part_ids is None:
            self.part_ids = {}
            for doc_id in self.doc.speakers:
                self.part_ids.setdefault(text_part(doc_id), doc_id)
        return self.part_ids


#: Whole files read for their documents, most recent last: a task per document would otherwise
#: read (and parse) its annotators' whole files once per document. A text's tasks pair each of
#: its annotators with each other, so the files of every annotator are kept (up to
#: :data:`_WHOLE_FILES_KEPT`, and while they hold at most :data:`_WHOLE_TOKENS_KEPT` tokens; at
#: least the last two, a task's pair).
_WHOLE_FILES: OrderedDict[tuple[Any, ...], _Whole] = OrderedDict()
_WHOLE_FILES_KEPT = 64
_WHOLE_TOKENS_KEPT = 4_000_000


def _read_whole(path: str | Path, fmt: str | None, options: dict[str, Any]) -> _Whole:
    """:func:`read_document`, reusing this process's last reads of an unchanged file (same size,
    times and inode) with the same format and options."""
    st = Path(path).stat()
    key = (str(Path(path).resolve()), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, fmt, repr(options))
    if key in _WHOLE_FILES:
        _WHOLE_FILES.move_to_end(key)
        return _WHOLE_FILES[key]
    doc = read_document(path, fmt, **options)
    _WHOLE_FILES[key] = whole = _Whole(doc, doc.n_tokens)
    held = sum(w.tokens for w in _WHOLE_FILES.values())
    while len(_WHOLE_FILES) > 2 and (len(_WHOLE_FILES) > _WHOLE_FILES_KEPT or held > _WHOLE_TOKENS_KEPT):
        held -= _WHOLE_FILES.popitem(last=False)[1].tokens
    return whole


def read_text_document(path: str | Path, text: str, fmt: str | None = None, **options: Any) -> Document:
    """Read ``path`` (:func:`segagree.formats.read_document`) as the annotation of ``text``: the one
    document a ``TEXT/DOCUMENT`` text names (:func:`select_document`; the whole file is read once
    for the consecutive documents of a worker), else the whole file."""
    if document_of(text) is None:
        return read_document(path, fmt, **options)
    # select_document copies what it keeps: the kept whole Document is never changed
    whole = _read_whole(path, fmt, dict(sorted(options.items())))
    if whole.doc.source_format != CONLLU or whole.parts().get(str(document_of(text))) not in whole.documents():
        return select_document(whole.doc, text)  # (the error that names the documents)
    return select_document(whole.doc, text, whole.documents(), whole.parts())
