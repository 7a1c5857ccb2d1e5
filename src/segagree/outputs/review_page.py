"""The review page: every disagreement of a review, in the browser, with the recording.

One self-contained offline HTML page (``segagree review A B -o TEXT.html``, ``review --time ...
-o TEXT.html``) or one section of a run report's text page (:func:`review_section`). Its rows are
the review workbook's rows, built by the same functions (:func:`segagree.outputs.review_workbook.review_rows`
for S_f's operations, :func:`segagree.outputs.time_review.group_rows` for gamma's groups), so row
ids and order are the workbook's.

The data is embedded as JSON in ``<script type="application/json">`` with ``<``, ``>`` and ``&``
escaped, and the page's script renders it with ``textContent`` only: nothing in an annotation can
run. No resource is requested from the network: CSS and script are inline; the recording is
linked relatively (never copied) from an ``<audio>`` element.

Token rows carry both annotators' IU lines (the unit with the boundary point, one before and one
after, with their endnotes) and the time span of the units on both sides of the boundary point in
either annotation; time rows carry each annotator's unit. The waveform strip's peaks are computed
here (:func:`segagree.files.media.waveform_peaks`). The page keeps decisions in the browser's
localStorage under its digest and exports them as a decisions file
(:mod:`segagree.adjudication.decisions`), which ``segagree adjudicate`` reads like a workbook.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

import numpy as np

from segagree.corpus.acoustic_cues import attach_cues, cue_summary, sources_media
from segagree.corpus.config import RunConfig
from segagree.corpus.documents import read_text_document
from segagree.corpus.tasks import file_sha1, with_operation_rows
from segagree.errors import SegagreeError
from segagree.files.atomic import write_text_atomic
from segagree.files.media import PEAKS_PER_SECOND, MediaInfo, find_media, waveform_peaks
from segagree.model import NONE_SYMBOL, Document
from segagree.model.digest import json_digest
from segagree.outputs.review_workbook import (
    CUE_KEYS,
    DECISIONS,
    SOURCE_HEADERS,
    review_rows,
    sheet_names,
    source_values,
    workbook_settings,
)
from segagree.scoring.acoustics.settings import CueSettings
from segagree.scoring.acoustics.tracks import Tracks, on_grid
from segagree.scoring.tokens.pairing import speaker_streams
from segagree.version import version

__all__ = [
    "DECISIONS_FORMAT",
    "media_data",
    "review_section",
    "text_review_section",
    "time_page_data",
    "token_page_data",
    "write_review_page",
]

DECISIONS_FORMAT = "segagree review decisions"
DEFAULT_MARGIN = 1.0
# The operations sheet's columns a token row carries besides its id, kind (op), cost, speaker and
# types: what adjudicate reads back (the decisions file has them under these keys).
TECHNICAL_KEYS = ("position_a", "position_b", "position_b_in_a", "span_a_from", "span_a_to", "token_a", "token_b")


def _template(name: str) -> str:
    return (Path(__file__).parent / "templates" / name).read_text(encoding="utf-8")


def _sheet_number(value: float | None) -> float | None:
    """A time as the workbook keeps it (XlsxWriter writes 16 significant digits): the page and the
    workbook then hold the same numbers, and the same decisions give the same gold file."""
    if value is None or not np.isfinite(value):
        return None
    return float(f"{float(value):.16g}")


def _relative(path: Path, start: Path) -> str:
    try:
        return os.path.relpath(path, start)
    except ValueError:  # another drive on Windows
        return str(path)


# --- the recording -------------------------------------------------------------------------------


def _track_bytes(values: np.ndarray, low: float, high: float, log: bool = False) -> str:
    """A track as base64 bytes: 0 where undefined, else 1..255 over ``low..high`` (log scale: pitch)."""
    v = np.log2(values / low) / np.log2(high / low) if log else (values - low) / max(high - low, 1e-9)
    out = np.where(np.isfinite(v), 1 + np.rint(np.clip(v, 0, 1) * 254), 0).astype(np.uint8)
    return base64.b64encode(out.tobytes()).decode("ascii")


def prosody_data(tracks: Tracks | None, settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The pitch and intensity tracks the page draws under the waveform (on the peaks' grid): base64
    bytes (0: unvoiced or none), the Hz range of the pitch bytes (log scale) and the dB range of the
    intensity bytes."""
    if tracks is None:
        return {"pitch": "", "intensity": "", "pitch_hz": None, "intensity_db": None}
    f0, level = on_grid(tracks, 1.0 / PEAKS_PER_SECOND)
    settings = settings or {}
    low, high = float(settings.get("pitch_floor", 75.0)), float(settings.get("pitch_ceiling", 600.0))
    finite = level[np.isfinite(level)]
    db = (float(finite.min()), float(finite.max())) if len(finite) else (0.0, 1.0)
    return {
        "pitch": _track_bytes(f0, low, high, log=True),
        "intensity": _track_bytes(level, *db),
        "pitch_hz": [low, high],
        "intensity_db": [round(db[0], 3), round(db[1], 3)],
    }


