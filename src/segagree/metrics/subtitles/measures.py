"""The subtitle measures under the measure contract: SubER's, EvalSubtitle's, reading speed, lines.

Each measure reads the ``"subtitles"`` input: one :class:`~segagree.metrics.subtitles.views.PairData`
per text (the reference's and hypothesis's views, built by :mod:`segagree.scoring.subtitles.evaluation`).
Its statistics are the texts themselves (:class:`Texts`), which add by concatenation: the score
of several texts is computed from their pooled statistics, as each reference tool pools a corpus
(sacrebleu's corpus BLEU and TER from summed n-gram matches and edits, suber's multi-file mode on
the concatenated segments, F1 from summed counts, Pk/WindowDiff/S/B from summed
:func:`segagree.metrics.boundary.stats.pooled` statistics), never by averaging per-text scores.

Measures that come from one computation (Sigma with BLEU_br and BLEU_nb; F1/Pk/WindowDiff/S/B of
every break type) form a *family*, computed once when several of its members are asked for
(:func:`score_texts`). Every result is a :class:`SubtitleResult` (``value`` and ``to_dict``).
The formulas and references are in :mod:`segagree.metrics.subtitles.scores`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from segagree.errors import SegagreeError
from segagree.metrics.boundary.boundary_edit import B_CARD, S_CARD
from segagree.metrics.boundary.stats import pooled
from segagree.metrics.boundary.windows import PK_CARD, WINDOWDIFF_CARD
from segagree.metrics.contract import Card, Measure
from segagree.metrics.subtitles.sacrebleu_stats import SacrebleuStats
from segagree.metrics.subtitles.scores import (
    TYPES,
    NotApplicable,
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
from segagree.metrics.subtitles.suber_strings import shared as shared_strings
from segagree.metrics.subtitles.views import PairData, SubtitleOptions

__all__ = [
    "MEASURES",
    "SUBER",
    "Context",
    "SubtitleMeasure",
    "SubtitleResult",
    "Texts",
    "score_texts",
    "shifted_segments",
    "suber_problem",
    "subtitle_card",
]

_K2022 = (
    "Karakanta, Buet, Cettolo & Yvon (2022), Evaluating Subtitle Segmentation for End-to-end Generation Systems, LREC"
)
_K2020 = (
    "Karakanta, Negri & Turchi (2020), Is 42 the Answer to Everything in Subtitling-oriented Speech Translation?, IWSLT"
)
_W2022 = "Wilken, Georgakopoulou & Matusov (2022), SubER - A Metric for Automatic Evaluation of Subtitle Quality, IWSLT"
_EVALSUB = "EvalSubtitle (github.com/fatalinha/EvalSubtitle)"
_ES = "EvalSubtitle (Karakanta, Buet, Cettolo & Yvon 2022, LREC)"
_PROFILES = (
    "subtitle style profiles (segagree check --profile): TED (21 characters per second, 42 per line, "
    "2 lines), Netflix English timed-text style guide (17 cps adults, 13 children), BBC subtitle guidelines"
)


@dataclass(frozen=True)
class Texts:
    """Statistics of the subtitle measures: the texts, pooled by concatenation."""

    items: tuple[PairData, ...]

    def __add__(self, other: Texts) -> Texts:
        return Texts(self.items + other.items)


@dataclass(frozen=True)
class SubtitleResult:
    """One subtitle measure's result: ``value`` (None when not applicable) and the details."""

    measure: str
    details: Mapping[str, Any]

    @property
    def value(self) -> float | None:
        v = self.details.get("value")
        return None if v is None else float(v)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.details)


@dataclass
class Context:
    """What one scoring of several measures shares: the options, the TER cache, the names asked
    and the sacrebleu statistics of SubER's BLEU and chrF (both caches may outlive the scoring:
    a corpus evaluation passes the same ones to every file and to the pooled score)."""

    opts: SubtitleOptions
    cache: TerCache
    names: Sequence[str]
    bleus: SacrebleuStats = field(default_factory=SacrebleuStats)


