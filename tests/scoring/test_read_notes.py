"""What a reader drops or changes of a file (a caption header, cues without words, RTTM records other
than SPEAKER) is said beside the scores of compare, not only by convert."""

from __future__ import annotations

from pathlib import Path

import segagree

SRT = (
    "Kind: captions\nLanguage: en\n\n1\n00:00:00,000 --> 00:00:02,500\nhello there and welcome\n\n"
    "2\n00:00:02,500 --> 00:00:04,000\n\n3\n00:00:04,000 --> 00:00:06,000\nto the show tonight\n"
    "4\n00:00:06,000 --> 00:00:08,000\nwe have a guest\n"
)
VTT = (
    "WEBVTT\n\n00:00:00.000 --> 00:00:02.500\nhello there\nand welcome\n\n"
    "00:00:04.000 --> 00:00:08.000\nto the show tonight we have a guest\n"
)


def test_compare_lists_the_caption_header_the_cue_without_words_and_the_repair(tmp_path: Path) -> None:
    a, b = tmp_path / "a.srt", tmp_path / "b.vtt"
    a.write_text(SRT, encoding="utf-8")
    b.write_text(VTT, encoding="utf-8")
    notes = segagree.compare(a, b)["notes"]
    for kind in ("header-dropped", "empty-cues", "repaired"):
        assert any(n.startswith(f"a.srt: {kind}") for n in notes), (kind, notes)
    assert not any(n.startswith("b.vtt") for n in notes)


def _tok(words: list[tuple[str, bool]], docs: bool) -> str:
    lines = []
    for k, (word, begins) in enumerate(words):
        if docs and k in (0, 3):
            lines.append(f"# newdoc_id = d{k}")
        lines.append(f"{k + 1}\t{word}\t_\t_\t_\t_\t_\t_\t_\t{'BeginSeg=Yes' if begins else '_'}")
    return "\n".join(lines) + "\n"


def test_review_says_that_a_system_file_without_documents_is_one_stream(tmp_path: Path) -> None:
    words = [("a", True), ("b", False), ("c", True), ("d", True), ("e", False), ("f", False)]
    gold, pred = tmp_path / "gold.tok", tmp_path / "pred.tok"
    gold.write_text(_tok(words, docs=True), encoding="utf-8")
    pred.write_text(_tok([(w, not b) for w, b in words], docs=False), encoding="utf-8")
    outcome = segagree.review(gold, pred, tmp_path / "review.xlsx")
    assert any("one stream" in n for n in outcome.notes), outcome.notes
