"""Results logs written before the package took its present layout name statistics classes by
their former modules; they still decode to the same classes."""

from __future__ import annotations

from segagree.metrics.boundary.stats import SimilarityStats
from segagree.scoring.stats_codec import decode, encode


def test_a_former_module_name_decodes_to_the_class_now_in_its_place() -> None:
    encoded = encode(SimilarityStats(metric="B", edits=1.5, denominator=4, matches=2))
    assert encoded["cls"] == "segagree.metrics.boundary.stats:SimilarityStats"
    former = {**encoded, "cls": "segagree.metrics.stats:SimilarityStats"}
    assert decode(former) == decode(encoded)


def test_a_name_outside_the_metrics_is_still_refused() -> None:
    import pytest

    encoded = encode(SimilarityStats(metric="B", edits=1.5, denominator=4, matches=2))
    with pytest.raises(ValueError, match="not a class of segagree.metrics"):
        decode({**encoded, "cls": "segagree.outputs.report:Anything"})
