"""The installed version of segagree, read from the package metadata on first use.

The version is written in one place, ``pyproject.toml``; installing segagree (editable or not)
copies it into ``segagree-VERSION.dist-info/METADATA``, and this module (at the bottom layer,
beside :mod:`segagree.errors`) reads it from there, so every layer can name it without importing
the package top. It is read lazily, and the fast way: the first ``segagree-*.dist-info`` folder
along ``sys.path`` (the one :mod:`importlib.metadata` would find), its ``METADATA`` read up to the
``Version:`` header. Importing :mod:`importlib.metadata` costs about 30 ms (it parses the headers
with :mod:`email`), more than ``segagree --version`` may take; it stays the fallback for what the
fast path does not handle (an ``.egg-info``, a zip on the path).
"""

from __future__ import annotations

import os
import sys
from functools import cache

__all__ = ["version"]

DIST = "segagree"


def _scan_path() -> str | None:
    """The Version header of the first ``segagree-*.dist-info/METADATA`` along ``sys.path``;
    None if the first installation found is not a dist-info folder (or there is none)."""
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # not a folder (a zip), or gone
            continue
        for name in names:
            low = name.lower()
            if not low.startswith(DIST + "-"):
                continue
            if low.endswith(".egg-info"):
                return None  # an older layout: importlib.metadata reads it
            if low.endswith(".dist-info"):
                return _metadata_version(os.path.join(entry or ".", name, "METADATA"))
    return None


def _metadata_version(path: str) -> str | None:
    """The ``Version:`` header of a core-metadata file (headers end at the first blank line)."""
    try:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    break
                if line.startswith("Version:"):
                    return line.partition(":")[2].strip()
    except OSError:
        return None
    return None


@cache
def version() -> str:
    """segagree's version as installed (``0+unknown`` in a source tree never installed)."""
    fast = _scan_path()
    if fast:
        return fast
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version(DIST)
    except PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str) -> str:
    if name == "__version__":
        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
