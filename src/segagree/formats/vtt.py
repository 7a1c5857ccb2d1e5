"""WebVTT subtitles (``.vtt``, W3C "WebVTT: The Web Video Text Tracks Format"), read and write.

What the format holds: a ``WEBVTT`` signature line (optionally followed by text) and header
lines, then blocks separated by blank lines: cues (an optional identifier line, a timing line
``[HH:]MM:SS.mmm --> [HH:]MM:SS.mmm`` with optional cue settings such as ``align:start
position:0% line:-1``, and text lines), ``NOTE`` comments, ``STYLE`` blocks (CSS) and ``REGION``
definitions. Cue text carries inline tags: ``<v Name>`` voice spans, ``<c.class>``, ``<i>``,
``<b>``, ``<u>``, ``<lang xx>``, ``<ruby>``/``<rt>``, timestamp tags ``<00:00:01.500>`` (the
time of the text after it) and HTML character references (``&amp;``, ``&lt;``, ``&nbsp;``).

**Library** (decision): blocks, cue timings, identifiers, settings, ``NOTE``, ``STYLE``,
``REGION`` and header metadata are parsed and written by **webvtt-py** (``webvtt.from_string``,
``WebVTT.content``). Compared with pysubs2 on the 18 webvtt-py test files in
``../shared/corpora/vtt``: both find the same number of cues where the file is valid, but pysubs2
glues cue identifiers into the previous cue's text (``Caption text #1\\N\\Ncredits``), turns
``<b>`` into ASS ``{\\b1}``, silently reads zero cues from Microsoft Teams files
(``0:0:0.0 --> 0:0:0.570``) and drops ``NOTE``, ``STYLE``, cue identifiers and settings;
webvtt-py keeps all of them (and writes them back), follows the specification's block rules
(a timing line ends the previous block) and reads Teams timestamps leniently. On 1,000 seeded
damaged copies of those files (truncation, bit flips, deleted, duplicated or swapped lines)
webvtt-py raised only its documented ``MalformedFileError`` (55 files without the signature)
and returned fewer cues than timing lines in 95; pysubs2 raised ``ValueError`` in 6 and lost
cues in 136. Both ignore cue blocks whose timing they cannot read; we do not: every line with
``-->`` must be the timing line of a cue the library returned, else :class:`InputError`
naming the cue, the line and the expected form. Cue *text* markup (tags, voices, timestamps,
character references) is not parsed by the library (it only strips tags), so a small scanner
here follows the specification's cue-text tokenizer (``<`` up to the next ``>`` is a tag).

Mapping to the model (reading), the same model as :mod:`segagree.formats.srt`, so an SRT and a
WebVTT file of the same subtitles read into equal Documents:

* **Layer** ``subtitle`` (``builtin_scheme("subtitle")``): the last token of a cue gets
  ``<eob>``, the last token of every other line ``<eol>``. The cue's start time is on its first
  token, its end time on its last token.
* **Word times**: a timestamp tag gives the ``start`` of the token that follows it (YouTube
  word timing); timestamps inside a word, after the cue's last word, or superseded by a later
  one before the same word are reported (``timestamp-dropped``). A timestamp outside its cue's
  time is an :class:`InputError`.
* **Tokens**: whitespace split of each line after removing tags and decoding character
  references. Cues without words are kept in ``meta['vtt']['empty_cues']`` (times, identifier,
  settings, text) and written back in place; they are not in the token table.
* **Styling**: the column ``vtt_style`` holds, per token, the opening tags (other than ``<v>``
  and timestamps) active at its first character, as written (``<c.colorE5E5E5><i>``); the
  writer wraps each run of tokens with equal style in those tags. Tags opening or closing
  inside a word, unknown tags and voice classes (``<v.loud Joe>``) are reported as lost.
* **Speakers** (decision): the voice of a ``<v Name>`` span is the speaker of its words (the
  span lasts to ``</v>`` or the end of the cue). Text outside voice spans follows the SRT
  reader's conventions: one speaker ``SUBTITLE``, a line starting with a dialogue dash ``-``
  switches between ``A`` and ``B`` (the dash is removed) where the file uses dashes
  consistently (:func:`segagree.formats.srt.uses_dialogue_dashes`), ``NAME:`` labels per
  ``speaker_labels`` (default ALL-CAPS only). Several voices on one line: each voice's words
  become a unit of their own, ending in ``<eol>`` (or ``<eob>`` at the end of the cue), so
  the writer puts each on a line of its own; this is reported (``lines-split``). A voice change
  inside a word gives the word to the first voice (reported).
* **Kept in meta** (``meta['vtt']``) and written back: the text after ``WEBVTT``, header lines
  (``Kind:``, ``Language:``, ``X-TIMESTAMP-MAP=...``), ``NOTE`` comments (before the first cue,
  between cues, at the end), ``STYLE`` and ``REGION`` blocks, each cue's identifier, settings
  and preceding notes (by cue number), empty cues. Also ``encoding``, ``line_endings``,
  ``cues``, ``empty_cues``, ``speaker_marks`` (as the SRT reader).
* **Reported as lost or repaired**: blocks that are neither cue, note, style nor region
  (ignored by every WebVTT parser), ``STYLE``/``REGION`` blocks the library ignores (after a
  cue), timestamps not in the standard form (``repaired``), and the markup above.
* **Refused** (:class:`InputError` naming the file, the cue and the line): no ``WEBVTT``
  signature, an unreadable timing line, a cue that ends before it starts, a cue starting
  before the previous cue (WebVTT requires cue start times in order; ``allow_unordered=True``
  reads such files), times beyond :data:`segagree.formats.timing.MAX_SECONDS` (an HLS segment
  file whose cues lie beyond it is first mapped by its ``X-TIMESTAMP-MAP=LOCAL:..,MPEGTS:..``
  header, RFC 8216 3.5: time = cue - LOCAL + MPEGTS / 90 kHz, reported ``times-changed``, the
  header then dropped), text that is not UTF-8.

Writing: one cue per ``<eob>`` unit of the ``subtitle`` layer, one line per unit ending in
``<eol>``, cues in document order, times rounded to milliseconds (``times-rounded``), invented
at 1 s per cue when missing (``times-invented``), interior token start times as timestamp tags.
A document without a ``subtitle`` layer is written one cue per unit with its endnote glued to
the last word (``layer-dropped``). Speakers (``speaker_marks``): ``"auto"`` writes dialogue
dashes when the speakers are the readers' anonymous ``SUBTITLE``/``A``/``B`` in their dash
alternation, else ``<v Name>...</v>`` on every line of a speaker other than ``SUBTITLE``;
``"voice"``, ``"dash"`` and ``"none"`` force one way. ``&``, ``<`` and ``>`` in words are
written as character references. The writer reads its own output back and reports any
difference from the document it was given (``round-trip``), so "lossless" is checked, not
assumed.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import webvtt
from webvtt.errors import MalformedCaptionError, MalformedFileError
from webvtt.models import Timestamp
from webvtt.vtt import WebVTTCueBlock

from segagree.errors import InputError, SegagreeError, UsageError
from segagree.files.encoding import decode_text, detect_encoding
from segagree.files.memory import read_bytes
from segagree.formats.base import Adapter, check_options
from segagree.formats.srt import (
    DASH,
    DEFAULT_SPEAKER,
    LABEL_ANY,
    LABEL_CAPS,
    apply_style_tag,
    cue_groups,
    cue_times,
    speaker_marks_mode,
    styled_line,
    subtitle_layer_to_write,
    uses_dialogue_dashes,
)
from segagree.formats.timing import MAX_SECONDS
from segagree.model import Document, Layer, builtin_scheme, from_units
from segagree.model.losses import LossReport, read_losses
from segagree.model.scheme import BoundaryScheme

_READ_OPTIONS = {"speaker_labels", "allow_unordered", "encoding"}
_WRITE_OPTIONS = {"layer", "speaker_marks"}
_EXPECTED_TIMING = "[HH:]MM:SS.mmm --> [HH:]MM:SS.mmm [cue settings]"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_STRICT_TIMING = WebVTTCueBlock.STRICT_CUE_TIMINGS_PATTERN
_LENIENT_TIMING = WebVTTCueBlock.CUE_TIMINGS_PATTERN
# Cue-text tags: '<' up to the next '>' (a '<' with no '>' after it is text, as in webvtt-py).
_TAG = re.compile(r"<([^>]*)>")
_TAG_PARTS = re.compile(r"^(/?)([^\s./]*)((?:\.[^\s.]*)*)(?:\s+(.*))?$", re.DOTALL)
_STYLE_TAGS = {"c", "i", "b", "u", "ruby", "rt", "lang"}
_SIGNATURE = re.compile(r"^WEBVTT(?:[ \t].*)?$")


def _split_lines(text: str) -> list[str]:
    """Lines as WebVTT (and webvtt-py) split them: on CR, LF and CRLF, no final empty line."""
    lines = _LINE_BREAK.split(text)
    if lines and not lines[-1]:
        lines.pop()
    return lines


def _blocks(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """(index of first line, lines) of each block, by the specification's rules as webvtt-py
    applies them: an empty line ends a block, and a line with ``-->`` starts a new one unless
    it can be the timing line of the current block (its first line, or its second after an
    identifier). Used only to check that the library returned every block."""
    block: list[str] = []
    first = 0
    in_header = True
    for i, line in enumerate(lines):
        if not line or (block and "-->" in line and (in_header or len(block) > 1 or "-->" in block[0])):
            if block:
                yield first, block
                block = []
                in_header = False
        if line:
            if not block:
                first = i
            block.append(line)
    if block:
        yield first, block


def _ms(ts: Timestamp) -> int:
    return ts.in_milliseconds()


def _stamp(ms: int) -> str:
    """Milliseconds as a WebVTT timestamp ``HH:MM:SS.mmm`` (hours may exceed two digits)."""
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, milli = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{milli:03d}"


@dataclass
class _Cue:
    """One cue of the file as read: the library's caption, its line, and its words."""

    caption: Any
    number: int  # 1-based among the file's cues
    line: int  # 1-based line number of the timing line
    units: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _ReadState:
    """What a read collects across cues: losses by kind and the A/B dash alternation."""

    speaker: str = DEFAULT_SPEAKER
    marks: set[str] = field(default_factory=set)
    offset: float = 0.0  # seconds added to every time (an HLS X-TIMESTAMP-MAP applied)
    dashes: bool = True  # whether a line-initial dash is a dialogue dash (a change of speaker)
    counts: dict[str, int] = field(default_factory=dict)
    first_place: dict[str, str] = field(default_factory=dict)

    def note(self, kind: str, place: str, n: int = 1) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + n
        self.first_place.setdefault(kind, place)


