"""The four subtitle-tool commands end to end on sample_corpora/ (help examples run as written)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_process import run_cli

SAMPLES = Path(__file__).parents[2] / "sample_corpora"


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return run_cli(args, cwd=cwd)


@pytest.fixture()
def work(tmp_path) -> Path:
    shutil.copy(SAMPLES / "film.ref.srt", tmp_path)
    shutil.copy(SAMPLES / "film.mt.srt", tmp_path)
    return tmp_path


def test_degrade_is_reproducible_and_keeps_words(work):
    a = _run(["degrade", "film.ref.srt", "-o", "a.srt", "--shift", "2", "--p", "0.5", "--seed", "3", "--json"], work)
    b = _run(["degrade", "film.ref.srt", "-o", "b.srt", "--shift", "2", "--p", "0.5", "--seed", "3"], work)
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    assert (work / "a.srt").read_text() == (work / "b.srt").read_text()
    info = json.loads(a.stdout)
    assert info["max_displacement"] <= 2 and info["format"] == "srt"
    words = lambda p: [w for line in p.read_text().splitlines() if line and not line[0].isdigit() for w in line.split()]  # noqa: E731
    assert words(work / "a.srt") == words(work / "film.ref.srt")


def test_degrade_usage_errors(work):
    both = _run(["degrade", "film.ref.srt", "-o", "x.srt", "--delete", "--insert", "--p", "0.5"], work)
    assert both.returncode == 2 and "exactly one" in both.stderr
    same = _run(["degrade", "film.ref.srt", "-o", "film.ref.srt", "--delete", "--p", "0.5"], work)
    assert same.returncode == 1 and "overwrite" in same.stderr
    missing = _run(["degrade", "nothere.srt", "-o", "x.srt", "--delete", "--p", "0.5"], work)
    assert missing.returncode == 1 and "Traceback" not in missing.stderr


def test_segment_and_check(work):
    seg = _run(["segment", "film.ref.srt", "--baseline", "length", "--max-cpl", "30", "-o", "len.srt", "--json"], work)
    assert seg.returncode == 0, seg.stderr
    chk = _run(["check", "len.srt", "--profile", "ted", "--json"], work)
    assert chk.returncode == 0, chk.stderr
    res = json.loads(chk.stdout)
    lines = [x for c in res["per_cue"] for x in c["lines"]]
    assert res["violations"]["cpl"] == 0 and all(len(x) <= 30 for x in lines)
    bad = _run(["check", "film.ref.srt", "--profile", "nosuch"], work)
    assert bad.returncode == 2 and "netflix-en" in bad.stderr


def test_study_writes_csv_plots_and_page(work):
    res = _run(["study", "film.ref.srt", "film.mt.srt", "-o", "st", "--seeds", "1", "--steps", "2", "--json"], work)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert (work / out["csv"]).is_file() and (work / out["html"]).is_file() and out["plots"]
