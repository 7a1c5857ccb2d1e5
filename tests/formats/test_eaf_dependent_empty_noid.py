"""ELAN files as real studies have them: dependent time-aligned tiers (Included_In,
Time_Subdivision) scored and selectable, annotations without ANNOTATION_ID read with ids given
(reported), and empty tiers read as tiers with no units instead of refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import run_cli

from segagree.errors import InputError
from segagree.formats import read_document

Span = tuple[int, int, str]


def write_eaf(
    path: Path,
    movement: list[Span],
    upper_body: list[Span],
    arms: list[Span],
    *,
    ids: bool = True,
    ref_without_id: bool = False,
) -> Path:
    """A movement study's file: a top-level ``movement`` tier with an Included_In child
    ``upper_body`` and a Time_Subdivision child ``arms`` (times in ms)."""
    slots: list[int] = []

    def slot(ms: int) -> str:
        slots.append(ms)
        return f"ts{len(slots)}"

    def tier(name: str, spans: list[Span], parent: str = "", ltype: str = "default-lt") -> str:
        rows = [
            f'<TIER LINGUISTIC_TYPE_REF="{ltype}" TIER_ID="{name}"'
            + (f' PARENT_REF="{parent}"' if parent else "")
            + ">"
        ]
        for i, (a, b, value) in enumerate(spans):
            aid = f' ANNOTATION_ID="{name}{i}"' if ids else ""
            rows.append(
                f'<ANNOTATION><ALIGNABLE_ANNOTATION{aid} TIME_SLOT_REF1="{slot(a)}" TIME_SLOT_REF2="{slot(b)}">'
                f"<ANNOTATION_VALUE>{value}</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>"
            )
        rows.append("</TIER>")
        return "\n".join(rows)

    tiers = [
        tier("movement", movement),
        tier("upper_body", upper_body, "movement", "incl"),
        tier("arms", arms, "movement", "tsub"),
    ]
    if ref_without_id:
        tiers.append(
            '<TIER LINGUISTIC_TYPE_REF="assoc" PARENT_REF="movement" TIER_ID="gloss"><ANNOTATION>'
            '<REF_ANNOTATION ANNOTATION_REF="movement0"><ANNOTATION_VALUE>x</ANNOTATION_VALUE></REF_ANNOTATION>'
            "</ANNOTATION></TIER>"
        )
    order = "\n".join(f'<TIME_SLOT TIME_SLOT_ID="ts{i + 1}" TIME_VALUE="{ms}"/>' for i, ms in enumerate(slots))
    path.write_text(
        f"""<?xml version="1.0" encoding="UTF-8"?>
