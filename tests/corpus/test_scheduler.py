"""The corpus scheduler at scale: a Dask cluster with its own scheduler gives the same numbers,
Ctrl-C stops a run cleanly and running again resumes, the results are read back lazily."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

import pytest
from cli_process import run_cli

from segagree.api.run_corpus import run_corpus
from segagree.corpus.config import RunConfig
from segagree.corpus.results_log import RESULTS_LOG, LoggedResults, load_index
from segagree.corpus.scheduler import DASK_SCHEDULER_ENV, score_corpus

from conftest import REPO

SAMPLE = REPO / "sample_corpora"


def _corpus(folder: Path, n_texts: int) -> Path:
    """``n_texts`` copies of the sample conversation under new names, two annotators each."""
    folder.mkdir(parents=True)
    for i in range(n_texts):
        for ann in ("ann1", "ann2"):
            shutil.copy(SAMPLE / f"garden.{ann}.txt", folder / f"t{i:03d}.{ann}.txt")
    return folder


def _config(sims: int = 20) -> RunConfig:
    config = RunConfig()
    config.kappa.sims = sims
    config.kappa.seed = 7
    return config


def test_dask_with_a_separate_scheduler_gives_identical_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    distributed = pytest.importorskip("dask.distributed", reason="the dask extra is not installed")
    corpus = _corpus(tmp_path / "corpus", 6)
    # The numbers do not depend on the backend or the worker count: the run in this process is
    # the reference (a loky pool of this test process would cost two more imports of segagree).
    local = run_corpus(corpus, tmp_path / "local", _config(), jobs=1, workbooks=False)
    # (patch.dict: the cluster's nannies leave PYTHONHASHSEED and thread counts in os.environ)
    with (
        mock.patch.dict(os.environ),
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
    ):
        monkeypatch.setenv(DASK_SCHEDULER_ENV, cluster.scheduler_address)
        remote = run_corpus(corpus, tmp_path / "dask", _config(), jobs=2, backend="dask", workbooks=False)
        workers = len(cluster.scheduler_info["workers"])
    assert workers == 2 and remote.computed == 6
    assert remote.rows == local.rows
    for name in ("summary.csv", "report.html"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()


def test_results_are_read_back_from_the_log_in_task_order(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", 3)
    out = tmp_path / "out"
    outcome = score_corpus(corpus, out, _config(), jobs=1)
    assert isinstance(outcome.results, LoggedResults)
    assert [r["text"] for r in outcome.results] == ["t000", "t001", "t002"]
    assert outcome.results[1]["text"] == "t001" and [r["text"] for r in outcome.results[1:]] == ["t001", "t002"]
    index = load_index(out / RESULTS_LOG)
    assert {light["key"] for light in outcome.pairs} == set(index)
    for light, result in zip(outcome.pairs, outcome.results, strict=True):
        assert "tracks" not in result and "operation_rows" not in result and result["figures"]
        assert light["sf"] == result["compare"]["sf"] and light["cost"] == result["compare"]["cost"]
    # A torn last line (a killed run) is skipped, and the next run's lines start on a line of their own.
    with (out / RESULTS_LOG).open("ab") as fh:
        fh.write(b'{"key": "torn", "ok": tr')
    again = score_corpus(corpus, out, _config(), jobs=1)
    assert again.reused == 3 and again.computed == 0
    (corpus / "t001.ann2.txt").write_text((corpus / "t001.ann2.txt").read_text().replace(" .", " ?", 1))
    third = score_corpus(corpus, out, _config(), jobs=1)
    assert third.computed == 1 and [r["text"] for r in third.results] == ["t000", "t001", "t002"]
    lines = (out / RESULTS_LOG).read_bytes().splitlines()
    assert sum(1 for line in lines if line.startswith(b'{"key": "torn"')) == 1
    assert json.loads(lines[-1])["text"] == "t001"


def test_ctrl_c_stops_cleanly_and_running_again_resumes(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", 16)
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    cmd = [sys.executable, "-m", "segagree", "run", str(corpus), "-o", str(out), "--jobs", "2", "--sims", "4000"]
    # A terminal's Ctrl-C signals the whole foreground process group: the command and its workers.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True)
    log = out / RESULTS_LOG
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        if log.exists() and log.read_bytes().count(b"\n") >= 2:
            break
        time.sleep(0.05)
    if proc.poll() is not None:
        pytest.skip("the run finished before it could be interrupted")
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    stderr = err.decode()
    assert proc.returncode == 130, stderr
    assert "segagree: interrupted" in stderr and "Traceback" not in stderr
    lines = log.read_bytes().splitlines()
    finished = len(lines)
    assert 2 <= finished < 16
    assert all(json.loads(line)["ok"] for line in lines)  # every line whole: the log is consistent
    assert not (out / "summary.csv").exists()  # no summary claims a finished run
    # Running again resumes: which pairs it scores does not depend on workers (nor do the numbers),
    # so the rerun and the uninterrupted reference run in one process each, forked from this one
    # (two fresh interpreters and four pool workers fewer; the summaries must then agree across
    # worker counts too).
    again = run_cli(["run", corpus, "-o", out, "--jobs", "1", "--sims", "4000", "--json", "-q"])
    assert again.returncode == 0, again.stderr[-2000:]
    assert len(log.read_bytes().splitlines()) == 16  # only the missing pairs were scored
    config = RunConfig()
    config.kappa.sims = 4000  # the command's settings
    fresh = run_corpus(corpus, tmp_path / "fresh", config, jobs=1, workbooks=False, report=False)
    assert len(fresh.pairs) == 16 and not fresh.failures
    assert (out / "summary.csv").read_bytes() == (tmp_path / "fresh" / "summary.csv").read_bytes()
