"""One API style: ``agree(a, b, ...)`` as ``compare(a, b)``, the command line's spellings (``format``
and ``to`` as ``--from`` and ``--to``, ``undecided="keep-a"``) with the former ones kept for a
release behind a DeprecationWarning, short reprs, ``to_frame()`` on the results, and errors that
are also the standard exceptions (the command line's exit codes unchanged)."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

import pytest
from cli_process import run_cli

import segagree

SAMPLE = Path(__file__).resolve().parents[2] / "sample_corpora"
A, B = SAMPLE / "garden.ann1.txt", SAMPLE / "garden.ann2.txt"


def test_agree_takes_annotations_as_arguments_and_the_list_form_still_works():
    new = segagree.agree(A, B, sims=30, seed=2, n_boot=10)
    with pytest.warns(DeprecationWarning, match=r"agree\(a, b, \.\.\.\)"):
        old = segagree.agree([A, B], sims=30, seed=2, n_boot=10)
    assert new["pairs"] == old["pairs"] and new.annotators == [A.name, B.name]
    with pytest.raises(segagree.UsageError, match="two or more"):
        segagree.agree(A, sims=30)


def test_convert_and_adjudicate_spell_their_options_as_the_command_line(tmp_path):
    report = segagree.convert(A, tmp_path / "x.out", format="text", to="praat")
    assert report.format_to == "textgrid"
    with pytest.warns(DeprecationWarning) as caught:
        old = segagree.convert(A, tmp_path / "y.out", from_format="text", to_format="praat")
    assert sorted(str(w.message).split("(")[1].split("=")[0] for w in caught) == ["from_format", "to_format"]
    assert (tmp_path / "x.out").read_bytes() == (tmp_path / "y.out").read_bytes() and old.format_to == "textgrid"
    with pytest.raises(segagree.UsageError, match="give to= only"):
        segagree.convert(A, tmp_path / "z.out", to="praat", to_format="praat")
    review = segagree.review(A, B, tmp_path / "r.xlsx", kappa=False)
    gold = segagree.adjudicate(review.path, tmp_path / "g.out", to="text", undecided="keep-a")
    assert gold.format == "text" and len(gold.undecided) == review.operations
    with pytest.warns(DeprecationWarning) as caught:
        again = segagree.adjudicate(review.path, tmp_path / "h.out", format="text", undecided="a")
    assert {str(w.message).split("(")[1].split("=")[0] for w in caught} == {"format", "undecided"}
    assert (tmp_path / "g.out").read_text(encoding="utf-8") == (tmp_path / "h.out").read_text(encoding="utf-8")
    assert again.undecided == gold.undecided
    with pytest.raises(ValueError, match="keep-a or error"):
        segagree.adjudicate(review.path, tmp_path / "i.txt", undecided="b")


def test_results_have_short_reprs_and_frames_of_their_numbers():
    result = segagree.compare(A, B, metrics="pk")
    text = repr(result)
    assert text.startswith("CompareResult(sf=0.9435, sf_b=0.7439") and len(text) < 200
    frame = result.to_frame()
    assert list(frame["speaker"]) == [*result.per_speaker, "ALL"]
    pooled = frame.set_index("speaker").loc["ALL"]
    assert pooled["sf"] == result.sf and pooled["pk"] == result.value("pk")
    assert pooled["n_tokens"] == frame["n_tokens"][:-1].sum()  # the pooled row sums the speakers' tokens
    for speaker, stats in result.per_speaker.items():
        row = frame.set_index("speaker").loc[speaker]
        assert row["sf_b"] == stats["sf_b"] and row["pk"] == result.metrics["pk"]["per_speaker"][speaker]

    agreement = segagree.agree(A, B, sims=30, seed=2, n_boot=10)
    assert repr(agreement).startswith("AgreementResult(annotators=") and len(repr(agreement)) < 200
    rows = agreement.to_frame()
    all_row = rows[rows["speaker"] == "ALL"].iloc[0]
    assert all_row["kappa_sf"] == agreement.kappa and len(rows) == len(agreement.pairs[0]["speakers"]) + 1

    timed = segagree.agree_time([SAMPLE / "time" / "kim.TextGrid", SAMPLE / "time" / "lee.TextGrid"])
    assert isinstance(timed, segagree.TimeAgreementResult) and len(repr(timed)) < 200
    table = timed.to_frame()
    gamma = table[(table["measure"] == "gamma") & (table["speaker"] == "ALL")]["value"].item()
    assert gamma == timed["gamma"]
    categories = table[table["measure"] == "gamma_k"].set_index("category")["value"].to_dict()
    assert categories == pytest.approx(timed["measures"]["gamma_k"]["pooled"]["value"])


def test_errors_are_also_the_standard_exceptions(tmp_path):
    with pytest.raises(FileNotFoundError) as missing:
        segagree.read(tmp_path / "absent.eaf")
    assert isinstance(missing.value, segagree.SegagreeError) and missing.value.errno == errno.ENOENT
    assert missing.value.filename == str(tmp_path / "absent.eaf")
    with pytest.raises(FileNotFoundError):
        segagree.run(tmp_path / "no-corpus", tmp_path / "out")
    with pytest.raises(ValueError, match="mode"):
        segagree.compare(A, B, mode="fastest")
    bad = tmp_path / "bad.eaf"
    bad.write_text("<not-elan/>", encoding="utf-8")
    with pytest.raises(ValueError):
        segagree.read(bad)
    shutil.copy(A, tmp_path / "a.txt")
    assert run_cli(["compare", "a.txt", "absent.txt"], cwd=tmp_path).returncode == 1
    assert run_cli(["compare", "a.txt", "a.txt", "--mode", "fastest"], cwd=tmp_path).returncode == 2


def test_the_panel_frame_holds_each_machines_numbers():
    result = segagree.panel(SAMPLE / "panel", machines=["seg"])
    assert repr(result).startswith("PanelResult(coefficient=") and len(repr(result)) < 300
    row = result.to_frame().set_index("machine").loc["seg"]
    seg = result.machines["seg"]
    assert row["change"] == seg["added"]["change"] and row["rank"] == seg["rank"]["rank"]
    assert row["humans_low"] == seg["rank"]["low"] and row["verdict"] == seg["verdict"]
