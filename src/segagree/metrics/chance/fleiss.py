"""Multi-coder agreement: Fleiss' multi-pi and multi-kappa and Artstein & Poesio's bias, with
segmentation similarity as the agreement of two codings; the pairwise table; percentile
bootstrap intervals.

Fournier & Inkpen (2012, NAACL, "Segmentation Similarity and Agreement", equations 5-16)
adapt Artstein & Poesio's (2008) multi-coder coefficients to segmentation. For ``similarity``
``s`` (Segmentation Similarity) or ``b`` (Boundary Similarity) this module is identical
to segeval 2.0.11's ``fleiss_pi_linear``, ``fleiss_kappa_linear`` and
``artstein_poesio_bias_linear`` (computed exactly, with Fractions):

* actual agreement ``A_a = sum(numerators) / sum(denominators)`` over every coder pair and item,
  from the similarity's parts (S: ``(P - E, P)``; B: ``(D - E, D)``): pooled, not a mean;
* per coder-pair-item, each of the two coders contributes ``(boundaries, pbs)`` with
  ``pbs = (N_item - 1) * |types present in the pair|``;
* pi (Scott 1955 for two coders): ``A_e = (mean of boundaries/pbs over all contributions)^2``;
* kappa (Cohen 1960 for two coders): coder c's proportion ``P_c = sum boundaries / sum pbs``,
  ``A_e = mean over coder pairs of P_m * P_n``;
* ``coefficient = (A_a - A_e) / (1 - A_e)``; ``bias = A_e(pi) - A_e(kappa)``.

Deliberate difference: a pair without any boundary has ``pbs = 0``; segeval divides by zero,
here its proportion counts as 0 (and S or B of such a pair is 1).

New for S_f and S_f^B (similarity ``sf`` / ``sf_b``; Lai, Li & Zhang 2023), with a
:class:`~segagree.model.scheme.BoundaryScheme` (typed boundaries, several speakers):

* ``A_a``: pooled S_f statistics over every coder pair, item and speaker:
  ``sf: 1 - sum(cost) / sum(tokens)``; ``sf_b: 1 - sum(cost) / sum(edits)``;
* chance from the coders' code proportions ``p`` (over codes incl. none, pooled over items and
  speakers, token-weighted): two independent coders agree per token on average
  ``E_sf(p, q) = sum_{x,y} p(x) q(y) M[x, y]``, and per edit position (at least one
  boundary) ``E_sf_b(p, q) = sum_{(x,y) != (0,0)} p(x) q(y) M[x, y] / (1 - p(0) q(0))``
  (a ratio of expectations). This is the exact expectation of S_f without transpositions;
  transpositions are ignored (for simulated chance with them, see
  :func:`segagree.metrics.chance.sf_kappa.sf_kappa`);
* pi: ``A_e = E(p_bar, p_bar)`` with ``p_bar`` pooled over all coders; kappa:
  ``A_e = mean over coder pairs of E(p_m, p_n)``; bias as above.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from segagree.errors import MismatchError, UsageError
from segagree.metrics.boundary.boundary_edit import B_CARD, S_CARD, boundary_similarity, segmentation_similarity
from segagree.metrics.boundary.masses import as_pair, sets_from_codes
from segagree.metrics.boundary.sf import SF_B_CARD, SF_CARD, sf
from segagree.metrics.chance.bootstrap import bootstrap_ci
from segagree.metrics.contract import Card, Measure, TokenSet
from segagree.model.scheme import BoundaryScheme, builtin_scheme

__all__ = [
    "SIMILARITIES",
    "FleissResult",
    "artstein_poesio_bias",
    "bootstrap_ci",
    "fleiss",
    "fleiss_kappa",
    "fleiss_pi",
    "pairwise_table",
]

SIMILARITIES: dict[str, str] = {
    S_CARD.name: "Segmentation Similarity S (Fournier & Inkpen 2012), segeval-exact",
    B_CARD.name: "Boundary Similarity B (Fournier 2013), segeval-exact",
    SF_CARD.name: "S_f (Lai, Li & Zhang 2023) with a boundary scheme",
    SF_B_CARD.name: "S_f^B (Lai, Li & Zhang 2023) with a boundary scheme",
}

_SEGEVAL_SIMILARITIES = (S_CARD.name, B_CARD.name)


def _no_sums(sums: np.ndarray) -> np.ndarray:
    raise UsageError("this result holds no per-item statistics to resample")


@dataclass
class FleissResult:
    """Multi-pi, multi-kappa and bias of a dataset under one similarity.

    Attributes:
        similarity: ``s``, ``b``, ``sf`` or ``sf_b``.
        coders, items: in sorted order.
        actual: A_a; expected_pi, expected_kappa: the two A_e; pi, kappa, bias.
        exact: for ``s`` and ``b``, the same values as Fractions (keys as the attributes).
        unit_stats: ``(n_items, n_stats)`` additive per-item statistics (for the bootstrap).
    """

    similarity: str
    coders: list[str]
    items: list[str]
    actual: float
    expected_pi: float
    expected_kappa: float
    pi: float | None
    kappa: float | None
    bias: float
    exact: dict[str, Fraction] = field(default_factory=dict, repr=False)
    unit_stats: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)), repr=False)
    _from_sums: Callable[[np.ndarray], np.ndarray] = field(default=_no_sums, repr=False)

    def coefficients(self, weights: np.ndarray) -> np.ndarray:
        """``(B, 3)`` pi, kappa, bias for item weights ``(B, n_items)`` (resampled counts)."""
        return self._from_sums(weights @ self.unit_stats)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values."""
        return {
            "similarity": self.similarity,
            "coders": self.coders,
            "items": self.items,
            "actual": self.actual,
            "expected_pi": self.expected_pi,
            "expected_kappa": self.expected_kappa,
            "pi": self.pi,
            "kappa": self.kappa,
            "bias": self.bias,
        }