_LOSS_TEXT = {
    "lines-split": "lines holding several voices: each voice's words became a unit of their own ending in <eol>, "
    "so writing puts each voice on a line of its own",
    "timestamp-dropped": "timestamp tags not at the start of a word after the cue's first "
    "(inside a word, after the last word, superseded, or differing from the cue start) are not kept",
    "tag-dropped": "unknown or malformed cue-text tags are not kept",
    "markup-inside-word": "tags opening or closing inside a word (or a voice change inside a word): "
    "the word takes the markup of its first letter",
    "voice-classes": "classes on voice tags (<v.class Name>) are not kept",
    "rolling-repeats": "rolling captions (YouTube automatic captions): lines repeating the previous cue's last "
    "line(s) were collapsed, so each word is read once, as a viewer sees it (count: repeated lines dropped)",
    "rolling-flash-cues": "rolling captions: short cues holding only the repeated line were dropped (their times "
    "are lost)",
}


def _scan_line(line: str, stack: list[tuple[str, str]], voice: list[str | None], state: _ReadState, place: str):
    """Strip cue-text markup from one line.

    Returns (text, style per char, voice per char, timestamps as (char index, seconds)).
    ``stack`` (open style tags) and ``voice`` (a one-item list: the open voice) carry over to
    the next line of the cue.
    """
    chars: list[str] = []
    styles: list[str] = []
    voices: list[str | None] = []
    stamps: list[tuple[int, float]] = []

    def text(segment: str) -> None:
        decoded = html.unescape(segment)
        style = "".join(t for _, t in stack)
        chars.extend(decoded)
        styles.extend([style] * len(decoded))
        voices.extend([voice[0]] * len(decoded))

    pos = 0
    for m in _TAG.finditer(line):
        if m.start() > pos:
            text(line[pos : m.start()])
        pos = m.end()
        content = m.group(1)
        if content[:1].isdigit():
            try:
                stamps.append((len(chars), Timestamp.from_string(content).in_milliseconds() / 1000))
            except MalformedCaptionError:
                state.note("tag-dropped", place)
            continue
        parts = _TAG_PARTS.match(content)
        name = parts.group(2) if parts else ""
        closing = bool(parts and parts.group(1))
        if name == "v":
            if closing:
                voice[0] = None
                continue
            annotation = " ".join((parts.group(4) or "").split()) if parts else ""
            if parts and parts.group(3):
                state.note("voice-classes", place)
            voice[0] = html.unescape(annotation) or None
            if voice[0] is None:
                state.note("tag-dropped", place)
            continue
        if parts is None or name not in _STYLE_TAGS:
            state.note("tag-dropped", place)
            continue
        apply_style_tag(stack, name, closing, m.group(0))
    if pos < len(line):
        text(line[pos:])
    return "".join(chars), styles, voices, stamps


