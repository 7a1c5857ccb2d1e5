"""Seeded damage of real TextGrid, ELAN, Rezonator and native JSON files.

Property of every damaged file: reading gives a clean SegagreeError or a Document; a Document
writes (same format; native JSON for .rez) with a clean SegagreeError or a file segagree reads
back; when neither side reports a loss the read-back Document is equal ("lossless" is true);
and a file cut short never reads as a different complete Document. Never any other exception.

``SEGAGREE_FUZZ_CASES`` cases per adapter (default a few hundred; ``make fuzz`` runs more). A
failure names its case id: ``damage.mutate(raw, random.Random(case_id), kind)`` rebuilds it.
"""

from __future__ import annotations

import logging
import math
import tempfile
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from damage import case_count, fuzz_cases
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_loss_contract_xml import structure

from segagree.errors import SegagreeError
from segagree.formats import read_document, write_document
from segagree.model import Document, Layer, builtin_scheme

from conftest import SHARED

CORPORA = SHARED / "corpora"
SOURCES = {
    "textgrid": [
        "praatio_mary.TextGrid",
        "praatio_mary_longfile.TextGrid",
        "praatio_bobby_words_with_newlines.TextGrid",
        "praatio_bobby_words_with_newlines_longfile.TextGrid",
        "praatio_all_tiers_have_the_same_name.TextGrid",
        "teicorpo_FOR_DIA.TextGrid",
    ],
    "eaf": ["teicorpo_clan_short.eaf", "teicorpo_essai-filled-time.eaf", "teicorpo_DOC_FR_2020_CHOIX_5.eaf"],
    "rez": ["Stack_2.rez", "three-flirt-2501.rez"],
}
EXT = {"textgrid": ".TextGrid", "eaf": ".eaf", "rez": ".rez", "json": ".segagree.json"}
OUT = {"textgrid": "textgrid", "eaf": "eaf", "rez": "json", "json": "json"}
TOL = {"eaf": 0.0005}
DUBOIS = builtin_scheme("dubois")


@dataclass
class Outcome:
    counts: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)


def _sources(fmt: str, tmp: Path) -> tuple[list[bytes], list[Document]]:
    """The undamaged files' bytes and Documents (native JSON: written from real files)."""
    if fmt == "json":
        docs = [
            read_document(CORPORA / "eaf" / "teicorpo_clan_short.eaf"),
            read_document(CORPORA / "textgrid" / "praatio_mary.TextGrid"),
        ]
        raws = []
        for i, doc in enumerate(docs):
            out = tmp / f"src{i}.segagree.json"
            write_document(doc, out)
            raws.append(out.read_bytes())
        return raws, [read_document(tmp / f"src{i}.segagree.json") for i in range(len(docs))]
    paths = [CORPORA / fmt / name for name in SOURCES[fmt]]
    # Plus a file segagree wrote (it reads back with no loss: the "lossless" path gets damage too).
    if fmt != "rez":  # (read only)
        written = tmp / f"written{EXT[fmt]}"
        write_document(read_document(CORPORA / fmt / SOURCES[fmt][0]), written)
        paths.append(written)
    return [p.read_bytes() for p in paths], [read_document(p) for p in paths]


def _check(fmt: str, kind: str, data: bytes, original: Document, tmp: Path) -> str:
    """One damaged file through read -> write -> read; the outcome, or raise AssertionError."""
    path = tmp / f"case{EXT[fmt]}"
    path.write_bytes(data)
    try:
        doc = read_document(path)
    except SegagreeError as err:
        assert "\n" not in str(err), f"multi-line error {err!r}"
        return "refused"
    tol = TOL.get(fmt, 1e-9)
    if kind == "truncate":
        # A file cut short must not read as a different, complete annotation.
        assert original.differences(doc, time_tol=tol) == [], "a truncated file read as complete"
    out_fmt = OUT[fmt]
    out = tmp / f"out{EXT[out_fmt]}"
    try:
        losses = write_document(doc, out)
    except SegagreeError:
        return "read, write refused"
    back = read_document(out)  # what segagree writes it must read
    if not doc.losses and not losses:
        diffs = doc.differences(back, time_tol=tol)
        assert diffs == [], f"reported lossless but {diffs[:3]}"
        # And the files themselves hold the same tiers and annotations.
        before, after = structure(path, fmt), structure(out, out_fmt)
        if before is not None:
            assert before == after, "reported lossless but the files differ"
        return "read, lossless"
    return "read, losses reported"


