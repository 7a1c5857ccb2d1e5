"""Seeded damage for the SRT, text and table adapters: clean error or faithful read.

For every damaged variant (tests/damage_text.py) of the real and sample files:

* reading gives a Document or a :class:`SegagreeError`, never another exception;
* a Document read is written back to its own format (a SegagreeError is allowed there too) and
  that output reads back, since segagree never writes what it refuses;
* **no false lossless**: when neither the read nor the write reported a loss, the round trip is
  identical (``Document.differences`` and the token columns the format keeps).

``SEGAGREE_FUZZ_CASES`` cases per adapter (default 200; ``make fuzz`` runs 10,000). A failure
names the adapter, the case number and the mutations, which replay it with :func:`make_case`.
"""

from __future__ import annotations

import collections
import os
from pathlib import Path

import pytest
from damage_text import damage, xlsx_from_rows

from segagree.errors import SegagreeError
from segagree.formats import read_document, write_document

from conftest import REPO, SHARED

CASES = int(os.environ.get("SEGAGREE_FUZZ_CASES", "200"))
SAMPLE = REPO / "sample_corpora"


def _head(path: Path, lines: int) -> bytes:
    return b"".join(path.read_bytes().splitlines(keepends=True)[:lines])


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[str, bytes]]]:
    """Undamaged files per adapter: (file name, bytes)."""
    work = tmp_path_factory.mktemp("bases")
    srt = [(p.name, p.read_bytes()) for p in sorted((SHARED / "corpora" / "srt").glob("*.srt"))]
    srt += [(p.name, p.read_bytes()) for p in sorted(SAMPLE.glob("**/*.srt"))]
    text = [(p.name, p.read_bytes()) for p in sorted(SAMPLE.glob("*.txt"))]
    garden = read_document(SAMPLE / "garden.ann1.txt")
    garden.tokens.loc[0, "start"], garden.tokens.loc[9, "end"] = 0.5, 2.25
    write_document(garden, work / "rez.txt", layout="rezonator")
    text.append(("rez.txt", (work / "rez.txt").read_bytes()))
    table = [(p.name, p.read_bytes()) for p in sorted(SAMPLE.glob("tables/*.csv"))]
    for p in sorted((SHARED / "corpora" / "nccu").glob("*.a1.csv"))[:4]:
        table.append((p.name, _head(p, 60)))
        (work / p.name).write_bytes(_head(p, 60))
        nccu = read_document(work / p.name)
        write_document(nccu, work / (p.stem + ".txt"))
        text.append((p.stem + ".txt", (work / (p.stem + ".txt")).read_bytes()))
    write_document(read_document(SAMPLE / "tables" / "garden.ann2.csv"), work / "garden.tsv")
    table.append(("garden.tsv", (work / "garden.tsv").read_bytes()))
    return {"srt": srt, "text": text, "table": table}


def make_case(bases: dict[str, list[tuple[str, bytes]]], adapter: str, case: int) -> tuple[str, bytes, list[str]]:
    """The ``case``-th damaged file of ``adapter``: (file name, bytes, mutations)."""
    files = bases[adapter]
    name, raw = files[case % len(files)]
    data, names = damage(raw, f"{adapter}-{case}")
    if adapter == "table" and case % 5 == 4 and name.endswith(".csv"):
        # every fifth table case is a workbook: damaged cells, or a damaged zip
        book = xlsx_from_rows(data) if case % 10 == 4 else None
        if book is None:
            book, more = damage(xlsx_from_rows(raw) or b"", f"xlsx-{case}")
            names = ["xlsx-bytes", *more]
        else:
            names = ["xlsx-cells", *names]
        return name.replace(".csv", ".xlsx"), book, names
    return name, data, names


def kept_columns(doc) -> dict[str, list[str]]:
    return {c: doc.tokens[c].fillna("").astype(str).tolist() for c in doc.meta_columns()}


def check(path: Path, out_dir: Path) -> str:
    """One damaged file through read -> write -> read; returns the outcome, raises on a violation."""
    try:
        doc = read_document(path)
    except SegagreeError as err:
        assert "\n" not in str(err), str(err)
        return "refused"
    out = out_dir / ("rt" + "".join(path.suffixes[-1:]))
    try:
        losses = write_document(doc, out)
    except SegagreeError:
        return "write refused"
    try:
        back = read_document(out)
    except SegagreeError as err:
        raise AssertionError(f"segagree wrote a file it refuses: {err}") from err
    lossless = not doc.losses and not losses
    if lossless:
        diffs = doc.differences(back)
        if kept_columns(doc) != kept_columns(back):
            diffs.append("kept token columns differ")
        assert not diffs, f"false lossless: {diffs}"
        return "read, lossless"
    return "read, losses reported"


@pytest.mark.parametrize("adapter", ["srt", "text", "table"])
def test_damaged_files_give_a_clean_error_or_a_faithful_read(
    adapter: str, bases: dict[str, list[tuple[str, bytes]]], tmp_path: Path
) -> None:
    if not bases[adapter]:
        pytest.skip("no base files")
    outcomes: collections.Counter[str] = collections.Counter()
    failures: list[str] = []
    for case in range(CASES):
        name, data, names = make_case(bases, adapter, case)
        case_dir = tmp_path / str(case % 8)  # a few folders, reused: no disk growth
        case_dir.mkdir(exist_ok=True)
        path = case_dir / name
        path.write_bytes(data)
        try:
            outcomes[check(path, case_dir)] += 1
        except Exception as err:  # noqa: BLE001  any other exception is the finding
            failures.append(f"{adapter} case {case} ({name}, {'+'.join(names)}): {type(err).__name__}: {err}")
            outcomes["FAILED"] += 1
    print(f"{adapter}: {CASES} cases: {dict(outcomes)}")
    assert not failures, "\n".join(failures[:15])
    assert outcomes["refused"] and outcomes["read, lossless"] + outcomes["read, losses reported"]