# --- input -----------------------------------------------------------------------------------


def _check_dataset(dataset: Mapping[str, Mapping[str, Any]]) -> tuple[list[str], list[str]]:
    if not isinstance(dataset, Mapping) or not dataset:
        raise UsageError("the dataset must be a non-empty mapping {item: {coder: segmentation}}")
    items = sorted(dataset, key=str)
    coders: list[str] | None = None
    for item in items:
        codings = dataset[item]
        if not isinstance(codings, Mapping):
            raise UsageError(f"item {item!r}: expected a mapping {{coder: segmentation}}")
        names = sorted(codings, key=str)
        if coders is None:
            coders = names
        elif names != coders:
            raise MismatchError(
                f"item {item!r} is coded by {names} but item {items[0]!r} by {coders}; every item needs the same coders"
            )
    assert coders is not None
    if len(coders) < 2:
        raise UsageError(f"agreement needs at least two coders, got {coders}")
    return items, coders


def _ratio(num: Any, den: Any) -> Any:
    return num / den if den else num * 0


# --- s and b (segeval) -------------------------------------------------------------------------


def _segeval_parts(
    dataset: Mapping[str, Mapping[str, Any]], similarity: str, n_t: int
) -> tuple[list[str], list[str], np.ndarray, list[list[Any]]]:
    """Per item: [num, den, prop_sum, prop_count, bnd_c..., pbs_c...] as exact numbers."""
    items, coders = _check_dataset(dataset)
    fn = segmentation_similarity if similarity == S_CARD.name else boundary_similarity
    nc = len(coders)
    rows: list[list[Any]] = []
    for item in items:
        num: Any = 0
        den: Any = 0
        prop_sum = Fraction(0)
        prop_cnt = 0
        bnd = [0] * nc
        pbs_c = [0] * nc
        for m, n in itertools.combinations(range(nc), 2):
            a, b = dataset[item][coders[m]], dataset[item][coders[n]]
            res = fn(a, b, n_t)
            num += res.stats.numerator
            den += res.stats.denominator
            sa, sb = as_pair(a, b, names=(f"{item}/{coders[m]}", f"{item}/{coders[n]}"))
            pbs = sa.n_gaps * len(sa.types() | sb.types())
            for c, seg in ((m, sa), (n, sb)):
                k = seg.n_boundaries()
                prop_sum += Fraction(k, pbs) if pbs else Fraction(0)
                prop_cnt += 1
                bnd[c] += k
                pbs_c[c] += pbs
        rows.append([num, den, prop_sum, prop_cnt, *bnd, *pbs_c])
    return items, coders, np.array([[float(v) for v in r] for r in rows]), rows


