"""Loss reports: what a reader or writer could not carry between a file and the model.

The contract every adapter keeps ("lossless" must be true):

* a **reader** records in ``doc.losses`` everything the file holds that the Document does not
  (tiers not read, point tiers, media descriptors, empty tokens dropped, ...), and everything it
  repaired (an SRT timing with a dot for the comma);
* a **writer** records in the ``losses`` report it is given everything the Document holds that
  the target format cannot (times invented, layer dropped, speakers merged, times rounded).

``convert`` says "lossless" only when both are empty and, measured, reading the written file back
finds no difference (:mod:`segagree.formats.roundtrip`; a difference no loss names is added as a
loss of its own kind); ``--strict`` turns any loss into an error.
Each loss says what kind it is, where (tier, speaker, cue, line) and how much (a count).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Loss:
    """One thing a read or a write could not carry over.

    Attributes:
        kind: a short key (``times-invented``, ``layer-dropped``, ``tier-ignored``,
            ``tokens-dropped``, ``meta-dropped``, ``repaired``, ``encoding`` ...).
        message: a sentence for the user.
        where: the place (``tier 'pitch'``, ``speaker JOE``, ``cue 4``, ``line 12``), if one.
        count: how many items were lost, if countable.
        side: ``read`` or ``write``.
    """

    kind: str
    message: str
    where: str | None = None
    count: int | None = None
    side: str = "write"

    def line(self) -> str:
        where = f" [{self.where}]" if self.where else ""
        count = f" ({self.count})" if self.count is not None else ""
        return f"{self.kind}{where}: {self.message}{count}"

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass
class LossReport:
    """The losses of one read or conversion, in the order they were found (no duplicates).

    ``notes`` are facts about the output that lose nothing (cells a spreadsheet would run as
    formulas in a CSV written byte-exact): shown, but the report stays lossless."""

    losses: list[Loss] = field(default_factory=list)
    side: str = "write"
    notes: list[Loss] = field(default_factory=list)

    def add(self, kind: str, message: str, *, where: str | None = None, count: int | None = None) -> None:
        loss = Loss(kind, message, where=where, count=count, side=self.side)
        if loss not in self.losses:
            self.losses.append(loss)

    def note(self, kind: str, message: str, *, count: int | None = None) -> None:
        """Add a note (not a loss: :meth:`__bool__` ignores it)."""
        item = Loss(kind, message, count=count, side=self.side)
        if item not in self.notes:
            self.notes.append(item)

    def add_count(self, kind: str, message: str, count: int) -> None:
        """Add a loss of ``count`` items, or nothing when ``count`` is 0."""
        if count:
            self.add(kind, message, count=count)

    def add_items(self, kind: str, message: str, items: Sequence[str]) -> None:
        """Add a loss naming the first five of ``items`` and counting them all, or nothing
        when there are none."""
        if items:
            self.add(kind, message, where=", ".join(items[:5]), count=len(items))

    def extend(self, other: Iterable[Loss]) -> None:
        for loss in other:
            if loss not in self.losses:
                self.losses.append(loss)
        for item in getattr(other, "notes", ()):
            if item not in self.notes:
                self.notes.append(item)

    def __bool__(self) -> bool:
        return bool(self.losses)

    def __len__(self) -> int:
        return len(self.losses)

    def __iter__(self) -> Iterator[Loss]:
        return iter(self.losses)

    def kinds(self) -> set[str]:
        return {loss.kind for loss in self.losses}

    def lines(self) -> list[str]:
        return [loss.line() for loss in self.losses]

    def note_lines(self) -> list[str]:
        return [item.line() for item in self.notes]

    def to_json(self) -> list[dict[str, Any]]:
        return [loss.to_json() for loss in self.losses]

    def scoring_lines(self) -> list[str]:
        """The losses and notes of a read that change what a measure sees (:data:`SCORING_KINDS`)."""
        return [item.line() for item in [*self.losses, *self.notes] if item.kind in SCORING_KINDS]


#: What a reader drops or changes that a measure would otherwise have seen: RTTM records other than
#: SPEAKER (LEXEME, NOSCORE...) and turns of 0 s, SCTK's later alternatives, negative starts read as 0,
#: caption cues without words, repaired cues and a caption header; said beside the scores.
SCORING_KINDS = frozenset(
    {
        "records-dropped",
        "empty-turns",
        "alternatives-dropped",
        "times-clamped",
        "empty-cues",
        "repaired",
        "header-dropped",
    }
)


def read_losses() -> LossReport:
    """An empty report for a reader's side of a conversion."""
    return LossReport(side="read")
