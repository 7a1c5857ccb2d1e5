"""Pairing two annotations of one text: speakers by name, layers recoded to one scheme,
token streams checked (or aligned, see :mod:`segagree.scoring.tokens.stream_alignment`).

The result, :class:`AnnotationPair`, holds per-speaker boundary arrays of both annotators on
a common token index, which is what every metric takes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from segagree.errors import MismatchError
from segagree.formats.conllu import NO_DOCUMENT, empty_node_marks, script_marks, with_unmarked_layer
from segagree.model import BoundaryScheme, Document, Layer
from segagree.scoring.tokens.annotation_pair import AnnotationPair
from segagree.scoring.tokens.document_rules import normalise_speaker, one_stream_note
from segagree.scoring.tokens.stream_alignment import project_pair


def recode(layer: Layer, scheme: BoundaryScheme, *, path: str = "") -> np.ndarray:
    """The layer's codes expressed in ``scheme`` (matched by symbol, aliases allowed)."""
    if layer.scheme.symbols == scheme.symbols:
        return layer.boundaries
    table = np.zeros(layer.scheme.n_codes, dtype=np.int16)
    for code, sym in enumerate(layer.scheme.symbols):
        target = scheme.find_code(sym)
        if target is None and code in set(layer.boundaries.tolist()):
            raise MismatchError(
                f"boundary type {sym!r} of layer {layer.name!r} is not in scheme {scheme.name!r} "
                f"({scheme.symbols[1:]})",
                path=path or None,
            )
        table[code] = target or 0
    return table[layer.boundaries]


SUBTITLE_STREAM = "SUBTITLE"


def resolve_layer(
    a: Document, b: Document, layer: str | None, scheme: BoundaryScheme | None
) -> tuple[str, BoundaryScheme | None, dict[str, str] | None]:
    """The layer to compare, the scheme to score it in and a speaker merge, if any.

    The configured scheme is the endnote scheme of ``iu`` layers; other layers (``subtitle``,
    ``turn``) keep their own. A ``subtitle`` layer is one running text whatever the dialogue
    dashes say, so its speakers are merged into one stream.
    """
    name = a.layer(layer if layer is None or layer in a.layers else layer).name
    if name == "iu":
        return name, scheme, None
    if name == "subtitle":
        merge = {s: SUBTITLE_STREAM for s in (*a.speakers, *b.speakers)}
        return name, None, merge
    return name, None, None


def speaker_rule(speaker_map: Mapping[str, str] | None, normalise: bool, *docs: Document) -> dict[str, str] | None:
    """The renames pairing applies: ``speaker_map``, then :func:`normalise_speaker` if asked."""
    if not normalise:
        return dict(speaker_map) if speaker_map else None
    rename = dict(speaker_map or {})
    out = {}
    for doc in docs:
        for s in doc.speakers:
            out[s] = normalise_speaker(rename.get(s, s))
    return out


def speaker_arrays(
    doc: Document,
    layer: str | None,
    scheme: BoundaryScheme,
    speaker_map: Mapping[str, str] | None = None,
) -> tuple[dict[str, np.ndarray], dict[str, list[str]], list[str]]:
    """Per-speaker codes and token texts of one document, speakers renamed by ``speaker_map``.

    Speakers that map to one name are merged in discourse order (``F2`` and ``F2:``)."""
    lay = doc.layer(layer)
    codes = recode(lay, scheme, path=doc.source_path)
    rename = dict(speaker_map or {})
    if not doc.n_tokens:
        # A document with no words (an SRT whose cues are all empty) still has its speakers.
        empty = list(dict.fromkeys(rename.get(s, s) for s in doc.speakers))
        return {s: codes[:0] for s in empty}, {s: [] for s in empty}, empty
    groups = stream_rows(doc, rename)
    text = doc.column("text")
    arrays = {name: codes[rows] for name, rows in groups.items()}
    tokens = {name: text[rows].tolist() for name, rows in groups.items()}
    return arrays, tokens, list(groups)


