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
* *blocks* for reading speed and lines per block: the ``<eob>`` blocks of the subtitle layer.

**Projection** (Karakanta et al. 2022, section 4: the hypothesis's breaks carried onto the
reference text by a minimum-edit alignment of the words; the paper used mwerSegmenter per
sentence, we use segagree's own alignment, :func:`segagree.pipeline.align.align_streams`, on
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
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from segagree.errors import SegagreeError, UsageError
from segagree.metrics.stats import pooled
from segagree.metrics.subtitles import (
    EOB,
    EOL,
    SUBER_METRICS,
    TYPES,
    Block,
    NotApplicable,
    Sentence,
    TerCache,
    cpl_conformity,
    lines_per_block,
    reading_speed,
    sigma_scores,
    standard_scores,
    suber_available,
    suber_scores,
    suber_version,
    ter_br_pairs,
    ter_br_scores,
)
from segagree.pipeline.align import align_streams
from segagree.schemas import Document

E2E_METRICS: tuple[str, ...] = ("sigma", "bleu_br", "bleu_nb", "ter_br", "cpl_conformity")
STANDARD_METRICS: tuple[str, ...] = (
    *(f"{m}_{t}" for t in TYPES for m in ("f1", "pk", "windowdiff", "s", "b")),
    "s",
    "b",
)
SUBTITLE_METRICS: tuple[str, ...] = (
    "suber_metrics",
    *E2E_METRICS,
    *STANDARD_METRICS,
    "reading_speed",
    "lines_per_block",
)
GROUPS: dict[str, tuple[str, ...]] = {"subtitles": SUBTITLE_METRICS}

_ES = "EvalSubtitle (Karakanta, Buet, Cettolo & Yvon 2022, LREC)"
LIBRARY: dict[str, str] = {
    "suber_metrics": "suber (subtitle-edit-rate) functions; *TER-br through sacrebleu's translation_edit_rate",
    **{m: f"sacrebleu; {_ES}'s definition" for m in ("sigma", "bleu_br", "bleu_nb", "ter_br")},
    "cpl_conformity": f"segagree; {_ES}'s definition",
    **{m: f"segagree (segeval-equal); {_ES}'s masses" for m in STANDARD_METRICS},
    "reading_speed": "segagree",
    "lines_per_block": "segagree",
}

__all__ = [
    "E2E_METRICS",
    "GROUPS",
    "LIBRARY",
    "STANDARD_METRICS",
    "SUBTITLE_METRICS",
    "SubtitleOptions",
    "SubtitleSide",
    "evaluate_corpus",
    "evaluate_pair",
    "evaluate_paths",
    "is_subtitle_document",
    "project_sentences",
    "register",
    "subtitle_side",
]


# --------------------------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SubtitleOptions:
    """Parameters of the subtitle metrics (defaults: the reference tools' defaults).

    Attributes:
        layer: the layer holding ``<eob>``/``<eol>`` (default ``subtitle``).
        language: ``zh``, ``ja`` or ``ko`` for SubER's CJK tokenisation (its ``-l``).
        suber: SubER metric names to compute (default: all its command line accepts).
        max_cpl: characters per line for CPL conformity (42).
        max_cps: characters per second for reading-speed conformity (21).
        max_lines: lines per block for lines-per-block conformity (2).
        n_t: segeval's transposition span for S and B (2).
        window: Pk/WindowDiff window (default: segeval's from the reference, per type).
        use_source_files: let suber read the source files (exact SubER parity).
        jobs: processes for the masked-TER computations.
    """

    layer: str | None = None
    language: str | None = None
    suber: tuple[str, ...] = SUBER_METRICS
    max_cpl: int = 42
    max_cps: float = 21.0
    max_lines: int = 2
    n_t: int = 2
    window: int | None = None
    use_source_files: bool = True
    jobs: int = 1

    def __post_init__(self) -> None:
        if self.language not in (None, "zh", "ja", "ko"):
            raise UsageError(f"language must be zh, ja or ko (SubER's -l), not {self.language!r}")
        bad = [m for m in self.suber if m not in SUBER_METRICS]
        if bad:
            raise UsageError(f"unknown SubER metric(s) {bad}; known: {', '.join(SUBER_METRICS)}")
        for name in ("max_cpl", "max_lines", "n_t", "jobs"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise UsageError(f"{name} must be a positive integer, not {v!r}")
        if self.window is not None and (not isinstance(self.window, int) or self.window < 1):
            raise UsageError(f"window must be a positive integer, not {self.window!r}")

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any] | SubtitleOptions | None) -> SubtitleOptions:
        """Options from a mapping; keys that are not subtitle options are ignored."""
        if isinstance(options, SubtitleOptions):
            return options
        names = {f.name for f in fields(cls)}
        given = {k: v for k, v in (options or {}).items() if k in names and v is not None}
        if isinstance(given.get("suber"), str):
            given["suber"] = tuple(x.strip() for x in given["suber"].split(",") if x.strip())
        elif "suber" in given:
            given["suber"] = tuple(given["suber"])
        for name in ("max_cpl", "max_lines", "n_t", "jobs", "window"):
            if name in given and isinstance(given[name], str):
                try:
                    given[name] = int(given[name])
                except ValueError:
                    raise UsageError(f"{name} must be an integer, not {given[name]!r}") from None
        if "max_cps" in given:
            given["max_cps"] = float(given["max_cps"])
        if isinstance(given.get("use_source_files"), str):
            given["use_source_files"] = given["use_source_files"].lower() in ("1", "true", "yes", "on")
        return cls(**given)


