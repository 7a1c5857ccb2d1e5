"""``-`` is standard input and standard output wherever a file goes: the bytes are those of the
same command with files; ``-`` needs a format to be named; no file called ``-`` is ever written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_process import run_cli

SAMPLE = Path(__file__).resolve().parents[2] / "sample_corpora"


@pytest.fixture
def work(tmp_path: Path) -> Path:
    for name in ("garden.ann1.txt", "garden.ann2.txt", "film.ref.srt"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    return tmp_path


def test_convert_from_standard_input_to_standard_output_gives_the_file_conversion(work):
    ok = run_cli(["convert", "garden.ann1.txt", "-o", "file.TextGrid"], cwd=work)
    assert ok.returncode == 0, ok.stderr
    piped = run_cli(
        ["convert", "-", "--from", "text", "-o", "-", "--to", "praat"],
        cwd=work,
        stdin=work / "garden.ann1.txt",
    )
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == (work / "file.TextGrid").read_text(encoding="utf-8")
    assert "wrote standard output (textgrid)" in piped.stderr
    assert not (work / "-").exists()


def test_a_dash_needs_a_format_and_is_read_once(work):
    proc = run_cli(["convert", "garden.ann1.txt", "-o", "-"], cwd=work)
    assert proc.returncode == 2 and "standard output ('-') needs --to FORMAT" in proc.stderr
    proc = run_cli(["compare", "-", "garden.ann2.txt"], cwd=work, stdin=work / "garden.ann1.txt")
    assert proc.returncode == 2 and "standard input ('-') needs --from FORMAT" in proc.stderr
    proc = run_cli(["compare", "-", "-", "--from", "text"], cwd=work)
    assert proc.returncode == 2 and "only one input can be standard input" in proc.stderr
    proc = run_cli(["convert", "garden.ann1.txt", "-o", "-", "--to", "eaf", "--json"], cwd=work)
    assert proc.returncode == 2 and "both write to standard output" in proc.stderr
    assert not (work / "-").exists()


def test_compare_reads_standard_input_and_writes_operations_to_standard_output(work):
    files = run_cli(["compare", "garden.ann1.txt", "garden.ann2.txt", "--json", "--ops", "ops.csv"], cwd=work)
    piped = run_cli(
        ["compare", "garden.ann1.txt", "-", "--from", "text", "--json"],
        cwd=work,
        stdin=work / "garden.ann2.txt",
    )
    assert files.returncode == piped.returncode == 0, piped.stderr
    a, b = json.loads(files.stdout), json.loads(piped.stdout)
    assert (a["sf"], a["sf_b"], a["per_speaker"]) == (b["sf"], b["sf_b"], b["per_speaker"])
    ops = run_cli(["compare", "garden.ann1.txt", "garden.ann2.txt", "--ops", "-"], cwd=work)
    assert ops.returncode == 0, ops.stderr
    assert ops.stdout == (work / "ops.csv").read_text(encoding="utf-8")  # the CSV alone: no table


def test_segment_writes_standard_output_in_the_input_format(work):
    ok = run_cli(["segment", "film.ref.srt", "-o", "file.srt", "--max-cpl", "30"], cwd=work)
    piped = run_cli(
        ["segment", "-", "--from", "srt", "-o", "-", "--max-cpl", "30"], cwd=work, stdin=work / "film.ref.srt"
    )
    assert ok.returncode == piped.returncode == 0, piped.stderr
    assert piped.stdout == (work / "file.srt").read_text(encoding="utf-8")