<ANNOTATION_DOCUMENT AUTHOR="" DATE="2024-01-01T00:00:00+00:00" FORMAT="3.0" VERSION="3.0">
<HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>
<TIME_ORDER>
{order}
</TIME_ORDER>
{chr(10).join(tiers)}
<LINGUISTIC_TYPE GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="default-lt" TIME_ALIGNABLE="true"/>
<LINGUISTIC_TYPE CONSTRAINTS="Included_In" LINGUISTIC_TYPE_ID="incl" TIME_ALIGNABLE="true"/>
<LINGUISTIC_TYPE CONSTRAINTS="Time_Subdivision" LINGUISTIC_TYPE_ID="tsub" TIME_ALIGNABLE="true"/>
<LINGUISTIC_TYPE CONSTRAINTS="Symbolic_Association" LINGUISTIC_TYPE_ID="assoc" TIME_ALIGNABLE="false"/>
<CONSTRAINT DESCRIPTION="" STEREOTYPE="Included_In"/>
<CONSTRAINT DESCRIPTION="" STEREOTYPE="Time_Subdivision"/>
<CONSTRAINT DESCRIPTION="" STEREOTYPE="Symbolic_Association"/>
</ANNOTATION_DOCUMENT>""",
        encoding="utf-8",
    )
    return path


MOVE = [(0, 4000, "walk"), (5000, 9000, "turn")]
R1_UPPER = [(500, 1500, "lean"), (2000, 3000, "lean")]
R2_UPPER = [(6000, 8000, "twist")]
R1_ARMS = [(0, 2000, "up"), (2000, 4000, "down"), (5000, 9000, "up")]
R2_ARMS = [(0, 1000, "up"), (1000, 4000, "down"), (5000, 7000, "up"), (7000, 9000, "down")]


@pytest.fixture
def raters(tmp_path: Path) -> tuple[Path, Path]:
    return (
        write_eaf(tmp_path / "r1.eaf", MOVE, R1_UPPER, R1_ARMS),
        write_eaf(tmp_path / "r2.eaf", MOVE, R2_UPPER, R2_ARMS),
    )


def _spans(doc, tier: str) -> list[Span]:
    t = doc.tokens[doc.tokens["tier"] == tier]
    return [(round(a * 1000), round(b * 1000), v) for a, b, v in zip(t["start"], t["end"], t["text"], strict=True)]


def test_dependent_tiers_read_with_their_own_times(raters: tuple[Path, Path]) -> None:
    doc = read_document(raters[0], speaker_from="tier", dependent_tiers=True)
    assert _spans(doc, "upper_body") == R1_UPPER
    assert _spans(doc, "arms") == R1_ARMS
    assert any(n.kind == "dependent-tiers-read" for n in doc.losses.notes)
    # Named, a dependent time-aligned tier is a unit tier whatever the option says.
    named = read_document(raters[0], tiers=["arms"])
    assert _spans(named, "arms") == R1_ARMS


def test_agree_time_plans_and_scores_dependent_tiers(raters: tuple[Path, Path]) -> None:
    result = run_cli(["agree", "--time", *map(str, raters), "--json"])
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    rows = {(r["file"], r["tier"]): r for r in out["plan"]["rows"]}
    assert rows[("r1.eaf", "upper_body")]["units"] == 2 and rows[("r1.eaf", "upper_body")]["scored"]
    assert rows[("r2.eaf", "arms")]["units"] == 4 and rows[("r2.eaf", "arms")]["scored"]
    assert set(out["speakers"]) == {"movement", "upper_body", "arms"}
    assert any("dependent time-aligned tiers" in n for n in out["notes"])


def test_tier_option_selects_a_dependent_tier(raters: tuple[Path, Path]) -> None:
    # The raters never mark upper-body movement at the same time: the agreement must say so
    # (it read 0.9996 when the tier was left out and only the identical movement tier scored).
    result = run_cli(["agree", "--time", *map(str, raters), "--tier", "upper_body", "--json"])
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["units"] == {"r1": 2, "r2": 1}
    assert out["gamma"] < 0.5


def test_symbolic_dependent_tier_named_is_a_clear_error(tmp_path: Path) -> None:
    path = write_eaf(tmp_path / "g.eaf", MOVE, R1_UPPER, R1_ARMS)
    text = path.read_text(encoding="utf-8").replace(
        'LINGUISTIC_TYPE_ID="tsub" TIME_ALIGNABLE="true"', 'LINGUISTIC_TYPE_ID="tsub" TIME_ALIGNABLE="false"'
    )
    text = text.replace(
        'CONSTRAINTS="Time_Subdivision" LINGUISTIC_TYPE_ID="tsub"',
        'CONSTRAINTS="Symbolic_Association" LINGUISTIC_TYPE_ID="tsub"',
    )
    path.write_text(text, encoding="utf-8")
    result = run_cli(["convert", str(path), "-o", str(tmp_path / "g.csv"), "--tier", "arms"])
    assert result.returncode in (1, 2) and "Traceback" not in result.stderr
    assert "no times of its own" in result.stderr


def test_annotations_without_ids_read_and_reported(tmp_path: Path) -> None:
    path = write_eaf(tmp_path / "s.eaf", MOVE, [], [], ids=False)
    doc = read_document(path)
    assert doc.tokens["text"].tolist() == ["walk", "turn"]
    assert doc.tokens["start"].tolist() == [0.0, 5.0]
    assert len(set(doc.tokens["annotation_id"])) == 2
    assert any("ANNOTATION_ID" in loss.message and loss.count == 2 for loss in doc.losses.losses)


def test_ref_annotation_without_id_still_refused(tmp_path: Path) -> None:
    path = write_eaf(tmp_path / "s.eaf", MOVE, [], [], ref_without_id=True)
    with pytest.raises(InputError, match="REF_ANNOTATION has no ANNOTATION_ID"):
        read_document(path)


def test_empty_file_tiers_are_tiers_with_no_units(tmp_path: Path) -> None:
    empty = write_eaf(tmp_path / "empty.eaf", [], [], [])
    doc = read_document(empty)
    assert len(doc.tokens) == 0 and doc.speakers == ["movement"]
    other = write_eaf(tmp_path / "full.eaf", MOVE, R1_UPPER, R1_ARMS)
    result = run_cli(["agree", "--time", str(empty), str(other), "--json"])
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    rows = {(r["file"], r["tier"]): r for r in out["plan"]["rows"]}
    assert rows[("empty.eaf", "movement")]["units"] == 0 and rows[("empty.eaf", "movement")]["scored"]
    assert rows[("empty.eaf", "arms")]["scored"]
    assert out["units"] == {"empty": 0, "full": 7}
