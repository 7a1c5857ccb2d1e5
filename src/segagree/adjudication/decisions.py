"""Decisions files: what a review page exports, read back as a review workbook is read.

A decisions file is UTF-8 JSON (the page's *export decisions* button,
``window.segagreeReview.exportDecisions()``)::

    {"format": "segagree review decisions", "format_version": 1,
     "kind": "tokens" | "time", "text": ..., "page_digest": ..., "written_by": ...,
     "sheet": the workbook sheet the rows are (``Operations``, ``ops A-B``, ``Alignment``),
     "annotators": [...], "settings": {the About sheet's settings},
     tokens: "source": {the About sheet's sources row: file_a, sha1_a, file_b, sha1_b, ...},
             "scheme": {the reading scheme},
             "rows": [{the operations sheet's columns by key: row_id, speaker, op, cost, type_a,
                       type_b, position_a, position_b, position_b_in_a, span_a_from, span_a_to,
                       token_a, token_b, "decision": "A" | "B" | "both" | "neither" | "other" | null,
                       "comment": ...}]
     time:   "sources": [{"file", "file_absolute", "sha1"}],
             "rows": [{"group", "speaker", "kind", "units": {annotator: {start, end, category, text} | null},
                       "decision": annotator | "none" | "edit" | null,
                       "gold": {start, end, category} | null, "comment"}]}

:func:`read_token_decisions` returns what :func:`segagree.adjudication.tokens.adjudicate` reads from a
workbook (About facts, the sources row, the operations sheet's table, read by the workbook's own row
reader), and :func:`read_time_decisions` what :func:`segagree.outputs.time_review.adjudicate_time`
reads; everything after that (source SHA-1s, deleted rows, every row decided or reported,
contradictions) is the workbook route's own code, so the same decisions give the same gold file.
Rows are referred to as in the workbook (``'Operations' row N``: the Excel row the row has there).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from segagree.errors import SegagreeError, UsageError
from segagree.outputs.review_workbook import OPS_HEADERS, SCHEME_JSON_LABEL, SETTINGS_JSON_LABEL

__all__ = [
    "DECISIONS_FORMAT",
    "Table",
    "decisions_kind",
    "is_decisions_file",
    "read_time_decisions",
    "read_token_decisions",
]

DECISIONS_FORMAT = "segagree review decisions"


#: The largest decisions file read (a review of 100,000 rows is about 40 MB): a bigger one is
#: refused before it is read (700 MB took 3.1 GB of memory).
MAX_DECISIONS_BYTES = 256 * 1024 * 1024
#: Nesting of a decisions file's JSON (its deepest part, a row's units, is 4 levels down).
MAX_DEPTH = 32
_MEMORY_PER_BYTE = 8  # Python objects per byte of JSON, measured on exported decisions


def _encoding(head: bytes) -> str:
    """The encoding of JSON that starts with ``head`` (UTF-8, -16 or -32, by its BOM or its zero
    bytes: RFC 8259 section 8.1 and RFC 4627 section 3)."""
    if head.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    return json.detect_encoding(head)


def is_decisions_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` looks like a decisions file (JSON in UTF-8/16/32, not a workbook)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(64)
    except OSError:
        return False
    if head.startswith(b"PK"):
        return False
    try:
        text = head.decode(_encoding(head), errors="ignore")
    except LookupError:
        return False
    return text.lstrip("\ufeff \t\r\n").startswith("{")


def _deeper_than(data: Any, limit: int) -> bool:
    """Whether ``data`` nests more than ``limit`` levels (walked without recursion)."""
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth >= limit:
                return True
            stack.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict) else value))
    return False


def _load(path: Path) -> dict[str, Any]:
    from segagree.files.memory import OutOfMemory, read_bytes

    try:
        size = path.stat().st_size
    except OSError as err:
        raise SegagreeError(f"cannot read the decisions file ({err.strerror})", path=path) from None
    if size > MAX_DECISIONS_BYTES:
        raise SegagreeError(
            f"the decisions file has {size / 1024**2:,.0f} MB; a decisions file of segagree is at most "
            f"{MAX_DECISIONS_BYTES // 1024**2} MB (export it again from the review page)",
            path=path,
        )
    raw = read_bytes(path, per_byte=_MEMORY_PER_BYTE)
    try:
        data = json.loads(raw.decode(_encoding(raw[:4])))
    except (UnicodeDecodeError, LookupError) as err:
        raise SegagreeError(f"cannot read the decisions file: not UTF-8, -16 or -32 JSON ({err})", path=path) from None
    except RecursionError:
        raise SegagreeError(
            f"cannot read the decisions file: nested deeper than {MAX_DEPTH} levels", path=path
        ) from None
    except ValueError as err:  # JSONDecodeError, and an integer of more than 4,300 digits
        raise SegagreeError(f"cannot read the decisions file ({str(err)[:200]})", path=path) from None
    except MemoryError:
        raise OutOfMemory(path) from None
    if _deeper_than(data, MAX_DEPTH):
        raise SegagreeError(f"cannot read the decisions file: nested deeper than {MAX_DEPTH} levels", path=path)
    if not isinstance(data, dict) or data.get("format") != DECISIONS_FORMAT:
        raise SegagreeError(f'not a segagree decisions file (no "format": {DECISIONS_FORMAT!r})', path=path)
    if data.get("format_version") != 1:
        raise SegagreeError(
            f"decisions file format version {data.get('format_version')!r}; this segagree reads 1", path=path
        )
    if not isinstance(data.get("rows"), list) or not all(isinstance(r, dict) for r in data["rows"]):
        raise SegagreeError("the decisions file has no list of rows", path=path)
    return data


def decisions_kind(path: str | os.PathLike[str]) -> str:
    """``tokens`` or ``time``: which adjudication a decisions file is for."""
    kind = _load(Path(path)).get("kind")
    if kind not in ("tokens", "time"):
        raise SegagreeError(f"unknown kind {kind!r} (expected tokens or time)", path=Path(path))
    return str(kind)


class Table:
    """The rows of a decisions file as a worksheet's ``iter_rows(values_only=True)`` gives them
    (header row first), so the workbook's own row reader reads them."""

    def __init__(self, rows: list[tuple[Any, ...]]) -> None:
        self.rows = rows

    def iter_rows(self, values_only: bool = True, max_col: int | None = None) -> Any:
        return iter(self.rows)


