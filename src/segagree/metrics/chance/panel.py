"""Is a segmenter as good as a person? Panel statistics of a machine among human coders.

Fournier & Inkpen (2012, NAACL, "Segmentation Similarity and Agreement", section 3.4) judge an
automatic segmenter by adding it to a panel of human coders and watching the multi-coder
agreement (their equations 5-16, Fleiss' multi-pi and multi-kappa with S or B as the agreement
of two codings): a segmenter as good as a person should change agreement no more than a person
does. Medelyan & Witten (2006, "Measuring inter-indexer consistency using a thesaurus") ask
whether an indexer is "as consistent as the average indexer": each indexer's consistency is its
mean similarity to the others, and the machine takes each human's place in turn.

For one machine ``m`` and the humans ``H`` this module reports:

* ``added``: ``coef(H)``, ``coef(H + m)`` and their difference (Fournier & Inkpen 2012, 3.4);
* ``replaced``: the mean over ``h`` in ``H`` of ``coef(H - h + m)``, and its difference from
  ``coef(H)`` (Medelyan & Witten 2006: the machine in each human's place);
* ``consistency``: the machine's mean pooled similarity to each human, each human's to the other
  humans, and the machine's rank among them (Medelyan & Witten 2006);
* ``human_changes``: for each human ``h``, ``coef(H) - coef(H - h)``, the change that adding ``h``
  to the other humans causes, the yardstick for the machine's ``added`` change;
* ``chance``: the coefficient of random panels that keep each coder's number of boundaries per
  item (positions permuted), and the observed value corrected for it;
* ``verdict``: whether the machine's change lies below, within or above the humans' changes.

Every coefficient is a ratio of sums over coder pairs and items (see
:mod:`segagree.metrics.chance.fleiss`): per coder pair and item, the similarity's numerator and
denominator (S: ``(P - E, P)``; B: ``(D - E, D)``), the pair's potential boundaries
``pbs = (N - 1) |types in the pair|`` and the two coders' boundary proportions; per coder and
item, its number of boundaries. These parts are computed once (with segagree's segeval-exact S and
B) and every sub-panel, every bootstrap resample and every item's value is a weighted sum of them.

Intervals are percentile bootstrap intervals over items (texts), paired: every panel is
evaluated on the same resampled items. Random numbers do not depend on the names of coders or
items nor on the order of the dataset: items and humans are put in an order of their content
(names break ties between identical contents only), and each machine's random panels come from
a stream keyed by its own segmentations, so a machine's numbers do not depend on the other
machines judged beside it.
"""

from __future__ import annotations

import hashlib
import itertools
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.errors import MismatchError, UsageError
from segagree.metrics.boundary.boundary_edit import boundary_similarity, check_n_t, segmentation_similarity
from segagree.metrics.boundary.masses import Segmentation, as_segmentation
from segagree.metrics.chance.bootstrap import bootstrap_ci
from segagree.metrics.chance.panel_verdict import change_rank, rank_after_ties, read_machine

__all__ = [
    "COEFFICIENTS",
    "PANEL_SIMILARITIES",
    "PairParts",
    "PanelResult",
    "pack_presence",
    "packed_similarity_parts",
    "pair_parts",
    "panel_coefficients",
    "panel_statistics",
]

PANEL_SIMILARITIES = ("b", "s")
COEFFICIENTS = ("pi", "kappa")

# Transposition spans the packed kernel shifts by (a shift within two 64-bit words).
_MAX_PACKED_N_T = 64
_INTERVAL_KEYS = ("low", "high", "level", "n_boot", "seed", "reason")


# --- per-pair parts ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairParts:
    """Additive parts of every coder pair on every item (Fournier & Inkpen 2012, eqs. 5-16).

    Attributes:
        pairs: ``(n_pairs, 2)`` coder indices ``m < n``, in ``itertools.combinations`` order.
        num, den: ``(n_items, n_pairs)`` the similarity's numerator and denominator (S:
            ``P - E`` and ``P``; B: ``D - E`` and ``D``); actual agreement pools them.
        pbs: ``(n_items, n_pairs)`` potential boundaries of the pair, ``(N - 1) |T|``.
        prop: ``(n_items, n_pairs)`` the pair's two proportions ``(k_m + k_n) / pbs`` (0 without
            potential boundaries), summed as pi's expected agreement averages them.
        bnd: ``(n_items, n_coders)`` boundaries per coder (all types).
    """

    pairs: np.ndarray
    num: np.ndarray
    den: np.ndarray
    pbs: np.ndarray
    prop: np.ndarray
    bnd: np.ndarray


def _similarity_fn(similarity: str) -> Any:
    return segmentation_similarity if similarity == "s" else boundary_similarity


