"""The offline link check of the built site (docs/_ext/segagree_links.py), on a site of three pages."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinx")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "docs" / "_ext"))
import segagree_links  # noqa: E402


def test_broken_pages_and_anchors_are_found_and_good_links_pass(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "index.html").write_text(
        '<a href="time.html#a-corpus">ok</a> <a href="time.html#a-whole-corpus">gone</a>'
        ' <a href="nowhere.html">none</a> <a href="https://example.org/x#y">out</a>'
        ' <a href="#top">self</a> <a href="sub/">folder</a> <h1 id="top">t</h1>',
        encoding="utf-8",
    )
    (tmp_path / "time.html").write_text(
        '<section id="a-corpus"></section><a href="index.html">up</a>', encoding="utf-8"
    )
    (tmp_path / "sub" / "index.html").write_text('<a href="../time.html#a-corpus">ok</a>', encoding="utf-8")
    assert segagree_links.broken_links(tmp_path) == [
        "index.html: time.html#a-whole-corpus (no such anchor)",
        "index.html: nowhere.html (no such page)",
    ]