def _segeval_from_sums(nc: int) -> Callable[[np.ndarray], np.ndarray]:
    pairs = list(itertools.combinations(range(nc), 2))

    def fn(s: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            a_a = np.where(s[:, 1] > 0, s[:, 0] / s[:, 1], 1.0)
            ae_pi = (s[:, 2] / s[:, 3]) ** 2
            bnd, pbs = s[:, 4 : 4 + nc], s[:, 4 + nc : 4 + 2 * nc]
            p = np.where(pbs > 0, bnd / np.where(pbs > 0, pbs, 1), 0.0)
            ae_k = np.mean([p[:, m] * p[:, n] for m, n in pairs], axis=0)
            pi = (a_a - ae_pi) / (1 - ae_pi)
            kappa = (a_a - ae_k) / (1 - ae_k)
        return np.stack([pi, kappa, ae_pi - ae_k], axis=1)

    return fn


def _segeval_result(dataset: Mapping[str, Mapping[str, Any]], similarity: str, n_t: int) -> FleissResult:
    items, coders, stats, rows = _segeval_parts(dataset, similarity, n_t)
    nc = len(coders)
    num = sum((Fraction(r[0]) for r in rows), Fraction(0))
    den = sum((Fraction(r[1]) for r in rows), Fraction(0))
    a_a = num / den if den else Fraction(1)
    prop_sum = sum((r[2] for r in rows), Fraction(0))
    prop_cnt = sum(r[3] for r in rows)
    ae_pi = (prop_sum / prop_cnt) ** 2
    p = []
    for c in range(nc):
        b = sum(r[4 + c] for r in rows)
        t = sum(r[4 + nc + c] for r in rows)
        p.append(Fraction(b, t) if t else Fraction(0))
    pairs = list(itertools.combinations(range(nc), 2))
    ae_k = sum((p[m] * p[n] for m, n in pairs), Fraction(0)) / len(pairs)
    pi = (a_a - ae_pi) / (1 - ae_pi) if ae_pi != 1 else None
    kappa = (a_a - ae_k) / (1 - ae_k) if ae_k != 1 else None
    exact = {"actual": a_a, "expected_pi": ae_pi, "expected_kappa": ae_k, "bias": ae_pi - ae_k}
    if pi is not None:
        exact["pi"] = pi
    if kappa is not None:
        exact["kappa"] = kappa
    return FleissResult(
        similarity,
        coders,
        [str(i) for i in items],
        float(a_a),
        float(ae_pi),
        float(ae_k),
        None if pi is None else float(pi),
        None if kappa is None else float(kappa),
        float(ae_pi - ae_k),
        exact,
        stats,
        _segeval_from_sums(nc),
    )


# --- sf and sf_b ---------------------------------------------------------------------------------


def _speaker_map(x: Any) -> Mapping[str, Any]:
    return x if isinstance(x, Mapping) else {"": x}


def expected_agreement(p: np.ndarray, q: np.ndarray, sim: np.ndarray, similarity: str) -> np.ndarray:
    """E_sf or E_sf_b: the expected agreement of two independent coders with code distributions p, q
    (shape (..., k)) under the similarity matrix ``sim`` (see the module docstring)."""
    e = np.einsum("...x,xy,...y->...", p, sim, q)
    if similarity == SF_CARD.name:
        return e
    p0q0 = p[..., 0] * q[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(1 - p0q0 > 0, (e - p0q0 * sim[0, 0]) / (1 - p0q0), 1.0)


def _sf_result(
    dataset: Mapping[str, Mapping[str, Any]],
    similarity: str,
    scheme: BoundaryScheme,
    mode: str,
    transpositions: bool,
) -> FleissResult:
    items, coders = _check_dataset(dataset)
    nc, k = len(coders), scheme.n_codes
    rows = []
    for item in items:
        cod = {c: _speaker_map(dataset[item][c]) for c in coders}
        num = den = 0.0
        for m, n in itertools.combinations(range(nc), 2):
            st = sf(
                cod[coders[m]], cod[coders[n]], scheme, mode=mode, transpositions=transpositions, with_operations=False
            ).stats
            if similarity == SF_CARD.name:
                num, den = num + st.n_tokens - st.cost, den + st.n_tokens
            else:
                num, den = num + st.edits - st.cost, den + st.edits
        counts = np.zeros((nc, k))
        for c in range(nc):
            for arr in cod[coders[c]].values():
                counts[c] += np.bincount(np.asarray(arr, dtype=np.int64), minlength=k)[:k]
        rows.append(np.concatenate(([num, den], counts.ravel())))
    stats = np.array(rows)
    sim = np.asarray(scheme.similarity, dtype=float)
    pairs = list(itertools.combinations(range(nc), 2))

    def from_sums(s: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            a_a = np.where(s[:, 1] > 0, s[:, 0] / s[:, 1], 1.0)
            counts = s[:, 2:].reshape(-1, nc, k)
            tot = counts.sum(axis=2, keepdims=True)
            p = np.where(tot > 0, counts / np.where(tot > 0, tot, 1), 0.0)
            pbar = counts.sum(axis=1) / np.maximum(counts.sum(axis=(1, 2))[:, None], 1)
            ae_pi = expected_agreement(pbar, pbar, sim, similarity)
            ae_k = np.mean([expected_agreement(p[:, m], p[:, n], sim, similarity) for m, n in pairs], axis=0)
            pi = np.where(ae_pi < 1, (a_a - ae_pi) / (1 - ae_pi), np.nan)
            kappa = np.where(ae_k < 1, (a_a - ae_k) / (1 - ae_k), np.nan)
        return np.stack([pi, kappa, ae_pi - ae_k, a_a, ae_pi, ae_k], axis=1)

    v = from_sums(stats.sum(axis=0, keepdims=True))[0]
    return FleissResult(
        similarity,
        coders,
        [str(i) for i in items],
        float(v[3]),
        float(v[4]),
        float(v[5]),
        None if math.isnan(v[0]) else float(v[0]),
        None if math.isnan(v[1]) else float(v[1]),
        float(v[2]),
        {},
        stats,
        lambda s: from_sums(s)[:, :3],
    )


# --- public API ------------------------------------------------------------------------------------


def fleiss(
    dataset: Mapping[str, Mapping[str, Any]],
    similarity: str = B_CARD.name,
    n_t: int = 2,
    *,
    scheme: BoundaryScheme | None = None,
    mode: str = "optimal",
    transpositions: bool = True,
) -> FleissResult:
    """Actual and expected agreement, multi-pi, multi-kappa and bias of a dataset.

    Args:
        dataset: ``{item: {coder: segmentation}}``. For ``s``/``b``: masses or gap sets (as
            segeval). For ``sf``/``sf_b``: a per-token code array, or ``{speaker: codes}``.
        similarity: one of :data:`SIMILARITIES` (see the module docstring).
        n_t: S and B only: 1 + the largest transposition span (segeval's default 2).
        scheme, mode, transpositions: S_f only (default scheme ``dubois``).

    Raises:
        UsageError: unknown similarity, fewer than two coders, bad segmentations;
        MismatchError: items coded by different coders, or codings of different lengths.
    """
    if similarity not in SIMILARITIES:
        raise UsageError(f"unknown similarity {similarity!r}; expected one of {list(SIMILARITIES)}")
    if similarity in _SEGEVAL_SIMILARITIES:
        return _segeval_result(dataset, similarity, n_t)
    return _sf_result(dataset, similarity, builtin_scheme("dubois") if scheme is None else scheme, mode, transpositions)


def fleiss_pi(
    dataset: Mapping[str, Mapping[str, Any]], similarity: str = B_CARD.name, n_t: int = 2, **kw: Any
) -> float | None:
    """Fleiss' multi-pi (Scott's pi for two coders); equals segeval's ``fleiss_pi_linear`` for
    ``s`` and ``b``. None when A_e = 1."""
    return fleiss(dataset, similarity, n_t, **kw).pi


def fleiss_kappa(
    dataset: Mapping[str, Mapping[str, Any]], similarity: str = B_CARD.name, n_t: int = 2, **kw: Any
) -> float | None:
    """Fleiss' multi-kappa (Cohen's kappa for two coders); equals segeval's
    ``fleiss_kappa_linear`` for ``s`` and ``b``. None when A_e = 1."""
    return fleiss(dataset, similarity, n_t, **kw).kappa


def artstein_poesio_bias(
    dataset: Mapping[str, Mapping[str, Any]], similarity: str = B_CARD.name, n_t: int = 2, **kw: Any
) -> float:
    """Artstein & Poesio's (2008) annotator bias ``A_e(pi) - A_e(kappa)``; equals segeval's
    ``artstein_poesio_bias_linear`` for ``s`` and ``b``."""
    return fleiss(dataset, similarity, n_t, **kw).bias


def pairwise_table(
    dataset: Mapping[str, Mapping[str, Any]], similarity: str = B_CARD.name, n_t: int = 2, **kw: Any
) -> list[dict[str, Any]]:
    """One row per coder pair (sorted): actual agreement pooled over items, Scott's pi, Cohen's
    kappa and the bias of that pair alone."""
    _, coders = _check_dataset(dataset)
    rows = []
    for m, n in itertools.combinations(coders, 2):
        sub = {item: {m: cod[m], n: cod[n]} for item, cod in dataset.items()}
        r = fleiss(sub, similarity, n_t, **kw)
        rows.append(
            {"coder_a": m, "coder_b": n, "actual": r.actual, "scott_pi": r.pi, "cohen_kappa": r.kappa, "bias": r.bias}
        )
    return rows


# --- measures (the contract: segagree.metrics.contract) ----------------------------------------

# What multi-pi, multi-kappa and the bias share.
_MULTI: dict[str, Any] = {
    "parameters": {"similarity": "b (s, sf, sf_b)", "n_t": "2 (s and b)", "scheme": "the layer's (sf and sf_b)"},
    "needs": "annotations",
    "annotators": "2+",
    "group": "agreement",
}

FLEISS_PI_CARD = Card.from_text(
    """
    title: Fleiss' multi-pi
    definition: (A_a - A_e) / (1 - A_e): actual agreement pooled over coder pairs, expected from pooled
        boundary proportions (Scott's pi for two coders)
    citation: Fournier & Inkpen (2012), Segmentation Similarity and Agreement, NAACL-HLT; Fleiss (1971)
    reference: segeval 2.0.11 fleiss_pi_linear
    """,
    **_MULTI,
    name="fleiss_pi",
)
FLEISS_KAPPA_CARD = Card.from_text(
    """
    title: Fleiss' multi-kappa
    definition: (A_a - A_e) / (1 - A_e) with A_e the mean over coder pairs of their proportions' product
        (Cohen's kappa for two coders)
    citation: Fournier & Inkpen (2012), Segmentation Similarity and Agreement, NAACL-HLT; Davies &
        Fleiss (1982)
    reference: segeval 2.0.11 fleiss_kappa_linear
    """,
    **_MULTI,
    name="fleiss_kappa",
)
BIAS_CARD = Card.from_text(
    """
    title: Artstein & Poesio annotator bias
    definition: A_e(pi) - A_e(kappa): how much the coders' boundary proportions differ
    citation: Fournier & Inkpen (2012), Segmentation Similarity and Agreement, NAACL-HLT; Artstein &
        Poesio (2008)
    better: lower
    reference: segeval 2.0.11 artstein_poesio_bias_linear
    """,
    **_MULTI,
    name="bias",
)

# multi-pi's, multi-kappa's and the bias's names (as keys of results).
MULTI_NAMES: tuple[str, str, str] = (FLEISS_PI_CARD.name, FLEISS_KAPPA_CARD.name, BIAS_CARD.name)


@dataclass(frozen=True)
class MultiStats:
    """Summed per-item statistics of :func:`fleiss` (one row of its ``unit_stats`` per item)."""

    similarity: str
    sums: np.ndarray
    from_sums: Callable[[np.ndarray], np.ndarray] = field(repr=False, compare=False)

    def __add__(self, other: MultiStats) -> MultiStats:
        if not isinstance(other, MultiStats) or other.similarity != self.similarity:
            return NotImplemented
        if other.sums.shape != self.sums.shape:
            raise MismatchError("multi-coder agreement: texts with different numbers of coders cannot be pooled")
        return MultiStats(self.similarity, self.sums + other.sums, self.from_sums)


@dataclass(frozen=True)
class MultiScore:
    """pi, kappa or bias of (summed) :class:`MultiStats`."""

    measure: str
    similarity: str
    value: float | None

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "params": {"similarity": self.similarity}}


def _dataset(item: TokenSet, similarity: str) -> dict[str, dict[str, Any]]:
    """{item: {coder: segmentation}}: S and B take every speaker as an item (gap sets), S_f the text."""
    coders = list(item.annotators) or [f"coder{i + 1}" for i in range(len(item.codes))]
    codes = [c if isinstance(c, Mapping) else {"": c} for c in item.codes]
    if similarity not in _SEGEVAL_SIMILARITIES:
        return {"text": dict(zip(coders, codes, strict=True))}
    return {s: {c: sets_from_codes(m[s]) for c, m in zip(coders, codes, strict=True)} for s in codes[0]}


class FleissPiMeasure(Measure[TokenSet, MultiStats, MultiScore]):
    """Fleiss' multi-pi of two or more annotators (``TokenSet`` codes: speaker -> array)."""

    card = FLEISS_PI_CARD
    column = 0  # of fleiss()'s coefficients: pi, kappa, bias

    def statistics(self, item: TokenSet, params: Mapping[str, Any]) -> MultiStats:
        similarity = str(params.get("similarity", B_CARD.name))
        extra: dict[str, Any] = {k: params[k] for k in ("mode", "transpositions") if k in params}
        if similarity not in _SEGEVAL_SIMILARITIES and item.scheme is not None:
            extra["scheme"] = item.scheme
        res = fleiss(_dataset(item, similarity), similarity, int(params.get("n_t", 2)), **extra)
        return MultiStats(similarity, res.unit_stats.sum(axis=0), res._from_sums)

    def score(self, stats: MultiStats, params: Mapping[str, Any]) -> MultiScore:
        v = float(stats.from_sums(stats.sums[None, :])[0, self.column])
        return MultiScore(self.card.name, stats.similarity, v if math.isfinite(v) else None)


class FleissKappaMeasure(FleissPiMeasure):
    card = FLEISS_KAPPA_CARD
    column = 1


class BiasMeasure(FleissPiMeasure):
    card = BIAS_CARD
    column = 2


MEASURES = (FleissPiMeasure(), FleissKappaMeasure(), BiasMeasure())
