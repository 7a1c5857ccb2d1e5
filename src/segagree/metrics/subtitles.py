"""Subtitle segmentation metrics on cue lists and break sequences (pure functions).

A subtitle file is a list of :class:`Cue`: words, the break after each word (0 none,
:data:`EOB` = 1 ``<eob>`` end of block, :data:`EOL` = 2 ``<eol>`` end of line; the codes of the
built-in ``subtitle`` scheme) and the cue's start and end in seconds. The reference is always
the first argument. BLEU, TER and SubER are reported on their libraries' 0-100 scale, the
boundary scores on 0-1.

Which library computes each number (also in :data:`LIBRARY`):

========  ==========================================================  =============================
metric    definition                                                  computed by
========  ==========================================================  =============================
f1_eob    P/R/F1 of ``<eob>`` positions on the reference's tokens     segagree (counts)
f1_eol    P/R/F1 of ``<eol>`` positions                               segagree (counts)
f1_eox    P/R/F1 of break positions, types merged                     segagree (counts)
bleu_br   BLEU of the whole text, breaks as tokens                    sacrebleu BLEU
bleu_nb   BLEU of the whole text, breaks removed                      sacrebleu BLEU
ter_br    TER with every word masked, breaks as tokens                sacrebleu TER
s_bleu    BLEU, subtitle i of the hypothesis against subtitle i       sacrebleu BLEU
t_bleu    BLEU after linear temporal alignment to reference cues      suber alignment + sacrebleu
tbhr      AS-BLEU (min-WER alignment, breaks ignored) - t_bleu        suber alignments + sacrebleu
suber     SubER: TER with break tokens, shifts and time overlap       suber ``calculate_SubER``
========  ==========================================================  =============================

Definitions and papers
----------------------
* **Boundary P/R/F1** (Karakanta, Gaido, Negri & Turchi 2022, *Evaluating Subtitle Segmentation
  for End-to-end Generation Systems*, LREC): a break is a (token position, type) pair on the
  reference's tokens; TP = positions where both have a break of the type (``f1_eox``: of any
  type), FP = hypothesis only, FN = reference only. The end of the text (the last token, always
  ``<eob>`` in both) is not counted unless ``include_final``. When a side has no break at all:
  P = 1 if there are neither TP nor FP nor FN, else 0 when undefined (same for R); F1 = 0 when
  P + R = 0.
* **BLEU_br / BLEU_nb** (Karakanta, Negri & Turchi 2020, *Is 42 the Answer to Everything in
  Subtitling-oriented Speech Translation?*, IWSLT): BLEU with each break as an extra token, and
  without breaks. Here the whole text of a file is one segment (every break, the last ``<eob>``
  included); several files are one segment each, pooled by sacrebleu's corpus statistics.
  Breaks are written ``eol``/``eob`` because sacrebleu's 13a tokenizer splits ``<eol>`` into
  three tokens (SubER does the same).
* **TER_br** (Karakanta et al. 2020): TER (sacrebleu defaults: case-insensitive, no
  normalisation) where every word is replaced by ``<mask>`` so that only break placement (and
  the number of words) counts. Karakanta et al. score sentences; TER with shifts on a whole
  file is intractable (500 masked words take ~20 s), so by default (``unit="sync"``) the text is
  cut into segments at *sync points* (reference ``<eob>`` where the hypothesis also has
  ``<eob>`` after the aligned token) and, once a segment holds ``max_words`` reference words,
  at the next reference ``<eob>``. Every break, segment-final ones included, is a token.
  Short segments also let sacrebleu's greedy shift search find the one-word break shifts it
  misses on long ones (3 breaks moved by one word: 3 edits here, 5 on the whole 69-word text).
  ``unit="subtitle"`` scores subtitle i against subtitle i without the segment-final ``<eob>``
  (SubER's ``TER-br``; needs equal subtitle counts).
* **S-BLEU** (Matusov, Wilken & Georgakopoulou 2019, *Customizing Neural Machine Translation
  for Subtitling*, WMT): corpus BLEU with each subtitle a segment; not applicable (reported with
  both counts) when the subtitle counts differ. Equal to SubER's ``BLEU``.
* **T-BLEU** (Cherry, Arivazhagan, Padfield & Krikun 2021, *Subtitle Translation as Markup
  Translation*, Interspeech): each hypothesis word gets a time by linear interpolation within
  its subtitle and goes to the reference subtitle whose span holds it (words outside every
  reference span are dropped); corpus BLEU over the reference subtitles. Computed by suber's
  ``time_align_hypothesis_to_reference`` (SubER's ``t-BLEU``).
* **TBHR** (Cherry et al. 2021): T-BLEU headroom = BLEU of the unsegmented hypothesis
  re-segmented into the reference subtitles by minimum-edit-distance alignment (Matusov et al.
  2005's AS-BLEU; suber's ``levenshtein_align_hypothesis_to_reference``, which aligns on
  lower-cased words without ASCII punctuation) minus T-BLEU.
* **SubER** (Wilken, Georgakopoulou & Matusov 2022, *SubER - A Metric for Automatic Evaluation
  of Subtitle Quality*, IWSLT): edits (TER with shifts over words and break tokens, alignments
  only between time-overlapping subtitles) per reference token (words + breaks), x 100;
  words lower-cased and ASCII punctuation removed (variant ``SubER-cased`` keeps both).

Tokenisation: BLEU uses sacrebleu's defaults (``13a``, case-sensitive, exponential smoothing);
TER sacrebleu's (``tercom``, case-insensitive, punctuation kept); the words given are joined
by spaces first, so a token split differently by a reader does not change BLEU.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

EOB = 1
EOL = 2
BREAK_TOKENS: dict[int, str] = {EOB: "eob", EOL: "eol"}
MASK = "<mask>"

SUBTITLE_METRICS: tuple[str, ...] = (
    "f1_eob",
    "f1_eol",
    "f1_eox",
    "bleu_br",
    "bleu_nb",
    "ter_br",
    "s_bleu",
    "t_bleu",
    "tbhr",
    "suber",
)

LIBRARY: dict[str, str] = {
    "f1_eob": "segagree (break counts; imperfect text: segagree.pipeline.align.align_streams projection)",
    "f1_eol": "segagree (break counts; imperfect text: segagree.pipeline.align.align_streams projection)",
    "f1_eox": "segagree (break counts; imperfect text: segagree.pipeline.align.align_streams projection)",
    "bleu_br": "sacrebleu BLEU (corpus statistics)",
    "bleu_nb": "sacrebleu BLEU (corpus statistics)",
    "ter_br": "sacrebleu TER (corpus statistics); sync-point segments by segagree",
    "s_bleu": "sacrebleu BLEU (corpus statistics)",
    "t_bleu": "suber time_align_hypothesis_to_reference + sacrebleu BLEU",
    "tbhr": "suber levenshtein_align_hypothesis_to_reference and time alignment + sacrebleu BLEU",
    "suber": "suber calculate_SubER",
}

_K2020 = (
    "Karakanta, Negri & Turchi (2020), Is 42 the Answer to Everything in Subtitling-oriented Speech Translation?, IWSLT"
)
_K2022 = (
    "Karakanta, Gaido, Negri & Turchi (2022), Evaluating Subtitle Segmentation for End-to-end Generation Systems, LREC"
)
_M2019 = "Matusov, Wilken & Georgakopoulou (2019), Customizing Neural Machine Translation for Subtitling, WMT"
_C2021 = "Cherry, Arivazhagan, Padfield & Krikun (2021), Subtitle Translation as Markup Translation, Interspeech"
_W2022 = "Wilken, Georgakopoulou & Matusov (2022), SubER - A Metric for Automatic Evaluation of Subtitle Quality, IWSLT"
_BLEU_PARAMS = {"tokenize": "13a", "lowercase": "False", "smooth": "exp"}


def _card(
    name: str,
    title: str,
    definition: str,
    params: dict[str, str],
    citation: str,
    *,
    higher_is_better: bool = True,
    reference: str = "",
) -> dict[str, Any]:
    return {
        "name": name,
        "title": title,
        "definition": definition,
        "params": params,
        "citation": citation,
        "library": LIBRARY[name],
        "higher_is_better": higher_is_better,
        "reference": reference,
    }


METRIC_CARDS: list[dict[str, Any]] = [
    *(
        _card(
            f"f1_{kind}",
            f"Boundary F1 of {label}",
            f"F1 (precision and recall beside) of {label} positions on the reference's tokens; imperfect "
            "text: hypothesis breaks projected onto the reference by token alignment",
            {"include_final": "False", "normalise_alignment": "True"},
            _K2022,
        )
        for kind, label in (
            ("eob", "<eob> (end of block)"),
            ("eol", "<eol> (end of line)"),
            ("eox", "breaks of any type (<eob>/<eol> merged)"),
        )
    ),
    _card(
        "bleu_br",
        "BLEU with breaks (BLEU_br)",
        "BLEU of the whole text with every break as an extra token eol/eob; files pooled by corpus statistics",
        dict(_BLEU_PARAMS),
        _K2020,
    ),
    _card(
        "bleu_nb",
        "BLEU without breaks (BLEU_nb)",
        "BLEU of the whole text without breaks; files pooled by corpus statistics",
        dict(_BLEU_PARAMS),
        _K2020,
    ),
    _card(
        "ter_br",
        "TER on breaks (TER_br)",
        "TER with every word masked so only breaks count; segments cut at common <eob> (sync points)",
        {"unit": "sync", "max_words": "40", "case_sensitive": "False"},
        _K2020,
        higher_is_better=False,
        reference="suber TER-br (unit=subtitle)",
    ),
    _card(
        "s_bleu",
        "Subtitle BLEU (S-BLEU)",
        "corpus BLEU with subtitle i of the hypothesis against subtitle i of the reference; "
        "not applicable when the subtitle counts differ",
        dict(_BLEU_PARAMS),
        _M2019,
        reference="suber BLEU",
    ),
    _card(
        "t_bleu",
        "Timed BLEU (T-BLEU)",
        "BLEU after each hypothesis word, timed by linear interpolation within its subtitle, is moved to the "
        "reference subtitle whose span holds it",
        dict(_BLEU_PARAMS),
        _C2021,
        reference="suber t-BLEU",
    ),
    _card(
        "tbhr",
        "T-BLEU headroom (TBHR)",
        "BLEU of the hypothesis re-segmented into the reference subtitles by minimum-edit-distance alignment "
        "(hypothesis breaks ignored, AS-BLEU) minus T-BLEU",
        dict(_BLEU_PARAMS),
        _C2021,
        higher_is_better=False,
        reference="suber AS-BLEU minus t-BLEU",
    ),
    _card(
        "suber",
        "Subtitle Edit Rate (SubER)",
        "edits (TER with shifts over words and break tokens, alignments only within time-overlapping subtitles) "
        "per reference word and break, x 100",
        {"variant": "SubER (lower-cased, punctuation removed)"},
        _W2022,
        higher_is_better=False,
        reference="suber command line",
    ),
]


# --------------------------------------------------------------------------------------------
# Cues
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Cue:
    """One subtitle: its words, the break code after each word, and its span in seconds.

    The last word's break is always :data:`EOB`; times are NaN when unknown.
    """

    words: tuple[str, ...]
    breaks: tuple[int, ...]
    start: float = math.nan
    end: float = math.nan

    def __post_init__(self) -> None:
        object.__setattr__(self, "words", tuple(str(w) for w in self.words))
        breaks = [int(b) for b in self.breaks]
        if len(breaks) != len(self.words):
            raise ValueError(f"{len(breaks)} breaks for {len(self.words)} words")
        if any(b not in (0, EOB, EOL) for b in breaks):
            raise ValueError(f"break codes must be 0, {EOB} (<eob>) or {EOL} (<eol>), got {sorted(set(breaks))}")
        if any(b == EOB for b in breaks[:-1]):
            raise ValueError("<eob> inside a cue; split the cue there")
        if breaks:
            breaks[-1] = EOB
        object.__setattr__(self, "breaks", tuple(breaks))
        object.__setattr__(self, "start", float(self.start))
        object.__setattr__(self, "end", float(self.end))

    @property
    def timed(self) -> bool:
        return not (math.isnan(self.start) or math.isnan(self.end))


def cue(text: str, start: float = math.nan, end: float = math.nan) -> Cue:
    """A cue from its text, lines separated by ``\\n`` (or ``|``), words by spaces."""
    words: list[str] = []
    breaks: list[int] = []
    for line in text.replace("|", "\n").split("\n"):
        toks = line.split()
        if not toks:
            continue
        words.extend(toks)
        breaks.extend([0] * (len(toks) - 1) + [EOL])
    return Cue(tuple(words), tuple(breaks), start, end)


def cues_from_codes(
    words: Sequence[str],
    codes: Sequence[int] | np.ndarray,
    starts: Sequence[float] | np.ndarray | None = None,
    ends: Sequence[float] | np.ndarray | None = None,
) -> list[Cue]:
    """Cut a token stream into cues after every ``<eob>`` (and at the end of the stream).

    A cue's start is its first token's ``starts`` value, its end its last token's ``ends`` value.
    """
    n = len(words)
    codes_arr = np.asarray(codes, dtype=np.int64).reshape(-1)
    if codes_arr.size != n:
        raise ValueError(f"{codes_arr.size} codes for {n} words")
    st = np.full(n, np.nan) if starts is None else np.asarray(starts, dtype=float)
    en = np.full(n, np.nan) if ends is None else np.asarray(ends, dtype=float)
    out: list[Cue] = []
    begin = 0
    for i in range(n):
        if codes_arr[i] == EOB or i == n - 1:
            out.append(
                Cue(tuple(words[begin : i + 1]), tuple(int(c) for c in codes_arr[begin : i + 1]), st[begin], en[i])
            )
            begin = i + 1
    return out


def flatten(cues: Sequence[Cue]) -> tuple[list[str], np.ndarray]:
    """All words of a cue list and the break code after each."""
    words = [w for c in cues for w in c.words]
    codes = np.fromiter((b for c in cues for b in c.breaks), dtype=np.int64, count=len(words))
    return words, codes


def tagged_text(
    words: Sequence[str],
    codes: Sequence[int] | np.ndarray,
    *,
    breaks: bool = True,
    mask: bool = False,
    final_break: bool = True,
) -> str:
    """Words joined by spaces, each break after its word as ``eol``/``eob`` (when ``breaks``).

    ``mask`` replaces every word by ``<mask>``; ``final_break=False`` drops a trailing ``eob``.
    """
    if mask and not breaks:
        raise ValueError("masking words without breaks leaves nothing to score")
    out: list[str] = []
    for w, b in zip(words, codes, strict=True):
        out.append(MASK if mask else w)
        if breaks and b:
            out.append(BREAK_TOKENS[int(b)])
    if not final_break and out and out[-1] == BREAK_TOKENS[EOB]:
        out.pop()
    return " ".join(out)


# --------------------------------------------------------------------------------------------
# Boundary precision / recall / F1
# --------------------------------------------------------------------------------------------
@dataclass
class BreakCounts:
    """True positives, false positives and false negatives of one break type (additive)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, other: BreakCounts) -> BreakCounts:
        return BreakCounts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    @property
    def precision(self) -> float:
        if self.tp + self.fp:
            return self.tp / (self.tp + self.fp)
        return 1.0 if self.fn == 0 else 0.0

    @property
    def recall(self) -> float:
        if self.tp + self.fn:
            return self.tp / (self.tp + self.fn)
        return 1.0 if self.fp == 0 else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.f1,
            "precision": self.precision,
            "recall": self.recall,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "n_reference": self.tp + self.fn,
            "n_hypothesis": self.tp + self.fp,
        }


