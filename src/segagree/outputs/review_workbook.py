"""Review workbooks: one xlsx per text for adjudicating the annotators' disagreements.

Sheets (written with XlsxWriter, atomically):

* **operations** (``Operations`` for a text with two annotators; ``ops A-B`` per annotator
  pair otherwise, at most 31 characters): one row per S_f operation of the pair (match rows
  only with ``review_matches``), with the speaker, the token position in A's and in B's own
  stream, A's tokens around the boundary point (marked ``‖``), both boundaries, the
  operation, its cost and the empty **decision** (drop-down: ``A``, ``B``, ``both``,
  ``neither``, ``other``) and **comment** columns. Header frozen, autofilter on, one colour
  per operation type. The grey columns at the right are technical, read back by
  :func:`segagree.adjudication.tokens.adjudicate`: where B's boundary lands in A's stream
  and the range of A's tokens whose boundary the comparison placed at A's position (more
  than one token only where A has tokens B lacks).
* **Summary**: per pair, S_f, S_f^B and kappa per speaker and pooled with the operation
  counts; the counts of operations by type pair (rows: A's boundary type, columns: B's,
  ``none`` included, as in Figure 6 of Lai, Li & Zhang 2023; every operation counts, match
  rows included even when the operations sheet leaves them out); the transcript mismatches
  the alignment bridged.
* **About**: the signature, the settings (also as JSON), the reading scheme (JSON), the
  source files of every pair (path relative to the workbook, absolute path, format, SHA-1),
  and a one-line definition of every number and column.

The column headers of the operations sheets and the layout of the About sheet's sources
table are the contract with the adjudication step (:data:`OPS_HEADERS`, :data:`SOURCE_HEADERS`).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from segagree.corpus.config import RunConfig
from segagree.corpus.tasks import file_sha1
from segagree.errors import SegagreeError
from segagree.files.atomic import atomic_path
from segagree.files.cells import XLSX_MAX_CHARS, XLSX_MAX_ROWS, XLSX_OPTIONS
from segagree.files.own_outputs import ABOUT_SHEET
from segagree.metrics.boundary.sf import SF_NAMES
from segagree.metrics.chance.kappa import KAPPA_NAMES
from segagree.model import NONE_SYMBOL
from segagree.outputs.summary import POOLED, kappa_values
from segagree.outputs.xlsx_rows import BulkRowsWorksheet
from segagree.version import version

SF, SF_B = SF_NAMES  # S_f's and S_f^B's names, the keys of compare results
KAPPA_SF, KAPPA_SF_B = KAPPA_NAMES

DECISIONS = ("A", "B", "both", "neither", "other")
OPS = ("match", "substitution", "transposition", "insertion", "deletion")
SINGLE_PAIR_SHEET = "Operations"
SUMMARY_SHEET = "Summary"
MATRIX_CORNER = "A \\ B"

# (key, header, width, definition). Keys are the adjudication's names for the columns.
OPS_COLUMNS: tuple[tuple[str, str, float, str], ...] = (
    ("row_id", "row id", 7, "number of the operation in this pair's list (technical; keep it)"),
    ("speaker", "speaker", 12, "the speaker whose stream the boundary is in (after speaker renames)"),
    (
        "position_a",
        "A token #",
        9,
        "0-based index, in A's own stream of this speaker, of the token A's boundary follows (blank: A has none)",
    ),
    (
        "position_b",
        "B token #",
        9,
        "0-based index, in B's own stream of this speaker, of the token B's boundary follows (blank: B has none)",
    ),
    (
        "context",
        "context (‖ = boundary point)",
        60,
        "A's tokens around the boundary point, ‖ at the point (B's tokens where only B has a boundary)",
    ),
    ("token_a", "A token", 12, "the token A's boundary follows"),
    ("token_b", "B token", 12, "the token B's boundary follows"),
    ("type_a", "A boundary", 10, "annotator A's boundary type at this point ('none' = no boundary)"),
    ("type_b", "B boundary", 10, "annotator B's boundary type at this point ('none' = no boundary)"),
    (
        "op",
        "operation",
        13,
        "S_f edit operation: match, substitution (types differ), transposition (boundary moved), "
        "insertion (only B has one), deletion (only A has one)",
    ),
    ("cost", "cost", 7, "the operation's cost in the scheme's cost model (0 for a match)"),
    (
        "decision",
        "decision",
        10,
        "fill in: A (keep A's), B (take B's), both (A's and B's), neither (no boundary), other (fix by hand)",
    ),
    ("comment", "comment", 40, "free text for the adjudicator"),
    (
        "position_b_in_a",
        "B's point in A",
        9,
        "technical: index in A's stream of the token B's boundary follows (where adjudication puts B's boundary)",
    ),
    (
        "span_a_from",
        "A span from",
        9,
        "technical: first token of A's stream whose boundary the comparison placed at 'A token #'",
    ),
    (
        "span_a_to",
        "A span to",
        9,
        "technical: last such token (differs from 'A token #' only where A has tokens B lacks)",
    ),
)
OPS_HEADERS: dict[str, str] = {key: header for key, header, _, _ in OPS_COLUMNS}
OPS_INDEX: dict[str, int] = {key: col for col, (key, _, _, _) in enumerate(OPS_COLUMNS)}
TECHNICAL = ("row_id", "position_b_in_a", "span_a_from", "span_a_to")

#: The acoustic cue columns (segagree.scoring.acoustics), after the comment, where the review has cues:
#: what the recording gives at the row's boundary point (that of the annotator who has the boundary).
CUE_COLUMNS: tuple[tuple[str, str, float, str], ...] = (
    ("cue_at", "at (s)", 8, "cue: the boundary point's time in the recording (the middle of the annotated gap)"),
    ("gap", "gap (s)", 7, "cue: the annotated pause, from the end of the token before to the speaker's next token"),
    ("pause", "pause (s)", 8, "cue: seconds of Praat's silent intervals at the gap (To TextGrid (silences))"),
    ("f0_reset", "F0 reset (st)", 9, "cue: median F0 after the boundary over median F0 before, in semitones"),
    ("f0_reset_range", "F0 reset / range", 9, "cue: the F0 reset as a share of the speaker's F0 range (5-95 %)"),
    ("intensity_reset", "intensity reset (dB)", 10, "cue: mean intensity after the boundary minus before"),
    ("rate_before", "rate before (syl/s)", 9, "cue: syllable nuclei (de Jong & Wempe) per second of speech before"),
    ("rate_after", "rate after (syl/s)", 9, "cue: the same after the boundary"),
    ("lengthening", "final lengthening", 9, "cue: the last word's duration over the speaker's mean for words as long"),
    ("pause_b", "pause at B's point (s)", 9, "cue: for a transposition, the pause at B's point"),
    ("f0_reset_b", "F0 reset at B's point (st)", 9, "cue: for a transposition, the F0 reset at B's point"),
    ("cue_from", "cues from", 22, "cue: the recording and whose token times placed the point"),
    ("cue_note", "cue note", 30, "cue: why a cue is empty (no recording, no times, unvoiced, overlap ...)"),
)
CUE_KEYS = tuple(key for key, _, _, _ in CUE_COLUMNS)


def ops_columns(cues: bool) -> tuple[tuple[str, str, float, str], ...]:
    """The operations sheet's columns: :data:`OPS_COLUMNS`, with :data:`CUE_COLUMNS` after the comment."""
    if not cues:
        return OPS_COLUMNS
    at = OPS_INDEX["comment"] + 1
    return OPS_COLUMNS[:at] + CUE_COLUMNS + OPS_COLUMNS[at:]


