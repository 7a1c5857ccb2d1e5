"""SubRip subtitles (``.srt``): timed blocks of one or more text lines.

What the format holds: a sequence of cues (blocks), each an optional index line, a timing line
``HH:MM:SS,mmm --> HH:MM:SS,mmm`` (optionally followed by ``X1:.. Y2:..`` coordinates) and
text lines, separated by blank lines. Text may carry HTML-like tags (``<i> <b> <u> <s>
<font ...>``) and ASS override blocks (``{\\an8}``). Speakers are not encoded; by convention a
line starting with a dash is a new speaker in a dialogue cue, and SDH subtitles put
``NAME:`` labels at the start of a line.

Parsing uses the **srt** library (``srt.parse``) for the block structure, after decoding with
:func:`decode_text` (BOM, UTF-8, else a detected encoding; ``encoding=`` forces one) and a
timing-line pass of our own. That pass is as lenient as ``srt`` where the meaning is clear and
reports each repair in ``doc.losses`` (kind ``repaired``, with a count and the first cue): a dot
or colon for the comma (``00:00:01.500``), full-width digits and colons (``００:００:０１,５００``,
NFKC), no hour field (``01:02,500`` is 1 min 2.5 s), fields of other widths (``0:0:1,5``; a
fraction is a decimal fraction, so ``,5`` is half a second and ``,12345`` keeps its precision),
indented index and timing lines, and lines of only spaces (blank). What has no clear meaning is
an :class:`InputError` naming the cue (its number in the file, and its index line when
present) and the line, never a dropped cue: ``00:01 --> 00:02`` (hours or seconds?), minutes or
seconds above 59, a cue that ends before it starts. ``allow_missing_ms=True`` accepts
``HH:MM:SS`` timestamps (pysrt calls them invalid, so they are refused by default); one timestamp
without a fraction beside one with it (``00:01:39 --> 00:01:41,04``, which ``srt`` reads) is read
as whole seconds and reported.

yt-dlp's SubRip files are read as they are: a WebVTT-style header before the first cue (``Kind:
captions`` and ``Language: en`` lines ended by a blank line) is not SubRip and is dropped (reported as
``header-dropped``, with its lines), and a cue with no text followed at once by the next cue's index
and timing lines (no blank line between) is one empty cue, the next its own (a ``repaired`` note):
every timing line is one cue, read once.

An empty file, and a file whose cues are all empty, are valid subtitle files with no words
(SubER scores them): a Document with the speaker ``SUBTITLE`` and no tokens.

Mapping to the model (reading):

* **Layer** ``subtitle`` with scheme ``builtin_scheme("subtitle")``: the last token of a cue
  gets ``<eob>`` (end of block), the last token of every other line of the cue ``<eol>`` (end of
  line). Each line is a unit for :func:`from_units`; the cue's start time goes on its first
  token and its end time on its last token; other tokens (interior lines) have NaN times.
* **Tokens**: whitespace split of each line after removing styling tags. Lines left empty are
  skipped (no ``<eol>``); cues with no tokens are skipped and counted in
  ``meta['empty_cues']``. ASS escapes such as ``\\N``/``\\h`` are kept as text.
* **Styling** (decision): only ``<b> <i> <u> <s> <font ...>`` (any case) and ``{\\...}`` blocks
  are styling; other ``<...>`` text is kept as words (players show unknown tags). When a file has
  styling, the token column ``style`` holds, per token, the opening tags active at its first
  character, as written (``<b><i>``, ``<font color="red">``), and the first token of a cue also
  carries the cue's ASS blocks as a prefix (``{\\an8}<i>``). The writer wraps each run of tokens
  with the same style in those tags and puts the ASS blocks at the start of the cue, so bold,
  italics, underline, strike-through, fonts and positioning survive; tags *inside* a word (the
  ``m<font>o</font>st`` case) take the style of the word's first letter.
* **Speakers** (decision): with no dashes or labels in the file, one speaker ``SUBTITLE``. A
  line starting with ``-`` (not ``--``) starts a new speaker turn: the speaker alternates
  ``A``/``B`` (the first dash line after ``SUBTITLE`` is ``A``), so a cue with two dash lines
  has two speakers; lines without a dash continue the current speaker, also across cues. Dashes
  count only where the file uses them consistently (:func:`uses_dialogue_dashes`: a cue with two
  dash lines, or dash lines in at least half the cues); elsewhere a dash-led line is text, so one
  stray dash does not turn every later cue into ``A``/``B``. A
  ``NAME:`` label at the start of a line (after an optional dash) sets the speaker to ``NAME``
  and is removed from the tokens; by default (``speaker_labels="caps"``) only ALL-CAPS labels
  count (``MAN:``, ``MAN 2:``, ``DR. WHO:``) so that ``Note: ...`` stays text;
  ``speaker_labels="any"`` also accepts one capitalised word (``Marion:``), ``False`` none.
* **Reported as read losses**: cues with no words (``empty-cues``: their times are lost),
  cue numbers that are not 1, 2, 3 ... (``indexes-renumbered``), styling that starts or ends
  inside a word (``styling-moved``), the repairs above and a detected encoding.
* **Kept in meta**: ``encoding``, ``line_endings``, ``cues`` (non-empty cues read),
  ``empty_cues``, ``missing_indexes``, ``speaker_marks`` and ``cue_proprietary`` (the
  ``X1:..`` text after a timing line, by written cue number).
* **Not represented**: index numbers (renumbered on writing), the exact spacing and line
  layout of styling, tags of unknown kinds (kept as words), sound descriptions (words).

Writing: one cue per ``<eob>`` unit of the ``subtitle`` layer, one text line per unit ending in
``<eol>``, indexes renumbered from 1, cues in document order, times rounded to milliseconds
(``times-rounded`` when that changes them). A document without a ``subtitle`` layer is written
with one cue per unit of its unit layer (``iu``), the endnote glued to the last word
(``layer-dropped``: reading back gives a ``subtitle`` layer). Speakers (``speaker_marks``):
``"auto"`` writes ``- `` dashes at each speaker change when the document's speakers are the
reader's anonymous ``SUBTITLE``/``A``/``B`` and the changes follow the A/B alternation, else
``NAME: `` labels at each speaker change; ``"dash"``, ``"label"`` and ``"none"`` force one way.
Times are invented (1 s per cue) when cues lack them (``times-invented``). Times SubRip cannot
hold (negative, infinite, beyond ten days) are an error, never a ``-1:59:59,000`` line; a cue whose
end comes before its start is written with end = start (``times-changed``). A file read with
CRLF line ends is written with CRLF.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import srt as srtlib

from segagree.errors import InputError, SegagreeError, UsageError
from segagree.files.encoding import decode_text, detect_encoding
from segagree.files.memory import read_bytes
from segagree.formats.base import Adapter, check_options
from segagree.formats.endnotes import endnote_text
from segagree.formats.timing import MAX_SECONDS, clock_seconds, is_possible
from segagree.model import Document, builtin_scheme, from_units
from segagree.model.losses import LossReport, read_losses
from segagree.model.scheme import BoundaryScheme

log = logging.getLogger(__name__)

DEFAULT_SPEAKER = "SUBTITLE"
_READ_OPTIONS = {"speaker_labels", "allow_missing_ms", "encoding"}
_WRITE_OPTIONS = {"layer", "speaker_marks"}

# One timestamp after NFKC (full-width digits and colons become ASCII): an optional hour field,
# minutes, seconds, and a fraction after ``,`` (standard), ``.``, ``:`` or the ideographic ``。``.
_TS = r"(?:(\d+):)?(\d+):(\d+)(?:([,.:。])(\d*))?"
_TIMING = re.compile(rf"^\s*{_TS}\s*-[ -]\s*>\s*{_TS}(?:\s+(.*?))?\s*$")
_ARROW = re.compile(r"-[ -] *>")
_INDEX = re.compile(r"^\s*-?\d+(\.\d*)?\s*$")
# Styling: a known HTML-like tag, or an ASS override block {\...}.
_TAG = re.compile(r"<\s*(/?)\s*(b|i|u|s|font)\b([^<>]*)>|(\{\\[^{}]*\})", re.IGNORECASE)
DASH = re.compile(r"^-(?!-)\s*(?=\S)")
LABEL_CAPS = re.compile(r"^([A-Z][A-Z0-9.'’\-]*(?: [A-Z0-9][A-Z0-9.'’\-]*){0,3}):(?:\s+|$)")
LABEL_ANY = re.compile(r"^([A-Z][\w.'’\-]*):(?:\s+|$)")


_MARKUP = re.compile(r"<[^>]*>|\{\\[^{}]*\}")
# A WebVTT-style header line (``Kind: captions``, ``Language: en``), as yt-dlp leaves before SRT cues.
_HEADER_LINE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*:[ \t]*\S.*$")


def split_header(text: str) -> tuple[str, list[str]]:
    """The text with a header before the first cue blanked out (its lines kept, so line numbers stay),
    and the header's lines: ``Name: value`` lines at the start of the file, ended by a blank line
    (yt-dlp writes ``Kind: captions`` and ``Language: en`` so). No header: the text and ``[]``."""
    lines = text.split("\n")
    n = 0
    while n < len(lines) and _HEADER_LINE.match(lines[n]) and "-->" not in lines[n]:
        n += 1
    if not n or (n < len(lines) and lines[n].strip()):
        return text, []
    return "\n".join([""] * n + lines[n:]), lines[:n]


def uses_dialogue_dashes(cues: Iterable[Iterable[str]]) -> bool:
    """Whether a file uses line-initial dashes as dialogue dashes (a change of speaker): some cue
    has two dash-led lines (``- Hi.`` / ``- Hello.``, the subtitling convention for two speakers
    in one cue), or at least half of its cues with text have a dash-led line. Elsewhere a
    dash-led line is text (a minus sign, a dash of style), so that one stray dash does not turn
    every later cue into speakers A and B."""
    with_text = dashed = 0
    for lines in cues:
        plain = [_MARKUP.sub("", line).strip() for line in lines]
        if any(plain):
            with_text += 1
            led = sum(1 for line in plain if DASH.match(line))
            if led >= 2:
                return True
            dashed += led > 0
    return dashed > 0 and 2 * dashed >= with_text


@dataclass
class _Timings:
    """What the timing-line pass found: the cue times, the text for ``srt.parse`` and the repairs."""

    text: str
    times: list[tuple[float, float]] = field(default_factory=list)
    indexes: list[str | None] = field(default_factory=list)
    # repair kind -> (count, first place)
    repairs: dict[str, tuple[int, str]] = field(default_factory=dict)

    def repaired(self, kind: str, place: str) -> None:
        count, first = self.repairs.get(kind, (0, place))
        self.repairs[kind] = (count + 1, first)


def _seconds(groups: tuple[str | None, ...], line: str, path: Path, place: str, allow_missing_ms: bool) -> float:
    """Seconds of one timestamp's (hours, minutes, seconds, separator, fraction) groups."""
    hours, minutes, secs, sep, frac = groups
    if sep is None or (sep == ":" and not frac) or (hours is None and sep == ":"):
        if hours is None or not allow_missing_ms:
            raise InputError(
                f"malformed timing line {line.strip()!r}; expected HH:MM:SS,mmm --> HH:MM:SS,mmm",
                path=path,
                place=place,
            )
    if minutes is None or secs is None:  # the pattern makes both mandatory
        raise InputError(f"malformed timing line {line.strip()!r}", path=path, place=place)
    if int(minutes) > 59 or int(secs) > 59:
        raise InputError(f"timing line {line.strip()!r} has minutes or seconds above 59", path=path, place=place)
    return clock_seconds(hours, minutes, secs, frac)


