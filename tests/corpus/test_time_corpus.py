"""``run --time`` over a corpus folder: each text scored as ``agree --time`` scores its files, every
measure pooled over texts by summed statistics (checked by recomputing the measure on all texts'
unit sets at once), a broken text listed while the others are scored, and the outputs written."""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest

import segagree.api as api
from segagree.errors import SegagreeError, UsageError
from segagree.metrics.registry import get_measure

SAMPLE = Path(__file__).resolve().parents[2] / "sample_corpora" / "time"
FAST = ["alpha_u", "u_alpha", "ku_alpha", "elan_kappa", "boundary_f1", "purity_coverage"]
PARAMS = {"tolerance": 0.2}


def _retimed(text: str, shift: float) -> str:
    """A TextGrid with every time after 0 moved by ``shift`` seconds (the end too)."""
    return re.sub(
        r"(xm(?:in|ax) = )([0-9.]+)",
        lambda m: f"{m.group(1)}{float(m.group(2)) + (shift if float(m.group(2)) else 0):g}",
        text,
    )


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    """t1: the sample's kim and lee; t2: lee's spans 0.35 s later; t3: a units table per annotator."""
    root = tmp_path / "corpus"
    root.mkdir()
    shutil.copy(SAMPLE / "kim.TextGrid", root / "t1.kim.TextGrid")
    shutil.copy(SAMPLE / "lee.TextGrid", root / "t1.lee.TextGrid")
    shutil.copy(SAMPLE / "kim.TextGrid", root / "t2.kim.TextGrid")
    (root / "t2.lee.TextGrid").write_text(_retimed((SAMPLE / "lee.TextGrid").read_text(), 0.35), encoding="utf-8")
    (root / "t3.kim.csv").write_text("annotator,start,end,category\nkim,0,2,beat\nkim,3,5,point\nkim,6,9,beat\n")
    (root / "t3.lee.csv").write_text("annotator,start,end,category\nlee,0.1,2,beat\nlee,3.5,5,beat\nlee,6,8,beat\n")
    return root


def _documents(paths: list[Path]) -> list:
    """Each file read as its corpus annotator (the name between the text and the extension)."""
    docs = []
    for p in paths:
        doc = api.read(p)
        doc.annotator = p.name.split(".")[1]
        docs.append(doc)
    return docs


def _unit_sets(root: Path, text: str) -> list:
    files = sorted(root.glob(f"{text}.*"))
    sources = files if files[0].suffix == ".csv" else _documents(files)
    return list(api.read_time_units(sources).speakers.values())


def test_each_text_is_scored_as_agree_time_scores_its_files(corpus: Path, tmp_path: Path) -> None:
    done = api.run(corpus, tmp_path / "out", time=True, measures=FAST, params=PARAMS)
    assert sorted(done.texts) == ["t1", "t2", "t3"] and not done.failures
    for text in done.texts:
        alone = api.agree_time(sorted(corpus.glob(f"{text}.*")), measures=FAST, params=PARAMS)
        for name in FAST:
            assert done.texts[text]["measures"][name]["pooled"]["value"] == alone["measures"][name]["pooled"]["value"]
    # the texts differ, so the pooled values below are not one text's value repeated
    assert done.texts["t1"]["alpha_u"] != done.texts["t2"]["alpha_u"]


def test_pooled_values_are_the_measures_on_every_texts_units(corpus: Path, tmp_path: Path) -> None:
    done = api.run(corpus, tmp_path / "out", time=True, measures=FAST, params=PARAMS)
    items = [us for text in ("t1", "t2", "t3") for us in _unit_sets(corpus, text)]
    for name in FAST:
        expected = get_measure(name).compute(items, PARAMS).to_dict()
        assert done.pooled[name] == expected, name  # the same sums in the same order: equal
    # summed statistics, not the mean of the texts' values
    mean = sum(done.texts[t]["alpha_u"] for t in done.texts) / 3
    assert done.pooled["alpha_u"]["value"] != pytest.approx(mean)
    pairs = done.pooled["elan_kappa"]["elan_pairs"]
    assert list(pairs) == ["kim|lee"]  # the corpus's annotator names, the same pair in every text


def test_gamma_pooled_over_texts(corpus: Path, tmp_path: Path) -> None:
    params = {"samples": 5, "seed": 3}
    done = api.run(corpus, tmp_path / "out", time=True, measures=["gamma"], params=params)
    items = [us for text in ("t1", "t2") for us in _unit_sets(corpus, text)]
    shutil.rmtree(tmp_path / "out")
    (corpus / "t3.kim.csv").unlink()  # t3 now has one annotator: skipped, not scored
    two = api.run(corpus, tmp_path / "out", time=True, measures=["gamma"], params=params)
    assert "t3" not in two.texts and any(s.startswith("t3: only one annotator") for s in two.corpus.skipped)
    gamma = get_measure("gamma").compute(items, params).to_dict()
    assert two.pooled["gamma"]["value"] == pytest.approx(gamma["value"])
    assert done.pooled["gamma"]["value"] != pytest.approx(gamma["value"])  # t3 counted in the first run


