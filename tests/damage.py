"""Seeded damage for fuzzing readers: small byte- and line-level mutations of a file's bytes.

Each mutation takes the file's bytes and a :class:`random.Random` and returns damaged bytes,
the way files get damaged in practice: cut short (an interrupted copy), bits flipped, lines
deleted or repeated (a bad merge), numbers replaced by impossible ones (inf, 1e308, 10^22,
negative), and, for JSON, a node replaced by one of another type. :func:`mutate` applies a
named or random one; :func:`fuzz_cases` yields reproducible ``(case id, mutation, bytes)``
cases: the case id names the seed, so a failure reruns with ``mutate(raw, Random(case id))``.

``SEGAGREE_FUZZ_CASES`` sets how many cases a fuzz test runs per adapter (:func:`case_count`);
``make test`` uses the default, ``make fuzz`` a large number.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import random
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

DEFAULT_CASES = 300

_NUMBER = re.compile(rb"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])")
EXTREME_NUMBERS: tuple[bytes, ...] = (
    b"inf",
    b"-inf",
    b"nan",
    b"NaN",
    b"Infinity",
    b"1e308",
    b"1e309",
    b"-1e308",
    b"1e22",
    b"10000000000000000000000",
    b"-1",
    b"-0.5",
    b"1e-320",
    b"0x10",
    b"",
    b"1.5.5",
    b"99999999999999999999999999999999999999",
)
OTHER_TYPES: tuple[Any, ...] = ([], {}, "x", "", 1, -1, 1.5, 1e308, None, True, [1, "a"], {"a": 1})


def case_count(default: int = DEFAULT_CASES) -> int:
    """Cases per adapter: ``SEGAGREE_FUZZ_CASES`` or ``default``."""
    try:
        return max(1, int(os.environ.get("SEGAGREE_FUZZ_CASES", default)))
    except ValueError:
        return default


def truncate(raw: bytes, rng: random.Random) -> bytes:
    """The file cut at a random offset (never empty, never whole)."""
    if len(raw) < 2:
        return raw
    return raw[: rng.randrange(1, len(raw))]


def flip_bits(raw: bytes, rng: random.Random) -> bytes:
    """One to three random bits flipped."""
    if not raw:
        return raw
    out = bytearray(raw)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(out))
        out[i] ^= 1 << rng.randrange(8)
    return bytes(out)


def _lines(raw: bytes) -> list[bytes]:
    return raw.splitlines(keepends=True)


def delete_line(raw: bytes, rng: random.Random) -> bytes:
    """One line removed (or, in a one-line file, a random slice)."""
    lines = _lines(raw)
    if len(lines) < 2:
        return delete_span(raw, rng)
    del lines[rng.randrange(len(lines))]
    return b"".join(lines)


def duplicate_line(raw: bytes, rng: random.Random) -> bytes:
    """One line repeated (or, in a one-line file, a random slice)."""
    lines = _lines(raw)
    if len(lines) < 2:
        return duplicate_span(raw, rng)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return b"".join(lines)


def delete_span(raw: bytes, rng: random.Random) -> bytes:
    """A random stretch of up to 200 bytes removed."""
    if len(raw) < 2:
        return raw
    i = rng.randrange(len(raw))
    return raw[:i] + raw[i + rng.randint(1, 200) :]


def duplicate_span(raw: bytes, rng: random.Random) -> bytes:
    """A random stretch of up to 200 bytes repeated in place."""
    if not raw:
        return raw
    i = rng.randrange(len(raw))
    j = min(len(raw), i + rng.randint(1, 200))
    return raw[:j] + raw[i:j] + raw[j:]


@functools.lru_cache(maxsize=8)
def _numbers(raw: bytes) -> tuple[re.Match[bytes], ...]:
    """The numbers of ``raw`` (the cases of one source file search it once, not once each)."""
    return tuple(_NUMBER.finditer(raw))


def extreme_numbers(raw: bytes, rng: random.Random) -> bytes:
    """One to three numbers in the file replaced by impossible or odd ones (inf, 1e308, -1 ...)."""
    found = _numbers(raw)
    if not found:
        return flip_bits(raw, rng)
    out = raw
    for m in sorted(rng.sample(found, min(len(found), rng.randint(1, 3))), key=lambda m: -m.start()):
        out = out[: m.start()] + rng.choice(EXTREME_NUMBERS) + out[m.end() :]
    return out


def swap_numbers(raw: bytes, rng: random.Random) -> bytes:
    """Two numbers of the file exchanged (times out of order, counts that do not match)."""
    found = _numbers(raw)
    if len(found) < 2:
        return flip_bits(raw, rng)
    a, b = sorted(rng.sample(found, 2), key=lambda m: m.start())
    return raw[: a.start()] + b.group() + raw[a.end() : b.start()] + a.group() + raw[b.end() :]


def wrong_types(raw: bytes, rng: random.Random) -> bytes:
    """For JSON: one to three nodes replaced by a value of another type (a list for an object,
    a string for a number, null ...). Other files (or JSON that does not parse) get bit flips."""
    text = raw.rstrip(b"\x00")
    try:
        data = json.loads(text.decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return flip_bits(raw, rng)
    for _ in range(rng.randint(1, 3)):
        data = _replace_random_node(data, rng)
    return json.dumps(data, ensure_ascii=False).encode("utf-8") + raw[len(text) :]


def _replace_random_node(data: Any, rng: random.Random) -> Any:
    """``data`` with one node (reached by a random walk from the top) replaced."""
    path: list[Any] = []
    node = data
    # Walk down a few levels, preferring containers, so deep nodes get hit too.
    for _ in range(rng.randint(0, 8)):
        if isinstance(node, dict) and node:
            key = rng.choice(list(node))
        elif isinstance(node, list) and node:
            key = rng.randrange(len(node))
        else:
            break
        path.append(key)
        node = node[key]
    new = copy.deepcopy(rng.choice([v for v in OTHER_TYPES if type(v) is not type(node)]))
    if not path:
        return new
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = new
    return data


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "truncate": truncate,
    "flip_bits": flip_bits,
    "delete_line": delete_line,
    "duplicate_line": duplicate_line,
    "delete_span": delete_span,
    "duplicate_span": duplicate_span,
    "extreme_numbers": extreme_numbers,
    "swap_numbers": swap_numbers,
    "wrong_types": wrong_types,
}


def mutate(raw: bytes, rng: random.Random, kind: str | None = None) -> tuple[str, bytes]:
    """Apply the named mutation (or a random one); return (its name, the damaged bytes)."""
    kind = kind or rng.choice(sorted(MUTATIONS))
    return kind, MUTATIONS[kind](raw, rng)


def fuzz_cases(
    name: str, sources: Sequence[bytes], n: int, kinds: Sequence[str] | None = None
) -> Iterator[tuple[str, int, str, bytes]]:
    """``n`` seeded cases ``(case id, source index, mutation, bytes)`` over ``sources``,
    cycling through ``kinds`` (default: every mutation) so each kind gets its share."""
    kinds = list(kinds or sorted(MUTATIONS))
    for i in range(n):
        case = f"{name}-{i}"
        rng = random.Random(case)
        src = i % len(sources)
        kind, data = mutate(sources[src], rng, kinds[(i // len(sources)) % len(kinds)])
        yield case, src, kind, data
