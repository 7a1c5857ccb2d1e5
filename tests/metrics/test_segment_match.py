"""UD's sentence F1 and DISRPT's segmentation F1, against the official scripts' counting
(conll18_ud_eval.py's ``spans_score`` over sentence spans; seg_eval.py's token loop over BeginSeg
labels), written here from their published descriptions, on random segmentations."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.metrics.boundary.segment_match import MEASURES
from segagree.metrics.contract import CharacterPair, TokenPair
from segagree.model import builtin_scheme

UD, DISRPT = MEASURES
SCHEME = builtin_scheme("sentence")


def _codes(draw_bits: list[bool]) -> np.ndarray:
    codes = np.array([1 if b else 0 for b in draw_bits], dtype=np.int64)
    codes[-1] = 1  # a stream ends with a boundary
    return codes


def _characters(gold: np.ndarray, system: np.ndarray, sizes: list[int] | None = None) -> CharacterPair:
    """Both files' characters (token k spelled with ``sizes[k]`` letters, 1 by default) and their
    sentences as character spans, as conll18_ud_eval.py loads them."""
    sizes = sizes or [1] * len(gold)
    offsets = np.concatenate(([0], np.cumsum(sizes)))

    def spans(codes: np.ndarray) -> list[tuple[int, int]]:
        cuts = [0, *(int(offsets[i + 1]) for i in np.flatnonzero(codes))]
        return list(zip(cuts, cuts[1:], strict=False))

    chars = "".join("ab"[k % 2] * n for k, n in enumerate(sizes))
    return CharacterPair(chars, chars, spans(gold), spans(system))


def conll18_sentences(gold: np.ndarray, system: np.ndarray) -> tuple[float, float, float]:
    """conll18_ud_eval.py: sentences as (start, end) spans, walked in order; correct where both
    start and end agree; P = correct/system, R = correct/gold, F1 = 2 correct/(gold + system)."""

    def spans(codes: np.ndarray) -> list[tuple[int, int]]:
        out, start = [], 0
        for i, c in enumerate(codes):
            if c:
                out.append((start, i + 1))
                start = i + 1
        return out

    g, s = spans(gold), spans(system)
    correct, gi, si = 0, 0, 0
    while gi < len(g) and si < len(s):
        if s[si][0] < g[gi][0]:
            si += 1
        elif g[gi][0] < s[si][0]:
            gi += 1
        else:
            correct += g[gi][1] == s[si][1]
            si += 1
            gi += 1
    return correct / len(s), correct / len(g), 2 * correct / (len(g) + len(s))


def seg_eval(gold: np.ndarray, pred: np.ndarray) -> tuple[float, float, float]:
    """seg_eval.py (EDU mode): labels BeginSeg=Yes on a document's first token and after every
    boundary; TP where equal and not '_', FN where only gold, FP where only pred."""

    def labels(codes: np.ndarray) -> list[str]:
        return ["BeginSeg=Yes" if i == 0 or codes[i - 1] else "_" for i in range(len(codes))]

    tp = fp = fn = 0
    for g, p in zip(labels(gold), labels(pred), strict=True):
        if g == p:
            tp += g != "_"
        elif p == "_":
            fn += 1
        else:
            fp += 1
    precision = tp / (tp + fp) if tp + fp else 0
    recall = tp / (tp + fn) if tp + fn else 0
    f = 2 * precision * recall / (precision + recall) if precision + recall else 0
    return precision, recall, f


streams = st.integers(1, 60).flatmap(
    lambda n: st.tuples(
        st.lists(st.booleans(), min_size=n, max_size=n), st.lists(st.booleans(), min_size=n, max_size=n)
    )
)


@settings(max_examples=200, deadline=None)
@given(st.lists(streams, min_size=1, max_size=4))
def test_pooled_over_streams_equal_the_scripts_on_the_concatenated_file(pairs: list) -> None:
    gold = [_codes(a) for a, _ in pairs]
    system = [_codes(b) for _, b in pairs]
    for measure, reference in ((UD, conll18_sentences), (DISRPT, seg_eval)):
        build = _characters if measure is UD else (lambda g, s: TokenPair(g, s, SCHEME))
        stats = [measure.statistics(build(g, s), {}) for g, s in zip(gold, system, strict=True)]
        score = measure.score(measure.add(stats), {})
        # the file: the streams one after another (a document per stream for DISRPT)
        want = reference(np.concatenate(gold), np.concatenate(system))
        got = (score.precision, score.recall, score.value)
        assert got == pytest.approx(want, abs=1e-12), (measure.card.name, got, want)


def test_a_worked_example() -> None:
    gold = np.array([0, 0, 1, 0, 1, 0, 0, 1])  # sentences 0-2, 3-4, 5-7
    system = np.array([0, 0, 1, 0, 0, 0, 0, 1])  # 0-2, 3-7
    ud = UD.score(UD.statistics(_characters(gold, system, [3, 1, 2, 5, 1, 1, 4, 1]), {}), {})
    assert (ud.counts.correct, ud.counts.gold, ud.counts.system) == (1, 3, 2)
    assert ud.value == pytest.approx(2 * 1 / 5)
    seg = DISRPT.score(DISRPT.statistics(TokenPair(gold, system, SCHEME), {}), {})
    assert (seg.counts.correct, seg.counts.gold, seg.counts.system) == (2, 3, 2)  # starts 0, 3 of 0, 3, 5


def test_sentences_of_characters_refuse_different_characters() -> None:
    from segagree.errors import SegagreeError

    item = CharacterPair("abc", "abd", [(0, 3)], [(0, 3)])
    with pytest.raises(SegagreeError, match="first differing characters at character 2"):
        UD.statistics(item, {})
