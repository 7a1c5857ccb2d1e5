"""A worksheet whose many plain rows XlsxWriter serialises in one pass: the same file, less per-cell cost.

XlsxWriter stores every cell written as a tuple in its table (checking the arguments and the
sheet's dimensions cell by cell) and later writes each cell's XML through several calls. For a
review workbook's operations sheet (tens of thousands of cells without a format of their own),
that per-cell cost was about 95 % of the workbook's CPU. :class:`BulkRowsWorksheet` takes such
rows whole (:meth:`BulkRowsWorksheet.write_rows`): each string goes to the workbook's shared
string table at once, in the order :meth:`~xlsxwriter.worksheet.Worksheet.write_string` would put
it there, and each row's ``<c>`` elements are rendered when the sheet is assembled, with the
style the library gives a cell without a format (its row's format, else its column's). The
sheet's XML, the shared strings and every other part of the file are byte for byte what
``write_string`` / ``write_number`` cell by cell give (tests/outputs/test_xlsx_rows.py checks
that against the library on random rows).

Only what the operations sheet needs: numbers (``int``/``float``, not ``bool``) and strings,
``None`` for no cell, no format per cell, no comments; rows written in bulk come after every
row written the ordinary way (the header).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import isinf, isnan
from typing import Any

from xlsxwriter.utility import xl_col_to_name
from xlsxwriter.worksheet import Worksheet

__all__ = ["BulkRowsWorksheet", "CellByCellWorksheet", "rows_worksheet_class"]

# The XlsxWriter releases BulkRowsWorksheet is used with: from the one it was written against (its
# test compares the files byte for byte with the installed release) up to the next major release;
# with any other, rows are written cell by cell by the library.
CHECKED_RELEASES = ((3, 3, 1), (4, 0, 0))


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _utf16_cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` UTF-16 units without splitting a character (as ``write_string`` does)."""
    length = 0
    for index, char in enumerate(text):
        length += 2 if ord(char) > 0xFFFF else 1
        if length > limit:
            return text[:index]
    return text


def _marker(col: int) -> str:
    # Stands for a column's style attribute in a rendered row until the styles are numbered (when
    # the workbook is closed), filled in by one %-formatting of the row: a row's cells hold only
    # references, shared-string indices and numbers, never a % of their own.
    return f"%({col})s"


