"""The ``segagree`` command line (click): a thin face over :mod:`segagree.api`.

Start-up is kept cheap: ``segagree --help`` (and bare ``segagree``) and ``segagree --version``
are answered from the table below without importing click (but for shell completion, which
click answers: ``_SEGAGREE_COMPLETE=bash_source segagree``); the click group
(:mod:`segagree.cli.group`) lists the commands from the same table and imports a command's
module (and with it pandas, numpy, rich) only when that command runs or shows its own help.

Errors in the input are one line on stderr and exit code 1 (2 for usage errors); results go to
stdout as a table, or as exactly one JSON object with ``--json``. Ctrl-C prints
``segagree: interrupted`` and exits 130. ``--debug`` shows library detail and tracebacks.
"""

from __future__ import annotations

import os
import sys

from segagree.version import version

# name -> (module under segagree.cli, one-line help shown by `segagree --help`).
# tests/cli/test_cli_friendly.py checks each line against the command's own docstring.
COMMANDS: dict[str, tuple[str, str]] = {
    "compare": ("compare_cmd", "Compare two segmentations of the same text: S_f, S_f^B and other metrics."),
    "agree": ("agree_cmd", "Chance-corrected agreement (kappa) of two or more annotations of a text."),
    "panel": ("panel_cmd", "Judge a segmenter against a panel of human annotators."),
    "review": ("review_cmd", "Write a review workbook listing every disagreement of two annotations."),
    "baseline": ("baseline_cmd", "Write the pause baseline of a text: boundaries where the recording pauses."),
    "adjudicate": ("adjudicate_cmd", "Apply a filled-in review workbook and write the gold annotation."),
    "run": ("run_cmd", "Score every pair of annotators of every text of a corpus folder."),
    "convert": ("convert_cmd", "Convert annotations between formats, reporting what the target cannot hold."),
    "formats": ("formats_cmd", "List the formats segagree reads and writes."),
    "metrics": ("metrics_cmd", "List the metrics, or show one metric's card."),
    "degrade": ("degrade_cmd", "Write a degraded copy of a subtitle file: the same words, some breaks changed."),
    "segment": ("segment_cmd", "Drop a subtitle file's breaks and re-break it by length."),
    "check": ("check_cmd", "List the style violations of each cue (no reference needed)."),
    "demo": ("demo_cmd", "Copy the sample corpora into a folder, to run the tour there."),
    "study": ("study_cmd", "Run every subtitle metric over a grid of degraded references, with plots and a page."),
}

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class Interrupted(BaseException):
    """Ctrl-C, raised by our SIGINT handler (a BaseException so click does not turn it into Abort)."""


class State:
    debug = os.environ.get("SEGAGREE_DEBUG", "") not in ("", "0")


def debug_enabled() -> bool:
    """Whether ``--debug`` (or ``SEGAGREE_DEBUG=1``) was given."""
    return State.debug


def version_text() -> str:
    """What ``segagree --version`` prints."""
    return f"segagree {version()}"


SUMMARY = (
    "Segmentation similarity and agreement for corpus linguists.",
    "Reads Rezonator, ELAN, Praat, CHAT, Transcriber, EXMARaLDA, SRT, WebVTT, text and tables; "
    "scores S_f, S_f^B, B, S, A, Pk, WindowDiff, WinPR and ghd; chance-corrected agreement; review workbooks.",
)
GLOBAL_OPTIONS = (
    ("--version", "Show the version."),
    ("--debug", "Show library detail and tracebacks."),
    ("-h, --help", "Show this message and exit."),
)
EPILOG = "Run 'segagree COMMAND --help' for a command's options and examples."


def group_help() -> str:
    """``segagree --help``, laid out as click lays out a command's help, at the terminal's width."""
    import shutil
    import textwrap

    width = max(min(shutil.get_terminal_size((80, 24)).columns, 100) - 2, 40)

    def para(text: str) -> str:
        return textwrap.fill(text, width, initial_indent="  ", subsequent_indent="  ")

    def rows(items: tuple[tuple[str, str], ...] | list[tuple[str, str]]) -> list[str]:
        pad = max(len(k) for k, _ in items) + 4
        return [
            textwrap.fill(v, width, initial_indent=f"  {k}".ljust(pad), subsequent_indent=" " * pad) for k, v in items
        ]

    lines = ["Usage: segagree [OPTIONS] COMMAND [ARGS]...", "", para(SUMMARY[0]), "", para(SUMMARY[1]), ""]
    lines += ["Options:", *rows(GLOBAL_OPTIONS), "", "Commands:"]
    lines += rows([(name, short) for name, (_, short) in COMMANDS.items()])
    lines += ["", para(EPILOG)]
    return "\n".join(lines)


def __getattr__(name: str) -> object:
    # The click group lives in segagree.cli.group, imported only when needed (start-up).
    if name in ("app", "LazyGroup"):
        from segagree.cli import group

        return getattr(group, name)
    raise AttributeError(f"module 'segagree.cli' has no attribute {name!r}")


def _on_sigint(_signum: int, _frame: object) -> None:
    raise Interrupted