def pair_parts(segs: Sequence[Sequence[Segmentation]], similarity: str, n_t: int) -> PairParts:
    """Per coder pair and item, the parts of S or B (segeval 2.0.11-exact) and of A_e.

    Args:
        segs: ``segs[coder][item]``, every coder's segmentation of every item.
        similarity: ``"s"`` (Fournier & Inkpen 2012) or ``"b"`` (Fournier 2013).
        n_t: 1 + the largest transposition span.
    """
    n_coders, n_items = len(segs), len(segs[0])
    pairs = np.array(list(itertools.combinations(range(n_coders), 2)), dtype=np.int64).reshape(-1, 2)
    fn = _similarity_fn(similarity)
    shape = (n_items, len(pairs))
    num, den, pbs, prop = (np.zeros(shape) for _ in range(4))
    bnd = np.array([[s.n_boundaries() for s in row] for row in segs], dtype=float).T.copy()
    for p, (m, n) in enumerate(pairs.tolist()):
        for i in range(n_items):
            a, b = segs[m][i], segs[n][i]
            stats = fn(a, b, n_t).stats
            num[i, p] = float(stats.numerator)
            den[i, p] = float(stats.denominator)
            pbs[i, p] = a.n_gaps * len(a.types() | b.types())
            prop[i, p] = (bnd[i, m] + bnd[i, n]) / pbs[i, p] if pbs[i, p] else 0.0
    return PairParts(pairs, num, den, pbs, prop, bnd)


# --- panels --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Sums:
    """Parts summed over (weighted) items; one row per resample or random panel."""

    num: np.ndarray  # (B, n_pairs)
    den: np.ndarray
    pbs: np.ndarray
    prop: np.ndarray
    bnd: np.ndarray  # (B, n_coders)
    weight: np.ndarray  # (B,) the summed item weights


def _weighted_sums(parts: PairParts, weights: np.ndarray) -> _Sums:
    """Sums over items with ``weights`` ``(B, n_items)`` (bootstrap counts, or one-hot per item)."""
    return _Sums(
        weights @ parts.num,
        weights @ parts.den,
        weights @ parts.pbs,
        weights @ parts.prop,
        weights @ parts.bnd,
        weights.sum(axis=1),
    )


def panel_coefficients(
    num: np.ndarray,
    den: np.ndarray,
    pbs: np.ndarray,
    prop: np.ndarray,
    bnd: np.ndarray,
    weight: np.ndarray,
    pairs: np.ndarray,
    members: np.ndarray,
    coefficient: str,
) -> np.ndarray:
    """Multi-pi or multi-kappa of several sub-panels from summed pair parts, vectorised.

    Fournier & Inkpen (2012, eqs. 5-16, as segeval 2.0.11 computes them):
    ``coef = (A_a - A_e) / (1 - A_e)`` with ``A_a = sum num / sum den`` over the panel's pairs
    (pooled, not a mean of pairs). pi: ``A_e = (sum prop / (2 |pairs| sum weight))^2``, the
    squared mean of every contribution's boundary proportion. kappa: coder ``c``'s proportion
    is ``(panel size - 1) sum bnd_c / sum pbs`` over the panel's pairs holding ``c``, and
    ``A_e`` the mean over the panel's pairs of the product of the two proportions.

    Args:
        num, den, pbs, prop: ``(B, n_pairs)`` summed parts (see :class:`PairParts`).
        bnd: ``(B, n_coders)`` summed boundaries; weight: ``(B,)`` summed item weights.
        pairs: ``(n_pairs, 2)`` coder indices of the columns.
        members: ``(Q, n_coders)`` bool, the coders of each sub-panel.
        coefficient: ``"pi"`` or ``"kappa"``.

    Returns:
        ``(B, Q)``; NaN where the panel has fewer than two coders or ``A_e = 1``.
    """
    in_pair = members[:, pairs[:, 0]] & members[:, pairs[:, 1]]  # (Q, P)
    mask = in_pair.astype(float)
    n_pairs = mask.sum(axis=1)  # (Q,)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = den @ mask.T
        a_a = np.where(d > 0, (num @ mask.T) / d, 1.0)
        if coefficient == "pi":
            a_e = ((prop @ mask.T) / (2 * n_pairs[None, :] * weight[:, None])) ** 2
        else:
            onehot = np.zeros((len(pairs), members.shape[1]))
            onehot[np.arange(len(pairs)), pairs[:, 0]] = 1.0
            onehot[np.arange(len(pairs)), pairs[:, 1]] = 1.0
            incidence = mask[:, :, None] * onehot[None, :, :]  # (Q, P, C)
            pbs_c = np.einsum("bp,qpc->bqc", pbs, incidence)
            size = members.sum(axis=1)
            bnd_c = bnd[:, None, :] * ((size - 1)[:, None] * members)[None, :, :]
            p = np.where(pbs_c > 0, bnd_c / np.where(pbs_c > 0, pbs_c, 1.0), 0.0)
            a_e = (p.sum(axis=2) ** 2 - (p**2).sum(axis=2)) / 2 / n_pairs[None, :]
        coef = (a_a - a_e) / (1 - a_e)
    return np.where((n_pairs[None, :] > 0) & (a_e < 1), coef, np.nan)


def _coefficients(sums: _Sums, pairs: np.ndarray, members: np.ndarray, coefficient: str) -> np.ndarray:
    return panel_coefficients(
        sums.num, sums.den, sums.pbs, sums.prop, sums.bnd, sums.weight, pairs, members, coefficient
    )


