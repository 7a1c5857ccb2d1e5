"""segagree's native JSON (``.segagree.json`` / ``.json``): lossless, validated by a JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from segagree.adapters.base import Adapter, LossReport, read_bytes
from segagree.errors import InputError
from segagree.schemas import BoundaryScheme, Document
from segagree.schemas.native import document_from_json, document_to_json


def read(path: Path, *, scheme: BoundaryScheme | None = None, **_: Any) -> Document:
    """Read a native JSON document (its layers carry their own schemes)."""
    raw = read_bytes(path)
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except json.JSONDecodeError as err:
        raise InputError(f"invalid JSON: {err.msg}", path=path, place=f"line {err.lineno} column {err.colno}") from None
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 (byte {err.start})", path=path) from None
    doc = document_from_json(data, source=str(path))
    doc.source_path, doc.source_format = str(path), "json"
    return doc


def write(doc: Document, path: Path, *, losses: LossReport, **_: Any) -> None:
    """Write the native JSON form (nothing is lost)."""
    text = json.dumps(document_to_json(doc), ensure_ascii=False, indent=1, allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")


ADAPTER = Adapter(
    name="json",
    extensions=(".segagree.json", ".json"),
    description="segagree's native JSON: every speaker, token, time, layer and scheme",
    read=read,
    write=write,
)
