"""SubER's BLEU, BLEU-seg and chrF from shared sacrebleu statistics (metrics/sacrebleu_stats.py)
against suber's ``calculate_sacrebleu_metric`` (the reference): one cache across every metric and
every form (plain, ``AS-``, ``t-``), as segagree uses it, on every real pair of the shared files."""

from __future__ import annotations

import pytest

pytest.importorskip("suber")

from suber.data_types import LineBreak, Segment, Word
from suber.file_readers import read_input_file
from suber.hyp_to_ref_alignment import levenshtein_align_hypothesis_to_reference, time_align_hypothesis_to_reference
from suber.metrics.sacrebleu_interface import calculate_sacrebleu_metric

from segagree.metrics.sacrebleu_stats import SacrebleuStats

from conftest import shared_path

SYSTEMS = ("cascade.fr", "e2e_base.fr", "e2e_pt.fr", "nmt.fr")
METRICS = ("BLEU", "BLEU-seg", "chrF")


def check(stats: SacrebleuStats, forms: list[tuple[list, bool]], ref: list) -> None:
    for hyp, final in forms:
        for metric in METRICS:
            want = calculate_sacrebleu_metric(hyp, ref, metric=metric, score_break_at_segment_end=final)
            assert stats.suber_metric(hyp, ref, metric, final, None) == want, (metric, final)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_real_pair_plain_and_realigned_with_one_cache(system: str) -> None:
    folder = shared_path("corpora/subtitles_tagged")
    ref = read_input_file(str(folder / "amara.fr"), file_format="plain")
    hyp = read_input_file(str(folder / system), file_format="plain")
    aligned = levenshtein_align_hypothesis_to_reference(hypothesis=hyp, reference=ref)
    check(SacrebleuStats(), [(hyp, False), (aligned, True), (hyp, True)], ref)


def test_srt_time_and_levenshtein_aligned() -> None:
    srt = shared_path("corpora/srt/sintel_en.srt")
    ref = read_input_file(str(srt), file_format="SRT")
    hyp = read_input_file(str(srt), file_format="SRT")[2:]
    forms = [
        (levenshtein_align_hypothesis_to_reference(hypothesis=hyp, reference=ref), True),
        (time_align_hypothesis_to_reference(hypothesis=hyp, reference=ref), True),
    ]
    check(SacrebleuStats(), forms, ref)


def test_empty_reference_segments_are_left_out_as_suber_does() -> None:
    def seg(words: str, brk: LineBreak = LineBreak.END_OF_BLOCK) -> Segment:
        ws = [Word(string=w, line_break=LineBreak.NONE) for w in words.split()]
        if ws:
            ws[-1].line_break = brk
        return Segment(word_list=ws)

    ref = [seg("the cat sat"), seg(""), seg("on the mat", LineBreak.END_OF_LINE)]
    hyp = [seg("the cat sat down"), seg("nothing here"), seg("on a mat")]
    check(SacrebleuStats(), [(hyp, False), (hyp, True)], ref)
