"""Checking an XLSX workbook's size before openpyxl loads it (XLSX size bombs).

An XLSX file is a zip archive of XML parts. openpyxl (and pandas on top of it) trusts what the
parts say: a worksheet declaring the range ``A1:XFD1048576``, or holding one cell there, is
padded to 17 billion cells (a 6 KB file took over 10 GB); a 50 MB string compresses to 55 KB;
a 2 MB archive may unpack to 2 GB. :func:`check_workbook` reads only the zip directory and
streams the worksheet and shared-string parts in chunks (never more than one chunk in memory),
and refuses the workbook, naming the part, when it passes one of these limits, far above any
real annotation workbook (a quarter of a million tokens, one per row, is 2.5 million cells and
about 30 MB unpacked):

* :data:`MAX_UNPACKED` bytes unpacked over all parts, as the zip directory declares them (zipfile
  stops at the declared size, so a part cannot unpack to more);
* :data:`MAX_RATIO`: a part over :data:`RATIO_FROM` bytes unpacked that is more than this many
  times its packed size (XML of real sheets packs 5 to 20 times);
* :data:`MAX_CELLS`: the rows times columns of a worksheet's range, as declared (``<dimension>``)
  or as its cells' references reach, and the number of its cells; a range is also held to two
  cells per byte of the worksheet's XML (at least :data:`MIN_CELLS`): a cell takes some 25 bytes
  of XML, so only a nearly empty range passes that, and openpyxl fills every empty cell in it
  (some 45 bytes of memory each);
* :data:`MAX_CELL_BYTES`: one shared string (``<si>``) or one cell (``<c>``) of a worksheet.

Every reader of workbooks (:mod:`segagree.formats.table`, adjudication's and the time review's
workbook readers) calls :func:`check_workbook` first.
"""

from __future__ import annotations

import re
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from segagree.errors import InputError

MAX_UNPACKED = 512 * 1024 * 1024
MAX_RATIO = 200
RATIO_FROM = 8 * 1024 * 1024
MAX_CELLS = 10_000_000
MIN_CELLS = 1_000_000
# A megabyte of XML for one cell or shared string (Excel itself holds at most 32,767 characters).
MAX_CELL_BYTES = 1024 * 1024

_CHUNK = 1024 * 1024
_OVERLAP = 256
_SHEET = re.compile(r"^xl/worksheets/[^/]+\.xml$", re.IGNORECASE)
_STRINGS = re.compile(r"^xl/sharedStrings\.xml$", re.IGNORECASE)
# A cell, row or dimension element with its attributes, and the reference among them.
_TAG = re.compile(rb"<(?:\w+:)?(c|row|dimension)\b([^>]{0,240})")
_ATTR_REF = re.compile(rb"""\b(?:r|ref)\s*=\s*["']([^"']*)["']""")
_CELL_REF = re.compile(r"\$?([A-Za-z]{1,3})?\$?(\d+)?")


def check_workbook(path: str | Path) -> None:
    """Refuse a workbook whose parts would take far more memory than a real one (see the module
    docstring) with an InputError naming the part; return quietly otherwise, also when the file
    is no zip archive at all (the caller's reader then says what it is)."""
    path = Path(path)
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError):
        return
    with archive:
        infos = archive.infolist()
        total = sum(max(i.file_size, 0) for i in infos)
        if total > MAX_UNPACKED:
            raise InputError(
                f"the workbook unpacks to {_mb(total)} (limit {_mb(MAX_UNPACKED)}): too large to read safely "
                "(a zip bomb?)",
                path=path,
            )
        for info in infos:
            if info.file_size > RATIO_FROM and info.file_size > MAX_RATIO * max(info.compress_size, 1):
                raise InputError(
                    f"part {info.filename!r} unpacks to {_mb(info.file_size)} from {_mb(info.compress_size)}, "
                    f"more than {MAX_RATIO} times (a zip bomb?); refused",
                    path=path,
                )
        for info in infos:
            if _SHEET.match(info.filename) or _STRINGS.match(info.filename):
                try:
                    with archive.open(info) as stream:
                        _scan_part(stream, info.filename, path, info.file_size)
                except (zipfile.BadZipFile, zlib.error, NotImplementedError, OSError, EOFError, RuntimeError):
                    return  # a damaged or encrypted part: the reader reports it in its own words


def _mb(n: int) -> str:
    return f"{n / 1024 / 1024:,.1f} MB"


