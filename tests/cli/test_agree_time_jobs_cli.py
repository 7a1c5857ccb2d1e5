"""``segagree agree --time --jobs N``: the recordings of a units table scored in worker processes, the
same JSON for any N; the option in --help; a bad value is a usage error (exit 2)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_process import run_cli

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scoring"))
from test_time_jobs import write_table  # noqa: E402


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("jobs_cli") / "export.csv"
    write_table(path, recordings=3)
    return path


def test_jobs_1_and_2_print_the_same_numbers(table: Path) -> None:
    base = ["agree", "--time", str(table), "--samples", "4", "--seed", "3"]
    outs = {j: run_cli([*base, "--json", "--jobs", str(j)]) for j in (1, 2)}
    for proc in outs.values():
        assert proc.returncode == 0, proc.stderr
    one, two = (json.loads(outs[j].stdout) for j in (1, 2))
    assert len(one["speakers"]) == 3 and one["gamma"] is not None
    assert one == two
    tables = [run_cli([*base, "--jobs", str(j)]) for j in (1, 2)]
    assert tables[0].returncode == 0 and tables[0].stdout == tables[1].stdout


def test_jobs_takes_any_measure(table: Path) -> None:
    proc = run_cli(["agree", "--time", str(table), "--measure", "alpha_u", "--jobs", "2", "--json"])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["alpha_u"] is not None


def test_jobs_is_in_the_help() -> None:
    proc = run_cli(["agree", "--help"])
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert "--jobs" in text and "with --time, for the recordings and speakers" in text


@pytest.mark.parametrize("value", ["0", "-2", "two", "1.5"])
def test_a_bad_jobs_value_exits_2(table: Path, value: str) -> None:
    proc = run_cli(["agree", "--time", str(table), "--jobs", value])
    assert proc.returncode == 2
    assert "--jobs" in proc.stderr and "Traceback" not in proc.stderr
