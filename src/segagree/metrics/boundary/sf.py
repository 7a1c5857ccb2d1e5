"""S_f and S_f^B: flexible, distance-based segmentation similarity for typed boundaries.

Lai, Li & Zhang (2023), "Text segmentation similarity revisited: a flexible distance-based
approach for multiple boundary types", SCiL 2023. Reference implementation: the R package
segsimflex 0.1.3 (see :mod:`segagree.metrics.boundary.sf_segsimflex` for a literal port of its search).

Model (per speaker; ``a`` and ``b`` are int arrays of length ``N``, one code per token, the code
of the boundary *after* that token; codes index a :class:`BoundaryScheme`, ``0`` = none)::

    anchors        positions i with a[i] != 0 and b[i] != 0: always paired with each other,
                   match (equal codes, cost 0) or substitution (cost 1 - M[a_i, b_i]).
    segments       the stretches between anchors. Inside one, the remaining boundaries of A and
                   of B are paired by an order-preserving (non-crossing) matching:
    transposition  A's boundary at i with B's at j (d = |i - j| > 0) costs
                   transposition[code at the later of i, j] * d + (1 - M[a_i, b_j])
    deletion       an unpaired boundary x of A costs 1 - M[x, none]
    insertion      an unpaired boundary y of B costs 1 - M[none, y]

    S_f   = 1 - cost / N           (N = tokens, summed over speakers)
    S_f^B = 1 - cost / edits       (edits = anchors + transpositions + insertions + deletions)

``S_f^B`` is 1.0 when there are no edits at all (no boundary anywhere); segsimflex gives NaN.
Pooled scores are computed from summed statistics (:class:`SfStats`), never averaged.

Modes:

* ``"optimal"`` (default): the exact minimum cost of the model above, by dynamic programming
  (one small banded alignment per stretch between anchors). Among alignments of equal cost
  (within 1e-12) the one with more edits wins, i.e. a pair is only made when it is strictly
  cheaper than a deletion plus an insertion, as in segsimflex.
* ``"segsimflex"``: segsimflex's restricted greedy search with its action counting, reproducing
  ``sim_Score(record = FALSE)`` exactly (including its memoisation quirk; ``memo=False`` gives
  ``record = TRUE``'s values). Its cost is never below the optimal cost.

``transpositions=False`` disables pairing across positions. In segsimflex mode this is
``sim_Score(trans = FALSE)``: edits are the positions where the two strings differ (matches are
not counted, so S_f^B is about 0 under an identity matrix). In optimal mode the cost is the same
but matches count as edits, as with transpositions.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any, Literal, NamedTuple

import numpy as np

from segagree.errors import MismatchError, UsageError
from segagree.metrics.boundary.costs import EPS, CostTable
from segagree.metrics.boundary.modes import MODES, check_mode
from segagree.metrics.contract import Card, Measure, TokenPair
from segagree.model.scheme import BoundaryScheme, builtin_scheme

__all__ = [
    "MODES",
    "check_mode",
    "OpName",
    "Operation",
    "SfResult",
    "SfStats",
    "sf",
    "sf_speaker",
]


# What the cards of S_f and S_f^B share.
_SF_SHARED: dict[str, Any] = {
    "citation": "Lai, Li & Zhang (2023), a flexible segmentation similarity for typed boundaries (segsimflex)",
    "parameters": {"scheme": "dubois", "mode": "optimal", "transpositions": "True"},
    "group": "boundary",
    "reference": "R segsimflex 0.1.3",
}
SF_CARD = Card.from_text(
    """
    title: S_f (flexible segmentation similarity)
    definition: 1 - scheme-weighted edit cost / number of token positions, typed boundaries with a
        similarity matrix and transpositions
    """,
    **_SF_SHARED,
    name="sf",
)
SF_B_CARD = Card.from_text(
    """
    title: S_f^B (flexible boundary similarity)
    definition: (actions - scheme-weighted edit cost) / actions, actions = matches and edit operations
    notes: 1.0 when there is no edit at all (segsimflex gives NaN)
    """,
    **_SF_SHARED,
    name="sf_b",
)

# The metric names S_f itself answers (``compare`` computes them with the operations).
SF_NAMES: tuple[str, ...] = (SF_CARD.name, SF_B_CARD.name)

OpName = Literal["match", "substitution", "transposition", "insertion", "deletion"]

# Cost ties closer than this are treated as equal (the tie goes to the alignment with more edits).
_EPS = EPS  # the aligners' tie rule (metrics.boundary.costs)
# Operation kinds by small int, for the vectorised assembly of operation lists.
_OP_NAMES: tuple[OpName, ...] = ("match", "substitution", "transposition", "insertion", "deletion")
_MATCH, _SUB, _TRANS, _INS, _DEL = range(5)


class Operation(NamedTuple):
    """One edit operation of an S_f alignment (an immutable record; a NamedTuple because a
    large text has hundreds of thousands and a frozen dataclass was 4x slower to build).

    Attributes:
        speaker: the speaker whose token stream it belongs to.
        op: ``match``/``substitution`` (both annotators have a boundary after the same token),
            ``transposition`` (a boundary of A paired with one of B at another token, possibly
            of another type), ``insertion`` (B only), ``deletion`` (A only).
        position_a: 0-based token index of A's boundary (None for an insertion).
        position_b: 0-based token index of B's boundary (None for a deletion).
        type_a: A's scheme code (0 for an insertion).
        type_b: B's scheme code (0 for a deletion).
        cost: the cost of this operation; the costs of all operations sum to the total cost.
    """

    speaker: str
    op: OpName
    position_a: int | None
    position_b: int | None
    type_a: int
    type_b: int
    cost: float

    def to_dict(self, scheme: BoundaryScheme | None = None) -> dict[str, Any]:
        """A JSON-ready dict; types as scheme symbols (``"none"`` for 0) when a scheme is given."""
        ta: int | str = self.type_a
        tb: int | str = self.type_b
        if scheme is not None:
            ta, tb = scheme.symbol(self.type_a), scheme.symbol(self.type_b)
        return {
            "speaker": self.speaker,
            "op": self.op,
            "position_a": self.position_a,
            "position_b": self.position_b,
            "type_a": ta,
            "type_b": tb,
            "cost": self.cost,
        }


@dataclass
class SfStats:
    """Additive sufficient statistics of S_f and S_f^B (``a + b`` sums them).

    Attributes:
        cost: summed edit cost.
        edits: number of edit operations in the S_f^B denominator.
        n_tokens: number of tokens (the S_f denominator).
        matches, substitutions, transpositions, insertions, deletions: operation counts.
    """

    cost: float = 0.0
    edits: int = 0
    n_tokens: int = 0
    matches: int = 0
    substitutions: int = 0
    transpositions: int = 0
    insertions: int = 0
    deletions: int = 0

    @property
    def sf(self) -> float:
        """S_f = 1 - cost / n_tokens (1.0 for an empty stream)."""
        return 1.0 - self.cost / self.n_tokens if self.n_tokens else 1.0

    @property
    def sf_b(self) -> float:
        """S_f^B = 1 - cost / edits (1.0 when there are no edits; segsimflex gives NaN)."""
        return 1.0 - self.cost / self.edits if self.edits else 1.0

    def __add__(self, other: SfStats) -> SfStats:
        if not isinstance(other, SfStats):
            return NotImplemented
        return SfStats(
            cost=self.cost + other.cost,
            edits=self.edits + other.edits,
            n_tokens=self.n_tokens + other.n_tokens,
            matches=self.matches + other.matches,
            substitutions=self.substitutions + other.substitutions,
            transpositions=self.transpositions + other.transpositions,
            insertions=self.insertions + other.insertions,
            deletions=self.deletions + other.deletions,
        )

    def __radd__(self, other: Any) -> SfStats:
        if other == 0:  # lets sum() start from 0
            return self
        return NotImplemented

    def to_dict(self) -> dict[str, Any]:
        """Scores, denominators and operation counts."""
        return {
            SF_CARD.name: self.sf,
            SF_B_CARD.name: self.sf_b,
            "cost": self.cost,
            "edits": self.edits,
            "n_tokens": self.n_tokens,
            "matches": self.matches,
            "substitutions": self.substitutions,
            "transpositions": self.transpositions,
            "insertions": self.insertions,
            "deletions": self.deletions,
        }


@dataclass
class SfResult:
    """S_f / S_f^B of a pair of annotations: pooled and per-speaker statistics, the operations.

    Attributes:
        stats: pooled statistics (the sum of ``per_speaker``).
        per_speaker: statistics by speaker name, in sorted speaker order.
        operations: every operation (matches included), by speaker then position.
        mode: ``"optimal"`` or ``"segsimflex"``.
        scheme: the boundary scheme (cost model).
        transpositions: whether transpositions were allowed.
        memo: segsimflex mode only: whether its memoisation quirk was reproduced.
    """

    stats: SfStats
    per_speaker: dict[str, SfStats]
    operations: list[Operation]
    mode: str
    scheme: BoundaryScheme
    transpositions: bool = True
    memo: bool = True

    @property
    def sf(self) -> float:
        """Pooled S_f."""
        return self.stats.sf

    @property
    def sf_b(self) -> float:
        """Pooled S_f^B."""
        return self.stats.sf_b

    @property
    def cost(self) -> float:
        """Pooled edit cost."""
        return self.stats.cost

    @property
    def edits(self) -> int:
        """Pooled number of edits (S_f^B denominator)."""
        return self.stats.edits

    @property
    def n_tokens(self) -> int:
        """Pooled number of tokens (S_f denominator)."""
        return self.stats.n_tokens

    @property
    def signature(self) -> str:
        """sacrebleu-style description of how the score was computed."""
        from segagree.version import version

        parts = [
            SF_CARD.name,
            f"mode:{self.mode}",
            f"scheme:{self.scheme.name}@{self.scheme.digest}",
            f"trans:{'yes' if self.transpositions else 'no'}",
        ]
        if self.mode == "segsimflex" and not self.memo:
            parts.append("memo:no")
        parts.append(f"v:{version()}")
        return "|".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: pooled scores and counts, per-speaker statistics, operations, signature, mode."""
        return {
            **self.stats.to_dict(),
            "per_speaker": {name: s.to_dict() for name, s in self.per_speaker.items()},
            "operations": _operation_dicts(self.operations, self.scheme),
            "signature": self.signature,
            "mode": self.mode,
        }