def _cue_units(cue: _Cue, state: _ReadState, label_res: list[re.Pattern[str]], skip_lines: int = 0) -> None:
    """Fill ``cue.units``: one unit per line (per voice within a line), tokens, styles, times.

    The first ``skip_lines`` lines are scanned (their tags carry over) but give no words: they
    repeat the previous cue's last lines in rolling captions (:func:`rolling_repeats`)."""
    cap = cue.caption
    place = f"cue {cue.number}, line {cue.line}"
    stack: list[tuple[str, str]] = []
    voice: list[str | None] = [None]
    pending: list[float] = []  # timestamps waiting for the next word
    units: list[dict[str, Any]] = []
    for line_no, raw in enumerate(cap.lines):
        plain, styles, voices, stamps = _scan_line(raw, stack, voice, state, place)
        if line_no < skip_lines:
            continue
        stamp_iter = iter(sorted(stamps))
        next_stamp = next(stamp_iter, None)
        pos = len(plain) - len(plain.lstrip())
        rest = plain[pos:]
        m = DASH.match(rest) if state.dashes else None
        if m:
            state.speaker = "B" if state.speaker == "A" else "A"
            state.marks.add("dash")
            pos += m.end()
            rest = plain[pos:]
        if pos < len(plain) and voices[pos] is None:
            for rx in label_res:
                lm = rx.match(rest)
                if lm:
                    state.speaker = lm.group(1)
                    state.marks.add("label")
                    pos += lm.end()
                    break
        line_units: list[dict[str, Any]] = []
        for tm in re.finditer(r"\S+", plain[pos:]):
            a, b = tm.start() + pos, tm.end() + pos
            while next_stamp is not None and next_stamp[0] <= a:
                pending.append(next_stamp[1])
                next_stamp = next(stamp_iter, None)
            while next_stamp is not None and next_stamp[0] < b:
                state.note("timestamp-dropped", place)  # inside the word
                next_stamp = next(stamp_iter, None)
            if len(pending) > 1:
                state.note("timestamp-dropped", place, len(pending) - 1)
            start = pending[-1] + state.offset if pending else math.nan
            pending.clear()
            if len(set(styles[a:b])) > 1 or len(set(voices[a:b])) > 1:
                state.note("markup-inside-word", place)
            spk = voices[a] if voices[a] is not None else state.speaker
            if voices[a] is not None:
                state.marks.add("voice")
            if not line_units or line_units[-1]["speaker"] != spk:
                line_units.append({"speaker": spk, "tokens": [], "token_starts": [], "styles": []})
            unit = line_units[-1]
            unit["tokens"].append(tm.group(0))
            unit["token_starts"].append(start)
            unit["styles"].append(styles[a])
        while next_stamp is not None:
            pending.append(next_stamp[1])
            next_stamp = next(stamp_iter, None)
        if len(line_units) > 1:
            state.note("lines-split", place)
        for unit in line_units:
            unit["boundary"] = 2  # <eol>; the cue's last unit gets <eob> below
        units.extend(line_units)
    if pending:
        state.note("timestamp-dropped", place, len(pending))
    if not units:
        return
    start, end = _ms(cap.start_time) / 1000 + state.offset, _ms(cap.end_time) / 1000 + state.offset
    for unit in units:
        for s in unit["token_starts"]:
            if not math.isnan(s) and not start <= s <= end:
                raise InputError(
                    f"timestamp tag {s:.3f} s lies outside its cue ({cap.start} --> {cap.end}); "
                    "expected a time between the cue's start and end",
                    place=place,
                )
    first = units[0]["token_starts"]
    if not math.isnan(first[0]) and abs(first[0] - start) > 5e-4:
        state.note("timestamp-dropped", place)
    first[0] = start
    units[0]["start"] = start
    units[-1]["end"] = end
    units[-1]["boundary"] = 1  # <eob>
    cue.units = units


_TIMESTAMP_MAP = re.compile(r"^X-TIMESTAMP-MAP=(.*)$")
# The MPEG-TS clock HLS segments are timed against: 90 kHz.
_MPEGTS_HZ = 90_000


def _hls_offset(metadata: list[str], captions: list[Any]) -> tuple[float, str] | None:
    """The shift (seconds) that an ``X-TIMESTAMP-MAP=LOCAL:<cue time>,MPEGTS:<90 kHz ticks>``
    header gives cue times, with the header line, when a cue ends beyond :data:`MAX_SECONDS`
    (an HLS segment timed on its source's clock): LOCAL is the cue time of MPEG-TS time
    MPEGTS / 90,000 s (RFC 8216, section 3.5). None when no cue needs it or there is no map."""
    if not any(_ms(cap.end_time) / 1000 > MAX_SECONDS for cap in captions):
        return None
    for line in metadata:
        m = _TIMESTAMP_MAP.match(line.strip())
        if m is None:
            continue
        fields = dict(part.split(":", 1) for part in m.group(1).split(",") if ":" in part)
        try:
            local = Timestamp.from_string(fields["LOCAL"].strip()).in_milliseconds() / 1000
            mpegts = int(fields["MPEGTS"].strip())
        except (KeyError, ValueError, MalformedCaptionError):
            return None
        return mpegts / _MPEGTS_HZ - local, line.strip()
    return None


