"""SubER's WER and CER families, counted without jiwer's and suber's Python loops.

suber 0.4 computes (``suber.metrics.jiwer_interface.calculate_word_error_rate`` and
``suber.metrics.cer.calculate_character_error_rate``):

* **WER** (``WER``, ``WER-seg``, ``WER-br``; plain, ``AS-`` and ``t-``): each segment's string
  (:func:`suber.utilities.segment_to_string`) goes through jiwer's transforms ``ToLowerCase``,
  ``RemovePunctuation`` (every character whose Unicode category starts with ``P``),
  ``RemoveSpecificWords(['…'])`` and ``ReduceToListOfListOfWords`` (split on ``" "``, empty
  words dropped); jiwer 4's ``wer`` is then (S + D + I) / (H + S + D) of rapidfuzz's Levenshtein
  opcodes per segment, i.e. the summed word-level Levenshtein distances over the summed reference
  words. ``WER-cased`` replaces the transforms by suber's ``Tokenize`` (sacrebleu's Tercom
  tokenizer) and the split.
* **CER** (``CER``, ``CER-cased``): summed character Levenshtein distances
  (``suber.lib_levenshtein.distance``, a pure-Python port of rapidfuzz's) over summed reference
  characters, after ``regex.sub(r"\\p{P}", "", s).lower()`` unless cased.

Here the same strings go through the same transforms, and the distances come from rapidfuzz's
C++ ``Levenshtein.distance`` (a distance is one number, whichever alignment reaches it): the
values are suber's, to the last digit (tests/metrics/test_suber_counts.py compares every metric
with suber's own functions on every real pair of the shared MuST-Cinema files). Languages that
suber tokenises specially (zh, ja, ko) are left to suber itself (:func:`handles`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import partial
from typing import Any

_EAST_ASIAN = ("zh", "ja", "ko")  # suber.constants.EAST_ASIAN_LANGUAGE_CODES
_PUNCT: dict[str, bool] = {}  # character -> whether jiwer's RemovePunctuation removes it


def handles(metric: str, language: str | None) -> bool:
    """Whether :func:`word_error_rate` / :func:`character_error_rate` compute ``metric`` (without
    an ``AS-``/``t-`` prefix) for ``language`` as suber does."""
    return language not in _EAST_ASIAN and (metric.startswith("WER") or metric in ("CER", "CER-cased"))


_DROP: dict[int, None] = {}  # str.translate table: the punctuation characters seen so far


def _strip_punctuation(s: str) -> str:
    """jiwer's ``RemovePunctuation``: drop every character whose category starts with ``P``
    (jiwer builds that set over all code points; here each new character is looked up once)."""
    for ch in set(s).difference(_PUNCT):
        _PUNCT[ch] = punct = unicodedata.category(ch).startswith("P")
        if punct:
            _DROP[ord(ch)] = None
    return s.translate(_DROP)


def _words_plain(s: str) -> list[str]:
    """ToLowerCase, RemovePunctuation, RemoveSpecificWords(['…']), ReduceToListOfListOfWords."""
    # RemoveSpecificWords(['…']) has nothing left to remove: '…' is punctuation (Po), gone here
    # (tests/metrics/test_suber_counts.py checks that).
    s = _strip_punctuation(s.lower())
    return [w for w in s.split(" ") if len(w) >= 1]


def _strings(segments: Sequence[Any], metric: str, final: bool) -> list[str]:
    from suber.utilities import get_segment_to_string_opts_from_metric

    from segagree.metrics.subtitles.suber_strings import segment_string

    include_breaks, mask, _ = get_segment_to_string_opts_from_metric(metric)
    to_string = partial(
        segment_string, include_line_breaks=include_breaks, mask_all_words=mask, include_last_break=final
    )
    return [to_string(s) for s in segments]


def word_error_rate(
    hypothesis: Sequence[Any],
    reference: Sequence[Any],
    metric: str = "WER",
    final: bool = True,
    language: str | None = None,
) -> float:
    """suber's ``calculate_word_error_rate(hypothesis, reference, metric, final, language)``."""
    from rapidfuzz.distance import Levenshtein

    from segagree.metrics.subtitles.suber_strings import tokens

    if len(hypothesis) != len(reference):
        raise ValueError("Number of hypothesis segments does not match reference, alignment step missing?")
    if metric == "WER-cased":
        from suber.metrics.jiwer_interface import Tokenize

        tok = Tokenize(language)

        def cased(s: str) -> list[str]:
            return [w for w in tok.process_string(s).split(" ") if len(w) >= 1]

        kind, split, metric = f"suber WER-cased words ({language})", cased, "WER"
    else:
        kind, split = "suber WER words", _words_plain

    def words(s: str) -> list[str]:
        return tokens(kind, split, s)  # the same word lists for the plain and AS- forms (not changed below)

    hyp = _strings(hypothesis, metric, final)
    ref = _strings(reference, metric, final)
    edits = 0
    n_ref = 0
    for h, r in zip(hyp, ref, strict=True):
        rw = words(r)
        edits += Levenshtein.distance(rw, words(h))
        n_ref += len(rw)
    # jiwer: with no reference word, the "rate" is the number of insertions
    score = float(edits) / float(n_ref) if n_ref else edits
    return round(score * 100, 3)


def character_error_rate(hypothesis: Sequence[Any], reference: Sequence[Any], metric: str = "CER") -> float:
    """suber's ``calculate_character_error_rate(hypothesis, reference, metric)``."""
    import regex
    from rapidfuzz.distance import Levenshtein

    if len(hypothesis) != len(reference):
        raise ValueError("Number of hypothesis segments does not match reference, alignment step missing?")
    hyp = _strings(hypothesis, "CER", True)
    ref = _strings(reference, "CER", True)
    if metric != "CER-cased":
        punct = regex.compile(r"\p{P}")
        hyp = [punct.sub("", s).lower() for s in hyp]
        ref = [punct.sub("", s).lower() for s in ref]
    edits = 0
    n_ref = 0
    for h, r in zip(hyp, ref, strict=True):
        edits += Levenshtein.distance(h, r)
        n_ref += len(r)
    score = edits / n_ref if n_ref else (1.0 if edits else 0.0)
    return round(score * 100, 3)