def _operation_dicts(operations: list[Operation], scheme: BoundaryScheme) -> list[dict[str, Any]]:
    """``[op.to_dict(scheme) for op in operations]``, with each code's symbol looked up once."""
    sym = [scheme.symbol(c) for c in range(scheme.n_codes)]
    return [
        {
            "speaker": sp,
            "op": op,
            "position_a": pa,
            "position_b": pb,
            "type_a": sym[ta],
            "type_b": sym[tb],
            "cost": c,
        }
        for sp, op, pa, pb, ta, tb, c in operations
    ]


# --- input checks --------------------------------------------------------------------------


def _as_codes(x: Any, scheme: BoundaryScheme, what: str) -> np.ndarray:
    """A 1-D int64 array of scheme codes, or a clear error."""
    arr = np.asarray(x)
    if arr.ndim != 1:
        raise UsageError(f"{what}: expected a 1-D array of boundary codes, got shape {arr.shape}")
    if arr.size == 0:
        return arr.astype(np.int64)
    if arr.dtype.kind == "b" or arr.dtype.kind not in "iuf":
        raise UsageError(f"{what}: boundary codes must be integers, got dtype {arr.dtype}")
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
            raise UsageError(f"{what}: boundary codes must be integers")
    codes = arr.astype(np.int64)
    bad = np.flatnonzero((codes < 0) | (codes >= scheme.n_codes))
    if bad.size:
        i = int(bad[0])
        raise UsageError(
            f"{what}: code {int(codes[i])} at token {i} is not in scheme {scheme.name!r} "
            f"(codes 0..{scheme.n_codes - 1}: {scheme.symbols})"
        )
    return codes