# --------------------------------------------------------------------------------------------
# Views of one side
# --------------------------------------------------------------------------------------------
@dataclass
class SubtitleSide:
    """One side's views (see the module docstring)."""

    name: str
    sentences: list[Sentence]
    sentence_source: str
    segments: list[Any] | None
    segment_source: str
    blocks: list[Block]
    timed: bool
    source_path: str = ""
    source_format: str = ""
    words_dropped: int = 0
    # The whole text for the masses, CPL and projection: the sentences, or (SRT) all words as one.
    stream: list[Sentence] = field(default_factory=list)


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


def _codes_and_tags(doc: Document, layer: str) -> tuple[list[str], list[tuple[int, ...]]]:
    lay = doc.layer(layer)
    eob, eol = lay.scheme.find_code("<eob>"), lay.scheme.find_code("<eol>")
    if not eob:
        raise SegagreeError(
            f"layer {lay.name!r} (scheme {lay.scheme.name!r}) has no <eob> boundary type; subtitle metrics "
            "need a subtitle layer (an .srt or tagged-text file, or a layer with the 'subtitle' scheme)",
            path=doc.source_path or None,
        )
    words = doc.tokens["text"].astype(str).tolist()
    extra = doc.tokens["tags"].fillna("").astype(str).tolist() if "tags" in doc.tokens else [""] * len(words)
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
    starts = doc.tokens["start"].to_numpy(float)
    ends = doc.tokens["end"].to_numpy(float)
    # Cues (blocks): cut after every <eob>.
    cues: list[tuple[Sentence, float, float]] = []
    begin = 0
    for i, (_, t) in enumerate(flat):
        if (t and t[-1] == EOB) or i == len(flat) - 1:
            cues.append((flat[begin : i + 1], float(starts[begin]), float(ends[i])))
            begin = i + 1
    timed = bool(cues) and all(not (np.isnan(s) or np.isnan(e)) for _, s, e in cues)
    blocks = []
    for words_, s, e in cues:
        lines, cur = [], []
        for w, t in words_:
            cur.append(w)
            if t:
                lines.append(" ".join(cur))
                cur = []
        if cur:
            lines.append(" ".join(cur))
        blocks.append(Block(tuple(lines), s, e))

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
    if segments is None and suber_available():
        segments = (
            _suber_from_cues(cues)
            if timed
            else _suber_from_sentences(sentences if sentence_source == "lines" else [c for c, _, _ in cues])
        )
        segment_source = "built from the document"
    name = doc.name or Path(path).name
    return SubtitleSide(
        name, sentences, sentence_source, segments, segment_source, blocks, timed, path, fmt, dropped, stream
    )


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
        out, k = [], 0
        for s in ref:
            out.append(p[k : k + len(s)])
            k += len(s)
        unit = "text"
    return out, {**total, "unit": unit}


# --------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------
@dataclass
class PairData:
    """What one (reference, hypothesis) pair contributes to per-file and pooled scores."""

    reference: SubtitleSide
    hypothesis: SubtitleSide
    identical: bool
    projection: dict[str, Any] = field(default_factory=dict)
    hyp_on_ref: list[Sentence] = field(default_factory=list)


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


def _shift(segments: list[Any], seconds: float) -> list[Any]:
    """Copies of suber Subtitles moved by ``seconds`` (suber's multi-file concatenation)."""
    import copy

    out = copy.deepcopy(segments)
    for s in out:
        s.start_time += seconds
        s.end_time += seconds
        for w in s.word_list:
            if w.approximate_word_time is not None:
                w.approximate_word_time += seconds
            w.subtitle_start_time = s.start_time
            w.subtitle_end_time = s.end_time
    return out