def _timing_times(line: str) -> tuple[int, int] | None:
    m = _LENIENT_TIMING.match(line)
    if m is None:
        return None
    try:
        return Timestamp.from_string(m.group(1)).in_milliseconds(), Timestamp.from_string(m.group(2)).in_milliseconds()
    except MalformedCaptionError:
        return None


def _scan_blocks(
    lines: list[str], vtt: Any, captions: list[Any], hls: tuple[float, str] | None, allow_unordered: bool, path: Path
) -> tuple[list[_Cue], list[int], int]:
    """Walk the file's blocks as webvtt-py does, checking each cue's timing line against the
    library's caption (order, reversed times, the ten-day limit after any HLS map); return the
    cues, the lines of blocks that are ignored and the number of timings read leniently."""
    offset = hls[0] if hls else 0.0
    cues: list[_Cue] = []
    n_styles = n_regions = 0
    seen_cue = False
    ignored: list[int] = []
    repaired = 0
    for n, (first, block) in enumerate(_blocks(lines)):
        if n == 0:
            continue  # the header: signature and metadata lines
        if any("-->" in line for line in block):
            timing_at = 0 if "-->" in block[0] else 1
            timing = block[timing_at]
            where = f"cue {len(cues) + 1}, line {first + timing_at + 1}"
            times = _timing_times(timing)
            cap = captions[len(cues)] if len(cues) < len(captions) else None
            if times is None or cap is None or times != (_ms(cap.start_time), _ms(cap.end_time)):
                raise InputError(
                    f"malformed cue timing line {timing.strip()[:80]!r}; expected {_EXPECTED_TIMING}",
                    path=path,
                    place=where,
                )
            if _STRICT_TIMING.match(timing) is None:
                repaired += 1
            start, end = times
            if end < start:
                raise InputError(
                    f"cue ends before it starts ({timing.strip()[:80]!r}); expected start <= end",
                    path=path,
                    place=where,
                )
            if cues and start < _ms(cues[-1].caption.start_time) and not allow_unordered:
                raise InputError(
                    f"cue starts ({cap.start}) before the previous cue ({cues[-1].caption.start}); WebVTT expects cue "
                    "start times in order (allow_unordered=True reads it anyway)",
                    path=path,
                    place=where,
                )
            if end / 1000 + offset > MAX_SECONDS or start / 1000 + offset < 0:
                hint = (
                    " (an HLS segment file: its X-TIMESTAMP-MAP header offsets the times)"
                    if any(m.startswith("X-TIMESTAMP-MAP") for m in vtt.metadata)
                    else ""
                )
                raise InputError(
                    f"cue time {cap.end} is beyond {MAX_SECONDS / 3600:.0f} hours{hint}; expected times a recording "
                    "can have" + (f" (also after applying {hls[1]})" if hls else ""),
                    path=path,
                    place=where,
                )
            cues.append(_Cue(cap, len(cues) + 1, first + timing_at + 1))
            seen_cue = True
        elif block[0].startswith("NOTE"):
            continue
        elif block[0] == "STYLE" and len(block) >= 2:
            n_styles += 1
        elif block[0].startswith("REGION") and not block[0][6:].strip(" \t\x0c"):
            n_regions += 0 if seen_cue else 1
            if seen_cue:
                ignored.append(first + 1)
        else:
            ignored.append(first + 1)
    if len(cues) != len(captions):
        raise InputError(
            f"found {len(cues)} cue timing lines but the WebVTT parser found {len(captions)} cues; "
            "the block structure is not understood",
            path=path,
        )
    if n_styles != len(vtt.styles) or n_regions != len(vtt.regions):
        raise InputError(
            f"found {n_styles} STYLE and {n_regions} REGION blocks, the WebVTT parser {len(vtt.styles)} and "
            f"{len(vtt.regions)}; the block structure is not understood",
            path=path,
        )
    return cues, ignored, repaired


def _plain_lines(lines: list[str]) -> list[str]:
    """A cue's lines as a viewer reads them: tags removed, references decoded, spaces collapsed."""
    return [" ".join(html.unescape(_TAG.sub("", line)).split()) for line in lines]


def _longest_overlap(before: list[str], after: list[str]) -> int:
    """The largest k with ``after[:k] == before[-k:]`` (0 if none), in time linear in the lines:
    the prefix function (Knuth, Morris & Pratt 1977) of ``after``, then ``before``'s last lines
    run through it as through a text, so that no pair of slices is compared for every k."""
    n = min(len(before), len(after))
    if not n:
        return 0
    pattern, text = after[:n], before[len(before) - n :]
    fail = [0] * n  # fail[q]: the longest proper border of pattern[: q + 1]
    k = 0
    for q in range(1, n):
        while k and pattern[q] != pattern[k]:
            k = fail[k - 1]
        if pattern[q] == pattern[k]:
            k += 1
        fail[q] = k
    k = 0  # how much of the pattern the text's end matches
    for line in text:
        while k and (k == n or line != pattern[k]):
            k = fail[k - 1]
        if line == pattern[k]:
            k += 1
    return k


def rolling_repeats(cue_lines: list[list[str]], cue_times: list[tuple[int, int]]) -> list[int] | None:
    """How many leading lines of each cue repeat the previous cue's last lines, when the file
    is a rolling caption track (YouTube automatic captions as yt-dlp saves them); else None.

    In a rolling track each cue starts where the previous one ends and shows the previous cue's
    last line again above a new line, and 10 ms "flash" cues hold only that line, so a viewer
    sees every word once. For cue *i* (times in ms) the count is the largest *k* >= 1 with the
    first *k* non-blank lines of cue *i* equal to the last *k* non-blank lines of cue *i - 1*
    (tags removed, blank lines before them included), counted only when cue *i* starts at or
    before cue *i - 1*'s end. The track counts as rolling when at least two cues, and at least
    half of the cues after the first, start with such a repeat, and at least one of them adds
    a new line below it (a roll); subtitles that merely say the same thing twice are read as
    written.
    """
    skips: list[int] = [0] * len(cue_lines)
    previous: list[str] = []
    rolled = False
    for i, lines in enumerate(cue_lines):
        plain = _plain_lines(lines)
        shown = [line for line in plain if line]
        best = 0
        if i and cue_times[i][0] <= cue_times[i - 1][1]:
            best = _longest_overlap(previous, shown)
        if best:
            rolled = rolled or best < len(shown)
            # Count raw lines up to the best-th non-blank one (blank lines before it go too).
            seen = 0
            for j, line in enumerate(plain):
                seen += 1 if line else 0
                if seen == best:
                    skips[i] = j + 1
                    break
        if shown:
            previous = shown
    repeated = sum(1 for k in skips if k)
    if rolled and repeated >= 2 and repeated * 2 >= len(cue_lines) - 1:
        return skips
    return None


