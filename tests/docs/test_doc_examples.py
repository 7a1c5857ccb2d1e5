"""The documentation's examples run as written: every ```python block of the pages (docs/*.md)
and the README, and every ``segagree`` command of the pages written for sample_corpora/ (the tour,
the panel, the README's tour), in a copy of sample_corpora/. A block that is an illustration (its
files are not in sample_corpora) says so with a ``<!-- not-run: why -->`` line right before it."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import run_cli

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
BLOCK = re.compile(r"(<!-- not-run[^>]*-->\n)?```(python|sh)\n(.*?)```", re.S)
# Pages whose shell examples are written to run in sample_corpora/.
RUNNABLE_SHELL = {"README.md", "tour.md", "panel.md"}


def _blocks(kind: str) -> list[tuple[str, int, str, bool]]:
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            if m.group(2) == kind:
                line = text.count("\n", 0, m.start(2)) + 1
                out.append((page.name, line, m.group(3), m.group(1) is not None))
    return out


PYTHON = _blocks("python")
COMMANDS = [
    (page, line + i, cmd.split("#", 1)[0].strip())
    for page, line, body, marked in _blocks("sh")
    if page in RUNNABLE_SHELL and not marked
    for i, cmd in enumerate(body.splitlines(), 1)
    if cmd.startswith("segagree ")
]


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    copy = tmp_path / "sample_corpora"
    shutil.copytree(REPO / "sample_corpora", copy, ignore=shutil.ignore_patterns("tools"))
    return copy


def test_the_pages_have_examples_and_every_skipped_one_says_why() -> None:
    assert len([b for b in PYTHON if not b[3]]) >= 4
    assert len(COMMANDS) >= 10
    for page, line, _body, marked in PYTHON:
        if marked:
            text = (REPO / ("README.md" if page == "README.md" else f"docs/{page}")).read_text(encoding="utf-8")
            assert re.search(r"<!-- not-run: \S", text), (page, line)


@pytest.mark.parametrize("block", [b for b in PYTHON if not b[3]], ids=lambda b: f"{b[0]}:{b[1]}")
def test_python_examples_run(block: tuple[str, int, str, bool], sample: Path) -> None:
    page, line, code, _ = block
    proc = subprocess.run([sys.executable, "-c", code], cwd=sample, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{page}:{line}\n{proc.stderr}"


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: f"{c[0]}:{c[1]}")
def test_shell_examples_run(command: tuple[str, int, str], sample: Path) -> None:
    page, line, cmd = command
    proc = run_cli(shlex.split(cmd)[1:], cwd=sample)
    assert proc.returncode == 0, f"{page}:{line}: {cmd}\n{proc.stderr}"
    assert "Traceback" not in proc.stderr


def test_every_page_is_in_the_table_of_contents() -> None:
    """A page outside every toctree is a warning, so `make docs` (-W) fails; said here first."""
    index = (REPO / "docs" / "index.md").read_text(encoding="utf-8")
    listed = {line.strip() for line in index.splitlines()}
    missing = [p.stem for p in (REPO / "docs").glob("*.md") if p.stem != "index" and p.stem not in listed]
    assert not missing, f"pages not in docs/index.md's table of contents: {missing}"
