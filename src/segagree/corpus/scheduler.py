"""The corpus scheduler of every track: which tasks a run scores, scoring them in parallel, the resume log.

1. find the annotations of every text (:mod:`segagree.corpus.discovery`) and plan the track's
   tasks (:mod:`segagree.corpus.tracks`: one per pair of annotators of a text for tokens, one
   per text for units in time);
2. skip the tasks whose key (inputs' content and scoring settings) the resume log
   ``OUTDIR/results.jsonl`` already holds, score the others (:func:`execute`: in this process,
   in joblib's loky worker processes, or on a Dask cluster), and append each finished task to
   the log as it arrives (:mod:`segagree.corpus.results_log`).

A line of the log is reused only when its key is the key of a planned task and its text and
annotators are that task's (a line of another run, track or setting is ignored).

Memory stays bounded whatever the corpus size: a worker computes the report's figure data
(:func:`segagree.scoring.tokens.pair_figures.figure_data`) and drops the per-token arrays and operation
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
than :data:`MIN_PARALLEL_TASKS` tasks: those are scored in forked children (Linux), which start
in milliseconds, or in this process.
"""

from __future__ import annotations

import os
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

from segagree.corpus.discovery import Corpus, find_annotations
from segagree.corpus.outcome import RunOutcome
from segagree.corpus.results_log import RESULTS_LOG, LoggedResults, append, light_record, load_index
from segagree.corpus.tracks import REFERENCE_NAMES, Task, Track, plan_tasks, track_for
from segagree.cpus import usable_cpus
from segagree.errors import SegagreeError

#: Fewest tasks worth a worker pool: starting one costs about a second (each worker imports
#: segagree), more than scoring a few in this process.
MIN_PARALLEL_TASKS = 4
#: Environment variable naming a running Dask scheduler (``tcp://host:8786``) for ``backend="dask"``.
DASK_SCHEDULER_ENV = "SEGAGREE_DASK_SCHEDULER"

Progress = Callable[[int, int, str], None]
#: Run in the worker on a single-pair text's full result; returns {output: digest} of what it wrote.
TextHook = Callable[[dict[str, Any]], dict[str, str]]


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


def score_for_log(task: Task, config: Any, hook: TextHook | None = None) -> dict[str, Any]:
    """Score one task of the config's track and condense it to what the log keeps (runs in the
    worker); ``hook`` (see the module docstring) runs on the full result first, and what it wrote
    comes back as ``written``."""
    return track_for(config).score(task, config, hook)


def _score_in_worker(task: Task, config: Any, parent: int, hook: TextHook | None) -> dict[str, Any]:
    """:func:`score_for_log` in a loky worker: Ctrl-C is the parent's to handle (it stops the pool);
    a terminal sends it to the workers too, which would print their tracebacks."""
    if os.getpid() != parent and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    return score_for_log(task, config, hook)