def source_values(name: str, res: dict[str, Any], home: Path, matches: bool, more: Sequence[str] = ()) -> list[str]:
    """The About sheet's sources row of a pair (:data:`SOURCE_HEADERS`), paths relative to ``home``;
    ``rows`` counts the pair's operation rows (matches too with ``matches``), ``more`` its continuation sheets."""
    abs_a, abs_b = Path(res["file_a"]).resolve(), Path(res["file_b"]).resolve()
    rows = sum(1 for op in res.get("operation_rows", []) if matches or op["op"] != "match")
    values = [name, res["annotator_a"], _relative(abs_a, home), abs_a, res.get("format_a", ""), file_sha1(abs_a)]
    values += [res["annotator_b"], _relative(abs_b, home), abs_b, res.get("format_b", ""), file_sha1(abs_b)]
    values += [res["compare"].get("layer", ""), res["compare"]["signature"], rows, "; ".join(more)]
    return [str(v) for v in values]


SOURCE_HEADERS = (
    "sheet",
    "annotator_a",
    "file_a",
    "file_a_absolute",
    "format_a",
    "sha1_a",
    "annotator_b",
    "file_b",
    "file_b_absolute",
    "format_b",
    "sha1_b",
    "layer",
    "signature",
    "rows",
    "more sheets",
)
CONTINUED_SHEET = "Continued"
CONTINUED_HEADERS = ("sheet", "row", "column", "continued text")
# Data rows of an operations sheet: Excel's 1,048,576 rows less the header (a module constant so
# tests can make the continuation happen with a few rows).
ROWS_PER_SHEET = XLSX_MAX_ROWS - 1
SETTINGS_JSON_LABEL = "settings (JSON)"
SCHEME_JSON_LABEL = "reading scheme (JSON)"

OP_COLOURS = {
    "match": "#E2EFDA",
    "substitution": "#FCE4D6",
    "transposition": "#DDEBF7",
    "insertion": "#FFF2CC",
    "deletion": "#F8CBAD",
}


DECISION_MEANINGS: tuple[tuple[str, str], ...] = (
    ("A", "keep annotator A's boundary (or A's absence of one) unchanged"),
    ("B", "take annotator B's: B's boundary type at 'B's point in A', A's boundary removed where B has none"),
    (
        "both",
        "keep A's boundary and add B's (a transposition: boundaries at both places; "
        "not allowed on a substitution: one token holds one boundary)",
    ),
    (
        "neither",
        "remove A's boundary and do not add B's (refused at the last token of a speaker's stream, "
        "which must end in a boundary)",
    ),
    ("other", "keep A's boundary for now and list the row as needing manual attention"),
    ("(empty)", "undecided: keeps A's boundary and is listed (adjudicate --undecided error refuses instead)"),
)

