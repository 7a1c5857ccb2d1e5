"""Additive sufficient statistics of the segeval-style metrics, and pooling.

Every result of :mod:`segagree.metrics` carries a ``stats`` object. Statistics of the same
metric add with ``+`` (and ``sum()``), and ``.value`` recomputes the score from the summed
counts, so a pooled score is never an average of scores:

* S and B: summed weighted edits over summed denominators, ``1 - E / D`` (as segeval's
  ``actual_agreement_linear`` pools them).
* Pk and WindowDiff: summed window disagreements over summed window counts.
* WinPR: summed TP, TN, FP, FN; precision, recall and F1 from the sums.
* A: summed Jaccard of the aligned pairs over the summed number of aligned pairs.
* Boundary edit distance: summed operation counts and weighted edits.

``pooled(results)`` sums the statistics of results (or statistics) of one metric.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

from segagree.errors import UsageError
from segagree.version import version

Number = int | float | Fraction


def signature(metric: str, **params: Any) -> str:
    """A sacrebleu-style signature: ``metric|key:value|...|v:<segagree version>``."""
    parts = [metric]
    for key, value in params.items():
        if isinstance(value, bool):
            value = "yes" if value else "no"
        elif isinstance(value, (tuple, list)):
            value = ",".join(str(v) for v in value)
        parts.append(f"{key}:{value}")
    parts.append(f"v:{version()}")
    return "|".join(parts)


class AdditiveStats:
    """Field-wise ``+`` for frozen dataclasses whose first field is the metric name."""

    metric: str

    def __add__(self, other: Any) -> Any:
        if isinstance(other, int) and other == 0:
            return self
        if type(other) is not type(self) or other.metric != self.metric:
            return NotImplemented
        values = {}
        for f in fields(self):  # type: ignore[arg-type]
            if f.name == "metric":
                values[f.name] = self.metric
            else:
                values[f.name] = getattr(self, f.name) + getattr(other, f.name)
        return type(self)(**values)

    def __radd__(self, other: Any) -> Any:
        if isinstance(other, int) and other == 0:
            return self
        return NotImplemented


@dataclass(frozen=True)
class SimilarityStats(AdditiveStats):
    """Edit-based similarity statistics (S, B, scheme-weighted B).

    ``value = (denominator - edits) / denominator``; 1.0 when the denominator is 0 (two
    segmentations without boundaries).

    Attributes:
        metric: the measure's name (S, B or scheme-weighted B).
        edits: weighted edit count E (a Fraction for S and B, a float with a scheme).
        denominator: S: P = (N-1)|T|^2; B: D = additions + substitutions + transpositions +
            matches.
        additions, substitutions, transpositions, matches: unweighted counts.
    """

    metric: str
    edits: Number
    denominator: Number
    additions: int = 0
    substitutions: int = 0
    transpositions: int = 0
    matches: int = 0

    @property
    def numerator(self) -> Number:
        """``denominator - edits`` (segeval's ``return_parts`` numerator)."""
        return self.denominator - self.edits

    @property
    def exact(self) -> Fraction | None:
        """The value as a Fraction, when the edits are exact (not for float scheme costs)."""
        if isinstance(self.edits, float) or isinstance(self.denominator, float):
            return None
        if self.denominator == 0:
            return Fraction(1)
        return 1 - Fraction(self.edits) / Fraction(self.denominator)

    @property
    def value(self) -> float:
        """The similarity from these statistics."""
        exact = self.exact
        if exact is not None:
            return float(exact)
        if self.denominator == 0:
            return 1.0
        return float((self.denominator - self.edits) / self.denominator)


@dataclass(frozen=True)
class EditCounts(AdditiveStats):
    """Boundary edit distance counts; ``value`` is the weighted edit count."""

    metric: str
    additions: int
    substitutions: int
    transpositions: int
    matches: int
    weighted_edits: Number

    @property
    def value(self) -> float:
        """The weighted number of edits."""
        return float(self.weighted_edits)


@dataclass(frozen=True)
class WindowStats(AdditiveStats):
    """Pk / WindowDiff statistics: ``value = errors / windows`` (0.0 without windows).

    ``windows`` is the denominator: N - k, or N + k + 1 with the Lamprier et al. fix.
    """

    metric: str
    errors: int
    windows: int

    @property
    def exact(self) -> Fraction:
        """The value as a Fraction."""
        return Fraction(self.errors, self.windows) if self.windows else Fraction(0)

    @property
    def value(self) -> float:
        """The error rate from these statistics."""
        return float(self.exact)


def _ratio(num: int, den: int, empty: float) -> float:
    return num / den if den else empty


@dataclass(frozen=True)
class WinPRStats(AdditiveStats):
    """WinPR confusion counts; precision, recall and F1 are computed from them.

    When a denominator is 0: precision (no hypothesised boundary in any window) and recall (no
    reference boundary) are 1.0 if both segmentations are boundary-free (TP = FP = FN = 0)
    and 0.0 otherwise; F1 is 0.0 when precision + recall is 0.
    """

    metric: str
    tp: int
    tn: int
    fp: int
    fn: int

    @property
    def _empty(self) -> float:
        return 1.0 if self.tp == self.fp == self.fn == 0 else 0.0

    @property
    def precision(self) -> float:
        """TP / (TP + FP)."""
        return _ratio(self.tp, self.tp + self.fp, self._empty)

    @property
    def recall(self) -> float:
        """TP / (TP + FN)."""
        return _ratio(self.tp, self.tp + self.fn, self._empty)

    @property
    def f1(self) -> float:
        """2PR / (P + R)."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def value(self) -> float:
        """F1."""
        return self.f1


@dataclass(frozen=True)
class AlignmentStats(AdditiveStats):
    """A statistics: ``value = jaccard_sum / pairs`` (mean Jaccard of the aligned pairs)."""

    metric: str
    jaccard_sum: float
    pairs: int

    @property
    def value(self) -> float:
        """Mean Jaccard over the aligned pairs (1.0 without pairs)."""
        return self.jaccard_sum / self.pairs if self.pairs else 1.0


Stats = SimilarityStats | EditCounts | WindowStats | WinPRStats | AlignmentStats


def pooled(results: Iterable[Any]) -> Any:
    """Sum the statistics of several results (or statistics) of one metric.

    ``pooled(pk(r, h) for r, h in speakers).value`` is the pooled Pk: summed window errors
    over summed windows. Raises UsageError when nothing is given or metrics are mixed.
    """
    total = None
    for item in results:
        stats = getattr(item, "stats", item)
        if not isinstance(stats, AdditiveStats):
            raise UsageError(f"cannot pool {type(item).__name__}: it has no additive statistics")
        if total is None:
            total = stats
            continue
        summed = total.__add__(stats)
        if summed is NotImplemented:
            raise UsageError(f"cannot pool {total.metric} with {stats.metric} statistics")
        total = summed
    if total is None:
        raise UsageError("pooled() needs at least one result")
    return total
