"""ELAN's tab-delimited text exports (File > Export As > Tab-delimited Text), recognised by their columns.

What ELAN writes (``mpi.eudico.client.util.Transcription2TabDelimitedText`` and
``mpi.eudico.client.annotator.export.ExportTabDelimited`` in ELAN's source):

* **one row per annotation** (the default, no header row): the tier name and the tier's participant
  (each optional; a tier without participant gives an empty cell), then the chosen time columns, then
  the annotation value. The time columns come in ELAN's fixed order: begin, end, duration (each
  optional), and for each of them the chosen formats in the order ``hh:mm:ss.ms``
  (``00:02:00.077``), ``ss.msec`` (``120.077``), ``msec`` (``120077``), SMPTE time code
  (``00:02:00:02`` PAL, ``00:02:00;02`` NTSC). A newline inside a value is written as a space; a tab
  is not escaped (so a value may span several cells);
* **a column per tier** (with a header row): the time columns named ``Begin Time - msec``,
  ``End Time - hh:mm:ss.ms``, ``Duration - ss.msec`` ..., then one column per tier named after it,
  holding the value of that tier's annotation with the row's times (or nothing); ELAN's import dialog
  also names the columns ``Tier`` / ``Annotation``, which a header may use for the one-row-per-annotation
  layout.

A headerless file is recognised by its cells: every row has the same leading cells (at most two, the
tier and the participant), then cells that are times in one format per column, repeating in ELAN's
order, then the value. Two time groups are begin and end (refused when an end comes before its begin:
then they are begin and duration, or end and duration, which cannot be told apart); three are begin,
end and duration, and the durations must agree. SMPTE codes are read only as a check (their frame
rate is not in the file): a file with SMPTE times alone is refused. A header in another language than
English is recognised as a row that does not fit the shape of the rows below it.

How it maps to the model: each tier is a speaker (in the time track, an annotator or a speaker as
the plan says), each annotation a unit with its times and its value split at whitespace; the
value's final endnote (``.`` ``?`` ``,`` ``--``, or glued: ``colors.``) is the unit's boundary, as in
the ELAN reader; each tier's participant is kept as the ELAN reader keeps it
(``meta['unit_tier_attrs']``). Blank values are skipped (counted), values holding only an endnote are
listed. A tier named ``NAME@PARENT`` whose parent is a tier of the file (ELAN's and the ACLEW template's
dependent tiers: ``vcm@CHI``, ``xds@FA1``) is a dependent tier, not units: it is listed as not read.
"""

from __future__ import annotations

import csv
import io
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from segagree.errors import InputError
from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.formats.endnotes import split_endnote
from segagree.model import BoundaryScheme, Document, UnitColumns
from segagree.model.losses import LossReport

# ELAN's time formats, in the order it writes them within a group, and how each looks.
TIME_FORMATS = ("hh:mm:ss.ms", "ss.msec", "msec", "smpte")
_PATTERNS = {
    "hh:mm:ss.ms": re.compile(r"\d+:\d{2}:\d{2}\.\d{1,3}"),
    "ss.msec": re.compile(r"\d+\.\d+"),
    "msec": re.compile(r"\d+"),
    "smpte": re.compile(r"\d{2}:\d{2}:\d{2}[:;.]\d{2}"),
}
ROLES = ("begin", "end", "duration")
_HEADER_ROLES = {"begin time": "begin", "end time": "end", "duration": "duration"}
_HEADER_FORMATS = {"hh:mm:ss.ms": "hh:mm:ss.ms", "ss.msec": "ss.msec", "msec": "msec"}
_LABEL_NAMES = {"tier": "tier", "tier name": "tier", "participant": "participant", "annotation": "value"}
_FILE_NAMES = ("file name", "file path")
# The formats read for a time, best first (SMPTE needs a frame rate the file does not give).
_PRECISE = ("msec", "ss.msec", "hh:mm:ss.ms")
_SAMPLE_ROWS = 200  # rows looked at to recognise the shape (the whole file is checked on reading)


