"""The annotation plan of time-based agreement (segagree.scoring.time.plan, time_reading): tiers matched
across annotators' files, tiers only some have left out, gaps counted, annotators without units kept;
ELAN, Praat and a table of the same units give the same values."""

from __future__ import annotations

from pathlib import Path

import pytest
from time_files import SPELLINGS, STUTTER, write_eaf, write_table, write_textgrid

import segagree
from segagree.errors import InputError, UsageError
from segagree.scoring.time.plan import tier_key

FAST = {"samples": 2, "seed": 1}


def stutter_eafs(tmp_path: Path, doubts: bool = True) -> list[Path]:
    paths = []
    for ann, units in STUTTER.items():
        tiers = {SPELLINGS[ann]: units}
        if doubts and ann == "ann1":
            tiers["Doubts"] = [(3.0, 3.5, "unsure"), (11.0, 11.4, "maybe rep")]
        paths.append(write_eaf(tmp_path / f"{ann}.eaf", tiers, participant=f"Clinician {ann}"))
    return paths


def stutter_table(tmp_path: Path) -> Path:
    rows = [(a, s, e, c) for a, units in STUTTER.items() for s, e, c in units]
    return write_table(tmp_path / "units.csv", rows)


def observed(result: dict) -> float:
    return result["measures"]["gamma"]["pooled"]["observed_disorder"]


def test_tier_key_ignores_case_spaces_underscores_hyphens() -> None:
    assert {tier_key(s) for s in SPELLINGS.values()} == {"stutteringmoments"}
    assert tier_key("Doubts") != tier_key("stuttering moments")


def test_per_annotator_elan_with_spellings_and_an_extra_tier_equals_the_table(tmp_path: Path) -> None:
    """The issue's case: ELAN files per annotator, tier names spelled three ways, a Doubts tier only
    one annotator has: the same observed disorder as the units table of the same units."""
    eaf = segagree.agree_time(stutter_eafs(tmp_path), measures=["gamma", "alpha_u"], params=FAST)
    table = segagree.agree_time(stutter_table(tmp_path), measures=["gamma", "alpha_u"], params=FAST)
    assert observed(eaf) == pytest.approx(observed(table), abs=1e-12)
    assert eaf["alpha_u"] == pytest.approx(table["alpha_u"], abs=1e-12)
    plan = eaf["plan"]
    assert plan["left_out"] == {"Doubts": ["ann1"]}
    doubts = [r for r in plan["rows"] if r["tier"] == "Doubts"]
    assert doubts and not doubts[0]["scored"] and doubts[0]["units"] == 2
    assert any("one speaker 'Stuttering moments'" in n for n in plan["notes"])
    assert any("Doubts" in n and "left out" in n for n in eaf["notes"])
    # '_' is a gap label by default: counted per tier, in both sources alike
    assert plan["gaps"] == {"_": 2} and table["plan"]["gaps"] == {"_": 2}


def test_missing_as_empty_scores_the_extra_tier(tmp_path: Path) -> None:
    timed = segagree.read_time_units(stutter_eafs(tmp_path), missing_as_empty=True)
    assert set(timed.speakers) == {"Stuttering moments", "Doubts"}
    assert timed.plan is not None and timed.plan.left_out == {}
    doubts = timed.speakers["Doubts"]
    assert doubts.annotators == ("ann1", "ann2", "ann3") and doubts.annotator.tolist() == [0, 0]


def test_empty_gap_list_reads_underscore_as_a_unit_everywhere(tmp_path: Path) -> None:
    eaf = segagree.agree_time(stutter_eafs(tmp_path), measures=["gamma"], params=FAST, gap_labels=())
    table = segagree.agree_time(stutter_table(tmp_path), measures=["gamma"], params=FAST, gap_labels=())
    assert eaf["units"] == table["units"] == {"ann1": 5, "ann2": 5, "ann3": 4}
    assert observed(eaf) == pytest.approx(observed(table), abs=1e-12)
    grids = []
    for ann, units in STUTTER.items():
        grids.append(write_textgrid(tmp_path / f"{ann}.TextGrid", {SPELLINGS[ann]: units}, 14.0))
    praat = segagree.agree_time(grids, measures=["gamma"], params=FAST, gap_labels=())
    assert observed(praat) == pytest.approx(observed(table), abs=1e-12)
    default = segagree.agree_time(grids, measures=["gamma"], params=FAST)
    assert default["units"] == {"ann1": 4, "ann2": 4, "ann3": 4} and default["plan"]["gaps"] == {"_": 2}


