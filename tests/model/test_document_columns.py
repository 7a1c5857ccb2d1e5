"""The Document's two storages (a DataFrame, or per-token columns with the DataFrame built on
first use) behave the same, and reading and scoring tables never imports pandas.

The columns path exists for speed (pandas' import alone was a quarter of a
``compare`` of 250k tokens); these tests pin that it changes nothing a user can see.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.errors import SegagreeError
from segagree.formats import EXTENSIONS, FORMAT_MODULES, adapters, format_for, read_document
from segagree.model import Document, Layer, builtin_scheme, factorize

ROOT = Path(__file__).resolve().parents[2]
DUBOIS = builtin_scheme("dubois")


def _pair(speakers: list[str], names: list[str], texts: list[str], meta: list[str]) -> tuple[Document, Document]:
    """The same document stored both ways."""
    n = len(names)
    starts = np.where(np.arange(n) % 2 == 0, np.arange(n, dtype=float), np.nan)
    columns = {"speaker": names, "text": texts, "start": starts, "end": starts + 0.5, "kind": meta}
    codes = np.zeros(n, dtype=np.int16)
    if n:
        codes[-1] = 2
    lay = {"iu": Layer("iu", DUBOIS, codes)}
    lazy = Document("d", list(speakers), dict(columns), dict(lay))
    frame = Document("d", list(speakers), pd.DataFrame(columns), dict(lay))
    return lazy, frame


names_st = st.lists(st.sampled_from(["A", "B", "C:", "Ä"]), min_size=0, max_size=30)


@settings(max_examples=60, deadline=None)
@given(names=names_st, data=st.data())
def test_both_storages_agree(names: list[str], data: st.DataObject) -> None:
    speakers = list(dict.fromkeys(names))
    extra = data.draw(st.lists(st.sampled_from(["Z", "Y"]), max_size=2, unique=True))
    speakers = data.draw(st.permutations(speakers + extra))  # listed order differs from appearance
    texts = [f"w{i}" for i in range(len(names))]
    lazy, frame = _pair(speakers, names, texts, [f"k{i % 3}" for i in range(len(names))])
    assert lazy._frame is None  # nothing built yet
    assert lazy.differences(frame) == [] and frame.differences(lazy) == []
    for a, b in zip(lazy.speaker_rows().values(), frame.speaker_rows().values(), strict=True):
        assert np.array_equal(a, b)
    assert list(lazy.speaker_rows()) == list(frame.speaker_rows()) == speakers
    assert lazy.token_texts() == frame.token_texts()
    assert lazy.has_times == frame.has_times
    assert lazy.meta_columns() == frame.meta_columns() == ["kind"]
    assert [u.rows for u in lazy.units()] == [u.rows for u in frame.units()]
    assert np.array_equal(lazy.speaker_codes(), frame.speaker_codes())
    if speakers:
        keep = speakers[: max(1, len(speakers) // 2)]
        a, b = lazy.select_speakers(keep), frame.select_speakers(keep)
        assert a.differences(b) == []
        assert [(x.kind, x.count) for x in a.losses] == [(x.kind, x.count) for x in b.losses]
    # The built table is the one the DataFrame path holds: same columns, values and dtypes.
    pd.testing.assert_frame_equal(lazy.tokens, frame.tokens)
    assert lazy._columns is None  # from now on the frame is the one source


def test_frame_edits_after_building_are_seen() -> None:
    lazy, _ = _pair(["A", "B"], ["A", "B", "A"], ["x", "y", "z"], ["k", "k", "k"])
    codes_before = lazy.speaker_codes().copy()
    lazy.tokens.loc[1, "speaker"] = "A"  # a reader or user editing the table in place
    assert np.array_equal(codes_before, [0, 1, 0])
    assert lazy.speaker_codes().tolist() == [0, 0, 0]
    assert lazy.column("speaker").tolist() == ["A", "A", "A"]
    lazy.tokens.loc[0, "speaker"] = "B"  # and again: no cached codes may go stale
    assert lazy.speaker_codes().tolist() == [1, 0, 0]


def test_speaker_codes_follow_the_speaker_list() -> None:
    lazy, _ = _pair(["A", "B"], ["A", "B", "A"], ["x", "y", "z"], ["k", "k", "k"])
    assert lazy.speaker_codes().tolist() == [0, 1, 0]
    lazy.speakers = ["B", "A"]  # reordered after building: the cached codes must not be reused
    assert lazy.speaker_codes().tolist() == [1, 0, 1]
    lazy.speakers = ["B"]
    with pytest.raises(SegagreeError, match="unlisted speakers"):
        lazy.validate()


def test_set_column_on_both_storages() -> None:
    lazy, frame = _pair(["A"], ["A", "A"], ["x", "y"], ["k", "k"])
    for doc in (lazy, frame):
        doc.set_column("tier", ["t1", "t2"])
        assert doc.column("tier").tolist() == ["t1", "t2"]
    assert lazy._frame is None
    pd.testing.assert_frame_equal(lazy.tokens, frame.tokens)
    with pytest.raises(SegagreeError, match="core column"):
        lazy.set_column("text", ["a", "b"])
    fresh, _ = _pair(["A"], ["A", "A"], ["x", "y"], ["k", "k"])
    with pytest.raises(SegagreeError, match="3 values for 2 tokens"):
        fresh.set_column("tier", ["a", "b", "c"])


def test_replace_copies_the_tokens() -> None:
    lazy, _ = _pair(["A"], ["A", "A"], ["x", "y"], ["k", "k"])
    other = lazy.replace(name="e")
    assert other.name == "e" and other.differences(lazy) == []
    other.set_column("kind", ["changed", "changed"])
    assert lazy.column("kind").tolist() == ["k", "k"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "", "NA", "é"]), max_size=40))
def test_factorize_matches_pandas(values: list[str]) -> None:
    uniques, codes = factorize(values)
    want_codes, want_uniques = pd.factorize(np.asarray(values, dtype=object), use_na_sentinel=False)
    assert uniques == list(want_uniques) and codes.tolist() == want_codes.tolist()
    assert [uniques[c] for c in codes] == values


def test_extension_table_matches_the_adapters() -> None:
    table = adapters()
    assert list(table) == list(FORMAT_MODULES)  # the order `segagree formats` lists them
    declared = {ext: name for name, a in table.items() for ext in a.extensions}
    assert declared == EXTENSIONS
    for ext, name in EXTENSIONS.items():
        assert format_for(f"x{ext.upper()}").name == name


def test_reading_and_comparing_tables_never_imports_pandas(tmp_path: Path) -> None:
    """The whole compare command on two CSV tables (speed check) runs without pandas;
    a spreadsheet, which needs pandas to read, still works in the same process."""
    tables = ROOT / "sample_corpora" / "tables"
    csvs = sorted(tables.glob("*.csv"))
    if len(csvs) < 2:
        pytest.skip(f"expected two CSV tables in {tables}")
    code = (
        "import sys\n"
        "from segagree.cli import main\n"
        f"try:\n    main(['compare', {str(csvs[0])!r}, {str(csvs[1])!r}, '--json'])\n"
        "except SystemExit as e:\n    assert not e.code, e.code\n"
        "print('PANDAS', 'pandas' in sys.modules, file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "PANDAS False" in proc.stderr
    doc = read_document(csvs[0])
    assert doc.tokens["text"].tolist() == doc.column("text").tolist()


TOKENS = ["so", "it", "goes", ",", ".", "?", "--", "—", "fine.", "no,", "..", "...", "(0.4)", "!", ";", "end--", "a.."]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["", "JOE:\t", "M2: "]), st.lists(st.sampled_from(TOKENS), max_size=5))))
def test_text_reader_decides_endings_as_unit_by_unit(tmp_path_factory: pytest.TempPathFactory, lines: list) -> None:
    """The transcript reader decides each distinct last token once; that must give what
    deciding every unit on its own (the reference: the reader's checks, line by line) gives."""
    from segagree.formats import text as text_adapter

    path = tmp_path_factory.mktemp("t") / "t.txt"
    body = "\n".join(label + " ".join(toks) for label, toks in lines)
    path.write_text(body, encoding="utf-8")
    want: list[tuple[str, list[str], int]] = []
    error: str | None = None
    speaker = text_adapter.DEFAULT_SPEAKER
    for lineno, line in enumerate(body.splitlines(), start=1):
        match = text_adapter.LABEL_TAB.match(line) or text_adapter.LABEL.match(line)
        if match:
            speaker, line = match.group(1), line[match.end() :]
        if not line.split():
            continue
        try:
            words, code = text_adapter._unit(line.split(), path, lineno, DUBOIS, True)
        except SegagreeError as err:
            error = str(err)
            break
        want.append((speaker, words, code))
    try:
        doc = read_document(path)
    except SegagreeError as err:
        # No units at all is refused too ("empty file" or "no units"), with the reader's words.
        assert (error is not None and error in str(err)) or (error is None and not want), (error, str(err))
        return
    assert error is None, error
    got = [(u.speaker, [doc.column("text")[r] for r in u.rows], u.boundary) for u in doc.units()]
    assert got == want


def test_unit_metadata_spreads_over_tokens_on_first_use(tmp_path: Path) -> None:
    from segagree.model.document import RepeatedColumn

    path = tmp_path / "t.csv"
    path.write_text(
        "Turn,Speaker,Utterance,row_id\n1,A,so it goes ,r1\n1,,and then .,r2\n2,B,really ?,r3\n3,A,no --,r4\n",
        encoding="utf-8",
    )
    doc = read_document(path)
    meta = doc.meta_columns()
    assert meta, "the sample table has metadata columns"
    assert all(isinstance(doc._columns[c], RepeatedColumn) for c in meta)  # not spread yet
    first = doc.replace()  # a copy spreads them (and keeps the original's storage usable)
    eager = {c: doc.column(c).tolist() for c in meta}
    for c in meta:
        assert len(eager[c]) == doc.n_tokens
        # every token of a unit carries its unit's value
        for unit in doc.units():
            assert len({eager[c][r] for r in unit.rows}) == 1
        assert first.column(c).tolist() == eager[c]
    frame = read_document(path).tokens  # built straight from the unspread form
    for c in meta:
        assert frame[c].tolist() == eager[c]