# --- the optimal alignment ----------------------------------------------------------------


class _CostModel:
    """Plain-Python lists of a scheme's cost table (:class:`~segagree.metrics.boundary.costs.CostTable`)
    and the band of the alignment."""

    def __init__(self, scheme: BoundaryScheme):
        table = CostTable(scheme)
        self.scheme = scheme
        self.c_np = table.c
        self.c = table.c.tolist()
        self.dele = table.dele.tolist()
        self.ins = table.ins.tolist()
        self.trans = table.trans.tolist()
        # The band: a pair spans at most `reach` tokens, and _align_block keeps the states within
        # distance < dmax; without a reach (a zero transposition cost) the full DP is used.
        self.dmax = table.reach + 1

    def pair_cost(self, pa: int, x: int, pb: int, y: int) -> float | None:
        """Cost of pairing A's x at pa with B's y at pb, or None if not strictly cheaper than
        deleting x and inserting y."""
        d = pa - pb
        if d > 0:
            cost = self.trans[x] * d + self.c[x][y]
        else:
            cost = self.trans[y] * -d + self.c[x][y]
        if cost < self.dele[x] + self.ins[y] - _EPS:
            return cost
        return None


def _align_block(
    model: _CostModel, pos_a: list[int], x: list[int], pos_b: list[int], y: list[int]
) -> list[tuple[int, int, float]]:
    """Minimum-cost order-preserving pairing of A's and B's boundaries in one stretch.

    Classic alignment DP with pair / skip-A / skip-B moves over states (i, j) = (A's first i,
    B's first j handled). Only states with ``pos_b[j-1] < pos_a[i] + dmax`` and
    ``pos_a[i-1] < pos_b[j] + dmax`` can lie on an optimal path (every pair spans at most
    dmax tokens), which keeps the work linear in the stretch. Returns the pairs ``(i, j, cost)``;
    every other boundary is deleted / inserted.
    """
    p, q = len(pos_a), len(pos_b)
    if p == 1 and q == 1:  # the common case: one shifted or retyped boundary
        pc = model.pair_cost(pos_a[0], x[0], pos_b[0], y[0])
        return [] if pc is None else [(0, 0, pc)]
    dmax = model.dmax
    dele, ins = model.dele, model.ins
    lo = [0] * (p + 1)
    hi = [q] * (p + 1)
    if dmax != float("inf"):
        for i in range(1, p + 1):
            lo[i] = bisect.bisect_right(pos_b, pos_a[i - 1] - dmax)
        for i in range(p):
            hi[i] = bisect.bisect_left(pos_b, pos_a[i] + dmax)
    inf = float("inf")
    costs: list[list[float]] = []
    edits: list[list[int]] = []
    backs: list[list[int]] = []  # 0 = delete A[i-1], 1 = insert B[j-1], 2 = pair them
    for i in range(p + 1):
        lo_i, hi_i = lo[i], hi[i]
        width = hi_i - lo_i + 1
        row_c = [inf] * width
        row_e = [0] * width
        row_b = [-1] * width
        if i:
            plo, phi = lo[i - 1], hi[i - 1]
            prev_c, prev_e = costs[i - 1], edits[i - 1]
            xa, pa, da = x[i - 1], pos_a[i - 1], dele[x[i - 1]]
        for k in range(width):
            j = lo_i + k
            if i == 0 and j == 0:
                row_c[0] = 0.0
                continue
            best_c, best_e, best_b = inf, 0, -1
            if i and plo <= j <= phi:  # delete A[i-1]
                best_c = prev_c[j - plo] + da
                best_e = prev_e[j - plo] + 1
                best_b = 0
            if k:  # insert B[j-1]
                cc = row_c[k - 1] + ins[y[j - 1]]
                ee = row_e[k - 1] + 1
                if cc < best_c - _EPS or (cc <= best_c + _EPS and ee > best_e):
                    best_c, best_e, best_b = cc, ee, 1
            if i and j and plo <= j - 1 <= phi:  # pair A[i-1] with B[j-1]
                pc = model.pair_cost(pa, xa, pos_b[j - 1], y[j - 1])
                if pc is not None:
                    cc = prev_c[j - 1 - plo] + pc
                    ee = prev_e[j - 1 - plo] + 1
                    if cc < best_c - _EPS or (cc <= best_c + _EPS and ee > best_e):
                        best_c, best_e, best_b = cc, ee, 2
            row_c[k], row_e[k], row_b[k] = best_c, best_e, best_b
        costs.append(row_c)
        edits.append(row_e)
        backs.append(row_b)
    pairs: list[tuple[int, int, float]] = []
    i, j = p, q
    while i or j:
        move = backs[i][j - lo[i]]
        if move == 0:
            i -= 1
        elif move == 1:
            j -= 1
        else:
            pc = model.pair_cost(pos_a[i - 1], x[i - 1], pos_b[j - 1], y[j - 1])
            pairs.append((i - 1, j - 1, float(pc)))  # type: ignore[arg-type]
            i -= 1
            j -= 1
    pairs.reverse()
    return pairs


