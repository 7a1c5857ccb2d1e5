"""One task of a corpus run: score one pair of annotators of one text.

A task reads both files, pairs speakers (renamed and normalised as configured), aligns
differing transcripts, computes S_f / S_f^B with every operation, the other requested metrics
and the simulated kappa, and returns a JSON-ready dict (so results can be appended to the
resume log and merged in any order). Its random numbers come from a seed derived from the
run seed, the text and the annotator pair, so they do not depend on which worker ran it.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from segagree.corpus.config import RunConfig
from segagree.corpus.documents import read_text_document
from segagree.errors import MismatchError, SegagreeError
from segagree.metrics.boundary.sf import SF_NAMES
from segagree.metrics.subtitles.suber_kernel import take_scored_parts
from segagree.model import BoundaryScheme, Document
from segagree.model.digest import text_digest
from segagree.scoring.metric_runner import GROUPS
from segagree.scoring.stats_codec import encode
from segagree.scoring.subtitles.evaluation import compare_subtitles, is_subtitle_document, subtitle_values
from segagree.scoring.tokens.annotation_pair import AnnotationPair
from segagree.scoring.tokens.compare import score_pair, unaligned_result
from segagree.scoring.tokens.operations import operation_rows
from segagree.scoring.tokens.pair_figures import figure_data
from segagree.scoring.tokens.pairing import normalise_speaker, pair_annotations, resolve_layer
from segagree.version import version

#: SHA-1s of the files this process hashed, by path and (size, times, inode): a file of many
#: documents is a part of every one of its documents' task keys, and is hashed once.
_DIGESTS: dict[str, tuple[tuple[int, ...], str]] = {}


def file_digest(path: Path) -> str:
    """SHA-1 of a file's bytes, its first 16 hex digits (part of the resume key); a file unchanged
    since this process last hashed it (same size, times and inode) is not read again."""
    st = Path(path).stat()
    stamp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    name = str(path)
    known = _DIGESTS.get(name)
    if known is None or known[0] != stamp:
        known = _DIGESTS[name] = (stamp, file_sha1(path)[:16])
    return known[1]


def file_sha1(path: Path) -> str:
    """The full SHA-1 (40 hex digits) of a file's bytes: what a review workbook records of its
    sources, checked in full by adjudication (a prefix would let another file pass)."""
    return hashlib.sha1(Path(path).read_bytes()).hexdigest()


def task_key(
    text: str, ann_a: str, ann_b: str, file_a: Path, file_b: Path, config: RunConfig, settings: str | None = None
) -> str:
    """Resume key: the inputs' content and the settings' signature (``settings``: ``config.digest``
    computed once by the caller)."""
    payload = f"{text}|{ann_a}|{ann_b}|{file_digest(file_a)}|{file_digest(file_b)}|{settings or config.digest}"
    return text_digest(payload, 20)


def task_seed(base: int, text: str, ann_a: str, ann_b: str) -> int:
    """A 32-bit seed for one task from ``numpy.random.SeedSequence`` keyed by text and pair."""
    entropy = [base, zlib.crc32(text.encode()), zlib.crc32(f"{ann_a}\x00{ann_b}".encode())]
    return int(np.random.SeedSequence(entropy).generate_state(1)[0])


def speaker_map_for(config: RunConfig, *docs: Document) -> dict[str, str]:
    """The run's speaker renames (``[speakers]``, then normalised unless turned off)."""
    mapping: dict[str, str] = {}
    for doc in docs:
        for s in doc.speakers:
            name = config.speakers.get(s, s)
            mapping[s] = normalise_speaker(name) if config.normalise_speakers else name
    return mapping


def pair_for_run(
    config: RunConfig,
    a: Document,
    b: Document,
    layer: str,
    layer_scheme: BoundaryScheme | None,
    merge: dict[str, str] | None,
) -> AnnotationPair:
    """Pair ``a`` and ``b`` on the layer :func:`resolve_layer` chose, as the run's ``config``
    says (its speaker renames unless the layer merges speakers, alignment, mismatch limit)."""
    return pair_annotations(
        a,
        b,
        layer=layer,
        scheme=layer_scheme,
        speaker_map=merge or speaker_map_for(config, a, b),
        align=config.align or merge is not None,
        max_mismatch=config.max_mismatch,
        normalise_speakers=config.normalise_speakers,
        common_speakers=config.common_speakers,
    )


def run_layer(
    config: RunConfig, a: Document, b: Document, scheme: BoundaryScheme | None
) -> tuple[str, BoundaryScheme | None, dict[str, str] | None]:
    """The layer a run compares ``a`` and ``b`` on (:func:`resolve_layer`): the configured layer
    where the files have it (an SRT pair has only ``subtitle``, a DISRPT pair ``edu``), else the
    files' own."""
    return resolve_layer(a, b, config.layer if config.layer in a.layers else None, scheme)


def pair_as_run(config: RunConfig, a: Document, b: Document) -> AnnotationPair:
    """``a`` and ``b`` paired as a run's task pairs them (the panel of ``run --machine``)."""
    layer, layer_scheme, merge = run_layer(config, a, b, config.load_scheme())
    return pair_for_run(config, a, b, layer, layer_scheme, merge)


