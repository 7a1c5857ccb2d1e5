"""The annotation plan of time-based agreement: who annotated what, decided before scoring and shown.

From the files and the options, the plan says for each file and tier (or table rows) which annotator,
which speaker, which recording (text) its units are, how many units it gives and how many intervals
were read as gaps. It is printed above the scores, kept under ``plan`` in the JSON, and ``--plan``
prints it alone. The rules:

* **Tier names across annotators' files** (one file per annotator) are matched ignoring case, spaces,
  ``_`` and ``-`` ("Stuttering moments" = "stuttering_moments"); a note says which spellings were
  joined. Two tiers of one file with the same matching name are ambiguous: an error lists each file's
  tiers and names the options that resolve it (``--tier``, ``--rename``).
* **A tier (speaker) only some annotators have** is listed and left out of every score, ALL included;
  with ``missing_as_empty`` it is scored, the annotators without it having no units there.
* **Gaps**: a unit whose label (stripped) is one of ``gap_labels`` is a gap, in every format (ELAN,
  Praat, tables ...); the plan counts them per file and tier. Blank ELAN annotations and empty Praat
  intervals are never units.
* **Annotators without units** are kept: named by ``--annotators``, a header-only table, an empty tier
  of their file. In one file whose tiers are the annotators, a tier without units is an annotator only
  when named (``--annotator-tier``/``--annotators``).
"""

from __future__ import annotations

import fnmatch
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from segagree.errors import UsageError

__all__ = [
    "DEFAULT_GAP_LABELS",
    "PlanRow",
    "TimePlan",
    "match_tiers",
    "plan_lines",
    "select_tiers",
    "tier_key",
]

# The labels read as gaps (pauses), not units, by default: Praat's and ELAN's usual pause marks.
DEFAULT_GAP_LABELS: tuple[str, ...] = ("_", "sil", "<sil>", "sp", "<p:>", "#")
_SEPARATORS = re.compile(r"[\s_\-]+")


def tier_key(name: str) -> str:
    """A tier name as matched across files: case, spaces, ``_`` and ``-`` ignored."""
    return _SEPARATORS.sub("", name).casefold()


@dataclass
class PlanRow:
    """One source of units: a file's tier (or a table's annotator/recording/speaker)."""

    file: str
    tier: str
    annotator: str
    speaker: str | None  # None: left out of the scores (see ``why``)
    recording: str = ""
    units: int = 0
    gaps: dict[str, int] = field(default_factory=dict)
    why: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "tier": self.tier,
            "annotator": self.annotator,
            "speaker": self.speaker,
            "recording": self.recording,
            "units": self.units,
            "gaps": dict(self.gaps),
            "scored": self.speaker is not None,
            "why": self.why,
        }


@dataclass
class TimePlan:
    """The plan: its rows, the annotators in order, the scored speakers, what was left out, notes."""

    source: str  # "files" (one per annotator), "tiers" (one file, a tier each) or "table"
    rows: list[PlanRow] = field(default_factory=list)
    annotators: list[str] = field(default_factory=list)
    left_out: dict[str, list[str]] = field(default_factory=dict)  # speaker -> annotators who have it
    gap_labels: tuple[str, ...] = DEFAULT_GAP_LABELS
    time_unit: str = "s"
    notes: list[str] = field(default_factory=list)

    def units_per(self) -> dict[str, dict[str, int]]:
        """annotator -> scored speaker -> units."""
        out: dict[str, dict[str, int]] = {a: {} for a in self.annotators}
        for r in self.rows:
            if r.speaker is not None:
                key = f"{r.recording}/{r.speaker}" if r.recording and r.speaker else r.recording or r.speaker
                out.setdefault(r.annotator, {})
                out[r.annotator][key] = out[r.annotator].get(key, 0) + r.units
        return out

    def gap_counts(self) -> dict[str, int]:
        total: Counter[str] = Counter()
        for r in self.rows:
            total.update(r.gaps)
        return dict(total)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "annotators": list(self.annotators),
            "rows": [r.to_dict() for r in self.rows],
            "units": self.units_per(),
            "left_out": {k: list(v) for k, v in self.left_out.items()},
            "gap_labels": list(self.gap_labels),
            "gaps": self.gap_counts(),
            "time_unit": self.time_unit,
            "notes": list(self.notes),
        }

    def lines(self) -> list[str]:
        """The plan as text lines (printed above the scores, or alone with ``--plan``)."""
        return plan_lines(self.to_dict())


