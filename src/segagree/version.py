"""The installed version of segagree, read from the package metadata on first use.

The version is written in one place, ``pyproject.toml``; this module (at the bottom layer, beside
:mod:`segagree.errors`) reads it through :mod:`importlib.metadata`, so every layer can name it
without importing the package top. It is read lazily: importing :mod:`importlib.metadata` costs
about 30 ms, which ``segagree --help`` should not pay.
"""

from __future__ import annotations

from functools import cache

__all__ = ["version"]


@cache
def version() -> str:
    """segagree's version as installed (``0+unknown`` in a source tree never installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version("segagree")
    except PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str) -> str:
    if name == "__version__":
        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
