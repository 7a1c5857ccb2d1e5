"""Subtitle metrics on tagged sentences and SubER segments (pure functions, no Documents).

Two families, each reproducing its reference tool number for number:

**SubER** (Wilken, Georgakopoulou & Matusov 2022, IWSLT; the ``suber`` package 0.4,
``subtitle-edit-rate`` on PyPI): every metric its command line accepts (:data:`SUBER_METRICS`),
computed by :func:`suber_scores` with suber's own functions (``calculate_SubER``,
``calculate_word_error_rate``, ``calculate_character_error_rate``, ``calculate_sacrebleu_metric``,
``calculate_length_ratio``, ``levenshtein_align_hypothesis_to_reference``,
``time_align_hypothesis_to_reference``) on suber ``Segment``/``Subtitle`` objects, with the
dispatch of suber's ``__main__`` (``AS-`` re-segments the hypothesis by Levenshtein alignment,
``t-`` by subtitle times, both then score the segment-final break; metrics without a prefix
need equal segment counts; ``SubER*`` and ``t-*`` need times). The exceptions are for speed:

* ``SubER`` and ``SubER-cased``: segagree's compiled kernel of suber's edit distance
  (:mod:`segagree.metrics.subtitles.suber_kernel`), on suber's own word preparation;
* the TER metrics (``TER``, ``TER-seg``, ``TER-br`` and their ``AS-``/``t-`` variants; CJK
  languages excepted): the very token sequences suber's ``calculate_sacrebleu_metric`` builds,
  scored by segagree's compiled kernel of sacrebleu's TER with shifts
  (:mod:`segagree.metrics.subtitles.ter_kernel`, equal to ``translation_edit_rate``), once per
  distinct sentence pair, all pairs in one batch (or in worker processes: :class:`TerCache`,
  :func:`masked_ter`): corpus TER is summed edits over summed reference lengths, so the number is
  the same (checked against the suber command line in the tests).

**EvalSubtitle** (Karakanta, Buet, Cettolo & Yvon 2022, *Evaluating Subtitle Segmentation for
End-to-end Generation Systems*, LREC; reference code github.com/fatalinha/EvalSubtitle), on
sentences of words with the break tags after each word (several tags may follow one word):

* ``bleu_nb``: sacrebleu corpus BLEU (13a) over sentences without breaks; ``bleu_br``: with each
  break as a token; ``sigma`` = 100 * BLEU_br / BLEU_br upper bound, where the bound replaces the
  n-gram precisions by ``pp1 = (p1 + 100a)/(1+a)``, ``ppn = ((1-(n-1)a) pn + n a p(n-1))/(1+a)``
  with ``a`` = the hypothesis's breaks per word, and keeps BLEU_br's brevity penalty.
* ``ter_br``: sacrebleu TER (defaults) over sentences, every word masked, every break a token
  (the sentence-final break included; SubER's ``TER-br`` leaves it out, hence different values).
* ``cpl_conformity``: % of subtitle lines (the text between two breaks, words joined by one space)
  of at most ``max_cpl`` (42) characters.
* standard metrics (identical words): the whole text as one segmentation, the final ``<eob>``
  removed; per type ``eob`` (eol ignored), ``eol`` (eob ignored), ``eox`` (both as one type):
  masses, Pk and WindowDiff with segeval's window (round(mean reference mass / 2), at least 2;
  a word followed by two tags gives a zero mass, which counts in the mean as in segeval), S and B
  (n_t = 2, segeval's boundary sets) and precision/recall/F1 of boundary positions, the end of
  the text counted as a position on both sides (EvalSubtitle's ``f1_eval``); ``s``/``b`` over
  both types as a two-type segeval set segmentation (``<eob>`` type 1, ``<eol>`` type 2).

Also: reading speed (characters per second of each timed block) and lines-per-block conformity.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import accumulate
from typing import Any

EOB = 1
EOL = 2
TAG_TEXT: dict[int, str] = {EOB: "<eob>", EOL: "<eol>"}
#: One sentence: (word, break codes after the word) pairs.
Sentence = list[tuple[str, tuple[int, ...]]]

# Break tokens for BLEU_br: single tokens sacrebleu's 13a tokenizer leaves whole and no text holds.
_BLEU_BREAK = {EOB: "\ue001", EOL: "\ue002"}
# Tokens of masked TER (TER is blind to token names, so EvalSubtitle's and SubER's strings map here).
_MASK, _TER_BREAK = "#", {EOB: "§", EOL: "µ"}

#: The SubER 0.4 metrics that also come with an ``AS-`` (re-segmented) and ``t-`` (time-clipped) form.
_SUBER_SEGMENTABLE: tuple[str, ...] = (
    "WER",
    "CER",
    "BLEU",
    "TER",
    "chrF",
    "WER-cased",
    "CER-cased",
    "WER-seg",
    "BLEU-seg",
    "TER-seg",
    "TER-br",
)

#: Every metric name the SubER 0.4 command line accepts, in its order.
SUBER_METRICS: tuple[str, ...] = (
    "SubER",
    "SubER-cased",
    *_SUBER_SEGMENTABLE,
    *(f"{p}-{m}" for p in ("AS", "t") for m in _SUBER_SEGMENTABLE),
    "length_ratio",
)

TYPES: dict[str, str] = {"eob": "<eob> only", "eol": "<eol> only", "eox": "<eob> and <eol> as one type"}


@dataclass(frozen=True)
class NotApplicable:
    """A metric that cannot be computed for this input, and why."""

    reason: str
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"value": None, "applicable": False, "reason": self.reason, **self.details}


# --------------------------------------------------------------------------------------------
# Masked TER, shared by EvalSubtitle's TER_br and SubER's *TER-br
# --------------------------------------------------------------------------------------------
PairKey = tuple[tuple[str, ...], tuple[str, ...]]


def _ter_pairs(keys: Sequence[PairKey]) -> list[tuple[int, int]]:
    """sacrebleu's ``translation_edit_rate`` (edits, reference length) of each (hyp, ref) token
    pair, by the compiled kernel :mod:`segagree.metrics.subtitles.ter_kernel` (equal to sacrebleu, much faster)."""
    from segagree.metrics.subtitles.ter_kernel import ter_pairs

    return ter_pairs(keys)


# The TER statistics of every pair this process has computed. They are a function of the pair
# alone, so every scoring reuses them: the texts of a run and then their pooled score, a text's
# measures scored one by one. Emptied when it grows past _KNOWN_LIMIT pairs (memory stays bounded).
_KNOWN: dict[PairKey, tuple[int, int]] = {}
_KNOWN_LIMIT = 200_000


def forget_statistics() -> None:
    """Empty the process's kept TER statistics and sacrebleu statistics (:class:`TerCache`,
    :class:`~segagree.metrics.subtitles.sacrebleu_stats.SacrebleuStats`): the next scoring computes afresh."""
    from segagree.metrics.subtitles.sacrebleu_stats import SacrebleuStats

    _KNOWN.clear()
    SacrebleuStats.forget()


class TerCache:
    """Masked-TER statistics per distinct (hypothesis, reference) token pair, shared by metrics
    and kept for the process (:func:`forget_statistics` empties them).

    With ``jobs > 1``, :meth:`prefetch` hands pairs to worker processes at once and :meth:`get`
    waits only for the pair it needs, so the other metrics run meanwhile. Use as a context manager.
    """

    def __init__(self, jobs: int = 1) -> None:
        if len(_KNOWN) > _KNOWN_LIMIT:
            _KNOWN.clear()
        self.done: dict[PairKey, tuple[int, int]] = _KNOWN
        self._pending: dict[PairKey, Any] = {}
        self._pool: Any = None
        if jobs > 1:
            from concurrent.futures import ProcessPoolExecutor

            self._pool = ProcessPoolExecutor(max_workers=jobs)

    def __enter__(self) -> TerCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def prefetch(self, keys: Sequence[PairKey], chunk: int = 8) -> None:
        """Start computing ``keys`` in the workers (longest pairs first, for balance); without
        workers, compute them now in one call of the kernel."""
        todo = [k for k in dict.fromkeys(keys) if k not in self.done and k not in self._pending]
        if self._pool is None:
            self.done.update(zip(todo, _ter_pairs(todo), strict=True))
            return
        todo.sort(key=lambda k: -len(k[0]) * len(k[1]))
        for i in range(0, len(todo), chunk):
            part = todo[i : i + chunk]
            fut = self._pool.submit(_ter_pairs, part)
            for k in part:
                self._pending[k] = (fut, part)

    def get(self, key: PairKey) -> tuple[int, int]:
        if key not in self.done:
            if key in self._pending:
                fut, part = self._pending[key]
                for k, res in zip(part, fut.result(), strict=True):
                    self.done[k] = res
                    self._pending.pop(k, None)
            else:
                self.done[key] = _ter_pairs([key])[0]
        return self.done[key]


def masked_ter(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]], *, cache: TerCache | None = None
) -> dict[str, Any]:
    """sacrebleu corpus TER of (hypothesis tokens, reference tokens) pairs, each distinct pair once.

    Equal to ``TER().corpus_score`` on the joined strings when the tokens need no tokenisation
    (masks and break symbols): corpus TER is summed edits over summed reference lengths.
    """
    memo = cache if cache is not None else TerCache()
    keys = [(tuple(h), tuple(r)) for h, r in pairs]
    edits = 0.0
    length = 0.0
    for key in keys:
        e, n = memo.get(key)
        edits += e
        length += n
    if length > 0:
        score = edits / length
    else:
        score = 1.0 if edits > 0 else 0.0
    return {"value": 100 * score, "num_edits": edits, "ref_length": length, "n_segments": len(keys)}


# --------------------------------------------------------------------------------------------
# EvalSubtitle: end-to-end metrics (any hypothesis)
# --------------------------------------------------------------------------------------------
def _joined(sent: Sentence, breaks: bool) -> str:
    out: list[str] = []
    for w, tags in sent:
        out.append(w)
        if breaks:
            out.extend(_BLEU_BREAK[t] for t in tags)
    return " ".join(out)


def _check_counts(ref: Sequence[Sentence], hyp: Sequence[Sentence]) -> NotApplicable | None:
    if not ref and not hyp:
        # sacrebleu fails on zero segments, and a TER of 0 edits over 0 words would read as perfect.
        return NotApplicable(
            "no sentences to compare (EvalSubtitle's SRT reading cuts sentences after sentence-final "
            "punctuation, and drops the words after the last cut)",
            {"n_hypothesis_sentences": 0, "n_reference_sentences": 0},
        )
    if len(ref) != len(hyp):
        return NotApplicable(
            f"the hypothesis has {len(hyp)} sentences and the reference {len(ref)}; "
            "EvalSubtitle's BLEU_br, BLEU_nb, Sigma and TER_br compare sentence i with sentence i",
            {"n_hypothesis_sentences": len(hyp), "n_reference_sentences": len(ref)},
        )
    return None


def sigma_scores(
    ref: Sequence[Sentence], hyp: Sequence[Sentence], stats: Any = None
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """EvalSubtitle's Sigma, BLEU_br and BLEU_nb, in that order (see the module docstring).

    The two corpus BLEUs are sacrebleu's ``BLEU().corpus_score`` run step by step by ``stats`` (a
    :class:`~segagree.metrics.subtitles.sacrebleu_stats.SacrebleuStats`, fresh when None): given the one
    SubER's BLEU used, a sentence pair both score (BLEU_nb's strings are SubER's plain ``BLEU``
    strings on tagged text) is computed once."""
    bad = _check_counts(ref, hyp)
    if bad:
        return bad.to_dict(), bad.to_dict(), bad.to_dict()
    from sacrebleu.metrics import BLEU

    from segagree.metrics.subtitles.sacrebleu_stats import SacrebleuStats

    stats = stats if stats is not None else SacrebleuStats()
    nb = stats.corpus_score("BLEU", [_joined(s, False) for s in hyp], [_joined(s, False) for s in ref])
    br = stats.corpus_score("BLEU", [_joined(s, True) for s in hyp], [_joined(s, True) for s in ref])
    n_words = sum(len(s) for s in hyp)
    n_breaks = sum(len(t) for s in hyp for _, t in s)
    bleu = BLEU()
    bleu.num_refs = 1  # what corpus_score finds with one reference per sentence (the signature's nrefs)
    sig = str(bleu.get_signature())
    nb_res = {"value": float(nb.score), "precisions": list(nb.precisions), "bp": nb.bp, "signature": sig}
    br_res = {"value": float(br.score), "precisions": list(br.precisions), "bp": br.bp, "signature": sig}
    if not n_words:
        return NotApplicable("the hypothesis has no words").to_dict(), br_res, nb_res
    a = n_breaks / n_words
    p1, p2, p3, p4 = nb.precisions
    ub = [
        (p1 + a * 100) / (1 + a),
        ((1 - a) * p2 + 2 * a * p1) / (1 + a),
        ((1 - 2 * a) * p3 + 3 * a * p2) / (1 + a),
        ((1 - 3 * a) * p4 + 4 * a * p3) / (1 + a),
    ]
    if min(ub) <= 0:
        return NotApplicable("an upper-bound n-gram precision is 0 (no matching n-grams)").to_dict(), br_res, nb_res
    bound = br.bp * math.exp(sum(math.log(p) for p in ub) / 4)
    sigma = {"value": 100 * br.score / bound, "alpha": a, "upper_bound": bound, "bleu_with_breaks": br.score}
    return sigma, br_res, nb_res


def _masked(s: Sentence) -> tuple[str, ...]:
    out: list[str] = []
    for _, tags in s:
        out.append(_MASK)
        out.extend(_TER_BREAK[t] for t in tags)
    return tuple(out)


def ter_br_pairs(ref: Sequence[Sentence], hyp: Sequence[Sentence]) -> list[PairKey]:
    """The masked (hypothesis, reference) token pairs of EvalSubtitle's TER_br."""
    return [(_masked(h), _masked(r)) for h, r in zip(hyp, ref, strict=True)]


