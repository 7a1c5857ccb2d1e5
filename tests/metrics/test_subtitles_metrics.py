"""Subtitle metrics (pure functions) against their references: sacrebleu TER, segeval, EvalSubtitle's
published numbers (shared/oracle/subtitles_public.json) and hand counts.

The segeval reference values are computed here the way EvalSubtitle computes them: the whole
text as one string, the final ``<eob>`` removed, masses per break type by splitting the string
(``test_reference_masses`` below), then segeval on those masses.
"""

from __future__ import annotations

import importlib.util
import json
import random
import re
from itertools import accumulate
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from sacrebleu.metrics import TER

from segagree.metrics.subtitles.scores import (
    EOB,
    EOL,
    SUBER_METRICS,
    Block,
    cpl_conformity,
    lines_per_block,
    masked_ter,
    reading_speed,
    segeval_window,
    standard_scores,
    subtitle_lines,
    tag_masses,
)

from conftest import shared_path

segeval = pytest.importorskip("segeval", reason="segeval (the test extra) is the reference for S, B, Pk, WindowDiff")
CODE = {"<eob>": EOB, "<eol>": EOL}


def parse(text: str) -> list[list[tuple[str, tuple[int, ...]]]]:
    """Tagged text -> sentences of (word, tags): the tagged reader's rules, for metric-level tests."""
    out = []
    for line in text.splitlines():
        sent: list[tuple[str, list[int]]] = []
        for tok in re.sub(r"(<eob>|<eol>)", r" \1 ", line).split():
            if tok in CODE:
                if sent:
                    sent[-1][1].append(CODE[tok])
            else:
                sent.append((tok, []))
        out.append([(w, tuple(t)) for w, t in sent])
    return out


def reference_masses(text: str) -> dict[str, list[int]]:
    """Masses as EvalSubtitle derives them from the file text (the reference procedure)."""
    s = " ".join(line.strip() for line in text.splitlines())
    s = re.sub(r" {2,}", " ", s)
    s = re.sub(r"( )?(<eol>|<eob>)( )?", r"\2", s)
    s = re.sub(r"<eob>$", "", s)
    return {
        "eob": [len(x.split()) for x in s.replace("<eol>", " ").split("<eob>")],
        "eol": [len(x.split()) for x in s.replace("<eob>", " ").split("<eol>")],
        "eox": [len(x.split()) for x in s.replace("<eob>", "<eol>").split("<eol>")],
    }


def reference_scores(ref_text: str, hyp_text: str) -> dict[str, dict[str, float]]:
    """segeval on EvalSubtitle's masses: Pk, WindowDiff, S, B per type, P/R/F1 of positions."""
    rm, hm = reference_masses(ref_text), reference_masses(hyp_text)
    out: dict[str, dict[str, float]] = {}
    sets = {}
    for t in ("eob", "eol", "eox"):
        w = segeval.compute_window_size(rm[t])
        rs, hs = segeval.boundary_string_from_masses(rm[t]), segeval.boundary_string_from_masses(hm[t])
        sets[t] = (rs, hs)
        rp, hp = frozenset(accumulate(rm[t])), frozenset(accumulate(hm[t]))
        p, r = len(rp & hp) / len(hp), len(rp & hp) / len(rp)
        out[t] = {
            "window": w,
            "pk": float(segeval.pk(hm[t], rm[t], window_size=w)),
            "windowdiff": float(segeval.window_diff(hm[t], rm[t], window_size=w)),
            "s": float(segeval.segmentation_similarity(hs, rs, boundary_format=segeval.BoundaryFormat.sets, n_t=2)),
            "b": float(segeval.boundary_similarity(hs, rs, boundary_format=segeval.BoundaryFormat.sets, n_t=2)),
            "precision": p,
            "recall": r,
            "f1": 2 * p * r / (p + r) if p + r else 0.0,
        }
    both_r = tuple(a | {2 * x for x in b} for a, b in zip(sets["eob"][0], sets["eol"][0], strict=True))
    both_h = tuple(a | {2 * x for x in b} for a, b in zip(sets["eob"][1], sets["eol"][1], strict=True))
    out["both"] = {
        "s": float(segeval.segmentation_similarity(both_h, both_r, boundary_format=segeval.BoundaryFormat.sets, n_t=2)),
        "b": float(segeval.boundary_similarity(both_h, both_r, boundary_format=segeval.BoundaryFormat.sets, n_t=2)),
    }
    return out


