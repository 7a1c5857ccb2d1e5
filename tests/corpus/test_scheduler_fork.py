"""A few tasks with --jobs 2: scored in forked children and this process, with the numbers of one
process, each child's failure reported by text."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from segagree.api.run_corpus import run_corpus
from segagree.corpus import scheduler
from segagree.corpus.config import RunConfig
from segagree.errors import SegagreeError

from conftest import REPO

SAMPLE = REPO / "sample_corpora"
pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or scheduler.usable_cpus() < 2, reason="forked children: Linux, two CPUs"
)


@pytest.fixture
def may_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forking allowed although earlier tests of this worker may have left threads running (a
    Dask cluster's): the children here only score."""
    monkeypatch.setattr(scheduler, "_can_fork", lambda: True)


def corpus(tmp_path: Path) -> Path:
    """Three texts of two annotators, from the sample corpus's intonation-unit files."""
    root = tmp_path / "corpus"
    root.mkdir()
    for text in ("garden", "kitchen", "station"):
        for ann in ("ann1", "ann2"):
            shutil.copy(SAMPLE / f"garden.{ann}.txt", root / f"{text}.{ann}.txt")
    return root


def config() -> RunConfig:
    cfg = RunConfig()
    cfg.kappa.enabled = False
    return cfg


def test_forked_children_give_the_numbers_of_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, may_fork: None
) -> None:
    root = corpus(tmp_path)
    one = run_corpus(root, tmp_path / "one", config(), workbooks=False, report=False, jobs=1)
    calls = []
    forked = scheduler._execute_forked

    def counted(*args, **kwargs):
        calls.append(len(args[0]))
        return forked(*args, **kwargs)

    monkeypatch.setattr(scheduler, "_execute_forked", counted)
    two = run_corpus(root, tmp_path / "two", config(), workbooks=True, report=False, jobs=2)
    assert calls == [3]  # three tasks: fewer than a pool is worth, more than one
    assert [r for r in one.rows] == [r for r in two.rows]
    assert sorted(p.name for p in (tmp_path / "two" / "review").iterdir()) == [
        "garden.xlsx",
        "kitchen.xlsx",
        "station.xlsx",
    ]


def test_a_child_that_dies_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, may_fork: None) -> None:
    root = corpus(tmp_path)
    parent = os.getpid()
    score = scheduler.score_for_log

    def dies_in_a_child(task, cfg, hook=None):
        if os.getpid() != parent and task[0] == "garden":
            os._exit(3)
        return score(task, cfg, hook)

    monkeypatch.setattr(scheduler, "score_for_log", dies_in_a_child)
    with pytest.raises(SegagreeError, match=r"scoring text 'garden' stopped without a result \(exit code 3\)"):
        run_corpus(root, tmp_path / "out", config(), workbooks=False, report=False, jobs=2)


def test_a_childs_error_is_raised_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, may_fork: None) -> None:
    root = corpus(tmp_path)
    parent = os.getpid()
    score = scheduler.score_for_log

    def fails_in_a_child(task, cfg, hook=None):
        if os.getpid() != parent:
            raise SegagreeError("cannot read this", path=Path(task[3]))
        return score(task, cfg, hook)

    monkeypatch.setattr(scheduler, "score_for_log", fails_in_a_child)
    with pytest.raises(SegagreeError, match="garden.ann1.txt: cannot read this"):
        run_corpus(root, tmp_path / "out", config(), workbooks=False, report=False, jobs=2)


def test_no_fork_while_another_thread_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A caller with threads of its own (a notebook, a thread pool) gets the tasks scored here."""
    import threading

    root = corpus(tmp_path)
    monkeypatch.setattr(scheduler, "_execute_forked", lambda *a, **k: pytest.fail("forked with a thread running"))
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        outcome = run_corpus(root, tmp_path / "out", config(), workbooks=False, report=False, jobs=2)
    finally:
        stop.set()
        other.join()
    assert not outcome.failures and len(outcome.results) == 3