@dataclass
class ExportShape:
    """The columns of an ELAN export: ``labels`` the roles of the leading cells (``tier``,
    ``participant``), ``times`` (role, format) per time column, ``tiers`` the tier of each value
    column of a column-per-tier export (empty: one value per row, the last cell), ``header`` whether
    the first row names the columns, ``ignored`` columns not read (file name, path)."""

    labels: tuple[str, ...]
    times: tuple[tuple[str, str], ...]
    header: bool = False
    tiers: tuple[str, ...] = ()
    ignored: tuple[int, ...] = ()
    refusal: str | None = None
    value_column: int | None = None

    def describe(self) -> str:
        """The columns in words: ``tier, participant, begin (msec), end (msec), duration (msec), value``."""
        parts = list(self.labels) + [f"{role} ({fmt})" for role, fmt in self.times]
        parts += [f"tier {t!r}" for t in self.tiers] if self.tiers else ["value"]
        return ", ".join(parts)


def _format_of(cell: str) -> str | None:
    for name, pattern in _PATTERNS.items():
        if pattern.fullmatch(cell):
            return name
    return None


def _column_format(rows: list[list[str]], j: int) -> str | None:
    """The one time format every row's cell ``j`` has, else None."""
    found = {_format_of(r[j].strip()) for r in rows}
    return found.pop() if len(found) == 1 else None


