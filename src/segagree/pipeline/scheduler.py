"""The corpus scheduler: which pairs a corpus run scores, scoring them in parallel, the resume log.

1. find the annotations of every text (:mod:`segagree.pipeline.corpus`) and plan one task per
   pair of annotators of every text (:func:`plan_tasks`);
2. skip the tasks whose key (inputs' content and scoring settings) the resume log
   ``OUTDIR/results.jsonl`` already holds, score the others (:func:`execute`: in this process,
   in joblib's loky worker processes, or on a Dask cluster), and append each finished task to
   the log as it arrives (:mod:`segagree.pipeline.results_log`).

Memory stays bounded whatever the corpus size: a worker computes the report's figure data
(:func:`segagree.pipeline.figures.figure_data`) and drops the per-token arrays and operation
rows before returning a result; the main process writes the result to the log and keeps only
its light record (about 1 kB). Outputs read the full results back from the log one at a time.

**Outputs written in the workers.** A caller may pass a *text hook* (``hook``): a picklable
callable that a worker runs on the full result of a text with a single pair (operation rows
included) before condensing it, e.g. writing the text's review workbook while the result is at
hand, in parallel with the scoring, instead of scoring the pair again afterwards. It returns the
digests of what it wrote, which come back as the result's ``written`` (kept in its light record,
not in the log). Texts with several pairs, and the Dask backend, are left to the caller.

Results do not depend on the number of workers or the backend: each task's random numbers
come from its own seed (text, pair), and results are kept in task order. ``jobs`` is capped at
the CPUs this process may use (``os.sched_getaffinity``), and no pool is started for fewer
than :data:`MIN_PARALLEL_TASKS` tasks.
"""

from __future__ import annotations

import os
import signal
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

from segagree.errors import SegagreeError
from segagree.pipeline.config import RunConfig
from segagree.pipeline.corpus import Corpus, find_annotations
from segagree.pipeline.outcome import RunOutcome
from segagree.pipeline.results_log import RESULTS_LOG, LoggedResults, append, light_record, load_index, log_record
from segagree.pipeline.tasks import run_task, task_key

#: Fewest tasks worth a worker pool: starting one costs about a second (each worker imports
#: segagree), more than scoring a few in this process.
MIN_PARALLEL_TASKS = 4
REFERENCE_NAMES = ("ref", "reference", "gold")
#: Environment variable naming a running Dask scheduler (``tcp://host:8786``) for ``backend="dask"``.
DASK_SCHEDULER_ENV = "SEGAGREE_DASK_SCHEDULER"

Task = tuple[str, str, str, str, str]
Progress = Callable[[int, int, str], None]
#: Run in the worker on a single-pair text's full result; returns {output: digest} of what it wrote.
TextHook = Callable[[dict[str, Any]], dict[str, str]]


def plan_tasks(corpus: Corpus, reference: str = "") -> list[Task]:
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


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity where the OS tells, else ``os.cpu_count``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def score_for_log(task: Task, config: RunConfig, hook: TextHook | None = None) -> dict[str, Any]:
    """Score one task and condense it to what the log keeps (runs in the worker); ``hook`` (see
    the module docstring) runs on the full result first, and what it wrote comes back as ``written``."""
    result = run_task(*task, config, details=False, rows=hook is not None)
    written = hook(result) if hook is not None and result.get("ok") else None
    record = log_record(result)
    if written:
        record["written"] = written
    return record


def _score_in_worker(task: Task, config: RunConfig, parent: int, hook: TextHook | None) -> dict[str, Any]:
    """:func:`score_for_log` in a loky worker: Ctrl-C is the parent's to handle (it stops the pool);
    a terminal sends it to the workers too, which would print their tracebacks."""
    if os.getpid() != parent and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    return score_for_log(task, config, hook)


def execute(
    todo: list[Task],
    config: RunConfig,
    jobs: int,
    backend: str,
    hook: TextHook | None = None,
    hooked: frozenset[str] = frozenset(),
) -> Iterator[dict[str, Any]]:
    """Score ``todo``, yielding each task's log record as it finishes (in any order).

    ``backend``: ``loky`` (joblib worker processes on this machine; ``jobs`` of them) or
    ``dask`` (the scheduler named by ``$SEGAGREE_DASK_SCHEDULER``, else a local cluster of
    ``jobs`` worker processes). Dask workers read the files at the paths given, so they need the
    corpus at the same path (a shared file system). ``hook`` runs on the tasks of the texts in
    ``hooked`` (not on Dask).
    """
    if not todo:
        return
    if backend == "dask":
        yield from _execute_dask(todo, config, jobs)
        return
    jobs = min(jobs, len(todo)) if len(todo) >= MIN_PARALLEL_TASKS else 1
    if jobs == 1:
        for t in todo:
            yield score_for_log(t, config, hook if t[0] in hooked else None)
        return
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")
    parent = os.getpid()
    yield from parallel(delayed(_score_in_worker)(t, config, parent, hook if t[0] in hooked else None) for t in todo)


