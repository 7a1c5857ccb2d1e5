"""``segagree demo DIR``: the sample corpora copied out of an installation, for the tour."""

from __future__ import annotations

import json
import os
from pathlib import Path

from cli_process import run_cli

from conftest import REPO

SAMPLE = REPO / "sample_corpora"
ENV = {**os.environ, "PYTHONPATH": str(REPO / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_demo_copies_every_sample_file_as_it_is(tmp_path: Path) -> None:
    target = tmp_path / "tour"
    proc = run_cli(["demo", str(target), "--json"], env=ENV)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["folder"] == str(target)
    assert any(c.startswith("segagree compare garden.ann1.txt") for c in out["commands"])
    assert _files(target) == _files(SAMPLE)
    assert [p.name for p in tmp_path.iterdir()] == ["tour"]  # no staging folder left beside it


def test_demo_refuses_a_folder_with_something_in_it(tmp_path: Path) -> None:
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("keep me", encoding="utf-8")
    proc = run_cli(["demo", str(target)], env=ENV)
    assert proc.returncode == 1
    assert "not an empty folder" in proc.stderr and "Traceback" not in proc.stderr
    assert [p.name for p in target.iterdir()] == ["notes.txt"]
    assert (target / "notes.txt").read_text(encoding="utf-8") == "keep me"


def test_the_tour_commands_run_in_the_copy(tmp_path: Path) -> None:
    target = tmp_path / "tour"
    assert run_cli(["demo", str(target)], env=ENV).returncode == 0
    proc = run_cli(["compare", "garden.ann1.txt", "garden.ann2.txt", "--json"], env=ENV, cwd=target)
    assert proc.returncode == 0, proc.stderr
    assert 0 < json.loads(proc.stdout)["sf"] < 1
