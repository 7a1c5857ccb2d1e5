"""The measure contract for boundary measures on one shared token stream (input kind ``tokens``).

A boundary measure wraps one of the pure metric functions (:func:`~segagree.metrics.boundary.windows.pk`,
:func:`~segagree.metrics.boundary.boundary_edit.boundary_similarity`, ...), which return a result with
additive ``.stats`` (:mod:`segagree.metrics.boundary.stats`) and a ``.signature``. Its statistics are a
:class:`Tally` (those stats plus the parameters the measure chose for the item, such as Pk's
window k), tallies add across speakers and texts, and the score of a tally is a
:class:`BoundaryScore` whose value comes from the summed statistics only.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from segagree.metrics.boundary.masses import Format
from segagree.metrics.contract import Measure, TokenPair

__all__ = ["BoundaryMeasure", "BoundaryScore", "Tally"]


@dataclass(frozen=True)
class Tally:
    """Additive statistics of a boundary measure and the parameters it chose.

    Attributes:
        stats: the metric's additive statistics (``stats + stats`` sums them field-wise).
        chosen: parameters the measure chose from the data (e.g. ``{"k": 3}``); a sum keeps the
            ones every added item chose alike.
        signature: the signature of the first item (as ``compare`` has always reported it).
    """

    stats: Any
    chosen: Mapping[str, Any] = field(default_factory=dict)
    signature: str = ""

    def __add__(self, other: Tally) -> Tally:
        if not isinstance(other, Tally):
            return NotImplemented
        same = {k: v for k, v in self.chosen.items() if k in other.chosen and other.chosen[k] == v}
        return Tally(self.stats + other.stats, same, self.signature)


@dataclass(frozen=True)
class BoundaryScore:
    """The result of a boundary measure: the value of (summed) statistics.

    Attributes:
        measure: the measure's name.
        stats: the statistics the value comes from (e.g. summed window errors and windows).
        chosen: the parameters the measure chose (e.g. the window k), see :class:`Tally`.
        signature: sacrebleu-style description of the computation.
    """

    measure: str
    stats: Any
    chosen: Mapping[str, Any] = field(default_factory=dict)
    signature: str = ""

    @property
    def value(self) -> float:
        return float(self.stats.value)

    def to_dict(self) -> dict[str, Any]:
        """``value``, the chosen ``params`` and the ``signature``."""
        return {"value": self.value, "params": dict(self.chosen), "signature": self.signature}


class BoundaryMeasure(Measure[TokenPair, Tally, BoundaryScore]):
    """A measure on one speaker's two code arrays, or with several layers on segeval's gap sets.

    Subclasses set ``card``, ``options`` (the user options the metric function takes) and
    implement :meth:`result`; :meth:`chosen` reports data-dependent parameters.
    """

    options: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def result(self, a: Any, b: Any, fmt: Format, options: Mapping[str, Any], item: TokenPair) -> Any:
        """The metric function's result for ``a`` and ``b`` in format ``fmt`` (``codes`` or ``sets``)."""

    def chosen(self, result: Any) -> dict[str, Any]:
        """Parameters chosen from the data for this item (none by default)."""
        return {}

    def statistics(self, item: TokenPair, params: Mapping[str, Any]) -> Tally:
        options = MappingProxyType({k: params[k] for k in self.options if k in params})
        if item.sets_a is not None and item.sets_b is not None:  # several layers at once
            res = self.result(item.sets_a, item.sets_b, "sets", options, item)
        else:
            res = self.result(item.a, item.b, "codes", options, item)
        return Tally(res.stats, self.chosen(res), res.signature)

    def score(self, stats: Tally, params: Mapping[str, Any]) -> BoundaryScore:
        return BoundaryScore(self.card.name, stats.stats, stats.chosen, stats.signature)
