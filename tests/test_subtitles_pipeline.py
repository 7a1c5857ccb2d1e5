"""Subtitle evaluation of SRT files: perfect/imperfect text, SubER parity, corpus pooling, runners.

The SRT files in tests/data/subtitles/ are written for these tests: ``ref.srt`` (7 cues, 69
words, 4 ``<eol>``) and hypotheses ``identical``, ``shifted`` (3 breaks moved by one word),
``oneline`` (every line its own cue), ``resegmented`` (5 cues, breaks elsewhere) and
``changed_words`` (ref's breaks, 8 words substituted, 2 deleted, 1 inserted); ``ref2``/``hyp2``
a second pair for corpus pooling.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
import sacrebleu

from segagree.adapters import read_document
from segagree.errors import InputError, UsageError
from segagree.metrics.subtitles import SUBTITLE_METRICS, suber_available
from segagree.pipeline.pairing import pair_annotations
from segagree.pipeline.subtitles import (
    GROUPS,
    NEED_PERFECT_TEXT,
    SubtitleOptions,
    evaluate_corpus,
    evaluate_pair,
    evaluate_paths,
    register,
    subtitle_text,
)
from segagree.schemas import builtin_scheme, from_units

DATA = Path(__file__).parent / "data" / "subtitles"
SUBER = Path(__file__).resolve().parents[1] / ".venv" / "bin" / "suber"
needs_suber = pytest.mark.skipif(not suber_available(), reason="the suber package is not installed")


def doc(name: str):
    return read_document(DATA / f"{name}.srt")


def values(result: dict) -> dict:
    return {k: v["value"] for k, v in result["metrics"].items()}


def suber_cli(hyps: list[str], refs: list[str], metrics: list[str]) -> dict:
    exe = SUBER if SUBER.exists() else shutil.which("suber")
    if exe is None:
        pytest.skip("the suber command-line program is not installed")
    cmd = [
        str(exe),
        "-H",
        *[str(DATA / f"{h}.srt") for h in hyps],
        "-R",
        *[str(DATA / f"{r}.srt") for r in refs],
        "-m",
        *metrics,
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=120)
    return json.loads(out.stdout)


def test_reference_fixture_is_what_the_docstring_says():
    t = subtitle_text(doc("ref"))
    assert len(t.cues) == 7 and len(t.words) == 69
    assert (t.codes == 2).sum() == 4 and (t.codes == 1).sum() == 7


@needs_suber
def test_identical_files_score_perfectly():
    res = evaluate_pair(doc("ref"), doc("identical"), "subtitles")
    v = values(res)
    for name in ("f1_eob", "f1_eol", "f1_eox"):
        assert v[name] == 1.0
    for name in ("bleu_br", "bleu_nb", "s_bleu", "t_bleu"):
        assert v[name] == pytest.approx(100.0)
    assert v["ter_br"] == 0.0 and v["suber"] == 0.0 and v["tbhr"] == pytest.approx(0.0)
    assert res["text"]["identical"] and res["text"]["matched"] == 69
    assert all(m["applicable"] for m in res["metrics"].values())


def test_boundary_f1_hand_count_shifted():
    # eob: ref ends of cues 1-6; hyp moves cue 3's end one word left -> tp 5, fp 1, fn 1.
    # eol: after tomatoes/needed/August/beans vs the/needed/and/beans -> tp 2, fp 2, fn 2.
    # any: 7 of 10 on both sides.
    m = evaluate_pair(doc("ref"), doc("shifted"), ["f1_eob", "f1_eol", "f1_eox"])["metrics"]
    assert (m["f1_eob"]["tp"], m["f1_eob"]["fp"], m["f1_eob"]["fn"]) == (5, 1, 1)
    assert m["f1_eob"]["value"] == pytest.approx(5 / 6)
    assert (m["f1_eol"]["tp"], m["f1_eol"]["fp"], m["f1_eol"]["fn"]) == (2, 2, 2)
    assert m["f1_eol"]["precision"] == m["f1_eol"]["recall"] == m["f1_eol"]["value"] == 0.5
    assert (m["f1_eox"]["tp"], m["f1_eox"]["fp"], m["f1_eox"]["fn"]) == (7, 3, 3)
    assert m["f1_eox"]["value"] == pytest.approx(0.7)


def test_boundary_f1_hand_count_one_line_blocks():
    # every <eol> became <eob>: eob P = 6/10, R = 1; eol nothing found; merged breaks identical
    m = evaluate_pair(doc("ref"), doc("oneline"), ["f1_eob", "f1_eol", "f1_eox"])["metrics"]
    assert m["f1_eob"]["precision"] == pytest.approx(0.6) and m["f1_eob"]["recall"] == 1.0
    assert m["f1_eob"]["value"] == pytest.approx(0.75)
    assert (m["f1_eol"]["tp"], m["f1_eol"]["fn"], m["f1_eol"]["value"]) == (0, 4, 0.0)
    assert m["f1_eox"]["value"] == 1.0


def test_include_final_counts_the_end_of_text():
    m = evaluate_pair(doc("ref"), doc("shifted"), ["f1_eob"], {"include_final": True})["metrics"]
    assert (m["f1_eob"]["tp"], m["f1_eob"]["fp"], m["f1_eob"]["fn"]) == (6, 1, 1)
    assert m["f1_eob"]["params"]["include_final"] is True


def test_ter_br_sync_segments_find_one_word_shifts():
    # 3 breaks each moved by one word = 3 shifts over 80 reference tokens (69 words + 11 breaks)
    m = evaluate_pair(doc("ref"), doc("shifted"), ["ter_br"])["metrics"]["ter_br"]
    assert m["num_edits"] == 3 and m["ref_length"] == 80
    assert m["value"] == pytest.approx(3.75)


def test_bleu_br_and_nb_on_whole_text():
    ref, hyp = subtitle_text(doc("ref")), subtitle_text(doc("resegmented"))
    m = evaluate_pair(doc("ref"), doc("resegmented"), ["bleu_br", "bleu_nb"])["metrics"]
    assert m["bleu_nb"]["value"] == pytest.approx(100.0)  # same words
    tag = {0: "", 1: " eob", 2: " eol"}
    ref_s = " ".join(w + tag[int(c)] for w, c in zip(ref.words, ref.codes, strict=True))
    hyp_s = " ".join(w + tag[int(c)] for w, c in zip(hyp.words, hyp.codes, strict=True))
    assert m["bleu_br"]["value"] == pytest.approx(sacrebleu.corpus_bleu([hyp_s], [[ref_s]]).score)
    assert m["bleu_br"]["value"] < 90


@needs_suber
def test_s_bleu_not_applicable_for_unequal_counts_never_fails():
    for hyp in ("oneline", "resegmented"):
        res = evaluate_pair(doc("ref"), doc(hyp), "subtitles")
        s = res["metrics"]["s_bleu"]
        assert s["value"] is None and s["applicable"] is False
        assert s["n_reference_subtitles"] == 7
        assert s["n_hypothesis_subtitles"] == {"oneline": 11, "resegmented": 5}[hyp]
        assert "11" in s["reason"] or "5" in s["reason"]
        assert res["metrics"]["t_bleu"]["value"] is not None


EQUAL_COUNTS = ("identical", "shifted", "changed_words")


@needs_suber
@pytest.mark.parametrize("hyp", ["identical", "shifted", "oneline", "resegmented", "changed_words"])
def test_numbers_equal_suber_command_line(hyp):
    cli_metrics = ["t-BLEU", "AS-BLEU", "SubER"]
    if hyp in EQUAL_COUNTS:
        cli_metrics += ["BLEU", "TER-br"]
    cli = suber_cli([hyp], ["ref"], cli_metrics)
    ours = evaluate_pair(doc("ref"), doc(hyp), "subtitles")["metrics"]
    assert round(ours["t_bleu"]["value"], 3) == pytest.approx(cli["t-BLEU"], abs=1e-3)
    assert round(ours["tbhr"]["as_bleu"], 3) == pytest.approx(cli["AS-BLEU"], abs=1e-3)
    assert ours["tbhr"]["value"] == pytest.approx(cli["AS-BLEU"] - cli["t-BLEU"], abs=2e-3)
    assert ours["suber"]["value"] == pytest.approx(cli["SubER"], abs=1e-3)
    if hyp in EQUAL_COUNTS:
        assert round(ours["s_bleu"]["value"], 3) == pytest.approx(cli["BLEU"], abs=1e-3)
        ter = evaluate_pair(doc("ref"), doc(hyp), ["ter_br"], {"ter_br_unit": "subtitle"})["metrics"]["ter_br"]
        assert round(ter["value"], 3) == pytest.approx(cli["TER-br"], abs=1e-3)
    else:
        assert ours["s_bleu"]["value"] is None


@needs_suber
def test_imperfect_text_projection_and_report():
    res = evaluate_pair(doc("ref"), doc("changed_words"), "subtitles")
    text = res["text"]
    assert not text["identical"] and text["projected"]
    assert (text["n_reference_tokens"], text["n_hypothesis_tokens"]) == (69, 68)
    assert (text["matched"], text["substituted"], text["reference_only"], text["hypothesis_only"]) == (59, 8, 2, 1)
    assert set(text["need_perfect_text"]) == set(NEED_PERFECT_TEXT)
    v = values(res)
    # breaks sit after the same words: the projection finds all of them
    assert v["f1_eob"] == v["f1_eol"] == v["f1_eox"] == 1.0
    assert v["bleu_nb"] < 70 and v["bleu_br"] > v["bleu_nb"]
    assert v["tbhr"] == pytest.approx(0.0)  # segmentation already optimal
    assert v["suber"] > 0


@needs_suber
def test_corpus_pooling_equals_suber_on_several_files():
    pairs = [(doc("ref"), doc("resegmented")), (doc("ref2"), doc("hyp2"))]
    res = evaluate_corpus(pairs, "subtitles")
    assert len(res["files"]) == 2 and res["pooled"]["n_files"] == 2
    cli = suber_cli(["resegmented", "hyp2"], ["ref", "ref2"], ["t-BLEU", "SubER"])
    pooled = res["pooled"]["metrics"]
    assert pooled["suber"]["value"] == pytest.approx(cli["SubER"], abs=1e-3)
    assert round(pooled["t_bleu"]["value"], 3) == pytest.approx(cli["t-BLEU"], abs=1e-3)
    # pooled F1 from summed counts
    f = [r["metrics"]["f1_eox"] for r in res["files"]]
    tp, fp, fn = (sum(x[k] for x in f) for k in ("tp", "fp", "fn"))
    assert pooled["f1_eox"]["tp"] == tp
    assert pooled["f1_eox"]["value"] == pytest.approx(2 * tp / (2 * tp + fp + fn))
    # pooled BLEU from summed statistics, not the mean of the files' scores
    mean = sum(r["metrics"]["bleu_br"]["value"] for r in res["files"]) / 2
    assert pooled["bleu_br"]["hyp_len"] == sum(r["metrics"]["bleu_br"]["hyp_len"] for r in res["files"])
    assert abs(pooled["bleu_br"]["value"] - mean) > 1e-6
    # S-BLEU not applicable for the first pair: pooled says so and names it
    assert res["files"][1]["metrics"]["s_bleu"]["value"] is not None
    assert pooled["s_bleu"]["value"] is None and "1 of 2" in pooled["s_bleu"]["reason"]


def test_evaluate_paths_reads_srt_and_checks_counts():
    res = evaluate_paths([DATA / "ref.srt"], [DATA / "shifted.srt"], ["f1_eob"])
    assert res["files"][0]["metrics"]["f1_eob"]["tp"] == 5
    with pytest.raises(UsageError, match="1 reference files but 2"):
        evaluate_paths([DATA / "ref.srt"], [DATA / "shifted.srt", DATA / "oneline.srt"])


def test_malformed_srt_gives_input_error(tmp_path):
    bad = tmp_path / "bad.srt"
    bad.write_text("1\n00:00:01,000 --> 00:00:0x,500\nhello there\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        evaluate_paths([DATA / "ref.srt"], [bad])
    assert "bad.srt" in str(err.value)


def test_untimed_documents_get_not_applicable_time_metrics():
    scheme = builtin_scheme("subtitle")
    units = [
        {"speaker": "S", "tokens": ["a", "b"], "boundary": 2},
        {"speaker": "S", "tokens": ["c"], "boundary": 1},
        {"speaker": "S", "tokens": ["d", "e"], "boundary": 1},
    ]
    a = from_units("a", units, layer="subtitle", scheme=scheme)
    b = from_units("b", [{**u, "boundary": 1} for u in units], layer="subtitle", scheme=scheme)
    res = evaluate_pair(a, b, "subtitles")
    m = res["metrics"]
    for name in ("t_bleu", "tbhr", "suber"):
        assert m[name]["value"] is None and m[name]["applicable"] is False and m[name]["reason"]
    assert m["f1_eob"]["precision"] == 0.5 and m["f1_eob"]["recall"] == 1.0
    assert m["s_bleu"]["value"] is None  # 3 cues against 2


def test_options_are_checked():
    with pytest.raises(UsageError, match="ter_br_unit"):
        SubtitleOptions.from_mapping({"ter_br_unit": "sentence"})
    with pytest.raises(UsageError, match="tokenizer"):
        SubtitleOptions(tokenize="nope")
    with pytest.raises(UsageError, match="unknown subtitle metric"):
        evaluate_pair(doc("ref"), doc("shifted"), ["f1_eob", "wer"])
    opts = SubtitleOptions.from_mapping({"include_final": "true", "ter_br_max_words": "12", "k": 3})
    assert opts.include_final is True and opts.ter_br_max_words == 12


def test_register_runners_and_group():
    runners: dict = {}
    groups = register(runners)
    assert groups == GROUPS and tuple(runners) == SUBTITLE_METRICS == groups["subtitles"]
    ref, hyp = doc("ref"), doc("shifted")
    out = runners["f1_eob"](SimpleNamespace(a=ref, b=hyp, layer="subtitle"), {})
    assert out["value"] == pytest.approx(5 / 6) and out["per_speaker"] == {}
    assert out["params"] == {"include_final": False, "normalise_alignment": True}
    assert out["text"]["identical"]
    pair = pair_annotations(ref, doc("identical"), layer="subtitle")
    assert runners["f1_eox"](pair, {"include_final": True})["value"] == 1.0
    s = runners["s_bleu"](SimpleNamespace(a=ref, b=doc("oneline"), layer="subtitle"), {})
    assert s["value"] is None and s["n_hypothesis_subtitles"] == 11


def test_runner_on_a_non_subtitle_layer_is_not_applicable():
    units = [{"speaker": "A", "tokens": ["so", "we", "went"], "boundary": 1}]
    d = from_units("x", units, layer="iu", scheme=builtin_scheme("dubois"))
    runners: dict = {}
    register(runners)
    out = runners["suber"](SimpleNamespace(a=d, b=d, layer="iu"), {})
    assert out["value"] is None and out["applicable"] is False and "<eob>" in out["reason"]


def test_register_into_metric_runner():
    from segagree.pipeline import metric_runner

    before = dict(metric_runner.RUNNERS)
    try:
        metric_runner.RUNNERS.clear()
        register(metric_runner.RUNNERS)
        assert set(SUBTITLE_METRICS) <= set(metric_runner.RUNNERS)
        assert "t_bleu" in metric_runner.known_metrics()
    finally:
        metric_runner.RUNNERS.clear()
        metric_runner.RUNNERS.update(before)
