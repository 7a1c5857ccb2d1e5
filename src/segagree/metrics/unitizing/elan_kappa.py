"""ELAN's modified Cohen's kappa (Holle & Rein 2015, EasyDIAg), as ELAN 6.x computes it.

Holle, H. & Rein, R. (2015). EasyDIAg: A tool for easy determination of interrater agreement. Behavior
Research Methods 47(3):837-847. ELAN: ``CompareAnnotationModKappaCommand``, ``AnnotatorCompareUtil2``,
``GlobalCKappa``, ``CKappa``, ``IPFUtil`` (package ``mpi.eudico.client.annotator.interannotator``).

For each annotator pair A|B (A in the rows), in ELAN's steps:

1. **Matching** (times in whole milliseconds). Every pair of annotations that overlap (strictly) by at least
   ``min_overlap`` (default 0.6) of the longer one is a candidate; candidates are taken from the largest
   overlap share (then the largest overlap) down, each annotation matched at most once, except that a
   100% overlap is always taken.
2. **Agreement matrix** over the values (sorted) plus ``Unmatched`` last: a matched pair adds 1 at
   (value A, value B), an unmatched annotation of A at (value, Unmatched), of B at (Unmatched, value);
   then every cell outside the Unmatched row and column is doubled (Holle & Rein, GSEQ).
3. **Values**: ``raw_agreement_all`` = diagonal / total; ``kappa_max`` = (p_max - p_e) / (1 - p_e) with
   p_max = Σ min(row, column) / total; ``kappa_ipf`` = (raw - p_ipf) / (1 - p_ipf), where p_ipf is the
   diagonal (Unmatched cell excluded) of 20 rounds of iterative proportional fitting of a seed of ones
   (the Unmatched-Unmatched cell 0) to the matrix's marginals, over the total. Without the Unmatched row
   and column: ``kappa_excl``, ``kappa_max_excl``, ``raw_agreement_excl``. Per value, the 2x2 table of
   the value against all others gives ``kappa``, ``kappa_max`` and ``raw_agreement``.

Quirks of ELAN kept, not fixed (tests check them): matched cells count twice; a zero in the fitting seed
or marginals becomes 0.001 (so the Unmatched-Unmatched seed cell is 0.001, not 0); a 100% overlap is matched
even when one of its annotations is already matched (duplicates then count twice); among candidates of
equal overlap ELAN computes a tie-break candidate and then ignores it (the last-found is taken); the
candidate scan skips back fewer annotations than it passed when some overlaps fell below the threshold;
for a single-category pair kappa_ipf is about 0; 20 IPF rounds, rows first, are not always converged,
so swapping A and B can move kappa_ipf in the 4th decimal; NaN (a division by zero, ``null`` here) where ELAN
writes NaN. ELAN *prints* negative values as "0"; here values are as computed, and ``printed`` holds
ELAN's text. With one value only (besides Unmatched), ``kappa_ipf`` is undefined here (``null``, with the
reason): ELAN's number, 0 by construction, is kept as ``kappa_ipf_elan`` and in ``printed``.

Pooled (over speakers and texts): the pairs' doubled matrices are added, as ELAN's "global" results.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.metrics.contract import Measure, UnitSet
from segagree.metrics.unitizing.shared import time_card

__all__ = [
    "MEASURES",
    "UNMATCHED",
    "ElanKappa",
    "agreement_matrix",
    "global_kappa",
    "match_annotations",
    "table_result",
]

UNMATCHED = "Unmatched"
ZERO_REPLACE = 0.001
IPF_ROUNDS = 20

Annotation = tuple[int, int, str]  # begin ms, end ms, value


def _overlap_share(b1: int, e1: int, b2: int, e2: int) -> float:
    longest = max(e1 - b1, e2 - b2)
    return (min(e1, e2) - max(b1, b2)) / longest if longest else math.nan


def _candidates(
    a: Sequence[Annotation], b: Sequence[Annotation], min_overlap: float
) -> list[tuple[float, int, int, int]]:
    """(share, overlap, i, j) of every pair overlapping by at least ``min_overlap``, found as ELAN's scan
    finds them (including its restart index)."""
    found: list[tuple[float, int, int, int]] = []
    restart = 0
    for i, (b1, e1, _) in enumerate(a):
        kept = 0
        for j in range(restart, len(b)):
            b2, e2, _ = b[j]
            if b1 < e2 and e1 > b2:
                share = _overlap_share(b1, e1, b2, e2)
                if share >= min_overlap:
                    found.append((share, min(e1, e2) - max(b1, b2), i, j))
                    kept += 1
            elif b2 >= e1:
                restart = max(j - 1 - kept, 0)
                break
    return found


def match_annotations(a: Sequence[Annotation], b: Sequence[Annotation], min_overlap: float) -> dict[int, int]:
    """A's index -> B's index of the matched annotations (ELAN's ``matchAnnotations``)."""
    found = _candidates(a, b, min_overlap)
    # Java's stable ascending sort by (share, overlap), consumed from the end.
    order = sorted(range(len(found)), key=lambda k: (found[k][0], found[k][1]))
    matched: dict[int, int] = {}
    taken_b: set[int] = set()
    for k in reversed(order):
        share, _, i, j = found[k]
        if share == 1.0:  # fully aligned: always matched (replaces an earlier match of i)
            if i in matched:
                old = matched[i]
                if old not in (v for key, v in matched.items() if key != i):
                    taken_b.discard(old)
            matched[i] = j
            taken_b.add(j)
            continue
        if i in matched or j in taken_b:
            continue
        matched[i] = j  # ELAN's tie-break candidate is computed and not used
        taken_b.add(j)
    return matched


@dataclass
class Table:
    """An agreement matrix: labels (values then Unmatched) and counts keyed (row, column)."""

    cells: dict[tuple[str, str], int] = field(default_factory=dict)
    values: set[str] = field(default_factory=set)

    def __add__(self, other: Table) -> Table:
        out = Table(dict(self.cells), self.values | other.values)
        for key, n in other.cells.items():
            out.cells[key] = out.cells.get(key, 0) + n
        return out

    def labels(self) -> list[str]:
        return [*sorted(self.values - {UNMATCHED}), UNMATCHED]

    def matrix(self) -> np.ndarray:
        labels = self.labels()
        idx = {v: i for i, v in enumerate(labels)}
        m = np.zeros((len(labels), len(labels)), dtype=np.int64)
        for (r, c), n in self.cells.items():
            m[idx[r], idx[c]] += n
        return m


def agreement_matrix(a: Sequence[Annotation], b: Sequence[Annotation], min_overlap: float) -> Table:
    """The doubled agreement matrix of one pair (steps 1-2 of the module docstring)."""
    matched = match_annotations(a, b, min_overlap)
    table = Table(values={v for *_, v in a} | {v for *_, v in b})
    for i, j in matched.items():
        key = (a[i][2], b[j][2])
        table.cells[key] = table.cells.get(key, 0) + 2
    matched_b = set(matched.values())
    for i, (*_, v) in enumerate(a):
        if i not in matched:
            table.cells[(v, UNMATCHED)] = table.cells.get((v, UNMATCHED), 0) + 1
    for j, (*_, v) in enumerate(b):
        if j not in matched_b:
            table.cells[(UNMATCHED, v)] = table.cells.get((UNMATCHED, v), 0) + 1
    return table


def _nan_none(x: float) -> float | None:
    return None if x is None or math.isnan(x) else float(x)


def _kappa_parts(m: np.ndarray) -> tuple[float, float, float]:
    """(raw agreement, kappa, kappa_max) of a square matrix; NaN where ELAN gives NaN."""
    total = float(m.sum())
    if total == 0:
        return math.nan, math.nan, math.nan
    rows, cols = m.sum(axis=1), m.sum(axis=0)
    raw = float(np.trace(m)) / total
    chance = float(np.sum((rows / total) * (cols / total)))
    if chance == 1:
        return raw, math.nan, math.nan
    p_max = float(np.minimum(rows, cols).sum()) / total
    return raw, (raw - chance) / (1 - chance), (p_max - chance) / (1 - chance)


def _undefined_reason(m: np.ndarray) -> str:
    """Why :func:`_kappa_parts` gives NaN for a matrix."""
    total = float(m.sum())
    if total == 0:
        return "no annotations in this table (0/0)"
    rows, cols = m.sum(axis=1), m.sum(axis=0)
    if float(np.sum((rows / total) * (cols / total))) == 1:
        return "chance agreement is 1: one value only (0/0)"
    return ""


def _ipf_chance(m: np.ndarray) -> float:
    """The diagonal share (Unmatched cell excluded) of ELAN's IPF of a seed of ones."""
    n = m.shape[0]
    fitted = np.ones((n, n))
    fitted[-1, -1] = ZERO_REPLACE  # the seed's 0, replaced as every zero is
    rows = np.where(m.sum(axis=1) != 0, m.sum(axis=1), ZERO_REPLACE).astype(float)
    cols = np.where(m.sum(axis=0) != 0, m.sum(axis=0), ZERO_REPLACE).astype(float)
    for _ in range(IPF_ROUNDS):
        fitted = fitted / fitted.sum(axis=1, keepdims=True) * rows[:, None]
        fitted = fitted / fitted.sum(axis=0, keepdims=True) * cols[None, :]
    total = float(m.sum())
    return float(np.trace(fitted[:-1, :-1])) / total if total else math.nan


def global_kappa(m: np.ndarray) -> dict[str, Any]:
    """ELAN's GlobalCKappa of a matrix whose last row and column are Unmatched."""
    raw_excl, kappa_excl, max_excl = _kappa_parts(m[:-1, :-1])
    raw_all, _, max_all = _kappa_parts(m)
    p_ipf = _ipf_chance(m)
    kappa_ipf = math.nan if p_ipf == 1 or math.isnan(p_ipf) else (raw_all - p_ipf) / (1 - p_ipf)
    out: dict[str, Any] = {
        "kappa_ipf": _nan_none(kappa_ipf),
        "kappa_max": _nan_none(max_all),
        "raw_agreement_all": _nan_none(raw_all),
        "kappa_excl": _nan_none(kappa_excl),
        "kappa_max_excl": _nan_none(max_excl),
        "raw_agreement_excl": _nan_none(raw_excl),
    }
    why_all = _undefined_reason(m) or "the fitted chance agreement is 1 (0/0)"
    why_excl = _undefined_reason(m[:-1, :-1]) or "undefined (0/0)"
    reasons = {k: why_excl if k.endswith("_excl") else why_all for k, v in out.items() if v is None}
    if m.shape[0] <= 2 and out["kappa_ipf"] is not None:
        # One value: every matched pair agrees on it, so the fitted chance agreement equals the
        # observed one up to the 0.001 seed and kappa_ipf is 0 by construction, not a measurement.
        out["kappa_ipf_elan"] = out["kappa_ipf"]
        out["kappa_ipf"] = None
        reasons["kappa_ipf"] = (
            "one value only: kappa_ipf compares values and is about 0 by construction "
            f"(ELAN computes {out['kappa_ipf_elan']:.6f}); see raw_agreement_all for the matching"
        )
    if reasons:
        out["reasons"] = reasons
    return out


def per_value(m: np.ndarray, labels: list[str]) -> dict[str, dict[str, Any]]:
    """Each value's 2x2 table (the value against all others) and its kappa, kappa_max, raw agreement."""
    total = int(m.sum())
    out: dict[str, dict[str, Any]] = {}
    for i, label in enumerate(labels[:-1]):
        agree = int(m[i, i])
        row = int(m[i].sum()) - agree
        col = int(m[:, i].sum()) - agree
        two = np.array([[agree, col], [row, total - agree - row - col]])
        raw, kappa, kmax = _kappa_parts(two)
        out[label] = {"kappa": _nan_none(kappa), "kappa_max": _nan_none(kmax), "raw_agreement": _nan_none(raw)}
        if out[label]["kappa"] is None:
            out[label]["reason"] = _undefined_reason(two) or "undefined (0/0)"
    return out


def _printed(value: float | None) -> str:
    """ELAN's text for a value: NaN, 0 for a negative value, else 4 decimals."""
    if value is None:
        return "NaN"
    return "0" if value < 0 else f"{value:.4f}"


def table_result(table: Table) -> dict[str, Any]:
    """Every value of one matrix (a pair's, or pooled)."""
    labels = table.labels()
    m = table.matrix()
    result: dict[str, Any] = global_kappa(m)
    result["per_value"] = per_value(m, labels)
    result["matrix"] = {"labels": labels, "rows": m.tolist()}
    keys = ("kappa_ipf", "kappa_max", "raw_agreement_all", "kappa_excl", "kappa_max_excl", "raw_agreement_excl")
    result["printed"] = {k: _printed(result.get(f"{k}_elan", result[k])) for k in keys}
    if len(labels) <= 2:
        result["excl_note"] = "ELAN prints no excl. values: one value besides Unmatched"
    return result


@dataclass
class PairTables:
    pairs: dict[str, Table] = field(default_factory=dict)

    def __add__(self, other: PairTables) -> PairTables:
        out = dict(self.pairs)
        for k, t in other.pairs.items():
            out[k] = out[k] + t if k in out else t
        return PairTables(out)


@dataclass(frozen=True)
class ElanKappaResult:
    pairs: dict[str, dict[str, Any]]
    pooled: dict[str, Any] | None

    @property
    def value(self) -> float | None:
        return None if self.pooled is None else self.pooled["kappa_ipf"]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value, "elan_pairs": self.pairs, "elan_global": self.pooled}
        if self.pooled is None:
            out["reason"] = "no annotator pair"
        elif self.value is None:
            out["reason"] = self.pooled.get("reasons", {}).get("kappa_ipf", "undefined")
        return out


