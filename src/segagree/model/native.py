"""The native JSON form of a Document, and its JSON Schema (``data/document.schema.json``).

Tokens are stored column-wise (speaker index, text, start, end, extra metadata columns);
each layer stores its scheme in full and one symbol (or null) per token; ``source`` carries
the :class:`~segagree.model.source.Source` (the file the Document was read from, and each unit's
value as written), so a Document read back from JSON still writes its labels as spelled. The
form is lossless: ``document_from_json(document_to_json(doc)) == doc``.
"""

from __future__ import annotations

import json
import math
from functools import cache, partial
from importlib import resources
from typing import Any

import numpy as np

from segagree.errors import InputError
from segagree.model.document import CORE_COLUMNS, Document, Layer
from segagree.model.scheme import scheme_from_dict
from segagree.model.source import Source

FORMAT_TAG = "document/1"
# How deep JSON objects and arrays may nest in ``meta`` (real metadata nests a few levels):
# deeper is refused when read and when written, so whatever reads can be written back (Python's
# json writer, and :func:`jsonable`, recurse once per level).
MAX_META_DEPTH = 100
# Ten days: the one time limit of every reader and writer (segagree.formats.timing uses this one).
MAX_SECONDS = 10 * 24 * 3600.0


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the native form."""
    text = resources.files("segagree").joinpath("data/document.schema.json").read_text("utf-8")
    return json.loads(text)


@cache
def _validator() -> Any:
    """The schema's validator, checked and built once (checking it costs 0.25 s a call)."""
    from jsonschema.validators import validator_for

    schema = json_schema()
    cls = validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _clean(value: Any) -> Any:
    """A table cell as JSON: NaN (unknown) -> null, numpy scalars -> Python ones."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _number_column(values: np.ndarray) -> list[Any] | None:
    """``_clean`` of each item of a column of integers, booleans or numbers without an infinity,
    at numpy's speed (NaN, unknown, as null); None for any other column."""
    if values.dtype.kind in "iub":
        return values.tolist()
    if values.dtype.kind != "f" or np.isinf(values).any():
        return None
    known = ~np.isnan(values)
    if known.all():
        return values.tolist()
    return [x if ok else None for x, ok in zip(values.tolist(), known.tolist(), strict=True)]


def _json_column(values: np.ndarray, changed: list[str], where: str) -> list[Any]:
    """A metadata column as JSON values: ``jsonable(_clean(x))`` of each item."""
    numbers = _number_column(values)
    if numbers is not None:
        return numbers
    items = values.tolist()
    if all(type(x) is str for x in items):  # text, the usual column: what jsonable(_clean(x)) gives
        return items
    return [jsonable(_clean(x), changed, where) for x in items]


def json_text(data: dict[str, Any]) -> str:
    """The native form's text: a line for each top-level key, each token column and each layer
    (so that a diff shows which column changed), written by json's C encoder (an indented dump
    goes through its pure-Python encoder, 4x slower on a large document)."""
    dump = partial(json.dumps, ensure_ascii=False, allow_nan=False)

    def obj(pairs: list[tuple[str, str]], pad: str) -> str:
        return "{\n" + ",\n".join(f"{pad} {dump(k)}: {v}" for k, v in pairs) + f"\n{pad}}}"

    def value(key: str, item: Any) -> str:
        if key == "tokens" and isinstance(item, dict):
            cols = [(k, dump(v)) for k, v in item.items() if k != "extra"]
            if isinstance(item.get("extra"), dict):
                cols.append(("extra", obj([(c, dump(v)) for c, v in item["extra"].items()], "  ")))
            return obj(cols, " ")
        if key == "layers" and isinstance(item, list):
            return "[\n" + ",\n".join(f"  {dump(layer)}" for layer in item) + "\n ]"
        return dump(item)

    return obj([(k, value(k, v)) for k, v in data.items()], "")