def media_data(
    info: MediaInfo,
    page_dir: Path,
    *,
    margin: float = DEFAULT_MARGIN,
    tracks: Tracks | None = None,
    cue_settings: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """What the page knows of the recording: its address relative to the page, the waveform peaks
    (base64 bytes 0..255, ``peak_seconds`` apart), the pitch and intensity tracks where the cues were
    measured (:func:`prosody_data`), and notes saying why playback or the waveform is missing."""
    out: dict[str, Any] = {
        "src": None,
        "name": "",
        "found_by": info.source,
        "note": info.note,
        "margin": float(margin),
        "peaks": "",
        "peak_seconds": 1.0 / PEAKS_PER_SECOND,
        "peaks_note": "",
        **prosody_data(tracks, cue_settings),
    }
    if info.path is None:
        return out
    rel = _relative(info.path, page_dir.resolve()).replace(os.sep, "/")
    if Path(rel).is_absolute():  # another drive: no absolute path of this machine goes into the page
        out["note"] = "the recording is on another drive than the page; copy it beside the page to play it"
        return out
    out["src"] = quote(rel, safe="/.-_~")
    out["name"] = info.path.name
    peaks, seconds, note = waveform_peaks(info.path)
    out["peaks"] = base64.b64encode(bytes(peaks)).decode("ascii")
    out["peak_seconds"], out["peaks_note"] = seconds, note
    return out


# --- token reviews (S_f's operations) --------------------------------------------------------


class _Side:
    """One annotator's document as the review page shows it: its units and, per speaker, the
    token-table rows of the stream the comparison saw (adjudicate's streams)."""

    def __init__(self, doc: Document, layer: str, settings: dict[str, Any]) -> None:
        lay = doc.layer(layer if layer in doc.layers else None)
        self.streams = speaker_streams(doc, settings)
        texts = doc.column("text")
        starts, ends = doc.column("start"), doc.column("end")
        rename = {int(r): s for s, rows in self.streams.items() for r in rows}
        self.speakers = list(self.streams)
        index = {s: i for i, s in enumerate(self.speakers)}
        self.unit_of = np.full(len(texts), -1, dtype=np.int64)
        self.offset = np.zeros(len(texts), dtype=np.int64)  # a token's index in its unit
        self.units: list[list[Any]] = []
        for unit in doc.units(lay.name):
            rows = list(unit.rows)
            self.unit_of[rows] = len(self.units)
            self.offset[rows] = np.arange(len(rows))
            speaker = rename.get(rows[0], unit.speaker)
            self.units.append(
                [
                    index.get(speaker, -1),
                    [str(texts[r]) for r in rows],
                    "" if unit.boundary == 0 else lay.scheme.symbol(unit.boundary),
                    _sheet_number(starts[rows[0]]),
                    _sheet_number(ends[rows[-1]]),
                ]
            )

    def point(self, speaker: str, position: int | None) -> list[int] | None:
        """[unit index, token index in the unit] of the token at ``position`` of the speaker's stream."""
        stream = self.streams.get(speaker)
        if position is None or stream is None or not len(stream):
            return None
        row = int(stream[min(max(position, 0), len(stream) - 1)])
        return [int(self.unit_of[row]), int(self.offset[row])]

    def span(self, speaker: str, position: int | None) -> list[float]:
        """Times of the units holding the token at ``position`` and the token after it."""
        stream = self.streams.get(speaker)
        if position is None or stream is None or not len(stream):
            return []
        times: list[float] = []
        for p in (position, position + 1):
            if 0 <= p < len(stream):
                unit = self.units[int(self.unit_of[int(stream[p])])]
                times += [t for t in (unit[3], unit[4]) if t is not None]
        return times


def _b_position(op: Mapping[str, Any], anchors: dict[str, list[tuple[int, int]]]) -> int | None:
    """B's position at A's point where B has no boundary there: from the nearest earlier operation
    with both positions (the streams differ only where the transcripts do)."""
    if op.get("position_b") is not None:
        return int(op["position_b"])
    pa = op.get("position_a")
    if pa is None:
        return None
    best = (0, 0)
    for a, b in anchors.get(op["speaker"], []):
        if a > pa:
            break
        best = (a, b)
    return best[1] + (int(pa) - best[0])


def _source_record(sheet: str, result: Mapping[str, Any], home: Path, matches: bool) -> dict[str, str]:
    """The About sheet's sources row of a pair (:data:`SOURCE_HEADERS`), paths relative to ``home``;
    a page carries no absolute path of the machine that wrote it (adjudication finds the files by
    the relative path, ``--file-a``/``--file-b`` or ``--sources``)."""
    record = dict(zip(SOURCE_HEADERS, source_values(sheet, dict(result), home, matches), strict=True))
    return {k: "" if k.endswith("_absolute") else v for k, v in record.items()}


def _token_pair(
    sheet: str, result: Mapping[str, Any], config: RunConfig, home: Path, docs: dict[str, Document]
) -> dict[str, Any]:
    """One annotator pair's part of the page (``docs``: documents read so far, by path)."""
    scheme = config.load_scheme()
    settings = workbook_settings(config)
    layer = str(result["compare"].get("layer") or config.layer)
    for x in ("a", "b"):
        if result[f"file_{x}"] not in docs:
            path = result[f"file_{x}"]
            docs[path] = read_text_document(
                path, str(result["text"]), config.format or None, scheme=scheme, **config.reader_options()
            )
    sides = [_Side(docs[result[f"file_{x}"]], layer, settings) for x in ("a", "b")]
    anchors: dict[str, list[tuple[int, int]]] = {}
    for op in result.get("operation_rows", []):
        if op.get("position_a") is not None and op.get("position_b") is not None:
            anchors.setdefault(op["speaker"], []).append((int(op["position_a"]), int(op["position_b"])))
    for pairs in anchors.values():
        pairs.sort()
    ops = result.get("operation_rows", [])
    rows = []
    for row in review_rows(dict(result), matches=config.review_matches):
        op = ops[row["row_id"] - 1]
        speaker = row["speaker"]
        pa = row["position_a"] if row["position_a"] is not None else row["position_b_in_a"]
        pb = _b_position(op, anchors)
        times = sides[0].span(speaker, pa) + sides[1].span(speaker, pb)
        rows.append(
            {
                "id": row["row_id"],
                "kind": row["op"],
                "cost": row["cost"],
                "speaker": speaker,
                "types": [row["type_a"] or NONE_SYMBOL, row["type_b"] or NONE_SYMBOL],
                "points": [sides[0].point(speaker, pa), sides[1].point(speaker, pb)],
                "start": min(times) if times else None,
                "end": max(times) if times else None,
                "t": [row[k] for k in TECHNICAL_KEYS],
                **({"cues": {k: row[k] for k in CUE_KEYS}} if result.get("cues") else {}),
            }
        )
    return {
        "sheet": sheet,
        "annotators": [result["annotator_a"], result["annotator_b"]],
        "choices": list(DECISIONS),
        "technical": list(TECHNICAL_KEYS),
        "speakers": [s.speakers for s in sides],
        "units": [s.units for s in sides],
        "rows": rows,
        "source": _source_record(sheet, result, home, config.review_matches),
    }


def token_page_data(
    results_for_text: Sequence[Mapping[str, Any]],
    config: RunConfig,
    page_dir: Path,
    *,
    media: str | os.PathLike[str] | None = None,
    margin: float = DEFAULT_MARGIN,
    cues: bool | None = False,
    cue_settings: CueSettings | None = None,
) -> dict[str, Any]:
    """The page data of a text's token reviews (one entry per annotator pair, as the workbook's
    sheets); the recording from ``media`` or from annotator A's file of the first pair. ``cues``
    as :func:`segagree.api.review`'s (the tracks cached beside the page)."""
    results: Sequence[Mapping[str, Any]] = [r for r in results_for_text if r.get("ok")]
    names = sheet_names([(r["annotator_a"], r["annotator_b"]) for r in results])
    home = page_dir.resolve()
    docs: dict[str, Document] = {}  # each file read once (a text of 3+ annotators has it in several pairs)
    tracks = None
    if cues is not False:
        # copies: the cues go into the page's rows, not into the caller's results
        copies: list[dict[str, Any]] = [
            dict(r, operation_rows=[dict(op) for op in r["operation_rows"]]) for r in results
        ]
        results = copies
        tracks = attach_cues(
            copies, config, media=media, settings=cue_settings, output_dir=page_dir, docs=docs, always=bool(cues)
        )
    pairs = [_token_pair(name, r, config, home, docs) for name, r in zip(names, results, strict=True)]
    doc = docs[results[0]["file_a"]] if media is None and results else None
    shown = (results[0].get("cues") or {}).get("settings") if results else None
    return {
        "kind": "tokens",
        "text": str(results[0]["text"]) if results else "",
        "written_by": f"segagree {version()}",
        "media": media_data(find_media(doc, media), page_dir, margin=margin, tracks=tracks, cue_settings=shown),
        "pairs": pairs,
        "cues": cue_summary(results),
        "settings": workbook_settings(config),
        "scheme": config.load_scheme().to_dict(),
    }


# --- time reviews (gamma's groups) -----------------------------------------------------------


def time_page_data(
    rows: Sequence[Mapping[str, Any]],
    annotators: Sequence[str],
    settings: Mapping[str, Any],
    sources: Sequence[Path],
    page_dir: Path,
    *,
    media: str | os.PathLike[str] | None = None,
    margin: float = DEFAULT_MARGIN,
    text: str = "",
    tracks: Tracks | None = None,
    cues: str = "",
    cue_settings: CueSettings | None = None,
) -> dict[str, Any]:
    """The page data of a time review (``rows`` from :func:`segagree.outputs.time_review.group_rows`,
    in the workbook's order: row ``i`` is group ``i + 1``); the recording from ``media`` or the
    first source that names one. With ``cues`` (where they come from), each row shows the cues at
    the end of its first annotator's unit and the page draws ``tracks``."""
    info = sources_media(sources, media)
    out_rows = []
    for n, row in enumerate(rows, start=1):
        members = []
        for a in annotators:
            start = row.get(f"{a} start")
            members.append(
                None
                if start is None
                else [
                    _sheet_number(start),
                    _sheet_number(row[f"{a} end"]),
                    str(row.get(f"{a} category") or ""),
                    str(row.get(f"{a} text") or ""),
                ]
            )
        times = [t for m in members if m is not None for t in m[:2] if t is not None]
        out_rows.append(
            {
                "id": n,
                "kind": row["kind"],
                "cost": _sheet_number(row["disorder"]),
                "share": _sheet_number(row["share"]),
                "speaker": str(row.get("speaker") or ""),
                "members": members,
                "types": sorted({str(m[2]) for m in members if m is not None}),
                "start": min(times) if times else None,
                "end": max(times) if times else None,
                **({"cues": _time_row_cues(row, annotators)} if cues else {}),
            }
        )
    home = page_dir.resolve()
    return {
        "kind": "time",
        "text": text,
        "written_by": f"segagree {version()}",
        "media": media_data(
            info, page_dir, margin=margin, tracks=tracks, cue_settings=(cue_settings or CueSettings()).to_dict()
        ),
        "cues": cues,
        "pairs": [
            {
                "sheet": "Alignment",
                "annotators": list(annotators),
                "choices": [*annotators, "none", "edit"],
                "rows": out_rows,
                "sources": [
                    {"file": _relative(p.resolve(), home), "file_absolute": "", "sha1": file_sha1(p)}
                    for p in sources
                    if Path(p).is_file()
                ],
            }
        ],
        "settings": {**settings, "annotators": list(annotators)},
    }


def _time_row_cues(row: Mapping[str, Any], annotators: Sequence[str]) -> dict[str, Any]:
    """A time row's cues as the page shows a row's: those at the end of its first annotator's unit."""
    from segagree.scoring.acoustics.time_cues import NOTE_COLUMN, TIME_CUES

    for a in annotators:
        if row.get(f"{a} start") is not None:
            cues: dict[str, Any] = {key: row.get(f"{a} {suffix}") for key, suffix in TIME_CUES}
            return {
                **cues,
                "cue_note": f"at the end of {a}'s unit" + (f"; {row[NOTE_COLUMN]}" if row.get(NOTE_COLUMN) else ""),
            }
    return {"cue_note": str(row.get(NOTE_COLUMN) or "")}


# --- the HTML --------------------------------------------------------------------------------


def _script_json(data: Mapping[str, Any]) -> str:
    """JSON safe inside ``<script type="application/json">``: no ``<``, ``>`` or ``&`` survive."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def with_digest(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with ``digest``: SHA-1 (16 hex digits) of its JSON, the key of the page's stored decisions."""
    body = {k: v for k, v in data.items() if k != "digest"}
    digest = json_digest(body, 16, ensure_ascii=False)
    return {**body, "digest": digest}


def review_section(data: Mapping[str, Any]) -> str:
    """The review part (one ``<section id="segagree-review">`` with its style, data and script),
    for the stand-alone page and for a run report's text page."""
    data = with_digest(data)
    media = data["media"]
    audio = f'<audio id="sgr-audio" preload="auto" src="{_escape(media["src"])}"></audio>' if media["src"] else ""
    return (
        _template("review_page.html")
        .replace("/*CSS*/", _template("review_page.css"), 1)
        .replace("<!--AUDIO-->", audio, 1)
        .replace("/*JS*/", _template("review_page.js"), 1)
        .replace("/*DATA*/", _script_json(data), 1)  # last: nothing is replaced inside the data
    )


def write_review_page(path: str | os.PathLike[str], data: Mapping[str, Any], *, title: str = "") -> Path:
    """Write the stand-alone review page (atomically)."""
    path = Path(path)
    head = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "script-src 'unsafe-inline'; media-src 'self' file: blob:; img-src data: blob:\">\n"
        f"<title>segagree review: {_escape(title or str(data.get('text', '')))}</title></head><body>\n"
    )
    write_text_atomic(path, head + review_section(data) + "\n</body></html>\n")
    return path


