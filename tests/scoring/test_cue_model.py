"""One cue model serves the subtitle metrics (reading speed, lines per block) and the style checks.

Before, the metrics built their own blocks (the words of each line joined by one space) and the
style checks their own cues (the displayed text). On the shared SRT, WebVTT and tagged files the
two agree except where a file has dialogue dashes, ``NAME:`` labels or markup the reader keeps as
words; there the displayed text is right for reading speed: a viewer reads the dash and the label
and never sees a tag. The metrics now read the style checks' cues, so their numbers move on those
files only (named below) and nowhere else.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import srt

from segagree.formats import read_document
from segagree.metrics.subtitles.scores import EOB, lines_per_block, reading_speed
from segagree.scoring.subtitles.evaluation import _codes_and_tags, subtitle_side
from segagree.scoring.subtitles.style import check_document, checked_cues

from conftest import SHARED

CORPORA = SHARED / "corpora"
FILES = sorted([*CORPORA.glob("srt/*.srt"), *CORPORA.glob("vtt/*.vtt"), *CORPORA.glob("subtitles_tagged/*")])
# Files with dialogue dashes or kept markup: the only ones where the former blocks differed.
DIFFERED = {"pysrt_capability_tester.srt", "webvtt_comments.vtt", "webvtt_styles.vtt"}


def _read(path: Path):
    try:
        return read_document(path, fmt="tagged") if path.parent.name == "subtitles_tagged" else read_document(path)
    except Exception as err:  # noqa: BLE001 - the corpora hold error cases on purpose
        pytest.skip(f"{path.name} is an error case of the corpus ({type(err).__name__})")


def _key(lines: tuple[str, ...], start: float, end: float) -> tuple:
    """A cue as comparable values (NaN times, untimed text, as None)."""
    return lines, None if math.isnan(start) else start, None if math.isnan(end) else end


def _former_blocks(doc) -> list[tuple[tuple[str, ...], float, float]]:
    """The metrics' former blocks: cut after every <eob>, lines = words joined by one space."""
    words, tags = _codes_and_tags(doc, "subtitle")
    starts, ends = doc.column("start").astype(float), doc.column("end").astype(float)
    out, lines, cur, first = [], [], [], 0
    for i, (w, t) in enumerate(zip(words, tags, strict=True)):
        cur.append(w)
        if t or i == len(words) - 1:
            lines.append(" ".join(cur))
            cur = []
        if (t and t[-1] == EOB) or i == len(words) - 1:
            out.append((tuple(lines), float(starts[first]), float(ends[i])))
            lines, first = [], i + 1
    return out


@pytest.mark.skipif(not FILES, reason="the shared subtitle corpora (../shared/corpora) are absent")
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_metrics_and_style_checks_read_the_same_cues(path: Path) -> None:
    doc = _read(path)
    if doc.n_tokens == 0:
        pytest.skip(f"{path.name} has no words")
    side = subtitle_side(doc)
    shown = checked_cues(doc)
    assert [(c.number, _key(c.lines, c.start, c.end)) for c in side.blocks] == [
        (c.number, _key(c.lines, c.start, c.end)) for c in shown
    ]
    res = check_document(doc, "ted")
    assert res["cues"] == len(shown)
    former = _former_blocks(doc)
    same = [_key(c.lines, c.start, c.end) for c in shown] == [_key(*b) for b in former]
    assert same == (path.name not in DIFFERED)
    if same:  # the metrics' numbers did not move
        timed = [b for b in former if b[2] > b[1]]
        rs = reading_speed(side.blocks)
        if timed:
            cps = [sum(len(x) for x in b[0]) / (b[2] - b[1]) for b in timed]
            assert rs["value"] == sum(cps) / len(cps)
        assert lines_per_block(side.blocks)["n_blocks"] == len(former)


def test_the_displayed_count_is_the_right_one(tmp_path: Path) -> None:
    """A dash the viewer reads counts, a tag the player hides does not: 15 characters in 1 s."""
    src = tmp_path / "d.srt"
    src.write_text("1\n00:00:01,000 --> 00:00:02,000\n-Hi there.\n- <xx>No.</xx>\n", encoding="utf-8")
    doc = read_document(src)
    (cue,) = subtitle_side(doc).blocks
    assert cue.lines == ("-Hi there.", "- No.") and cue.chars == 15
    assert reading_speed([cue])["value"] == 15.0
    independent = [x for s in srt.parse(src.read_text()) for x in s.content.split("\n")]
    assert sum(len(x.replace("<xx>", "").replace("</xx>", "")) for x in independent) == 15
    ((lines, _, _),) = _former_blocks(doc)
    assert sum(len(x) for x in lines) != 15  # the former blocks dropped the dashes or kept the tags
    res = check_document(doc, "netflix-en")  # at most 20 CPS for adults: the cue conforms
    assert res["cues"] == 1 and res["violations"]["cps"] == 0