def break_counts(
    ref_codes: Sequence[int] | np.ndarray, hyp_codes: Sequence[int] | np.ndarray, *, include_final: bool = False
) -> dict[str, BreakCounts]:
    """Counts of ``eob``, ``eol`` and ``eox`` (any type) breaks on one token index.

    ``hyp_codes`` must be on the reference's tokens (projected for imperfect text).
    """
    r = np.asarray(ref_codes, dtype=np.int64).reshape(-1)
    h = np.asarray(hyp_codes, dtype=np.int64).reshape(-1)
    if r.size != h.size:
        raise ValueError(f"{h.size} hypothesis codes for {r.size} reference tokens (project them first)")
    if not include_final and r.size:
        r, h = r[:-1], h[:-1]
    out: dict[str, BreakCounts] = {}
    for name, rb, hb in (("eob", r == EOB, h == EOB), ("eol", r == EOL, h == EOL), ("eox", r != 0, h != 0)):
        out[name] = BreakCounts(int(np.sum(rb & hb)), int(np.sum(~rb & hb)), int(np.sum(rb & ~hb)))
    return out


# --------------------------------------------------------------------------------------------
# Segment lists and their sacrebleu scores
# --------------------------------------------------------------------------------------------
@dataclass
class Segments:
    """Parallel hypothesis / reference strings; pooling is concatenation (``+``)."""

    hyp: list[str] = field(default_factory=list)
    ref: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.hyp) != len(self.ref):
            raise ValueError(f"{len(self.hyp)} hypothesis segments for {len(self.ref)} reference segments")

    def __add__(self, other: Segments) -> Segments:
        return Segments(self.hyp + other.hyp, self.ref + other.ref)

    def __len__(self) -> int:
        return len(self.ref)