SUMMARY_DEFINITIONS: tuple[tuple[str, str], ...] = (
    ("S_f", "flexible segmentation similarity (Lai, Li & Zhang 2023): 1 - cost / tokens; 1 = identical"),
    (
        "S_f^B",
        "the boundary-based variant: 1 - cost / edits (edits = boundary pairs, transpositions, "
        "insertions, deletions); 1 = identical",
    ),
    (
        "kappa S_f, kappa S_f^B",
        "chance-corrected S_f and S_f^B from simulated chance annotations (blank: not computed)",
    ),
    ("tokens", "tokens of the speaker on the common index of both annotations"),
    ("cost", "total cost of the S_f edit operations"),
    ("matches ... deletions", "number of S_f operations of each kind"),
    ("transcript mismatches", "tokens the two transcripts differ in (bridged by alignment)"),
    (
        "type-pair counts",
        "operations by A's boundary type (row) and B's (column), 'none' = no boundary; "
        "matches on the diagonal; transpositions in their own type pair; every operation counted",
    ),
    (POOLED, "pooled over all speakers (from summed statistics)"),
)


def sheet_names(pairs: Sequence[tuple[str, str]]) -> list[str]:
    """Operation sheet names of a text's annotator pairs: ``Operations`` for one pair, else
    ``ops A-B`` cut to Excel's 31 characters and made unique."""
    if len(pairs) == 1:
        return [SINGLE_PAIR_SHEET]
    names: list[str] = []
    for a, b in pairs:
        clean_a, clean_b = (re.sub(r"[\[\]:*?/\\']", "_", x) for x in (a, b))
        name = f"ops {clean_a}-{clean_b}"
        if len(name) > 31:
            name = f"ops {clean_a[:13]}-{clean_b[:13]}"
        base, k = name, 2
        while name.lower() in {n.lower() for n in names} or name.lower() in ("summary", "about"):
            suffix = f"~{k}"
            name = base[: 31 - len(suffix)] + suffix
            k += 1
        names.append(name)
    return names


def a_spans(result: dict[str, Any]) -> dict[str, dict[int, tuple[int, int]]]:
    """speaker -> {A index of a common column: (first, last) A index whose boundary lands there}.

    Only columns that A-only tokens (alignment gaps) project onto are listed; every other
    column's span is the column itself."""
    spans: dict[str, dict[int, tuple[int, int]]] = {}
    only_a: dict[str, list[dict[str, Any]]] = {}
    for m in result["compare"].get("mismatches", []):
        if m["kind"] == "only_a" and m.get("position_a") is not None:
            only_a.setdefault(m["speaker"], []).append(m)
    for speaker, gaps in only_a.items():
        gap_positions = sorted(m["position_a"] for m in gaps)
        by_column: dict[int, list[int]] = {}
        for m in gaps:
            by_column.setdefault(m["position"], []).append(m["position_a"])
        # The A index of common column k is the k-th A index that is not a gap.
        col_to_a: dict[int, int] = {}
        gap_set = set(gap_positions)
        wanted = set(by_column)
        k = 0
        for i in range(max(gap_positions) + max(wanted) + 2):
            if i in gap_set:
                continue
            if k in wanted:
                col_to_a[k] = i
            k += 1
        spans[speaker] = {
            col_to_a[k]: (min([*members, col_to_a[k]]), max([*members, col_to_a[k]]))
            for k, members in by_column.items()
            if k in col_to_a
        }
    return spans


#: The operations sheet's columns that are copied from the operation rows; the others are the
#: row id, the A span (from :func:`a_spans`) and the reviewer's empty columns.
FROM_OPERATION = (
    "speaker",
    "position_a",
    "position_b",
    "context",
    "token_a",
    "token_b",
    "type_a",
    "type_b",
    "op",
    "cost",
    "position_b_in_a",
    *CUE_KEYS,
)
_REVIEW_ROW_KEYS = (*FROM_OPERATION, "row_id", "decision", "comment", "span_a_from", "span_a_to")


def review_values(result: dict[str, Any], keys: Sequence[str], *, matches: bool) -> Iterator[list[Any]]:
    """The operations sheet's rows of one pair as lists of the values under ``keys`` (keys of
    :data:`OPS_COLUMNS`; decision and comment empty): what :func:`review_rows` holds, without a
    dict per row (a workbook writes tens of thousands of them)."""
    spans = a_spans(result)
    own = ("row_id", "span_a_from", "span_a_to")
    at = {key: i for i, key in enumerate(keys) if key in own}
    row_id, span_from, span_to = (at.get(k) for k in own)
    empty = [i for i, key in enumerate(keys) if key not in FROM_OPERATION and key not in own]
    for n, op in enumerate(result.get("operation_rows", []), start=1):
        if op["op"] == "match" and not matches:
            continue
        values = list(map(op.get, keys))  # then the keys that are not the operation's
        for i in empty:
            values[i] = None
        if row_id is not None:
            values[row_id] = n
        if span_from is not None or span_to is not None:
            pa = op.get("position_a")
            span = spans.get(op["speaker"], {}).get(pa, (pa, pa)) if pa is not None else (None, None)
            if span_from is not None:
                values[span_from] = span[0]
            if span_to is not None:
                values[span_to] = span[1]
        yield values


