"""The length baseline against EvalSubtitle's published "every 42 characters" row for amara.en
(Karakanta, Buet, Cettolo & Yvon 2022, LREC): Pk 0.353, WindowDiff 0.387, BLEU_br 63.81, TER_br 12.59."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from segagree.formats import read_document
from segagree.scoring.subtitles.breaks import subtitle_breaks
from segagree.scoring.subtitles.evaluation import evaluate_pair
from segagree.subtitle_tools.baseline import length_breaks, segment_document

from conftest import shared_path

PUBLISHED = {"pk_eox": 0.353, "windowdiff_eox": 0.387, "bleu_br": 63.81, "ter_br": 12.59}
# TER_br lands 0.74 below the published value (see README, "segment"); the margin says so.
MARGIN = {"pk_eox": 0.01, "windowdiff_eox": 0.01, "bleu_br": 0.5, "ter_br": 1.0}

# The module fixture is computed once: every test of this module runs on one worker.
pytestmark = pytest.mark.xdist_group("length-baseline")


@pytest.fixture(scope="module")
def amara_scores() -> dict:
    ref = read_document(shared_path("corpora", "subtitles_tagged", "amara.en"), "tagged")
    hyp = segment_document(ref, max_cpl=42, max_lines=2).document
    res = evaluate_pair(ref, hyp, list(PUBLISHED), {"use_source_files": False})
    return {m: r["value"] for m, r in res["metrics"].items()}


@pytest.mark.parametrize("metric", list(PUBLISHED))
def test_lands_on_the_published_row(amara_scores, metric):
    assert amara_scores[metric] == pytest.approx(PUBLISHED[metric], abs=MARGIN[metric])


def test_lines_fill_up_to_the_limit_and_blocks_end_at_sentences():
    ref = read_document(shared_path("corpora", "subtitles_tagged", "amara.en"), "tagged")
    res = segment_document(ref, max_cpl=42, max_lines=2)
    b = subtitle_breaks(res.document)
    words = res.document.column("text").astype(str).tolist()
    line: list[str] = []
    lines_in_block = 0
    for i, w in enumerate(words):
        line.append(w)
        if b.codes[i]:
            text = " ".join(line)
            # within the limit unless one word alone is longer; and the next word would not have fitted
            assert len(text) <= 42 or len(line) == 1
            if not b.sentence_ends[i] and i + 1 < len(words):
                assert len(text) + 1 + len(words[i + 1]) > 42
            lines_in_block += 1
            assert lines_in_block <= 2
            if b.codes[i] == b.eob:
                lines_in_block = 0
            line = []
    assert np.all(b.codes[b.sentence_ends] == b.eob)
    assert res.document.column("text").tolist() == ref.column("text").tolist()


def test_brute_force_on_a_small_text():
    """Greedy filling equals the layout found by trying every break position in order."""
    from segagree.model import builtin_scheme, from_units

    words = ["aaaa", "bb", "c", "dddddd", "ee", "f", "gggg."]
    doc = from_units(
        "x", [{"speaker": "S", "tokens": words, "boundary": 1}], layer="subtitle", scheme=builtin_scheme("subtitle")
    )
    b = subtitle_breaks(doc)
    codes = length_breaks(words, b, max_cpl=9, max_lines=2)
    # by hand: "aaaa bb c" (9) | "dddddd ee" (9) | "f gggg." -> eol, eob, eob
    assert codes.tolist() == [0, 0, 2, 0, 1, 0, 1]


def test_srt_round_trip_keeps_words_and_cue_span(tmp_path):
    from segagree.formats import write_document

    src = Path(__file__).parents[2] / "sample_corpora" / "film.ref.srt"
    doc = read_document(src)
    res = segment_document(doc, max_cpl=20, max_lines=1)
    out = tmp_path / "len.srt"
    write_document(res.document, out)
    back = read_document(out)
    assert back.column("text").tolist() == doc.column("text").tolist()
    b = subtitle_breaks(back)
    assert np.all(b.codes[b.codes > 0] == b.eob)  # one line per block
    starts, ends = back.column("start"), back.column("end")
    assert np.nanmin(starts) == doc.column("start")[0] and np.nanmax(ends) == np.nanmax(doc.column("end"))
    words = back.column("text").astype(str).tolist()
    line: list[str] = []
    for i, w in enumerate(words):
        line.append(w)
        if b.codes[i]:
            assert len(" ".join(line)) <= 20 or len(line) == 1
            line = []