def _timestamp_repairs(groups: tuple[str | None, ...]) -> list[str]:
    """What made a timestamp (after NFKC) non-standard; empty when it is ``HH:MM:SS,mmm``."""
    hours, minutes, secs, sep, frac = groups
    found = []
    if sep in (".", "。"):
        found.append("a dot for the comma in a timing")
    if sep == ":" and frac:
        found.append("a colon for the comma in a timing")
    if hours is None:
        found.append("no hour field in a timing")
    if sep is None:
        found.append("a timestamp without a fraction (read as whole seconds)")
    widths = (len(hours or "00"), len(minutes or ""), len(secs or ""), len(frac or "000"))
    if widths != (2, 2, 2, 3):
        found.append("a timing field of non-standard width")
    return found


def _scan_timings(text: str, path: Path, allow_missing_ms: bool) -> _Timings:
    """Find every timing line, read its times leniently (``srt``'s leniency where the meaning is
    clear) and record each repair; return the text with canonical timing and index lines for
    ``srt.parse``.

    A timing line is a line with an arrow at the start of a block or right after an index line
    that starts a block, which is where ``srt`` looks for one, or a well-formed timing line
    right after an index line inside a block (``srt`` ends a cue there too). Whitespace-only lines count as
    blank; indented index and timing lines are dedented.
    """
    lines = text.split("\n")
    out = _Timings(text="")
    for i, line in enumerate(lines):
        if line and not line.strip():
            lines[i] = ""
            out.repaired("a line of only spaces read as a blank line", f"line {i + 1}")
    for i, line in enumerate(lines):
        block_start = i == 0 or not lines[i - 1]
        prev_norm = unicodedata.normalize("NFKC", lines[i - 1]) if i else ""
        after_index = i >= 1 and _INDEX.match(prev_norm) is not None
        if not _ARROW.search(unicodedata.normalize("NFKC", line)) or not (block_start or after_index):
            continue
        if after_index and not (i == 1 or not lines[i - 2]) and not _TIMING.match(unicodedata.normalize("NFKC", line)):
            # An index and a timing line start a cue even without a blank line before them (as
            # in `srt`), but only a well-formed timing: otherwise they are the cue's text.
            continue
        cue = len(out.times) + 1
        index = prev_norm.strip() if after_index else None
        where = f"cue {cue}" + (f" (index {index})" if index is not None else "")
        place = f"{where}, line {i + 1}"
        norm = unicodedata.normalize("NFKC", line)
        m = _TIMING.match(norm)
        if m is None:
            raise InputError(
                f"malformed timing line {line.strip()!r}; expected HH:MM:SS,mmm --> HH:MM:SS,mmm",
                path=path,
                place=place,
            )
        g = m.groups()
        # One timestamp of the line without a fraction beside one with it (`00:01:39 --> 00:01:41,04`,
        # which `srt` reads) is clear: whole seconds. Both without one stay refused by default.
        start = _seconds(g[0:5], line, path, place, allow_missing_ms or g[8] is not None)
        end = _seconds(g[5:10], line, path, place, allow_missing_ms or g[3] is not None)
        if end < start:
            raise InputError(f"cue ends before it starts ({line.strip()!r})", path=path, place=place)
        if end > MAX_SECONDS:
            raise InputError(
                f"timing line {line.strip()!r} is beyond {MAX_SECONDS / 86400:.0f} days; expected a recording's time",
                path=path,
                place=place,
            )
        if not (allow_missing_ms and g[3] is None and g[8] is None):
            for kind in {*_timestamp_repairs(g[0:5]), *_timestamp_repairs(g[5:10])}:
                out.repaired(kind, place)
        if line.strip() != norm.strip():
            out.repaired("full-width characters in a timing line", place)
        if line != line.lstrip() or (after_index and lines[i - 1] != lines[i - 1].lstrip()):
            out.repaired("an indented index or timing line", place)
        if after_index and lines[i - 1].strip() != prev_norm.strip():
            out.repaired("full-width digits in a cue index", place)
        out.times.append((start, end))
        out.indexes.append(index)
        # Canonical lines for srt.parse; the times above are the ones used. An index and timing
        # line right after a cue's lines (no blank line between: yt-dlp's cue without text) start
        # a cue of their own: a blank line is put before them.
        if after_index:
            inside = i >= 2 and bool(lines[i - 2])
            if inside:
                out.repaired("a cue without a blank line before the next one", place)
            lines[i - 1] = ("\n" if inside else "") + (index or "")
        lines[i] = "00:00:00,000 --> 00:00:00,000" + (f" {m.group(11)}" if m.group(11) else "")
    out.text = "\n".join(lines)
    return out


