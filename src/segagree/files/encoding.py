"""Decoding annotation files: a BOM, UTF-16, UTF-8 (strict, then with a few stray bytes), or a
legacy code page chosen by how plausible the decoded text is; notes of what was guessed."""

from __future__ import annotations

import codecs
import contextlib
import contextvars
import functools
import gc
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from segagree.errors import InputError, UsageError
from segagree.model.losses import Loss, LossReport


def _log() -> Any:
    """This module's logger (logging loads with the first message: a file read without one does without it)."""
    import logging

    return logging.getLogger(__name__)


# --- decoding ---------------------------------------------------------------------------------
#
# The order: a BOM; UTF-16 without a BOM (its NUL bytes); strict UTF-8; UTF-8 with a few
# stray bytes (replaced by U+FFFD and reported); else a detected legacy encoding. The detector is
# charset-normalizer, whose ranking is unreliable on short files (a French cp1252 SRT comes out
# mac_latin2, ten bytes of French as Big5, 200 bytes of Big5 as mac_iceland), so its candidates and a
# few common ones (cp1252, the CJK double-byte codecs) are re-ranked by how plausible the decoded
# text is: no control or private-use characters, CJK characters not glued inside Latin words,
# letters inside words rather than symbols. CJK text therefore never comes out as cp1252.

# Tie-break order on short files, where the detector's ranking means little.
_COMMON_CODECS = ("cp1252", "cp932", "euc_jp", "gb18030", "big5", "cp949")
# Other Windows code pages tried besides the detector's candidates (it often omits them on short files).
_OTHER_CODECS = ("cp1250", "cp1251", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "koi8_r")
_LANG = {
    **dict.fromkeys(("cp949", "euc_kr", "johab", "iso2022_kr"), "ko"),
    **dict.fromkeys(("cp932", "shift_jis", "shift_jis_2004", "shift_jisx0213", "euc_jp", "euc_jis_2004"), "ja"),
    **dict.fromkeys(("euc_jisx0213", "iso2022_jp", "iso2022_jp_2", "iso2022_jp_3", "iso2022_jp_ext"), "ja"),
    **dict.fromkeys(("gb18030", "gbk", "gb2312", "hz", "big5", "big5hkscs", "cp950"), "zh"),
}
_SURROGATE = re.compile("[\\udc80-\\udcff]")
# UTF-8 with at most one bad byte per this many good non-ASCII characters counts as damaged UTF-8.
# One: a valid multi-byte sequence is rare in legacy text (cp1252 would show it as mojibake such
# as "Ã©"), so a short file of one UTF-8 "é" and one stray Latin-1 byte is damaged UTF-8, as a
# long one is; the detector may still switch when its own reading is clearly more plausible.
_GOOD_PER_BAD = 1
_SAMPLE_CHARS = 20_000


@dataclass(frozen=True)
class Decoded:
    """A decoded text file: its text (no BOM), the codec used and what was noted on the way.

    ``how`` is ``bom``, ``utf-16`` (no BOM), ``utf-8``, ``utf-8-repaired``, ``detected``, ``format``
    (the codec the format fixes for text that is not UTF-8) or ``given``.
    ``notes`` are read-side losses (kind ``encoding`` for a detected encoding, ``repaired`` for
    bytes replaced in damaged UTF-8).
    """

    text: str
    encoding: str
    how: str
    notes: tuple[Loss, ...] = ()


def _script(ch: str) -> str:
    """A coarse script class: han, kana, hangul, jamo, halfkana, cjk-other, latin, other letters."""
    o = ord(ch)
    if 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF or 0x2E80 <= o <= 0x2FDF:
        return "han"
    if 0x3040 <= o <= 0x30FF or 0x31F0 <= o <= 0x31FF:
        return "kana"
    if 0xAC00 <= o <= 0xD7AF:
        return "hangul"
    if 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F:
        return "jamo"
    if 0xFF61 <= o <= 0xFF9F:
        return "halfkana"
    if 0x3000 <= o <= 0x303F or 0xFF00 <= o <= 0xFFEF or 0x3100 <= o <= 0x312F:
        return "cjk-other"
    try:
        return unicodedata.name(ch).split(" ")[0].lower()
    except ValueError:
        return "unknown"


