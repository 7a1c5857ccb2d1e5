"""Options are checked, never ignored: an option that does not apply to the chosen track (token or
--time) or measures exits 2 naming it; defaults and segagree.toml settings are not refused; and
``compare --metric gamma`` (any time measure) gives ``agree --time``'s value."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from conftest import REPO

SAMPLE = REPO / "sample_corpora"
TIME = SAMPLE / "time"
KIM, LEE = str(TIME / "kim.TextGrid"), str(TIME / "lee.TextGrid")
A1, A2 = str(SAMPLE / "garden.ann1.txt"), str(SAMPLE / "garden.ann2.txt")


def invoke(*args: str) -> object:
    from segagree.cli import app

    return CliRunner().invoke(app, [str(a) for a in args])


def _error_line(res: object) -> str:
    lines = [ln for ln in res.output.splitlines() if ln.startswith("Error:")]  # type: ignore[attr-defined]
    assert len(lines) == 1, res.output  # type: ignore[attr-defined]
    return lines[0]


@pytest.mark.parametrize(
    "args, named, says",
    [
        # the issue's example: four options silently ignored by agree --time
        (("agree", "--time", KIM, LEE, "--sims", "5"), "--sims", "--samples"),
        (("agree", "--time", KIM, LEE, "--exact"), "--exact", "with --time"),
        (("agree", "--time", KIM, LEE, "--chance", "scott"), "--chance", "--sampler"),
        (("agree", "--time", KIM, LEE, "--no-transpositions"), "--no-transpositions", "with --time"),
        (("agree", "--time", KIM, LEE, "--ci-speakers"), "--ci-speakers", "token segmentations"),
        # time-only options without --time
        (("agree", A1, A2, "--samples", "5"), "--samples", "without --time"),
        (("agree", A1, A2, "--tolerance", "0.2"), "--tolerance", "without --time"),
        (("agree", A1, A2, "--category", "none"), "--category", "units in time"),
        (("agree", A1, A2, "--annotator-tier", "kim"), "--annotator-tier", "units in time"),
        (("agree", A1, A2, "--continuum", "0,5"), "--continuum", "units in time"),
        # options that do nothing with another one
        (("agree", A1, A2, "--exact", "--no-transpositions", "--sims", "5"), "--sims", "--exact"),
        (("agree", A1, A2, "--n-boot", "50"), "--n-boot", "--ci-speakers"),
        (("agree", A1, A2, "--max-mismatch", "0.3"), "--max-mismatch", "--align"),
        # a measure's parameter without that measure
        (("agree", "--time", KIM, LEE, "--measure", "gamma", "--tolerance", "0.2"), "--tolerance", "boundary_f1"),
        (("compare", A1, A2, "--tolerance", "0.2"), "--tolerance", "--metric"),
        (("compare", A1, A2, "--metric", "all", "--samples", "3"), "--samples", "gamma"),
        (("compare", A1, A2, "--metric", "all", "--language", "zh"), "--language", "suber_metrics"),
        (("compare", A1, A2, "--max-cpl", "30"), "--max-cpl", "cpl_conformity"),
        (("compare", A1, A2, "--category", "none"), "--category", "time measures"),
        # review
        (("review", KIM, LEE, "--time", "-o", "r.xlsx", "--matches"), "--matches", "with --time"),
        (("review", KIM, LEE, "--time", "-o", "r.xlsx", "--no-kappa"), "--no-kappa", "with --time"),
        (("review", A1, A2, "-o", "r.xlsx", "--plot", "p.png"), "--plot", "without --time"),
        (("review", KIM, LEE, "--time", "-o", "r.xlsx", "--min-overlap", "0.5"), "--min-overlap", "elan_kappa"),
        (("review", A1, A2, "-o", "r.xlsx", "--no-kappa", "--sims", "5"), "--sims", "--no-kappa"),
        # run
        (("run", SAMPLE / "time_run", "-o", "out", "--time", "--workbooks"), "--workbooks", "with --time"),
        (("run", SAMPLE / "time_run", "-o", "out", "--time", "--reference", "kim"), "--reference", "with --time"),
        (("run", SAMPLE / "tables", "-o", "out", "--samples", "4"), "--samples", "without --time"),
        (("run", SAMPLE / "time_run", "-o", "out", "--time", "--measure", "alpha_u", "--seed", "1"), "--seed", "gamma"),
    ],
)
def test_an_inapplicable_option_exits_2_naming_it(
    args: tuple, named: str, says: str, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    res = invoke(*args)
    assert res.exit_code == 2, res.output
    line = _error_line(res)
    assert named in line and says in line, line
    assert not list(tmp_path.iterdir()), "nothing is written before the options are checked"


def test_the_four_options_of_the_issue_are_named_at_once() -> None:
    res = invoke("agree", "--time", KIM, LEE, "--sims", "5", "--exact", "--chance", "scott")
    assert res.exit_code == 2
    line = _error_line(res)
    assert all(flag in line for flag in ("--sims", "--exact", "--chance")), line


def test_defaults_and_options_that_apply_pass(tmp_path: Path) -> None:
    # Defaults typed by nobody are not "given": a plain --time run passes, as do options that apply.
    assert invoke("agree", "--time", KIM, LEE, "--json").exit_code == 0
    chosen = ("--measure", "boundary_f1", "--measure", "gamma")
    res = invoke("agree", "--time", KIM, LEE, *chosen, "--tolerance", "0.3", "--seed", "2", "--samples", "5", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["parameters"] == {"tolerance": 0.3, "seed": 2, "samples": 5}
    res = invoke("agree", A1, A2, "--exact", "--no-transpositions", "--json")
    assert res.exit_code == 0, res.output
    res = invoke("agree", A1, A2, "--sims", "20", "--ci-speakers", "--n-boot", "30", "--align", "--max-mismatch", "0.3")
    assert res.exit_code == 0, res.output
    res = invoke("compare", A1, A2, "--metric", "pk,gamma", "--json")  # gamma on untimed text: an input error
    assert res.exit_code == 1 and "start" in str(res.exception)


def test_segagree_toml_settings_are_not_refused(tmp_path: Path) -> None:
    """Settings of segagree.toml are not command-line options: a run --time beside them is not refused for
    them, and a token run reads them."""
    corpus = tmp_path / "c"
    shutil.copytree(SAMPLE / "time_run", corpus)
    (corpus / "segagree.toml").write_text("[kappa]\nsims = 7\nseed = 3\n", encoding="utf-8")
    res = invoke("run", corpus, "-o", tmp_path / "out", "--time", "--measure", "alpha_u", "--quiet")
    assert res.exit_code == 0, res.output
    tokens = tmp_path / "t"
    shutil.copytree(SAMPLE / "tables", tokens)
    (tokens / "segagree.toml").write_text("[kappa]\nsims = 7\nseed = 3\n", encoding="utf-8")
    res = invoke("run", tokens, "-o", tmp_path / "out2", "--no-report", "--quiet", "--json")
    assert res.exit_code == 0, res.output


# --- compare --metric gamma == agree --time -------------------------------------------------------------
def _textgrid(path: Path, tiers: dict[str, list[tuple[float, float, str]]], end: float) -> Path:
    """A Praat TextGrid (long text format): one interval tier per speaker, gaps between the units."""
    out = ['File type = "ooTextFile"', 'Object class = "TextGrid"', "", "xmin = 0", f"xmax = {end}"]
    out += ["tiers? <exists>", f"size = {len(tiers)}", "item []:"]
    for i, (name, units) in enumerate(tiers.items(), start=1):
        cells, t = [], 0.0
        for start, stop, label in sorted(units):
            if start > t:
                cells.append((t, start, ""))
            cells.append((start, stop, label))
            t = stop
        if t < end:
            cells.append((t, end, ""))
        out += [f"    item [{i}]:", '        class = "IntervalTier"', f'        name = "{name}"']
        out += ["        xmin = 0", f"        xmax = {end}", f"        intervals: size = {len(cells)}"]
        for j, (a, b, text) in enumerate(cells, start=1):
            out += [f"        intervals [{j}]:", f"            xmin = {a}", f"            xmax = {b}"]
            out += [f'            text = "{text}"']
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def _units(rng: np.random.Generator, n: int) -> list[tuple[float, float, str]]:
    """n units without overlap, labelled from three categories."""
    cuts = np.sort(rng.choice(np.arange(1, 4 * n), size=2 * n, replace=False)).astype(float) / 2
    return [(cuts[2 * i], cuts[2 * i + 1], str(rng.choice(["yes", "no", "maybe"]))) for i in range(n)]


def _both(a: Path | str, b: Path | str, *extra: str) -> tuple[dict, dict]:
    agree = invoke("agree", "--time", a, b, "--json", *extra)
    assert agree.exit_code == 0, agree.output
    compare = invoke("compare", a, b, "--metric", "time", "--json", *extra)
    assert compare.exit_code == 0, compare.output
    return json.loads(agree.output), json.loads(compare.output)


@pytest.mark.parametrize(
    "pair",
    [(KIM, LEE), (SAMPLE / "time_run" / "talk2.kim.TextGrid", SAMPLE / "time_run" / "talk2.lee.TextGrid")],
)
def test_compare_time_measures_equal_agree_time_on_sample_files(pair: tuple) -> None:
    agreed, compared = _both(*pair, "--seed", "7")
    assert "gamma" in compared["metrics"] and compared["sf"] is None and compared["sf_not_applicable"]
    for name, res in agreed["measures"].items():
        assert compared["metrics"][name]["value"] == res["pooled"]["value"], name
    # the default seed is the measures' own in both
    agreed, compared = _both(*pair)
    assert compared["metrics"]["gamma"]["value"] == agreed["gamma"]


def test_compare_time_measures_equal_agree_time_per_speaker(tmp_path: Path) -> None:
    """Two generated annotations with two speakers each: per speaker and pooled over speakers alike."""
    rng = np.random.default_rng(5)
    files = [
        _textgrid(tmp_path / f"{who}.TextGrid", {"ROSA": _units(rng, 9), "BEN": _units(rng, 7)}, 40.0)
        for who in ("kim", "lee")
    ]
    agreed, compared = _both(*files, "--seed", "3", "--samples", "12")
    assert set(agreed["speakers"]) == {"ROSA", "BEN"}
    for name, res in agreed["measures"].items():
        mine = compared["metrics"][name]
        assert mine["value"] == res["pooled"]["value"], name
        assert set(mine["per_speaker"]) == {"ROSA", "BEN"}, name
        for speaker, value in mine["per_speaker"].items():
            assert value == res["speakers"][speaker]["value"], (name, speaker)
    # a parameter reaches the measure: a looser tolerance scores boundary F1 at least as high
    loose = invoke("compare", *files, "--metric", "boundary_f1", "--tolerance", "3", "--json")
    assert json.loads(loose.output)["metrics"]["boundary_f1"]["value"] >= compared["metrics"]["boundary_f1"]["value"]


def test_compare_metric_all_keeps_its_meaning() -> None:
    res = invoke("compare", A1, A2, "--metric", "all", "--json")
    assert res.exit_code == 0, res.output
    from segagree.metrics.registry import group_names

    assert list(json.loads(res.output)["metrics"]) == [m for m in group_names("boundary") if m not in ("sf", "sf_b")]