def ter_br_scores(ref: Sequence[Sentence], hyp: Sequence[Sentence], *, cache: TerCache | None = None) -> dict[str, Any]:
    """EvalSubtitle's TER_br: masked words, every break a token, sentence by sentence."""
    bad = _check_counts(ref, hyp)
    if bad:
        return bad.to_dict()
    return masked_ter(ter_br_pairs(ref, hyp), cache=cache)


def subtitle_lines(sents: Sequence[Sentence]) -> list[str]:
    """The text between breaks over the whole file (a final break ends the last line)."""
    lines: list[str] = []
    cur: list[str] = []
    flat = [(w, t) for s in sents for w, t in s]
    for i, (w, tags) in enumerate(flat):
        cur.append(w)
        last = i == len(flat) - 1
        for k, _ in enumerate(tags):
            if last and k == len(tags) - 1:
                break  # the file's final break ends the last line, not an empty one
            lines.append(" ".join(cur))
            cur = []
    if cur or flat:
        lines.append(" ".join(cur))
    return lines


def cpl_conformity(sents: Sequence[Sentence], max_cpl: int = 42) -> dict[str, Any]:
    """% of subtitle lines of at most ``max_cpl`` characters (EvalSubtitle's CPL conformity)."""
    lines = subtitle_lines(sents)
    if not lines:
        return NotApplicable("no subtitle lines").to_dict()
    ok = sum(len(line) <= max_cpl for line in lines)
    return {"value": 100 * ok / len(lines), "conforming": ok, "n_lines": len(lines), "max_cpl": max_cpl}


