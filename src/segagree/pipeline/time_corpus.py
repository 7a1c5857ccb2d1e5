"""Time-based unitizing agreement over a corpus folder (``segagree run --time``).

The texts and their annotators come from :func:`segagree.pipeline.corpus.find_annotations`
(``TEXT.ANNOTATOR.EXT`` files, or one folder per annotator); each text's files are read as units in
time (:func:`segagree.pipeline.time_reading.read_annotator_files`, the annotator being the corpus's name, so
pairs such as ELAN's ``"A|B"`` are the same in every text) and scored by every chosen measure of the
``time`` group, per speaker and pooled over the text's speakers (:func:`score_time_statistics`).

The corpus value of a measure (text ``ALL``) pools every speaker of every scored text by the measure's
summed statistics (``measure.score(measure.add(stats))``, the measure contract), exactly as a text
pools its speakers; it is never an average of the texts' values. A text whose files cannot be read
or scored is listed with its error and left out of the pooled values; the others are scored.

:func:`time_rows` flattens the results to long-format rows (``text, speaker, annotators, measure,
value, note``): one per text, speaker (``ALL`` pooled) and measure; a measure whose value is one
number per category (gamma-k, (k)uα) gives a row ``NAME:CATEGORY`` per category; a value that is
undefined has an empty value and the reason in ``note``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from segagree.errors import SegagreeError
from segagree.pipeline.corpus import Corpus, find_annotations
from segagree.pipeline.time_agreement import pooled_result, score_time_statistics, time_measures
from segagree.pipeline.time_reading import read_annotator_files
from segagree.pipeline.units import POOLED, UnitReading

__all__ = ["TIME_COLUMNS", "TimeCorpusRun", "measure_values", "score_time_corpus", "time_rows"]

TIME_COLUMNS = ["text", "speaker", "annotators", "measure", "value", "note"]


@dataclass
class TimeCorpusRun:
    """The scores of a corpus: per text (``score_time``'s result), pooled over texts, and failures."""

    corpus: Corpus
    measures: list[str]
    parameters: dict[str, Any]
    reading: dict[str, Any]
    texts: dict[str, dict[str, Any]] = field(default_factory=dict)
    pooled: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)
    outputs: dict[str, str] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)  # a recording's text -> the corpus text of its files

    def files(self, text: str) -> dict[str, str]:
        """annotator -> file name of a text."""
        return {a: p.name for a, p in self.corpus.texts[self.sources.get(text, text)].items()}

    def rows(self) -> list[dict[str, Any]]:
        """The long-format rows of ``summary.csv`` (:func:`time_rows`)."""
        return list(time_rows(self))

    def to_dict(self) -> dict[str, Any]:
        """Everything but the rows, JSON-ready."""
        return {
            "corpus": str(self.corpus.root),
            "layout": self.corpus.layout,
            "measures": list(self.measures),
            "parameters": dict(self.parameters),
            "reading": dict(self.reading),
            "texts": {t: {"files": self.files(t), **r} for t, r in self.texts.items()},
            "pooled": dict(self.pooled),
            "failures": [{"text": t, "files": self.files(t), "error": e} for t, e in self.failures.items()],
            "skipped": list(self.corpus.skipped),
        }


def _reading_dict(how: UnitReading) -> dict[str, Any]:
    scheme = how.scheme if how.scheme is None or isinstance(how.scheme, str) else how.scheme.name
    return {"category": how.category, "format": how.fmt, "scheme": scheme, "layer": how.layer, **how.options}


