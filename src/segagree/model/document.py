"""The canonical model: a Document (one annotator's annotation of one text) and its Layers.

A Document holds an ordered list of speakers and a *token table* (pandas DataFrame), one row
per token in discourse order, with columns

* ``speaker`` (str): the speaker's name, one of ``Document.speakers``;
* ``text`` (str): the token as written;
* ``start``, ``end`` (float seconds, NaN when unknown): a unit's time span is stored as the
  ``start`` of its first token and the ``end`` of its last token; interior tokens carry times
  only when the source has word times;
* any further column is unit- or token-level metadata kept for round trips (``Turn``,
  ``row_id``, ``kind``), prefixed by nothing in particular.

Each speaker's tokens, in table order, form that speaker's running stream; streams of
different speakers may interleave and overlap in time. A :class:`Layer` records for every
token the boundary *after* it, as a code of the layer's :class:`BoundaryScheme` (0 = none).
The last token of each unit carries the unit's boundary, so in a unit layer the last token
of every speaker's stream has a non-zero code.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from segagree.errors import SegagreeError
from segagree.model.losses import LossReport, read_losses
from segagree.model.scheme import BoundaryScheme

if TYPE_CHECKING:
    import pandas as pd

CORE_COLUMNS = ("speaker", "text", "start", "end")


def factorize(values: Any) -> tuple[list[Any], np.ndarray]:
    """The distinct values in order of first appearance, and each value's index among them.

    pandas' hash table when pandas is loaded anyway; otherwise one dict lookup per value
    (importing pandas costs more than this loop on a million values)."""
    pd_ = sys.modules.get("pandas")
    if pd_ is not None:
        codes, uniques = pd_.factorize(np.asarray(values, dtype=object), use_na_sentinel=False)
        return list(uniques), codes.astype(np.int64, copy=False)
    uniques = list(dict.fromkeys(values))  # C loops only: no Python frame per value
    number = {v: i for i, v in enumerate(uniques)}
    return uniques, np.fromiter(map(number.__getitem__, values), dtype=np.int64, count=len(values))


class RepeatedColumn:
    """A token column given per unit: ``values[i]`` repeated ``counts[i]`` times, expanded
    (``np.repeat``) on first use. Scoring never reads metadata such as a table's ``Turn`` or
    ``row_id``; spreading them over a quarter of a million tokens was a tenth of a read."""

    def __init__(self, values: np.ndarray, counts: np.ndarray) -> None:
        self.values, self.counts = _meta_array(values), counts
        self.size = int(counts.sum())

    def __len__(self) -> int:
        return self.size

    def expand(self) -> np.ndarray:
        return np.repeat(self.values, self.counts)


def _meta_array(values: Any) -> np.ndarray:
    """A metadata column as an array; text as Python strings (object), as pandas keeps it."""
    array = np.asarray(values)
    return array.astype(object) if array.dtype.kind in "US" else array


def _normalised_frame(t: pd.DataFrame) -> pd.DataFrame:
    """The token table with every core column, of its type, on a 0..n-1 index."""
    import pandas as pd

    for col in CORE_COLUMNS:
        if col not in t.columns:
            t[col] = np.nan if col in ("start", "end") else ""
    t["speaker"] = t["speaker"].astype(str)
    t["text"] = t["text"].astype(str)
    t["start"] = pd.to_numeric(t["start"], errors="coerce").astype(float)
    t["end"] = pd.to_numeric(t["end"], errors="coerce").astype(float)
    return t.reset_index(drop=True)


@dataclass(eq=False)
class Layer:
    """One kind of segmentation over a Document's tokens.

    Attributes:
        name: ``iu``, ``turn``, ``sentence``, ``subtitle`` ...
        scheme: the boundary types and their costs.
        boundaries: int array, one code per token (boundary after the token; 0 = none).
    """

    name: str
    scheme: BoundaryScheme
    boundaries: np.ndarray

    def __post_init__(self) -> None:
        self.boundaries = np.asarray(self.boundaries, dtype=np.int16)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layer):
            return NotImplemented
        return (
            self.name == other.name
            and self.scheme == other.scheme
            and np.array_equal(self.boundaries, other.boundaries)
        )


@dataclass(frozen=True)
class Unit:
    """A unit of a layer: consecutive tokens of one speaker's stream ending in a boundary.

    ``rows`` are token-table row positions (discourse order), ``boundary`` the code after the
    last one (0 only for a trailing stretch with no boundary in a non-unit layer).
    """

    speaker: str
    rows: tuple[int, ...]
    boundary: int


class Document:
    """One annotator's annotation of one text (see the module docstring).

    ``tokens`` may be given as a DataFrame or as a mapping of column name to a per-token
    array (a reader's fast path). In the second case the DataFrame is built, and pandas
    imported, only when somebody asks for ``tokens``: scoring reads the columns as numpy
    arrays through :meth:`column` and :meth:`speaker_codes`, so a ``compare`` of two tables
    never pays for pandas.
    """

    # The token table's storage: per-token columns, or (once asked for) the DataFrame; and the
    # cached speaker codes while the columns are the storage.
    _columns: dict[str, Any] | None
    _frame: pd.DataFrame | None
    _codes: tuple[tuple[str, ...], np.ndarray] | None

    def __init__(
        self,
        name: str,
        speakers: list[str],
        tokens: pd.DataFrame | Mapping[str, Any],
        layers: dict[str, Layer] | None = None,
        annotator: str = "",
        source_path: str = "",
        source_format: str = "",
        meta: dict[str, Any] | None = None,
        losses: LossReport | None = None,
    ) -> None:
        self.name = name
        self.speakers = speakers
        self.tokens = tokens  # the setter takes a mapping of columns too
        self.layers: dict[str, Layer] = {} if layers is None else layers
        self.annotator = annotator
        self.source_path = source_path
        self.source_format = source_format
        self.meta: dict[str, Any] = {} if meta is None else meta
        # What the reader could not carry from the file into the model (see schemas.losses);
        # not part of equality, not serialised.
        self.losses: LossReport = read_losses() if losses is None else losses

    def __repr__(self) -> str:
        return (
            f"Document(name={self.name!r}, speakers={self.speakers!r}, n_tokens={self.n_tokens}, "
            f"layers={sorted(self.layers)!r}, source_format={self.source_format!r})"
        )

    def replace(self, **changes: Any) -> Document:
        """A new Document with the given fields changed (as ``dataclasses.replace``); the token
        table is copied unless ``tokens`` is given."""
        if "tokens" not in changes:
            if self._columns is not None:
                changes["tokens"] = {c: v.copy() for c, v in self._column_arrays().items()}
            else:
                changes["tokens"] = self.tokens.copy()
        fields = {
            "name": self.name,
            "speakers": self.speakers,
            "layers": self.layers,
            "annotator": self.annotator,
            "source_path": self.source_path,
            "source_format": self.source_format,
            "meta": self.meta,
            "losses": self.losses,
        }
        return Document(**{**fields, **changes})

    # --- the token table ------------------------------------------------------------
    @property
    def tokens(self) -> pd.DataFrame:
        """The token table (see the module docstring), built on first use."""
        if self._frame is None:
            import pandas as pd  # only here: reading and scoring work on the columns

            self._frame = _normalised_frame(pd.DataFrame(self._column_arrays()))
            self._columns = None
            self._codes = None
        return self._frame

    @tokens.setter
    def tokens(self, value: pd.DataFrame | Mapping[str, Any]) -> None:
        self._codes = None
        if isinstance(value, Mapping):
            n = len(value["text"]) if "text" in value else len(next(iter(value.values()), ()))
            columns: dict[str, np.ndarray | RepeatedColumn] = {}
            for col in CORE_COLUMNS:
                if col in ("start", "end"):
                    columns[col] = np.asarray(value[col], dtype=float) if col in value else np.full(n, np.nan)
                else:
                    columns[col] = (
                        np.asarray(value[col], dtype=object) if col in value else np.full(n, "", dtype=object)
                    )
            for col, values in value.items():
                if col not in columns:
                    columns[col] = values if isinstance(values, RepeatedColumn) else _meta_array(values)
            if any(len(v) != n for v in columns.values()):
                raise SegagreeError("token columns of different lengths", path=self.source_path or None)
            self._columns = columns
            self._frame = None
        else:
            self._columns = None
            self._frame = _normalised_frame(value)

    def column(self, name: str) -> np.ndarray:
        """One token-table column as a numpy array (no copy when possible; do not modify)."""
        if self._columns is not None:
            values = self._columns[name]
            if isinstance(values, RepeatedColumn):
                values = self._columns[name] = values.expand()
            return values
        return self.tokens[name].to_numpy()

    def _column_arrays(self) -> dict[str, np.ndarray]:
        """Every column, expanded (only while the columns are the storage)."""
        assert self._columns is not None
        return {name: self.column(name) for name in list(self._columns)}

    def column_names(self) -> list[str]:
        """The token table's columns, core ones first."""
        return list(self._columns) if self._columns is not None else list(self.tokens.columns)

    def set_column(self, name: str, values: Any) -> None:
        """Add or replace a metadata column (one value per token)."""
        if name in CORE_COLUMNS:
            raise SegagreeError(f"{name!r} is a core column; build a new Document instead")
        if self._columns is not None:
            array = _meta_array(values)
            if len(array) != self.n_tokens:
                raise SegagreeError(f"column {name!r} has {len(array)} values for {self.n_tokens} tokens")
            self._columns[name] = array
        else:
            self.tokens[name] = values

    def speaker_codes(self) -> np.ndarray:
        """Each token's speaker as an index into ``speakers`` (-1 for a name not listed)."""
        key = tuple(self.speakers)
        if self._codes is None or self._codes[0] != key:
            index = {s: i for i, s in enumerate(key)}
            names = self.column("speaker")
            # Look each distinct name up once: a document has few speakers and many tokens.
            uniques, inverse = factorize(names)
            lookup = np.asarray([index.get(s, -1) for s in uniques], dtype=np.int64)
            codes = lookup[inverse] if len(names) else np.zeros(0, dtype=np.int64)
            if self._columns is None:
                return codes  # a DataFrame may be edited in place: no cache to go stale
            self._codes = (key, codes)
        return self._codes[1]

    def _set_speaker_codes(self, codes: np.ndarray) -> None:
        """Cache codes a builder already knows (they index ``speakers`` as it is now)."""
        self._codes = (tuple(self.speakers), codes)

    # --- basic facts --------------------------------------------------------------
    @property
    def n_tokens(self) -> int:
        return len(self.column("text"))

    def layer(self, name: str | None = None) -> Layer:
        """A layer by name; with no name, ``iu`` if present, else the only/first layer."""
        if not self.layers:
            raise SegagreeError("the annotation has no boundary layer", path=self.source_path or None)
        if name is None:
            return self.layers.get("iu") or next(iter(self.layers.values()))
        try:
            return self.layers[name]
        except KeyError:
            raise SegagreeError(
                f"no layer {name!r}; layers: {sorted(self.layers)}", path=self.source_path or None
            ) from None

    def speaker_rows(self) -> dict[str, np.ndarray]:
        """Token-table row positions of each speaker's stream, in stream order."""
        if not self.speakers:  # a document with no words (an empty subtitle file)
            return {}
        codes = self.speaker_codes()
        order = np.argsort(codes, kind="stable")  # unlisted names (-1) first, then cut off
        counts = np.bincount(codes[codes >= 0], minlength=len(self.speakers))
        order = order[int(np.count_nonzero(codes < 0)) :]
        parts = np.split(order, np.cumsum(counts)[:-1])
        return dict(zip(self.speakers, parts, strict=True))

    def boundary_arrays(self, layer: str | None = None) -> dict[str, np.ndarray]:
        """Per-speaker boundary code arrays of a layer (the input of every metric)."""
        b = self.layer(layer).boundaries
        return {s: b[rows] for s, rows in self.speaker_rows().items()}

    def token_texts(self) -> dict[str, list[str]]:
        """Per-speaker token texts in stream order."""
        text = self.column("text")
        return {s: text[rows].tolist() for s, rows in self.speaker_rows().items()}

    def units(self, layer: str | None = None) -> list[Unit]:
        """The layer's units in discourse order (ordered by their first token's row)."""
        b = self.layer(layer).boundaries
        out: list[Unit] = []
        for speaker, rows in self.speaker_rows().items():
            cuts = np.flatnonzero(b[rows] != 0)
            start = 0
            for cut in cuts:
                out.append(Unit(speaker, tuple(int(r) for r in rows[start : cut + 1]), int(b[rows[cut]])))
                start = int(cut) + 1
            if start < len(rows):
                out.append(Unit(speaker, tuple(int(r) for r in rows[start:]), 0))
        out.sort(key=lambda u: u.rows[0])
        return out

    def iter_unit_texts(self, layer: str | None = None) -> Iterator[tuple[Unit, list[str]]]:
        """Each unit with its token texts."""
        text = self.column("text")
        for unit in self.units(layer):
            yield unit, [str(text[r]) for r in unit.rows]

    def meta_columns(self) -> list[str]:
        """Token-table columns beyond speaker/text/start/end."""
        return [c for c in self.column_names() if c not in CORE_COLUMNS]

    @property
    def has_times(self) -> bool:
        return bool((~np.isnan(self.column("start"))).any() or (~np.isnan(self.column("end"))).any())

    def select_speakers(self, names: list[str]) -> Document:
        """A copy holding only the given speakers' tokens (and their boundaries), in ``names`` order."""
        unknown = [n for n in names if n not in self.speakers]
        if unknown:
            raise SegagreeError(f"no speakers {unknown}; the file has {self.speakers}", path=self.source_path or None)
        keep = np.isin(self.speaker_codes(), [self.speakers.index(n) for n in names])
        layers = {n: Layer(n, lay.scheme, lay.boundaries[keep]) for n, lay in self.layers.items()}
        if self._columns is not None:
            tokens: pd.DataFrame | dict[str, np.ndarray] = {c: v[keep] for c, v in self._column_arrays().items()}
        else:
            tokens = self.tokens[keep].copy()
        return Document(
            name=self.name,
            speakers=[s for s in names],
            tokens=tokens,
            layers=layers,
            annotator=self.annotator,
            source_path=self.source_path,
            source_format=self.source_format,
            meta=dict(self.meta),
            losses=self._losses_after_selecting(names),
        ).validate()

    def split_speakers(self) -> dict[str, Document]:
        """Every speaker's tokens as a Document of its own (as :meth:`select_speakers` gives each,
        but in one pass over the tokens: a file of many documents split in linear time). Each
        keeps this Document's losses, without a note of the speakers it does not hold."""
        codes = self.speaker_codes()
        order = np.argsort(codes, kind="stable")  # each speaker's rows, in order
        starts = np.searchsorted(codes[order], np.arange(len(self.speakers) + 1))
        columns = self._column_arrays() if self._columns is not None else None
        out: dict[str, Document] = {}
        for i, name in enumerate(self.speakers):
            rows = order[starts[i] : starts[i + 1]]
            layers = {n: Layer(n, lay.scheme, lay.boundaries[rows]) for n, lay in self.layers.items()}
            tokens: pd.DataFrame | dict[str, np.ndarray] = (
                {c: v[rows] for c, v in columns.items()} if columns is not None else self.tokens.iloc[rows].copy()
            )
            losses = read_losses()
            losses.extend(self.losses)
            out[name] = Document(
                name=self.name,
                speakers=[name],
                tokens=tokens,
                layers=layers,
                annotator=self.annotator,
                source_path=self.source_path,
                source_format=self.source_format,
                meta=dict(self.meta),
                losses=losses,
            ).validate()
        return out

    def _losses_after_selecting(self, names: list[str]) -> LossReport:
        losses = read_losses()
        losses.extend(self.losses)
        dropped = [s for s in self.speakers if s not in names]
        if dropped:
            n = int((~np.isin(self.speaker_codes(), [self.speakers.index(s) for s in names])).sum())
            losses.add("speakers-dropped", f"speakers not selected: {', '.join(dropped)}", count=n)
        return losses

    # --- checks -----------------------------------------------------------------------
    def validate(self) -> Document:
        """Check the model's invariants; raise SegagreeError naming what is wrong."""
        where = self.source_path or self.name
        if len(set(self.speakers)) != len(self.speakers):
            raise SegagreeError(f"duplicate speakers in {self.speakers}", path=where)
        unlisted = self.speaker_codes() < 0
        if unlisted.any():
            unknown = set(self.column("speaker")[unlisted].tolist())
            raise SegagreeError(f"tokens of unlisted speakers {sorted(unknown)}", path=where)
        for name, layer in self.layers.items():
            if layer.name != name:
                raise SegagreeError(f"layer stored as {name!r} is named {layer.name!r}", path=where)
            if layer.boundaries.shape != (self.n_tokens,):
                raise SegagreeError(
                    f"layer {name!r} has {layer.boundaries.size} boundaries for {self.n_tokens} tokens",
                    path=where,
                )
            codes = layer.boundaries
            if codes.size and (codes.min() < 0 or codes.max() >= layer.scheme.n_codes):
                raise SegagreeError(f"layer {name!r} has codes outside its scheme", path=where)
        return self

    def __eq__(self, other: object) -> bool:
        """Same speakers, tokens (text, speaker, times to 1e-9 s) and layers."""
        if not isinstance(other, Document):
            return NotImplemented
        return not self.differences(other)

    def differences(self, other: Document, *, time_tol: float = 1e-9) -> list[str]:
        """Human-readable differences in speakers, token table core columns and layers."""
        diffs: list[str] = []
        if self.speakers != other.speakers:
            diffs.append(f"speakers {self.speakers} != {other.speakers}")
        if self.n_tokens != other.n_tokens:
            diffs.append(f"{self.n_tokens} tokens != {other.n_tokens}")
            return diffs
        for col in ("speaker", "text"):
            a, b = self.column(col), other.column(col)
            bad = np.flatnonzero(a != b)
            if bad.size:
                i = bad[0]
                diffs.append(f"token {i} {col}: {a[i]!r} != {b[i]!r}")
        for col in ("start", "end"):
            a, b = self.column(col).astype(float), other.column(col).astype(float)
            same = (np.isnan(a) & np.isnan(b)) | (np.abs(a - b) <= time_tol)
            bad = np.flatnonzero(~same)
            if bad.size:
                i = bad[0]
                diffs.append(f"token {i} {col}: {a[i]} != {b[i]}")
        if set(self.layers) != set(other.layers):
            diffs.append(f"layers {sorted(self.layers)} != {sorted(other.layers)}")
        for name in set(self.layers) & set(other.layers):
            la, lb = self.layers[name], other.layers[name]
            if la.scheme != lb.scheme:
                diffs.append(f"layer {name!r}: schemes differ")
            bad = np.flatnonzero(la.boundaries != lb.boundaries)
            if bad.size:
                i = bad[0]
                diffs.append(
                    f"layer {name!r} token {i}: {la.scheme.symbol(la.boundaries[i])!r} != "
                    f"{lb.scheme.symbol(lb.boundaries[i])!r}"
                )
        return diffs


def from_units(
    name: str,
    units: Sequence[Mapping[str, Any]],
    *,
    layer: str,
    scheme: BoundaryScheme,
    speakers: list[str] | None = None,
    extra_layers: Mapping[str, tuple[BoundaryScheme, list[list[int]]]] | None = None,
    **doc_fields: Any,
) -> Document:
    """Build a Document from units in discourse order (the common path of every reader).

    Each unit is a mapping with ``speaker``, ``tokens`` (list of str), ``boundary`` (code of
    ``scheme``), optional ``start``/``end`` (unit times, seconds), optional ``token_starts``/
    ``token_ends`` (per-token times) and optional ``meta`` (dict copied to every token row).
    ``extra_layers`` maps a layer name to its scheme and, per unit, the codes after each token.
    Units with no tokens are skipped (the caller reports them as losses if it cares).
    """
    cols = UnitColumns()
    metas: list[dict[str, Any]] = []
    extra_codes: dict[str, list[int]] = {k: [] for k in (extra_layers or {})}
    token_times = False
    for i, unit in enumerate(units):
        toks = unit["tokens"]
        n = len(toks) if isinstance(toks, (list, tuple)) else len(toks := list(toks))
        if not n:
            continue
        u_start, u_end = unit.get("start"), unit.get("end")
        cols.add(
            str(unit["speaker"]),
            map(str, toks),
            n,
            int(unit["boundary"]),
            np.nan if u_start is None else float(u_start),
            np.nan if u_end is None else float(u_end),
        )
        t_starts, t_ends = unit.get("token_starts"), unit.get("token_ends")
        has = t_starts is not None and len(t_starts) > 0, t_ends is not None and len(t_ends) > 0
        token_times = token_times or any(has)
        cols.token_starts.append(t_starts if has[0] else None)
        cols.token_ends.append(t_ends if has[1] else None)
        metas.append(dict(unit.get("meta") or {}))
        for lname, (_, per_unit) in (extra_layers or {}).items():
            extra_codes[lname].extend(per_unit[i])
    if not token_times:
        cols.token_starts, cols.token_ends = [], []
    if any(metas):
        # One row per unit (repeated per token by build): the same values and dtypes as one
        # row per token.
        import pandas as pd  # pandas' type inference over mixed per-unit values

        meta_df = pd.DataFrame(metas)
        cols.meta = {col: meta_df[col].to_numpy() for col in meta_df.columns}
    extra = {k: (sch, np.asarray(extra_codes[k], dtype=np.int16)) for k, (sch, _) in (extra_layers or {}).items()}
    return cols.build(name, layer=layer, scheme=scheme, speakers=speakers, extra_layers=extra, **doc_fields)


@dataclass
class UnitColumns:
    """Units in discourse order as parallel per-unit lists (a reader's fast path to a Document).

    ``texts`` holds every unit's tokens one after the other and ``sizes`` how many each unit
    has (at least one); ``boundaries`` the code after each unit's last token; ``starts``/``ends``
    unit times (NaN when unknown); ``token_starts``/``token_ends`` optional per-unit token time
    lists (None for a unit without them; an empty list when no unit has any); ``meta`` column ->
    per-unit values, copied to every token of the unit. :func:`from_units` builds one from unit
    mappings; a reader with thousands of units may fill one directly.
    """

    speakers: list[str] = field(default_factory=list)
    texts: list[str] | np.ndarray = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    boundaries: list[int] = field(default_factory=list)
    starts: list[float] = field(default_factory=list)
    ends: list[float] = field(default_factory=list)
    token_starts: list[Any] = field(default_factory=list)
    token_ends: list[Any] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def add(
        self, speaker: str, tokens: Iterable[str], n: int, boundary: int, start: float = np.nan, end: float = np.nan
    ) -> None:
        """Append one unit of ``n`` (>= 1) tokens."""
        self.speakers.append(speaker)
        if not isinstance(self.texts, list):  # a reader may have set an array
            self.texts = list(self.texts)
        self.texts.extend(tokens)
        self.sizes.append(n)
        self.boundaries.append(boundary)
        self.starts.append(start)
        self.ends.append(end)

    def build(
        self,
        name: str,
        *,
        layer: str,
        scheme: BoundaryScheme,
        speakers: list[str] | None = None,
        extra_layers: Mapping[str, tuple[BoundaryScheme, np.ndarray]] | None = None,
        **doc_fields: Any,
    ) -> Document:
        """The validated Document: speakers listed first in ``speakers`` order, then by first
        appearance; unit times on the unit's first token's start and last token's end unless
        token times give them; ``extra_layers`` maps a name to its scheme and per-token codes."""
        # Unit facts are spread over the tokens with numpy: a per-token Python loop and a
        # DataFrame of per-token dicts were most of the time of a large read.
        n_tok = len(self.texts)
        counts = np.asarray(self.sizes, dtype=np.int64)
        first = np.cumsum(counts) - counts
        last = first + counts - 1
        starts = np.full(n_tok, np.nan)
        ends = np.full(n_tok, np.nan)
        for times, out in ((self.token_starts, starts), (self.token_ends, ends)):
            for offset, n, given in zip(first.tolist(), self.sizes, times, strict=False):
                if given is not None:
                    out[offset : offset + n] = np.asarray(given, dtype=float)
        u_s, u_e = np.asarray(self.starts, dtype=float), np.asarray(self.ends, dtype=float)
        put = ~np.isnan(u_s) & np.isnan(starts[first])
        starts[first[put]] = u_s[put]
        put = ~np.isnan(u_e) & np.isnan(ends[last])
        ends[last[put]] = u_e[put]
        codes = np.zeros(n_tok, dtype=np.int16)
        codes[last] = np.asarray(self.boundaries, dtype=np.int16)
        # Speakers are looked up once per unit, and the codes spread to the tokens: the
        # Document then never has to find each token's speaker by name.
        distinct, unit_codes = factorize(self.speakers)
        listed = list(speakers or [])
        known = set(listed)
        order = listed + [s for s in distinct if s not in known]
        place = {s: i for i, s in enumerate(order)}
        token_codes = np.repeat(np.asarray([place[s] for s in distinct], dtype=np.int64)[unit_codes], counts)
        table: dict[str, Any] = {
            "speaker": np.asarray(order, dtype=object)[token_codes] if n_tok else np.empty(0, dtype=object),
            "text": np.asarray(self.texts, dtype=object),
            "start": starts,
            "end": ends,
        }
        for col, values in self.meta.items():
            # Unit-level metadata is spread over the tokens only when somebody reads it.
            table[col] = RepeatedColumn(np.asarray(values), counts)
        layers = {layer: Layer(layer, scheme, codes)}
        for lname, (lscheme, lcodes) in (extra_layers or {}).items():
            layers[lname] = Layer(lname, lscheme, lcodes)
        doc = Document(name=name, speakers=order, tokens=table, layers=layers, **doc_fields)
        doc._set_speaker_codes(token_codes)
        return doc.validate()
