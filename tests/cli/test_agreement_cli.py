"""``segagree agree``: tables, one JSON object, definitions, one-line errors and exit codes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from cli_process import run_cli

from conftest import REPO

SAMPLE = REPO / "sample_corpora"
A1, A2 = SAMPLE / "garden.ann1.txt", SAMPLE / "tables" / "garden.ann2.csv"


def segagree(*args: str) -> subprocess.CompletedProcess:
    return run_cli(args)


def one_line_error(proc: subprocess.CompletedProcess, code: int, needle: str) -> None:
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


def test_two_annotators_json() -> None:
    proc = segagree(
        "agree", str(A1), str(A2), "--sims", "30", "--seed", "7", "--json", "--ci-speakers", "--n-boot", "200"
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)  # exactly one object
    assert out["K"] == 30 and out["seed"] == 7 and out["chance"] == "cohen"
    (pair,) = out["pairs"]
    assert set(pair["speakers"]) == {"ROSA", "BEN", "MAYA"}
    for row in [*pair["speakers"].values(), pair["pooled"]]:
        for key in ("kappa_sf", "kappa_sf_b"):
            est = row[key]
            assert {"observed", "chance_mean", "chance_sd", "kappa", "se"} <= set(est)
            assert -1 <= est["kappa"] <= 1
    assert pair["ci"]["kappa_sf"]["unit"] == "speaker" and pair["ci"]["kappa_sf"]["low"] is not None
    assert {"sf", "sf_b", "kappa_sf", "se", "pi", "kappa", "bias"} <= set(out["definitions"])
    assert out["multi"] is None


def test_three_annotators_table_and_multi() -> None:
    proc = segagree("agree", str(A1), str(A2), str(A1), "--sims", "10", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert len(out["pairs"]) == 3
    assert out["pairs"][1]["pooled"]["sf"] == 1.0  # the file against itself
    assert set(out["multi"]) == {"sf", "sf_b"} and out["multi"]["sf"]["pi"] is not None
    assert out["pairs"][0]["ci"]["kappa_sf"]["reason"].startswith("only 1 text")
    table = segagree("agree", str(A1), str(A2), str(A1), "--sims", "10", "--quiet")
    assert table.returncode == 0, table.stderr
    for needle in ("kappa S_f", "pairwise", "multi-pi", "ALL", "no interval"):
        assert needle in table.stdout
    assert table.stderr == ""


def test_exact_and_chance_options() -> None:
    out = json.loads(
        segagree("agree", str(A1), str(A2), "--exact", "--no-transpositions", "--json", "--chance", "scott").stdout
    )
    pooled = out["pairs"][0]["pooled"]
    assert out["chance_method"] == "exact" and pooled["kappa_sf"]["se"] == 0.0
    assert pooled["kappa_sf_b"]["kappa"] is None and pooled["kappa_sf_b"]["reason"]


def test_dataset_mode(tmp_path: Path) -> None:
    segeval = pytest.importorskip("segeval", reason="uses segeval's bundled JSON dataset")
    path = Path(segeval.__file__).parent / "data" / "hearst1997.json"
    out = json.loads(segagree("agree", "--dataset", str(path), "--json").stdout)
    assert out["multi"]["b"]["pi"] == pytest.approx(0.4644497376737814)
    assert len(out["pairwise"]["s"]) == 21
    table = segagree("agree", "--dataset", str(path))
    assert table.returncode == 0 and "Scott's pi" in table.stdout


@pytest.mark.parametrize(
    "args,code,needle",
    [
        ((str(A1),), 2, "two or more"),
        ((), 2, "two or more"),
        ((str(A1), str(A2), "--sims", "0"), 2, "--sims"),
        ((str(A1), str(A2), "--chance", "nope"), 2, "--chance"),
        ((str(A1), str(A2), "--dataset", "x.json"), 2, "not both"),
        ((str(A1), str(A2), "--exact"), 2, "exact"),
        ((str(A1), str(SAMPLE / "missing.txt")), 1, "missing.txt"),
    ],
)
def test_errors(args: tuple[str, ...], code: int, needle: str) -> None:
    one_line_error(segagree("agree", *args), code, needle)


def test_mismatched_texts_error(tmp_path: Path) -> None:
    other = tmp_path / "other.txt"
    other.write_text("ROSA: hello there .\n", encoding="utf-8")
    one_line_error(segagree("agree", str(A1), str(other)), 1, "speakers")
    ds = tmp_path / "ds.json"
    ds.write_text(
        json.dumps(
            {"segmentation_type": "linear", "items": {"i": {"a": [2, 3], "b": [5]}, "j": {"a": [1, 1], "c": [2]}}}
        )
    )
    one_line_error(segagree("agree", "--dataset", str(ds)), 1, "same coders")
