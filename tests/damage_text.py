"""Seeded damage for text-like annotation files (SRT, transcripts, CSV/TSV tables, XLSX).

Each mutation takes the file's bytes and a ``random.Random`` and returns damaged bytes, the way
files get damaged in the wild: cut short, bits flipped, lines lost or doubled, a cell of the
wrong type, a number pushed to an extreme, the whole file saved in another encoding. Cases are
reproducible from their seed (:func:`damage`), so a failure names what to replay.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable

Mutation = Callable[[bytes, random.Random], bytes]

EXTREME_NUMBERS = (
    "inf",
    "-inf",
    "nan",
    "NaN",
    "1e308",
    "-1",
    "-0.5",
    "1e22",
    "99999999999",
    "1e-320",
    "0x10",
    "1_000",
    "９",
)
WORDS = ("banana", "", " ", "NA", "null", "-", "--", "?", ",", ".", "<i>", "{\\an8}", '"', "\t", "é", "喔")
NUMBER = re.compile(rb"\d+(?:[.,]\d+)?")


def _lines(raw: bytes) -> list[bytes]:
    return raw.splitlines(keepends=True) or [raw]


def truncate(raw: bytes, rng: random.Random) -> bytes:
    return raw[: rng.randrange(len(raw) + 1)] if raw else raw


def bit_flips(raw: bytes, rng: random.Random) -> bytes:
    if not raw:
        return raw
    data = bytearray(raw)
    for _ in range(rng.choice((1, 1, 2, 3, 8))):
        i = rng.randrange(len(data))
        data[i] ^= 1 << rng.randrange(8)
    return bytes(data)


def random_bytes(raw: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(raw) + 1)
    return raw[:i] + bytes(rng.randrange(256) for _ in range(rng.choice((1, 2, 5, 40)))) + raw[i:]


def delete_line(raw: bytes, rng: random.Random) -> bytes:
    lines = _lines(raw)
    del lines[rng.randrange(len(lines))]
    return b"".join(lines)


def duplicate_line(raw: bytes, rng: random.Random) -> bytes:
    lines = _lines(raw)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return b"".join(lines)


def swap_lines(raw: bytes, rng: random.Random) -> bytes:
    lines = _lines(raw)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"".join(lines)


def delete_blank_line(raw: bytes, rng: random.Random) -> bytes:
    """Merge two blocks (SRT cues) or two paragraphs."""
    blanks = [m.start() for m in re.finditer(rb"\n\r?\n", raw)]
    if not blanks:
        return delete_line(raw, rng)
    i = rng.choice(blanks)
    return raw[:i] + raw[i + 1 :]


def extreme_number(raw: bytes, rng: random.Random) -> bytes:
    numbers = list(NUMBER.finditer(raw))
    if not numbers:
        return random_bytes(raw, rng)
    m = rng.choice(numbers)
    return raw[: m.start()] + rng.choice(EXTREME_NUMBERS).encode("utf-8") + raw[m.end() :]


def wrong_type(raw: bytes, rng: random.Random) -> bytes:
    """A number where a word was, or a word where a number was."""
    if rng.random() < 0.5:
        numbers = list(NUMBER.finditer(raw))
        if numbers:
            m = rng.choice(numbers)
            return raw[: m.start()] + rng.choice(WORDS).encode("utf-8") + raw[m.end() :]
    words = list(re.finditer(rb"[A-Za-z]+", raw))
    if not words:
        return extreme_number(raw, rng)
    m = rng.choice(words)
    return raw[: m.start()] + str(rng.choice((0, -1, 1.5, 10**30, 3.0e-7))).encode() + raw[m.end() :]


def separators(raw: bytes, rng: random.Random) -> bytes:
    """Damage the structure: quotes, commas, tabs, arrows, colons, blank lines."""
    marks = [m.start() for m in re.finditer(rb'[,"\t:>\n]', raw)]
    if not marks:
        return random_bytes(raw, rng)
    i = rng.choice(marks)
    new = rng.choice((b"", b'"', b",", b"\t", b"\n", b"\n\n", b" --> ", b";", b"\r"))
    return raw[:i] + new + raw[i + 1 :]


def wrong_encoding(raw: bytes, rng: random.Random) -> bytes:
    """The same text saved in another encoding, or with a BOM that lies."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return bit_flips(raw, rng)
    choice = rng.randrange(9)
    if choice == 0:
        return b"\xff\xfe" + raw  # a UTF-16 BOM on UTF-8 bytes
    if choice == 1:
        return b"\xef\xbb\xbf" + text.encode("cp1252", errors="replace")
    codec = ("utf-16-le", "utf-16-be", "cp1252", "latin-1", "gb18030", "big5", "shift_jis")[choice - 2]
    data = text.encode(codec, errors="replace")
    if codec.startswith("utf-16") and rng.random() < 0.5:
        data = data[:-1]  # an odd byte count
    return data


def nul_bytes(raw: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(raw) + 1)
    return raw[:i] + b"\x00" * rng.choice((1, 2, 100)) + raw[i:]


def empty(raw: bytes, rng: random.Random) -> bytes:
    return rng.choice((b"", b"\n", b"\xef\xbb\xbf", b" \r\n\t", b"\x00"))


MUTATIONS: dict[str, Mutation] = {
    "truncate": truncate,
    "bit_flips": bit_flips,
    "random_bytes": random_bytes,
    "delete_line": delete_line,
    "duplicate_line": duplicate_line,
    "swap_lines": swap_lines,
    "delete_blank_line": delete_blank_line,
    "extreme_number": extreme_number,
    "wrong_type": wrong_type,
    "separators": separators,
    "wrong_encoding": wrong_encoding,
    "nul_bytes": nul_bytes,
    "empty": empty,
}
# How often each is drawn: the structural and numeric ones find the most.
WEIGHTS = {name: 1 for name in MUTATIONS} | {"extreme_number": 3, "wrong_type": 2, "separators": 2, "empty": 0.2}


def damage(raw: bytes, seed: str) -> tuple[bytes, list[str]]:
    """One to three seeded mutations of ``raw``; returns the bytes and the mutations' names."""
    rng = random.Random(seed)
    names = rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()), k=rng.choice((1, 1, 1, 2, 3)))
    for name in names:
        raw = MUTATIONS[name](raw, rng)
    return raw, names


def xlsx_from_rows(raw: bytes) -> bytes | None:
    """A workbook holding the cells of a (possibly damaged) CSV, numbers as numbers; None when the
    CSV cannot even be split into rows (the damage then stays a CSV case)."""
    import csv

    from openpyxl import Workbook

    try:
        rows = list(csv.reader(io.StringIO(raw.decode("utf-8", errors="replace"))))
    except csv.Error:
        return None
    wb = Workbook()
    ws = wb.active
    for row in rows:
        cells: list[object] = []
        for cell in row:
            try:
                value: object = float(cell) if cell.strip() and cell.strip()[0] in "-0123456789" else cell
            except ValueError:
                value = cell
            cells.append(value)
        try:
            ws.append(cells)
        except Exception:  # openpyxl refuses control characters: keep the row as text without them
            ws.append([re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", "", str(c)) for c in cells])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
