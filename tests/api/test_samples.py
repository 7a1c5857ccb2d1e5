"""The sample corpora from the API, and the first-compile announcement of the numba kernels."""

from __future__ import annotations

from pathlib import Path

import pytest

import segagree
from segagree.metrics import numba_import

from conftest import REPO


def test_sample_corpora_path_is_the_clones_folder_in_an_editable_install() -> None:
    assert segagree.sample_corpora_path() == REPO / "sample_corpora"


def test_copy_refuses_a_file_in_the_way(tmp_path: Path) -> None:
    target = tmp_path / "tour"
    target.write_text("x", encoding="utf-8")
    with pytest.raises(FileExistsError, match="not an empty folder"):
        segagree.copy_sample_corpora(target)
    assert target.read_text(encoding="utf-8") == "x"


def test_a_compilation_is_announced_once(monkeypatch: pytest.MonkeyPatch) -> None:
    heard: list[str] = []
    monkeypatch.setattr(numba_import, "first_compile", heard.append)
    monkeypatch.delenv("SEGAGREE_COMPILE_ANNOUNCED", raising=False)
    njit = numba_import.require_njit()

    @njit  # not cached: compiled on each call's first signature, so the event fires here
    def twice(x: int) -> int:
        return 2 * x

    assert twice(2) == 4 and twice(2.5) == 5.0  # two compilations, one announcement
    assert heard == [numba_import.FIRST_COMPILE_MESSAGE]
