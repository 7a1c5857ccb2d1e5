"""DER and JER against pyannote.metrics 4.2.0 and dscore (stored outputs: tests/data/unitizing/
diarization_reference.json, made by make_diarization_reference.py there), pyannote run live where it
is installed, and through RTTM files on the command line."""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path

import pytest
from cli_process import run_cli
from time_unit_sets import make_unit_set

from segagree.metrics.contract import UnitSet
from segagree.metrics.registry import get_measure

DATA = Path(__file__).resolve().parents[1] / "data" / "unitizing" / "diarization_reference.json"
CASES = json.loads(DATA.read_text(encoding="utf-8"))["cases"]
DER, JER = get_measure("der"), get_measure("jer")


def pair(ref: list, hyp: list) -> UnitSet:
    return make_unit_set([(0, *t) for t in ref] + [(1, *t) for t in hyp], ("ref", "sys"), (0.0, 40.0))


def as_rttm(turns: list) -> list:
    """The turns as an RTTM holds them and segagree reads them: onset, duration, end = onset + duration."""
    out = []
    for s, e, label in turns:
        onset, duration = float(f"{s:.2f}"), float(f"{e - s:.2f}")
        out.append((onset, onset + duration, label))
    return out


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_der_and_jer_equal_pyannote(case: dict) -> None:
    params = {"collar": case["collar"], "skip_overlap": case["skip_overlap"]}
    der = DER.compute([pair(case["ref"], case["hyp"])], params).to_dict()
    want = case["pyannote"]
    for key in ("total", "missed_detection", "false_alarm", "confusion"):
        assert der[key] == pytest.approx(want[key], abs=1e-9), key
    assert der["value"] == pytest.approx(want["der"], abs=1e-12)
    jer = JER.compute([pair(case["ref"], case["hyp"])], params).to_dict()
    assert jer["value"] == pytest.approx(want["jer"], abs=1e-12)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_dscore_convention_prints_dscores_figures(case: dict) -> None:
    # dscore's --collar C is pyannote's 2C; its JER uses neither the collar nor the skipped overlap
    params = {"collar": case["collar"], "skip_overlap": case["skip_overlap"], "convention": "dscore"}
    us = pair(as_rttm(case["ref"]), as_rttm(case["hyp"]))
    assert f"{100 * DER.compute([us], params).value:.2f}" == case["dscore"]["der_percent"]
    assert f"{100 * JER.compute([us], params).value:.2f}" == case["dscore"]["jer_percent"]


def test_against_pyannote_live_with_a_speakers_overlapping_turns() -> None:
    pytest.importorskip("pyannote.metrics", reason="pyannote.metrics is the reference where installed")
    from pyannote.core import Annotation, Segment
    from pyannote.metrics.diarization import DiarizationErrorRate, JaccardErrorRate

    def annotation(turns: list) -> Annotation:
        a = Annotation()
        for s, e, label in turns:
            a[Segment(s, e), a.new_track(Segment(s, e))] = label
        return a

    def turns(rng: random.Random, labels: str) -> list:
        out, pos = [], rng.uniform(0, 2)
        while pos < 30:
            end = pos + rng.uniform(0.3, 5)
            out.append((round(pos, 2), round(end, 2), rng.choice(labels)))
            pos = max(out[-1][0] + 0.05, end + rng.choice([-0.8, -0.3, 0.0, 0.2, 1.0]))
        return out

    warnings.filterwarnings("ignore", "'uem' was approximated")
    for seed in range(8):
        rng = random.Random(seed)
        ref, hyp = turns(rng, "xyz"), turns(rng, "ABCD"[: rng.randint(1, 4)])
        collar, skip = rng.choice([0.0, 0.25, 0.5]), rng.random() < 0.3
        params = {"collar": collar, "skip_overlap": skip}
        mine = DER.compute([pair(ref, hyp)], params).to_dict()
        theirs = DiarizationErrorRate(collar=collar, skip_overlap=skip)(annotation(ref), annotation(hyp), detailed=True)
        assert mine["value"] == pytest.approx(theirs["diarization error rate"], abs=1e-12), seed
        assert mine["confusion"] == pytest.approx(theirs["confusion"], abs=1e-9), seed
        jer = JaccardErrorRate(collar=collar, skip_overlap=skip)(annotation(ref), annotation(hyp))
        assert JER.compute([pair(ref, hyp)], params).value == pytest.approx(jer, abs=1e-12), seed


