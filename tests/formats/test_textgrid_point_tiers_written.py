"""Point tiers (``TextTier``) written by :func:`dump_textgrid`, long and short form, read back by
praatio (an independent reader) with their times and marks, beside an interval tier."""

from __future__ import annotations

from pathlib import Path

import pytest
from praatio import textgrid as praat_textgrid

from segagree.formats.praat.text_form import Item, TextGridFile, Tier, dump_textgrid


@pytest.mark.parametrize("long", [True, False])
def test_point_tier_read_by_praatio(tmp_path: Path, long: bool) -> None:
    words = Tier("words", True, 0.0, 1.17, [Item(0.05, 0.3, "the", 0), Item(0.3, 0.62, 'say "hi"', 0)], 0)
    tones = Tier("tones", False, 0.0, 1.17, [Item(0.2, 0.2, "H*", 0), Item(0.9, 0.9, "L%", 0)], 0)
    path = tmp_path / "grid.TextGrid"
    path.write_text(dump_textgrid(TextGridFile(0.0, 1.17, [words, tones]), long=long), encoding="utf-8")
    grid = praat_textgrid.openTextgrid(str(path), includeEmptyIntervals=True)
    assert (grid.minTimestamp, grid.maxTimestamp) == (0.0, 1.17)
    assert list(grid.tierNames) == ["words", "tones"]
    points = grid.getTier("tones")
    assert points.tierType == "TextTier"
    assert [(p.time, p.label) for p in points.entries] == [(0.2, "H*"), (0.9, "L%")]
    intervals = [(e.start, e.end, e.label) for e in grid.getTier("words").entries]
    assert intervals == [(0.0, 0.05, ""), (0.05, 0.3, "the"), (0.3, 0.62, 'say "hi"'), (0.62, 1.17, "")]
