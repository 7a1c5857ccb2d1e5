"""Aligning two annotators' differing token streams of one speaker.

Annotators edit words as well as boundaries (NCCU t004: em-dash tokens only one annotator
has; t036: ``熟 . 不 知道`` against ``熟 不 知道``). Per speaker, the two streams are aligned by
their longest common subsequence (rapidfuzz, in C++), and each differing stretch between the
identical tokens by an exact Levenshtein program (substitution, insertion, deletion at cost 1);
see :func:`align_streams`.

The common token index keeps every aligned *column* in which both annotators have a token
(an identical token or a substitution). A token only one annotator has is dropped from the
common index, and a boundary after it is carried to the nearest preceding common column
(the following one at the very start of a stream), so no boundary is lost; where that column
already holds a boundary of the same annotator, the later boundary wins. Every dropped or
substituted token is reported as a mismatch.
"""

from __future__ import annotations

import re

import numpy as np
from rapidfuzz.distance import Indel

from segagree.errors import MismatchError, UsageError
from segagree.scoring.tokens.annotation_pair import AnnotationPair


def levenshtein_columns(ta: list[str], tb: list[str]) -> list[tuple[int, int]]:
    """Optimal alignment columns ``(i, j)`` of two short token lists (``-1`` = gap)."""
    n, m = len(ta), len(tb)
    d = np.zeros((n + 1, m + 1), dtype=np.int32)
    d[:, 0] = np.arange(n + 1)
    d[0, :] = np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + (ta[i - 1] != tb[j - 1]))
    cols: list[tuple[int, int]] = []
    i, j = n, m
    while i > 0 or j > 0:
        if i > 0 and j > 0 and d[i, j] == d[i - 1, j - 1] + (ta[i - 1] != tb[j - 1]):
            cols.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif i > 0 and d[i, j] == d[i - 1, j] + 1:
            cols.append((i - 1, -1))
            i -= 1
        else:
            cols.append((-1, j - 1))
            j -= 1
    return cols[::-1]


# Differing stretches larger than this (cells of the dynamic program) are paired position by
# position, then the rest as gaps, instead of by the quadratic pure-Python program.
_MAX_DP_CELLS = 40_000


def align_streams(ta: list[str], tb: list[str]) -> list[tuple[int, int]]:
    """Alignment columns ``(i, j)`` of two token streams; ``-1`` marks a gap on that side.

    The identical tokens are a longest common subsequence of the two streams (rapidfuzz's
    bit-parallel ``Indel.opcodes`` over lists of strings, in C++): as many tokens as possible
    are matched, wherever they are. Each differing stretch between them is aligned by the exact
    Levenshtein program :func:`levenshtein_columns` (substitution, insertion, deletion at cost
    1). (difflib's matching blocks, used before, anchor on the longest common block first: on
    repeated talk, a chant said eighteen times, that shifted whole stretches, 33 differing
    positions where 2 are needed.)
    """
    cols: list[tuple[int, int]] = []
    stretch: list[int] = []  # [i1, i2, j1, j2] of the differing stretch being collected
    for tag, i1, i2, j1, j2 in _lcs_opcodes(ta, tb):
        if tag != "equal":
            stretch = [stretch[0], i2, stretch[2], j2] if stretch else [i1, i2, j1, j2]
            continue
        if stretch:
            cols.extend(_stretch_columns(ta, tb, *stretch))
            stretch = []
        cols.extend(zip(range(i1, i2), range(j1, j2), strict=True))
    if stretch:
        cols.extend(_stretch_columns(ta, tb, *stretch))
    return cols


def _lcs_opcodes(ta: list[str], tb: list[str]) -> list[tuple[str, int, int, int, int]]:
    """``(tag, i1, i2, j1, j2)`` of a longest-common-subsequence alignment (rapidfuzz Indel)."""
    return [(op.tag, op.src_start, op.src_end, op.dest_start, op.dest_end) for op in Indel.opcodes(ta, tb)]


