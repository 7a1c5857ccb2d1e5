"""SubER's edit distance as a compiled kernel (numba), equal to suber's ``calculate_SubER``.

SubER (Wilken, Georgakopoulou & Matusov 2022, *SubER: A Metric for Automatic Evaluation of
Subtitle Quality*, IWSLT; the ``suber`` package 0.4) is TER with shifts over words and break
tokens (``<eol>``, ``<eob>`` after the word they follow), summed over the file's independent parts
(stretches of time no subtitle spans across), over the reference's words and breaks. suber's
``lib_ter`` is sacrebleu's TER (see :mod:`segagree.metrics.subtitles.ter_kernel`, whose search
this kernel shares step for step) with three changes:

* two tokens may be aligned (matched or substituted) only when their subtitles overlap in time,
  ``(s1 < e2) == (s2 < e1)`` exactly as suber writes it, and both or neither are break tokens;
  a substitution of tokens that may not be aligned costs suber's "infinity" (10**16);
* two tokens match when their strings are equal *and* they may be aligned; shift candidates are
  spans of matching tokens (so a shifted word keeps its subtitle's times);
* the beam is 100 columns wide (sacrebleu: 25).

Its Python search (a row cache, the whole matrix per shift) takes minutes on a long video, where
subtitles follow one another without a pause and the whole file is one part. Here a row only
stores its beam (the last row all columns), a candidate shift is scored from the first row it
changes, and the hypothesis is a permutation of its tokens' indices (each keeping its times).

suber stays the reference: ``calculate_SubER``'s word preparation (its ``_get_independent_parts``,
``_normalize_words``, ``_tokenize_words``, ``_add_breaks_as_words``) is called as is, and
tests/metrics/test_suber_kernel.py compares edits, shifts and scores with suber's
``translation_edit_rate`` on generated and real subtitle pairs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from segagree.metrics.numba_import import require_njit
from segagree.metrics.subtitles.shift_steps import copy_into, perform_shift

njit = require_njit()  # numba without its BLAS probe (segagree.metrics.numba_import)

__all__ = ["part_key", "part_tokens", "remember_parts", "suber_edits", "suber_score", "take_scored_parts"]

_INF = 10**16  # suber's _INT_INFINITY
_MAX_SHIFT_SIZE = 10
_MAX_SHIFT_DIST = 50
_BEAM_WIDTH = 100
_MAX_SHIFT_CANDIDATES = 1000
# Edit operations of the distance matrix (suber's ' ', 's', 'i', 'd', 'x').
_NOP, _SUB, _INS, _DEL, _UNDEF = 0, 1, 2, 3, 4


@njit(cache=True, nogil=True)
def _bands(n_h: int, n_r: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's filled columns ``lo[i] <= j < hi[i]`` (suber's beam around the pseudo-diagonal,
    the last row whole) and its offset in the flat band storage (``off[n_h + 1]`` = total)."""
    ratio = n_r / n_h if n_h > 0 else 1.0
    beam = _BEAM_WIDTH
    if _BEAM_WIDTH < ratio / 2:
        beam = int(math.ceil(ratio / 2 + _BEAM_WIDTH))
    lo = np.zeros(n_h + 1, np.int64)
    hi = np.zeros(n_h + 1, np.int64)
    off = np.zeros(n_h + 2, np.int64)
    hi[0] = n_r + 1  # row 0: the reference's insertions
    for i in range(1, n_h + 1):
        diag = int(math.floor(i * ratio))
        lo[i] = max(0, diag - beam)
        hi[i] = n_r + 1 if i == n_h else min(n_r + 1, diag + beam)
        if hi[i] < lo[i]:
            hi[i] = lo[i]
    for i in range(n_h + 1):
        off[i + 1] = off[i] + hi[i] - lo[i]
    return lo, hi, off


