"""Adjudicating a subtitle review whose decisions mix A and B: the gold's cues keep the times
their edges came from (A's where A's boundary stays, B's where B's is taken), never invented."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import srt
from cli_process import run_cli

A = "1\n00:00:01,000 --> 00:00:03,000\nhello there my friend\n\n2\n00:00:03,000 --> 00:00:05,000\nhow are you today\n\n"
A += "3\n00:00:05,500 --> 00:00:07,000\nfine thanks\n"
B = "1\n00:00:01,000 --> 00:00:02,000\nhello there\n\n2\n00:00:02,000 --> 00:00:04,000\nmy friend how are\n\n"
B += "3\n00:00:04,000 --> 00:00:07,000\nyou today fine thanks\n"


def _decide(book: Path, decisions: dict[str, str]) -> None:
    wb = openpyxl.load_workbook(book)
    ws = wb["Operations"]
    header = [c.value for c in ws[1]]
    col_token, col_decision = header.index("A token") + 1, header.index("decision") + 1
    for r in range(2, ws.max_row + 1):
        ws.cell(r, col_decision).value = decisions[ws.cell(r, col_token).value]
    wb.save(book)


def test_mixed_decisions_keep_both_files_times(tmp_path: Path) -> None:
    (tmp_path / "a.srt").write_text(A, encoding="utf-8")
    (tmp_path / "b.srt").write_text(B, encoding="utf-8")
    book = tmp_path / "review.xlsx"
    assert run_cli(["review", str(tmp_path / "a.srt"), str(tmp_path / "b.srt"), "-o", str(book)]).returncode == 0
    # A's cue break after 'friend' stays; B's break after 'are' (not A's after 'today') is taken.
    _decide(book, {"friend": "A", "today": "B"})
    result = run_cli(["adjudicate", str(book), "-o", str(tmp_path / "gold.srt")])
    assert result.returncode == 0, result.stderr
    assert "times-invented" not in result.stdout + result.stderr
    cues = list(srt.parse((tmp_path / "gold.srt").read_text(encoding="utf-8")))
    got = [(c.content, c.start.total_seconds(), c.end.total_seconds()) for c in cues]
    # By hand: cue 1 is A's (1-3 s); cue 2 starts where A's cue 2 starts (3 s, 'how') and ends
    # where B's cue 2 ends (4 s, 'are'); cue 3 starts at B's 'you' (4 s) and ends at A's end (7 s).
    assert got == [("hello there my friend", 1.0, 3.0), ("how are", 3.0, 4.0), ("you today fine thanks", 4.0, 7.0)]
