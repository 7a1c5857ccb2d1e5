"""Comparing two annotations of one text: S_f / S_f^B with operations, plus any other metric.

This is what ``segagree compare`` and each pair of a corpus run compute. The result is a
plain, JSON-ready dict whose keys are the public contract of ``compare --json``:
``sf``, ``sf_b``, ``cost``, ``edits``, ``n_tokens``, ``per_speaker`` (speaker -> the same five
keys and the operation counts), ``operations`` (speaker, op, position_a, position_b, type_a,
type_b, cost; positions are 0-based token indexes in each annotator's own speaker stream),
``metrics`` (name -> pooled value and per-speaker values of every other metric asked for),
``mismatches`` (transcript differences the alignment bridged), ``signature``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from segagree.errors import MismatchError
from segagree.metrics.boundary.sf import SF_NAMES, SfResult, sf
from segagree.model import BoundaryScheme, Document
from segagree.scoring.tokens.operations import operation_rows
from segagree.scoring.tokens.pairing import AnnotationPair, document_stream, pair_annotations, resolve_layer
from segagree.scoring.tokens.result_shape import SF_NOT_ASKED, without_sf


def score_pair(
    pair: AnnotationPair,
    *,
    mode: str = "optimal",
    transpositions: bool = True,
    metrics: Sequence[str] = (),
    metric_options: Mapping[str, Any] | None = None,
    with_operations: bool = True,
    statistics: dict[str, Any] | None = None,
    with_sf: bool = True,
) -> dict[str, Any]:
    """Score an :class:`AnnotationPair` (see the module docstring for the keys).

    ``with_sf=False``: S_f is not computed (only official scorers were asked for); its keys are None
    and ``sf_not_asked`` says why (:func:`segagree.scoring.tokens.result_shape.without_sf`).

    ``statistics``, when given, receives each other measure's summed sufficient statistics over
    the pair's speakers (what a corpus run pools over texts).

    With ``with_operations=False`` the ``operations`` list is left empty (the scores and the
    operation counts are the same; building one record per operation is most of the time of
    a large text when only the scores are shown).
    """
    if not with_sf:
        from segagree.scoring.metric_runner import run_metrics

        unpaired = {"a": list(pair.unpaired_a), "b": list(pair.unpaired_b)}
        n_tokens = sum(len(pair.arrays_a[s]) for s in pair.speakers)
        bare = without_sf(
            pair.layer, not_asked=SF_NOT_ASKED, speakers=pair.speakers, unpaired=unpaired, n_tokens=n_tokens
        )
        bare["mismatches"] = list(pair.mismatches)
        bare["metrics"] = run_metrics(pair, metrics, metric_options or {}, statistics)
        return bare
    result: SfResult = sf(
        pair.arrays_a,
        pair.arrays_b,
        pair.scheme,
        mode=mode,
        transpositions=transpositions,
        with_operations=with_operations,
    )
    out = result.to_dict()
    symbols = pair.scheme.symbols
    # Positions as lists: indexing a list per operation is much cheaper than a numpy array.
    pos_a = {s: p.tolist() for s, p in pair.positions_a.items()} if out["operations"] else {}
    pos_b = {s: p.tolist() for s, p in pair.positions_b.items()} if out["operations"] else {}
    for op in out["operations"]:
        s = op["speaker"]
        # Where B's boundary lands in A's stream (the base of an adjudicated gold file).
        op["position_b_in_a"] = None if op["position_b"] is None else int(pos_a[s][op["position_b"]])
        for side, positions in (("position_a", pos_a), ("position_b", pos_b)):
            if op[side] is not None:
                op[side] = int(positions[s][op[side]])
    out["speakers"] = list(pair.speakers)
    out["layer"] = pair.layer
    out["scheme"] = {"name": pair.scheme.name, "digest": pair.scheme.digest, "symbols": symbols}
    out["mismatches"] = list(pair.mismatches)
    out["unpaired_speakers"] = {"a": list(pair.unpaired_a), "b": list(pair.unpaired_b)}
    out["notes"] = list(pair.notes)
    out["metrics"] = {}
    if any(m not in SF_NAMES for m in metrics):  # S_f is computed above
        from segagree.scoring.metric_runner import run_metrics  # only when asked: it loads every metric

        out["metrics"] = run_metrics(pair, metrics, metric_options or {}, statistics)
    return out


def compare_documents(
    a: Document,
    b: Document,
    *,
    layer: str | None = None,
    scheme: BoundaryScheme | None = None,
    mode: str = "optimal",
    transpositions: bool = True,
    speaker_map: Mapping[str, str] | None = None,
    align: bool = False,
    max_mismatch: float = 0.2,
    normalise_speakers: bool = True,
    metrics: Sequence[str] = (),
    metric_options: Mapping[str, Any] | None = None,
    with_operations: bool = True,
    review_rows: bool = True,
    common_speakers: bool = False,
    one_stream: bool = False,
    with_sf: bool = True,
) -> dict[str, Any]:
    """Pair two Documents and score them; see :func:`score_pair` (and its ``with_operations`` and
    ``with_sf``).

    ``operation_rows`` (review rows with token context, :func:`operation_rows`) are added when
    ``review_rows`` and ``with_operations`` are both true.

    ``layer`` may name several layers (``"iu,turn"``): S_f scores the first, and the other
    metrics compare all of them at once with segeval's multi-type "sets" semantics.

    ``one_stream``: two CoNLL-U files' documents scored as one stream each, as the official scripts
    score a file (by default only where one file has no documents); ``notes`` in the result says so.
    """
    names = [n.strip() for n in (layer or "").split(",") if n.strip()]
    layer = names[0] if names else None
    name, scheme, merge = resolve_layer(a, b, layer, scheme)
    # Measures of units in time read the Documents themselves: the tokens need not pair.
    own_names = _document_measures(metrics)
    metrics = [m for m in metrics if m not in own_names]
    subtitle_names: list[str] = []
    subtitles = _subtitles_module() if _has_eob(a) and _has_eob(b) else None
    if subtitles and subtitles.is_subtitle_document(a, name) and subtitles.is_subtitle_document(b, name):
        # Subtitle metrics read the documents themselves and score any hypothesis: no alignment needed.
        subtitle_names = [m for m in metrics if m in subtitles.SUBTITLE_METRICS]
        metrics = [m for m in metrics if m not in subtitle_names]
    if merge is not None:  # subtitles: one text stream, words may differ (imperfect text)
        speaker_map, align = merge, True
    pair_layer = partial(
        pair_annotations,
        a,
        b,
        speaker_map=speaker_map,
        align=align,
        max_mismatch=max_mismatch,
        normalise_speakers=normalise_speakers,
        common_speakers=common_speakers,
        one_stream=one_stream,
    )
    try:
        pair = pair_layer(layer=name, scheme=scheme)
    except MismatchError as err:
        if not (subtitle_names or own_names) or metrics:
            raise
        # MT or speech output against a human reference: S_f needs aligned tokens, the subtitle metrics do not.
        result = (
            unaligned_result(err.message, name, a.layer(name).scheme)
            if with_sf
            else without_sf(name, not_asked=SF_NOT_ASKED)
        )
    else:
        for extra in names[1:]:
            other = pair_layer(layer=extra)
            pair.extra_layers[extra] = (other.arrays_a, other.arrays_b, other.scheme.n_codes)
        result = score_pair(
            pair,
            mode=mode,
            transpositions=transpositions,
            metrics=metrics,
            metric_options=metric_options,
            with_operations=with_operations,
            with_sf=with_sf,
        )
        result["operation_rows"] = operation_rows(result, pair) if review_rows and with_operations else []
    if subtitles and subtitle_names:
        options = dict(metric_options or {}, layer=name)
        result["metrics"].update(subtitles.compare_subtitles(a, b, subtitle_names, options))
    if own_names:
        from segagree.scoring.metric_runner import run_on_documents

        options = {**(metric_options or {}), "one_stream": one_stream or None}
        result["metrics"].update(run_on_documents(a, b, name, own_names, options))
    _, note = document_stream(a, b, one_stream)
    result["notes"] = [note] if note else []
    return result


def _document_measures(metrics: Sequence[str]) -> list[str]:
    """The metrics whose input the pipeline builds from the Documents alone (units in time)."""
    if all(m in SF_NAMES for m in metrics):
        return []
    from segagree.scoring.metric_runner import reads_documents  # loads every metric

    return [m for m in metrics if reads_documents(m)]


def _has_eob(doc: Document) -> bool:
    """Whether any layer has an ``<eob>`` type: only then can the subtitle metrics apply."""
    return any(lay.scheme.find_code("<eob>") is not None for lay in doc.layers.values())


def _subtitles_module() -> Any:
    # Imported only for subtitle documents: it loads the subtitle metrics (sacrebleu, suber).
    from segagree.scoring.subtitles import evaluation as subtitles

    return subtitles


def unaligned_result(reason: str, layer: str, scheme: BoundaryScheme | None = None) -> dict[str, Any]:
    """The result of a pair whose tokens cannot be aligned: S_f and its operations are absent."""
    info = {"name": scheme.name, "digest": scheme.digest, "symbols": scheme.symbols} if scheme else None
    return without_sf(layer, not_applicable=f"S_f needs the two token streams aligned: {reason}", scheme=info)
