"""The tests' forked command line (tests/cli_process.py) gives what a new interpreter gives."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import _imported_names, _needs_new_interpreter, run_cli

from conftest import REPO

SAMPLE = REPO / "sample_corpora"
ENV = {**os.environ, "PYTHONPATH": str(REPO / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _new_interpreter(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "segagree", *args], capture_output=True, text=True, cwd=cwd, env=ENV, timeout=300
    )


@pytest.mark.parametrize(
    "args",
    [
        ["compare", "garden.ann1.txt", "garden.ann2.txt", "--json"],
        ["agree", "garden.ann1.txt", "garden.ann2.txt", "--sims", "20", "-q"],
        ["compare", "garden.ann1.txt", "no-such-file.txt"],
        ["compare", "garden.ann1.txt", "garden.ann2.txt", "--no-such-option"],
        ["--version"],
    ],
    ids=["compare", "agree", "missing-file", "bad-option", "version"],
)
def test_forked_command_gives_what_a_new_interpreter_gives(args: list[str]) -> None:
    forked = run_cli(args, cwd=SAMPLE)
    new = _new_interpreter(args, SAMPLE)
    assert (forked.returncode, forked.stdout, forked.stderr) == (new.returncode, new.stdout, new.stderr)


def test_what_only_a_new_interpreter_shows_gets_one() -> None:
    assert _needs_new_interpreter(["run", "c", "--jobs", "2"], None)
    assert _needs_new_interpreter(["run", "c", "--jobs=3"], None)
    assert _needs_new_interpreter(["run", "c", "--backend", "dask"], None)
    assert _needs_new_interpreter(["compare", "a", "b"], {**ENV, "PYTHONIOENCODING": "latin-1"})
    assert not _needs_new_interpreter(["run", "c", "--jobs", "1"], {**ENV, "COLUMNS": "40"})


def test_a_variable_set_after_start_up_is_not_what_the_child_was_started_with(monkeypatch: pytest.MonkeyPatch) -> None:
    """The forked child's interpreter is the one this process started as: what counts is the
    environment it started with, not ``os.environ`` now (a Dask cluster's nanny sets
    ``PYTHONHASHSEED`` in it for good; every later command then paid a new interpreter)."""
    seed = str(int(os.environ.get("PYTHONHASHSEED", "0") or 0) + 1)
    monkeypatch.setenv("PYTHONHASHSEED", seed)
    assert not _needs_new_interpreter(["compare", "a", "b"], ENV)  # as this interpreter started
    assert _needs_new_interpreter(["compare", "a", "b"], {**ENV, "PYTHONHASHSEED": seed})  # as it did not


def test_the_preload_finds_every_imported_module() -> None:
    source = (
        "import a.b as c, d\nfrom e.f import (g,\n    h)\ndef run():\n    from i import j  # on first use\n"
        "from . import k\nfrom .l import m\nimport distributed\nfrom dask.distributed import Client\n"
    )
    # Relative imports are the package's own modules (preloaded anyway); Dask runs in a new interpreter.
    assert _imported_names(source) == ["a.b", "d", "e.f", "i"]