def _suber_block(
    data: Sequence[PairData], opts: SubtitleOptions, cache: TerCache, extra_masked: Sequence[Any] = ()
) -> dict[str, Any]:
    if not suber_available():
        reason = "the suber package is not installed (pip install 'segagree[suber]')"
        return {"values": {}, "not_applicable": dict.fromkeys(opts.suber, reason)}
    from suber.data_types import Subtitle

    hyp_all: list[Any] = []
    ref_all: list[Any] = []
    shift = 0.0
    for d in data:
        h, r = d.hypothesis.segments or [], d.reference.segments or []
        if len(data) > 1:
            # suber's create_concatenated_segments: each file placed after the previous one in time.
            hd = hr = 0.0
            if h and isinstance(h[0], Subtitle):
                h = _shift(h, shift)
                hd = h[-1].end_time + 1e-8
            if r and isinstance(r[0], Subtitle):
                r = _shift(r, shift)
                hr = r[-1].end_time + 1e-8
            shift = max(hd, hr)
        hyp_all += h
        ref_all += r
    values, skipped = suber_scores(
        hyp_all, ref_all, opts.suber, language=opts.language, cache=cache, extra_masked=extra_masked
    )
    return {
        "values": values,
        "not_applicable": skipped,
        "segments": {"hypothesis": len(hyp_all), "reference": len(ref_all)},
        "sources": sorted({d.reference.segment_source for d in data} | {d.hypothesis.segment_source for d in data}),
        "language": opts.language,
        "signature": f"suber {suber_version()}" + (f"|l:{opts.language}" if opts.language else ""),
    }


def _clean(res: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in res.items() if not k.startswith("_")}


def score(
    data: Sequence[PairData], metrics: Sequence[str] | str = SUBTITLE_METRICS, options: Any = None
) -> dict[str, dict[str, Any]]:
    """Scores of the requested metrics over one or several pairs (pooled from summed statistics)."""
    opts = SubtitleOptions.from_mapping(options)
    names = _resolve(metrics)
    with TerCache(opts.jobs) as cache:
        return _score(data, names, opts, cache)


def _score(data: Sequence[PairData], names: list[str], opts: SubtitleOptions, cache: TerCache) -> dict[str, Any]:
    out: dict[str, dict[str, Any]] = {}
    refs = [s for d in data for s in d.reference.sentences]
    hyps = [s for d in data for s in d.hypothesis.sentences]
    if not any(s for d in data for s in (*d.reference.stream, *d.hypothesis.stream)):
        # Two files without words (valid subtitle files): nothing to score, and sacrebleu fails on zero segments.
        reason = NotApplicable("neither file has a subtitle with words").to_dict()
        for m in names:
            out[m] = {} if m == "suber_metrics" else dict(reason)
        if "suber_metrics" in names:
            out["suber_metrics_info"] = {"not_applicable": {"*": reason["reason"]}}
        return out
    evalsub_masked = ter_br_pairs(refs, hyps) if "ter_br" in names and len(refs) == len(hyps) else []
    if "suber_metrics" in names:
        block = _suber_block(data, opts, cache, evalsub_masked)
        out["suber_metrics"] = dict(block["values"])
        out["suber_metrics_info"] = {k: v for k, v in block.items() if k != "values"}
    else:
        cache.prefetch(evalsub_masked)
    if any(m in names for m in ("sigma", "bleu_br", "bleu_nb")):
        sig = sigma_scores(refs, hyps)
        for m in ("sigma", "bleu_br", "bleu_nb"):
            if m in names:
                out[m] = sig[m]
    if "ter_br" in names:
        out["ter_br"] = ter_br_scores(refs, hyps, cache=cache)
    if "cpl_conformity" in names:
        out["cpl_conformity"] = cpl_conformity([s for d in data for s in d.hypothesis.stream], opts.max_cpl)
    std = [m for m in names if m in STANDARD_METRICS]
    if std:
        per = [standard_scores(d.reference.stream, d.hyp_on_ref, n_t=opts.n_t, window=opts.window) for d in data]
        projected = any(not d.identical for d in data)
        for m in std:
            parts = [p[m] for p in per]
            if len(parts) == 1 or any(p.get("value") is None for p in parts):
                res = _clean(parts[0]) if len(parts) == 1 else NotApplicable("not applicable for some file").to_dict()
            elif m.startswith("f1_"):
                tp = sum(p["tp"] for p in parts)
                nh = sum(p["n_hypothesis"] for p in parts)
                nr = sum(p["n_reference"] for p in parts)
                pr, rc = (tp / nh if nh else 0.0), (tp / nr if nr else 0.0)
                res = {"value": 2 * pr * rc / (pr + rc) if pr + rc else 0.0, "precision": pr, "recall": rc, "tp": tp}
                res.update(n_hypothesis=nh, n_reference=nr)
            else:
                res = {"value": float(pooled(p["_stats"] for p in parts).value), "pooled_files": len(parts)}
            res["projected"] = projected
            out[m] = res
    blocks = [b for d in data for b in d.hypothesis.blocks]
    if "reading_speed" in names:
        out["reading_speed"] = reading_speed(blocks, opts.max_cps)
    if "lines_per_block" in names:
        out["lines_per_block"] = lines_per_block(blocks, opts.max_lines)
    for m, res in out.items():
        if m in ("suber_metrics", "suber_metrics_info"):
            continue
        res.setdefault("params", _params(m, res, opts))
        res.setdefault("applicable", res.get("value") is not None)
        res.setdefault("library", LIBRARY.get(m, ""))
    return out


