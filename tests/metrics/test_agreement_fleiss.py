"""Fleiss multi-pi / multi-kappa / bias (segeval-exact for S and B), the pairwise table, the
bootstrap, and segeval JSON datasets."""

from __future__ import annotations

import json
import warnings
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from segagree.errors import InputError, MismatchError, UsageError
from segagree.metrics.chance.bootstrap import bootstrap_ci
from segagree.metrics.chance.fleiss import (
    artstein_poesio_bias,
    fleiss,
    fleiss_kappa,
    fleiss_pi,
    pairwise_table,
)
from segagree.model.scheme import builtin_scheme
from segagree.scoring.tokens.agreement import agree_dataset, load_segeval_json

SAMPLES = [
    "KAZANTSEVA2012_G5",
    "KAZANTSEVA2012_G2",
    "HEARST_1997_STARGAZER",
    "COMPLETE_AGREEMENT",
    "LARGE_DISAGREEMENT",
    "MULTIPLE_BOUNDARY_TYPES",
]


def _segeval():
    return pytest.importorskip("segeval", reason="segeval 2.0.11 is the reference for S/B agreement")


def _plain(ds) -> dict:
    return {item: dict(codings) for item, codings in ds.items()}


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("similarity", ["s", "b"])
def test_equals_segeval_on_its_samples(name: str, similarity: str) -> None:
    _segeval()
    from segeval.agreement.bias import artstein_poesio_bias_linear
    from segeval.agreement.kappa import fleiss_kappa_linear
    from segeval.agreement.pi import fleiss_pi_linear
    from segeval.data import samples
    from segeval.similarity.segmentation import segmentation_similarity

    ds = getattr(samples, name)
    kw = {"fnc_compare": segmentation_similarity} if similarity == "s" else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref_pi, ref_k, ref_bias = (
            fleiss_pi_linear(ds, **kw),
            fleiss_kappa_linear(ds, **kw),
            artstein_poesio_bias_linear(ds, **kw),
        )
    res = fleiss(_plain(ds), similarity)
    # segeval computes with 28-digit Decimals; ours are exact Fractions
    for ours, ref in ((res.exact["pi"], ref_pi), (res.exact["kappa"], ref_k), (res.exact["bias"], ref_bias)):
        assert abs(Decimal(ours.numerator) / Decimal(ours.denominator) - ref) < Decimal("1e-25")
    assert fleiss_pi(_plain(ds), similarity) == pytest.approx(float(ref_pi), abs=1e-15)
    assert fleiss_kappa(_plain(ds), similarity) == pytest.approx(float(ref_k), abs=1e-15)
    assert artstein_poesio_bias(_plain(ds), similarity) == pytest.approx(float(ref_bias), abs=1e-15)


def test_known_values() -> None:
    _segeval()
    from segeval.data import samples

    complete = fleiss(_plain(samples.COMPLETE_AGREEMENT), "b")
    assert complete.pi == 1.0 and complete.kappa == 1.0
    assert complete.bias == pytest.approx(0.0081, abs=1e-4)  # pi averages items, kappa pools them
    large = fleiss(_plain(samples.LARGE_DISAGREEMENT), "b")
    assert large.exact["pi"] == Fraction(-1, 3) and large.exact["kappa"] == 0


def test_two_coders_are_scott_and_cohen_pairwise() -> None:
    _segeval()
    from segeval.data import samples

    ds = _plain(samples.KAZANTSEVA2012_G5)
    rows = pairwise_table(ds, "b")
    assert len(rows) == 6
    for row in rows:
        sub = {i: {row["coder_a"]: c[row["coder_a"]], row["coder_b"]: c[row["coder_b"]]} for i, c in ds.items()}
        assert row["scott_pi"] == fleiss_pi(sub, "b")
        assert row["cohen_kappa"] == fleiss_kappa(sub, "b")


