"""The measure registry: full cards, the contract on every built-in measure, S_f's fast path."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from segagree.metrics import registry
from segagree.metrics.boundary.boundary_edit import boundary_similarity
from segagree.metrics.boundary.stats import pooled
from segagree.metrics.boundary.windows import pk, windowdiff, winpr
from segagree.metrics.chance.fleiss import fleiss
from segagree.metrics.contract import INPUT_KINDS, Measure, TokenPair, TokenSet
from segagree.model.scheme import builtin_scheme

from conftest import REPO

SAMPLE = REPO / "sample_corpora"


def test_every_registered_measure_has_a_full_card_in_its_module():
    for name, module in registry.MEASURES.items():
        m = registry.get_measure(name)
        assert isinstance(m, Measure) and m.name == name
        assert type(m).__module__ == module
        c = m.card
        assert c.title and c.definition and c.citation and c.reference, name
        assert c.needs in INPUT_KINDS and c.group, name
        assert all(isinstance(v, str) and v for v in c.parameters.values()), name
        assert c.to_dict()["name"] == name


def test_unknown_measure_is_a_usage_error():
    from segagree.errors import UsageError

    with pytest.raises(UsageError, match="unknown metric 'nope'"):
        registry.get_measure("nope")


def _speakers(seed: int = 3, n: int = 4):
    """Random per-speaker code arrays of two annotators (codes 0..2)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        size = int(rng.integers(30, 80))
        a = (rng.random(size) < 0.2) * rng.integers(1, 3, size)
        b = a.copy()
        flip = rng.random(size) < 0.1
        b[flip] = (rng.random(flip.sum()) < 0.5) * rng.integers(1, 3, flip.sum())
        out.append((a.astype(np.int64), b.astype(np.int64)))
    return out


@pytest.mark.parametrize(
    ("name", "fn"), [("pk", pk), ("windowdiff", windowdiff), ("winpr", winpr), ("b", boundary_similarity)]
)
def test_pooled_value_is_the_value_of_summed_statistics(name, fn):
    m = registry.get_measure(name)
    scheme = builtin_scheme("dubois")
    pairs = _speakers()
    items = [TokenPair(a, b, scheme) for a, b in pairs]
    per = [m.score(m.statistics(i, {}), {}) for i in items]
    direct = [fn(a, b, fmt="codes") for a, b in pairs]
    for r, d in zip(per, direct, strict=True):
        assert r.value == pytest.approx(float(d.value), abs=1e-15)
    expected = pooled(direct).value  # summed statistics of the pure functions
    assert m.compute(items, {}).value == pytest.approx(expected, abs=1e-15)
    mean = sum(r.value for r in per) / len(per)
    if abs(mean - expected) > 1e-9:  # pooled is not the mean of per-speaker values
        assert m.compute(items, {}).value != pytest.approx(mean, abs=1e-12)


def test_window_measure_reports_its_k():
    m = registry.get_measure("pk")
    a, b = _speakers()[0]
    res = m.score(m.statistics(TokenPair(a, b, None), {"k": 3}), {})
    assert res.to_dict()["params"] == {"k": 3}
    auto = m.score(m.statistics(TokenPair(a, b, None), {}), {})
    assert auto.to_dict()["params"]["k"] == pk(a, b, fmt="codes").k


def test_fleiss_measures_equal_fleiss():
    scheme = builtin_scheme("dubois")
    pairs = _speakers(seed=5, n=3)
    rng = np.random.default_rng(9)
    third = {f"s{i}": np.where(rng.random(a.size) < 0.05, 1, a) for i, (a, _) in enumerate(pairs)}
    codes = ({f"s{i}": a for i, (a, _) in enumerate(pairs)}, {f"s{i}": b for i, (_, b) in enumerate(pairs)}, third)
    item = TokenSet(codes, scheme, ("x", "y", "z"))
    for similarity in ("b", "sf"):
        if similarity == "b":
            from segagree.metrics.boundary.masses import sets_from_codes

            data = {s: {c: sets_from_codes(m[s]) for c, m in zip("xyz", codes, strict=True)} for s in codes[0]}
        else:
            data = {"text": dict(zip("xyz", codes, strict=True))}
        ref = fleiss(data, similarity, scheme=scheme) if similarity == "sf" else fleiss(data, similarity)
        params = {"similarity": similarity}
        for name, want in (("fleiss_pi", ref.pi), ("fleiss_kappa", ref.kappa), ("bias", ref.bias)):
            got = registry.get_measure(name).compute([item], params).value
            assert got == pytest.approx(want, abs=1e-12), (name, similarity)


def test_kappa_measure_equals_sf_kappa_for_one_text():
    from segagree.metrics.chance.sf_kappa import sf_kappa

    scheme = builtin_scheme("dubois")
    pairs = _speakers(seed=7, n=3)
    a = {f"s{i}": x for i, (x, _) in enumerate(pairs)}
    b = {f"s{i}": y for i, (_, y) in enumerate(pairs)}
    ref = sf_kappa(a, b, scheme, sims=40, seed=1)
    item = TokenSet((a, b), scheme)
    for name, key in (("kappa_sf", "sf"), ("kappa_sf_b", "sf_b")):
        res = registry.get_measure(name).compute([item], {"sims": 40, "seed": 1})
        assert res.value == pytest.approx(ref.pooled[key].kappa, abs=1e-12)
        assert res.to_dict()["per_speaker"] == pytest.approx({s: d[key].kappa for s, d in ref.per_speaker.items()})


def test_kappa_pooled_over_texts_comes_from_summed_chance_costs():
    from segagree.metrics.chance.sf_kappa import sf_kappa

    scheme = builtin_scheme("dubois")
    texts = [_speakers(seed=s, n=2) for s in (11, 12)]
    items, results = [], []
    for pairs in texts:
        a = {f"s{i}": x for i, (x, _) in enumerate(pairs)}
        b = {f"s{i}": y for i, (_, y) in enumerate(pairs)}
        items.append(TokenSet((a, b), scheme))
        results.append(sf_kappa(a, b, scheme, sims=30, seed=2))
    cost = sum(r.sim_cost.sum(axis=0) for r in results)
    tokens = sum(int(r.n_tokens.sum()) for r in results)
    observed = 1 - sum(s.cost for r in results for s in r.observed.values()) / tokens
    chance = float(np.mean(1 - cost / tokens))
    res = registry.get_measure("kappa_sf").compute(items, {"sims": 30, "seed": 2})
    assert res.value == pytest.approx((observed - chance) / (1 - chance), abs=1e-12)


def test_compare_with_sf_alone_imports_no_other_measure_module():
    files = [str(SAMPLE / "garden.ann1.txt"), str(SAMPLE / "garden.ann2.txt")]
    code = (
        "import sys\nfrom segagree.cli import main\n"
        f"try:\n    main(['compare', *{files!r}, '--json'])\n"
        "except SystemExit:\n    pass\n"
        "prefixes = ('segagree.metrics', 'segagree.scoring.metric')\n"
        "print('LOADED', sorted(m for m in sys.modules if m.startswith(prefixes)), file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    line = next(x for x in proc.stderr.splitlines() if x.startswith("LOADED"))
    loaded = eval(line[len("LOADED ") :])  # a printed list of module names
    others = {m for m in set(registry.MEASURES.values()) if m != registry.MEASURES["sf"]}
    assert registry.MEASURES["sf"] in loaded
    assert not others & set(loaded), loaded
    assert "segagree.scoring.metric_runner" not in loaded