def _cue_unit_list(
    cues: list[_Cue], state: _ReadState, label_res: list[re.Pattern[str]], offset: float, path: Path
) -> tuple[list[dict[str, Any]], list[str], dict[str, dict[str, Any]], list[dict[str, Any]], int]:
    """The units of every cue (see :func:`_cue_units`), their styles, each written cue's kept
    identifier, settings and notes (by cue number), the empty cues and the number written."""
    units: list[dict[str, Any]] = []
    styles: list[str] = []
    cue_meta: dict[str, dict[str, Any]] = {}
    empty: list[dict[str, Any]] = []
    n_written = 0
    skips = rolling_repeats(
        [list(cue.caption.lines) for cue in cues], [(_ms(c.caption.start_time), _ms(c.caption.end_time)) for c in cues]
    ) or [0] * len(cues)
    for cue, skip in zip(cues, skips, strict=True):
        try:
            _cue_units(cue, state, label_res, skip)
        except InputError as err:
            err.path = str(path)
            raise
        cap = cue.caption
        if skip:
            state.note(
                "rolling-repeats",
                f"cue {cue.number}, line {cue.line}",
                sum(1 for line in _plain_lines(cap.lines[:skip]) if line),
            )
            if not cue.units:
                # A flash cue: only the repeated line(s), shown for a moment; nothing new to keep.
                state.note("rolling-flash-cues", f"cue {cue.number}, line {cue.line}")
                continue
        extra = {
            k: v
            for k, v in (
                ("identifier", cap.identifier or ""),
                ("settings", str(cap.settings)),
                ("comments", list(cap.comments)),
            )
            if v
        }
        if not cue.units:
            c_start, c_end = cap.start, cap.end
            if offset:
                c_start = _stamp(round(_ms(cap.start_time) + offset * 1000))
                c_end = _stamp(round(_ms(cap.end_time) + offset * 1000))
            empty.append({"after": n_written, "start": c_start, "end": c_end, "lines": list(cap.lines), **extra})
            continue
        n_written += 1
        if extra:
            cue_meta[str(n_written)] = extra
        for unit in cue.units:
            styles.extend(unit.pop("styles"))
            units.append(unit)
    return units, styles, cue_meta, empty, n_written


_COMMA_TIMING = re.compile(r"^(\s*(?:\d+:)?\d{1,2}:\d{2}),(\d{3}\s+-->\s+(?:\d+:)?\d{1,2}:\d{2}),(\d{3})(?=\s|$)")


def _dot_timings(text: str) -> tuple[str, list[int], list[int]]:
    """Repair the two marks of WebVTT/SRT hybrids: SubRip-style timing lines (``00:00:01,234
    --> 00:00:02,345``) get WebVTT's dot, and a SubRip cue number standing right after the
    previous cue's text (no blank line between cues) is blanked, since WebVTT would read it as
    that cue's last line of text. A number counts only when it is the cue's number in the file
    (one more than the timing lines before it). Returns the text and the 1-based numbers of the
    lines changed by each repair; line numbers stay those of the file."""
    if "-->" not in text:
        return text, [], []
    commas: list[int] = []
    numbers: list[int] = []
    parts = re.split(r"(\r\n|\r|\n)", text)
    lines = parts[0::2]
    n_timings = 0
    for i, line in enumerate(lines):
        if "-->" not in line:
            continue
        fixed = _COMMA_TIMING.sub(r"\1.\2.\3", line)
        if fixed != line:
            lines[i] = fixed
            commas.append(i + 1)
        n_timings += 1
        if i >= 2 and lines[i - 1].strip() == str(n_timings) and lines[i - 2] != "" and n_timings > 1:
            lines[i - 1] = ""
            numbers.append(i)
    parts[0::2] = lines
    return "".join(parts), commas, numbers


_NOT_TEXT = ("NOTE", "STYLE", "REGION")


def _blank_first_lines(text: str) -> tuple[str, list[int]]:
    """Repair rolling captions whose cues start with a blank line: yt-dlp writes a line holding
    one space under each timing line, which editors (and copies from a page) strip to an empty
    line, and WebVTT then reads an empty cue and a text block without a timing line. An empty
    line right after a timing line, followed by such a block (no ``-->`` in it, not a NOTE),
    gets its space back. Returns the text and the 1-based numbers of the lines changed."""
    if "-->" not in text:
        return text, []
    parts = re.split(r"(\r\n|\r|\n)", text)
    lines = parts[0::2]
    changed: list[int] = []
    for i in range(len(lines) - 2):
        if "-->" not in lines[i] or lines[i + 1] != "" or not lines[i + 2].strip():
            continue
        end = next((j for j in range(i + 2, len(lines)) if not lines[j]), len(lines))
        block = lines[i + 2 : end]
        if block[0].startswith(_NOT_TEXT) or any("-->" in line for line in block):
            continue
        lines[i + 1] = " "
        changed.append(i + 2)
    parts[0::2] = lines
    return "".join(parts), changed


