"""How a panel reads one machine: its rank among the humans, the verdict in words, and a word
when the humans themselves agree no better than chance.

Every panel (B or S with multi-pi or multi-kappa, S_f, gamma in time) reads a machine the same way,
so the rank printed in the table, written to ``panel.csv`` and ``panel.html``, and said in the
verdict is one number, labelled with what it ranks:

* **by change** (three humans or more): the machine's ``added`` change (Fournier & Inkpen 2012,
  section 3.4) among the changes each held-out human causes when added back;
* **by consistency** (two humans, where removing one leaves no panel): the machine's mean similarity
  to the humans among each human's mean similarity to the other humans (Medelyan & Witten 2006).

Rank 1 is the largest value; a machine tied with a human is placed after it. The verdict says
whether the machine's value lies below, within or above the humans' range. A range of humans who
agree at or below the chance level of their own panel (random segmentations that keep each one's
boundary counts; 0 for gamma, which is chance-corrected) is no yardstick: the verdict then says so,
and ``humans_at_chance`` is true.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["TIE", "change_rank", "rank_after_ties", "read_machine"]

#: Two consistencies, changes or coefficients closer than this are a tie (sums of exact halves).
TIE = 1e-12


def rank_after_ties(value: float, others: Sequence[float]) -> int:
    """Competition rank of ``value`` among ``others`` + itself, higher first, placed after ties:
    a machine is never ranked above a human it only equals."""
    return 1 + sum(1 for o in others if o >= value - TIE)


def change_rank(change: float | None, human_values: Sequence[float]) -> dict[str, Any]:
    """The machine's added change among the humans' changes: rank (1 = largest; after ties),
    ``of`` and the percentage of humans whose change is smaller (all None without human changes)."""
    if not human_values or change is None:
        return {"rank": None, "of": None, "percentile": None}
    below = sum(1 for v in human_values if v < change - TIE)
    return {
        "rank": rank_after_ties(change, human_values),
        "of": len(human_values) + 1,
        "percentile": 100.0 * below / len(human_values),
    }


def _signed(v: float | None) -> str:
    return "n/a" if v is None else f"{v:+.3f}"


def read_machine(
    change: float | None,
    interval: Mapping[str, Any] | None,
    human_changes: Sequence[float],
    consistency: Mapping[str, Any],
    *,
    coefficient: str,
    humans_value: float | None,
    humans_chance: float | None,
) -> dict[str, Any]:
    """The reading of one machine (see the module docstring).

    Args:
        change: the machine's added change (None where undefined).
        interval: its bootstrap interval (``low``, ``high``).
        human_changes: the held-out humans' changes (empty with two humans).
        consistency: ``machine``, ``humans`` (name -> value), ``rank`` and ``of`` (Medelyan & Witten).
        coefficient: the coefficient's name as printed (``pi``, ``kappa``, ``gamma``).
        humans_value: the humans' own coefficient; humans_chance: the chance level of their panel.

    Returns:
        ``verdict`` (words), ``verdict_code`` (``below``, ``within``, ``above``), ``rank``
        (``rank``, ``of``, ``by``: ``change`` or ``consistency``, and the humans' range of that
        value, ``low`` and ``high``) and ``humans_at_chance``.
    """
    if human_changes and change is not None:
        ranking = change_rank(change, human_changes)
        value, lo, hi, by = change, min(human_changes), max(human_changes), "change"
        ci = interval or {}
        detail = f"change {_signed(change)} [{_signed(ci.get('low'))}, {_signed(ci.get('high'))}]"
        against = f"{_signed(lo)} to {_signed(hi)}"
        rank, of = ranking["rank"], ranking["of"]
    else:
        human_values = list(consistency["humans"].values())
        value, lo, hi, by = consistency["machine"], min(human_values), max(human_values), "consistency"
        detail = f"consistency {value:.3f}"
        # two humans: one pair, one consistency for both
        against = f"{lo:.3f}" if abs(hi - lo) <= TIE else f"{lo:.3f} to {hi:.3f}"
        rank, of = consistency["rank"], consistency["of"]
    code = "below" if value < lo - TIE else "above" if value > hi + TIE else "within"
    text = f"{code} the human range: rank {rank} of {of} by {by}; {detail} against the humans' {against}"
    at_chance = humans_value is not None and humans_chance is not None and humans_value <= humans_chance + TIE
    if at_chance:
        text += (
            f"; but the humans themselves agree at or below chance ({coefficient} {humans_value:.3f}, chance "
            f"{humans_chance:.3f}): their range is no yardstick"
        )
    return {
        "verdict": text,
        "verdict_code": code,
        "rank": {"rank": rank, "of": of, "by": by, "low": lo, "high": hi},
        "humans_at_chance": at_chance,
    }