@dataclass(frozen=True)
class NotApplicable:
    """A metric that cannot be computed for this input, and why."""

    reason: str
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"value": None, "applicable": False, "reason": self.reason, **self.details}


def _drop_empty_references(segs: Segments) -> tuple[Segments, int]:
    keep = [k for k, r in enumerate(segs.ref) if r.strip()]
    return Segments([segs.hyp[k] for k in keep], [segs.ref[k] for k in keep]), len(segs) - len(keep)


def bleu_score(segs: Segments, *, tokenize: str = "13a", lowercase: bool = False) -> dict[str, Any]:
    """sacrebleu corpus BLEU of the segments (empty reference segments skipped, as SubER does)."""
    from sacrebleu.metrics import BLEU

    kept, skipped = _drop_empty_references(segs)
    if not kept:
        return NotApplicable("no non-empty reference segment").to_dict()
    metric = BLEU(tokenize=tokenize, lowercase=lowercase)
    res = metric.corpus_score(kept.hyp, [kept.ref])
    return {
        "value": float(res.score),
        "bp": float(res.bp),
        "ratio": float(res.ratio),
        "hyp_len": int(res.sys_len),
        "ref_len": int(res.ref_len),
        "precisions": [float(p) for p in res.precisions],
        "n_segments": len(kept),
        "skipped_empty_references": skipped,
        "signature": str(metric.get_signature()),
    }