def test_two_tiers_of_one_file_matching_one_name_are_refused(tmp_path: Path) -> None:
    a = write_eaf(tmp_path / "a.eaf", {"Stuttering moments": [(1, 2, "x")], "stuttering-moments": [(3, 4, "y")]})
    b = write_eaf(tmp_path / "b.eaf", {"Stuttering moments": [(1, 2, "x")], "Other": [(5, 6, "z")]})
    with pytest.raises(UsageError) as err:
        segagree.read_time_units([a, b])
    text = str(err.value)
    assert "'stuttering-moments'" in text and "b.eaf: ['Stuttering moments', 'Other']" in text and "--tier" in text


def test_no_shared_tier_is_refused_naming_every_files_tiers(tmp_path: Path) -> None:
    a = write_eaf(tmp_path / "a.eaf", {"kim stutter": [(1, 2, "x")], "kim doubts": [(3, 4, "y")]})
    b = write_eaf(tmp_path / "b.eaf", {"lee stutter": [(1, 2, "x")], "lee doubts": [(3, 4, "y")]})
    with pytest.raises(UsageError) as err:
        segagree.read_time_units([a, b])
    assert "a.eaf: ['kim stutter', 'kim doubts']" in str(err.value) and "--rename" in str(err.value)
    # --tier per file, or --rename, resolves it
    timed = segagree.read_time_units([a, b], tiers=["a=kim stutter", "b=lee stutter"])
    assert list(timed.speakers) == [""] and timed.unit_counts == {"a": 1, "b": 1}
    renamed = segagree.read_time_units([a, b], speaker_map={"kim stutter": "S", "lee stutter": "S"})
    assert "S" in renamed.speakers and renamed.plan is not None
    assert set(renamed.plan.left_out) == {"kim doubts", "lee doubts"}


def test_tier_pattern_chooses_each_files_tier(tmp_path: Path) -> None:
    paths = stutter_eafs(tmp_path)
    timed = segagree.read_time_units(paths, tiers=["stutter*"])
    assert timed.unit_counts == {"ann1": 4, "ann2": 4, "ann3": 4}
    with pytest.raises(UsageError, match="chooses no tier of ann1.eaf; its tiers"):
        segagree.read_time_units(paths, tiers=["laughter"])


def test_empty_tier_of_one_textgrid_is_an_annotator_only_when_named(tmp_path: Path) -> None:
    """The issue's `default` tier: an empty tier of a single file is not a fourth annotator."""
    tiers = {"A": [(1, 2, "x"), (4, 5, "y")], "B": [(1.1, 2, "x")], "default": []}
    grid = write_textgrid(tmp_path / "one.TextGrid", tiers, 6.0)
    eaf = write_eaf(tmp_path / "one.eaf", tiers)
    table = write_table(tmp_path / "one.csv", [("A", 1, 2, "x"), ("A", 4, 5, "y"), ("B", 1.1, 2, "x")])
    values = [segagree.agree_time(s, measures=["gamma", "boundary_f1"], params=FAST) for s in (grid, eaf, table)]
    for v in values:
        assert v["annotators"] == ["A", "B"]
    assert values[0]["gamma"] == pytest.approx(values[2]["gamma"], abs=1e-12)
    assert values[1]["gamma"] == pytest.approx(values[2]["gamma"], abs=1e-12)
    row = [r for r in values[0]["plan"]["rows"] if r["tier"] == "default"][0]
    assert not row["scored"] and "not named" in row["why"]
    named = segagree.read_time_units(grid, annotator_tiers=["A", "B", "default"])
    assert named.annotators == ["A", "B", "default"] and named.unit_counts["default"] == 0


def test_header_only_table_is_an_annotator_without_units(tmp_path: Path) -> None:
    kim = write_table(tmp_path / "kim.csv", [("kim", 1, 2, "laugh")])
    lee = write_table(tmp_path / "lee.csv", [])
    timed = segagree.read_time_units([kim, lee])
    assert timed.annotators == ["kim", "lee"] and timed.unit_counts == {"kim": 1, "lee": 0}
    assert timed.plan is not None and any("no rows" in n for n in timed.plan.notes)
    res = segagree.agree_time([kim, lee], measures=["boundary_f1"])
    assert res["boundary_f1"] == 0.0  # one annotator heard laughter, the other nothing