# --------------------------------------------------------------------------------------------
# EvalSubtitle: standard segmentation metrics (identical words)
# --------------------------------------------------------------------------------------------
def tag_masses(sents: Sequence[Sentence]) -> dict[str, list[int]]:
    """Segment masses per type over the whole text, the final ``<eob>`` removed (``get_masses``)."""
    stream: list[int] = []  # 0 = a word, else a break code
    for s in sents:
        for _, tags in s:
            stream.append(0)
            stream.extend(tags)
    if stream and stream[-1] == EOB:
        stream.pop()
    out: dict[str, list[int]] = {}
    for name, cuts in (("eob", {EOB}), ("eol", {EOL}), ("eox", {EOB, EOL})):
        masses = [0]
        for x in stream:
            if x == 0:
                masses[-1] += 1
            elif x in cuts:
                masses.append(0)
        out[name] = masses
    return out


def _gap_sets(masses: Sequence[int], code: int = 1) -> list[frozenset[int]]:
    n = sum(masses)
    cuts = set(list(accumulate(masses))[:-1])
    return [frozenset((code,)) if i + 1 in cuts else frozenset() for i in range(n - 1)]


def _gap_segmentation(masses: Sequence[int]) -> Any:
    """The :class:`~segagree.metrics.boundary.masses.Segmentation` of ``_gap_sets(masses)`` (type 1 at
    every cut; zero masses cut at the same gap), built with numpy instead of from the sets: the
    same gap array, so every measure given it has the same numbers."""
    import numpy as np

    from segagree.metrics.boundary.masses import Segmentation

    n = sum(masses)
    cuts = np.cumsum(np.asarray(masses, dtype=np.int64))[:-1] - 1  # gap i is cut when i + 1 is a cut
    gaps = np.zeros(max(n - 1, 0), dtype=np.int64)
    gaps[cuts[(cuts >= 0) & (cuts < n - 1)]] = 1
    return Segmentation(n, gaps)