def _pair_similarity(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """Pooled similarity of each pair, ``sum num / sum den`` (1 for two codings without boundaries)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), 1.0)


def _mean_similarity(sim: np.ndarray, pairs: np.ndarray, coder: int, others: Sequence[int]) -> float:
    """Mean over ``others`` of the pooled similarity of ``coder`` to each (Medelyan & Witten 2006)."""
    want = set(others)
    values = [
        sim[p] for p, (m, n) in enumerate(pairs.tolist()) if (m == coder and n in want) or (n == coder and m in want)
    ]
    return float(np.mean(values))


# --- random panels (chance) ------------------------------------------------------------------------


def pack_presence(presence: np.ndarray) -> np.ndarray:
    """Pack ``(..., n_gaps)`` booleans into ``(..., ceil(n_gaps / 64))`` uint64 words; bit ``j`` of
    word ``w`` is gap ``64 w + j`` (padding bits are 0)."""
    n = presence.shape[-1]
    words = max(1, -(-n // 64))
    padded = np.zeros((*presence.shape[:-1], words * 64), dtype=bool)
    padded[..., :n] = presence
    return np.packbits(padded, axis=-1, bitorder="little").view("<u8")


def _toward_start(x: np.ndarray, s: int) -> np.ndarray:
    """Bit ``i`` of the result is bit ``i + s`` of ``x`` (0 < s < 64)."""
    out = x >> np.uint64(s)
    out[..., :-1] |= x[..., 1:] << np.uint64(64 - s)
    return out


def _toward_end(x: np.ndarray, s: int) -> np.ndarray:
    """Bit ``i`` of the result is bit ``i - s`` of ``x`` (0 < s < 64)."""
    out = x << np.uint64(s)
    out[..., 1:] |= x[..., :-1] >> np.uint64(64 - s)
    return out


def _popcount(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(x).sum(axis=-1, dtype=np.int64)


def packed_similarity_parts(
    a: np.ndarray, b: np.ndarray, n_gaps: int | np.ndarray, similarity: str, n_t: int
) -> tuple[np.ndarray, np.ndarray]:
    """S or B numerator and denominator of one-type segmentations packed by :func:`pack_presence`.

    segeval's greedy boundary edit distance (Fournier 2013) with a single boundary type: a
    differing position holds the boundary of one side only, so a transposition of span ``s``
    is a boundary of one side at ``i`` and of the other at ``i + s``, both not yet transposed.
    Spans are searched in increasing order and positions left to right; within one span the
    candidates at ``i``, ``i + s``, ``i + 2s`` ... share a boundary in turn, so the greedy scan
    takes every other one from the start of each such chain. Additions are the remaining
    differing positions; matches the common boundaries. Weights as segeval 2.0: an addition 1,
    a transposition ``s / n_t``. S: ``P = (N - 1) |T|^2``; B: ``D = A + T + M``.

    Args:
        a, b: ``(..., words)`` packed boundary presence of the two sides.
        n_gaps: N - 1 (broadcast against the leading dimensions).
        similarity: ``"s"`` or ``"b"``; n_t: 1 + the largest span (at most 64).

    Returns:
        ``(numerator, denominator)`` as float arrays of the leading shape.
    """
    matches = _popcount(a & b)
    differ = a ^ b
    n_differ = _popcount(differ)
    free = differ.copy()
    n_trans = np.zeros_like(matches)
    weighted = np.zeros(matches.shape)
    for span in range(1, n_t):
        a_free, b_free = a & free, b & free
        links = (a_free & _toward_start(b_free, span)) | (b_free & _toward_start(a_free, span))
        taken = np.zeros_like(links)
        while links.any():
            starts = links & ~_toward_end(links, span)
            taken |= starts
            links &= ~(starts | _toward_end(starts, span))
        t = _popcount(taken)
        n_trans += t
        weighted += t * (span / n_t)
        free &= ~(taken | _toward_end(taken, span))
    additions = n_differ - 2 * n_trans
    edits = additions + weighted
    if similarity == "s":
        any_type = (_popcount(a | b) > 0).astype(float)
        p = np.asarray(n_gaps, dtype=float) * any_type
        return p - edits, p
    d = (additions + n_trans + matches).astype(float)
    return d - edits, d


def _random_subsets(rng: np.random.Generator, n: int, counts: np.ndarray, n_perm: int) -> np.ndarray:
    """``(n_perm, len(counts), n)`` bool: uniform random ``counts[c]``-subsets of ``n`` gaps.

    Floyd's algorithm, vectorised over rows: for ``j = n - k .. n - 1`` draw ``t`` in
    ``[0, j]`` and take ``t``, or ``j`` when ``t`` is taken already. Rows with more than half
    of the gaps draw their complement, so no row takes more than ``n / 2`` steps.
    """
    k = np.tile(counts.astype(np.int64), n_perm)
    flip = k > n // 2
    kk = np.where(flip, n - k, k)
    out = np.zeros((k.size, n), dtype=bool)
    rows = np.arange(k.size)
    for step in range(int(kk.max(initial=0))):
        act = rows[kk > step]
        j = n - kk[act] + step
        t = rng.integers(0, j + 1)
        pos = np.where(out[act, t], j, t)
        out[act, pos] = True
    out[flip] = ~out[flip]
    return out.reshape(n_perm, counts.size, n)


def _packable(segs: Sequence[Sequence[Segmentation]], n_t: int) -> bool:
    """The packed kernel handles one boundary type per dataset and spans below 64."""
    if n_t > _MAX_PACKED_N_T:
        return False
    types: set[int] = set()
    for row in segs:
        for s in row:
            if s.gaps is None:
                return False
            types |= s.types()
    return len(types) <= 1


def _chance_parts(
    segs: Sequence[Sequence[Segmentation]],
    rngs: Sequence[tuple[np.random.Generator, list[int]]],
    pairs: np.ndarray,
    similarity: str,
    n_t: int,
    n_perm: int,
) -> tuple[np.ndarray, np.ndarray]:
    """``(n_perm, n_pairs)`` summed numerators and denominators of random panels.

    Each coder's boundaries of each item are put at uniformly random gaps (its number of
    boundaries kept: a permutation of its boundary positions). ``rngs`` pairs a generator with
    the coders (indices of ``segs``) it draws for.
    """
    n_items = len(segs[0])
    num = np.zeros((n_perm, len(pairs)))
    den = np.zeros((n_perm, len(pairs)))
    packed = _packable(segs, n_t)
    for i in range(n_items):
        n_gaps = segs[0][i].n_gaps
        if packed:
            bits = np.zeros((n_perm, len(segs), max(1, -(-n_gaps // 64))), dtype=np.uint64)
            for rng, coders in rngs:
                counts = np.array([segs[c][i].n_boundaries() for c in coders])
                bits[:, coders] = pack_presence(_random_subsets(rng, n_gaps, counts, n_perm))
            for p, (m, n) in enumerate(pairs.tolist()):
                pn, pd = packed_similarity_parts(bits[:, m], bits[:, n], n_gaps, similarity, n_t)
                num[:, p] += pn
                den[:, p] += pd
        else:
            _shuffled_parts(segs, rngs, pairs, similarity, n_t, n_perm, i, num, den)
    return num, den


def _shuffled_parts(
    segs: Sequence[Sequence[Segmentation]],
    rngs: Sequence[tuple[np.random.Generator, list[int]]],
    pairs: np.ndarray,
    similarity: str,
    n_t: int,
    n_perm: int,
    item: int,
    num: np.ndarray,
    den: np.ndarray,
) -> None:
    """Several boundary types (or long spans): shuffle the gap sets and use the exact S or B."""
    fn = _similarity_fn(similarity)
    sets = [segs[c][item].gap_sets() for c in range(len(segs))]
    n_gaps = len(sets[0])
    for r in range(n_perm):
        random: dict[int, Any] = {}
        for rng, coders in rngs:
            for c in coders:
                order = rng.permutation(n_gaps)
                random[c] = [sets[c][j] for j in order.tolist()]
        for p, (m, n) in enumerate(pairs.tolist()):
            st = fn(random[m], random[n], n_t, fmt="sets").stats
            num[r, p] += float(st.numerator)
            den[r, p] += float(st.denominator)


# --- input ---------------------------------------------------------------------------------------


def _coders_of(dataset: Mapping[Any, Mapping[Any, Any]]) -> list[Any]:
    if not isinstance(dataset, Mapping) or not dataset:
        raise UsageError("the dataset must be a non-empty mapping {item: {coder: masses}}")
    seen: dict[Any, None] = {}
    for item, codings in dataset.items():
        if not isinstance(codings, Mapping):
            raise UsageError(f"item {item!r}: expected a mapping {{coder: masses}}")
        seen.update(dict.fromkeys(codings))
    return list(seen)


def _check_panel(
    dataset: Mapping[Any, Mapping[Any, Any]], machines: Sequence[Any], humans: Sequence[Any] | None
) -> tuple[list[Any], list[Any]]:
    """The humans and machines, checked: known, disjoint, two humans, every item coded by all."""
    coders = _coders_of(dataset)
    machine_list = [machines] if isinstance(machines, str) else list(machines)
    if not machine_list:
        raise UsageError("name at least one machine (a coder of the dataset) to judge against the humans")
    if len(set(machine_list)) != len(machine_list):
        raise UsageError(f"a machine is named twice in {machine_list}")
    known = sorted(map(str, coders))
    for m in machine_list:
        if m not in coders:
            raise UsageError(f"unknown machine {m!r}; the dataset's coders are {known}")
    if humans is None:
        human_list = [c for c in coders if c not in machine_list]
    else:
        human_list = [humans] if isinstance(humans, str) else list(humans)
        for h in human_list:
            if h not in coders:
                raise UsageError(f"unknown human {h!r}; the dataset's coders are {known}")
        both = [m for m in machine_list if m in human_list]
        if both:
            raise UsageError(
                f"{sorted(map(str, both))} named both as machine and as human; a coder is one or the other"
            )
        if len(set(human_list)) != len(human_list):
            raise UsageError(f"a human is named twice in {human_list}")
    if len(human_list) < 2:
        raise UsageError(
            f"a panel needs at least two humans, got {sorted(map(str, human_list))}: "
            "agreement among humans is the yardstick"
        )
    for who, names in (("machine", machine_list), ("human", human_list)):
        for c in names:
            missing = [item for item, codings in dataset.items() if c not in codings]
            if missing:
                raise MismatchError(
                    f"{who} {c!r} has no segmentation of {len(missing)} item(s): {sorted(map(str, missing))}"
                )
    return human_list, machine_list


def _segmentation(dataset: Mapping[Any, Mapping[Any, Any]], item: Any, coder: Any) -> Segmentation:
    return as_segmentation(dataset[item][coder], name=f"{item}/{coder}")


def _content_key(seg: Segmentation) -> bytes:
    """A digest of a segmentation's content (its length and boundaries), for name-free orders."""
    h = hashlib.blake2b(digest_size=16)
    h.update(seg.n_units.to_bytes(8, "little"))
    if seg.gaps is not None:
        h.update(np.asarray(seg.gaps, dtype=np.int64).tobytes())
    else:
        h.update(repr([sorted(s) for s in seg.gap_sets()]).encode())
    return h.digest()


