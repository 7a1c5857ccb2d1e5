"""The Python API at the package top (segagree.read/write/convert/compare/agree/run)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import run_cli

import segagree

from conftest import REPO

SAMPLE = REPO / "sample_corpora"
# This checkout's sources first, whatever the working directory.
ENV = {**os.environ, "PYTHONPATH": str(REPO / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}


@pytest.fixture
def sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    dest = tmp_path / "sample"
    shutil.copytree(SAMPLE, dest)
    monkeypatch.chdir(dest)
    return dest


def test_public_names():
    for name in ("read", "write", "convert", "compare", "agree", "run", "metric_cards"):
        assert callable(getattr(segagree, name)), name
    for name in ("Document", "LossReport", "CompareResult", "AgreementResult", "ConversionReport", "RunOutcome"):
        assert isinstance(getattr(segagree, name), type), name
    assert issubclass(segagree.InputError, segagree.SegagreeError)
    assert set(segagree.__all__) <= set(dir(segagree))
    with pytest.raises(AttributeError):
        segagree.nosuch  # noqa: B018
    for name in ("read", "write", "convert", "compare", "agree", "run"):
        doc = getattr(segagree, name).__doc__
        assert doc and len(doc.split()) > 20, name


def test_compare_paths_or_documents_same_numbers(sample):
    a = segagree.read("garden.ann1.txt")
    by_path = segagree.compare("garden.ann1.txt", "tables/garden.ann2.csv", metrics=["b", "pk", "ghd"])
    by_doc = segagree.compare(a, segagree.read("tables/garden.ann2.csv"), metrics="b,pk,ghd")
    assert isinstance(by_path, segagree.CompareResult)
    assert by_path.sf == by_doc.sf and by_path.value("ghd") == by_doc.value("ghd")
    cli = run_cli(["compare", "garden.ann1.txt", "tables/garden.ann2.csv", "--json"], env=ENV)
    assert json.loads(cli.stdout)["sf"] == by_path.sf  # the CLI is a face over the same function
    assert by_path.value("sf_b") == by_path.sf_b
    assert set(by_path.per_speaker) == {"ROSA", "BEN", "MAYA"}
    json.dumps({k: v for k, v in by_path.items() if k != "operation_rows"})  # JSON-ready


def test_compare_align_and_speaker_rule(sample, tmp_path):
    text = (sample / "garden.ann2.txt").read_text(encoding="utf-8")
    other = tmp_path / "b.txt"
    other.write_text(text.replace("a deer in", "a moose in"), encoding="utf-8")
    with pytest.raises(segagree.MismatchError, match="--align"):
        segagree.compare("garden.ann1.txt", other)
    assert segagree.compare("garden.ann1.txt", other, align=True).mismatches


def test_agree_and_convert_and_write(sample):
    res = segagree.agree("garden.ann1.txt", "garden.ann2.txt", sims=50, n_boot=20, seed=3)
    assert isinstance(res, segagree.AgreementResult)
    assert res.kappa == res.pairs[0]["pooled"]["kappa_sf"]["kappa"]
    again = segagree.agree(segagree.read("garden.ann1.txt"), "garden.ann2.txt", sims=50, n_boot=20, seed=3)
    assert again.kappa == res.kappa
    report = segagree.convert("garden.ann1.txt", "g.segagree.json")
    assert report.lossless and report.to_dict()["lossless"] is True
    lossy = segagree.convert("tools/garden.ann1.eaf", "g.srt")
    assert not lossy.lossless and lossy.lines()
    doc = segagree.read("g.segagree.json")
    losses = segagree.write(doc, "g2.txt")
    assert isinstance(losses, segagree.LossReport)
    assert Path("g2.txt").read_text(encoding="utf-8") == (SAMPLE / "garden.ann1.txt").read_text(encoding="utf-8")
    assert segagree.read("tables/garden.ann2.csv", "CSV").n_tokens == doc.n_tokens


def test_run(sample, tmp_path):
    out = tmp_path / "out"
    outcome = segagree.run(sample, out, kappa=False, workbooks=False, report=False, reference="ann2")
    assert isinstance(outcome, segagree.RunOutcome)
    assert (out / "summary.csv").is_file()
    assert {r["annotator_a"] for r in outcome.rows if r["text"] == "garden"} == {"ann2"}
    with pytest.raises(segagree.SegagreeError, match="no such folder"):
        segagree.run(tmp_path / "nosuch", out)


def test_metric_cards_include_ghd():
    cards = segagree.metric_cards()
    assert "ghd" in cards and "nltk" in cards["ghd"].reference.lower()


def test_the_python_pages_example_runs(sample):
    page = (REPO / "docs" / "python.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert blocks, "docs/python.md has no python example"
    proc = subprocess.run([sys.executable, "-c", blocks[0]], capture_output=True, text=True, timeout=300, env=ENV)
    assert proc.returncode == 0, proc.stderr
    assert "True" in proc.stdout or "False" in proc.stdout


@pytest.mark.parametrize("module", ["compare_cmd", "agree_cmd", "convert_cmd", "run_cmd", "metrics_cmd"])
def test_cli_commands_are_faces_over_the_api(module):
    source = (REPO / "src" / "segagree" / "cli" / f"{module}.py").read_text(encoding="utf-8")
    assert "import segagree.api as api" in source
    assert "segagree.metrics" not in source  # no metric is computed in the CLI