Family = Callable[[Sequence[PairData], Context], dict[str, dict[str, Any]]]


class SubtitleMeasure(Measure[PairData, Texts, SubtitleResult]):
    """A subtitle measure: statistics are the texts; :attr:`family` scores it with its siblings."""

    def __init__(self, family: Family, companions: tuple[str, ...] = ()) -> None:
        #: computes this measure with its siblings: (texts, context) -> name -> result.
        self.family = family
        #: extra result keys its family writes beside the measure (SubER's information block).
        self.companions = companions

    def statistics(self, item: PairData | NotApplicable, params: Mapping[str, Any]) -> Texts:
        if isinstance(item, NotApplicable):  # the pipeline found no subtitles to compare
            raise SegagreeError(item.reason)
        return Texts((item,))

    def score(self, stats: Texts, params: Mapping[str, Any]) -> SubtitleResult:
        opts = SubtitleOptions.from_mapping(params)
        with TerCache(opts.jobs) as cache:
            out = score_texts(stats.items, [self], opts, cache)
        return SubtitleResult(self.name, out[self.name])


def measure(card: Card, family: Family, companions: tuple[str, ...] = ()) -> SubtitleMeasure:
    """A :class:`SubtitleMeasure` with this card, scored by ``family``."""
    # The class belongs to the module that defines the measure (where its family is written).
    cls = type(f"Subtitle_{card.name}", (SubtitleMeasure,), {"card": card, "__module__": family.__module__})
    return cls(family, companions)


def _sentences(data: Sequence[PairData]) -> tuple[list[Any], list[Any]]:
    return [s for d in data for s in d.reference.sentences], [s for d in data for s in d.hypothesis.sentences]


# --------------------------------------------------------------------------------------------
# SubER
# --------------------------------------------------------------------------------------------
def shifted_segments(data: Sequence[PairData]) -> tuple[list[Any], list[Any]]:
    """The hypothesis and reference segments of all texts, concatenated as suber's multi-file mode
    does (``create_concatenated_segments``: each file's times placed after the previous file's)."""
    from suber.data_types import Subtitle

    hyp_all: list[Any] = []
    ref_all: list[Any] = []
    shift = 0.0
    for d in data:
        h, r = d.hypothesis.segments or [], d.reference.segments or []
        if len(data) > 1:
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
    return hyp_all, ref_all


def _shift(segments: list[Any], seconds: float) -> list[Any]:
    """Copies of suber Subtitles moved by ``seconds`` (new Subtitle and TimedWord objects: the
    segments of a file stay as they are; a deep copy took a second per long video)."""
    from dataclasses import replace

    out = []
    for s in segments:
        start, end = s.start_time + seconds, s.end_time + seconds
        words = [
            replace(
                w,
                subtitle_start_time=start,
                subtitle_end_time=end,
                approximate_word_time=(None if w.approximate_word_time is None else w.approximate_word_time + seconds),
            )
            for w in s.word_list
        ]
        out.append(replace(s, word_list=words, start_time=start, end_time=end))
    return out


def suber_problem(data: Sequence[PairData]) -> str:
    """Why the SubER-based measures cannot score these texts, or ``""``."""
    if not suber_available():
        return "the suber package is not installed (pip install 'segagree[suber]')"
    return next((s.segments_problem for d in data for s in (d.reference, d.hypothesis) if s.segments_problem), "")


def _suber_family(data: Sequence[PairData], ctx: Context) -> dict[str, dict[str, Any]]:
    opts, info_key = ctx.opts, f"{SUBER.name}_info"
    reason = suber_problem(data)
    if reason:
        return {SUBER.name: {}, info_key: {"not_applicable": dict.fromkeys(opts.suber, reason)}}
    hyp_all, ref_all = shifted_segments(data)
    extra: list[Any] = []
    if TER_BR.name in ctx.names:  # EvalSubtitle's masked pairs join the same TER batch
        refs, hyps = _sentences(data)
        extra = ter_br_pairs(refs, hyps) if len(refs) == len(hyps) else []
    values, skipped = suber_scores(
        hyp_all, ref_all, opts.suber, language=opts.language, cache=ctx.cache, extra_masked=extra, bleus=ctx.bleus
    )
    info = {
        "not_applicable": skipped,
        "segments": {"hypothesis": len(hyp_all), "reference": len(ref_all)},
        "sources": sorted({d.reference.segment_source for d in data} | {d.hypothesis.segment_source for d in data}),
        "language": opts.language,
        "signature": f"suber {suber_version()}" + (f"|l:{opts.language}" if opts.language else ""),
    }
    return {SUBER.name: dict(values), info_key: info}


