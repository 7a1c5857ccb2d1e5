"""SubER's BLEU, BLEU-seg and chrF from shared sacrebleu statistics (metrics/subtitles/sacrebleu_stats.py)
against suber's ``calculate_sacrebleu_metric`` (the reference): one cache across every metric and
every form (plain, ``AS-``, ``t-``), as segagree uses it, on every real pair of the shared files."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest

pytest.importorskip("suber")

from sacrebleu.metrics import BLEU, CHRF
from suber.data_types import LineBreak, Segment, Word
from suber.file_readers import read_input_file
from suber.hyp_to_ref_alignment import levenshtein_align_hypothesis_to_reference, time_align_hypothesis_to_reference
from suber.metrics.sacrebleu_interface import calculate_sacrebleu_metric

from segagree.metrics.subtitles.sacrebleu_stats import SacrebleuStats

from conftest import shared_path

SYSTEMS = ("cascade.fr", "e2e_base.fr", "e2e_pt.fr", "nmt.fr")
METRICS = ("BLEU", "BLEU-seg", "chrF")


@contextmanager
def sacrebleu_scores_once(done: dict[tuple[Any, ...], Any]) -> Iterator[None]:
    """sacrebleu's ``corpus_score`` computed once per distinct call (``done`` keeps them): the same
    metric settings on the same strings. The reference runs whole, suber's string-making included;
    only a repeated final scoring is looked up (without line breaks, BLEU and chrF of the ``final``
    form score the plain form's strings again)."""
    original = BLEU.corpus_score
    assert CHRF.corpus_score is original  # both inherit the one method

    def once(self: Any, hypotheses: Sequence[str], references: Sequence[Sequence[str]], *args: Any, **kw: Any) -> Any:
        settings = tuple(sorted((k, v) for k, v in vars(self).items() if isinstance(v, str | int | float | None)))
        key = (type(self), settings, tuple(hypotheses), tuple(map(tuple, references)), args, tuple(sorted(kw.items())))
        if key not in done:
            done[key] = original(self, hypotheses, references, *args, **kw)
        return done[key]

    BLEU.corpus_score = once  # type: ignore[method-assign]
    try:
        yield
    finally:
        BLEU.corpus_score = original  # type: ignore[method-assign]


def check(stats: SacrebleuStats, forms: list[tuple[list, bool]], ref: list) -> None:
    scored: dict[tuple[Any, ...], Any] = {}
    for hyp, final in forms:
        for metric in METRICS:
            with sacrebleu_scores_once(scored):  # only around the reference
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


def test_evalsubtitle_bleus_from_the_statistics_subers_bleu_filled_equal_sacrebleu() -> None:
    """EvalSubtitle's BLEU_nb and BLEU_br (sigma_scores) through the SacrebleuStats that SubER's BLEU
    filled first, as a scoring shares it, equal sacrebleu's ``BLEU().corpus_score`` on their strings
    (value, precisions, brevity penalty, signature); BLEU_nb's sentence pairs are SubER's on tagged
    text, so only BLEU_br's are computed again."""
    from segagree.formats import read_document
    from segagree.metrics.subtitles.scores import _joined, sigma_scores, suber_scores
    from segagree.scoring.subtitles.evaluation import subtitle_side

    folder = shared_path("corpora/subtitles_tagged")
    ref, hyp = (subtitle_side(read_document(folder / name, "tagged")) for name in ("amara.fr", "nmt.fr"))
    SacrebleuStats.forget()  # what earlier tests of this process computed is not counted
    stats = SacrebleuStats()
    suber_scores(hyp.segments or [], ref.segments or [], ["BLEU"], bleus=stats)
    filled = set(stats._pairs)
    sigma, br, nb = sigma_scores(ref.sentences, hyp.sentences, stats)
    sentences = list(zip(hyp.sentences, ref.sentences, strict=True))
    keys = {b: {("BLEU", None, _joined(h, b), _joined(r, b)) for h, r in sentences} for b in (False, True)}
    assert set(stats._pairs) - filled == keys[True] | (keys[False] - filled)  # each pair computed once
    assert len(keys[False] & filled) > 0.99 * len(keys[False])  # BLEU_nb's pairs: SubER's, nearly all
    for res, breaks in ((nb, False), (br, True)):
        bleu = BLEU()
        want = bleu.corpus_score(
            [_joined(s, breaks) for s in hyp.sentences], [[_joined(s, breaks) for s in ref.sentences]]
        )
        assert (res["value"], res["precisions"], res["bp"]) == (want.score, list(want.precisions), want.bp)
        assert res["signature"] == str(bleu.get_signature())
    assert sigma["bleu_with_breaks"] == br["value"]