def _two_type_segmentation(eob: Any, eol: Any) -> Any:
    """The Segmentation of the gap sets ``{1}`` (an ``<eob>`` cut), ``{2}`` (``<eol>``), both or none,
    from the two one-type Segmentations: what ``as_segmentation`` gives for those sets (a gap
    array when no gap holds both types, else the sets), built from the arrays."""
    from segagree.metrics.boundary.masses import Segmentation

    codes = eob.gaps + 2 * eol.gaps
    if not (codes == 3).any():
        return Segmentation(eob.n_units, codes)
    kinds: tuple[frozenset[int], ...] = (frozenset(), frozenset((1,)), frozenset((2,)), frozenset((1, 2)))
    return Segmentation(eob.n_units, None, tuple(kinds[c] for c in codes.tolist()))


def segeval_window(masses: Sequence[int]) -> int:
    """segeval's default window: round(mean mass / 2) half-to-even, at least 2 (zero masses count)."""
    k = round(Fraction(sum(masses), 2 * len(masses)))
    return k if k > 1 else 2


def _f1(ref_masses: Sequence[int], hyp_masses: Sequence[int]) -> dict[str, Any]:
    r, h = frozenset(accumulate(ref_masses)), frozenset(accumulate(hyp_masses))
    tp = len(r & h)
    p = tp / len(h) if h else 0.0
    rc = tp / len(r) if r else 0.0
    f = 2 * p * rc / (p + rc) if p + rc else 0.0
    return {"value": f, "precision": p, "recall": rc, "tp": tp, "n_hypothesis": len(h), "n_reference": len(r)}


