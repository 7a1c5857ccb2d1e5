"""A corpus run rebuilds an output only when what it shows changed (OUTDIR/.segagree-manifest.json);
the resume log keeps no per-token arrays; workbooks rebuilt from resumed results equal fresh ones;
the number of workers never exceeds the CPUs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import openpyxl
import pytest

import segagree.corpus.tasks as tasks_module
from segagree.api import run_corpus as run_module
from segagree.api.run_corpus import MANIFEST, NOT_LOGGED, RESULTS_LOG, run_corpus, usable_cpus
from segagree.corpus import scheduler
from segagree.corpus.config import RunConfig
from segagree.corpus.tasks import run_task

from conftest import REPO

SAMPLE = REPO / "sample_corpora"
TEXTS = ("garden", "pond")
PAGES = ("texts/garden.html", "texts/pond.html")


def _config(**settings) -> RunConfig:
    config = RunConfig()
    config.kappa.sims = 20
    for key, value in settings.items():
        setattr(config, key, value)
    return config


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    for text in TEXTS:
        for ann in ("ann1", "ann2"):
            shutil.copy(SAMPLE / f"garden.{ann}.txt", folder / f"{text}.{ann}.txt")
    return folder


def _stamps(outdir: Path) -> dict[str, int]:
    """Modification time (ns) of every output file."""
    return {
        str(p.relative_to(outdir)): p.stat().st_mtime_ns
        for p in outdir.rglob("*")
        if p.is_file() and p.name not in (RESULTS_LOG, MANIFEST)
    }


def _cells(path: Path) -> dict[str, list[tuple]]:
    """Every sheet's values but the About sheet (it names the output folder)."""
    wb = openpyxl.load_workbook(path, read_only=True)
    try:
        return {ws.title: list(ws.iter_rows(values_only=True)) for ws in wb.worksheets if ws.title != "About"}
    finally:
        wb.close()