def _stretch_columns(ta: list[str], tb: list[str], i1: int, i2: int, j1: int, j2: int) -> list[tuple[int, int]]:
    """Columns of one differing stretch: the exact program if small, else pairs then gaps."""
    if (i2 - i1) * (j2 - j1) <= _MAX_DP_CELLS:
        return [
            (i1 + i if i >= 0 else -1, j1 + j if j >= 0 else -1) for i, j in levenshtein_columns(ta[i1:i2], tb[j1:j2])
        ]
    k = min(i2 - i1, j2 - j1)
    cols = list(zip(range(i1, i1 + k), range(j1, j1 + k), strict=True))
    cols.extend((i, -1) for i in range(i1 + k, i2))
    cols.extend((-1, j) for j in range(j1 + k, j2))
    return cols


def _suggest(fraction: float) -> str:
    """The smallest limit in steps of 0.05 that admits ``fraction`` (the test is ``>``)."""
    return f"{min(1.0, np.ceil(fraction * 20 - 1e-9) / 20):.2f}"


#: Tokens that stand for unintelligible speech: Du Bois' syllable marks (``X`` in DT1 and
#: SBCSAE's CHAT edition, ``#`` in DT2) and CHAT's ``xxx`` ``yyy`` ``www``.
UNINTELLIGIBLE = re.compile(r"^(?:#+|X+|xxx|yyy|www)$")


def retokenised_columns(cols: list[tuple[int, int]], ta: list[str], tb: list[str]) -> set[int]:
    """Alignment columns that differ only in tokenisation or in the spelling of unintelligible
    speech: a maximal stretch of differing columns whose tokens, joined without the
    :data:`UNINTELLIGIBLE` ones, spell the same on both sides (``do n't`` / ``don't``,
    ``gon na`` / ``gonna``, ``## It 's`` / ``XX It's``, ``#######`` / ``XXX XXXX``, ``Tha`` /
    ``Tha-``)."""
    out: set[int] = set()
    k = 0
    while k < len(cols):
        if _same(cols[k], ta, tb):
            k += 1
            continue
        end = k
        while end < len(cols) and not _same(cols[end], ta, tb):
            end += 1
        joined_a = "".join(_spelling(ta[i]) for i, _ in cols[k:end] if i >= 0)
        joined_b = "".join(_spelling(tb[j]) for _, j in cols[k:end] if j >= 0)
        if joined_a == joined_b:
            out.update(range(k, end))
        k = end
    return out


def _spelling(token: str) -> str:
    """What a token spells once transcription marks are left out: nothing for unintelligible
    speech, a truncated word without its final hyphen (Du Bois' and SBCSAE's ``Tha-``)."""
    if UNINTELLIGIBLE.match(token):
        return ""
    return token[:-1] if len(token) > 1 and token.endswith("-") and token[-2].isalpha() else token


def _same(col: tuple[int, int], ta: list[str], tb: list[str]) -> bool:
    i, j = col
    return i >= 0 and j >= 0 and ta[i] == tb[j]


def _too_different(
    speaker: str,
    cols: list[tuple[int, int]],
    ta: list[str],
    tb: list[str],
    differs: list[bool],
    mismatched: int,
    max_mismatch: float,
    any_common: bool,
) -> str:
    """The refusal: what was compared, the first difference that counts, and what to do."""
    first = differs.index(True) if any(differs) else next(k for k, col in enumerate(cols) if not _same(col, ta, tb))
    stretch = cols[first : first + 8]
    show_a = " ".join(ta[i] for i, _ in stretch if i >= 0) or "(nothing)"
    show_b = " ".join(tb[j] for _, j in stretch if j >= 0) or "(nothing)"
    # Where the stretch starts in each stream: the next token of a side that has a gap there.
    at_a = next((i for i, _ in cols[first:] if i >= 0), len(ta))
    at_b = next((j for _, j in cols[first:] if j >= 0), len(tb))
    longest = max(len(ta), len(tb), 1)
    share = (
        f"{mismatched / longest:.3f} of the longer transcript's {longest} tokens"
        if mismatched <= longest
        else f"more than the longer transcript's {longest} tokens"
    )
    head = (
        f"speaker {speaker!r}: the transcripts are too different to align: A has {len(ta)} tokens, B has "
        f"{len(tb)}, and {mismatched} aligned positions differ in their words (a token replaced, or a token "
        f"only one transcript has; not counted: tokenisation such as do n't / don't, unintelligible "
        f"speech spelled ## / XX, truncated words with or without their final hyphen): {share}, "
        f"more than the limit {max_mismatch:g}. First difference at A's token {at_a + 1} and B's token "
        f"{at_b + 1}: A '{show_a}' vs B '{show_b}'. "
    )
    if not any_common:
        return head + "They have no token in common, so no limit can align them"
    if mismatched > longest:
        return (
            head
            + "To align them anyway (any difference accepted): --max-mismatch 1 (max_mismatch in segagree.toml for run)"
        )
    return head + (
        f"To align them anyway, raise the limit: --max-mismatch {_suggest(mismatched / longest)} "
        "(max_mismatch in segagree.toml for run)"
    )


