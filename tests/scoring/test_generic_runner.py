"""The generic measure runner: inputs by Card.needs, per speaker, pooled from summed statistics."""

from __future__ import annotations

import numpy as np
import pytest

from segagree.errors import UsageError
from segagree.formats import read_document
from segagree.metrics import registry
from segagree.metrics.boundary.stats import pooled
from segagree.metrics.boundary.windows import windowdiff
from segagree.metrics.contract import Card, Measure, TokenPair
from segagree.scoring import metric_runner
from segagree.scoring.tokens.compare import compare_documents
from segagree.scoring.tokens.pairing import pair_annotations

from conftest import REPO

SAMPLE = REPO / "sample_corpora"


@pytest.fixture(scope="module")
def pair():
    return pair_annotations(read_document(SAMPLE / "garden.ann1.txt"), read_document(SAMPLE / "garden.ann2.txt"))


def test_groups_come_from_the_cards():
    groups = metric_runner.groups()
    cards = registry.cards()
    assert set(groups["agreement"]) == {n for n, c in cards.items() if c.group == "agreement"}
    assert groups["all"] == groups["boundary"] == tuple(n for n, c in cards.items() if c.group == "boundary")
    assert metric_runner.resolve_metric_names("agreement,pk") == [*groups["agreement"], "pk"]
    with pytest.raises(UsageError, match="unknown metric 'nope'"):
        metric_runner.resolve_metric_names("nope")


def test_a_speaker_the_measure_cannot_score_is_skipped_and_left_out_of_the_pool(pair):
    one = pair_annotations(read_document(SAMPLE / "garden.ann1.txt"), read_document(SAMPLE / "garden.ann2.txt"))
    s0 = one.speakers[0]
    one.arrays_a[s0], one.arrays_b[s0] = np.array([1]), np.array([1])  # one token: no window
    out = metric_runner.run_measure(registry.get_measure("windowdiff"), one, {"k": 2})
    assert out["per_speaker"][s0] is None and "k" in out["skipped"][s0]
    rest = [windowdiff(one.arrays_a[s], one.arrays_b[s], k=2, fmt="codes") for s in one.speakers[1:]]
    assert out["value"] == pytest.approx(pooled(rest).value)
    assert out["params"]["k"] == dict.fromkeys(one.speakers[1:], 2)


def test_agreement_measures_run_on_the_whole_text(pair):
    out = metric_runner.run_measure(registry.get_measure("kappa_sf"), pair, {"sims": 30, "seed": 3})
    from segagree.metrics.chance.sf_kappa import sf_kappa

    ref = sf_kappa(pair.arrays_a, pair.arrays_b, pair.scheme, sims=30, seed=3)
    assert out["value"] == pytest.approx(ref.pooled["sf"].kappa)
    assert set(out["per_speaker"]) == set(pair.speakers)
    multi = compare_documents(pair.a, pair.b, metrics=["fleiss_pi", "bias"])["metrics"]
    assert -1 <= multi["fleiss_pi"]["value"] <= 1 and multi["bias"]["value"] >= -1e-12


class _Times(Measure[object, int, object]):
    card = Card.from_text(
        """
        title: needs times
        definition: nothing
        citation: none
        """,
        name="needs_times_probe",
        needs="times",
    )

    def statistics(self, item, params):
        return 0

    def score(self, stats, params):
        raise AssertionError("never reached")


def test_an_input_kind_without_a_builder_is_a_clear_error(pair, monkeypatch):
    monkeypatch.delitem(metric_runner.INPUTS, "times", raising=False)
    with pytest.raises(UsageError, match="needs 'times' input"):
        metric_runner.run_measure(_Times(), pair, {})


def test_a_registered_input_builder_is_used(pair, monkeypatch):
    seen = []

    class Count(_Times):
        def score(self, stats, params):
            return TokenCount(stats)

    class TokenCount:
        def __init__(self, n):
            self.value = float(n)

        def to_dict(self):
            return {"value": self.value}

    def units(p, options):
        seen.append(p)
        return {metric_runner.WHOLE: sum(len(a) for a in p.arrays_a.values())}

    Count.statistics = lambda self, item, params: item  # type: ignore[method-assign]
    monkeypatch.setitem(metric_runner.INPUTS, "times", units)
    out = metric_runner.run_measure(Count(), pair, {})
    assert seen == [pair] and out["value"] == sum(len(a) for a in pair.arrays_a.values())


def test_token_items_carry_gap_sets_with_several_layers(pair):
    items = metric_runner.token_items(pair, {})
    assert all(isinstance(i, TokenPair) and i.sets_a is None for i in items.values())


def test_card_from_text_refuses_what_is_not_a_card():
    with pytest.raises(ValueError, match="not 'field: value'"):
        Card.from_text("title: x\ncolour: red\n", name="x", definition="d", citation="c")
    with pytest.raises(ValueError, match="not 'name = default'"):
        Card.from_text("title: x\nparameters:\n    k: 3\n", name="x", definition="d", citation="c")
    with pytest.raises(ValueError, match="required"):
        Card.from_text("title: x\n", name="x")
    card = Card.from_text("title: x\ndefinition: a\n  b\nparameters:\n  k = 3\n", name="x", citation="c")
    assert card.definition == "a b" and dict(card.parameters) == {"k": "3"}