def _canonical_order(
    segs: Mapping[tuple[Any, Any], Segmentation], items: Sequence[Any], humans: Sequence[Any]
) -> tuple[list[Any], list[Any]]:
    """Items and humans ordered by content, so that resampling does not depend on names.

    An item's first key is the multiset of the humans' segmentations of it; a human's key the
    multiset of (item key, its segmentation); an item's final key adds its segmentations in the
    humans' order. Names only break ties between identical contents.
    """
    key = {(i, h): _content_key(segs[i, h]) for i in items for h in humans}
    item_key1 = {i: tuple(sorted(key[i, h] for h in humans)) for i in items}
    human_key = {h: tuple(sorted((item_key1[i], key[i, h]) for i in items)) for h in humans}
    human_order = sorted(humans, key=lambda h: (human_key[h], str(h)))
    item_order = sorted(items, key=lambda i: (item_key1[i], tuple(key[i, h] for h in human_order), str(i)))
    return item_order, human_order


def _machine_stream_key(segs: Mapping[tuple[Any, Any], Segmentation], items: Sequence[Any], machine: Any) -> int:
    h = hashlib.blake2b(digest_size=8)
    for i in items:
        h.update(_content_key(segs[i, machine]))
    return int.from_bytes(h.digest(), "little")


def _check_lengths(segs: Mapping[tuple[Any, Any], Segmentation], items: Sequence[Any], coders: Sequence[Any]) -> None:
    for i in items:
        lengths = {c: segs[i, c].n_units for c in coders}
        if len(set(lengths.values())) > 1:
            raise MismatchError(f"item {i!r}: the segmentations cover different numbers of units: {lengths}")


