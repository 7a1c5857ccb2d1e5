"""What every format adapter shares: the Adapter record and the check of reader and writer options.

An adapter module defines ``read(path, *, scheme, **options) -> Document`` and, if the format
is writable, ``write(doc, path, *, losses, **options) -> None``. Writers record everything the
target format cannot hold in the :class:`LossReport` they are given (times invented, layer
dropped, speakers merged, times rounded) instead of failing; ``--strict`` turns losses into
errors afterwards. Safe file input and output (atomic writes, decoding, the memory guard) is
:mod:`segagree.files`.

What the annotators wrote (:mod:`segagree.model.source`): a reader gives each unit's value as
written (``UnitColumns.values`` or a unit's ``value`` in ``from_units``) and counts what the model
does not score (``keep_structure``); a writer asks for each unit's value with
``unit_values(doc, units)`` (or :func:`segagree.formats.endnotes.labels_as_written`, which also
checks the target's reader gives the tokens back) and writes it where it is not None. Giving an
unchanged file back byte for byte is done once, in :func:`segagree.formats.write_document`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

from segagree.errors import UsageError
from segagree.model.losses import Loss, LossReport, read_losses  # noqa: F401  (re-exported)

Reader = Callable[..., Any]
Writer = Callable[..., None]


@dataclass(frozen=True)
class Adapter:
    """A format: its name, file extensions, reader and (optional) writer."""

    name: str
    extensions: tuple[str, ...]
    description: str
    read: Reader
    write: Writer | None = None

    @property
    def can_write(self) -> bool:
        return self.write is not None


def check_options(given: Iterable[str], known: Collection[str], what: str) -> None:
    """Refuse option names a reader or writer does not know (``what``: e.g. ``"SRT reader"``)."""
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise UsageError(f"unknown {what} option(s) {unknown}; known: {sorted(known)}")


def note_speaker_order(doc: Any, losses: LossReport, fmt: str) -> None:
    """Report what a format that lists no speakers (a table, a transcript) changes: speakers
    read back in order of first appearance, and speakers without words not at all."""
    with_words = list(dict.fromkeys(doc.column("speaker").tolist()))
    speaking = set(with_words)  # once: a set made per speaker was quadratic in the speakers
    silent = [s for s in doc.speakers if s not in speaking]
    if silent:
        losses.add("speakers-dropped", f"{fmt} names only speakers who speak", where=", ".join(silent))
    listed = [s for s in doc.speakers if s in speaking]
    if listed != with_words:
        losses.add(
            "speakers-reordered",
            f"{fmt} lists speakers in order of first appearance: {', '.join(with_words)} (was {', '.join(listed)})",
        )
