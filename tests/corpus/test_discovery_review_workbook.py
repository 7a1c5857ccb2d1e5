"""A review workbook written beside a corpus's annotations is segagree's own output, not an annotator."""

from __future__ import annotations

import shutil
from pathlib import Path

import segagree
from segagree.corpus.discovery import find_annotations
from segagree.files.own_outputs import is_review_workbook

from conftest import REPO

SAMPLE = REPO / "sample_corpora"


def test_a_review_workbook_beside_the_annotations_is_skipped_and_said(tmp_path: Path) -> None:
    for name in ("garden.ann1.txt", "garden.ann2.txt"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    segagree.review(tmp_path / "garden.ann1.txt", tmp_path / "garden.ann2.txt", tmp_path / "garden.review.xlsx")
    corpus = find_annotations(tmp_path)
    assert corpus.texts == {"garden": {"ann1": tmp_path / "garden.ann1.txt", "ann2": tmp_path / "garden.ann2.txt"}}
    assert any(s.startswith("garden.review.xlsx: a segagree review workbook") for s in corpus.skipped)


def test_an_annotation_table_is_not_taken_for_a_review_workbook(tmp_path: Path) -> None:
    table = tmp_path / "garden.ann1.xlsx"
    segagree.convert(SAMPLE / "garden.ann1.txt", table)
    assert not is_review_workbook(table)
    broken = tmp_path / "x.ann1.xlsx"
    broken.write_bytes(b"not a zip")
    assert not is_review_workbook(broken)  # the table reader names what is wrong with it
