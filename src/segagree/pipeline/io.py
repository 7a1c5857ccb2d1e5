"""What the command line needs from the lower layers, re-exported so the CLI imports only the
pipeline (DESIGN.md: ``cli -> pipeline``): reading and writing annotations, schemes and the chance
models (metric cards: ``segagree.metrics.registry``)."""

from segagree.adapters import adapters, format_for, read_document, write_document
from segagree.metrics.agreement import CHANCE_MODELS
from segagree.schemas import BoundaryScheme, Document, load_scheme

__all__ = [
    "CHANCE_MODELS",
    "BoundaryScheme",
    "Document",
    "adapters",
    "format_for",
    "load_scheme",
    "read_document",
    "write_document",
]