# --- result ----------------------------------------------------------------------------------------


def _num(x: Any) -> float | None:
    """A JSON number: NaN (an undefined coefficient) becomes None."""
    if x is None:
        return None
    v = float(x)
    return v if np.isfinite(v) else None


def _interval(ci: Mapping[str, Any], column: int) -> dict[str, Any]:
    out = {k: ci.get(k) for k in _INTERVAL_KEYS}  # reason: why there is none (one item)
    for k in ("low", "high"):
        v = ci[k]
        out[k] = _num(v[column] if isinstance(v, list) else v)
    return out


def _empty_interval(ci: Mapping[str, Any]) -> dict[str, Any]:
    """An interval without values (no coefficient of a one-human panel to resample)."""
    return {**ci, "low": None, "high": None}


@dataclass
class PanelResult:
    """Panel statistics of machines among humans (see :func:`panel_statistics`).

    Attributes:
        measure: ``"b"`` or ``"s"``; coefficient: ``"pi"`` or ``"kappa"``; n_t: as given.
        humans, machines: names, as strings, sorted.
        items: item names as strings, sorted.
        per_item: ``{item: {machine: {"added": ..., "consistency": ...}}}`` (no intervals).
        results: ``{machine: {"added", "replaced", "consistency", "human_changes", "chance",
            "verdict", "verdict_code"}}``.
    """

    measure: str
    coefficient: str
    n_t: int
    humans: list[str]
    machines: list[str]
    items: list[str]
    per_item: dict[str, Any] = field(repr=False)
    results: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``measure``, ``coefficient``, ``humans``, ``machines``, ``per_item``,
        ``results``."""
        return {
            "measure": self.measure,
            "coefficient": self.coefficient,
            "humans": self.humans,
            "machines": self.machines,
            "per_item": self.per_item,
            "results": self.results,
        }


@dataclass(frozen=True)
class _Layout:
    """Coder indices (humans first, in content order, then machines) and the sub-panels."""

    n_humans: int
    n_machines: int

    @property
    def n_coders(self) -> int:
        return self.n_humans + self.n_machines

    def members(self) -> np.ndarray:
        """Rows: H; H - h for each h; then per machine k: H + m_k, and H - h + m_k for each h."""
        nh, c = self.n_humans, self.n_coders
        rows = []
        humans = np.zeros(c, dtype=bool)
        humans[:nh] = True
        rows.append(humans)
        for h in range(nh):
            r = humans.copy()
            r[h] = False
            rows.append(r)
        for k in range(self.n_machines):
            with_m = humans.copy()
            with_m[nh + k] = True
            rows.append(with_m)
            for h in range(nh):
                r = with_m.copy()
                r[h] = False
                rows.append(r)
        return np.array(rows)

    def humans_row(self) -> int:
        return 0

    def without_row(self, h: int) -> int:
        return 1 + h

    def with_row(self, k: int) -> int:
        return 1 + self.n_humans + k * (1 + self.n_humans)

    def replaced_row(self, k: int, h: int) -> int:
        return self.with_row(k) + 1 + h

    @property
    def has_human_changes(self) -> bool:
        """Removing one of two humans leaves no panel: human changes need three."""
        return self.n_humans >= 3

    def added_column(self, k: int) -> int:
        return 2 * k

    def replaced_column(self, k: int) -> int:
        return 2 * k + 1

    def human_column(self, h: int) -> int:
        return 2 * self.n_machines + h


def _changes(coefs: np.ndarray, lay: _Layout) -> np.ndarray:
    """``(B, n_changes)``: per machine its added and replaced changes, then (three humans or
    more) each human's change ``coef(H) - coef(H - h)``; columns as :class:`_Layout` numbers them."""
    base = coefs[:, lay.humans_row()]
    cols = []
    for k in range(lay.n_machines):
        cols.append(coefs[:, lay.with_row(k)] - base)
        replaced = coefs[:, [lay.replaced_row(k, h) for h in range(lay.n_humans)]]
        cols.append(replaced.mean(axis=1) - base)
    if lay.has_human_changes:
        for h in range(lay.n_humans):
            cols.append(base - coefs[:, lay.without_row(h)])
    return np.stack(cols, axis=1)


