"""segagree.version's fast path (the dist-info METADATA read directly) against importlib.metadata."""

from __future__ import annotations

import sys
from importlib.metadata import version as installed_version

import pytest

from segagree import version as version_module


def test_fast_path_agrees_with_importlib_metadata() -> None:
    assert version_module._scan_path() == installed_version("segagree")


def _dist(folder, name: str, text: str) -> None:
    (folder / name).mkdir(parents=True)
    (folder / name / "METADATA").write_text(text, encoding="utf-8")


def test_the_first_dist_info_along_the_path_wins(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    body = "Metadata-Version: 2.1\nName: segagree\nVersion: {}\nSummary: x\n\nVersion: 9.9 (in the description)\n"
    _dist(first, "segagree-1.2.3.dist-info", body.format("1.2.3"))
    _dist(second, "segagree-4.5.6.dist-info", body.format("4.5.6"))
    (tmp_path / "not-a-folder.zip").write_bytes(b"")
    monkeypatch.setattr(
        sys, "path", [str(tmp_path / "not-a-folder.zip"), str(tmp_path / "gone"), str(first), str(second)]
    )
    assert version_module._scan_path() == "1.2.3"
    monkeypatch.setattr(sys, "path", [str(second), str(first)])
    assert version_module._scan_path() == "4.5.6"


def test_headers_only_and_other_layouts_fall_back(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A Version line after the headers is the description's, not the version.
    _dist(tmp_path / "a", "segagree-0.dist-info", "Name: segagree\n\nVersion: 7\n")
    (tmp_path / "b" / "segagree-2.0.egg-info").mkdir(parents=True)
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "segagreeable-1.0.dist-info").mkdir()  # another distribution
    monkeypatch.setattr(sys, "path", [str(tmp_path / "a")])
    assert version_module._scan_path() is None
    monkeypatch.setattr(sys, "path", [str(tmp_path / "b"), str(tmp_path / "a")])
    assert version_module._scan_path() is None  # the egg-info is first: importlib.metadata's to read
    monkeypatch.setattr(sys, "path", [str(tmp_path / "c")])
    assert version_module._scan_path() is None
