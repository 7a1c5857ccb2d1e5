"""TER with shifts as a compiled kernel (numba), equal to sacrebleu's ``translation_edit_rate``.

sacrebleu 2.x (``sacrebleu.metrics.lib_ter``, after Tercom; Snover et al. 2006, *A Study of
Translation Edit Rate with Targeted Human Annotation*, AMTA) computes TER as a greedy search:

1. a beam-limited edit distance: row ``i`` (hypothesis prefix of ``i`` words) only fills the
   columns ``floor(i * r) - beam <= j < floor(i * r) + beam`` (``r`` = reference / hypothesis
   length, ``beam`` 25, wider when ``r / 2`` exceeds it), the last row all columns; other cells
   stay "infinite" (10**16); ties prefer match/substitution, then deletion, then insertion;
2. the trace of that distance, read backwards, gives the alignment (reference position ->
   hypothesis position) and the error flags of both sides;
3. every shift candidate: a hypothesis span of 1..10 words equal to a reference span starting at
   most 50 positions away (hypothesis start, then reference start, then length, in that order),
   skipped when the hypothesis span has no error, the reference span has no error, or the
   span's aligned position falls inside it; each is moved before the hypothesis positions
   aligned with the reference span (``-1 .. length-1``, repeated targets skipped) and scored;
   the best is the largest (gain, length, -start, -target) tuple, the first of equals kept;
4. the best shift is applied while it lowers the distance, at most until 1000 candidates have
   been scored in all (then the last search's shift is not applied);
5. edits = shifts + the final distance, over the reference length.

sacrebleu caches the distance rows of hypothesis prefixes it has seen; since a row depends only
on the prefix (all candidates have the hypothesis's length, so the same beam), the kernel reuses
the current hypothesis's rows up to the first moved position instead, which gives the same
numbers. Tokens are compared as integers (equal strings, equal ids).

sacrebleu stays the reference: tests/metrics/test_ter_kernel.py compares every sentence pair of
the four MuST-Cinema systems and thousands of random pairs, edits and shift counts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

import numpy as np

from segagree.metrics.numba_import import require_njit
from segagree.metrics.subtitles.shift_steps import copy_into, perform_shift

njit = require_njit()  # numba without its BLAS probe (segagree.metrics.numba_import)

__all__ = ["ter_edits", "ter_pairs"]

_INF = 10**16
_MAX_SHIFT_SIZE = 10
_MAX_SHIFT_DIST = 50
_BEAM_WIDTH = 25
_MAX_SHIFT_CANDIDATES = 1000
# Edit operations of the distance matrix (sacrebleu's ' ', 's', 'i', 'd', 'x').
_NOP, _SUB, _INS, _DEL, _UNDEF = 0, 1, 2, 3, 4


@njit(cache=True, nogil=True)
def _beam(n_h: int, n_r: int) -> tuple[float, int]:
    ratio = n_r / n_h if n_h > 0 else 1.0
    if _BEAM_WIDTH < ratio / 2:
        return ratio, int(math.ceil(ratio / 2 + _BEAM_WIDTH))
    return ratio, _BEAM_WIDTH


@njit(cache=True, nogil=True)
def _row_span(i: int, n_h: int, n_r: int, ratio: float, beam: int) -> tuple[int, int]:
    diag = int(math.floor(i * ratio))
    lo = max(0, diag - beam)
    hi = n_r + 1 if i == n_h else min(n_r + 1, diag + beam)
    return lo, hi


@njit(cache=True, nogil=True)
def _fill(h, ref, cost, op, ratio, beam):
    """The whole distance matrix (cost and operation) of hypothesis ``h``."""
    n_h, n_r = h.shape[0], ref.shape[0]
    for j in range(n_r + 1):
        cost[0, j] = j
        op[0, j] = _INS
    for i in range(1, n_h + 1):
        for j in range(n_r + 1):
            cost[i, j] = _INF
            op[i, j] = _UNDEF
        lo, hi = _row_span(i, n_h, n_r, ratio, beam)
        w = h[i - 1]
        for j in range(lo, hi):
            if j == 0:
                cost[i, 0] = cost[i - 1, 0] + 1
                op[i, 0] = _DEL
                continue
            c = cost[i - 1, j - 1]
            o = _NOP
            if w != ref[j - 1]:
                c += 1
                o = _SUB
            if cost[i, j] > c:
                cost[i, j] = c
                op[i, j] = o
            c = cost[i - 1, j] + 1
            if cost[i, j] > c:
                cost[i, j] = c
                op[i, j] = _DEL
            c = cost[i, j - 1] + 1
            if cost[i, j] > c:
                cost[i, j] = c
                op[i, j] = _INS


@njit(cache=True, nogil=True)
def _distance_from(w, ref, cost, first, ratio, beam, prev, cur):
    """The distance of ``w``, whose rows up to ``first`` equal those in ``cost`` (two rows of scratch)."""
    n_h, n_r = w.shape[0], ref.shape[0]
    if first >= n_h:
        return cost[n_h, n_r]
    for j in range(n_r + 1):
        prev[j] = cost[first, j]
    for i in range(first + 1, n_h + 1):
        for j in range(n_r + 1):
            cur[j] = _INF
        lo, hi = _row_span(i, n_h, n_r, ratio, beam)
        x = w[i - 1]
        for j in range(lo, hi):
            if j == 0:
                cur[0] = prev[0] + 1
                continue
            c = prev[j - 1] + (0 if x == ref[j - 1] else 1)
            if cur[j] > c:
                cur[j] = c
            c = prev[j] + 1
            if cur[j] > c:
                cur[j] = c
            c = cur[j - 1] + 1
            if cur[j] > c:
                cur[j] = c
        for j in range(n_r + 1):
            prev[j] = cur[j]
    return prev[n_r]


@njit(cache=True, nogil=True)
def _alignment(op, n_h, n_r, align, hyp_err, ref_err):
    """sacrebleu's ``trace_to_alignment`` of the flipped trace; False if the trace is undefined."""
    trace = np.empty(n_h + n_r, np.int8)
    k = 0
    i, j = n_h, n_r
    while i > 0 or j > 0:
        o = op[i, j]
        trace[k] = o
        k += 1
        if o == _NOP or o == _SUB:
            i -= 1
            j -= 1
        elif o == _INS:
            j -= 1
        elif o == _DEL:
            i -= 1
        else:
            return False
    ph, pr = -1, -1
    for t in range(k - 1, -1, -1):
        o = trace[t]
        if o == _NOP or o == _SUB:
            ph += 1
            pr += 1
            align[pr] = ph
            hyp_err[ph] = 1 if o == _SUB else 0
            ref_err[pr] = 1 if o == _SUB else 0
        elif o == _DEL:  # flipped: an insertion of a hypothesis word
            ph += 1
            hyp_err[ph] = 1
        else:  # flipped: a deletion of a reference word
            pr += 1
            align[pr] = ph
            ref_err[pr] = 1
    return True