def test_pooled_over_recordings_is_the_ratio_of_summed_components() -> None:
    a, b = CASES[0], CASES[1]
    one, two = pair(a["ref"], a["hyp"]), pair(b["ref"], b["hyp"])
    pooled = DER.compute([one, two], {}).to_dict()
    parts = [DER.compute([u], {}).to_dict() for u in (one, two)]
    errors = sum(p["missed_detection"] + p["false_alarm"] + p["confusion"] for p in parts)
    assert pooled["value"] == pytest.approx(errors / sum(p["total"] for p in parts))
    jer = JER.compute([one, two], {}).to_dict()
    speakers = [JER.compute([u], {}).to_dict() for u in (one, two)]
    assert jer["value"] == pytest.approx(
        sum(s["speaker_error"] for s in speakers) / sum(s["speakers"] for s in speakers)
    )


def test_unlabelled_units_and_empty_sides_are_said() -> None:
    us = pair([(0.0, 1.0, "x")], [(0.0, 1.0, "A")])
    unlabelled = UnitSet(us.annotators, (), us.annotator, us.start, us.end, us.category * 0 - 1, (), us.continuum)
    assert DER.compute([unlabelled], {}).value is None
    assert "--category label" in DER.compute([unlabelled], {}).to_dict()["reason"]
    missed = DER.compute([make_unit_set([(0, 0.0, 2.0, "x")], ("ref", "sys"), (0.0, 2.0))], {}).to_dict()
    assert (missed["value"], missed["missed_detection"]) == (1.0, 2.0)
    with pytest.raises(ValueError, match="convention"):
        DER.compute([us], {"convention": "nist"})


REF_RTTM = """SPEAKER rec1 1 0.00 3.50 <NA> <NA> s1 <NA> <NA>
SPEAKER rec1 1 3.00 4.00 <NA> <NA> s2 <NA> <NA>
SPEAKER rec1 1 7.50 2.50 <NA> <NA> s1 <NA> <NA>
SPEAKER rec1 1 11.00 3.00 <NA> <NA> s3 <NA> <NA>
"""
SYS_RTTM = """SPEAKER rec1 1 0.20 3.00 <NA> <NA> A <NA> <NA>
SPEAKER rec1 1 3.20 4.50 <NA> <NA> B <NA> <NA>
SPEAKER rec1 1 7.70 2.00 <NA> <NA> A <NA> <NA>
SPEAKER rec1 1 10.50 2.00 <NA> <NA> B <NA> <NA>
SPEAKER rec1 1 12.50 1.50 <NA> <NA> C <NA> <NA>
"""


def test_rttm_files_on_the_command_line_give_dscores_figures(tmp_path: Path) -> None:
    # dscore (commit e02f949) on these two files: DER 28.46, JER 36.65; with --collar 0.25
    # --ignore_overlaps: DER 15.50, JER 36.65
    (tmp_path / "ref.rttm").write_text(REF_RTTM, encoding="utf-8")
    (tmp_path / "sys.rttm").write_text(SYS_RTTM, encoding="utf-8")
    files = [tmp_path / "ref.rttm", tmp_path / "sys.rttm"]
    import segagree

    out = segagree.agree_time([str(f) for f in files], measures=["der", "jer"])
    assert (f"{100 * out['der']:.2f}", f"{100 * out['jer']:.2f}") == ("28.46", "36.65")
    collared = run_cli(["agree", "--time", *files, "--measure", "der,jer", "--collar", "0.5", "--skip-overlap",
                        "--convention", "dscore", "--json"])  # fmt: skip
    assert collared.returncode == 0, collared.stderr
    out = json.loads(collared.stdout)
    assert (f"{100 * out['der']:.2f}", f"{100 * out['jer']:.2f}") == ("15.50", "36.65")
    assert out["measures"]["der"]["pooled"]["der_pairs"]["ref|sys"]["mapping"] == {"A": "s1", "B": "s2", "C": "s3"}