def _optimal_speaker(
    a: np.ndarray,
    b: np.ndarray,
    model: _CostModel,
    transpositions: bool,
    speaker: str,
    with_operations: bool,
) -> tuple[SfStats, list[Operation]]:
    """The optimal alignment of one speaker's streams (see the module docstring)."""
    n = int(a.size)
    nz_a, nz_b = a != 0, b != 0
    anc = np.flatnonzero(nz_a & nz_b)
    anc_ta, anc_tb = a[anc], b[anc]
    anc_cost = model.c_np[anc_ta, anc_tb]
    n_match = int(np.count_nonzero(anc_ta == anc_tb))
    lone_a = np.flatnonzero(nz_a & ~nz_b)
    lone_b = np.flatnonzero(nz_b & ~nz_a)
    keep_a = np.ones(lone_a.size, dtype=bool)
    keep_b = np.ones(lone_b.size, dtype=bool)
    pairs_pa: list[int] = []
    pairs_pb: list[int] = []
    pairs_cost: list[float] = []
    if transpositions and lone_a.size and lone_b.size:
        pairs_pa, pairs_pb, pairs_cost = _transposed_pairs(a, b, anc, lone_a, lone_b, model)
        if pairs_pa:
            keep_a[np.searchsorted(lone_a, pairs_pa)] = False
            keep_b[np.searchsorted(lone_b, pairs_pb)] = False
    del_pos = lone_a[keep_a]
    ins_pos = lone_b[keep_b]
    del_cost = model.c_np[a[del_pos], 0]
    ins_cost = model.c_np[0, b[ins_pos]]
    all_costs = np.concatenate([anc_cost, np.asarray(pairs_cost, dtype=float), del_cost, ins_cost])
    n_anc = int(anc.size)
    stats = SfStats(
        cost=float(all_costs.sum()),
        edits=n_anc + len(pairs_pa) + int(del_pos.size) + int(ins_pos.size),
        n_tokens=n,
        matches=n_match,
        substitutions=n_anc - n_match,
        transpositions=len(pairs_pa),
        insertions=int(ins_pos.size),
        deletions=int(del_pos.size),
    )
    if not with_operations:
        return stats, []
    pairs = (np.asarray(pairs_pa, dtype=np.int64), np.asarray(pairs_pb, dtype=np.int64))
    return stats, _operations_in_order(speaker, a, b, anc, pairs, del_pos, ins_pos, all_costs)


