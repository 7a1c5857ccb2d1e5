"""What the command line needs from the lower layers, re-exported so the CLI imports only the
pipeline (DESIGN.md: ``cli -> pipeline``): reading and writing annotations, schemes, the metric
cards and the chance models."""

from segagree.adapters import adapters, format_for, read_document, write_document
from segagree.metrics.agreement import CHANCE_MODELS
from segagree.metrics.cards import METRIC_CARDS
from segagree.schemas import BoundaryScheme, Document, load_scheme

__all__ = [
    "CHANCE_MODELS",
    "METRIC_CARDS",
    "BoundaryScheme",
    "Document",
    "adapters",
    "format_for",
    "load_scheme",
    "read_document",
    "write_document",
]