def _edit_boundary(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    first = text.index(" .")
    path.write_text(text[:first] + " ?" + text[first + 2 :], encoding="utf-8")


def test_a_second_run_rebuilds_nothing(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = run_corpus(corpus, out, _config())
    assert set(first.outputs["rebuilt"]) == {"summary", "report", *PAGES, "review/garden.xlsx", "review/pond.xlsx"}
    before = _stamps(out)
    again = run_corpus(corpus, out, _config())
    assert again.computed == 0 and again.reused == 2
    assert again.outputs["rebuilt"] == []
    assert _stamps(out) == before
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    assert set(manifest["workbooks"]) == set(TEXTS) and manifest["report"] and manifest["summary"]


def test_a_changed_input_rebuilds_exactly_what_shows_it(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run_corpus(corpus, out, _config())
    before = _stamps(out)
    _edit_boundary(corpus / "pond.ann2.txt")
    again = run_corpus(corpus, out, _config())
    assert again.computed == 1 and again.reused == 1
    assert set(again.outputs["rebuilt"]) == {"summary", "report", "texts/pond.html", "review/pond.xlsx"}

    after = _stamps(out)
    assert after["review/garden.xlsx"] == before["review/garden.xlsx"]
    assert after["review/pond.xlsx"] != before["review/pond.xlsx"]
    assert after["texts/garden.html"] == before["texts/garden.html"]
    fresh = run_corpus(corpus, tmp_path / "fresh", _config(), resume=False)
    assert _cells(out / "review" / "pond.xlsx") == _cells(tmp_path / "fresh" / "review" / "pond.xlsx")
    assert (out / "summary.csv").read_bytes() == (tmp_path / "fresh" / "summary.csv").read_bytes()
    assert fresh.outputs["rebuilt"]  # resume=False starts from scratch


def test_an_output_setting_rebuilds_outputs_without_scoring_again(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run_corpus(corpus, out, _config())
    before = _stamps(out)
    # review_matches changes the workbooks (and the settings the summary and report list) ...
    again = run_corpus(corpus, out, _config(review_matches=True))
    assert again.computed == 0  # ... but no score
    assert set(again.outputs["rebuilt"]) == {"summary", "report", "review/garden.xlsx", "review/pond.xlsx"}
    # The operation rows, not in the resume log, were recomputed from the inputs: the workbook
    # equals one written by a fresh run that had them in memory.
    run_corpus(corpus, tmp_path / "fresh", _config(review_matches=True), resume=False)
    rebuilt = _cells(out / "review" / "garden.xlsx")
    assert rebuilt == _cells(tmp_path / "fresh" / "review" / "garden.xlsx")
    assert any(row[9] == "match" for row in rebuilt["Operations"][1:])
    # report_plots is the report's alone: the workbooks stay.
    mid = _stamps(out)
    third = run_corpus(corpus, out, _config(review_matches=True, report_plots="all"))
    assert third.computed == 0
    assert set(third.outputs["rebuilt"]) == {"summary", "report", *PAGES}  # the pages link the PNGs
    after = _stamps(out)
    assert all(after[f"review/{t}.xlsx"] == mid[f"review/{t}.xlsx"] for t in TEXTS)
    assert (out / "plots" / "garden__ann1_vs_ann2__agreement.png").is_file()
    assert before  # the first run wrote outputs


def test_a_deleted_or_disabled_output_is_written_again(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run_corpus(corpus, out, _config(), report=False)
    (out / "review" / "garden.xlsx").unlink()
    again = run_corpus(corpus, out, _config())
    assert set(again.outputs["rebuilt"]) == {"review/garden.xlsx", "report", *PAGES}
    # A run without workbooks forgets nothing about them: the next one with them writes none.
    run_corpus(corpus, out, _config(), workbooks=False, report=False)
    third = run_corpus(corpus, out, _config())
    assert third.outputs["rebuilt"] == []


def test_the_resume_log_keeps_scores_not_arrays(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    outcome = run_corpus(corpus, out, _config(), workbooks=False, report=False)
    records = [json.loads(line) for line in (out / RESULTS_LOG).read_text(encoding="utf-8").splitlines()]
    assert len(records) == 2
    for rec, result in zip(records, outcome.results, strict=True):
        assert not set(NOT_LOGGED) & set(rec)
        assert rec["compare"] == result["compare"] and rec["kappa"] == result["kappa"]
        assert result == rec  # the outcome's results are read back from the log
        fig = rec["figures"]
        full = run_task(*(rec[k] for k in ("text", "annotator_a", "annotator_b", "file_a", "file_b")), _config())
        assert sum(n for *_, n in fig["operations"]) == len(full["operation_rows"])
        assert sum(len(t["a"]) for t in full["tracks"].values()) == sum(e["n"] for e in fig["agreement"])


def test_never_more_workers_than_cpus(corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert 1 <= usable_cpus()
    import joblib

    def no_pool(*args, **kwargs):
        raise AssertionError("a worker pool was started with one usable CPU")

    monkeypatch.setattr(run_module, "usable_cpus", lambda: 1)
    monkeypatch.setattr(scheduler, "usable_cpus", lambda: 1)
    monkeypatch.setattr(joblib, "Parallel", no_pool)
    outcome = run_corpus(corpus, tmp_path / "out", _config(), jobs=8)
    assert outcome.computed == 2 and not outcome.failures


def test_a_single_pair_texts_workbook_comes_from_the_worker(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A third annotator of pond: pond has three pairs, garden one.
    shutil.copy(SAMPLE / "garden.ann2.txt", corpus / "pond.ann3.txt")
    _edit_boundary(corpus / "pond.ann3.txt")
    rescored: list[str] = []
    original = tasks_module.with_operation_rows

    def spy(results, config):
        rescored.extend(r["text"] for r in results if "operation_rows" not in r)
        return original(results, config)

    monkeypatch.setattr(tasks_module, "with_operation_rows", spy)  # the post pass's scoring again
    out = tmp_path / "out"
    outcome = run_corpus(corpus, out, _config(), report=False)
    assert rescored == ["pond"] * 3  # garden's workbook was written by the worker that scored it
    written = {light["text"]: light.get("written") for light in outcome.pairs}
    assert written["garden"] == {"workbook": json.loads((out / MANIFEST).read_text())["workbooks"]["garden"]}
    assert set(outcome.outputs["rebuilt"]) == {"summary", "review/garden.xlsx", "review/pond.xlsx"}
    assert "written" not in (out / RESULTS_LOG).read_text(encoding="utf-8")
    # The same workbook as one written from the pair scored again (the post pass's way).
    again = tmp_path / "again.xlsx"
    run_module.build_workbook(again, [dict(outcome.results[0])], _config())
    assert _cells(again) == _cells(out / "review" / "garden.xlsx")
    ops = _cells(again)["Operations"]
    assert len(ops) > 1 and ops[0][0] == "row id"


def test_a_worker_keeps_a_current_workbook(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run_corpus(corpus, out, _config(), report=False)
    stamp = (out / "review" / "garden.xlsx").stat().st_mtime_ns
    (out / RESULTS_LOG).unlink()  # every pair is scored again, with the same inputs and settings ...
    again = run_corpus(corpus, out, _config(), report=False)
    assert again.computed == 2
    # ... and the workbooks a reviewer may have filled in stay as they were.
    assert (out / "review" / "garden.xlsx").stat().st_mtime_ns == stamp
    assert not any(name.startswith("review/") for name in again.outputs["rebuilt"])


def test_the_text_hook_sent_to_workers_reads_the_earlier_digests_itself(corpus: Path, tmp_path: Path) -> None:
    import pickle

    out = tmp_path / "out"
    run_corpus(corpus, out, _config(), report=False)
    digests = json.loads((out / MANIFEST).read_text())["workbooks"]
    hook = run_module.worker_outputs(out, _config(), workbooks=True)
    assert hook is not None and hook.current == digests
    # A batch of tasks carries the hook without one digest per text of the corpus ...
    sent = pickle.dumps(hook)
    assert all(d.encode() not in sent for d in digests.values())
    # ... and the worker's copy still keeps the workbook the manifest says is current.
    worker_copy = pickle.loads(sent)
    assert worker_copy.current == digests
    result = run_task(
        "garden", "ann1", "ann2", str(corpus / "garden.ann1.txt"), str(corpus / "garden.ann2.txt"), _config()
    )
    stamp = (out / "review" / "garden.xlsx").stat().st_mtime_ns
    assert worker_copy(result) == {}
    assert (out / "review" / "garden.xlsx").stat().st_mtime_ns == stamp
