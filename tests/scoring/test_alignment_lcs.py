"""align_streams matches a longest common subsequence of the two token streams (brute force:
the textbook LCS program), and aligns repeated talk without shifting it (the SBCSAE 054 chant:
two differing positions, where difflib's greedy blocks gave 33)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.scoring.tokens.stream_alignment import align_streams, levenshtein_columns


def _lcs(a: list[str], b: list[str]) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = table[i - 1][j - 1] + 1 if a[i - 1] == b[j - 1] else max(table[i - 1][j], table[i][j - 1])
    return table[-1][-1]


def _differing(cols: list[tuple[int, int]], a: list[str], b: list[str]) -> int:
    return sum(1 for i, j in cols if i < 0 or j < 0 or a[i] != b[j])


STREAM = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=14)


@settings(max_examples=300, deadline=None)
@given(STREAM, STREAM)
def test_property_columns_are_an_alignment_with_a_longest_common_subsequence(a: list[str], b: list[str]) -> None:
    cols = align_streams(a, b)
    assert [i for i, _ in cols if i >= 0] == list(range(len(a)))
    assert [j for _, j in cols if j >= 0] == list(range(len(b)))
    assert sum(1 for i, j in cols if i >= 0 and j >= 0 and a[i] == b[j]) == _lcs(a, b)
    # never better than the optimal edit distance (the textbook program)
    assert _differing(cols, a, b) >= _differing(levenshtein_columns(a, b), a, b)


def test_repeated_chant_is_not_shifted() -> None:
    chant = "That's good said tiger That's bad said tiger".split()
    a = chant * 9
    b = list(a)
    b[1] = "goo:d"  # one word differs early
    b[29:30] = ["Tha", "t's"]  # one word split late
    cols = align_streams(a, b)
    assert _differing(cols, a, b) == 3