def score_time_corpus(
    root: Path,
    how: UnitReading | None = None,
    names: Sequence[str] | None = None,
    params: Mapping[str, Any] | None = None,
) -> TimeCorpusRun:
    """Score every text of the corpus folder ``root`` and pool the measures over texts (see the module
    docstring). A usage error (an unknown measure, a parameter a measure refuses) stops the run; a
    text whose files cannot be read as units is that text's failure."""
    how = how or UnitReading()
    measures = [m.name for m in time_measures(names)]
    given = {k: v for k, v in (params or {}).items() if v is not None}
    corpus = find_annotations(root)
    run = TimeCorpusRun(corpus, measures, given, _reading_dict(how))
    stats: dict[str, list[Any]] = {name: [] for name in measures}
    for text in sorted(corpus.texts):
        try:
            timed = read_annotator_files(corpus.texts[text], how)
        except SegagreeError as err:  # this text's files: listed, the others scored
            run.failures[text] = str(err)
            continue
        # A usage error here is a parameter a measure refuses: the same for every text, so it stops the run.
        for rec, part in timed.by_recording().items():  # a table's recording column: a text each
            name = f"{text}/{rec}" if rec else text
            run.sources[name] = text
            run.texts[name], text_stats = score_time_statistics(part, measures, given)
            for measure, speaker_stats in text_stats.items():
                stats[measure].extend(speaker_stats)
    if not run.texts and not run.failures:
        why = "; ".join(corpus.skipped[:3]) or "no annotation files"
        raise SegagreeError(
            f"no text with two or more annotators (expected TEXT.ANNOTATOR.EXT files; {why})", path=root
        )
    for name in measures:
        run.pooled[name] = pooled_result(time_measures([name])[0], stats[name], given)
    return run


def _why(value: Any, reasons: Any, cat: str) -> str:
    """A category's reason when its value is undefined (``reasons`` per category, or the dict's own)."""
    if _number(value) is not None:
        return ""
    if isinstance(reasons, Mapping) and reasons.get(cat):
        return str(reasons[cat])
    return str(value.get("reason") or "undefined") if isinstance(value, Mapping) else "undefined"


def _number(value: Any) -> Any:
    """A category's value: a number, or the ``alpha`` (else ``value``) of a dict."""
    if isinstance(value, Mapping):
        return value.get("alpha", value.get("value"))
    return value


def measure_values(name: str, result: Mapping[str, Any]) -> list[tuple[str, Any, str]]:
    """(label, value, note) of one measure's result (``to_dict()``): ``(NAME, value, "")``, one
    ``(NAME:CATEGORY, value, reason)`` per category where the value is one per category (a dict value, or
    an undefined value with ``NAME_values`` per category), or ``(NAME, None, reason)``."""
    value = result.get("value")
    per = value if isinstance(value, Mapping) else result.get(f"{name}_values")
    if isinstance(per, Mapping) and per:
        reasons = result.get("reasons")
        return [(f"{name}:{cat}", _number(v), _why(v, reasons, cat)) for cat, v in per.items()]
    note = "" if value is not None else str(result.get("reason") or result.get("not_applicable") or "undefined")
    return [(name, value, note)]


def _result_rows(text: str, speaker: str, annotators: str, name: str, result: Mapping[str, Any]) -> Iterator[dict]:
    for label, value, note in measure_values(name, result):
        yield {
            "text": text,
            "speaker": speaker,
            "annotators": annotators,
            "measure": label,
            "value": value,
            "note": note,
        }


def time_rows(run: TimeCorpusRun) -> Iterator[dict[str, Any]]:
    """Long-format rows (:data:`TIME_COLUMNS`): per text its speakers then the text pooled
    (speaker ``ALL``), measure by measure; then the corpus pooled (text and speaker ``ALL``)."""
    every: list[str] = []
    for text, result in run.texts.items():
        annotators = "|".join(result["annotators"])
        every.extend(a for a in result["annotators"] if a not in every)
        for name, res in result["measures"].items():
            for speaker, per in (res.get("speakers") or {}).items():
                yield from _result_rows(text, speaker, annotators, name, per)
            yield from _result_rows(text, POOLED, annotators, name, res["pooled"])
    for name, res in run.pooled.items():
        yield from _result_rows(POOLED, POOLED, "|".join(every), name, res)
