"""Check segagree on a folder of real annotation files: reading, round trips, self-comparison.

    PYTHONPATH=src .venv/bin/python bench/check_real_files.py DIR [--targets eaf,textgrid,...] [--json OUT]

For every file below DIR whose extension segagree reads (``.eaf``, ``.TextGrid``, ``.cha``,
``.trs``, ``.exb``, ``.srt``, ``.vtt``, ``.rez`` ...):

* **read**: read with :func:`segagree.formats.read_document`; a :class:`segagree.errors.SegagreeError`
  is a clean refusal (its one-line message is printed), any other exception a crash (a bug);
* **round trips**: written to every target format and read back. A write that reports no loss
  ("lossless") must read back with no difference (times within the target's precision); a
  difference there is a *false lossless* (a bug). A refused write must be a SegagreeError;
* **self-compare**: S_f of the document with itself must be 1 (files with no words are skipped).

Prints one line per file and the counts; exits 1 when there is a crash, a false lossless or an
S_f below 1. The files are never written to (outputs go to a temporary folder). Keep third-party
files outside the repository.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from segagree.api import compare
from segagree.errors import SegagreeError
from segagree.formats import EXTENSIONS, read_document, write_document

TARGETS = {
    "eaf": ".eaf",
    "textgrid": ".TextGrid",
    "chat": ".cha",
    "transcriber": ".trs",
    "exmaralda": ".exb",
    "srt": ".srt",
    "vtt": ".vtt",
    "table": ".csv",
    "text": ".txt",
    "json": ".segagree.json",
}
# The finest time step each target stores (seconds).
PRECISION = {"eaf": 5e-4, "chat": 5e-4, "vtt": 5e-4, "srt": 5e-4, "transcriber": 5e-4, "exmaralda": 1e-6}


def readable(path: Path) -> bool:
    name = path.name.lower()
    return path.is_file() and any(name.endswith(ext) for ext in EXTENSIONS)


def round_trip(doc: Any, target: str, scratch: Path) -> str:
    """``lossless`` (no loss reported, reads back equal), ``reported`` (losses reported),
    ``refused`` (a clean error), ``false-lossless`` or ``crash: ...``."""
    out = scratch / f"rt{TARGETS[target]}"
    try:
        losses = write_document(doc, out, target)
    except SegagreeError:
        return "refused"
    except Exception as err:  # noqa: BLE001 - a bug to report, not to hide
        return f"crash: write {type(err).__name__}: {err}"
    try:
        back = read_document(out, target, scheme=doc.layer().scheme if doc.layers else None)
    except SegagreeError as err:
        return "reported" if losses else f"false-lossless: unreadable ({err})"
    except Exception as err:  # noqa: BLE001
        return f"crash: read back {type(err).__name__}: {err}"
    if losses:
        return "reported"
    diffs = doc.differences(back, time_tol=PRECISION.get(target, 1e-9))
    return "lossless" if not diffs else f"false-lossless: {diffs[0]}"


def self_sf(doc: Any) -> float | None:
    if not doc.n_tokens:
        return None
    layer = "iu" if "iu" in doc.layers else next(iter(doc.layers))
    return float(compare(doc, doc, layer=layer, with_operations=False, review_rows=False).sf)


def check(path: Path, targets: list[str]) -> dict[str, Any]:
    row: dict[str, Any] = {"file": str(path)}
    try:
        doc = read_document(path)
    except SegagreeError as err:
        row["read"] = "refused"
        row["message"] = str(err)
        return row
    except Exception as err:  # noqa: BLE001
        row["read"] = "crash"
        row["message"] = "".join(traceback.format_exception_only(type(err), err)).strip()
        return row
    row["read"] = "read"
    row["tokens"] = doc.n_tokens
    row["read_losses"] = doc.losses.lines()
    with tempfile.TemporaryDirectory() as tmp:
        row["round_trips"] = {t: round_trip(doc, t, Path(tmp)) for t in targets}
    try:
        row["self_sf"] = self_sf(doc)
    except SegagreeError as err:
        row["self_sf"] = f"refused: {err}"
    except Exception as err:  # noqa: BLE001
        row["self_sf"] = f"crash: {type(err).__name__}: {err}"
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--targets", default=",".join(TARGETS), help="comma list of target formats")
    ap.add_argument("--json", type=Path, help="write every row here")
    args = ap.parse_args(argv)
    targets = [t for t in args.targets.split(",") if t]
    files = sorted(p for p in args.folder.rglob("*") if readable(p))
    rows = []
    counts: Counter[str] = Counter()
    for path in files:
        row = check(path, targets)
        rows.append(row)
        counts[row["read"]] += 1
        trips = row.get("round_trips", {})
        for outcome in trips.values():
            counts["rt " + outcome.split(":")[0]] += 1
        if trips and all(o == "lossless" for o in trips.values()):
            counts["files lossless to every target"] += 1
        sf = row.get("self_sf")
        if isinstance(sf, float):
            counts["S_f = 1" if abs(sf - 1) < 1e-12 else "S_f < 1"] += 1
        elif isinstance(sf, str):
            counts["self-compare " + sf.split(":")[0]] += 1
        bad = [f"{t}: {o}" for t, o in trips.items() if o.startswith(("crash", "false-lossless"))]
        note = row.get("message", "") if row["read"] != "read" else "; ".join(bad)
        print(f"{row['read']:8} sf={sf if sf is None or isinstance(sf, str) else f'{sf:.4f}'} {path} {note}"[:400])
    print(f"\n{len(files)} files")
    for key, n in sorted(counts.items()):
        print(f"{key:40} {n}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, default=str), encoding="utf-8")
    failed = counts["crash"] + counts["rt crash"] + counts["rt false-lossless"] + counts["S_f < 1"]
    failed += counts["self-compare crash"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
