"""``segagree panel``: the table, the JSON keys, the outputs, and clear errors."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from cli_process import run_cli

PANEL = Path(__file__).resolve().parents[2] / "sample_corpora" / "panel"
FAST = ["--n-boot", "50", "--n-perm", "10"]


def test_json_has_every_documented_key_for_each_machine() -> None:
    proc = run_cli(["panel", PANEL, "--machine", "seg", "--json", *FAST])
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert {"measure", "coefficient", "humans", "machines", "results"} <= set(out)
    seg = out["results"]["seg"]
    assert {"added", "replaced", "consistency", "human_changes", "chance", "verdict"} <= set(seg)
    assert {"humans", "with_machine", "change", "interval"} <= set(seg["added"])
    assert {"mean", "change", "per_human"} <= set(seg["replaced"])
    assert {"machine", "humans", "rank", "of"} <= set(seg["consistency"])
    assert seg["added"]["change"] == seg["added"]["with_machine"] - seg["added"]["humans"]


def test_the_same_seed_gives_the_same_numbers_and_another_seed_other_intervals() -> None:
    args = ["panel", PANEL, "--machine", "seg", "--json", *FAST, "--seed"]
    runs = [json.loads(run_cli([*args, seed]).stdout) for seed in "117"]
    assert runs[0]["results"] == runs[1]["results"]
    assert runs[0]["results"]["seg"]["added"]["interval"] != runs[2]["results"]["seg"]["added"]["interval"]


def test_the_table_shows_the_verdict_in_words() -> None:
    proc = run_cli(["panel", PANEL, "--machine", "seg", *FAST])
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"seg: (below|within|above) the human range: rank \d of 4", proc.stdout), proc.stdout


def test_outputs_are_the_summary_schema_and_a_page_that_runs_nothing(tmp_path: Path) -> None:
    proc = run_cli(["panel", PANEL, "--machine", "seg", "-o", tmp_path / "out", *FAST])
    assert proc.returncode == 0, proc.stderr
    with (tmp_path / "out" / "panel.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0])[:6] == ["text", "speaker", "annotators", "measure", "value", "note"]
    texts = {r["text"] for r in rows}
    assert {"ALL", "garden", "kitchen", "market", "train"} <= texts
    page = (tmp_path / "out" / "panel.html").read_text(encoding="utf-8")
    assert "Content-Security-Policy" in page and "<script" not in page.lower()
    assert "<svg" in page and "seg" in page
    assert json.loads((tmp_path / "out" / "panel.json").read_text(encoding="utf-8"))["machines"] == ["seg"]


def test_bad_input_is_a_clear_error_without_traceback(tmp_path: Path) -> None:
    unknown = run_cli(["panel", PANEL, "--machine", "robot", *FAST])
    assert unknown.returncode == 2 and "robot" in unknown.stderr and "Traceback" not in unknown.stderr
    one = run_cli(["panel", PANEL, "--machine", "seg", "--humans", "ann1", *FAST])
    assert one.returncode == 2 and "two or more humans" in one.stderr
    none = run_cli(["panel", PANEL, *FAST])
    assert none.returncode == 2 and "--machine" in none.stderr
    both = run_cli(["panel", PANEL, "--dataset", PANEL / "garden.ann1.txt", "--machine", "seg"])
    assert both.returncode == 2 and "not both" in both.stderr


TIME = Path(__file__).resolve().parents[2] / "sample_corpora" / "time_panel"


def test_time_panels_use_gamma_and_refuse_token_options(tmp_path: Path) -> None:
    proc = run_cli(["panel", TIME, "--machine", "vad", "--time", "--category", "none", "--n-boot", "50", "--json"])
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["measure"] == out["coefficient"] == "gamma" and out["results"]["vad"]["chance"]["mean"] == 0.0
    for bad in (["--coefficient", "kappa"], ["--measure", "s"], ["--n-perm", "5"]):
        refused = run_cli(["panel", TIME, "--machine", "vad", "--time", *bad])
        assert refused.returncode == 2 and "--time" in refused.stderr, bad
    no_time = run_cli(["panel", TIME, "--machine", "vad", "--category", "none"])
    assert no_time.returncode == 2 and "add --time" in no_time.stderr


def test_run_time_with_a_machine_writes_the_same_panel(tmp_path: Path) -> None:
    proc = run_cli(["run", TIME, "-o", tmp_path / "out", "--time", "--machine", "vad", "--category", "none", "-q"])
    assert proc.returncode == 0, proc.stderr
    written = json.loads((tmp_path / "out" / "panel.json").read_text(encoding="utf-8"))
    alone = json.loads(run_cli(["panel", TIME, "--machine", "vad", "--time", "--category", "none", "--json"]).stdout)
    assert written["results"] == alone["results"]
    assert 'href="panel.html"' in (tmp_path / "out" / "report.html").read_text(encoding="utf-8")


def test_two_humans_and_a_machine_write_every_output_with_one_rank(tmp_path: Path) -> None:
    proc = run_cli(["panel", PANEL, "--machine", "seg", "--humans", "ann1,ann2", "-o", tmp_path / "out", *FAST])
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    verdict = re.search(r"seg: (below|within|above) the human range: rank (\d) of 3 by consistency", proc.stdout)
    assert verdict, proc.stdout
    table_rank = re.search(r"(\d) of 3 by consistency  ", proc.stdout)
    assert table_rank and table_rank.group(1) == verdict.group(2)
    written = json.loads((tmp_path / "out" / "panel.json").read_text(encoding="utf-8"))
    seg = written["results"]["seg"]
    assert seg["rank"]["rank"] == int(verdict.group(2)) and seg["rank"]["by"] == "consistency"
    with (tmp_path / "out" / "panel.csv").open(encoding="utf-8") as fh:
        rank_rows = [r for r in csv.DictReader(fh) if r["measure"] == "panel:rank"]
    assert [r["note"] for r in rank_rows] == [f"rank {verdict.group(2)} of 3 by consistency"]
    page = (tmp_path / "out" / "panel.html").read_text(encoding="utf-8")
    assert f"{verdict.group(2)} of 3 by consistency" in page


def test_two_humans_through_the_api_on_every_panel() -> None:
    import segagree

    token = segagree.panel(PANEL, "seg", humans=["ann1", "ann3"], n_boot=20, n_perm=5)
    sf = segagree.panel(PANEL, "seg", humans=["ann1", "ann3"], measure="sf", n_boot=20, n_perm=5)
    timed = segagree.panel(TIME, "vad", humans=["kim", "lee"], time=True, category="none", n_boot=20)
    for result in (token, sf, timed):
        r = result["results"][result["machines"][0]]
        assert r["rank"]["by"] == "consistency" and r["rank"]["of"] == 3
        assert f"rank {r['rank']['rank']} of 3 by consistency" in r["verdict"]
        assert all(h["change"] is None for h in r["human_changes"]["per_human"].values())
        assert r["chance"]["humans_mean"] is not None


def test_a_panel_of_one_text_says_why_it_has_no_interval(tmp_path: Path) -> None:
    files = [PANEL / f"garden.{who}.txt" for who in ("ann1", "ann2", "seg")]
    table = run_cli(["panel", *files, "--machine", "seg", "-o", tmp_path / "out", *FAST])
    assert table.returncode == 0, table.stderr
    assert "none" in table.stdout and "no interval: only 1 item" in table.stderr + table.stdout
    assert "none: only 1 item" in (tmp_path / "out" / "panel.html").read_text(encoding="utf-8")
    out = json.loads(run_cli(["panel", *files, "--machine", "seg", "--json", *FAST]).stdout)
    interval = out["results"]["seg"]["added"]["interval"]
    assert interval["low"] is None and "at least two" in interval["reason"]


def test_a_time_panel_says_when_the_machines_labels_share_none_with_the_humans(tmp_path: Path) -> None:
    import segagree

    turns = {"h1": ("A", "B", "A"), "h2": ("A", "B", "B"), "m": ("spk0", "spk1", "spk0")}
    files = []
    for who, labels in turns.items():
        path = tmp_path / f"talk.{who}.rttm"
        path.write_text(
            "".join(f"SPEAKER talk 1 {2 * k}.0 1.5 <NA> <NA> {lab} <NA> <NA>\n" for k, lab in enumerate(labels))
        )
        files.append(path)
    labelled = segagree.panel(files, "m", time=True, n_boot=10)
    assert any("m's unit labels share none with the humans'" in n for n in labelled["notes"]), labelled["notes"]
    unlabelled = segagree.panel(files, "m", time=True, n_boot=10, category="none")
    assert not any("share none" in n for n in unlabelled["notes"])
