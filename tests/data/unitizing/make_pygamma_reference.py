"""Make pygamma_reference.json: pygamma-agreement 0.5.9's outputs on small fixed continua.

Run with a Python that has ``pygamma-agreement==0.5.9`` (a throwaway venv outside the repository;
it needs numba, cvxpy and GLPK and takes ~20 s to import):

    python -m venv /work/tmp/pygamma-venv && /work/tmp/pygamma-venv/bin/pip install pygamma-agreement==0.5.9
    /work/tmp/pygamma-venv/bin/python tests/data/unitizing/make_pygamma_reference.py

The cases are generated here from fixed seeds (no duplicate units: pygamma collapses them) and
stored with the outputs. Per case: the best alignment's disorder (exact, from pygamma's float32
solver), the gamma-cat and gamma-k disorders of that alignment (pygamma's variant), and per sampler
and seed the 30 sampled disorders (pygamma draws from numpy's global generator, seeded here).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

OUT = Path(__file__).with_name("pygamma_reference.json")
SEEDS = (0, 1, 2)
SAMPLES = 30


def make_cases() -> list[dict]:
    rng = np.random.default_rng(20261125)
    cases = [
        {
            "name": "hand_3x",
            "annotators": ["A", "B", "C"],
            "units": [["A", 0, 5, "x"], ["A", 6, 9, "y"], ["B", 0.5, 5, "x"], ["B", 6, 10, "x"], ["C", 1, 4, "x"]],
        }
    ]
    shapes = [("r2x8", 2, 8, 2), ("r3x6", 3, 6, 3), ("r4x5", 4, 5, 2), ("r3x10_onecat", 3, 10, 1), ("r5x4", 5, 4, 2)]
    for name, n, k, ncat in shapes:
        units = []
        base_s = np.sort(rng.uniform(0, 60, k))
        base_d = rng.uniform(1, 6, k)
        for a in range(n):
            keep = rng.random(k) < 0.85
            s = base_s[keep] + rng.normal(0, 0.8, keep.sum())
            d = np.maximum(0.3, base_d[keep] + rng.normal(0, 0.8, keep.sum()))
            c = rng.integers(0, ncat, keep.sum())
            for si, di, ci in zip(s, d, c, strict=True):
                units.append([f"ann{a}", round(float(si), 3), round(float(si + di), 3), f"c{ci}"])
        cases.append({"name": name, "annotators": [f"ann{a}" for a in range(n)], "units": units})
    # other dissimilarity parameters on the same units
    for base, params in (
        (1, {"alpha": 3.0, "beta": 1.0, "delta_empty": 1.0}),
        (2, {"alpha": 1.0, "beta": 2.0, "delta_empty": 0.5}),
    ):
        cases.append({**cases[base], "name": f"{cases[base]['name']}_params", "params": params})
    # an annotator without units counts in the mean units per annotator
    cases.append(
        {
            "name": "empty_annotator",
            "annotators": ["A", "B", "Z"],
            "units": [["A", 1, 4, "x"], ["A", 5, 8, "y"], ["B", 1.5, 4, "x"], ["B", 5, 9, "y"]],
        }
    )
    return cases


def run_case(case: dict) -> dict:
    from pyannote.core import Segment
    from pygamma_agreement import (
        CombinedCategoricalDissimilarity,
        Continuum,
        ShuffleContinuumSampler,
        StatisticalContinuumSampler,
    )

    cont = Continuum()
    for a in case["annotators"]:
        cont.add_annotator(a)
    for a, s, e, c in case["units"]:
        cont.add(a, Segment(s, e), c)
    dis = CombinedCategoricalDissimilarity(**case.get("params", {"alpha": 1.0, "beta": 1.0, "delta_empty": 1.0}))
    best = cont.get_best_alignment(dis)
    out = {
        "observed_disorder": float(best.disorder),
        "groups": len(best.unitary_alignments),
        "gamma_cat_observed_disorder": float(best.gamma_k_disorder(dis, None)),
        "gamma_k_observed_disorder": {c: float(best.gamma_k_disorder(dis, c)) for c in cont.categories},
        "samplers": {},
    }
    for label, factory in (("statistical", StatisticalContinuumSampler), ("shuffle", ShuffleContinuumSampler)):
        runs = []
        for seed in SEEDS:
            np.random.seed(seed)
            res = cont.compute_gamma(dis, n_samples=SAMPLES, sampler=factory())
            runs.append(
                {
                    "seed": seed,
                    "sample_disorders": [float(a.disorder) for a in res.chance_alignments],
                    "gamma": float(res.gamma),
                    "gamma_cat": float(res.gamma_cat),
                }
            )
        out["samplers"][label] = runs
    return out


def main() -> None:
    import pygamma_agreement

    cases = make_cases()
    for case in cases:
        case["pygamma"] = run_case(case)
        print(case["name"], case["pygamma"]["observed_disorder"], file=sys.stderr)
    meta = {"pygamma_agreement": getattr(pygamma_agreement, "__version__", "0.5.9"), "samples": SAMPLES}
    OUT.write_text(json.dumps({"meta": meta, "cases": cases}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
