"""gamma-cat and gamma-k disorders of an alignment (Mathet 2018, section 4.2.5 of the HAL version).

Within a group of n_v units, every pair of units (u, v) weighs
``w = max(0, 1 - alpha · d_pos(u, v)) / (n_v - 1)`` (the alpha factor as in the Java software and
pygamma-agreement) and disagrees by ``d_cat(u, v)``; the disorder is ``Σ w · d_cat / Σ w``. gamma-k
keeps the pairs where at least one unit has category k.

pygamma-agreement 0.5.9 adds an experimental term: every pair of a unit and an empty side adds Δ∅²
to the disorder and Δ∅ to the weight, and the disorder is 0 (1 for gamma-k when no pair concerns k)
when no two units are aligned. ``variant="pygamma"`` reproduces it; the default ``"mathet"`` is
the paper's definition, undefined (None) when no pair carries weight.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from segagree.metrics.unitizing.dissimilarity import Dissimilarity, Track

__all__ = ["VARIANTS", "CategoryParts", "category_parts"]

VARIANTS = ("mathet", "pygamma")


@dataclass(frozen=True)
class CategoryParts:
    """Sums behind the gamma-cat (index 0) and gamma-k (index 1 + category) disorders of one alignment.

    Attributes:
        num, den: weighted disagreement and weight.
        unit_pairs: number of unit-unit pairs; any_pairs: number of pairs considered at all.
    """

    num: np.ndarray
    den: np.ndarray
    unit_pairs: np.ndarray
    any_pairs: np.ndarray

    def __add__(self, other: CategoryParts) -> CategoryParts:
        return CategoryParts(
            self.num + other.num,
            self.den + other.den,
            self.unit_pairs + other.unit_pairs,
            self.any_pairs + other.any_pairs,
        )

    def disorders(self, variant: str) -> np.ndarray:
        """The disorder per slot (NaN where undefined)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(self.num == 0, 0.0, self.num / self.den)
        if variant == "pygamma":
            none = np.where(self.any_pairs == 0, 1.0, 0.0)
            return np.where(self.unit_pairs == 0, none, ratio)
        return np.where(self.den > 0, ratio, np.nan)


def _bins(cat: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    return np.bincount(cat + 1, weights=values, minlength=size + 1)[1:]


def category_parts(
    groups: np.ndarray, tracks: Sequence[Track], dis: Dissimilarity, n_categories: int, variant: str
) -> CategoryParts:
    """The sums of :class:`CategoryParts` for an alignment (slot 0 gamma-cat, 1 + k gamma-k)."""
    size = n_categories + 1
    num, den, unit_pairs, any_pairs = (np.zeros(size) for _ in range(4))
    k = (groups >= 0).sum(axis=1)
    base = np.where(k >= 2, 1.0 / np.maximum(k - 1, 1), 0.0)
    n = len(tracks)
    for a in range(n):
        for b in range(a + 1, n):
            ia, ib = groups[:, a], groups[:, b]
            both = (ia >= 0) & (ib >= 0)
            ja, jb = ia[both], ib[both]
            ta, tb = tracks[a], tracks[b]
            ca, cb = ta.category[ja], tb.category[jb]
            pos = dis.alpha * dis.positional(ta.start[ja], ta.end[ja], tb.start[jb], tb.end[jb])
            w = base[both] * np.maximum(0.0, 1.0 - pos)
            d = dis.categorical(ca, cb) * w
            other = cb != ca  # a pair of two categories counts for both categories, once for one

            def per_category(values: np.ndarray) -> np.ndarray:
                return _bins(ca, values, n_categories) + _bins(cb[other], values[other], n_categories)  # noqa: B023

            num[0] += d.sum()
            den[0] += w.sum()
            unit_pairs[0] += ca.size
            num[1:] += per_category(d)
            den[1:] += per_category(w)
            count = per_category(np.ones(ca.size))
            unit_pairs[1:] += count
            any_pairs[1:] += count
            one_cat = np.concatenate([ta.category[ia[(ia >= 0) & (ib < 0)]], tb.category[ib[(ib >= 0) & (ia < 0)]]])
            any_pairs[0] += groups.shape[0]
            any_pairs[1:] += _bins(one_cat, np.ones(one_cat.size), n_categories)
            if variant == "pygamma":
                extra = np.ones(one_cat.size)
                num[0] += one_cat.size * dis.delta_empty**2
                den[0] += one_cat.size * dis.delta_empty
                num[1:] += _bins(one_cat, extra * dis.delta_empty**2, n_categories)
                den[1:] += _bins(one_cat, extra * dis.delta_empty, n_categories)
    return CategoryParts(num, den, unit_pairs, any_pairs)