@dataclass
class _Line:
    """One text line of a cue after tag stripping: tokens, their styles, the speaker mark."""

    tokens: list[str] = field(default_factory=list)
    styles: list[str] = field(default_factory=list)


def apply_style_tag(stack: list[tuple[str, str]], name: str, closing: bool, tag: str) -> None:
    """Update the open style tags ``stack`` ((name, tag text) pairs) with one tag: an opening
    tag is pushed; a closing tag closes the latest open tag of that name, if any."""
    if closing:
        for j in range(len(stack) - 1, -1, -1):
            if stack[j][0] == name:
                del stack[j]
                break
    else:
        stack.append((name, tag))


def _strip_styles(line: str, stack: list[tuple[str, str]], ass: list[str]) -> tuple[str, list[str]]:
    """Remove styling from a line; return its text and the style of each character.

    ``stack`` holds the open (name, tag text) pairs and carries over to the next line of the
    cue; ASS blocks are appended to ``ass`` (they apply to the whole cue).
    """
    chars: list[str] = []
    styles: list[str] = []
    pos = 0
    for m in _TAG.finditer(line):
        for ch in line[pos : m.start()]:
            chars.append(ch)
            styles.append("".join(t for _, t in stack))
        pos = m.end()
        if m.group(4):
            ass.append(m.group(4))
            continue
        name = m.group(2).lower()
        apply_style_tag(stack, name, bool(m.group(1)), m.group(0))
    for ch in line[pos:]:
        chars.append(ch)
        styles.append("".join(t for _, t in stack))
    return "".join(chars), styles