# --------------------------------------------------------------------------------------------
# EvalSubtitle
# --------------------------------------------------------------------------------------------
def _bleu_family(data: Sequence[PairData], ctx: Context) -> dict[str, dict[str, Any]]:
    refs, hyps = _sentences(data)
    sigma, bleu_br, bleu_nb = sigma_scores(refs, hyps, ctx.bleus)
    return {SIGMA.name: sigma, BLEU_BR.name: bleu_br, BLEU_NB.name: bleu_nb}


def _ter_br_family(data: Sequence[PairData], ctx: Context) -> dict[str, dict[str, Any]]:
    refs, hyps = _sentences(data)
    return {TER_BR.name: ter_br_scores(refs, hyps, cache=ctx.cache)}


def _cpl_family(data: Sequence[PairData], ctx: Context) -> dict[str, dict[str, Any]]:
    res = cpl_conformity([s for d in data for s in d.hypothesis.stream], ctx.opts.max_cpl)
    return {CPL.name: res}


def _standard_family(data: Sequence[PairData], ctx: Context) -> dict[str, dict[str, Any]]:
    opts = ctx.opts
    per = [standard_scores(d.reference.stream, d.hyp_on_ref, n_t=opts.n_t, window=opts.window) for d in data]
    projected = any(not d.identical for d in data)
    out: dict[str, dict[str, Any]] = {}
    for m in per[0]:
        parts = [p[m] for p in per]
        if len(parts) == 1 or any(p.get("value") is None for p in parts):
            res = _clean(parts[0]) if len(parts) == 1 else NotApplicable("not applicable for some file").to_dict()
        elif "tp" in parts[0]:  # F1 from summed counts
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
    return out


def _clean(res: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in res.items() if not k.startswith("_")}


# --------------------------------------------------------------------------------------------
# Blocks
# --------------------------------------------------------------------------------------------
def _blocks_family(data: Sequence[PairData], ctx: Context) -> dict[str, dict[str, Any]]:
    blocks = [b for d in data for b in d.hypothesis.blocks]
    out: dict[str, dict[str, Any]] = {}
    if READING_SPEED.name in ctx.names:
        out[READING_SPEED.name] = reading_speed(blocks, ctx.opts.max_cps)
    if LINES.name in ctx.names:
        out[LINES.name] = lines_per_block(blocks, ctx.opts.max_lines)
    return out


# --------------------------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------------------------
def subtitle_card(**fields: Any) -> Card:
    """A card of the ``subtitles`` group, whose measure reads the ``subtitles`` input."""
    return Card(**fields, needs="subtitles", group="subtitles")