@njit(cache=True, nogil=True)
def _best_shift(h, ref, cost, align, hyp_err, ref_err, ratio, beam, checked, buf, prev, cur, best_words):
    """sacrebleu's ``_shift``: (gain of the best shift or 0, candidates checked so far); the
    shifted words go to ``best_words``."""
    n_h, n_r = h.shape[0], ref.shape[0]
    pre = cost[n_h, n_r]
    found = False
    b_gain, b_len, b_start, b_idx = 0, 0, 0, 0
    for sh in range(n_h):
        for sr in range(n_r):
            if abs(sr - sh) > _MAX_SHIFT_DIST:
                continue
            length = 0
            while length < _MAX_SHIFT_SIZE and h[sh + length] == ref[sr + length]:
                length += 1
                consumed = n_h == sh + length or n_r == sr + length
                if hyp_err[sh : sh + length].sum() == 0 or ref_err[sr : sr + length].sum() == 0:
                    if consumed:
                        break
                    continue
                if sh <= align[sr] < sh + length:
                    if consumed:
                        break
                    continue
                prev_idx = -1
                for offset in range(-1, length):
                    if sr + offset == -1:
                        idx = 0
                    elif sr + offset < n_r:
                        idx = align[sr + offset] + 1
                    else:
                        break
                    if idx == prev_idx:
                        continue
                    prev_idx = idx
                    perform_shift(h, sh, length, idx, buf)
                    gain = pre - _distance_from(buf, ref, cost, min(sh, idx), ratio, beam, prev, cur)
                    checked += 1
                    better = not found or gain > b_gain
                    if found and gain == b_gain:
                        better = length > b_len or (
                            length == b_len and (sh < b_start or (sh == b_start and idx < b_idx))
                        )
                    if better:
                        found = True
                        b_gain, b_len, b_start, b_idx = gain, length, sh, idx
                        copy_into(buf, best_words)
                if checked >= _MAX_SHIFT_CANDIDATES:
                    return (b_gain if found else 0), checked
                if consumed:
                    break
    return (b_gain if found else 0), checked