def execute(
    todo: list[Task],
    config: Any,
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
    jobs = min(jobs, len(todo))
    if jobs > 1 and len(todo) < MIN_PARALLEL_TASKS and _can_fork():
        yield from _execute_forked(todo, config, jobs, hook, hooked)
        return
    if jobs == 1 or len(todo) < MIN_PARALLEL_TASKS:
        for t in todo:
            yield score_for_log(t, config, hook if t[0] in hooked else None)
        return
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")
    parent = os.getpid()
    yield from parallel(delayed(_score_in_worker)(t, config, parent, hook if t[0] in hooked else None) for t in todo)


def _can_fork() -> bool:
    """Whether a forked child may score a task (:func:`segagree.cpus.can_fork`)."""
    from segagree.cpus import can_fork

    return can_fork()


def _forked_child(send: Any, task: Task, config: Any, hook: TextHook | None) -> None:
    """Score one task in a forked child and send ("ok", record) or ("error", exception) back."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    try:
        send.send(("ok", score_for_log(task, config, hook)))
    except BaseException as err:  # noqa: BLE001 - sent to the parent, which raises it
        try:
            send.send(("error", err))
        except Exception:  # noqa: BLE001 - an exception that cannot be pickled: its words
            send.send(("error", RuntimeError(f"{type(err).__name__}: {err}")))
    finally:
        send.close()


def _execute_forked(
    todo: list[Task], config: Any, jobs: int, hook: TextHook | None, hooked: frozenset[str]
) -> Iterator[dict[str, Any]]:
    """Score a few tasks (fewer than a pool is worth) in ``jobs - 1`` forked children and this
    process: a fork inherits this process's imports and loaded kernels, so it starts in
    milliseconds where a pool's worker imports segagree (about a second), and what this process
    scores leaves its statistics here for the run's pooled scores."""
    import multiprocessing
    from multiprocessing.connection import Connection, wait

    context = multiprocessing.get_context("fork")
    # what this process has buffered would be written again by each child as it exits
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    pending = list(todo)
    running: dict[Connection, tuple[Any, Task]] = {}

    def finished(timeout: float | None) -> Iterator[dict[str, Any]]:
        for ready in wait(list(running), timeout):
            conn = cast("Connection", ready)
            child, task = running.pop(conn)
            try:
                kind, payload = conn.recv()
            except EOFError:
                child.join()
                raise SegagreeError(
                    f"the process scoring text {task[0]!r} stopped without a result (exit code {child.exitcode})"
                ) from None
            finally:
                conn.close()
            child.join()
            if kind == "error":
                raise cast(BaseException, payload)
            yield cast("dict[str, Any]", payload)

    try:
        while pending:
            while len(pending) > 1 and len(running) < jobs - 1:
                task = pending.pop(0)
                receive, send = context.Pipe(duplex=False)
                child = context.Process(
                    target=_forked_child, args=(send, task, config, hook if task[0] in hooked else None), daemon=True
                )
                child.start()
                send.close()
                running[receive] = (child, task)
            task = pending.pop(0)
            yield score_for_log(task, config, hook if task[0] in hooked else None)
            yield from finished(0)
        while running:
            yield from finished(None)
    finally:
        for conn, (child, _) in running.items():
            child.terminate()
            child.join()
            conn.close()


def _execute_dask(todo: list[Task], config: Any, jobs: int) -> Iterator[dict[str, Any]]:
    from dask.distributed import Client, LocalCluster, as_completed

    address = os.environ.get(DASK_SCHEDULER_ENV)
    before = dict(os.environ)
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
            _restore_environ(before)


def _restore_environ(before: dict[str, str]) -> None:
    """Undo what a local Dask cluster wrote into this process's environment: its nannies set
    ``PYTHONHASHSEED``, ``OMP_NUM_THREADS=1`` and the like in ``os.environ`` for their workers
    and leave them there, for every program the caller starts afterwards."""
    for key in set(os.environ) - set(before):
        del os.environ[key]
    for key, value in before.items():
        if os.environ.get(key) != value:
            os.environ[key] = value


def plan_corpus(corpus_dir: Path, config: Any) -> tuple[Corpus, list[Task]]:
    """The corpus and its track's tasks; an error if there is nothing to score or the reference is unknown."""
    corpus = find_annotations(corpus_dir)
    tasks = track_for(config).plan(corpus, config)
    if not tasks:  # before any output exists
        raise SegagreeError(nothing_to_score(corpus), path=corpus_dir)
    annotators = sorted({a for files in corpus.texts.values() for a in files})
    reference = getattr(config, "reference", "")
    if reference and reference not in annotators:
        raise SegagreeError(
            f"reference annotator {reference!r} annotates no text; annotators: {', '.join(annotators)}",
            path=corpus_dir,
        )
    return corpus, tasks


def split_done(
    tasks: list[Task], config: Any, done: dict[str, dict[str, Any]]
) -> tuple[dict[tuple[str, str, str], dict[str, Any]], list[Task]]:
    """(light records of the tasks the log already holds, by (text, A, B); the tasks to score).

    A logged record is reused only if its key is the task's key and its names are the task's."""
    if not done:  # a fresh run: no key to look up (each is the inputs' hash: every file read)
        return {}, list(tasks)
    track: Track = track_for(config)
    settings = config.digest
    reused: dict[tuple[str, str, str], dict[str, Any]] = {}
    todo = []
    for t in tasks:
        try:
            key = track.key(t, config, settings)
        except OSError:
            key = None  # the task reports the unreadable file
        light = done.get(key) if key else None
        if light and (light.get("text"), light.get("annotator_a"), light.get("annotator_b")) == t[:3]:
            reused[(t[0], t[1], t[2])] = light
        else:
            todo.append(t)
    return reused, todo


def refuse_link(path: Path) -> None:
    """Refuse an output that is a symbolic link: nothing is written (or appended) through a link
    (a link planted in the output folder would make a run write wherever it points)."""
    if path.is_symlink():
        raise SegagreeError(
            "is a symbolic link; segagree writes no output through a link: remove it "
            "(or run with --fresh, which starts a new log)",
            path=path,
        )


def _open_log(path: Path, resume: bool) -> Any:
    """The log opened for appending (emptied unless resuming), a torn last line terminated."""
    if not resume and (path.exists() or path.is_symlink()):
        path.unlink()
    refuse_link(path)
    try:  # O_NOFOLLOW: a link made after the check is not followed either
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o666)
    except OSError as err:
        raise SegagreeError(f"cannot open the results log ({err.strerror})", path=path) from None
    fh = os.fdopen(fd, "ab")
    if fh.tell():
        with path.open("rb") as tail:
            tail.seek(-1, os.SEEK_END)
            if tail.read(1) != b"\n":
                fh.write(b"\n")  # a killed run's torn line stays alone on its line
    return fh


def score_corpus(
    corpus_dir: Path,
    outdir: Path,
    config: Any,
    *,
    jobs: int = 1,
    backend: str = "loky",
    resume: bool = True,
    progress: Progress | None = None,
    hook: TextHook | None = None,
) -> RunOutcome:
    """Score every task of every text of a corpus (see the module docstring), resuming from
    ``OUTDIR/results.jsonl``; the outcome's results are read back lazily from that log. The
    caller holds the output folder's lock (:mod:`segagree.corpus.lock`). ``hook`` runs in
    the worker on each scored task of a text with a single task."""
    if backend != "dask":
        jobs = min(max(jobs, 1), usable_cpus())  # more workers than CPUs only adds overhead
    corpus, tasks = plan_corpus(corpus_dir, config)
    outdir.mkdir(parents=True, exist_ok=True)
    log_path = outdir / RESULTS_LOG
    log_notes: list[str] = []
    if resume:
        refuse_link(log_path)
    lights, todo = split_done(tasks, config, load_index(log_path, log_notes) if resume else {})
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
    results = LoggedResults(log_path, [lights[(t[0], t[1], t[2])] for t in tasks])
    return RunOutcome(
        corpus=corpus, results=results, computed=len(todo), reused=reused, config=config, log_notes=log_notes
    )


__all__ = [
    "DASK_SCHEDULER_ENV",
    "REFERENCE_NAMES",
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
