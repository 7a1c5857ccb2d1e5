"""``segagree formats``: the formats segagree reads and writes."""

from __future__ import annotations

import shutil
import textwrap

import click

from segagree.cli.common import examples, json_option, print_json


@click.command(epilog=examples("segagree formats", "segagree formats --json"))
@json_option("print the formats as one JSON object")
def formats(json_out: bool) -> None:
    """List the formats segagree reads and writes.

    Every format is read; the names and aliases may be given to --from and --to, in any
    case (csv, TextGrid, praat, elan...).
    """
    from segagree.formats import ALIASES, adapters

    table = adapters()
    aliases: dict[str, list[str]] = {}
    for alias, name in ALIASES.items():
        aliases.setdefault(name, []).append(alias)
    if json_out:
        print_json(
            {
                a.name: {
                    "extensions": list(a.extensions),
                    "aliases": aliases.get(a.name, []),
                    "read": True,
                    "write": a.can_write,
                    "description": a.description,
                }
                for a in table.values()
            }
        )
        return
    width = max(min(shutil.get_terminal_size((80, 24)).columns, 100), 40)
    blocks = []
    for a in table.values():
        head = f"{a.name}  {' '.join(a.extensions)}  " + ("read and write" if a.can_write else "read only")
        if aliases.get(a.name):
            head += f"  (also: {', '.join(aliases[a.name])})"
        body = textwrap.fill(
            a.description, width=width, initial_indent="    ", subsequent_indent="    ", break_long_words=False
        )
        blocks.append(textwrap.fill(head, width=width, subsequent_indent="    ", break_long_words=False) + "\n" + body)
    click.echo("\n".join(blocks))