def test_a_broken_text_is_listed_and_the_others_scored(corpus: Path, tmp_path: Path) -> None:
    (corpus / "t2.lee.TextGrid").write_text("not a TextGrid\n", encoding="utf-8")
    done = api.run(corpus, tmp_path / "out", time=True, measures=["alpha_u"])
    assert sorted(done.texts) == ["t1", "t3"]
    failures = {f["text"]: f["error"] for f in done.failures}
    assert list(failures) == ["t2"] and "t2.lee.TextGrid" in failures["t2"]
    items = [us for text in ("t1", "t3") for us in _unit_sets(corpus, text)]
    assert done.pooled["alpha_u"]["value"] == pytest.approx(get_measure("alpha_u").compute(items, {}).value)
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert summary["failures"][0]["text"] == "t2" and "t2.lee.TextGrid" in summary["failures"][0]["error"]
    assert "t2.lee.TextGrid" in (tmp_path / "out" / "report.html").read_text(encoding="utf-8")


def test_summary_rows_and_report(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = api.run(corpus, out, time=True, measures=["alpha_u", "ku_alpha", "boundary_f1"], params=PARAMS)
    with (out / "summary.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0])[:6] == ["text", "speaker", "annotators", "measure", "value", "note"]
    by = {(r["text"], r["speaker"], r["measure"]): r for r in rows}
    for text in ("t1", "t2", "t3", "ALL"):
        source = done.pooled if text == "ALL" else done.texts[text]["measures"]
        for name in ("alpha_u", "boundary_f1"):
            pooled = source[name] if text == "ALL" else source[name]["pooled"]
            assert float(by[(text, "ALL", name)]["value"]) == pytest.approx(pooled["value"])
    # (k)uα is one value per category: a row NAME:CATEGORY each
    assert float(by[("t1", "ALL", "ku_alpha:point")]["value"]) == pytest.approx(
        done.texts["t1"]["ku_alpha_values"]["point"]["alpha"]
    )
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["rows"] == json.loads(json.dumps(done.rows))
    assert summary["texts"]["t1"]["files"] == {"kim": "t1.kim.TextGrid", "lee": "t1.lee.TextGrid"}
    html = (out / "report.html").read_text(encoding="utf-8")
    assert all(f'<a href="texts/{t}.html">{t}</a>' in html for t in ("t1", "t2", "t3")) and 'id="text-table"' in html
    assert "<script src" not in html and "<link" not in html  # self-contained


def test_names_are_escaped_in_the_report(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    for who in ("kim", "lee"):
        shutil.copy(SAMPLE / f"{who}.TextGrid", root / f"<b>x&y.{who}.TextGrid")
    api.run(root, tmp_path / "out", time=True, measures=["alpha_u"])
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "<b>x&y" not in html and "&lt;b&gt;x&amp;y" in html


def test_usage_errors_stop_the_run(corpus: Path, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="unknown metric"):
        api.run(corpus, tmp_path / "out", time=True, measures=["no_such_measure"])
    with pytest.raises(UsageError, match="do not read units in time"):
        api.run(corpus, tmp_path / "out", time=True, measures=["sf"])
    with pytest.raises(SegagreeError, match="no such folder"):
        api.run(tmp_path / "missing", tmp_path / "out", time=True)
    assert not (tmp_path / "out").exists()


def test_speakers_and_the_folder_layout(tmp_path: Path) -> None:
    """One folder per annotator; each file has two speakers: a row per speaker, the text pooled over
    them, the corpus pooled over every speaker of every text."""
    root = tmp_path / "corpus"
    table = "annotator,speaker,start,end,category\n"
    units = {
        "kim": [("A", 0, 2, "x"), ("A", 3, 5, "y"), ("B", 0, 1, "x"), ("B", 2, 4, "x")],
        "lee": [("A", 0.2, 2, "x"), ("A", 3, 4, "x"), ("B", 0, 1.5, "x"), ("B", 2.5, 4, "y")],
    }
    for who, rows in units.items():
        (root / who).mkdir(parents=True)
        for text, shift in (("s1", 0.0), ("s2", 0.5)):
            body = "".join(f"{who},{spk},{a + shift},{b + shift},{c}\n" for spk, a, b, c in rows)
            (root / who / f"{text}.csv").write_text(table + body, encoding="utf-8")
    done = api.run(root, tmp_path / "out", time=True, measures=["alpha_u"])
    assert done.corpus.layout == "folders" and sorted(done.texts) == ["s1", "s2"]
    rows = {(r["text"], r["speaker"]): r["value"] for r in done.rows}
    assert set(rows) == {(t, s) for t in ("s1", "s2") for s in ("A", "B", "ALL")} | {("ALL", "ALL")}
    per_text = [
        us for text in ("s1", "s2") for us in api.read_time_units(sorted(root.glob(f"*/{text}.csv"))).speakers.values()
    ]
    assert len(per_text) == 4 and None not in rows.values()
    assert rows[("ALL", "ALL")] == get_measure("alpha_u").compute(per_text, {}).value
    one = api.read_time_units(sorted(root.glob("*/s1.csv"))).speakers["A"]
    assert rows[("s1", "A")] == get_measure("alpha_u").compute([one], {}).value


def test_a_folder_without_texts_is_an_error_naming_the_files(tmp_path: Path) -> None:
    with pytest.raises(SegagreeError, match=r"gestures.csv: no annotator in the name"):
        api.run(SAMPLE, tmp_path / "out", time=True, measures=["alpha_u"])
    assert not (tmp_path / "out").exists()
