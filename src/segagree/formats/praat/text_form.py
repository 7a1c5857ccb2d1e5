"""A strict reader of Praat's TextGrid text files (long and short form), checking what they declare.

Praat's text serialisation of a TextGrid is one sequence of values, whether written in the long
form (``xmin = 0``, ``intervals [1]:``) or the short one (bare values, one per line): the file
type and class strings, the file's ``xmin`` and ``xmax``, ``<exists>``, the number of tiers;
per tier its class (``"IntervalTier"`` or ``"TextTier"``), name, ``xmin``, ``xmax`` and number
of items; per interval ``xmin``, ``xmax`` and a text, per point a time and a mark. Strings are
double-quoted with ``""`` for a quote and may span lines. The long form's labels (``xmin =``,
``item [2]:``) only decorate that sequence, so one tokenizer reads both forms. An exclamation mark outside a
string starts a comment that runs to the end of the line (Praat's "TextGrid file formats" page
writes its short-form example with such comments).

praatio accepts a file cut in the middle and returns fewer tiers or intervals
than the file declares, so reading checks every declaration against what follows: the tier and
item counts, finite non-negative times (at most ten days), ``xmin <= xmax`` everywhere, items
within their tier's range and tiers within the file's, intervals in order without overlap and
points in order. Each refusal names the line, the tier and the item. Gaps between intervals
(Praat requires them to tile the tier) are accepted and counted, as the writer fills them.

A plain interval (numbers, a string and the long form's usual labels) is read by one regex match
and checked as above; anything else, and every fault, is read token by token, so that an error
names the same line and item either way.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from segagree.errors import InputError
from segagree.formats.timing import MAX_SECONDS

# Tolerance for comparing interval ends (Praat writes times at full precision, but files from
# other tools round them).
EPS = 1e-6

_TOKEN = re.compile(
    # 1: a string. Unrolled ("" only between runs of other characters) rather than (?:[^"]|"")*,
    # whose every character pushes a backtracking state: a 10 MB label took 2 GB to match.
    r'"([^"]*(?:""[^"]*)*)"'
    r"|(<exists>|<absent>)"  # 2: a flag
    # 3: a number, as Praat reads one: a sign, a percent and a fraction allowed (see _real)
    r"|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?%?(?:/[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?%?)?(?![\w.%/])"
    r"|[-+]?(?:inf(?:inity)?|nan)(?!\w)|--undefined--)"  # (impossible numbers, refused later)
    r"|\[[^\]\n]*\]"  # a long-form index: item [1]:
    r"|[A-Za-z_][\w?]*"  # a long-form label word: xmin, intervals, tiers?
    r"|![^\n]*"  # a comment, to the end of the line (the manual's own short-form example has them)
    r"|[=:]"  # long-form punctuation
    r"|(\S)",  # 4: anything else is damage
    re.IGNORECASE,
)


# One whole interval as the tokenizer would read it, long form (``intervals [3]:`` ``xmin = 1``
# ``xmax = 2`` ``text = "a"``) or short (``1`` ``2`` ``"a"``): plain numbers and a string, with
# only the decoration the long form writes. The tokenizer ignores decoration, so whatever this
# matches it reads as the same three values; anything else is left to it.
_NUMBER = r"(\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)"
_INTERVAL = re.compile(
    r"\s*(?:intervals\s*\[\d+\]\s*:\s*xmin\s*=\s*)?"
    + _NUMBER
    + r"\s+(?:xmax\s*=\s*)?"
    + _NUMBER
    + r'\s+(?:text\s*=\s*)?"([^"]*(?:""[^"]*)*)"'  # the string unrolled, as in _TOKEN
)


@dataclass
class Item:
    """An interval (start < end or equal) or a point (start == end) with its label."""

    start: float
    end: float
    label: str
    line: int


@dataclass
class Tier:
    name: str
    is_interval: bool
    xmin: float
    xmax: float
    items: list[Item]
    line: int
    gaps: int = 0  # intervals that do not start where the previous one ended


@dataclass
class TextGridFile:
    xmin: float
    xmax: float
    tiers: list[Tier]


class _Tokens:
    """The file's values in order, with their line numbers."""

    def __init__(self, text: str, path: Path) -> None:
        self.path = path
        self.text = text
        self.newlines = [m.start() for m in re.finditer("\n", text)]
        self.iter: Iterator[re.Match[str]] = _TOKEN.finditer(text)
        self.line = 1
        self.pos = 0  # where the last value read ends

    def resume(self, pos: int, line: int) -> None:
        """Continue after values read elsewhere (ending at ``pos``, the last on ``line``)."""
        self.iter = _TOKEN.finditer(self.text, pos)
        self.pos, self.line = pos, line

    def error(self, message: str, where: str) -> InputError:
        """The error for a fault at the current line, in ``where`` (the object being read)."""
        return InputError(message, path=self.path, place=f"line {self.line}, {where}")

    def _line(self, pos: int) -> int:
        return bisect.bisect_right(self.newlines, pos) + 1

    def next(self, expected: str, where: str) -> tuple[str, str]:
        """The next value as (kind, text): kind is ``str``, ``flag`` or ``num``."""
        for m in self.iter:
            if m.group(1) is not None:
                self.line = self._line(m.start())
                self.pos = m.end()
                return "str", m.group(1).replace('""', '"')
            if m.group(2) is not None:
                self.line = self._line(m.start())
                self.pos = m.end()
                return "flag", m.group(2).lower()
            if m.group(3) is not None:
                self.line = self._line(m.start())
                self.pos = m.end()
                return "num", m.group(3)
            if m.group(4) is not None:
                self.line = self._line(m.start())
                what = "an unterminated string" if m.group(4) == '"' else f"{m.group(4)!r}"
                raise self.error(f"unexpected {what} where {expected} was expected", where)
        raise self.error(f"the file ends where {expected} was expected; it is cut short or damaged", where)

    def string(self, expected: str, where: str) -> str:
        kind, value = self.next(expected, where)
        if kind != "str":
            raise self.error(f"found {value!r} where {expected} (a quoted string) was expected", where)
        return value

    def number(self, expected: str, where: str) -> float:
        kind, value = self.next(expected, where)
        try:
            out = _real(value) if kind == "num" else math.nan
        except ValueError:
            out = math.nan
        if kind != "num" or not math.isfinite(out):
            raise self.error(f"found {value!r} where {expected} (a finite number) was expected", where)
        return out

    def time(self, expected: str, where: str) -> float:
        value = self.number(expected, where)
        if value < 0 or value > MAX_SECONDS:
            raise self.error(f"{expected} is {value!r}; expected a time from 0 to {MAX_SECONDS:.0f} s", where)
        return value

    def count(self, expected: str, where: str) -> int:
        value = self.number(expected, where)
        if value < 0 or value != int(value):
            raise self.error(f"{expected} is {value!r}; expected a whole number >= 0", where)
        return int(value)

    def at_end(self) -> tuple[int, str] | None:
        """None when only whitespace and long-form decoration remain, else (line, what)."""
        for m in self.iter:
            if m.group(1) is not None or m.group(2) is not None or m.group(3) is not None or m.group(4) is not None:
                return self._line(m.start()), m.group(0)[:30]
        return None