def run_fuzz(fmt: str, n: int) -> Outcome:
    outcome = Outcome()
    with tempfile.TemporaryDirectory() as scratch:
        tmp = Path(scratch)
        raws, docs = _sources(fmt, tmp)
        for case, src, kind, data in fuzz_cases(fmt, raws, n):
            try:
                outcome.counts[_check(fmt, kind, data, docs[src], tmp)] += 1
            except Exception as err:  # noqa: BLE001 - every other exception is the finding
                where = traceback.extract_tb(err.__traceback__)[-1]
                outcome.failures.append(
                    f"{case} ({kind} of source {src}): {type(err).__name__}: {str(err)[:300]} "
                    f"[{Path(where.filename).name}:{where.lineno}]"
                )
                outcome.counts["FAILED"] += 1
    return outcome


@pytest.mark.parametrize("fmt", ["textgrid", "eaf", "rez", "json"])
def test_damaged_files_give_clean_errors_or_faithful_reads(fmt: str) -> None:
    if not CORPORA.is_dir():
        pytest.skip(f"{CORPORA} is absent: the real files live in ../shared")
    logging.getLogger("segagree").setLevel(logging.ERROR)
    n = case_count()
    outcome = run_fuzz(fmt, n)
    print(f"{fmt}: {n} cases: {dict(outcome.counts)}")
    assert not outcome.failures, "\n".join(outcome.failures[:15])
    # The damage must actually exercise both paths.
    assert outcome.counts["refused"] > 0 and sum(outcome.counts.values()) == n


# --- writers: any Document, any value it can hold --------------------------------------------

_TIMES = st.one_of(
    st.just(math.nan), st.floats(0, 1e4, allow_nan=False), st.sampled_from([0.0, 1e-12, 0.0005, 864000.0])
)
_TEXT = st.one_of(
    st.text(min_size=0, max_size=6),
    st.sampled_from(["#", "_", "sil", ".", ",", "--", "a b", '"q"', "x\ny", "&amp;", "<b>", "…", "\u200b", ";"]),
)


@st.composite
def documents(draw: st.DrawFn) -> Document:
    """Documents with one or two speakers, odd tokens and any known or unknown times."""
    speakers = draw(st.lists(st.sampled_from(["A", "B b", "", "Ω", "x/words"]), min_size=1, max_size=2, unique=True))
    n = draw(st.integers(0, 12))
    rows = [(draw(st.sampled_from(speakers)), draw(_TEXT), draw(_TIMES), draw(_TIMES)) for _ in range(n)]
    rows = [(s, t, a, b) if math.isnan(a) or math.isnan(b) or a <= b else (s, t, b, a) for s, t, a, b in rows]
    tokens = pd.DataFrame(rows, columns=["speaker", "text", "start", "end"])
    codes = np.asarray([draw(st.integers(0, DUBOIS.n_codes - 1)) for _ in range(n)], dtype=np.int16)
    for s in speakers:  # every speaker's stream ends in a boundary
        rows_of = [i for i, r in enumerate(rows) if r[0] == s]
        if rows_of and codes[rows_of[-1]] == 0:
            codes[rows_of[-1]] = DUBOIS.unclassified_code
    return Document("d", speakers, tokens, {"iu": Layer("iu", DUBOIS, codes)})


@pytest.mark.parametrize("ext", [".TextGrid", ".eaf", ".segagree.json"])
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(doc=documents())
def test_writers_never_crash_and_never_claim_a_false_lossless(ext: str, doc: Document) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / f"out{ext}"
        try:
            losses = write_document(doc, out)
        except SegagreeError:
            return
        try:
            back = read_document(out)
        except SegagreeError as err:
            # Only a file left with no units may be unreadable (ELAN: no unit tier), and said so.
            lost = {"units-dropped", "tokens-changed", "tokens-dropped", "speakers-dropped"}
            assert not doc.n_tokens or not losses.kinds().isdisjoint(lost), err
            return
        if not losses:
            assert doc.differences(back, time_tol=0.0005) == []
