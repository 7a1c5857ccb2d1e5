"""``segagree run``: the whole pipeline over a corpus folder.

1. find the annotations of every text (:mod:`segagree.pipeline.corpus`);
2. score every pair of annotators of every text (:mod:`segagree.pipeline.tasks`), in parallel
   with joblib (loky) or on a Dask cluster; every finished task is appended to
   ``OUTDIR/results.jsonl`` keyed by its inputs' hashes and the settings' signature, so an
   interrupted run resumes where it stopped;
3. write ``summary.csv`` (long format: text, speaker, annotator_a, annotator_b, metric, value,
   parameters; pooled rows have speaker ``ALL``) and ``summary.json``, one review workbook per
   text (``review/TEXT.xlsx``) and ``report.html``.

Results do not depend on the number of workers: each task's random numbers come from its own
seed (text, pair), and tasks are merged in a fixed order. ``jobs`` is capped at the CPUs this
process may use (``os.sched_getaffinity``), and no pool is started for fewer than two tasks.

**What the resume log keeps.** Per task: its key, files, formats, the ``compare`` result
(scores, per-speaker statistics, operation counts, transcript mismatches, other metrics), the
kappa result, and ``figures`` (the report's few numbers per pair: agreement per window,
confusion matrix, operation counts by type pair; :func:`segagree.outputs.plots.figure_data`).
Not the per-token arrays and not the operation rows (95 % of the bytes): a review workbook that
must be rebuilt from a resumed task scores that pair again without kappa to list its operations
(deterministic, milliseconds per pair).

**Outputs are rebuilt only when what they show changed.** ``OUTDIR/.segagree-manifest.json``
holds a digest per output: per text, its workbook's (the text's task keys -- inputs' content
and scoring settings --, the files' paths, the output settings and the version); for the
summary and the report, all tasks' keys and outcomes, the corpus, the skipped files, the
settings and the version. An output whose digest is unchanged and whose file exists is kept.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Callable, Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

from segagree.adapters.base import write_text_atomic
from segagree.errors import SegagreeError
from segagree.outputs import plots
from segagree.outputs.summary import subtitle_pooled_rows, summary_rows, write_summary
from segagree.pipeline.config import RunConfig
from segagree.pipeline.corpus import Corpus, find_annotations
from segagree.pipeline.results import RunOutcome
from segagree.pipeline.subtitles import pooled_over_texts
from segagree.pipeline.tasks import run_task, task_key
from segagree.version import version

log = logging.getLogger(__name__)
RESULTS_LOG = "results.jsonl"
MANIFEST = ".segagree-manifest.json"
#: Keys of a task result that only this run's outputs use; the resume log leaves them out.
NOT_LOGGED = ("tracks", "operation_rows")
#: Fewest tasks (workbooks) worth a worker pool: starting one costs about a second (each
#: worker imports segagree), more than scoring or writing a few in this process.
MIN_PARALLEL_TASKS = 4
MIN_PARALLEL_WORKBOOKS = 8

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
    jobs = min(jobs, len(todo)) if len(todo) >= MIN_PARALLEL_TASKS else 1
    if jobs == 1:
        for t in todo:
            yield run_task(*t, config)
        return
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")
    yield from parallel(delayed(run_task)(*t, config) for t in todo)


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity where the OS tells, else ``os.cpu_count``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def log_record(result: dict[str, Any]) -> dict[str, Any]:
    """What the resume log keeps of a task result (see the module docstring)."""
    return {k: v for k, v in result.items() if k not in NOT_LOGGED}


def _digest(payload: Any) -> str:
    return hashlib.sha1(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _load_manifest(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


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
    """Run the pipeline (see the module docstring) and return what it produced.

    ``outcome.outputs["rebuilt"]`` lists the outputs written this time (``summary``,
    ``report``, ``review/TEXT.xlsx``); the others were up to date.
    """
    if backend != "dask":
        jobs = min(max(jobs, 1), usable_cpus())  # more workers than CPUs only adds overhead
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
    manifest_path = outdir / MANIFEST
    done = load_results_log(log_path) if resume else {}
    if not resume:
        for stale in (log_path, manifest_path):
            if stale.exists():
                stale.unlink()
    settings = config.digest
    keyed: dict[tuple[str, str, str], dict[str, Any]] = {}
    todo = []
    for t in tasks:
        try:
            key = task_key(t[0], t[1], t[2], Path(t[3]), Path(t[4]), config, settings)
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
            if result.get("ok"):
                result["figures"] = plots.figure_data(result)
            keyed[(result["text"], result["annotator_a"], result["annotator_b"])] = result
            if result.get("key"):
                fh.write(json.dumps(log_record(result), ensure_ascii=False) + "\n")
                fh.flush()
            outcome.computed += 1
            if progress:
                progress(len(keyed), total, result["text"])
    outcome.results = [keyed[t[:3]] for t in tasks]
    outcome.rows = summary_rows(outcome.results, config)
    outcome.rows += subtitle_pooled_rows(pooled_over_texts(outcome.results))  # subtitle metrics over texts

    old = _load_manifest(manifest_path) if resume else {}
    scheme_digest = config.load_scheme().digest
    everything = _digest(
        [
            version(),
            config.to_dict(),
            scheme_digest,
            str(corpus.root),
            corpus.layout,
            corpus.skipped,
            [
                [r["text"], r["annotator_a"], r["annotator_b"], r.get("key"), r.get("ok"), r.get("error")]
                for r in outcome.results
            ],
        ]
    )
    # Outputs not written this time keep their old entries: their files are still what those
    # entries describe, so a later run that writes them again can tell whether they are current.
    manifest: dict[str, Any] = {
        "segagree": version(),
        "workbooks": {} if workbooks else dict(old.get("workbooks") or {}),
        **({} if report or "report" not in old else {"report": old["report"]}),
    }
    rebuilt: list[str] = []

    def save_manifest() -> None:
        write_text_atomic(manifest_path, json.dumps(manifest, indent=1, sort_keys=True) + "\n")

    summary_files = {"summary_csv": str(outdir / "summary.csv"), "summary_json": str(outdir / "summary.json")}
    if old.get("summary") == everything and all(Path(p).is_file() for p in summary_files.values()):
        outcome.outputs.update(summary_files)
    else:
        outcome.outputs.update(write_summary(outdir, outcome, config))
        rebuilt.append("summary")
    manifest["summary"] = everything
    save_manifest()  # outputs written so far count even if a later one fails
    if workbooks:
        outcome.outputs["workbooks"] = _write_workbooks(
            outdir, outcome, config, jobs, old.get("workbooks") or {}, manifest, scheme_digest, rebuilt
        )
        save_manifest()
    if report:
        from segagree.outputs.report import REPORT_NAME, write_report

        path = outdir / REPORT_NAME
        pngs_there = config.report_plots != "all" or (outdir / "plots" / ".index.json").is_file()
        if old.get("report") == everything and path.is_file() and pngs_there:
            outcome.outputs["report"] = str(path)
        else:
            outcome.outputs["report"] = str(write_report(outdir, outcome, config, jobs=jobs))
            rebuilt.append("report")
        manifest["report"] = everything
        save_manifest()
    skipped = "\n".join(corpus.skipped) + ("\n" if corpus.skipped else "")
    skipped_path = outdir / "skipped.txt"
    if not skipped_path.is_file() or skipped_path.read_text(encoding="utf-8") != skipped:
        write_text_atomic(skipped_path, skipped)
    outcome.outputs["rebuilt"] = rebuilt
    return outcome


def workbook_digest(results: list[dict[str, Any]], config: RunConfig, scheme_digest: str) -> str:
    """What a text's review workbook depends on: its tasks' keys (inputs' content and scoring
    settings), the files' paths, every setting the workbook shows, the scheme and the version."""
    from segagree.outputs.review import workbook_settings

    settings = workbook_settings(config)
    pairs = [[r.get("key"), r["annotator_a"], r["annotator_b"], r["file_a"], r["file_b"]] for r in results]
    return _digest([version(), settings, scheme_digest, pairs])


