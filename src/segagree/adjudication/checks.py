"""The checks that keep a review workbook from steering adjudication.

A workbook is a file anyone may have edited, so what it says is checked before it is used:

* **Source files.** The About sheet names annotator A's and B's files (path relative to the
  workbook, and absolute). Such a path is followed only to a file inside an allowed folder: the
  workbook's own folder, the current folder, or a folder the user names (``--sources DIR``); a
  file the user passes (``--file-a``/``--file-b``) is used as given. ``../../private_notes.txt``
  from an edited About sheet is refused with a message saying how to pass it.
* **Digests.** The file's full SHA-1 (40 hex digits) must equal the one recorded; a shorter
  digest (one character passes one file in 16) is refused.
* **Row ids.** Two rows with one id are refused (whatever their decisions); ids the comparison
  of A and B (recomputed from the files) lists but the sheet lacks are deleted rows; ids it does
  not list are refused. When B's file is missing or changed, the recomputation cannot run: the
  count of rows the About sheet records is still checked, and the rest is a warning (an error
  with ``strict``).

The functions are separate so that every reader of decisions (the workbook, a decisions file)
makes the same checks.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from segagree.corpus.tasks import file_sha1
from segagree.errors import SegagreeError

SHA1_HEX = re.compile(r"[0-9a-f]{40}")


class HasRowId(Protocol):
    ref: str
    row_id: int | None


def allowed_roots(workbook: Path, sources: Iterable[str | os.PathLike[str]] = ()) -> list[Path]:
    """The folders whose files an About sheet may name: the workbook's, the current one and
    those the user gave."""
    return [workbook.resolve().parent, Path.cwd().resolve(), *(Path(s).resolve() for s in sources)]


def _inside(path: Path, roots: Sequence[Path]) -> bool:
    return any(path == root or path.is_relative_to(root) for root in roots)


def recorded_candidates(workbook: Path, values: Mapping[str, str], side: str) -> list[Path]:
    """The paths the About sheet records for side ``a`` or ``b``, resolved (relative to the workbook)."""
    rel, absolute = values.get(f"file_{side}", ""), values.get(f"file_{side}_absolute", "")
    out: list[Path] = []
    if rel:
        out.append(Path(rel).resolve() if Path(rel).is_absolute() else (workbook.resolve().parent / rel).resolve())
    if absolute:
        out.append(Path(absolute).resolve())
    return out


def locate_source(
    workbook: Path, values: Mapping[str, str], side: str, given: Path | None, roots: Sequence[Path]
) -> tuple[Path | None, str]:
    """Side ``a``'s or ``b``'s file, and why none was found (empty when found).

    A file the user gave is used as it is; a recorded path only to an existing file inside
    ``roots``. The digest is not checked here (:func:`digest_problem`)."""
    if given is not None:
        if not Path(given).is_file():
            return None, f"no such file {given} (given with --file-{side})"
        return Path(given).resolve(), ""
    candidates = recorded_candidates(workbook, values, side)
    # The first recorded path that exists decides (the relative one before the absolute one): an
    # edited path is refused, not passed over for another.
    found = [p for p in candidates if p.is_file()]
    if found and _inside(found[0], roots):
        return found[0], ""
    if found:
        return None, (
            f"the About sheet names {found[0]}, outside the workbook's folder and the current folder: "
            f"a workbook may not point there; pass the file with --file-{side} (or its folder with --sources) "
            "if you mean it"
        )
    tried = ", ".join(str(p) for p in candidates) or "no path recorded"
    return (
        None,
        f"the file is missing (tried {tried}); put it back as recorded in the About sheet or pass --file-{side}",
    )


def digest_problem(path: Path, recorded: str) -> str:
    """Why ``path`` is not the file the workbook recorded (empty when it is): the full SHA-1 must match."""
    recorded = recorded.strip().lower()
    if not SHA1_HEX.fullmatch(recorded):
        return (
            f"the About sheet's SHA-1 {recorded or '(none)'!r} is not a full SHA-1 of 40 hex digits "
            "(an edited workbook, or one written by an older segagree: write the review again)"
        )
    actual = file_sha1(path)
    if actual != recorded:
        return f"{path} changed since the workbook was written (SHA-1 {actual}, the About sheet records {recorded})"
    return ""


def refuse_duplicate_ids(rows: Sequence[HasRowId], workbook: Path) -> None:
    """Refuse two rows with one row id, naming them (a row copied, with or without another decision)."""
    first: dict[int, str] = {}
    dupes: list[str] = []
    for r in rows:
        if r.row_id is None:
            continue
        if r.row_id in first:
            dupes.append(f"{first[r.row_id]} and {r.ref} (row id {r.row_id})")
        else:
            first[r.row_id] = r.ref
    if dupes:
        shown = "; ".join(dupes[:20]) + (f"; and {len(dupes) - 20} more" if len(dupes) > 20 else "")
        raise SegagreeError(
            f"{len(dupes)} duplicated row ids: {shown}; every operation has one row: delete the copies", path=workbook
        )


def missing_by_count(rows: Sequence[HasRowId], values: Mapping[str, str]) -> int:
    """How many rows fewer than the About sheet records the sheet holds (0 when no count is recorded)."""
    try:
        recorded = int(values.get("rows", "") or -1)
    except ValueError:
        return 0
    present = len({r.row_id for r in rows if r.row_id is not None})
    return max(recorded - present, 0) if recorded >= 0 else 0


def compare_ids(rows: Sequence[HasRowId], expected: Sequence[int], workbook: Path) -> list[int]:
    """Row ids the recomputed comparison lists but the sheet lacks; ids it does not list are refused."""
    known = set(expected)
    unknown = [r for r in rows if r.row_id is not None and r.row_id not in known]
    if unknown:
        names = "; ".join(f"{r.ref} (row id {r.row_id})" for r in unknown[:20])
        raise SegagreeError(
            f"{len(unknown)} rows have a row id the comparison of A and B does not list: {names}", path=workbook
        )
    present = {r.row_id for r in rows if r.row_id is not None}
    return [n for n in expected if n not in present]


def reading_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The reading options the review was made with (the run's ``[read]`` and ``encoding``)."""
    options = dict(settings.get("read") or {})
    if settings.get("encoding"):
        options["encoding"] = settings["encoding"]
    return options