def _parse(text: str, path: Path, *, labels_opt: Any = "caps", allow_unordered: bool = False) -> Document:
    """Parse decoded WebVTT text (see the module docstring); ``path`` names the file in errors."""
    label_res = {"caps": [LABEL_CAPS], "any": [LABEL_CAPS, LABEL_ANY]}.get(labels_opt or "", [])
    text, commas, numbers = _dot_timings(text)
    text, blanks = _blank_first_lines(text)
    lines = _split_lines(text)
    if not lines or not _SIGNATURE.match(lines[0]):
        got = lines[0][:40] if lines else ""
        raise InputError(
            f"no WebVTT signature (first line {got!r}); expected a first line 'WEBVTT', optionally followed by "
            "a space or tab and text",
            path=path,
            place="line 1",
        )
    try:
        vtt = webvtt.from_string(text)
    except (MalformedFileError, MalformedCaptionError, ValueError, TypeError, IndexError, AttributeError) as err:
        raise InputError(f"the WebVTT parser (webvtt-py) refused the file: {err}", path=path) from None

    losses = read_losses()
    captions = list(vtt.captions)
    hls = _hls_offset(list(vtt.metadata), captions)
    offset = hls[0] if hls else 0.0
    cues, ignored, repaired = _scan_blocks(lines, vtt, captions, hls, allow_unordered, path)
    if ignored:
        losses.add(
            "block-ignored",
            "blocks that are neither a cue, a NOTE, a STYLE nor a REGION (before the first cue) are ignored, "
            "as WebVTT parsers do: a text block without a timing line is not read",
            where=f"line {ignored[0]}",
            count=len(ignored),
        )
    if commas:
        losses.add(
            "repaired",
            "cue timings with a comma before the milliseconds (SubRip's HH:MM:SS,mmm) were read as WebVTT's "
            "HH:MM:SS.mmm",
            where=f"line {commas[0]}",
            count=len(commas),
        )
    if numbers:
        losses.add(
            "repaired",
            "SubRip cue numbers right after the previous cue's text (no blank line between cues) were read as cue "
            "numbers, not as text",
            where=f"line {numbers[0]}",
            count=len(numbers),
        )
    if blanks:
        losses.add(
            "repaired",
            "an empty line right under a cue's timing line, followed by text without a timing line, was read as "
            "the cue's first line (yt-dlp's rolling captions write a space there, which editors remove)",
            where=f"line {blanks[0]}",
            count=len(blanks),
        )
    if repaired:
        losses.add(
            "repaired",
            "cue timings not in the form HH:MM:SS.mmm (such as 0:0:0.0) were read leniently; they are written "
            "in the standard form",
            count=repaired,
        )

    state = _ReadState(offset=offset, dashes=uses_dialogue_dashes(cap.lines for cap in captions))
    metadata = list(vtt.metadata)
    if hls:
        metadata.remove(hls[1])  # the times are mapped: the header would now shift them twice
        losses.add(
            "times-changed",
            f"cue times are on an HLS source clock beyond {MAX_SECONDS / 86400:.0f} days; {hls[1]} was applied "
            f"(times moved by {offset:+.3f} s to MPEG-TS time) and is not kept",
            where=f"line {next(i for i, line in enumerate(lines, 1) if line.strip() == hls[1])}",
            count=len(captions),
        )
    units, styles, cue_meta, empty, n_written = _cue_unit_list(cues, state, label_res, offset, path)
    for kind, count in state.counts.items():
        losses.add(kind, _LOSS_TEXT[kind], where=state.first_place[kind], count=count)

    meta: dict[str, Any] = {
        "cues": n_written,
        "empty_cues": len(empty),
        "speaker_marks": "+".join(sorted(state.marks)) or "none",
        "vtt": {
            "header_text": vtt.header_text,
            "metadata": metadata,
            "header_comments": list(vtt.header_comments),
            "footer_comments": list(vtt.footer_comments),
            "styles": [{"text": s.text, "comments": list(s.comments)} for s in vtt.styles],
            "regions": [{"settings": str(r), "comments": list(r.comments)} for r in vtt.regions],
            "cues": cue_meta,
            "empty_cues": empty,
        },
    }
    doc = from_units(
        path.stem,
        units,
        layer="subtitle",
        scheme=builtin_scheme("subtitle"),
        source_path=str(path),
        source_format="vtt",
        meta=meta,
        # A file with no words is an honest empty document of the one default speaker.
        speakers=None if units else [DEFAULT_SPEAKER],
    )
    if any(styles):
        doc.set_column("vtt_style", styles)
    doc.losses = losses
    return doc


def read(path: Path, *, scheme: BoundaryScheme, **options: Any) -> Document:
    """Read a WebVTT file into a Document with one ``subtitle`` layer (see the module docstring).

    ``scheme`` (the endnote scheme of unit layers) is not used: subtitle boundaries always use
    the built-in ``subtitle`` scheme. A file with no words (only ``WEBVTT``, or only empty cues)
    gives a Document with no tokens.

    Options:
        speaker_labels: ``"caps"`` (default), ``"any"`` or ``False``, as for SRT.
        allow_unordered: read cues whose start is before the previous cue's.
    """
    check_options(options, _READ_OPTIONS, "WebVTT reader")
    labels_opt = options.get("speaker_labels", "caps")
    if labels_opt not in ("caps", "any", False, None):
        raise UsageError(f"speaker_labels must be 'caps', 'any' or False, got {labels_opt!r}")
    path = Path(path)
    raw = read_bytes(path)
    text = decode_text(raw, path, fallback=None, encoding=options.get("encoding"))
    if "\x00" in text:
        raise InputError("NUL character in the text; expected a UTF-8 text file", path=path)
    doc = _parse(text, path, labels_opt=labels_opt, allow_unordered=bool(options.get("allow_unordered")))
    doc.meta["encoding"] = detect_encoding(raw)
    doc.meta["line_endings"] = "CRLF" if "\r\n" in text else ("CR" if "\r" in text else "LF")
    return doc


# --- writing -----------------------------------------------------------------------------

_TAG_NAME = re.compile(r"<\s*([a-zA-Z]+)")
_SRT_TO_VTT = re.compile(r"<\s*(b|i|u)\s*>", re.IGNORECASE)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _style_column(doc: Document, losses: LossReport) -> list[str]:
    """Per-token opening tags: ``vtt_style`` as read, or SRT's ``style`` mapped to WebVTT."""
    n = doc.n_tokens
    tok = doc.tokens
    if "vtt_style" in tok:
        return tok["vtt_style"].fillna("").astype(str).tolist()
    if "style" not in tok:
        return [""] * n
    out: list[str] = []
    dropped = 0
    for style in tok["style"].fillna("").astype(str).tolist():
        kept = "".join(f"<{m.lower()}>" for m in _SRT_TO_VTT.findall(style))
        if _SRT_TO_VTT.sub("", style).strip():
            dropped += 1
        out.append(kept)
    if dropped:
        losses.add(
            "style-dropped",
            "WebVTT has <b>, <i> and <u> but no <s>, <font> or ASS blocks ({\\an8}); those styles are not written",
            count=dropped,
        )
    return out


