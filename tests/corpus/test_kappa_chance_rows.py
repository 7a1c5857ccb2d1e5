"""Every kappa in a run's summary has its chance baseline beside it: kappa = (S - E[S]) / (1 - E[S])."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import segagree

SAMPLE = Path(__file__).resolve().parents[2] / "sample_corpora"


def test_each_kappa_row_has_the_chance_similarity_it_corrects_for(tmp_path: Path) -> None:
    segagree.run(SAMPLE / "tables", tmp_path / "out", sims=50, workbooks=False, report=False)
    with (tmp_path / "out" / "summary.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    values = {(r["text"], r["speaker"], r["annotators"], r["measure"]): float(r["value"]) for r in rows if r["value"]}
    checked = 0
    for (text, speaker, pair, measure), kappa in values.items():
        if measure not in ("kappa_sf", "kappa_sf_b"):
            continue
        target = measure.removeprefix("kappa_")
        chance = values[(text, speaker, pair, f"{measure}_chance")]
        observed = values[(text, speaker, pair, target)]
        assert kappa == pytest.approx((observed - chance) / (1 - chance), abs=1e-9)
        checked += 1
    assert checked >= 2