def test_sf_agreement_definitions() -> None:
    scheme = builtin_scheme("dubois")
    rng = np.random.default_rng(0)
    base = {"x": rng.choice(6, 80, p=[0.7, 0.1, 0.1, 0.04, 0.03, 0.03]), "y": rng.choice(6, 50)}
    same = {"t": {c: base for c in "ABC"}}
    for sim in ("sf", "sf_b"):
        r = fleiss(same, sim, scheme=scheme)
        assert r.actual == 1.0 and r.pi == pytest.approx(1.0) and r.kappa == pytest.approx(1.0)
        assert r.bias == pytest.approx(0.0)
    # two coders, no transpositions: A_e(kappa) is the exact chance expectation of S_f
    a = rng.choice(6, 200, p=[0.7, 0.1, 0.1, 0.04, 0.03, 0.03])
    b = rng.choice(6, 200, p=[0.8, 0.05, 0.05, 0.04, 0.03, 0.03])
    r = fleiss({"t": {"A": a, "B": b}}, "sf", scheme=scheme, transpositions=False)
    pa, pb = np.bincount(a, minlength=6) / 200, np.bincount(b, minlength=6) / 200
    assert r.expected_kappa == pytest.approx(pa @ scheme.similarity @ pb)
    pbar = (pa + pb) / 2
    assert r.expected_pi == pytest.approx(pbar @ scheme.similarity @ pbar)
    assert r.actual == pytest.approx(1 - np.sum(a != b) / 200)
    rb = fleiss({"t": {"A": a, "B": b}}, "sf_b", scheme=scheme, transpositions=False)
    e = pa @ scheme.similarity @ pb
    assert rb.expected_kappa == pytest.approx((e - pa[0] * pb[0]) / (1 - pa[0] * pb[0]))


def test_bootstrap() -> None:
    one = bootstrap_ci(1, lambda w: w.sum(axis=1), unit="text")
    assert one["low"] is None and "only 1 text" in one["reason"]
    vals = np.array([0.2, 0.4, 0.6, 0.8])
    ci = bootstrap_ci(4, lambda w: (w @ vals) / w.sum(axis=1), n_boot=2000, seed=1)
    assert 0.2 <= ci["low"] < 0.5 < ci["high"] <= 0.8
    assert ci == bootstrap_ci(4, lambda w: (w @ vals) / w.sum(axis=1), n_boot=2000, seed=1)
    assert ci != bootstrap_ci(4, lambda w: (w @ vals) / w.sum(axis=1), n_boot=2000, seed=2)


def test_fleiss_coefficients_resample_consistently() -> None:
    _segeval()
    from segeval.data import samples

    r = fleiss(_plain(samples.KAZANTSEVA2012_G2), "s")
    full = r.coefficients(np.ones((1, len(r.items))))[0]
    assert full == pytest.approx([r.pi, r.kappa, r.bias])


def test_dataset_errors() -> None:
    with pytest.raises(UsageError, match="two coders"):
        fleiss({"i": {"a": [3, 2]}}, "b")
    with pytest.raises(MismatchError, match="same coders"):
        fleiss({"i": {"a": [3, 2], "b": [5]}, "j": {"a": [3], "c": [3]}}, "b")
    with pytest.raises(UsageError, match="similarity"):
        fleiss({"i": {"a": [3, 2], "b": [5]}}, "wd")
    with pytest.raises(UsageError):
        fleiss({"i": {"a": [3, 2], "b": [4]}}, "b")  # different lengths


def test_segeval_json_loader(tmp_path: Path) -> None:
    segeval = _segeval()
    data_dir = Path(segeval.__file__).parent / "data"
    ds = load_segeval_json(data_dir / "hearst1997.json")
    assert ds["stargazer"]["1"] == [2, 3, 3, 1, 3, 6, 3] and len(ds["stargazer"]) == 7
    out = agree_dataset(ds, n_boot=50)
    from segeval.data import samples

    assert out["multi"]["b"]["pi"] == pytest.approx(fleiss_pi(_plain(samples.HEARST_1997_STARGAZER), "b"))
    assert out["ci"]["b"]["pi"]["low"] is None and "1 item" in out["ci"]["b"]["pi"]["reason"]
    bad = tmp_path / "bad.json"
    for text, msg in (
        ("{", "not valid JSON"),
        ('{"items": {}}', "linear"),
        ('{"segmentation_type": "linear"}', "items"),
        ('{"segmentation_type": "linear", "items": {"i": {"a": [0, 2]}}}', "positive"),
    ):
        bad.write_text(text)
        with pytest.raises(InputError, match=msg):
            load_segeval_json(bad)
    with pytest.raises(InputError, match="no such file"):
        load_segeval_json(tmp_path / "missing.json")
    two = tmp_path / "two.json"
    two.write_text(
        json.dumps(
            {"segmentation_type": "linear", "items": {"i": {"a": [2, 3], "b": [5]}, "j": {"a": [1, 1], "b": [2]}}}
        )
    )
    out = agree_dataset(load_segeval_json(two), n_boot=100)
    assert out["ci"]["b"]["pi"]["n_units"] == 2