@njit(cache=True, nogil=True)
def _allowed(a: int, b: int, h_start, h_end, h_brk, r_start, r_end, r_brk) -> bool:
    """suber's ``_is_allowed_word_alignment`` of hypothesis token ``a`` and reference token ``b``."""
    if h_brk[a] != r_brk[b]:
        return False
    return (h_start[a] < r_end[b]) == (r_start[b] < h_end[a])


@njit(cache=True, nogil=True)
def _match(a: int, b: int, h_id, h_start, h_end, h_brk, r_id, r_start, r_end, r_brk) -> bool:
    """suber's ``_is_word_match``: equal strings that may be aligned."""
    return h_id[a] == r_id[b] and _allowed(a, b, h_start, h_end, h_brk, r_start, r_end, r_brk)


@njit(cache=True, nogil=True)
def _row(i, w, prev, cur, lo, hi, words, ops, op_out):
    """Row ``i`` of the distance (hypothesis token ``w``) from row ``i - 1`` (``prev``, a full-width
    array holding the previous band; cells outside it are infinite); with ``ops``, each cell's
    operation goes to ``op_out`` (the row's band). Ties prefer match/substitution, then deletion,
    then insertion, as suber's ``_edit_distance``."""
    h_id, h_start, h_end, h_brk, r_id, r_start, r_end, r_brk = words
    p_lo, p_hi = lo[i - 1], hi[i - 1]
    a, b = lo[i], hi[i]
    # the hypothesis token's fields, read once (the checks are _allowed and _match, inlined: as
    # calls they cost several times the cell's arithmetic)
    w_id, w_start, w_end, w_brk = h_id[w], h_start[w], h_end[w], h_brk[w]
    for j in range(a, b):
        best = _INF
        o = _UNDEF
        if j == 0:
            best = (prev[0] if p_lo == 0 else _INF) + 1
            o = _DEL
        else:
            x = j - 1
            diag = prev[x] if p_lo <= x < p_hi else _INF
            allowed = w_brk == r_brk[x] and ((w_start < r_end[x]) == (r_start[x] < w_end))
            if allowed and w_id == r_id[x]:
                c = diag
                oc = _NOP
            else:
                c = diag + (1 if allowed else _INF)
                oc = _SUB
            if best > c:
                best = c
                o = oc
            c = (prev[j] if p_lo <= j < p_hi else _INF) + 1
            if best > c:
                best = c
                o = _DEL
            c = (cur[x] if x >= a else _INF) + 1
            if best > c:
                best = c
                o = _INS
        cur[j] = best
        if ops:
            op_out[j - a] = o


@njit(cache=True, nogil=True)
def _fill(h, words, lo, hi, off, cost, op, prev, cur):
    """The whole banded matrix (cost and operation) of hypothesis order ``h``."""
    n_h = h.shape[0]
    for j in range(hi[0]):
        cost[j] = j
        op[j] = _INS
        prev[j] = j
    for i in range(1, n_h + 1):
        _row(i, h[i - 1], prev, cur, lo, hi, words, True, op[off[i] : off[i + 1]])
        for j in range(lo[i], hi[i]):
            cost[off[i] + j - lo[i]] = cur[j]
            prev[j] = cur[j]


