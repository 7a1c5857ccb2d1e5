"""Edit operations as review rows: speaker, positions, the tokens around the boundary point.

One row per S_f operation (match, substitution, transposition, insertion, deletion). The
context shows annotator A's stream around the operation with ``‖`` at the boundary point
(after the token at the position), so a reviewer sees where the disagreement is without
opening the transcript.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from segagree.files.atomic import write_text_atomic
from segagree.files.cells import safe_rows
from segagree.scoring.tokens.pairing import AnnotationPair

MARK = "‖"
COLUMNS = (
    "speaker",
    "op",
    "position_a",
    "position_b",
    "type_a",
    "type_b",
    "cost",
    "token_a",
    "token_b",
    "context",
    "position_b_in_a",
)


def context(tokens: list[str], position: int, *, window: int = 5, mark: str = MARK) -> str:
    """``window`` tokens before and after the boundary point after ``tokens[position]``."""
    left = tokens[max(0, position - window + 1) : position + 1]
    right = tokens[position + 1 : position + 1 + window]
    return " ".join([*left, mark, *right])


def operation_rows(result: dict[str, Any], pair: AnnotationPair, *, window: int = 5) -> list[dict[str, Any]]:
    """Review rows for every operation of a compare result (see :data:`COLUMNS`)."""
    rows: list[dict[str, Any]] = []
    own_a, own_b = pair.own_tokens_a, pair.own_tokens_b
    for op in result["operations"]:
        s = op["speaker"]
        ta, tb = own_a.get(s, []), own_b.get(s, [])
        pa, pb = op["position_a"], op["position_b"]
        if pa is not None:
            ctx = context(ta, pa, window=window)
        else:
            ctx = context(tb, pb, window=window) + " (B's tokens)"
        rows.append(
            {  # one literal per row (a text has thousands): the keys in this order
                "speaker": s,
                "op": op["op"],
                "position_a": pa,
                "position_b": pb,
                "type_a": op["type_a"],
                "type_b": op["type_b"],
                "position_b_in_a": op.get("position_b_in_a"),
                "cost": round(float(op["cost"]), 12),
                "token_a": ta[pa] if pa is not None and pa < len(ta) else "",
                "token_b": tb[pb] if pb is not None and pb < len(tb) else "",
                "context": ctx,
            }
        )
    return rows


def write_operations_csv(result: dict[str, Any], path: str | Path, *, raw: bool | None = None, **_: Any) -> None:
    """Write the operation rows of a compare result to a CSV file, atomically; a text cell a
    spreadsheet would run gets a ``'`` in front unless ``raw`` (None: raw unless ``--csv-guard``;
    :mod:`segagree.files.cells`)."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(COLUMNS), lineterminator="\n")
    writer.writeheader()
    rows = ({k: "" if row[k] is None else row[k] for k in COLUMNS} for row in result.get("operation_rows", []))
    writer.writerows(safe_rows(rows, raw=raw))  # OWASP's guard for a spreadsheet, if asked
    write_text_atomic(path, buf.getvalue())
