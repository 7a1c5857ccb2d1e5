"""``segagree run CORPUS -o OUT --time``: the outputs, options reaching the measures, exit codes."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from pathlib import Path

from cli_process import run_cli

import segagree.api as api

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_corpora" / "time"
FAST = ("--measure", "alpha_u", "--measure", "boundary_f1")


def segagree(*args: str | Path) -> subprocess.CompletedProcess:
    return run_cli(args)


def _corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    root.mkdir()
    for text in ("t1", "t2"):
        for who in ("kim", "lee"):
            shutil.copy(SAMPLE / f"{who}.TextGrid", root / f"{text}.{who}.TextGrid")
    (root / "t2.lee.TextGrid").write_text(
        (SAMPLE / "lee.TextGrid").read_text().replace('text = "point"', 'text = "beat"'), encoding="utf-8"
    )
    return root


def test_run_time_writes_every_output(tmp_path: Path) -> None:
    root, out = _corpus(tmp_path), tmp_path / "out"
    proc = segagree("run", root, "-o", out, "--time", *FAST, "--tolerance", "0.2")
    assert proc.returncode == 0, proc.stderr
    assert "all texts" in proc.stdout and "2 texts scored" in proc.stderr
    with (out / "summary.csv").open(encoding="utf-8") as fh:
        rows = {(r["text"], r["measure"]): r for r in csv.DictReader(fh)}
    assert set(rows) == {(t, m) for t in ("t1", "t2", "ALL") for m in ("alpha_u", "boundary_f1")}
    for text in ("t1", "t2"):
        alone = api.agree_time(sorted(root.glob(f"{text}.*")), measures=["alpha_u"])
        assert float(rows[(text, "alpha_u")]["value"]) == alone["alpha_u"]
    assert rows[("t1", "alpha_u")]["value"] != rows[("t2", "alpha_u")]["value"]
    html = (out / "report.html").read_text(encoding="utf-8")
    assert ">t1</a>" in html and ">t2</a>" in html
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["parameters"]["tolerance"] == 0.2


def test_options_reach_the_measures(tmp_path: Path) -> None:
    root = _corpus(tmp_path)
    runs = {}
    for tol in ("0", "0.5"):
        proc = segagree(
            "run", root, "-o", tmp_path / tol, "--time", "--measure", "boundary_f1", "--tolerance", tol, "--json"
        )
        assert proc.returncode == 0, proc.stderr
        runs[tol] = {r["text"]: r["value"] for r in json.loads(proc.stdout)["rows"]}
    assert runs["0"]["ALL"] < runs["0.5"]["ALL"]
    proc = segagree(
        "run", root, "-o", tmp_path / "g", "--time", "--measure", "gamma", "--samples", "3", "--seed", "7", "--json"
    )
    assert proc.returncode == 0, proc.stderr
    gamma = json.loads((tmp_path / "g" / "summary.json").read_text(encoding="utf-8"))["pooled"]["gamma"]
    assert gamma["samples"] == 3


def test_a_broken_file_is_listed_and_exit_code_1(tmp_path: Path) -> None:
    root, out = _corpus(tmp_path), tmp_path / "out"
    (root / "t2.kim.TextGrid").write_text("garbage\n", encoding="utf-8")
    proc = segagree("run", root, "-o", out, "--time", *FAST)
    assert proc.returncode == 1  # as the token run: outputs written, the failure named
    assert "failed: t2:" in proc.stderr and "t2.kim.TextGrid" in proc.stderr and "Traceback" not in proc.stderr
    with (out / "summary.csv").open(encoding="utf-8") as fh:
        assert {r["text"] for r in csv.DictReader(fh)} == {"t1", "ALL"}
    assert "t2.kim.TextGrid" in (out / "report.html").read_text(encoding="utf-8")


def test_usage_errors(tmp_path: Path) -> None:
    root = _corpus(tmp_path)
    for args, needle in (
        (("--measure", "no_such_measure"), "unknown metric"),
        (("--sims", "5"), "--sims does not apply with --time"),
        (("--reference", "kim"), "--reference"),
    ):
        proc = segagree("run", root, "-o", tmp_path / "out", "--time", *args)
        assert proc.returncode == 2, proc.stderr
        assert needle in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "out" / "summary.csv").exists()


def test_readme_command_runs_as_written(tmp_path: Path) -> None:
    """The `run --time` command of docs/time.md, run in sample_corpora/time/ (output redirected to
    tmp_path), gives the numbers the page quotes."""
    section = (
        (REPO / "docs" / "time.md")
        .read_text(encoding="utf-8")
        .split("## A corpus of timed annotations: `run --time`", 1)[1]
        .split("\n## ", 1)[0]
    )
    line = next(ln for ln in section.splitlines() if ln.startswith("segagree run"))
    args = line.split("#")[0].split()[1:]
    args[args.index("-o") + 1] = str(tmp_path / "results")
    proc = run_cli(args, cwd=SAMPLE.parent)  # the page runs in sample_corpora/
    assert proc.returncode == 0, proc.stderr
    with (tmp_path / "results" / "summary.csv").open(encoding="utf-8") as fh:
        rows = {(r["text"], r["measure"]): float(r["value"]) for r in csv.DictReader(fh) if r["speaker"] == "ALL"}
    quoted = [rows[(t, "alpha_u")] for t in ("talk1", "talk2", "ALL")]
    assert f"talk1 {quoted[0]:.4f}, talk2 {quoted[1]:.4f}, all texts {quoted[2]:.4f}" in section
    f1 = ", ".join(f"{rows[(t, 'boundary_f1')]:.4f}" for t in ("talk1", "talk2", "ALL"))
    assert f"boundary F1: {f1}" in section