class BulkRowsWorksheet(Worksheet):
    """An XlsxWriter worksheet that also takes rows of plain cells in bulk (see the module docstring).

    Make it with ``workbook.add_worksheet(name, worksheet_class=BulkRowsWorksheet)``."""

    def __init__(self) -> None:
        super().__init__()
        # row -> (first column, last column, the row's <c> elements with style markers)
        self._bulk: dict[int, tuple[int, int, str]] = {}
        self._bulk_cols: set[int] = set()
        self._spans_ready = False

    def write_rows(self, first_row: int, cols: Sequence[int], rows: Iterable[Sequence[Any]]) -> int:
        """Write ``rows`` from ``first_row`` on, value ``k`` of a row in column ``cols[k]`` (``cols``
        ascending); ``None`` writes no cell. Returns the number of rows. Numbers must be finite
        (as ``write_number`` requires); text longer than a cell holds is cut as ``write_string`` cuts it."""
        if any(b <= a for a, b in zip(cols, cols[1:], strict=False)):
            raise ValueError("columns must be ascending")
        if self.constant_memory:
            raise ValueError("bulk rows need a workbook without constant_memory")
        if not cols or cols[0] < 0 or cols[-1] >= self.xls_colmax or first_row < 0:
            raise ValueError("the columns or the first row are outside a worksheet's bounds")
        index = self.str_table._get_shared_string_index
        strmax = self.xls_strmax
        bulk = self._bulk
        heads = [f'<c r="{xl_col_to_name(col)}' for col in cols]
        markers = [_marker(col) for col in cols]
        written: list[int] = []  # rows with a cell
        lo_col, hi_col = cols[-1], cols[0]
        r = first_row - 1
        for r, values in enumerate(rows, start=first_row):
            if len(values) != len(cols):
                raise ValueError(f"row {r + 1} has {len(values)} values for {len(cols)} columns")
            if r >= self.xls_rowmax:
                raise ValueError(f"row {r + 1} is past a worksheet's last row")
            ref = f'{r + 1}"'
            parts = []
            lo = hi = -1  # the row's first and last value with a cell
            for k, value in enumerate(values):
                kind = value.__class__
                if kind is str:
                    if len(value) > strmax // 2 and _utf16_len(value) > strmax:
                        value = _utf16_cut(value, strmax)
                    parts.append(f'{heads[k]}{ref}{markers[k]} t="s"><v>{index(value)}</v></c>')
                elif value is None:
                    continue
                elif kind is int or kind is float or (isinstance(value, int | float) and kind is not bool):
                    if isnan(value) or isinf(value):
                        raise TypeError(f"cell {xl_col_to_name(cols[k])}{r + 1}: NAN/INF is not a number Excel holds")
                    parts.append(f"{heads[k]}{ref}{markers[k]}><v>{value:.16G}</v></c>")
                else:
                    raise TypeError(
                        f"cell {xl_col_to_name(cols[k])}{r + 1}: {kind.__name__} is neither text nor a number"
                    )
                if lo < 0:
                    lo = k
                hi = k
            if lo < 0:
                continue
            if r in bulk or self.table.get(r):
                raise ValueError(f"row {r + 1} is written already")
            bulk[r] = (cols[lo], cols[hi], "".join(parts))
            lo_col, hi_col = min(lo_col, cols[lo]), max(hi_col, cols[hi])
            written.append(r)
        self._bulk_cols.update(cols)
        if written:  # the sheet's dimensions, as the cells written one by one would set them
            self._check_dimensions(written[0], lo_col)
            self._check_dimensions(written[-1], hi_col)
        return r - first_row + 1

    def _calculate_spans(self) -> None:
        # The library's spans of its own cells, widened by the bulk rows' (per block of 16 rows).
        if self._spans_ready:
            return
        super()._calculate_spans()
        blocks: dict[int, tuple[int, int]] = {}
        for row, (lo, hi, _) in self._bulk.items():
            block = row // 16
            lo, hi = lo + 1, hi + 1
            if block in blocks:
                old_lo, old_hi = blocks[block]
                lo, hi = min(lo, old_lo), max(hi, old_hi)
            blocks[block] = (lo, hi)
        for block, (lo, hi) in blocks.items():
            if block in self.row_spans:
                old_lo, old_hi = (int(x) for x in self.row_spans[block].split(":"))
                lo, hi = min(lo, old_lo), max(hi, old_hi)
            self.row_spans[block] = f"{lo}:{hi}"

    def _write_rows(self) -> None:
        if not self._bulk:
            super()._write_rows()
            return
        first = min(self._bulk)
        last: int = self.dim_rowmax  # type: ignore[has-type]
        if any(cells for row, cells in self.table.items() if row >= first) or any(r >= first for r in self.comments):
            raise ValueError("rows written in bulk must come after every other row with cells or comments")
        self._calculate_spans()
        self.dim_rowmax = first - 1  # the library writes the rows before the bulk ones
        self._spans_ready = True
        try:
            super()._write_rows()
        finally:
            self.dim_rowmax = last
            self._spans_ready = False
        self._write_bulk_rows(first, last)

    def _write_bulk_rows(self, first: int, last: int) -> None:
        # A cell without a format of its own takes its row's format, else its column's (as the
        # library's _write_cell); the markers become those styles once the styles are numbered.
        styles = {}
        for col in self._bulk_cols:
            info = self.col_info.get(col)
            fmt = getattr(info, "column_format", None) if info is not None else None
            styles[str(col)] = f' s="{fmt._get_xf_index()}"' if fmt is not None else ""
        write = self.fh.write
        for row in range(first, last + 1):
            bulk = self._bulk.get(row)
            info = self.row_info.get(row)
            span = self.row_spans.get(row // 16)
            if bulk is None:
                if info is not None:
                    self._write_empty_row(row, span, info)
                continue
            self._write_row(row, span, info)
            row_fmt = info.row_format if info is not None else None
            if row_fmt:
                write(bulk[2] % dict.fromkeys(styles, f' s="{row_fmt._get_xf_index()}"'))
            else:
                write(bulk[2] % styles)
            write("</row>")


class CellByCellWorksheet(Worksheet):
    """The library's own worksheet with :meth:`BulkRowsWorksheet.write_rows`' signature: each
    value through ``write_string`` / ``write_number`` (the reference the bulk rows are checked
    against, and what an XlsxWriter release outside :data:`CHECKED_RELEASES` gets)."""

    def write_rows(self, first_row: int, cols: Sequence[int], rows: Iterable[Sequence[Any]]) -> int:
        r = first_row - 1
        for r, values in enumerate(rows, start=first_row):
            if len(values) != len(cols):
                raise ValueError(f"row {r + 1} has {len(values)} values for {len(cols)} columns")
            for col, value in zip(cols, values, strict=True):
                if value is None:
                    continue
                if isinstance(value, str):
                    self.write_string(r, col, value)
                elif isinstance(value, int | float) and not isinstance(value, bool):
                    if isnan(value) or isinf(value):
                        raise TypeError(f"cell {xl_col_to_name(col)}{r + 1}: NAN/INF is not a number Excel holds")
                    self.write_number(r, col, value)
                else:
                    raise TypeError(
                        f"cell {xl_col_to_name(col)}{r + 1}: {value.__class__.__name__} is neither text nor a number"
                    )
        return r - first_row + 1


def _release(version: str) -> tuple[int, ...]:
    parts = []
    for part in version.split(".")[:3]:
        digits = "".join(ch for ch in part if ch.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts)


def rows_worksheet_class(version: str | None = None) -> type[Worksheet]:
    """:class:`BulkRowsWorksheet` for an XlsxWriter release in :data:`CHECKED_RELEASES` (from
    3.3.1 up to, not including, 4.0.0), else :class:`CellByCellWorksheet` (the same file, slower)."""
    if version is None:
        import xlsxwriter

        version = str(getattr(xlsxwriter, "__version__", "0"))
    low, high = CHECKED_RELEASES
    return BulkRowsWorksheet if low <= _release(version) < high else CellByCellWorksheet