def _transposed_pairs(
    a: np.ndarray, b: np.ndarray, anc: np.ndarray, lone_a: np.ndarray, lone_b: np.ndarray, model: _CostModel
) -> tuple[list[int], list[int], list[float]]:
    """The boundaries of A and B paired as transpositions, and their costs.

    Boundaries may be paired only within a block: a stretch between anchors, cut further
    wherever consecutive boundaries are more than dmax apart, holding boundaries of both A and
    B. Every other lone boundary is a plain deletion / insertion (handled vectorised).
    """
    pos = np.concatenate([lone_a, lone_b])
    is_b = np.concatenate([np.zeros(lone_a.size, bool), np.ones(lone_b.size, bool)])
    order = np.argsort(pos, kind="stable")
    pos, is_b = pos[order], is_b[order]
    seg = np.searchsorted(anc, pos)
    new = np.ones(pos.size, dtype=bool)
    new[1:] = seg[1:] != seg[:-1]
    if model.dmax != float("inf"):
        new[1:] |= np.diff(pos) > model.dmax
    block = np.cumsum(new) - 1
    n_blocks = int(block[-1]) + 1
    has_b = np.bincount(block, weights=is_b, minlength=n_blocks) > 0
    has_a = np.bincount(block, weights=~is_b, minlength=n_blocks) > 0
    mixed = (has_a & has_b)[block]
    pairs_pa: list[int] = []
    pairs_pb: list[int] = []
    pairs_cost: list[float] = []
    if not mixed.any():
        return pairs_pa, pairs_pb, pairs_cost
    m_pos = pos[mixed].tolist()
    m_isb = is_b[mixed].tolist()
    m_block = block[mixed].tolist()
    start = 0
    total = len(m_pos)
    while start < total:
        end = start
        blk = m_block[start]
        while end < total and m_block[end] == blk:
            end += 1
        pa_l = [m_pos[t] for t in range(start, end) if not m_isb[t]]
        pb_l = [m_pos[t] for t in range(start, end) if m_isb[t]]
        for i, j, pc in _align_block(model, pa_l, a[pa_l].tolist(), pb_l, b[pb_l].tolist()):
            pairs_pa.append(pa_l[i])
            pairs_pb.append(pb_l[j])
            pairs_cost.append(pc)
        start = end
    return pairs_pa, pairs_pb, pairs_cost