def _zh_rare(ch: str, codec: str) -> bool:
    """Whether a Han character sits in the rare block of ``codec`` (GB2312 level 2 / GBK
    extensions; Big5's less-frequent block): a wrong CJK codec lands there often."""
    try:
        b = ch.encode(codec)
    except UnicodeEncodeError:
        return True
    if len(b) != 2:
        return True
    if codec == "gb18030":
        return not (0xB0 <= b[0] <= 0xD7 and b[1] >= 0xA1)
    return not (0xA4 <= b[0] <= 0xC6)


def _zh_table(codec: str | None) -> str:
    return "big5" if codec in ("big5", "big5hkscs", "cp950") else "gb18030"


def _in_codec(ch: str, codec: str) -> bool:
    try:
        ch.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


def plausibility(text: str, codec: str | None = None) -> float:
    """How much the non-ASCII characters of ``text`` look like real text, from 0 to 1 (1 if none).

    Per character: controls, private use, unassigned code points and U+FFFD score 0; a CJK
    character touching an ASCII letter 0.25, inside a Latin word 0; half-width katakana and lone Hangul jamo (rare in
    running text, common in mis-decoded bytes) 0.5 and 0.25; a letter 1 inside a word of one
    script, 0.5 in a word mixing scripts or in a word of three or more accented Latin letters with
    no ASCII letter (cp1252 mojibake of Cyrillic or CJK bytes) or in mixed case (``оЪаР``), 0.75
    alone; punctuation and spaces 0.75, digits 0.5, other symbols (mojibake's favourites) 0.25.
    With ``codec`` one of the CJK codecs, characters its language rarely writes score less: kana,
    Hangul or Han of the rare blocks in Chinese (0.5); Hangul outside KS X 1001 (0.5) and Han
    (0.5 beside Hangul, else 0.75) in Korean; Han without any kana (0.75) in Japanese.
    Only the first 20,000 characters are looked at (the score is a sample's).
    """
    text = text[:_SAMPLE_CHARS]
    n = len(text)
    lang = _LANG.get(codec or "")
    scripts: dict[int, str] = {}
    for i, ch in enumerate(text):
        if ord(ch) >= 0x80:
            scripts[i] = _script(ch)
    if not scripts:
        return 1.0
    present = set(scripts.values())
    total = 0.0
    word_start = 0
    for i, sc in scripts.items():
        ch = text[i]
        cat = unicodedata.category(ch)
        prev = text[i - 1] if i else " "
        nxt = text[i + 1] if i + 1 < n else " "
        if cat in ("Cc", "Co", "Cn", "Cs") or ch == "\ufffd":
            score = 0.0
        elif sc in ("han", "kana", "hangul", "cjk-other"):
            touching = (prev.isascii() and prev.isalpha()) + (nxt.isascii() and nxt.isalpha())
            score = (1.0, 0.25, 0.0)[touching]
            if lang == "zh" and (sc in ("kana", "hangul") or (sc == "han" and _zh_rare(ch, _zh_table(codec)))):
                score = 0.5
            elif lang == "ko" and sc == "hangul" and not _in_codec(ch, "euc_kr"):
                score = 0.5  # outside the 2,350 syllables of KS X 1001
            elif lang == "ko" and sc == "han":
                score = 0.5 if "hangul" in present else 0.75  # modern Korean writes Hangul
            elif lang == "ja" and sc == "han" and "kana" not in present:
                score = 0.75
            elif lang == "ja" and sc == "hangul":
                score = 0.5
        elif sc == "halfkana":
            score = 0.5
        elif sc == "jamo":
            score = 0.25
        elif cat[0] == "L":
            word_start = i
            while word_start > 0 and text[word_start - 1].isalpha():
                word_start -= 1
            end = i
            while end + 1 < n and text[end + 1].isalpha():
                end += 1
            word = text[word_start : end + 1]
            if len(word) == 1:
                score = 0.75
            else:
                word_scripts = {_script(c) if ord(c) >= 0x80 else "latin" for c in word}
                no_ascii = not any(c.isascii() for c in word)
                # Words are lower case, Capitalised or ALL CAPS; random bytes mix cases.
                odd_case = not (word.islower() or word.isupper() or word.istitle() or not word.isalpha())
                if len(word_scripts) > 1 or odd_case or (sc == "latin" and no_ascii and len(word) >= 3):
                    score = 0.5
                else:
                    score = 1.0
        elif cat[0] in ("P", "Z"):
            score = 0.75
        elif cat[0] == "M":
            score = 0.75 if prev.isalpha() else 0.0
        elif cat[0] == "N":
            score = 0.5
        else:
            score = 0.25
        total += score
    return total / len(scripts)


