"""Boundary schemes: the types of a layer, their similarity matrix and transposition costs.

A :class:`BoundaryScheme` gives every boundary type of a layer an integer *code*:
``0`` is "no boundary", ``1..T`` are the typed boundaries in the order listed,
and ``T + 1`` is the optional *unclassified* type (a boundary without an endnote).
Boundary arrays (one int per token) use these codes, and the similarity matrix
``M`` is indexed by them, so the cost of aligning code ``x`` of annotator A with
code ``y`` of annotator B is ``1 - M[x, y]`` (Lai, Li & Zhang 2023, section 3):
``1 - M[x, 0]`` deletes ``x``, ``1 - M[0, y]`` inserts ``y``.

Moving a boundary of type ``t`` by ``d`` tokens costs ``transposition[t] * d``.
The default is half the deletion cost of each type, as in the segsimflex vignette.

Scheme files are TOML or JSON with the same structure::

    name = "dubois-endnotes"
    types = [",", ".", "?", "--"]
    unclassified = ";"
    symmetric = true
    [similarity]              # unlisted pairs: 1 on the diagonal, 0 elsewhere
    "." = { "?" = 0.25, "none" = 0.0 }
    [transposition_cost]      # optional; default 0.5 x the deletion cost
    "," = 0.375
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from segagree.errors import SchemeError
from segagree.model.digest import json_digest

NONE_SYMBOL = "none"


@dataclass(frozen=True)
class BoundaryType:
    """One boundary type of a scheme.

    Attributes:
        symbol: how it is written in transcripts (``","``, ``"--"``, ``"<eob>"``).
        name: a word for it (``"continuing"``, ``"truncated"``, ``"end of block"``).
        description: one line for reports.
        aliases: other spellings readers accept for it (``"—"`` for ``"--"``).
    """

    symbol: str
    name: str = ""
    description: str = ""
    aliases: tuple[str, ...] = ()


_NOT_GIVEN = np.empty(0)


def _not_given(matrix: np.ndarray | None) -> bool:
    """Whether a scheme's matrix was left out (None, or the empty default)."""
    return matrix is None or (isinstance(matrix, np.ndarray) and matrix.size == 0)