def _operations_in_order(
    speaker: str,
    a: np.ndarray,
    b: np.ndarray,
    anc: np.ndarray,
    pairs: tuple[np.ndarray, np.ndarray],
    del_pos: np.ndarray,
    ins_pos: np.ndarray,
    all_costs: np.ndarray,
) -> list[Operation]:
    """Every operation (anchors, transpositions, deletions, insertions; costs in that order in
    ``all_costs``), sorted by the earlier of its two positions, then the later one."""
    n = int(a.size)
    tr_pa, tr_pb = pairs
    anc_ta, anc_tb = a[anc], b[anc]
    none = -1
    kind = np.concatenate(
        [
            np.where(anc_ta == anc_tb, _MATCH, _SUB),
            np.full(tr_pa.size, _TRANS),
            np.full(del_pos.size, _DEL),
            np.full(ins_pos.size, _INS),
        ]
    )
    pos_a = np.concatenate([anc, tr_pa, del_pos, np.full(ins_pos.size, none)])
    pos_b = np.concatenate([anc, tr_pb, np.full(del_pos.size, none), ins_pos])
    typ_a = np.concatenate([anc_ta, a[tr_pa], a[del_pos], np.zeros(ins_pos.size, np.int64)])
    typ_b = np.concatenate([anc_tb, b[tr_pb], np.zeros(del_pos.size, np.int64), b[ins_pos]])
    big = n + 1
    pa_key = np.where(pos_a < 0, big, pos_a)
    pb_key = np.where(pos_b < 0, big, pos_b)
    first = np.minimum(pa_key, pb_key)
    second = np.maximum(np.where(pos_a < 0, -1, pos_a), np.where(pos_b < 0, -1, pos_b))
    order = np.lexsort((second, first))
    none_if_negative = [None, *range(n + 1)]  # index -1 -> None, p -> p (n + 1 slots: p <= n)
    return list(
        map(
            Operation,
            repeat(speaker),
            [_OP_NAMES[k] for k in kind[order].tolist()],
            [none_if_negative[p + 1] for p in pos_a[order].tolist()],
            [none_if_negative[p + 1] for p in pos_b[order].tolist()],
            typ_a[order].tolist(),
            typ_b[order].tolist(),
            all_costs[order].tolist(),
        )
    )