def _annotations(us: UnitSet, r: int) -> list[Annotation]:
    """Annotator r's units in time order as ELAN sees them: whole milliseconds and the value."""
    sel = np.flatnonzero(us.annotator == r)
    names = list(us.categories)
    out = [
        (round(us.start[k] * 1000), round(us.end[k] * 1000), names[c] if (c := int(us.category[k])) >= 0 else "")
        for k in sel
    ]
    return sorted(out, key=lambda x: (x[0], x[1]))


class ElanKappa(Measure[UnitSet, PairTables, ElanKappaResult]):
    """ELAN's modified Cohen's kappa per annotator pair (see the module docstring)."""

    card = time_card(
        "elan_kappa",
        "ELAN's modified Cohen's kappa (Holle & Rein)",
        "annotations matched by >= min_overlap of the longer one; kappa_ipf = (p_o - p_ipf) / (1 - p_ipf) "
        "on the doubled agreement matrix with an Unmatched row and column, p_ipf from iterative proportional fitting",
        "Holle & Rein (2015), EasyDIAg: a tool for easy determination of interrater agreement, Behavior "
        "Research Methods 47(3):837-847; ELAN 6.x CompareAnnotationModKappaCommand",
        parameters={"min_overlap": "0.6"},
        reference="ELAN 6.x source (GlobalCKappa, CKappa, IPFUtil, AnnotatorCompareUtil2), re-derived by hand on "
        "small cases in tests/metrics/test_elan_kappa.py",
        notes="value = kappa_ipf of all pairs pooled (ELAN's global result); per pair in elan_pairs. ELAN's quirks "
        "are kept (module docstring): matched cells doubled, zero seed -> 0.001, 100% overlaps always matched; "
        "negative values are returned, ELAN prints them as 0 (see printed).",
    )

    def statistics(self, item: UnitSet, params: Mapping[str, Any]) -> PairTables:
        min_overlap = float(params.get("min_overlap", 0.6))
        names = item.annotators
        anns = [_annotations(item, r) for r in range(len(names))]
        out = PairTables()
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                out.pairs[f"{names[i]}|{names[j]}"] = agreement_matrix(anns[i], anns[j], min_overlap)
        return out

    def score(self, stats: PairTables, params: Mapping[str, Any]) -> ElanKappaResult:
        pairs = {k: table_result(t) for k, t in stats.pairs.items()}
        tables = list(stats.pairs.values())
        if not tables:
            return ElanKappaResult({}, None)
        total = tables[0]
        for t in tables[1:]:
            total = total + t
        return ElanKappaResult(pairs, table_result(total))


MEASURES = (ElanKappa(),)