@dataclass(frozen=True, eq=False)
class BoundaryScheme:
    """The boundary types of one layer with their cost model.

    Attributes:
        name: the scheme's name (built-in names are listed by :func:`builtin_schemes`).
        types: the typed boundaries, codes ``1..T`` in this order.
        unclassified: the type of a boundary without an endnote (code ``T + 1``), or None.
        similarity: ``(K, K)`` matrix over codes ``0..K-1`` (``K = T + 1 [+ 1]``), values in
            [0, 1], diagonal 1; row = annotator A's code, column = annotator B's.
        transposition: ``(K,)`` cost per token of moving a boundary of each code (entry 0 unused).
        symmetric: whether the similarity matrix is required to be symmetric.
    """

    name: str
    types: tuple[BoundaryType, ...]
    unclassified: BoundaryType | None = None
    # Not given (an empty array): the identity matrix, and half of each type's deletion cost.
    similarity: np.ndarray = field(default_factory=lambda: _NOT_GIVEN, repr=False)
    transposition: np.ndarray = field(default_factory=lambda: _NOT_GIVEN, repr=False)
    symmetric: bool = True

    def __post_init__(self) -> None:
        k = self.n_codes
        sim = np.eye(k) if _not_given(self.similarity) else np.asarray(self.similarity, dtype=float)
        if sim.shape != (k, k):
            raise SchemeError(f"similarity matrix must be {k}x{k}, got {sim.shape}", place=self.name)
        given = not _not_given(self.transposition)
        trans = np.asarray(self.transposition, dtype=float) if given else 0.5 * (1.0 - sim[:, 0])
        if trans.shape != (k,):
            raise SchemeError(f"transposition costs must have {k} entries", place=self.name)
        trans = trans.copy()
        trans[0] = 0.0
        sim.setflags(write=False)
        trans.setflags(write=False)
        object.__setattr__(self, "similarity", sim)
        object.__setattr__(self, "transposition", trans)
        self.validate()

    # --- codes -----------------------------------------------------------------
    @property
    def all_types(self) -> tuple[BoundaryType, ...]:
        """Typed boundaries then the unclassified type (codes ``1..K-1``)."""
        return self.types + ((self.unclassified,) if self.unclassified else ())

    @property
    def n_codes(self) -> int:
        """Number of codes including 0 (no boundary)."""
        return 1 + len(self.types) + (1 if self.unclassified else 0)

    @property
    def unclassified_code(self) -> int | None:
        """Code of the unclassified type, or None when the scheme has none."""
        return len(self.types) + 1 if self.unclassified else None

    @property
    def symbols(self) -> list[str]:
        """Symbols by code: ``symbols[0] == "none"``."""
        return list(self._symbols)

    def symbol(self, code: int) -> str:
        """The symbol of a code (``"none"`` for 0)."""
        return self._symbols[int(code)]

    def code(self, symbol: str) -> int:
        """The code of a symbol or alias; ``"none"`` is 0. Raises KeyError if unknown."""
        return self._lookup[symbol]

    def find_code(self, symbol: str) -> int | None:
        """The code of a symbol or alias, or None if the scheme does not know it."""
        return self._lookup.get(symbol)

    # The scheme is frozen and its types are tuples of frozen records, so the symbol tables are
    # built once (readers look codes up once per unit: a dict per call was a hot spot).
    @cached_property
    def _symbols(self) -> tuple[str, ...]:
        return (NONE_SYMBOL, *(t.symbol for t in self.all_types))

    @cached_property
    def _lookup(self) -> dict[str, int]:
        table: dict[str, int] = {NONE_SYMBOL: 0}
        for code, t in enumerate(self.all_types, start=1):
            table[t.symbol] = code
            for alias in t.aliases:
                table.setdefault(alias, code)
        return table

    def endnote_symbols(self) -> list[str]:
        """All spellings of typed boundaries (symbols and aliases), longest first."""
        spellings = [s for t in self.types for s in (t.symbol, *t.aliases)]
        return sorted(spellings, key=len, reverse=True)

    # --- costs -----------------------------------------------------------------
    @property
    def cost(self) -> np.ndarray:
        """``1 - similarity``: substitution/insertion/deletion cost by (code A, code B)."""
        return 1.0 - self.similarity

    def deletion_cost(self, code: int) -> float:
        """Cost of a boundary of A that B does not have: ``1 - M[code, none]``."""
        return float(1.0 - self.similarity[code, 0])

    def insertion_cost(self, code: int) -> float:
        """Cost of a boundary of B that A does not have: ``1 - M[none, code]``."""
        return float(1.0 - self.similarity[0, code])

    @property
    def is_identity(self) -> bool:
        """True when every type is similar only to itself."""
        return bool(np.array_equal(self.similarity, np.eye(self.n_codes)))

    # --- checks, identity ------------------------------------------------------
    def validate(self) -> None:
        """Check values in [0, 1], unit diagonal, symmetry if asked, unique symbols."""
        sim, trans = self.similarity, self.transposition
        symbols = self.symbols
        if len(set(symbols)) != len(symbols):
            raise SchemeError(f"duplicate boundary symbol in {symbols[1:]}", place=self.name)
        if not np.all(np.isfinite(sim)) or sim.min() < 0 or sim.max() > 1:
            i, j = np.argwhere(~((sim >= 0) & (sim <= 1)))[0]
            raise SchemeError(
                f"similarity[{symbols[i]!r}][{symbols[j]!r}] = {sim[i, j]} is outside [0, 1]",
                place=self.name,
            )
        bad = np.flatnonzero(np.diag(sim) != 1)
        if bad.size:
            s = symbols[bad[0]]
            raise SchemeError(f"similarity[{s!r}][{s!r}] must be 1 (the diagonal)", place=self.name)
        if self.symmetric and not np.allclose(sim, sim.T):
            i, j = np.argwhere(~np.isclose(sim, sim.T))[0]
            raise SchemeError(
                f"scheme is marked symmetric but similarity[{symbols[i]!r}][{symbols[j]!r}] = "
                f"{sim[i, j]} differs from similarity[{symbols[j]!r}][{symbols[i]!r}] = {sim[j, i]}",
                place=self.name,
            )
        if not np.all(np.isfinite(trans)) or trans.min() < 0:
            raise SchemeError("transposition costs must be finite and >= 0", place=self.name)

    def to_dict(self) -> dict[str, Any]:
        """A JSON/TOML-ready dict (full matrix, every pair listed) that :func:`scheme_from_dict`
        reads back to an equal scheme."""

        def type_dict(t: BoundaryType) -> dict[str, Any]:
            d: dict[str, Any] = {"symbol": t.symbol}
            if t.name:
                d["name"] = t.name
            if t.description:
                d["description"] = t.description
            if t.aliases:
                d["aliases"] = list(t.aliases)
            return d

        syms = self.symbols
        out: dict[str, Any] = {"name": self.name, "types": [type_dict(t) for t in self.types]}
        if self.unclassified:
            out["unclassified"] = type_dict(self.unclassified)
        out["symmetric"] = self.symmetric
        out["similarity"] = {
            syms[i]: {syms[j]: float(self.similarity[i, j]) for j in range(self.n_codes)} for i in range(self.n_codes)
        }
        out["transposition_cost"] = {syms[i]: float(self.transposition[i]) for i in range(1, self.n_codes)}
        return out

    @property
    def digest(self) -> str:
        """Short hash of the cost model (symbols, matrix, transposition costs) for signatures."""
        payload = {
            "symbols": self.symbols,
            "m": np.round(self.similarity, 12).tolist(),
            "t": np.round(self.transposition, 12).tolist(),
        }
        return json_digest(payload, 8)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BoundaryScheme):
            return NotImplemented
        return (
            self.name == other.name
            and self.all_types == other.all_types
            and self.symmetric == other.symmetric
            and np.array_equal(self.similarity, other.similarity)
            and np.array_equal(self.transposition, other.transposition)
        )

    def __hash__(self) -> int:
        return hash((self.name, self.digest))