@njit(cache=True, nogil=True)
def _distance_from(w, words, lo, hi, off, cost, first, same_from, bar, prev, cur, scratch):
    """The distance of order ``w``, whose rows up to ``first`` are those stored in ``cost`` and whose
    tokens from position ``same_from`` on are those of the stored matrix's order; or ``-1`` once it
    is sure to be more than ``bar`` (the caller needs it no larger).

    Past ``same_from`` the costs of every step are the stored order's, so the distance is a
    monotone function of the row reached: if each finite cell of row ``i`` is the stored one plus
    at least ``c`` and at most ``C`` (infinite cells infinite in both), the distance is the stored
    one plus between ``c`` and ``C``. With ``c == C`` that is the distance, without the remaining
    rows; with the stored one plus ``c`` above ``bar``, the order cannot be the best shift."""
    n_h = w.shape[0]
    n_r = hi[n_h] - 1
    stored = cost[off[n_h] + n_r - lo[n_h]]
    if first >= n_h:
        return stored
    for j in range(lo[first], hi[first]):
        prev[j] = cost[off[first] + j - lo[first]]
    for i in range(first + 1, n_h + 1):
        _row(i, w[i - 1], prev, cur, lo, hi, words, False, scratch)
        for j in range(lo[i], hi[i]):
            prev[j] = cur[j]
        if i >= same_from and i < n_h and stored < _INF:
            base = off[i] - lo[i]
            least, most = _INF, -_INF
            for j in range(lo[i], hi[i]):
                new, old = cur[j], cost[base + j]
                if new >= _INF and old >= _INF:
                    continue
                if old >= _INF:  # finite only here: no bound from below
                    least = -_INF
                    most = _INF
                    break
                d = _INF if new >= _INF else new - old
                if d < least:
                    least = d
                if d > most:
                    most = d
            if least == most and least != _INF and least != -_INF:
                return stored + least
            if least != -_INF and least != _INF and stored + least > bar:
                return -1
    return prev[n_r]


@njit(cache=True, nogil=True)
def _op_at(op, lo, hi, off, i, j):
    if lo[i] <= j < hi[i]:
        return op[off[i] + j - lo[i]]
    return _UNDEF


@njit(cache=True, nogil=True)
def _alignment(op, lo, hi, off, n_h, n_r, align, hyp_err, ref_err):
    """suber's ``trace_to_alignment`` of the flipped trace; False where suber's trace fails
    (an undefined cell: suber raises "unknown operation 'x'")."""
    trace = np.empty(n_h + n_r, np.int8)
    k = 0
    i, j = n_h, n_r
    while i > 0 or j > 0:
        o = _op_at(op, lo, hi, off, i, j)
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
def _span_has_error(err, a, b):
    for x in range(a, min(b, err.shape[0])):
        if err[x] != 0:
            return True
    return False


@njit(cache=True, nogil=True)
def _best_shift(h, words, lo, hi, off, cost, align, hyp_err, ref_err, checked, buf, prev, cur, scratch, best_words):
    """suber's ``_shift``: (gain of the best shift or 0, candidates checked so far); the shifted
    order goes to ``best_words``."""
    h_id, h_start, h_end, h_brk, r_id, r_start, r_end, r_brk = words
    n_h = h.shape[0]
    n_r = hi[n_h] - 1
    pre = cost[off[n_h] + n_r - lo[n_h]]
    found = False
    b_gain, b_len, b_start, b_idx = 0, 0, 0, 0
    for sh in range(n_h):
        # suber visits every reference start and skips those farther than the shift distance
        for sr in range(max(0, sh - _MAX_SHIFT_DIST), min(n_r, sh + _MAX_SHIFT_DIST + 1)):
            length = 0
            while length < _MAX_SHIFT_SIZE and _match(
                h[sh + length], sr + length, h_id, h_start, h_end, h_brk, r_id, r_start, r_end, r_brk
            ):
                length += 1
                consumed = n_h == sh + length or n_r == sr + length
                if not _span_has_error(hyp_err, sh, sh + length) or not _span_has_error(ref_err, sr, sr + length):
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
                    if idx < sh:
                        same_from = sh + length
                    elif idx > sh + length:
                        same_from = idx
                    else:
                        same_from = idx + length
                    first = min(sh, idx)
                    # A shift matters only if it beats the best so far and lowers the distance
                    # (none is applied otherwise): a distance above ``bar`` cannot.
                    bar = pre - 1
                    if found and b_gain > 1:
                        bar = pre - b_gain
                    dist = _distance_from(buf, words, lo, hi, off, cost, first, same_from, bar, prev, cur, scratch)
                    checked += 1
                    if dist < 0:
                        continue
                    gain = pre - dist
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
def _ter_one(words, n_h, n_r, final):
    """(edits, shifts) of one part as suber's ``translation_edit_rate`` counts them, or (-1, -1)
    where suber's trace fails; the hypothesis order after the shifts goes to ``final``."""
    for x in range(n_h):
        final[x] = x
    if n_r == 0:
        return n_h, 0
    lo, hi, off = _bands(n_h, n_r)
    cost = np.empty(off[n_h + 1], np.int64)
    op = np.empty(off[n_h + 1], np.int8)
    align = np.zeros(n_r, np.int64)
    hyp_err = np.zeros(n_h, np.int64)
    ref_err = np.zeros(n_r, np.int64)
    prev = np.empty(n_r + 1, np.int64)
    cur = np.empty(n_r + 1, np.int64)
    scratch = np.empty(1, np.int8)
    h = np.arange(n_h)
    buf = np.empty(n_h, np.int64)
    best = np.empty(n_h, np.int64)
    shifts = 0
    checked = np.int64(0)  # (not the literal 0: numba would compile _best_shift twice)
    while True:
        _fill(h, words, lo, hi, off, cost, op, prev, cur)
        if not _alignment(op, lo, hi, off, n_h, n_r, align, hyp_err, ref_err):
            return -1, -1
        gain, checked = _best_shift(
            h, words, lo, hi, off, cost, align, hyp_err, ref_err, checked, buf, prev, cur, scratch, best
        )
        if checked >= _MAX_SHIFT_CANDIDATES or gain <= 0:
            break
        shifts += 1
        copy_into(best, h)
    copy_into(h, final)
    return shifts + cost[off[n_h] + n_r - lo[n_h]], shifts


