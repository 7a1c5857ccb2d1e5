""" "Lossless" measured: a written file read back and compared with its Document field by field.

A writer's loss report says what it knows it cannot hold; this checker finds what actually
changed. :func:`check_written` reads the written file back with its format's reader (default
options) and :func:`compare` counts the differences between the Document that was written and
the one read back, field by field:

* ``documents``: the file cannot be read back at all (1);
* ``speakers``: speakers missing or added (by name); ``speaker-order``: the same speakers in
  another order (1);
* ``words``: per speaker, tokens changed, added or dropped (edit operations of
  :class:`difflib.SequenceMatcher` over the token texts; above ``_DIFF_LIMIT`` tokens, the
  positions that differ plus the difference in length);
* ``units``: per speaker, the difference in the number of units;
* ``boundaries``: per speaker with the same tokens, tokens whose boundary (none, or the type's
  symbol) differs;
* ``times``: per speaker with the same units, unit starts and ends that differ by more than
  half a millisecond (what a format of whole milliseconds may round) or are known on one side only;
* ``labels``: per speaker with the same units, units whose value as written
  (:mod:`segagree.model.source`) differs, where both sides kept one;
* ``structures``: items of what the model does not score (other tiers, dependent annotations)
  that the file read back holds fewer of (``Source.structures``).

:func:`unnamed` then says which differences no loss of the conversion names: each field is
named by losses of the kinds in :data:`NAMED_BY` (by prefix: ``times-`` names every kind of
time loss). ``api.convert`` calls a conversion lossless only when there is no difference and no
loss, and adds every unnamed difference to the report as a loss of its own kind
(``<field>-changed``, with its count).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from segagree.errors import SegagreeError
from segagree.model import BoundaryScheme, Document
from segagree.model.losses import Loss, LossReport
from segagree.model.source import unit_values

# Time differences up to half a millisecond are rounding to whole milliseconds (ELAN, SubRip).
TIME_TOLERANCE = 0.0005 + 1e-9
# Streams longer than this are compared position by position (difflib is quadratic at worst).
_DIFF_LIMIT = 20_000

# Field -> the loss kinds (prefixes) that name a difference in it.
NAMED_BY: dict[str, tuple[str, ...]] = {
    "documents": ("documents-", "cues-unordered"),
    "speakers": ("speaker", "tier", "overlap", "voice"),
    "speaker-order": ("speakers-reordered", "reordered", "speakers-dropped", "speakers-merged"),
    "words": (
        "reordered",
        "tokens-",
        "marks-",
        "tags-",
        "tag-",
        "label",
        "text-",
        "units-dropped",
        "rows-dropped",
        "lines-",
        "round-trip",
        "empty-",
    ),
    "units": (
        "units-",
        "layer-",
        "lines-",
        "boundary-",
        "types-",
        "rows-dropped",
        "empty-",
        "overlap",
        "tokens-dropped",
        "speakers-merged",
        "records-",
        "events-",
    ),
    "boundaries": ("boundary-", "types-", "layer-", "label", "tokens-", "units-dropped", "lines-"),
    "times": ("times-", "timestamp-", "overlap", "end-missing", "gaps-", "reordered"),
    "labels": ("label", "tokens-", "text-", "marks-", "tags-", "tag-", "repaired"),
    "structures": (
        "tier-ignored",
        "annotations-",
        "dependents-",
        "meta-dropped",
        "elements-",
        "lines-unparsed",
        "records-",
        "events-",
        "sheets-",
    ),
}


@dataclass(frozen=True)
class Difference:
    """What reading the written file back found changed in one field.

    Attributes:
        field: one of :data:`NAMED_BY`'s keys.
        count: how many items differ.
        example: the first of them, for the user (speaker and what became what).
    """

    field: str
    count: int
    example: str = ""

    def line(self) -> str:
        return f"{self.field}: {self.count} differ on reading the file back" + (
            f" (first: {self.example})" if self.example else ""
        )

    def to_json(self) -> dict[str, object]:
        return {"field": self.field, "count": self.count, "example": self.example}


def check_written(doc: Document, path: str | Path, fmt: str | None = None) -> list[Difference]:
    """Read the file ``doc`` was written to back (format ``fmt``, else by extension) and
    :func:`compare` the two."""
    from segagree.formats import read_document  # (the registry imports this module's users)

    try:
        back = read_document(Path(path), fmt, scheme=_scheme_of(doc))
    except SegagreeError as err:
        return [Difference("documents", 1, f"the written file cannot be read back: {err}")]
    return compare(doc, back)


def _scheme_of(doc: Document) -> BoundaryScheme | None:
    """The scheme of the unit layer a reader should use (the document's own, so that endnotes
    of a non-default scheme are read back as written)."""
    if not doc.layers:
        return None
    scheme = doc.layer().scheme
    return scheme if doc.layer().name == "iu" else None


def compare(doc: Document, back: Document) -> list[Difference]:
    """The differences between ``doc`` and ``back`` (its written file read back), by field."""
    found: dict[str, list[int | str]] = {}

    def add(field: str, count: int, example: str) -> None:
        if count:
            slot = found.setdefault(field, [0, example])
            slot[0] = int(slot[0]) + count

    ours, theirs = set(doc.speakers), set(back.speakers)  # (list searches: quadratic in the speakers)
    missing = [s for s in doc.speakers if s not in theirs]
    added = [s for s in back.speakers if s not in ours]
    add("speakers", len(missing) + len(added), f"{missing[:3]} became {added[:3]}")
    common = [s for s in doc.speakers if s in theirs]
    if [s for s in back.speakers if s in ours] != common:
        add("speaker-order", 1, f"{common[:4]} read back as {[s for s in back.speakers if s in ours][:4]}")
    a_text, b_text = doc.token_texts(), back.token_texts()
    a_units, b_units = _units_by_speaker(doc), _units_by_speaker(back)
    for speaker in common:
        ta, tb = a_text[speaker], b_text[speaker]
        n = _token_edits(ta, tb)
        add("words", n, f"speaker {speaker!r}: {_first_change(ta, tb)}")
        ua, ub = a_units[speaker], b_units[speaker]
        add(
            "units",
            abs(len(ua.sizes) - len(ub.sizes)),
            f"speaker {speaker!r}: {len(ua.sizes)} -> {len(ub.sizes)} units",
        )
        if n == 0:
            bad = np.flatnonzero(ua.symbols != ub.symbols)
            if bad.size:
                i = int(bad[0])
                add(
                    "boundaries",
                    int(bad.size),
                    f"speaker {speaker!r}, after {ta[i]!r}: {ua.symbols[i]!r} -> {ub.symbols[i]!r}",
                )
        if ua.sizes != ub.sizes:
            continue
        for name, xa, xb in (("start", ua.starts, ub.starts), ("end", ua.ends, ub.ends)):
            known_a, known_b = ~np.isnan(xa), ~np.isnan(xb)
            off = (known_a != known_b) | (
                known_a & known_b & (np.abs(np.nan_to_num(xa) - np.nan_to_num(xb)) > TIME_TOLERANCE)
            )
            if off.any():
                i = int(np.flatnonzero(off)[0])
                add("times", int(off.sum()), f"speaker {speaker!r}, unit {i + 1} {name}: {xa[i]:.6g} -> {xb[i]:.6g}")
        pairs = [(va, vb) for va, vb in zip(ua.values, ub.values, strict=True) if va is not None and vb is not None]
        changed = [(va, vb) for va, vb in pairs if va != vb]
        if changed:
            add("labels", len(changed), f"speaker {speaker!r}: {changed[0][0]!r} -> {changed[0][1]!r}")
    kept_a = doc.source.structures if doc.source is not None else {}
    kept_b = back.source.structures if back.source is not None else {}
    for name, n in kept_a.items():
        lost = n - min(n, kept_b.get(name, 0))
        add("structures", lost, f"{name}: {n} -> {kept_b.get(name, 0)}")
    return [Difference(field, int(count), str(example)) for field, (count, example) in found.items()]


@dataclass
class _SpeakerUnits:
    """One speaker's units: token counts, per-token boundary symbols, unit times and values."""

    sizes: list[int]
    symbols: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    values: list[str | None]


