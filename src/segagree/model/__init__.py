"""The canonical model: Document, Layer, BoundaryScheme, and their native JSON form.

The names load on first use (PEP 562), so that a module needing only the loss report
(:mod:`segagree.model.losses`, which every reader's file handling uses) does not load numpy with the
Document: the official scorers' own reading of a file (:mod:`segagree.formats.conllu_scan`) needs neither.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from segagree.model.document import CORE_COLUMNS, Document, Layer, Unit, UnitColumns, factorize, from_units
    from segagree.model.losses import Loss, LossReport, read_losses
    from segagree.model.scheme import (
        BUILTIN_SCHEMES,
        NONE_SYMBOL,
        BoundaryScheme,
        BoundaryType,
        builtin_scheme,
        builtin_schemes,
        dump_scheme_toml,
        load_scheme,
        scheme_from_dict,
    )

_WHERE: dict[str, str] = {
    **dict.fromkeys(
        ("CORE_COLUMNS", "Document", "Layer", "Unit", "UnitColumns", "factorize", "from_units"), "document"
    ),
    **dict.fromkeys(("Loss", "LossReport", "read_losses"), "losses"),
    **dict.fromkeys(
        (
            "BUILTIN_SCHEMES",
            "NONE_SYMBOL",
            "BoundaryScheme",
            "BoundaryType",
            "builtin_scheme",
            "builtin_schemes",
            "dump_scheme_toml",
            "load_scheme",
            "scheme_from_dict",
        ),
        "scheme",
    ),
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'segagree.model' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"segagree.model.{where}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = [
    "BUILTIN_SCHEMES",
    "CORE_COLUMNS",
    "NONE_SYMBOL",
    "BoundaryScheme",
    "BoundaryType",
    "Document",
    "Layer",
    "Loss",
    "LossReport",
    "Unit",
    "builtin_scheme",
    "builtin_schemes",
    "dump_scheme_toml",
    "factorize",
    "UnitColumns",
    "from_units",
    "load_scheme",
    "read_losses",
    "scheme_from_dict",
]
