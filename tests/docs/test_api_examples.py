"""The examples of the API's docstrings run as written, each function's in its own copy of the
sample corpora (where the docstrings say they run), and print what they show."""

from __future__ import annotations

import doctest
import inspect
import os
import shutil
from pathlib import Path

import pytest

import segagree
from segagree.api import PUBLIC

from conftest import REPO

FUNCTIONS = {name: getattr(segagree, name) for name in PUBLIC if inspect.isfunction(getattr(segagree, name))}
WITH_EXAMPLES = sorted(name for name, f in FUNCTIONS.items() if ">>>" in (f.__doc__ or ""))
# What an example needs that the sample corpora do not hold: word times and a recording of speech
# (the pause baseline), a long grid of degraded subtitle files (the study: minutes of work).
NO_EXAMPLE = {"pause_baseline", "study"}


def test_every_public_function_says_what_it_raises_or_shows_an_example() -> None:
    assert set(FUNCTIONS) - set(WITH_EXAMPLES) <= NO_EXAMPLE
    raising = [n for n, f in FUNCTIONS.items() if "Raises:" in (f.__doc__ or "")]
    assert len(raising) >= 24


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_the_docstring_example_prints_what_it_shows(name: str, tmp_path: Path) -> None:
    copy = tmp_path / "samples"
    shutil.copytree(REPO / "sample_corpora", copy, ignore=shutil.ignore_patterns("tools"))
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    before = Path.cwd()
    os.chdir(copy)
    try:
        for test in finder.find(FUNCTIONS[name], name, globs={"segagree": segagree}):
            runner.run(test)
    finally:
        os.chdir(before)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0, f"{name}'s example failed (see the output above)"