@njit(cache=True, nogil=True)
def _ter_one(h0, ref, final):
    """(edits, shifts) of one pair, or (-1, -1) where sacrebleu's trace would fail; the
    hypothesis after its shifts goes to ``final``."""
    n_h, n_r = h0.shape[0], ref.shape[0]
    copy_into(h0, final)
    if n_r == 0:
        return n_h, 0
    ratio, beam = _beam(n_h, n_r)
    cost = np.empty((n_h + 1, n_r + 1), np.int64)
    op = np.empty((n_h + 1, n_r + 1), np.int8)
    align = np.zeros(n_r, np.int64)
    hyp_err = np.zeros(n_h, np.int64)
    ref_err = np.zeros(n_r, np.int64)
    prev = np.empty(n_r + 1, np.int64)
    cur = np.empty(n_r + 1, np.int64)
    h = h0.copy()
    buf = np.empty(n_h, h0.dtype)
    best = np.empty(n_h, h0.dtype)
    shifts = 0
    checked = np.int64(0)  # (not the literal 0: numba would compile _best_shift twice)
    while True:
        _fill(h, ref, cost, op, ratio, beam)
        if not _alignment(op, n_h, n_r, align, hyp_err, ref_err):
            return -1, -1
        gain, checked = _best_shift(h, ref, cost, align, hyp_err, ref_err, ratio, beam, checked, buf, prev, cur, best)
        if checked >= _MAX_SHIFT_CANDIDATES or gain <= 0:
            break
        shifts += 1
        copy_into(best, h)
    copy_into(h, final)
    return shifts + cost[n_h, n_r], shifts


@njit(cache=True, nogil=True)
def _ter_batch(hyp, hyp_off, ref, ref_off, edits, shifts, final):
    for k in range(hyp_off.shape[0] - 1):
        a, b = hyp_off[k], hyp_off[k + 1]
        e, s = _ter_one(hyp[a:b], ref[ref_off[k] : ref_off[k + 1]], final[a:b])
        edits[k] = e
        shifts[k] = s


def ter_edits(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]], *, shifted: list[list[str]] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(edits, shifts) arrays of each (hypothesis tokens, reference tokens) pair, as sacrebleu's
    ``translation_edit_rate`` counts them (edits include the shifts). With ``shifted`` (a list),
    each hypothesis after its shifts is appended to it."""
    ids: dict[str, int] = {}
    hyp: list[int] = []
    ref: list[int] = []
    hyp_off = [0]
    ref_off = [0]
    for h, r in pairs:
        hyp.extend(ids.setdefault(t, len(ids)) for t in h)
        ref.extend(ids.setdefault(t, len(ids)) for t in r)
        hyp_off.append(len(hyp))
        ref_off.append(len(ref))
    edits = np.zeros(len(pairs), np.int64)
    shifts = np.zeros(len(pairs), np.int64)
    hyp_ids = np.asarray(hyp, np.int32)
    final = np.empty_like(hyp_ids)
    _ter_batch(
        hyp_ids,
        np.asarray(hyp_off, np.int64),
        np.asarray(ref, np.int32),
        np.asarray(ref_off, np.int64),
        edits,
        shifts,
        final,
    )
    if shifted is not None:
        words = list(ids)
        shifted.extend([words[x] for x in final[a:b].tolist()] for a, b in pairwise(hyp_off))
    bad = np.flatnonzero(edits < 0)
    if bad.size:  # sacrebleu itself fails on such a pair: let it say so
        from sacrebleu.metrics.lib_ter import translation_edit_rate

        for k in bad:
            translation_edit_rate(list(pairs[int(k)][0]), list(pairs[int(k)][1]))
    return edits, shifts


def ter_pairs(pairs: Sequence[tuple[Sequence[str], Sequence[str]]]) -> list[tuple[int, int]]:
    """(edits, reference length) of each pair: sacrebleu's ``translation_edit_rate`` values."""
    edits, _ = ter_edits(pairs)
    return [(int(e), len(r)) for e, (_, r) in zip(edits.tolist(), pairs, strict=True)]