def _consistency(
    sim: np.ndarray, pairs: np.ndarray, lay: _Layout, k: int, human_names: Sequence[str]
) -> dict[str, Any]:
    """Medelyan & Witten (2006): mean similarity of the machine to each human, of each human to
    the other humans, and the machine's rank among them (1 = most consistent)."""
    nh = lay.n_humans
    machine = _mean_similarity(sim, pairs, nh + k, range(nh))
    humans = {h: _mean_similarity(sim, pairs, h, [o for o in range(nh) if o != h]) for h in range(nh)}
    return {
        "machine": machine,
        "humans": {human_names[h]: v for h, v in sorted(humans.items(), key=lambda x: human_names[x[0]])},
        "rank": rank_after_ties(machine, list(humans.values())),
        "of": nh + 1,
    }


def panel_statistics(
    dataset: Mapping[Any, Mapping[Any, Any]],
    machines: Sequence[Any],
    *,
    humans: Sequence[Any] | None = None,
    similarity: str = "b",
    coefficient: str = "pi",
    n_t: int = 2,
    n_boot: int = 1000,
    n_perm: int = 200,
    seed: int = 12345,
    level: float = 0.95,
) -> PanelResult:
    """Is each machine as good as a person? Its effect on a human panel's agreement.

    Fournier & Inkpen (2012, section 3.4) add an automatic segmenter to the human coders and
    compare multi-pi or multi-kappa (their eqs. 5-16, with S or B as pairwise agreement, equal
    to segeval 2.0.11's ``fleiss_pi_linear`` / ``fleiss_kappa_linear``); Medelyan & Witten
    (2006) replace each human by the machine in turn and compare inter-indexer consistency.
    See the module docstring for every reported number.

    Args:
        dataset: ``{item: {coder: masses}}`` (items = texts), as segeval's datasets; gap sets
            are accepted too.
        machines: coders to judge, each separately against the humans.
        humans: the human coders (default: every coder that is not a machine).
        similarity: ``"b"`` (Boundary Similarity, Fournier 2013) or ``"s"`` (Segmentation
            Similarity, Fournier & Inkpen 2012).
        coefficient: ``"pi"`` (Fleiss' multi-pi) or ``"kappa"`` (multi-kappa).
        n_t: 1 + the largest transposition span (segeval's default 2).
        n_boot: bootstrap resamples of the items (paired across panels).
        n_perm: random panels for the chance level.
        seed: seeds the bootstrap and the random panels.
        level: the intervals' coverage (bootstrap and chance).

    Returns:
        A :class:`PanelResult`; ``to_dict()`` gives the JSON-ready structure.

    Raises:
        UsageError: unknown similarity, coefficient or coder name; a machine also named as a
            human; fewer than two humans; bad ``n_boot``, ``n_perm``, ``level`` or ``n_t``.
        MismatchError: items a coder lacks (listed); segmentations of an item of different lengths.
    """
    n_t = _check_options(similarity, coefficient, n_t, n_boot, n_perm, level)
    human_list, machine_list = _check_panel(dataset, machines, humans)
    items = list(dataset)
    segs = {(i, c): _segmentation(dataset, i, c) for i in items for c in (*human_list, *machine_list)}
    _check_lengths(segs, items, (*human_list, *machine_list))
    item_order, human_order = _canonical_order(segs, items, human_list)
    machine_order = sorted(machine_list, key=str)
    coders = [*human_order, *machine_order]
    lay = _Layout(len(human_order), len(machine_order))
    grid = [[segs[i, c] for i in item_order] for c in coders]
    parts = pair_parts(grid, similarity, n_t)
    members = lay.members()
    ones = np.ones((1, len(item_order)))
    point = _coefficients(_weighted_sums(parts, ones), parts.pairs, members, coefficient)[0]

    def statistic(w: np.ndarray) -> np.ndarray:
        return _changes(_coefficients(_weighted_sums(parts, w), parts.pairs, members, coefficient), lay)

    with warnings.catch_warnings():
        # a coefficient undefined in every resample (A_e = 1) has no interval: None
        warnings.filterwarnings("ignore", "All-NaN slice", RuntimeWarning)
        ci = bootstrap_ci(len(item_order), statistic, n_boot=n_boot, seed=seed, level=level, unit="item")
    streams = _streams(segs, item_order, machine_order, lay, seed)
    chance_num, chance_den = _chance_parts(grid, streams, parts.pairs, similarity, n_t, n_perm)
    panel = _Panel(
        lay,
        [str(c) for c in coders],
        point,
        _changes(point[None, :], lay)[0],
        ci,
        _chance_coefficients(parts, chance_num, chance_den, members, lay, coefficient),
        _pair_similarity(parts.num.sum(axis=0), parts.den.sum(axis=0)),
        parts.pairs,
        coefficient,
    )
    human_changes = _human_changes(panel)
    results = {
        panel.names[lay.n_humans + k]: _machine_result(panel, k, human_changes, level, n_perm, seed)
        for k in range(lay.n_machines)
    }
    per_item_coefs = _coefficients(_weighted_sums(parts, np.eye(len(item_order))), parts.pairs, members, coefficient)
    return PanelResult(
        similarity,
        coefficient,
        n_t,
        sorted(panel.names[: lay.n_humans]),
        sorted(panel.names[lay.n_humans :]),
        sorted(str(i) for i in item_order),
        _per_item(parts, per_item_coefs, lay, item_order, panel.names),
        dict(sorted(results.items())),
    )


