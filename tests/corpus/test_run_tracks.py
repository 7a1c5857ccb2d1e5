"""One run machinery for every track: a run in time resumes after SIGINT and SIGKILL to the summary of
an uninterrupted run, keeps the previous outputs until new ones replace them, reuses everything when
nothing changed, gives the same numbers on Dask; one run at a time per output folder; log lines are
reused only when their key matches; token runs pool every boundary measure over texts from summed
statistics; both tracks write the same summary columns; the time report has a page per text."""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from cli_process import run_cli

import segagree.api as api
from segagree.corpus.lock import LOCK_NAME, RunLocked
from segagree.corpus.results_log import RESULTS_LOG
from segagree.errors import SegagreeError
from segagree.formats import read_document
from segagree.metrics.registry import get_measure
from segagree.scoring.metric_runner import token_items
from segagree.scoring.tokens.pairing import pair_annotations

from conftest import REPO

SAMPLE = REPO / "sample_corpora"
ENV = {**os.environ, "PYTHONPATH": str(REPO / "src")}


def time_corpus(root: Path, n_texts: int, annotators: tuple[str, ...] = ("a1", "a2", "a3"), seed: int = 1) -> Path:
    """``n_texts`` texts of random units (a units table per annotator), each annotator a noisy copy
    of the text's units: shifted times, some units left out, some categories changed."""
    root.mkdir(parents=True)
    rng = np.random.default_rng(seed)
    for t in range(n_texts):
        base = np.sort(rng.uniform(0, 60, 20))
        cats = rng.choice(["x", "y", "z"], base.size)
        for who in annotators:
            lines = ["annotator,start,end,category"]
            for start, cat in zip(base, cats, strict=True):
                if rng.random() < 0.1:
                    continue
                s = max(0.0, start + rng.normal(0, 0.3))
                c = cat if rng.random() < 0.8 else rng.choice(["x", "y", "z"])
                lines.append(f"{who},{s:.3f},{s + abs(rng.normal(1.5, 0.4)) + 0.1:.3f},{c}")
            (root / f"t{t:02d}.{who}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def segagree(*args: str | Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "segagree", *map(str, args)], capture_output=True, text=True, env=ENV, timeout=600, **kw
    )


def _interrupt(cmd: list[str], log: Path, sig: int) -> tuple[int, str]:
    """Start ``cmd`` in its own process group, send ``sig`` to the group once the log has a line."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, start_new_session=True)
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        if log.exists() and log.read_bytes().count(b"\n") >= 1:
            break
        time.sleep(0.02)
    if proc.poll() is not None:
        pytest.skip("the run finished before it could be interrupted")
    os.killpg(proc.pid, sig)
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err.decode()


SETTINGS = ["--time", "--measure", "gamma", "--measure", "alpha_u", "--samples", "60", "-q"]
# The run interrupted: two workers (Ctrl-C and SIGKILL reach the whole process group, workers
# mid-text included). The complete run and the rerun that resumes need no workers (a task's
# numbers and its log key do not depend on them): one process, forked from this one, saves two
# fresh interpreters and four pool workers a test (5 s of CPU), and the resumed summary must then
# equal the complete one across worker counts too.
INTERRUPTED_ARGS = [*SETTINGS, "--jobs", "2"]
ONE_PROCESS_ARGS = [*SETTINGS, "--jobs", "1"]


@pytest.fixture(scope="module")
def uninterrupted_time_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A 10-text time corpus and its complete run (read only: each test copies the outputs)."""
    root = tmp_path_factory.mktemp("uninterrupted")
    corpus, fresh = time_corpus(root / "corpus", 10), root / "fresh"
    first = run_cli(["run", corpus, "-o", fresh, *ONE_PROCESS_ARGS])
    assert first.returncode == 0, first.stderr
    return corpus, fresh


