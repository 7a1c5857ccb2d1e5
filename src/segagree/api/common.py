"""What every API function shares: the argument types, reading a path or taking a Document, the
annotator labels and the checks of shared options."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from segagree.errors import UsageError
from segagree.formats import read_document
from segagree.model import BoundaryScheme, Document

PathLike = str | os.PathLike[str]
DocumentLike = Document | str | os.PathLike[str]


def as_document(
    item: DocumentLike,
    fmt: str | None = None,
    scheme: BoundaryScheme | None = None,
    options: Mapping[str, Any] | None = None,
) -> Document:
    """A Document as given, or read from a path (format ``fmt`` or by extension, the scheme, reader options)."""
    if isinstance(item, Document):
        return item
    return read_document(Path(item), fmt, scheme=scheme, **dict(options or {}))


def annotator_label(item: DocumentLike, i: int) -> str:
    """An annotator's label: the file name, else the Document's annotator or name."""
    if not isinstance(item, Document):
        return Path(item).name
    return Path(item.source_path).name if item.source_path else (item.annotator or item.name or f"annotator{i + 1}")


def pairing(
    layer: str | None,
    scheme: BoundaryScheme,
    align: bool,
    max_mismatch: float,
    normalise_speakers: bool,
    common_speakers: bool,
    speaker_map: Mapping[str, str] | None,
    /,
) -> dict[str, Any]:
    """How annotations are paired into boundary arrays (the layer and scheme compared, speakers,
    token alignment), checked, as the pipeline's keywords."""
    if not 0.0 <= max_mismatch <= 1.0:
        raise UsageError(f"max_mismatch must be a fraction between 0 and 1, not {max_mismatch!r}")
    return {
        "layer": layer,
        "scheme": scheme,
        "align": align,
        "max_mismatch": max_mismatch,
        "normalise_speakers": normalise_speakers,
        "common_speakers": common_speakers,
        "speaker_map": speaker_map,
    }


def check_margin(margin: float) -> None:
    if not (isinstance(margin, int | float) and 0 <= margin < float("inf")):
        raise UsageError(f"the margin must be a number of seconds >= 0, not {margin!r}")