def _fail(message: str, code: int) -> None:
    from segagree.cli.safe_text import printable

    print(printable(f"segagree: error: {message}"), file=sys.stderr)
    sys.exit(code)


def _os_message(err: OSError) -> str:
    """An operating-system error in the project's words, naming the path."""
    what = {
        PermissionError: "permission denied",
        FileExistsError: "a file is in the way",
        NotADirectoryError: "a file is in the way of a folder",
        IsADirectoryError: "is a folder, not a file",
        FileNotFoundError: "no such file or folder",
    }.get(type(err), err.strerror or type(err).__name__)
    path = err.filename if err.filename is not None else ""
    where = f"{path}: " if path else ""
    target = f" (writing {err.filename2})" if getattr(err, "filename2", None) else ""
    return f"{where}{what}{target}"


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app; segagree errors become one-line messages."""
    # numpy's OpenBLAS starts a thread per core that spins for a while; nothing here multiplies
    # large matrices, and on two cores that spinning slowed a 1 s `compare` by a tenth. Set
    # before numpy loads, and only if the user chose nothing.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from segagree.cli.safe_text import install

    install()  # names from files never steer the terminal (safe_text)
    try:
        _main(list(sys.argv[1:] if argv is None else argv))
    except BrokenPipeError:
        # The reader of our output went away (`segagree metrics | head`): nothing to say.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)


#: Set by the shell's completion script (click's ``_PROG_COMPLETE``): the words come in it, not in argv.
COMPLETE_VARIABLE = "_SEGAGREE_COMPLETE"


def _say_on_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _main(args: list[str]) -> None:
    # The two answers that need nothing, not even click (start-up: python + 10 ms); never when the
    # shell asks for completions (its argv is empty, and click answers from the environment).
    completing = COMPLETE_VARIABLE in os.environ
    if args == ["--version"] and not completing:
        print(version_text())
        return
    if args in ([], ["--help"], ["-h"]) and not completing:
        print(group_help())
        return
    # --debug is global and may come anywhere before a bare `--`.
    cut = args.index("--") if "--" in args else len(args)
    if "--debug" in args[:cut]:
        State.debug = True
        args = [a for i, a in enumerate(args) if not (a == "--debug" and i < cut)]
    import signal

    import click

    from segagree.cli.group import app
    from segagree.files.atomic import output_plan
    from segagree.metrics import numba_import

    # A first command after installing waits while numba compiles: said, not left unexplained.
    numba_import.first_compile = _say_on_stderr

    if threading_is_main():
        signal.signal(signal.SIGINT, _on_sigint)
    try:
        # One output plan per command: whatever the command reads, it never writes over.
        with output_plan():
            app.main(args=args, prog_name="segagree", standalone_mode=False)
    except Interrupted:
        print("segagree: interrupted", file=sys.stderr)
        sys.exit(130)
    except click.exceptions.Exit as err:
        sys.exit(err.exit_code)
    except click.UsageError as err:
        if type(err).__name__ == "NoArgsIsHelpError":  # bare `segagree`: the help, as asked
            click.echo(err.format_message())
            sys.exit(0)
        # One line, like every other error, with where to look.
        where = err.ctx.command_path if err.ctx is not None else "segagree"
        _fail(f"{err.format_message()} (see '{where} --help')", err.exit_code)
    except click.ClickException as err:
        _fail(err.format_message(), err.exit_code)
    except click.exceptions.Abort:
        print("segagree: interrupted", file=sys.stderr)
        sys.exit(130)
    except SystemExit:
        raise
    except BaseException as err:  # noqa: BLE001  (every error must end as one line)
        if State.debug:
            raise
        _report(err)


# Library wording inside a message: "(ValueError: invalid literal ...)", "pympi cannot read it".
_DETAIL = (
    r"\s*\((?:[A-Za-z_.]*(?:Error|Exception|Warning)\b|pympi|openpyxl|pandas|praatio|lxml|zipfile)"
    r"(?:[^()]|\([^()]*\))*\)"
)
_LIBRARY = r"\b(?:pympi|openpyxl|pandas|praatio|lxml)\s+(?=cannot|could|failed)"


def project_words(message: str) -> str:
    """A message without library detail (kept for --debug): what failed, where, what was expected."""
    import re

    plain = re.sub(_LIBRARY, "", re.sub(_DETAIL, "", message))
    return plain if plain == message else plain + " (--debug shows the library's message)"


def _report(err: BaseException) -> None:
    from segagree.errors import SegagreeError, UsageError

    if isinstance(err, UsageError):
        _fail(str(err), 2)
    if isinstance(err, SegagreeError):
        _fail(project_words(str(err)), 1)
    if isinstance(err, KeyboardInterrupt):
        print("segagree: interrupted", file=sys.stderr)
        sys.exit(130)
    if isinstance(err, BrokenPipeError):
        raise err
    if isinstance(err, OSError):
        _fail(_os_message(err), 1)
    if isinstance(err, MemoryError):
        _fail("out of memory", 1)
    _fail(f"unexpected failure ({type(err).__name__}); run again with --debug for the details", 1)


def threading_is_main() -> bool:
    """signal.signal works only in the main thread (tests may call main() from another)."""
    import threading

    return threading.current_thread() is threading.main_thread()
