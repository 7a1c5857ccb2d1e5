"""The documentation's examples run as written, in a copy of sample_corpora/ (the working folder the
pages assume): every ```python block of the pages (docs/*.md) and the README, and every line of a
```sh / ```console / ```bash block that starts with ``segagree `` (``$ segagree`` in a console
block) whose input files are in sample_corpora/. A block that is an illustration says so with a
``<!-- not-run: why -->`` line right before its fence; a command whose files are absent from an
unmarked block fails here, so no example is left out in silence, and the marked ones are counted."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from cli_process import run_cli

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_corpora"
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
SHELL = ("sh", "console", "bash", "shell")
# A fenced block, with the not-run marker (an HTML comment, invisible on GitHub and in the site) on
# the line right before it.
BLOCK = re.compile(r"^(<!-- not-run(?P<why>[^>]*)-->\n)?```(?P<lang>[\w-]+)[^\n]*\n(?P<body>.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    lang: str
    body: str
    not_run: str | None  # the marker's reason; None for a block that runs

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def _blocks() -> list[Block]:
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            line = text.count("\n", 0, m.start("lang")) + 1
            why = m.group("why")
            out.append(Block(page.name, line, m.group("lang"), m.group("body"), None if why is None else why.strip()))
    return out


BLOCKS = _blocks()
PYTHON = [b for b in BLOCKS if b.lang == "python"]


def _commands(block: Block) -> list[tuple[int, str]]:
    """The ``segagree`` command lines of a shell block: continuation lines joined, a console
    block's ``$`` prompt and every trailing comment removed."""
    out = []
    lines = block.body.splitlines()
    i = 0
    while i < len(lines):
        start = i
        line = lines[i]
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + " " + lines[i].strip()
        i += 1
        if block.lang == "console" and not line.startswith("$ "):
            continue  # a console block's output lines
        line = line.strip().removeprefix("$ ")
        if line.startswith("segagree "):
            out.append((block.line + 1 + start, shlex.split(line, comments=True)))
    return [(n, shlex.join(words)) for n, words in out]


def _options_taking_values(name: str) -> set[str]:
    """The options of command ``name`` that take a value (``-o OUT``), from the click command."""
    from segagree.cli.group import app

    command = app.get_command(click.Context(app), name)
    out: set[str] = set()
    for param in command.params if command is not None else []:
        if isinstance(param, click.Option) and not (param.is_flag or param.count):
            out.update(param.opts + param.secondary_opts)
    return out


def _input_files(words: list[str]) -> list[str]:
    """The paths a command reads: its positional arguments that name a file or folder (options'
    values, such as ``-o OUT``, are outputs or settings)."""
    takes_value = _options_taking_values(words[1])
    found = []
    skip = False
    for word in words[2:]:
        if skip:
            skip = False
        elif word in takes_value:
            skip = True
        elif not word.startswith("-") and ("/" in word or "." in word):
            found.append(word)
    return found


def _written(words: list[str]) -> list[str]:
    """What a command may write: its options' values (``-o OUT``, ``--ops FILE``, ...)."""
    takes_value = _options_taking_values(words[1])
    return [value for option, value in zip(words[2:], words[3:], strict=False) if option in takes_value]


def _absent_inputs(commands: list[tuple[int, str]]) -> list[tuple[int, str, list[str]]]:
    """The commands of a block whose inputs are neither in sample_corpora nor written by an earlier
    command of the block (a block's commands run in order, in one copy of sample_corpora)."""
    out = []
    written: list[str] = []
    for line, cmd in commands:
        words = shlex.split(cmd)
        made = [w.rstrip("/") for w in written]
        absent = [
            f
            for f in _input_files(words)
            if not (SAMPLE / f).exists() and not any(f.rstrip("/") == w or f.startswith(w + "/") for w in made)
        ]
        if absent:
            out.append((line, cmd, absent))
        written += _written(words)
    return out


SHELL_BLOCKS = [b for b in BLOCKS if b.lang in SHELL and _commands(b)]
RUNNABLE = [b for b in SHELL_BLOCKS if b.not_run is None]
NOT_RUN = [b for b in SHELL_BLOCKS if b.not_run is not None]


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    copy = tmp_path / "sample_corpora"
    shutil.copytree(SAMPLE, copy, ignore=shutil.ignore_patterns("tools"))
    return copy


def test_the_examples_are_counted_and_every_one_not_run_says_why() -> None:
    """What runs and what does not is counted (printed with ``-s``); a marker names its reason."""
    python_run = [b for b in PYTHON if b.not_run is None]
    commands_run = sum(len(_commands(b)) for b in RUNNABLE)
    print(
        f"\ndocumentation examples: {len(python_run)} python blocks run, {len(PYTHON) - len(python_run)} marked"
        f" not-run; {commands_run} segagree commands run (in {len(RUNNABLE)} blocks),"
        f" {sum(len(_commands(b)) for b in NOT_RUN)} in {len(NOT_RUN)} blocks marked not-run"
    )
    assert len(python_run) >= 4
    assert commands_run >= 30
    for block in BLOCKS:
        if block.not_run is not None:
            assert block.not_run.startswith(":") and block.not_run[1:].strip(), (
                f"{block.where}: write the marker as <!-- not-run: the reason -->"
            )


