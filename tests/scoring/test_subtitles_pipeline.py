"""Subtitle evaluation of files: SubER parity with its command line, EvalSubtitle's published
numbers on real systems, MT output that does not align, projection, CJK, corpus pooling.

The SRT files in tests/data/subtitles/ were written for these tests: ``ref.srt`` (7 cues, 69
words, 4 ``<eol>``) and five invented hypotheses ``identical``, ``shifted`` (3 breaks moved by
one word), ``oneline`` (every line its own cue), ``resegmented`` (5 cues, breaks elsewhere) and
``changed_words`` (ref's breaks, 8 words substituted, 2 deleted, 1 inserted); ``ref2``/``hyp2``
a second pair for corpus pooling. The real files are the MuST-Cinema en->fr test set with four
systems in ../shared/corpora/subtitles_tagged.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from cli_process import run_cli

import segagree.api as api
from segagree.errors import UsageError
from segagree.formats import read_document, write_document
from segagree.metrics.subtitles.scores import SUBER_METRICS, suber_available
from segagree.scoring.subtitles.evaluation import (
    SUBTITLE_METRICS,
    SubtitleOptions,
    evaluate_corpus,
    evaluate_pair,
    evaluate_paths,
    project_sentences,
)
from segagree.scoring.tokens.compare import compare_documents

from conftest import shared_path

DATA = Path(__file__).resolve().parents[1] / "data" / "subtitles"
SUBER = Path(sys.executable).parent / "suber"
pytestmark = pytest.mark.skipif(not suber_available(), reason="the suber package (segagree[suber]) is not installed")
FIVE = ("identical", "shifted", "oneline", "resegmented", "changed_words")
PLAIN = ("WER", "CER", "BLEU", "TER", "chrF", "WER-cased", "CER-cased", "WER-seg", "BLEU-seg", "TER-seg", "TER-br")


def suber_cli(hyps: list[Path], refs: list[Path], metrics: list[str], *extra: str) -> dict:
    if not SUBER.exists():
        pytest.skip("the suber command line is not installed beside this Python")
    # The suber command line's own entry point, in a child forked from this process (its imports
    # are loaded here already: a new interpreter would pay them again for every call).
    out = run_cli(["-H", *map(str, hyps), "-R", *map(str, refs), "-m", *metrics, *extra], script="suber", timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def srt(name: str) -> Path:
    return DATA / f"{name}.srt"


# --------------------------------------------------------------------------------------------
# The five invented SRT hypotheses: every SubER metric equals the command line's
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("hyp", FIVE)
def test_every_suber_metric_equals_the_command_line_on_invented_hypotheses(hyp):
    res = evaluate_pair(read_document(srt("ref")), read_document(srt(hyp)), ["suber_metrics"])
    ours, info = res["metrics"]["suber_metrics"], res["metrics"]["suber_metrics_info"]
    equal_counts = hyp not in ("oneline", "resegmented")
    expected = [m for m in SUBER_METRICS if equal_counts or m not in PLAIN]
    assert list(ours) == expected
    assert set(info["not_applicable"]) == set(SUBER_METRICS) - set(expected)
    for name, reason in info["not_applicable"].items():
        assert "same number of segments" in reason and name in PLAIN
    cli = suber_cli([srt(hyp)], [srt("ref")], expected)
    assert ours == cli


def test_compare_cli_never_refuses_the_invented_hypotheses():
    for hyp in FIVE:
        cmd = ["compare", str(srt("ref")), str(srt(hyp)), "--metric", "subtitles"]
        out = run_cli([*cmd, "--json"])
        assert out.returncode == 0, out.stderr
        res = json.loads(out.stdout)
        assert set(SUBTITLE_METRICS) - {"s", "b"} <= set(res["metrics"])
        assert res["metrics"]["suber_metrics"]["SubER"] >= 0
        if hyp == "identical":
            assert res["sf"] == 1.0 and res["metrics"]["f1_eox"]["value"] == 1.0
            assert res["metrics"]["f1_eox"]["projected"] is False
    table = run_cli(cmd[:-3] + [str(srt("changed_words")), *cmd[-2:]])
    assert table.returncode == 0, table.stderr
    assert "SubER metrics" in table.stdout and "projected onto the reference" in table.stdout


def test_changed_words_are_projected_and_say_so():
    res = evaluate_pair(read_document(srt("ref")), read_document(srt("changed_words")), "subtitles")
    m, text = res["metrics"], res["text"]
    assert text["projected"] and not text["identical"]
    p = text["projection"]
    assert (p["matched"], p["substituted"], p["reference_only"], p["hypothesis_only"]) == (59, 8, 2, 1)
    # the breaks sit after the same (aligned) words: the projection recovers all of them
    for t in ("eob", "eol", "eox"):
        assert m[f"f1_{t}"]["value"] == 1.0 and m[f"f1_{t}"]["projected"] is True
        assert m[f"pk_{t}"]["value"] == 0.0 and m[f"windowdiff_{t}"]["projected"] is True
    assert m["s"]["value"] == 1.0 and m["b"]["value"] == 1.0


def test_projection_hand_example():
    ref = [[("We", ()), ("planted", ()), ("the", ()), ("tomatoes", (2,)), ("here.", (1,))]]
    hyp = [[("we", ()), ("planted", (2,)), ("tomatoes", ()), ("there", ()), ("now.", (1,))]]
    proj, info = project_sentences(ref, hyp)
    assert proj == [[("We", ()), ("planted", (2,)), ("the", ()), ("tomatoes", ()), ("here.", (1,))]]
    assert info["unit"] == "text" and info["reference_only"] == 1 and info["hypothesis_only"] == 1
    # two sentences each: projected sentence by sentence, the second one's breaks stay in it
    second = [("Yes.", (1,))]
    proj, info = project_sentences([*ref, second], [*hyp, [("yes", ()), ("indeed.", (1,))]])
    assert proj[1] == [("Yes.", (1,))] and info["unit"] == "sentence" and info["hypothesis_only"] == 2


def test_corpus_pooling_equals_suber_multi_file_mode():
    pairs = [(read_document(srt("ref")), read_document(srt("resegmented"))), (srt("ref2"), srt("hyp2"))]
    pairs[1] = (read_document(pairs[1][0]), read_document(pairs[1][1]))
    names = ["SubER", "SubER-cased", "t-BLEU", "t-TER-br", "AS-BLEU", "AS-WER", "length_ratio"]
    res = evaluate_corpus(pairs, ["suber_metrics", "f1_eox", "bleu_br"], {"suber": names})
    cli = suber_cli([srt("resegmented"), srt("hyp2")], [srt("ref"), srt("ref2")], names)
    assert res["pooled"]["metrics"]["suber_metrics"] == cli
    files = res["files"]
    assert files[0]["metrics"]["suber_metrics"] == suber_cli([srt("resegmented")], [srt("ref")], names)
    f1 = [f["metrics"]["f1_eox"] for f in files]
    tp, nh = sum(x["tp"] for x in f1), sum(x["n_hypothesis"] for x in f1)
    assert res["pooled"]["metrics"]["f1_eox"]["precision"] == pytest.approx(tp / nh)


def test_corpus_computes_each_ter_pair_once_with_the_numbers_of_separate_scorings(monkeypatch):
    """evaluate_corpus shares its TER cache (and sacrebleu statistics) between the files and the
    pooled score: the kernel never sees a pair twice, and every number equals a scoring alone
    (each from emptied statistics)."""
    import segagree.metrics.subtitles.scores as subs

    pairs = [(read_document(srt("ref")), read_document(srt(h))) for h in ("shifted", "resegmented")]
    pairs.append((read_document(srt("ref2")), read_document(srt("hyp2"))))
    metrics = ["suber_metrics", "ter_br", "sigma", "s_bleu", "t_bleu", "tbhr"]
    seen: list = []
    kernel = subs._ter_pairs
    monkeypatch.setattr(subs, "_ter_pairs", lambda keys: seen.extend(keys) or kernel(keys))
    subs.forget_statistics()
    res = evaluate_corpus(pairs, metrics)
    assert seen and len(seen) == len(set(seen))  # each distinct TER pair computed once
    computed = len(seen)
    res_again = evaluate_corpus(pairs, metrics)  # the process keeps them: nothing computed again
    assert len(seen) == computed and res_again == res
    alone = []
    for r, h in pairs:
        subs.forget_statistics()
        alone.append(evaluate_pair(r, h, metrics)["metrics"])
    subs.forget_statistics()
    pooled_alone = evaluate_corpus(pairs, metrics, per_file=False)
    assert pooled_alone["files"] == []
    assert [f["metrics"] for f in res["files"]] == alone
    assert res["pooled"] == pooled_alone["pooled"]
    segments = [m["suber_metrics_info"]["segments"]["reference"] for m in alone]
    assert res["pooled"]["metrics"]["suber_metrics_info"]["segments"]["reference"] == sum(segments)


def test_options_are_checked():
    with pytest.raises(UsageError, match="zh, ja or ko"):
        SubtitleOptions(language="fr")
    with pytest.raises(UsageError, match="unknown SubER metric"):
        SubtitleOptions.from_mapping({"suber": "BLEU,NOPE"})
    with pytest.raises(UsageError, match="unknown subtitle metric"):
        evaluate_pair(read_document(srt("ref")), read_document(srt("shifted")), ["f1_eob", "wer"])
    assert SubtitleOptions.from_mapping({"max_cpl": "37", "k": 1}).max_cpl == 37


def test_chinese_uses_subers_tokenisation(tmp_path):
    ref = tmp_path / "ref.srt"
    hyp = tmp_path / "hyp.srt"
    ref.write_text(
        "1\n00:00:01,000 --> 00:00:03,000\n我们在春天种了西红柿\n沿着南墙\n\n"
        "2\n00:00:03,500 --> 00:00:05,000\n七月它们长得比篱笆还高\n\n",
        encoding="utf-8",
    )
    hyp.write_text(
        "1\n00:00:01,000 --> 00:00:02,500\n我们春天种了西红柿\n\n"
        "2\n00:00:02,500 --> 00:00:05,000\n沿着南墙 七月它们长得比篱笆高\n\n",
        encoding="utf-8",
    )
    names = ["SubER", "WER", "BLEU", "AS-BLEU", "t-BLEU", "length_ratio", "TER-br"]
    res = evaluate_pair(read_document(ref), read_document(hyp), ["suber_metrics"], {"language": "zh", "suber": names})
    ours = res["metrics"]["suber_metrics"]
    assert "TER-br" in res["metrics"]["suber_metrics_info"]["not_applicable"]  # suber does not implement it for zh
    assert ours == suber_cli([hyp], [ref], [n for n in names if n != "TER-br"], "-l", "zh")
    plain = evaluate_pair(read_document(ref), read_document(hyp), ["suber_metrics"], {"suber": names})
    assert plain["metrics"]["suber_metrics"]["WER"] != ours["WER"]


# --------------------------------------------------------------------------------------------
# Real systems: MuST-Cinema en->fr (tagged text and SRT renderings)
# --------------------------------------------------------------------------------------------
def tagged(name: str) -> Path:
    return shared_path("corpora", "subtitles_tagged", name)


@pytest.fixture(scope="module")
def oracle() -> dict:
    return json.loads(shared_path("oracle", "subtitles_public.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def cascade() -> dict:
    """Every oracle metric for cascade.fr against amara.fr, computed once through compare."""
    names = ["suber_metrics", "sigma", "bleu_br", "bleu_nb", "ter_br", "cpl_conformity"]
    a, b = read_document(tagged("amara.fr"), "tagged"), read_document(tagged("cascade.fr"), "tagged")
    return compare_documents(a, b, metrics=names, metric_options={"jobs": 2})


@pytest.mark.xdist_group("cascade")  # the module fixture once, on one worker
def test_machine_translation_is_scored_without_alignment(cascade):
    assert cascade["sf"] is None and "too different to align" in cascade["sf_not_applicable"]
    assert cascade["metrics"]["suber_metrics_info"]["segments"] == {"hypothesis": 544, "reference": 544}


@pytest.mark.xdist_group("cascade")
def test_cascade_equals_evalsubtitle_and_suber_published_numbers(cascade, oracle):
    m = cascade["metrics"]
    for name, value in oracle["evalsubtitle_end2end"]["cascade.fr"].items():
        assert m[name]["value"] == pytest.approx(value, abs=1e-12), name
    for name, value in oracle["suber_plain"]["cascade.fr"].items():
        assert m["suber_metrics"][name] == value, name
    # the two TER-br: EvalSubtitle's (final break counted) and SubER's (left out)
    assert m["ter_br"]["value"] != m["suber_metrics"]["TER-br"]


@pytest.mark.parametrize("system", ["e2e_base.fr", "nmt.fr"])
def test_real_systems_equal_suber_command_line_plain(system):
    names = ["WER", "CER", "BLEU", "chrF", "WER-cased", "BLEU-seg", "AS-BLEU", "AS-WER", "length_ratio"]
    a, b = read_document(tagged("amara.fr"), "tagged"), read_document(tagged(system), "tagged")
    ours = evaluate_pair(a, b, ["suber_metrics"], {"suber": names})["metrics"]["suber_metrics"]
    assert ours == suber_cli([tagged(system)], [tagged("amara.fr")], names, "-f", "plain", "-F", "plain")


def test_srt_renderings_equal_suber_command_line(tmp_path):
    """Tagged text rendered as SRT by segagree convert (one cue per block, 1 s each)."""
    paths = {}
    for name in ("amara.fr", "e2e_pt.fr"):
        paths[name] = tmp_path / (name + ".srt")
        write_document(read_document(tagged(name), "tagged"), paths[name])
    names = ["SubER", "SubER-cased", "t-BLEU", "t-WER", "AS-BLEU", "length_ratio"]
    res = evaluate_pair(
        read_document(paths["amara.fr"]), read_document(paths["e2e_pt.fr"]), "subtitles", {"suber": names}
    )
    m = res["metrics"]
    assert m["suber_metrics"] == suber_cli([paths["e2e_pt.fr"]], [paths["amara.fr"]], names)
    # EvalSubtitle's SRT mode finds sentences by punctuation; reading speed needs the times
    assert res["text"]["sentences_from"] == ["punctuation"]
    assert m["reading_speed"]["applicable"] and m["lines_per_block"]["value"] == 100.0


def test_evaluate_paths_reads_tagged_files():
    res = evaluate_paths([tagged("amara.fr")], [tagged("amara.fr")], ["f1_eox", "cpl_conformity"], fmt="tagged")
    f = res["files"][0]["metrics"]
    assert f["f1_eox"]["value"] == 1.0 and f["f1_eox"]["projected"] is False
    # EvalSubtitle's CPL procedure on the file text: join the lines, cut at every tag but the last
    text = " ".join(line.strip() for line in tagged("amara.fr").read_text(encoding="utf-8").splitlines())
    text = re.sub(r"(<eol>|<eob>)$", "", re.sub(r"( )?(<eol>|<eob>)( )?", r"\2", text))
    lines = re.split(r"<eol>|<eob>", text)
    assert f["cpl_conformity"]["n_lines"] == len(lines)
    assert f["cpl_conformity"]["value"] == 100 * sum(len(x) <= 42 for x in lines) / len(lines)


def test_run_on_a_folder_of_subtitles_scores_mt_output_per_file_and_pooled(tmp_path):
    """Two texts, a reference and two systems each; the MT system's words differ (no alignment)."""
    from segagree.api.run_corpus import run_corpus
    from segagree.corpus.config import load_config

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    lines = tagged("amara.fr").read_text(encoding="utf-8").splitlines()
    for system in ("amara", "nmt"):
        sys_lines = tagged(f"{system}.fr").read_text(encoding="utf-8").splitlines()
        name = "ref" if system == "amara" else system
        (corpus / f"talk1.{name}.tagged").write_text("\n".join(sys_lines[:12]) + "\n", encoding="utf-8")
        (corpus / f"talk2.{name}.tagged").write_text("\n".join(sys_lines[12:20]) + "\n", encoding="utf-8")
    assert len(lines) == 544
    for text in ("talk1", "talk2"):
        write_document(read_document(corpus / f"{text}.ref.tagged"), corpus / f"{text}.copy.srt")
    config = load_config(None, corpus)
    config.kappa.enabled = False
    outcome = run_corpus(corpus, tmp_path / "out", config, workbooks=False, report=True)
    assert not outcome.failures, outcome.failures
    nmt = [r for r in outcome.results if r["annotator_b"] == "nmt" and r["annotator_a"] == "ref"]
    assert len(nmt) == 2 and all(r["compare"]["sf"] is None for r in nmt)  # MT output: no S_f, metrics still
    rows = [r for r in outcome.rows if r["annotator_a"] == "ref" and r["annotator_b"] == "nmt"]
    per_file = {(r["text"], r["measure"]): r["value"] for r in rows}
    assert {("talk1", "sigma"), ("talk2", "suber:BLEU"), ("ALL", "suber:BLEU"), ("ALL", "sigma")} <= set(per_file)
    # pooled = the metrics over both files at once (SubER's multi-file mode), not a mean
    both = evaluate_paths(
        [corpus / "talk1.ref.tagged", corpus / "talk2.ref.tagged"],
        [corpus / "talk1.nmt.tagged", corpus / "talk2.nmt.tagged"],
        ["suber_metrics", "sigma"],
        {"suber": ["BLEU", "AS-WER"]},
    )
    assert per_file[("ALL", "suber:BLEU")] == both["pooled"]["metrics"]["suber_metrics"]["BLEU"]
    assert per_file[("ALL", "sigma")] == both["pooled"]["metrics"]["sigma"]["value"]
    assert (
        per_file[("ALL", "suber:BLEU")]
        == suber_cli(
            [corpus / "talk1.nmt.tagged", corpus / "talk2.nmt.tagged"],
            [corpus / "talk1.ref.tagged", corpus / "talk2.ref.tagged"],
            ["BLEU"],
            "-f",
            "plain",
            "-F",
            "plain",
        )["BLEU"]
    )
    summary = (tmp_path / "out" / "summary.csv").read_text(encoding="utf-8")
    assert "suber:AS-TER-br" in summary and "ALL,ALL,ref|nmt,sigma," in summary
    assert "Subtitle metrics" in (tmp_path / "out" / "report.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("empty_side", ["reference", "hypothesis"])
def test_one_file_without_words_scores_every_subtitle_metric_or_says_why(tmp_path, empty_side):
    """A subtitle file with no words against one with words: every subtitle metric is a number or
    not applicable with a reason; sacrebleu and SubER used to fail (IndexError) on zero segments."""
    from segagree.scoring.subtitles.evaluation import SUBTITLE_METRICS

    empty = tmp_path / "empty.vtt"
    empty.write_text("WEBVTT\n\n", encoding="utf-8")
    full = tmp_path / "full.vtt"
    full.write_text(
        "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhello world\n\n00:00:02.000 --> 00:00:03.000\nbye now\n",
        encoding="utf-8",
    )
    a, b = (empty, full) if empty_side == "reference" else (full, empty)
    result = api.compare(a, b, metrics=list(SUBTITLE_METRICS))
    info = result.metrics["suber_metrics_info"]
    for name in SUBTITLE_METRICS:
        res = result.metrics[name]
        if name == "suber_metrics":
            for sub, value in res.items():
                assert isinstance(value, float), sub
            assert set(res) | set(info["not_applicable"]) >= {"SubER", "AS-BLEU", "t-BLEU", "BLEU"}
            assert info["not_applicable"]["SubER"] == f"the {empty_side} has no subtitle with words"
        else:
            assert res.get("value") is not None or res.get("reason"), name
    # No sentences on either side (no sentence-final punctuation): EvalSubtitle's metrics say so.
    assert "no sentences" in result.metrics["sigma"]["reason"]
    assert "no sentences" in result.metrics["ter_br"]["reason"]