def test_purity_coverage_gives_pyannotes_figures_with_the_labels(tmp_path: Path) -> None:
    # pyannote.metrics 4.2.0 SegmentationPurity/Coverage on these two files: 0.959349593495935 and
    # 0.8211382113821136; with --category none the gaps between speakers are filled: 1.0 / 0.59
    import segagree

    (tmp_path / "ref.rttm").write_text(REF_RTTM, encoding="utf-8")
    (tmp_path / "sys.rttm").write_text(SYS_RTTM, encoding="utf-8")
    files = [str(tmp_path / "ref.rttm"), str(tmp_path / "sys.rttm")]
    labelled = segagree.agree_time(files, measures=["purity_coverage"])["measures"]["purity_coverage"]["pooled"]
    assert labelled["purity"] == pytest.approx(0.959349593495935, abs=1e-12)
    assert labelled["coverage"] == pytest.approx(0.8211382113821136, abs=1e-12)
    none = segagree.agree_time(files, measures=["purity_coverage"], category="none")
    assert none["measures"]["purity_coverage"]["pooled"]["purity"] == 1.0


def test_a_uem_file_scores_its_regions_only(tmp_path: Path) -> None:
    # pyannote.metrics 4.2.0 with uem=Timeline([Segment(0, 6), Segment(10, 14)]) on these files:
    # DER 0.28421052631578947, JER 0.36095238095238097, DER with collar 0.5 and skip_overlap
    # 0.20689655172413793; dscore -u: DER 28.42, JER 36.10
    import segagree
    from segagree.errors import InputError

    (tmp_path / "ref.rttm").write_text(REF_RTTM, encoding="utf-8")
    (tmp_path / "sys.rttm").write_text(SYS_RTTM, encoding="utf-8")
    # a line beginning with ';' is a comment, as dscore reads its own test UEM ("; A comment.")
    (tmp_path / "a.uem").write_text("rec1 1 0.00 6.00\n; A comment.\nrec1 1 10.00 14.00", encoding="utf-8")
    files = [str(tmp_path / "ref.rttm"), str(tmp_path / "sys.rttm")]
    uem = str(tmp_path / "a.uem")
    out = segagree.agree_time(files, measures=["der", "jer"], params={"uem": uem})
    assert out["der"] == pytest.approx(0.28421052631578947, abs=1e-12)
    assert out["jer"] == pytest.approx(0.36095238095238097, abs=1e-12)
    cut = segagree.agree_time(files, measures=["der"], params={"uem": uem, "collar": 0.5, "skip_overlap": True})
    assert cut["der"] == pytest.approx(0.20689655172413793, abs=1e-12)
    dscore = segagree.agree_time(files, measures=["der", "jer"], params={"uem": uem, "convention": "dscore"})
    assert (f"{100 * dscore['der']:.2f}", f"{100 * dscore['jer']:.2f}") == ("28.42", "36.10")
    (tmp_path / "other.uem").write_text("rec9 1 0 5\n", encoding="utf-8")
    (tmp_path / "bad.uem").write_text("rec1 1 5 2\n", encoding="utf-8")
    other = segagree.agree_time(files, measures=["der"], params={"uem": str(tmp_path / "other.uem")})
    assert other["der"] is None and "'rec1'" in other["measures"]["der"]["pooled"]["reason"]
    with pytest.raises(InputError, match="line 1: a scored region 5 to 2"):
        segagree.agree_time(files, measures=["der"], params={"uem": str(tmp_path / "bad.uem")})


def test_the_signatures_name_the_settings_in_use() -> None:
    us = pair(CASES[0]["ref"], CASES[0]["hyp"])
    der = DER.compute([us], {"collar": 0.5, "skip_overlap": True, "convention": "dscore"}).to_dict()
    assert der["signature"].startswith("der|collar:0.5|skip_overlap:yes|convention:dscore|")
    assert JER.compute([us], {}).to_dict()["signature"].startswith("jer|collar:0|skip_overlap:no|convention:pyannote|")
    f1 = get_measure("boundary_f1").compute([us], {"tolerance": 0.5, "matching": "greedy"}).to_dict()
    assert f1["signature"].startswith("boundary_f1|tolerance:0.5|matching:greedy|")


def test_a_recording_where_only_the_system_speaks_is_one_and_adds_no_speaker() -> None:
    quiet = make_unit_set([(1, 0.0, 2.0, "A")], ("ref", "sys"), (0.0, 2.0))
    assert JER.compute([quiet], {}).value == 1.0
    other = pair(CASES[0]["ref"], CASES[0]["hyp"])
    assert JER.compute([quiet, other], {}).value == pytest.approx(JER.compute([other], {}).value)


