"""Units in time (segagree.scoring.time.units, segagree.api.agree_time): every source gives the same
units and the same values; tables, annotators, continuum, categories, speakers; clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import segagree
from segagree.errors import InputError, UsageError
from segagree.metrics.registry import known_names

DATA = Path(__file__).resolve().parents[1] / "data" / "unitizing"
TEXTGRIDS = [DATA / "kim.TextGrid", DATA / "lee.TextGrid"]
EAF = DATA / "gestures.eaf"
CSV = DATA / "gestures.csv"


def textgrid_text(tiers: dict[str, list[tuple[float, float, str]]], xmax: float) -> str:
    """A long-form TextGrid with these interval tiers."""
    items = []
    for k, (name, ivs) in enumerate(tiers.items(), start=1):
        body = "".join(
            f'        intervals [{i}]:\n            xmin = {s} \n            xmax = {e} \n            text = "{t}" \n'
            for i, (s, e, t) in enumerate(ivs, 1)
        )
        items.append(
            f'    item [{k}]:\n        class = "IntervalTier" \n        name = "{name}" \n        xmin = 0 \n'
            f"        xmax = {xmax} \n        intervals: size = {len(ivs)} \n{body}"
        )
    return (
        f'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0 \nxmax = {xmax} \ntiers? <exists> \n'
        f"size = {len(tiers)} \nitem []: \n" + "".join(items)
    )


def same_units(a: segagree.api.Any, b: segagree.api.Any) -> None:
    (ua,), (ub,) = a.speakers.values(), b.speakers.values()
    assert ua.annotators == ub.annotators
    np.testing.assert_array_equal(ua.annotator, ub.annotator)
    np.testing.assert_allclose(ua.start, ub.start, atol=1e-9)
    np.testing.assert_allclose(ua.end, ub.end, atol=1e-9)
    assert [ua.categories[c] for c in ua.category] == [ub.categories[c] for c in ub.category]
    assert ua.continuum == pytest.approx(ub.continuum)


def test_elan_one_tier_per_annotator_equals_one_textgrid_per_annotator_and_table() -> None:
    from_textgrids = segagree.read_time_units(TEXTGRIDS)
    from_eaf = segagree.read_time_units(EAF, annotator_tiers=["kim", "lee"])
    from_csv = segagree.read_time_units(CSV)
    assert from_textgrids.annotators == ["kim", "lee"]
    same_units(from_textgrids, from_eaf)
    same_units(from_textgrids, from_csv)
    results = [segagree.agree_time(s, annotator_tiers=t) for s, t in ((TEXTGRIDS, None), (EAF, ["kim", "lee"]))]
    for name in results[0]["measures"]:
        a, b = (r["measures"][name]["pooled"] for r in results)
        assert a == b, name
    if "gamma" in known_names():  # the observed disorder once gamma is registered
        assert results[0]["observed_disorder"] == pytest.approx(results[1]["observed_disorder"], abs=1e-12)


def test_pygamma_headerless_table_and_declared_annotators(tmp_path: Path) -> None:
    path = tmp_path / "pg.csv"
    path.write_text("A,x,0,2\nA,y,3,5\nB,x,0.5,2\nB,y,3,4.5\n", encoding="utf-8")
    timed = segagree.read_time_units(path, annotators=["B", "A", "C"])
    (us,) = timed.speakers.values()
    assert us.annotators == ("B", "A", "C")
    assert timed.unit_counts == {"B": 2, "A": 2, "C": 0}
    assert us.continuum == (0.0, 5.0)
    res = segagree.agree_time(path, annotators=["A", "B", "C"], measures=["alpha_u", "u_alpha"])
    assert res["alpha_u"] is not None and res["u_alpha"] is not None
    with pytest.raises(UsageError, match="not in --annotators"):
        segagree.read_time_units(path, annotators=["A"])


def test_continuum_and_categories(tmp_path: Path) -> None:
    path = tmp_path / "u.tsv"
    path.write_text("annotator\tstart\tend\tcategory\tspeaker\na\t1\t2\tx ,\tS1\nb\t1\t2\ty .\tS1\n", encoding="utf-8")
    timed = segagree.read_time_units(path, continuum=(-1, 10))
    assert timed.continuum == (-1.0, 10.0)
    assert list(timed.speakers) == ["S1"]
    none = segagree.read_time_units(path, category="none")
    assert list(none.speakers["S1"].category) == [-1, -1]


def test_endnote_category_from_documents(tmp_path: Path) -> None:
    for name, labels in (("a", ["so then ,", "it went ."]), ("b", ["so then .", "it went ."])):
        ivs = [(0, 1, labels[0]), (1, 2, labels[1])]
        (tmp_path / f"{name}.TextGrid").write_text(textgrid_text({"S": ivs}, 2), encoding="utf-8")
    files = [tmp_path / "a.TextGrid", tmp_path / "b.TextGrid"]
    endnotes = segagree.read_time_units(files, category="endnote")
    (us,) = endnotes.speakers.values()
    assert sorted(us.categories) == [",", "."]
    labels = segagree.read_time_units(files)
    assert "so then ," in labels.speakers[""].categories


def test_per_speaker_and_pooled(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    rows = ["annotator,start,end,category,speaker"]
    rows += ["a,0,1,x,ROSA", "b,0,1,x,ROSA", "a,2,3,x,BEN", "b,2.5,3,x,BEN", "a,4,5,y,BEN", "b,4,5,y,BEN"]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    res = segagree.agree_time(path, measures=["u_alpha", "elan_kappa"])
    assert res["speakers"] == ["ROSA", "BEN"]
    per = res["measures"]["elan_kappa"]["speakers"]
    assert set(per) == {"ROSA", "BEN"}
    pooled = res["measures"]["elan_kappa"]["pooled"]["elan_global"]["matrix"]["rows"]
    parts = [np.array(per[s]["elan_global"]["matrix"]["rows"]) for s in ("ROSA", "BEN")]
    assert np.array(pooled).sum() == sum(p.sum() for p in parts)


@pytest.mark.parametrize(
    "row, needle",
    [("a,3,2,x", "ends (2.0) before it starts"), ("a,nan,2,x", "has no start time"), ("a,0,inf,x", "infinite end")],
)
def test_bad_times_name_file_and_line(tmp_path: Path, row: str, needle: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(f"annotator,start,end,category\nb,0,1,x\n{row}\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        segagree.read_time_units(path)
    assert needle in str(err.value) and f"{path}: line 3" in str(err.value)


def test_units_without_times_and_duplicate_stems(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parents[2] / "sample_corpora"
    with pytest.raises(InputError, match="has no start time"):
        segagree.read_time_units([sample / "garden.ann1.txt", sample / "garden.ann2.txt"])
    (tmp_path / "x").mkdir()
    copy = tmp_path / "x" / "kim.TextGrid"
    copy.write_bytes(TEXTGRIDS[0].read_bytes())
    # colliding stems: the annotators are named after their folders, and a note says so
    timed = segagree.read_time_units([TEXTGRIDS[0], copy])
    assert list(timed.annotators) == [TEXTGRIDS[0].parent.name, "x"]
    assert any("named after their folders" in note for note in timed.plan.notes)
    # the same file twice is still refused
    with pytest.raises(UsageError, match="two files give the same annotator name"):
        segagree.read_time_units([TEXTGRIDS[0], TEXTGRIDS[0]])


def test_overlapping_units_are_noted(tmp_path: Path) -> None:
    path = tmp_path / "o.csv"
    path.write_text("annotator,start,end,category\na,0,2,x\na,1,3,x\nb,0,3,x\n", encoding="utf-8")
    timed = segagree.read_time_units(path)
    assert any("overlap (a: 1; within one category: a: 1)" in n for n in timed.notes)


def test_every_measure_survives_an_annotator_with_no_units() -> None:
    res = segagree.agree_time(CSV, annotators=["kim", "lee", "nobody"])
    assert res["units"]["nobody"] == 0
    for name, out in res["measures"].items():
        assert "pooled" in out, name
    assert set(res["measures"]["elan_kappa"]["pooled"]["elan_pairs"]) == {"kim|lee", "kim|nobody", "lee|nobody"}


def test_subtitle_blocks_are_units_and_tiers_are_speakers(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parents[2] / "sample_corpora"
    timed = segagree.read_time_units([sample / "film.ref.srt", sample / "film.mt.srt"], category="none")
    (us,) = timed.speakers.values()
    # a cue's lines (no time of their own between them) make one unit with the cue's times
    assert timed.unit_counts == {"film.ref": 5, "film.mt": 6}
    assert us.start[0] == 1.0 and us.end[0] == 3.2 and us.text[0].startswith("So I finally went out")

    (tmp_path / "a.TextGrid").write_text(
        textgrid_text(
            {"ROSA": [(0, 1, "x"), (1, 2, ""), (2, 3, "y"), (3, 4, "")], "BEN": [(0, 2, ""), (2, 4, "x")]}, 4
        ),
        encoding="utf-8",
    )
    (tmp_path / "b.TextGrid").write_text(
        textgrid_text({"ROSA": [(0, 1.5, "x"), (1.5, 4, "")], "BEN": [(0, 2.5, ""), (2.5, 4, "x")]}, 4),
        encoding="utf-8",
    )
    res = segagree.agree_time([tmp_path / "a.TextGrid", tmp_path / "b.TextGrid"], measures=["u_alpha"])
    assert res["speakers"] == ["ROSA", "BEN"] and set(res["measures"]["u_alpha"]["speakers"]) == {"ROSA", "BEN"}


def test_one_file_alone_has_its_tiers_as_annotators() -> None:
    alone = segagree.read_time_units(EAF)
    assert alone.annotators == ["kim", "lee"]
    same_units(alone, segagree.read_time_units(TEXTGRIDS))
