"""``segagree run``: the whole pipeline over a corpus folder.

1. find the annotations of every text (:mod:`segagree.pipeline.corpus`);
2. score every pair of annotators of every text (:mod:`segagree.pipeline.tasks`), in parallel
   with joblib (loky) or on a Dask cluster; every finished task is appended to
   ``OUTDIR/results.jsonl`` keyed by its inputs' hashes and the settings' signature, so an
   interrupted run resumes where it stopped;
3. write ``summary.csv`` (long format: text, speaker, annotator_a, annotator_b, metric, value,
   parameters; pooled rows have speaker ``ALL``) and ``summary.json``, one review workbook per
   text (``review/TEXT.xlsx``) and ``report.html`` with its plots.

Results do not depend on the number of workers: each task's random numbers come from its own
seed (text, pair), and tasks are merged in a fixed order.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

from segagree import __version__
from segagree.adapters.base import write_text_atomic
from segagree.errors import SegagreeError
from segagree.outputs.summary import summary_rows, write_summary
from segagree.pipeline.config import RunConfig
from segagree.pipeline.corpus import Corpus, find_annotations
from segagree.pipeline.results import RunOutcome
from segagree.pipeline.tasks import run_task, task_key

log = logging.getLogger(__name__)
RESULTS_LOG = "results.jsonl"

Progress = Callable[[int, int, str], None]


REFERENCE_NAMES = ("ref", "reference", "gold")


def plan_tasks(corpus: Corpus, reference: str = "") -> list[tuple[str, str, str, str, str]]:
    """(text, annotator A, annotator B, file A, file B) for every pair, sorted.

    The reference annotator (``reference``, else one named ref/reference/gold) is A in its
    pairs, since subtitle metrics and adjudication take A as the reference/base.
    """
    tasks = []
    for text in sorted(corpus.texts):
        files = corpus.texts[text]
        ref = reference or next((n for n in REFERENCE_NAMES if n in files), "")
        order = sorted(files, key=lambda name: (name != ref, name))
        for ann_a, ann_b in combinations(order, 2):
            tasks.append((text, ann_a, ann_b, str(files[ann_a]), str(files[ann_b])))
    return tasks


def nothing_to_score(corpus: Corpus) -> str:
    """Why a corpus has no pair to score, saying what was found."""
    files = [p for p in corpus.root.rglob("*") if p.is_file() and not p.name.startswith(".")]
    if not files:
        return "nothing to score: the folder is empty"
    found = f"{len(files)} file(s)"
    if corpus.skipped:
        shown = "; ".join(corpus.skipped[:5]) + ("; ..." if len(corpus.skipped) > 5 else "")
        return f"nothing to score: {found}, but no text has two annotators ({shown})"
    return (
        f"nothing to score: {found}, none of them an annotation named TEXT.ANNOTATOR.EXT "
        "(or in one folder per annotator); see segagree formats for the extensions"
    )


def load_results_log(path: Path) -> dict[str, dict[str, Any]]:
    """Finished tasks from an earlier (possibly interrupted) run, by key; torn lines are skipped."""
    done: dict[str, dict[str, Any]] = {}
    if not path.is_file():
        return done
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by a killed run
            # Failed tasks are tried again: the cause may have been fixed outside the inputs.
            if isinstance(rec, dict) and rec.get("key") and rec.get("ok"):
                done[rec["key"]] = rec
    return done


def _execute(
    todo: list[tuple[str, str, str, str, str]], config: RunConfig, jobs: int, backend: str
) -> Iterator[dict[str, Any]]:
    if not todo:
        return
    if backend == "dask":
        from dask.distributed import Client, LocalCluster, as_completed

        address = os.environ.get("SEGAGREE_DASK_SCHEDULER")
        cluster = None if address else LocalCluster(n_workers=max(jobs, 1), threads_per_worker=1, processes=True)
        with Client(address or cluster) as client:
            futures = [client.submit(run_task, *t, config, pure=False) for t in todo]
            for fut in as_completed(futures):
                yield fut.result()
        if cluster is not None:
            cluster.close()
        return
    if jobs == 1:
        for t in todo:
            yield run_task(*t, config)
        return
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")
    yield from parallel(delayed(run_task)(*t, config) for t in todo)


def run_corpus(
    corpus_dir: Path,
    outdir: Path,
    config: RunConfig,
    *,
    jobs: int = 1,
    backend: str = "loky",
    resume: bool = True,
    workbooks: bool = True,
    report: bool = True,
    progress: Progress | None = None,
) -> RunOutcome:
    """Run the pipeline (see the module docstring) and return what it produced."""
    corpus = find_annotations(corpus_dir)
    tasks = plan_tasks(corpus, config.reference)
    if not tasks:  # before any output exists
        raise SegagreeError(nothing_to_score(corpus), path=corpus_dir)
    annotators = sorted({a for files in corpus.texts.values() for a in files})
    if config.reference and config.reference not in annotators:
        raise SegagreeError(
            f"reference annotator {config.reference!r} annotates no text; annotators: {', '.join(annotators)}",
            path=corpus_dir,
        )
    outdir.mkdir(parents=True, exist_ok=True)
    log_path = outdir / RESULTS_LOG
    done = load_results_log(log_path) if resume else {}
    if not resume and log_path.exists():
        log_path.unlink()
    keyed: dict[tuple[str, str, str], dict[str, Any]] = {}
    todo = []
    for t in tasks:
        try:
            key = task_key(t[0], t[1], t[2], Path(t[3]), Path(t[4]), config)
        except OSError:
            key = None
        if key and key in done:
            keyed[t[:3]] = done[key]
        else:
            todo.append(t)
    outcome = RunOutcome(corpus=corpus, results=[], rows=[], reused=len(keyed))
    total = len(tasks)
    if progress:
        progress(len(keyed), total, "")
    with log_path.open("a", encoding="utf-8") as fh:
        for result in _execute(todo, config, jobs, backend):
            keyed[(result["text"], result["annotator_a"], result["annotator_b"])] = result
            if result.get("key"):
                fh.write(json.dumps(result, ensure_ascii=False) + "\n")
                fh.flush()
            outcome.computed += 1
            if progress:
                progress(len(keyed), total, result["text"])
    outcome.results = [keyed[t[:3]] for t in tasks]
    outcome.rows = summary_rows(outcome.results, config)
    outcome.outputs.update(write_summary(outdir, outcome, config))
    if workbooks:
        outcome.outputs["workbooks"] = _write_workbooks(outdir, outcome, config)
    if report:
        from segagree.outputs.report import write_report

        outcome.outputs["report"] = str(write_report(outdir, outcome, config, jobs=jobs))
    write_text_atomic(outdir / "skipped.txt", "\n".join(corpus.skipped) + ("\n" if corpus.skipped else ""))
    return outcome


def _write_workbooks(outdir: Path, outcome: RunOutcome, config: RunConfig) -> list[str]:
    from segagree.outputs.review import write_review_workbook

    by_text: dict[str, list[dict[str, Any]]] = {}
    for r in outcome.results:
        if r.get("ok"):
            by_text.setdefault(r["text"], []).append(r)
    written = []
    for text, results in by_text.items():
        path = outdir / "review" / f"{text}.xlsx"
        write_review_workbook(path, results, config)
        written.append(str(path))
    return written


__all__ = ["RESULTS_LOG", "RunOutcome", "load_results_log", "plan_tasks", "run_corpus", "__version__"]