def _tokens_with_styles(text: str, styles: list[str]) -> tuple[list[str], list[str]]:
    toks, tok_styles = [], []
    for m in re.finditer(r"\S+", text):
        toks.append(m.group(0))
        tok_styles.append(styles[m.start()])
    return toks, tok_styles


def read(path: Path, *, scheme: BoundaryScheme, **options: Any) -> Document:
    """Read an SRT file into a Document with one ``subtitle`` layer (see the module docstring).

    ``scheme`` (the endnote scheme of unit layers) is not used: subtitle boundaries always use
    the built-in ``subtitle`` scheme.

    Options:
        speaker_labels: ``"caps"`` (default), ``"any"`` or ``False`` (see the module docstring).
        allow_missing_ms: accept ``HH:MM:SS`` timestamps without milliseconds.
    """
    check_options(options, _READ_OPTIONS, "SRT reader")
    labels_opt = options.get("speaker_labels", "caps")
    if labels_opt not in ("caps", "any", False, None):
        raise UsageError(f"speaker_labels must be 'caps', 'any' or False, got {labels_opt!r}")
    label_res = {"caps": [LABEL_CAPS], "any": [LABEL_CAPS, LABEL_ANY]}.get(labels_opt or "", [])
    path = Path(path)
    encoding = options.get("encoding")
    losses = read_losses()
    # An empty file is a valid subtitle file with no words (SubER scores it).
    raw = read_bytes(path, allow_empty=True)
    text = decode_text(raw, path, encoding=encoding, losses=losses)
    line_endings = "CRLF" if "\r\n" in text else ("CR" if "\r" in text else "LF")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise InputError("a NUL character; expected SubRip text", path=path, place=f"line {line}")
    text, header = split_header(text)
    scan = _scan_timings(text, path, bool(options.get("allow_missing_ms")))
    for kind, (count, first) in scan.repairs.items():
        losses.add("repaired", f"{kind}: read as standard SubRip", where=f"first at {first}", count=count)
    subs = _parse_cues(scan, path)
    written = [ix for ix in scan.indexes if ix is not None]
    if written and written != [str(n) for n in range(1, len(scan.indexes) + 1)]:
        losses.add(
            "indexes-renumbered",
            "cue numbers are not kept: they are not 1, 2, 3 ... in file order, and cues are renumbered on writing",
        )
    cues = _CueUnits(label_res, uses_dialogue_dashes(sub.content.split("\n") for sub in subs))
    for sub, (cue_start, cue_end) in zip(subs, scan.times, strict=True):
        cues.add(sub, cue_start, cue_end)
    if header:
        losses.add(
            "header-dropped",
            "a WebVTT-style header before the cues is not SubRip and is not kept",
            where="; ".join(header)[:80],
            count=len(header),
        )
    if cues.empty:
        losses.add(
            "empty-cues",
            "cues with no words are not kept (a Document holds words; their times are lost)",
            count=cues.empty,
        )
    if cues.split_style:
        losses.add(
            "styling-moved",
            "styling that starts or ends inside a word applies to the whole word (as its first letter's)",
            count=cues.split_style,
        )
    meta = {
        "encoding": detect_encoding(raw, encoding),
        "line_endings": line_endings,
        "cues": cues.cue_no,
        "empty_cues": cues.empty,
        "missing_indexes": sum(1 for ix in scan.indexes if ix is None),
        "speaker_marks": "+".join(sorted(cues.marks)) or "none",
        "cue_proprietary": cues.proprietary,
    }
    doc = from_units(
        path.stem,
        cues.units,
        layer="subtitle",
        scheme=builtin_scheme("subtitle"),
        source_path=str(path),
        source_format="srt",
        meta=meta,
        speakers=None if cues.units else [DEFAULT_SPEAKER],  # no words: an empty document of the one stream
        losses=losses,
    )
    if any(cues.styles):
        doc.set_column("style", cues.styles)
    return doc


