"""The panel (a machine among human annotators) with S_f or S_f^B as the agreement of two codings
and Fleiss' multi-pi or multi-kappa over them, as :func:`segagree.metrics.chance.fleiss.fleiss`
defines them for S_f (Lai, Li & Zhang 2023; Fournier & Inkpen 2012, equations 5-16):

* ``A_a``: pooled over coder pairs and items, ``S_f: 1 - sum(cost) / sum(tokens)``,
  ``S_f^B: 1 - sum(cost) / sum(edits)``;
* chance from the coders' code proportions (token-weighted, boundary types and "no boundary"):
  ``E_sf(p, q) = sum p(x) q(y) M[x, y]`` (and its S_f^B form); pi pools the proportions of every
  coder of the panel, kappa averages ``E`` over its coder pairs.

Every coder pair's S_f cost, tokens and edits per item are computed once
(:func:`segagree.metrics.chance.sf_kappa.score_pairs`, exactly ``sf_speaker``'s), and every
sub-panel and bootstrap resample is a weighted sum of them. The permutation chance level moves
each coder's boundaries (with their types) to random positions of the same item, the last token's
boundary kept (the end of a stream is always a boundary), and scores the random panels the same way.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from segagree.errors import MismatchError, UsageError
from segagree.metrics.boundary.sf import SF_B_CARD, SF_CARD
from segagree.metrics.chance.fleiss import expected_agreement
from segagree.metrics.chance.panel_frame import assemble_panel, choose_members
from segagree.metrics.chance.sf_kappa import score_pairs, score_sparse_pairs
from segagree.model.scheme import BoundaryScheme

SF_SIMILARITIES = (SF_CARD.name, SF_B_CARD.name)


class _Parts:
    """Per item: each coder pair's agreement numerator and denominator, each coder's code counts."""

    def __init__(
        self, num: np.ndarray, den: np.ndarray, counts: np.ndarray, pairs: list[tuple[int, int]], sim: np.ndarray
    ) -> None:
        self.num, self.den, self.counts, self.pairs, self.sim = num, den, counts, pairs, sim
        self.pair_index = {p: j for j, p in enumerate(pairs)}

    def agreement(self, members: Sequence[int], num: np.ndarray, den: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """A_a of the coders ``members`` from per-item (or per-panel) pair sums, weighted."""
        cols = [self.pair_index[(m, n)] for m, n in itertools.combinations(sorted(members), 2)]
        with np.errstate(divide="ignore", invalid="ignore"):
            top, bottom = weights @ num[:, cols].sum(axis=1), weights @ den[:, cols].sum(axis=1)
            return np.where(bottom > 0, top / bottom, 1.0)

    def expected(self, members: Sequence[int], weights: np.ndarray, similarity: str, coefficient: str) -> np.ndarray:
        """A_e of pi (pooled proportions) or kappa (mean over coder pairs) of ``members``."""
        counts = np.einsum("bi,ick->bck", weights, self.counts[:, list(members), :])
        with np.errstate(divide="ignore", invalid="ignore"):
            if coefficient == "pi":
                pooled = counts.sum(axis=1)
                pbar = pooled / np.maximum(pooled.sum(axis=1, keepdims=True), 1e-300)
                return np.asarray(expected_agreement(pbar, pbar, self.sim, similarity))
            tot = counts.sum(axis=2, keepdims=True)
            p = np.where(tot > 0, counts / np.where(tot > 0, tot, 1), 0.0)
            pairs = itertools.combinations(range(len(members)), 2)
            return np.mean([expected_agreement(p[:, m], p[:, n], self.sim, similarity) for m, n in pairs], axis=0)

    def coefficient(self, members: Sequence[int], weights: np.ndarray, similarity: str, coefficient: str) -> np.ndarray:
        """pi or kappa of the coders ``members`` for each row of ``weights`` (items)."""
        a_a = self.agreement(members, self.num, self.den, weights)
        a_e = self.expected(members, weights, similarity, coefficient)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(a_e < 1, (a_a - a_e) / (1 - a_e), np.nan)


def _pair_parts(
    streams: Sequence[Sequence[np.ndarray]],
    pairs: Sequence[tuple[int, int]],
    scheme: BoundaryScheme,
    similarity: str,
    mode: str,
    transpositions: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """``(items, pairs)`` numerators and denominators of the agreement of every pair on every item
    (``streams[coder][item]``: code arrays)."""
    n_items = len(streams[0])
    rows_a = [streams[m][i] for i in range(n_items) for m, _ in pairs]
    rows_b = [streams[n][i] for i in range(n_items) for _, n in pairs]
    cost, edits = score_pairs(rows_a, rows_b, scheme, mode=mode, transpositions=transpositions)
    tokens = np.array([x.size for x in rows_a], dtype=float)
    total = tokens if similarity == SF_CARD.name else edits.astype(float)
    shape = (n_items, len(pairs))
    return (total - cost).reshape(shape), total.reshape(shape)


def random_boundaries(codes: np.ndarray, rng: np.random.Generator, n_perm: int) -> tuple[np.ndarray, np.ndarray]:
    """``n_perm`` random codings keeping ``codes``' boundaries and types, as sorted positions and
    their codes (each ``(n_perm, boundaries)``): the boundaries before the last token go to random
    distinct positions before it, with their types shuffled; the last token's boundary stays (the
    end of a stream is always a boundary)."""
    n1 = codes.size - 1
    body = codes[:-1]
    types = body[body != 0]
    nb = types.size
    if nb == n1:
        pos = np.broadcast_to(np.arange(n1), (n_perm, n1))
    elif nb:
        pos = np.sort(np.argpartition(rng.random((n_perm, n1)), nb - 1, axis=1)[:, :nb], axis=1)
    else:
        pos = np.zeros((n_perm, 0), dtype=np.int64)
    typ = rng.permuted(np.broadcast_to(types, (n_perm, nb)), axis=1) if nb else np.zeros((n_perm, 0), np.int64)
    if codes[-1]:
        pos = np.concatenate([pos, np.full((n_perm, 1), n1)], axis=1)
        typ = np.concatenate([typ, np.full((n_perm, 1), codes[-1])], axis=1)
    return pos.astype(np.int64), typ.astype(np.int64)


def _random_pair_parts(
    coded: Sequence[tuple[np.ndarray, np.ndarray]],
    pairs: Sequence[tuple[int, int]],
    n_tokens: int,
    scheme: BoundaryScheme,
    similarity: str,
) -> tuple[np.ndarray, np.ndarray]:
    """``(n_perm, len(pairs))`` numerators and denominators of the random codings of one item
    (``coded[c]``: coder c's positions and codes), scored sparsely (:func:`score_sparse_pairs`)."""
    n_perm = coded[0][0].shape[0]
    width = len(pairs)
    keys, side_a, side_b = [], [], []
    for w, (m, n) in enumerate(pairs):
        for coder, is_b in ((m, False), (n, True)):
            pos, typ = coded[coder]
            row = (np.arange(n_perm, dtype=np.int64) * width + w)[:, None]
            keys.append((row * n_tokens + pos).ravel())
            codes = typ.ravel()
            side_b.append(codes if is_b else np.zeros_like(codes))
            side_a.append(np.zeros_like(codes) if is_b else codes)
    key = np.concatenate(keys)
    order = np.argsort(key, kind="stable")
    key = key[order]
    starts = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
    a = np.add.reduceat(np.concatenate(side_a)[order], starts)
    b = np.add.reduceat(np.concatenate(side_b)[order], starts)
    rows, positions = np.divmod(key[starts], n_tokens)
    cost, edits = score_sparse_pairs(rows, positions, a, b, n_perm * width, scheme)
    total = np.full(cost.shape, float(n_tokens)) if similarity == SF_CARD.name else edits.astype(float)
    return (total - cost).reshape(n_perm, width), total.reshape(n_perm, width)


def sf_panel_statistics(
    dataset: Mapping[str, Mapping[str, np.ndarray]],
    machines: Sequence[str],
    scheme: BoundaryScheme,
    *,
    humans: Sequence[str] | None = None,
    similarity: str = SF_CARD.name,
    coefficient: str = "pi",
    mode: str = "optimal",
    transpositions: bool = True,
    n_boot: int = 1000,
    n_perm: int = 200,
    seed: int = 12345,
    level: float = 0.95,
) -> dict[str, Any]:
    """A machine among human coders with S_f or S_f^B (see the module docstring).

    Args:
        dataset: ``{item: {coder: codes}}``, one speaker's per-token boundary codes of one text per
            item (codes of ``scheme``; every coder's array of an item of one length).
        machines, humans: as :func:`segagree.metrics.chance.panel.panel_statistics`.
        similarity: ``sf`` or ``sf_b``; coefficient: ``pi`` or ``kappa``.
        mode, transpositions: S_f's search (as ``compare``).
        n_boot, n_perm, seed, level: the paired bootstrap over items and the random panels.

    Returns:
        The panel's structure: ``measure``, ``coefficient``, ``humans``, ``machines``,
        ``per_item`` and ``results`` per machine (with ``chance``).
    """
    if similarity not in SF_SIMILARITIES:
        raise UsageError(f"similarity must be one of {list(SF_SIMILARITIES)}, not {similarity!r}")
    if coefficient not in ("pi", "kappa"):
        raise UsageError(f"coefficient must be pi or kappa, not {coefficient!r}")
    if not dataset:
        raise UsageError("a panel needs at least one item")
    names = list(dict.fromkeys(c for coders in dataset.values() for c in coders))
    human_list, machine_list = choose_members(names, machines, humans)
    coders = [*human_list, *machine_list]
    items = sorted(dataset)
    missing = [f"{i} ({c})" for i in items for c in coders if c not in dataset[i]]
    if missing:
        raise MismatchError("every coder must code every item; missing: " + ", ".join(missing))
    streams = [[np.asarray(dataset[i][c], dtype=np.int64) for i in items] for c in coders]
    for i, item in enumerate(items):
        if len({s[i].size for s in streams}) > 1:
            raise MismatchError(f"item {item!r}: the coders' code arrays differ in length")
    pairs = list(itertools.combinations(range(len(coders)), 2))
    k = scheme.n_codes
    counts = np.array([[np.bincount(s[i], minlength=k)[:k] for s in streams] for i in range(len(items))], dtype=float)
    sim = np.asarray(scheme.similarity, dtype=float)
    num, den = _pair_parts(streams, pairs, scheme, similarity, mode, transpositions)
    parts = _Parts(num, den, counts, pairs, sim)
    index = {c: j for j, c in enumerate(coders)}

    def coef(members: Sequence[str], weights: np.ndarray) -> np.ndarray:
        return parts.coefficient([index[m] for m in members], weights, similarity, coefficient)

    def pair_value(a: str, b: str) -> float:
        j = parts.pair_index[tuple(sorted((index[a], index[b])))]  # type: ignore[index]
        total = parts.den[:, j].sum()
        return float(parts.num[:, j].sum() / total) if total > 0 else 1.0

    chance = _chance(
        streams, len(human_list), parts, scheme, similarity, coefficient, mode, transpositions, n_perm, seed
    )
    humans_values = chance(None)
    humans_finite = humans_values[np.isfinite(humans_values)]
    humans_mean = float(humans_finite.mean()) if humans_finite.size else None
    results, per_item = assemble_panel(
        coef,
        pair_value,
        human_list,
        machine_list,
        items,
        n_boot=n_boot,
        seed=seed,
        level=level,
        name=coefficient,
        humans_chance=humans_mean,
    )
    alpha = (1 - level) / 2
    for m, result in results.items():
        values = chance(index[m])
        finite = values[np.isfinite(values)]
        mean = float(finite.mean()) if finite.size else None
        observed = result["added"]["with_machine"]
        result["chance"] = {
            "mean": mean,
            "low": float(np.percentile(finite, 100 * alpha)) if finite.size else None,
            "high": float(np.percentile(finite, 100 * (1 - alpha))) if finite.size else None,
            "n_perm": n_perm,
            "seed": seed,
            "corrected": (observed - mean) / (1 - mean)
            if observed is not None and mean is not None and mean < 1
            else None,
            "humans_mean": humans_mean,
        }
    return {
        "measure": similarity,
        "coefficient": coefficient,
        "humans": human_list,
        "machines": machine_list,
        "per_item": per_item,
        "results": results,
    }


def _chance(
    streams: Sequence[Sequence[np.ndarray]],
    n_humans: int,
    parts: _Parts,
    scheme: BoundaryScheme,
    similarity: str,
    coefficient: str,
    mode: str,
    transpositions: bool,
    n_perm: int,
    seed: int,
) -> Any:
    """machine index -> the coefficient of ``n_perm`` random panels of the humans and that machine
    (None: of the humans alone).

    The random codings keep each coder's codes per item, so the code proportions, hence A_e, are
    the observed panel's; only A_a changes."""
    n_items, n_coders = len(streams[0]), len(streams)
    num = np.zeros((n_perm, len(parts.pairs)))
    den = np.zeros((n_perm, len(parts.pairs)))
    # pairs of two machines are in no panel the chance level is asked of
    wanted = [j for j, (m, n) in enumerate(parts.pairs) if m < n_humans]

    def item_parts(i: int) -> tuple[np.ndarray, np.ndarray]:
        # each item its own random stream: an item's random panels do not depend on the others
        rng = np.random.default_rng([seed, 2012, i])
        coded = [random_boundaries(streams[c][i], rng, n_perm) for c in range(n_coders)]
        size = streams[0][i].size
        if mode == "optimal" and transpositions:
            return _random_pair_parts(coded, [parts.pairs[j] for j in wanted], size, scheme, similarity)
        dense = [np.zeros((n_perm, size), dtype=np.int64) for _ in range(n_coders)]  # other searches: dense
        for c, (pos, typ) in enumerate(coded):
            np.put_along_axis(dense[c], pos, typ, axis=1)
        rows_a = [dense[parts.pairs[j][0]][r] for r in range(n_perm) for j in wanted]
        rows_b = [dense[parts.pairs[j][1]][r] for r in range(n_perm) for j in wanted]
        cost, edits = score_pairs(rows_a, rows_b, scheme, mode=mode, transpositions=transpositions)
        total = np.full(cost.shape, float(size)) if similarity == SF_CARD.name else edits.astype(float)
        return (total - cost).reshape(n_perm, len(wanted)), total.reshape(n_perm, len(wanted))

    results = [item_parts(i) for i in range(n_items)]
    for top, bottom in results:
        num[:, wanted] += top
        den[:, wanted] += bottom
    identity = np.eye(n_perm)
    ones = np.ones((1, n_items))

    def for_machine(machine: int | None) -> np.ndarray:
        members = [*range(n_humans), *([] if machine is None else [machine])]
        a_a = parts.agreement(members, num, den, identity)
        a_e = parts.expected(members, ones, similarity, coefficient)[0]
        return np.full(n_perm, np.nan) if a_e >= 1 else (a_a - a_e) / (1 - a_e)

    return for_machine
