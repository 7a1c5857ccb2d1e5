"""The source, as written: what a Document's file held, kept beside what the model scores.

A reader turns each unit's value into tokens and an endnote (``what's that?`` -> ``what's``,
``that``, ``?``); scoring sees those. What the annotator wrote is kept here, in one record on the
Document (:attr:`Document.source`), for every writer:

* ``path`` and ``stamp`` (size and modification time), or ``data``: the file, by where it is
  (read again when a writer gives it back, and only if its stamp is the one read: a Document
  holds no copy of its file) or by its bytes (the native JSON carries them); ``format`` and
  ``options``: the reader's format name and the reader options it was read with;
* ``fingerprint``: :func:`document_print` of the Document as read. A Document whose print is
  still this one has not been changed since reading (no decision, no speaker selection), so
  written to its own format with default options it gives the file back byte for byte
  (:func:`segagree.formats.write_document`);
* ``values``: each unit's original value (its text as the file spells it), keyed by
  :func:`unit_key` of the unit as read: its tokens, boundary code and time span. The key is the
  unit's content, not its place, so it survives copies, speaker selection, reordering and
  documents built from parts of others; and a writer that finds a unit's key here knows that
  unit's tokens, boundary and times are unchanged since reading (:meth:`Source.value_of`);
* ``structures``: what the file holds that the model does not score (dependent and child tiers,
  other tiers, comment and header lines), as a name and the number of its items, so the round
  trip checker (:mod:`segagree.formats.roundtrip`) can count what a conversion keeps. The
  structures themselves are in the file, and the file-level parts a reader writes back to its
  own format are in ``Document.meta`` (:mod:`segagree.formats.kept_meta`).

Readers give the values through :class:`~segagree.model.UnitColumns` (``values``) or
:func:`~segagree.model.from_units` (a unit's ``value``); :func:`segagree.formats.read_document`
fills in the rest.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np


class Document(Protocol):
    """What this module reads of a :class:`segagree.model.Document` (which imports this module,
    so it is named here by the parts it has)."""

    source: Source | None

    @property
    def name(self) -> str: ...
    @property
    def speakers(self) -> list[str]: ...
    @property
    def layers(self) -> Mapping[str, Any]: ...
    @property
    def meta(self) -> dict[str, Any]: ...
    @property
    def losses(self) -> Iterable[Any]: ...
    def column(self, name: str) -> np.ndarray: ...
    def column_names(self) -> list[str]: ...
    def column_runs(self, name: str) -> tuple[np.ndarray, np.ndarray]: ...


class Unit(Protocol):
    """A unit of a Document's layer (:class:`segagree.model.Unit`): its token rows and boundary."""

    @property
    def rows(self) -> tuple[int, ...]: ...
    @property
    def boundary(self) -> int: ...


# (tokens, boundary code, start s, end s): a unit as read; times None when unknown.
UnitKey = tuple[tuple[str, ...], int, float | None, float | None]
# Read losses that say the reader repaired the file (a timing spelled otherwise, a guessed
# encoding, rolling captions collapsed): such a file is written anew, repaired, never given back.
REPAIRS = ("repaired", "encoding", "read-as-", "rolling-", "tags-unglued")
# Times are compared to the microsecond: what a reader parsed, not what arithmetic made of it.
_TIME_DIGITS = 6


def unit_key(tokens: Iterable[str], boundary: int, start: Any, end: Any) -> UnitKey:
    """The key of a unit in :attr:`Source.values`: its tokens, boundary code and time span."""
    first, last = _times(np.asarray([start, end], dtype=float))
    return tuple(str(t) for t in tokens), int(boundary), first, last


