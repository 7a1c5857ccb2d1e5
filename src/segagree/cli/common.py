"""Options and helpers shared by the commands: reading files, printing JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from segagree.pipeline.io import BoundaryScheme, Document, read_document

stderr = Console(stderr=True)
stdout = Console(highlight=False)


def read(path: Path, fmt: str | None, scheme: BoundaryScheme | None) -> Document:
    """Read an annotation file (format by extension unless ``fmt``)."""
    return read_document(path, fmt, scheme=scheme)


def print_json(obj: Any) -> None:
    """Exactly one JSON object on stdout."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, allow_nan=True, default=_default) + "\n")


def _default(value: Any) -> Any:
    if hasattr(value, "item"):
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)


def fmt_score(value: Any) -> str:
    """A score for a table: 4 decimals, '-' when missing."""
    if value is None:
        return "-"
    try:
        return f"{float(value):.4f}"
    except (TypeError, ValueError):
        return str(value)