def ter_score(segs: Segments, *, case_sensitive: bool = False) -> dict[str, Any]:
    """sacrebleu corpus TER of the segments: summed edits / summed reference lengths, x 100."""
    from sacrebleu.metrics import TER

    kept, skipped = _drop_empty_references(segs)
    if not kept:
        return NotApplicable("no non-empty reference segment").to_dict()
    metric = TER(case_sensitive=case_sensitive)
    res = metric.corpus_score(kept.hyp, [kept.ref])
    return {
        "value": float(res.score),
        "num_edits": float(res.num_edits),
        "ref_length": float(res.ref_length),
        "n_segments": len(kept),
        "skipped_empty_references": skipped,
        "signature": str(metric.get_signature()),
    }


def text_segments(ref: Sequence[Cue], hyp: Sequence[Cue], *, breaks: bool) -> Segments:
    """The whole text of each side as one segment (BLEU_br with ``breaks``, BLEU_nb without)."""
    return Segments([tagged_text(*flatten(hyp), breaks=breaks)], [tagged_text(*flatten(ref), breaks=breaks)])


def subtitle_segments(
    ref: Sequence[Cue], hyp: Sequence[Cue], *, breaks: bool = False, mask: bool = False
) -> Segments | NotApplicable:
    """Subtitle i of the hypothesis against subtitle i of the reference (S-BLEU; SubER's ``BLEU``).

    With ``breaks`` the segment-final ``eob`` (present on both sides) is left out, as in SubER.
    Not applicable when the subtitle counts differ.
    """
    if len(ref) != len(hyp):
        return NotApplicable(
            f"the hypothesis has {len(hyp)} subtitles and the reference {len(ref)}; "
            "subtitle-level scores need equal counts",
            {"n_hypothesis_subtitles": len(hyp), "n_reference_subtitles": len(ref)},
        )

    def seg(c: Cue) -> str:
        return tagged_text(c.words, c.breaks, breaks=breaks, mask=mask, final_break=False)

    return Segments([seg(c) for c in hyp], [seg(c) for c in ref])