# --- reading -----------------------------------------------------------------------


# Spellings every scheme accepts for a symbol given as a plain string (DT2 prints `--` as `—`).
DEFAULT_ALIASES = {"--": ("—",)}


def _parse_type(value: Any, where: str) -> BoundaryType:
    if isinstance(value, str):
        return BoundaryType(symbol=value, aliases=DEFAULT_ALIASES.get(value, ()))
    if isinstance(value, Mapping) and isinstance(value.get("symbol"), str):
        unknown = set(value) - {"symbol", "name", "description", "aliases"}
        if unknown:
            raise SchemeError(f"unknown keys {sorted(unknown)} in a type", place=where)
        return BoundaryType(
            symbol=value["symbol"],
            name=str(value.get("name", "")),
            description=str(value.get("description", "")),
            aliases=tuple(value.get("aliases", ())),
        )
    raise SchemeError(f"a type must be a symbol or a table with 'symbol', got {value!r}", place=where)


#: Boundary types a scheme may have (schemes in use have a handful to a few dozen): the similarity
#: matrix is types x types, so the count is bounded before it is built.
MAX_TYPES = 1000
_SHOWN = 20  # symbols listed in a message


def scheme_from_dict(data: Mapping[str, Any], *, source: str = "<scheme>") -> BoundaryScheme:
    """Build and check a scheme from its dict form (see the module docstring).

    Raises:
        SchemeError: naming ``source`` and the offending entry.
    """
    known = {"name", "types", "unclassified", "symmetric", "similarity", "transposition_cost"}
    unknown = set(data) - known
    if unknown:
        raise SchemeError(f"unknown keys {sorted(unknown)}; expected {sorted(known)}", path=source)
    raw_types = data.get("types")
    if not isinstance(raw_types, list) or not raw_types:
        raise SchemeError("'types' must be a non-empty list of symbols", path=source)
    if len(raw_types) > MAX_TYPES:  # before the k x k similarity matrix is built (24,000 types: 4.6 GB)
        raise SchemeError(
            f"'types' lists {len(raw_types):,} boundary types; a scheme has at most {MAX_TYPES:,}", path=source
        )
    types = tuple(_parse_type(t, "types") for t in raw_types)
    unclassified = _parse_type(data["unclassified"], "unclassified") if data.get("unclassified") else None
    symmetric = bool(data.get("symmetric", True))
    name = str(data.get("name", Path(source).stem))
    symbols = [NONE_SYMBOL] + [t.symbol for t in types] + ([unclassified.symbol] if unclassified else [])
    index = {s: i for i, s in enumerate(symbols)}
    k = len(symbols)
    sim = np.eye(k)
    given = np.zeros((k, k), dtype=bool)

    def code_of(sym: str, where: str) -> int:
        if sym not in index:
            known = ", ".join(map(repr, symbols[:_SHOWN])) + (
                f" and {len(symbols) - _SHOWN} more" if len(symbols) > _SHOWN else ""
            )
            raise SchemeError(f"unknown symbol {str(sym)[:40]!r} in [{where}]; known: {known}", path=source)
        return index[sym]

    similarity = data.get("similarity") or {}
    if not isinstance(similarity, Mapping):
        raise SchemeError("'similarity' must be a table of tables", path=source)
    for row_sym, row in similarity.items():
        i = code_of(row_sym, "similarity")
        if not isinstance(row, Mapping):
            raise SchemeError(f"similarity.{row_sym!r} must be a table", path=source)
        for col_sym, value in row.items():
            j = code_of(col_sym, f"similarity.{row_sym}")
            try:
                v = float(value)
            except (TypeError, ValueError):
                raise SchemeError(
                    f"similarity[{row_sym!r}][{col_sym!r}] = {value!r} is not a number", path=source
                ) from None
            if not 0.0 <= v <= 1.0:
                raise SchemeError(f"similarity[{row_sym!r}][{col_sym!r}] = {v} is outside [0, 1]", path=source)
            sim[i, j] = v
            given[i, j] = True
            if symmetric and not given[j, i]:
                sim[j, i] = v
    trans = _NOT_GIVEN
    if data.get("transposition_cost") is not None:
        trans = 0.5 * (1.0 - sim[:, 0])
        costs = data["transposition_cost"]
        if not isinstance(costs, Mapping):
            raise SchemeError("'transposition_cost' must be a table of symbol = cost", path=source)
        for sym, value in costs.items():
            try:
                t = float(value)
            except (TypeError, ValueError):
                raise SchemeError(f"transposition_cost[{sym!r}] = {value!r} is not a number", path=source) from None
            if t < 0:
                raise SchemeError(f"transposition_cost[{sym!r}] = {t} is negative", path=source)
            trans[code_of(sym, "transposition_cost")] = t
    try:
        return BoundaryScheme(
            name=name,
            types=types,
            unclassified=unclassified,
            similarity=sim,
            transposition=trans,
            symmetric=symmetric,
        )
    except SchemeError as err:
        raise SchemeError(err.message, path=source) from None


