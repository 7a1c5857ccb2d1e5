"""Results as tables for pandas and R (``to_frame()``), and their short ``repr``.

Each result keeps its JSON-ready dict (the ``--json`` contract); ``to_frame()`` lays its scores out
as a tidy pandas DataFrame, one row per scored unit (speaker, pair and speaker, measure and
speaker, machine) with the pooled row marked ``ALL``, as pyannote.metrics' ``report()`` does with
its ``TOTAL`` row. pandas is imported only when a frame is asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

POOLED = "ALL"
COUNTS = ("matches", "substitutions", "transpositions", "insertions", "deletions")


def _frame(rows: Iterable[Mapping[str, Any]], columns: list[str]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame([dict(r) for r in rows], columns=columns)


def _number(value: Any) -> float | None:
    """A score as a float (None where a measure has no value, or one per category)."""
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def compare_frame(result: Mapping[str, Any]) -> pd.DataFrame:
    """A row per speaker and the pooled row ``ALL``: tokens, S_f, S_f^B, cost, edits, the operation
    counts, and a column per other metric (its per-speaker value, the pooled value on ``ALL``)."""
    from segagree.metrics.boundary.sf import SF_NAMES

    metrics = {name: res for name, res in (result.get("metrics") or {}).items() if isinstance(res, Mapping)}
    base = ["n_tokens", *SF_NAMES, "cost", "edits", *COUNTS]
    rows = []
    for speaker, stats in [*result["per_speaker"].items(), (POOLED, result)]:
        row: dict[str, Any] = {"speaker": speaker, **{k: stats.get(k) for k in base}}
        for name, res in metrics.items():
            value = res.get("value") if speaker == POOLED else (res.get("per_speaker") or {}).get(speaker)
            row[name] = _number(value)
        rows.append(row)
    return _frame(rows, ["speaker", *base, *metrics])


def agreement_frame(result: Mapping[str, Any]) -> pd.DataFrame:
    """A row per pair of annotators and speaker (and each pair's pooled row ``ALL``): tokens, S_f,
    S_f^B, their kappas, the chance expectations E[S] and the kappas' Monte Carlo standard errors."""
    from segagree.metrics.boundary.sf import SF_NAMES
    from segagree.metrics.chance.kappa import KAPPA_NAMES

    columns = ["a", "b", "speaker", "n_tokens", *SF_NAMES]
    for kappa in KAPPA_NAMES:
        columns += [kappa, f"{kappa}_chance_mean", f"{kappa}_se"]
    rows = []
    for pair in result.get("pairs") or []:
        for speaker, stats in [*pair["speakers"].items(), (POOLED, pair["pooled"])]:
            row = {"a": pair["a"], "b": pair["b"], "speaker": speaker}
            row.update({k: stats.get(k) for k in ("n_tokens", *SF_NAMES)})
            for kappa in KAPPA_NAMES:
                est = stats.get(kappa) or {}
                row[kappa] = est.get("kappa")
                row[f"{kappa}_chance_mean"] = est.get("chance_mean")
                row[f"{kappa}_se"] = est.get("se")
            rows.append(row)
    return _frame(rows, columns)


def time_frame(result: Mapping[str, Any]) -> pd.DataFrame:
    """A row per measure and speaker (the pooled row ``ALL``; a measure with one value per category
    gives a row per category): the value, and why it has none."""
    rows = []
    for measure, res in (result.get("measures") or {}).items():
        parts = [*(res.get("speakers") or {}).items(), (POOLED, res.get("pooled") or {})]
        seen = set()
        for speaker, stats in parts:
            if speaker in seen:
                continue
            seen.add(speaker)
            value = stats.get("value") if isinstance(stats, Mapping) else stats
            reason = stats.get("reason") if isinstance(stats, Mapping) else None
            per_category = _per_category(stats) if isinstance(stats, Mapping) else {}
            if per_category:  # one value per category (gamma_k, ku_alpha)
                for category, (v, why) in per_category.items():
                    cell = {"measure": measure, "speaker": speaker, "category": category, "value": _number(v)}
                    rows.append({**cell, "reason": None if v is not None else why})
                continue
            row = {"measure": measure, "speaker": speaker, "category": None, "value": _number(value)}
            rows.append({**row, "reason": reason})
    return _frame(rows, ["measure", "speaker", "category", "value", "reason"])


def _per_category(stats: Mapping[str, Any]) -> dict[str, tuple[Any, str | None]]:
    """category -> (value, why it has none) of a measure with one value per category: gamma_k's
    ``value`` mapping, or (k)uα's ``ku_alpha_values``."""
    reasons = stats.get("reasons") or {}
    out: dict[str, tuple[Any, str | None]] = {
        k: (v.get("alpha"), v.get("reason")) for k, v in (stats.get("ku_alpha_values") or {}).items()
    }
    if isinstance(stats.get("value"), Mapping):
        out.update({k: (v, reasons.get(k)) for k, v in stats["value"].items()})
    return out


def panel_frame(result: Mapping[str, Any]) -> pd.DataFrame:
    """A row per machine: the humans' coefficient, with the machine added, the change and its
    interval, its rank among the held-out humans and what it is ranked by (with the humans' range
    of that), chance and the verdict."""
    rows = []
    for machine, r in (result.get("results") or {}).items():
        added = r.get("added") or {}
        interval = added.get("interval") or {}
        rank = r.get("rank") or r.get("consistency") or {}
        rows.append(
            {
                "machine": machine,
                "humans": added.get("humans"),
                "with_machine": added.get("with_machine"),
                "change": added.get("change"),
                "change_low": interval.get("low") if isinstance(interval, Mapping) else None,
                "change_high": interval.get("high") if isinstance(interval, Mapping) else None,
                "rank": rank.get("rank"),
                "of": rank.get("of"),
                "ranked_by": rank.get("by"),
                "humans_low": rank.get("low"),
                "humans_high": rank.get("high"),
                "chance": (r.get("chance") or {}).get("mean"),
                "verdict": r.get("verdict"),
            }
        )
    columns = ["machine", "humans", "with_machine", "change", "change_low", "change_high", "rank", "of"]
    return _frame(rows, [*columns, "ranked_by", "humans_low", "humans_high", "chance", "verdict"])


def short(value: Any) -> str:
    """A number in a repr: 4 decimals; None as None."""
    number = _number(value)
    return "None" if number is None else f"{number:.4f}"


def names(items: Iterable[str], limit: int = 4) -> str:
    """A few names in a repr: ``['a', 'b', ... (9 in all)]``."""
    listed = list(items)
    shown = ", ".join(repr(n) for n in listed[:limit])
    return f"[{shown}{f', ... ({len(listed)} in all)' if len(listed) > limit else ''}]"
