"""One interval tier of a Praat TextGrid replaced, every other tier and the file's extent kept.

An adjudicated gold of time units is the reference annotator's TextGrid with only the reviewed
tier changed (:mod:`segagree.adjudication.time_source`): the file's ``xmin``/``xmax``, every other
tier (interval or point, with its own range, its intervals and labels) and the tier order stay as
read by :func:`segagree.formats.praat.text_form.parse_textgrid`; the reviewed tier keeps its name
and range and holds the gold units, gaps filled with empty intervals as Praat requires; a gold unit
that is one of its intervals (kept, or moved in time) keeps that interval's label as written, and
an interval the review did not hold (a pause) stays where no gold unit overlaps it. The file
is written in its own form (long or short) as UTF-8 (Praat reads UTF-8); the times of every tier
are written as Praat writes them (shortest exact decimal), so a tier's content is identical even
where its text was spelled otherwise (``0.50`` is written ``0.5``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from segagree.errors import InputError
from segagree.files.atomic import atomic_path
from segagree.files.encoding import decode_text, detect_encoding
from segagree.files.memory import read_bytes
from segagree.formats.gold_spans import Origin, same_time
from segagree.formats.praat.text_form import Item, TextGridFile, Tier, dump_textgrid, parse_textgrid
from segagree.model.losses import LossReport

__all__ = ["replace_textgrid_tier"]

_LEGACY = "cp1252"  # what Praat reads a file without a BOM that is not UTF-8 as


def replace_textgrid_tier(
    source: Path,
    output: Path,
    tier_name: str,
    gold: Sequence[tuple[float, float, str]],
    gap_labels: Sequence[str] = (),
    origins: Sequence[Origin | None] = (),
    reviewed: Sequence[tuple[float, float]] | None = None,
) -> LossReport:
    """Write ``source`` to ``output`` with the interval tier ``tier_name`` holding ``gold``
    (ordered, not overlapping: the caller checks), everything else kept (see the module docstring).
    ``origins``: for each gold unit, the interval of the tier it is or replaces (None: a new unit);
    a kept interval, or one whose times alone changed, keeps its label as the file spelled it.

    ``gap_labels``: the labels the review read as gaps (pauses): such intervals of the replaced tier
    are not gold units and are not kept; they are counted as a loss (``gaps-dropped``).
    ``reviewed``: the spans (s) of the tier's intervals the review held; given, every other
    labelled interval (a pause, a gap label, a unit outside the review) stays as it was where no
    gold unit overlaps it, and is listed where one does (``unit-dropped``), gaps included.

    Raises:
        InputError: no such interval tier (or two of that name), or a gold unit outside the tier's range.
    """
    losses = LossReport()
    raw = read_bytes(source)
    text = decode_text(raw, source, fallback=_LEGACY)
    if "ooBinaryFile" in text[:300]:
        raise InputError("binary TextGrid is not supported; save it as a text file in Praat", path=source)
    grid = parse_textgrid(text, source)
    named = [t for t in grid.tiers if t.name == tier_name]
    if len(named) != 1 or not named[0].is_interval:
        what = "no interval tier" if not named or not named[0].is_interval else f"{len(named)} tiers"
        raise InputError(f"{what} named {tier_name!r} to put the gold units on", path=source)
    old = named[0]
    for start, end, _ in gold:
        if start < old.xmin - 1e-9 or end > old.xmax + 1e-9:
            raise InputError(
                f"the gold unit {start:g}-{end:g} s lies outside tier {tier_name!r}'s range "
                f"{old.xmin:g}-{old.xmax:g} s; edit its times in the review",
                path=source,
            )
    if reviewed is None:
        gaps = {g.strip() for g in gap_labels}
        kept_gaps = sum(1 for it in old.items if it.label.strip() and it.label.strip() in gaps)
        losses.add_count(
            "gaps-dropped", f"intervals of tier {tier_name!r} labelled as gaps ({', '.join(sorted(gaps))})", kept_gaps
        )
    labels = _source_labels(old, gold, origins)
    items = [Item(s, e, x, 0) for (s, e, _), x in zip(gold, labels, strict=True)]
    if reviewed is not None:
        items += _not_reviewed(old, gold, reviewed, losses)
        items.sort(key=lambda it: (it.start, it.end))
    new = Tier(old.name, True, old.xmin, old.xmax, items, old.line)
    tiers = [new if t is old else t for t in grid.tiers]
    long_form = re.search(r"^\s*item ?\[", text, re.MULTILINE) is not None
    encoding = detect_encoding(raw, None, _LEGACY)
    if encoding.replace("-", "").lower() not in ("utf8", "ascii"):
        losses.note("encoding", f"{source.name} was {encoding}; the gold is written in UTF-8 (Praat reads both)")
    with atomic_path(output, inputs=(source,)) as tmp:
        tmp.write_text(dump_textgrid(TextGridFile(grid.xmin, grid.xmax, tiers), long=long_form), "utf-8")
    return losses


def _source_labels(old: Tier, gold: Sequence[tuple[float, float, str]], origins: Sequence[Origin | None]) -> list[str]:
    """Each gold unit's label: the source interval's own where the unit is that interval (or that
    interval with new times), else the gold's."""
    labels = [label for _, _, label in gold]
    free = list(old.items)
    for k, origin in enumerate(origins[: len(gold)]):
        if origin is None or not (origin.kept or origin.same_label):
            continue
        item = next((it for it in free if same_time(it.start, origin.start) and same_time(it.end, origin.end)), None)
        if item is not None:
            free.remove(item)
            labels[k] = item.label
    return labels


def _not_reviewed(
    old: Tier, gold: Sequence[tuple[float, float, str]], reviewed: Sequence[tuple[float, float]], losses: LossReport
) -> list[Item]:
    """The labelled intervals of the tier the review did not hold, kept where no gold unit
    overlaps them; the others listed as dropped."""
    kept = []
    for it in old.items:
        if not it.label.strip() or any(same_time(it.start, s) and same_time(it.end, e) for s, e in reviewed):
            continue
        if any(s < it.end - 1e-9 and it.start < e - 1e-9 for s, e, _ in gold):
            losses.add(
                "unit-dropped",
                f"{it.label!r} was not in the review and overlaps a gold unit",
                where=f"tier {old.name!r} {it.start:g}-{it.end:g} s",
            )
            continue
        kept.append(it)
    return kept
