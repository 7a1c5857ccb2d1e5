"""segagree check under the TED profile against an independent count: the srt library's own
parsing, tags removed with a regular expression, rules counted as the profile file says."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest
import srt

from segagree.errors import InputError, SegagreeError
from segagree.formats import read_document
from segagree.scoring.subtitles.style import check_document, load_profile

from conftest import SHARED

TAG = re.compile(r"<[^>]*>|\{\\[^}]*\}")


def _shown(lines: list[str]) -> list[str]:
    out = [" ".join(TAG.sub("", x).split()) for x in lines]
    return [x for x in out if x]


def srt_cues(path: Path) -> list[tuple[float, float, list[str]]]:
    """Cues of an SRT file by the srt library (cues without text skipped, as segagree's reader does)."""
    raw = path.read_bytes()
    text = raw.decode("utf-16") if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else raw.decode("utf-8-sig")
    cues = [(s.start.total_seconds(), s.end.total_seconds(), _shown(s.content.split("\n"))) for s in srt.parse(text)]
    return [c for c in cues if c[2]]


def vtt_cues(path: Path) -> list[tuple[float, float, list[str]]]:
    """Cues of a WebVTT file by webvtt-py."""
    import webvtt

    def seconds(stamp: str) -> float:  # webvtt-py's *_in_seconds are whole seconds
        return sum(float(x) * 60**k for k, x in enumerate(reversed(stamp.split(":"))))

    cues = [(seconds(c.start), seconds(c.end), _shown(c.raw_text.split("\n"))) for c in webvtt.read(str(path))]
    return [c for c in cues if c[2]]


def independent_counts(cues, *, max_cpl=42, max_lines=2, max_cps=21.0, min_dur=1.0, max_dur=7.0) -> dict:
    """The TED profile's rules counted as its file says, on cues parsed by another library."""
    out = dict.fromkeys(("cpl", "lines", "cps", "min_duration", "max_duration", "min_gap", "balance"), 0)
    for k, (s, e, lines) in enumerate(cues):
        out["cpl"] += sum(len(x) > max_cpl for x in lines)
        out["lines"] += len(lines) > max_lines
        d = e - s
        chars = sum(len(x) for x in lines)
        cps = chars / d if d > 0 else math.inf
        out["cps"] += cps > max_cps + 1e-9
        out["min_duration"] += d < min_dur - 1e-9
        out["max_duration"] += d > max_dur + 1e-9
        if k + 1 < len(cues):
            out["min_gap"] += cues[k + 1][0] - e < -1e-9
    return out


def _files() -> list[Any]:
    files = [
        p for d in ("srt", "vtt") for p in sorted((SHARED / "corpora" / d).glob("*.*t")) if p.suffix in (".srt", ".vtt")
    ]
    return files or [pytest.param(None, marks=pytest.mark.skip(reason="../shared corpora absent"))]


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name if p else "none")
def test_ted_counts_equal_an_independent_count(path):
    try:
        doc = read_document(path)
    except InputError:
        pytest.skip(f"{path.name} is an error case of the corpus (not readable)")
    if any(loss.kind.startswith("rolling-") for loss in doc.losses):
        pytest.skip(f"{path.name} holds rolling captions, read as a viewer sees them: its raw cues are not checked")
    ours = check_document(doc, "ted")["violations"]
    assert ours == independent_counts(srt_cues(path) if path.suffix == ".srt" else vtt_cues(path))


def test_sample_file_counts():
    res = check_document(read_document(Path(__file__).parents[2] / "sample_corpora" / "film.ref.srt"), "netflix-en")
    # film.ref.srt: cue 1 "So I finally went out to the garden" + "this morning," = 48 chars in 2.2 s = 21.8 cps
    assert res["cues"] == 5
    assert res["per_cue"][0]["cps"] == pytest.approx(48 / 2.2, abs=1e-3)
    assert res["violations"]["cps"] == sum("cps" in c["rules"] for c in res["per_cue"])


def test_gap_balance_and_custom_profile(tmp_path):
    src = tmp_path / "g.srt"
    src.write_text(
        "1\n00:00:01,000 --> 00:00:02,000\nA rather long first line here\nshort\n\n"
        "2\n00:00:02,040 --> 00:00:03,500\nnext\n\n3\n00:00:03,400 --> 00:00:05,000\noverlap\n",
        encoding="utf-8",
    )
    prof = tmp_path / "mine.toml"
    prof.write_text(
        'title = "mine"\nsource = "test"\nmax_cpl = 20\nmin_gap_frames = 2\nframe_rate = 25\nmin_balance = 0.5\n',
        encoding="utf-8",
    )
    res = check_document(read_document(src), prof)
    v = res["violations"]
    assert v["cpl"] == 1  # the 29-character line
    assert v["balance"] == 1  # 5 / 29 < 0.5
    assert v["min_gap"] == 2  # 40 ms = 1 frame < 2 frames; then an overlap
    netflix = load_profile("netflix-en")
    assert netflix.max_cps == 17 and netflix.min_gap_frames == 2
    assert load_profile("netflix-en-children").max_cps == 13
    with pytest.raises(SegagreeError):
        load_profile(tmp_path / "absent.toml")


def test_every_built_in_profile_cites_its_source():
    for name in ("netflix-en", "netflix-en-children", "ted", "bbc"):
        prof = load_profile(name)
        assert prof.source and prof.title and prof.name == name


def test_dialogue_dashes_count_as_written(tmp_path):
    src = tmp_path / "d.srt"
    src.write_text(
        "1\n00:00:01,000 --> 00:00:02,000\n-Hi there.\n-Hello.\n\n"
        "2\n00:00:03,000 --> 00:00:04,000\n- Yes.\n- <i>No.</i>\n",
        encoding="utf-8",
    )
    doc = read_document(src)
    res = check_document(doc, "ted")
    assert res["cues"] == 2
    from segagree.scoring.subtitles.style import checked_cues

    assert [c.lines for c in checked_cues(doc)] == [("-Hi there.", "-Hello."), ("- Yes.", "- No.")]
    assert res["violations"] == independent_counts(srt_cues(src))


def test_netflix_limits_at_millisecond_precision(tmp_path):
    """20 frames at 24 fps (5/6 s) is written 0.833 s and conforms; 0.832 s does not. A 2-frame gap
    (83.3 ms) is written 0.083 s and conforms; 0.082 s does not."""
    src = tmp_path / "n.srt"
    src.write_text(
        "1\n00:00:01,000 --> 00:00:01,833\nHi.\n\n2\n00:00:01,916 --> 00:00:02,748\nYo.\n\n"
        "3\n00:00:02,830 --> 00:00:04,000\nOkay then.\n",
        encoding="utf-8",
    )
    v = check_document(read_document(src), "netflix-en")["violations"]
    assert v["min_duration"] == 1  # cue 2: 0.832 s
    assert v["min_gap"] == 1  # cue 2 -> 3: 0.082 s