def _real(token: str) -> float:
    """A number token as Praat reads it (``getReal`` in Praat's sys/abcio.cpp and ``Melder_a8tof``
    in sys/melder_atof.cpp): an optional sign (``+1``), a trailing percent sign dividing by 100
    (``50%`` is 0.5), and a fraction ``numerator/denominator`` of two such numbers (``1/2``; a zero
    denominator is undefined: NaN, refused by the caller)."""
    if "/" in token:
        numerator, denominator = (_real(part) for part in token.split("/", 1))
        return numerator / denominator if denominator != 0 else math.nan
    if token.endswith("%"):
        return float(token[:-1]) * 0.01
    return float(token)


def parse_textgrid(text: str, path: Path) -> TextGridFile:
    """Parse a decoded TextGrid text file, checking every declaration (see the module docstring)."""
    tok = _Tokens(text, path)
    if tok.string("the file type", "header") != "ooTextFile":
        raise InputError('expected File type = "ooTextFile"', path=path, place=f"line {tok.line}")
    if tok.string("the object class", "header") != "TextGrid":
        raise InputError('expected Object class = "TextGrid"', path=path, place=f"line {tok.line}")
    xmin = tok.time("the file's xmin", "header")
    xmax = tok.time("the file's xmax", "header")
    if xmax < xmin:
        raise InputError(f"the file's xmax {xmax!r} is below its xmin {xmin!r}", path=path, place=f"line {tok.line}")
    kind, flag = tok.next("<exists> or <absent>", "header")
    if kind != "flag":
        raise InputError(f"found {flag!r} where tiers? <exists> was expected", path=path, place=f"line {tok.line}")
    n_tiers = tok.count("the number of tiers", "header") if flag == "<exists>" else 0
    tiers = [_tier(tok, k, n_tiers, xmin, xmax) for k in range(1, n_tiers + 1)]
    rest = tok.at_end()
    if rest is not None:
        raise InputError(
            f"unexpected {rest[1]!r} after the {n_tiers} tiers the header declares (size = {n_tiers})",
            path=path,
            place=f"line {rest[0]}",
        )
    return TextGridFile(xmin, xmax, tiers)


