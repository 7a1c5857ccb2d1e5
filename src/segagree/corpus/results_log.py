"""The resume log ``OUTDIR/results.jsonl``: one JSON line per finished task, read back lazily.

A corpus run appends every finished task to the log as it arrives (one line, flushed), so an
interrupted run loses at most the line being written (a torn last line is skipped on reading)
and the main process never holds the results of the whole corpus: it keeps, per task, a
*light record* (the task's names, key, outcome, the pooled scores and the line's byte offset,
about 1 kB) and reads a full result back from its offset when an output needs it
(:class:`LoggedResults`, a read-only sequence in task order).

**What a line keeps** (a token task). Per task: its key, files, formats, the ``compare`` result (scores,
per-speaker statistics, operation counts, transcript mismatches, other metrics), the kappa
result, and ``figures`` (the report's few numbers per pair,
:func:`segagree.scoring.tokens.pair_figures.figure_data`). Not the per-token arrays and not the operation
rows (95 % of the bytes): a review workbook scores its pairs again without kappa to list their
operations (deterministic, milliseconds per pair); and ``statistics``, each other measure's summed
sufficient statistics over the pair's speakers (:mod:`segagree.scoring.stats_codec`), which the
rows pooled over texts add up. A time task's line (``"track": "time"``, one text) keeps the text's
result and each measure's per-speaker statistics (:mod:`segagree.corpus.time_track`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO, overload

import numpy as np

from segagree.corpus.rows import POOLED, kappa_values
from segagree.metrics.boundary.sf import SF_NAMES
from segagree.metrics.chance.kappa import KAPPA_NAMES

SF, SF_B = SF_NAMES  # S_f's and S_f^B's names (their cards'), the keys of compare results
KAPPA_SF, KAPPA_SF_B = KAPPA_NAMES  # the kappas' names (their cards')

RESULTS_LOG = "results.jsonl"
#: Keys of a task result that only the worker uses; the log (and the main process) leave them out.
#: ``written``: the digests of the outputs a worker wrote for the task's text in this run (see
#: :func:`segagree.corpus.scheduler.score_for_log`); its light record has it, the log does not.
NOT_LOGGED = ("tracks", "operation_rows", "written")
#: What a light record copies from its result, besides the pooled scores.
LIGHT_KEYS = ("text", "annotator_a", "annotator_b", "file_a", "file_b", "key", "ok", "error")
POOLED_KEYS = (SF, SF_B, "cost", "n_tokens", "edits", "signature")


def log_record(result: dict[str, Any]) -> dict[str, Any]:
    """What the resume log keeps of a task result (see the module docstring)."""
    return {k: v for k, v in result.items() if k not in NOT_LOGGED}


def light_record(result: dict[str, Any], offset: int | None) -> dict[str, Any]:
    """A task's names, key, outcome and pooled scores, and where its full result is in the log.

    ``offset`` is the byte offset of the result's line in the log (None: not logged, e.g. a task
    whose files could not be read at all; the light record then holds all there is of it).
    Pooled scores: S_f, S_f^B, cost, tokens, edits, the signature, the number of transcript
    mismatches, the pooled kappas (None where absent), whether the pair has S_f at all.
    """
    light = {k: result.get(k) for k in LIGHT_KEYS}
    light["offset"] = offset
    if result.get("written"):
        light["written"] = result["written"]
    if result.get("track") == "time":  # the time track's record: a text with all its annotators
        from segagree.corpus.time_track import pooled_values

        light.update(track="time", annotators=result.get("annotators"), files=result.get("files"))
        light["values"] = pooled_values(result) if result.get("ok") else {}
        return light
    if result.get("ok"):
        comp = result["compare"]
        light.update({k: comp.get(k) for k in POOLED_KEYS})
        light["mismatches"] = len(comp.get("mismatches") or [])
        light["subtitles"] = result.get("subtitles") is not None
        light["statistics"] = result.get("statistics") or {}  # a few numbers per measure
        kappa = kappa_values(result["kappa"]).get(POOLED, {}) if result.get("kappa") else {}
        light[KAPPA_SF], light[KAPPA_SF_B] = kappa.get(KAPPA_SF), kappa.get(KAPPA_SF_B)
    return light


def append(fh: BinaryIO, result: dict[str, Any]) -> int:
    """Append a result's log line to the log opened for binary appending; return its offset."""
    offset = fh.tell()
    line = json.dumps(log_record(result), ensure_ascii=False, default=_json_default)
    fh.write((line + "\n").encode())
    fh.flush()
    return offset


