"""compare's other metrics: per speaker, pooled from summed statistics, and multi-layer sets."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import numpy as np
import pytest
from cli_process import run_cli

from segagree.formats import read_document
from segagree.metrics import boundary_similarity, pk
from segagree.scoring.tokens.compare import compare_documents

from conftest import REPO, shared_path

SAMPLE = REPO / "sample_corpora"


def test_pooled_values_come_from_summed_statistics():
    a = read_document(SAMPLE / "garden.ann1.txt")
    b = read_document(SAMPLE / "garden.ann2.txt")
    out = compare_documents(a, b, metrics=["b", "pk"])
    arrays_a, arrays_b = a.boundary_arrays(), b.boundary_arrays()
    results = [boundary_similarity(arrays_a[s], arrays_b[s], fmt="codes") for s in a.speakers]
    edits = sum(Fraction(r.stats.edits) for r in results)
    denominator = sum(r.stats.denominator for r in results)
    assert out["metrics"]["b"]["value"] == pytest.approx(float(1 - edits / denominator), abs=1e-12)
    for s, r in zip(a.speakers, results, strict=True):
        assert out["metrics"]["b"]["per_speaker"][s] == pytest.approx(float(r.value))
    windows = [pk(arrays_a[s], arrays_b[s], fmt="codes") for s in a.speakers]
    errors = sum(w.stats.errors for w in windows)
    total = sum(w.stats.windows for w in windows)
    assert out["metrics"]["pk"]["value"] == pytest.approx(errors / total)
    assert out["metrics"]["pk"]["params"]["k"] == {s: w.k for s, w in zip(a.speakers, windows, strict=True)}


def test_two_layers_use_segeval_sets():
    a = read_document(shared_path("corpora", "rez", "sbc018.rez"))
    b = copy.deepcopy(a)
    iu = b.layers["iu"].boundaries.copy()
    iu[np.flatnonzero(iu)[:80:4]] = 0  # B misses some IU boundaries
    b.layers["iu"].boundaries = iu
    turn = b.layers["turn"].boundaries.copy()
    turn[np.flatnonzero(turn)[:20:2]] = 0  # and some turn ends
    b.layers["turn"].boundaries = turn
    single = compare_documents(a, b, layer="iu", metrics=["b"])
    both = compare_documents(a, b, layer="iu,turn", metrics=["b"])
    assert both["metrics"]["b"]["value"] != single["metrics"]["b"]["value"]
    # by hand: gap sets with turn ends as types after the iu scheme's codes
    k = a.layers["iu"].scheme.n_codes
    ia, ib, ta, tb = (d.boundary_arrays(layer) for d, layer in ((a, "iu"), (b, "iu"), (a, "turn"), (b, "turn")))
    speaker = "MARCIA"

    def sets(iu_codes, turn_codes):
        return [
            frozenset(([int(iu_codes[i])] if iu_codes[i] else []) + ([k + int(turn_codes[i])] if turn_codes[i] else []))
            for i in range(len(iu_codes) - 1)
        ]

    sa, sb = sets(ia[speaker], ta[speaker]), sets(ib[speaker], tb[speaker])
    expected = boundary_similarity(sa, sb, fmt="sets").value
    assert both["metrics"]["b"]["per_speaker"][speaker] == pytest.approx(float(expected))
    segeval = pytest.importorskip("segeval", reason="segeval (test-only reference) is not installed")
    ref = segeval.boundary_similarity([set(x) for x in sa], [set(x) for x in sb], boundary_format="sets")
    assert float(ref) == pytest.approx(float(expected), abs=1e-12)


def test_cli_layer_list():
    rez = shared_path("corpora", "rez", "sbc018.rez")
    proc = run_cli(["compare", rez, rez, "--layer", "iu,turn", "--metric", "b,s", "--json"])
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["metrics"]["b"]["value"] == 1.0 and out["sf"] == 1.0
