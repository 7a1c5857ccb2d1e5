"""The subtitle measures under the measure contract: cards, registry, statistics that add across texts."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache

import pytest

from segagree.formats import read_document
from segagree.metrics.contract import Card
from segagree.metrics.registry import MEASURES, get_measure
from segagree.metrics.subtitles.measures import READING_SPEED, SubtitleResult
from segagree.metrics.subtitles.views import PairData
from segagree.model import Document
from segagree.scoring.subtitles.evaluation import SUBTITLE_METRICS, evaluate_corpus, pair_data, subtitle_side

from conftest import shared_path

SUBTITLE_MODULES = ("segagree.metrics.subtitles.measures", "segagree.metrics.subtitles.bleus")
NAMES = [n for n, mod in MEASURES.items() if mod in SUBTITLE_MODULES]


def test_every_subtitle_measure_is_registered_with_a_full_card() -> None:
    assert len(NAMES) == 26
    for name in NAMES:
        card = get_measure(name).card
        assert isinstance(card, Card) and card.name == name
        assert card.title and card.definition and card.citation, name
        assert (card.group, card.needs) == ("subtitles", "subtitles"), name
        assert card.better in ("higher", "lower"), name
    assert set(NAMES) <= set(SUBTITLE_METRICS)
    assert {get_measure(n).card.better for n in NAMES if n.startswith(("pk_", "windowdiff_"))} == {"lower"}


def test_reading_speed_card_directions_and_profile() -> None:
    card = READING_SPEED
    assert card.better == "lower"  # the value is the mean characters per second
    assert "conformity" in card.definition and "higher is better" in card.definition
    assert "TED" in card.citation and "Netflix" in card.citation
    assert dict(card.parameters)["max_cps"].startswith("21")


def _pairs(folder_name: str, files: tuple[tuple[str, str], ...], fmt: str | None = None):  # type: ignore[no-untyped-def]
    folder = shared_path("corpora", folder_name)
    return [(read_document(folder / r, fmt), read_document(folder / h, fmt)) for r, h in files]


# ([(reference, hypothesis) Documents], [their PairData])
TwoTexts = tuple[list[tuple[Document, Document]], list[PairData]]
POOLED = ["sigma", "bleu_br", "ter_br", "cpl_conformity", "f1_eob", "pk_eol", "b_eox", "windowdiff_eob"]


@pytest.fixture(scope="module")
def two_texts() -> TwoTexts:
    """Two real pairs read and projected once for the module: ([(ref, hyp) Documents], [PairData])."""
    docs = _pairs("subtitles_tagged", (("amara.fr", "cascade.fr"), ("amara.fr", "nmt.fr")), "tagged")
    return docs, [pair_data(subtitle_side(r), subtitle_side(h)) for r, h in docs]


@pytest.fixture(scope="module")
def pipeline_pooled(two_texts: TwoTexts) -> dict:
    """The pipeline's pooled values of :data:`POOLED` on the two pairs: one evaluate_corpus, which
    reads the Documents into its own PairData (the test's statistics do not reach it); the pooled
    score only (the per-file scores are not compared here)."""
    return evaluate_corpus(two_texts[0], POOLED, per_file=False)["pooled"]["metrics"]


@pytest.fixture(scope="module")
def first_pair_score(two_texts: TwoTexts) -> Callable[[str], SubtitleResult]:
    """A measure's score of the first pair alone (amara.fr, cascade.fr), computed once for the
    module: the pooling test and the oracle test both ask for it."""

    @cache
    def score(name: str) -> SubtitleResult:
        return get_measure(name).compute(two_texts[1][:1], {})

    return score


# The module's fixtures once, on one worker.
@pytest.mark.xdist_group("subtitle-measures")
@pytest.mark.parametrize("name", POOLED)
def test_statistics_add_to_the_pooled_value(
    name: str, two_texts: TwoTexts, pipeline_pooled: dict, first_pair_score: Callable[[str], SubtitleResult]
) -> None:
    """Two texts: add(statistics) then score = the pipeline's pooled value (summed statistics)."""
    items = two_texts[1]
    m = get_measure(name)
    res = m.score(m.add([m.statistics(i, {}) for i in items]), {})
    assert isinstance(res, SubtitleResult)
    pooled = pipeline_pooled[name]
    assert res.value == pytest.approx(pooled["value"], abs=0)
    single = first_pair_score(name).value
    assert single is not None and single != res.value  # pooling changes the number: it is not the first text's


@pytest.mark.xdist_group("subtitle-measures")
def test_public_oracle_through_the_contract(first_pair_score: Callable[[str], SubtitleResult]) -> None:
    """cascade.fr against amara.fr through the registry equals EvalSubtitle's and SubER's own numbers."""
    oracle = json.loads(shared_path("oracle", "subtitles_public.json").read_text(encoding="utf-8"))
    for name, expected in oracle["evalsubtitle_end2end"]["cascade.fr"].items():
        assert first_pair_score(name).value == pytest.approx(expected, rel=1e-9), name
    suber = first_pair_score("suber_metrics").to_dict()
    for name, expected in oracle["suber_plain"]["cascade.fr"].items():
        assert suber[name] == expected, name