def sync_segments(
    ref_words: Sequence[str],
    ref_codes: Sequence[int] | np.ndarray,
    hyp_words: Sequence[str],
    hyp_codes: Sequence[int] | np.ndarray,
    targets: Sequence[int] | np.ndarray,
    *,
    max_words: int = 40,
    mask: bool = True,
) -> Segments:
    """Masked tagged segments of both sides, cut at sync points (for TER_br).

    ``targets[j]`` is the reference token that hypothesis token j's break projects onto
    (non-decreasing; ``arange`` for identical text). A cut after reference token i is made where
    the reference has ``<eob>`` and a hypothesis ``<eob>`` projects onto i, or where the
    reference has ``<eob>`` and the segment already holds ``max_words`` reference words; the
    hypothesis segment holds the tokens whose targets fall in the reference segment.
    """
    rc = np.asarray(ref_codes, dtype=np.int64).reshape(-1)
    hc = np.asarray(hyp_codes, dtype=np.int64).reshape(-1)
    tg = np.asarray(targets, dtype=np.int64).reshape(-1)
    if rc.size != len(ref_words) or hc.size != len(hyp_words) or tg.size != hc.size:
        raise ValueError("words, codes and targets must have matching lengths")
    if tg.size and np.any(np.diff(tg) < 0):
        raise ValueError("targets must be non-decreasing")
    hyp_eob_at = np.zeros(rc.size, dtype=bool)
    if tg.size:
        hyp_eob_at[tg[hc == EOB]] = True
    cuts: list[int] = []
    begin = 0
    for i in range(rc.size):
        if rc[i] != EOB:
            continue
        if hyp_eob_at[i] or i + 1 - begin >= max_words or i == rc.size - 1:
            cuts.append(i)
            begin = i + 1
    if rc.size and (not cuts or cuts[-1] != rc.size - 1):
        cuts.append(rc.size - 1)
    hyp_bounds = np.searchsorted(tg, np.asarray(cuts, dtype=np.int64), side="right") if cuts else np.zeros(0, int)
    hyp_segs: list[str] = []
    ref_segs: list[str] = []
    r0 = h0 = 0
    for k, cut in enumerate(cuts):
        h1 = int(hyp_bounds[k]) if k < len(cuts) - 1 else hc.size
        ref_segs.append(tagged_text(ref_words[r0 : cut + 1], rc[r0 : cut + 1], mask=mask))
        hyp_segs.append(tagged_text(hyp_words[h0:h1], hc[h0:h1], mask=mask))
        r0, h0 = cut + 1, h1
    if not cuts and hc.size:
        ref_segs.append("")
        hyp_segs.append(tagged_text(hyp_words, hc, mask=mask))
    return Segments(hyp_segs, ref_segs)


