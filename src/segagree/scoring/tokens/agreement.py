"""Agreement of two or more annotators: Documents -> per-speaker arrays -> S_f, S_f^B, their
simulated kappas, multi-pi / multi-kappa / bias, the pairwise table and bootstrap intervals;
and the same for segeval JSON datasets (S and B).

Definitions of every reported number are in :data:`DEFINITIONS` (also printed by
``segagree agree --help`` and put in the JSON output).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from segagree.errors import InputError, UsageError
from segagree.metrics.boundary.boundary_edit import B_CARD, S_CARD
from segagree.metrics.boundary.sf import SF_B_CARD, SF_CARD, SfStats
from segagree.metrics.chance.bootstrap import bootstrap_ci
from segagree.metrics.chance.fleiss import BIAS_CARD, fleiss, pairwise_table
from segagree.metrics.chance.kappa import KAPPA_SF_B_CARD, KAPPA_SF_CARD
from segagree.metrics.chance.models import DEFAULT_CHANCE, DEFAULT_SIMS
from segagree.metrics.chance.sf_kappa import SfKappaResult, sf_kappa
from segagree.model import BoundaryScheme, Document
from segagree.scoring.tokens.pairing import pair_annotations, resolve_layer

# The measures' names, as keys of the results (each written once, on its card).
SF, SF_B, S, B = SF_CARD.name, SF_B_CARD.name, S_CARD.name, B_CARD.name
KAPPA_SF, KAPPA_SF_B, BIAS = KAPPA_SF_CARD.name, KAPPA_SF_B_CARD.name, BIAS_CARD.name

DEFINITIONS: dict[str, str] = {
    SF: "S_f = 1 - cost/tokens: flexible boundary-edit similarity (Lai, Li & Zhang 2023), pooled over speakers",
    SF_B: "S_f^B = 1 - cost/edits: S_f normalised by the number of edit operations (matches included)",
    KAPPA_SF: "(S_f - E[S_f chance]) / (1 - E[S_f chance]); chance = similarity of K simulated random pairs",
    KAPPA_SF_B: "the same chance correction for S_f^B",
    "chance_mean": "mean similarity of the K simulated chance pairs (exact expectation with --exact)",
    "chance_sd": "standard deviation of the simulated chance similarity (ddof 1)",
    "se": "Monte Carlo standard error of kappa: (1 - obs)/(1 - chance_mean)^2 * chance_sd/sqrt(K)",
    "K": "number of simulated chance pairs per speaker (--sims; at most that many with --mc-tolerance)",
    "mc_tolerance": "stop simulating once both pooled kappas' Monte Carlo standard errors are at most this "
    "(checked every 250 simulations); each pair reports n_simulations_used and stopped_early",
    "seed": "seed of the simulations (numbers do not depend on --jobs)",
    "actual": "A_a: pooled agreement over every annotator pair and item (summed numerators / denominators)",
    "expected_pi": "A_e of multi-pi: chance agreement from the category proportions pooled over annotators",
    "expected_kappa": "A_e of multi-kappa: mean over annotator pairs of the chance agreement of their own proportions",
    "pi": "multi-pi (Fleiss; Scott's pi for two annotators) = (A_a - A_e(pi)) / (1 - A_e(pi))",
    "kappa": "multi-kappa (Davies & Fleiss; Cohen's kappa for two annotators) = (A_a - A_e(kappa)) / (1 - A_e(kappa))",
    BIAS: "Artstein & Poesio's annotator bias = A_e(pi) - A_e(kappa)",
    "ci": "percentile bootstrap interval (default 95%) over texts/items, or speakers with --ci-speakers",
    S: "Segmentation Similarity S (Fournier & Inkpen 2012), as segeval 2.0.11 (n_t = 2)",
    B: "Boundary Similarity B (Fournier 2013), as segeval 2.0.11 (n_t = 2)",
}


# --- segeval JSON datasets ------------------------------------------------------------------------


#: The largest mass (units in one segment) a dataset may give: far above any text's length, and
#: small enough for the measures' integer arithmetic.
MAX_MASS = 2**31 - 1


def load_segeval_json(path: str | Path) -> dict[str, dict[str, list[int]]]:
    """Read a segeval JSON dataset: ``{"segmentation_type": "linear", "items": {item: {coder:
    [masses]}}}`` (segeval's ``input_linear_mass_json``; other top-level keys are properties
    and ignored).

    Raises:
        InputError: not JSON, not linear, no ``items``, or masses that are not positive integers.
    """
    from segagree.files.memory import read_bytes

    p = Path(path)
    raw = read_bytes(p)
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 JSON ({err.reason} at byte {err.start})", path=p) from None
    except RecursionError:  # (a dataset nests four levels: items, coders, masses)
        raise InputError("not a segeval dataset: nested too deep", path=p) from None
    except ValueError as err:  # not JSON, or an integer of more than 4,300 digits
        if not isinstance(err, json.JSONDecodeError):
            raise InputError("not a segeval dataset: a number of more than 4,300 digits", path=p) from None
        raise InputError(f"not valid JSON: {str(err)[:200]}", path=p) from None
    if not isinstance(data, dict):
        raise InputError("a segeval dataset is a JSON object", path=p)
    if data.get("segmentation_type") != "linear":
        raise InputError(f'expected "segmentation_type": "linear", got {data.get("segmentation_type")!r}', path=p)
    items = data.get("items")
    if not isinstance(items, dict) or not items:
        raise InputError('expected a non-empty object "items": {item: {coder: [masses]}}', path=p)
    out: dict[str, dict[str, list[int]]] = {}
    for item, codings in items.items():
        if not isinstance(codings, dict):
            raise InputError("expected {coder: [masses]}", path=p, place=f"item {item!r}")
        out[str(item)] = {}
        for coder, masses in codings.items():
            ok = (
                isinstance(masses, list)
                and masses
                and all(isinstance(m, int) and not isinstance(m, bool) and 0 < m <= MAX_MASS for m in masses)
            )
            if not ok:
                raise InputError(
                    f"masses must be a non-empty list of positive integers of at most {MAX_MASS:,}",
                    path=p,
                    place=f"item {item!r}, coder {coder!r}",
                )
            out[str(item)][str(coder)] = masses
    return out


def agree_dataset(
    dataset: Mapping[str, Mapping[str, Any]],
    *,
    n_t: int = 2,
    n_boot: int = 1000,
    seed: int = 12345,
    level: float = 0.95,
) -> dict[str, Any]:
    """S- and B-based multi-pi, multi-kappa and bias (segeval-exact), the pairwise table, and
    bootstrap intervals over items."""
    out: dict[str, Any] = {"kind": "dataset", "multi": {}, "pairwise": {}, "ci": {}}
    for sim in (S, B):
        res = fleiss(dataset, sim, n_t)
        out["multi"][sim] = res.to_dict()
        out["pairwise"][sim] = pairwise_table(dataset, sim, n_t)
        ci = bootstrap_ci(len(res.items), res.coefficients, n_boot=n_boot, seed=seed, level=level, unit="item")
        out["ci"][sim] = _split_ci(ci, ("pi", "kappa", BIAS))
        out["coders"] = res.coders
        out["items"] = res.items
    out["definitions"] = {
        k: DEFINITIONS[k] for k in (S, B, "actual", "expected_pi", "expected_kappa", "pi", "kappa", BIAS, "ci")
    }
    return out


def _split_ci(ci: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """One interval per statistic from a vector-valued bootstrap result."""
    out = {}
    for i, name in enumerate(names):
        d = dict(ci)
        if ci["low"] is not None:
            d["low"], d["high"] = _nan_none(ci["low"][i]), _nan_none(ci["high"][i])
        out[name] = d
    return out


def _nan_none(v: float) -> float | None:
    return None if v is None or not np.isfinite(v) else float(v)


# --- documents --------------------------------------------------------------------------------------


def _kappa_statistic(res: SfKappaResult) -> Callable[[np.ndarray], np.ndarray]:
    """Bootstrap statistic over speakers: (sf, sf_b, kappa_sf, kappa_sf_b) from resampled
    per-speaker observed statistics and per-speaker simulated chance statistics."""
    cost = np.array([res.observed[s].cost for s in res.speakers])
    edits = np.array([res.observed[s].edits for s in res.speakers], dtype=float)
    tok = res.n_tokens.astype(float)

    def fn(w: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            wc, we, wt = w @ cost, w @ edits, w @ tok
            obs_sf = 1 - wc / wt
            obs_b = np.where(we > 0, 1 - wc / we, 1.0)
            if res.sim_cost.shape[1]:
                sc, se = w @ res.sim_cost, w @ res.sim_edits.astype(float)
                ch_sf = (1 - sc / wt[:, None]).mean(axis=1)
                ch_b = np.where(se > 0, 1 - sc / np.where(se > 0, se, 1), 1.0).mean(axis=1)
            else:  # exact: per-speaker expected costs are additive
                exp_cost = np.array(
                    [
                        _expected_cost(res.per_speaker[s][SF], n) if s in res.per_speaker else np.nan
                        for s, n in zip(res.speakers, tok, strict=True)
                    ]
                )
                ch_sf = 1 - (w @ exp_cost) / wt
                ch_b = np.full(w.shape[0], np.nan)
            k_sf = (obs_sf - ch_sf) / (1 - ch_sf)
            k_b = (obs_b - ch_b) / (1 - ch_b)
        return np.stack([obs_sf, obs_b, k_sf, k_b], axis=1)

    return fn


def _expected_cost(est: Any, n_tokens: float) -> float:
    """A speaker's expected chance cost (exact method): (1 - E[S_f]) x tokens."""
    return np.nan if est.chance_mean is None else (1 - est.chance_mean) * n_tokens