def _parse_cues(scan: _Timings, path: Path) -> list[srtlib.Subtitle]:
    """The cues as the ``srt`` library parses the canonical text; as many as timing lines found."""
    subs: list[srtlib.Subtitle] = []
    try:
        for sub in srtlib.parse(scan.text):
            subs.append(sub)
    except srtlib.SRTParseError as err:
        line_no = scan.text.count("\n", 0, err.expected_start) + 1
        snippet = " ".join(str(err.unmatched_content).split())[:60]
        raise InputError(
            f"cannot parse SubRip text {snippet!r}; expected a cue (index line, "
            "HH:MM:SS,mmm --> HH:MM:SS,mmm, text lines) or a blank line",
            path=path,
            place=f"cue {len(subs) + 1}, line {line_no}",
        ) from None
    except (srtlib.TimestampParseError, ValueError) as err:
        log.debug("srt.parse failed", exc_info=True)
        raise InputError(
            f"unreadable timestamp ({' '.join(str(err).split())})",
            path=path,
            place=f"cue {len(subs) + 1}",
        ) from None
    if len(subs) != len(scan.times):
        raise InputError(
            f"found {len(scan.times)} timing lines but the srt parser found {len(subs)} cues; "
            "the cue structure is not understood",
            path=path,
        )
    return subs