def _params(metric: str, res: Mapping[str, Any], opts: SubtitleOptions) -> dict[str, Any]:
    """The parameters a metric's value depends on (shown beside it)."""
    if metric == "cpl_conformity":
        return {"max_cpl": opts.max_cpl}
    if metric == "reading_speed":
        return {"max_cps": opts.max_cps}
    if metric == "lines_per_block":
        return {"max_lines": opts.max_lines}
    if metric.startswith(("pk_", "windowdiff_")):
        return {"window": res.get("window_size", opts.window or "segeval")}
    if metric in ("s", "b") or metric.startswith(("s_", "b_")):
        return {"n_t": opts.n_t}
    if metric.startswith("f1_"):
        return {"end_of_text": "counted"}
    return {}


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
    pairs: Sequence[tuple[Document, Document]], metrics: Sequence[str] | str = SUBTITLE_METRICS, options: Any = None
) -> dict[str, Any]:
    """Per-file and pooled scores: ``{"files": [...], "pooled": {"n_files", "text", "metrics"}}``."""
    if not pairs:
        raise UsageError("no file pairs to evaluate")
    opts = SubtitleOptions.from_mapping(options)
    data = [pair_data(subtitle_side(r, opts), subtitle_side(h, opts)) for r, h in pairs]
    files = [
        {
            "reference": d.reference.name,
            "hypothesis": d.hypothesis.name,
            "text": _text([d]),
            "metrics": score([d], metrics, opts),
        }
        for d in data
    ]
    return {
        "files": files,
        "pooled": {"n_files": len(data), "text": _text(data), "metrics": score(data, metrics, opts)},
    }


def evaluate_paths(
    references: Sequence[str | Path],
    hypotheses: Sequence[str | Path],
    metrics: Sequence[str] | str = SUBTITLE_METRICS,
    options: Any = None,
    *,
    fmt: str | None = None,
) -> dict[str, Any]:
    """:func:`evaluate_corpus` on files read with :func:`segagree.adapters.read_document`."""
    from segagree.adapters import read_document

    if len(references) != len(hypotheses):
        raise UsageError(f"{len(references)} reference files but {len(hypotheses)} hypothesis files")
    pairs = [(read_document(r, fmt), read_document(h, fmt)) for r, h in zip(references, hypotheses, strict=True)]
    return evaluate_corpus(pairs, metrics, options)


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
        if m not in ("suber_metrics", "suber_metrics_info"):
            r.setdefault("per_speaker", {})
            r["text"] = res["text"]
    return out


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


def subtitle_values(metrics: Mapping[str, Any]) -> dict[str, Any]:
    """metric -> value of subtitle results, SubER's metrics flattened as ``suber:NAME`` (for tables)."""
    out: dict[str, Any] = {}
    for name, res in metrics.items():
        if name == "suber_metrics":
            out.update({f"suber:{k}": v for k, v in res.items()})
        elif name in SUBTITLE_METRICS and isinstance(res, Mapping):
            out[name] = res.get("value")
    return out


def pooled_over_texts(results: Sequence[Mapping[str, Any]], options: Any = None) -> list[dict[str, Any]]:
    """Subtitle metrics pooled over the texts of each annotator pair of a run (two texts or more).

    Each entry: ``{"annotator_a", "annotator_b", "texts", "metrics"}`` from :func:`evaluate_paths`
    on the pair's files, so SubER pools as its multi-file mode does.
    """
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for r in results:
        if r.get("ok") and r.get("subtitles") is not None:
            groups.setdefault((r["annotator_a"], r["annotator_b"]), []).append(r)
    out = []
    for (ann_a, ann_b), rs in groups.items():
        if len(rs) < 2:
            continue
        res = evaluate_paths([r["file_a"] for r in rs], [r["file_b"] for r in rs], SUBTITLE_METRICS, options)
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