@pytest.mark.xdist_group("uninterrupted-time-run")  # one worker: both share the complete run
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["sigint", "sigkill"])
def test_time_run_interrupted_then_run_again_gives_the_uninterrupted_summary(
    tmp_path: Path, sig: int, uninterrupted_time_run: tuple[Path, Path]
) -> None:
    corpus, fresh = uninterrupted_time_run
    out = tmp_path / "out"
    complete = (fresh / "summary.csv").read_bytes()
    shutil.copytree(fresh, out)
    (out / RESULTS_LOG).unlink()  # (--fresh empties it anyway) its first new line: the run is scoring
    cmd = [sys.executable, "-m", "segagree", "run", str(corpus), "-o", str(out), *INTERRUPTED_ARGS, "--fresh"]
    code, err = _interrupt(cmd, out / RESULTS_LOG, sig)
    if sig == signal.SIGINT:
        assert code == 130 and "segagree: interrupted" in err and "Traceback" not in err
        assert not (out / LOCK_NAME).exists()  # released on the way out
    else:
        assert code == -signal.SIGKILL and (out / LOCK_NAME).exists()  # a dead run's lock: taken over below
    lines = (out / RESULTS_LOG).read_bytes().splitlines()
    assert 1 <= len(lines) < 10
    # The interrupted rerun left the previous complete outputs in place.
    assert (out / "summary.csv").read_bytes() == complete and (out / "report.html").is_file()
    again = run_cli(["run", corpus, "-o", out, *ONE_PROCESS_ARGS, "--json"])
    assert again.returncode == 0, again.stderr
    whole = []
    for line in (out / RESULTS_LOG).read_bytes().splitlines():
        try:
            whole.append(json.loads(line)["text"])
        except ValueError:
            assert sig == signal.SIGKILL  # only a killed run leaves a torn line (skipped)
    assert sorted(whole) == [f"t{i:02d}" for i in range(10)]  # the finished texts were not scored again
    assert (out / "summary.csv").read_bytes() == complete
    assert not (out / LOCK_NAME).exists()


def test_rerun_with_nothing_changed_reuses_everything(tmp_path: Path) -> None:
    corpus = time_corpus(tmp_path / "corpus", 3)
    out = tmp_path / "out"
    first = api.run(corpus, out, time=True, measures=["alpha_u", "gamma"], params={"samples": 5})
    assert first.computed == 3 and "summary" in first.outputs["rebuilt"]
    assert sorted(p.name for p in (out / "texts").iterdir()) == ["t00.html", "t01.html", "t02.html"]
    again = api.run(corpus, out, time=True, measures=["alpha_u", "gamma"], params={"samples": 5})
    assert again.computed == 0 and again.reused == 3 and again.outputs["rebuilt"] == []
    assert again.pooled == first.pooled  # pooled from the statistics read back from the log
    # One file changed: only that text is scored again and only its page is written.
    table = corpus / "t01.a2.csv"
    table.write_text(table.read_text(encoding="utf-8").replace(",x\n", ",y\n", 1), encoding="utf-8")
    third = api.run(corpus, out, time=True, measures=["alpha_u", "gamma"], params={"samples": 5})
    assert third.computed == 1 and "texts/t01.html" in third.outputs["rebuilt"]
    assert not {"texts/t00.html", "texts/t02.html"} & set(third.outputs["rebuilt"])
    # Gamma's own workers change no number and no key.
    fourth = api.run(corpus, out, time=True, measures=["alpha_u", "gamma"], params={"samples": 5, "jobs": 2})
    assert fourth.computed == 0


