"""--common-speakers: the speakers both annotations have are scored, the others are
listed (result, JSON, table, stderr) instead of refused; a speaker without words is no speaker
to pair; the same through compare, agree, review, run and the API. Checked against scoring the
shared speakers alone (brute force: the same documents with the others removed), and invariant
to annotator order."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from cli_process import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from segagree import api
from segagree.errors import MismatchError
from segagree.model import builtin_scheme, from_units
from segagree.scoring.tokens.compare import compare_documents
from segagree.scoring.tokens.pairing import normalise_speaker, pair_annotations

DUBOIS = builtin_scheme("dubois")


def _doc(units: list[tuple[str, list[str], int]], path: str = "") -> object:
    rows = [{"speaker": s, "tokens": t, "boundary": b} for s, t, b in units]
    return from_units("t", rows, layer="iu", scheme=DUBOIS, source_path=path)


A_UNITS = [("ANN", ["so", "it", "goes"], 2), ("BOB", ["yes"], 3), ("ENV", ["door"], 2), ("ANN", ["ok"], 2)]
B_UNITS = [("ANN", ["so", "it"], 1), ("ANN", ["goes", "ok"], 2), ("BOB", ["yes"], 2), ("X", ["hm"], 2)]


def test_different_speakers_are_refused_without_the_option() -> None:
    with pytest.raises(MismatchError, match="--common-speakers") as err:
        compare_documents(_doc(A_UNITS, "a.csv"), _doc(B_UNITS, "b.csv"))
    assert "only in a.csv: ['ENV']" in str(err.value) and "only in b.csv: ['X']" in str(err.value)


def test_common_speakers_score_the_shared_ones_as_if_alone() -> None:
    res = compare_documents(_doc(A_UNITS), _doc(B_UNITS), common_speakers=True)
    assert res["unpaired_speakers"] == {"a": ["ENV"], "b": ["X"]}
    assert set(res["per_speaker"]) == {"ANN", "BOB"}
    shared = {"ANN", "BOB"}
    alone = compare_documents(
        _doc([u for u in A_UNITS if u[0] in shared]), _doc([u for u in B_UNITS if u[0] in shared])
    )
    assert res["sf"] == alone["sf"] and res["per_speaker"] == alone["per_speaker"]


def test_no_speaker_in_common_is_refused() -> None:
    with pytest.raises(MismatchError, match="no speaker in common"):
        compare_documents(_doc([("A", ["x"], 2)]), _doc([("B", ["x"], 2)]), common_speakers=True)


def test_a_speaker_without_words_is_not_listed() -> None:
    a = from_units(
        "t", [{"speaker": "ANN", "tokens": ["hi"], "boundary": 2}], layer="iu", scheme=DUBOIS, speakers=["ANN", "ENV"]
    )
    b = _doc([("ANN", ["hi"], 2)])
    res = compare_documents(a, b)  # ENV has no words: nothing to pair, no refusal
    assert res["sf"] == 1.0 and res["unpaired_speakers"] == {"a": [], "b": []}


def test_du_bois_speaker_prefixes_pair() -> None:
    assert [normalise_speaker(s) for s in ("JAMIE;", ">ENV;", "#FOSTER;", "#;", "F2:")] == [
        "JAMIE",
        "ENV",
        "FOSTER",
        "#",
        "F2",
    ]


NAMES = st.sampled_from(["ANN", "BOB", "CAT", "DAN"])
UNITS = st.lists(
    st.tuples(NAMES, st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=3), st.integers(1, 4)),
    min_size=1,
    max_size=6,
)


@settings(max_examples=100, deadline=None)
@given(UNITS, UNITS)
def test_property_order_invariance_and_shared_set(ua, ub) -> None:
    a, b = _doc(ua), _doc(ub)
    shared = {s for s, *_ in ua} & {s for s, *_ in ub}
    if not shared:
        with pytest.raises(MismatchError):
            pair_annotations(a, b, align=True, max_mismatch=1.0, common_speakers=True)
        return
    ab = compare_documents(a, b, align=True, max_mismatch=1.0, common_speakers=True)
    ba = compare_documents(b, a, align=True, max_mismatch=1.0, common_speakers=True)
    assert set(ab["per_speaker"]) == shared == set(ba["per_speaker"])
    assert ab["unpaired_speakers"]["a"] == ba["unpaired_speakers"]["b"]
    assert set(ab["unpaired_speakers"]["a"]) == {s for s, *_ in ua} - shared
    if not ab["mismatches"]:  # (an alignment projects boundaries onto A's tokens: not symmetric)
        assert ab["sf"] == pytest.approx(ba["sf"])  # S_f is symmetric with the symmetric Du Bois matrix


def _segagree(*args: str) -> subprocess.CompletedProcess:
    return run_cli(args)


def _files(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "t.a.csv", tmp_path / "t.b.csv"
    a.write_text("speaker,text\nANN,so it goes .\nBOB,yes ?\nENV,door .\n", encoding="utf-8")
    b.write_text('speaker,text\nANN,"so it ,"\nANN,goes .\nBOB,yes .\nX,hm .\n', encoding="utf-8")
    return a, b


def test_cli_compare_lists_the_others(tmp_path: Path) -> None:
    a, b = _files(tmp_path)
    refused = _segagree("compare", str(a), str(b))
    assert refused.returncode == 1 and "--common-speakers" in refused.stderr
    proc = _segagree("compare", str(a), str(b), "--common-speakers")
    assert proc.returncode == 0, proc.stderr
    assert "speakers only in A: ENV" in proc.stderr and "speakers only in B: X" in proc.stderr
    assert "speakers only in A: ENV" in proc.stdout  # the table says it too
    out = json.loads(_segagree("compare", str(a), str(b), "--common-speakers", "--json").stdout)
    assert out["unpaired_speakers"] == {"a": ["ENV"], "b": ["X"]} and set(out["per_speaker"]) == {"ANN", "BOB"}


def test_cli_agree_and_review(tmp_path: Path) -> None:
    a, b = _files(tmp_path)
    proc = _segagree("agree", str(a), str(b), "--common-speakers", "--sims", "20", "-q", "--json")
    assert proc.returncode == 0, proc.stderr
    pair = json.loads(proc.stdout)["pairs"][0]
    assert pair["unpaired_speakers"] == {"a": ["ENV"], "b": ["X"]}
    assert "speakers only in B: X" in proc.stderr
    out = tmp_path / "r.xlsx"
    assert _segagree("review", str(a), str(b), "-o", str(out), "--no-kappa").returncode == 1
    proc = _segagree("review", str(a), str(b), "-o", str(out), "--no-kappa", "--common-speakers")
    assert proc.returncode == 0 and out.exists(), proc.stderr
    assert "speakers only in A: ENV" in proc.stderr


def test_run_with_config_and_flag(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    a, b = _files(corpus)
    failed = _segagree("run", str(corpus), "-o", str(tmp_path / "o1"), "--sims", "20", "-q")
    assert failed.returncode == 1
    proc = _segagree("run", str(corpus), "-o", str(tmp_path / "o2"), "--sims", "20", "--common-speakers")
    assert proc.returncode == 0, proc.stderr
    assert "speakers only in A: ENV" in proc.stderr
    (corpus / "segagree.toml").write_text("common_speakers = true\n", encoding="utf-8")
    proc = _segagree("run", str(corpus), "-o", str(tmp_path / "o3"), "--sims", "20", "-q", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)["rows"]
    assert {r["speaker"] for r in rows} >= {"ANN", "BOB"} and not {r["speaker"] for r in rows} & {"ENV", "X"}


def test_api_keywords(tmp_path: Path) -> None:
    a, b = _files(tmp_path)
    res = api.compare(str(a), str(b), common_speakers=True)
    assert res["unpaired_speakers"] == {"a": ["ENV"], "b": ["X"]}
    agreed = api.agree(str(a), str(b), common_speakers=True, sims=20)
    assert agreed.pairs[0]["unpaired_speakers"]["b"] == ["X"]


def test_three_annotators_multi_kappa_on_the_speakers_all_have() -> None:
    from segagree.scoring.tokens.agreement import agree_documents

    c_units = [("ANN", ["so", "it", "goes"], 2), ("ANN", ["ok"], 2)]
    docs = [_doc(A_UNITS), _doc(B_UNITS), _doc(c_units)]
    res = agree_documents(docs, names=["a", "b", "c"], sims=20, align=True, common_speakers=True)
    assert [p["unpaired_speakers"] for p in res["pairs"]] == [
        {"a": ["ENV"], "b": ["X"]},
        {"a": ["BOB", "ENV"], "b": []},
        {"a": ["BOB", "X"], "b": []},
    ]
    # ANN's words are the same in all three: multi-pi/kappa on ANN, the one speaker all have
    assert res["multi"] is not None and set(res["multi"]) == {"sf", "sf_b"}
    from segagree.metrics.chance.fleiss import fleiss

    ann = {n: pair_annotations(docs[0], d, common_speakers=True) for n, d in zip("bc", docs[1:], strict=True)}
    data = {"text": {"a": {"ANN": ann["b"].arrays_a["ANN"]}, **{n: {"ANN": p.arrays_b["ANN"]} for n, p in ann.items()}}}
    assert res["multi"]["sf"]["actual"] == pytest.approx(fleiss(data, "sf", scheme=DUBOIS).to_dict()["actual"])
