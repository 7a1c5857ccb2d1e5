"""The panel with gamma: every sub-panel's gamma equal to agree --time's on the same files, pooled as
the gamma measure pools summed statistics, and the panel's properties."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import segagree
from segagree.metrics.unitizing.gamma import GammaMeasure
from segagree.metrics.unitizing.gamma_panel import subset
from segagree.scoring.time.reading import read_annotator_files
from segagree.scoring.time.units import UnitReading

CORPUS = Path(__file__).resolve().parents[2] / "sample_corpora" / "time_panel"
FAST = {"n_boot": 50, "category": "none"}
# One worker: the tests read one panel of the corpus (the module's fixture), made once (three
# workers made it three times).
pytestmark = pytest.mark.xdist_group("gamma-panel")


def _gamma(text: str, names: list[str]) -> float:
    files = [CORPUS / f"{text}.{n}.TextGrid" for n in names]
    return segagree.agree_time(files, measures=["gamma"], params={"seed": 12345}, category="none")["gamma"]


@pytest.fixture(scope="module")
def result() -> dict:
    return segagree.panel(CORPUS, "vad", time=True, **FAST)


def test_every_items_panels_equal_agree_time_on_the_same_files(result: dict) -> None:
    for text in ("phone", "walk"):
        added = result["per_item"][text]["vad"]["added"]
        assert added["humans"] == pytest.approx(_gamma(text, ["ann", "kim", "lee"]), abs=1e-12)
        assert added["with_machine"] == pytest.approx(_gamma(text, ["ann", "kim", "lee", "vad"]), abs=1e-12)


def test_pooled_values_are_the_gamma_measures_score_of_summed_statistics(result: dict) -> None:
    how = UnitReading(category="none")
    items = [
        read_annotator_files({n: CORPUS / f"{t}.{n}.TextGrid" for n in ("ann", "kim", "lee", "vad")}, how)
        for t in ("phone", "walk")
    ]
    measure = GammaMeasure()

    def pooled(names: list[str]) -> float:
        stats = [measure.statistics(subset(u, names), {"seed": 12345}) for t in items for u in t.speakers.values()]
        return measure.score(measure.add(stats), {}).value

    seg = result["results"]["vad"]
    assert seg["added"]["humans"] == pytest.approx(pooled(["ann", "kim", "lee"]), abs=1e-12)
    assert seg["added"]["with_machine"] == pytest.approx(pooled(["ann", "kim", "lee", "vad"]), abs=1e-12)
    for human, value in seg["replaced"]["per_human"].items():
        others = sorted([*(h for h in ("ann", "kim", "lee") if h != human), "vad"])
        assert value == pytest.approx(pooled(others), abs=1e-12)
    assert seg["human_changes"]["per_human"]["kim"]["change"] == pytest.approx(
        pooled(["ann", "kim", "lee"]) - pooled(["ann", "lee"]), abs=1e-12
    )
    assert seg["added"]["interval"]["low"] <= seg["added"]["change"] <= seg["added"]["interval"]["high"]


def test_an_exact_copy_of_a_human_is_the_most_consistent(tmp_path: Path, result: dict) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    for text in ("phone", "walk"):
        (corpus / f"{text}.vad.TextGrid").unlink()
        shutil.copy(corpus / f"{text}.kim.TextGrid", corpus / f"{text}.copy.TextGrid")
    out = segagree.panel(corpus, "copy", time=True, **FAST)["results"]["copy"]
    assert out["consistency"]["rank"] == 1
    machine = result["results"]["vad"]  # the machine's panel of the corpus, as the fixture made it
    assert machine["consistency"]["rank"] == machine["consistency"]["of"]


def test_the_same_seed_gives_the_same_numbers(result: dict) -> None:
    again = segagree.panel(CORPUS, "vad", time=True, **FAST)
    assert json.dumps(again["results"], sort_keys=True) == json.dumps(result["results"], sort_keys=True)


def test_token_options_are_refused_with_time() -> None:
    with pytest.raises(segagree.UsageError, match="coefficient is gamma"):
        segagree.panel(CORPUS, "vad", time=True, coefficient="kappa")
    with pytest.raises(segagree.UsageError, match="params are gamma's"):
        segagree.panel(CORPUS, "vad", params={"samples": 10})
