"""The compiled TER kernel against sacrebleu's own TER with shifts (the reference).

The reference side runs sacrebleu's ``lib_ter`` functions (``BeamEditDistance`` and ``_shift``)
in ``translation_edit_rate``'s loop, to count the shifts and keep the shifted hypothesis, and
checks that its edits equal ``translation_edit_rate``'s. Compared: edits, number of shifts, the
hypothesis after its shifts (so that tie-breaking between equal shifts is the same), and the
corpus score of sacrebleu's ``TER`` to the last digit.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER
from sacrebleu.metrics import lib_ter as ref_ter

from segagree.metrics._ter import ter_edits, ter_pairs

from conftest import shared_path

SYSTEMS = ("cascade.fr", "e2e_base.fr", "e2e_pt.fr", "nmt.fr")


def sacrebleu_shifts(hyp: list[str], ref: list[str]) -> tuple[int, int, list[str], int]:
    """(edits, shifts, shifted hypothesis, candidates checked) by one run of sacrebleu's own
    ``translation_edit_rate``, its shift search observed: every ``_shift`` call is recorded with
    the hypothesis it was given and what it returned. The loop applies each search's shift but
    the last (no gain, or the candidate cap reached), so the shifts are the calls but one, the
    shifted hypothesis is the last call's input and the candidates checked its count."""
    calls: list[tuple[list[str], tuple[int, list[str], int]]] = []
    search = ref_ter._shift

    def observed(words: list[str], *args: object) -> tuple[int, list[str], int]:
        result = search(words, *args)
        calls.append((words, result))
        return result

    ref_ter._shift = observed
    try:
        edits, length = ref_ter.translation_edit_rate(hyp, ref)
    finally:
        ref_ter._shift = search
    assert length == len(ref)
    if not calls:  # an empty reference: every hypothesis word is an edit, no shift search
        return edits, 0, hyp, 0
    for (_, (_, shifted, _)), (words, _) in itertools.pairwise(calls):
        assert words == shifted  # each search starts from the previous one's shift
    words, (_, _, checked) = calls[-1]
    return edits, len(calls) - 1, words, checked


# sacrebleu's result for each distinct pair, computed once per worker: the real systems share many
# sentence pairs (one reference; masked, many sentences have the same shape). The reference is the
# slow side.
_REFERENCE: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[int, int, list[str], int]] = {}


def reference(hyp: list[str], ref: list[str]) -> tuple[int, int, list[str], int]:
    """:func:`sacrebleu_shifts` of the pair, once per distinct pair."""
    key = (tuple(hyp), tuple(ref))
    if key not in _REFERENCE:
        _REFERENCE[key] = sacrebleu_shifts(hyp, ref)
    return _REFERENCE[key]


def check_equal(
    pairs: list[tuple[list[str], list[str]]], expected: list[tuple[int, int, list[str], int]] | None = None
) -> int:
    """The kernel against :func:`sacrebleu_shifts` on every pair (``expected``: its results, if a
    test computed them already)."""
    shifted: list[list[str]] = []
    edits, shifts = ter_edits(pairs, shifted=shifted)
    for k, (h, r) in enumerate(pairs):
        e, s, w, _ = expected[k] if expected is not None else reference(h, r)
        assert (int(edits[k]), int(shifts[k])) == (e, s), (k, h, r)
        assert shifted[k] == w, (k, h, r)
    return len(pairs)


def masked(tokens: list[str]) -> list[str]:
    return [t if t in ("<eob>", "<eol>") else "#" for t in tokens]


@pytest.mark.xdist_group("ter-real-systems")  # one worker: the systems share reference pairs
@pytest.mark.parametrize("tokens", ["words", "masked"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_every_sentence_pair_of_the_real_systems(system: str, tokens: str) -> None:
    """Words with their break tags, or words masked (TER-br), of every sentence against amara.fr."""
    folder = shared_path("corpora/subtitles_tagged")
    ref = (folder / "amara.fr").read_text(encoding="utf-8").splitlines()
    hyp = (folder / system).read_text(encoding="utf-8").splitlines()
    assert len(ref) == len(hyp) == 544
    form = masked if tokens == "masked" else list
    pairs = [(form(h.split()), form(r.split())) for h, r in zip(hyp, ref, strict=True)]
    assert check_equal(pairs) == 544


def test_corpus_score_to_the_last_digit() -> None:
    """Summed kernel edits over summed lengths is sacrebleu's corpus TER, digit for digit."""
    folder = shared_path("corpora/subtitles_tagged")
    ref = (folder / "amara.fr").read_text(encoding="utf-8").splitlines()[:150]
    hyp = (folder / "nmt.fr").read_text(encoding="utf-8").splitlines()[:150]
    metric = TER()
    expected = metric.corpus_score(hyp, [ref]).score
    toks = [
        (metric._preprocess_segment(h).split(), metric._preprocess_segment(r).split())
        for h, r in zip(hyp, ref, strict=True)
    ]
    stats = ter_pairs(toks)
    edits, length = sum(e for e, _ in stats), sum(n for _, n in stats)
    assert 100 * (edits / length) == expected  # sacrebleu: (edits / length) * 100


def test_edge_cases() -> None:
    cases = [
        ([], []),
        ([], ["a", "b"]),
        (["a", "b"], []),
        (["a"], ["a"]),
        (["a", "b", "c"], ["c", "a", "b"]),
        (["x"] * 30, ["x"] * 3),  # long hypothesis: a narrow ratio
        (["x"] * 3, ["y", "x"] * 60),  # ratio / 2 beyond the beam: a wider beam
        (list("abcdefghijklmn"), list("hijklmnabcdefg")),  # a long block moved
    ]
    assert check_equal([(list(h), list(r)) for h, r in cases]) == len(cases)


@pytest.mark.parametrize(("reps", "capped", "shifts"), [(3, False, 4), (4, True, 3), (5, True, 1), (12, True, 0)])
def test_shift_candidate_cap(reps: int, capped: bool, shifts: int) -> None:
    """Repeated words: the 1000-candidate cap stops the search (its last shift not applied)."""
    h = ("a b c a b c d a b " * reps).split()
    r = ("b a c d a b c a " * reps).split()
    expected = sacrebleu_shifts(h, r)
    _, s, _, checked = expected
    assert (checked >= 1000, s) == (capped, shifts)
    assert check_equal([(h, r)], [expected]) == 1  # the capped search once, not twice
    assert int(ter_edits([(h, r)])[1][0]) == shifts


words = st.lists(st.sampled_from(["a", "b", "c", "d", "<eol>", "<eob>"]), max_size=40)


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words, words)
def test_random_pairs(hyp: list[str], ref: list[str]) -> None:
    check_equal([(hyp, ref)])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(words, words), min_size=1, max_size=10))
def test_random_batches(pairs: list[tuple[list[str], list[str]]]) -> None:
    """A batch gives each pair's own numbers (shared vocabulary, offsets)."""
    check_equal(pairs)
