"""The time track of a corpus run (``segagree run --time``): its settings, its task, its rows.

The texts and their annotators come from :func:`segagree.corpus.discovery.find_annotations`
(``TEXT.ANNOTATOR.EXT`` files, or one folder per annotator). A **task** is one text: its files are
read as units in time (:func:`segagree.scoring.time.reading.read_annotator_files`, the annotator being the
corpus's name, so pairs such as ELAN's ``"A|B"`` are the same in every text) and scored by every
chosen measure of the ``time`` group, per speaker and pooled over the text's speakers
(:func:`segagree.scoring.time.agreement.score_time_statistics`). The task's log record keeps the
text's result and, per measure, each speaker's **sufficient statistics**
(:mod:`segagree.scoring.stats_codec`), so the corpus value of a measure (text ``ALL``) is
``measure.score(measure.add(stats))`` over every speaker of every scored text
(:func:`segagree.scoring.pooling.pool`), after a resume too; it is never an average of the texts'
values. A text whose files cannot be read is that text's failure; the others are scored.

:func:`time_rows` flattens a text's result to the run's summary rows (``text, speaker, annotators,
measure, value, note``): one per speaker (``ALL`` pooled) and measure; a measure whose value is one
number per category (gamma-k, (k)uα) gives a row ``NAME:CATEGORY`` per category; an undefined value
has an empty value and the reason in ``note``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from segagree.errors import SegagreeError, UsageError
from segagree.model.digest import json_digest, text_digest
from segagree.scoring.stats_codec import encode
from segagree.scoring.time.agreement import score_time_statistics, time_measures
from segagree.scoring.time.reading import read_annotator_files
from segagree.scoring.time.units import POOLED, UnitReading
from segagree.version import version

__all__ = ["TimeConfig", "measure_values", "read_task_units", "score_time_task", "time_key", "time_rows"]

#: Parameters that change how fast a measure runs, never its value: not part of the resume key.
SPEED_PARAMS = ("jobs",)


@dataclass
class TimeConfig:
    """The settings of a run in time: the measures, their parameters and how files are read."""

    track: ClassVar[str] = "time"

    measures: list[str] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    how: UnitReading = field(default_factory=UnitReading)

    def __post_init__(self) -> None:
        self.measures = [m.name for m in time_measures(self.measures or None)]
        self.params = {k: v for k, v in self.params.items() if v is not None}

    def reading(self) -> dict[str, Any]:
        """How files are read, JSON-ready (the fields of :class:`UnitReading` that are set)."""
        how = self.how
        scheme = how.scheme if how.scheme is None or isinstance(how.scheme, str) else how.scheme.name
        out: dict[str, Any] = {"category": how.category, "format": how.fmt, "scheme": scheme, "layer": how.layer}
        for name in ("annotators", "annotator_tiers", "continuum", "gap_labels"):
            value = getattr(how, name, None)
            if value is not None:
                out[name] = list(value)
        # the annotation plan's settings: they change what is read, so they are in the key
        if how.speaker_map:
            out["speaker_map"] = dict(how.speaker_map)
        if how.missing_as_empty:
            out["missing_as_empty"] = True
        if how.time_unit != "s":
            out["time_unit"] = how.time_unit
        if how.text_column:
            out["text_column"] = how.text_column
        if how.window is not None:
            out["window"] = list(how.window)
        if how.untimed != "skip":
            out["untimed"] = how.untimed
        return {**out, **how.options}

    def to_dict(self) -> dict[str, Any]:
        return {"track": "time", "measures": self.measures, "parameters": self.params, "reading": self.reading()}

    @property
    def digest(self) -> str:
        """What the scores depend on: the measures, their parameters (not :data:`SPEED_PARAMS`), the
        reading and the version."""
        scheme = self.how.scheme
        scheme_digest = getattr(scheme, "digest", None)
        payload = {**self.to_dict(), "scheme_digest": scheme_digest, "version": version()}
        payload["parameters"] = {k: v for k, v in self.params.items() if k not in SPEED_PARAMS}
        uem = self.params.get("uem")
        if isinstance(uem, str | Path) and Path(uem).is_file():  # a UEM file edited in place changes the scores
            from segagree.corpus.tasks import file_digest

            payload["uem_digest"] = file_digest(Path(uem))
        return json_digest(payload, 16, default=str)


def time_key(task: tuple[str, ...], config: TimeConfig, settings: str | None = None) -> str:
    """Resume key of a text: the track, its name, annotators, the files' content and the settings."""
    from segagree.corpus.tasks import file_digest

    files = "|".join(file_digest(Path(p)) for p in task[3:])
    payload = f"time|{task[0]}|{task[1]}|{files}|{settings or config.digest}"
    return text_digest(payload, 20)


