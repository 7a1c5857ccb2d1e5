"""The canonical model: Document, Layer, BoundaryScheme, and their native JSON form."""

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