SUBER = subtitle_card(
    name="suber_metrics",
    title="SubER's metrics (all of them)",
    definition=(
        "every metric of the SubER 0.4 command line under its own name (SubER, SubER-cased, WER, CER, BLEU, TER, "
        "chrF, -cased/-seg variants, TER-br, AS- and t- variants, length_ratio); TER-br here is SubER's: subtitle or "
        "sentence i against i, words masked, the segment-final <eob> left out. Metrics needing equal segment counts "
        "or times are listed with the reason instead"
    ),
    citation=_W2022,
    parameters={"language": "none (zh/ja/ko: SubER's -l)", "segments": "sentences (tagged text) or subtitles (SRT)"},
    better="lower",
    library="suber (subtitle-edit-rate) functions; every TER through segagree's kernel equal to sacrebleu's",
    reference="suber command line",
    notes="the values are SubER's, rounded to 3 decimals as its command line prints them; higher is better for "
    "BLEU and chrF, lower for the error rates",
)
SIGMA = subtitle_card(
    name="sigma",
    title="Subtitle segmentation score Sigma",
    definition="100 x BLEU_br / its approximate upper bound (BLEU_nb's precisions with the hypothesis's breaks "
    "per word)",
    citation=_K2022,
    library=f"sacrebleu BLEU; {_ES}'s definition",
    reference=_EVALSUB,
)
# EvalSubtitle's two corpus BLEUs (Karakanta et al. 2020), sacrebleu's defaults.
_CORPUS_BLEU = {"citation": _K2020, "parameters": {"tokenize": "13a"}, "library": f"sacrebleu BLEU; {_ES}'s definition"}
BLEU_BR = subtitle_card(
    name="bleu_br",
    title="BLEU with breaks (BLEU_br)",
    definition="sacrebleu corpus BLEU over sentences, every <eob>/<eol> a token",
    reference=_EVALSUB,
    **_CORPUS_BLEU,
)
BLEU_NB = subtitle_card(
    name="bleu_nb",
    title="BLEU without breaks (BLEU_nb)",
    definition="sacrebleu corpus BLEU over sentences, breaks removed",
    reference=_EVALSUB,
    **_CORPUS_BLEU,
)
TER_BR = subtitle_card(
    name="ter_br",
    title="TER on breaks (EvalSubtitle's TER_br)",
    definition="sacrebleu TER over sentences, every word masked and every break a token, the sentence-final break "
    "included (EvalSubtitle's; SubER's TER-br, which leaves that break out, is in SubER's metrics)",
    citation=_K2020,
    better="lower",
    library=f"segagree's TER kernel, equal to sacrebleu's translation_edit_rate; {_ES}'s definition",
    reference=_EVALSUB,
)
CPL = subtitle_card(
    name="cpl_conformity",
    title="Characters-per-line conformity",
    definition="% of subtitle lines (text between two breaks) of at most max_cpl characters",
    citation=_K2022,
    parameters={"max_cpl": "42"},
    library=f"segagree; {_ES}'s definition",
    reference=_EVALSUB,
)
READING_SPEED = subtitle_card(
    name="reading_speed",
    title="Reading speed (characters per second)",
    definition="value: the mean characters per second of the hypothesis's timed blocks (lower is easier to read; "
    "characters of the lines, line breaks not counted); also the pooled rate (all characters / all time) and "
    "'conformity', the % of blocks at most max_cps (higher is better)",
    citation=_PROFILES,
    parameters={"max_cps": "21 (TED)"},
    better="lower",
    reference="hand counts of characters and durations (tests/metrics/test_subtitles_metrics.py)",
    notes="the value (mean CPS) is lower-better; its conformity percentage is higher-better. max_cps defaults to "
    "the TED profile's 21; segagree check applies a whole profile",
)
LINES = subtitle_card(
    name="lines_per_block",
    title="Lines-per-block conformity",
    definition="% of the hypothesis's blocks with at most max_lines lines",
    citation=_PROFILES,
    parameters={"max_lines": "2"},
    reference="hand counts of lines per block (tests/metrics/test_subtitles_metrics.py)",
)
_STANDARD_KINDS: tuple[tuple[str, str, str, dict[str, str], str], ...] = (
    ("f1", "Break F1", "F1 (precision, recall) of break positions, the end of the text counted", {}, "higher"),
    (PK_CARD.name, "Pk", "Pk over the whole text, segeval's window from the reference", {"window": "segeval"}, "lower"),
    (
        WINDOWDIFF_CARD.name,
        "WindowDiff",
        "WindowDiff, segeval's window from the reference",
        {"window": "segeval"},
        "lower",
    ),
    (S_CARD.name, "Segmentation Similarity", "segeval S over the whole text", {"n_t": "2"}, "higher"),
    (B_CARD.name, "Boundary Similarity", "segeval B over the whole text", {"n_t": "2"}, "higher"),
)
STANDARD = tuple(
    subtitle_card(
        name=f"{m}_{t}",
        title=f"{title} of {label}",
        definition=f"{definition} ({label}); identical words, else the hypothesis's breaks projected onto the "
        "reference",
        citation=_K2022,
        parameters=params,
        better=better,
        library=f"segagree (segeval-equal); {_ES}'s masses",
        reference=_EVALSUB,
    )
    for t, label in TYPES.items()
    for m, title, definition, params, better in _STANDARD_KINDS
)