def stream_rows(doc: Document, rename: Mapping[str, str]) -> dict[str, np.ndarray]:
    """Token-table rows of each stream once speakers are renamed, in order of first appearance:
    names that map to one are merged in discourse order, at the place of the earliest token."""
    by_speaker = doc.speaker_rows()
    present = sorted((int(rows[0]), s) for s, rows in by_speaker.items() if rows.size)
    groups: dict[str, list[np.ndarray]] = {}
    for _, s in present:
        groups.setdefault(rename.get(s, s), []).append(by_speaker[s])
    return {name: parts[0] if len(parts) == 1 else np.sort(np.concatenate(parts)) for name, parts in groups.items()}


def document_stream(a: Document, b: Document, one_stream: bool = False) -> tuple[dict[str, str] | None, str]:
    """Whether two CoNLL-U annotations are scored as one stream each (:func:`one_stream_note`, on
    their documents), as the merge of every speaker into one and the note that says so; (None,
    note) where documents are paired by id. Only for annotations read from CoNLL-U."""
    if not ("documents" in a.meta and "documents" in b.meta):
        return None, ""
    merged, note = one_stream_note(list(a.meta["documents"] or []), list(b.meta["documents"] or []), one_stream)
    return ({s: NO_DOCUMENT for s in (*a.speakers, *b.speakers)} if merged else None), note


def pair_annotations(
    a: Document,
    b: Document,
    *,
    layer: str | None = None,
    scheme: BoundaryScheme | None = None,
    speaker_map: Mapping[str, str] | None = None,
    align: bool = False,
    max_mismatch: float = 0.2,
    normalise_speakers: bool = True,
    common_speakers: bool = False,
    one_stream: bool = False,
) -> AnnotationPair:
    """Pair two annotations speaker by speaker (by name, never by position).

    One speaker-label rule for every command: after ``speaker_map``, labels are normalised
    (:func:`normalise_speaker`: ``F2:`` and ``F2`` are one speaker) unless
    ``normalise_speakers`` is False.

    Args:
        layer: layer to compare (default ``iu``, else the first).
        scheme: scheme to express both layers in (default: A's layer's scheme).
        speaker_map: renames applied to both documents before pairing.
        normalise_speakers: strip transcription punctuation from speaker labels.
        align: when the token streams differ, align them (edit distance over tokens) instead of
            failing; see :func:`segagree.scoring.tokens.stream_alignment.align_streams`.
        max_mismatch: with ``align``, the largest share of mismatched tokens tolerated.
        common_speakers: score only the speakers both annotations have (with words); the others
            are listed in the pair's ``unpaired_a`` / ``unpaired_b``.
        one_stream: score two CoNLL-U files' documents as one stream each (:func:`document_stream`;
            by default only where one file has no documents).

    A speaker without tokens (a declared participant who never speaks, CHAT's ``ENV`` whose
    lines hold only events) is no speaker to pair: it is neither scored nor listed.

    Raises:
        MismatchError: different speaker sets (without ``common_speakers``), no speaker in
            common, or different token streams without ``align`` (naming the speaker and the
            first differing token).
    """
    for empty, other in ((a, b), (b, a)):
        if not empty.n_tokens and other.n_tokens:
            raise MismatchError(
                f"{empty.source_path or 'one annotation'} has no words (an empty file); "
                f"there is nothing to pair with the {other.n_tokens} tokens of {other.source_path or 'the other'}"
            )
    lay_a = a.layer(layer)
    b = with_unmarked_layer(b, lay_a.name if layer is None else layer)  # a CoNLL-U prediction marking none
    scheme = scheme or lay_a.scheme
    merge, note = document_stream(a, b, one_stream)
    speaker_map = merge or speaker_rule(speaker_map, normalise_speakers, a, b)
    arr_a, tok_a, order_a = speaker_arrays(a, lay_a.name, scheme, speaker_map)
    arr_b, tok_b, _ = speaker_arrays(b, lay_a.name if layer is None else layer, scheme, speaker_map)
    only_a = [s for s in arr_a if s not in arr_b]
    only_b = [s for s in arr_b if s not in arr_a]
    if (only_a or only_b) and not common_speakers:
        documents = "documents" in a.meta and "documents" in b.meta
        raise MismatchError(
            f"the annotations have different {'documents' if documents else 'speakers'} "
            f"({_unpaired_text(a, only_a, b, only_b)}); "
            + (
                "score each file as one stream of its words, as the official scripts do, with --one-stream; or "
                if documents
                else ""
            )
            + "score the shared ones with --common-speakers, or pair them with --rename OLD=NEW (for run: "
            "common_speakers = true or a [speakers] table in segagree.toml)"
        )
    order_a = [s for s in order_a if s in arr_b]
    if not order_a:
        raise MismatchError(
            f"the annotations have no speaker in common ({_unpaired_text(a, only_a, b, only_b)}); "
            "pair them with --rename OLD=NEW"
        )
    pair = AnnotationPair(a, b, lay_a.name, scheme, order_a, {}, {}, {}, own_tokens_a=tok_a, own_tokens_b=tok_b)
    pair.unpaired_a, pair.unpaired_b = only_a, only_b
    pair.notes = [note] if note else []
    for s in order_a:
        if tok_a[s] == tok_b[s]:
            pair.arrays_a[s], pair.arrays_b[s], pair.tokens[s] = arr_a[s], arr_b[s], tok_a[s]
            idx = np.arange(len(tok_a[s]))
            pair.positions_a[s], pair.positions_b[s] = idx, idx
            continue
        if not align:
            raise MismatchError(_first_difference(s, tok_a[s], tok_b[s], a, b))
        project_pair(pair, s, tok_a[s], tok_b[s], arr_a[s], arr_b[s], max_mismatch=max_mismatch)
    if "sentence" in a.layers and lay_a.name != "sentence":
        sentences, _, _ = speaker_arrays(a, "sentence", a.layers["sentence"].scheme, speaker_map)
        for s in order_a:
            pair.sentences_a[s] = on_common_index(sentences[s], pair.positions_a[s])
    _add_marks(pair, speaker_map or {})
    return pair


