"""DISRPT's official figure (``disrpt_seg``) of two CoNLL-U / DISRPT files, read as ``seg_eval.py``
reads them: each file scanned once (:mod:`segagree.formats.conllu_scan`), without the model, numpy or
the token pairing, so that reading the files costs no more than the script's own reading.

It gives the very result the full path gives (:func:`segagree.scoring.tokens.compare.compare_documents`
with ``with_sf=False``: a test holds the two equal on generated files), for the files it reads in the
same way, and None for the others, which the full path then reads (and refuses, where it must, with
its own message): a file the scan leaves to the full reader; documents that do not pair by id and
are not one stream; document ids that speaker pairing would rename; different words in a paired
document; labels of another kind than the gold's (units against connectives); empty nodes in a
connective file or in different numbers; ``first_token = always``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from segagree.formats.conllu_columns import NO_DOCUMENT
from segagree.formats.conllu_scan import NotPlain, ScannedDocument, ScannedFile, same_words, scan_file
from segagree.metrics.boundary.segment_match import (
    DISRPT_CARD,
    ScriptSpans,
    StreamSpans,
    disrpt_parameters,
    script_counts,
)
from segagree.metrics.registry import get_measure
from segagree.scoring.measure_output import pooled_output
from segagree.scoring.tokens.document_rules import normalise_speaker, one_stream_note
from segagree.scoring.tokens.result_shape import SF_NOT_ASKED, without_sf

__all__ = ["score_files"]

NAME = DISRPT_CARD.name


def score_files(
    path_a: Path, path_b: Path, options: Mapping[str, Any], *, one_stream: bool = False
) -> dict[str, Any] | None:
    """``disrpt_seg`` of the gold ``path_a`` and the prediction ``path_b`` (``options``: its ``version``
    and ``first_token``), as :func:`segagree.scoring.tokens.compare.compare_documents` gives it without
    S_f; None where the full path must read the files (see the module docstring)."""
    version, first_token = disrpt_parameters(options)
    if first_token != "marked":
        return None
    try:
        gold, system = scan_file(Path(path_a)), scan_file(Path(path_b))
    except NotPlain:
        return None
    connective = not gold.units
    if not (gold.units or gold.connectives) or (system.units if connective else system.connectives):
        return None
    streams = _paired_streams(gold, system, one_stream)
    if streams is None:
        return None
    computed: dict[str, Any] = {}
    places = (_places(gold), _places(system)) if connective else None
    for name, (doc_a, doc_b) in streams.items():
        if not same_words(doc_a.lines, doc_b.lines) or len(doc_a.empty_marks) != len(doc_b.empty_marks):
            return None
        if connective and (doc_a.empty_marks or doc_b.empty_marks):
            return None  # the full path leaves empty nodes out of connective spans
        computed[name] = script_counts(
            doc_a.marks + doc_a.empty_marks,
            doc_b.marks + doc_b.empty_marks,
            connective=connective,
            version=version,
            in_files=None if places is None else (places[0][name], places[1][name]),
        )
    measure = get_measure(NAME)
    _, note = one_stream_note(gold.ids, system.ids, one_stream)
    return without_sf(
        "connective" if connective else "edu",
        not_asked=SF_NOT_ASKED,
        speakers=list(streams),
        metrics={NAME: pooled_output(measure, computed, options)},
        notes=[note] if note else [],
        n_tokens=sum(len(doc_a.lines) for doc_a, _ in streams.values()),
    )


def _paired_streams(
    gold: ScannedFile, system: ScannedFile, one_stream: bool
) -> dict[str, tuple[ScannedDocument, ScannedDocument]] | None:
    """Stream name -> (gold's document, the system's), as the full path pairs them: by id in the gold's
    order, or each file as one stream."""
    merged, _ = one_stream_note(gold.ids, system.ids, one_stream)
    if merged:
        return {NO_DOCUMENT: (_joined(gold), _joined(system))}
    if set(gold.ids) != set(system.ids) or any(normalise_speaker(i) != i for i in gold.ids):
        return None
    by_id = {d.name: d for d in system.documents}
    return {d.name: (d, by_id[d.name]) for d in gold.documents}


def _places(scanned: ScannedFile) -> dict[str, StreamSpans]:
    """Each document's (and the one stream's) place among its file's words, over the file's spans."""
    spans = ScriptSpans([m for d in scanned.documents for m in d.marks])
    out, start = {NO_DOCUMENT: StreamSpans(spans, 0, len(spans.marks))}, 0
    for doc in scanned.documents:
        out[doc.name] = StreamSpans(spans, start, start + len(doc.marks))
        start += len(doc.marks)
    return out


def _joined(scanned: ScannedFile) -> ScannedDocument:
    """A file's documents as one stream, in file order."""
    if len(scanned.documents) == 1:
        return scanned.documents[0]
    out = ScannedDocument(NO_DOCUMENT)
    for doc in scanned.documents:
        out.lines += doc.lines
        out.marks += doc.marks
        out.empty_marks += doc.empty_marks
    return out
