"""``segagree agree --time``: table and one JSON object, options reach the measures, one-line errors."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from cli_process import run_cli

SAMPLE = Path(__file__).resolve().parents[2] / "sample_corpora" / "time"


def segagree(*args: str, cwd: Path = SAMPLE) -> subprocess.CompletedProcess:
    return run_cli(args, cwd=cwd)


def test_table_and_json_agree() -> None:
    table = segagree("agree", "--time", "kim.TextGrid", "lee.TextGrid")
    assert table.returncode == 0, table.stderr
    assert "alpha_u" in table.stdout and "units per annotator: kim 6, lee 6" in table.stdout
    proc = segagree("agree", "--time", "gestures.eaf", "--annotator-tier", "kim", "--annotator-tier", "lee", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["annotators"] == ["kim", "lee"]
    assert f"{out['alpha_u']:.4f}" in table.stdout
    assert "alpha_u_categories" in out and "kim|lee" in out["measures"]["elan_kappa"]["pooled"]["elan_pairs"]


def test_options_reach_the_measures() -> None:
    base = ["agree", "--time", "gestures.csv", "--json", "--measure", "boundary_f1", "--measure", "elan_kappa"]
    strict = json.loads(segagree(*base, "--tolerance", "0").stdout)
    loose = json.loads(segagree(*base, "--tolerance", "0.5", "--min-overlap", "0.9").stdout)
    assert list(strict["measures"]) == ["boundary_f1", "elan_kappa"]
    assert strict["boundary_f1"] < loose["boundary_f1"]
    assert strict["parameters"]["tolerance"] == 0 and loose["parameters"]["min_overlap"] == 0.9
    wide = json.loads(segagree(*base, "--continuum", "0,20", "--annotators", "lee,kim,zoe").stdout)
    assert wide["continuum"] == [0, 20] and wide["annotators"] == ["lee", "kim", "zoe"]


@pytest.mark.parametrize(
    "args, code, needle",
    [
        (("--continuum", "5"), 2, "--continuum takes START,END"),
        (("--measure", "no_such_measure"), 2, "unknown metric"),
        (("--annotators", "kim"), 2, "not in --annotators"),
    ],
)
def test_usage_errors(args: tuple[str, ...], code: int, needle: str) -> None:
    proc = segagree("agree", "--time", "gestures.csv", *args)
    assert proc.returncode == code, (proc.stdout, proc.stderr)
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in proc.stderr


def test_bad_time_is_one_line_with_the_place(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("annotator,start,end,category\na,0,1,x\nb,2,1,x\n", encoding="utf-8")
    proc = segagree("agree", "--time", str(bad), cwd=tmp_path)
    assert proc.returncode == 1
    assert "line 3" in proc.stderr and "ends (1.0) before it starts (2.0)" in proc.stderr
