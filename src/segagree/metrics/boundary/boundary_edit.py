"""Boundary edit distance (BED), Segmentation Similarity (S) and Boundary Similarity (B).

Reference-exact re-implementations of segeval 2.0.11 (Fournier & Inkpen 2012, "Segmentation
Similarity and Agreement", NAACL; Fournier 2013, "Evaluating Text Segmentation using Boundary
Edit Distance", ACL), plus a scheme-weighted B for unordered boundary types.

Boundary edit distance, as segeval computes it (greedy, not an optimal alignment):

1. The boundary string has ``N - 1`` positions, each a set of types. Positions where the two
   strings differ hold candidate edits.
2. Transpositions (near misses) are searched greedily: spans ``1 .. n_t - 1`` in increasing
   order, start ``i`` left to right, ``j = i + span``. Type ``d`` is a candidate when it is in
   ``(a_i ^ b_i) & (a_j ^ b_j) & (a_i ^ a_j) & (b_i ^ b_j)``; it is accepted unless an accepted
   transposition of type ``d`` already touches ``i`` or ``j``, or both positions still hold a
   substitution (types left on both sides). Positions between ``i`` and ``j`` are not checked.
   An accepted ``d`` is removed from the candidate edits at ``i`` and ``j``.
3. At each position the leftover types of ``a`` and ``b`` are paired into substitutions,
   minimising the summed cost (segeval: ``|t_a - t_b|``; the first minimum in permutation order
   of the sorted types wins). Unpaired types are additions, ``side`` ``"a"`` or ``"b"``.
4. Matches are counted per position and type (``a_i & b_i``).

Positions are 0-based gap indices (the gap after unit ``i + 1``), as in segeval.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import permutations
from typing import Any, NamedTuple

import numpy as np

from segagree.errors import UsageError
from segagree.metrics.boundary.masses import Format, Segmentation, as_pair
from segagree.metrics.boundary.stats import EditCounts, SimilarityStats, signature
from segagree.metrics.contract import Card, TokenPair
from segagree.metrics.token_measure import BoundaryMeasure
from segagree.model.scheme import BoundaryScheme

S_CARD = Card.from_text(
    """
    title: Segmentation Similarity S
    definition: (P - E) / P, E = weighted boundary edits, P = (N-1)|T|^2 potential boundaries
    citation: Fournier & Inkpen (2012), Segmentation Similarity and Agreement, NAACL-HLT
    parameters:
        n_t = 2
        weights = segeval (addition 1, ordinal substitution, span/n_t)
    group: boundary
    reference: segeval 2.0.11
    notes: two segmentations without any boundary give 1.0 (segeval raises ValueError)
    """,
    name="s",
)
B_CARD = Card.from_text(
    """
    title: Boundary Similarity B
    definition: 1 - E / (additions + substitutions + transpositions + matches), E = weighted edits
    citation: Fournier (2013), Evaluating Text Segmentation using Boundary Edit Distance, ACL
    parameters:
        n_t = 2
        weights = segeval
        scheme = none (ordinal types)
    group: boundary
    reference: segeval 2.0.11
    notes: two segmentations without any boundary give 1.0 (segeval raises ValueError)
    """,
    name="b",
)
B_SCHEME_CARD = Card.from_text(
    """
    title: Boundary Similarity B with a scheme's costs
    definition: B with unordered types: substitutions cost 1 - M[x, y], additions the scheme's
        insertion/deletion cost, transpositions min(1, cost per token x span)
    citation: Fournier (2013), Evaluating Text Segmentation using Boundary Edit Distance, ACL; scheme
        weights: segagree
    parameters:
        n_t = 2
        scheme = the compared layer's scheme
    group: boundary
    reference: segeval 2.0.11 B (identity matrix, no substitution, n_t = 2)
    """,
    name="b_scheme",
)
BED_CARD = Card.from_text(
    """
    title: Boundary edit distance
    definition: additions, substitutions and transpositions (near misses within n_t - 1 positions),
        greedy as in segeval
    citation: Fournier (2013), Evaluating Text Segmentation using Boundary Edit Distance, ACL
    parameters:
        n_t = 2
        weights = segeval
    better: lower
    group: boundary
    reference: segeval 2.0.11
    """,
    name="bed",
)


class Addition(NamedTuple):
    """A boundary of ``type`` at ``position`` in one segmentation only (``side`` a or b)."""

    position: int
    type: int
    side: str


class Substitution(NamedTuple):
    """Type ``type_a`` in a and ``type_b`` in b at the same ``position``."""

    position: int
    type_a: int
    type_b: int


class Transposition(NamedTuple):
    """A near miss: a boundary of ``type`` at ``start`` in one side and ``end`` in the other."""

    start: int
    end: int
    type: int


class Match(NamedTuple):
    """Both segmentations have a boundary of ``type`` at ``position``."""

    position: int
    type: int


Weight = int | float | Fraction | None
Weights = tuple[Weight, Weight, Weight]
# Weights after checking: exact costs (None: segeval's default for that operation).
ExactWeights = tuple[Fraction | None, Fraction | None, Fraction | None]


@dataclass(frozen=True, eq=False)
class BoundaryEditResult:
    """Boundary edit distance between two segmentations (segeval's greedy semantics).

    Attributes:
        additions, substitutions, transpositions: the edit operations, by position.
        n_t: maximum transposition span + 1.
        types: T, the boundary types occurring in either segmentation.
        n_positions: N - 1.
        weighted_edits: E, the weighted edit count (exact).
        stats: additive counts (see :class:`~segagree.metrics.boundary.stats.EditCounts`).
        signature: the metric, its parameters and the segagree version.
    """

    additions: tuple[Addition, ...]
    substitutions: tuple[Substitution, ...]
    transpositions: tuple[Transposition, ...]
    n_t: int
    types: frozenset[int]
    n_positions: int
    weighted_edits: Fraction
    stats: EditCounts
    signature: str
    match_positions: np.ndarray = field(repr=False)
    match_types: np.ndarray = field(repr=False)

    @property
    def matches(self) -> tuple[Match, ...]:
        """Positions where both segmentations have the same type, one entry per type."""
        return tuple(Match(p, t) for p, t in zip(self.match_positions.tolist(), self.match_types.tolist(), strict=True))

    @property
    def n_matches(self) -> int:
        """Number of matches."""
        return int(self.match_positions.size)

    @property
    def value(self) -> float:
        """The weighted edit count as a float."""
        return float(self.weighted_edits)


@dataclass(frozen=True, eq=False)
class SimilarityResult:
    """S or B between two segmentations.

    Attributes:
        value: the similarity in [0, 1].
        exact: the value as a Fraction (None for scheme weights, which are floats).
        stats: weighted edits and denominator, additive over speakers.
        edits: the boundary edit distance behind the value.
        signature: e.g. ``b|n_t:2|w:segeval|v:0.1.0``.
    """

    value: float
    exact: Fraction | None
    stats: SimilarityStats
    edits: BoundaryEditResult
    signature: str


# --- core --------------------------------------------------------------------------

_SINGLE: dict[int, frozenset[int]] = {}
_EMPTY: frozenset[int] = frozenset()


def _single(code: int) -> frozenset[int]:
    if code == 0:
        return _EMPTY
    fs = _SINGLE.get(code)
    if fs is None:
        fs = _SINGLE[code] = frozenset((code,))
    return fs


def _pair_types(ra: set[int], rb: set[int], cost: Callable[[int, int], Any]) -> list[tuple[int, int]]:
    """Pair leftover types into substitutions with minimal summed cost (segeval's rule)."""
    if len(ra) == 1 and len(rb) == 1:
        return [(next(iter(ra)), next(iter(rb)))]
    sa, sb = sorted(ra), sorted(rb)
    if math.factorial(len(sa)) * math.factorial(len(sb)) <= 40320:
        best: Any = None
        chosen: set[tuple[int, int]] = set()
        for pa in permutations(sa):
            for pb in permutations(sb):
                current = set(zip(pa, pb, strict=False))  # truncates: the longer side's rest
                delta = sum(cost(x, y) for x, y in current)
                if best is None or delta < best:
                    best, chosen = delta, current
        return sorted(chosen)
    return _pair_types_dp(sa, sb, cost)


def _pair_types_dp(sa: list[int], sb: list[int], cost: Callable[[int, int], Any]) -> list[tuple[int, int]]:
    """Minimal-cost pairing of every type of the shorter list (bitmask DP over it)."""
    swap = len(sa) < len(sb)
    long, short = (sb, sa) if swap else (sa, sb)

    def c(x: int, y: int) -> Any:
        return cost(y, x) if swap else cost(x, y)

    full = (1 << len(short)) - 1
    inf = float("inf")
    # dp[mask] after considering a prefix of `long`
    dp: dict[int, tuple[Any, list[tuple[int, int]]]] = {0: (0, [])}
    for x in long:
        nxt = dict(dp)
        for mask, (val, pairs) in dp.items():
            for k, y in enumerate(short):
                if mask & (1 << k):
                    continue
                m2 = mask | (1 << k)
                v2 = val + c(x, y)
                if v2 < nxt.get(m2, (inf, []))[0]:
                    nxt[m2] = (v2, pairs + [(x, y)])
        dp = nxt
    pairs = dp[full][1]
    return sorted((y, x) if swap else (x, y) for x, y in pairs)


class _Ops(NamedTuple):
    additions: list[Addition]
    substitutions: list[Substitution]
    transpositions: list[Transposition]
    match_positions: np.ndarray
    match_types: np.ndarray
    types: frozenset[int]


def _edit_operations_codes(ga: np.ndarray, gb: np.ndarray, n_t: int) -> _Ops:
    """segeval's greedy BED when every position holds at most one type per side.

    With one type per side, a type ``d`` is a transposition candidate at ``(i, j)`` exactly
    when it is on opposite sides at ``i`` and ``j``; "already touched by a transposition of
    type ``d``" is "``d``'s side at that position was consumed"; and the order in which two
    candidate types of one ``(i, j)`` are tried cannot change the outcome. So the set algebra
    of :func:`_edit_operations` reduces to integer comparisons.
    """
    same = ga == gb
    mpos = np.flatnonzero(same & (ga != 0))
    mtyp = ga[mpos]
    diff_arr = np.flatnonzero(~same)
    diff = diff_arr.tolist()
    xa, xb = ga[diff_arr].tolist(), gb[diff_arr].tolist()
    ra, rb = list(xa), list(xb)  # remaining (not transposed) type per side, 0 = none
    index = {p: k for k, p in enumerate(diff)}
    transpositions: list[Transposition] = []
    for span in range(1, n_t):
        for k, i in enumerate(diff):
            kj = index.get(i + span)
            if kj is None:
                continue
            xi, yi, xj, yj = xa[k], xb[k], xa[kj], xb[kj]
            if xi and xi == yj and ra[k] and rb[kj]:  # a's boundary at i, b's at j
                if not (ra[k] and rb[k] and ra[kj] and rb[kj]):
                    transpositions.append(Transposition(i, i + span, xi))
                    ra[k] = 0
                    rb[kj] = 0
            if yi and yi == xj and rb[k] and ra[kj]:  # b's boundary at i, a's at j
                if not (ra[k] and rb[k] and ra[kj] and rb[kj]):
                    transpositions.append(Transposition(i, i + span, yi))
                    rb[k] = 0
                    ra[kj] = 0
    additions: list[Addition] = []
    substitutions: list[Substitution] = []
    for i, x, y in zip(diff, ra, rb, strict=True):
        if x and y:
            substitutions.append(Substitution(i, x, y))
        elif x:
            additions.append(Addition(i, x, "a"))
        elif y:
            additions.append(Addition(i, y, "b"))
    nz_a, nz_b = ga[ga != 0], gb[gb != 0]
    types = frozenset(np.unique(np.concatenate((nz_a, nz_b))).tolist())
    return _Ops(additions, substitutions, transpositions, mpos, mtyp, types)


def _edit_operations(sa: Segmentation, sb: Segmentation, n_t: int, cost: Callable[[int, int], Any]) -> _Ops:
    """segeval's greedy boundary edit distance on the positions where a and b differ."""
    if sa.gaps is not None and sb.gaps is not None:
        return _edit_operations_codes(sa.gaps, sb.gaps, n_t)
    seta, setb = sa.gap_sets(), sb.gap_sets()
    A, B = {}, {}
    mp: list[int] = []
    mt: list[int] = []
    diff = []
    for i, (here_a, here_b) in enumerate(zip(seta, setb, strict=True)):
        if here_a != here_b:
            diff.append(i)
            A[i], B[i] = here_a, here_b
        for t in sorted(here_a & here_b):
            mp.append(i)
            mt.append(t)
    mpos, mtyp = np.asarray(mp, dtype=np.int64), np.asarray(mt, dtype=np.int64)
    types = sa.types() | sb.types()

    # candidate edits per differing position: [sym. difference, only in a, only in b]
    opts = {i: (set(A[i] ^ B[i]), set(A[i] - B[i]), set(B[i] - A[i])) for i in diff}
    trans_at: dict[int, set[int]] = {}
    transpositions: list[Transposition] = []
    for span in range(1, n_t):
        for i in diff:
            j = i + span
            if j not in opts:
                continue
            a_i, b_i, a_j, b_j = A[i], B[i], A[j], B[j]
            t_p = (a_i ^ b_i) & (a_j ^ b_j) & (a_i ^ a_j) & (b_i ^ b_j)
            for d in t_p:
                ti, tj = trans_at.get(i), trans_at.get(j)
                if (ti is not None and d in ti) or (tj is not None and d in tj):
                    continue
                oi, oj = opts[i], opts[j]
                if d in oi[0] and d in oj[0] and oi[1] and oi[2] and oj[1] and oj[2]:
                    continue  # both positions still hold substitutions
                transpositions.append(Transposition(i, j, d))
                trans_at.setdefault(i, set()).add(d)
                trans_at.setdefault(j, set()).add(d)
                for o in (oi, oj):
                    o[0].discard(d)
                    o[1].discard(d)
                    o[2].discard(d)

    additions: list[Addition] = []
    substitutions: list[Substitution] = []
    for i in diff:
        _, ra, rb = opts[i]
        if ra and rb:
            pairs = _pair_types(ra, rb, cost)
            for x, y in pairs:
                substitutions.append(Substitution(i, x, y))
            used_a = {x for x, _ in pairs}
            used_b = {y for _, y in pairs}
            additions.extend(Addition(i, t, "a") for t in sorted(ra - used_a))
            additions.extend(Addition(i, t, "b") for t in sorted(rb - used_b))
        elif ra:
            additions.extend(Addition(i, t, "a") for t in sorted(ra))
        elif rb:
            additions.extend(Addition(i, t, "b") for t in sorted(rb))
    return _Ops(additions, substitutions, transpositions, mpos, mtyp, types)


def _ordinal(x: int, y: int) -> int:
    return abs(x - y)


def check_n_t(n_t: Any) -> int:
    if isinstance(n_t, bool) or not isinstance(n_t, (int, np.integer)) or n_t < 1:
        raise UsageError(f"n_t = {n_t!r} must be an int >= 1 (1 + the largest transposition span)")
    return int(n_t)


def _check_weights(weights: Any) -> ExactWeights:
    if weights is None:
        return (None, None, None)
    if isinstance(weights, (str, bytes)) or not isinstance(weights, Sequence) or len(weights) != 3:
        raise UsageError("weights must be (addition, substitution, transposition): numbers or None each")
    out: list[Fraction | None] = []
    for name, w in zip(("addition", "substitution", "transposition"), weights, strict=True):
        if w is None:
            out.append(None)
        elif isinstance(w, (int, float, Fraction, np.integer, np.floating)) and not isinstance(w, bool):
            if not math.isfinite(float(w)) or w < 0:
                raise UsageError(f"the {name} weight {w!r} must be finite and >= 0")
            out.append(
                Fraction(int(w))
                if isinstance(w, (int, np.integer))
                else Fraction(w)
                if isinstance(w, Fraction)
                else Fraction(float(w))
            )
        else:
            raise UsageError(f"the {name} weight {w!r} must be a number or None")
    return (out[0], out[1], out[2])


def _weights_label(w: ExactWeights) -> str:
    if w == (None, None, None):
        return "segeval"
    return ",".join("default" if x is None else str(x) for x in w)


def _weighted_edits(ops: _Ops, n_t: int, w: ExactWeights) -> Fraction:
    wa, ws, wt = w
    e_a = Fraction(len(ops.additions)) * (1 if wa is None else wa)
    if ws is None:
        if ops.substitutions:
            t_range = max(ops.types) - min(ops.types) + 1
            e_s = Fraction(sum(abs(s.type_a - s.type_b) for s in ops.substitutions), t_range)
        else:
            e_s = Fraction(0)
    else:
        e_s = len(ops.substitutions) * ws
    if wt is None:
        e_t = Fraction(sum(t.end - t.start for t in ops.transpositions), n_t)
    else:
        e_t = len(ops.transpositions) * wt
    return e_a + e_s + e_t


def _bed(a: Any, b: Any, n_t: int, weights: Any, fmt: Format | None) -> tuple[BoundaryEditResult, Segmentation, _Ops]:
    n_t = check_n_t(n_t)
    w = _check_weights(weights)
    sa, sb = as_pair(a, b, fmt)
    ops = _edit_operations(sa, sb, n_t, _ordinal)
    edits = _weighted_edits(ops, n_t, w)
    sig = signature(BED_CARD.name, n_t=n_t, w=_weights_label(w))
    return _bed_result(ops, n_t, sa.n_gaps, edits, BED_CARD.name, sig), sa, ops


def _bed_result(ops: _Ops, n_t: int, n_gaps: int, edits: Fraction | float, metric: str, sig: str) -> BoundaryEditResult:
    """The boundary edit distance result of these operations weighing ``edits`` in all (exact
    for segeval's weights, a float sum with a scheme's costs)."""
    counts = EditCounts(
        metric,
        len(ops.additions),
        len(ops.substitutions),
        len(ops.transpositions),
        int(ops.match_positions.size),
        edits,
    )
    return BoundaryEditResult(
        additions=tuple(ops.additions),
        substitutions=tuple(ops.substitutions),
        transpositions=tuple(ops.transpositions),
        n_t=n_t,
        types=ops.types,
        n_positions=n_gaps,
        weighted_edits=Fraction(edits),
        stats=counts,
        signature=sig,
        match_positions=ops.match_positions,
        match_types=ops.match_types,
    )


def _edit_similarity(
    metric: str, bed: BoundaryEditResult, ops: _Ops, denominator: int, weights: Weights | None
) -> SimilarityResult:
    """S or B from a boundary edit distance: ``1 - weighted edits / denominator``, exactly."""
    stats = SimilarityStats(
        metric,
        bed.weighted_edits,
        denominator,
        len(ops.additions),
        len(ops.substitutions),
        len(ops.transpositions),
        bed.n_matches,
    )
    exact = stats.exact
    assert exact is not None
    sig = signature(metric, n_t=bed.n_t, w=_weights_label(_check_weights(weights)))
    return SimilarityResult(float(exact), exact, stats, bed, sig)


def boundary_edit_distance(
    a: Any, b: Any, n_t: int = 2, *, weights: Weights | None = None, fmt: Format | None = None
) -> BoundaryEditResult:
    """Boundary edit distance (Fournier 2013), identical to segeval 2.0.11.

    Finds additions, substitutions and transpositions with segeval's greedy procedure (see the
    module docstring) and weighs them as segeval 2.0 does by default: an addition weighs 1, a
    substitution ``|t_a - t_b| / (max T - min T + 1)``, a transposition ``|j - i| / n_t``
    (not ``n_t - 1``: an adjacent near miss costs 1/2 at ``n_t = 2``). T is the set of types
    that occur in either segmentation.

    Args:
        a, b: masses, gap sets or (with ``fmt="codes"``) per-token code arrays.
        n_t: 1 + the largest transposition span in positions (default 2: adjacent only).
        weights: ``(addition, substitution, transposition)``, each a constant cost per
            operation or None for segeval's default above; ``(1, 1, 1)`` counts operations.
        fmt: ``"masses"``, ``"sets"`` or ``"codes"``; None guesses masses or sets.

    Returns:
        The operations (``side`` ``"a"`` = boundary only in ``a``), the matches, E and counts.
    """
    return _bed(a, b, n_t, weights, fmt)[0]


def segmentation_similarity(
    a: Any, b: Any, n_t: int = 2, weights: Weights | None = None, *, fmt: Format | None = None
) -> SimilarityResult:
    """Segmentation Similarity S (Fournier & Inkpen 2012), identical to segeval 2.0.11.

    ``S = (P - E) / P`` with ``E`` the weighted boundary edit count (see
    :func:`boundary_edit_distance`) and ``P = (N - 1) * |T| * |T|``: segeval multiplies by the
    number of occurring types twice, so for one type ``P = N - 1``.

    Defaults follow segeval 2.0: ``n_t = 2`` and transpositions weighted ``span / n_t``, so
    Fournier & Inkpen's Figure 3 gives 19/26; ``weights=(1, 1, 1)`` gives the paper's
    unweighted S (9/13).

    Two segmentations without any boundary give 1.0, the formula's 0/0 case (segeval 2.0.11
    raises ``ValueError`` there).
    """
    bed, sa, ops = _bed(a, b, n_t, weights, fmt)
    return _edit_similarity(S_CARD.name, bed, ops, sa.n_gaps * len(ops.types) * len(ops.types), weights)


def boundary_similarity(
    a: Any,
    b: Any,
    n_t: int = 2,
    weights: Weights | None = None,
    *,
    scheme: BoundaryScheme | None = None,
    fmt: Format | None = None,
) -> SimilarityResult:
    """Boundary Similarity B (Fournier 2013), identical to segeval 2.0.11.

    ``B = 1 - E / D`` with ``E`` the weighted boundary edit count (see
    :func:`boundary_edit_distance`) and ``D = |additions| + |substitutions| +
    |transpositions| + |matches|`` (matches counted per position and type). Defaults follow
    segeval 2.0 (``n_t = 2``, transposition weight ``span / n_t``, ordinal substitution weight).
    Two segmentations without any boundary give 1.0 (segeval 2.0.11 raises ``ValueError``).

    With ``scheme`` (a :class:`~segagree.model.scheme.BoundaryScheme`), types are the
    scheme's unordered codes and the edits are weighted by its cost model instead:

    * the edit operations are found exactly as above, except that leftover types at a position
      are paired into substitutions minimising the summed ``1 - M[x, y]``;
    * an addition of ``x`` present only in ``a`` costs ``1 - M[x, none]`` (deletion), of ``y``
      present only in ``b`` ``1 - M[none, y]`` (insertion);
    * a substitution costs ``1 - M[x, y]`` (row = ``a``'s code, column = ``b``'s);
    * a transposition of type ``t`` over ``span`` positions costs
      ``min(1, transposition[t] * span)`` (capped so that no operation weighs more than 1);
    * ``B = 1 - E / D`` with the unweighted ``D`` above, as in Fournier 2013.

    ``weights`` cannot be combined with ``scheme``. With the identity matrix and the default
    transposition cost (0.5) this equals segeval's B at ``n_t = 2`` whenever no substitution
    occurs. For a symmetric scheme B is symmetric. Code arrays (``fmt="codes"``) drop the last
    token's code: the end of the stream is not a gap.

    Args:
        a, b: masses, gap sets or (with ``fmt="codes"``) per-token code arrays.
        n_t: 1 + the largest transposition span in positions.
        weights: see :func:`boundary_edit_distance`.
        scheme: a boundary scheme whose codes the types are.
        fmt: ``"masses"``, ``"sets"`` or ``"codes"``; None guesses masses or sets.
    """
    if scheme is None:
        bed, _, ops = _bed(a, b, n_t, weights, fmt)
        d = len(ops.additions) + len(ops.substitutions) + len(ops.transpositions) + bed.n_matches
        return _edit_similarity(B_CARD.name, bed, ops, d, weights)
    return _scheme_boundary_similarity(a, b, n_t, weights, scheme, fmt)


def _scheme_boundary_similarity(
    a: Any, b: Any, n_t: int, weights: Any, scheme: BoundaryScheme, fmt: Format | None
) -> SimilarityResult:
    if weights is not None:
        raise UsageError("give either weights or scheme to boundary_similarity, not both")
    if not isinstance(scheme, BoundaryScheme):
        raise UsageError(f"scheme must be a BoundaryScheme, got {type(scheme).__name__}")
    n_t = check_n_t(n_t)
    sa, sb = as_pair(a, b, fmt)
    k = scheme.n_codes
    for name, seg in (("a", sa), ("b", sb)):
        bad = [t for t in seg.types() if t >= k]
        if bad:
            raise UsageError(f"{name} holds boundary code {max(bad)}, but scheme {scheme.name!r} has codes 1..{k - 1}")
    cost_m = scheme.cost
    trans = scheme.transposition

    def pair_cost(x: int, y: int) -> float:
        return float(cost_m[x, y])

    ops = _edit_operations(sa, sb, n_t, pair_cost)
    costs = [float(cost_m[t.type, 0]) if t.side == "a" else float(cost_m[0, t.type]) for t in ops.additions]
    costs += [float(cost_m[s.type_a, s.type_b]) for s in ops.substitutions]
    costs += [min(1.0, float(trans[t.type]) * (t.end - t.start)) for t in ops.transpositions]
    edits = math.fsum(costs)
    n_matches = int(ops.match_positions.size)
    d = len(ops.additions) + len(ops.substitutions) + len(ops.transpositions) + n_matches
    stats = SimilarityStats(
        B_SCHEME_CARD.name,
        edits,
        d,
        len(ops.additions),
        len(ops.substitutions),
        len(ops.transpositions),
        n_matches,
    )
    sig_bed = signature(BED_CARD.name, n_t=n_t, scheme=f"{scheme.name}:{scheme.digest}")
    bed = _bed_result(ops, n_t, sa.n_gaps, edits, BED_CARD.name + "_scheme", sig_bed)
    sig = signature(B_CARD.name, n_t=n_t, scheme=f"{scheme.name}:{scheme.digest}")
    return SimilarityResult(stats.value, None, stats, bed, sig)


# --- measures (the contract: segagree.metrics.contract) ----------------------------------------


class SMeasure(BoundaryMeasure):
    card = S_CARD
    options = ("n_t",)

    def result(self, a: Any, b: Any, fmt: Format, options: Mapping[str, Any], item: TokenPair) -> SimilarityResult:
        return segmentation_similarity(a, b, fmt=fmt, **options)


class BMeasure(BoundaryMeasure):
    card = B_CARD
    options = ("n_t",)

    def result(self, a: Any, b: Any, fmt: Format, options: Mapping[str, Any], item: TokenPair) -> SimilarityResult:
        return boundary_similarity(a, b, fmt=fmt, **options)


class BSchemeMeasure(BoundaryMeasure):
    """B weighted by the compared layer's scheme; one layer only (the scheme's types)."""

    card = B_SCHEME_CARD
    options = ("n_t",)

    def result(self, a: Any, b: Any, fmt: Format, options: Mapping[str, Any], item: TokenPair) -> SimilarityResult:
        if fmt != "codes":
            raise UsageError(f"{self.card.name} compares one layer (its scheme's types), not several")
        return boundary_similarity(a, b, options.get("n_t", 2), scheme=item.scheme, fmt="codes")


class BedMeasure(BoundaryMeasure):
    card = BED_CARD
    options = ("n_t",)

    def result(self, a: Any, b: Any, fmt: Format, options: Mapping[str, Any], item: TokenPair) -> BoundaryEditResult:
        return boundary_edit_distance(a, b, fmt=fmt, **options)


MEASURES = (SMeasure(), BMeasure(), BSchemeMeasure(), BedMeasure())