def read_task_units(files: Mapping[str, str], how: UnitReading, recording: str = "") -> Any:
    """A time task's units: its annotators' files read by the annotation plan, and only the units of
    ``recording`` when the task is one recording of a units table."""
    timed = read_annotator_files(files, how)
    if not recording:
        return timed
    parts = timed.by_recording()
    if recording not in parts:
        raise SegagreeError(
            f"no units of recording {recording!r} (the files changed?)", path=next(iter(files.values()))
        )
    return parts[recording]


def score_time_task(task: tuple[str, ...], config: TimeConfig) -> dict[str, Any]:
    """Score one text (``(text, "A|B|...", "", file A, file B, ...)``); its log record (see the module
    docstring). Unreadable files are the record's error; a parameter a measure refuses raises."""
    text, joined, recording = task[0], task[1], task[2]
    annotators = joined.split("|")
    files = dict(zip(annotators, task[3:], strict=True))
    record: dict[str, Any] = {
        "track": "time",
        "text": text,
        "annotator_a": joined,
        "annotator_b": recording,  # a units table's recording, a text of its own ("" without)
        "annotators": annotators,
        "files": files,
        "version": version(),
    }
    try:
        record["key"] = time_key(task, config)
        timed = read_task_units(files, config.how, recording)
        for name in config.how.annotators or ():
            if name not in files:
                timed.notes.append(f"annotator {name!r} (--annotators) has no file for this text: no units")
        result, stats = score_time_statistics(timed, config.measures, config.params)
    except UsageError:
        raise
    except SegagreeError as err:  # this text's files: listed, the others scored
        record.update(ok=False, error=str(err))
        return record
    record["result"] = result
    record["statistics"] = {name: [encode(s) for s in per] for name, per in stats.items()}
    record.update(ok=True, error=None)
    return record


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
    if value is None:
        note = str(result.get("reason") or result.get("not_applicable") or "undefined")
    else:  # the settings that move the value (gamma-cat's variant ...), where the measure signs it
        note = str(result.get("note") or result.get("signature") or "")
    return [(name, value, note)]


def result_rows(text: str, speaker: str, annotators: str, name: str, result: Mapping[str, Any]) -> Iterator[dict]:
    """The summary rows of one measure's result (one per :func:`measure_values` entry)."""
    for label, value, note in measure_values(name, result):
        yield {
            "text": text,
            "speaker": speaker,
            "annotators": annotators,
            "measure": label,
            "value": value,
            "note": note,
        }


def time_rows(record: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """A scored text's rows, measure by measure: its speakers, then the text pooled (speaker ``ALL``)."""
    result = record["result"]
    annotators = "|".join(result["annotators"])
    for name, res in result["measures"].items():
        for speaker, per in (res.get("speakers") or {}).items():
            yield from result_rows(record["text"], speaker, annotators, name, per)
        yield from result_rows(record["text"], POOLED, annotators, name, res["pooled"])


def pooled_values(record: Mapping[str, Any]) -> dict[str, Any]:
    """label -> the text's value pooled over speakers (the light record's, for tables)."""
    out: dict[str, Any] = {}
    for name, res in record["result"]["measures"].items():
        for label, value, _ in measure_values(name, res["pooled"]):
            out[label] = value
    return out