def _tier(tok: _Tokens, k: int, n_tiers: int, fxmin: float, fxmax: float) -> Tier:
    where = f"tier {k} of {n_tiers}"
    line = tok.line
    cls = tok.string("the tier class", where)
    if cls not in ("IntervalTier", "TextTier"):
        raise tok.error(f'tier class {cls!r}; expected "IntervalTier" or "TextTier"', where)
    name = tok.string("the tier name", where)
    where = f"tier {k} {name!r}"
    xmin = tok.time("the tier's xmin", where)
    xmax = tok.time("the tier's xmax", where)
    if xmax < xmin:
        raise tok.error(f"the tier's xmax {xmax!r} is below its xmin {xmin!r}", where)
    if xmin < fxmin - EPS or xmax > fxmax + EPS:
        raise tok.error(f"the tier's range {xmin:g}-{xmax:g} s lies outside the file's {fxmin:g}-{fxmax:g} s", where)
    is_interval = cls == "IntervalTier"
    noun = "interval" if is_interval else "point"
    n = tok.count(f"the number of {noun}s", where)
    tier = Tier(name, is_interval, xmin, xmax, [], line)
    prev_end = xmin
    items = tier.items
    fast = _INTERVAL.match if is_interval else None
    text, newlines = tok.text, tok.newlines
    pos, behind = tok.pos, False  # behind: the tokenizer has not followed the fast reads yet
    for i in range(1, n + 1):
        if fast is not None and (m := fast(text, pos)) is not None:
            # The usual interval, checked as below; any doubt re-reads it token by token.
            start, end = float(m[1]), float(m[2])
            if (
                0 <= start <= end <= MAX_SECONDS
                and start >= prev_end - EPS
                and start >= xmin - EPS
                and end <= xmax + EPS
            ):
                if start > prev_end + EPS:
                    tier.gaps += 1
                prev_end = end
                item_line = bisect.bisect_right(newlines, m.start(3) - 1) + 1
                items.append(Item(start, end, m[3].replace('""', '"'), item_line))
                pos, behind = m.end(), True
                continue
        if behind:
            tok.resume(pos, item_line)
            behind = False
        here = f"{where}, {noun} {i} of {n}"
        if is_interval:
            start = tok.time("the interval's xmin", here)
            end = tok.time("the interval's xmax", here)
            label = tok.string("the interval's text", here)
            if end < start:
                raise tok.error(f"the interval ends ({end:g} s) before it starts ({start:g} s)", here)
            if start < prev_end - EPS:
                raise tok.error(
                    f"the interval starts ({start:g} s) before the previous one ends ({prev_end:g} s); "
                    "expected intervals in time order without overlap",
                    here,
                )
            if start > prev_end + EPS:
                tier.gaps += 1
            prev_end = end
        else:
            start = end = tok.time("the point's time", here)
            label = tok.string("the point's mark", here)
            if start < prev_end - EPS:
                raise tok.error(
                    f"the point ({start:g} s) comes before the previous one ({prev_end:g} s); "
                    "expected points in time order",
                    here,
                )
            prev_end = start
        if start < xmin - EPS or end > xmax + EPS:
            raise tok.error(f"the {noun} ({start:g}-{end:g} s) lies outside its tier's range {xmin:g}-{xmax:g} s", here)
        tier.items.append(Item(start, end, label, tok.line))
        pos = tok.pos
    if behind:
        tok.resume(pos, item_line)
    return tier


