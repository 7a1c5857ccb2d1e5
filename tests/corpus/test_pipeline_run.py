"""`segagree run` on real and sample corpora: oracle scores, alignment, determinism, resume, failures."""

from __future__ import annotations

import csv
import json
import shutil
import signal
import subprocess
import sys
import time

import pytest
from cli_process import run_cli

from segagree.api.run_corpus import MIN_PARALLEL_TASKS, RESULTS_LOG, run_corpus
from segagree.corpus.config import RunConfig, load_config
from segagree.corpus.discovery import find_annotations, split_name

from conftest import REPO, shared_path

SAMPLE = REPO / "sample_corpora"


def quick_config(**kappa) -> RunConfig:
    config = RunConfig()
    config.kappa.enabled = bool(kappa)
    for k, v in kappa.items():
        setattr(config.kappa, k, v)
    return config


def pooled(rows, text, metric):
    return next(r["value"] for r in rows if r["text"] == text and r["speaker"] == "ALL" and r["measure"] == metric)


def test_split_name():
    assert split_name("nccu_t001.a1.csv") == ("nccu_t001", "a1")
    assert split_name("talk.rosa.segagree.json") == ("talk", "rosa")
    assert split_name("talk.TextGrid") == ("talk", "")
    assert split_name("notes.md") is None


def test_nccu_run_matches_oracle_and_aligns_differing_transcripts(tmp_path, segsimflex_oracle):
    corpus = shared_path("corpora", "nccu")
    config = quick_config()
    config.mode = "segsimflex"
    config.scheme = "segsimflex-vignette"
    outcome = run_corpus(corpus, tmp_path / "out", config, workbooks=False, report=False)
    assert not outcome.failures, outcome.failures
    cases = segsimflex_oracle["cases"]
    checked = 0
    for text in ("nccu_t001", "nccu_t009", "nccu_t016", "nccu_t025", "nccu_t049"):
        ref = cases[text]["results"]["vignette"]
        assert pooled(outcome.rows, text, "sf") == pytest.approx(ref["S_f"], abs=1e-9)
        assert pooled(outcome.rows, text, "sf_b") == pytest.approx(ref["S_f_B"], abs=1e-9)
        checked += 1
    assert checked == 5
    # t004 and the real t036 cannot be scored by the reference; here they are aligned and scored.
    results = {r["text"]: r for r in outcome.results}
    for text, kinds in (("nccu_t004", {"only_a", "only_b"}), ("nccu_t036", {"only_a", "substitution"})):
        mismatches = results[text]["compare"]["mismatches"]
        assert mismatches and kinds <= {m["kind"] for m in mismatches}
        assert pooled(outcome.rows, text, "transcript_mismatches") == len(mismatches)
        assert 0.8 < pooled(outcome.rows, text, "sf") < 1.0
    em_dash = [m for m in results["nccu_t004"]["compare"]["mismatches"] if "—" in (m["token_a"] + m["token_b"])]
    assert em_dash
    t036 = [m for m in results["nccu_t036"]["compare"]["mismatches"] if m["token_a"] == "." and m["kind"] == "only_a"]
    assert t036  # `熟 . 不 知道` against `熟 不 知道`
    summary = list(csv.DictReader((tmp_path / "out" / "summary.csv").open(encoding="utf-8")))
    assert {"text", "speaker", "annotator_a", "annotator_b", "measure", "value"} <= set(summary[0])
    assert any(r["speaker"] == "ALL" and r["measure"] == "sf_b" for r in summary)


def test_jobs_1_and_2_give_identical_summaries(tmp_path):
    config = quick_config(sims=50, seed=7) if _have_kappa() else quick_config()
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("garden.ann1.txt", "garden.ann2.txt"):
        shutil.copy(SAMPLE / name, corpus / name)
        shutil.copy(SAMPLE / name, corpus / name.replace("garden", "garden2"))
        shutil.copy(SAMPLE / name, corpus / name.replace("garden", "garden4"))  # enough tasks for a pool
    shutil.copy(SAMPLE / "tables" / "garden.ann2.csv", corpus / "garden3.ann1.csv")
    shutil.copy(SAMPLE / "garden.ann1.txt", corpus / "garden3.ann2.txt")
    one = run_corpus(corpus, tmp_path / "one", config, jobs=1, workbooks=False, report=False)
    two = run_corpus(corpus, tmp_path / "two", config, jobs=2, workbooks=False, report=False)
    assert (tmp_path / "one" / "summary.csv").read_text() == (tmp_path / "two" / "summary.csv").read_text()
    assert one.rows == two.rows and len(one.rows) > 30
    assert len(one.results) >= MIN_PARALLEL_TASKS  # --jobs 2 really ran in two workers


def _have_kappa() -> bool:
    try:
        import segagree.metrics.chance.sf_kappa  # noqa: F401
    except ImportError:
        return False
    return True