def _write_workbooks(
    outdir: Path,
    outcome: RunOutcome,
    config: RunConfig,
    jobs: int,
    old: dict[str, str],
    manifest: dict[str, Any],
    scheme_digest: str,
    rebuilt: list[str],
) -> list[str]:
    by_text: dict[str, list[dict[str, Any]]] = {}
    for r in outcome.results:
        if r.get("ok"):
            by_text.setdefault(r["text"], []).append(r)
    written = []
    todo = []
    for text, results in by_text.items():
        path = outdir / "review" / f"{text}.xlsx"
        digest = workbook_digest(results, config, scheme_digest)
        if old.get(text) != digest or not path.is_file():
            todo.append((text, path, results, digest))
        else:
            manifest["workbooks"][text] = digest
        written.append(str(path))
    jobs = min(jobs, len(todo)) if len(todo) >= MIN_PARALLEL_WORKBOOKS else 1
    if jobs > 1:
        from joblib import Parallel, delayed

        done = Parallel(n_jobs=jobs, backend="loky", return_as="generator")(
            delayed(build_workbook)(path, results, config) for _, path, results, _ in todo
        )
    else:
        done = (build_workbook(path, results, config) for _, path, results, _ in todo)
    for (text, _, _, digest), path in zip(todo, done, strict=True):
        manifest["workbooks"][text] = digest
        rebuilt.append(f"review/{Path(path).name}")
    return written


def build_workbook(path: Path, results: list[dict[str, Any]], config: RunConfig) -> Path:
    """Write one text's review workbook; results resumed from the log get their operation rows
    back by scoring the pair again without kappa (see the module docstring)."""
    from segagree.outputs.review import write_review_workbook

    full = []
    for r in results:
        if "operation_rows" not in r:
            again = run_task(
                r["text"], r["annotator_a"], r["annotator_b"], r["file_a"], r["file_b"], config, kappa=False
            )
            if not again.get("ok") or again.get("key") != r.get("key"):
                raise SegagreeError(
                    f"{r['text']}: the files changed while the run was writing its review workbook; run again",
                    path=r["file_a"],
                )
            r = {**r, "operation_rows": again["operation_rows"]}
        full.append(r)
    return write_review_workbook(path, full, config)


__all__ = [
    "MANIFEST",
    "RESULTS_LOG",
    "RunOutcome",
    "build_workbook",
    "load_results_log",
    "log_record",
    "plan_tasks",
    "run_corpus",
    "usable_cpus",
    "workbook_digest",
]