def _voice_name(name: str) -> str:
    """A speaker name as a ``<v>`` annotation the reader gives back exactly: ``&``, ``<`` and ``>``
    escaped, and every white-space character the reader would fold (a line break, a tab, runs,
    spaces at the ends) as a character reference (``&#10;``)."""
    out = []
    for i, ch in enumerate(name):
        if ch.isspace() and not (
            ch == " " and 0 < i < len(name) - 1 and not name[i - 1].isspace() and not name[i + 1].isspace()
        ):
            out.append(f"&#{ord(ch)};")
        else:
            out.append(_escape(ch))
    return "".join(out)


def _voice_read_back(annotation: str) -> str | None:
    """The speaker the reader makes of a ``<v>`` annotation (its rule in :func:`_scan_line`)."""
    return html.unescape(" ".join(annotation.split())) or None


def write(doc: Document, path: Path, *, losses: LossReport, **options: Any) -> None:
    """Write ``doc`` as WebVTT (see the module docstring).

    Options:
        layer: the layer to write (default: ``subtitle`` if present, else the unit layer).
        speaker_marks: ``"auto"`` (default), ``"voice"``, ``"dash"`` or ``"none"``.
    """
    _refuse_nul(doc, path)
    check_options(options, _WRITE_OPTIONS, "WebVTT writer")
    marks_opt = options.get("speaker_marks", "auto")
    if marks_opt not in ("auto", "voice", "dash", "none"):
        raise UsageError(f"speaker_marks must be auto, voice, dash or none, got {marks_opt!r}")
    layer, eob, eol, subtitle_mode = subtitle_layer_to_write(doc, options.get("layer"), losses, "WebVTT")
    scheme = layer.scheme
    extra = [c for c in doc.meta_columns() if c not in ("style", "vtt_style")]
    if extra:
        losses.add("meta-dropped", f"token columns {extra} have no place in WebVTT")
    _note_unplaced(doc, losses)

    tok = doc.tokens
    texts = tok["text"].astype(str).tolist()
    style_col = _style_column(doc, losses)
    starts = tok["start"].to_numpy(dtype=float)
    ends = tok["end"].to_numpy(dtype=float)

    cues = cue_groups(doc, layer.name, texts, subtitle_mode=subtitle_mode, eol=eol, scheme=scheme)

    spans, invented = cue_times(cues, starts, ends, losses, "WebVTT")
    ms_spans = _ms_spans(spans, losses)

    # Speaker marks, as the SRT writer chooses them, with voices instead of NAME: labels.
    mode = speaker_marks_mode(cues, marks_opt, "voice", losses)

    # Interior word start times become timestamp tags; interior end times have no place.
    interior_ends = 0
    dropped_starts = 0
    unwritten_starts: list[int] = []
    unwritten_ends: list[int] = []
    kept_vtt = doc.meta.get("vtt")
    vmeta: dict[str, Any] = kept_vtt if isinstance(kept_vtt, dict) else {}
    # Per-cue meta is keyed by cue number: written only while the cues are those that were read
    # (also after a detour through the native JSON, which keeps meta).
    cue_meta, empty = _kept_cue_meta(doc, len(cues), vmeta, losses)

    captions: list[Any] = []
    odd_voices: set[str] = set()

    def add_empty(after: int) -> None:
        for e in empty:
            if e.get("after") == after:
                cap = webvtt.Caption(e["start"], e["end"], list(e.get("lines") or []), e.get("identifier") or None)
                cap.settings = e.get("settings") or None
                cap.comments = list(e.get("comments") or [])
                captions.append(cap)

    try:
        add_empty(0)
        prev = DEFAULT_SPEAKER
        for n, (cue, (s_ms, e_ms)) in enumerate(zip(cues, ms_spans, strict=True), start=1):
            out_lines: list[str] = []
            last_row = cue[-1][1][-1]
            for k, (spk, rows, words) in enumerate(cue):
                shown: list[str] = []
                for j, (r, w) in enumerate(zip(rows, words, strict=True)):
                    word = _escape(w)
                    if r != last_row and not math.isnan(ends[r]):
                        interior_ends += 1
                        unwritten_ends.append(r)
                    if (k or j) and not math.isnan(starts[r]) and not invented:
                        t = round(starts[r] * 1000)
                        if s_ms <= t <= e_ms:
                            word = f"<{_stamp(t)}>{word}"
                        else:
                            dropped_starts += 1
                            unwritten_starts.append(r)
                    shown.append(word)
                body = styled_line(shown, [style_col[r] for r in rows])
                if mode == "dash" and spk != prev:
                    body = "- " + body
                elif mode == "voice" and spk != DEFAULT_SPEAKER:
                    voice = _voice_name(spk)
                    if _voice_read_back(voice) != spk:
                        odd_voices.add(spk)
                    body = f"<v {voice}>{body}</v>"
                prev = spk
                out_lines.append(body)
            kept_cue = cue_meta.get(str(n)) or {}
            cap = webvtt.Caption(
                _stamp(s_ms),
                _stamp(e_ms),
                out_lines,
                kept_cue.get("identifier") or None,
            )
            cap.settings = kept_cue.get("settings") or None
            cap.comments = list(kept_cue.get("comments") or [])
            captions.append(cap)
            add_empty(n)
        out = webvtt.WebVTT(
            captions=captions,
            styles=[_style(s) for s in vmeta.get("styles") or []],
            header_comments=list(vmeta.get("header_comments") or []),
            footer_comments=list(vmeta.get("footer_comments") or []),
            header_text=str(vmeta.get("header_text") or ""),
            metadata=list(vmeta.get("metadata") or []),
            regions=[_region(r) for r in vmeta.get("regions") or []],
        )
        text = out.content
    except (MalformedCaptionError, ValueError, TypeError, KeyError) as err:
        raise SegagreeError(f"cannot write WebVTT: {err}", path=path) from None
    _note_word_times(interior_ends, dropped_starts, losses)
    losses.add_items(
        "speaker-changed", "speaker names a <v> voice tag cannot give back as written", sorted(map(repr, odd_voices))
    )
    if subtitle_mode:
        _check_round_trip(doc, layer.name, text, Path(path), losses, unwritten_starts, unwritten_ends, invented)
    Path(path).write_bytes(_encoded(text, doc, bool(vmeta)))