def _chunks(stream: IO[bytes]) -> Iterator[tuple[int, bytes, int]]:
    """``(offset, bytes, settled)`` of a part, each chunk with the last :data:`_OVERLAP` bytes of
    the one before it prepended (a tag cut by a chunk boundary is then seen whole); offset is
    that of the bytes, and tags starting before ``settled`` are whole in this chunk (the rest is
    seen again at the start of the next one)."""
    offset, tail = 0, b""
    chunk = stream.read(_CHUNK)
    while chunk:
        following = stream.read(_CHUNK)
        data = tail + chunk
        yield offset - len(tail), data, (len(data) - _OVERLAP if following else len(data))
        offset += len(chunk)
        tail, chunk = data[-_OVERLAP:], following


class _Extent:
    """The rows and columns a worksheet reaches, and its cell count."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.rows = self.cols = self.cells = 0
        self.row = self.col = 0  # the last row seen, the last column in it (cells without `r`)


def _scan_part(stream: IO[bytes], name: str, path: Path, size: int) -> None:
    """One pass over a worksheet or the shared strings: the range, the cell count and the
    largest cell or string."""
    is_strings = bool(_STRINGS.match(name))
    open_tag, close_tag = (b"<si", b"</si>") if is_strings else (b"<c", b"</c>")
    extent = _Extent(min(MAX_CELLS, max(MIN_CELLS, 2 * size)))
    seen_refs = -1  # the offset of the last tag counted (chunks overlap)
    opened: int | None = None  # the offset of an element still open
    last_close = -1
    for offset, data, settled in _chunks(stream):
        if not is_strings:
            for m in _TAG.finditer(data):
                if m.start() >= settled:
                    break
                if offset + m.start() > seen_refs:
                    seen_refs = offset + m.start()
                    ref = _ATTR_REF.search(m.group(2))
                    _count(extent, m.group(1), ref.group(1).decode("ascii", "replace") if ref else "", name, path)
        opened, last_close = _longest(data, offset, open_tag, close_tag, opened, last_close, name, path)


def _longest(
    data: bytes,
    offset: int,
    open_tag: bytes,
    close_tag: bytes,
    opened: int | None,
    last_close: int,
    name: str,
    path: Path,
) -> tuple[int | None, int]:
    """Track open/close tags through a chunk; refuse an element longer than MAX_CELL_BYTES."""
    pos = 0
    while True:
        if opened is None:
            k = data.find(open_tag, pos)
            width = len(open_tag)
            # (`<c` also starts `<col` and `<cfRule`: a cell's tag goes on with a space, `>` or `/`)
            while k >= 0 and (offset + k <= last_close or data[k + width : k + width + 1] not in b" >/"):
                k = data.find(open_tag, k + 1)
            if k < 0:
                return None, last_close
            opened, pos = offset + k, k + len(open_tag)
        k = data.find(close_tag, max(pos, opened - offset))
        if k < 0:
            if offset + len(data) - opened > MAX_CELL_BYTES:
                _too_long(name, path)
            return opened, last_close
        if offset + k - opened > MAX_CELL_BYTES:
            _too_long(name, path)
        last_close, opened, pos = offset + k, None, k + len(close_tag)


def _too_long(name: str, path: Path) -> None:
    what = "a shared string" if _STRINGS.match(name) else "a cell"
    raise InputError(
        f"{what} in part {name!r} holds more than {_mb(MAX_CELL_BYTES)} of text (Excel holds 32,767 characters "
        "in a cell); refused",
        path=path,
    )


def _count(extent: _Extent, tag: bytes, ref: str, name: str, path: Path) -> None:
    """Count one ``<c r=..>``, ``<row r=..>`` or ``<dimension ref=..>`` and check the range."""
    if tag == b"dimension":
        for corner in ref.split(":"):
            row, col = _parse_ref(corner)
            extent.rows, extent.cols = max(extent.rows, row), max(extent.cols, col)
    elif tag == b"row":
        extent.row = int(ref) if ref.isdigit() and len(ref) < 10 else extent.row + 1
        extent.col = 0
        extent.rows = max(extent.rows, extent.row)
    else:
        extent.cells += 1
        row, col = _parse_ref(ref)
        extent.col = col or extent.col + 1
        extent.rows, extent.cols = max(extent.rows, row or extent.row), max(extent.cols, extent.col)
    if extent.rows * extent.cols > extent.limit or extent.cells > extent.limit:
        raise InputError(
            f"worksheet part {name!r} spans {extent.rows:,} rows by {extent.cols:,} columns "
            f"(limit {extent.limit:,} cells for its size): too large to read safely",
            path=path,
        )


def _parse_ref(ref: str) -> tuple[int, int]:
    """(row, column) of an A1 reference (0 for a part that is missing)."""
    m = _CELL_REF.fullmatch(ref.strip())
    if m is None:
        return 0, 0
    letters, digits = m.group(1) or "", m.group(2) or ""
    col = 0
    for ch in letters.upper():
        col = col * 26 + ord(ch) - 64
    return (int(digits) if digits and len(digits) < 10 else 0), col