_BREAKS = ("<eol>", "<eob>")  # suber.constants END_OF_LINE_SYMBOL, END_OF_BLOCK_SYMBOL


def _arrays(words: Sequence[Any], ids: dict[str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Token ids, subtitle start and end times and break flags of suber ``TimedWord`` s."""
    n = len(words)
    tid = np.fromiter((ids.setdefault(w.string, len(ids)) for w in words), np.int64, n)
    start = np.fromiter((w.subtitle_start_time for w in words), np.float64, n)
    end = np.fromiter((w.subtitle_end_time for w in words), np.float64, n)
    brk = np.fromiter((w.string in _BREAKS for w in words), np.bool_, n)
    return tid, start, end, brk


def suber_edits(hypothesis: Sequence[Any], reference: Sequence[Any]) -> tuple[int, int, list[Any]]:
    """suber's ``translation_edit_rate(hypothesis, reference)`` of two lists of ``TimedWord`` s
    (words and break tokens, as ``_add_breaks_as_words`` makes them): (edits including shifts,
    shifts, the hypothesis after its shifts)."""
    ids: dict[str, int] = {}
    h = _arrays(hypothesis, ids)
    r = _arrays(reference, ids)
    final = np.empty(len(hypothesis), np.int64)
    edits, shifts = _ter_one((*h, *r), len(hypothesis), len(reference), final)
    if edits < 0:  # suber's own trace fails on this part: let it say so, in its words
        from suber.metrics.lib_ter import translation_edit_rate

        translation_edit_rate(list(hypothesis), list(reference))
        raise AssertionError("suber scored a part the kernel could not trace")  # pragma: no cover
    return int(edits), int(shifts), [hypothesis[x] for x in final.tolist()]


#: Edits of the parts scored in this process, by :func:`part_key` (bounded; a run's pooled score
#: finds its files' parts here, or in the records its workers sent back: :func:`remember_parts`).
_KNOWN: dict[str, int] = {}
_KNOWN_LIMIT = 100_000
#: The parts scored since the last :func:`take_scored_parts`, with their edits.
_SCORED: dict[str, int] = {}


def part_key(hypothesis: Sequence[Any], reference: Sequence[Any]) -> str:
    """A digest of everything suber's edit distance reads of a part: both sides' token strings and
    the order of their times (every start and end of both sides replaced by its rank among them,
    since the distance only compares times). Two parts with one key have the same edits: a part of
    a file and the same part in suber's multi-file concatenation (times moved by one offset) share
    it whenever the offset keeps every comparison, and only then."""
    import hashlib

    times = np.fromiter(
        (t for side in (hypothesis, reference) for w in side for t in (w.subtitle_start_time, w.subtitle_end_time)),
        np.float64,
    )
    ranks = np.unique(times, return_inverse=True)[1].astype(np.int64)
    digest = hashlib.blake2b(digest_size=16)
    for side in (hypothesis, reference):
        digest.update(len(side).to_bytes(8, "little"))
        digest.update("\x00".join(w.string for w in side).encode("utf-8", "surrogatepass"))
        digest.update(b"\x01")
    digest.update(ranks.tobytes())
    return digest.hexdigest()


def _part_edits(hypothesis: Sequence[Any], reference: Sequence[Any]) -> int:
    key = part_key(hypothesis, reference)
    edits = _KNOWN.get(key)
    if edits is None:
        edits = suber_edits(hypothesis, reference)[0]
        if len(_KNOWN) < _KNOWN_LIMIT:
            _KNOWN[key] = edits
    if len(_SCORED) < _KNOWN_LIMIT:
        _SCORED[key] = edits
    return edits


def take_scored_parts() -> dict[str, int]:
    """The parts scored since the last call (:func:`part_key` -> edits), forgotten from that list:
    what a worker sends back with a file's scores."""
    out = dict(_SCORED)
    _SCORED.clear()
    return out


def remember_parts(parts: dict[str, int] | None) -> None:
    """Take parts scored elsewhere (:func:`take_scored_parts` of a worker) as known."""
    for key, edits in (parts or {}).items():
        if len(_KNOWN) >= _KNOWN_LIMIT:
            return
        if isinstance(key, str) and isinstance(edits, int):
            _KNOWN[key] = edits


def part_tokens(part: Sequence[Any], normalize: bool, language: str | None) -> list[Any]:
    """The tokens suber's ``_calculate_num_edits_for_part`` gives TER for one side of a part."""
    from suber.constants import EAST_ASIAN_LANGUAGE_CODES
    from suber.metrics import suber as suber_module

    words = [word for segment in part for word in segment.word_list]
    if normalize:
        words = suber_module._normalize_words(words, language=language)
    if not normalize or language in EAST_ASIAN_LANGUAGE_CODES:
        words = suber_module._tokenize_words(words, language=language)
    return suber_module._add_breaks_as_words(words)


def suber_score(
    hypothesis: Sequence[Any], reference: Sequence[Any], metric: str = "SubER", language: str | None = None
) -> float:
    """suber's ``calculate_SubER(hypothesis, reference, metric, language)`` (``SubER`` or
    ``SubER-cased``) of suber ``Subtitle`` lists: 100 × the parts' summed edits over their summed
    reference tokens, rounded to 3 decimals (0 with neither, 100 with edits and no reference)."""
    from suber.metrics import suber as suber_module

    if metric not in ("SubER", "SubER-cased"):
        raise ValueError(f"unknown SubER variant {metric!r}; known: SubER, SubER-cased")
    normalize = metric == "SubER"
    edits = 0
    length = 0
    for hyp_part, ref_part in suber_module._get_independent_parts(hypothesis, reference):
        hyp = part_tokens(hyp_part, normalize, language)
        ref = part_tokens(ref_part, normalize, language)
        edits += _part_edits(hyp, ref)
        length += len(ref)
    if length:
        score = edits / length * 100
    elif not edits:
        score = 0.0
    else:
        score = 100.0
    return round(score, 3)