def test_a_run_scores_again_when_its_uem_file_is_edited(tmp_path: Path) -> None:
    import segagree

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "rec.ref.rttm").write_text(REF_RTTM, encoding="utf-8")
    (corpus / "rec.sys.rttm").write_text(SYS_RTTM, encoding="utf-8")
    uem = tmp_path / "a.uem"

    def der() -> float:
        out = tmp_path / "out"
        segagree.run(corpus, out, time=True, measures=["der"], params={"uem": str(uem)}, report=False)
        rows = (out / "summary.csv").read_text(encoding="utf-8").splitlines()
        return float(next(r for r in rows if r.startswith("ALL,ALL,")).split(",")[4])

    uem.write_text("rec1 1 0.00 6.00\nrec1 1 10.00 14.00\n", encoding="utf-8")
    assert der() == pytest.approx(0.28421052631578947, abs=1e-12)
    uem.write_text("rec1 1 0.00 14.00\n", encoding="utf-8")  # the whole recording: the plain DER
    assert der() == pytest.approx(0.2846153846153847, abs=1e-12)


def test_der_and_jer_are_scored_in_this_process_whatever_jobs_says(monkeypatch: pytest.MonkeyPatch) -> None:
    # linear measures: two workers' start-up and scipy imports cost more than the items they score
    import concurrent.futures

    from segagree.scoring.time.items import score_items

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a worker pool for light measures")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", refuse)
    items = [pair([(0.0, 4.0, "a"), (4.0, 9.0, "b")], [(0.5, 5.0, "x"), (5.0, 9.0, "y")]) for _ in range(3)]
    scored = score_items([DER, JER], items, {"collar": 0.0}, jobs=2)
    alone = [DER.compute([i], {"collar": 0.0}).to_dict()["value"] for i in items]
    assert [s[0][1]["value"] for s in scored] == alone
    assert DER.light and JER.light and not get_measure("gamma").light


def test_turns_of_no_duration_are_left_out_as_pyannote_leaves_empty_segments(tmp_path: Path) -> None:
    ref = [(0.0, 6.0, "a"), (6.0, 12.0, "b"), (12.0, 20.0, "a")]
    hyp = [(0.3, 6.4, "x"), (6.4, 13.0, "y"), (13.0, 19.0, "x")]
    params = {"collar": 0.5}
    for empty_ref, empty_hyp in (([(3.0, 3.0, "b")], []), ([], [(9.0, 9.0, "z")]), ([(16.0, 16.0, "c")], [])):
        with_empty = pair([*ref, *empty_ref], [*hyp, *empty_hyp])
        for measure in (DER, JER):
            assert measure.compute([with_empty], params).to_dict()["value"] == pytest.approx(
                measure.compute([pair(ref, hyp)], params).to_dict()["value"], abs=1e-12
            )
    path = tmp_path / "ref.rttm"
    path.write_text("SPEAKER r 1 0.00 6.00 <NA> <NA> a <NA> <NA>\nSPEAKER r 1 3.00 0.00 <NA> <NA> b <NA> <NA>\n")
    import segagree

    notes = [n.line() for n in segagree.read(path).losses.notes]
    assert any(n.startswith("empty-turns") and "(1)" in n for n in notes), notes


def test_a_recording_the_system_lacks_is_noted_and_scored_as_missed_on_request(tmp_path: Path) -> None:
    import segagree

    rec2 = "SPEAKER rec2 1 1.00 4.00 <NA> <NA> s1 <NA> <NA>\n"
    (tmp_path / "ref.rttm").write_text(REF_RTTM + rec2, encoding="utf-8")
    (tmp_path / "sys.rttm").write_text(SYS_RTTM, encoding="utf-8")
    files = [str(tmp_path / "ref.rttm"), str(tmp_path / "sys.rttm")]
    left = segagree.agree_time(files, measures=["der"])
    assert any("'rec2' is in the reference's files only" in n for n in left["notes"]), left["notes"]
    scored = segagree.agree_time(files, measures=["der"], missing_as_empty=True)
    # as pyannote.metrics and dscore count it: all of rec2's 4 s of speech missed
    parts = left["measures"]["der"]["pooled"]  # rec1 alone
    want = (parts["missed_detection"] + parts["false_alarm"] + parts["confusion"] + 4.0) / (parts["total"] + 4.0)
    assert scored["der"] == pytest.approx(want, abs=1e-12)
    assert not any("reference's files only" in n for n in scored["notes"])