def _strict(raw: bytes, codec: str) -> str | None:
    try:
        return raw.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return None


def _codec_name(name: str) -> str:
    return codecs.lookup(name).name


def _place(raw: bytes, offset: int) -> str:
    line = raw.count(b"\n", 0, offset) + 1
    return f"byte {offset}, line {line}"


def _bom_or_utf(raw: bytes) -> tuple[str, str] | None:
    """(codec, how) when a BOM, NUL pattern or strict UTF-8 settles the encoding."""
    settled = _bom_or_nul(raw)
    if settled is not None:
        return settled
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return "utf-8", "utf-8"


def _bom_or_nul(raw: bytes) -> tuple[str, str] | None:
    """(codec, how) when a BOM or a NUL pattern (UTF-16 without BOM) settles the encoding."""
    if raw.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig", "bom"
    # UTF-32's BOMs first: the little-endian one starts with UTF-16-LE's (pysrt's test files have both).
    if raw.startswith(b"\xff\xfe\x00\x00"):
        return "utf-32-le", "bom"
    if raw.startswith(b"\x00\x00\xfe\xff"):
        return "utf-32-be", "bom"
    if raw.startswith(b"\xff\xfe"):
        return "utf-16-le", "bom"
    if raw.startswith(b"\xfe\xff"):
        return "utf-16-be", "bom"
    if len(raw) >= 2 and raw[0] == 0 and raw[1] != 0:
        return "utf-16-be", "utf-16"
    if len(raw) >= 2 and raw[1] == 0 and raw[0] != 0:
        return "utf-16-le", "utf-16"
    return None


def _detector_candidates(raw: bytes) -> list[str]:
    """charset-normalizer's candidate codecs, best first (empty if it finds none)."""
    from charset_normalizer import from_bytes  # imported here: only damaged/legacy files need it

    try:
        return [_codec_name(m.encoding) for m in from_bytes(raw)]
    except Exception:  # the detector must never turn a read into a traceback
        _log().debug("charset-normalizer failed", exc_info=True)
        return []


def _all_cjk(text: str) -> bool:
    """Every non-ASCII character is CJK, and none touches an ASCII letter."""
    n = len(text)
    for i, ch in enumerate(text):
        if ord(ch) < 0x80:
            continue
        if _script(ch) not in ("han", "kana", "hangul", "cjk-other"):
            return False
        for j in (i - 1, i + 1):
            if 0 <= j < n and text[j].isascii() and text[j].isalpha():
                return False
    return True


@functools.cache
def _frequent(lang: str) -> frozenset[str]:
    """The detector's own lists of a language's most frequent characters."""
    from charset_normalizer.constant import FREQUENCIES

    names = {"zh": ("Chinese",), "ko": ("Korean",), "ja": tuple(k for k in FREQUENCIES if k.startswith("Japanese"))}
    return frozenset(ch for name in names[lang] for ch in FREQUENCIES.get(name, ()))


def _commonness(text: str, codec: str) -> float:
    """Share of a CJK decoding's CJK characters that are among its language's most frequent
    (0 for other codecs): the tie-break between CJK codecs on short files, where a wrong CJK
    codec gives valid but random characters."""
    lang = _LANG.get(codec)
    if lang is None:
        return 0.0
    cjk = [ch for ch in text if _script(ch) in ("han", "kana", "hangul")]
    if not cjk:
        return 0.0
    frequent = _frequent(lang)
    return sum(ch in frequent for ch in cjk) / len(cjk)


@dataclass(frozen=True)
class _Legacy:
    codec: str
    text: str
    score: float
    detector_top: bool  # the detector's own first choice


