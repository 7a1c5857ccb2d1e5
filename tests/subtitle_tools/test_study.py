"""segagree study on a small self-written SRT: the csv's columns, operations and metrics, B falling
as more breaks are shifted, plots written, systems placed."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from segagree.formats import read_document
from segagree.outputs.study_report import write_study
from segagree.subtitle_tools.study import GRID_OPERATIONS, better_direction, run_study

SAMPLES = Path(__file__).parents[2] / "sample_corpora"

# The module fixture is computed once: every test of this module runs on one worker.
pytestmark = pytest.mark.xdist_group("study")


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> tuple[Path, dict]:
    ref = read_document(SAMPLES / "film.ref.srt")
    hyp = read_document(SAMPLES / "film.mt.srt")
    res = run_study(ref, [hyp], ps=(0, 0.5, 1.0), seeds=(1, 2))
    out = tmp_path_factory.mktemp("study")
    return out, {"paths": write_study(res, out), "result": res}


def test_csv_has_the_named_columns_operations_and_metrics(written):
    out, _ = written
    with open(out / "study.csv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0])[:6] == ["operation", "n", "p", "seed", "metric", "value"]
    grid = [r for r in rows if r["operation"] != "system"]
    assert {r["operation"] for r in grid} == {"shift", "insert", "delete", "retype"}
    assert {int(r["n"]) for r in grid if r["operation"] == "shift"} == {1, 2, 3}
    metrics = {r["metric"] for r in grid}
    assert {"b", "s", "pk_eox", "windowdiff_eox", "f1_eox", "ter_br"} <= metrics
    assert any(m.startswith("suber:") for m in metrics)
    assert len(grid) == len({(r["operation"], r["n"], r["p"], r["seed"], r["metric"]) for r in grid})
    assert any(r["operation"] == "system" and r["system"] == "film.mt" for r in rows)


def test_b_falls_as_more_breaks_are_shifted(written):
    _, got = written
    rows = got["result"].rows
    for n in (1, 2, 3):
        mean = {}
        for p in (0.0, 0.5, 1.0):
            vals = [
                r["value"]
                for r in rows
                if r["metric"] == "b" and r["operation"] == "shift" and r["n"] == n and r["p"] == p
            ]
            mean[p] = sum(vals) / len(vals)
        assert mean[0.0] == pytest.approx(1.0)
        assert mean[0.0] > mean[0.5] > mean[1.0]
    curve = got["result"].analysis["curves"]["b"]["shift-2"]
    assert curve["spearman"] < -0.8 and curve["slope"] < 0


def test_sentence_metrics_apply_at_every_grid_point_of_an_srt_reference(written):
    _, got = written
    curves = got["result"].analysis["curves"]
    for metric in ("bleu_br", "ter_br", "sigma"):
        assert set(curves[metric]) == {"shift-1", "shift-2", "shift-3", "insert", "delete", "retype"}
        assert all(c["slope"] < 0 for c in curves[metric].values())


def test_normalised_values_are_one_at_identity_and_in_range(written):
    _, got = written
    # Style descriptions of the hypothesis alone (no reference) may improve when breaks change.
    alone = {"reading_speed", "lines_per_block", "cpl_conformity"}
    for r in got["result"].rows:
        if r["p"] == 0.0:
            assert r["normalised"] == pytest.approx(1.0)
        if r["metric"] not in alone and r["better"] != "none":
            assert -1e-9 <= r["normalised"] <= 1 + 1e-9, r


def test_plots_and_page_are_written(written):
    out, got = written
    pngs = sorted((out / "plots").glob("*.png"))
    assert len(pngs) >= 6 + 4
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
    page = (out / "study.html").read_text(encoding="utf-8")
    assert "Monotonicity" in page and "BLEU-br" in page and "film.mt" in page
    ranking = got["result"].analysis["sensitivity_ranking"]["delete"]
    slopes = [x[1] for x in ranking]
    assert slopes == sorted(slopes) and "steepest first" in page


def test_directions():
    assert better_direction("pk_eox") == "lower"
    assert better_direction("suber:TER-br") == "lower"
    assert better_direction("suber:BLEU") == "higher"
    assert better_direction("b") == "higher"
    assert len(GRID_OPERATIONS) == 6


def test_saturation_from_hand_made_curves():
    from segagree.subtitle_tools.study import _curve_stats

    def pts(means):
        return [{"p": p, "normalised": m} for p, m in zip((0.0, 0.25, 0.5, 0.75, 1.0), means, strict=True)]

    flat_end = _curve_stats(pts([1.0, 0.5, 0.21, 0.2, 0.2]))
    assert flat_end["saturates_at"] == 0.5 and flat_end["monotone_share"] == 1.0
    linear = _curve_stats(pts([1.0, 0.75, 0.5, 0.25, 0.0]))
    assert linear["saturates_at"] is None and linear["moves"] and linear["slope"] == pytest.approx(-1.0)
    assert linear["spearman"] == pytest.approx(-1.0) and linear["r2"] == pytest.approx(1.0)
    still = _curve_stats(pts([1.0, 1.0, 1.0, 1.0, 1.0]))
    assert still["saturates_at"] is None and not still["moves"] and still["spearman"] is None
    bumpy = _curve_stats(pts([1.0, 0.4, 0.6, 0.2, 0.0]))
    assert bumpy["monotone_share"] == 0.75
