"""Options and helpers shared by the commands: reading options, consoles, printing JSON.

Nothing heavy is imported here (rich loads on first print), so ``segagree COMMAND --help``
stays quick.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

import segagree.api as api
from segagree.cli.safe_text import json_printable, printable

if TYPE_CHECKING:
    from rich.console import Console

F = Callable[..., Any]

EXISTING_FILE = click.Path(dir_okay=False, path_type=Path)


class _AtLeastOne(click.ParamType):
    """A whole number >= 1, described in words (click's IntRange prints 'INTEGER RANGE x>=1')."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        try:
            number = int(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a whole number", param, ctx)
        if number < 1:
            self.fail(f"must be at least 1, not {number}", param, ctx)
        return number


AT_LEAST_ONE = _AtLeastOne()

SCHEME_HELP = "Boundary scheme: dubois (default), lai2023, segsimflex-vignette, or a TOML/JSON file."
MODE_HELP = "S_f search: optimal (the exact minimum) or segsimflex (the R package's search)."
MODE_CHOICE = click.Choice(list(api.MODES), case_sensitive=False)
MAX_MISMATCH_DEFAULT = 0.2  # the aligner's default (pipeline.align.project_pair, RunConfig)


def _data_console(**kwargs: Any) -> Console:
    """A rich console for data: markup off, and every string it renders through
    :func:`~segagree.cli.safe_text.printable` (names from files never steer the terminal)."""
    from rich.console import Console

    class DataConsole(Console):
        def render_str(self, text: str, **options: Any) -> Any:
            return super().render_str(printable(text), **options)

        @property
        def file(self) -> Any:
            # rich's own output (styles, a progress bar's cursor moves) goes to the raw stream
            # under every wrapper: under SafeStream, and under the FileProxy a live progress bar puts
            # around sys.stderr (rich unwraps one level only, which left SafeStream escaping rich's
            # sequences). The data it renders was cleaned in render_str.
            from rich._null_file import NULL_FILE

            stream = self._file or (sys.stderr if self.stderr else sys.stdout)
            while hasattr(stream, "rich_proxied_file"):
                stream = stream.rich_proxied_file
            return stream if stream is not None else NULL_FILE

        @file.setter
        def file(self, new_file: Any) -> None:
            self._file = new_file

    return DataConsole(highlight=False, markup=False, emoji=False, **kwargs)


@cache
def stdout() -> Console:
    """Results (tables). Markup off: text from files and messages prints as written."""
    return _data_console()


@cache
def stderr() -> Console:
    """Progress and messages."""
    return _data_console(stderr=True)


def show(text: str) -> None:
    """A line of results on stdout, printed as written: wrapped at the width on a terminal, one
    line otherwise (for scripts and grep)."""
    if plain_output() and plain_text(text):
        print(text)  # what rich writes there, without loading it (tests/cli/test_plain_output.py)
        return
    out = stdout()
    out.print(text, soft_wrap=not out.is_terminal)


def plain_output() -> bool:
    """Whether results go to a pipe or a file, as rich decides it (``Console.is_terminal``: no
    ``FORCE_COLOR`` or ``TTY_COMPATIBLE``, no notebook, and standard output not a terminal). There
    rich adds nothing to plain text (no style, no wrapping), and lines and tables are written
    without loading it: a command's start-up is a fifth of a quick command's time."""
    if "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ:
        return False
    if "ipykernel" in sys.modules or "idlelib" in sys.modules:
        return False
    stream = sys.stdout
    while hasattr(stream, "rich_proxied_file"):
        stream = stream.rich_proxied_file
    try:
        return stream is not None and not stream.isatty()
    except ValueError:  # a closed stream: rich would say "not a terminal" and write nothing
        return False


#: Characters one cell wide in rich's measure as in ``len`` (ASCII and the Latin, Greek and Cyrillic
#: letters, without combining marks): text of these alone is written without rich.
_ONE_CELL = re.compile(r"[ -~\u00a0-\u02ff\u0370-\u0482\u048a-\u052f]*")


def plain_text(text: str) -> bool:
    """Whether ``text`` is laid out alike by ``len`` and by rich (one cell per character, no tab)."""
    return _ONE_CELL.fullmatch(text) is not None


def new_progress(*columns: Any, disable: bool = False, **kwargs: Any) -> Any:
    """A rich progress bar on stderr, drawn only when stderr is a terminal (and not ``disable``d).

    The columns are rich's; :func:`description_column` shows a task's description, which may hold
    a text's name: it goes through :func:`~segagree.cli.safe_text.printable` and is never read as markup."""
    from rich.progress import Progress

    class DataProgress(Progress):
        def add_task(self, description: str, *args: Any, **options: Any) -> Any:
            return super().add_task(printable(description), *args, **options)

        def update(self, task_id: Any, *, description: str | None = None, **options: Any) -> None:
            text = None if description is None else printable(description)
            super().update(task_id, description=text, **options)

    err = stderr()
    return DataProgress(*columns, console=err, disable=disable or not err.is_terminal, transient=True, **kwargs)


def description_column() -> Any:
    """A progress bar's task description, shown as written (no markup)."""
    from rich.progress import TextColumn

    return TextColumn("{task.description}", style="progress.description", markup=False)


class Quiet:
    """Whether ``-q``/``--quiet`` was given (set by :func:`quiet_option`; read by :func:`done`)."""

    on = False


def quiet_option(f: F) -> F:
    """-q/--quiet: no progress bar and no closing "wrote ..." line on stderr (:func:`done`); notes,
    warnings and errors are still said, and the outputs written."""

    def remember(_ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
        Quiet.on = bool(value)
        return bool(value)

    return click.option(
        "--quiet",
        "-q",
        is_flag=True,
        callback=remember,
        help="No progress bar and no closing 'wrote' line (the outputs are written; notes, warnings and errors "
        "are still said).",
    )(f)


def done(message: str) -> None:
    """What a command did ("wrote ..."), on stderr unless ``--quiet``."""
    if not Quiet.on:
        say(message)


def say(message: str) -> None:
    """One message on stderr, printed as written (no markup); wrapped with a hanging indent
    at the terminal's width when stderr is a terminal (one line otherwise, for scripts)."""
    message = printable(message)
    if sys.stderr.isatty():
        import shutil
        import textwrap

        lead = " " * (len(message) - len(message.lstrip(" ")))
        width = shutil.get_terminal_size((80, 24)).columns
        message = textwrap.fill(
            message, width=width, subsequent_indent=lead + "    ", break_long_words=False, break_on_hyphens=False
        )
    print(message, file=sys.stderr)


def print_json(obj: Any) -> None:
    """Exactly one JSON object on stdout."""
    import json

    sys.stdout.write(json_printable(json.dumps(obj, ensure_ascii=False, allow_nan=True, default=_default)) + "\n")


def _default(value: Any) -> Any:
    if hasattr(value, "item"):
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "to_dict"):
        return value.to_dict()
    return str(value)


def fmt_score(value: Any) -> str:
    """A score for a table: 4 decimals, '-' when missing."""
    if value is None:
        return "-"
    try:
        return f"{float(value):.4f}"
    except (TypeError, ValueError):
        return str(value)


def examples(*lines: str) -> str:
    """An 'Examples:' block for a command's help, kept as written (click's \\b marker).

    Every line starting with ``segagree`` is run by tests/cli/test_cli_friendly.py in a copy of
    sample_corpora/, so examples must work there.
    """
    return "Examples:\n\n\b\n" + "\n".join(f"  {line}" for line in lines)


def json_option(what: str = "print one JSON object instead of tables") -> Callable[[F], F]:
    return click.option("--json", "json_out", is_flag=True, help=what[0].upper() + what[1:] + ".")


def csv_guard_option(f: F) -> F:
    """--csv-guard: report CSVs written for a spreadsheet, a ``'`` in front of each text cell starting
    with = + - @ (OWASP's rule against CSV injection; :mod:`segagree.files.cells`). By default they
    hold the data as it is, for pandas and R. It sets ``SEGAGREE_CSV_GUARD=1`` for the command, which
    every report CSV writer reads. ``--csv-raw``, the old switch to what is now the default, is
    accepted with a deprecation note."""

    @functools.wraps(f)
    def command(*args: Any, **kwargs: Any) -> Any:
        from segagree.files.cells import GUARD_ENV

        if kwargs.pop("csv_raw"):
            say(
                "note: --csv-raw is deprecated: report CSVs hold the data as it is by default now "
                "(--csv-guard writes them for a spreadsheet)"
            )
        if kwargs.pop("csv_guard"):
            os.environ[GUARD_ENV] = "1"
        return f(*args, **kwargs)

    raw = click.option("--csv-raw", is_flag=True, hidden=True)(command)
    return click.option(
        "--csv-guard",
        is_flag=True,
        help="Report CSVs for a spreadsheet: a ' in front of text starting with = + - @, so that a spreadsheet "
        "shows it instead of running it (by default they hold the data as it is, for pandas and R; numbers are "
        "never changed).",
    )(raw)


def output_option(help: str, *, metavar: str | None = None, file: bool = True) -> Callable[[F], F]:
    """-o/--output (required): an output file (``file=True``), or a file or folder."""
    return click.option(
        "-o", "--output", required=True, type=click.Path(dir_okay=not file, path_type=Path), metavar=metavar, help=help
    )


def count_option(name: str, help: str, *, default: int | None = None, metavar: str = "N") -> Callable[[F], F]:
    """A whole-number option of at least 1 (``--sims``, ``--jobs``, ...), its default shown."""
    return click.option(
        name, default=default, show_default=default is not None, type=AT_LEAST_ONE, metavar=metavar, help=help
    )


#: Every --seed: a whole number from 0 to 2^63 - 1 (numpy's generators take no negative seed;
#: ``segagree.toml``'s ``[kappa] seed`` has the same range).
SEED = click.IntRange(0, 2**63 - 1)


def seed_option(help: str, *, default: int | None = 12345) -> Callable[[F], F]:
    """--seed N (:data:`SEED`)."""
    return click.option(
        "--seed",
        default=default,
        show_default=default is not None,
        type=SEED,
        metavar="N",
        help=help,
    )


def split_names(_ctx: click.Context | None, _param: click.Parameter | None, values: Any) -> tuple[str, ...]:
    """A repeatable name option's values (``--metric pk --metric windowdiff`` or ``--metric pk,windowdiff``,
    or both) as one tuple of names in order, each once: every name given is used, none in silence."""
    if values is None:
        return ()
    items = (values,) if isinstance(values, str) else tuple(values)
    names = (part.strip() for item in items for part in str(item).split(","))
    return tuple(dict.fromkeys(name for name in names if name))


def pair_arguments(f: F) -> F:
    """FILE_A FILE_B: the two annotations of a pair (A is the reference where it matters)."""
    return click.argument("file_a", type=EXISTING_FILE)(click.argument("file_b", type=EXISTING_FILE)(f))


def scheme_option(f: F) -> F:
    return click.option("--scheme", metavar="NAME|FILE", help=SCHEME_HELP)(f)


def mode_option(f: F) -> F:
    return click.option("--mode", type=MODE_CHOICE, default=api.MODES[0], show_default=True, help=MODE_HELP)(f)


def max_mismatch_option(f: F) -> F:
    """--max-mismatch: the largest share of a speaker's tokens the alignment may leave unmatched."""
    return click.option(
        "--max-mismatch",
        type=click.FloatRange(0.0, 1.0),
        default=MAX_MISMATCH_DEFAULT,
        show_default=True,
        metavar="FRACTION",
        help="With alignment: the largest share of a speaker's tokens that may differ between the transcripts.",
    )(f)


@dataclass(frozen=True)
class Reading:
    """What the shared reading options chose: the input format (None: by extension) and the
    reader options the user set (readers refuse options they do not know)."""

    format: str | None
    options: dict[str, Any]

    def api_keywords(self) -> dict[str, Any]:
        """As the API's ``format`` and ``read_options`` keywords (compare, review, run...)."""
        return {"format": self.format, "read_options": self.options}


# The reading options every command that reads files takes: parameter name, option names, settings.
_READING: list[tuple[str, tuple[str, ...], dict[str, Any]]] = [
    (
        "from_",
        ("--from", "from_"),
        {
            "metavar": "FORMAT",
            "help": "Input format (default: by extension); e.g. text, csv, eaf, praat. See segagree formats.",
        },
    ),
    ("encoding", ("--encoding",), {"metavar": "NAME", "help": "Text encoding of the input files (default: detected)."}),
    (
        "tiers",
        ("--tier", "tiers"),
        {
            "multiple": True,
            "metavar": "NAME",
            "help": "ELAN/Praat tier to read as a speaker's units (repeat for several).",
        },
    ),
    (
        "speaker_tier",
        ("--speaker-tier",),
        {"metavar": "NAME", "help": "Praat: the tier whose labels name each unit's speaker."},
    ),
    (
        "word_tier",
        ("--word-tier",),
        {"metavar": "NAME", "help": "Praat: the word tier, or a pattern such as '{speaker}-words'."},
    ),
    (
        "gap_labels",
        ("--gap-label", "gap_labels"),
        {
            "multiple": True,
            "metavar": "LABEL",
            "help": "Praat, and every format with --time: a label that marks a gap, not a unit (repeat; default "
            "_, sil, <sil>, sp, <p:>, #; --gap-label '' for none). With --time the plan counts gaps per tier.",
        },
    ),
    (
        "chat_units",
        ("--chat-units",),
        {
            "type": click.Choice(["lines", "main-tiers"]),
            "help": "CHAT: a unit per bulleted line (the default where continuation lines carry their own "
            "bullets, as in SBCSAE) or one per main tier.",
        },
    ),
    (
        "no_speaker",
        ("--no-speaker",),
        {
            "metavar": "NAME",
            "help": "Transcriber: the speaker of text in a <Turn> without one (default: 'unknown', reported).",
        },
    ),
    (
        "speaker_from",
        ("--speaker-from",),
        {
            "type": click.Choice(["participant", "tier"]),
            "help": "ELAN: a unit tier's speaker is its PARTICIPANT (default; tiers sharing one are merged, "
            "reported) or the tier's own name.",
        },
    ),
]


def reading_options(f: F) -> F:
    """--from, --encoding, the tier options of the ELAN and Praat readers and CHAT's units,
    handed to the command as one ``reading: Reading`` parameter."""

    @functools.wraps(f)
    def command(*args: Any, **kwargs: Any) -> Any:
        chosen = {name: kwargs.pop(name) for name, _, _ in _READING}
        fmt = chosen.pop("from_")
        kwargs["reading"] = Reading(fmt, read_options(**chosen))
        return f(*args, **kwargs)

    for _, names, settings in reversed(_READING):
        command = click.option(*names, **settings)(command)
    return command


def read_options(**chosen: Any) -> dict[str, Any]:
    """The reader options the user set (:func:`segagree.api.reader_options` of the CLI's values)."""
    from segagree.api import reader_options

    return reader_options(**{k: v for k, v in chosen.items() if v not in (None, ())})


@dataclass(frozen=True)
class SpeakerLabels:
    """How speakers are paired: renames (``OLD -> NEW``, or None), whether labels are normalised,
    and whether only the speakers both annotations have are scored (``--common-speakers``)."""

    renames: dict[str, str] | None
    normalise: bool
    common: bool = False

    def api_keywords(self) -> dict[str, Any]:
        """As the API's speaker-pairing keywords (compare, agree, review, run)."""
        return {"normalise_speakers": self.normalise, "common_speakers": self.common, "speaker_map": self.renames}


def speaker_labels_option(f: F) -> F:
    """--rename OLD=NEW (repeatable), --keep-speaker-labels and --common-speakers, handed to the
    command as one ``speaker_labels: SpeakerLabels`` parameter."""

    @functools.wraps(f)
    def command(*args: Any, **kwargs: Any) -> Any:
        renames, keep = kwargs.pop("renames"), kwargs.pop("keep_speaker_labels")
        common = bool(kwargs.pop("common_speakers"))
        kwargs["speaker_labels"] = SpeakerLabels(speaker_map(renames), not keep, common)
        return f(*args, **kwargs)

    keep = click.option(
        "--keep-speaker-labels",
        is_flag=True,
        help="Pair speakers by their exact labels (by default 'F2:' and 'F2' are one speaker).",
    )(common_speakers_option(command))
    return click.option(
        "--rename",
        "renames",
        multiple=True,
        metavar="OLD=NEW",
        help="Rename a speaker in both files before pairing (repeat for several).",
    )(keep)


def common_speakers_option(f: F) -> F:
    """--common-speakers: score the speakers both annotations have, list the others."""
    return click.option(
        "--common-speakers",
        is_flag=True,
        default=None,
        help="Score only the speakers both annotations have (with words); the others are listed, not refused.",
    )(f)


def say_unpaired(unpaired: dict[str, list[str]] | None, what: str = "") -> None:
    """On stderr: the speakers one annotation has and the other lacks, left out of the scores."""
    for side, names in sorted((unpaired or {}).items()):
        if names:
            say(f"{what}not scored, speakers only in {side.upper()}: {', '.join(names)}")


def speaker_map(renames: tuple[str, ...]) -> dict[str, str] | None:
    """``("MAIA=MAYA", ...)`` -> ``{"MAIA": "MAYA"}``; a usage error names a bad item."""
    from segagree.errors import UsageError

    out: dict[str, str] = {}
    for item in renames:
        old, sep, new = item.partition("=")
        if not sep or not old.strip() or not new.strip():
            raise UsageError(f"--rename takes OLD=NEW, not {item!r}")
        out[old.strip()] = new.strip()
    return out or None


def check_writable(path: Path, *, folder: bool = False) -> None:
    """Refuse, naming the path, an output that cannot be written, before any work is done.

    ``path`` is an output file (or a folder with ``folder=True``) that may not exist yet; its
    nearest existing ancestor must be a folder we may write into.
    """
    from segagree.cli.streams import is_stdio
    from segagree.errors import SegagreeError

    if is_stdio(path) and not folder:
        return  # standard output (cli/streams.py)
    if path.exists():
        if folder and not path.is_dir():
            raise SegagreeError("a file is in the way: the output must be a folder", path=path)
        if not folder and path.is_dir():
            raise SegagreeError("is a folder; give an output file name", path=path)
        target = path if folder else path.parent
        if not os.access(target if folder else path, os.W_OK) or not os.access(target, os.W_OK | os.X_OK):
            raise SegagreeError("cannot write here (permission denied)", path=path)
        return
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise SegagreeError(f"cannot create it: {parent} is a file, not a folder", path=path)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise SegagreeError(f"cannot create it: no permission to write into {parent}", path=path)


# Where an option's value came from when the user gave it (not a default, nor a setting of segagree.toml).
_TYPED = ("COMMANDLINE", "ENVIRONMENT", "PROMPT")


def given_options() -> tuple[dict[str, str], dict[str, Any]]:
    """The running command's options the user gave (canonical flag -> as typed, e.g. ``--kappa`` ->
    ``--no-kappa``) and every option's value (canonical flag -> value), from click's parameter sources."""
    ctx = click.get_current_context()
    given: dict[str, str] = {}
    values: dict[str, Any] = {}
    for param in ctx.command.params:
        if not isinstance(param, click.Option) or param.name is None:
            continue
        flag = next((o for o in param.opts if o.startswith("--")), param.opts[0])
        value = values[flag] = ctx.params.get(param.name)
        source = ctx.get_parameter_source(param.name)
        if source is not None and source.name in _TYPED:
            given[flag] = param.secondary_opts[0] if param.secondary_opts and value is False else flag
    return given, values


def check_applicable(
    command: str, track: str, measures: Callable[[], Any] | None = None, *, choose: str = "--measure"
) -> None:
    """Refuse (exit 2, naming each) a given option that does not apply to ``track`` or to the chosen
    ``measures`` (see :mod:`segagree.scoring.options`; a callable, called only when needed)."""
    from segagree.errors import UsageError
    from segagree.scoring.options import check_options

    given, values = given_options()
    try:
        check_options(command, given, values, track=track, measures=measures, choose=choose)
    except UsageError as err:
        raise click.UsageError(err.message, click.get_current_context()) from None


def check_track(command: str, time_opts: dict[str, Any], *, first: int | None = None) -> None:
    """:func:`check_applicable` for a command with ``--time``: the time track and its measures (``--measure``,
    else the first ``first`` of the time group, else all), or the token track."""
    if time_opts["time_mode"]:
        check_applicable(command, "time", chosen_time_measures(time_opts["measures"], first))
    else:
        check_applicable(command, "token")


def chosen_time_measures(names: tuple[str, ...], default_count: int | None = None) -> Callable[[], list[str]]:
    """The time measures a ``--time`` command scores (for :func:`check_applicable`): ``names``, else the
    first ``default_count`` of the ``time`` group (review: the first, whose alignment it shows), else all."""

    def chosen() -> list[str]:
        from segagree.scoring.time.agreement import time_measures

        found = [m.name for m in time_measures(list(names) or None)]
        return found if names or default_count is None else found[:default_count]

    return chosen


def given_only(**values: Any) -> dict[str, Any]:
    """Those of ``values`` (keyed by parameter name) whose option the user gave, not left at its default."""
    ctx = click.get_current_context()
    out = {}
    for name, value in values.items():
        source = ctx.get_parameter_source(name)
        if source is not None and source.name in _TYPED:
            out[name] = value
    return out
