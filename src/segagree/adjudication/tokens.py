"""Adjudication: turn a filled-in review workbook into a gold annotation.

:func:`adjudicate` reads a review workbook (see :mod:`segagree.outputs.review_workbook`) with
openpyxl, finds annotator A's source file through the About sheet (its path relative to the
workbook, else the absolute path recorded there; refused if its SHA-1 changed since the
workbook was written), reads it as the base annotation and applies the decision of every row
of one operations sheet. Places are token indexes in A's own stream of a speaker (the
boundary after that token):

``A``
    keep A's boundary (or A's absence of one): no change.
``B``
    B's boundary type at *B's point in A*; A's boundary at *A token #* is removed unless B's
    boundary is the same type at the same place (a substitution becomes B's type, a
    transposition moves, a deletion removes, an insertion adds).
``both``
    keep A's boundary and add B's (a transposition gives boundaries at both places). On a
    substitution this would put two boundaries after one token, which is an error.
``neither``
    remove A's boundary and do not add B's. At the last token of a speaker's stream (which
    must end in a boundary in a unit layer) this is an error naming the row: the adjudicator
    has to choose a type (A, B or other), the tool does not invent one.
``other``
    keep A's boundary and list the row as needing manual attention.
empty (undecided)
    kept as A's and listed; with ``undecided="error"`` the rows are named and nothing is written.

Where A has tokens B lacks, the comparison placed A's boundary after such a token at the
preceding common token; the workbook's *A span* columns record those tokens, and a removal
clears A's boundaries over the whole span.

Contradictions are errors naming both rows (sheet and Excel row): two rows leaving different
boundary types at one place (one row keeping A's boundary where another puts B's of another
type), or a ``neither`` removing A's boundary at a place where another row adds one. A ``B``
that removes A's boundary where another row puts B's is not a contradiction: it is how B's
moved boundaries are taken over (all ``B`` reproduces B's annotation).

The gold annotation is A's document with the adjudicated layer replaced, written in any
writable format (by the output's extension or ``fmt``) with
:func:`segagree.formats.write_document`; its loss report is part of the returned report.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, ParamSpec

import numpy as np

from segagree.adjudication.checks import (
    allowed_roots,
    compare_ids,
    digest_problem,
    locate_source,
    missing_by_count,
    reading_settings,
    refuse_duplicate_ids,
)
from segagree.adjudication.decisions import is_decisions_file, read_token_decisions
from segagree.adjudication.token_source import OnSource, write_on_source
from segagree.corpus.documents import read_text_document
from segagree.errors import SegagreeError, UsageError
from segagree.files.memory import OutOfMemory
from segagree.files.xlsx_guard import check_workbook
from segagree.formats import LossReport, format_for, write_document
from segagree.model import NONE_SYMBOL, BoundaryScheme, Document, Layer, scheme_from_dict
from segagree.outputs.review_workbook import (
    ABOUT_SHEET,
    CONTINUED_SHEET,
    DECISIONS,
    OPS_HEADERS,
    SCHEME_JSON_LABEL,
    SETTINGS_JSON_LABEL,
    SOURCE_HEADERS,
    join_continued,
    review_rows,
)
from segagree.scoring.tokens.pairing import speaker_streams

Undecided = Literal["a", "error"]
_P = ParamSpec("_P")
_REQUIRED = (
    "speaker",
    "position_a",
    "type_a",
    "type_b",
    "op",
    "decision",
    "position_b_in_a",
    "span_a_from",
    "span_a_to",
)
_LIST_LIMIT = 20


@dataclass
class AdjudicationReport:
    """What :func:`adjudicate` did.

    Attributes:
        workbook, sheet: the review workbook and the operations sheet read.
        base: annotator A's source file (the base of the gold annotation).
        output, format: the gold file written and its format.
        applied: number of rows by decision (``A``, ``B``, ``both``, ``neither``, ``other``),
            undecided rows not included.
        undecided: the undecided rows (``'sheet' row N``), kept as A's.
        unnamed_missing: deleted rows counted (against the About sheet's row count) but not named
            (B's file missing or changed), kept as A's.
        attention: rows decided ``other`` (with their comments), to be fixed by hand.
        changed: tokens whose boundary in the gold annotation differs from A's.
        losses: what the output format could not hold.
    """

    workbook: Path
    sheet: str
    base: Path
    output: Path
    format: str
    applied: Counter[str] = field(default_factory=Counter)
    undecided: list[str] = field(default_factory=list)
    attention: list[str] = field(default_factory=list)
    changed: int = 0
    losses: LossReport = field(default_factory=LossReport)
    warnings: list[str] = field(default_factory=list)
    unnamed_missing: int = 0
    #: the gold is A's file with only the changed units edited: what its tiers hold (else None:
    #: written from the model)
    on_source: OnSource | None = None

    def lines(self) -> list[str]:
        """A short human-readable report."""
        kinds = ", ".join(f"{d}: {self.applied[d]}" for d in DECISIONS if self.applied[d]) or "none"
        out = [
            f"wrote {self.output} ({self.format}) from {self.base} and sheet '{self.sheet}' of {self.workbook}",
            f"decisions applied: {sum(self.applied.values())} ({kinds}); {self.changed} boundaries changed",
        ]
        unnamed = [f"{self.unnamed_missing} deleted rows, ids unknown"] if self.unnamed_missing else []
        out.append(
            f"undecided rows (kept A's): {len(self.undecided) + self.unnamed_missing}"
            + _listing([*self.undecided, *unnamed])
        )
        out.append(f"rows needing attention ('other'): {len(self.attention)}" + _listing(self.attention))
        if self.on_source is not None:
            out.append(
                f"the gold is {self.base} with only the changed units edited: every other unit, tier and "
                "dependent annotation as written" + (" (except as listed below)" if self.losses else "")
            )
            out.extend(self.on_source.lines())
        out.extend(f"warning: {w}" for w in self.warnings)
        out.extend(f"loss: {line}" for line in self.losses.lines())
        if not self.losses:
            out.append("lossless")
        return out


def _listing(items: list[str]) -> str:
    if not items:
        return ""
    shown = "; ".join(items[:_LIST_LIMIT])
    more = f"; and {len(items) - _LIST_LIMIT} more" if len(items) > _LIST_LIMIT else ""
    return f": {shown}{more}"


@dataclass
class _Row:
    ref: str
    speaker: str
    op: str
    position_a: int | None
    position_b_in_a: int | None
    span: tuple[int, int] | None
    type_a: str
    type_b: str
    token_a: str
    decision: str | None
    comment: str
    row_id: int | None = None


@dataclass
class _Source:
    sheet: str
    values: dict[str, str]
    #: the text reviewed: a ``TEXT/DOCUMENT`` of a run names the one document of A's and B's files
    #: (:mod:`segagree.corpus.documents`)
    text: str = ""


def _naming_the_workbook(func: Callable[_P, AdjudicationReport]) -> Callable[_P, AdjudicationReport]:
    """Report running out of memory as :class:`~segagree.files.memory.OutOfMemory` naming the
    workbook or decisions file (not as a bare "out of memory")."""

    @functools.wraps(func)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> AdjudicationReport:
        try:
            return func(*args, **kwargs)
        except MemoryError:
            raise OutOfMemory(str(args[0] if args else kwargs.get("workbook"))) from None

    return wrapper


@_naming_the_workbook
def adjudicate(
    workbook: str | Path,
    output: str | Path,
    *,
    undecided: Undecided = "a",
    sheet: str | None = None,
    fmt: str | None = None,
    allow_missing_rows: bool = False,
    file_a: str | Path | None = None,
    file_b: str | Path | None = None,
    sources: Sequence[str | Path] = (),
    strict: bool = False,
) -> AdjudicationReport:
    """Apply the decisions of a filled-in review workbook to annotator A's file; write the gold.

    Args:
        workbook: the review workbook (``review/TEXT.xlsx`` of ``segagree run``).
        output: the gold annotation to write (format by extension unless ``fmt``).
        undecided: ``"a"`` keeps A's boundary for rows without a decision (and lists them);
            ``"error"`` refuses, naming them.
        sheet: the operations sheet to apply (needed when the text has 3+ annotators).
        fmt: output format name.
        allow_missing_rows: accept a workbook whose operation rows were deleted or blanked
            (their row ids are missing); A's boundaries stay at those places.
        file_a, file_b: A's and B's files, instead of the paths the About sheet records.
        sources: more folders the About sheet's paths may point into (besides the workbook's
            folder and the current folder; :mod:`segagree.adjudication.checks`).
        strict: a check that cannot run (B's file missing or changed) is an error, not a warning.

    Raises:
        SegagreeError: a missing, changed or out-of-bounds source file, a short digest,
            duplicated row ids, an unknown decision, contradicting
            decisions (naming both rows), undecided rows with ``undecided="error"``, ``neither``
            at a stream's last token.
    """
    if undecided not in ("a", "error"):
        raise UsageError(f"undecided must be 'a' or 'error', not {undecided!r}")
    workbook, output = Path(workbook), Path(output)
    if not workbook.is_file():
        raise SegagreeError("no such review workbook", path=workbook)
    if output.resolve() == workbook.resolve():
        raise SegagreeError("refusing to overwrite the review workbook with the gold annotation", path=output)
    target = format_for(output, fmt)  # fail on a bad output format before any work
    if is_decisions_file(workbook):  # the review page's export: its rows read by the workbook's row reader
        about, sheet_name, values, table = read_token_decisions(workbook, sheet)
        workbook_sources = {sheet_name: _Source(sheet_name, values)}
        rows = _read_ops(table, sheet_name, workbook, {})
    else:
        about, workbook_sources, rows, sheet_name = _read_workbook(workbook, sheet)
    src = workbook_sources[sheet_name]
    src.text = str(about.get("text") or "")
    roots = allowed_roots(workbook, sources)
    base_path = _find_source(workbook, src, Path(file_a) if file_a else None, roots)
    refuse_duplicate_ids(rows, workbook)
    try:
        settings = json.loads(about[SETTINGS_JSON_LABEL])
        scheme = scheme_from_dict(json.loads(about[SCHEME_JSON_LABEL]), source=f"{workbook} (its scheme)")
    except (KeyError, TypeError, json.JSONDecodeError) as err:
        raise SegagreeError(
            f"the About sheet's settings or scheme are missing or damaged ({err})", path=workbook
        ) from None
    doc = read_text_document(
        base_path, src.text, src.values.get("format_a") or None, scheme=scheme, **reading_settings(settings)
    )
    warnings: list[str] = []
    missing_rows, n_missing = _check_rows(rows, doc, src, workbook, scheme, settings, file_b, roots, warnings)
    if strict and warnings:
        raise SegagreeError("--strict: " + "; ".join(warnings), path=workbook)
    if n_missing and not allow_missing_rows:
        _refuse_missing_rows(workbook, sheet_name, missing_rows, n_missing)
    layer_name = src.values.get("layer") or None
    lay = doc.layer(layer_name)
    streams = speaker_streams(doc, settings)

    if undecided == "error":
        missing = [r.ref for r in rows if r.decision is None]
        if missing:
            raise SegagreeError(f"{len(missing)} rows have no decision{_listing(missing)}", path=workbook)

    codes = _apply(rows, lay, streams, doc, workbook)
    gold = doc.replace(
        layers={**doc.layers, lay.name: Layer(lay.name, lay.scheme, codes)},
        meta=dict(doc.meta),
    )
    timed_from_b = _unit_times_from_b(gold, codes, streams, workbook, src, scheme, settings, file_b, roots)
    if timed_from_b:
        gold = gold.replace(tokens=timed_from_b[1])
    try:
        losses, on_source = _write_gold(doc, gold, lay.name, output, fmt, target.name)
    except OSError as err:  # no space left on the device, a read-only folder: name the file
        raise SegagreeError(f"cannot write the gold annotation: {err.strerror or err}", path=output) from None
    except MemoryError:
        raise SegagreeError("out of memory writing the gold annotation", path=output) from None
    report = AdjudicationReport(workbook, sheet_name, base_path, output, target.name, losses=losses)
    report.on_source = on_source
    report.undecided.extend(f"'{sheet_name}' row id {n} (missing)" for n in missing_rows)
    report.unnamed_missing = n_missing - len(missing_rows)
    report.warnings.extend(warnings)
    if timed_from_b:
        report.warnings.append(
            f"{timed_from_b[0]} unit start/end times at boundaries taken from B come from B's file "
            "(same tokens in both files)"
        )
    report.changed = int(np.count_nonzero(codes != lay.boundaries))
    _count_decisions(report, rows)
    return report


def _write_gold(
    doc: Document, gold: Document, layer: str, output: Path, fmt: str | None, target: str
) -> tuple[LossReport, OnSource | None]:
    """Write the gold: on A's own file where it can be (only the changed units edited,
    :mod:`segagree.adjudication.token_source`), else from the model, with what A's file held that
    the model does not (its read losses: dependent tiers, ...) reported as not kept. Returns the
    losses and, for a gold written on A's file, what its tiers hold."""
    on_source, why = write_on_source(doc, gold, layer, output, target)
    if on_source is not None:
        return on_source.losses, on_source
    options: dict[str, Any] = {"layer": layer} if layer != "iu" else {}
    losses = write_document(gold, output, fmt, **options)
    if doc.losses:
        losses.add(
            "source-not-kept",
            f"the gold is written from the adjudicated tokens, not on A's file ({why}); what A's file held "
            "beyond them is not in the gold:",
        )
        losses.extend(doc.losses)
    return losses, None


def _refuse_missing_rows(workbook: Path, sheet_name: str, missing_rows: Sequence[int], n_missing: int) -> None:
    """Refuse a workbook whose operation rows were deleted or blanked, naming their ids."""
    ids = f" (row ids {', '.join(map(str, missing_rows[:_LIST_LIMIT]))}" if missing_rows else " ("
    raise SegagreeError(
        f"{n_missing} operation rows of sheet '{sheet_name}' were deleted or blanked"
        + ids
        + (" ..." if len(missing_rows) > _LIST_LIMIT else "")
        + ("; " if missing_rows else "the About sheet records more rows than the sheet holds; ")
        + "restore them, or accept A's boundaries there with --allow-undecided)",
        path=workbook,
    )


def _count_decisions(report: AdjudicationReport, rows: Sequence[_Row]) -> None:
    """The report's applied decisions by kind, undecided rows and rows marked ``other``."""
    for r in rows:
        if r.decision is None:
            report.undecided.append(r.ref)
        else:
            report.applied[r.decision] += 1
            if r.decision == "other":
                report.attention.append(r.ref + (f" ({r.comment})" if r.comment else ""))


def _unit_times_from_b(
    gold: Document,
    codes: np.ndarray,
    streams: dict[str, np.ndarray],
    workbook: Path,
    src: _Source,
    scheme: BoundaryScheme,
    settings: dict[str, Any],
    file_b: str | Path | None,
    roots: list[Path],
) -> tuple[int, Any] | None:
    """Give the gold's units the times their edges came from: where a gold unit starts or ends
    at a place A has no time for (a boundary taken from B), B's time of the same token, when B's
    file is at hand (unchanged) and its stream of the speaker has the same tokens as A's (a
    subtitle review of one transcript: both files timed their cues). Returns the number of
    times filled and the token table with them, or None when none was."""
    starts = gold.tokens["start"].to_numpy(dtype=float, copy=True)
    ends = gold.tokens["end"].to_numpy(dtype=float, copy=True)
    needed = []
    for rows in streams.values():
        edges = np.flatnonzero(codes[rows] != 0)
        last = [rows[e] for e in edges]
        first = [rows[0]] + [rows[e + 1] for e in edges if e + 1 < len(rows)]
        needed += [("end", i) for i in last if np.isnan(ends[i])] + [("start", i) for i in first if np.isnan(starts[i])]
    if not needed:
        return None
    b_path, _why = locate_source(workbook, src.values, "b", Path(file_b) if file_b else None, roots)
    if b_path is None or digest_problem(b_path, src.values.get("sha1_b", "")):
        return None  # _check_rows has said why B's file cannot be used
    try:
        doc_b = read_text_document(
            b_path, src.text, src.values.get("format_b") or None, scheme=scheme, **reading_settings(settings)
        )
    except SegagreeError:
        return None
    b_streams = speaker_streams(doc_b, settings)
    texts_a = gold.tokens["text"].to_numpy()
    texts_b = doc_b.tokens["text"].to_numpy()
    b_starts = doc_b.tokens["start"].to_numpy(dtype=float)
    b_ends = doc_b.tokens["end"].to_numpy(dtype=float)
    to_b: dict[int, int] = {}
    for speaker, rows in streams.items():
        b_rows = b_streams.get(speaker)
        if b_rows is not None and len(b_rows) == len(rows) and (texts_a[rows] == texts_b[b_rows]).all():
            to_b.update(zip(rows.tolist(), b_rows.tolist(), strict=True))
    filled = 0
    for side, i in needed:
        j = to_b.get(int(i))
        if j is None:
            continue
        value = b_ends[j] if side == "end" else b_starts[j]
        if not np.isnan(value):
            (ends if side == "end" else starts)[i] = value
            filled += 1
    if not filled:
        return None
    table = gold.tokens.copy()
    table["start"] = starts
    table["end"] = ends
    return filled, table


# --- reading the workbook ----------------------------------------------------------------


def _read_workbook(workbook: Path, sheet: str | None) -> tuple[dict[str, str], dict[str, _Source], list[_Row], str]:
    import openpyxl

    check_workbook(workbook)  # size bombs refused before openpyxl expands them
    try:
        wb = openpyxl.load_workbook(workbook, read_only=True, data_only=True)
    except Exception as err:  # zipfile/openpyxl raise many kinds for a damaged file
        raise SegagreeError(f"cannot read the workbook ({err})", path=workbook) from None
    try:
        if ABOUT_SHEET not in wb.sheetnames:
            raise SegagreeError("not a segagree review workbook: it has no About sheet", path=workbook)
        long = continued_cells(wb)
        about, sources = _read_about(wb[ABOUT_SHEET], workbook, long)
        if sheet is None:
            if len(sources) != 1:
                raise UsageError(
                    f"{workbook}: the workbook has {len(sources)} operations sheets ({sorted(sources)}); "
                    "choose one with --sheet"
                )
            sheet = next(iter(sources))
        if sheet not in sources or sheet not in wb.sheetnames:
            raise UsageError(f"{workbook}: no operations sheet {sheet!r}; sheets: {sorted(sources)}")
        rows = _read_ops(wb[sheet], sheet, workbook, long)
        for more in filter(None, (s.strip() for s in sources[sheet].values.get("more sheets", "").split(";"))):
            if more not in wb.sheetnames:
                raise SegagreeError(f"sheet {more!r}, which continues {sheet!r}, is missing", path=workbook)
            rows += _read_ops(wb[more], more, workbook, long)
    finally:
        wb.close()
    return about, sources, rows, sheet


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


# Columns read of a sheet: more than any sheet of ours has; a cell declared at column XFD makes
# openpyxl pad every row to 16,384 cells otherwise.
_MAX_COLUMNS = 64
Continued = dict[tuple[str, int, int], str]


def _rows(ws: Any, sheet: str, long: Continued) -> Any:
    """(Excel row, values) of a sheet, the over-long cells joined again
    (:class:`segagree.outputs.review_workbook.LongCells`)."""
    if hasattr(ws, "reset_dimensions"):
        ws.reset_dimensions()  # a forged dimension (A1:XFD1048576) is not trusted
    for excel_row, values in enumerate(ws.iter_rows(max_col=_MAX_COLUMNS, values_only=True), start=1):
        if values.count(None) == len(values):  # in C: a forged last cell makes a million empty rows
            yield excel_row, ()
            continue
        if long:
            values = tuple(
                join_continued(v, long[(sheet, excel_row, c)]) if (sheet, excel_row, c) in long else v
                for c, v in enumerate(values, start=1)
            )
        yield excel_row, values


def continued_cells(wb: Any) -> Continued:
    """The rest of every over-long cell: (sheet, row, column) -> the text its cell lacks."""
    if CONTINUED_SHEET not in wb.sheetnames:
        return {}
    out: Continued = {}
    for excel_row, values in _rows(wb[CONTINUED_SHEET], CONTINUED_SHEET, {}):
        if excel_row == 1 or len(values) < 4 or values[0] is None:
            continue
        try:
            key = (str(values[0]), int(values[1]), int(values[2]))
        except (TypeError, ValueError):
            raise SegagreeError(f"sheet {CONTINUED_SHEET!r} row {excel_row}: not a sheet, row and column") from None
        out[key] = out.get(key, "") + ("" if values[3] is None else str(values[3]))
    return out


def _read_about(ws: Any, workbook: Path, long: Continued) -> tuple[dict[str, str], dict[str, _Source]]:
    about: dict[str, str] = {}
    sources: dict[str, _Source] = {}
    header: list[str] | None = None
    for _, values in _rows(ws, ABOUT_SHEET, long):
        cells = [_text(v) for v in values]
        if header is not None:
            if not cells or not cells[0]:
                header = None
                continue
            record = dict(zip(header, cells, strict=False))
            sources[record["sheet"]] = _Source(record["sheet"], record)
            continue
        if len(cells) >= 2 and cells[0] == SOURCE_HEADERS[0] and cells[1] == SOURCE_HEADERS[1]:
            header = cells
            continue
        if len(cells) >= 2 and cells[0] and cells[0] not in about:
            about[cells[0]] = cells[1]
    if not sources:
        raise SegagreeError("the About sheet has no sources table (sheet, annotator_a, file_a ...)", path=workbook)
    return about, sources


def _int(value: Any, ref: str, what: str) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        number = value if isinstance(value, int) and not isinstance(value, bool) else float(value)
        if isinstance(number, float) and number.is_integer():
            number = int(number)
    except (TypeError, ValueError, OverflowError):
        raise SegagreeError(f"{ref}: {what} must be a token index, not {_short(value)}") from None
    if not isinstance(number, int) or not 0 <= number <= _MAX_INDEX:
        raise SegagreeError(f"{ref}: {what} must be a token index, not {_short(value)}")
    return number


_MAX_INDEX = 2**53  # beyond, a spreadsheet's number is no longer an integer (and no text has so many tokens)


def _short(value: Any) -> str:
    """``value`` for a message, cut to 40 characters (a cell may hold 32,767, a number 4,300 digits)."""
    text = (
        repr(value) if not isinstance(value, int) else str(value) if value.bit_length() < 200 else "a number too large"
    )
    return text if len(text) <= 40 else text[:40] + "..."


def _decision(value: Any, ref: str) -> str | None:
    text = _text(value)
    if not text:
        return None
    for d in DECISIONS:
        if text.lower() == d.lower():
            return d
    raise SegagreeError(f"{ref}: unknown decision {text!r}; expected one of {', '.join(DECISIONS)} or empty")


def _read_ops(ws: Any, sheet: str, workbook: Path, long: Continued) -> list[_Row]:
    """The operation rows of a sheet; an error in a row names the workbook (or decisions file)."""
    try:
        return _read_op_rows(ws, sheet, workbook, long)
    except SegagreeError as err:
        if err.path is None:
            err.path = str(workbook)
        raise


def _read_op_rows(ws: Any, sheet: str, workbook: Path, long: Continued) -> list[_Row]:
    by_header = {header: key for key, header in OPS_HEADERS.items()}
    rows: list[_Row] = []
    columns: dict[str, int] = {}
    for excel_row, values in _rows(ws, sheet, long):
        if excel_row == 1:
            columns = {by_header[_text(v)]: i for i, v in enumerate(values) if _text(v) in by_header}
            missing = [OPS_HEADERS[k] for k in _REQUIRED if k not in columns]
            if missing:
                raise SegagreeError(f"sheet {sheet!r} lacks the columns {missing}", path=workbook)
            continue
        if not any(_text(v) for v in values):
            continue

        def get(key: str, values: tuple[Any, ...] = values, columns: dict[str, int] = columns) -> Any:
            i = columns.get(key)
            return values[i] if i is not None and i < len(values) else None

        ref = f"'{sheet}' row {excel_row}"
        pa = _int(get("position_a"), ref, "A token #")
        lo, hi = _int(get("span_a_from"), ref, "A span from"), _int(get("span_a_to"), ref, "A span to")
        span = None
        if pa is not None:
            span = (pa if lo is None else lo, pa if hi is None else hi)
            if not span[0] <= pa <= span[1]:
                raise SegagreeError(f"{ref}: A span {span[0]}-{span[1]} does not contain A token # {pa}")
        rows.append(
            _Row(
                ref=ref,
                speaker=_text(get("speaker")),
                op=_text(get("op")),
                position_a=pa,
                position_b_in_a=_int(get("position_b_in_a"), ref, "B's point in A"),
                span=span,
                type_a=_text(get("type_a")) or NONE_SYMBOL,
                type_b=_text(get("type_b")) or NONE_SYMBOL,
                token_a=_text(get("token_a")),
                decision=_decision(get("decision"), ref),
                comment=_text(get("comment")),
                row_id=_int(get("row_id"), ref, "row id"),
            )
        )
    return rows


def _missing_row_ids(
    rows: list[_Row],
    doc_a: Document,
    b_path: Path,
    src: _Source,
    workbook: Path,
    scheme: BoundaryScheme,
    settings: dict[str, Any],
) -> list[int]:
    """Row ids the comparison of A and B (recomputed from their files) lists and the sheet no
    longer holds (rows deleted or blanked); a row id it does not list is refused."""
    from segagree.corpus.config import KappaSettings, RunConfig
    from segagree.corpus.tasks import pair_for_run
    from segagree.scoring.tokens.compare import score_pair
    from segagree.scoring.tokens.operations import operation_rows
    from segagree.scoring.tokens.pairing import resolve_layer

    known = set(RunConfig.__dataclass_fields__) - {"base_dir", "kappa"}
    config = RunConfig(**{k: v for k, v in settings.items() if k in known}, kappa=KappaSettings(enabled=False))
    doc_b = read_text_document(
        b_path, src.text, src.values.get("format_b") or None, scheme=scheme, **reading_settings(settings)
    )
    layer_pref = src.values.get("layer") or config.layer
    layer, layer_scheme, merge = resolve_layer(doc_a, doc_b, layer_pref if layer_pref in doc_a.layers else None, scheme)
    pair = pair_for_run(config, doc_a, doc_b, layer, layer_scheme, merge)
    compared = score_pair(pair, mode=config.mode, transpositions=config.transpositions)
    ops = operation_rows(compared, pair)
    recomputed = review_rows({"compare": compared, "operation_rows": ops}, matches=config.review_matches)
    missing = compare_ids(rows, [int(op["row_id"]) for op in recomputed], workbook)
    check_technical_cells(rows, recomputed, workbook)
    return missing


#: The cells of an operations row that the comparison of A and B decides (what the adjudicator
#: only reads); their column headers as the sheet shows them.
_CHECKED = ("speaker", "op", "position_a", "type_a", "type_b", "position_b_in_a", "span_a_from", "span_a_to")


def _row_facts(row: _Row) -> tuple[Any, ...]:
    span = row.span or (None, None)
    return (row.speaker, row.op, row.position_a, row.type_a, row.type_b, row.position_b_in_a, *span)


def _op_facts(op: dict[str, Any]) -> tuple[Any, ...]:
    values = []
    for key in _CHECKED:
        value = op.get(key)
        if key in ("type_a", "type_b"):
            value = str(value) if value not in (None, "") else NONE_SYMBOL
        elif key in ("speaker", "op"):
            value = "" if value is None else str(value).strip()
        values.append(value)
    return tuple(values)


def check_technical_cells(rows: Sequence[_Row], recomputed: Sequence[dict[str, Any]], workbook: Path) -> None:
    """Refuse rows whose comparison cells (speaker, operation, A's and B's boundaries and places)
    differ from the comparison of A and B recomputed from their files.

    Adjudication puts B's boundary where *B's point in A* says and of the type *B boundary* says:
    an edited cell there would put a boundary neither annotator made into the gold file. A row
    with a row id is checked against that operation; a row without one must equal some operation.
    """
    by_id = {int(op["row_id"]): _op_facts(op) for op in recomputed}
    known = set(by_id.values())
    problems: list[str] = []
    for row in rows:
        facts = _row_facts(row)
        if row.row_id is None:
            if facts not in known:
                problems.append(f"{row.ref} (no row id) is not an operation of the comparison of A and B")
            continue
        want = by_id.get(row.row_id)
        if want is None or want == facts:
            continue
        changed = [
            f"{OPS_HEADERS[key]} is {_shown(got)}, the comparison gives {_shown(expected)}"
            for key, got, expected in zip(_CHECKED, facts, want, strict=True)
            if got != expected
        ]
        problems.append(f"{row.ref} (row id {row.row_id}): " + ", ".join(changed))
    if problems:
        shown = "; ".join(problems[:_LIST_LIMIT]) + (
            f"; and {len(problems) - _LIST_LIMIT} more" if len(problems) > _LIST_LIMIT else ""
        )
        raise SegagreeError(
            f"{len(problems)} rows' technical cells were edited: {shown}; only the decision and comment "
            "columns may change: restore those cells (or write the review again)",
            path=workbook,
        )


def _shown(value: Any) -> str:
    return "empty" if value is None else repr(value)


def _check_rows(
    rows: list[_Row],
    doc_a: Document,
    src: _Source,
    workbook: Path,
    scheme: BoundaryScheme,
    settings: dict[str, Any],
    file_b: str | Path | None,
    roots: list[Path],
    warnings: list[str],
) -> tuple[list[int], int]:
    """The deleted rows: their ids (from the comparison recomputed with B's file) and their number
    (at least the shortfall against the row count the About sheet records). A check that cannot
    run is added to ``warnings``."""
    by_count = missing_by_count(rows, src.values)
    b_path, why = locate_source(workbook, src.values, "b", Path(file_b) if file_b else None, roots)
    if b_path is not None:
        why = digest_problem(b_path, src.values.get("sha1_b", ""))
    if b_path is None or why:
        warnings.append(
            f"annotator {src.values.get('annotator_b') or 'B'}'s file: {why}; deleted rows cannot be named "
            "(the comparison of A and B cannot be recomputed)"
        )
        return [], by_count
    try:
        missing = _missing_row_ids(rows, doc_a, b_path, src, workbook, scheme, settings)
    except SegagreeError as err:
        if "row id the comparison" in str(err) or "technical cells were edited" in str(err):
            raise
        warnings.append(f"the comparison of A and B cannot be recomputed ({err}); deleted rows cannot be named")
        return [], by_count
    return missing, max(len(missing), by_count)


def _find_source(workbook: Path, src: _Source, given: Path | None, roots: list[Path]) -> Path:
    """Annotator A's file (:func:`~segagree.adjudication.checks.locate_source`), its full SHA-1 checked."""
    found, why = locate_source(workbook, src.values, "a", given, roots)
    who = f"annotator {src.values.get('annotator_a') or 'A'}'s source file of sheet {src.sheet!r}"
    if found is None:
        raise SegagreeError(f"{who}: {why}", path=workbook)
    problem = digest_problem(found, src.values.get("sha1_a", ""))
    if problem:
        raise SegagreeError(f"{who}: {problem}; re-run segagree to review it again", path=workbook)
    return found


# --- applying the decisions --------------------------------------------------------------


def _code(scheme: BoundaryScheme, symbol: str, ref: str) -> int:
    if symbol == NONE_SYMBOL:
        return 0
    code = scheme.find_code(symbol)
    if code is None:
        raise SegagreeError(f"{ref}: boundary {symbol!r} is not a type of scheme {scheme.name!r} {scheme.symbols}")
    return code


def _apply(rows: list[_Row], lay: Layer, streams: dict[str, np.ndarray], doc: Document, workbook: Path) -> np.ndarray:
    """The adjudicated boundary codes of the layer (see the module docstring)."""
    texts = doc.tokens["text"].to_numpy()
    keeps: dict[tuple[str, int], list[tuple[str, int]]] = {}
    sets: dict[tuple[str, int], list[tuple[str, int]]] = {}
    drops: dict[tuple[str, int], list[tuple[str, bool, tuple[int, int]]]] = {}
    problems: list[str] = []

    def where(speaker: str, p: int) -> str:
        return f"after token {p} ('{texts[streams[speaker][p]]}') of {speaker}"

    for r in rows:
        if r.speaker not in streams:
            raise SegagreeError(
                f"{r.ref}: speaker {r.speaker!r} is not in A's file (speakers: {sorted(streams)})", path=workbook
            )
        n = len(streams[r.speaker])
        for p in (r.position_a, r.position_b_in_a, *(r.span or ())):
            if p is not None and p >= n:
                raise SegagreeError(f"{r.ref}: token {p} is beyond {r.speaker}'s {n} tokens in A's file", path=workbook)
        if r.position_a is not None and r.token_a and texts[streams[r.speaker][r.position_a]] != r.token_a:
            raise SegagreeError(
                f"{r.ref}: the row does not fit A's file: token {r.position_a} of {r.speaker} is "
                f"{texts[streams[r.speaker][r.position_a]]!r}, the row says {r.token_a!r}",
                path=workbook,
            )
        code_a, code_b = _code(lay.scheme, r.type_a, r.ref), _code(lay.scheme, r.type_b, r.ref)
        pa, pb = r.position_a, r.position_b_in_a
        if r.position_a is not None and code_a == 0:
            raise SegagreeError(f"{r.ref}: A token # is given but A's boundary is 'none'", path=workbook)
        decision = r.decision or "A"
        keep_a = set_b = False
        drop: bool | None = None  # True: strong (neither), False: weak (B)
        if decision in ("A", "other"):
            keep_a = True
        elif decision == "B":
            if pa is not None:
                if pb == pa and code_b == code_a:
                    keep_a = True
                else:
                    drop = False
            set_b = pb is not None and not keep_a
        elif decision == "both":
            if pa is not None and pb == pa and code_a != code_b:
                problems.append(
                    f"{r.ref}: 'both' on a substitution would put two boundaries ({r.type_a!r} and "
                    f"{r.type_b!r}) {where(r.speaker, pa)}; choose A, B, neither or other"
                )
                continue
            keep_a = pa is not None
            set_b = pb is not None and pb != pa
        elif decision == "neither":
            if pa is not None:
                drop = True
        if keep_a and pa is not None:
            keeps.setdefault((r.speaker, pa), []).append((r.ref, code_a))
        if set_b and pb is not None:
            sets.setdefault((r.speaker, pb), []).append((r.ref, code_b))
        if drop is not None and pa is not None and r.span is not None:
            drops.setdefault((r.speaker, pa), []).append((r.ref, drop, r.span))

    sym = lay.scheme.symbol
    for place in sorted({*keeps, *sets, *drops}):
        speaker, p = place
        placed = keeps.get(place, []) + sets.get(place, [])
        for ref2, code2 in placed[1:]:
            ref1, code1 = placed[0]
            if code2 != code1 and ref2 != ref1:
                problems.append(
                    f"{ref1} and {ref2} contradict each other: {sym(code1)!r} and {sym(code2)!r} {where(speaker, p)}"
                )
        for ref_d, strong, _ in drops.get(place, []):
            for ref_k, _code_k in keeps.get(place, []):
                if ref_k != ref_d:
                    problems.append(f"{ref_d} removes A's boundary {where(speaker, p)} that {ref_k} keeps")
            if strong:
                for ref_s, code_s in sets.get(place, []):
                    if ref_s != ref_d:
                        problems.append(
                            f"{ref_d} and {ref_s} contradict each other: 'neither' removes the boundary "
                            f"{where(speaker, p)} where {ref_s} adds {sym(code_s)!r}"
                        )
    if problems:
        raise SegagreeError("contradicting decisions: " + "; ".join(problems), path=workbook)

    codes = lay.boundaries.copy()
    for (speaker, _place), entries in drops.items():
        for _ref, _strong, (lo, hi) in entries:
            codes[streams[speaker][lo : hi + 1]] = 0
    for (speaker, p), placed in sets.items():
        code = placed[0][1]
        if any(c == code for _, c in keeps.get((speaker, p), [])):
            continue  # A's boundary of that type stays at that place (possibly after a token B lacks)
        codes[streams[speaker][p]] = code

    # The last token of a speaker's stream keeps its boundary (a unit layer ends every stream in one).
    for speaker, stream in streams.items():
        last = stream[-1]
        if lay.boundaries[last] != 0 and codes[last] == 0:
            n = len(stream) - 1
            culprits = [
                (ref, strong)
                for (s, _), entries in drops.items()
                if s == speaker
                for ref, strong, (lo, hi) in entries
                if lo <= n <= hi
            ]
            for ref, strong in culprits:
                problems.append(
                    f"{ref}: '{'neither' if strong else 'B'}' would leave the last token of {speaker}'s stream "
                    f"('{texts[last]}') without a boundary, which every stream must end in; choose A, B or other"
                )
    if problems:
        raise SegagreeError("; ".join(problems), path=workbook)
    return codes