def jsonable(value: Any, changed: list[str], where: str = "meta") -> Any:
    """``value`` made strict JSON: non-finite floats become null, other non-JSON values their
    text, keys text. Each change is recorded in ``changed`` (its path), so a writer can report it."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        if not math.isnan(value):
            changed.append(where)
        return None
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                changed.append(f"{where}/{k!r}")
            out[str(k)] = jsonable(v, changed, f"{where}/{k}")
        return out
    if isinstance(value, (list, tuple)):  # a tuple reads back as a list: the same JSON
        return [jsonable(v, changed, f"{where}/{i}") for i, v in enumerate(value)]
    changed.append(where)
    return str(value)


def nesting_depth(value: Any) -> int:
    """How deep dicts, lists and tuples nest in ``value`` (0 for a scalar), without recursion
    (which a deep enough value would exhaust); stops counting past ``MAX_META_DEPTH + 1``."""
    depth, level = 0, [value]
    while level and depth <= MAX_META_DEPTH:
        nested: list[Any] = []
        for item in level:
            if isinstance(item, dict):
                nested.extend(item.values())
            elif isinstance(item, (list, tuple)):
                nested.extend(item)
        if not nested and not any(isinstance(item, (dict, list, tuple)) for item in level):
            break
        depth += 1
        level = nested
    return depth


def check_meta_depth(meta: Any, source: str | None) -> None:
    """Refuse metadata nested deeper than ``MAX_META_DEPTH`` (see there)."""
    if nesting_depth(meta) > MAX_META_DEPTH:
        raise InputError(
            f"metadata nested more than {MAX_META_DEPTH} levels deep; expected plain metadata",
            path=source,
            place="meta",
        )


def document_to_json(doc: Document, changed: list[str] | None = None) -> dict[str, Any]:
    """The native JSON object of a Document (strict JSON: no NaN or infinity anywhere).

    Values JSON cannot hold (infinite numbers in metadata columns, objects in ``meta``) are
    replaced (see :func:`jsonable`) and their paths appended to ``changed``. Metadata nested
    deeper than ``MAX_META_DEPTH`` is refused (InputError).
    """
    check_meta_depth(doc.meta, doc.source_path or None)
    changed = [] if changed is None else changed
    codes = doc.speaker_codes()
    if (codes < 0).any():  # a token of a speaker not listed: the KeyError it always was
        index = {s: i for i, s in enumerate(doc.speakers)}
        codes = np.asarray([index[s] for s in doc.column("speaker")], dtype=np.int64)
    tokens: dict[str, Any] = {"speaker": codes.tolist(), "text": doc.column("text").tolist()}
    if doc.has_times:
        for name in ("start", "end"):
            times = doc.column(name)
            numbers = _number_column(times)
            tokens[name] = numbers if numbers is not None else [_clean(x) for x in times.tolist()]
    extra = {str(c): _json_column(doc.column(c), changed, f"tokens/extra/{c}") for c in doc.meta_columns()}
    if extra:
        tokens["extra"] = extra
    layers = []
    for layer in doc.layers.values():
        symbols = layer.scheme.symbols
        layers.append(
            {
                "name": layer.name,
                "scheme": layer.scheme.to_dict(),
                "boundaries": [symbols[c] if c else None for c in layer.boundaries.tolist()],
            }
        )
    out: dict[str, Any] = {"segagree": FORMAT_TAG, "name": doc.name}
    if doc.annotator:
        out["annotator"] = doc.annotator
    out["meta"] = jsonable(dict(doc.meta), changed)
    out.update(speakers=list(doc.speakers), tokens=tokens, layers=layers)
    if doc.source is not None and doc.source.format:
        out["source"] = doc.source.to_json()
    return out


# The per-token arrays and the JSON types their items may have (the schema's `items`, as Python
# types: JSON integers are int, never bool; numbers int or float).
_TOKEN_ITEM_TYPES: dict[str, set[type]] = {
    "speaker": {int},
    "text": {str},
    "start": {int, float, type(None)},
    "end": {int, float, type(None)},
}
_EXTRA_ITEM_TYPES = {str, int, float, bool, type(None)}
_BOUNDARY_ITEM_TYPES = {str, type(None)}


def _validate(data: Any, source: str) -> None:
    """Validate against the JSON Schema, refusing with jsonschema's best message and its path.

    jsonschema checks a quarter of a million token items one Python call each (ten seconds); so
    the per-token arrays are checked by the set of their item types (in C), and the schema is run
    on the document with those arrays emptied. Anything the quick check does not clearly accept
    goes through the full validation, so every message is the schema's own."""
    from jsonschema.exceptions import best_match  # imported here: only the native format needs it

    skeleton = _without_token_arrays(data)
    if skeleton is not None and _validator().is_valid(skeleton):
        return
    err = best_match(_validator().iter_errors(data))
    if err is not None:
        where = "/".join(str(p) for p in err.absolute_path) or "top level"
        raise InputError(f"not a segagree document: {err.message[:300]}", path=source, place=where)


