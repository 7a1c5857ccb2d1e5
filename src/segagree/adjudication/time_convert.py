"""The gold of a time review written in another format than the reference annotator's file.

An ELAN reference written as a TextGrid (or a TextGrid as ELAN, SRT, ...) cannot keep the file's
elements as they were, but it keeps what a conversion keeps: the reference file is read as a
document (:func:`segagree.formats.read_document`), the units of every tier that was not reviewed
stay (a speaker tier nobody reviewed is in the gold), the reviewed tiers' units are replaced by the
gold units, and the document is written in the target format with the file's extent (``xmin`` /
``xmax`` kept in the document's meta). What the reference file held that a document does not (its
dependent tiers, ...) is reported from the reader's losses, and what the target format cannot
hold from the writer's: nothing is dropped in silence.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from segagree.adjudication.time_source import ReferenceFile
from segagree.formats import LossReport, read_document, write_document
from segagree.formats.endnotes import split_endnote
from segagree.model import from_units
from segagree.outputs.time_review import UNLABELLED

__all__ = ["write_converted"]


def write_converted(ref: ReferenceFile, gold: Sequence[Mapping[str, Any]], output: Path, fmt: str | None) -> LossReport:
    """Write the reference file, its reviewed tiers' units replaced by ``gold``, as ``output``."""
    doc = read_document(ref.path)
    reviewed = {tier or speaker for tier, speaker, _ in ref.items.values()}
    tier_col = doc.column("tier") if "tier" in doc.column_names() else None
    starts, ends = doc.column("start").astype(float), doc.column("end").astype(float)
    layer = doc.layer()
    scheme = layer.scheme
    speaker_of_tier: dict[str, str] = {}
    units: list[dict[str, Any]] = []
    for unit, tokens in doc.iter_unit_texts(layer.name):
        tier = str(tier_col[unit.rows[0]]) if tier_col is not None else unit.speaker
        speaker_of_tier.setdefault(tier, unit.speaker)
        if tier in reviewed:
            continue
        start, end = float(starts[unit.rows[0]]), float(ends[unit.rows[-1]])
        units.append(
            {
                "speaker": unit.speaker,
                "tokens": tokens,
                "boundary": unit.boundary,
                "start": None if math.isnan(start) else start,
                "end": None if math.isnan(end) else end,
            }
        )
    for u in gold:
        words, code = split_endnote(str(u["text"]).split(), scheme)
        tier = str(u["speaker"])
        units.append(
            {
                "speaker": speaker_of_tier.get(tier, tier),
                "tokens": words or [UNLABELLED],
                "boundary": scheme.unclassified_code if code is None else code,
                "start": float(u["start"]),
                "end": float(u["end"]),
            }
        )
    units.sort(key=lambda u: math.inf if u["start"] is None else u["start"])
    speakers = [s for s in doc.speakers if any(u["speaker"] == s for u in units)]
    speakers += sorted({u["speaker"] for u in units} - set(speakers))
    converted = from_units(
        doc.name, units, layer=layer.name, scheme=scheme, speakers=speakers, annotator="gold", meta=dict(doc.meta)
    )
    losses = write_document(converted, output, fmt)
    losses.add(
        "source-converted",
        f"the gold is {ref.path.name} read as a document (every tier's units; the reviewed tiers' replaced by the "
        f"gold) and written as {ref.other_format}: what that reading does not keep of the file is listed next",
    )
    losses.extend(doc.losses)
    return losses