class _CueUnits:
    """The units of the cues read so far: one per line with words, ``<eol>`` inside a cue and
    ``<eob>`` at its end; speakers from dialogue dashes (when ``dashes``) and name labels."""

    EOB, EOL = 1, 2  # codes of builtin_scheme("subtitle")

    def __init__(self, label_res: list[re.Pattern[str]], dashes: bool) -> None:
        self.label_res, self.dashes = label_res, dashes
        self.units: list[dict[str, Any]] = []
        self.styles: list[str] = []
        self.speaker = DEFAULT_SPEAKER
        self.marks: set[str] = set()
        self.proprietary: dict[str, str] = {}
        self.empty = self.cue_no = self.split_style = 0

    def add(self, sub: srtlib.Subtitle, cue_start: float, cue_end: float) -> None:
        stack: list[tuple[str, str]] = []
        ass: list[str] = []
        lines: list[tuple[str, _Line]] = []
        for raw_line in sub.content.split("\n"):
            found = self._line(raw_line, stack, ass)
            if found is not None:
                lines.append(found)
        if not lines:
            self.empty += 1
            return
        if ass:
            lines[0][1].styles[0] = "".join(ass) + lines[0][1].styles[0]
        self.cue_no += 1
        if sub.proprietary.strip():
            self.proprietary[str(self.cue_no)] = sub.proprietary.strip()
        for j, (spk, line) in enumerate(lines):
            last = j == len(lines) - 1
            unit: dict[str, Any] = {"speaker": spk, "tokens": line.tokens, "boundary": self.EOB if last else self.EOL}
            if j == 0:
                unit["start"] = cue_start
            if last:
                unit["end"] = cue_end
            self.units.append(unit)
            self.styles.extend(line.styles)

    def _line(self, raw_line: str, stack: list[tuple[str, str]], ass: list[str]) -> tuple[str, _Line] | None:
        """One text line: styling stripped, a dialogue dash or name label taken as the speaker."""
        plain, char_styles = _strip_styles(raw_line, stack, ass)
        lead = len(plain) - len(plain.lstrip())
        plain, char_styles = plain[lead:], char_styles[lead:]
        m = DASH.match(plain) if self.dashes else None
        if m:
            self.speaker = "B" if self.speaker == "A" else "A"
            self.marks.add("dash")
            plain, char_styles = plain[m.end() :], char_styles[m.end() :]
        for rx in self.label_res:
            lm = rx.match(plain)
            if lm:
                self.speaker = lm.group(1)
                self.marks.add("label")
                plain, char_styles = plain[lm.end() :], char_styles[lm.end() :]
                break
        toks, tok_styles = _tokens_with_styles(plain, char_styles)
        self.split_style += _styles_inside_words(plain, char_styles)
        return (self.speaker, _Line(toks, tok_styles)) if toks else None


def _styles_inside_words(text: str, styles: list[str]) -> int:
    """How many words have a style change inside them (``m<font>o</font>st``)."""
    return sum(1 for m in re.finditer(r"\S+", text) if len(set(styles[m.start() : m.end()])) > 1)


# --- writing -----------------------------------------------------------------------------

_TAG_NAME = re.compile(r"<\s*([a-zA-Z]+)")


def styled_line(tokens: list[str], styles: list[str]) -> str:
    """Tokens joined by spaces, each run of equal style wrapped in its tags (WebVTT's words
    come already escaped, with any timestamp tag in front)."""
    parts: list[str] = []
    i = 0
    while i < len(tokens):
        j = i
        while j < len(tokens) and styles[j] == styles[i]:
            j += 1
        text = " ".join(tokens[i:j])
        if styles[i]:
            closing = "".join(f"</{n.lower()}>" for n in reversed(_TAG_NAME.findall(styles[i])))
            text = styles[i] + text + closing
        parts.append(text)
        i = j
    return " ".join(parts)


def _split_ass(style: str) -> tuple[str, str]:
    """Split a first token's style into its leading ASS blocks and its tag part."""
    m = re.match(r"^((?:\{\\[^{}]*\})*)(.*)$", style, re.DOTALL)
    assert m is not None  # the pattern matches every string
    return m.group(1), m.group(2)


def _dash_sequence_ok(changes: list[str]) -> bool:
    """Whether the reader's A/B alternation reproduces this sequence of speaker changes."""
    current = DEFAULT_SPEAKER
    for spk in changes:
        current = "B" if current == "A" else "A"
        if spk != current:
            return False
    return True


def _ms(seconds: float) -> dt.timedelta:
    return dt.timedelta(milliseconds=round(seconds * 1000))


def write(doc: Document, path: Path, *, losses: LossReport, **options: Any) -> None:
    """Write ``doc`` as SRT (see the module docstring).

    Options:
        layer: the layer to write (default: ``subtitle`` if present, else the unit layer).
        speaker_marks: ``"auto"`` (default), ``"dash"``, ``"label"`` or ``"none"``.
    """
    check_options(options, _WRITE_OPTIONS, "SRT writer")
    marks_opt = options.get("speaker_marks", "auto")
    if marks_opt not in ("auto", "dash", "label", "none"):
        raise UsageError(f"speaker_marks must be auto, dash, label or none, got {marks_opt!r}")
    layer, eob, eol, subtitle_mode = subtitle_layer_to_write(doc, options.get("layer"), losses, "SRT")
    extra = [c for c in doc.meta_columns() if c != "style"]
    if extra:
        losses.add("meta-dropped", f"token columns {extra} have no place in SRT")
    tok = doc.tokens
    texts = tok["text"].astype(str).tolist()
    style_col = tok["style"].fillna("").astype(str).tolist() if "style" in tok else [""] * len(texts)
    starts = tok["start"].to_numpy(dtype=float)
    ends = tok["end"].to_numpy(dtype=float)
    cues = cue_groups(doc, layer.name, texts, subtitle_mode=subtitle_mode, eol=eol, scheme=layer.scheme)
    # SRT has cue times only: word times inside a cue (WebVTT timestamp tags, word tiers) are lost.
    inner = sum(
        int(not math.isnan(starts[r]) and r != c[0][1][0]) + int(not math.isnan(ends[r]) and r != c[-1][1][-1])
        for c in cues
        for _, rows, _ in c
        for r in rows
    )
    losses.add_count("times-dropped", "SRT has no times for words inside a cue; they are not written", inner)
    spans, _ = cue_times(cues, starts, ends, losses, "SRT")
    _check_cue_spans(spans, path, losses)
    mode = speaker_marks_mode(cues, marks_opt, "label", losses)
    if mode == "label":
        changes = speaker_changes(cues)
        unreadable = sorted(
            {s for s in changes if not (LABEL_CAPS.fullmatch(s + ": ") or LABEL_ANY.fullmatch(s + ": "))}
        )
        if unreadable:
            losses.add(
                "speakers-merged",
                f"speaker names {unreadable} are written as NAME: labels "
                "the reader does not recognise; reading back merges them",
            )
    subs = _subtitles(doc, cues, spans, style_col, mode)
    # reindex=False: compose would otherwise sort by time and drop zero-length cues.
    text = srtlib.compose(subs, reindex=False)
    if doc.source_format == "srt" and doc.meta.get("line_endings") == "CRLF":
        text = text.replace("\n", "\r\n")  # keep the source's line ends
    Path(path).write_text(text, encoding="utf-8", newline="")


