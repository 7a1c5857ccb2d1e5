"""The compiled SubER kernel against suber's own ``calculate_SubER`` and ``translation_edit_rate``.

The reference side runs suber's ``lib_ter`` (its ``_shift`` observed, as tests/metrics/test_ter_kernel.py
does for sacrebleu) to count the shifts and keep the shifted hypothesis. Compared: edits, shifts, the
hypothesis after its shifts (so that ties between equal shifts break the same way) and the scores of
both variants, on random subtitles (small vocabularies, touching, overlapping, zero-length and
identical cue times, breaks), on longer recognizer-like pairs whose single part is longer than the
beam, and on the sample corpus's film.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("suber")

from suber.data_types import LineBreak, Subtitle, TimedWord  # noqa: E402
from suber.file_readers import read_input_file  # noqa: E402
from suber.metrics import lib_ter  # noqa: E402
from suber.metrics import suber as suber_module  # noqa: E402
from suber.metrics.suber import calculate_SubER  # noqa: E402

from segagree.metrics.subtitles.suber_kernel import suber_edits, suber_score  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def suber_shifts(hyp: list[Any], ref: list[Any]) -> tuple[int, int, list[Any]]:
    """(edits, shifts, shifted hypothesis) by one run of suber's ``translation_edit_rate`` with its
    shift search observed (the loop applies every search's shift but the last)."""
    calls: list[tuple[list[Any], tuple[int, list[Any], int]]] = []
    search = lib_ter._shift

    def observed(words: list[Any], *args: Any) -> tuple[int, list[Any], int]:
        result = search(words, *args)
        calls.append((words, result))
        return result

    lib_ter._shift = observed
    try:
        edits, length = lib_ter.translation_edit_rate(hyp, ref)
    finally:
        lib_ter._shift = search
    assert length == len(ref)
    if not calls:
        return edits, 0, hyp
    for (_, (_, shifted, _)), (words, _) in itertools.pairwise(calls):
        assert words == shifted
    return edits, len(calls) - 1, calls[-1][0]


def subtitles(rng: random.Random, vocab: list[str], count: int, start: float, pause: float) -> list[Subtitle]:
    """``count`` cues of 1-6 words from ``vocab``; a line break inside a cue one time in five."""
    out: list[Subtitle] = []
    t = start
    for k in range(count):
        n = rng.randint(1, 6)
        d = rng.choice([0.0, 0.5, 1.0, rng.uniform(0.2, 3.0)])  # zero-length and touching cues too
        words = []
        for x in range(n):
            brk = LineBreak.END_OF_BLOCK if x == n - 1 else LineBreak.NONE
            if brk is LineBreak.NONE and rng.random() < 0.2:
                brk = LineBreak.END_OF_LINE
            words.append(TimedWord(rng.choice(vocab), brk, t, t + d, t + d * x / n))
        out.append(Subtitle(words, k + 1, t, t + d))
        t += d + (rng.choice([0.0, pause]) if rng.random() < 0.3 else 0.0)
    return out


VOCAB = ["a", "b", "c", "d", "A", "B.", "c,", "it's", "--", "x"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(1, len(VOCAB)), st.integers(0, 9), st.integers(0, 9))
def test_random_subtitles_score_as_suber(seed: int, vocab_size: int, n_hyp: int, n_ref: int) -> None:
    rng = random.Random(seed)
    vocab = VOCAB[:vocab_size]
    hyp = subtitles(rng, vocab, n_hyp, rng.choice([0.0, 0.5, 1.0]), rng.choice([0.0, 1.0, 3.0]))
    ref = subtitles(rng, vocab, n_ref, rng.choice([0.0, 0.5, 1.0]), rng.choice([0.0, 1.0, 3.0]))
    for metric in ("SubER", "SubER-cased"):
        assert suber_score(hyp, ref, metric) == calculate_SubER(hyp, ref, metric=metric)


def _parts(hyp: list[Subtitle], ref: list[Subtitle], metric: str) -> list[tuple[list[Any], list[Any]]]:
    """The token lists suber's ``_calculate_num_edits_for_part`` gives TER, part by part."""
    from segagree.metrics.subtitles.suber_kernel import part_tokens

    normalize = metric == "SubER"
    return [
        (part_tokens(h, normalize, None), part_tokens(r, normalize, None))
        for h, r in suber_module._get_independent_parts(hyp, ref)
    ]


@pytest.mark.parametrize("seed", range(12))
def test_edits_shifts_and_shifted_hypothesis_as_suber(seed: int) -> None:
    rng = random.Random(seed)
    vocab = VOCAB[: rng.randint(2, len(VOCAB))]
    hyp = subtitles(rng, vocab, rng.randint(5, 25), 0.0, 1.0)
    ref = subtitles(rng, vocab, rng.randint(5, 25), 0.0, 1.0)
    for metric in ("SubER", "SubER-cased"):
        for h, r in _parts(hyp, ref, metric):
            edits, shifts, shifted = suber_edits(h, r)
            assert (edits, shifts, shifted) == suber_shifts(h, r)


def _recognizer_pair(tmp_path: Path, seed: int, minutes: float) -> tuple[list[Subtitle], list[Subtitle]]:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from long_subtitle_pair import make_pair
    finally:
        sys.path.pop(0)
    ref_path, hyp_path = make_pair(tmp_path, minutes=minutes, seed=seed)
    return read_input_file(str(hyp_path), file_format="SRT"), read_input_file(str(ref_path), file_format="SRT")


@pytest.mark.parametrize(("seed", "metrics"), [(1, ("SubER-cased",)), (3, ("SubER",))])
def test_recognizer_captions_longer_than_the_beam(tmp_path: Path, seed: int, metrics: tuple[str, ...]) -> None:
    """54 s of recognizer-like captions (bench/long_subtitle_pair.py): a part of ~170 tokens,
    errors and different cues, so that rows' bands are cut on both sides (suber's beam is 100
    columns each side of the diagonal), a dozen shifts are found and both early stops of a candidate
    (rows rejoined, bound beyond the best) are taken dozens of times. suber's Python search takes
    seconds here: two such pairs."""
    hyp, ref = _recognizer_pair(tmp_path, seed, minutes=0.9)
    for metric in metrics:
        parts = _parts(hyp, ref, metric)
        assert max(len(r) for _, r in parts) > 150
        known: dict[tuple[tuple[Any, ...], tuple[Any, ...]], tuple[int, int]] = {}
        for h, r in parts:
            edits, shifts, shifted = suber_shifts(h, r)
            assert suber_edits(h, r) == (edits, shifts, shifted)
            known[tuple(h), tuple(r)] = edits, len(r)
        # calculate_SubER's own parts, each searched by suber once: a part equal to one searched
        # above takes that search's (deterministic) result, any other is searched again.
        with _ter_results_reused(known) as reused:
            assert suber_score(hyp, ref, metric) == calculate_SubER(hyp, ref, metric=metric)
        assert reused == [len(parts)], "calculate_SubER's parts are not the ones compared above"


@contextlib.contextmanager
def _ter_results_reused(known: dict[tuple[tuple[Any, ...], tuple[Any, ...]], tuple[int, int]]) -> Iterator[list[int]]:
    """suber's ``translation_edit_rate``, for the pairs in ``known``, answered from it (without a
    statistics collector); yields a list that receives the number of pairs so answered."""
    ter = lib_ter.translation_edit_rate
    count = [0]

    def answered(hyp: list[Any], ref: list[Any], statistics_collector: Any = None) -> tuple[int, int]:
        found = known.get((tuple(hyp), tuple(ref))) if statistics_collector is None else None
        if found is None:
            return ter(hyp, ref, statistics_collector)
        count[0] += 1
        return found

    lib_ter.translation_edit_rate = answered
    try:
        yield count
    finally:
        lib_ter.translation_edit_rate = ter


def test_sample_film_as_suber() -> None:
    ref = read_input_file(str(ROOT / "sample_corpora" / "film.ref.srt"), file_format="SRT")
    hyp = read_input_file(str(ROOT / "sample_corpora" / "film.mt.srt"), file_format="SRT")
    for metric in ("SubER", "SubER-cased"):
        assert suber_score(hyp, ref, metric) == calculate_SubER(hyp, ref, metric=metric)


def test_empty_sides_and_unknown_variant() -> None:
    rng = random.Random(3)
    ref = subtitles(rng, VOCAB, 4, 0.0, 1.0)
    assert suber_score([], ref) == calculate_SubER([], ref) == 100.0
    assert suber_score(ref, []) == calculate_SubER(ref, []) == 100.0
    assert suber_score([], []) == 0.0
    with pytest.raises(ValueError, match="unknown SubER variant"):
        suber_score(ref, ref, "SubER-br")


def test_part_key_follows_the_order_of_times_not_their_values() -> None:
    from dataclasses import replace

    from segagree.metrics.subtitles.suber_kernel import part_key

    rng = random.Random(5)
    h, r = _parts(subtitles(rng, VOCAB, 6, 0.0, 1.0), subtitles(rng, VOCAB, 6, 0.0, 1.0), "SubER")[0]

    def moved(words: list[Any], by: float) -> list[Any]:
        return [
            replace(w, subtitle_start_time=w.subtitle_start_time + by, subtitle_end_time=w.subtitle_end_time + by)
            for w in words
        ]

    assert part_key(h, r) == part_key(moved(h, 3600.0), moved(r, 3600.0))  # suber's multi-file offset
    assert part_key(h, r) != part_key(moved(h, 0.25), r)  # one side moved: other overlaps
    assert part_key(h, r) != part_key([replace(h[0], string=h[0].string + "x"), *h[1:]], r)


def test_pooled_subER_from_the_files_parts_equals_suber_multi_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run's pooled SubER (the files concatenated as suber's multi-file mode does) takes each part a
    file's scoring sent back (``suber_parts``, as from a worker) instead of computing it again: the
    kernel is not called, and the numbers are suber's command line's on the same files."""
    from segagree.metrics.subtitles import suber_kernel
    from segagree.scoring.subtitles.evaluation import pooled_over_texts

    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from long_subtitle_pair import make_pair
    finally:
        sys.path.pop(0)
    results = []
    for k in range(2):
        ref, hyp = make_pair(tmp_path / f"v{k}", minutes=0.4, seed=10 + k)
        suber_kernel.take_scored_parts()
        suber_kernel._KNOWN.clear()
        for metric in ("SubER", "SubER-cased"):
            suber_score(
                read_input_file(str(hyp), file_format="SRT"), read_input_file(str(ref), file_format="SRT"), metric
            )
        parts = suber_kernel.take_scored_parts()
        results.append(
            {
                "ok": True,
                "subtitles": {},
                "annotator_a": "ref",
                "annotator_b": "asr",
                "text": f"v{k}",
                "file_a": str(ref),
                "file_b": str(hyp),
                "suber_parts": parts,
            }
        )
    suber_kernel._KNOWN.clear()

    def no_kernel(*args: Any) -> Any:
        raise AssertionError("a part was computed again")

    monkeypatch.setattr(suber_kernel, "suber_edits", no_kernel)
    pooled = pooled_over_texts(results, names=["suber_metrics"], options={"suber": ["SubER", "SubER-cased"]})
    got = pooled[0]["metrics"]["suber_metrics"]
    expected = {}
    for metric in ("SubER", "SubER-cased"):
        from suber.concat_input_files import create_concatenated_segments

        hyps, refs = create_concatenated_segments([r["file_b"] for r in results], [r["file_a"] for r in results])
        expected[metric] = calculate_SubER(hyps, refs, metric=metric)
    assert got == expected