def assert_equal_to_reference(ours: dict, ref: dict) -> None:
    for t in ("eob", "eol", "eox"):
        assert ours[f"pk_{t}"]["window_size"] == ref[t]["window"]
        for m in ("pk", "windowdiff", "s", "b"):
            assert ours[f"{m}_{t}"]["value"] == pytest.approx(ref[t][m], abs=1e-12), (m, t)
        f1 = ours[f"f1_{t}"]
        assert (f1["value"], f1["precision"], f1["recall"]) == pytest.approx(
            (ref[t]["f1"], ref[t]["precision"], ref[t]["recall"]), abs=1e-12
        )
    assert ours["s"]["value"] == pytest.approx(ref["both"]["s"], abs=1e-12)
    assert ours["b"]["value"] == pytest.approx(ref["both"]["b"], abs=1e-12)


def degrade(path: Path, tmp_path: Path, **kw: float) -> str:
    """The oracle's own degradation script (shared/oracle/subtitle_degrade.py) on a file."""
    spec = importlib.util.spec_from_file_location("subtitle_degrade", shared_path("oracle", "subtitle_degrade.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod.degrade(path.read_text(encoding="utf-8"), **kw)


# --------------------------------------------------------------------------------------------
def test_suber_metric_names_are_the_command_line_s():
    from suber.__main__ import check_metrics

    check_metrics(list(SUBER_METRICS))  # raises on a name the CLI refuses
    assert len(SUBER_METRICS) == 36 and "TER-br" in SUBER_METRICS and "t-TER-br" in SUBER_METRICS


@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(["#", "§", "µ"]), min_size=0, max_size=12),
            st.lists(st.sampled_from(["#", "§", "µ"]), min_size=1, max_size=12),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_masked_ter_equals_sacrebleu_corpus_ter(pairs):
    ours = masked_ter(pairs)
    ref = TER().corpus_score([" ".join(h) for h, _ in pairs], [[" ".join(r) for _, r in pairs]])
    assert ours["value"] == pytest.approx(ref.score, abs=1e-12)
    assert (ours["num_edits"], ours["ref_length"]) == (ref.num_edits, ref.ref_length)


def test_tag_masses_follow_evalsubtitle_on_double_and_missing_tags():
    text = "a b <eol> <eob> c <eob>\nd e\nf <eol>\n"
    assert tag_masses(parse(text)) == reference_masses(text)
    assert tag_masses(parse(text))["eox"] == [2, 0, 1, 3, 0]


def test_window_is_segevals_rule_with_zero_masses():
    for masses in ([2, 0, 3], [2, 3], [7, 1, 1, 9], [4, 0, 0, 4, 8], [1, 1]):
        assert segeval_window(masses) == segeval.compute_window_size(masses)


@given(st.integers(0, 10_000), st.floats(0.0, 0.6), st.floats(0.0, 0.6))
def test_standard_scores_equal_segeval_on_random_tagged_texts(seed, p_tag, p_double):
    rng = random.Random(seed)
    n = rng.randint(3, 40)

    def text() -> str:
        toks = []
        for i in range(n):
            toks.append(f"w{i}")
            if rng.random() < p_tag:
                toks.append(rng.choice(["<eob>", "<eol>"]))
                if rng.random() < p_double:
                    toks.append(rng.choice(["<eob>", "<eol>"]))
        return " ".join(toks) + " <eob>\n"

    r, h = text(), text()
    try:
        ref = reference_scores(r, h)
    except (ValueError, ZeroDivisionError):  # segeval refuses texts without any boundary
        assume(False)
    assert_equal_to_reference(standard_scores(parse(r), parse(h)), ref)


def test_subtitle_lines_and_cpl_hand_count():
    sents = parse("aaaa bb <eol> cc <eob>\ndd <eol> <eob> e")
    assert subtitle_lines(sents) == ["aaaa bb", "cc", "dd", "", "e"]
    res = cpl_conformity(sents, max_cpl=2)
    assert (res["conforming"], res["n_lines"]) == (4, 5) and res["value"] == 80.0


def test_reading_speed_and_lines_per_block_hand_count():
    blocks = [Block(("hello", "world"), 0.0, 1.0), Block(("abc",), 1.0, 4.0), Block(("x", "y", "z"))]
    rs = reading_speed(blocks, max_cps=5)
    assert rs["value"] == pytest.approx((10 + 1) / 2) and rs["pooled_cps"] == pytest.approx(13 / 4)
    assert rs["conformity"] == 50.0 and rs["untimed_blocks"] == 1
    lpb = lines_per_block(blocks)
    assert lpb["value"] == pytest.approx(200 / 3) and lpb["mean_lines"] == 2.0
    assert reading_speed([Block(("a",))])["applicable"] is False


# --------------------------------------------------------------------------------------------
# EvalSubtitle's own numbers (shared/oracle/subtitles_public.json) and degraded references
# --------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def oracle() -> dict:
    return json.loads(shared_path("oracle", "subtitles_public.json").read_text(encoding="utf-8"))


def test_standard_metrics_equal_evalsubtitle_on_shifted_reference(oracle, tmp_path):
    amara = shared_path("corpora", "subtitles_tagged", "amara.fr")
    shifted = degrade(amara, tmp_path, seed=1, p_shift=0.25)
    ours = standard_scores(parse(amara.read_text(encoding="utf-8")), parse(shifted))
    want = oracle["evalsubtitle_standard"]["shifted"]
    for tag, t in (("<eob>", "eob"), ("<eol>", "eol"), ("<eox>", "eox")):
        w = want[tag]
        assert ours[f"pk_{t}"]["window_size"] == w["window_size"]
        assert ours[f"pk_{t}"]["value"] == pytest.approx(w["Pk"], abs=1e-15)
        assert ours[f"windowdiff_{t}"]["value"] == pytest.approx(w["WinDiff"], abs=1e-15)
        assert ours[f"s_{t}"]["value"] == pytest.approx(w["SegSim"], abs=1e-15)
        assert ours[f"b_{t}"]["value"] == pytest.approx(w["BoundSim"], abs=1e-15)
        f1 = ours[f"f1_{t}"]
        assert (f1["precision"], f1["recall"], f1["value"]) == pytest.approx(
            (w["precision"], w["recall"], w["f1"]), abs=1e-15
        )
    assert ours["s"]["value"] == pytest.approx(want["<eob>,<eol>"]["SegSim"], abs=1e-15)
    assert ours["b"]["value"] == pytest.approx(want["<eob>,<eol>"]["BoundSim"], abs=1e-15)


@pytest.mark.parametrize(
    "kw",
    [
        {"seed": 2, "p_delete": 0.3},
        {"seed": 3, "p_add": 0.1},
        {"seed": 4, "p_swap": 0.4},
        {"seed": 5, "p_shift": 0.2, "p_delete": 0.1, "p_add": 0.05, "p_swap": 0.2},
    ],
)
def test_standard_metrics_equal_segeval_on_degraded_references(kw, tmp_path):
    amara = shared_path("corpora", "subtitles_tagged", "amara.fr").read_text(encoding="utf-8")
    path = tmp_path / "amara.fr"
    path.write_text(amara, encoding="utf-8")
    degraded = degrade(path, tmp_path, **kw)
    assert_equal_to_reference(standard_scores(parse(amara), parse(degraded)), reference_scores(amara, degraded))