def _without_token_arrays(data: Any) -> Any:
    """``data`` with its per-token arrays emptied when their items plainly have the schema's
    types; None when some array needs the full check."""
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("tokens"), dict)
        or not isinstance(data.get("layers"), list)
    ):
        return None
    tokens = dict(data["tokens"])
    for key, allowed in _TOKEN_ITEM_TYPES.items():
        values = tokens.get(key)
        if isinstance(values, list):
            if not set(map(type, values)) <= allowed or (key == "speaker" and values and min(values) < 0):
                return None
            tokens[key] = []
    extra = tokens.get("extra")
    if isinstance(extra, dict):
        extra = dict(extra)
        for key, values in extra.items():
            if isinstance(values, list):
                if not set(map(type, values)) <= _EXTRA_ITEM_TYPES:
                    return None
                extra[key] = []
        tokens["extra"] = extra
    layers = []
    for raw in data["layers"]:
        if isinstance(raw, dict) and isinstance(raw.get("boundaries"), list):
            if not set(map(type, raw["boundaries"])) <= _BOUNDARY_ITEM_TYPES:
                return None
            raw = {**raw, "boundaries": []}
        layers.append(raw)
    return {**data, "tokens": tokens, "layers": layers}


def document_from_json(data: Any, *, source: str = "<json>") -> Document:
    """A Document from its native JSON object; validated against the JSON Schema (and its
    ``meta`` nested at most ``MAX_META_DEPTH`` deep)."""
    if isinstance(data, dict):
        check_meta_depth(data.get("meta"), source)
    _validate(data, source)
    speakers = data["speakers"]
    tok = data["tokens"]
    n = len(tok["text"])
    for key in ("speaker", "start", "end"):
        if key in tok and len(tok[key]) != n:
            raise InputError(f"tokens.{key} has {len(tok[key])} entries for {n} tokens", path=source)
    for j, i in enumerate(tok["speaker"]):
        if i >= len(speakers):
            raise InputError(
                f"speaker number {i} is not listed (there are {len(speakers)} speakers)",
                path=source,
                place=f"tokens/speaker/{j}",
            )
    for key in ("start", "end"):
        for j, x in enumerate(tok.get(key) or []):
            if x is not None and not (0 <= x <= MAX_SECONDS):
                raise InputError(
                    f"time {x!r} is impossible; expected a finite time from 0 to {MAX_SECONDS:.0f} s or null",
                    path=source,
                    place=f"tokens/{key}/{j}",
                )
    names = [raw["name"] for raw in data["layers"]]
    if len(set(names)) != len(names):
        raise InputError(f"layer names {names} are not unique", path=source, place="layers")
    columns: dict[str, Any] = {
        "speaker": [speakers[int(i)] for i in tok["speaker"]],
        "text": tok["text"],
        "start": [np.nan if x is None else x for x in tok.get("start", [None] * n)],
        "end": [np.nan if x is None else x for x in tok.get("end", [None] * n)],
    }
    for col, values in (tok.get("extra") or {}).items():
        if col in CORE_COLUMNS or len(values) != n:
            raise InputError(f"tokens.extra.{col} is reserved or has the wrong length", path=source)
        columns[col] = values
    layers: dict[str, Layer] = {}
    for i, raw in enumerate(data["layers"]):
        scheme = scheme_from_dict(raw["scheme"], source=f"{source}: layers/{i}/scheme")
        if len(raw["boundaries"]) != n:
            raise InputError(f"layer {raw['name']!r} has the wrong number of boundaries", path=source)
        codes = []
        for j, sym in enumerate(raw["boundaries"]):
            code = 0 if sym is None else scheme.find_code(sym)
            if code is None:
                raise InputError(f"unknown boundary symbol {sym!r}", path=source, place=f"layers/{i}/boundaries/{j}")
            codes.append(code)
        layers[raw["name"]] = Layer(raw["name"], scheme, np.asarray(codes))
    import pandas as pd  # pandas' type inference for the extra columns, as they were written

    return Document(
        name=data["name"],
        speakers=list(speakers),
        tokens=pd.DataFrame(columns),
        layers=layers,
        annotator=data.get("annotator", ""),
        meta=dict(data.get("meta") or {}),
        source=Source.from_json(data["source"]) if isinstance(data.get("source"), dict) else None,
    ).validate()
