"""What a corpus run produced: :class:`RunOutcome`, used by the scheduler, the summary, the
review workbooks, the report and the API (in a module of its own, so that none of them imports
another for a type, and imports run one way)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from segagree.pipeline.config import RunConfig
from segagree.pipeline.corpus import Corpus
from segagree.pipeline.results_log import LoggedResults, light_record
from segagree.pipeline.rows import subtitle_pooled_rows, summary_rows
from segagree.pipeline.subtitles import pooled_over_texts


@dataclass
class RunOutcome:
    """What a run produced: per-task results in a fixed order, files written.

    ``results`` may be read lazily from the resume log
    (:class:`segagree.pipeline.results_log.LoggedResults`): iterate it once per output, do not
    turn it into a list at corpus scale. ``pairs`` are the light records (names, outcome, pooled
    scores) of the same tasks; ``rows`` the long-format summary rows, built on first use.
    """

    corpus: Corpus
    results: Sequence[dict[str, Any]]
    computed: int = 0
    reused: int = 0
    outputs: dict[str, Any] = field(default_factory=dict)
    config: RunConfig | None = None

    @property
    def pairs(self) -> list[dict[str, Any]]:
        """Light records of the tasks, in task order (see :func:`~segagree.pipeline.results_log.light_record`)."""
        if isinstance(self.results, LoggedResults):
            return self.results.light
        return [light_record(r, None) for r in self.results]

    @cached_property
    def rows(self) -> list[dict[str, Any]]:
        """Every summary row in task order, then the subtitle metrics pooled over texts."""
        rows = summary_rows(self.results, self.config or RunConfig())
        return rows + subtitle_pooled_rows(pooled_over_texts(self.subtitle_results()))

    def subtitle_results(self) -> list[dict[str, Any]]:
        """The full results of the pairs scored with subtitle metrics (few fields each)."""
        wanted = [i for i, light in enumerate(self.pairs) if light.get("subtitles")]
        return [self.results[i] for i in wanted]

    @property
    def failures(self) -> list[dict[str, Any]]:
        return [r for r in self.pairs if not r.get("ok")]


def texts_of(outcome: RunOutcome) -> dict[str, list[int]]:
    """Text -> the indexes of its successful tasks in ``outcome.results`` (task order)."""
    by_text: dict[str, list[int]] = {}
    for i, light in enumerate(outcome.pairs):
        if light.get("ok"):
            by_text.setdefault(light["text"], []).append(i)
    return by_text
