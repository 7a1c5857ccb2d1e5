"""The command line's result tables, all drawn by rich in one look, at the terminal's width (into a
pipe or a file, at their own width: a row is one line).

One box (rich's ``SIMPLE_HEAD``: a rule under the header, no vertical lines, which leaves the
width to the numbers), label columns left-aligned and folded when space runs short, number
columns right-aligned and never narrower than their widest cell: a score is shown whole or the
table is laid out otherwise, never squeezed to nothing.

:func:`print_matrix` prints a table of rows by details (metrics by speakers, measures by texts)
with its pooled column: as one table when it fits, else the pooled values first and the detail
below with the details as rows (transposed, or one row per cell when even that is too wide).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from segagree.cli.common import plain_output, plain_text, show, stdout
from segagree.cli.safe_text import printable

#: A label column (names of speakers, texts) is folded to no fewer characters than this.
LABEL_MIN = 10


@dataclass
class ScoreTable:
    """A table of labels and numbers. ``columns``: the header; the first ``left`` columns (labels)
    are left-aligned and fold, the others right-aligned and at least as wide as their widest cell;
    columns named in ``text`` are left-aligned free text (notes, parameters) that fold."""

    columns: Sequence[str]
    title: str = ""
    left: int = 1
    text: Sequence[str] = ()
    caption: str = ""
    rows: list[tuple[list[str], bool]] = field(default_factory=list)

    def add_row(self, *cells: Any, end_section: bool = False) -> None:
        """A row; ``end_section`` draws a rule under it (before a pooled row)."""
        self.rows.append(([printable(str(c)) for c in cells], end_section))

    def _is_label(self, i: int) -> bool:
        return i < self.left or self.columns[i] in self.text

    def render(self) -> Any:
        """The rich Table."""
        from rich import box
        from rich.table import Table

        table = Table(
            box=box.SIMPLE_HEAD,
            show_edge=False,
            collapse_padding=True,
            highlight=False,
        )
        for i, name in enumerate(self.columns):
            cells = [row[i] for row, _ in self.rows if i < len(row)]
            if self._is_label(i):
                table.add_column(printable(name), justify="left", overflow="fold")
            else:
                widest = max((len(c) for c in cells), default=1)
                table.add_column(printable(name), justify="right", min_width=widest, overflow="fold")
        for cells, end in self.rows:
            table.add_row(*cells, end_section=end)
        return table

    def natural_width(self) -> int:
        """The table's width with nothing folded."""
        from rich.measure import Measurement

        console = stdout()
        # measured without a bound: rich's own measure is clamped to the width it is given
        return Measurement.get(console, console.options.update_width(1 << 20), self.render()).maximum

    def fits(self) -> bool:
        """Whether the table is shown at the terminal's width without folding a label or a header
        (always, into a pipe or a file: there a row is one line, whatever its length)."""
        if plain_output():
            return True
        console = stdout()
        return not console.is_terminal or self.natural_width() <= console.width

    def narrowest(self) -> int:
        """The width the table needs at least: every number and header word whole, labels folded to
        :data:`LABEL_MIN` characters (rich's measure of a folding column is its longest word)."""
        widths = []
        for i, name in enumerate(self.columns):
            cells = [row[i] for row, _ in self.rows if i < len(row)]
            natural = max((len(c) for c in [name, *cells]), default=1)
            if self._is_label(i):
                widths.append(min(natural, LABEL_MIN))
            else:
                words = max((len(w) for w in name.split()), default=1)
                widths.append(max(words, *(len(c) for c in cells)) if cells else words)
        return sum(widths) + 3 * (len(widths) - 1) + 2

    def plain_lines(self) -> list[str] | None:
        """The table as rich draws it into a pipe or a file (:meth:`render` at its natural width, no
        style), without rich; None where a cell is not :func:`plain_text` (rich then draws it).
        A test holds the two equal on generated tables."""
        header = [str(c) for c in self.columns]
        rows = [([*cells, *[""] * (len(header) - len(cells))], end) for cells, end in self.rows]
        if not all(plain_text(c) for c in header) or not all(plain_text(c) for cells, _ in rows for c in cells):
            return None
        widths = [max([len(header[i]), *(len(cells[i]) for cells, _ in rows)]) for i in range(len(header))]
        left = [self._is_label(i) for i in range(len(header))]

        def line(cells: Sequence[str]) -> str:
            # SIMPLE_HEAD without edges, padding (0, 1) collapsed: " a  b  c "
            # (rich right-justifies a cell's text without its trailing spaces)
            parts = [c.ljust(w) if lft else c.rstrip().rjust(w) for c, w, lft in zip(cells, widths, left, strict=True)]
            return " " + "  ".join(parts) + " "

        width = sum(widths) + 2 * len(widths)
        out = [line(header), "\u2500" * width]
        for k, (cells, end) in enumerate(rows):
            out.append(line(cells))
            if end and k < len(rows) - 1:  # (rich draws no rule under the last row)
                out.append(" " * width)
        return out

    def print(self) -> None:
        """The table at the terminal's width; where even its narrowest layout is too wide, a small
        table per row (a line per column), so that no number is cut."""
        if self.title:  # a line of its own: not wrapped to the table's width
            show(self.title)
        plain = self.plain_lines() if plain_output() else None
        if plain is not None:  # a pipe or a file, and text rich lays out as len does
            print("\n".join(plain))
            if self.caption:
                show(self.caption)
            return
        out = stdout()
        if not out.is_terminal:  # a pipe or a file: a row per line, for scripts and grep
            before = out.width
            out.width = max(before, self.natural_width())  # rich clamps print(width=) to the console's
            try:
                out.print(self.render())
            finally:
                out.width = before
            if self.caption:
                show(self.caption)
            return
        if self.narrowest() <= out.width or len(self.columns) <= 2:
            out.print(self.render())
            if self.caption:  # under the table, not wrapped to its width
                show(self.caption)
            return
        for cells, _ in self.rows:
            record = ScoreTable([self.columns[0], cells[0]], text=[cells[0]])
            for name, cell in zip(self.columns[1:], cells[1:], strict=False):
                record.add_row(name, cell)
            out.print(record.render())
        if self.caption:
            show(self.caption)


