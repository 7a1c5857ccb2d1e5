"""The card of a time measure: what every measure of the ``time`` group shares (it reads a
:class:`~segagree.metrics.contract.UnitSet` of two or more annotators; higher is better)."""

from __future__ import annotations

from collections.abc import Mapping

from segagree.metrics.contract import Card

__all__ = ["time_card"]


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