def review_rows(result: dict[str, Any], *, matches: bool) -> list[dict[str, Any]]:
    """The operations sheet's rows of one pair (keys of :data:`OPS_COLUMNS`, decision empty)."""
    return [
        dict(zip(_REVIEW_ROW_KEYS, values, strict=True))
        for values in review_values(result, _REVIEW_ROW_KEYS, matches=matches)
    ]


def type_pair_counts(result: dict[str, Any]) -> Counter[tuple[str, str]]:
    """Number of operations of a pair by (A's type, B's type), every operation counted."""
    return Counter((op["type_a"], op["type_b"]) for op in result.get("operation_rows", []))


def workbook_settings(config: RunConfig) -> dict[str, Any]:
    """The settings a workbook shows (and depends on): all but the report's own."""
    return {k: v for k, v in config.to_dict().items() if k not in ("report_plots", "review_pages")}


def _relative(path: Path, start: Path) -> str:
    try:
        return os.path.relpath(path, start)
    except ValueError:  # another drive on Windows
        return str(path)


#: The end of a cell cut at Excel's limit (its rest is on the :data:`CONTINUED_SHEET` sheet);
#: :func:`join_continued` takes it off again.
CUT_MARK = f" [cut: continued on the sheet '{CONTINUED_SHEET}']"


def join_continued(cell: object, rest: str) -> str:
    """A cut cell's text (:meth:`LongCells.cut`) and its rest from the continuation sheet: the
    whole text again, without :data:`CUT_MARK`."""
    text = "" if cell is None else str(cell)
    return (text[: -len(CUT_MARK)] if text.endswith(CUT_MARK) else text) + rest


class LongCells:
    """Text longer than an XLSX cell holds (:data:`XLSX_MAX_CHARS`), split, never cut: the cell
    holds the first part ending in :data:`CUT_MARK`, the :data:`CONTINUED_SHEET` sheet the rest
    (sheet, row and column of the cell, 1-based as Excel shows them, then the parts in order);
    :func:`continued_cells` of adjudication joins them again."""

    def __init__(self) -> None:
        self.rest: list[tuple[str, int, int, str]] = []

    def cut(self, sheet: str, row: int, col: int, text: str) -> str:
        """What a text cell (0-based row and column) holds: all of ``text``, or, when it is too
        long, its first part and :data:`CUT_MARK` (the rest kept for the continuation sheet), so
        that the cell read back on its own says it is not all there."""
        if len(text) > XLSX_MAX_CHARS:
            head = XLSX_MAX_CHARS - len(CUT_MARK)
            self.rest.append((sheet, row + 1, col + 1, text[head:]))
            return text[:head] + CUT_MARK
        return text

    def write(self, ws: Any, sheet: str, row: int, col: int, text: str, fmt: Any = None) -> None:
        """Write a text cell (0-based row and column), splitting it when it is too long."""
        ws.write_string(row, col, self.cut(sheet, row, col, text), fmt)

    def write_sheet(self, wb: Any, fmts: dict[str, Any]) -> None:
        """The continuation sheet, when a cell was split, and a note on each split cell saying
        so (a cell comment: the cell's text stays the exact first part, which adjudication
        joins with the rest), so that a reader of the cell sees it is not all there."""
        if not self.rest:
            return
        cut: dict[tuple[str, int], list[tuple[int, int]]] = {}
        for sheet, row, col, rest in self.rest:
            cut.setdefault((sheet, col), []).append((row, len(rest)))
        for (sheet, col), rows in cut.items():
            split = wb.get_worksheet_by_name(sheet)
            if split is None:
                continue
            if isinstance(split, BulkRowsWorksheet):
                # Rows written in bulk take no comments: the column's header says which rows.
                listed = ", ".join(str(row) for row, _ in rows[:20]) + (" ..." if len(rows) > 20 else "")
                split.write_comment(
                    0,
                    col - 1,
                    f"{len(rows)} cell(s) of this column hold more than an Excel cell's {XLSX_MAX_CHARS:,} characters: "
                    f"rows {listed} show their first {XLSX_MAX_CHARS:,}, the rest is on the sheet '{CONTINUED_SHEET}'.",
                )
                continue
            for row, rest_len in rows:
                split.write_comment(
                    row - 1,
                    col - 1,
                    f"Cut at {XLSX_MAX_CHARS:,} characters (an Excel cell's limit): the other {rest_len:,} "
                    f"characters are on the sheet '{CONTINUED_SHEET}' (row {row}, column {col}).",
                )
        ws = wb.add_worksheet(CONTINUED_SHEET)
        for c, h in enumerate(CONTINUED_HEADERS):
            ws.write_string(0, c, h, fmts["header"])
        r = 1
        for sheet, row, col, rest in self.rest:
            for start in range(0, len(rest), XLSX_MAX_CHARS):
                if r >= XLSX_MAX_ROWS:
                    raise SegagreeError("the over-long cells do not fit one sheet of continuations")
                ws.write_string(r, 0, sheet)
                ws.write_number(r, 1, row)
                ws.write_number(r, 2, col)
                ws.write_string(r, 3, rest[start : start + XLSX_MAX_CHARS])
                r += 1


