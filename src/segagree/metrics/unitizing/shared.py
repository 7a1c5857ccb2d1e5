"""What the measures of the ``time`` group share: their card (each reads a
:class:`~segagree.metrics.contract.UnitSet` of two or more annotators; higher is better) and the time
resolution of those that count positions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from segagree.metrics.contract import Card

__all__ = ["MILLISECOND", "NO_CATEGORY", "TIME_SLACK", "resolution", "time_card", "within"]

NO_CATEGORY = "(none)"  # the one category of units read without categories
MILLISECOND = 0.001

#: Times read from text (ELAN's milliseconds, RTTM's three decimals) are binary fractions: boundaries
#: 0.2 s apart in the file can be 0.20000000000000284 s apart as floats (174.710 - 174.510). A
#: distance within a nanosecond of a tolerance is within it: no annotation is finer than that, and
#: the float error of a time below 10^6 s is below 10^-9 s.
TIME_SLACK = 1e-9


def within(distance: Any, tolerance: float) -> Any:
    """``distance <= tolerance`` up to :data:`TIME_SLACK` (floats or numpy arrays)."""
    return distance <= tolerance + TIME_SLACK


def resolution(params: Mapping[str, Any], integral: bool) -> float:
    """Seconds per position of the measures that count positions (alpha-U, uα): the parameter
    ``resolution``, or with ``auto`` 1 when every time is a whole number, else 0.001 (ELAN's ms)."""
    value = params.get("resolution", "auto")
    if value in (None, "auto"):
        return 1.0 if integral else MILLISECOND
    res = float(value)
    if not res > 0:
        raise ValueError(f"resolution must be positive seconds per position, not {value!r}")
    return res


def time_card(
    name: str,
    title: str,
    definition: str,
    citation: str,
    *,
    parameters: Mapping[str, str],
    reference: str,
    notes: str = "",
) -> Card:
    """A card in the ``time`` group (input kind ``times``, two or more annotators, higher is better)."""
    return Card(
        name=name,
        title=title,
        definition=definition,
        citation=citation,
        parameters=parameters,
        better="higher",
        needs="times",
        annotators="2+",
        group="time",
        reference=reference,
        notes=notes,
    )