_CueLines = list[tuple[str, tuple[int, ...], list[str]]]  # a cue: (speaker, token rows, words) per line


def cue_times(
    cues: list[_CueLines], starts: np.ndarray, ends: np.ndarray, losses: LossReport, fmt: str
) -> tuple[list[tuple[float, float]], bool]:
    """Each cue's (start, end) from its first and last word; 1 s per cue in document order when
    any is missing (reported, and returned as invented); sub-millisecond times reported rounded."""
    spans = [(float(starts[c[0][1][0]]), float(ends[c[-1][1][-1]])) for c in cues]
    missing = sum(1 for s, e in spans if math.isnan(s) or math.isnan(e))
    if missing:
        spans = [(float(i), float(i + 1)) for i in range(len(cues))]
        losses.add(
            "times-invented", f"{missing} of {len(cues)} cues have no times; every cue was given 1 s in document order"
        )
    flat = np.asarray([t for span in spans for t in span if is_possible(t)], dtype=float)  # others refused
    if flat.size and np.any(np.abs(flat * 1000 - np.round(flat * 1000)) > 1e-6):
        losses.add("times-rounded", f"{fmt} times have millisecond precision; times were rounded")
    return spans, missing > 0


def _check_cue_spans(spans: list[tuple[float, float]], path: Path, losses: LossReport) -> None:
    """Refuse cue times SubRip cannot hold; report reversed cues (written with end = start)."""
    for n, (start, end) in enumerate(spans, start=1):
        for label, value in (("start", start), ("end", end)):
            if not is_possible(value):
                raise SegagreeError(
                    f"cue {n} {label} time {value!r} cannot be written as SubRip; expected a finite time "
                    f"from 0 to {MAX_SECONDS:.0f} s",
                    path=path,
                )
    reversed_cues = [n for n, (start, end) in enumerate(spans, start=1) if end < start]
    if reversed_cues:
        losses.add(
            "times-changed",
            "cues whose last word ends before their first word starts are written with end = start",
            where=f"cue {reversed_cues[0]}",
            count=len(reversed_cues),
        )


def speaker_changes(cues: list[_CueLines]) -> list[str]:
    """The speaker of each line where it differs from the line before (the first from ``SUBTITLE``)."""
    changes: list[str] = []
    prev = DEFAULT_SPEAKER
    for cue in cues:
        for spk, _, _ in cue:
            if spk != prev:
                changes.append(spk)
            prev = spk
    return changes


def speaker_marks_mode(cues: list[_CueLines], marks_opt: str, named: str, losses: LossReport) -> str:
    """How a subtitle writer marks speakers: ``marks_opt``, or for ``"auto"`` dialogue dashes
    when the speakers are the readers' anonymous ``SUBTITLE``/``A``/``B`` in an order dashes give
    back, else ``named`` (SRT labels, WebVTT voices); ``"none"`` with no speaker change. What
    will not read back is reported: marks left out, names turned into A/B, and dashes in too few
    cues for a reader to take them as dialogue dashes (:func:`uses_dialogue_dashes`)."""
    line_speakers = [spk for cue in cues for spk, _, _ in cue]
    changes = speaker_changes(cues)
    mode = marks_opt
    if mode == "auto":
        anonymous = set(line_speakers) <= {DEFAULT_SPEAKER, "A", "B"}
        mode = "dash" if anonymous and changes and _dash_sequence_ok(changes) else named
    if not changes:
        return "none"
    if mode == "none":
        losses.add(
            "speakers-merged",
            f"speakers {sorted(set(line_speakers))} are written without marks; reading back gives one speaker",
        )
    if mode == "dash" and not _dash_sequence_ok(changes):
        losses.add(
            "speakers-merged", "speaker names are written as '- ' dashes; reading back gives alternating speakers A/B"
        )
    if mode == "dash" and not uses_dialogue_dashes(_dashed_lines(cues)):
        losses.add(
            "speakers-merged",
            "speaker changes are written as '- ' dashes in too few cues for a reader to take them as dialogue "
            "dashes; reading back gives one speaker, with the dashes as words",
        )
    return mode


