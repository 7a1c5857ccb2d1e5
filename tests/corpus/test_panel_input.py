"""The panel's input read from files: the same numbers as segeval on masses counted independently."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import segeval

import segagree
from segagree.errors import UsageError

PANEL = Path(__file__).resolve().parents[2] / "sample_corpora" / "panel"


def _masses(path: Path) -> list[int]:
    """Words per unit of a Du Bois transcript (one unit per line, the endnote its last token),
    counted without segagree's reader."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        words = line.split("\t", 1)[-1].split()
        out.append(len(words) - 1)  # the endnote is not a word
    return out


def _dataset(names: list[str]) -> dict[str, dict[str, list[int]]]:
    texts = sorted({p.name.split(".")[0] for p in PANEL.glob("*.txt")})
    return {t: {n: _masses(PANEL / f"{t}.{n}.txt") for n in names} for t in texts}


@pytest.mark.parametrize("coefficient", ["pi", "kappa"])
@pytest.mark.parametrize("measure", ["b", "s"])
def test_a_corpus_folder_gives_segevals_coefficients(measure: str, coefficient: str) -> None:
    result = segagree.panel(PANEL, "seg", measure=measure, coefficient=coefficient, n_boot=20, n_perm=5)
    fnc = {"b": segeval.boundary_similarity, "s": segeval.segmentation_similarity}[measure]
    coef = {"pi": segeval.fleiss_pi_linear, "kappa": segeval.fleiss_kappa_linear}[coefficient]
    humans = coef(_dataset(["ann1", "ann2", "ann3"]), fnc_compare=fnc)
    with_machine = coef(_dataset(["ann1", "ann2", "ann3", "seg"]), fnc_compare=fnc)
    added = result["results"]["seg"]["added"]
    assert added["humans"] == pytest.approx(float(humans), abs=1e-9)
    assert added["with_machine"] == pytest.approx(float(with_machine), abs=1e-9)
    assert result["humans"] == ["ann1", "ann2", "ann3"] and result["machines"] == ["seg"]
    assert result["texts"] == ["garden", "kitchen", "market", "train"]


def test_the_files_of_one_text_are_one_panel() -> None:
    files = sorted(PANEL.glob("train.*.txt"))
    result = segagree.panel(files, "seg", n_boot=20, n_perm=5)
    want = segeval.fleiss_pi_linear(
        {"train": {n: _masses(PANEL / f"train.{n}.txt") for n in ("ann1", "ann2", "ann3")}},
        fnc_compare=segeval.boundary_similarity,
    )
    assert result["results"]["seg"]["added"]["humans"] == pytest.approx(float(want), abs=1e-9)


def test_a_segeval_dataset_file_equals_the_same_files(tmp_path: Path) -> None:
    data = _dataset(["ann1", "ann2", "ann3", "seg"])
    path = tmp_path / "panel.json"
    path.write_text(json.dumps({"segmentation_type": "linear", "items": data}), encoding="utf-8")
    from_files = segagree.panel(PANEL, "seg", n_boot=50, n_perm=10, seed=3)
    from_dataset = segagree.panel(None, "seg", dataset=path, n_boot=50, n_perm=10, seed=3)
    assert from_dataset["results"] == from_files["results"]


def test_a_text_the_machine_lacks_is_left_out_with_a_note(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(PANEL, corpus)
    (corpus / "train.seg.txt").unlink()
    result = segagree.panel(corpus, "seg", n_boot=20, n_perm=5)
    assert "train" not in result["texts"]
    assert any("train" in n and "seg" in n for n in result["notes"]), result["notes"]


def test_bad_panels_are_refused_with_the_reason() -> None:
    with pytest.raises(UsageError, match="no annotations by 'robot'"):
        segagree.panel(PANEL, "robot")
    with pytest.raises(UsageError, match="two or more humans"):
        segagree.panel(PANEL, "seg", humans=["ann1"])
    with pytest.raises(UsageError, match="both as human and as machine"):
        segagree.panel(PANEL, "seg", humans=["ann1", "seg"])


def test_s_f_panels_read_typed_boundaries_from_the_files() -> None:
    from segagree.metrics.chance.fleiss import fleiss

    result = segagree.panel(PANEL, "seg", measure="sf", n_boot=20, n_perm=5)
    docs = {t: {n: segagree.read(PANEL / f"{t}.{n}.txt") for n in ("ann1", "ann2", "ann3")} for t in result["texts"]}
    data = {t: {n: d.layers["iu"].boundaries for n, d in per.items()} for t, per in docs.items()}
    want = fleiss(data, "sf", scheme=next(iter(docs["train"].values())).layers["iu"].scheme)
    assert result["results"]["seg"]["added"]["humans"] == pytest.approx(want.pi, abs=1e-9)
    with pytest.raises(UsageError, match="unknown measure"):
        segagree.panel(PANEL, "seg", measure="windowdiff")