def standard_scores(
    ref: Sequence[Sentence], hyp: Sequence[Sentence], *, n_t: int = 2, window: int | None = None
) -> dict[str, Any]:
    """Per break type: f1_T, pk_T, windowdiff_T, s_T, b_T; and s, b over both types.

    Returns results with their additive ``stats`` (``_stats`` key) for pooling; the words must be
    identical (or the hypothesis projected onto the reference's words).
    """
    from segagree.metrics.boundary.boundary_edit import boundary_similarity, segmentation_similarity
    from segagree.metrics.boundary.windows import pk, windowdiff

    rm, hm = tag_masses(ref), tag_masses(hyp)
    n = sum(rm["eob"])
    if n != sum(hm["eob"]):
        raise ValueError(f"the texts have {n} and {sum(hm['eob'])} words; standard metrics need the same words")
    out: dict[str, Any] = {}
    segs: dict[str, tuple[Any, Any]] = {}
    for t in TYPES:
        out[f"f1_{t}"] = _f1(rm[t], hm[t])
        # Each side converted once, for the four measures below (and s, b over both types).
        rs, hs = segs[t] = _gap_segmentation(rm[t]), _gap_segmentation(hm[t])
        if n < 2:
            for name in (f"pk_{t}", f"windowdiff_{t}", f"s_{t}", f"b_{t}"):
                out[name] = NotApplicable("a one-word text has no gaps").to_dict()
            continue
        k = min(window or segeval_window(rm[t]), n - 1)
        for name, fn in ((f"pk_{t}", pk), (f"windowdiff_{t}", windowdiff)):
            res = fn(rs, hs, k, fmt="sets")
            out[name] = {"value": res.value, "window_size": res.k, "_stats": res.stats}
        for name, sim in ((f"s_{t}", segmentation_similarity), (f"b_{t}", boundary_similarity)):
            sr = sim(hs, rs, n_t, fmt="sets")
            out[name] = {"value": float(sr.value), "n_t": n_t, "_stats": sr.stats}
    if n >= 2:
        seg_r = _two_type_segmentation(segs["eob"][0], segs["eol"][0])
        seg_h = _two_type_segmentation(segs["eob"][1], segs["eol"][1])
        for name, sim in (("s", segmentation_similarity), ("b", boundary_similarity)):
            sr = sim(seg_h, seg_r, n_t, fmt="sets")
            out[name] = {"value": float(sr.value), "n_t": n_t, "_stats": sr.stats}
    else:
        out["s"] = out["b"] = NotApplicable("a one-word text has no gaps").to_dict()
    return out


# --------------------------------------------------------------------------------------------
# Reading speed and lines per block
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Cue:
    """One subtitle cue (block) as displayed: the one cue model of the subtitle metrics (reading
    speed, lines per block) and the style checks (:mod:`segagree.scoring.subtitles.style`).

    Attributes:
        lines: the displayed lines (built by :func:`segagree.scoring.subtitles.cues.cues_of`: words joined by
            one space, markup removed, a dialogue dash or ``NAME:`` label as the file showed it).
        start, end: the span in seconds (NaN when untimed).
        number: 1-based position in the file (0 when not from a file).
    """

    lines: tuple[str, ...]
    start: float = math.nan
    end: float = math.nan
    number: int = 0

    @property
    def text(self) -> str:
        """The cue's text, its lines joined by a line break."""
        return "\n".join(self.lines)

    @property
    def chars(self) -> int:
        """Characters a viewer reads: the lines' characters, the line break itself not counted."""
        return sum(len(x) for x in self.lines)


Block = Cue  # the metrics' former name for a cue


