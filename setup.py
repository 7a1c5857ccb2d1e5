"""Build hook: the wheel carries ``sample_corpora/`` as ``segagree/sample_corpora`` (package data).

The samples stay at the repository root, where the Makefile, the tests and the docs read them; an
installed segagree finds its copy through :func:`segagree.sample_corpora_path` and copies it out
with ``segagree demo DIR``, so the tour runs from a wheel. Everything else is in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SAMPLES = Path(__file__).resolve().parent / "sample_corpora"


class BuildWithSamples(build_py):
    """build_py, then the sample corpora copied into the built package (bytecode caches left out)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode or not SAMPLES.is_dir():
            return  # an editable install reads the clone's own sample_corpora/
        target = Path(self.build_lib) / "segagree" / "sample_corpora"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(SAMPLES, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildWithSamples})
