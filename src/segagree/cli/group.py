"""The ``segagree`` click group: commands listed from :data:`segagree.cli.COMMANDS` and imported
only when invoked (or asked for their own help), global ``--version`` and ``--debug``."""

from __future__ import annotations

import importlib
from typing import Any

import click

from segagree.cli import COMMANDS, CONTEXT, EPILOG, SUMMARY, State, version_text


class LazyGroup(click.Group):
    """A group whose commands are imported only when invoked (or asked for their own help)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module = importlib.import_module(f"segagree.cli.{COMMANDS[cmd_name][0]}")
        return getattr(module, cmd_name)

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[Any]:
        """The commands (from the table: no command is imported to complete its name) and the
        group's options."""
        from click.shell_completion import CompletionItem

        names = [
            CompletionItem(name, help=short) for name, (_, short) in COMMANDS.items() if name.startswith(incomplete)
        ]
        return [*names, *click.Command.shell_complete(self, ctx, incomplete)]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # click would import every command to ask for its short help; the table has it.
        with formatter.section("Commands"):
            formatter.write_dl([(name, short) for name, (_, short) in COMMANDS.items()])


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(version_text())
        ctx.exit()


def _set_debug(_ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        State.debug = True


@click.group(
    cls=LazyGroup,
    context_settings=CONTEXT,
    no_args_is_help=True,
    epilog=EPILOG,
    help="\n\n".join(SUMMARY),
)
@click.option(
    "--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version, help="Show the version."
)
@click.option(
    "--debug", is_flag=True, expose_value=False, callback=_set_debug, help="Show library detail and tracebacks."
)
def app() -> None:
    """The ``segagree`` group (its help text is :data:`segagree.cli.SUMMARY`)."""
    # Here, not in main(): --help and --version never get this far (logging costs start-up).
    import logging

    logging.basicConfig(
        level=logging.DEBUG if State.debug else logging.WARNING, format="segagree: %(levelname)s: %(message)s"
    )