def reading_speed(blocks: Sequence[Cue], max_cps: float = 21.0) -> dict[str, Any]:
    """Characters per second: the mean over timed blocks of (characters / duration), the pooled rate
    (all characters / all time) and the % of blocks at most ``max_cps``; characters are the
    lines' characters, line breaks not counted."""
    timed = [b for b in blocks if not (math.isnan(b.start) or math.isnan(b.end)) and b.end > b.start]
    if not timed:
        return NotApplicable("no block has a start and end time with a positive duration").to_dict()
    cps = [b.chars / (b.end - b.start) for b in timed]
    chars = sum(b.chars for b in timed)
    secs = sum(b.end - b.start for b in timed)
    ok = sum(c <= max_cps for c in cps)
    return {
        "value": sum(cps) / len(cps),
        "pooled_cps": chars / secs,
        "max_cps": max_cps,
        "conformity": 100 * ok / len(cps),
        "n_blocks": len(cps),
        "untimed_blocks": len(blocks) - len(timed),
    }


def lines_per_block(blocks: Sequence[Cue], max_lines: int = 2) -> dict[str, Any]:
    """% of blocks with at most ``max_lines`` lines."""
    if not blocks:
        return NotApplicable("no blocks").to_dict()
    ok = sum(len(b.lines) <= max_lines for b in blocks)
    return {
        "value": 100 * ok / len(blocks),
        "conforming": ok,
        "n_blocks": len(blocks),
        "max_lines": max_lines,
        "mean_lines": sum(len(b.lines) for b in blocks) / len(blocks),
    }


# --------------------------------------------------------------------------------------------
# SubER
# --------------------------------------------------------------------------------------------
def suber_available() -> bool:
    """Whether the ``suber`` package (subtitle-edit-rate) can be imported."""
    try:
        import suber.metrics.suber  # noqa: F401
    except ImportError:
        return False
    return True


def suber_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("subtitle-edit-rate")
    except PackageNotFoundError:
        return "unknown"


_CANON = {"<mask>": _MASK, "eob": _TER_BREAK[EOB], "eol": _TER_BREAK[EOL]}


def _suber_ter_pairs(hyp: Sequence[Any], ref: Sequence[Any], metric: str, final: bool) -> list[PairKey]:
    """The token pairs suber's ``calculate_sacrebleu_metric`` scores for ``TER``, ``TER-seg`` or
    ``TER-br`` (no CJK language): its strings, sacrebleu TER's default tokenisation of each."""
    from functools import partial

    from sacrebleu.metrics import TER
    from suber.utilities import get_segment_to_string_opts_from_metric

    from segagree.metrics.subtitles.suber_strings import segment_string, tokens

    include_breaks, mask, _ = get_segment_to_string_opts_from_metric(metric)
    to_string = partial(
        segment_string, include_line_breaks=include_breaks, mask_all_words=mask, include_last_break=final
    )
    tokenize = TER()._preprocess_segment  # what corpus_score applies to each hypothesis and reference
    keep = [i for i, s in enumerate(ref) if s.word_list]  # suber skips empty reference segments
    out: list[PairKey] = []
    for i in keep:
        pair = []
        for seg in (hyp[i], ref[i]):
            text = to_string(seg)
            if include_breaks:
                text = text.replace("<eol>", "eol").replace("<eob>", "eob")
            toks = tokens("sacrebleu TER()", tokenize, text).split()
            if mask:  # TER only compares tokens: EvalSubtitle's mask and break symbols share the cache
                toks = [_CANON[t] for t in toks]
            pair.append(tuple(toks))
        out.append((pair[0], pair[1]))
    return out


def _ter_suber(hyp: Sequence[Any], ref: Sequence[Any], metric: str, final: bool, cache: TerCache | None) -> float:
    """suber's ``calculate_sacrebleu_metric`` for the TER metrics, through :func:`masked_ter`."""
    return round(masked_ter(_suber_ter_pairs(hyp, ref, metric, final), cache=cache)["value"], 3)


_TER_FAMILY = ("TER", "TER-seg", "TER-br")
_SACREBLEU_SHARED = ("BLEU", "BLEU-seg", "chrF")


