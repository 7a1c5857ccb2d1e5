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
    import segagree.api as api

    table = api.list_formats()
    if json_out:
        print_json(table)
        return
    width = max(min(shutil.get_terminal_size((80, 24)).columns, 100), 40)
    blocks = []
    for name, info in table.items():
        head = f"{name}  {' '.join(info['extensions'])}  " + ("read and write" if info["write"] else "read only")
        if info["aliases"]:
            head += f"  (also: {', '.join(info['aliases'])})"
        body = textwrap.fill(
            info["description"], width=width, initial_indent="    ", subsequent_indent="    ", break_long_words=False
        )
        blocks.append(textwrap.fill(head, width=width, subsequent_indent="    ", break_long_words=False) + "\n" + body)
    click.echo("\n".join(blocks))
