"""review --time / adjudicate of units in time: rows per aligned group with their kind and share of the
disorder, decisions read back into gold units in a timed format. The alignment comes from a stand-in
measure here (the gamma family gives the real one)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from cli_process import run_cli

import segagree
from segagree.errors import InputError
from segagree.metrics import registry
from segagree.metrics.contract import Card, Measure, UnitSet
from segagree.outputs.time_review import group_kind

DATA = Path(__file__).resolve().parents[1] / "data" / "unitizing"
CSV = DATA / "gestures.csv"


@dataclass(frozen=True)
class _Aligned:
    alignment: dict[str, Any]

    @property
    def value(self) -> float:
        return 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"value": 0.0, "alignment": self.alignment}


class PairInOrder(Measure[UnitSet, UnitSet, _Aligned]):
    """Aligns the i-th unit of the first annotator with the i-th of the second (disorder = |Δstart|)."""

    card = Card("test_pair_in_order", "test alignment", "i-th with i-th", "none", needs="times", group="")

    def statistics(self, item: UnitSet, params: Mapping[str, Any]) -> UnitSet:
        return item

    def score(self, stats: UnitSet, params: Mapping[str, Any]) -> _Aligned:
        rows = [[int(r) for r in (stats.annotator == a).nonzero()[0]] for a in range(2)]
        n = max(len(rows[0]), len(rows[1]))
        groups = []
        for i in range(n):
            pair = [rows[0][i] if i < len(rows[0]) else None, rows[1][i] if i < len(rows[1]) else None]
            d = 1.0 if None in pair else abs(stats.start[pair[0]] - stats.start[pair[1]])
            groups.append({"units": pair, "disorder": float(d)})
        return _Aligned({"annotators": list(stats.annotators), "groups": groups})


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(registry, "_plugins", {PairInOrder.card.name: PairInOrder()})
    return PairInOrder.card.name


def test_kinds() -> None:
    unit = {"start": 1.0, "end": 2.0, "category": "x"}
    assert group_kind([unit, dict(unit)]) == "match"
    assert group_kind([unit, {**unit, "end": 2.5}]) == "shifted"
    assert group_kind([unit, {**unit, "category": "y"}]) == "category mismatch"
    assert group_kind([unit, {"start": None, "end": None, "category": None}]) == "unmatched"


def test_review_rows_and_adjudication(tmp_path: Path, stand_in: str) -> None:
    out = segagree.review_time(CSV, tmp_path / "r.xlsx", measure=stand_in)
    assert out["groups"] == 6 and out["measure"] == stand_in
    # kim/lee: beat-beat shifted, point-point shifted, beat-beat shifted, iconic-point mismatch, ...
    assert out["kinds"] == {"shifted": 5, "category mismatch": 1}
    wb = openpyxl.load_workbook(tmp_path / "r.xlsx")
    ws = wb["Alignment"]
    header = [c.value for c in ws[1]]
    rows = [dict(zip(header, [c.value for c in r], strict=True)) for r in ws.iter_rows(min_row=2)]
    assert [r["kim start"] for r in rows] == [0.5, 2.0, 4.1, 6.0, 9.2, 11.0]
    assert sum(r["share"] for r in rows) == pytest.approx(1.0)
    col = header.index("decision") + 1
    decisions = ["kim", "lee", "none", "edit", None, "kim"]
    for i, d in enumerate(decisions, start=2):
        ws.cell(i, col, d)
    ws.cell(5, header.index("gold start") + 1, 6.05)
    ws.cell(5, header.index("gold end") + 1, 7.45)
    ws.cell(5, header.index("gold category") + 1, "iconic")
    wb.save(tmp_path / "r.xlsx")
    report = segagree.adjudicate_time(tmp_path / "r.xlsx", tmp_path / "gold.TextGrid", undecided="skip")
    assert report.units == 4 and report.undecided == [5]
    gold = segagree.read_time_units([tmp_path / "gold.TextGrid", DATA / "kim.TextGrid"])
    (us,) = gold.speakers.values()
    mine = us.annotator == 0
    assert us.start[mine].tolist() == [0.5, 2.1, 6.05, 11.0]
    assert [us.categories[c] for c in us.category[mine]] == ["beat", "point", "iconic", "beat"]


def test_bad_decision_names_the_row(tmp_path: Path, stand_in: str) -> None:
    segagree.review_time(CSV, tmp_path / "r.xlsx", measure=stand_in)
    wb = openpyxl.load_workbook(tmp_path / "r.xlsx")
    header = [c.value for c in wb["Alignment"][1]]
    wb["Alignment"].cell(3, header.index("decision") + 1, "maybe")
    wb.save(tmp_path / "r.xlsx")
    with pytest.raises(InputError, match=r"row 3: unknown decision 'maybe'; expected one of kim, lee, none, edit"):
        segagree.adjudicate_time(tmp_path / "r.xlsx", tmp_path / "gold.eaf")


def test_cli_review_time_and_adjudicate(tmp_path: Path) -> None:
    """With the registered measures: a workbook when one gives an alignment, else a usage error."""
    proc = run_cli(["review", "--time", str(CSV), "-o", str(tmp_path / "r.xlsx")], timeout=600)
    if proc.returncode == 2:
        assert "gives no best alignment" in proc.stderr
        return
    assert proc.returncode == 0, proc.stderr
    assert "aligned groups" in proc.stderr and segagree.is_time_review(tmp_path / "r.xlsx")
    adj = run_cli(["adjudicate", str(tmp_path / "r.xlsx"), "-o", str(tmp_path / "g.eaf")], timeout=600)
    # Nothing decided yet: --undecided keep-a keeps the first annotator's unit of every group.
    assert adj.returncode == 0, adj.stderr
    assert "by --undecided keep-a" in adj.stderr and "(undecided kept as kim's" in adj.stderr


def test_timeline_plot(tmp_path: Path, stand_in: str) -> None:
    out = segagree.review_time(CSV, tmp_path / "r.xlsx", measure=stand_in, plot=tmp_path / "t.png")
    assert out["plots"] == [str(tmp_path / "t.png")]
    data = (tmp_path / "t.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
    with pytest.raises(segagree.UsageError, match="must be a .png"):
        segagree.review_time(CSV, tmp_path / "r.xlsx", measure=stand_in, plot=tmp_path / "t.svg")
