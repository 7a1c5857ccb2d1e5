"""Names in plots are data: a ``$`` in a label, speaker, text or file name is drawn as written.

matplotlib parses text between two ``$`` as mathtext (``$a$`` is drawn as math, ``$x^$`` raises
while the figure is drawn); an escaped ``\\$`` is a plain dollar sign. Every label made from data
goes through :func:`plain`; our own mathtext (``$S_f$`` in a legend) is written as such.
"""

from __future__ import annotations

from typing import Any


def plain(text: Any) -> str:
    """``text`` as a plot label drawn exactly as written (each ``$`` escaped)."""
    return str(text).replace("$", r"\$")


def plain_all(texts: Any) -> list[str]:
    """:func:`plain` of every label of a list."""
    return [plain(t) for t in texts]