@dataclass(frozen=True)
class MatrixRow:
    """A row of :func:`print_matrix`: its label, a cell per detail (missing: ``-``), the pooled cell
    and the free-text note (or '')."""

    label: str
    cells: Mapping[str, str]
    pooled: str
    note: str = ""


def print_matrix(
    title: str,
    corner: str,
    detail: str,
    details: Sequence[str],
    rows: Sequence[MatrixRow],
    *,
    pooled: str = "ALL",
    note: str = "",
) -> None:
    """Rows (``corner``: metrics, measures) by ``details`` (speakers, texts, of kind ``detail``) and
    the pooled column. One table if it fits the terminal; else the pooled table, then the detail
    with a row per detail (a column per row label), or a row per (label, detail) if that is still
    too wide. ``note`` names the free-text column (none if '')."""
    extra = [note] if note else []
    wide = ScoreTable([corner, *details, pooled, *extra], title=title, text=extra)
    for row in rows:
        wide.add_row(row.label, *(row.cells.get(d, "-") for d in details), row.pooled, *([row.note] if note else []))
    if not details or wide.fits():
        wide.print()
        return
    head = ScoreTable([corner, pooled, *extra], title=title, text=extra)
    for row in rows:
        head.add_row(row.label, row.pooled, *([row.note] if note else []))
    head.print()
    across = ScoreTable([detail, *(r.label for r in rows)], title=f"per {detail} (pooled: above)")
    for d in details:
        across.add_row(d, *(r.cells.get(d, "-") for r in rows))
    if across.fits():
        across.print()
        return
    long = ScoreTable([corner, detail, "value"], title=f"per {detail} (pooled: above)", left=2)
    for row in rows:
        for i, d in enumerate(details):
            long.add_row(row.label, d, row.cells.get(d, "-"), end_section=i == len(details) - 1)
    long.print()