def _execute_dask(todo: list[Task], config: RunConfig, jobs: int) -> Iterator[dict[str, Any]]:
    from dask.distributed import Client, LocalCluster, as_completed

    address = os.environ.get(DASK_SCHEDULER_ENV)
    cluster = None if address else LocalCluster(n_workers=max(jobs, 1), threads_per_worker=1, processes=True)
    try:
        with Client(address or cluster) as client:
            futures = client.map(score_for_log, todo, config=config, pure=False)
            for fut in as_completed(futures):
                yield fut.result()
                fut.release()
    finally:
        if cluster is not None:
            cluster.close()


def plan_corpus(corpus_dir: Path, config: RunConfig) -> tuple[Corpus, list[Task]]:
    """The corpus and its tasks; an error if there is nothing to score or the reference is unknown."""
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
    return corpus, tasks


def split_done(
    tasks: list[Task], config: RunConfig, done: dict[str, dict[str, Any]]
) -> tuple[dict[tuple[str, str, str], dict[str, Any]], list[Task]]:
    """(light records of the tasks the log already holds, by (text, A, B); the tasks to score)."""
    settings = config.digest
    reused: dict[tuple[str, str, str], dict[str, Any]] = {}
    todo = []
    for t in tasks:
        try:
            key = task_key(t[0], t[1], t[2], Path(t[3]), Path(t[4]), config, settings)
        except OSError:
            key = None  # the task reports the unreadable file
        if key and key in done:
            reused[t[:3]] = done[key]
        else:
            todo.append(t)
    return reused, todo


def _open_log(path: Path, resume: bool) -> Any:
    """The log opened for appending (emptied unless resuming), a torn last line terminated."""
    if not resume and path.exists():
        path.unlink()
    fh = path.open("ab")
    if fh.tell():
        with path.open("rb") as tail:
            tail.seek(-1, os.SEEK_END)
            if tail.read(1) != b"\n":
                fh.write(b"\n")  # a killed run's torn line stays alone on its line
    return fh


def score_corpus(
    corpus_dir: Path,
    outdir: Path,
    config: RunConfig,
    *,
    jobs: int = 1,
    backend: str = "loky",
    resume: bool = True,
    progress: Progress | None = None,
    hook: TextHook | None = None,
) -> RunOutcome:
    """Score every pair of every text of a corpus (see the module docstring), resuming from
    ``OUTDIR/results.jsonl``; the outcome's results are read back lazily from that log.
    ``hook`` runs in the worker on each scored task of a text with a single pair."""
    if backend != "dask":
        jobs = min(max(jobs, 1), usable_cpus())  # more workers than CPUs only adds overhead
    corpus, tasks = plan_corpus(corpus_dir, config)
    outdir.mkdir(parents=True, exist_ok=True)
    log_path = outdir / RESULTS_LOG
    lights, todo = split_done(tasks, config, load_index(log_path) if resume else {})
    reused = len(lights)
    if progress:
        progress(reused, len(tasks), "")
    with _open_log(log_path, resume) as fh:
        pairs = Counter(t[0] for t in tasks)
        hooked = frozenset(text for text, n in pairs.items() if n == 1) if hook else frozenset()
        for result in execute(todo, config, jobs, backend, hook, hooked):
            offset = append(fh, result) if result.get("key") else None
            lights[(result["text"], result["annotator_a"], result["annotator_b"])] = light_record(result, offset)
            if progress:
                progress(len(lights), len(tasks), result["text"])
    results = LoggedResults(log_path, [lights[t[:3]] for t in tasks])
    return RunOutcome(corpus=corpus, results=results, computed=len(todo), reused=reused, config=config)


__all__ = [
    "DASK_SCHEDULER_ENV",
    "MIN_PARALLEL_TASKS",
    "RESULTS_LOG",
    "execute",
    "nothing_to_score",
    "plan_corpus",
    "plan_tasks",
    "score_corpus",
    "score_for_log",
    "split_done",
    "usable_cpus",
]
