"""``segagree metrics``: the metric cards (definition, parameters, defaults, citation, library)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from segagree.cli import app
from segagree.cli.common import print_json, stdout
from segagree.pipeline.io import METRIC_CARDS


@app.command()
def metrics(
    json_out: Annotated[bool, typer.Option("--json", help="print the cards as one JSON object")] = False,
) -> None:
    """List every metric: one-line definition, parameters and defaults, citation, and what computes it.

    Example: segagree metrics
    """
    from segagree.pipeline.metric_runner import known_metrics  # registers every runner's card

    known_metrics()
    if json_out:
        print_json(
            {
                name: {
                    "title": c.title,
                    "definition": c.definition,
                    "parameters": dict(c.parameters),
                    "citation": c.citation,
                    "library": c.library,
                    "higher_is_better": c.higher_is_better,
                    "reference": c.reference,
                }
                for name, c in METRIC_CARDS.items()
            }
        )
        return
    table = Table(title="segagree metrics", show_lines=True)
    for col in ("name", "definition", "parameters (defaults)", "citation", "computed by"):
        table.add_column(col)
    for name, c in METRIC_CARDS.items():
        params = "\n".join(f"{k} = {v}" for k, v in c.parameters.items())
        by = c.library + (f" (checked against {c.reference})" if c.reference else "")
        table.add_row(f"{name}\n{c.title}", c.definition, params, c.citation, by)
    stdout.print(table)