# --- public API ---------------------------------------------------------------------------


def sf_speaker(
    a: Sequence[int] | np.ndarray,
    b: Sequence[int] | np.ndarray,
    scheme: BoundaryScheme | None = None,
    *,
    mode: str = "optimal",
    transpositions: bool = True,
    speaker: str = "",
    with_operations: bool = True,
    memo: bool = True,
) -> tuple[SfStats, list[Operation]]:
    """S_f statistics and operations of one speaker's two boundary-code arrays.

    Args:
        a, b: equal-length int arrays, one scheme code per token (0 = no boundary).
        scheme: the cost model; None means the built-in ``dubois`` scheme.
        mode: ``"optimal"`` (exact minimum, default) or ``"segsimflex"`` (the R reference).
        transpositions: allow pairing boundaries at different tokens.
        speaker: the name put on the operations.
        with_operations: build the operation list (the statistics are the same without).
        memo: segsimflex mode only: reproduce its memoisation (``record = FALSE``, default);
            False gives ``record = TRUE``'s values.

    Raises:
        MismatchError: the arrays have different lengths.
        UsageError: an unknown mode, or codes that are not in the scheme.
    """
    check_mode(mode)
    scheme = builtin_scheme("dubois") if scheme is None else scheme
    who = f"speaker {speaker!r}" if speaker else "speaker"
    ca = _as_codes(a, scheme, f"{who}, annotation A")
    cb = _as_codes(b, scheme, f"{who}, annotation B")
    if ca.size != cb.size:
        raise MismatchError(
            f"{who} has {ca.size} tokens in annotation A but {cb.size} in annotation B; "
            "S_f compares boundaries of the same token stream"
        )
    return _speaker(ca, cb, scheme, _CostModel(scheme), mode, transpositions, speaker, with_operations, memo)


def _speaker(
    ca: np.ndarray,
    cb: np.ndarray,
    scheme: BoundaryScheme,
    model: _CostModel,
    mode: str,
    transpositions: bool,
    speaker: str,
    with_operations: bool,
    memo: bool,
) -> tuple[SfStats, list[Operation]]:
    if mode == "optimal":
        return _optimal_speaker(ca, cb, model, transpositions, speaker, with_operations)
    from segagree.metrics.boundary.sf_segsimflex import segsimflex_speaker

    out = segsimflex_speaker(ca, cb, scheme, transpositions=transpositions, memo=memo, with_operations=True)
    counts: dict[str, int] = dict.fromkeys(_OP_NAMES, 0)
    ops: list[Operation] = []
    for op, pa, pb, ta, tb, c in out.operations:
        counts[op] += 1
        if with_operations:
            ops.append(Operation(speaker, op, pa, pb, ta, tb, c))  # type: ignore[arg-type]
    stats = SfStats(
        cost=out.cost,
        edits=out.actions,
        n_tokens=int(ca.size),
        matches=counts["match"],
        substitutions=counts["substitution"],
        transpositions=counts["transposition"],
        insertions=counts["insertion"],
        deletions=counts["deletion"],
    )
    return stats, ops


