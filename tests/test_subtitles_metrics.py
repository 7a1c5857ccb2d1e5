"""Pure subtitle metric functions: cues, break counts, segments, projection, suber glue."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sacrebleu

from segagree.metrics.cards import MetricCard
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
    cue,
    cues_from_codes,
    flatten,
    suber_available,
    suber_score,
    subtitle_segments,
    sync_segments,
    tagged_text,
    tbhr_from,
    ter_score,
    text_segments,
    time_aligned_segments,
    to_suber_subtitles,
)
from segagree.pipeline.subtitles import project_breaks


def test_cue_from_text_marks_lines_and_block():
    c = cue("we went | home early", 1.0, 2.5)
    assert c.words == ("we", "went", "home", "early")
    assert c.breaks == (0, EOL, 0, EOB)
    assert c.timed and (c.start, c.end) == (1.0, 2.5)
    assert not cue("x").timed


def test_cue_rejects_eob_inside_and_bad_lengths():
    with pytest.raises(ValueError, match="<eob> inside"):
        Cue(("a", "b", "c"), (EOB, 0, EOB))
    with pytest.raises(ValueError, match="2 breaks for 3 words"):
        Cue(("a", "b", "c"), (0, EOB))
    with pytest.raises(ValueError, match="break codes"):
        Cue(("a",), (7,))


def test_cues_from_codes_cuts_after_eob_and_takes_times():
    words = ["a", "b", "c", "d", "e"]
    codes = [0, EOL, EOB, 0, 0]  # last cue has no explicit <eob>: end of stream ends it
    starts = [0.0, np.nan, np.nan, 3.0, np.nan]
    ends = [np.nan, np.nan, 2.0, np.nan, 4.5]
    cues = cues_from_codes(words, codes, starts, ends)
    assert [c.words for c in cues] == [("a", "b", "c"), ("d", "e")]
    assert [c.breaks for c in cues] == [(0, EOL, EOB), (0, EOB)]
    assert [(c.start, c.end) for c in cues] == [(0.0, 2.0), (3.0, 4.5)]
    w, k = flatten(cues)
    assert w == words and k.tolist() == [0, EOL, EOB, 0, EOB]


def test_tagged_text_breaks_masks_and_final():
    words, codes = ["Hi", "there", "you"], [0, EOL, EOB]
    assert tagged_text(words, codes) == "Hi there eol you eob"
    assert tagged_text(words, codes, breaks=False) == "Hi there you"
    assert tagged_text(words, codes, mask=True, final_break=False) == "<mask> <mask> eol <mask>"
    with pytest.raises(ValueError):
        tagged_text(words, codes, breaks=False, mask=True)


def test_break_counts_hand_count():
    #              0  1    2    3  4    5  6
    ref = np.array([0, EOL, EOB, 0, EOL, 0, EOB])
    hyp = np.array([EOL, 0, EOB, 0, EOB, 0, EOB])
    c = break_counts(ref, hyp)
    # final position (6) left out: eob ref {2}, hyp {2, 4}; eol ref {1, 4}, hyp {0}
    assert (c["eob"].tp, c["eob"].fp, c["eob"].fn) == (1, 1, 0)
    assert (c["eol"].tp, c["eol"].fp, c["eol"].fn) == (0, 1, 2)
    # any type: ref {1, 2, 4}, hyp {0, 2, 4}
    assert (c["eox"].tp, c["eox"].fp, c["eox"].fn) == (2, 1, 1)
    assert c["eob"].precision == 0.5 and c["eob"].recall == 1.0
    assert c["eob"].f1 == pytest.approx(2 / 3)
    assert c["eox"].f1 == pytest.approx(2 / 3)
    assert c["eol"].f1 == 0.0
    with_final = break_counts(ref, hyp, include_final=True)
    assert with_final["eob"].tp == 2
    with pytest.raises(ValueError, match="project them first"):
        break_counts(ref, hyp[:-1])


def test_break_counts_conventions_and_pooling():
    assert BreakCounts().f1 == 1.0  # nothing to find, nothing found
    none_found = BreakCounts(0, 0, 3)
    assert (none_found.precision, none_found.recall, none_found.f1) == (0.0, 0.0, 0.0)
    spurious = BreakCounts(0, 2, 0)
    assert (spurious.precision, spurious.recall) == (0.0, 0.0)
    pooled = BreakCounts(3, 1, 0) + BreakCounts(1, 1, 4)
    assert (pooled.tp, pooled.fp, pooled.fn) == (4, 2, 4)
    assert pooled.precision == pytest.approx(4 / 6) and pooled.recall == pytest.approx(0.5)
    d = pooled.to_dict()
    assert d["value"] == pytest.approx(pooled.f1) and d["n_reference"] == 8 and d["n_hypothesis"] == 6


def test_subtitle_segments_need_equal_counts():
    ref = [cue("a b", 0, 1), cue("c d", 1, 2)]
    hyp = [cue("a b c d", 0, 2)]
    na = subtitle_segments(ref, hyp)
    assert isinstance(na, NotApplicable)
    d = na.to_dict()
    assert d["value"] is None and d["applicable"] is False
    assert d["n_hypothesis_subtitles"] == 1 and d["n_reference_subtitles"] == 2
    segs = subtitle_segments(ref, [cue("a|b", 0, 1), cue("c d", 1, 2)], breaks=True, mask=True)
    assert isinstance(segs, Segments)
    assert segs.hyp == ["<mask> eol <mask>", "<mask> <mask>"]
    assert segs.ref == ["<mask> <mask>", "<mask> <mask>"]


def test_bleu_pools_statistics_not_scores():
    a = Segments(["the cat sat on the mat today"], ["the cat sat on the mat today"])
    b = Segments(["a dog ran"], ["one dog walked slowly home"])
    pooled = bleu_score(a + b)["value"]
    expected = sacrebleu.corpus_bleu(a.hyp + b.hyp, [a.ref + b.ref]).score
    assert pooled == pytest.approx(expected)
    mean = (bleu_score(a)["value"] + bleu_score(b)["value"]) / 2
    assert abs(pooled - mean) > 1.0


def test_ter_and_bleu_skip_empty_references():
    res = ter_score(Segments(["x y", "<mask> eob"], ["", "<mask> eob"]))
    assert res["value"] == 0.0 and res["skipped_empty_references"] == 1
    assert bleu_score(Segments(["x"], [""]))["value"] is None


def test_text_segments_whole_text_one_segment():
    ref = [cue("a b|c", 0, 1), cue("d", 1, 2)]
    hyp = [cue("a b c d", 0, 2)]
    s = text_segments(ref, hyp, breaks=True)
    assert s.ref == ["a b eol c eob d eob"] and s.hyp == ["a b c d eob"]
    assert text_segments(ref, hyp, breaks=False).ref == ["a b c d"]


def test_sync_segments_cut_at_common_eob():
    words = list("abcdefgh")
    ref = np.array([0, EOB, 0, EOL, EOB, 0, EOB, EOB])
    hyp = np.array([0, EOB, 0, EOB, 0, 0, EOB, EOB])
    segs = sync_segments(words, ref, words, hyp, np.arange(8), max_words=40, mask=False)
    # common <eob> after b (1) and g (6); end of text closes the last segment
    assert segs.ref == ["a b eob", "c d eol e eob f g eob", "h eob"]
    assert segs.hyp == ["a b eob", "c d eob e f g eob", "h eob"]
    capped = sync_segments(words, ref, words, hyp, np.arange(8), max_words=2, mask=False)
    assert capped.ref == ["a b eob", "c d eol e eob", "f g eob", "h eob"]
    with pytest.raises(ValueError, match="non-decreasing"):
        sync_segments(words, ref, words, hyp, np.array([0, 1, 2, 3, 2, 5, 6, 7]))


def test_sync_segments_follow_projection_targets():
    ref_words = ["a", "b", "c", "d"]
    ref = np.array([0, EOB, 0, EOB])
    hyp_words = ["a", "b", "x", "c", "d"]  # x only in the hypothesis
    hyp = np.array([0, 0, EOB, 0, EOB])
    proj = project_breaks(ref_words, hyp_words, hyp)
    assert proj.targets.tolist() == [0, 1, 1, 2, 3]
    assert proj.codes.tolist() == [0, EOB, 0, EOB]
    segs = sync_segments(ref_words, ref, hyp_words, hyp, proj.targets, mask=False)
    assert segs.ref == ["a b eob", "c d eob"]
    assert segs.hyp == ["a b x eob", "c d eob"]


def test_projection_counts_and_rules():
    ref = ["We", "ate", "the", "ripe", "plums", "today."]
    hyp = ["we", "ate", "ripe", "red", "plums", "today"]
    codes = np.array([0, EOL, EOL, EOB, 0, EOB])
    p = project_breaks(ref, hyp, codes)
    # the (ref only); red (hyp only): its <eob> goes back to "ripe"
    assert (p.matched, p.substituted, p.reference_only, p.hypothesis_only) == (5, 0, 1, 1)
    assert p.codes.tolist() == [0, EOL, 0, EOB, 0, EOB]
    assert not p.identical and p.to_dict()["projected"]
    # without normalisation "We"/"we" and "today."/"today" differ
    raw = project_breaks(ref, hyp, codes, normalise=False)
    assert raw.matched < p.matched


def test_projection_eob_wins_and_final_goes_to_end():
    ref = ["a", "b", "c", "d"]
    hyp = ["a", "b", "z", "c"]  # d missing at the end, z inserted
    codes = np.array([0, EOL, EOB, EOB])
    p = project_breaks(ref, hyp, codes)
    assert p.codes.tolist() == [0, EOB, 0, EOB]  # z's <eob> lands on b and beats its <eol>
    assert p.targets[-1] == 3


def test_to_suber_zero_length_cue_and_untimed():
    if not suber_available():
        pytest.skip("suber not installed")
    subs = to_suber_subtitles([cue("a b", 2.0, 2.0), cue("c", 3.0, 4.0)], offset=10.0)
    assert [w.approximate_word_time for w in subs[0].word_list] == [12.0, 12.0]
    assert subs[1].start_time == 13.0
    assert math.isclose(subs[1].word_list[0].approximate_word_time, 13.0, abs_tol=1e-6)
    res = time_aligned_segments([cue("a b")], [cue("a b")])
    assert isinstance(res, NotApplicable) and "without times" in res.reason
    assert suber_score([([cue("a")], [cue("a")])])["value"] is None


def test_suber_score_counts_reference_tokens():
    if not suber_available():
        pytest.skip("suber not installed")
    ref = [cue("a b|c", 0, 2), cue("d", 2, 3)]
    res = suber_score([(ref, ref)])
    assert res["value"] == 0.0 and res["reference_tokens"] == 7  # 4 words + <eol> + 2 <eob>
    hyp = [cue("a b c", 0, 2), cue("d", 2, 3)]
    assert suber_score([(ref, hyp)])["value"] == pytest.approx(100 / 7, abs=1e-3)


def test_tbhr_from():
    assert tbhr_from({"value": 80.0}, {"value": 60.5})["value"] == pytest.approx(19.5)
    na = tbhr_from({"value": None, "reason": "no times"}, {"value": 1.0})
    assert na["value"] is None and na["reason"] == "no times"


def test_cards_and_library_cover_every_metric():
    assert [c["name"] for c in METRIC_CARDS] == list(SUBTITLE_METRICS)
    assert set(LIBRARY) == set(SUBTITLE_METRICS)
    for c in METRIC_CARDS:
        assert {"name", "title", "definition", "params", "citation", "library"} <= set(c)
        assert c["definition"] and c["citation"] and c["library"] == LIBRARY[c["name"]]
        card = MetricCard(
            c["name"],
            c["title"],
            c["definition"],
            c["params"],
            c["citation"],
            library=c["library"],
            higher_is_better=c["higher_is_better"],
            reference=c["reference"],
        )
        assert card.name == c["name"]
    assert {c["name"] for c in METRIC_CARDS if not c["higher_is_better"]} == {"ter_br", "tbhr", "suber"}