def _json_default(value: Any) -> Any:
    """numpy scalars and arrays as plain JSON (measure results may hold them)."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"not JSON: {type(value).__name__}")


#: Bounds on one line of the log, checked before it is used (the log is a file anyone may have
#: edited): its length, the nesting of its JSON and the size of its ``figures`` (the report's few
#: numbers per pair: 40 windows per speaker and a table of boundary types).
MAX_LINE_BYTES = 64 * 1024 * 1024
MAX_JSON_DEPTH = 64
MAX_FIGURES_CHARS = 4 * 1024 * 1024
_LINE_ERRORS = (
    TypeError,
    ValueError,
    KeyError,
    IndexError,
    AttributeError,
    ZeroDivisionError,
    RecursionError,
    OverflowError,
)


def _depth_within(line: bytes, limit: int) -> bool:
    """Whether the brackets of a JSON line nest at most ``limit`` deep (strings skipped), before
    the parser recurses into them.

    The strings go first (one regular expression; from a quote that never closes to the end of
    the line is string, as a byte-by-byte scan would read it), then everything but the brackets;
    what is left is usually a few hundred bytes, whose running depth numpy adds up, a million at
    a time. A byte-by-byte loop in Python took 4 s of CPU for a 45 MB line."""
    outside = _JSON_STRING.sub(b"", line)
    quote = outside.find(b'"')
    brackets = (outside if quote < 0 else outside[:quote]).translate(None, _NOT_BRACKET)
    if len(brackets) <= limit:
        return True
    depth = 0
    for start in range(0, len(brackets), _DEPTH_CHUNK):
        chunk = np.frombuffer(brackets, dtype=np.uint8, count=min(_DEPTH_CHUNK, len(brackets) - start), offset=start)
        running = depth + np.cumsum(np.where((chunk == 0x5B) | (chunk == 0x7B), 1, -1))
        if int(running.max()) > limit:
            return False
        depth = int(running[-1])
    return True


#: A JSON string: quotes around anything but a quote or a backslash, or a backslash and the byte
#: after it (any byte, as the former scan skipped it).
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_DEPTH_CHUNK = 1 << 20


def check_record(rec: Any) -> dict[str, Any]:
    """The light record of a logged line after checking that every part the outputs read back is
    what a run writes (raises ValueError naming what is not)."""
    from segagree.scoring.stats_codec import decode

    if not isinstance(rec, dict):
        raise ValueError("not a JSON object")
    if not isinstance(rec.get("key"), str):
        raise ValueError("no task key")
    try:
        light = light_record(rec, 0)
        statistics = rec.get("statistics") or {}
        if not isinstance(statistics, dict):
            raise ValueError("statistics are not an object")
        for value in statistics.values():
            decode(value)
        figures = rec.get("figures")
        if figures is not None and (not isinstance(figures, dict) or len(json.dumps(figures)) > MAX_FIGURES_CHARS):
            raise ValueError(f"figures are not an object of at most {MAX_FIGURES_CHARS:,} characters")
    except _LINE_ERRORS as err:
        raise ValueError(f"{type(err).__name__}: {str(err)[:200]}") from None
    return light


def load_index(path: Path, notes: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """Light records (with their offsets) of the finished tasks of an earlier run, by key.

    Failed tasks are left out (they are tried again: the cause may have been fixed outside the
    inputs); a key logged twice keeps its last line; torn lines (a killed run) are skipped. A
    complete line that is not what a run writes (over :data:`MAX_LINE_BYTES`, nested deeper than
    :data:`MAX_JSON_DEPTH`, or parts :func:`check_record` refuses) is skipped too, its task scored
    again, and a note naming the file and the line is added to ``notes``.
    """
    done: dict[str, dict[str, Any]] = {}
    if not path.is_file():
        return done
    offset = 0

    def skip(number: int, why: str) -> None:
        if notes is not None:
            notes.append(f"{path}: line {number} skipped ({why}); its task is scored again (--fresh starts a new log)")

    with path.open("rb") as fh:
        for number, (length, line) in enumerate(_bounded_lines(fh), start=1):
            start, offset = offset, offset + length
            if length > MAX_LINE_BYTES:
                skip(number, f"longer than {MAX_LINE_BYTES // (1024 * 1024)} MB")
                continue
            if not line.endswith(b"\n"):
                continue  # the line cut short by a killed run
            if not _depth_within(line, MAX_JSON_DEPTH):
                skip(number, f"nested deeper than {MAX_JSON_DEPTH} levels")
                continue
            try:
                rec = json.loads(line)
            except (ValueError, RecursionError):
                skip(number, "not JSON")
                continue
            if not (isinstance(rec, dict) and rec.get("key") and rec.get("ok")):
                continue
            try:
                light = check_record(rec)
            except ValueError as err:
                skip(number, str(err))
                continue
            light["offset"] = start
            done[rec["key"]] = light
    return done


def _bounded_lines(fh: BinaryIO) -> Iterator[tuple[int, bytes]]:
    """(length in bytes, line) of each line of ``fh``; a line longer than :data:`MAX_LINE_BYTES`
    comes cut to that many bytes and one more (never read whole into memory)."""
    while True:
        line = fh.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        length = len(line)
        if length > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while True:
                more = fh.readline(1024 * 1024)
                length += len(more)
                if not more or more.endswith(b"\n"):
                    break
        yield length, line


def load_results_log(path: Path) -> dict[str, dict[str, Any]]:
    """Finished tasks of an earlier run, by key, in full (small logs; :func:`load_index` scales)."""
    index = load_index(path)
    if not index:
        return {}
    with path.open("rb") as fh:
        return {key: _read_at(fh, light["offset"]) for key, light in index.items()}


def _read_at(fh: BinaryIO, offset: int) -> dict[str, Any]:
    fh.seek(offset)
    record: dict[str, Any] = json.loads(fh.readline())
    return record


class LoggedResults(Sequence[dict[str, Any]]):
    """Task results in task order, each read from the log when asked for (see the module docstring)."""

    def __init__(self, path: Path, light: list[dict[str, Any]]) -> None:
        self.path = path
        self.light = light

    def __len__(self) -> int:
        return len(self.light)

    def _full(self, fh: BinaryIO | None, light: dict[str, Any]) -> dict[str, Any]:
        if light["offset"] is None or fh is None:
            return {k: light[k] for k in LIGHT_KEYS}
        return _read_at(fh, light["offset"])

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return list(self.iterate(self.light[index]))
        return next(self.iterate([self.light[index]]))

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return self.iterate(self.light)

    def iterate(self, lights: Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        """The full results of ``lights`` (light records of this run), one at a time."""
        if not self.path.is_file():
            yield from (self._full(None, light) for light in lights)
            return
        with self.path.open("rb") as fh:
            for light in lights:
                yield self._full(fh, light)