# --------------------------------------------------------------------------------------------
# suber: alignments and SubER
# --------------------------------------------------------------------------------------------
def suber_available() -> bool:
    """Whether the ``suber`` package (subtitle-edit-rate) can be imported."""
    try:
        import suber.metrics.suber  # noqa: F401
    except ImportError:
        return False
    return True


def _suber_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("subtitle-edit-rate")
    except PackageNotFoundError:
        return "unknown"


def to_suber_subtitles(cues: Sequence[Cue], offset: float = 0.0) -> list[Any]:
    """suber ``Subtitle`` objects (``TimedWord`` with breaks and interpolated word times).

    Word times are suber's own (``set_approximate_word_times``: evenly spaced from the cue's
    start to its end, a 1e-8 s margin inside); a cue shorter than that margin gives all its
    words the cue's start (suber's own reader refuses such a cue). Empty cues are kept.
    """
    from suber.data_types import LineBreak, Subtitle, TimedWord
    from suber.utilities import set_approximate_word_times

    kinds = {0: LineBreak.NONE, EOL: LineBreak.END_OF_LINE, EOB: LineBreak.END_OF_BLOCK}
    out = []
    for k, c in enumerate(cues):
        if not c.timed:
            raise ValueError(f"subtitle {k + 1} has no start or end time")
        start, end = c.start + offset, c.end + offset
        words = [
            TimedWord(string=w, line_break=kinds[b], subtitle_start_time=start, subtitle_end_time=end)
            for w, b in zip(c.words, c.breaks, strict=True)
        ]
        if words:
            if end - start > 2e-8:
                set_approximate_word_times(words, start, end)
            else:
                for w in words:
                    w.approximate_word_time = start
        out.append(Subtitle(word_list=words, index=k + 1, start_time=start, end_time=end))
    return out


def _check_timed(ref: Sequence[Cue], hyp: Sequence[Cue]) -> NotApplicable | None:
    if not suber_available():
        return NotApplicable("the suber package is not installed (pip install 'segagree[suber]')")
    for side, cues in (("reference", ref), ("hypothesis", hyp)):
        untimed = [k + 1 for k, c in enumerate(cues) if not c.timed]
        if untimed:
            return NotApplicable(
                f"the {side} has subtitles without times (first: subtitle {untimed[0]})",
                {"untimed_subtitles": len(untimed)},
            )
    return None


