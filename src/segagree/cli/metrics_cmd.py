"""``segagree metrics [NAME]``: the metric cards (definition, parameters, citation, library)."""

from __future__ import annotations

import shutil
import textwrap
from typing import Any

import click

from segagree.cli.common import examples, json_option, print_json


@click.command(epilog=examples("segagree metrics", "segagree metrics sf", "segagree metrics ghd --json"))
@click.argument("name", required=False)
@json_option("print the card(s) as one JSON object")
def metrics(name: str | None, json_out: bool) -> None:
    """List the metrics, or show one metric's card.

    Without NAME: every metric, one line each. With NAME: its definition, parameters and
    defaults, citation, and what computes it (and what it is checked against).
    """
    import segagree.api as api
    from segagree.errors import UsageError

    cards = api.metric_cards()
    if name is not None:
        key = name.strip().lower()
        if key not in cards:
            raise UsageError(f"unknown metric {name!r}; known: {', '.join(cards)}")
        cards = {key: cards[key]}
    if json_out:
        print_json({k: c.to_dict() for k, c in cards.items()})
        return
    width = min(shutil.get_terminal_size((80, 24)).columns, 100)
    if name is not None:
        click.echo(_card_text(next(iter(cards.values())), width))
        return
    click.echo(_list_text(cards, width))


def _wrap(text: str, width: int, indent: str, first: str = "") -> str:
    return textwrap.fill(
        text,
        width=max(width, 40),
        initial_indent=first or indent,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )


def _list_text(cards: dict[str, Any], width: int) -> str:
    """One entry per metric: name, which way is better, title (wrapped, never cut)."""
    pad = max(len(n) for n in cards) + 2
    indent = " " * (pad + 8)
    lines = [
        f"{len(cards)} metrics; 'segagree metrics NAME' shows one card, --json all of them.",
        "",
        "name".ljust(pad) + "better  title",
    ]
    for name, card in cards.items():
        better = card.better.ljust(8)
        lines.append(_wrap(card.title, width, indent, first=name.ljust(pad) + better))
    return "\n".join(lines)


def _card_text(card: Any, width: int) -> str:
    """One metric's card as labelled, wrapped paragraphs."""
    lines = [f"{card.name}: {card.title}", ""]
    fields = [
        ("definition", card.definition),
        *[(label, text) for label, text in (("range", card.range), ("how to read", card.reading)) if text],
        *([("chance", card.chance)] if card.chance else []),
        (
            "parameters",
            "; ".join(f"{k} = {v}" for k, v in card.parameters.items()) or "none",
        ),
        ("citation", card.citation or "-"),
        *([("link", card.link)] if card.link else []),
        ("computed by", card.library),
    ]
    if card.reference:
        fields.append(("checked against", card.reference))
    fields.append(("better", card.better))
    if card.example:
        fields.append(("example", card.example))
    pad = max(len(label) for label, _ in fields) + 2
    for label, text in fields:
        lines.append(_wrap(text, width, " " * pad, first=(label + ":").ljust(pad)))
    return "\n".join(lines)