@dataclass(eq=False)
class Source:
    """What a Document's file held (see the module docstring).

    Attributes:
        format: the reader's format name (``eaf``, ``textgrid``...); empty for a built Document.
        kind: the file name's ending that named the format (``.csv``, ``.tsv``, ``.xlsx`` are all
            ``table``), empty when the format was named otherwise.
        data: the file's bytes, when carried (the native JSON), else None.
        path, stamp: where the file is and its (size, modification time in ns) when read.
        options: the reader options besides ``encoding`` the file was read with.
        fingerprint: :func:`document_print` of the Document as read.
        values: :func:`unit_key` of each unit as read -> its value as the file spells it.
        structures: what the file holds that the model does not score -> how many items.
    """

    format: str = ""
    kind: str = ""
    data: bytes | None = None
    path: str = ""
    stamp: tuple[int, int] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    fingerprint: str = ""
    values: dict[UnitKey, str] = field(default_factory=dict)
    structures: dict[str, int] = field(default_factory=dict)

    def value_of(self, tokens: Iterable[str], boundary: int, start: Any, end: Any) -> str | None:
        """The original value of the unit with these tokens, boundary and times, or None when
        no unit read was this one (it was changed, or the reader kept no value)."""
        if not self.values:
            return None
        return self.values.get(unit_key(tokens, boundary, start, end))

    def unchanged(self, doc: Document) -> bool:
        """True when ``doc`` is, in every scored and kept field, the Document read from the file."""
        has_file = self.data is not None or self.stamp is not None
        return bool(has_file and self.fingerprint and document_print(doc) == self.fingerprint)

    def file_bytes(self) -> bytes | None:
        """The file as read: ``data``, or the file at ``path`` if its size and modification time
        are still those read (None when it changed or is gone)."""
        if self.data is not None:
            return self.data
        if not self.path or self.stamp is None:
            return None
        try:
            if _stamp(Path(self.path)) != self.stamp:
                return None
            data = Path(self.path).read_bytes()
        except OSError:
            return None
        return data if len(data) == self.stamp[0] else None

    def gives_back(self, doc: Document, fmt: str, kind: str, options: dict[str, Any]) -> bool:
        """True when writing ``doc`` as ``fmt`` to a file name ending in ``kind`` with ``options``
        can be the source's bytes: the same format and kind of file, default writer and reader
        options, nothing changed since reading, and nothing repaired on reading (:data:`REPAIRS`)."""
        repaired = any(loss.kind.startswith(REPAIRS) for loss in doc.losses)
        return (
            fmt == self.format
            and kind == self.kind
            and not options
            and not self.options
            and not repaired
            and self.unchanged(doc)
        )

    def without_file(self) -> Source:
        """A copy that keeps the values and structures but not the file: a writer then writes
        the Document anew (each unchanged unit as spelled) instead of giving the bytes back."""
        return replace(
            self, data=None, stamp=None, fingerprint="", values=dict(self.values), structures=dict(self.structures)
        )

    def to_json(self) -> dict[str, Any]:
        """The native JSON form (``source`` in ``data/document.schema.json``)."""
        out: dict[str, Any] = {"format": self.format, "kind": self.kind, "fingerprint": self.fingerprint}
        if self.options:
            out["options"] = {str(k): _plain(v) for k, v in self.options.items()}
        data = self.file_bytes()
        if data is not None:
            try:
                out["text"] = data.decode("utf-8")
            except UnicodeDecodeError:
                out["base64"] = base64.b64encode(data).decode("ascii")
        out["values"] = [[list(k[0]), k[1], k[2], k[3], v] for k, v in self.values.items()]
        if self.structures:
            out["structures"] = dict(self.structures)
        return out

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Source:
        """The record :meth:`to_json` wrote."""
        data: bytes | None = None
        if isinstance(raw.get("text"), str):
            data = raw["text"].encode("utf-8")
        elif isinstance(raw.get("base64"), str):
            data = base64.b64decode(raw["base64"])
        values = {
            unit_key(t, b, np.nan if s is None else s, np.nan if e is None else e): v
            for t, b, s, e, v in raw.get("values") or []
        }
        return cls(
            format=str(raw.get("format", "")),
            kind=str(raw.get("kind", "")),
            data=data,
            options=dict(raw.get("options") or {}),
            fingerprint=str(raw.get("fingerprint", "")),
            values=values,
            structures={str(k): int(n) for k, n in (raw.get("structures") or {}).items()},
        )


