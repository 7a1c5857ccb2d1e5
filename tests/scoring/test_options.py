"""The options table (segagree.scoring.options): every option of agree, compare, review and run is
declared, and the API refuses measure parameters and keywords that do not apply."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

import segagree.api as api
from segagree.errors import UsageError
from segagree.scoring.options import ANY, OPTIONS, TIME, TOKEN, check_options, table_rows

from conftest import REPO

SAMPLE = REPO / "sample_corpora"
KIM, LEE = SAMPLE / "time" / "kim.TextGrid", SAMPLE / "time" / "lee.TextGrid"
COMMANDS = {"agree": "agree_cmd", "compare": "compare_cmd", "review": "review_cmd", "run": "run_cmd"}


def _flags(command: str) -> set[str]:
    import importlib

    cmd = getattr(importlib.import_module(f"segagree.cli.{COMMANDS[command]}"), command)
    return {next(o for o in p.opts if o.startswith("--")) for p in cmd.params if isinstance(p, click.Option)}


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_is_declared_and_every_declaration_is_an_option(command: str) -> None:
    """A new option without a line in OPTIONS fails here (declare where it applies)."""
    flags = _flags(command)
    assert flags - set(OPTIONS[command]) == set(), "options without a declaration in OPTIONS"
    assert set(OPTIONS[command]) - flags == set(), "declarations of options the command does not have"


# What the issue names, written out by hand (the table must say the same).
EXPECTED = {
    ("agree", "--sims"): (TOKEN,),
    ("agree", "--exact"): (TOKEN,),
    ("agree", "--chance"): (TOKEN,),
    ("agree", "--samples"): (TIME,),
    ("agree", "--tolerance"): (TIME,),
    ("agree", "--category"): (TIME,),
    ("agree", "--annotator-tier"): (TIME,),
    ("agree", "--continuum"): (TIME,),
    ("agree", "--rename"): (TOKEN, TIME),  # the annotation plan applies it with --time
    ("agree", "--speaker-from"): (TOKEN, TIME),
    ("agree", "--tier"): (TOKEN, TIME),
    ("run", "--backend"): (TOKEN, TIME),  # one run machinery for both tracks
    ("run", "--fresh"): (TOKEN, TIME),
    ("run", "--workbooks"): (TOKEN,),
    ("review", "--plot"): (TIME,),
    ("review", "--matches"): (TOKEN,),
    ("compare", "--tolerance"): (ANY,),
}


@pytest.mark.parametrize("key", EXPECTED)
def test_the_table_says_where_the_issue_s_options_apply(key: tuple[str, str]) -> None:
    command, flag = key
    assert OPTIONS[command][flag].tracks == EXPECTED[key]


def test_table_rows_name_every_option() -> None:
    rows = dict(table_rows("agree"))
    assert rows["--sims"] == "token; not with --exact" and rows["--tolerance"] == "time, measures taking tolerance"


def test_check_options_reads_values_not_only_flags() -> None:
    values = {"--exact": False, "--ci-speakers": False, "--dataset": None}
    check_options("agree", {"--sims": "--sims"}, values, track=TOKEN)  # applies
    with pytest.raises(UsageError, match="--sims does nothing with --exact"):
        check_options("agree", {"--sims": "--sims"}, {**values, "--exact": True}, track=TOKEN)
    check_options("agree", {"--n-boot": "--n-boot"}, {**values, "--dataset": "d.json"}, track="dataset")
    with pytest.raises(UsageError, match="is not declared"):
        check_options("agree", {"--no-such": "--no-such"}, values, track=TOKEN)


# --- the API's keywords -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call, named",
    [
        (lambda: api.agree_time([KIM, LEE], measures=["gamma"], params={"tolerance": 0.2}), "'tolerance'"),
        (lambda: api.agree_time([KIM, LEE], measures=["alpha_u"], params={"seed": 1, "jobs": 2}), "'seed'"),
        (lambda: api.agree_time([KIM, LEE], params={"tolernce": 0.2}), "'tolernce' is not a parameter"),
        (lambda: api.compare(KIM, KIM, metric_options={"tolerance": 0.2}), "'tolerance'"),
        (lambda: api.compare(KIM, KIM, metrics="all", metric_options={"max_cpl": 30}), "'max_cpl'"),
        (lambda: api.compare(KIM, KIM, metrics="pk", metric_options={"category": "none"}), "'category'"),
        (lambda: api.agree(KIM, KIM, exact=True, transpositions=False, mc_tolerance=0.01), "mc_tolerance"),
    ],
)
def test_the_api_refuses_keywords_that_do_not_apply(call, named: str) -> None:
    with pytest.raises(UsageError) as err:
        call()
    assert named in str(err.value)


def test_the_api_refuses_for_review_time_run_time_and_run(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="'min_overlap'.*gamma"):  # review shows gamma's alignment
        api.review_time([KIM, LEE], tmp_path / "r.xlsx", params={"min_overlap": 0.5})
    with pytest.raises(UsageError, match="'samples'"):
        api.run(SAMPLE / "time_run", tmp_path / "out", time=True, measures=["boundary_f1"], params={"samples": 3})
    with pytest.raises(UsageError, match="sims sets the simulated kappa, which is off"):
        api.run(SAMPLE / "tables", tmp_path / "out", kappa=False, sims=5)
    assert not (tmp_path / "out").exists() and not (tmp_path / "r.xlsx").exists()


def test_the_api_takes_what_applies(tmp_path: Path) -> None:
    res = api.agree_time([KIM, LEE], measures=["boundary_f1"], params={"tolerance": 0.5, "seed": None})
    assert res["parameters"] == {"tolerance": 0.5}
    out = api.compare(KIM, LEE, metrics="boundary_f1", metric_options={"tolerance": 0.5}, with_operations=False)
    assert out["metrics"]["boundary_f1"]["value"] == res["boundary_f1"]


def test_the_docs_name_every_option_that_does_not_apply_everywhere() -> None:
    import re

    text = (REPO / "docs" / "cli-guide.md").read_text(encoding="utf-8")
    section = text.split("## Options are checked, never ignored", 1)[1].split("\n## ", 1)[0]
    # an option the page of its task documents counts too
    section += "".join(page.read_text(encoding="utf-8") for page in sorted((REPO / "docs").glob("*.md")))
    for table in OPTIONS.values():
        for flag, rule in table.items():
            everywhere = ANY in rule.tracks or set(rule.tracks) == {TOKEN, TIME}
            if not everywhere or rule.parameter or rule.unless:
                assert re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", section), flag
