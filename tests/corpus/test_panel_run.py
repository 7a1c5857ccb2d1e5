"""``run --machine``: the same panel as ``segagree panel``, its rows in the summary, its page linked
from the report, and the same again when the run resumes."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import segagree

PANEL = Path(__file__).resolve().parents[2] / "sample_corpora" / "panel"


def _panel_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as fh:
        return [r for r in csv.DictReader(fh) if r["measure"].startswith("panel:")]


def test_run_with_a_machine_gives_the_panels_numbers_and_keeps_them_on_resume(tmp_path: Path) -> None:
    out = tmp_path / "out"
    segagree.run(PANEL, out, sims=20, machines=["seg"], workbooks=False)
    expected = segagree.panel(PANEL, "seg", seed=12345)
    written = json.loads((out / "panel.json").read_text(encoding="utf-8"))
    assert written["results"] == json.loads(json.dumps(expected["results"]))
    rows = _panel_rows(out / "summary.csv")
    change = [r for r in rows if r["text"] == "ALL" and r["measure"] == "panel:pi_b:added_change"]
    assert len(change) == 1 and float(change[0]["value"]) == expected["results"]["seg"]["added"]["change"]
    assert 'href="panel.html"' in (out / "report.html").read_text(encoding="utf-8")
    again = segagree.run(PANEL, out, sims=20, machines=["seg"], workbooks=False)
    assert again.computed == 0 and again.reused > 0
    assert _panel_rows(out / "summary.csv") == rows


def test_a_run_without_machines_writes_no_panel(tmp_path: Path) -> None:
    segagree.run(PANEL, tmp_path / "out", sims=20, workbooks=False)
    assert not (tmp_path / "out" / "panel.json").exists()
    assert not _panel_rows(tmp_path / "out" / "summary.csv")