# --- writing -------------------------------------------------------------------------------


def _num(x: float) -> str:
    """A time as Praat writes it: shortest exact decimal, no trailing ``.0``."""
    text = repr(float(x))
    return text[:-2] if text.endswith(".0") else text


def _quote(label: str) -> str:
    return '"' + label.replace('"', '""') + '"'


def tiled(tier: Tier) -> list[Item]:
    """The tier's intervals with empty ones filling every gap from its xmin to its xmax."""
    out: list[Item] = []
    cur = tier.xmin
    for it in tier.items:
        if it.start > cur:
            out.append(Item(cur, it.start, "", 0))
        out.append(it)
        cur = it.end
    if cur < tier.xmax or not out:
        out.append(Item(cur, tier.xmax, "", 0))
    return out


def _point_tier_lines(tier: Tier, k: int, long: bool) -> list[str]:
    """A point tier (``TextTier``) in Praat's long or short text form."""
    if not long:
        out = ['"TextTier"', _quote(tier.name), _num(tier.xmin), _num(tier.xmax), str(len(tier.items))]
        for it in tier.items:
            out += [_num(it.start), _quote(it.label)]
        return out
    out = [
        f"    item [{k}]:",
        '        class = "TextTier" ',
        f"        name = {_quote(tier.name)} ",
        f"        xmin = {_num(tier.xmin)} ",
        f"        xmax = {_num(tier.xmax)} ",
        f"        points: size = {len(tier.items)} ",
    ]
    for i, it in enumerate(tier.items, start=1):
        out += [
            f"        points [{i}]:",
            f"            number = {_num(it.start)} ",
            f"            mark = {_quote(it.label)} ",
        ]
    return out


def dump_textgrid(tg: TextGridFile, *, long: bool = True) -> str:
    """The Praat text form of a TextGrid (long or short): interval tiers with gaps filled with empty
    intervals, point tiers (``TextTier``) with their points.

    The caller guarantees ordered, non-overlapping intervals inside each tier's range and tiers
    inside the file's range (what :func:`parse_textgrid` checks on reading).
    """
    lines = ['File type = "ooTextFile"', 'Object class = "TextGrid"', ""]
    if long:
        lines += [
            f"xmin = {_num(tg.xmin)} ",
            f"xmax = {_num(tg.xmax)} ",
            "tiers? <exists> ",
            f"size = {len(tg.tiers)} ",
            "item []: ",
        ]
    else:
        lines += [_num(tg.xmin), _num(tg.xmax), "<exists>", str(len(tg.tiers))]
    for k, tier in enumerate(tg.tiers, start=1):
        if not tier.is_interval:
            lines += _point_tier_lines(tier, k, long)
            continue
        items = tiled(tier)
        if long:
            lines += [
                f"    item [{k}]:",
                '        class = "IntervalTier" ',
                f"        name = {_quote(tier.name)} ",
                f"        xmin = {_num(tier.xmin)} ",
                f"        xmax = {_num(tier.xmax)} ",
                f"        intervals: size = {len(items)} ",
            ]
            for i, it in enumerate(items, start=1):
                lines += [
                    f"        intervals [{i}]:",
                    f"            xmin = {_num(it.start)} ",
                    f"            xmax = {_num(it.end)} ",
                    f"            text = {_quote(it.label)} ",
                ]
        else:
            lines += ['"IntervalTier"', _quote(tier.name), _num(tier.xmin), _num(tier.xmax), str(len(items))]
            for it in items:
                lines += [_num(it.start), _num(it.end), _quote(it.label)]
    return "\n".join(lines) + "\n"
