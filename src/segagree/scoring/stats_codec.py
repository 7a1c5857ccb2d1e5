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


def decode(value: Any) -> Any:
    """The object :func:`encode` was given."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    tag = value.get(_MARK)
    if tag is None:
        return {k: decode(v) for k, v in value.items()}
    if tag == "nd":
        return np.array(value["data"], dtype=np.dtype(value["dtype"])).reshape(value["shape"])
    if tag == "frac":
        return Fraction(value["n"], value["d"])
    if tag == "tuple":
        return tuple(decode(v) for v in value["items"])
    if tag == "set":
        return {decode(v) for v in value["items"]}
    if tag == "map":
        return {_key(decode(k)): decode(v) for k, v in value["items"]}
    if tag == "dc":
        return _dataclass(value["cls"])(**{k: decode(v) for k, v in value["fields"].items()})
    raise ValueError(f"unknown tag {tag!r} in logged statistics")


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
