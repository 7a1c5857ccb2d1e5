"""What a corpus run produced: :class:`RunOutcome`, used by the scheduler, the summary, the
review workbooks, the report and the API (in a module of its own, so that none of them imports
another for a type, and imports run one way). One class for every track; what differs (the
rows of a task, the pooling over texts) is chosen by the run's track."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from segagree.corpus.config import RunConfig
from segagree.corpus.discovery import Corpus
from segagree.corpus.results_log import LoggedResults, light_record
from segagree.corpus.rows import POOLED, rows_for, subtitle_pooled_rows, token_pooled_rows
from segagree.scoring.subtitles.evaluation import pooled_over_texts


@dataclass
class RunOutcome:
    """What a run produced: per-task results in a fixed order, files written.

    ``results`` may be read lazily from the resume log
    (:class:`segagree.corpus.results_log.LoggedResults`): iterate it once per output, do not
    turn it into a list at corpus scale. ``pairs`` are the light records (names, outcome, pooled
    scores) of the same tasks; ``rows`` the long-format summary rows, built on first use. Values
    pooled over texts are computed once per outcome (:attr:`pooled_rows`) and shared by the
    summary, its JSON and the report.
    """

    corpus: Corpus
    results: Sequence[dict[str, Any]]
    computed: int = 0
    reused: int = 0
    outputs: dict[str, Any] = field(default_factory=dict)
    config: Any = None
    #: ``run --machine``: the panel's results (``segagree panel --json``) and its summary rows.
    panel: dict[str, Any] | None = None
    panel_rows: list[dict[str, Any]] = field(default_factory=list)
    #: ``run --machine``: why the panel failed (the run's own outputs are written all the same).
    panel_error: str | None = None
    #: ``run --cues``: the pooled cue profile (``rows``, ``plot``, ``texts``, ``note``).
    cue_profile: dict[str, Any] | None = None
    #: Lines of the results log skipped as damaged (their tasks scored again), one note each.
    log_notes: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        # short, as the API's other results print (the texts, tasks and files are attributes)
        failed = sum(1 for p in self.pairs if not p.get("ok"))
        return (
            f"RunOutcome(track={self.track!r}, texts={len(self.corpus.texts)}, tasks={self.computed + self.reused}"
            f" ({self.computed} scored, {self.reused} reused, {failed} failed), outputs={sorted(self.outputs)})"
        )

    @property
    def track(self) -> str:
        """``token`` or ``time`` (:mod:`segagree.corpus.tracks`)."""
        return str(getattr(self.config, "track", "token"))

    @property
    def pairs(self) -> list[dict[str, Any]]:
        """Light records of the tasks, in task order (see :func:`~segagree.corpus.results_log.light_record`)."""
        if isinstance(self.results, LoggedResults):
            return self.results.light
        return [light_record(r, None) for r in self.results]

    def task_rows(self) -> Iterator[dict[str, Any]]:
        """Every successful task's rows, in task order, read one result at a time."""
        if self.track == "time":
            from segagree.corpus.time_track import time_rows

            for r in self.results:
                if r.get("ok"):
                    yield from time_rows(r)
            return
        config = self.config or RunConfig()
        for r in self.results:
            if r.get("ok"):
                yield from rows_for(r, config)

    def iter_rows(self) -> Iterator[dict[str, Any]]:
        """:attr:`rows` as a stream (what the summary writes)."""
        yield from self.task_rows()
        yield from self.pooled_rows
        yield from self.panel_rows

    @cached_property
    def rows(self) -> list[dict[str, Any]]:
        """Every summary row in task order, then the rows pooled over texts."""
        return list(self.iter_rows())

    @cached_property
    def pooled_rows(self) -> list[dict[str, Any]]:
        """Rows pooled over texts (text ``ALL``), computed once per run from summed statistics."""
        if self.track == "time":
            from segagree.corpus.time_track import result_rows

            every = list(dict.fromkeys(a for r in self.pairs if r.get("ok") for a in r.get("annotators") or []))
            return [
                row
                for name, res in self.pooled.items()
                for row in result_rows(POOLED, POOLED, "|".join(every), name, res)
            ]
        return token_pooled_rows(self.pairs) + subtitle_pooled_rows(self.subtitle_pooled)

    @cached_property
    def subtitle_pooled(self) -> list[dict[str, Any]]:
        """Subtitle metrics pooled over texts, once per run, the files read with the run's reader options."""
        config = self.config or RunConfig()
        return pooled_over_texts(
            self.subtitle_results(),
            fmt=config.format or None,
            read_options=config.reader_options(),
            names=getattr(config, "subtitle_metrics", None),
        )

    def subtitle_results(self) -> list[dict[str, Any]]:
        """The full results of the pairs scored with subtitle metrics (few fields each)."""
        wanted = [i for i, light in enumerate(self.pairs) if light.get("subtitles")]
        return [self.results[i] for i in wanted]

    @property
    def failures(self) -> list[dict[str, Any]]:
        return [r for r in self.pairs if not r.get("ok")]

    # --- the time track ------------------------------------------------------------------------

    @cached_property
    def texts(self) -> dict[str, dict[str, Any]]:
        """Time track: text -> its full result (as ``agree --time --json`` gives it)."""
        return {r["text"]: r["result"] for r in self.results if r.get("ok") and "result" in r}

    @cached_property
    def text_statistics(self) -> dict[str, dict[str, list[Any]]]:
        """Time track: measure -> text -> its speakers' statistics (decoded), in task order."""
        from segagree.scoring.stats_codec import decode

        out: dict[str, dict[str, list[Any]]] = {name: {} for name in getattr(self.config, "measures", [])}
        for r in self.results:
            if r.get("ok"):
                for name, encoded in (r.get("statistics") or {}).items():
                    out.setdefault(name, {})[r["text"]] = [decode(e) for e in encoded]
        return out

    @cached_property
    def pooled(self) -> dict[str, dict[str, Any]]:
        """Time track: measure -> its result pooled over every speaker of every scored text."""
        from segagree.metrics.registry import get_measure
        from segagree.scoring.pooling import pool

        params = getattr(self.config, "params", {})
        return {
            name: pool(get_measure(name), [s for per in by_text.values() for s in per], params)
            for name, by_text in self.text_statistics.items()
        }


def texts_of(outcome: RunOutcome) -> dict[str, list[int]]:
    """Text -> the indexes of its successful tasks in ``outcome.results`` (task order)."""
    by_text: dict[str, list[int]] = {}
    for i, light in enumerate(outcome.pairs):
        if light.get("ok"):
            by_text.setdefault(light["text"], []).append(i)
    return by_text
