"""``run(metrics=...)``: the named measures are computed, S and B on every text as well as on
subtitle texts (where they are also EvalSubtitle's measures over both break types)."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

from segagree.api.run_corpus import run_corpus
from segagree.corpus.config import RunConfig
from segagree.corpus.run_settings import choose_metrics

from conftest import REPO

SAMPLE = REPO / "sample_corpora"


def test_b_and_s_are_chosen_for_ordinary_texts_too() -> None:
    config = RunConfig()
    choose_metrics(config, "b,s,windowdiff,t_bleu")
    assert config.metrics == ["sf", "sf_b", "b", "s", "windowdiff"]
    assert config.subtitle_metrics == ["b", "s", "t_bleu"]


def test_run_metric_b_gives_b_rows(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for ann in ("ann1", "ann2"):
        shutil.copy(SAMPLE / f"garden.{ann}.txt", corpus / f"garden.{ann}.txt")
    config = RunConfig()
    config.kappa.enabled = False
    choose_metrics(config, ["b", "pk"])
    run_corpus(corpus, tmp_path / "out", config, workbooks=False, report=False)
    with (tmp_path / "out" / "summary.csv").open(encoding="utf-8") as fh:
        measures = {row["measure"] for row in csv.DictReader(fh)}
    assert {"b", "pk", "sf", "sf_b"} <= measures
