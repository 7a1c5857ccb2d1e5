"""The compiled TER kernel against sacrebleu's own TER with shifts (the reference).

The reference side runs sacrebleu's ``lib_ter`` functions (``BeamEditDistance`` and ``_shift``)
in ``translation_edit_rate``'s loop, to count the shifts and keep the shifted hypothesis, and
checks that its edits equal ``translation_edit_rate``'s. Compared: edits, number of shifts, the
hypothesis after its shifts (so that tie-breaking between equal shifts is the same), and the
corpus score of sacrebleu's ``TER`` to the last digit.

The real systems' masked (TER-br) pairs are where sacrebleu's shift search is slowest (56 s of
CPU for their 1,618 distinct pairs): its results on them are stored in
tests/data/ter/ter_br_reference.json (made by make_ter_br_reference.py beside it, with sacrebleu
itself), checked against sacrebleu on a fixed sample every run, and computed live whenever the
installed sacrebleu is not the version that made the file.
"""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path

import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER
from sacrebleu.metrics import lib_ter as ref_ter

from segagree.metrics.subtitles.ter_kernel import ter_edits, ter_pairs

from conftest import shared_path

SYSTEMS = ("cascade.fr", "e2e_base.fr", "e2e_pt.fr", "nmt.fr")
TER_BR_REFERENCE = Path(__file__).resolve().parents[1] / "data" / "ter" / "ter_br_reference.json"
Result = tuple[int, int, list[str], int]  # edits, shifts, shifted hypothesis, candidates checked


def sacrebleu_shifts(hyp: list[str], ref: list[str]) -> Result:
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
_REFERENCE: dict[tuple[tuple[str, ...], tuple[str, ...]], Result] = {}


def reference(hyp: list[str], ref: list[str]) -> Result:
    """:func:`sacrebleu_shifts` of the pair, once per distinct pair."""
    key = (tuple(hyp), tuple(ref))
    if key not in _REFERENCE:
        _REFERENCE[key] = sacrebleu_shifts(hyp, ref)
    return _REFERENCE[key]


def check_equal(pairs: list[tuple[list[str], list[str]]], expected: list[Result] | None = None) -> int:
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


_SHAPE = {"#": "#", "<eob>": "B", "<eol>": "L"}
_UNSHAPE = {v: k for k, v in _SHAPE.items()}


def shape(tokens: list[str]) -> str:
    """A masked sequence in one character a token (``#``, ``B`` for ``<eob>``, ``L`` for ``<eol>``)."""
    return "".join(_SHAPE[t] for t in tokens)


def shape_key(hyp: list[str], ref: list[str]) -> str:
    return f"{shape(hyp)}|{shape(ref)}"


@functools.cache
def stored_ter_br() -> dict[str, Result]:
    """sacrebleu's results on the real systems' masked pairs, as stored (see the module docstring);
    empty when the installed sacrebleu is another version than the one that made them."""
    data = json.loads(TER_BR_REFERENCE.read_text(encoding="utf-8"))
    if data["meta"]["sacrebleu"] != sacrebleu.__version__:
        return {}
    return {k: (e, s, [_UNSHAPE[c] for c in w], n) for k, (e, s, w, n) in data["pairs"].items()}


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
    stored = stored_ter_br() if tokens == "masked" else {}
    expected = [(stored.get(shape_key(h, r)) if stored else None) or reference(h, r) for h, r in pairs]
    assert check_equal(pairs, expected) == 544


def test_the_stored_ter_br_results_are_sacrebleus() -> None:
    """The stored masked results against sacrebleu itself on a fixed sample: 30 pairs spread over
    the file and 6 that reach the candidate cap; and they cover every masked pair of the systems."""
    stored = stored_ter_br()
    if not stored:
        version = sacrebleu.__version__
        pytest.skip(f"sacrebleu {version} did not make {TER_BR_REFERENCE.name}: every pair is computed live")
    keys = sorted(stored)
    capped = [k for k in keys if stored[k][3] >= 1000]
    uncapped = [k for k in keys if stored[k][3] < 1000]
    sample = capped[:: len(capped) // 6][:6] + uncapped[:: len(uncapped) // 30][:30]
    assert len(sample) == 36
    for key in sample:
        h, r = ([_UNSHAPE[c] for c in side] for side in key.split("|"))
        assert sacrebleu_shifts(h, r) == stored[key], key
    folder = shared_path("corpora/subtitles_tagged")
    ref = (folder / "amara.fr").read_text(encoding="utf-8").splitlines()
    for system in SYSTEMS:
        hyp = (folder / system).read_text(encoding="utf-8").splitlines()
        keys_here = {shape_key(masked(h.split()), masked(r.split())) for h, r in zip(hyp, ref, strict=True)}
        missing = keys_here - stored.keys()
        assert not missing, f"{system}: {len(missing)} masked pairs not stored (run make_ter_br_reference.py)"


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