def test_every_command_of_an_unmarked_block_has_its_files() -> None:
    """A command the tests cannot run (its files are not in sample_corpora) must be in a block marked
    not-run: else it would be skipped in silence."""
    missing = [
        f"{block.page}:{line}: {cmd} (no {', '.join(absent)})"
        for block in RUNNABLE
        for line, cmd, absent in _absent_inputs(_commands(block))
    ]
    assert not missing, "mark these blocks <!-- not-run: why --> or use sample_corpora's files:\n" + "\n".join(missing)


def test_the_command_parser_finds_inputs_not_outputs() -> None:
    words = ["segagree", "review", "a.eaf", "b.eaf", "-o", "out.xlsx", "--margin", "0.5"]
    assert _input_files(words) == ["a.eaf", "b.eaf"]
    assert _written(words) == ["out.xlsx", "0.5"]
    assert _input_files(["segagree", "panel", "panel", "--machine", "seg"]) == []
    commands = [(1, "segagree run . -o results"), (2, "segagree adjudicate results/review/x.xlsx -o x.eaf")]
    assert _absent_inputs(commands) == []
    assert _absent_inputs(commands[1:]) == [(2, commands[1][1], ["results/review/x.xlsx"])]
    block = Block("x.md", 10, "console", "$ segagree compare a.txt \\\n    b.txt  # two files\nsegagree x\n", None)
    assert _commands(block) == [(11, "segagree compare a.txt b.txt")]  # "segagree x" is its output
    sh = Block("x.md", 10, "sh", "segagree compare a.txt \\\n    b.txt  # two files\nsegagree x\n", None)
    assert _commands(sh) == [(11, "segagree compare a.txt b.txt"), (13, "segagree x")]


@pytest.mark.parametrize("block", [b for b in PYTHON if b.not_run is None], ids=lambda b: b.where)
def test_python_examples_run(block: Block, sample: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", block.body], cwd=sample, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{block.where}\n{proc.stderr}"


def _shown_outputs(block: Block) -> list[tuple[int, str, list[str]]]:
    """A console block's commands (``$ segagree ...``) with the output lines the page shows under
    each (``...`` stands for lines left out)."""
    out: list[tuple[int, str, list[str]]] = []
    for i, line in enumerate(block.body.splitlines()):
        if line.startswith("$ "):
            out.append((block.line + 1 + i, line[2:].split("  #")[0].strip(), []))
        elif out:
            out[-1][2].append(line)
    return out


def _normalised(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def shows_in_order(shown: list[str], printed: str) -> str | None:
    """None when every line ``shown`` (``...`` skipped) is a line of ``printed``, in order and
    whitespace aside; else the first shown line that is not."""
    lines = _normalised(printed)
    at = 0
    for want in _normalised("\n".join(shown)):
        if want == "...":
            continue
        while at < len(lines) and lines[at] != want:
            at += 1
        if at == len(lines):
            return want
        at += 1
    return None


def test_shown_output_is_matched_line_by_line_in_order() -> None:
    printed = "a  b\nc\nd\n"
    assert shows_in_order(["a b", "...", "d"], printed) is None
    assert shows_in_order(["d", "c"], printed) == "c"
    assert shows_in_order(["e"], printed) == "e"


CONSOLE = [b for b in RUNNABLE if b.lang == "console" and any(shown for _, _, shown in _shown_outputs(b))]


@pytest.mark.parametrize("block", CONSOLE, ids=lambda b: b.where)
def test_console_examples_print_what_the_page_shows(block: Block, sample: Path) -> None:
    """A console block shows a command's output: run at 80 columns, it prints those lines."""
    for line, cmd, shown in _shown_outputs(block):
        proc = run_cli(shlex.split(cmd)[1:], cwd=sample, env={**os.environ, "COLUMNS": "80"})
        assert proc.returncode == 0, f"{block.page}:{line}: {cmd}\n{proc.stderr}"
        missing = shows_in_order(shown, proc.stdout + proc.stderr)
        assert missing is None, f"{block.page}:{line}: {cmd} no longer prints {missing!r}:\n{proc.stdout}{proc.stderr}"


@pytest.mark.parametrize("block", [b for b in RUNNABLE if b not in CONSOLE], ids=lambda b: b.where)
def test_shell_examples_run(block: Block, sample: Path) -> None:
    """A block's commands in order, in one copy of sample_corpora (a later one may read what an
    earlier one wrote)."""
    for line, cmd in _commands(block):
        proc = run_cli(shlex.split(cmd)[1:], cwd=sample)
        assert proc.returncode == 0, f"{block.page}:{line}: {cmd}\n{proc.stdout}\n{proc.stderr}"
        assert "Traceback" not in proc.stderr