def _time_roles(formats: list[str]) -> tuple[tuple[tuple[str, str], ...], str | None]:
    """The (role, format) of a run of time columns by ELAN's order, or a refusal."""
    t = len(formats)
    for period in range(1, min(len(TIME_FORMATS), t) + 1):
        group = formats[:period]
        if t % period or any(formats[i] != group[i % period] for i in range(t)):
            continue
        if sorted(group, key=TIME_FORMATS.index) != group or len(set(group)) < period:
            continue
        groups = t // period
        if groups > 3:
            break
        if groups == 1:
            return (), "it has one time per annotation; export begin and end times (or a duration) to read it"
        if not any(f in _PRECISE for f in group):
            return (), "its times are SMPTE time codes only (no frame rate in the file); export msec times too"
        roles = ROLES if groups == 3 else ROLES[:2]
        return tuple((roles[i // period], formats[i]) for i in range(t)), None
    return (), f"its time columns ({', '.join(formats)}) are not in ELAN's order (begin, end, duration)"


def _headerless(rows: list[list[str]]) -> ExportShape | None:
    """The shape of rows with no header, or None when they are not an ELAN export: at most two
    label cells, then two to twelve time columns (three groups of at most four formats), then the
    value (which may hold tabs: more cells). Columns are looked at only as far as the shape needs."""
    width = min(len(r) for r in rows)
    known: dict[int, str | None] = {}

    def fmt(j: int) -> str | None:
        if j not in known:
            known[j] = _column_format(rows, j)
        return known[j]

    most = 3 * len(TIME_FORMATS)
    for first in range(min(3, width)):
        if first and fmt(first - 1) is not None:
            return None  # a time column before: the run of times started earlier
        if fmt(first) is None:
            continue
        end = first
        while end < width and end - first <= most and fmt(end) is not None:
            end += 1
        if end == width:
            end -= 1  # the value is a number in every row: it is the last cell, not a time
        run = [fmt(j) or "" for j in range(first, end)]
        if not 2 <= len(run) <= most:
            return None  # one number before a text (a units table, a numbered list) is no ELAN export
        labels = ("tier", "participant")[:first]
        times, refusal = _time_roles(run)
        return ExportShape(labels, times, refusal=refusal)
    return None


def _named_shape(header: list[str]) -> ExportShape | None:
    """The shape a header row names (ELAN's English column names), or None when it names no time."""
    labels: list[str] = []
    times: list[tuple[str, str]] = []
    tiers: list[str] = []
    ignored: list[int] = []
    value_column = None
    for j, cell in enumerate(header):
        name = cell.strip()
        low = name.lower()
        role, _, fmt = low.partition(" - ")
        if role in _HEADER_ROLES and fmt:
            times.append((_HEADER_ROLES[role], _HEADER_FORMATS.get(fmt, "smpte")))
        elif low in _LABEL_NAMES and not tiers:
            if _LABEL_NAMES[low] == "value":
                value_column = j
            else:
                labels.append(_LABEL_NAMES[low])
        elif low in _FILE_NAMES:
            ignored.append(j)
        else:
            tiers.append(name)
    if not times:
        return None
    shape = ExportShape(tuple(labels), tuple(times), header=True, ignored=tuple(ignored), value_column=value_column)
    if value_column is None:
        shape.tiers = tuple(tiers)
        if not tiers:
            shape.refusal = "its header names times but no tier or annotation column"
    elif tiers:
        shape.refusal = f"its header names an annotation column and tier columns {tiers}; expected one or the other"
    roles = {r for r, _ in times}
    if "begin" not in roles or roles == {"begin"}:
        shape.refusal = shape.refusal or "its header names no begin time and end time (or duration)"
    if not any(f in _PRECISE for _, f in times):
        shape.refusal = shape.refusal or "its times are SMPTE time codes only (no frame rate); export msec times too"
    return shape


def _is_row(cells: list[str]) -> bool:
    """A row of data or header: not blank, and not one of the ``#`` lines ELAN writes before the rows
    (``"#file:///.../rec.wav -- offset: 0"`` media lines, ``"#name"`` file lines of a multi-file export)."""
    return any(c.strip() for c in cells) and not cells[0].lstrip('"').startswith("#")


def _file_column(rows: list[list[str]], value_at: int) -> bool:
    """Whether the last cell of every row, after the value, is a file name (a multi-file export)."""
    return all(len(r) > value_at + 1 and r[-1].strip().lower().endswith(".eaf") for r in rows)


def export_shape(rows: list[list[str]], *, foreign_header: bool = True) -> ExportShape | None:
    """The columns of an ELAN export (:class:`ExportShape`, whose ``refusal`` says why one cannot be
    read), or None when ``rows`` (the first rows of a file, split at the separator) are not one.
    ``foreign_header``: a first row that does not fit the rows below it may be a header in another
    language (tab-separated files: a CSV file with a header of its own is a table)."""
    rows = [r for r in rows if _is_row(r)]
    if not rows:
        return None
    named = _named_shape(rows[0])
    if named is not None:
        return named
    shape = _headerless(rows)
    if shape is None and len(rows) > 1 and foreign_header:
        # A header in another language: a first row that does not fit the rows below it.
        shape = _headerless(rows[1:])
        if shape is not None and shape.refusal:
            return None  # the first row is then not known to be a header: not recognised
        if shape is not None:
            shape.header = True
    return shape


def split_rows(text: str, sep: str) -> list[list[str]]:
    """The rows of an export: ELAN's tab export quotes nothing; its CSV export quotes every cell."""
    if sep == "\t":
        return [line.split("\t") for line in text.splitlines()]
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=sep))


def sniff(text: str, sep: str = "\t") -> ExportShape | None:
    """The shape of an export from the start of a file's text (None: not an ELAN export)."""
    head = text[: 1 << 16]
    lines = head.splitlines()[:_SAMPLE_ROWS]
    if len(head) == (1 << 16) and len(lines) > 1:
        lines = lines[:-1]  # the last line may be cut
    if sep not in "\n".join(lines):
        return None
    try:
        rows = split_rows("\n".join(lines), sep)
    except csv.Error:
        return None
    return export_shape(rows, foreign_header=sep == "\t")


def is_elan_export(path: str | Path, encoding: str | None = None) -> bool:
    """Whether a file (``.txt``, ``.tsv``, ``.csv``) is an ELAN tab-delimited (or CSV) export."""
    path = Path(path)
    try:
        text = decode_text(read_bytes(path), path, encoding=encoding, losses=LossReport())
    except InputError:
        return False
    return sniff(text, "," if path.suffix.lower() == ".csv" else "\t") is not None


@dataclass
class _Row:
    tier: str
    participant: str
    start: float
    end: float
    value: str
    line: int


@dataclass
class _Found:
    rows: list[_Row] = field(default_factory=list)
    blank: int = 0
    tiers: list[str] = field(default_factory=list)
    participants: dict[str, str] = field(default_factory=dict)
    file_column: bool = False


def _seconds(cell: str, fmt: str) -> float:
    if fmt == "msec":
        return int(cell) / 1000.0
    if fmt == "ss.msec":
        return float(cell)
    h, m, s = cell.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def _row_times(cells: list[str], columns: list[tuple[int, str, str]], path: Path, line: int) -> tuple[float, float]:
    """A row's (start, end) in seconds from its best time columns; the columns checked against each other."""
    best: dict[str, float] = {}
    for j, role, fmt in columns:
        cell = cells[j].strip()
        if fmt == "smpte":
            continue
        if _format_of(cell) != fmt:
            raise InputError(f"expected a {role} time as {fmt}, got {cell!r}", path=path, place=f"line {line}")
        value = _seconds(cell, fmt)
        if role in best and abs(best[role] - value) > 0.0015:
            raise InputError(
                f"the {role} times of one row disagree ({best[role]} and {value} s)", path=path, place=f"line {line}"
            )
        best.setdefault(role, value)
    start = best["begin"]
    end = best["end"] if "end" in best else start + best["duration"]
    if end < start:
        raise InputError(
            f"the annotation ends ({end}) before it starts ({start}); if the second time column is a duration, "
            "export begin and end times",
            path=path,
            place=f"line {line}",
        )
    if "duration" in best and "end" in best and abs(best["duration"] - (end - start)) > 0.0015:
        raise InputError(
            f"the duration ({best['duration']}) is not end - begin ({end - start:.3f}); expected ELAN's columns "
            "begin, end, duration",
            path=path,
            place=f"line {line}",
        )
    return start, end


def _collect(rows: list[list[str]], shape: ExportShape, path: Path, stem: str, sep: str) -> _Found:
    """Every annotation of the rows (line numbers counted over blank lines too)."""
    found = _Found()
    data = [(line, cells) for line, cells in enumerate(rows, start=1) if _is_row(cells)]
    header = data.pop(0)[1] if shape.header and data else []
    time_at = _time_columns(header, shape)
    width = max(j for j, _, _ in time_at) + 1
    file_column = not shape.tiers and shape.value_column is None and _file_column([c for _, c in data], width)
    found.file_column = file_column
    for line, cells in data:
        if len(cells) <= width and not shape.tiers:
            raise InputError(
                f"expected the columns {shape.describe()}, got {len(cells)} cells", path=path, place=f"line {line}"
            )
        start, end = _row_times(cells, time_at, path, line)
        if shape.tiers:
            for k, tier in enumerate(shape.tiers):
                j = width + k
                _add(found, tier, "", start, end, cells[j] if j < len(cells) else "", line)
            continue
        label = _labels(header, cells, shape)
        if shape.value_column is not None:
            value = cells[shape.value_column] if shape.value_column < len(cells) else ""
        else:
            # A tab inside a value splits it into cells; a multi-file export ends each row with the file.
            value = sep.join(cells[width : len(cells) - file_column])
        tier = label.get("tier") or label.get("participant") or stem
        _add(found, tier, label.get("participant", ""), start, end, value, line)
    return found


def _time_columns(header: list[str], shape: ExportShape) -> list[tuple[int, str, str]]:
    """(column, role, format) of each time column: as an English header names them, else after the
    leading cells."""
    named = [j for j, c in enumerate(header) if c.strip().lower().partition(" - ")[0] in _HEADER_ROLES]
    if len(named) == len(shape.times):
        return [(j, role, fmt) for j, (role, fmt) in zip(named, shape.times, strict=True)]
    offset = len(shape.labels)
    return [(offset + i, role, fmt) for i, (role, fmt) in enumerate(shape.times)]


def _labels(header: list[str], cells: list[str], shape: ExportShape) -> dict[str, str]:
    """A row's tier and participant: in the columns an English header names, else the leading cells."""
    out: dict[str, str] = {}
    for j, name in enumerate(header):
        role = _LABEL_NAMES.get(name.strip().lower())
        if role in ("tier", "participant") and j < len(cells):
            out[role] = cells[j].strip()
    if out or not shape.labels:
        return out
    return dict(zip(shape.labels, (c.strip() for c in cells), strict=False))


def _add(found: _Found, tier: str, participant: str, start: float, end: float, value: str, line: int) -> None:
    if tier not in found.tiers:
        found.tiers.append(tier)
    if participant and not found.participants.get(tier):
        found.participants[tier] = participant
    if not value.strip():
        found.blank += 1
        return
    found.rows.append(_Row(tier, participant, start, end, value, line))


def _dependent_tiers(found: _Found) -> dict[str, int]:
    """The tiers named ``NAME@PARENT`` whose parent is a tier of the export (ELAN's and ACLEW's naming of
    dependent tiers: ``vcm@CHI``, ``xds@FA1``, ``mor@CHI``), with their number of annotations."""
    tiers = set(found.tiers)
    dependent = [t for t in found.tiers if "@" in t and t.rsplit("@", 1)[1] in tiers]
    return {t: sum(1 for r in found.rows if r.tier == t) for t in dependent}


def read_export(
    path: Path,
    text: str,
    shape: ExportShape,
    scheme: BoundaryScheme,
    *,
    sep: str,
    source_format: str,
    losses: LossReport,
) -> Document:
    """The Document of an ELAN export whose columns are ``shape`` (see the module docstring)."""
    if shape.refusal:
        raise InputError(
            f"an ELAN tab-delimited export ({shape.describe()}) that cannot be read: {shape.refusal}", path=path
        )
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise InputError("a NUL character (a binary file?); expected an ELAN export", path=path, place=f"line {line}")
    stem = path.name.split(".")[0]
    try:
        if sep != "\t" and csv.field_size_limit() < len(text):
            csv.field_size_limit(min(sys.maxsize, 2**31 - 1))  # a cell may be as long as the file
        rows = split_rows(text, sep)
    except csv.Error as err:
        raise InputError(f"not a readable ELAN CSV export: {err}", path=path) from err
    found = _collect(rows, shape, path, stem, sep)
    dependent = _dependent_tiers(found)
    for tier, n in dependent.items():
        losses.add(
            "tier-ignored", "a dependent tier (named NAME@PARENT) is not read as units", where=f"tier {tier!r}", count=n
        )
    found.rows = [r for r in found.rows if r.tier not in dependent]
    found.tiers = [t for t in found.tiers if t not in dependent]
    if not found.rows:
        raise InputError("no units: every annotation value is empty", path=path)
    order = {t: i for i, t in enumerate(found.tiers)}
    found.rows.sort(key=lambda r: (r.start, order[r.tier], r.line))
    cols = UnitColumns()
    only_endnote: list[str] = []
    for row in found.rows:
        words, code = split_endnote(row.value.split(), scheme)
        if not words:
            only_endnote.append(f"line {row.line}")
            continue
        if code is None:
            code = scheme.unclassified_code
        if code is None:
            raise InputError(
                f"the unit has no endnote and scheme {scheme.name!r} has no unclassified type",
                path=path,
                place=f"line {row.line}",
            )
        cols.add(row.tier, words, len(words), code, row.start, row.end)
        cols.values.append(row.value)  # the value as the annotator wrote it
    if not cols.sizes:
        raise InputError("no units: every annotation value holds only an endnote", path=path)
    losses.note("read-as-elan-export", f"read as ELAN's tab-delimited export: {shape.describe()}")
    losses.add_count("annotations-blank", "blank annotation values are not units", found.blank)
    losses.add_items("units-dropped", "annotation values holding only an endnote are not units", only_endnote)
    if shape.ignored or found.file_column:
        losses.note("columns-ignored", "the file name and path columns are not read")
    meta: dict[str, Any] = {"layout": "elan-export", "elan_export": shape.describe()}
    if any(found.participants.values()):
        # As the ELAN reader keeps a tier's attributes, so that an .eaf written from it names them.
        attrs = {t: {"TIER_ID": t, "PARTICIPANT": found.participants.get(t) or None} for t in found.tiers}
        meta["unit_tier_attrs"] = attrs
    if found.blank:
        meta["empty_annotations"] = found.blank
    return cols.build(
        stem,
        layer="iu",
        scheme=scheme,
        speakers=found.tiers,
        source_path=str(path),
        source_format=source_format,
        meta=meta,
        losses=losses,
    )
