"""The ``segagree`` command line (typer): thin wrappers over :mod:`segagree.pipeline`.

Errors in the input are one line on stderr and exit code 1 (2 for usage errors); results
go to stdout as a table, or as exactly one JSON object with ``--json``.
"""

from __future__ import annotations

import logging
import sys

import typer

from segagree.errors import SegagreeError, UsageError

app = typer.Typer(
    name="segagree",
    help="Segmentation similarity and agreement for corpus linguists: read Rezonator, ELAN, Praat, "
    "SRT, text and tables; score S_f, S_f^B, B, S, A, Pk, WindowDiff, WinPR; kappa; review workbooks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _register() -> None:
    # Each module adds its commands to `app`; imported here so `app` exists first.
    from segagree.cli import (  # noqa: F401
        adjudicate_cmd,
        agree_cmd,
        compare_cmd,
        convert_cmd,
        metrics_cmd,
        review_cmd,
        run_cmd,
    )


def main() -> None:
    """Entry point: run the app, turning segagree errors into one-line messages."""
    logging.basicConfig(level=logging.WARNING, format="segagree: %(levelname)s: %(message)s")
    _register()
    try:
        # Without standalone mode click returns typer.Exit's code instead of exiting.
        code = app(standalone_mode=False)
        if isinstance(code, int) and code:
            sys.exit(code)
    except UsageError as err:
        print(f"segagree: error: {err}", file=sys.stderr)
        sys.exit(2)
    except SegagreeError as err:
        print(f"segagree: error: {err}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("segagree: interrupted", file=sys.stderr)
        sys.exit(130)
    except SystemExit:
        raise
    except Exception as err:
        # click's usage errors (typer vendors its own click, so match by behaviour, not class):
        # missing or bad arguments print their usage message and exit 2.
        if hasattr(err, "show") and hasattr(err, "exit_code"):
            err.show()
            sys.exit(err.exit_code)
        if type(err).__name__ == "Abort":
            sys.exit(1)
        raise
