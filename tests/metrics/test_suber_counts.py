"""SubER's WER and CER families counted by segagree (metrics/subtitles/suber_counts.py) against suber's own
functions (the reference): every metric, plain, ``AS-`` and (SRT) ``t-`` hypotheses, on every real
pair of the shared files, and on hand-made strings with punctuation, case, tabs and empty segments."""

from __future__ import annotations

import unicodedata

import pytest

pytest.importorskip("suber")

from suber.data_types import LineBreak, Segment, Word
from suber.file_readers import read_input_file
from suber.hyp_to_ref_alignment import levenshtein_align_hypothesis_to_reference, time_align_hypothesis_to_reference
from suber.metrics.cer import calculate_character_error_rate
from suber.metrics.jiwer_interface import calculate_word_error_rate

from segagree.metrics.subtitles import suber_counts
from segagree.metrics.subtitles.suber_strings import segment_string, shared

from conftest import shared_path

SYSTEMS = ("cascade.fr", "e2e_base.fr", "e2e_pt.fr", "nmt.fr")
WERS = ("WER", "WER-cased", "WER-seg", "WER-br")
CERS = ("CER", "CER-cased")


def check(hyp: list, ref: list, final: bool) -> int:
    """Every WER and CER metric of (hyp, ref) equal to suber's; returns how many were compared."""
    for metric in WERS:
        want = calculate_word_error_rate(hyp, ref, metric=metric, score_break_at_segment_end=final)
        assert suber_counts.word_error_rate(hyp, ref, metric, final) == want, metric
    for metric in CERS:
        assert suber_counts.character_error_rate(hyp, ref, metric) == calculate_character_error_rate(hyp, ref, metric)
    return len(WERS) + len(CERS)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_real_pair_plain_and_realigned(system: str) -> None:
    folder = shared_path("corpora/subtitles_tagged")
    ref = read_input_file(str(folder / "amara.fr"), file_format="plain")
    hyp = read_input_file(str(folder / system), file_format="plain")
    assert len(hyp) == len(ref) == 544
    with shared():  # as a scoring counts them: each segment's strings and words made once for every metric
        check(hyp, ref, final=False)
        check(levenshtein_align_hypothesis_to_reference(hypothesis=hyp, reference=ref), ref, final=True)


def test_srt_time_aligned_and_realigned() -> None:
    srt = shared_path("corpora/srt/sintel_en.srt")
    ref = read_input_file(str(srt), file_format="SRT")
    hyp = read_input_file(str(srt), file_format="SRT")[1:]  # one subtitle fewer: nothing lines up
    for aligned in (
        levenshtein_align_hypothesis_to_reference(hypothesis=hyp, reference=ref),
        time_align_hypothesis_to_reference(hypothesis=hyp, reference=ref),
    ):
        check(aligned, ref, final=True)


def _seg(text: str) -> Segment:
    words = []
    for tok in text.split(" "):
        if tok in ("<eol>", "<eob>") and words:
            words[-1].line_break = LineBreak.END_OF_LINE if tok == "<eol>" else LineBreak.END_OF_BLOCK
        elif tok:
            words.append(Word(string=tok, line_break=LineBreak.NONE))
    return Segment(word_list=words)


def test_hand_made_strings_with_punctuation_case_and_empty_segments() -> None:
    ref = [_seg("Hello, World! <eol> «Ça va?» <eob>"), _seg("A\tB … c"), _seg(""), _seg("x-y z")]
    hyp = [_seg("hello world <eob> ça va"), _seg("a b c"), _seg("extra words"), _seg("x y Z <eol> z")]
    assert check(hyp, ref, final=True) == 6
    assert check(hyp, ref, final=False) == 6


def test_the_ellipsis_jiwer_removes_separately_is_punctuation() -> None:
    """suber's RemoveSpecificWords(['…']) comes after RemovePunctuation, which already drops it."""
    assert unicodedata.category("…").startswith("P")
    assert suber_counts.handles("WER-seg", "fr") and not suber_counts.handles("WER", "ja")


def test_shared_strings_are_subers_and_made_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside ``shared``, each (segment, options) string is suber's ``segment_to_string`` and is made
    once; outside, every call makes it again."""
    import suber.utilities

    segments = [_seg("Hello, World! <eol> «Ça va?» <eob>"), _seg("a b <eob>"), _seg("")]
    options = [
        (b, last, mask) for b in (False, True) for last in (False, True) for mask in (False, True) if b or not mask
    ]
    want = {(i, o): suber.utilities.segment_to_string(s, *o) for i, s in enumerate(segments) for o in options}
    calls: list[object] = []
    real = suber.utilities.segment_to_string
    monkeypatch.setattr(suber.utilities, "segment_to_string", lambda *a: calls.append(a[0]) or real(*a))
    with shared():
        for _ in range(2):
            assert {(i, o): segment_string(s, *o) for i, s in enumerate(segments) for o in options} == want
    # without breaks, the last-break option changes nothing: one string per segment
    assert len(calls) == len(segments) * (len(options) - 1)
    calls.clear()
    assert segment_string(segments[0], True, False, True) == want[(0, (True, False, True))]
    assert segment_string(segments[0], True, False, True) == want[(0, (True, False, True))]
    assert len(calls) == 2
