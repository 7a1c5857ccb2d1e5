"""Subtitle evaluation of Documents: cues from a ``subtitle`` layer, projection of the
hypothesis's breaks for imperfect text, per-file and pooled scores, and the runners of
``segagree compare --metric``.

The reference is always the first Document (``pair.a``), the hypothesis the second
(``pair.b``). Both are read in token-table (discourse) order regardless of speakers: an SRT
file is one stream of cues, and the SRT reader's dialogue speakers only split it by line.
Cues are cut after every ``<eob>``; a cue's span is its first token's ``start`` and its last
token's ``end``. The metrics and the library computing each are described in
:mod:`segagree.metrics.subtitles` (table there and in :data:`LIBRARY`).

**Imperfect text.** When the hypothesis's words differ from the reference's, the two token
streams are aligned by :func:`segagree.pipeline.align.align_streams` (on lower-cased tokens
without punctuation unless ``normalise_alignment=False``); each hypothesis break moves to the
reference token aligned with its token, a break after a token only the hypothesis has moves to
the nearest preceding reference token, the hypothesis's final break to the reference's last
token, and where two breaks land on one token ``<eob>`` wins over ``<eol>``. The boundary F1
scores and TER_br's sync points use this projection; the output's ``text`` block gives the
token counts (matched, substituted, only in one side) and which metrics need perfect text.

**Words.** The words are the Document's tokens. segagree's SRT reader splits lines on
whitespace like SubER's reader but removes styling tags of every kind, dialogue dashes and
``NAME:`` speaker labels, which SubER's reader keeps as words (it strips one-letter tags
only); on files with such marks BLEU/TER/SubER can therefore differ from SubER's own output.

**Corpus level.** :func:`evaluate_corpus` scores several (reference, hypothesis) pairs: each
file's scores, and pooled scores from summed statistics: break counts summed; BLEU and TER by
sacrebleu's corpus statistics over the segments of all files; SubER on the files placed one
after the other in time (total edits / total reference tokens). Never averaged scores.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from segagree.errors import SegagreeError, UsageError
from segagree.metrics.subtitles import (
    EOB,
    EOL,
    LIBRARY,
    METRIC_CARDS,
    SUBTITLE_METRICS,
    BreakCounts,
    Cue,
    NotApplicable,
    Segments,
    bleu_score,
    break_counts,
    cues_from_codes,
    suber_score,
    subtitle_segments,
    sync_segments,
    tbhr_from,
    ter_score,
    text_segments,
    time_aligned_segments,
    wer_aligned_segments,
)
from segagree.pipeline.align import align_streams
from segagree.schemas import Document

GROUPS: dict[str, tuple[str, ...]] = {"subtitles": SUBTITLE_METRICS}

# Metrics whose number measures segmentation alone only when both texts are the same words.
NEED_PERFECT_TEXT: dict[str, str] = {
    "f1_eob": "on imperfect text computed on the projection of the hypothesis's breaks onto the reference's tokens",
    "f1_eol": "on imperfect text computed on the projection of the hypothesis's breaks onto the reference's tokens",
    "f1_eox": "on imperfect text computed on the projection of the hypothesis's breaks onto the reference's tokens",
    "bleu_br": "word errors lower it as well as break errors; read it beside bleu_nb",
    "ter_br": "words are masked but inserted or deleted words still count as edits",
}

__all__ = [
    "GROUPS",
    "LIBRARY",
    "METRIC_CARDS",
    "NEED_PERFECT_TEXT",
    "SUBTITLE_METRICS",
    "PairStats",
    "Projection",
    "SubtitleOptions",
    "SubtitleText",
    "evaluate_corpus",
    "evaluate_pair",
    "evaluate_paths",
    "pair_stats",
    "pooled_scores",
    "project_breaks",
    "register",
    "subtitle_text",
]


# --------------------------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SubtitleOptions:
    """Parameters of the subtitle metrics (defaults are the papers' / libraries' defaults).

    Attributes:
        layer: the layer holding ``<eob>``/``<eol>`` (default ``subtitle``, else the document's default).
        include_final: count the end of the text (always ``<eob>``) in boundary P/R/F1.
        normalise_alignment: align imperfect text on lower-cased tokens without punctuation.
        ter_br_unit: ``sync`` (segments cut at common ``<eob>``) or ``subtitle`` (subtitle i against
            subtitle i, SubER's ``TER-br``).
        ter_br_max_words: with ``sync``, cut at the next reference ``<eob>`` after this many words.
        tokenize, lowercase: sacrebleu BLEU's tokenizer and lower-casing.
        ter_case_sensitive: sacrebleu TER's case sensitivity.
        suber_variant: ``SubER`` (lower-cased, punctuation removed) or ``SubER-cased``.
    """

    layer: str | None = None
    include_final: bool = False
    normalise_alignment: bool = True
    ter_br_unit: str = "sync"
    ter_br_max_words: int = 40
    tokenize: str = "13a"
    lowercase: bool = False
    ter_case_sensitive: bool = False
    suber_variant: str = "SubER"

    def __post_init__(self) -> None:
        if self.ter_br_unit not in ("sync", "subtitle"):
            raise UsageError(f"ter_br_unit must be 'sync' or 'subtitle', not {self.ter_br_unit!r}")
        if not isinstance(self.ter_br_max_words, int) or self.ter_br_max_words < 1:
            raise UsageError(f"ter_br_max_words must be a positive integer, not {self.ter_br_max_words!r}")
        if self.suber_variant not in ("SubER", "SubER-cased"):
            raise UsageError(f"suber_variant must be 'SubER' or 'SubER-cased', not {self.suber_variant!r}")
        from sacrebleu.metrics.bleu import BLEU

        if self.tokenize not in BLEU.TOKENIZERS:
            raise UsageError(f"unknown BLEU tokenizer {self.tokenize!r}; known: {sorted(BLEU.TOKENIZERS)}")

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any] | SubtitleOptions | None) -> SubtitleOptions:
        """Options from a mapping; keys that are not subtitle options are ignored."""
        if isinstance(options, SubtitleOptions):
            return options
        names = {f.name for f in fields(cls)}
        given = {k: v for k, v in (options or {}).items() if k in names and v is not None}
        if "ter_br_max_words" in given:
            try:
                given["ter_br_max_words"] = int(given["ter_br_max_words"])
            except (TypeError, ValueError):
                raise UsageError(f"ter_br_max_words must be an integer, not {given['ter_br_max_words']!r}") from None
        for flag in ("include_final", "normalise_alignment", "lowercase", "ter_case_sensitive"):
            if flag in given and isinstance(given[flag], str):
                given[flag] = given[flag].strip().lower() in ("1", "true", "yes", "on")
        return cls(**given)

    def params(self, metric: str) -> dict[str, Any]:
        """The parameters that matter for one metric (for the output)."""
        bleu = {"tokenize": self.tokenize, "lowercase": self.lowercase}
        table: dict[str, dict[str, Any]] = {
            "f1_eob": {"include_final": self.include_final, "normalise_alignment": self.normalise_alignment},
            "bleu_br": bleu,
            "bleu_nb": bleu,
            "ter_br": {
                "unit": self.ter_br_unit,
                "max_words": self.ter_br_max_words,
                "case_sensitive": self.ter_case_sensitive,
            },
            "s_bleu": bleu,
            "t_bleu": bleu,
            "tbhr": bleu,
            "suber": {"variant": self.suber_variant},
        }
        table["f1_eol"] = table["f1_eox"] = table["f1_eob"]
        return dict(table.get(metric, {}))


# --------------------------------------------------------------------------------------------
# Documents -> token streams and cues
# --------------------------------------------------------------------------------------------
@dataclass
class SubtitleText:
    """One side: its words and break codes (``EOB``/``EOL``) in discourse order, and its cues."""

    name: str
    words: list[str]
    codes: np.ndarray
    cues: list[Cue]


def _subtitle_layer_name(doc: Document, layer: str | None) -> str:
    if layer is not None:
        return doc.layer(layer).name
    return "subtitle" if "subtitle" in doc.layers else doc.layer(None).name


def subtitle_text(doc: Document, layer: str | None = None) -> SubtitleText:
    """The words, breaks and cues of a Document's subtitle layer.

    Raises:
        SegagreeError: the layer's scheme has no ``<eob>`` type.
    """
    lay = doc.layer(_subtitle_layer_name(doc, layer))
    eob = lay.scheme.find_code("<eob>")
    eol = lay.scheme.find_code("<eol>")
    if not eob:
        raise SegagreeError(
            f"layer {lay.name!r} (scheme {lay.scheme.name!r}) has no <eob> boundary type; subtitle metrics "
            "need a subtitle layer (read an .srt file, or a layer with the 'subtitle' scheme)",
            path=doc.source_path or None,
        )
    table = np.zeros(lay.scheme.n_codes, dtype=np.int64)
    table[eob] = EOB
    if eol:
        table[eol] = EOL
    codes = table[np.asarray(lay.boundaries, dtype=np.int64)]
    words = doc.tokens["text"].astype(str).tolist()
    cues = cues_from_codes(words, codes, doc.tokens["start"].to_numpy(float), doc.tokens["end"].to_numpy(float))
    words, codes = [w for c in cues for w in c.words], np.asarray([b for c in cues for b in c.breaks], np.int64)
    return SubtitleText(doc.name or Path(doc.source_path).stem, words, codes, cues)


# --------------------------------------------------------------------------------------------
# Projection for imperfect text
# --------------------------------------------------------------------------------------------
@dataclass
class Projection:
    """The hypothesis's breaks on the reference's tokens, and how the two texts matched.

    Attributes:
        codes: break code per reference token (the hypothesis's breaks, projected).
        targets: per hypothesis token, the reference token its break lands on (non-decreasing).
        matched, substituted, reference_only, hypothesis_only: alignment column counts.
    """

    codes: np.ndarray
    targets: np.ndarray
    n_reference: int
    n_hypothesis: int
    matched: int
    substituted: int
    reference_only: int
    hypothesis_only: int

    @property
    def identical(self) -> bool:
        return self.matched == self.n_reference == self.n_hypothesis

    def to_dict(self) -> dict[str, Any]:
        return {
            "identical": self.identical,
            "n_reference_tokens": self.n_reference,
            "n_hypothesis_tokens": self.n_hypothesis,
            "matched": self.matched,
            "substituted": self.substituted,
            "reference_only": self.reference_only,
            "hypothesis_only": self.hypothesis_only,
            "projected": not self.identical,
        }


def _normalise(word: str) -> str:
    low = word.lower()
    stripped = "".join(ch for ch in low if not unicodedata.category(ch).startswith("P"))
    return stripped or low


def project_breaks(
    ref_words: Sequence[str],
    hyp_words: Sequence[str],
    hyp_codes: Sequence[int] | np.ndarray,
    *,
    normalise: bool = True,
) -> Projection:
    """Project the hypothesis's breaks onto the reference's tokens (see the module docstring)."""
    hc = np.asarray(hyp_codes, dtype=np.int64).reshape(-1)
    n, m = len(ref_words), len(hyp_words)
    if hc.size != m:
        raise ValueError(f"{hc.size} break codes for {m} hypothesis words")
    ra = [_normalise(w) for w in ref_words] if normalise else list(ref_words)
    hb = [_normalise(w) for w in hyp_words] if normalise else list(hyp_words)
    if ra == hb:
        cols = [(k, k) for k in range(n)]
    else:
        cols = align_streams(ra, hb)
    targets = np.zeros(m, dtype=np.int64)
    matched = substituted = ref_only = hyp_only = 0
    last = -1
    for i, j in cols:
        if i >= 0:
            last = i
        if i >= 0 and j >= 0:
            if ra[i] == hb[j]:
                matched += 1
            else:
                substituted += 1
        elif i >= 0:
            ref_only += 1
        else:
            hyp_only += 1
        if j >= 0:
            targets[j] = max(last, 0)
    if m and n:
        targets[-1] = n - 1
    codes = np.zeros(n, dtype=np.int64)
    if n:
        for kind in (EOL, EOB):  # <eob> written last: it wins where both land on one token
            codes[targets[hc == kind]] = kind
    return Projection(codes, targets, n, m, matched, substituted, ref_only, hyp_only)


# --------------------------------------------------------------------------------------------
# Per-pair statistics and pooled scores
# --------------------------------------------------------------------------------------------
@dataclass
class PairStats:
    """Additive statistics of one (reference, hypothesis) file pair.

    ``counts`` (break type -> :class:`BreakCounts`), ``segments`` (metric -> :class:`Segments` or
    :class:`NotApplicable`; ``as_bleu`` for TBHR's upper bound), ``cues`` for SubER.
    """

    reference: str
    hypothesis: str
    projection: Projection
    counts: dict[str, BreakCounts]
    segments: dict[str, Segments | NotApplicable]
    cues: tuple[list[Cue], list[Cue]]


def _resolve(metrics: Sequence[str] | str) -> list[str]:
    names = metrics.split(",") if isinstance(metrics, str) else list(metrics)
    out: list[str] = []
    for raw in names:
        name = raw.strip().lower()
        if not name:
            continue
        if name in GROUPS:
            out.extend(GROUPS[name])
        elif name in SUBTITLE_METRICS:
            out.append(name)
        else:
            raise UsageError(f"unknown subtitle metric {raw!r}; known: {', '.join(SUBTITLE_METRICS)} (or 'subtitles')")
    return list(dict.fromkeys(out))


def pair_stats(
    reference: Document,
    hypothesis: Document,
    metrics: Sequence[str] | str = SUBTITLE_METRICS,
    options: Mapping[str, Any] | SubtitleOptions | None = None,
) -> PairStats:
    """The statistics the requested metrics need for one file pair."""
    opts = SubtitleOptions.from_mapping(options)
    names = _resolve(metrics)
    ref = subtitle_text(reference, opts.layer)
    hyp = subtitle_text(hypothesis, opts.layer)
    proj = project_breaks(ref.words, hyp.words, hyp.codes, normalise=opts.normalise_alignment)
    counts = break_counts(ref.codes, proj.codes, include_final=opts.include_final)
    segs: dict[str, Segments | NotApplicable] = {}
    if "bleu_br" in names:
        segs["bleu_br"] = text_segments(ref.cues, hyp.cues, breaks=True)
    if "bleu_nb" in names:
        segs["bleu_nb"] = text_segments(ref.cues, hyp.cues, breaks=False)
    if "ter_br" in names:
        if opts.ter_br_unit == "subtitle":
            segs["ter_br"] = subtitle_segments(ref.cues, hyp.cues, breaks=True, mask=True)
        else:
            segs["ter_br"] = sync_segments(
                ref.words, ref.codes, hyp.words, hyp.codes, proj.targets, max_words=opts.ter_br_max_words
            )
    if "s_bleu" in names:
        segs["s_bleu"] = subtitle_segments(ref.cues, hyp.cues)
    if "t_bleu" in names or "tbhr" in names:
        segs["t_bleu"] = time_aligned_segments(ref.cues, hyp.cues)
    if "tbhr" in names:
        segs["as_bleu"] = wer_aligned_segments(ref.cues, hyp.cues)
    return PairStats(ref.name, hyp.name, proj, counts, segs, (ref.cues, hyp.cues))


def _pool_segments(stats: Sequence[PairStats], key: str) -> Segments | NotApplicable:
    missing = [s for s in stats if isinstance(s.segments.get(key), NotApplicable)]
    if missing:
        first = missing[0].segments[key]
        assert isinstance(first, NotApplicable)
        if len(stats) == 1:
            return first
        files = ", ".join(f"{s.reference} / {s.hypothesis}" for s in missing)
        return NotApplicable(f"not applicable for {len(missing)} of {len(stats)} file pairs ({files}): {first.reason}")
    total = Segments()
    for s in stats:
        seg = s.segments[key]
        assert isinstance(seg, Segments)
        total = total + seg
    return total


def _score(segs: Segments | NotApplicable, scorer: Any, **kw: Any) -> dict[str, Any]:
    if isinstance(segs, NotApplicable):
        return segs.to_dict()
    return scorer(segs, **kw)


def pooled_scores(
    stats: Sequence[PairStats],
    metrics: Sequence[str] | str = SUBTITLE_METRICS,
    options: Mapping[str, Any] | SubtitleOptions | None = None,
) -> dict[str, dict[str, Any]]:
    """Scores of the requested metrics over one or several file pairs, from summed statistics."""
    opts = SubtitleOptions.from_mapping(options)
    names = _resolve(metrics)
    bleu_kw = {"tokenize": opts.tokenize, "lowercase": opts.lowercase}
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        if name.startswith("f1_"):
            total = sum((s.counts[name[3:]] for s in stats), BreakCounts())
            res = total.to_dict()
        elif name in ("bleu_br", "bleu_nb", "s_bleu", "t_bleu"):
            res = _score(_pool_segments(stats, name), bleu_score, **bleu_kw)
        elif name == "ter_br":
            res = _score(_pool_segments(stats, name), ter_score, case_sensitive=opts.ter_case_sensitive)
        elif name == "tbhr":
            as_bleu = _score(_pool_segments(stats, "as_bleu"), bleu_score, **bleu_kw)
            t_bleu = _score(_pool_segments(stats, "t_bleu"), bleu_score, **bleu_kw)
            res = tbhr_from(as_bleu, t_bleu)
        else:  # suber
            res = suber_score([s.cues for s in stats], variant=opts.suber_variant)
        res.setdefault("applicable", res.get("value") is not None)
        res["params"] = opts.params(name)
        res["library"] = LIBRARY[name]
        out[name] = res
    return out


def _text_summary(stats: Sequence[PairStats], names: Sequence[str]) -> dict[str, Any]:
    keys = ("n_reference_tokens", "n_hypothesis_tokens", "matched", "substituted", "reference_only", "hypothesis_only")
    dicts = [s.projection.to_dict() for s in stats]
    out: dict[str, Any] = {k: sum(d[k] for d in dicts) for k in keys}
    out["identical"] = all(d["identical"] for d in dicts)
    out["projected"] = not out["identical"]
    out["need_perfect_text"] = {n: NEED_PERFECT_TEXT[n] for n in names if n in NEED_PERFECT_TEXT}
    return out


def evaluate_pair(
    reference: Document,
    hypothesis: Document,
    metrics: Sequence[str] | str = SUBTITLE_METRICS,
    options: Mapping[str, Any] | SubtitleOptions | None = None,
) -> dict[str, Any]:
    """Scores of one (reference, hypothesis) pair.

    Returns ``{"reference", "hypothesis", "text", "metrics"}``: ``text`` is the projection
    summary (token counts, ``identical``, ``need_perfect_text``), ``metrics`` maps each metric
    to ``{"value", "applicable", "params", "library", ...details}``; a metric that cannot be
    computed has ``value`` None, ``applicable`` False and a ``reason``.
    """
    opts = SubtitleOptions.from_mapping(options)
    names = _resolve(metrics)
    st = pair_stats(reference, hypothesis, names, opts)
    return {
        "reference": st.reference,
        "hypothesis": st.hypothesis,
        "text": _text_summary([st], names),
        "metrics": pooled_scores([st], names, opts),
    }


def evaluate_corpus(
    pairs: Sequence[tuple[Document, Document]],
    metrics: Sequence[str] | str = SUBTITLE_METRICS,
    options: Mapping[str, Any] | SubtitleOptions | None = None,
) -> dict[str, Any]:
    """Per-file and pooled scores of several (reference, hypothesis) pairs.

    Returns ``{"files": [per-pair result as in evaluate_pair], "pooled": {"text", "metrics"},
    "library": LIBRARY subset}``; pooled values come from summed statistics.
    """
    if not pairs:
        raise UsageError("no file pairs to evaluate")
    opts = SubtitleOptions.from_mapping(options)
    names = _resolve(metrics)
    stats = [pair_stats(r, h, names, opts) for r, h in pairs]
    files = [
        {
            "reference": s.reference,
            "hypothesis": s.hypothesis,
            "text": _text_summary([s], names),
            "metrics": pooled_scores([s], names, opts),
        }
        for s in stats
    ]
    return {
        "files": files,
        "pooled": {
            "n_files": len(stats),
            "text": _text_summary(stats, names),
            "metrics": pooled_scores(stats, names, opts),
        },
        "library": {n: LIBRARY[n] for n in names},
    }


def evaluate_paths(
    references: Sequence[str | Path],
    hypotheses: Sequence[str | Path],
    metrics: Sequence[str] | str = SUBTITLE_METRICS,
    options: Mapping[str, Any] | SubtitleOptions | None = None,
    *,
    fmt: str | None = None,
) -> dict[str, Any]:
    """:func:`evaluate_corpus` on files read with :func:`segagree.adapters.read_document`.

    Raises:
        UsageError: different numbers of reference and hypothesis files.
        InputError: a file that cannot be read (from the adapters).
    """
    from segagree.adapters import read_document

    if len(references) != len(hypotheses):
        raise UsageError(f"{len(references)} reference files but {len(hypotheses)} hypothesis files")
    pairs = [(read_document(r, fmt), read_document(h, fmt)) for r, h in zip(references, hypotheses, strict=True)]
    return evaluate_corpus(pairs, metrics, options)


# --------------------------------------------------------------------------------------------
# Runners for segagree compare --metric
# --------------------------------------------------------------------------------------------
def _make_runner(name: str) -> Any:
    def run(pair: Any, options: Mapping[str, Any]) -> dict[str, Any]:
        """Runner: ``pair.a`` is the reference, ``pair.b`` the hypothesis."""
        opts = dict(options or {})
        opts.setdefault("layer", getattr(pair, "layer", None))
        try:
            sopts = SubtitleOptions.from_mapping(opts)
            layer_a = pair.a.layer(_subtitle_layer_name(pair.a, sopts.layer))
            if not layer_a.scheme.find_code("<eob>"):
                raise SegagreeError(f"layer {layer_a.name!r} has no <eob> boundary type")
            res = evaluate_pair(pair.a, pair.b, [name], sopts)
        except SegagreeError as err:
            if isinstance(err, UsageError):
                raise
            return {
                "value": None,
                "applicable": False,
                "reason": f"not a subtitle comparison: {err.message}",
                "per_speaker": {},
                "params": {},
            }
        m = dict(res["metrics"][name])
        m["per_speaker"] = {}
        m["text"] = res["text"]
        return m

    run.__name__ = f"run_{name}"
    return run


def register(runners: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """Add a runner for every subtitle metric to ``runners`` (``metric_runner.RUNNERS``).

    Returns the metric groups (``{"subtitles": (...)}``) for the caller's name expansion.
    Runners return ``{"value", "applicable", "per_speaker": {}, "params", "library", "text", ...}``;
    subtitle metrics have no per-speaker values.
    """
    for name in SUBTITLE_METRICS:
        runners[name] = _make_runner(name)
    return dict(GROUPS)
