"""Sufficient statistics as JSON, so a task's statistics can sit in the resume log and be summed later.

A measure's statistics (:meth:`segagree.metrics.contract.Measure.statistics`) are dataclasses of
numbers (fractions too), numpy arrays, tuples, sets and dicts (some keyed by tuples). :func:`encode` turns them
into JSON-ready values that :func:`decode` turns back into equal objects: float64 values go
through JSON's shortest round-trip repr, so pooled values computed from decoded statistics are
the same to the last digit as from the originals. Only dataclasses defined under
``segagree.metrics`` are rebuilt (never an arbitrary class named in the log); nothing is
executed on decoding.
"""

from __future__ import annotations

import dataclasses
import importlib
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["decode", "encode"]

_PACKAGE = "segagree.metrics."
_MARK = "§"  # the key of every tagged value (a plain dict never has it: see _encode_dict)


def encode(value: Any) -> Any:
    """A JSON-ready form of ``value`` (see the module docstring)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {_MARK: "dc", "cls": f"{cls.__module__}:{cls.__qualname__}", "fields": fields}
    if isinstance(value, np.ndarray):
        return {_MARK: "nd", "dtype": value.dtype.str, "shape": list(value.shape), "data": value.ravel().tolist()}
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Fraction):  # exact sums (e.g. B's edit counts) stay exact
        return {_MARK: "frac", "n": value.numerator, "d": value.denominator}
    if isinstance(value, tuple):
        return {_MARK: "tuple", "items": [encode(v) for v in value]}
    if isinstance(value, (set, frozenset)):
        return {_MARK: "set", "items": [encode(v) for v in sorted(value, key=repr)]}
    if isinstance(value, dict):
        return _encode_dict(value)
    if isinstance(value, list):
        return [encode(v) for v in value]
    return value


def _encode_dict(value: dict[Any, Any]) -> Any:
    if all(isinstance(k, str) and k != _MARK for k in value):
        return {k: encode(v) for k, v in value.items()}
    return {_MARK: "map", "items": [[encode(k), encode(v)] for k, v in value.items()]}


#: Bounds on what a logged value may build, checked before it is built: the log is a file anyone
#: may have edited, and an 80-byte ``{"dtype": "|S1000000000", "shape": [3]}`` asks numpy for 3 GB.
MAX_DEPTH = 64  # nesting of statistics (dataclasses of dicts of tuples: a handful of levels)
MAX_ITEMSIZE = 16  # bytes per array element (complex128; statistics are numbers)
MAX_DIMENSIONS = 8
_NUMERIC_KINDS = "biufc"  # bool, int, unsigned, float, complex: never strings, objects or voids
_ERRORS = (
    TypeError,
    ValueError,
    KeyError,
    IndexError,
    ZeroDivisionError,
    RecursionError,
    AttributeError,
    OverflowError,
    ImportError,
)


def decode(value: Any) -> Any:
    """The object :func:`encode` was given.

    Raises:
        ValueError: a value :func:`encode` does not write (an unknown tag, a non-numeric or
            over-wide dtype, a shape that does not hold the data, nesting deeper than
            :data:`MAX_DEPTH`, a class outside ``segagree.metrics``, fields it does not take).
    """
    try:
        return _decode(value, 0)
    except _ERRORS as err:
        raise ValueError(f"damaged logged statistics ({type(err).__name__}: {str(err)[:200]})") from None


def _array(value: dict[str, Any]) -> np.ndarray:
    dtype = np.dtype(str(value["dtype"])[:32])
    if dtype.kind not in _NUMERIC_KINDS or dtype.itemsize > MAX_ITEMSIZE:
        raise ValueError(f"logged array of dtype {dtype.str!r}: statistics are numbers of at most 16 bytes")
    shape, data = value["shape"], value["data"]
    if not isinstance(shape, list) or len(shape) > MAX_DIMENSIONS or not isinstance(data, list):
        raise ValueError("logged array without a shape of at most 8 dimensions and a list of data")
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape):
        raise ValueError(f"logged array shape {str(shape)[:80]} is not a list of sizes")
    size = 1
    for n in shape:
        size *= n
        if size > len(data):  # checked as it grows: [10**9, 10**9, ...] is never multiplied out
            break
    if size != len(data) and not (0 in shape and not data):
        raise ValueError(f"logged array shape {shape} does not hold its {len(data)} values")
    if not all(isinstance(x, (int, float)) for x in data):
        raise ValueError("logged array data are not numbers")
    return np.array(data, dtype=dtype).reshape(shape)


def _decode(value: Any, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise ValueError(f"logged statistics nested deeper than {MAX_DEPTH} levels")
    depth += 1
    if isinstance(value, list):
        return [_decode(v, depth) for v in value]
    if not isinstance(value, dict):
        return value
    tag = value.get(_MARK)
    if tag is None:
        return {k: _decode(v, depth) for k, v in value.items()}
    if tag == "nd":
        return _array(value)
    if tag == "frac":
        n, d = value["n"], value["d"]
        if not (isinstance(n, int) and isinstance(d, int)):
            raise ValueError("a logged fraction of non-integers")
        return Fraction(n, d)
    if tag == "tuple":
        return tuple(_decode(v, depth) for v in value["items"])
    if tag == "set":
        return {_decode(v, depth) for v in value["items"]}
    if tag == "map":
        return {_key(_decode(k, depth)): _decode(v, depth) for k, v in value["items"]}
    if tag == "dc":
        return _dataclass(str(value["cls"]))(**{str(k): _decode(v, depth) for k, v in value["fields"].items()})
    raise ValueError(f"unknown tag {str(tag)[:40]!r} in logged statistics")


def _key(key: Any) -> Any:
    return tuple(key) if isinstance(key, list) else key


# Modules of statistics classes before the package took its present layout: results logs written
# then still resume.
_FORMER_MODULES = {
    "segagree.metrics.agreement": "segagree.metrics.chance.sf_kappa",
    "segagree.metrics.fleiss": "segagree.metrics.chance.fleiss",
    "segagree.metrics.kappa": "segagree.metrics.chance.kappa",
    "segagree.metrics.alignment": "segagree.metrics.boundary.a_similarity",
    "segagree.metrics.boundary_edit": "segagree.metrics.boundary.boundary_edit",
    "segagree.metrics.ghd": "segagree.metrics.boundary.ghd",
    "segagree.metrics.masses": "segagree.metrics.boundary.masses",
    "segagree.metrics.sf": "segagree.metrics.boundary.sf",
    "segagree.metrics.sf_segsimflex": "segagree.metrics.boundary.sf_segsimflex",
    "segagree.metrics.stats": "segagree.metrics.boundary.stats",
    "segagree.metrics.windows": "segagree.metrics.boundary.windows",
    "segagree.metrics.sacrebleu_stats": "segagree.metrics.subtitles.sacrebleu_stats",
    "segagree.metrics.suber_counts": "segagree.metrics.subtitles.suber_counts",
    "segagree.metrics.suber_strings": "segagree.metrics.subtitles.suber_strings",
    "segagree.metrics.subtitle_bleus": "segagree.metrics.subtitles.bleus",
    "segagree.metrics.subtitle_measures": "segagree.metrics.subtitles.measures",
    "segagree.metrics.subtitle_views": "segagree.metrics.subtitles.views",
    "segagree.metrics.subtitles": "segagree.metrics.subtitles.scores",
    "segagree.metrics.unitizing.alignment": "segagree.metrics.unitizing.gamma_alignment",
}


def _dataclass(name: str) -> Any:
    module, _, qualname = name.partition(":")
    module = _FORMER_MODULES.get(module, module)
    if not module.startswith(_PACKAGE):
        raise ValueError(f"logged statistics name {name!r}, not a class of segagree.metrics")
    obj: Any = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    if not (isinstance(obj, type) and dataclasses.is_dataclass(obj)):
        raise ValueError(f"logged statistics name {name!r}, not a dataclass")
    return obj