def run_task(
    text: str,
    ann_a: str,
    ann_b: str,
    file_a: str,
    file_b: str,
    config: RunConfig,
    *,
    kappa: bool = True,
    details: bool = True,
    rows: bool = False,
) -> dict[str, Any]:
    """Score one pair; errors in the input become ``{"ok": False, "error": ...}``, never exceptions.

    ``kappa=False`` leaves out the simulated kappa (``result["kappa"]`` is None): what an output
    rebuilt from a resumed run uses to recompute the operation rows that the resume log does not
    keep (everything else is deterministic and cheap). ``details=False`` returns the report's
    figure data (``figures``, :func:`segagree.scoring.tokens.pair_figures.figure_data`) instead of the
    per-token ``tracks`` and the ``operation_rows`` (what a corpus run keeps; cheaper);
    ``rows=True`` adds the ``operation_rows`` to that (what a worker writing the text's review
    workbook needs).
    """
    result: dict[str, Any] = {
        "text": text,
        "annotator_a": ann_a,
        "annotator_b": ann_b,
        "file_a": str(file_a),
        "file_b": str(file_b),
        "version": version(),
    }
    try:
        result["key"] = task_key(text, ann_a, ann_b, Path(file_a), Path(file_b), config)
        scheme = config.load_scheme()
        a = read_text_document(file_a, text, config.format or None, scheme=scheme, **config.reader_options())
        b = read_text_document(file_b, text, config.format or None, scheme=scheme, **config.reader_options())
        result["format_a"], result["format_b"] = a.source_format, b.source_format
        layer, layer_scheme, merge = run_layer(config, a, b, scheme)
        subtitles = is_subtitle_document(a, layer) and is_subtitle_document(b, layer)
        metrics = [m for m in config.metrics if m not in SF_NAMES]
        sub_names: list[str] = []
        if subtitles:  # texts with subtitles get the subtitle metrics, which need no alignment
            chosen = config.subtitle_metrics
            sub_names = [m for m in GROUPS["subtitles"] if chosen is None or m in chosen]
            metrics = [m for m in metrics if m not in GROUPS["subtitles"]]
        try:
            pair = pair_for_run(config, a, b, layer, layer_scheme, merge)
        except MismatchError as err:
            if not subtitles:
                raise
            pair = None  # machine output against a human reference: no S_f, only the subtitle metrics
            compare = unaligned_result(err.message, layer, a.layer(layer).scheme)
        statistics: dict[str, Any] = {}
        if pair is not None:
            compare = score_pair(
                pair, mode=config.mode, transpositions=config.transpositions, metrics=metrics, statistics=statistics
            )
        result["statistics"] = {name: encode(st) for name, st in statistics.items()}
        if subtitles and sub_names:
            take_scored_parts()  # (what earlier tasks of this process left)
            compare["metrics"].update(compare_subtitles(a, b, sub_names, {"layer": layer}))
            result["subtitles"] = subtitle_values(compare["metrics"])
            # SubER's parts, so that the run's pooled SubER (the files concatenated, as suber's
            # multi-file mode does) reuses them wherever it meets them unchanged
            result["suber_parts"] = take_scored_parts()
        if details:
            result["operation_rows"] = operation_rows(compare, pair) if pair is not None else []
            result["tracks"] = _tracks(pair)
        else:
            arrays = {s: {"a": pair.arrays_a[s], "b": pair.arrays_b[s]} for s in pair.speakers} if pair else {}
            ops = compare["operations"]  # the rows' type_a, type_b and op are the operations'
            result["figures"] = figure_data({"compare": compare, "tracks": arrays, "operation_rows": ops})
            if rows:
                result["operation_rows"] = operation_rows(compare, pair) if pair is not None else []
        compare.pop("operations")  # the rows carry them, with context
        result["compare"] = compare
        result["kappa"] = (
            _kappa(pair, config, task_seed(config.kappa.seed, text, ann_a, ann_b)) if pair and kappa else None
        )
        result["ok"] = True
        result["error"] = None
    except SegagreeError as err:
        result.update(ok=False, error=str(err))
    return result


def _tracks(pair: AnnotationPair | None) -> dict[str, dict[str, list[Any]]]:
    """Per speaker: both annotators' boundary codes and the tokens, as JSON-ready lists."""
    if pair is None:
        return {}
    return {
        s: {"a": pair.arrays_a[s].tolist(), "b": pair.arrays_b[s].tolist(), "tokens": pair.tokens[s]}
        for s in pair.speakers
    }


def _kappa(pair, config: RunConfig, seed: int) -> dict[str, Any] | None:
    if not config.kappa.enabled:
        return None
    from segagree.metrics.chance.sf_kappa import sf_kappa

    res = sf_kappa(
        pair.arrays_a,
        pair.arrays_b,
        pair.scheme,
        chance=config.kappa.chance,
        sims=config.kappa.sims,
        seed=seed,
        mode=config.mode,
        transpositions=config.transpositions,
    )
    return res.to_dict()


def with_operation_rows(results: Sequence[Mapping[str, Any]], config: RunConfig) -> list[dict[str, Any]]:
    """A run's results of one text with their operation rows (for its review workbook and review
    page): results read back from the resume log lack them and get them by scoring the pair again
    without kappa; an error if the files changed since they were scored."""
    full = []
    for r in results:
        if "operation_rows" not in r:
            again = run_task(
                r["text"], r["annotator_a"], r["annotator_b"], r["file_a"], r["file_b"], config, kappa=False
            )
            if not again.get("ok") or again.get("key") != r.get("key"):
                raise SegagreeError(
                    f"{r['text']}: the files changed while the run was writing its review outputs; run again",
                    path=r["file_a"],
                )
            r = {**r, "operation_rows": again["operation_rows"]}
        full.append(dict(r))
    return full