def test_time_run_on_dask_gives_the_same_numbers(tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed", reason="the dask extra is not installed")
    corpus = time_corpus(tmp_path / "corpus", 4)
    kw = {"time": True, "measures": ["gamma", "alpha_u", "boundary_f1"], "params": {"samples": 5}, "report": False}
    local = api.run(corpus, tmp_path / "loky", jobs=1, **kw)
    environ = dict(os.environ)
    dask = api.run(corpus, tmp_path / "dask", jobs=2, backend="dask", **kw)
    assert dask.computed == 4 and dask.rows == local.rows
    assert dict(os.environ) == environ  # the local cluster's settings for its workers are not left behind
    assert (tmp_path / "dask" / "summary.csv").read_bytes() == (tmp_path / "loky" / "summary.csv").read_bytes()


def _lock(out: Path, pid: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / LOCK_NAME).write_text(json.dumps({"pid": pid, "host": socket.gethostname()}), encoding="utf-8")


def test_a_second_run_on_the_same_folder_refuses_and_a_dead_runs_lock_is_taken_over(tmp_path: Path) -> None:
    corpus = time_corpus(tmp_path / "corpus", 2)
    out = tmp_path / "out"
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        _lock(out, other.pid)
        with pytest.raises(RunLocked, match=f"process {other.pid}"):
            api.run(corpus, out, time=True, measures=["alpha_u"])
        proc = segagree("run", corpus, "-o", out, "--time", "--measure", "alpha_u")
        assert proc.returncode == 1 and f"process {other.pid}" in proc.stderr and "Traceback" not in proc.stderr
        assert not (out / "summary.csv").exists() and not (out / RESULTS_LOG).exists()
    finally:
        other.kill()
        other.wait()
    # The same lock, its process gone: taken over, and released at the end.
    done = api.run(corpus, out, time=True, measures=["alpha_u"])
    assert done.computed == 2 and not (out / LOCK_NAME).exists()


def test_two_concurrent_runs_one_refuses_the_other_writes_every_text_once(tmp_path: Path) -> None:
    corpus = time_corpus(tmp_path / "corpus", 8)
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "segagree", "run", str(corpus), "-o", str(out), "--time", "--measure", "gamma"]
    cmd += ["--samples", "40", "-q"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, text=True)]
    deadline = time.time() + 120
    while not (out / LOCK_NAME).exists() and time.time() < deadline and procs[0].poll() is None:
        time.sleep(0.02)
    procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, text=True))
    results = [(p.wait(timeout=600), p.stderr.read()) for p in procs]  # type: ignore[union-attr]
    codes = sorted(code for code, _ in results)
    assert codes == [0, 1], results
    refused = next(err for code, err in results if code == 1)
    assert "another segagree run (process" in refused
    with (out / "summary.csv").open(encoding="utf-8") as fh:
        texts = [r["text"] for r in csv.DictReader(fh) if r["speaker"] == "ALL" and r["measure"] == "gamma"]
    assert sorted(texts) == sorted([f"t{i:02d}" for i in range(8)] + ["ALL"])


def test_a_log_line_is_reused_only_when_its_key_matches(tmp_path: Path) -> None:
    corpus = time_corpus(tmp_path / "corpus", 3)
    out = tmp_path / "out"
    first = api.run(corpus, out, time=True, measures=["alpha_u"], report=False).rows  # read before the log changes
    log = out / RESULTS_LOG
    lines = [json.loads(line) for line in log.read_bytes().splitlines()]
    lines[0]["key"] = "0" * 20  # another run's key
    lines[1]["text"] = "t02"  # the right key, another text's name: not this task's record
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    again = api.run(corpus, out, time=True, measures=["alpha_u"], report=False)
    assert again.computed == 2 and again.reused == 1
    assert again.rows == first


def _token_corpus(root: Path) -> Path:
    """Three texts of the sample conversation whose second annotation differs more and more."""
    root.mkdir(parents=True)
    text_b = (SAMPLE / "garden.ann2.txt").read_text(encoding="utf-8")
    for i, changes in enumerate((0, 2, 5)):
        shutil.copy(SAMPLE / "garden.ann1.txt", root / f"g{i}.ann1.txt")
        (root / f"g{i}.ann2.txt").write_text(text_b.replace(" .", " ?", changes), encoding="utf-8")
    return root