def _best_legacy(raw: bytes) -> _Legacy | None:
    """The most plausible strict decoding by the detector's candidates and the common codecs."""
    detected = _detector_candidates(raw)
    order: list[str] = []
    for name in [*detected, *_COMMON_CODECS, *_OTHER_CODECS]:
        name = _codec_name(name)
        if name not in order and not name.startswith(("utf-8", "utf-16", "utf-32")):
            order.append(name)
    scored: list[tuple[float, int, str, str]] = []
    for rank, name in enumerate(order):
        text = _strict(raw, name)
        if text is not None:
            scored.append((plausibility(text, name), rank, name, text))
    if not scored:
        return None
    # Bytes that a CJK codec turns into nothing but CJK characters apart from Latin letters are
    # CJK text: never let a single-byte codec (cp1252 letter soup) win them.
    clean = [s for s in scored if s[2] in _LANG and _all_cjk(s[3][:_SAMPLE_CHARS])]
    scored = clean or scored
    top = max(s[0] for s in scored)
    # Near-ties: trust the detector's order on long files; on short ones prefer the common codecs.
    near = [s for s in scored if s[0] >= top - 0.02]
    high = sum(1 for b in raw if b >= 0x80)
    if high < 400:
        # On short files the common codecs are the likelier story unless clearly less plausible.
        common = [s for s in scored if s[2] in _COMMON_CODECS and s[0] >= top - 0.1]
        near = sorted(common, key=lambda s: (-_commonness(s[3], s[2]), _COMMON_CODECS.index(s[2]))) or near
    score, _, name, text = near[0]
    return _Legacy(name, text, score, bool(detected) and _codec_name(detected[0]) == name)


def decode(raw: bytes, path: str | Path, *, encoding: str | None = None, legacy: str | None = None) -> Decoded:
    """Decode a text file's bytes (see the comment above for the order); drop a BOM.

    ``encoding`` forces a codec: an unknown name is a UsageError, bytes that are not that
    encoding an InputError naming the byte offset and line.
    """
    if encoding:
        try:
            name = _codec_name(encoding)
        except LookupError:
            raise UsageError(
                f"unknown encoding {encoding!r} (expected a name such as utf-8, cp1252, gb18030)"
            ) from None
        if name == "utf-8" and raw.startswith(b"\xef\xbb\xbf"):
            name = "utf-8-sig"
        try:
            text = raw.decode(name)
        except UnicodeDecodeError as err:
            raise InputError(
                f"not {encoding} text: byte 0x{raw[err.start]:02x} cannot be decoded ({err.reason})",
                path=path,
                place=_place(raw, err.start),
            ) from None
        return Decoded(text.removeprefix("\ufeff"), name, "given")
    settled = _bom_or_nul(raw)
    if settled is None:  # the commonest file, UTF-8: decoded once (not checked, then decoded)
        try:
            return Decoded(raw.decode("utf-8"), "utf-8", "utf-8")
        except UnicodeDecodeError:
            pass
    if settled is not None:
        name, how = settled
        try:
            text = raw.decode(name)
        except UnicodeDecodeError as err:
            raise InputError(f"not {name} text", path=path, place=_place(raw, err.start)) from None
        return Decoded(text.removeprefix("\ufeff"), name, how)
    try:
        return _decode_undeclared(raw, legacy)
    except InputError as err:
        err.path = str(path)
        raise


@functools.lru_cache(maxsize=4)
def _decode_undeclared(raw: bytes, legacy_codec: str | None = None) -> Decoded:
    """Damaged UTF-8 or another encoding (cached: readers ask again for ``meta['encoding']``).

    ``legacy_codec`` is the encoding the format fixes for text that is not UTF-8 (Praat:
    Windows-1252), used instead of a detector's guess."""
    if legacy_codec is not None and not _mostly_utf8(raw):
        return _format_legacy(raw, legacy_codec)
    escaped = raw.decode("utf-8", errors="surrogateescape")
    bad = [m.start() for m in _SURROGATE.finditer(escaped)]
    good = sum(1 for ch in escaped if ord(ch) >= 0x80) - len(bad)
    legacy = _best_legacy(raw)
    utf8_text = _SURROGATE.sub("\ufffd", escaped)
    if good >= 1 and len(bad) * _GOOD_PER_BAD <= good:
        # Mostly UTF-8: repair, unless the detector's own choice decodes all of it clearly better.
        switch = legacy is not None and legacy.detector_top and legacy.score > plausibility(utf8_text) + 0.05
        if not switch:
            first = len(escaped[: bad[0]].encode("utf-8", errors="surrogateescape"))
            note = Loss(
                "repaired",
                f"{len(bad)} byte(s) that are not UTF-8 were replaced by U+FFFD; the rest of the file is UTF-8",
                where=_place(raw, first),
                count=len(bad),
                side="read",
            )
            return Decoded(utf8_text, "utf-8", "utf-8-repaired", (note,))
    if legacy is None:
        first = bad[0] if bad else 0
        offset = len(escaped[:first].encode("utf-8", errors="surrogateescape"))
        raise InputError(
            "not UTF-8 text and no other encoding decodes it; give the encoding (--encoding NAME)",
            place=_place(raw, offset),
        )
    name, text = legacy.codec, legacy.text
    note = Loss(
        "encoding",
        f"decoded as {name} (detected; no BOM, not UTF-8); give --encoding if that is wrong",
        side="read",
    )
    return Decoded(text, name, "detected", (note,))


