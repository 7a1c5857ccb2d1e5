"""Every metric card says how to read its number (range, reading, reference link) and its worked
example gives the value the card shows, run in a copy of the sample corpora."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import segagree
from segagree.metrics.guides import GUIDES, shown

from conftest import REPO

CARDS = segagree.metric_cards()
WITH_EXAMPLE = sorted(name for name, card in CARDS.items() if card.example)
# The official scorers of treebanks and discourse corpora read CoNLL-U, DISRPT and RST-DT files, which
# the sample corpora (a tour of transcripts, tables, subtitles and timed annotations) do not hold.
NO_SAMPLE_INPUT = {"ud_sentences", "disrpt_seg", "edus_seg"}


def test_every_card_says_how_to_read_its_number() -> None:
    lacking = {
        name: [f for f in ("range", "reading", "link") if not getattr(card, f)]
        for name, card in CARDS.items()
        if not (card.range and card.reading and card.link.startswith("https://"))
    }
    assert not lacking
    assert set(CARDS) - set(WITH_EXAMPLE) <= NO_SAMPLE_INPUT
    assert set(GUIDES) <= set(CARDS), "a guide for a measure the registry does not have"


def test_agreement_cards_name_their_chance_level() -> None:
    # every coefficient of the two agreement groups is chance-corrected, but for the bias and the two
    # time measures pyannote reports without a chance model
    descriptive = {"bias", "boundary_f1", "purity_coverage"}
    chance_corrected = [n for n, c in CARDS.items() if c.group in ("agreement", "time") and n not in descriptive]
    assert len(chance_corrected) >= 12
    assert [n for n in chance_corrected if not CARDS[n].chance] == []


def test_a_cards_own_field_wins_over_the_guide() -> None:
    card = segagree.api.metric_cards()["pk"]
    assert card.formula.startswith(r"P_k")  # from the guide
    module_card = __import__("segagree.metrics.boundary.windows", fromlist=["PK_CARD"]).PK_CARD
    assert module_card.formula == ""  # the module leaves it to the guide


@pytest.fixture(scope="module")
def in_samples(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    copy = tmp_path_factory.mktemp("cards") / "samples"
    shutil.copytree(REPO / "sample_corpora", copy, ignore=shutil.ignore_patterns("tools"))
    before = Path.cwd()
    os.chdir(copy)
    try:
        yield copy
    finally:
        os.chdir(before)


@pytest.mark.parametrize("name", WITH_EXAMPLE)
def test_the_worked_example_gives_the_value_on_the_card(name: str, in_samples: Path) -> None:
    expression, _, value = CARDS[name].example.partition(" -> ")
    assert shown(eval(expression, {"segagree": segagree})) == value.strip()