def sf(
    a: Mapping[str, Sequence[int] | np.ndarray],
    b: Mapping[str, Sequence[int] | np.ndarray],
    scheme: BoundaryScheme | None = None,
    *,
    mode: str = "optimal",
    transpositions: bool = True,
    with_operations: bool = True,
    memo: bool = True,
) -> SfResult:
    """S_f and S_f^B (Lai, Li & Zhang 2023) of two annotations of the same speakers' tokens.

    Speakers are paired by name and processed in sorted name order; each speaker's cost, edits
    and tokens are summed before the pooled scores are taken.

    Args:
        a, b: speaker name -> int array of scheme codes, one per token (0 = no boundary).
        scheme: the cost model; None means the built-in ``dubois`` scheme.
        mode: ``"optimal"`` (default) or ``"segsimflex"``; see the module docstring.
        transpositions: allow pairing boundaries at different tokens.
        with_operations: build the operation list.
        memo: segsimflex mode only; see :func:`sf_speaker`.

    Raises:
        MismatchError: the speaker sets differ, or a speaker's two arrays differ in length.
        UsageError: an unknown mode, or codes that are not in the scheme.
    """
    check_mode(mode)
    scheme = builtin_scheme("dubois") if scheme is None else scheme
    names_a, names_b = set(a), set(b)
    if names_a != names_b:
        only_a = sorted(names_a - names_b)
        only_b = sorted(names_b - names_a)
        parts = []
        if only_a:
            parts.append(f"missing from annotation B: {', '.join(map(repr, only_a))}")
        if only_b:
            parts.append(f"missing from annotation A: {', '.join(map(repr, only_b))}")
        raise MismatchError("the two annotations have different speakers; " + "; ".join(parts))
    model = _CostModel(scheme)
    per_speaker: dict[str, SfStats] = {}
    operations: list[Operation] = []
    for name in sorted(names_a):
        ca = _as_codes(a[name], scheme, f"speaker {name!r}, annotation A")
        cb = _as_codes(b[name], scheme, f"speaker {name!r}, annotation B")
        if ca.size != cb.size:
            raise MismatchError(
                f"speaker {name!r} has {ca.size} tokens in annotation A but {cb.size} in "
                "annotation B; S_f compares boundaries of the same token stream"
            )
        stats, ops = _speaker(ca, cb, scheme, model, mode, transpositions, name, with_operations, memo)
        per_speaker[name] = stats
        operations.extend(ops)
    pooled = sum(per_speaker.values(), SfStats())
    return SfResult(
        stats=pooled,
        per_speaker=per_speaker,
        operations=operations,
        mode=mode,
        scheme=scheme,
        transpositions=transpositions,
        memo=memo,
    )


# --- measures (the contract: segagree.metrics.contract) ----------------------------------------


@dataclass(frozen=True)
class SfScore:
    """S_f or S_f^B of (summed) statistics, as the measure contract returns it."""

    measure: str
    stats: SfStats
    signature: str = ""

    @property
    def value(self) -> float:
        return self.stats.sf_b if self.measure == SF_B_CARD.name else self.stats.sf

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "stats": self.stats.to_dict(), "signature": self.signature}


@dataclass(frozen=True)
class _SfTally:
    stats: SfStats
    signature: str

    def __add__(self, other: _SfTally) -> _SfTally:
        return _SfTally(self.stats + other.stats, self.signature)


class SfMeasure(Measure[TokenPair, _SfTally, SfScore]):
    """S_f on one speaker's two code arrays (``compare`` itself uses :func:`sf`, with operations)."""

    card = SF_CARD

    def statistics(self, item: TokenPair, params: Mapping[str, Any]) -> _SfTally:
        mode = params.get("mode", "optimal")
        transpositions = bool(params.get("transpositions", True))
        scheme = builtin_scheme("dubois") if item.scheme is None else item.scheme
        stats, _ = sf_speaker(item.a, item.b, scheme, mode=mode, transpositions=transpositions, with_operations=False)
        sig = SfResult(stats, {}, [], mode, scheme, transpositions).signature
        return _SfTally(stats, sig)

    def score(self, stats: _SfTally, params: Mapping[str, Any]) -> SfScore:
        return SfScore(self.card.name, stats.stats, stats.signature)


class SfBMeasure(SfMeasure):
    card = SF_B_CARD


MEASURES = (SfMeasure(), SfBMeasure())