def _check_options(similarity: str, coefficient: str, n_t: int, n_boot: int, n_perm: int, level: float) -> int:
    if similarity not in PANEL_SIMILARITIES:
        raise UsageError(f"unknown similarity {similarity!r}; expected one of {list(PANEL_SIMILARITIES)}")
    if coefficient not in COEFFICIENTS:
        raise UsageError(f"unknown coefficient {coefficient!r}; expected one of {list(COEFFICIENTS)}")
    for name, v in (("n_boot", n_boot), ("n_perm", n_perm)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise UsageError(f"{name} = {v!r} must be an int >= 1")
    if not 0 < level < 1:
        raise UsageError(f"level = {level!r} must be in (0, 1)")
    return check_n_t(n_t)


@dataclass(frozen=True)
class _Panel:
    """What every machine's result is read from: point values of every sub-panel (rows of
    :meth:`_Layout.members`), changes (:func:`_changes`) with their bootstrap intervals, each
    machine's chance panels and the pooled similarity of every pair."""

    lay: _Layout
    names: list[str]
    point: np.ndarray  # (Q,)
    changes: np.ndarray  # (n_changes,)
    ci: dict[str, Any]
    chance: np.ndarray  # (n_perm, 1 + n_machines): the humans' random panels, then each machine's
    sim: np.ndarray  # (n_pairs,)
    pairs: np.ndarray
    coefficient: str


def _streams(
    segs: Mapping[tuple[Any, Any], Segmentation],
    item_order: Sequence[Any],
    machine_order: Sequence[Any],
    lay: _Layout,
    seed: int,
) -> list[tuple[np.random.Generator, list[int]]]:
    """One generator for the humans, one per machine keyed by its segmentations (not its name
    nor the other machines)."""
    streams = [(np.random.default_rng([seed, 0]), list(range(lay.n_humans)))]
    for k, m in enumerate(machine_order):
        key = _machine_stream_key(segs, item_order, m)
        streams.append((np.random.default_rng([seed, 1, key]), [lay.n_humans + k]))
    return streams


def _chance_coefficients(
    parts: PairParts, num: np.ndarray, den: np.ndarray, members: np.ndarray, lay: _Layout, coefficient: str
) -> np.ndarray:
    """``(n_perm, 1 + n_machines)`` coefficient of each random panel: the humans alone (column 0),
    then the humans with each machine. Permuting positions keeps every boundary count, so only
    actual agreement changes; A_e is observed."""
    totals = _weighted_sums(parts, np.ones((1, parts.num.shape[0])))
    n_perm = num.shape[0]
    sums = _Sums(
        num,
        den,
        np.repeat(totals.pbs, n_perm, axis=0),
        np.repeat(totals.prop, n_perm, axis=0),
        np.repeat(totals.bnd, n_perm, axis=0),
        np.repeat(totals.weight, n_perm),
    )
    rows = [lay.humans_row(), *(lay.with_row(k) for k in range(lay.n_machines))]
    return _coefficients(sums, parts.pairs, members[rows], coefficient)


def _human_changes(panel: _Panel) -> dict[str, dict[str, Any]]:
    """Per human ``coef(H) - coef(H - h)`` and its interval (None with two humans: one human
    is no panel)."""
    lay = panel.lay
    out = {}
    for h in range(lay.n_humans):
        if lay.has_human_changes:
            col = lay.human_column(h)
            out[panel.names[h]] = {"change": _num(panel.changes[col]), "interval": _interval(panel.ci, col)}
        else:
            out[panel.names[h]] = {"change": None, "interval": _interval(_empty_interval(panel.ci), 0)}
    return dict(sorted(out.items()))


def _chance_summary(panel: _Panel, k: int, level: float, n_perm: int, seed: int) -> dict[str, Any]:
    """Mean and central ``level`` range of the random panels; ``corrected`` =
    ``(observed - mean) / (1 - mean)``; ``humans_mean``: the mean of the humans' own random panels."""
    values = panel.chance[:, 1 + k]
    finite = values[np.isfinite(values)]
    humans = panel.chance[:, 0]
    humans = humans[np.isfinite(humans)]
    alpha = (1 - level) / 2
    mean = float(finite.mean()) if finite.size else None
    observed = _num(panel.point[panel.lay.with_row(k)])
    corrected = None
    if observed is not None and mean is not None and mean < 1:
        corrected = _num((observed - mean) / (1 - mean))
    return {
        "mean": mean,
        "low": float(np.percentile(finite, 100 * alpha)) if finite.size else None,
        "high": float(np.percentile(finite, 100 * (1 - alpha))) if finite.size else None,
        "n_perm": n_perm,
        "seed": seed,
        "corrected": corrected,
        "humans_mean": float(humans.mean()) if humans.size else None,
    }


def _machine_result(
    panel: _Panel, k: int, human_changes: dict[str, dict[str, Any]], level: float, n_perm: int, seed: int
) -> dict[str, Any]:
    """One machine's ``added``, ``replaced``, ``consistency``, ``human_changes``, ``chance`` and
    verdict."""
    lay, point = panel.lay, panel.point
    added_change = _num(panel.changes[lay.added_column(k)])
    added: dict[str, Any] = {
        "humans": _num(point[lay.humans_row()]),
        "with_machine": _num(point[lay.with_row(k)]),
        "change": added_change,
        "interval": _interval(panel.ci, lay.added_column(k)),
    }
    replaced_values = [point[lay.replaced_row(k, h)] for h in range(lay.n_humans)]
    replaced = {
        "mean": _num(np.mean(replaced_values)),
        "change": _num(panel.changes[lay.replaced_column(k)]),
        "per_human": dict(sorted((panel.names[h], _num(v)) for h, v in enumerate(replaced_values))),
        "interval": _interval(panel.ci, lay.replaced_column(k)),
    }
    consistency = _consistency(panel.sim, panel.pairs, lay, k, panel.names)
    human_values = [v["change"] for v in human_changes.values() if v["change"] is not None]
    chance = _chance_summary(panel, k, level, n_perm, seed)
    reading = read_machine(
        added_change,
        added["interval"],
        human_values,
        consistency,
        coefficient=panel.coefficient,
        humans_value=added["humans"],
        humans_chance=chance["humans_mean"],
    )
    return {
        "added": added,
        "replaced": replaced,
        "consistency": consistency,
        "human_changes": {
            "per_human": human_changes,
            "machine": added_change,
            **change_rank(added_change, human_values),
        },
        "chance": chance,
        **reading,
    }


def _per_item(
    parts: PairParts, coefs: np.ndarray, lay: _Layout, item_order: Sequence[Any], names: Sequence[str]
) -> dict[str, Any]:
    """Per item: each machine's added numbers and consistency (no intervals)."""
    out: dict[str, Any] = {}
    for i, item in enumerate(item_order):
        sim = _pair_similarity(parts.num[i], parts.den[i])
        row: dict[str, Any] = {}
        for k in range(lay.n_machines):
            humans, with_m = coefs[i, lay.humans_row()], coefs[i, lay.with_row(k)]
            row[names[lay.n_humans + k]] = {
                "added": {"humans": _num(humans), "with_machine": _num(with_m), "change": _num(with_m - humans)},
                "consistency": _consistency(sim, parts.pairs, lay, k, names),
            }
        out[str(item)] = dict(sorted(row.items()))
    return dict(sorted(out.items()))