def _escape(text: str) -> str:
    import html

    return html.escape(text, quote=True)


def page_data(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The data embedded in a review page (what its script renders)."""
    import re

    text = Path(path).read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="segagree-review-data">(.*?)</script>', text, re.S)
    if not found:
        raise SegagreeError("not a segagree review page (no embedded review data)", path=Path(path))
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def media_line(path: str | os.PathLike[str]) -> str:
    """One line on a page's recording: the file played and what named it, or why none is played."""
    media = page_data(path)["media"]
    if not media["src"]:
        return f"no playback: {media['note']}"
    line = f"recording {media['src']} (named by {media['found_by']}; margin {media['margin']:g} s)"
    return line + (f"; {media['peaks_note']}" if media["peaks_note"] else "")


#: Review parts of single-pair texts built by the worker that scored the pair (with its operation rows
#: at hand), under the pages' folder, named by the pair's key and the settings the part shows.
PARTS_DIR = ".review-parts"


def review_part_path(page_dir: Path, key: str, config: RunConfig) -> Path:
    """Where a pair's prebuilt review part is kept (see :data:`PARTS_DIR`)."""
    shown = json_digest([version(), config.review_matches], 8)
    return page_dir / PARTS_DIR / f"{key}-{shown}.html"


def write_review_part(result: Mapping[str, Any], config: RunConfig, page_dir: Path) -> None:
    """Build a single-pair text's review part in the worker that scored the pair (the run's text
    hook), so the page need not score the pair again; :func:`text_review_section` then reads it."""
    if result.get("ok") and result.get("key") and "operation_rows" in result:
        write_text_atomic(
            review_part_path(page_dir, result["key"], config), text_review_section([result], config, page_dir)
        )


def text_review_section(results: Sequence[Mapping[str, Any]], config: RunConfig, page_dir: Path) -> str:
    """The review part of a run report's text page (``page_dir``: the page's folder, which the
    recording and the sources are linked relative to); a note when the text has nothing to review.
    A part the worker built for the same pair and settings (:func:`write_review_part`) is reused."""
    ok = [r for r in results if r.get("ok")]
    reason = "no pair of this text was scored"
    if len(ok) == 1 and ok[0].get("key") and "operation_rows" not in ok[0]:
        part = review_part_path(page_dir, ok[0]["key"], config)
        if part.is_file():
            return part.read_text(encoding="utf-8")
    if ok:
        try:
            return review_section(token_page_data(with_operation_rows(ok, config), config, page_dir))
        except SegagreeError as err:
            reason = f"the review part could not be built: {err}"
    return f'<section id="segagree-review"><h2>Review</h2><p class="note">{_escape(reason)}</p></section>'
