"""YouTube automatic captions as yt-dlp saves them (rolling cues, ``<c>`` word times, flash
cues, WebVTT/SRT hybrids): read as a viewer sees them, each word once, the collapse reported."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from cli_process import run_cli

from segagree.errors import InputError
from segagree.formats import read_document
from segagree.formats.vtt import rolling_repeats

from conftest import shared_path

# The shape of a yt-dlp auto-caption file: header lines, a blank first line, words with
# <c> word times, a 10 ms flash cue holding only the line shown so far, then a cue that shows
# that line again above the new one.
YOUTUBE = """WEBVTT
Kind: captions
Language: en

00:00:00.000 --> 00:00:02.350 align:start position:0%
_
hello<00:00:00.320><c> everyone</c><00:00:00.640><c> and</c><00:00:00.960><c> welcome</c>

00:00:02.350 --> 00:00:02.360 align:start position:0%
hello everyone and welcome
_

00:00:02.360 --> 00:00:05.120 align:start position:0%
hello everyone and welcome
to<00:00:02.720><c> the</c><00:00:03.040><c> show</c>

00:00:05.120 --> 00:00:05.130 align:start position:0%
to the show
_

00:00:05.130 --> 00:00:07.000 align:start position:0%
to the show
bye<00:00:05.500><c> now</c>
""".replace("\n_\n", "\n \n")  # lines of one space, as YouTube writes
# What a viewer reads, with each word's time: the <c> tags' times, the cue start for a line's
# first word.
WORDS = ["hello", "everyone", "and", "welcome", "to", "the", "show", "bye", "now"]
STARTS = [0.0, 0.32, 0.64, 0.96, 2.36, 2.72, 3.04, 5.13, 5.5]


def _hybrid(text: str) -> str:
    """The same captions as a WebVTT/SRT hybrid: SubRip cue numbers and comma timings, no
    blank lines between cues."""
    out: list[str] = []
    number = 0
    for line in text.split("\n"):
        if "-->" in line:
            number += 1
            out.append(str(number))
            start, rest = line.split(" --> ")
            end, settings = rest.split(" ", 1)
            line = f"{start.replace('.', ',')} --> {end.replace('.', ',')} {settings}"
        if line == "" and number:
            continue
        out.append(line)
    return "\n".join(out) + "\n"


def _check_viewer_words(doc, kinds: set[str]) -> None:
    assert doc.tokens["text"].tolist() == WORDS
    assert doc.tokens["start"].tolist() == pytest.approx(STARTS)
    ends = [e for e in doc.tokens["end"].tolist() if not math.isnan(e)]
    assert ends == pytest.approx([2.35, 5.12, 7.0])
    found = {loss.kind: loss for loss in doc.losses.losses}
    assert kinds <= set(found)
    assert found["rolling-repeats"].count == 4  # four repeated lines dropped
    assert found["rolling-flash-cues"].count == 2


def test_youtube_rolling_captions_read_once(tmp_path: Path) -> None:
    path = tmp_path / "talk.en.vtt"
    path.write_text(YOUTUBE, encoding="utf-8")
    _check_viewer_words(read_document(path), {"rolling-repeats", "rolling-flash-cues"})


def test_no_blank_lines_between_cues(tmp_path: Path) -> None:
    path = tmp_path / "talk.en.vtt"
    path.write_text("\n".join(line for line in YOUTUBE.split("\n") if line) + "\n", encoding="utf-8")
    _check_viewer_words(read_document(path), {"rolling-repeats"})


@pytest.mark.parametrize("suffix", [".vtt", ".srt"])
def test_webvtt_srt_hybrid(tmp_path: Path, suffix: str) -> None:
    text = _hybrid(YOUTUBE)
    assert "00:00:02,350 --> 00:00:02,360" in text and "\n2\n00:00:02,350" in text
    path = tmp_path / f"talk.en{suffix}"
    path.write_text(text, encoding="utf-8")
    doc = read_document(path)
    _check_viewer_words(doc, {"rolling-repeats", "repaired"})
    if suffix == ".srt":
        assert any(n.kind == "read-as-webvtt" for n in doc.losses.notes)


def test_occasional_repeat_is_read_as_written(tmp_path: Path) -> None:
    # A chorus line repeated once in ordinary subtitles is not a rolling track.
    path = tmp_path / "song.vtt"
    path.write_text(
        "WEBVTT\n\n00:01.000 --> 00:02.000\nla la la\n\n00:02.000 --> 00:03.000\nla la la\nsing it\n\n"
        "00:03.000 --> 00:04.000\nnew words\n\n00:04.000 --> 00:05.000\nmore words\n",
        encoding="utf-8",
    )
    doc = read_document(path)
    assert doc.tokens["text"].tolist().count("la") == 6
    assert not any(loss.kind.startswith("rolling") for loss in doc.losses.losses)


def test_rolling_repeats_rule_by_hand() -> None:
    cues = [["", "a b"], ["a b", ""], ["a b", "c d"], ["c d", "e"], ["x"]]
    contiguous = [(0, 10), (10, 20), (20, 30), (30, 40), (40, 50)]
    assert rolling_repeats(cues, contiguous) == [0, 1, 1, 1, 0]
    # gaps between cues: a repeat is not a roll
    assert rolling_repeats(cues, [(0, 5), (10, 15), (20, 25), (30, 35), (40, 45)]) is None
    # one repeat among five cues is not a rolling track
    assert rolling_repeats([["a"], ["a", "b"], ["c"], ["d"], ["e"]], contiguous) is None
    # the same line again and again, never rolling up under a new line
    assert rolling_repeats([["so"], ["so"], ["so"]], contiguous[:3]) is None


def test_convert_is_not_lossless(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "talk.en.vtt"
    path.write_text(YOUTUBE, encoding="utf-8")
    result = run_cli(["convert", str(path), "-o", str(tmp_path / "talk.vtt"), "--json"])
    assert result.returncode == 0, result.stderr
    assert '"lossless": false' in result.stdout
    assert "Traceback" not in result.stderr
    again = read_document(tmp_path / "talk.vtt")
    assert again.tokens["text"].tolist() == WORDS
    assert again.tokens["start"].tolist() == pytest.approx(STARTS)


def test_unreadable_hybrid_timing_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.srt"
    path.write_text("WEBVTT\n\n1\n00:00:01,000 --> 00:00:xx,000\nhello\n", encoding="utf-8")
    with pytest.raises(InputError, match="bad.srt"):
        read_document(path)


def test_real_youtube_dl_file() -> None:
    path = shared_path("corpora", "vtt", "webvtt_youtube_dl.vtt")
    doc = read_document(path)
    words = doc.tokens["text"].tolist()
    # The file shows "yeah", "what", then one line written three times (two rolling cues and
    # a flash cue): each word once.
    assert words[:3] == ["yeah", "what", "this"]
    assert words.count("telling") == 1
    assert any(loss.kind == "rolling-repeats" for loss in doc.losses.losses)
