"""Subtitle evaluation of Documents: the views each reference tool reads, projection for
imperfect text, per-file and pooled scores, and the runners of ``segagree compare --metric``.

The reference is always the first Document, the hypothesis the second. No token alignment is
needed: the SubER metrics and EvalSubtitle's end-to-end metrics (Sigma, BLEU_br/nb, TER_br, CPL)
score any hypothesis; the standard segmentation metrics (F1, Pk, WindowDiff, S, B) need the same
words and, when the words differ, are computed on the hypothesis's breaks *projected* onto the
reference's words (``projected: true``).

**Views.** Each side is read three ways (:class:`SubtitleSide`):

* *sentences* for EvalSubtitle: a tagged-text Document's lines (its ``sentence`` layer; empty
  lines kept); for SRT and other timed files, the sentences EvalSubtitle's SRT mode finds: a
  sentence ends at a break after a word ending in ``.``, ``!`` or ``?`` (optionally followed by
  ``"`` or ``)``), except a ``.`` after a capital preceded by a space, quote, bracket or dash
  (initials); words after the last such break are dropped, as EvalSubtitle does.
* *segments* for SubER: when the Document was read from a tagged-text or SRT file that still
  exists, suber's own file reader on that file (its ``plain``/``SRT`` input: the same words and
  times as the SubER command line, dialogue dashes and ``NAME:`` labels included); otherwise suber
  objects built from the Document (one segment per sentence for tagged text, one ``Subtitle`` per
  cue with suber's word times for timed documents).
* *blocks* for reading speed and lines per block: the ``<eob>`` blocks of the subtitle layer as
  displayed, :class:`~segagree.metrics.subtitles.scores.Cue` objects from
  :func:`segagree.scoring.subtitles.cues.cues_of`, the very cues the style checks count (markup removed,
  dialogue dashes and ``NAME:`` labels as the file showed them).

**Projection** (Karakanta et al. 2022, section 4: the hypothesis's breaks carried onto the
reference text by a minimum-edit alignment of the words; the paper used mwerSegmenter per
sentence, we use segagree's own alignment, :func:`segagree.scoring.tokens.stream_alignment.align_streams`, on
lower-cased words without punctuation): sentence by sentence when both sides have the same
number of sentences, else over the whole text. A hypothesis break after word j goes after the
reference word aligned with j (or the nearest preceding reference word when j has none); the
sentence-final break goes after the reference sentence's last word; breaks landing on one word
keep their order.

**Corpus level.** :func:`evaluate_corpus` scores several pairs: per file, and pooled: EvalSubtitle's
BLEU/Sigma/TER_br/CPL over the concatenated sentences (sacrebleu's corpus statistics), F1 from
summed counts, Pk/WindowDiff/S/B from summed statistics (each file with its own window), SubER
on the concatenated segments with the times of each file shifted past the previous one (suber's
multi-file mode).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from segagree.errors import SegagreeError, UsageError
from segagree.metrics.subtitles.measures import SUBER, SubtitleMeasure, score_texts
from segagree.metrics.subtitles.sacrebleu_stats import SacrebleuStats
from segagree.metrics.subtitles.scores import (
    EOB,
    EOL,
    NotApplicable,
    Sentence,
    TerCache,
    suber_available,
)
from segagree.metrics.subtitles.views import PairData, SubtitleOptions, SubtitleSide
from segagree.model import Document
from segagree.scoring.subtitles.cues import block_edges, cues_of
from segagree.scoring.tokens.stream_alignment import align_streams


def _subtitle_measures() -> dict[str, SubtitleMeasure]:
    """name -> measure of every subtitle measure (the registry's ``subtitles`` group)."""
    from segagree.metrics.subtitles.bleus import MEASURES as BLEUS
    from segagree.metrics.subtitles.measures import MEASURES as MAIN

    return {m.name: m for m in (*MAIN, *BLEUS)}


MEASURES: dict[str, SubtitleMeasure] = _subtitle_measures()
# segeval's S and B over both break types: the boundary measures' names, computed here (with the
# per-type F1/Pk/WindowDiff/S/B) when the compared layer is a subtitle layer.
BOTH_TYPES: dict[str, SubtitleMeasure] = {n: MEASURES[f"{n}_eob"] for n in ("s", "b")}
SUBTITLE_METRICS: tuple[str, ...] = (*MEASURES, *BOTH_TYPES)
GROUPS: dict[str, tuple[str, ...]] = {"subtitles": SUBTITLE_METRICS}
SUBER_INFO = f"{SUBER.name}_info"

__all__ = [
    "GROUPS",
    "MEASURES",
    "SUBTITLE_METRICS",
    "SubtitleOptions",
    "SubtitleSide",
    "evaluate_corpus",
    "evaluate_pair",
    "evaluate_paths",
    "is_subtitle_document",
    "measure_item",
    "project_sentences",
    "register",
    "split_suber",
    "subtitle_side",
]


# --------------------------------------------------------------------------------------------
# Views of one side
# --------------------------------------------------------------------------------------------
def _layer_name(doc: Document, layer: str | None) -> str:
    if layer is not None:
        return doc.layer(layer).name
    return "subtitle" if "subtitle" in doc.layers else doc.layer(None).name


def is_subtitle_document(doc: Document, layer: str | None = None) -> bool:
    """Whether the document has a layer with an ``<eob>`` type (the subtitle metrics apply)."""
    try:
        lay = doc.layer(_layer_name(doc, layer))
    except SegagreeError:
        return False
    return lay.scheme.find_code("<eob>") is not None


def _tag_text(value: Any) -> str:
    """A ``tags`` cell as text (pandas' ``fillna("").astype(str)``: None and NaN are empty)."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return str(value)


def _codes_and_tags(doc: Document, layer: str) -> tuple[list[str], list[tuple[int, ...]]]:
    lay = doc.layer(layer)
    eob, eol = lay.scheme.find_code("<eob>"), lay.scheme.find_code("<eol>")
    if not eob:
        raise SegagreeError(
            f"layer {lay.name!r} (scheme {lay.scheme.name!r}) has no <eob> boundary type; subtitle metrics "
            "need a subtitle layer (an .srt or tagged-text file, or a layer with the 'subtitle' scheme)",
            path=doc.source_path or None,
        )
    # Columns, not doc.tokens: the pandas table (and pandas' import) is not needed here.
    words = [str(w) for w in doc.column("text").tolist()]
    extra = [_tag_text(t) for t in doc.column("tags").tolist()] if "tags" in doc.column_names() else [""] * len(words)
    kind = {"<eob>": EOB, "<eol>": EOL}
    tags: list[tuple[int, ...]] = []
    for code, ex in zip(lay.boundaries.tolist(), extra, strict=True):
        if ex:
            tags.append(tuple(kind[t] for t in ex.split() if t in kind))
        elif code == eob:
            tags.append((EOB,))
        elif code and code == eol:
            tags.append((EOL,))
        else:
            tags.append(())
    return words, tags


_EOS_WORD = re.compile(r'(?:(?<!["( -][A-Z])\.|[!?])["\)]?$')


def sentences_by_punctuation(flat: Sentence) -> tuple[list[Sentence], int]:
    """EvalSubtitle's SRT sentences: cut after a break that follows sentence-final punctuation.

    Returns the sentences and the number of words after the last cut (dropped, as EvalSubtitle does).
    """
    out: list[Sentence] = []
    start = 0
    for i, (w, tags) in enumerate(flat):
        # EvalSubtitle searches the whole text, where a space (or nothing, at the start) precedes a word.
        if tags and _EOS_WORD.search(w if i == 0 else " " + w):
            out.append(list(flat[start : i + 1]))
            start = i + 1
    return out, len(flat) - start


def _suber_from_file(path: str, fmt: str) -> list[Any] | None:
    from suber.file_readers import read_input_file

    try:
        return read_input_file(path, file_format="SRT" if fmt == "srt" else "plain")
    except Exception:  # noqa: BLE001 - suber's reader failing means: build from the Document instead
        return None


def _suber_from_sentences(sentences: Sequence[Sentence]) -> list[Any]:
    from suber.data_types import LineBreak, Segment, Word

    kinds = {EOL: LineBreak.END_OF_LINE, EOB: LineBreak.END_OF_BLOCK}
    return [
        Segment(word_list=[Word(string=w, line_break=kinds[t[-1]] if t else LineBreak.NONE) for w, t in s])
        for s in sentences
    ]


def _suber_from_cues(cues: Sequence[tuple[Sentence, float, float]]) -> list[Any]:
    from suber.data_types import LineBreak, Subtitle, TimedWord
    from suber.utilities import set_approximate_word_times

    kinds = {EOL: LineBreak.END_OF_LINE, EOB: LineBreak.END_OF_BLOCK}
    out = []
    for k, (words, start, end) in enumerate(cues):
        tw = [
            TimedWord(
                string=w,
                line_break=kinds[t[-1]] if t else LineBreak.NONE,
                subtitle_start_time=start,
                subtitle_end_time=end,
            )
            for w, t in words
        ]
        if tw:
            tw[-1].line_break = LineBreak.END_OF_BLOCK
            set_approximate_word_times(tw, start, end)
        out.append(Subtitle(word_list=tw, index=k + 1, start_time=start, end_time=end))
    return out


def subtitle_side(doc: Document, options: SubtitleOptions | None = None) -> SubtitleSide:
    """The views of one Document (see the module docstring)."""
    opts = options or SubtitleOptions()
    layer = _layer_name(doc, opts.layer)
    words, tags = _codes_and_tags(doc, layer)
    flat: Sentence = list(zip(words, tags, strict=True))
    starts = doc.column("start").astype(float)
    ends = doc.column("end").astype(float)
    # Cues (blocks): cut after every <eob>.
    block_end = [bool(t) and t[-1] == EOB for _, t in flat]
    cues: list[tuple[Sentence, float, float]] = (
        [(flat[a : b + 1], float(starts[a]), float(ends[b])) for a, b in zip(*block_edges(block_end), strict=True)]
        if flat
        else []
    )
    timed = bool(cues) and all(not (np.isnan(s) or np.isnan(e)) for _, s, e in cues)
    # Reading speed and lines per block read the cues as displayed: the style checks' cues.
    blocks = cues_of(doc, layer)

    path, fmt = doc.source_path or "", doc.source_format or ""
    from_file = (
        opts.use_source_files and fmt in ("srt", "tagged") and path and Path(path).is_file() and suber_available()
    )
    segments = _suber_from_file(path, fmt) if from_file else None
    segment_source = f"suber's {'SRT' if fmt == 'srt' else 'plain'} reader on {path}" if segments is not None else ""

    dropped = 0
    if "sentence" in doc.layers and layer != "sentence":
        ends_ = doc.layers["sentence"].boundaries.tolist()
        sentences: list[Sentence] = []
        cur_s: Sentence = []
        for i, item in enumerate(flat):
            cur_s.append(item)
            if ends_[i] or i == len(flat) - 1:
                sentences.append(cur_s)
                cur_s = []
        for no in doc.meta.get("empty_lines") or []:
            if isinstance(no, (int, np.integer)) and 0 <= no <= len(sentences):
                sentences.insert(int(no), [])
        sentence_source = "lines"
        stream = sentences
    else:
        source = flat
        if segments is not None and fmt == "srt":
            # EvalSubtitle reads the raw cue lines: suber's reader keeps dashes and labels as words.
            from suber.data_types import LineBreak

            code = {LineBreak.END_OF_LINE: (EOL,), LineBreak.END_OF_BLOCK: (EOB,), LineBreak.NONE: ()}
            source = [(w.string, code[w.line_break]) for s in segments for w in s.word_list]
        sentences, dropped = sentences_by_punctuation(source)
        sentence_source = "punctuation"
        stream = [list(source)]
    problem = ""
    if segments is None and suber_available():
        short = [k + 1 for k, (w, s, e) in enumerate(cues) if timed and w and e - s < 2e-8]
        if short:
            # suber interpolates word times inside each cue and fails on a cue without duration.
            problem = f"SubER cannot place the words of a cue without duration (cue {short[0]} of {path or 'the file'})"
        else:
            segments = (
                _suber_from_cues(cues)
                if timed
                else _suber_from_sentences(sentences if sentence_source == "lines" else [c for c, _, _ in cues])
            )
            segment_source = "built from the document"
    name = doc.name or Path(path).name
    side = SubtitleSide(
        name, sentences, sentence_source, segments, segment_source, blocks, timed, path, fmt, dropped, stream
    )
    side.segments_problem = problem
    return side


# --------------------------------------------------------------------------------------------
# Projection
# --------------------------------------------------------------------------------------------
def _normalise(word: str) -> str:
    low = word.lower()
    stripped = "".join(ch for ch in low if not unicodedata.category(ch).startswith("P"))
    return stripped or low


def _project(ref: Sentence, hyp: Sentence) -> tuple[Sentence, dict[str, int]]:
    """The reference's words with the hypothesis's breaks (see the module docstring)."""
    counts = {"matched": 0, "substituted": 0, "reference_only": 0, "hypothesis_only": 0}
    if not ref:
        counts["hypothesis_only"] = len(hyp)
        return [], counts
    ra = [_normalise(w) for w, _ in ref]
    hb = [_normalise(w) for w, _ in hyp]
    cols = [(k, k) for k in range(len(ra))] if ra == hb else align_streams(ra, hb)
    target = [0] * len(hyp)
    last = -1
    for i, j in cols:
        if i >= 0:
            last = i
        if i >= 0 and j >= 0:
            counts["matched" if ra[i] == hb[j] else "substituted"] += 1
        elif i >= 0:
            counts["reference_only"] += 1
        else:
            counts["hypothesis_only"] += 1
        if j >= 0:
            target[j] = max(last, 0)
    out: list[list[int]] = [[] for _ in ref]
    for j, (_, tags) in enumerate(hyp):
        where = len(ref) - 1 if j == len(hyp) - 1 else target[j]
        out[where].extend(tags)
    return [(w, tuple(t)) for (w, _), t in zip(ref, out, strict=True)], counts


def project_sentences(ref: Sequence[Sentence], hyp: Sequence[Sentence]) -> tuple[list[Sentence], dict[str, Any]]:
    """The hypothesis's breaks on the reference's words, sentence by sentence when the counts match."""
    total = {"matched": 0, "substituted": 0, "reference_only": 0, "hypothesis_only": 0}
    if len(ref) == len(hyp):
        out = []
        for r, h in zip(ref, hyp, strict=True):
            p, c = _project(r, h)
            out.append(p)
            for k in total:
                total[k] += c[k]
        unit = "sentence" if len(ref) > 1 else "text"
    else:
        flat_r = [x for s in ref for x in s]
        p, total = _project(flat_r, [x for s in hyp for x in s])
        out, at = [], 0
        for s in ref:
            out.append(p[at : at + len(s)])
            at += len(s)
        unit = "text"
    return out, {**total, "unit": unit}


# --------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------
def _words(sents: Sequence[Sentence]) -> list[str]:
    return [w for s in sents for w, _ in s]


def pair_data(ref: SubtitleSide, hyp: SubtitleSide) -> PairData:
    identical = _words(ref.stream) == _words(hyp.stream)
    if identical:
        return PairData(ref, hyp, True, {"identical": True, "projected": False}, list(hyp.stream))
    projected, info = project_sentences(ref.stream, hyp.stream)
    info.update(identical=False, projected=True)
    return PairData(ref, hyp, False, info, projected)


def _resolve(metrics: Sequence[str] | str) -> list[str]:
    names = metrics.split(",") if isinstance(metrics, str) else list(metrics)
    out: list[str] = []
    for raw in names:
        name = raw.strip()
        if not name:
            continue
        low = name.lower()
        if low in GROUPS:
            out.extend(GROUPS[low])
        elif low in SUBTITLE_METRICS:
            out.append(low)
        else:
            raise UsageError(f"unknown subtitle metric {raw!r}; known: {', '.join(SUBTITLE_METRICS)} (or 'subtitles')")
    return list(dict.fromkeys(out))


def score(
    data: Sequence[PairData],
    metrics: Sequence[str] | str = SUBTITLE_METRICS,
    options: Any = None,
    *,
    cache: TerCache | None = None,
    bleus: SacrebleuStats | None = None,
) -> dict[str, dict[str, Any]]:
    """Scores of the requested metrics over one or several pairs (pooled from summed statistics).

    ``cache`` (TER) and ``bleus`` (SubER's BLEU and chrF) keep each segment pair's statistics: given
    the same ones, several scorings compute each pair once (fresh ones when None)."""
    opts = SubtitleOptions.from_mapping(options)
    names = _resolve(metrics)
    measures = [MEASURES[n] for n in names if n in MEASURES]
    extra = {n: BOTH_TYPES[n] for n in names if n in BOTH_TYPES}
    if cache is None:
        with TerCache(opts.jobs) as own:
            out = score_texts(data, measures, opts, own, extra, bleus)
    else:
        out = score_texts(data, measures, opts, cache, extra, bleus)
    order = [k for n in names for k in ((n, SUBER_INFO) if n == SUBER.name else (n,))]
    return {k: out[k] for k in order if k in out}


def _text(data: Sequence[PairData]) -> dict[str, Any]:
    info: dict[str, Any] = {
        "identical": all(d.identical for d in data),
        "projected": any(not d.identical for d in data),
        "reference_sentences": sum(len(d.reference.sentences) for d in data),
        "hypothesis_sentences": sum(len(d.hypothesis.sentences) for d in data),
        "reference_words": sum(len(_words(d.reference.stream)) for d in data),
        "hypothesis_words": sum(len(_words(d.hypothesis.stream)) for d in data),
        "sentences_from": sorted(
            {d.reference.sentence_source for d in data} | {d.hypothesis.sentence_source for d in data}
        ),
    }
    if len(data) == 1 and not data[0].identical:
        info["projection"] = data[0].projection
    dropped = sum(d.reference.words_dropped + d.hypothesis.words_dropped for d in data)
    if dropped:
        info["words_after_last_sentence_end"] = dropped
    return info


def evaluate_pair(
    reference: Document, hypothesis: Document, metrics: Sequence[str] | str = SUBTITLE_METRICS, options: Any = None
) -> dict[str, Any]:
    """Scores of one (reference, hypothesis) pair: ``{"reference", "hypothesis", "text", "metrics"}``."""
    opts = SubtitleOptions.from_mapping(options)
    d = pair_data(subtitle_side(reference, opts), subtitle_side(hypothesis, opts))
    return {
        "reference": d.reference.name,
        "hypothesis": d.hypothesis.name,
        "text": _text([d]),
        "metrics": score([d], metrics, opts),
    }


def evaluate_corpus(
    pairs: Sequence[tuple[Document, Document]],
    metrics: Sequence[str] | str = SUBTITLE_METRICS,
    options: Any = None,
    *,
    per_file: bool = True,
) -> dict[str, Any]:
    """Per-file and pooled scores: ``{"files": [...], "pooled": {"n_files", "text", "metrics"}}``
    (``files`` empty with ``per_file=False``).

    The files and the pooled score share one TER cache and one set of sacrebleu statistics: a
    segment pair the pooled score shares with a file (every pair but those a re-segmentation
    changed) is computed once, with the same numbers."""
    if not pairs:
        raise UsageError("no file pairs to evaluate")
    opts = SubtitleOptions.from_mapping(options)
    data = [pair_data(subtitle_side(r, opts), subtitle_side(h, opts)) for r, h in pairs]
    bleus = SacrebleuStats()
    with TerCache(opts.jobs) as cache:
        files = [
            {
                "reference": d.reference.name,
                "hypothesis": d.hypothesis.name,
                "text": _text([d]),
                "metrics": score([d], metrics, opts, cache=cache, bleus=bleus),
            }
            for d in (data if per_file else [])
        ]
        pooled = score(data, metrics, opts, cache=cache, bleus=bleus)
    return {"files": files, "pooled": {"n_files": len(data), "text": _text(data), "metrics": pooled}}


def evaluate_paths(
    references: Sequence[str | Path],
    hypotheses: Sequence[str | Path],
    metrics: Sequence[str] | str = SUBTITLE_METRICS,
    options: Any = None,
    *,
    fmt: str | None = None,
    read_options: Mapping[str, Any] | None = None,
    per_file: bool = True,
) -> dict[str, Any]:
    """:func:`evaluate_corpus` on files read with :func:`segagree.formats.read_document` (``fmt`` and
    ``read_options`` as every reader of a run takes them)."""
    from segagree.formats import read_document

    if len(references) != len(hypotheses):
        raise UsageError(f"{len(references)} reference files but {len(hypotheses)} hypothesis files")
    kw = dict(read_options or {})
    pairs = [
        (read_document(r, fmt, **kw), read_document(h, fmt, **kw)) for r, h in zip(references, hypotheses, strict=True)
    ]
    return evaluate_corpus(pairs, metrics, options, per_file=per_file)


# --------------------------------------------------------------------------------------------
# Runners for segagree compare --metric
# --------------------------------------------------------------------------------------------
def compare_subtitles(
    reference: Document, hypothesis: Document, names: Sequence[str], options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The subtitle metrics among ``names`` for ``compare``: metric -> result (``text`` beside)."""
    wanted = [n for n in names if n in SUBTITLE_METRICS]
    if not wanted:
        return {}
    res = evaluate_pair(reference, hypothesis, wanted, options)
    out = dict(res["metrics"])
    for m, r in out.items():
        if m not in (SUBER.name, SUBER_INFO):
            r.setdefault("per_speaker", {})
            r["text"] = res["text"]
    return out


def measure_item(pair: Any, options: Mapping[str, Any] | None = None) -> PairData | NotApplicable:
    """The ``subtitles`` input of the contract's runner: the PairData of an AnnotationPair's two
    Documents (``pair.a`` the reference), or why it is not a subtitle comparison."""
    opts = dict(options or {})
    opts.setdefault("layer", getattr(pair, "layer", None))
    if not (is_subtitle_document(pair.a, opts.get("layer")) and is_subtitle_document(pair.b, opts.get("layer"))):
        return NotApplicable("not a subtitle comparison: the layer has no <eob> boundary type")
    sub = SubtitleOptions.from_mapping(opts)
    return pair_data(subtitle_side(pair.a, sub), subtitle_side(pair.b, sub))


def _make_runner(name: str) -> Any:
    def run(pair: Any, options: Mapping[str, Any]) -> dict[str, Any]:
        """Runner on an AnnotationPair: ``pair.a`` is the reference, ``pair.b`` the hypothesis."""
        opts = dict(options or {})
        opts.setdefault("layer", getattr(pair, "layer", None))
        if not is_subtitle_document(pair.a, opts.get("layer")):
            return {
                "value": None,
                "applicable": False,
                "reason": "not a subtitle comparison: the layer has no <eob> boundary type",
                "per_speaker": {},
                "params": {},
            }
        return compare_subtitles(pair.a, pair.b, [name], opts)[name]

    run.__name__ = f"run_{name}"
    return run


def register(runners: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """Add runners for the subtitle metrics that have no generic runner of the same name.

    ``s`` and ``b`` are the generic boundary metrics' names; ``compare`` routes them (with every
    other subtitle metric) to :func:`compare_subtitles` when the compared layer is a subtitle layer.
    Returns the metric groups (``{"subtitles": (...)}``).
    """
    for name in SUBTITLE_METRICS:
        if name not in runners:
            runners[name] = _make_runner(name)
    return dict(GROUPS)


def split_suber(metrics: Mapping[str, Any]) -> tuple[dict[str, Any] | None, dict[str, Any], dict[str, Any]]:
    """(SubER's values or None, SubER's information, the other metrics) of a result's metrics."""
    rest = dict(metrics)
    values = rest.pop(SUBER.name, None)
    info = rest.pop(SUBER_INFO, None) or {}
    return values, info, rest


def subtitle_values(metrics: Mapping[str, Any]) -> dict[str, Any]:
    """metric -> value of subtitle results, SubER's metrics flattened as ``suber:NAME`` (for tables)."""
    out: dict[str, Any] = {}
    for name, res in metrics.items():
        if name == SUBER.name:
            out.update({f"suber:{k}": v for k, v in res.items()})
        elif name in SUBTITLE_METRICS and isinstance(res, Mapping):
            out[name] = res.get("value")
    return out


def pooled_over_texts(
    results: Sequence[Mapping[str, Any]],
    options: Any = None,
    *,
    fmt: str | None = None,
    read_options: Mapping[str, Any] | None = None,
    names: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """Subtitle metrics (``names``, default all) pooled over the texts of each annotator pair of a run
    (two texts or more), the files read as the run read them (``fmt``, ``read_options``).

    Each entry: ``{"annotator_a", "annotator_b", "texts", "metrics"}`` from :func:`evaluate_paths`
    on the pair's files, so SubER pools as its multi-file mode does; a result's ``suber_parts``
    (:func:`~segagree.metrics.subtitles.suber_kernel.take_scored_parts`) spare recomputing them.
    """
    from segagree.metrics.subtitles.suber_kernel import remember_parts

    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for r in results:
        if r.get("ok") and r.get("subtitles") is not None:
            groups.setdefault((r["annotator_a"], r["annotator_b"]), []).append(r)
    out = []
    for (ann_a, ann_b), rs in groups.items():
        if len(rs) < 2:
            continue
        files_a, files_b = [r["file_a"] for r in rs], [r["file_b"] for r in rs]
        # The workers scored each file already: only the pooled score is computed here, SubER's
        # parts the files' scores met unchanged taken from them.
        for r in rs:
            remember_parts(r.get("suber_parts"))
        wanted = [m for m in SUBTITLE_METRICS if names is None or m in names]
        res = evaluate_paths(files_a, files_b, wanted, options, fmt=fmt, read_options=read_options, per_file=False)
        out.append(
            {
                "annotator_a": ann_a,
                "annotator_b": ann_b,
                "texts": [r["text"] for r in rs],
                "metrics": res["pooled"]["metrics"],
                "values": subtitle_values(res["pooled"]["metrics"]),
            }
        )
    return out