def _mostly_utf8(raw: bytes) -> bool:
    """UTF-8 with at most one bad byte per :data:`_GOOD_PER_BAD` good non-ASCII characters."""
    escaped = raw.decode("utf-8", errors="surrogateescape")
    bad = len(_SURROGATE.findall(escaped))
    good = sum(1 for ch in escaped if ord(ch) >= 0x80) - bad
    return good >= 1 and bad * _GOOD_PER_BAD <= good


def _format_legacy(raw: bytes, codec: str) -> Decoded:
    """Text the format says is in ``codec`` when it is not UTF-8 (cp1252, with Latin-1 for the
    five bytes cp1252 leaves undefined), with a note saying so."""
    name = _codec_name(codec)
    try:
        text = raw.decode(name)
    except UnicodeDecodeError:
        name, text = "latin-1", raw.decode("latin-1")
    note = Loss(
        "encoding",
        f"decoded as {name} (the format's encoding for text with no BOM that is not UTF-8); "
        "give --encoding if that is wrong",
        side="read",
    )
    return Decoded(text, name, "format", (note,))


# Readers that do not pass a LossReport to decode_text still get their notes into the Document:
# read_document collects them here around each read.
_collector: contextvars.ContextVar[list[Loss] | None] = contextvars.ContextVar("segagree_decode_notes", default=None)


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused while a reader builds its objects.

    A reader allocates hundreds of thousands of lists and strings, none in reference cycles;
    each allocation burst made the collector walk all of them again, a quarter of the time of
    reading a large table. Whatever cycles there are get collected when it resumes."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextlib.contextmanager
def collect_decode_notes() -> Iterator[list[Loss]]:
    """Gather the notes of every :func:`decode_text` call without a ``losses`` report."""
    notes: list[Loss] = []
    token = _collector.set(notes)
    try:
        yield notes
    finally:
        _collector.reset(token)


def detect_encoding(raw: bytes, encoding: str | None = None, legacy: str | None = None) -> str:
    """The codec :func:`decode_text` uses for these bytes (``encoding`` if given)."""
    if encoding:
        return _codec_name(encoding)
    settled = _bom_or_utf(raw)
    if settled is not None:
        return settled[0]
    try:
        return decode(raw, "<bytes>", legacy=legacy).encoding
    except InputError:
        return "unknown"


def decode_text(
    raw: bytes,
    path: str | Path,
    *,
    encoding: str | None = None,
    losses: LossReport | None = None,
    fallback: str | None = "detect",
) -> str:
    """Decode a text file with :func:`decode` and return its text.

    What was detected or repaired is logged as a warning and recorded in ``losses`` (a read-side
    report), or, without one, handed to :func:`segagree.formats.read_document` for ``doc.losses``.
    With ``fallback=None`` (formats whose specification says UTF-8, such as WebVTT) a file that
    is neither UTF-8 nor UTF-16 with a BOM is an InputError instead of being detected; with a
    codec name (``"cp1252"`` for Praat) such a file is decoded with it, not detected.
    """
    if fallback is None and not encoding and _bom_or_utf(raw) is None:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise InputError(f"not UTF-8 text (byte {err.start})", path=path, place=_place(raw, err.start)) from None
    legacy = None if fallback in (None, "detect") else fallback
    decoded = decode(raw, path, encoding=encoding, legacy=legacy)
    for note in decoded.notes:
        _log().warning("%s: %s", path, note.message)
        if losses is not None:
            losses.extend([note])
        else:
            sink = _collector.get()
            if sink is not None and note not in sink:
                sink.append(note)
    return decoded.text