def _by_start(cues: Sequence[Cue]) -> list[Cue]:
    return sorted(cues, key=lambda c: c.start)


def _segment_strings(segments: Sequence[Any]) -> list[str]:
    from suber.utilities import segment_to_string

    return [segment_to_string(s) for s in segments]


def time_aligned_segments(ref: Sequence[Cue], hyp: Sequence[Cue]) -> Segments | NotApplicable:
    """T-BLEU segments: the hypothesis's words distributed into the reference subtitles by time.

    suber's ``time_align_hypothesis_to_reference`` (subtitles sorted by start time first).
    """
    bad = _check_timed(ref, hyp)
    if bad:
        return bad
    from suber.hyp_to_ref_alignment import time_align_hypothesis_to_reference

    r = to_suber_subtitles(_by_start(ref))
    h = to_suber_subtitles(_by_start(hyp))
    aligned = time_align_hypothesis_to_reference(hypothesis=h, reference=r)
    return Segments(_segment_strings(aligned), _segment_strings(r))


def wer_aligned_segments(ref: Sequence[Cue], hyp: Sequence[Cue]) -> Segments | NotApplicable:
    """AS-BLEU segments: the hypothesis's words (breaks ignored) re-segmented into the reference
    subtitles by minimum edit distance (suber's ``levenshtein_align_hypothesis_to_reference``)."""
    if not suber_available():
        return NotApplicable("the suber package is not installed (pip install 'segagree[suber]')")
    from suber.data_types import LineBreak, Segment, Word
    from suber.hyp_to_ref_alignment import levenshtein_align_hypothesis_to_reference

    kinds = {0: LineBreak.NONE, EOL: LineBreak.END_OF_LINE, EOB: LineBreak.END_OF_BLOCK}
    r = [Segment(word_list=[Word(w, kinds[b]) for w, b in zip(c.words, c.breaks, strict=True)]) for c in ref]
    h = [Segment(word_list=[Word(w, kinds[b]) for w, b in zip(c.words, c.breaks, strict=True)]) for c in hyp]
    if not any(s.word_list for s in r):
        return NotApplicable("the reference has no words")
    aligned = levenshtein_align_hypothesis_to_reference(hypothesis=h, reference=r)
    return Segments(_segment_strings(aligned), _segment_strings(r))


def suber_score(pairs: Sequence[tuple[Sequence[Cue], Sequence[Cue]]], *, variant: str = "SubER") -> dict[str, Any]:
    """SubER of one or several (reference, hypothesis) cue lists.

    Several files are placed one after the other on the time axis (each shifted past the end
    of the previous pair, as SubER's own command line does with several files), so the score
    is total edits / total reference tokens; suber rounds it to 3 decimals.
    """
    if variant not in ("SubER", "SubER-cased"):
        raise ValueError(f"variant must be 'SubER' or 'SubER-cased', not {variant!r}")
    for ref, hyp in pairs:
        bad = _check_timed(ref, hyp)
        if bad:
            return bad.to_dict()
    from suber.metrics.suber import calculate_SubER

    all_ref: list[Any] = []
    all_hyp: list[Any] = []
    offset = 0.0
    for ref, hyp in pairs:
        r = to_suber_subtitles(_by_start(ref), offset)
        h = to_suber_subtitles(_by_start(hyp), offset)
        all_ref += r
        all_hyp += h
        ends = [s.end_time for s in r + h]
        offset = max([offset, *ends]) + 1e-3
    score = calculate_SubER(hypothesis=all_hyp, reference=all_ref, metric=variant)
    n_ref = sum(len(s.word_list) + sum(1 for w in s.word_list if w.line_break.value) for s in all_ref)
    return {
        "value": float(score),
        "variant": variant,
        "reference_tokens": n_ref,
        "signature": f"suber {_suber_version()}|{variant}",
    }


def tbhr_from(as_bleu: dict[str, Any], t_bleu: dict[str, Any]) -> dict[str, Any]:
    """TBHR = AS-BLEU - T-BLEU, with both beside."""
    if as_bleu.get("value") is None or t_bleu.get("value") is None:
        reason = as_bleu.get("reason") or t_bleu.get("reason") or "not applicable"
        return NotApplicable(reason).to_dict()
    return {
        "value": as_bleu["value"] - t_bleu["value"],
        "as_bleu": as_bleu["value"],
        "t_bleu": t_bleu["value"],
        "signature": t_bleu.get("signature", ""),
    }
