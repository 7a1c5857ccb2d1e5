"""What a tier replacer is given for one gold unit: its span and label, and the source unit it is.

A gold unit that the adjudication took from the reference annotator's own file is identified by
where it was in that file (its tier's unit with that start and end), not by its label: the label a
review shows is the unit's tokens joined again (``0.`` shown as ``0 .``), and comparing that with
the file's value would call a kept unit new. A replacer that finds the source unit keeps it as it
was written (its value, id, attributes and dependent annotations); a changed unit (new times or a
new label) continues the source unit it replaces, so what depends on it stays where it still fits.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GoldSpan", "Origin", "same_time"]

# (start s, end s, value) of one gold unit.
GoldSpan = tuple[float, float, str]

_TOLERANCE = 1e-6  # seconds: times read from a file and written in a workbook compare within this


@dataclass(frozen=True)
class Origin:
    """The reference file's unit a gold unit comes from.

    Attributes:
        start, end: the source unit's span (seconds), as the review read it.
        kept: the gold unit is that unit unchanged (its times and label); else the gold unit
            replaces it (a decision changed its times or its label).
        same_label: the gold unit's label is the source unit's (only its times changed): the
            value is written as the file had it.
        annotation_id: the source annotation's id (ELAN), which identifies it before its span.
    """

    start: float
    end: float
    kept: bool
    same_label: bool = True
    annotation_id: str = ""  # the source annotation's id, where the caller knows it (ELAN)


def same_time(a: float, b: float) -> bool:
    """Whether two times (seconds) are the same time of a file (within a microsecond)."""
    return abs(a - b) < _TOLERANCE