def continuation_names(name: str, n_rows: int, taken: Sequence[str]) -> list[str]:
    """Names of the sheets that continue operations sheet ``name`` past :data:`ROWS_PER_SHEET`
    rows: ``NAME (2)``, ``NAME (3)`` ... cut to Excel's 31 characters and unique."""
    names: list[str] = []
    used = {n.lower() for n in taken} | {"summary", "about", CONTINUED_SHEET.lower()}
    for k in range(2, -(-max(n_rows, 1) // ROWS_PER_SHEET) + 1):
        suffix = f" ({k})"
        candidate, extra = name[: 31 - len(suffix)] + suffix, 2
        while candidate.lower() in used:
            tag = f" ({k}~{extra})"
            candidate, extra = name[: 31 - len(tag)] + tag, extra + 1
        used.add(candidate.lower())
        names.append(candidate)
    return names


def write_review_workbook(path: str | Path, results_for_text: list[dict[str, Any]], config: RunConfig) -> Path:
    """Write the review workbook of one text (see the module docstring); return its path.

    Args:
        path: the ``.xlsx`` to write (atomically; its folder is created).
        results_for_text: successful task results of one text, one per annotator pair.
        config: the run's settings (``review_matches`` decides whether match rows are listed).
    """
    import xlsxwriter

    results = [r for r in results_for_text if r.get("ok")]
    if not results:
        raise SegagreeError("no successful comparison to write a review workbook for", path=path)
    path = Path(path)
    names = sheet_names([(r["annotator_a"], r["annotator_b"]) for r in results])
    with atomic_path(path) as tmp:
        # in_memory: the sheets' XML is assembled in memory, not in temporary files (about 7 %
        # of a workbook's CPU; the rest is the library's own per-cell writing and XML).
        wb = xlsxwriter.Workbook(str(tmp), {**XLSX_OPTIONS, "in_memory": True})
        fmts = _formats(wb)
        long = LongCells()
        more_sheets: dict[str, list[str]] = {}
        for name, result in zip(names, results, strict=True):
            columns = ops_columns(bool(result.get("cues")))
            rows = list(review_values(result, written_keys(columns), matches=config.review_matches))
            # Past a sheet's rows, the operations continue on more sheets (named in About).
            more = continuation_names(name, len(rows), [*names, *(n for v in more_sheets.values() for n in v)])
            more_sheets[name] = more
            for k, sheet in enumerate([name, *more]):
                part = rows[k * ROWS_PER_SHEET : (k + 1) * ROWS_PER_SHEET]
                _write_ops_sheet(wb, fmts, sheet, part, long, columns)
        _write_summary_sheet(wb, fmts, names, results, long)
        if any(r.get("cues") for r in results):
            _write_cues_sheet(wb, fmts, results)
        _write_about_sheet(wb, fmts, names, results, config, path.resolve().parent, long, more_sheets)
        long.write_sheet(wb, fmts)
        wb.close()
    return path


CUES_SHEET = "Cues"
PROFILE_HEADERS = ("pair", "boundary type", "category", "cue", "n", "mean", "low (95 %)", "high (95 %)", "note")


def _write_cues_sheet(wb: Any, fmts: dict[str, Any], results: list[dict[str, Any]]) -> None:
    """The cue profile of every pair (:func:`segagree.scoring.acoustics.profile.cue_profile`: agreed
    boundaries, each kind of disagreement, unmarked gaps) and its plot (pause and F0 reset)."""
    import io

    from segagree.corpus.acoustic_cues import pair_points
    from segagree.outputs.plots import cue_profile_png
    from segagree.scoring.acoustics.profile import ALL_TYPES, cue_profile

    ws = wb.add_worksheet(CUES_SHEET)
    ws.set_column(0, 3, 14)
    ws.set_column(4, 7, 10, fmts["cue"])
    ws.set_column(8, 8, 40)
    ws.write_string(
        0, 0, "Cue profile: the mean of each cue by boundary type and category, with its interval", fmts["title"]
    )
    ws.write_string(
        1,
        0,
        "agreed = match; type change = substitution; shift = transposition (both points); unmarked = "
        "gaps neither annotator marked (where word times place them); 95 % percentile bootstrap over points",
    )
    for c, h in enumerate(PROFILE_HEADERS):
        ws.write_string(3, c, h, fmts["header"])
    r, shown_plots = 4, 0
    for result in results:
        if not result.get("cues"):
            continue
        pair = f"{result['annotator_a']} / {result['annotator_b']}"
        rows = cue_profile(pair_points(result, pair))
        for row in rows:
            for c, key in enumerate(("pair", "type", "category", "cue", "n", "mean", "low", "high", "note")):
                _write_cell(ws, r, c, row[key])
            r += 1
        r += 1
        overall = [row for row in rows if row["type"] == ALL_TYPES]
        if any(row["mean"] is not None for row in overall):
            png = cue_profile_png(overall, title=f"Cue profile, {pair}: agreed against disputed")
            # the plots to the right of the table, one under the other
            ws.insert_image(3 + 18 * shown_plots, 10, "cues.png", {"image_data": io.BytesIO(png)})
            shown_plots += 1


def _formats(wb: Any) -> dict[str, Any]:
    f = {
        "header": wb.add_format({"bold": True, "bg_color": "#D9D9D9", "border": 1, "text_wrap": True, "valign": "top"}),
        "tech_header": wb.add_format(
            {
                "bold": True,
                "bg_color": "#BFBFBF",
                "font_color": "#595959",
                "border": 1,
                "text_wrap": True,
                "valign": "top",
            }
        ),
        "tech": wb.add_format({"font_color": "#808080", "bg_color": "#F2F2F2"}),
        "title": wb.add_format({"bold": True, "font_size": 13}),
        "bold": wb.add_format({"bold": True}),
        "wrap": wb.add_format({"text_wrap": True, "valign": "top"}),
        "num": wb.add_format({"num_format": "0.0000"}),
        "cost": wb.add_format({"num_format": "0.###"}),
        "cue": wb.add_format({"num_format": "0.00"}),
        "input": wb.add_format({"bg_color": "#FFFFFF", "border": 1, "border_color": "#A6A6A6"}),
    }
    for op, colour in OP_COLOURS.items():
        f[f"op_{op}"] = wb.add_format({"bg_color": colour})
    return f


def _write_cell(
    ws: Any, row: int, col: int, value: Any, fmt: Any = None, long: tuple[LongCells, str] | None = None
) -> None:
    """One cell by its type; text over a cell's length split through ``long`` (cells, sheet)."""
    if value is None:
        ws.write_blank(row, col, None, fmt)
    elif isinstance(value, bool):
        ws.write_boolean(row, col, value, fmt)
    elif isinstance(value, int | float):
        ws.write_number(row, col, value, fmt)
    elif long is not None:
        long[0].write(ws, long[1], row, col, str(value), fmt)
    else:
        ws.write_string(row, col, str(value), fmt)


def written_keys(columns: Sequence[tuple[str, str, float, str]]) -> tuple[str, ...]:
    """The columns with a value (the reviewer's decision and comment stay empty)."""
    return tuple(key for key, _, _, _ in columns if key not in ("decision", "comment"))


#: The operations sheet's columns with a value without cues.
OPS_WRITTEN = written_keys(OPS_COLUMNS)


def _ops_cells(name: str, r: int, values: list[Any], long: LongCells, cols: Sequence[int]) -> list[Any]:
    """The cells of operations row ``r`` (sheet row, 0-based) from its values (``cols``: their
    columns): numbers, text (longer than a cell holds: its first part, the rest on the
    continuation sheet), None for no cell."""
    for i, value in enumerate(values):
        kind = value.__class__
        if kind is str:
            if len(value) > XLSX_MAX_CHARS:
                values[i] = long.cut(name, r, cols[i], value)
        elif value is not None and kind is not int and kind is not float:
            if not isinstance(value, int | float) or isinstance(value, bool):
                values[i] = long.cut(name, r, cols[i], str(value))
    return values


def _write_ops_sheet(
    wb: Any,
    fmts: dict[str, Any],
    name: str,
    rows: list[list[Any]],
    long: LongCells,
    columns: Sequence[tuple[str, str, float, str]] = OPS_COLUMNS,
) -> None:
    """One operations sheet of ``columns``: ``rows`` are the values under :func:`written_keys`
    (:func:`review_values`)."""
    from segagree.outputs.xlsx_rows import rows_worksheet_class

    ws = wb.add_worksheet(name, worksheet_class=rows_worksheet_class())
    keys = [c[0] for c in columns]
    for col, (key, header, width, _) in enumerate(columns):
        technical = key in TECHNICAL
        ws.write_string(0, col, header, fmts["tech_header" if technical else "header"])
        # Formats per column, not per cell: a cell written without a format takes its column's,
        # and the empty decision/comment cells need no write at all (the column's input format
        # shows them). Tens of thousands of cells per text made this the workbooks' cost.
        if technical:
            col_fmt = fmts["tech"]
        elif key == "cost":
            col_fmt = fmts["cost"]
        elif key in CUE_KEYS and key not in ("cue_from", "cue_note"):
            col_fmt = fmts["cue"]
        elif key in ("decision", "comment"):
            col_fmt = fmts["input"]
        else:
            col_fmt = None
        ws.set_column(col, col, width, col_fmt)
    # The rows in bulk (XlsxWriter's per-cell cost was most of a workbook's CPU), the same file.
    cols = [keys.index(key) for key in written_keys(columns)]
    ws.write_rows(1, cols, (_ops_cells(name, r, values, long, cols) for r, values in enumerate(rows, start=1)))
    last = max(len(rows), 1)
    ncols = len(keys)
    ws.freeze_panes(1, 0)
    ws.autofilter(0, 0, len(rows), ncols - 1)
    ws.set_row(0, 30)
    dec = keys.index("decision")
    ws.data_validation(
        1,
        dec,
        last,
        dec,
        {
            "validate": "list",
            "source": list(DECISIONS),
            "input_title": "decision",
            "input_message": "A, B, both, neither or other",
            "error_title": "not a decision",
            "error_message": "Choose A, B, both, neither or other (see the About sheet).",
        },
    )
    op_col = xlsx_col(keys.index("op"))
    first_tech = min(keys.index(k) for k in TECHNICAL if k != "row_id")
    for op in OPS:
        # Colour the reviewer's columns by operation; the technical ones stay grey.
        ws.conditional_format(
            1,
            1,
            last,
            first_tech - 1,
            {"type": "formula", "criteria": f'=${op_col}2="{op}"', "format": fmts[f"op_{op}"]},
        )


def xlsx_col(index: int) -> str:
    """Excel column letters of a 0-based column index."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def _write_summary_sheet(
    wb: Any, fmts: dict[str, Any], names: list[str], results: list[dict[str, Any]], long: LongCells
) -> None:
    ws = wb.add_worksheet(SUMMARY_SHEET)
    ws.set_column(0, 0, 16)
    ws.set_column(1, 16, 12)
    r = 0
    long.write(ws, SUMMARY_SHEET, r, 0, f"Text {results[0]['text']}: agreement per annotator pair", fmts["title"])
    r += 2
    for name, result in zip(names, results, strict=True):
        r = _summary_block(ws, fmts, r, name, result, long) + 2
    ws.write_string(r, 0, "Definitions", fmts["title"])
    r += 1
    for term, meaning in SUMMARY_DEFINITIONS:
        ws.write_string(r, 0, term, fmts["bold"])
        ws.write_string(r, 1, meaning)
        r += 1


def _summary_block(ws: Any, fmts: dict[str, Any], r: int, name: str, result: dict[str, Any], long: LongCells) -> int:
    comp = result["compare"]
    title = f"{result['annotator_a']} (A) vs {result['annotator_b']} (B): operations in sheet '{name}'"
    long.write(ws, SUMMARY_SHEET, r, 0, title, fmts["title"])
    split = (long, SUMMARY_SHEET)
    r += 1
    kappa = kappa_values(result["kappa"]) if result.get("kappa") else {}
    mismatches = comp.get("mismatches", [])
    extra = list(comp.get("metrics", {}))
    header = [
        "speaker",
        "tokens",
        "S_f",
        "S_f^B",
        "kappa S_f",
        "kappa S_f^B",
        "cost",
        "matches",
        "substitutions",
        "transpositions",
        "insertions",
        "deletions",
        "transcript mismatches",
        *extra,
    ]
    for c, h in enumerate(header):
        ws.write_string(r, c, h, fmts["header"])
    r += 1
    speakers = list(comp["per_speaker"])
    for speaker in [*speakers, POOLED]:
        stats = comp if speaker == POOLED else comp["per_speaker"][speaker]
        if speaker == POOLED:
            counts = Counter(op["op"] for op in result.get("operation_rows", []))
            n_mis = len(mismatches)
        else:
            counts = Counter(op["op"] for op in result.get("operation_rows", []) if op["speaker"] == speaker)
            n_mis = sum(1 for m in mismatches if m["speaker"] == speaker)
        kv = kappa.get(speaker, {})
        values: list[Any] = [
            speaker,
            stats.get("n_tokens"),
            stats.get(SF),
            stats.get(SF_B),
            kv.get(KAPPA_SF),
            kv.get(KAPPA_SF_B),
            stats.get("cost"),
            stats.get("matches", counts["match"]),
            stats.get("substitutions", counts["substitution"]),
            stats.get("transpositions", counts["transposition"]),
            stats.get("insertions", counts["insertion"]),
            stats.get("deletions", counts["deletion"]),
            n_mis,
        ]
        for metric in extra:
            res = comp["metrics"][metric]
            values.append(res.get("value") if speaker == POOLED else (res.get("per_speaker") or {}).get(speaker))
        for c, v in enumerate(values):
            fmt = fmts["num"] if c in (2, 3, 4, 5) or c >= 13 else None
            _write_cell(ws, r, c, v if not isinstance(v, dict | list) else json.dumps(v), fmt, split)
        r += 1
    r += 1
    ws.write_string(r, 0, "Operations by type pair (rows: A's boundary, columns: B's boundary)", fmts["bold"])
    r += 1
    symbols = list(comp["scheme"]["symbols"])
    counts = type_pair_counts(result)
    for ta, tb in counts:  # a type outside the scheme (should not happen) still gets a line
        for sym in (ta, tb):
            if sym not in symbols:
                symbols.append(sym)
    order = [s for s in symbols if s != NONE_SYMBOL] + [NONE_SYMBOL]
    ws.write_string(r, 0, MATRIX_CORNER, fmts["header"])
    for c, sym in enumerate(order, start=1):
        ws.write_string(r, c, sym, fmts["header"])
    ws.write_string(r, len(order) + 1, "total", fmts["header"])
    r += 1
    for ta in order:
        ws.write_string(r, 0, ta, fmts["header"])
        for c, tb in enumerate(order, start=1):
            if ta == NONE_SYMBOL and tb == NONE_SYMBOL:
                ws.write_string(r, c, "-")
            else:
                ws.write_number(r, c, counts.get((ta, tb), 0))
        ws.write_number(r, len(order) + 1, sum(v for (x, _), v in counts.items() if x == ta), fmts["bold"])
        r += 1
    ws.write_string(r, 0, "total", fmts["header"])
    for c, tb in enumerate(order, start=1):
        ws.write_number(r, c, sum(v for (_, y), v in counts.items() if y == tb), fmts["bold"])
    ws.write_number(r, len(order) + 1, sum(counts.values()), fmts["bold"])
    r += 2
    ws.write_string(r, 0, f"Transcript mismatches ({len(mismatches)})", fmts["bold"])
    r += 1
    if not mismatches:
        ws.write_string(r, 0, "none: both annotators have the same tokens")
        return r
    mis_header = ["speaker", "kind", "common index", "A token #", "B token #", "A token", "B token"]
    for c, h in enumerate(mis_header):
        ws.write_string(r, c, h, fmts["header"])
    room = XLSX_MAX_ROWS - r - 2 - 2 * len(SUMMARY_DEFINITIONS) - 10  # keep the definitions on the sheet
    for m in mismatches[: max(room, 0)]:
        r += 1
        for c, key in enumerate(("speaker", "kind", "position", "position_a", "position_b", "token_a", "token_b")):
            _write_cell(ws, r, c, m.get(key), None, split)
    if len(mismatches) > room:  # said, not cut in silence
        r += 1
        ws.write_string(r, 0, f"and {len(mismatches) - max(room, 0)} more mismatches: a sheet holds no more rows")
    return r


def _write_about_sheet(
    wb: Any,
    fmts: dict[str, Any],
    names: list[str],
    results: list[dict[str, Any]],
    config: RunConfig,
    home: Path,
    long: LongCells,
    more_sheets: dict[str, list[str]],
) -> None:
    ws = wb.add_worksheet(ABOUT_SHEET)
    ws.set_column(0, 0, 24)
    ws.set_column(1, 1, 60)
    ws.set_column(2, len(SOURCE_HEADERS), 18)
    r = 0
    ws.write_string(r, 0, f"Review workbook of text {results[0]['text']}", fmts["title"])
    r += 2
    signatures = sorted({res["compare"]["signature"] for res in results})
    facts: list[tuple[str, str]] = [
        ("text", str(results[0]["text"])),
        ("written by", f"segagree {version()}"),
        ("signature", "; ".join(signatures)),
        ("layer", str(results[0]["compare"].get("layer", ""))),
        ("scheme", f"{results[0]['compare']['scheme']['name']} ({results[0]['compare']['scheme']['digest']})"),
    ]
    settings = workbook_settings(config)
    for key, value in settings.items():
        facts.append((f"setting: {key}", json.dumps(value, ensure_ascii=False)))
    for res in results[:1]:
        for key, value in (res.get("cues") or {}).items():
            facts.append((f"cues: {key}", value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)))
    scheme = config.load_scheme()
    facts.append((SETTINGS_JSON_LABEL, json.dumps(settings, ensure_ascii=False, sort_keys=True)))
    facts.append((SCHEME_JSON_LABEL, json.dumps(scheme.to_dict(), ensure_ascii=False)))
    for key, value in facts:
        long.write(ws, ABOUT_SHEET, r, 0, key, fmts["bold"])
        long.write(ws, ABOUT_SHEET, r, 1, value)
        r += 1
    r += 1
    ws.write_string(
        r,
        0,
        "Sources (paths relative to this workbook, and absolute; full SHA-1; rows = operation rows written)",
        fmts["bold"],
    )
    r += 1
    for c, h in enumerate(SOURCE_HEADERS):
        ws.write_string(r, c, h, fmts["header"])
    for name, res in zip(names, results, strict=True):
        r += 1
        values = source_values(name, res, home, config.review_matches, more_sheets.get(name, []))
        for c, v in enumerate(values):
            long.write(ws, ABOUT_SHEET, r, c, str(v))
    r += 1
    cued = any(res.get("cues") for res in results)
    glossaries = (
        (
            "Columns of the operations sheets",
            [(header, definition) for _, header, _, definition in ops_columns(cued)],
        ),
        ("Decisions (segagree adjudicate applies them to annotator A's file)", DECISION_MEANINGS),
        ("Numbers of the Summary sheet", SUMMARY_DEFINITIONS),
    )
    for title, entries in glossaries:
        r += 1
        ws.write_string(r, 0, title, fmts["bold"])
        for term, meaning in entries:
            r += 1
            ws.write_string(r, 0, term, fmts["bold"])
            ws.write_string(r, 1, meaning)
        r += 1
    r += 1
    ws.write_string(r, 0, "Colours of the operation rows", fmts["bold"])
    r += 1
    for op in OPS:
        ws.write_string(r, 0, op, fmts[f"op_{op}"])
        r += 1
