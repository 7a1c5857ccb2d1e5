"""Names are data on the terminal too: control characters from files never reach it raw.

A speaker, tier or file name can hold an escape sequence (``ESC ] 0 ;`` sets the window title,
``ESC [ 2 J`` clears the screen), a C1 control (``U+009B`` is a one-byte CSI on some terminals),
a carriage return that overwrites the line, or a bidi override (``U+202E``) that shows text in
another order than it is. :func:`printable` writes each as a visible escape (``\\x1b``,
``\\u202e``); tab and line feed stay. The command line's streams go through :class:`SafeStream`
(installed by :func:`segagree.cli.main`), its rich consoles through :func:`printable` on every
string they render (markup off), and ``--json`` escapes the same characters as JSON ``\\u`` escapes.
Kept free of heavy imports: the command line's start-up loads it.
"""

from __future__ import annotations

import re
from typing import IO, Any

# C0 but tab and line feed, DEL, C1, and the bidi embeddings, overrides, isolates and marks.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


# The style reset, which only ends colours and styles: what a library writes alone (colorama, which
# numba starts, writes it at exit), passed as it is; any other sequence is shown as an escape.
RESETS = frozenset({"\x1b[0m", "\x1b[m"})


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every character that would steer a terminal written as a visible escape."""
    return UNSAFE.sub(_escape, text) if UNSAFE.search(text) else text


def json_printable(text: str) -> str:
    """A JSON document with the same characters as ``\\uXXXX`` escapes (the same JSON value: they
    can only stand inside strings)."""
    return UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class SafeStream:
    """A text stream that writes through :func:`printable`; everything else is the stream's own.
    rich writes its own styling to the stream underneath (``rich_proxied_file``) and cleans the
    data it renders itself (:func:`segagree.cli.common.stdout`)."""

    def __init__(self, stream: IO[str]) -> None:
        self.rich_proxied_file = stream

    def write(self, text: str) -> int:
        if text in RESETS:  # a library's own reset, written alone (colorama's at exit, for numba)
            return self.rich_proxied_file.write(text)
        return self.rich_proxied_file.write(printable(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rich_proxied_file, name)


def install() -> None:
    """Route ``sys.stdout`` and ``sys.stderr`` through :class:`SafeStream` (once)."""
    import sys

    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and not isinstance(stream, SafeStream):
            setattr(sys, name, SafeStream(stream))