def test_unreadable_file_does_not_stop_the_others(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(SAMPLE / "garden.ann1.txt", corpus / "garden.ann1.txt")
    shutil.copy(SAMPLE / "garden.ann2.txt", corpus / "garden.ann2.txt")
    (corpus / "broken.ann1.txt").write_text("A:\tfine ,\n\tno !\n", encoding="utf-8")
    shutil.copy(SAMPLE / "garden.ann2.txt", corpus / "broken.ann2.txt")
    (corpus / "lonely.ann1.txt").write_text("A:\thi .\n", encoding="utf-8")
    out = tmp_path / "out"
    proc = run_cli(["run", str(corpus), "-o", str(out), "--no-kappa", "-q"])
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "failed: broken" in proc.stderr and "'!'" in proc.stderr
    assert "lonely: only one annotator" in proc.stderr
    data = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert data["texts"] == ["broken", "garden"]
    assert [f["text"] for f in data["failures"]] == ["broken"]
    assert any(r["text"] == "garden" and r["measure"] == "sf" for r in data["rows"])


def test_killed_run_resumes_without_recomputing(tmp_path):
    corpus = shared_path("corpora", "nccu")
    out = tmp_path / "out"
    cmd = [
        sys.executable,
        "-m",
        "segagree",
        "run",
        str(corpus),
        "-o",
        str(out),
        "--no-kappa",
        "-q",
        "--no-workbooks",
        "--no-report",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    log = out / RESULTS_LOG
    deadline = time.time() + 120
    while time.time() < deadline:
        if log.exists() and log.read_text(encoding="utf-8").count("\n") >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    finished = log.read_text(encoding="utf-8").count("\n")
    assert finished >= 2
    if finished == 7:
        pytest.skip("the run finished before it could be killed")
    outcome = run_corpus(corpus, out, quick_config(), workbooks=False, report=False)
    assert outcome.reused == finished
    assert outcome.computed == 7 - finished
    fresh = run_corpus(corpus, tmp_path / "fresh", quick_config(), workbooks=False, report=False)
    assert fresh.rows == outcome.rows


def test_folder_layout_and_config(tmp_path):
    corpus = tmp_path / "corpus"
    for ann, name in (("rosa", "garden.ann1.txt"), ("ben", "garden.ann2.txt")):
        (corpus / ann).mkdir(parents=True)
        shutil.copy(SAMPLE / name, corpus / ann / "garden.txt")
    (corpus / "segagree.toml").write_text('scheme = "lai2023"\n[kappa]\nenabled = false\n', encoding="utf-8")
    found = find_annotations(corpus)
    assert found.layout == "folders" and found.texts["garden"].keys() == {"ben", "rosa"}
    config = load_config(None, corpus)
    assert config.scheme == "lai2023" and not config.kappa.enabled
    outcome = run_corpus(corpus, tmp_path / "out", config, workbooks=False, report=False)
    assert outcome.results[0]["compare"]["scheme"]["name"] == "lai2023"
    (corpus / "segagree.toml").write_text('colour = "blue"\n', encoding="utf-8")
    with pytest.raises(Exception, match="unknown settings"):
        load_config(None, corpus)


def test_dask_backend_matches_loky(tmp_path):
    pytest.importorskip("dask.distributed", reason="the dask extra is not installed (pip install segagree[dask])")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("garden.ann1.txt", "garden.ann2.txt"):
        shutil.copy(SAMPLE / name, corpus / name)
        shutil.copy(SAMPLE / name, corpus / name.replace("garden", "other"))
    config = quick_config(sims=20, seed=3) if _have_kappa() else quick_config()
    local = run_corpus(corpus, tmp_path / "loky", config, jobs=1, workbooks=False, report=False)
    dask = run_corpus(corpus, tmp_path / "dask", config, jobs=2, backend="dask", workbooks=False, report=False)
    assert dask.rows == local.rows and dask.computed == 2


def test_sample_corpus_run_scores_subtitles_with_the_reference_as_a(tmp_path):
    outcome = run_corpus(SAMPLE, tmp_path / "out", quick_config(), workbooks=False, report=True)
    assert not outcome.failures
    film = next(r for r in outcome.results if r["text"] == "film")
    assert (film["annotator_a"], film["annotator_b"]) == ("ref", "mt")  # `ref` is the reference
    assert set(film["subtitles"]) >= {"f1_eob", "f1_eol", "f1_eox", "bleu_br", "bleu_nb", "ter_br", "suber:SubER"}
    assert film["compare"]["mismatches"]  # "were" vs "was": imperfect text, aligned
    rows = {r["measure"]: r["value"] for r in outcome.rows if r["text"] == "film" and r["speaker"] == "ALL"}
    assert 0 < rows["suber:AS-BLEU"] < 100 and rows["f1_eob"] < 1
    assert "suber:BLEU" not in rows  # 5 vs 6 subtitles: not applicable, so no value
    assert "Subtitle metrics" in (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    garden = next(r for r in outcome.results if r["text"] == "garden")
    assert "subtitles" not in garden


def test_folders_beside_named_files_are_reported_as_skipped(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("garden.ann1.txt", "garden.ann2.txt"):
        shutil.copy(SAMPLE / name, corpus / name)
    for folder in ("tables", "extra", ".git"):
        (corpus / folder).mkdir()
    found = find_annotations(corpus)
    assert found.layout == "names" and list(found.texts) == ["garden"]
    (line,) = found.skipped
    assert line.startswith("extra/, tables/: 2 folders not read") and ".git" not in line
    shutil.rmtree(corpus / "extra")
    (line,) = find_annotations(corpus).skipped
    assert line.startswith("tables/: a folder not read (the corpus folder holds TEXT.ANNOTATOR.EXT files")
