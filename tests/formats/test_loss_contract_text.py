"""The loss-report contract for SRT, text and tables, on every real file of those formats.

For each file in ../shared/corpora/srt, ../shared/corpora/nccu and sample_corpora (``.srt``,
``.txt``, ``.csv``): read -> write the same format -> read again. Every difference between the two
Documents (``Document.differences``, plus the token columns a format keeps: SRT styling, table
metadata) must be explained by the read or the write report; a round trip with no difference
must have no write-side loss, and re-reading segagree's own output must report nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from segagree.errors import InputError
from segagree.formats import read_document, write_document
from segagree.model import Document

from conftest import REPO, SHARED

# The read-side losses each real file is known to have, so that a new silent one fails the test.
KNOWN_READ_LOSSES = {
    "pysrt_empty.srt": {"empty-cues"},
    "pysrt_capability_tester.srt": {"styling-moved"},
    "nccu_t049.a2.csv": {"rows-dropped"},
    "nccu_t049.a1.csv": {"rows-dropped"},
}
# Files that are not valid in their format (the reader refuses them, with a reason).
REFUSED = {"pysrt_invalid.srt": "malformed timing line"}


def real_files() -> list[Path]:
    files: list[Path] = []
    for folder, pattern in (("corpora/srt", "*.srt"), ("corpora/nccu", "*.csv")):
        files += sorted((SHARED / folder).glob(pattern))
    sample = REPO / "sample_corpora"
    for pattern in ("*.srt", "*.txt", "tables/*.csv", "tools/*.srt"):
        files += sorted(sample.glob(pattern))
    return files


def kept_columns(doc: Document) -> dict[str, list[str]]:
    """Token columns beyond the core that the format writes back (as text)."""
    return {c: doc.tokens[c].fillna("").astype(str).tolist() for c in doc.meta_columns()}


@pytest.mark.parametrize("path", real_files() or [None], ids=lambda p: p.name if p else "absent")
def test_round_trip_differences_are_reported(path: Path | None, tmp_path: Path) -> None:
    if path is None:
        pytest.skip("no real files: ../shared/corpora is absent")
    if path.name in REFUSED:
        with pytest.raises(InputError, match=REFUSED[path.name]):
            read_document(path)
        return
    first = read_document(path)
    read_kinds = first.losses.kinds()
    assert read_kinds <= KNOWN_READ_LOSSES.get(path.name, set()), (path.name, first.losses.lines())
    out = tmp_path / path.name
    assert not write_document(first, tmp_path / ("same." + path.name))  # unchanged: the file given back
    assert (tmp_path / ("same." + path.name)).read_bytes() == path.read_bytes()
    first.source = first.source.without_file()  # the writer's own form from here on
    written = write_document(first, out)
    second = read_document(out)
    diffs = first.differences(second)
    if kept_columns(first) != kept_columns(second):
        diffs.append("kept token columns differ")
    if diffs:
        assert written or first.losses, (path.name, diffs)
    else:
        assert not written, (path.name, written.lines())
    assert not second.losses, (path.name, second.losses.lines())
    # and the round trip is now a fixed point
    third_path = tmp_path / ("again." + path.name)
    assert not write_document(second, third_path)
    assert read_document(third_path).differences(second) == []


def test_speaker_order_a_table_or_transcript_cannot_hold_is_reported(tmp_path: Path) -> None:
    """Tables and transcripts list speakers in order of first appearance, and only those who
    speak: another order, or a silent speaker, is a reported loss, never "lossless"."""
    import pandas as pd

    from segagree.model import Layer, builtin_scheme

    scheme = builtin_scheme("dubois")
    tokens = pd.DataFrame({"speaker": ["B", "A"], "text": ["hi", "yes"]})
    doc = Document("t", ["A", "B", "C"], tokens, {"iu": Layer("iu", scheme, [2, 2])})
    for name in ("t.csv", "t.txt"):
        losses = write_document(doc, tmp_path / name)
        assert {"speakers-reordered", "speakers-dropped"} <= losses.kinds(), name
        assert read_document(tmp_path / name).speakers == ["B", "A"]