def _pair_summary(res: SfKappaResult) -> dict[str, Any]:
    speakers = {}
    for s in res.speakers:
        st = res.observed[s]
        row: dict[str, Any] = {
            "n_tokens": st.n_tokens,
            SF: st.sf,
            SF_B: st.sf_b,
            "cost": st.cost,
            "edits": st.edits,
        }
        if s in res.per_speaker:
            row[KAPPA_SF] = res.per_speaker[s][SF].to_dict()
            row[KAPPA_SF_B] = res.per_speaker[s][SF_B].to_dict()
        speakers[s] = row
    total = sum(res.observed.values(), SfStats())
    pooled = {
        "n_tokens": total.n_tokens,
        SF: total.sf,
        SF_B: total.sf_b,
        "cost": total.cost,
        "edits": total.edits,
        KAPPA_SF: res.pooled[SF].to_dict(),
        KAPPA_SF_B: res.pooled[SF_B].to_dict(),
    }
    return {
        "speakers": speakers,
        "pooled": pooled,
        "signature": res.signature,
        "n_simulations_used": res.n_simulations_used,
        "stopped_early": res.stopped_early,
    }


def agree_documents(
    docs: Sequence[Document],
    *,
    names: Sequence[str] | None = None,
    scheme: BoundaryScheme | None = None,
    layer: str | None = None,
    align: bool = False,
    max_mismatch: float = 0.2,
    normalise_speakers: bool = True,
    speaker_map: Mapping[str, str] | None = None,
    mode: str = "optimal",
    transpositions: bool = True,
    chance: str = DEFAULT_CHANCE,
    chance_method: str = "simulation",
    sims: int = DEFAULT_SIMS,
    seed: int = 12345,
    jobs: int = 1,
    threads: int = 1,
    per_speaker: bool = True,
    ci_over: str = "texts",
    n_boot: int = 1000,
    level: float = 0.95,
    progress: Callable[[int], None] | None = None,
    mc_tolerance: float | None = None,
    common_speakers: bool = False,
) -> dict[str, Any]:
    """S_f, S_f^B and their kappas for every annotator pair of one text; for three or more
    annotators also multi-pi, multi-kappa and bias of S_f and S_f^B.

    Args:
        docs: two or more annotations of the same text (speakers paired by name).
        names: annotator labels (default: the documents' file names).
        max_mismatch: with ``align``, the largest share of a speaker's tokens left unmatched.
        common_speakers: score each pair on the speakers both have (the others are listed in
            the pair's ``unpaired_speakers``); multi-pi/kappa on the speakers all annotators have.
        ci_over: ``"texts"`` (one text: no interval, with a reason) or ``"speakers"``
            (bootstrap over the speakers of the text).
        other arguments: see :func:`segagree.metrics.chance.sf_kappa.sf_kappa`.

    Raises:
        UsageError: fewer than two documents, bad options; MismatchError: the annotations do
        not cover the same speakers and tokens (use ``align``).
    """
    if len(docs) < 2:
        raise UsageError(f"agreement needs two or more annotations of the same text, got {len(docs)}")
    if ci_over not in ("texts", "speakers"):
        raise UsageError(f"ci_over must be 'texts' or 'speakers', not {ci_over!r}")
    labels = _labels(docs, names)
    kappa_options = {
        "chance": chance,
        "sims": sims,
        "seed": seed,
        "per_speaker": per_speaker,
        "mode": mode,
        "transpositions": transpositions,
        "jobs": jobs,
        "threads": threads,
        "chance_method": chance_method,
        "progress": progress,
        "mc_tolerance": mc_tolerance,
    }
    boot = {"n_boot": n_boot, "seed": seed, "level": level}
    pairs_out = []
    first_pairs = {}
    for i, j in itertools.combinations(range(len(docs)), 2):
        # The layer and its scheme are chosen as compare chooses them (subtitles keep their own
        # scheme and are one running text, aligned), so agree and compare read the same pair alike.
        pair_layer, pair_scheme, merge = resolve_layer(docs[i], docs[j], layer, scheme)
        pair = pair_annotations(
            docs[i],
            docs[j],
            layer=pair_layer,
            scheme=pair_scheme,
            speaker_map=merge if merge is not None else speaker_map,
            align=align or merge is not None,
            max_mismatch=max_mismatch,
            normalise_speakers=normalise_speakers,
            common_speakers=common_speakers,
        )
        if i == 0:
            first_pairs[j] = pair
        summary = _pair_agreement(pair.arrays_a, pair.arrays_b, pair.scheme, kappa_options, ci_over, boot)
        summary.update(a=labels[i], b=labels[j], mismatches=len(pair.mismatches))
        summary["unpaired_speakers"] = {"a": list(pair.unpaired_a), "b": list(pair.unpaired_b)}
        pairs_out.append(summary)
    sch = next(iter(first_pairs.values())).scheme
    simulated = chance_method == "simulation"
    out: dict[str, Any] = {
        "kind": "documents",
        "annotators": labels,
        "files": [d.source_path for d in docs],
        "scheme": sch.name,
        "mode": mode,
        "transpositions": transpositions,
        "chance": chance,
        "chance_method": chance_method,
        "K": sims if simulated else None,
        "mc_tolerance": mc_tolerance if simulated else None,
        "seed": seed if simulated else None,
        "pairs": pairs_out,
        "multi": None,
        "multi_reason": "two annotators: pi and kappa of the pair are in 'pairs'" if len(docs) == 2 else None,
    }
    if len(docs) >= 3:
        out.update(_multi_coder(labels, first_pairs, sch, mode, transpositions))
    out["definitions"] = dict(DEFINITIONS)
    return out