def read_token_decisions(path: Path, sheet: str | None) -> tuple[dict[str, str], str, dict[str, str], Table]:
    """(About facts, sheet, About sources row, the operations sheet's table) of a token decisions
    file: what ``adjudicate`` reads from a workbook, rows in the sheet's column order (the
    workbook's row reader then reads them, so rows are referred to by the same Excel rows)."""
    data = _load(path)
    if data.get("kind") != "tokens":
        raise SegagreeError("a time decisions file: adjudicate it as a time review", path=path)
    name = str(data.get("sheet") or "")
    if sheet is not None and sheet != name:
        raise UsageError(f"{path}: the decisions are for sheet {name!r}, not {sheet!r}")
    source = data.get("source")
    if not isinstance(source, dict) or not name:
        raise SegagreeError("the decisions file has no sheet or source (file_a, sha1_a ...)", path=path)
    about = {
        SETTINGS_JSON_LABEL: json.dumps(data.get("settings"), ensure_ascii=False, sort_keys=True),
        SCHEME_JSON_LABEL: json.dumps(data.get("scheme"), ensure_ascii=False),
        "text": str(data.get("text") or ""),
    }
    keys = list(OPS_HEADERS)
    table = [tuple(OPS_HEADERS[k] for k in keys)]
    table += [tuple(row.get(k) for k in keys) for row in data["rows"]]
    values = {str(k): "" if v is None else str(v).strip() for k, v in source.items()}
    return about, name, values, Table(table)


#: Where a time review row keeps the *edit* columns (gold start, end, category) once read: keys of
#: their own, since an annotator named ``gold`` has columns of those very names.
EDIT_KEYS = {"start": "#edit start", "end": "#edit end", "category": "#edit category"}


def read_time_decisions(path: Path, unit_fields: tuple[str, ...]) -> tuple[list[str], list[dict[str, Any]]]:
    """(annotators, rows) of a time decisions file, the rows keyed by the Alignment sheet's column
    names as ``time_review`` reads them from a workbook (``unit_fields``: its unit columns)."""
    data = _load(path)
    if data.get("kind") != "time":
        raise SegagreeError("a token decisions file: adjudicate it as a token review", path=path)
    annotators = [str(a) for a in data.get("annotators") or []]
    rows = []
    for n, row in enumerate(data["rows"], start=2):
        out: dict[str, Any] = {"group": row.get("group"), "speaker": row.get("speaker"), "_row": n}
        units = row.get("units") or {}
        for a in annotators:
            unit = units.get(a) or {}
            for key in unit_fields:
                value = unit.get(key)
                out[f"{a} {key}"] = None if value in (None, "") else value
        gold = row.get("gold") or {}
        out["decision"] = row.get("decision")
        for key, name in EDIT_KEYS.items():
            out[name] = gold.get(key)
        out["comment"] = row.get("comment")
        out["_settings"] = data.get("settings") or {}  # the review's settings, as a workbook's About sheet holds
        rows.append(out)
    return annotators, [r for r in rows if r.get("group") is not None]