def test_token_run_pools_pk_and_b_over_texts_from_summed_statistics(tmp_path: Path) -> None:
    corpus = _token_corpus(tmp_path / "corpus")
    done = api.run(corpus, tmp_path / "out", config=None, kappa=False, report=False)
    pooled = {r["measure"]: r["value"] for r in done.rows if r["text"] == "ALL" and r["annotators"] == "ann1|ann2"}
    assert {"sf", "sf_b", "pk", "b"} <= set(pooled)
    items = []
    for i in range(3):
        a, b = (read_document(corpus / f"g{i}.{who}.txt") for who in ("ann1", "ann2"))
        items += list(token_items(pair_annotations(a, b, layer="iu"), {}).values())
    for name in ("pk", "b"):
        assert pooled[name] == pytest.approx(get_measure(name).compute(items, {}).value, abs=1e-12), name
    per_text = {r["value"] for r in done.rows if r["measure"] == "b" and r["speaker"] == "ALL" and r["text"] != "ALL"}
    assert len(per_text) > 1  # the texts differ: the pooled value is not one text's repeated
    with (tmp_path / "out" / "summary.csv").open(encoding="utf-8") as fh:
        header = next(csv.reader(fh))
    time_run = api.run(time_corpus(tmp_path / "tc", 2), tmp_path / "tout", time=True, measures=["alpha_u"])
    with (tmp_path / "tout" / "summary.csv").open(encoding="utf-8") as fh:
        assert next(csv.reader(fh)) == header  # one summary schema for both tracks
    assert header[:6] == ["text", "speaker", "annotators", "measure", "value", "note"]
    token_json = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))["rows"]
    time_json = json.loads((tmp_path / "tout" / "summary.json").read_text(encoding="utf-8"))["rows"]
    assert {"text", "speaker", "annotators", "measure", "value", "note"} <= set(token_json[0]) & set(time_json[0])
    assert time_run.track == "time" and done.track == "token"


def test_time_report_has_a_page_per_text_with_a_timeline_and_the_table_of_texts(tmp_path: Path) -> None:
    corpus = time_corpus(tmp_path / "corpus", 3)
    out = tmp_path / "out"
    api.run(corpus, out, time=True, measures=["gamma", "alpha_u", "elan_kappa"], params={"samples": 5})
    entry = (out / "report.html").read_text(encoding="utf-8")
    table = entry[entry.index('id="text-table"') : entry.index("</table>", entry.index('id="text-table"'))]
    for t in ("t00", "t01", "t02"):
        assert f'<a href="texts/{t}.html">{t}</a>' in table
        page = (out / "texts" / f"{t}.html").read_text(encoding="utf-8")
        svg = page.split('<svg class="timeline"', 1)[1].split("</svg>", 1)[0]
        units = sum(len((corpus / f"{t}.{who}.csv").read_text().splitlines()) - 1 for who in ("a1", "a2", "a3"))
        assert svg.count("<rect ") == units and "<polyline " in svg  # every unit, and the alignment
        assert "<script" not in page
        assert "gamma's best alignment joins" in page and 'id="pairs"' in page and "a1|a2" in page
    assert "95% interval over texts" in entry and "Lowest texts" in entry and "<svg" in entry


def test_time_settings_come_from_segagree_toml(tmp_path: Path) -> None:
    corpus = time_corpus(tmp_path / "corpus", 2)
    (corpus / "segagree.toml").write_text('[time]\nmeasures = ["boundary_f1"]\ntolerance = 0.5\n', encoding="utf-8")
    done = api.run(corpus, tmp_path / "out", time=True)
    assert done.config.measures == ["boundary_f1"] and done.config.params == {"tolerance": 0.5}
    loose = api.run(corpus, tmp_path / "loose", time=True, params={"tolerance": 2.0})  # a keyword wins
    assert loose.pooled["boundary_f1"]["value"] > done.pooled["boundary_f1"]["value"]
    (corpus / "segagree.toml").write_text("[time]\nsampels = 3\n", encoding="utf-8")
    with pytest.raises(SegagreeError, match=r"unknown \[time\] settings \['sampels'\]"):
        api.run(corpus, tmp_path / "bad", time=True)