def _add_marks(pair: AnnotationPair, rename: Mapping[str, str]) -> None:
    """Both files' DISRPT labels on the common index, where both are CoNLL-U read as written."""
    marks = [script_marks(pair.a), script_marks(pair.b)]
    if marks[0] is None or marks[1] is None:
        return
    # the script's mode, whatever layer is compared: units where the gold has a BeginSeg, else connectives
    connective = not bool((marks[0] == 1).any())
    pair.marks_connective = connective
    # (the measure's module: loaded here for CoNLL-U files only, not by every comparison)
    from segagree.metrics.boundary.segment_match import ScriptSpans, StreamSpans

    after: list[dict[str, int]] = [{}, {}]
    places: list[dict[str, StreamSpans]] = [{}, {}]
    for k, (doc, own, positions, out) in enumerate(
        ((pair.a, marks[0], pair.positions_a, pair.marks_a), (pair.b, marks[1], pair.positions_b, pair.marks_b))
    ):
        rows = stream_rows(doc, rename)
        spans = ScriptSpans(own) if connective else None
        for s in pair.speakers:
            out[s] = own[rows[s]][positions[s]]
            last = int(rows[s][-1]) if len(rows[s]) else len(own)
            after[k][s] = int(own[last + 1]) if last + 1 < len(own) else -1
            first = int(rows[s][0]) if len(rows[s]) else 0
            # the stream a run of the file's words, each in its place: spans as the script builds them
            if spans is not None and last - first + 1 == len(rows[s]) == len(positions[s]) == len(out[s]):
                if bool(np.all(positions[s] == np.arange(len(positions[s])))):
                    places[k][s] = StreamSpans(spans, first, last + 1)
    pair.marks_next = {s: (after[0][s], after[1][s]) for s in pair.speakers}
    pair.marks_in_files = {s: (places[0][s], places[1][s]) for s in pair.speakers if s in places[0] and s in places[1]}
    if not connective:
        _add_empty_nodes(pair, rename)


