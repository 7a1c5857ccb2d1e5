"""CHAT lines: records (a header, main tier or dependent tier with its continuation lines),
time bullets, and the lines of a main tier that are units of their own.

A main tier may run over several lines, each continuation line starting with a tab. In plain
CHAT these are wraps of one utterance with (at most) one bullet at the end. In SBCSAE as
TalkBank publishes it (CA-CHAT, ``@Options: CA, bullets``) every intonation unit is one line, the
main-tier line or a continuation line, each ending in its own time bullet: the *IU layout*.
:func:`line_segments` cuts a main tier after every line that ends in a bullet; a wrapped line
without a bullet belongs to the segment its bullet closes.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from segagree.errors import InputError
from segagree.formats.chat.marks import BULLET
from segagree.formats.checks import MAX_SECONDS

MAIN = re.compile(r"^\*([^:\s]+):[ \t]?(.*)$")
DEP = re.compile(r"^%([^:\s]+):[ \t]?(.*)$")
HEADER = re.compile(r"^@([^:\t]*?)\s*(?::[ \t]*(.*))?$")
_BULLET_TIMES = re.compile(r"(?:^|_)(\d+)_(\d+)$")
_ENDS_IN_BULLET = re.compile("\x15[^\x15]*\x15\\s*$")


class Record:
    """One logical line: a header, main tier or dependent tier with its continuation lines."""

    __slots__ = ("kind", "tag", "lines", "line")

    def __init__(self, kind: str, tag: str, line: int, raw: str) -> None:
        self.kind, self.tag, self.line, self.lines = kind, tag, line, [raw]

    @property
    def content(self) -> str:
        """The text after ``*CODE:`` / ``%tier:`` / ``@Header:``, continuation lines joined."""
        return content_of(self.lines, self.kind)


def content_of(lines: list[str], kind: str = "*") -> str:
    """The text of record lines: the first without its ``*CODE:`` (if it has one), the others
    stripped, joined by spaces."""
    first = lines[0]
    if first[:1] in (" ", "\t"):
        head = first.strip()
    else:
        m = (MAIN if kind == "*" else DEP if kind == "%" else HEADER).match(first)
        head = (m.group(2) or "") if m else ""
    return " ".join([head, *(ln.strip() for ln in lines[1:])])


def records(text: str) -> tuple[list[Record | str], int]:
    """Records and loose lines (str) in file order, and how many lines could not be placed."""
    out: list[Record | str] = []
    current: Record | None = None
    stray = 0
    for n, line in enumerate(text.split("\n"), start=1):
        if line.endswith("\r"):
            line = line[:-1]
        if line[:1] in (" ", "\t") and current is not None:
            current.lines.append(line)
            continue
        main = MAIN.match(line) if line.startswith("*") else None
        dep = DEP.match(line) if line.startswith("%") else None
        if main:
            current = Record("*", main.group(1), n, line)
        elif dep:
            current = Record("%", dep.group(1), n, line)
        elif line.startswith("@"):
            m = HEADER.match(line)
            # A header the pattern cannot split (a tab inside its name) keeps its first word as tag.
            tag = (m.group(1) or "") if m else re.split(r"[:\s]", line[1:], maxsplit=1)[0]
            current = Record("@", tag.strip(), n, line)
        else:
            current = None
            if line.strip():
                stray += 1
            out.append(line)
            continue
        out.append(current)
    if out and out[-1] == "":
        out.pop()  # the final newline
    return out, stray


def line_segments(lines: list[str]) -> list[list[str]]:
    """A main tier's lines cut after every line that ends in a time bullet (see the module
    docstring); lines after the last bullet join the last segment."""
    segments: list[list[str]] = [[]]
    for line in lines:
        segments[-1].append(line)
        if _ENDS_IN_BULLET.search(line):
            segments.append([])
    if not segments[-1]:
        segments.pop()
    if len(segments) > 1 and not any(_ENDS_IN_BULLET.search(ln) for ln in segments[-1]):
        segments[-2].extend(segments.pop())
    return segments


def bullet_times(text: str, path: Path, line: int) -> list[tuple[float, float]]:
    """The ``(start, end)`` seconds of every bullet in ``text``; a clear error for a bad one."""
    out = []
    for m in BULLET.finditer(text):
        times = _BULLET_TIMES.search(m.group(1).strip())
        if times is None:
            raise InputError(
                f"bad time bullet {m.group(1)!r}; expected START_END in milliseconds",
                path=path,
                place=f"line {line}",
            )
        # (Compare digit counts first: int('9' * 400) / 1000 overflows a float.)
        too_long = max(len(times.group(1).lstrip("0")), len(times.group(2).lstrip("0"))) > 12
        s, e = (math.inf, math.inf) if too_long else (int(times.group(1)) / 1000.0, int(times.group(2)) / 1000.0)
        if max(s, e) > MAX_SECONDS:
            raise InputError(
                f"time bullet {m.group(1)!r} lies beyond {MAX_SECONDS:.0f} s; expected milliseconds of a recording",
                path=path,
                place=f"line {line}",
            )
        out.append((s, e))
    if text.count("\x15") % 2:
        raise InputError("unpaired time bullet mark (\\x15)", path=path, place=f"line {line}")
    return out


def bullet_times_quiet(text: str) -> list[tuple[float, float]]:
    """The bullets' times of a line already read (no errors: what the reader accepted)."""
    out = []
    for m in BULLET.finditer(text):
        times = _BULLET_TIMES.search(m.group(1).strip())
        if times and max(len(times.group(1)), len(times.group(2))) <= 15:
            out.append((int(times.group(1)) / 1000.0, int(times.group(2)) / 1000.0))
    return out


def span(times: list[tuple[float, float]]) -> tuple[float | None, float | None]:
    """The smallest start and the largest end of some bullets (None, None without bullets)."""
    if not times:
        return None, None
    return min(s for s, _ in times), max(e for _, e in times)
