"""segagree's native JSON (``.segagree.json`` / ``.json``): lossless, validated by a JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from segagree.errors import InputError, SegagreeError
from segagree.files.memory import read_bytes
from segagree.formats.base import Adapter
from segagree.formats.checks import check_times
from segagree.model import BoundaryScheme, Document
from segagree.model.losses import LossReport
from segagree.model.native import document_from_json, document_to_json, json_text


def read(path: Path, *, scheme: BoundaryScheme | None = None, **_: Any) -> Document:
    """Read a native JSON document (its layers carry their own schemes)."""
    raw = read_bytes(path)
    try:
        data = json.loads(raw.decode("utf-8-sig"), parse_constant=_refuse_constant)
    except json.JSONDecodeError as err:
        raise InputError(f"invalid JSON: {err.msg}", path=path, place=f"line {err.lineno} column {err.colno}") from None
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 (byte {err.start})", path=path) from None
    except _NotJson as err:
        raise InputError(
            f"{err} is not JSON (JSON has no NaN or infinity); expected a number or null", path=path
        ) from None
    except (ValueError, RecursionError) as err:  # over-long integer literals, nesting too deep
        raise InputError(f"unreadable JSON ({type(err).__name__})", path=path) from err
    try:
        doc = document_from_json(data, source=str(path))
    except RecursionError:  # JSON nested deeper than the schema's checks can follow
        raise InputError("JSON nested too deep to check; expected a segagree document", path=path) from None
    doc.source_path, doc.source_format = str(path), "json"
    return doc


def write(doc: Document, path: Path, *, losses: LossReport, **_: Any) -> None:
    """Write the native JSON form. Nothing of the Document is lost; metadata JSON cannot hold
    (an infinite number, an object) is written as null or text and reported."""
    check_times(doc, path)
    changed: list[str] = []
    data = document_to_json(doc, changed)
    if changed:
        losses.add(
            "meta-changed",
            "values JSON cannot hold were written as null or text",
            where=", ".join(dict.fromkeys(changed[:5])),
            count=len(changed),
        )
    try:
        text = json_text(data)
    except (ValueError, TypeError, RecursionError) as err:  # cannot happen after document_to_json
        raise SegagreeError(f"cannot write the document as JSON ({type(err).__name__})", path=path) from err
    path.write_text(text + "\n", encoding="utf-8")


class _NotJson(ValueError):
    pass


def _refuse_constant(name: str) -> Any:
    """Python's json reads NaN and Infinity; strict JSON (and segagree) does not."""
    raise _NotJson(name)


ADAPTER = Adapter(
    name="json",
    extensions=(".segagree.json", ".json"),
    description="segagree's native JSON: every speaker, token, time, layer and scheme",
    read=read,
    write=write,
)