MEASURES: tuple[SubtitleMeasure, ...] = (
    measure(SUBER, _suber_family, companions=(f"{SUBER.name}_info",)),
    measure(SIGMA, _bleu_family),
    measure(BLEU_BR, _bleu_family),
    measure(BLEU_NB, _bleu_family),
    measure(TER_BR, _ter_br_family),
    measure(CPL, _cpl_family),
    *(measure(card, _standard_family) for card in STANDARD),
    measure(READING_SPEED, _blocks_family),
    measure(LINES, _blocks_family),
)


# --------------------------------------------------------------------------------------------
# Scoring several measures at once
# --------------------------------------------------------------------------------------------
def _params(card: Card, res: Mapping[str, Any], opts: SubtitleOptions) -> dict[str, Any]:
    """The parameters a measure's value depends on (shown beside it), from its card's parameters."""
    out: dict[str, Any] = {}
    for key in card.parameters:
        if key == "window":
            out[key] = res.get("window_size", opts.window or "segeval")
        elif key == "tokenize":
            continue
        elif getattr(opts, key, None) is not None:
            out[key] = getattr(opts, key)
    if card.name.startswith("f1_"):
        out["end_of_text"] = "counted"
    return out


def score_texts(
    data: Sequence[PairData],
    measures: Sequence[SubtitleMeasure],
    opts: SubtitleOptions,
    cache: TerCache,
    extra: Mapping[str, SubtitleMeasure] | None = None,
    bleus: SacrebleuStats | None = None,
) -> dict[str, dict[str, Any]]:
    """Results (as dicts) of ``measures`` over the pooled texts, each family computed once.

    ``extra`` maps further result names a family writes (the segeval ``s``/``b`` over both types
    of the standard family) to the measure whose family writes them. ``cache`` and ``bleus``
    (a fresh one when None) keep TER, BLEU and chrF statistics per segment pair across calls.
    """
    asked = [*(m.name for m in measures), *(extra or {})]
    ctx = Context(opts, cache, asked, bleus if bleus is not None else SacrebleuStats())
    out: dict[str, dict[str, Any]] = {}
    if not any(s for d in data for s in (*d.reference.stream, *d.hypothesis.stream)):
        # Two files without words (valid subtitle files): nothing to score, and sacrebleu fails on zero segments.
        reason = NotApplicable("neither file has a subtitle with words").to_dict()
        for m in measures:
            out[m.name] = {} if m.companions else dict(reason)
            for c in m.companions:
                out[c] = {"not_applicable": {"*": reason["reason"]}}
        for name in extra or {}:
            out[name] = dict(reason)
        return out
    done: dict[Any, dict[str, dict[str, Any]]] = {}
    # SubER first: it sends every TER pair to the cache in one batch.
    order = sorted([*measures, *(extra or {}).values()], key=lambda m: not m.companions)
    with shared_strings():  # suber's segment strings made once for every family of this scoring
        for m in order:
            if m.family not in done:
                done[m.family] = m.family(data, ctx)
    cards = {m.name: m.card for m in measures}
    for name in asked:
        owner = cards.get(name) or (extra or {})[name].card
        fam = (extra or {}).get(name) or next(m for m in measures if m.name == name)
        res = done[fam.family][name]
        out[name] = res
        for c in fam.companions:
            out[c] = done[fam.family][c]
        if not fam.companions:
            res.setdefault("params", _params(owner, res, opts) if name in cards else {"n_t": opts.n_t})
            res.setdefault("applicable", res.get("value") is not None)
            res.setdefault("library", owner.library)
    return out