def load_scheme(spec: str | Path | BoundaryScheme | None) -> BoundaryScheme:
    """A scheme from a built-in name, a TOML/JSON file path, or None (the DuBois default).

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        SchemeError: the scheme file is invalid: values outside [0, 1], a diagonal other than 1, unknown
            types (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> scheme = segagree.load_scheme("dubois")
            >>> [t.symbol for t in scheme.types]
            [',', '.', '?', '--']
    """
    if isinstance(spec, BoundaryScheme):
        return spec
    if spec is None:
        return builtin_scheme("dubois")
    text = str(spec)
    if text in BUILTIN_SCHEMES:
        return builtin_scheme(text)
    path = Path(text)
    if not path.is_file():
        raise SchemeError(
            f"no such scheme file or built-in scheme; built-ins: {sorted(BUILTIN_SCHEMES)}",
            path=text,
        )
    raw = path.read_bytes()
    try:
        if path.suffix.lower() == ".json":
            data = json.loads(raw.decode("utf-8-sig"))
        else:
            data = tomllib.loads(raw.decode("utf-8-sig"))
    except (json.JSONDecodeError, tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise SchemeError(f"not valid {path.suffix.lstrip('.') or 'TOML'}: {err}", path=text) from None
    if not isinstance(data, Mapping):
        raise SchemeError("a scheme file must hold a table/object", path=text)
    return scheme_from_dict(data, source=text)


def dump_scheme_toml(scheme: BoundaryScheme) -> str:
    """The scheme as a TOML text that :func:`load_scheme` reads back to an equal scheme."""

    def q(s: str) -> str:
        return json.dumps(s, ensure_ascii=False)

    d = scheme.to_dict()
    lines = [f"name = {q(d['name'])}", f"symmetric = {str(d['symmetric']).lower()}"]
    lines.append("types = [" + ", ".join(_toml_inline(t) for t in d["types"]) + "]")
    if "unclassified" in d:
        lines.append(f"unclassified = {_toml_inline(d['unclassified'])}")
    lines.append("")
    lines.append("[similarity]")
    for row, cols in d["similarity"].items():
        lines.append(f"{q(row)} = {{ " + ", ".join(f"{q(c)} = {v!r}" for c, v in cols.items()) + " }")
    lines.append("")
    lines.append("[transposition_cost]")
    for sym, v in d["transposition_cost"].items():
        lines.append(f"{q(sym)} = {v!r}")
    return "\n".join(lines) + "\n"


def _toml_inline(t: Mapping[str, Any]) -> str:
    parts = []
    for k, v in t.items():
        if isinstance(v, list):
            parts.append(f"{k} = [" + ", ".join(json.dumps(x, ensure_ascii=False) for x in v) + "]")
        else:
            parts.append(f"{k} = {json.dumps(v, ensure_ascii=False)}")
    return "{ " + ", ".join(parts) + " }"


# --- built-in schemes --------------------------------------------------------------

_DUBOIS_TYPES = (
    BoundaryType(",", "continuing", "intonation unit ends with continuing intonation"),
    BoundaryType(".", "final", "intonation unit ends with final (falling) intonation"),
    BoundaryType("?", "appeal", "intonation unit ends with appeal (rising) intonation"),
    BoundaryType("--", "truncated", "intonation unit is cut off", aliases=("—",)),
)
_UNCLASSIFIED = BoundaryType(";", "unclassified", "boundary without an endnote")


def _matrix(rows: Sequence[Sequence[float]], order: Iterable[str], symbols: Sequence[str]) -> np.ndarray:
    """Re-index a matrix given in ``order`` (segsimflex: types, ';', ' ') to scheme codes."""
    order = list(order)
    pos = [order.index(s) for s in symbols]
    m = np.asarray(rows, dtype=float)
    return m[np.ix_(pos, pos)]


# segsimflex's row/column order: the boundaries, the no-boundary symbol ';', then ' ' (none).
_SEGSIMFLEX_ORDER = [",", ".", "?", "--", ";", NONE_SYMBOL]
_SCHEME_SYMBOLS = [NONE_SYMBOL, ",", ".", "?", "--", ";"]

# Lai, Li & Zhang (2023) section 4.2, read with Du Bois conventions; the two cells the
# paper does not give (continuing~final, continuing~appeal) follow the vignette's structure.
_LAI2023_M: list[list[float]] = [
    [1, 0.5, 0.5, 0.5, 1, 0.25],
    [0.5, 1, 0.25, 0.25, 1, 0],
    [0.5, 0.25, 1, 0.25, 1, 0],
    [0.5, 0.25, 0.25, 1, 1, 0.25],
    [1, 1, 1, 1, 1, 1],
    [0.25, 0, 0, 0.25, 1, 1],
]
# segsimflex vignette's M_nccu verbatim: the paper's matrix with ',' and '.' swapped.
_VIGNETTE_M: list[list[float]] = [
    [1, 0.5, 0.25, 0.25, 1, 0],
    [0.5, 1, 0.5, 0.5, 1, 0.25],
    [0.25, 0.5, 1, 0.25, 1, 0],
    [0.25, 0.5, 0.25, 1, 1, 0.25],
    [1, 1, 1, 1, 1, 1],
    [0, 0.25, 0, 0.25, 1, 1],
]


def _dubois(name: str, rows: Sequence[Sequence[float]] | None) -> BoundaryScheme:
    sim = _NOT_GIVEN if rows is None else _matrix(rows, _SEGSIMFLEX_ORDER, _SCHEME_SYMBOLS)
    return BoundaryScheme(name, _DUBOIS_TYPES, _UNCLASSIFIED, similarity=sim, symmetric=True)


def _single(name: str, symbol: str, label: str, description: str) -> BoundaryScheme:
    return BoundaryScheme(name, (BoundaryType(symbol, label, description),), None)


# CLAN CHAT utterance terminators (CHAT manual, "Utterance Terminators" and "Special Utterance
# Terminators"; CA intonation ends from the CA chapter; "," is Jefferson's continuing intonation,
# which CA-style CHAT such as CABNC writes at line ends). The last field is the Du Bois endnote
# each maps to when a CHAT file is read with a Du Bois scheme (formats/chat/terminators.py).
CHAT_TERMINATORS: tuple[tuple[str, str, str, tuple[str, ...], str], ...] = (
    (".", "period", "declarative utterance", (), "."),
    ("?", "question", "question", (), "?"),
    ("!", "exclamation", "exclamation", (), "."),
    ("+...", "trailing off", "utterance trails off, incomplete", ("+\u2026",), "--"),
    ("+..?", "trailing off of a question", "question that trails off", (), "--"),
    ("+!?", "question with exclamation", "exclamatory question", (), "?"),
    ("+/.", "interruption", "interrupted by another speaker", (), "--"),
    ("+/?", "interruption of a question", "question interrupted by another speaker", (), "--"),
    ("+//.", "self-interruption", "the speaker breaks off", (), "--"),
    ("+//?", "self-interrupted question", "question the speaker breaks off", (), "--"),
    ('+"/.', "quotation follows", "the next line is a quotation", (), ","),
    ('+".', "quotation precedes", "end of a quotation given on the previous line", (), "."),
    ("+.", "transcription break", "a break for coding, not an utterance end", (), ";"),
    ("+\u224b", "technical break TCU continuation", "CA: turn unit continues after a technical break", (), ";"),
    ("+\u2248", "no break TCU continuation", "CA: turn unit continues without a break", (), ","),
    ("\u21d7", "rise to high", "CA intonation: rise to high", (), "?"),
    ("\u2197", "rise to mid", "CA intonation: rise to mid", (), "?"),
    ("\u2192", "level", "CA intonation: level", (), ","),
    ("\u2198", "fall to mid", "CA intonation: fall to mid", (), "."),
    ("\u21d8", "fall to low", "CA intonation: fall to low", (), "."),
    (",", "continuing (CA)", "CA continuing intonation at a line end (not a CHAT terminator)", (), ","),
)


def _chat() -> BoundaryScheme:
    """The CHAT scheme: identity, except that two terminators mapping to the same Du Bois endnote
    are 0.5 similar (``!`` and ``.``, ``+...`` and ``+/.``); unclassified = no terminator."""
    types = tuple(BoundaryType(sym, name, desc, aliases) for sym, name, desc, aliases, _ in CHAT_TERMINATORS)
    dubois = [d for *_, d in CHAT_TERMINATORS] + [";"]
    k = len(types) + 2
    sim = np.eye(k)
    for i in range(1, k):
        for j in range(1, k):
            if i != j and dubois[i - 1] == dubois[j - 1]:
                sim[i, j] = 0.5
    unclassified = BoundaryType(";", "no terminator", "utterance without a terminator")
    return BoundaryScheme("chat", types, unclassified, similarity=sim, symmetric=True)


BUILTIN_SCHEMES: dict[str, str] = {
    "dubois": "Du Bois endnotes , . ? -- and unclassified ;, identity matrix, transposition 0.5",
    "lai2023": "the S_f paper's section 4.2 matrix (Lai, Li & Zhang 2023), transposition 0.5 x deletion",
    "segsimflex-vignette": "segsimflex vignette's M_nccu verbatim (',' and '.' roles swapped)",
    "subtitle": "subtitle breaks: <eob> end of block, <eol> end of line; identity, transposition 0.5",
    "turn": "one type: end of turn",
    "sentence": "one type: end of sentence",
    "edu": "one type: end of an elementary discourse unit (DISRPT's BeginSeg on the next word)",
    "unit": "one type: end of a timed unit (a word or a phone of a CTM file)",
    "connective": "PDTB-style connective spans (DISRPT's Seg=B-Conn/I-Conn) as a segmentation without gaps: "
    "<conn> ends a connective, <o> a stretch outside connectives",
    "chat": "CLAN CHAT utterance terminators (. ? ! +... +/. +//. +\"/. ... and CA's intonation ends); "
    "types that share a Du Bois endnote are 0.5 similar",
}


def builtin_scheme(name: str) -> BoundaryScheme:
    """A built-in scheme by name (see :data:`BUILTIN_SCHEMES`)."""
    if name == "dubois":
        return _dubois("dubois", None)
    if name == "lai2023":
        return _dubois("lai2023", _LAI2023_M)
    if name == "segsimflex-vignette":
        return _dubois("segsimflex-vignette", _VIGNETTE_M)
    if name == "subtitle":
        return BoundaryScheme(
            "subtitle",
            (
                BoundaryType("<eob>", "end of block", "the next subtitle starts a new screen"),
                BoundaryType("<eol>", "end of line", "a line break inside a subtitle block"),
            ),
            None,
        )
    if name == "turn":
        return _single("turn", "<turn>", "end of turn", "the speaker's turn ends here")
    if name == "sentence":
        return _single("sentence", "<s>", "end of sentence", "a sentence ends here")
    if name == "edu":
        return _single("edu", "<edu>", "end of discourse unit", "an elementary discourse unit ends here")
    if name == "unit":
        return _single("unit", "<u>", "end of unit", "a timed unit (a word, a phone) ends here")
    if name == "connective":
        return BoundaryScheme(
            "connective",
            (
                BoundaryType("<conn>", "end of connective", "a connective span (B-Conn, I-Conn ...) ends here"),
                BoundaryType("<o>", "end of non-connective", "a stretch of words outside any connective ends here"),
            ),
            None,
        )
    if name == "chat":
        return _chat()
    raise SchemeError(f"unknown built-in scheme {name!r}; known: {sorted(BUILTIN_SCHEMES)}")


def builtin_schemes() -> dict[str, BoundaryScheme]:
    """Every built-in scheme by name."""
    return {name: builtin_scheme(name) for name in BUILTIN_SCHEMES}