def _labels(docs: Sequence[Document], names: Sequence[str] | None) -> list[str]:
    """Annotator labels: the names given, else the file names; numbered when two are alike."""
    labels = (
        list(names)
        if names
        else [Path(d.source_path).name or d.name or f"annotator{i + 1}" for i, d in enumerate(docs)]
    )
    if len(set(labels)) != len(labels):
        labels = [f"{i + 1}:{x}" for i, x in enumerate(labels)]
    return labels


def _pair_agreement(
    a: Mapping[str, np.ndarray],
    b: Mapping[str, np.ndarray],
    scheme: BoundaryScheme,
    kappa_options: Mapping[str, Any],
    ci_over: str,
    boot: Mapping[str, Any],
) -> dict[str, Any]:
    """One annotator pair: S_f, S_f^B, their kappas and bootstrap intervals (over speakers or none)."""
    res = sf_kappa(a, b, scheme, **kappa_options)
    summary = _pair_summary(res)
    units, unit = (len(res.speakers), "speaker") if ci_over == "speakers" else (1, "text")
    ci = bootstrap_ci(units, _kappa_statistic(res), unit=unit, **boot)
    summary["ci"] = _split_ci(ci, (SF, SF_B, KAPPA_SF, KAPPA_SF_B))
    return summary


def _multi_coder(
    labels: Sequence[str], first_pairs: Mapping[int, Any], scheme: BoundaryScheme, mode: str, transpositions: bool
) -> dict[str, Any]:
    """Multi-pi, multi-kappa and bias of S_f and S_f^B over every annotator (one common token stream)."""
    if any(p.mismatches for p in first_pairs.values()):
        return {"multi_reason": "the transcripts differ: multi-pi/kappa need one common token stream"}
    p1 = first_pairs[1]
    # (with common_speakers the pairs may share different speakers: keep those all have)
    shared = [s for s in p1.speakers if all(s in p.arrays_b for p in first_pairs.values())]
    arrays = {labels[0]: p1.arrays_a, **{labels[j]: p.arrays_b for j, p in first_pairs.items()}}
    data = {"text": {name: {s: arr[s] for s in shared} for name, arr in arrays.items()}}
    multi = {
        sim: fleiss(data, sim, scheme=scheme, mode=mode, transpositions=transpositions).to_dict() for sim in (SF, SF_B)
    }
    return {"multi": multi}