def _note_word_times(interior_ends: int, dropped_starts: int, losses: LossReport) -> None:
    """Word times WebVTT cannot hold: end times inside a cue, start times outside its span."""
    losses.add_count(
        "times-dropped", "WebVTT has no end times for words inside a cue; they are not written", interior_ends
    )
    if dropped_starts:
        losses.add(
            "times-dropped",
            "word start times outside their cue's span cannot be WebVTT timestamp tags; they are not written",
            count=dropped_starts,
        )


def _encoded(text: str, doc: Document, from_vtt: bool) -> bytes:
    """UTF-8 bytes, with the line ends and BOM of the WebVTT file the document was read from."""
    if from_vtt and doc.meta.get("line_endings") == "CRLF":
        text = text.replace("\n", "\r\n")
    data = text.encode("utf-8")
    if from_vtt and doc.meta.get("encoding") == "utf-8-sig":
        data = b"\xef\xbb\xbf" + data
    return data


def _ms_spans(spans: list[tuple[float, float]], losses: LossReport) -> list[tuple[int, int]]:
    """Cue spans in whole milliseconds (end at least start); cues out of start order reported."""
    ms_spans = [(round(s * 1000), max(round(e * 1000), round(s * 1000))) for s, e in spans]
    unordered = sum(1 for k in range(1, len(ms_spans)) if ms_spans[k][0] < ms_spans[k - 1][0])
    if unordered:
        losses.add(
            "cues-unordered",
            "WebVTT expects cue start times in order; cues starting before the previous one are written in "
            "document order (read them back with allow_unordered=True)",
            count=unordered,
        )
    return ms_spans


def _kept_cue_meta(
    doc: Document, n_cues: int, vmeta: dict[str, Any], losses: LossReport
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Per-cue meta (identifiers, settings, notes by cue number) and the empty cues a WebVTT
    reader kept: written only while the cues are those that were read (also after a detour
    through the native JSON, which keeps meta)."""
    keep_cue_meta = bool(vmeta) and doc.meta.get("cues") == n_cues
    if vmeta and not keep_cue_meta and (vmeta.get("cues") or vmeta.get("empty_cues")):
        losses.add(
            "meta-dropped",
            "the number of cues changed since reading; cue identifiers, settings, notes and empty cues are not written",
        )
    cue_meta = (vmeta.get("cues") or {}) if keep_cue_meta else {}
    empty = list(vmeta.get("empty_cues") or []) if keep_cue_meta else []
    return cue_meta, empty


def _refuse_nul(doc: Document, path: Path) -> None:
    """The reader refuses NUL characters (no text file holds them): refuse to write one."""
    for speaker in doc.speakers:
        if "\x00" in speaker:
            raise SegagreeError(f"speaker {speaker!r} holds a NUL character WebVTT cannot hold", path=path)
    bad = [i for i, t in enumerate(doc.tokens["text"].astype(str)) if "\x00" in t]
    if bad:
        raise SegagreeError(
            f"token {doc.tokens['text'].iat[bad[0]]!r} (row {bad[0] + 1}) holds a NUL character WebVTT cannot hold",
            path=path,
        )


def _note_unplaced(doc: Document, losses: LossReport) -> None:
    """Speakers without words (WebVTT names speakers only in voice spans of cues; a file without
    words reads back with the reader's one anonymous speaker, SUBTITLE) and SRT cue coordinates."""
    silent = [s for s in doc.speakers if not (doc.tokens["speaker"] == s).any()]
    if not doc.n_tokens and silent == ["SUBTITLE"]:
        silent = []
    if silent:
        losses.add("speakers-dropped", "speakers without words have no cue to name them", where=", ".join(silent))
    if doc.meta.get("cue_proprietary"):
        losses.add(
            "meta-dropped",
            "SRT cue coordinates (X1:.. Y2:.. after the timing) have no place in WebVTT",
            count=len(doc.meta["cue_proprietary"]),
        )


def _style(s: dict[str, Any]) -> Any:
    style = webvtt.Style(str(s.get("text") or ""))
    style.comments = list(s.get("comments") or [])
    return style


def _region(r: dict[str, Any]) -> Any:
    region = webvtt.Region.from_string(str(r.get("settings") or ""))
    region.comments = list(r.get("comments") or [])
    return region


def _check_round_trip(
    doc: Document,
    layer: str,
    text: str,
    path: Path,
    losses: LossReport,
    unwritten_starts: list[int],
    unwritten_ends: list[int],
    times_invented: bool,
) -> None:
    """Read the written text back; report any difference from ``doc`` as a loss, beyond the
    word times already reported as not written (all times, when they were invented)."""
    try:
        back = _parse(text, path, allow_unordered=True)
    except SegagreeError as err:
        losses.add("round-trip", f"the written file cannot be read back: {err.message}")
        return
    lay = doc.layers[layer]
    expected = doc.tokens[["speaker", "text", "start", "end"]].copy()
    expected.loc[unwritten_starts, "start"] = np.nan
    expected.loc[unwritten_ends, "end"] = np.nan
    if times_invented:
        expected[["start", "end"]] = (
            back.tokens[["start", "end"]].to_numpy() if len(back.tokens) == len(expected) else np.nan
        )
    sub = Document(
        name=doc.name,
        speakers=list(doc.speakers),
        tokens=expected,
        layers={"subtitle": Layer("subtitle", lay.scheme, lay.boundaries)},
    )
    diffs = sub.differences(back, time_tol=5e-4)
    if diffs:
        losses.add("round-trip", f"reading the written file back differs: {diffs[0]}", count=len(diffs))


ADAPTER = Adapter(
    name="vtt",
    extensions=(".vtt",),
    description="WebVTT subtitles: cues and line breaks as <eob>/<eol> boundaries, <v> voices as speakers",
    read=read,
    write=write,
)