def _units_by_speaker(doc: Document) -> dict[str, _SpeakerUnits]:
    out: dict[str, _SpeakerUnits] = {}
    if not doc.speakers or not doc.layers:
        return {s: _SpeakerUnits([], np.empty(0, dtype=object), np.empty(0), np.empty(0), []) for s in doc.speakers}
    layer = doc.layer()
    symbols = np.asarray(["", *layer.scheme.symbols[1:]], dtype=object)
    starts, ends = doc.column("start").astype(float), doc.column("end").astype(float)
    units = doc.units(layer.name)
    values = dict(zip((u.rows for u in units), unit_values(doc, units), strict=True))
    by_speaker: dict[str, list] = {s: [] for s in doc.speakers}
    for u in units:
        by_speaker[u.speaker].append(u)
    for speaker, rows in doc.speaker_rows().items():
        mine = by_speaker[speaker]
        out[speaker] = _SpeakerUnits(
            sizes=[len(u.rows) for u in mine],
            symbols=symbols[layer.boundaries[rows]],
            starts=np.asarray([starts[u.rows[0]] for u in mine], dtype=float),
            ends=np.asarray([ends[u.rows[-1]] for u in mine], dtype=float),
            values=[values[u.rows] for u in mine],
        )
    return out


def _token_edits(a: list[str], b: list[str]) -> int:
    """How many tokens were changed, added or dropped between two streams."""
    if a == b:
        return 0
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True))
    if len(a) + len(b) > _DIFF_LIMIT:
        n = min(len(a), len(b))
        return sum(x != y for x, y in zip(a[:n], b[:n], strict=True)) + abs(len(a) - len(b))
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return sum(max(i2 - i1, j2 - j1) for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal")


def _first_change(a: list[str], b: list[str]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"token {i + 1} {x!r} -> {y!r}"
    return f"{len(a)} -> {len(b)} tokens"


def is_named(field: str, kinds: Iterable[str]) -> bool:
    """Whether a loss of one of ``kinds`` names a difference in ``field`` (see :data:`NAMED_BY`)."""
    prefixes = NAMED_BY.get(field, ())
    return any(kind.startswith(prefixes) for kind in kinds)


def unnamed(differences: list[Difference], *reports: LossReport) -> list[Difference]:
    """The differences that no loss of ``reports`` names."""
    kinds = {loss.kind for report in reports for loss in report}
    return [d for d in differences if not is_named(d.field, kinds)]


def as_loss(difference: Difference) -> Loss:
    """An unnamed difference as a loss of its own kind (``<field>-changed``)."""
    return Loss(
        f"{difference.field}-changed",
        "found on reading the written file back, and named by no other loss"
        + (f"; first: {difference.example}" if difference.example else ""),
        count=difference.count,
    )