def _plain(value: Any) -> Any:
    """A reader option as JSON (tuples as lists, anything else as its text)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)


def keep_values(
    doc: Document, firsts: Sequence[int], sizes: Sequence[int], boundaries: Sequence[int], values: Sequence[str | None]
) -> None:
    """Record each unit's original value in ``doc.source`` (made when missing): unit ``i`` is
    the ``sizes[i]`` token rows from ``firsts[i]`` with boundary ``boundaries[i]`` (a reader's
    units, rows in order), and ``values[i]`` its value (None: nothing to keep)."""
    if doc.source is None:
        doc.source = Source()
    # Whole columns to Python once: a unit's key is then slices and lookups (a quarter of a
    # million tokens in a few tenths of a second).
    text = doc.column("text").tolist()
    starts = _times(doc.column("start"))
    ends = _times(doc.column("end"))
    kept = doc.source.values
    for first, n, boundary, value in zip(firsts, sizes, boundaries, values, strict=True):
        if value is not None and n:
            last = first + n - 1
            kept.setdefault((tuple(text[first : last + 1]), int(boundary), starts[first], ends[last]), value)


def _times(column: np.ndarray) -> list[float | None]:
    """A time column as :func:`unit_key` puts times: rounded, None for unknown."""
    rounded = np.round(np.asarray(column, dtype=float), _TIME_DIGITS)
    unknown = np.isnan(rounded)
    if not unknown.any():
        return rounded.tolist()
    out: list[float | None] = rounded.tolist()
    for i in np.flatnonzero(unknown).tolist():
        out[i] = None
    return out


def keep_structure(doc: Document, name: str, count: int) -> None:
    """Record in ``doc.source`` (made when missing) that the file holds ``count`` items of a
    structure the model does not score (``tier 'lex@CHI'``); nothing for none."""
    if count:
        if doc.source is None:
            doc.source = Source()
        doc.source.structures[name] = doc.source.structures.get(name, 0) + int(count)


def unit_values(doc: Document, units: Sequence[Unit]) -> list[str | None]:
    """Each unit's original value when it is unchanged since reading, else None (a writer then
    writes the value from the tokens, as it always did)."""
    source = doc.source
    if source is None or not source.values:
        return [None] * len(units)
    text, starts, ends = doc.column("text"), doc.column("start"), doc.column("end")
    out: list[str | None] = []
    for u in units:
        rows = list(u.rows)
        out.append(source.value_of(text[rows].tolist(), u.boundary, starts[rows[0]], ends[rows[-1]]))
    return out


def _update_array(h: Any, values: np.ndarray) -> None:
    if values.dtype.kind in "biuf":
        h.update(np.ascontiguousarray(values).tobytes())
    else:
        h.update("\x1f".join(map(str, values.tolist())).encode("utf-8", "surrogatepass"))


def document_print(doc: Document) -> str:
    """A digest of everything a writer writes: name, speakers, every token column, every layer
    (name, scheme, codes) and ``meta``. Equal prints: the same Document for every writer."""
    h = hashlib.sha1()
    h.update(json.dumps([doc.name, list(doc.speakers), doc.column_names()], ensure_ascii=False).encode("utf-8"))
    for name in doc.column_names():
        if name in ("start", "end"):
            _update_array(h, np.round(np.asarray(doc.column(name), dtype=float), _TIME_DIGITS))
        elif name in ("speaker", "text"):
            _update_array(h, np.asarray(doc.column(name)))
        else:  # metadata: as runs, so a column given per unit is not spread over the tokens
            values, counts = doc.column_runs(name)
            _update_array(h, values)
            h.update(counts.tobytes())
    for name, layer in doc.layers.items():
        h.update(json.dumps([name, layer.scheme.name, layer.scheme.symbols], ensure_ascii=False).encode("utf-8"))
        h.update(layer.boundaries.tobytes())
    h.update(json.dumps(doc.meta, sort_keys=True, default=str, ensure_ascii=False).encode("utf-8"))
    return h.hexdigest()


def _stamp(path: Path) -> tuple[int, int]:
    info = path.stat()
    return info.st_size, info.st_mtime_ns


def seal(doc: Document, path: Path, fmt: str, kind: str, options: dict[str, Any]) -> Source:
    """Complete ``doc.source`` after reading ``path`` (made when the reader gave no values): the
    file's place and stamp, format, kind of file, reader options and the Document's print as read."""
    source = doc.source if doc.source is not None else Source()
    if not source.format:
        source.format, source.kind = fmt, kind
    if source.data is None:
        try:
            source.path, source.stamp = str(path.resolve()), _stamp(path)
        except OSError:  # a stream or a file gone since: nothing to give back
            source.path, source.stamp = "", None
    source.options = {k: v for k, v in options.items() if k != "encoding"}
    now = document_print(doc)
    # A source that came with the file (the native JSON carries it) still describes the
    # Document only if the file's Document is the one it was made from.
    source.fingerprint = now if not source.fingerprint or source.fingerprint == now else ""
    doc.source = source
    return source