def _add_empty_nodes(pair: AnnotationPair, rename: Mapping[str, str]) -> None:
    """seg_eval.py counts empty nodes (``44.1``) as tokens: in EDU mode, where a stream's order does
    not matter, both files' empty-node labels are added at the end of the stream's labels, paired in
    order, where both files have as many (else the script refuses the files, and so are they left)."""
    nodes = [empty_node_marks(pair.a), empty_node_marks(pair.b)]
    if not nodes[0] and not nodes[1]:
        return
    rows = [stream_rows(pair.a, rename), stream_rows(pair.b, rename)]
    for s in pair.speakers:
        extra = [[m for r in rows[k][s].tolist() for m in nodes[k].get(r, ())] for k in (0, 1)]
        if extra[0] and len(extra[0]) == len(extra[1]):
            pair.marks_a[s] = np.concatenate([pair.marks_a[s], np.asarray(extra[0], dtype=pair.marks_a[s].dtype)])
            pair.marks_b[s] = np.concatenate([pair.marks_b[s], np.asarray(extra[1], dtype=pair.marks_b[s].dtype)])


def on_common_index(own: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """An annotator's codes over its own stream moved onto the common index, as the compared layer's
    are (:func:`segagree.scoring.tokens.stream_alignment.project_pair`): the boundary after a token
    lands on the last common token at or before it. ``positions``: the own index of each common token."""
    if len(own) == len(positions):
        return own  # identical streams: the common index is the own index
    landing = np.maximum(np.searchsorted(positions, np.arange(len(own)), side="right") - 1, 0)
    out = np.zeros(len(positions), dtype=own.dtype)
    cut = np.flatnonzero(own)
    out[landing[cut]] = own[cut]
    return out


def _unpaired_text(a: Document, only_a: list[str], b: Document, only_b: list[str]) -> str:
    parts = []
    if only_a:
        parts.append(f"only in {a.source_path or 'A'}: {only_a}")
    if only_b:
        parts.append(f"only in {b.source_path or 'B'}: {only_b}")
    return "; ".join(parts)


_TIMED = ("rttm", "ctm")  # formats whose 'tokens' are speaker labels or words with times of their own


def _first_difference(speaker: str, ta: list[str], tb: list[str], a: Document, b: Document) -> str:
    n = min(len(ta), len(tb))
    i = next((k for k in range(n) if ta[k] != tb[k]), n)
    got_a = repr(ta[i]) if i < len(ta) else "end of stream"
    got_b = repr(tb[i]) if i < len(tb) else "end of stream"
    context = " ".join(ta[max(0, i - 3) : i])
    found = (
        f"speaker {speaker!r}: the transcripts differ at token {i} (after '{context}'): "
        f"{a.source_path or 'A'} has {got_a}, {b.source_path or 'B'} has {got_b} ({len(ta)} vs {len(tb)} tokens)"
    )
    if a.source_format in _TIMED and b.source_format in _TIMED:  # turns and words in time, not a transcript
        return f"{found}; RTTM and CTM files are units in time: score them with agree --time (--measure der,jer)"
    return f"{found}; align them with --align (align = true in segagree.toml for run)"


def speaker_streams(doc: Document, settings: dict[str, Any]) -> dict[str, np.ndarray]:
    """Token-table rows of every speaker's stream as the comparison saw it (renamed, merged).

    ``settings`` are a review's pairing settings: ``speakers`` (a renaming) and
    ``normalise_speakers``, as :func:`normalise_speaker` applies them."""
    renames = settings.get("speakers") or {}
    normalise = bool(settings.get("normalise_speakers", True))
    rename: dict[str, str] = {}
    for s in doc.speakers:
        name = renames.get(s, s)
        rename[s] = normalise_speaker(name) if normalise else name
    streams: dict[str, list[int]] = {}
    for i, s in enumerate(doc.tokens["speaker"]):
        streams.setdefault(rename.get(s, s), []).append(i)
    out = {s: np.asarray(rows, dtype=np.int64) for s, rows in streams.items()}
    if doc.meta.get("documents") and NO_DOCUMENT not in out:
        # a CoNLL-U file whose documents were compared as one stream with a file without any
        # (document_stream): that stream is every word in file order
        out[NO_DOCUMENT] = np.arange(doc.n_tokens, dtype=np.int64)
    return out