def _suber_metric(
    metric: str,
    hyp: Sequence[Any],
    reference: Sequence[Any],
    final: bool,
    language: str | None,
    cache: TerCache | None,
    bleus: Any,
) -> float:
    """One SubER metric (without its AS-/t- prefix) of segments already aligned as it needs
    (``final``: the hypothesis was aligned to the reference, so a break scores at a segment's end):
    our SubER and TER kernels, rapidfuzz counts and sacrebleu's shared statistics where they give suber's
    numbers (tested against suber), suber's own functions otherwise."""
    from suber.metrics.cer import calculate_character_error_rate
    from suber.metrics.jiwer_interface import calculate_word_error_rate
    from suber.metrics.sacrebleu_interface import calculate_sacrebleu_metric

    from segagree.metrics.subtitles import suber_counts as counts
    from segagree.metrics.subtitles.suber_kernel import suber_score

    cjk = language in ("zh", "ja", "ko")
    if metric.startswith("SubER"):
        return suber_score(hyp, reference, metric, language)
    if counts.handles(metric, language):  # suber's numbers, counted by rapidfuzz (suber_counts)
        if metric.startswith("WER"):
            return counts.word_error_rate(hyp, reference, metric, final, language)
        return counts.character_error_rate(hyp, reference, metric)
    if metric.startswith("WER"):
        return calculate_word_error_rate(
            hypothesis=hyp, reference=reference, metric=metric, score_break_at_segment_end=final, language=language
        )
    if metric.startswith("CER"):
        return calculate_character_error_rate(hypothesis=hyp, reference=reference, metric=metric)
    if metric in _TER_FAMILY and not cjk:
        return _ter_suber(hyp, reference, metric, final, cache)
    if metric in _SACREBLEU_SHARED and any(s.word_list for s in reference):
        # sacrebleu's own steps, each reference and segment pair once (sacrebleu_stats)
        return bleus.suber_metric(hyp, reference, metric, final, language)
    return calculate_sacrebleu_metric(
        hypothesis=hyp, reference=reference, metric=metric, score_break_at_segment_end=final, language=language
    )


def suber_scores(
    hypothesis: Sequence[Any],
    reference: Sequence[Any],
    names: Sequence[str] = SUBER_METRICS,
    *,
    language: str | None = None,
    cache: TerCache | None = None,
    extra_masked: Sequence[PairKey] = (),
    bleus: Any = None,
) -> tuple[dict[str, float], dict[str, str]]:
    """SubER metrics of suber segments, as the suber command line computes them.

    Returns ``(values, not_applicable)``: ``values`` maps each computable metric to suber's
    rounded number (in the command line's order), ``not_applicable`` the others to the reason.
    The masked-TER pairs of every ``*TER-br`` metric (and ``extra_masked``, e.g. EvalSubtitle's
    TER_br) go to ``cache`` first, so that its workers compute them while the other metrics run.
    ``bleus`` (a :class:`~segagree.metrics.subtitles.sacrebleu_stats.SacrebleuStats`) keeps the BLEU and chrF
    statistics of each segment pair; pass the same one to several calls (a file and the pooled
    files) to compute each pair once.
    """
    from suber.data_types import Subtitle

    from segagree.metrics.subtitles.sacrebleu_stats import SacrebleuStats

    if bleus is None:
        bleus = SacrebleuStats()  # BLEU and chrF statistics shared by the plain, AS- and t- forms

    timed = bool(hypothesis) and bool(reference)
    timed = timed and all(isinstance(s, Subtitle) for s in (*hypothesis, *reference))
    values: dict[str, float] = {}
    skipped: dict[str, str] = {}
    wanted = list(dict.fromkeys(names))
    for full in wanted:
        if full not in SUBER_METRICS:
            raise ValueError(f"unknown SubER metric {full!r}; known: {', '.join(SUBER_METRICS)}")
    # SubER's kernel runs without the GIL: with a second CPU, both variants are computed in threads
    # while the other metrics are computed here.
    suber_threads = _suber_in_threads(hypothesis, reference, wanted, language) if timed else {}
    try:
        as_aligned, t_aligned = _prefetch_ter(hypothesis, reference, wanted, timed, language, cache, extra_masked)
        _suber_metrics_in_turn(
            hypothesis,
            reference,
            wanted,
            timed,
            language,
            cache,
            bleus,
            suber_threads,
            values,
            skipped,
            (as_aligned, t_aligned),
        )
    finally:
        for future in suber_threads.values():
            future.cancel()
    return {m: values[m] for m in wanted if m in values}, skipped


def _prefetch_ter(
    hypothesis: Sequence[Any],
    reference: Sequence[Any],
    wanted: Sequence[str],
    timed: bool,
    language: str | None,
    cache: TerCache | None,
    extra_masked: Sequence[PairKey],
) -> tuple[list[Any] | None, list[Any] | None]:
    """Every TER metric's sentence pairs sent to ``cache``'s workers now (equal pairs computed once);
    the AS- and t- alignments this needed (None where not made)."""
    from suber.hyp_to_ref_alignment import levenshtein_align_hypothesis_to_reference, time_align_hypothesis_to_reference

    as_aligned: list[Any] | None = None
    t_aligned: list[Any] | None = None
    if cache is None or language in ("zh", "ja", "ko"):
        return as_aligned, t_aligned
    pairs: list[PairKey] = list(extra_masked)
    for m in _TER_FAMILY:
        if f"AS-{m}" in wanted and reference:
            if as_aligned is None:
                as_aligned = levenshtein_align_hypothesis_to_reference(
                    hypothesis=hypothesis, reference=reference, language=language
                )
            pairs += _suber_ter_pairs(as_aligned, reference, m, True)
        if f"t-{m}" in wanted and timed:
            if t_aligned is None:
                t_aligned = time_align_hypothesis_to_reference(
                    hypothesis=hypothesis, reference=reference, language=language
                )
            pairs += _suber_ter_pairs(t_aligned, reference, m, True)
        if m in wanted and len(hypothesis) == len(reference):
            pairs += _suber_ter_pairs(hypothesis, reference, m, False)
    cache.prefetch(pairs)
    return as_aligned, t_aligned


