"""Tracks of a corpus run: what differs between scoring token segmentations and units in time.

A :class:`Track` declares

* how it finds a text's annotations and what a task is (:attr:`Track.plan`: the corpus -> tasks;
  every task is ``(text, who, other, file, ...)``, identified by its first three fields);
* the resume key of a task (:attr:`Track.key`: the inputs' content and the settings' digest);
* how a task is scored into its log record (:attr:`Track.score`, run in the workers; the record
  holds the sufficient statistics its measures pool by);
* which measures it offers (:attr:`Track.measures`).

Which options apply to which track is the option table's (:mod:`segagree.scoring.options`).

Everything else of a run (the scheduler, the results log, the lock, the summary, the report, the
manifest) is one code path for every track (:mod:`segagree.corpus.scheduler`,
:mod:`segagree.api.run_corpus`).

* ``token``: annotators share a transcript; a task is one pair of annotators of a text (S_f, S_f^B,
  kappa and any boundary or agreement measure; texts with subtitle cues also get the subtitle
  metrics, pooled over texts once per run: the subtitle part of this track).
* ``time``: each annotator draws their own units in time; a task is one text with all its
  annotators (gamma, gamma-cat, alpha-U, the uα family, ELAN's kappa, boundary F1 ...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from segagree.corpus.discovery import Corpus
from segagree.metrics.registry import group_names

__all__ = ["REFERENCE_NAMES", "TIME", "TOKEN", "TRACKS", "Task", "Track", "plan_tasks", "track_for"]

Task = tuple[str, ...]
REFERENCE_NAMES = ("ref", "reference", "gold")


@dataclass(frozen=True)
class Track:
    """One kind of corpus run (see the module docstring)."""

    name: str
    plan: Callable[[Corpus, Any], list[Task]]
    key: Callable[[Task, Any, str], str]
    score: Callable[[Task, Any, Any], dict[str, Any]]
    measure_group: tuple[str, ...]

    def measures(self) -> list[str]:
        """The measures this track offers (registry names)."""
        return [n for g in self.measure_group for n in group_names(g)]


def plan_tasks(corpus: Corpus, reference: str = "") -> list[Task]:
    """Token track: (text, annotator A, annotator B, file A, file B) for every pair, sorted.

    The reference annotator (``reference``, else one named ref/reference/gold) is A in its
    pairs, since subtitle metrics and adjudication take A as the reference/base.
    """
    tasks: list[Task] = []
    for text in sorted(corpus.texts):
        files = corpus.texts[text]
        ref = reference or next((n for n in REFERENCE_NAMES if n in files), "")
        order = sorted(files, key=lambda name: (name != ref, name))
        for ann_a, ann_b in combinations(order, 2):
            tasks.append((text, ann_a, ann_b, str(files[ann_a]), str(files[ann_b])))
    return tasks


def _token_plan(corpus: Corpus, config: Any) -> list[Task]:
    return plan_tasks(corpus, config.reference)


def _token_key(task: Task, config: Any, settings: str) -> str:
    from segagree.corpus.tasks import task_key

    return task_key(task[0], task[1], task[2], Path(task[3]), Path(task[4]), config, settings)


def _token_score(task: Task, config: Any, hook: Any = None) -> dict[str, Any]:
    """Score one pair; ``hook`` (the scheduler's text hook) runs on the full result, operation rows
    included, and what it wrote comes back as the record's ``written``."""
    from segagree.corpus.results_log import log_record
    from segagree.corpus.tasks import run_task

    text, ann_a, ann_b, file_a, file_b = task
    result = run_task(text, ann_a, ann_b, file_a, file_b, config, details=False, rows=hook is not None)
    written = hook(result) if hook is not None and result.get("ok") else None
    record = log_record(result)
    if written:
        record["written"] = written
    return record


def _time_plan(corpus: Corpus, config: Any) -> list[Task]:
    """Time track: (text, "A|B|...", recording, file A, file B, ...) for every text, annotators sorted;
    units tables with a recording column make a task (a text ``TEXT/RECORDING``) per recording, each on
    its own continuum (the recording is "" otherwise)."""
    from segagree.scoring.time.units_table import table_recordings

    how = config.how
    declared = list(how.annotators or [])
    for text in sorted(corpus.single):
        missing = [a for a in declared if a not in corpus.single[text]]
        if not declared or not missing or set(corpus.single[text]) - set(declared):
            continue
        if how.missing_as_empty:  # the declared annotators without a file have no units (noted in the text's result)
            corpus.texts[text] = corpus.unskip(text)
        else:
            corpus.unskip(text)  # listed again, saying why and what would score it
            corpus.skipped.append(
                f"{text}: no file of {', '.join(map(repr, missing))} (declared by --annotators); "
                "--missing-as-empty scores it as an annotator with no units"
            )
    tasks = []
    for text in sorted(corpus.texts):
        files = corpus.texts[text]
        names = sorted(files)
        paths = [str(files[n]) for n in names]
        for rec in table_recordings(paths, time_unit=how.time_unit, text_column=how.text_column):
            tasks.append((f"{text}/{rec}" if rec else text, "|".join(names), rec, *paths))
    return tasks


def _time_key(task: Task, config: Any, settings: str) -> str:
    from segagree.corpus.time_track import time_key

    return time_key(task, config, settings)


def _time_score(task: Task, config: Any, hook: Any = None) -> dict[str, Any]:
    from segagree.corpus.time_track import score_time_task

    return score_time_task(task, config)


TOKEN = Track("token", _token_plan, _token_key, _token_score, ("boundary", "agreement", "subtitles"))
TIME = Track("time", _time_plan, _time_key, _time_score, ("time",))
TRACKS = {t.name: t for t in (TOKEN, TIME)}


def track_for(config: Any) -> Track:
    """The track of a run's settings (:class:`~segagree.corpus.time_track.TimeConfig` -> time)."""
    return TRACKS[getattr(config, "track", TOKEN.name)]
