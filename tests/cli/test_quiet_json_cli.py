"""``-q``/``--quiet`` and ``--json`` on every command where they fit: ``--quiet`` leaves stderr to
notes, warnings and errors; ``--json`` prints exactly one JSON object, of the outputs written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import click
import pytest
from cli_process import run_cli

from segagree.cli import COMMANDS

SAMPLE = Path(__file__).resolve().parents[2] / "sample_corpora"
# what -q would have nothing to silence in: they print their results and say nothing on stderr
NO_QUIET = {"formats", "metrics", "check"}


def _options(name: str) -> set[str]:
    from segagree.cli.group import app

    command = app.get_command(click.Context(app), name)
    assert command is not None
    return {opt for p in command.params if isinstance(p, click.Option) for opt in p.opts}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_takes_json_and_quiet_where_they_fit(name):
    options = _options(name)
    assert "--json" in options
    if name not in NO_QUIET:
        assert {"-q", "--quiet"} <= options


def test_review_and_adjudicate_print_one_json_object_and_stay_quiet(tmp_path):
    for name in ("garden.ann1.txt", "garden.ann2.txt"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    review = run_cli(
        ["review", "garden.ann1.txt", "garden.ann2.txt", "-o", "g.xlsx", "--no-kappa", "--json"], cwd=tmp_path
    )
    assert review.returncode == 0, review.stderr
    written = json.loads(review.stdout)
    import openpyxl

    sheet = openpyxl.load_workbook(tmp_path / "g.xlsx", read_only=True)["Operations"]
    rows = sum(1 for row in sheet.iter_rows(min_row=2, values_only=True) if any(c is not None for c in row))
    assert written["path"] == "g.xlsx" and written["operations"] == rows > 0
    gold = run_cli(["adjudicate", "g.xlsx", "-o", "gold.txt", "--json"], cwd=tmp_path)
    assert gold.returncode == 0, gold.stderr
    record = json.loads(gold.stdout)
    assert record["output"] == "gold.txt" and len(record["undecided"]) == rows and (tmp_path / "gold.txt").exists()
    for args in (
        ["review", "garden.ann1.txt", "garden.ann2.txt", "-o", "h.xlsx", "--no-kappa", "-q"],
        ["adjudicate", "g.xlsx", "-o", "gold2.txt", "-q"],
        ["convert", "garden.ann1.txt", "-o", "x.TextGrid", "--quiet"],
    ):
        proc = run_cli(args, cwd=tmp_path)
        assert proc.returncode == 0 and proc.stdout == ""
        assert "wrote" not in proc.stderr, (args, proc.stderr)
    assert (tmp_path / "h.xlsx").exists() and (tmp_path / "gold2.txt").exists() and (tmp_path / "x.TextGrid").exists()
    noisy = run_cli(["convert", "garden.ann1.txt", "-o", "y.TextGrid"], cwd=tmp_path)
    assert "wrote y.TextGrid" in noisy.stderr