def _dashed_lines(cues: list[_CueLines]) -> list[list[str]]:
    """The cues' lines as a dash-marking writer writes them: ``-`` where the speaker changes."""
    out: list[list[str]] = []
    prev = DEFAULT_SPEAKER
    for cue in cues:
        lines = []
        for spk, _, words in cue:
            lines.append(("- " if spk != prev else "") + " ".join(words))
            prev = spk
        out.append(lines)
    return out


def _subtitles(
    doc: Document, cues: list[_CueLines], spans: list[tuple[float, float]], style_col: list[str], mode: str
) -> list[srtlib.Subtitle]:
    """The cues as ``srt`` subtitles: styled lines with their speaker marks, and the kept cue
    coordinates of a file read as SRT."""
    proprietary = doc.meta.get("cue_proprietary") or {}
    keep_prop = doc.source_format == "srt" and doc.meta.get("cues") == len(cues)
    subs: list[srtlib.Subtitle] = []
    prev = DEFAULT_SPEAKER
    for n, (cue, (start, end)) in enumerate(zip(cues, spans, strict=True), start=1):
        out_lines: list[str] = []
        ass = ""
        for k, (spk, rows, words) in enumerate(cue):
            line_styles = [style_col[r] for r in rows]
            if k == 0 and line_styles:
                ass, line_styles[0] = _split_ass(line_styles[0])
            body = styled_line(words, line_styles)
            if spk != prev and mode == "dash":
                body = "- " + body
            elif spk != prev and mode == "label":
                body = f"{spk}: {body}"
            prev = spk
            out_lines.append(body)
        if ass:
            out_lines[0] = ass + out_lines[0]
        subs.append(
            srtlib.Subtitle(
                index=n,
                start=_ms(start),
                end=_ms(max(end, start)),
                content="\n".join(out_lines),
                proprietary=str(proprietary.get(str(n), "")) if keep_prop else "",
            )
        )
    return subs


ADAPTER = Adapter(
    name="srt",
    extensions=(".srt",),
    description="SubRip subtitles: cues and line breaks as <eob>/<eol> boundaries",
    read=read,
    write=write,
)


Cue = list[tuple[str, tuple[int, ...], list[str]]]


def cue_groups(
    doc: Document, layer: str, texts: list[str], *, subtitle_mode: bool, eol: int | None, scheme: Any
) -> list[Cue]:
    """A layer's units grouped into cues: each cue a list of (speaker, rows, tokens) lines.

    A subtitle layer's units end in ``<eol>`` (next line, same cue) or ``<eob>`` (cue ends);
    any other layer makes one cue per unit, its endnote glued to the last word.
    """
    cues: list[Cue] = []
    current: Cue = []
    for unit in doc.units(layer):
        words = [texts[r] for r in unit.rows]
        if subtitle_mode:
            current.append((unit.speaker, unit.rows, words))
            if unit.boundary != eol:
                cues.append(current)
                current = []
        else:
            symbol = endnote_text(unit.boundary, scheme)
            if symbol:
                words = [*words[:-1], words[-1] + symbol]
            cues.append([(unit.speaker, unit.rows, words)])
    if current:
        cues.append(current)
    return cues


def subtitle_layer_to_write(
    doc: Document, name: str | None, losses: LossReport, fmt: str
) -> tuple[Any, int | None, int | None, bool]:
    """The layer a subtitle writer writes (``name``, else ``subtitle`` if present, else the unit
    layer), its ``<eob>``/``<eol>`` codes, and whether it is a subtitle layer; the other layers,
    and a non-subtitle layer's becoming one cue per unit, are reported in ``losses``."""
    layer = doc.layer(name or ("subtitle" if "subtitle" in doc.layers else None))
    eob = layer.scheme.find_code("<eob>")
    eol = layer.scheme.find_code("<eol>")
    subtitle_mode = eob is not None and eol is not None
    for other in doc.layers:
        if other != layer.name:
            losses.add("layer-dropped", f"{fmt} holds only cue/line breaks; layer {other!r} is not written")
    if not subtitle_mode:
        losses.add(
            "layer-dropped",
            f"layer {layer.name!r} is written as one cue per unit with its endnotes in the text; "
            "reading back gives a 'subtitle' layer",
        )
    return layer, eob, eol, subtitle_mode
