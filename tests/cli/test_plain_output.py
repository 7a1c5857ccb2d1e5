"""Into a pipe or a file, tables and lines are written without rich (:meth:`ScoreTable.plain_lines`,
:func:`segagree.cli.common.show`): exactly what rich writes there, held equal to rich itself on
generated tables, and rich where the text is not laid out as ``len`` lays it out."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.cli import common
from segagree.cli.tables import ScoreTable

CELL = st.text(alphabet=st.sampled_from(list("abcXYZ019 .,-_:()/%") + ["é", "ß", "д", "Ж", "λ"]), max_size=12)


def rich_text(table: ScoreTable) -> str:
    """The table as :meth:`ScoreTable.print` has rich write it into a file."""
    from rich.console import Console

    console = Console(file=io.StringIO(), force_terminal=False, width=80, highlight=False, markup=False, emoji=False)
    console.width = max(80, _natural(console, table))
    console.print(table.render())
    return console.file.getvalue()  # type: ignore[attr-defined,no-any-return]


def _natural(console: object, table: ScoreTable) -> int:
    from rich.measure import Measurement

    return Measurement.get(console, console.options.update_width(1 << 20), table.render()).maximum  # type: ignore[attr-defined]


@settings(max_examples=150, deadline=None)
@given(
    columns=st.lists(CELL.filter(lambda c: c.strip() != ""), min_size=1, max_size=6),
    data=st.data(),
    left=st.integers(0, 3),
)
def test_a_plain_table_is_what_rich_writes_into_a_file(columns: list[str], data: st.DataObject, left: int) -> None:
    rows = data.draw(st.lists(st.tuples(st.lists(CELL, max_size=len(columns)), st.booleans()), max_size=6))
    table = ScoreTable(columns, left=min(left, len(columns)))
    for cells, end in rows:
        table.add_row(*cells, end_section=end)
    lines = table.plain_lines()
    assert lines is not None
    assert "\n".join(lines) + "\n" == rich_text(table)


def test_text_rich_lays_out_otherwise_is_left_to_rich() -> None:
    for text in ("中文", "e\u0301", "a\tb", "🙂"):
        table = ScoreTable(["name", "value"])
        table.add_row(text, "1")
        assert table.plain_lines() is None and not common.plain_text(text)
    assert common.plain_text("S_f^B 0.9435 (P 0.663, R 0.699) -- дом")


def test_a_pipe_is_plain_and_forced_colour_or_a_terminal_is_not(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert common.plain_output()
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert not common.plain_output()
    monkeypatch.delenv("FORCE_COLOR")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdout", Terminal())
    assert not common.plain_output()


def test_a_plain_line_is_what_rich_writes(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from rich.console import Console

    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    for text in ("parameters: disrpt_seg: seg_eval:1.0.1/2023 first_token:marked", "  x  ", "[bold]not markup[/]", ""):
        common.show(text)
        plain = capsys.readouterr().out
        console = Console(file=io.StringIO(), force_terminal=False, highlight=False, markup=False, emoji=False)
        console.print(text, soft_wrap=True)
        assert plain == console.file.getvalue()  # type: ignore[attr-defined]