def _suber_in_threads(
    hypothesis: Sequence[Any], reference: Sequence[Any], wanted: Sequence[str], language: str | None
) -> dict[str, Any]:
    """``SubER`` and ``SubER-cased`` started in threads (futures by name) when this process may use
    two CPUs or more; none otherwise."""
    from concurrent.futures import ThreadPoolExecutor

    from segagree.cpus import usable_cpus
    from segagree.metrics.subtitles.suber_kernel import suber_score

    names = [m for m in wanted if m in ("SubER", "SubER-cased")]
    if not names or usable_cpus() < 2:
        return {}
    pool = ThreadPoolExecutor(max_workers=len(names), thread_name_prefix="suber")
    try:
        return {m: pool.submit(suber_score, hypothesis, reference, m, language) for m in names}
    finally:
        pool.shutdown(wait=False)


def _suber_metrics_in_turn(
    hypothesis: Sequence[Any],
    reference: Sequence[Any],
    wanted: Sequence[str],
    timed: bool,
    language: str | None,
    cache: TerCache | None,
    bleus: Any,
    suber_threads: dict[str, Any],
    values: dict[str, float],
    skipped: dict[str, str],
    aligned: tuple[list[Any] | None, list[Any] | None],
) -> None:
    """The metrics of :func:`suber_scores` one by one into ``values`` (or ``skipped`` with the
    reason), taking SubER's from ``suber_threads`` and the AS-/t- segments from ``aligned``."""
    from suber.hyp_to_ref_alignment import levenshtein_align_hypothesis_to_reference, time_align_hypothesis_to_reference
    from suber.metrics.length_ratio import calculate_length_ratio

    as_aligned, t_aligned = aligned
    # The TER metrics last: their pairs are being computed meanwhile.
    for full in sorted(wanted, key=lambda m: m.split("-", 1)[-1] in _TER_FAMILY or m in _TER_FAMILY):
        if full == "length_ratio":
            values[full] = calculate_length_ratio(hypothesis=hypothesis, reference=reference, language=language)
            continue
        metric, hyp, final = full, hypothesis, False
        if not hypothesis and not reference:
            # suber (sacrebleu) fails on zero segments: two files with no words have nothing to score.
            skipped[full] = "neither file has a subtitle with words"
            continue
        if (full.startswith("SubER") or full.startswith("t-")) and not timed:
            empty = "the reference" if not reference else "the hypothesis" if not hypothesis else None
            skipped[full] = (
                f"{empty} has no subtitle with words"
                if empty
                else "needs subtitle times on both sides (SRT input, not tagged text)"
            )
            continue
        if full.startswith("AS-") and not reference:
            # SubER aligns the hypothesis to the reference's segments: with none, it fails (IndexError).
            skipped[full] = "the reference has no subtitle with words to align the hypothesis to"
            continue
        if full.startswith("AS-"):
            if as_aligned is None:
                as_aligned = levenshtein_align_hypothesis_to_reference(
                    hypothesis=hypothesis, reference=reference, language=language
                )
            metric, hyp, final = full[3:], as_aligned, True
        elif full.startswith("t-"):
            if t_aligned is None:
                t_aligned = time_align_hypothesis_to_reference(
                    hypothesis=hypothesis, reference=reference, language=language
                )
            metric, hyp, final = full[2:], t_aligned, True
        elif not full.startswith("SubER") and len(hypothesis) != len(reference):
            skipped[full] = (
                f"needs the same number of segments in hypothesis and reference, got {len(hypothesis)} "
                f"and {len(reference)} (use the AS- or t- variant)"
            )
            continue
        if metric.endswith("TER-br") and language in ("zh", "ja", "ko"):
            skipped[full] = f"suber does not implement TER-br for language {language!r}"
            continue
        if full in suber_threads:
            values[full] = suber_threads[full].result()
            continue
        values[full] = _suber_metric(metric, hyp, reference, final, language, cache, bleus)