def test_declared_annotators_without_units_are_kept(tmp_path: Path) -> None:
    table = stutter_table(tmp_path)
    timed = segagree.read_time_units(table, annotators=["ann1", "ann2", "ann3", "ann4"])
    assert timed.annotators == ["ann1", "ann2", "ann3", "ann4"] and timed.unit_counts["ann4"] == 0


def test_recording_column_gives_one_continuum_per_recording(tmp_path: Path) -> None:
    path = tmp_path / "lab.csv"
    path.write_text(
        "annotator,media_file,start,end,category\n"
        "a,r1.wav,1000,2000,x\nb,r1.wav,1100,2000,x\na,r2.wav,500,900,y\nb,r2.wav,400,1000,y\n",
        encoding="utf-8",
    )
    timed = segagree.read_time_units(path, time_unit="ms")
    assert list(timed.speakers) == ["r1.wav", "r2.wav"]
    assert timed.speakers["r1.wav"].continuum == (0.0, 2.0)
    assert timed.speakers["r2.wav"].continuum == (0.0, 1.0)
    assert timed.speakers["r2.wav"].start.tolist() == [0.5, 0.4]
    # one recording alone scores as its own table
    alone = tmp_path / "r2.csv"
    alone.write_text("annotator,start,end,category\na,0.5,0.9,y\nb,0.4,1.0,y\n", encoding="utf-8")
    one = segagree.agree_time(alone, measures=["alpha_u"])
    both = segagree.agree_time(path, measures=["alpha_u"], time_unit="ms")
    assert both["measures"]["alpha_u"]["speakers"]["r2.wav"]["value"] == pytest.approx(one["alpha_u"])
    with pytest.raises(InputError, match="beyond ten days.*--time-unit ms"):
        segagree.read_time_units(write_table(tmp_path / "ms.csv", [("a", 0, 900_000_000, "x"), ("b", 0, 1000, "x")]))


@pytest.mark.parametrize(
    "body, needle",
    [
        ("annotator,start,end,category\na,1_0,20,x\nb,1,2,x\n", "'1_0' is not a number"),
        ("annotator,start,end,category\na,١,2,x\nb,1,2,x\n", "is not a number"),
        ("annotator,start,end,start\na,1,2,3\n", "'start' appears twice"),
        ("Tier,Begin Time,End Time,Annotation\nkim,1,2,x\n", "annotator,start,end"),
    ],
)
def test_table_errors_name_what_is_expected(tmp_path: Path, body: str, needle: str) -> None:
    path = tmp_path / "t.csv"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(InputError, match=needle):
        segagree.read_time_units(path)


def test_run_time_makes_one_text_per_recording(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    head = "annotator,media_file,start,end,category\n"
    (corpus / "lab.kim.csv").write_text(head + "kim,r1.wav,1000,2000,x\nkim,r2.wav,500,900,y\n", encoding="utf-8")
    (corpus / "lab.lee.csv").write_text(head + "lee,r1.wav,1100,2000,x\n", encoding="utf-8")
    done = segagree.run(
        corpus, tmp_path / "out", time=True, measures=["alpha_u", "boundary_f1"], reading={"time_unit": "ms"},
        report=False,
    )  # fmt: skip
    rows = {(r["text"], r["speaker"], r["measure"]): r["value"] for r in done.rows}
    assert {t for t, _, _ in rows} == {"lab/r1.wav", "lab/r2.wav", "ALL"}
    r2 = next(r for r in done.results if r["text"] == "lab/r2.wav")["result"]
    assert r2["units"] == {"kim": 1, "lee": 0} and r2["continuum"] == [0.0, 0.9]  # lee heard nothing: kept
    assert rows[("lab/r1.wav", "ALL", "boundary_f1")] == 1.0 and rows[("lab/r2.wav", "ALL", "boundary_f1")] == 0.0
    # pooled over the two texts as agree --time pools the recordings of one table
    together = segagree.agree_time(
        [corpus / "lab.kim.csv", corpus / "lab.lee.csv"], measures=["alpha_u"], time_unit="ms"
    )
    assert rows[("ALL", "ALL", "alpha_u")] == pytest.approx(together["alpha_u"])


def test_table_options_on_other_files_are_refused(tmp_path: Path) -> None:
    grid = write_textgrid(tmp_path / "one.TextGrid", {"A": [(1, 2, "x")], "B": [(1, 2, "x")]}, 3.0)
    with pytest.raises(UsageError, match="--time-unit and --text-column read units tables"):
        segagree.read_time_units(grid, time_unit="ms")