def plan_lines(plan: Mapping[str, Any]) -> list[str]:
    """A plan (:meth:`TimePlan.to_dict`) as text lines."""
    gaps = ", ".join(repr(g) for g in plan["gap_labels"]) or "none (--gap-label '')"
    who = ", ".join(plan["annotators"])
    out = [f"plan ({plan['source']}): annotators {who}; gap labels {gaps}; times in {plan['time_unit']}"]
    for r in plan["rows"]:
        where = r["file"] + (f" tier {r['tier']!r}" if r["tier"] else "")
        rec = f", recording {r['recording']!r}" if r["recording"] else ""
        target = f"speaker {r['speaker']!r}" if r["speaker"] else "one stream"
        if not r["scored"]:
            target = "NOT SCORED"
        gap = ""
        if r["gaps"]:
            gap = f", {sum(r['gaps'].values())} gaps (" + ", ".join(f"{k!r} {n}" for k, n in r["gaps"].items()) + ")"
        why = f" ({r['why']})" if r["why"] else ""
        out.append(f"  {where} -> {r['annotator']}, {target}{rec}: {r['units']} units{gap}{why}")
    for speaker, holders in plan["left_out"].items():
        out.append(
            f"  left out of every score (ALL too): {speaker!r}, only {', '.join(holders)} have it "
            "(--missing-as-empty scores it, the others with no units)"
        )
    out.extend(f"  note: {n}" for n in plan["notes"])
    return out


def _pattern_matches(pattern: str, tier: str) -> bool:
    if any(ch in pattern for ch in "*?["):
        return fnmatch.fnmatchcase(tier.casefold(), pattern.casefold())
    return tier_key(pattern) == tier_key(tier)


def select_tiers(spec: Sequence[str], file: str, stem: str, tiers: Sequence[str]) -> list[str]:
    """The tiers of one file that ``--tier`` chooses: each item is ``NAME`` or a pattern (``*``, ``?``;
    names matched as tier names are, ignoring case, spaces, ``_`` and ``-``), or ``FILE=NAME`` for one
    file (its name or stem). A file none of whose tiers is chosen is an error listing its tiers."""
    mine: list[str] = []
    general: list[str] = []
    for item in spec:
        head, sep, tail = item.partition("=")
        if not sep:
            general.append(item)
        elif head.strip() in (file, stem):
            mine.append(tail.strip())
    patterns = mine or general
    chosen = [t for t in tiers if any(_pattern_matches(p, t) for p in patterns)]
    if not chosen:
        raise UsageError(
            f"--tier {' / '.join(repr(p) for p in patterns) or '(none for this file)'} chooses no tier of {file}; "
            f"its tiers: {list(tiers)} (give --tier {stem}=NAME for this file, or a pattern such as 'stutter*')"
        )
    return chosen


def match_tiers(
    tiers: Mapping[str, Sequence[str]], files: Mapping[str, str], *, missing_as_empty: bool = False
) -> tuple[dict[tuple[str, str], str | None], dict[str, list[str]], list[str]]:
    """Match the tiers (speakers) of one file per annotator by :func:`tier_key`.

    Args:
        tiers: annotator -> the tier names of their file (empty tiers included).
        files: annotator -> file name (for messages).

    Returns:
        ``{(annotator, tier): speaker or None}`` (None: left out), ``{speaker: annotators having it}`` for
        the left-out speakers, and notes. The speaker's name is its first spelling in annotator order.

    Raises:
        UsageError: two tiers of one file have the same matching name, or no tier is shared by every
        annotator though the files have several (the message lists every file's tiers).
    """
    spelling: dict[str, str] = {}
    spellings: dict[str, set[str]] = {}
    holders: dict[str, list[str]] = {}
    for annotator, names in tiers.items():
        keys: dict[str, str] = {}
        for name in names:
            key = tier_key(name)
            if key in keys:
                raise UsageError(
                    f"{files[annotator]} has two tiers that match as one name: {keys[key]!r} and {name!r}; "
                    f"choose one with --tier {annotator}=NAME, or rename one with --rename OLD=NEW. "
                    + _listing(tiers, files)
                )
            keys[key] = name
            spelling.setdefault(key, name)
            spellings.setdefault(key, set()).add(name)
            holders.setdefault(key, []).append(annotator)
    notes = [
        f"tiers {sorted(v)} are one speaker {spelling[k]!r} (names matched ignoring case, spaces, '_' and '-')"
        for k, v in spellings.items()
        if len(v) > 1
    ]
    everyone = list(tiers)
    shared = {k for k, who in holders.items() if len(who) == len(everyone)}
    if not shared and any(len(v) > 1 for v in tiers.values()) and not missing_as_empty:
        raise UsageError(
            "no tier is in every annotator's file, so there is nothing to compare. "
            + _listing(tiers, files)
            + ". Choose each file's tier with --tier FILE=NAME (or a pattern), map names with --rename OLD=NEW, "
            "or score tiers some files lack with --missing-as-empty"
        )
    left_out = {spelling[k]: who for k, who in holders.items() if k not in shared and not missing_as_empty}
    mapping: dict[tuple[str, str], str | None] = {}
    for annotator, names in tiers.items():
        for name in names:
            key = tier_key(name)
            mapping[(annotator, name)] = None if spelling[key] in left_out else spelling[key]
    return mapping, left_out, notes


def _listing(tiers: Mapping[str, Sequence[str]], files: Mapping[str, str]) -> str:
    return "Tiers per file: " + "; ".join(f"{files[a]}: {list(t)}" for a, t in tiers.items())
