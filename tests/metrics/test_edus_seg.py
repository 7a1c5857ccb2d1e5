"""edus_seg: RST-DT's intra-sentential EDU F1, checked by hand and against NeuralEDUSeg's own counting.

NeuralEDUSeg's ``preprocess.py`` (sentence of each EDU), ``RSTData.read_samples`` and
``BaseSegModel.evaluate`` are copied, outside the repository, into ``/work/refs/neuraleduseg_eval.py``
(``SEGAGREE_REFS`` names another folder); the comparison is skipped where that copy is absent.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import segagree
from segagree.metrics.boundary.rst_edus import EDUS_CARD, intra_sentential_counts
from segagree.metrics.boundary.segment_match import MatchCounts
from segagree.metrics.contract import TokenPair
from segagree.metrics.registry import get_measure
from segagree.model import builtin_scheme

NAME = EDUS_CARD.name
REFS = Path(os.environ.get("SEGAGREE_REFS", "/work/refs"))


def _reference() -> ModuleType | None:
    path = REFS / "neuraleduseg_eval.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location("neuraleduseg_eval", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _codes(lengths: list[int]) -> np.ndarray:
    """Boundary codes (1 after each part's last token) of a stream cut into parts of these lengths."""
    out = np.zeros(sum(lengths), dtype=np.int16)
    out[np.cumsum(lengths) - 1] = 1
    return out


def _parts(words: list[str], lengths: list[int]) -> list[list[str]]:
    cuts = np.cumsum([0, *lengths]).tolist()
    return [words[a:b] for a, b in zip(cuts, cuts[1:], strict=False)]


# --- a hand-worked example -------------------------------------------------------------------------------
#
# 12 words, two sentences: "w0 .. w6" and "w7 .. w11".
# gold EDUs:   w0 w1 | w2 w3 w4 | w5 w6 || w7 w8 w9 | w10 w11
# system EDUs: w0 w1 | w2 w3 w4 w5 w6 || w7 | w8 w9 | w10 w11
# intra-sentential gold boundaries: after w1, w4 (sentence 1), after w9 (sentence 2): 3
# intra-sentential system boundaries: after w1 (sentence 1), after w7, w9 (sentence 2): 3
# correct: after w1 and w9: 2. P = R = 2/3, F1 = 2/3. The sentence ends (after w6, w11) do not count.
HAND_GOLD = [2, 3, 2, 3, 2]
HAND_SYSTEM = [2, 5, 1, 2, 2]
HAND_SENTENCES = [7, 5]


def test_the_hand_worked_example() -> None:
    counts = intra_sentential_counts(_codes(HAND_GOLD), _codes(HAND_SYSTEM), _codes(HAND_SENTENCES))
    assert counts == MatchCounts(correct=2, gold=3, system=3)
    result = get_measure(NAME).score(counts, {})
    assert result.value == pytest.approx(2 / 3)
    assert result.to_dict()["precision"] == pytest.approx(2 / 3) == result.to_dict()["recall"]


def test_an_edu_across_a_sentence_end_joins_the_two_sentences_as_the_reference_does() -> None:
    # sentences "a b c | d e f"; gold EDUs "a b | c d | e f": the EDU "c d" ends in sentence 2, so the
    # sample of sentence 2 is "c d e f" (boundary after d counted) and sentence 1's sample "a b" has none.
    gold, sentences = _codes([2, 2, 2]), _codes([3, 3])
    assert intra_sentential_counts(gold, gold, sentences) == MatchCounts(1, 1, 1)
    # a system boundary at the true sentence end (after c) is inside that sample: a false positive
    system = _codes([2, 1, 1, 2])
    assert intra_sentential_counts(gold, system, sentences) == MatchCounts(1, 1, 2)


def test_without_the_golds_sentences_the_speaker_is_skipped_with_the_reason() -> None:
    item = TokenPair(_codes(HAND_GOLD), _codes(HAND_SYSTEM), builtin_scheme("edu"))
    with pytest.raises(segagree.SegagreeError, match="sentences"):
        get_measure(NAME).statistics(item, {})


# --- against NeuralEDUSeg's counting -------------------------------------------------------------------------


def _reference_counts(ref: ModuleType, words: list[str], sentences, gold, system) -> tuple[int, int, int]:
    """NeuralEDUSeg's counts: EDUs to sentence samples, then evaluate() with the system's labels per sample.

    The system's labels of a sample are the words it begins an EDU at, but the sample's first (which a
    file cannot leave unbegun: see the module docstring of rst_edus)."""
    sample_infos = ref.assign_sent_idx(_parts(words, sentences), _parts(words, gold))
    samples = ref.read_samples(sample_infos)
    begins = {int(i) + 1 for i in np.flatnonzero(_codes(system)[:-1])}  # word indices that begin a system EDU
    pred, start = [], 0
    for sample in samples:
        n = len(sample["words"])
        pred.append([k for k in range(1, n) if start + k in begins])
        start += n
    assert start == len(words)
    return ref.evaluate(samples, pred)["counts"]


def _lengths(total: int) -> st.SearchStrategy[list[int]]:
    """Random cuts of ``total`` words into parts of one word or more."""
    return st.sets(st.integers(1, total - 1), max_size=total - 1).map(
        lambda cuts: np.diff([0, *sorted(cuts), total]).tolist()
    )


@st.composite
def _segmentations(draw: st.DrawFn) -> tuple[list[str], list[int], list[int], list[int]]:
    n = draw(st.integers(1, 40))
    words = [f"w{i}" for i in range(n)]
    if n == 1:
        return words, [1], [1], [1]
    return words, draw(_lengths(n)), draw(_lengths(n)), draw(_lengths(n))


@settings(max_examples=300)
@given(_segmentations())
def test_counts_equal_neuraleduseg_on_random_segmentations(case) -> None:
    ref = _reference()
    if ref is None:
        pytest.skip(f"NeuralEDUSeg's counting is not copied to {REFS}")
    words, sentences, gold, system = case
    got = intra_sentential_counts(_codes(gold), _codes(system), _codes(sentences))
    assert (got.correct, got.gold, got.system) == tuple(_reference_counts(ref, words, sentences, gold, system))


@settings(max_examples=60)
@given(st.lists(_segmentations(), min_size=2, max_size=4))
def test_pooled_over_texts_is_neuraleduseg_over_all_their_sentences(cases) -> None:
    ref = _reference()
    if ref is None:
        pytest.skip(f"NeuralEDUSeg's counting is not copied to {REFS}")
    measure = get_measure(NAME)
    stats = [
        measure.statistics(TokenPair(_codes(g), _codes(s), builtin_scheme("edu"), sentences=_codes(sent)), {})
        for _, sent, g, s in cases
    ]
    pooled = measure.score(measure.add(stats), {}).to_dict()
    samples, pred = [], []
    for words, sent, g, s in cases:  # every text's samples in one evaluate() call: the micro-average
        text_samples = ref.read_samples(ref.assign_sent_idx(_parts(words, sent), _parts(words, g)))
        begins = {int(i) + 1 for i in np.flatnonzero(_codes(s)[:-1])}
        start = 0
        for sample in text_samples:
            pred.append([k for k in range(1, len(sample["words"])) if start + k in begins])
            start += len(sample["words"])
        samples += text_samples
    perf = ref.evaluate(samples, pred)
    assert pooled["precision"] == pytest.approx(perf["precision"])
    assert pooled["recall"] == pytest.approx(perf["recall"])
    assert pooled["f1"] == pytest.approx(perf["f1"])


# --- through the files ---------------------------------------------------------------------------------------


def _write_text(folder: Path, name: str, words: list[str], gold: list[int], sentences: list[int] | None) -> Path:
    path = folder / f"{name}.edus"
    path.write_text("".join(f"    {' '.join(p)} \n" for p in _parts(words, gold)), encoding="utf-8")
    if sentences is not None:
        (folder / name).write_text("\n".join(" ".join(p) for p in _parts(words, sentences)) + "\n", encoding="utf-8")
    return path


def test_compare_on_edus_files_gives_the_hand_worked_numbers(tmp_path: Path) -> None:
    words = [f"w{i}" for i in range(12)]
    gold = _write_text(tmp_path, "gold.out", words, HAND_GOLD, HAND_SENTENCES)
    pred = _write_text(tmp_path, "pred.out", words, HAND_SYSTEM, None)
    result = segagree.compare(gold, pred, metrics=NAME)["metrics"][NAME]
    assert result["value"] == pytest.approx(2 / 3)
    assert (result["pooled"]["correct"], result["pooled"]["gold"], result["pooled"]["system"]) == (2, 3, 3)
    # the prediction's own sentences play no part: only the gold's
    backwards = segagree.compare(pred, gold, metrics=NAME)["metrics"][NAME]
    assert backwards["value"] is None and "sentences" in backwards["skipped"]["TEXT"]


def test_the_golds_sentences_follow_an_aligned_stream(tmp_path: Path) -> None:
    # the prediction misspells one word and adds one: aligned, the sentence ends land where they were
    words = [f"w{i}" for i in range(12)]
    gold = _write_text(tmp_path, "gold.out", words, HAND_GOLD, HAND_SENTENCES)
    typo = [*words[:3], "w3x", *words[4:8], "extra", *words[8:]]
    system = [2, 5, 1, 3, 2]  # HAND_SYSTEM with "extra" opening the EDU "extra w8 w9"
    pred = _write_text(tmp_path, "pred.out", typo, system, None)
    result = segagree.compare(gold, pred, metrics=NAME, align=True)["metrics"][NAME]
    assert (result["pooled"]["correct"], result["pooled"]["gold"], result["pooled"]["system"]) == (2, 3, 3)
