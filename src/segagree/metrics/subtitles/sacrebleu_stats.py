"""SubER's BLEU and chrF families from sacrebleu's per-segment statistics, each computed once.

suber 0.4's ``calculate_sacrebleu_metric`` (``BLEU``, ``BLEU-seg``, ``chrF`` and their ``AS-``/``t-``
forms) builds one string per segment (``segment_to_string``; ``<eol>``/``<eob>`` written ``eol``/
``eob`` when breaks are included; segments whose reference is empty left out) and calls
sacrebleu's ``corpus_score``, which is: preprocess each reference and extract its information
(``_extract_reference_info``), preprocess each hypothesis and compute the segment's statistics
against it (``_compute_segment_statistics``), then score the summed statistics
(``_aggregate_and_compute``). A segment's statistics depend only on its (hypothesis, reference)
strings, and the statistics are integer counts, whose sum does not depend on the order.

:class:`SacrebleuStats` runs those same sacrebleu steps but keeps each reference's information and
each pair's statistics: ``BLEU`` and ``AS-BLEU`` (and ``chrF``/``AS-chrF``) share every reference
and every segment the re-segmentation left unchanged. The values are suber's to the last digit
(tests/metrics/test_sacrebleu_stats.py checks them against suber's function on the real pairs);
sacrebleu stays the only implementation of the metrics.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

#: The sacrebleu metrics of suber's ``calculate_sacrebleu_metric`` that this module computes.
KINDS = ("BLEU", "chrF")


class SacrebleuStats:
    """Per-segment sacrebleu statistics of SubER's BLEU and chrF metrics, kept between metrics and
    for the process: every instance shares them (they depend on the strings and settings alone),
    until :meth:`forget`, or past :data:`LIMIT` segment pairs."""

    #: kept segment pairs beyond which the statistics are emptied (memory stays bounded)
    LIMIT = 200_000
    _METRICS: dict[tuple[str, str | None], Any] = {}
    _REFS: dict[tuple[str, str | None, str], Any] = {}
    _PAIRS: dict[tuple[str, str | None, str, str], list[Any]] = {}

    def __init__(self) -> None:
        if len(self._PAIRS) > self.LIMIT:
            self.forget()
        self._metrics = SacrebleuStats._METRICS
        self._refs = SacrebleuStats._REFS
        self._pairs = SacrebleuStats._PAIRS

    @staticmethod
    def forget() -> None:
        """Empty the statistics every instance shares."""
        SacrebleuStats._REFS.clear()
        SacrebleuStats._PAIRS.clear()

    def _metric(self, kind: str, language: str | None) -> Any:
        key = (kind, language)
        if key not in self._metrics:
            from sacrebleu.metrics import BLEU, CHRF

            self._metrics[key] = BLEU(trg_lang=language or "") if kind == "BLEU" else CHRF()
        return self._metrics[key]

    def corpus_score(self, kind: str, hyps: Sequence[str], refs: Sequence[str], language: str | None = None) -> Any:
        """sacrebleu's ``corpus_score(hyps, [refs])`` of ``kind`` (BLEU: ``trg_lang=language``)."""
        metric = self._metric(kind, language)
        stats = []
        for hyp, ref in zip(hyps, refs, strict=True):
            key = (kind, language, hyp, ref)
            seg = self._pairs.get(key)
            if seg is None:
                ref_key = (kind, language, ref)
                info = self._refs.get(ref_key)
                if info is None:
                    info = self._refs[ref_key] = metric._extract_reference_info([metric._preprocess_segment(ref)])
                seg = self._pairs[key] = metric._compute_segment_statistics(metric._preprocess_segment(hyp), info)
            stats.append(seg)
        return metric._aggregate_and_compute(stats)

    def suber_metric(
        self, hypothesis: Sequence[Any], reference: Sequence[Any], metric: str, final: bool, language: str | None
    ) -> float:
        """suber's ``calculate_sacrebleu_metric(hypothesis, reference, metric, final, language)``
        for ``BLEU``, ``BLEU-seg`` and ``chrF`` (without ``AS-``/``t-``: those pass their segments)."""
        from suber.utilities import get_segment_to_string_opts_from_metric

        from segagree.metrics.subtitles.suber_strings import segment_string

        if len(hypothesis) != len(reference):
            raise ValueError("Number of hypothesis segments does not match reference, alignment step missing?")
        include_breaks, mask, kind = get_segment_to_string_opts_from_metric(metric)
        if kind not in KINDS:
            raise ValueError(f"not a BLEU or chrF metric: {metric!r}")
        keep = [i for i, seg in enumerate(reference) if seg.word_list]  # sacrebleu refuses empty references
        to_string = partial(
            segment_string, include_line_breaks=include_breaks, mask_all_words=mask, include_last_break=final
        )
        hyps = [to_string(hypothesis[i]) for i in keep]
        refs = [to_string(reference[i]) for i in keep]
        if include_breaks:  # sacrebleu's tokenizers would split "<eol>" into "< eol >"
            hyps = [s.replace("<eol>", "eol").replace("<eob>", "eob") for s in hyps]
            refs = [s.replace("<eol>", "eol").replace("<eob>", "eob") for s in refs]
        return round(self.corpus_score(kind, hyps, refs, language).score, 3)