def project_pair(
    pair: AnnotationPair,
    speaker: str,
    ta: list[str],
    tb: list[str],
    codes_a: np.ndarray,
    codes_b: np.ndarray,
    *,
    max_mismatch: float = 0.2,
) -> None:
    """Align one speaker's streams and store the projected arrays and mismatches in ``pair``.

    Raises:
        MismatchError: when more than ``max_mismatch`` of the longer stream's tokens are
            mismatched, naming the speaker, the measured fraction, the first differing
            stretch and the option that raises the limit.
    """
    if not 0.0 <= max_mismatch <= 1.0:
        raise UsageError(f"max_mismatch must be a fraction between 0 and 1, not {max_mismatch!r}")
    cols = align_streams(ta, tb)
    common = [k for k, (i, j) in enumerate(cols) if i >= 0 and j >= 0]
    retokenised = retokenised_columns(cols, ta, tb)
    # The differences that count against the limit (the others are still listed as mismatches).
    differs = [not _same(col, ta, tb) and k not in retokenised for k, col in enumerate(cols)]
    mismatched = sum(differs)
    longest = max(len(ta), len(tb), 1)
    # (a limit of 1 accepts any difference, even more differing positions than tokens)
    if not common or (mismatched / longest > max_mismatch and max_mismatch < 1.0):
        raise MismatchError(_too_different(speaker, cols, ta, tb, differs, mismatched, max_mismatch, bool(common)))
    # For each alignment column, the common column its boundary lands on.
    target = np.empty(len(cols), dtype=np.int64)
    last = -1
    first_common = 0
    for k in range(len(cols)):
        i, j = cols[k]
        if i >= 0 and j >= 0:
            last += 1
        target[k] = max(last, first_common)
    out_a = np.zeros(len(common), dtype=np.int16)
    out_b = np.zeros(len(common), dtype=np.int16)
    for k, (i, j) in enumerate(cols):
        if i >= 0 and codes_a[i]:
            out_a[target[k]] = codes_a[i]
        if j >= 0 and codes_b[j]:
            out_b[target[k]] = codes_b[j]
    pos_a = np.array([cols[k][0] for k in common], dtype=np.int64)
    pos_b = np.array([cols[k][1] for k in common], dtype=np.int64)
    pair.arrays_a[speaker], pair.arrays_b[speaker] = out_a, out_b
    pair.tokens[speaker] = [ta[i] for i in pos_a]
    pair.positions_a[speaker], pair.positions_b[speaker] = pos_a, pos_b
    for k, (i, j) in enumerate(cols):
        if i >= 0 and j >= 0 and ta[i] == tb[j]:
            continue
        kind = "substitution" if i >= 0 and j >= 0 else ("only_a" if j < 0 else "only_b")
        pair.mismatches.append(
            {
                "retokenised": k in retokenised,
                "speaker": speaker,
                "kind": kind,
                "position": int(target[k]),
                "position_a": int(i) if i >= 0 else None,
                "position_b": int(j) if j >= 0 else None,
                "token_a": ta[i] if i >= 0 else "",
                "token_b": tb[j] if j >= 0 else "",
            }
        )
