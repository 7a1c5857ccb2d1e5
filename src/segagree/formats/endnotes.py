"""Endnotes: finding a unit's boundary type in its text, shared by every reader and writer.

Du Bois transcription ends an intonation unit with an endnote: ``,`` continuing, ``.`` final,
``?`` appeal, ``--`` (DT2 ``—``) truncated; a unit without one is unclassified. The endnote is
the unit's last token (``so it goes ,``) or glued to its last word (``so it goes,``). Pause
tokens (``..``, ``...``, ``(..)``, ``(0.4)``) are words, never endnotes, even at a line end.
"""

from __future__ import annotations

import re
from functools import lru_cache

from segagree.model import BoundaryScheme, Document, Layer
from segagree.model.losses import LossReport

# Pauses (DT1 `..` `...` `...(1.2)`, DT2 `(.)` `(..)` `(...)` `(1.2)`) are tokens, never endnotes.
PAUSE = re.compile(r"^(\.{2,}(\(\d+(\.\d+)?\))?|\((\.{1,3}|\d+(\.\d+)?)\))$")


def is_pause(token: str) -> bool:
    """True for a pause token such as ``..``, ``...``, ``(..)``, ``(0.4)``."""
    return bool(PAUSE.match(token))


def split_endnote(
    tokens: list[str],
    scheme: BoundaryScheme,
    *,
    glued: bool = True,
    unclassified_token: bool = True,
    aliases: bool = True,
) -> tuple[list[str], int | None]:
    """Split a unit's tokens into words and its endnote code.

    Returns ``(words, code)`` where ``code`` is the scheme code of the endnote, or None when
    the unit has none (the caller decides: unclassified, or an error). A final token that is
    an endnote spelling (symbol or alias) is removed; with ``glued=True`` an endnote attached
    to the last word (``fine.``) is split off, unless what remains is empty or a pause. With
    ``unclassified_token=True`` a final token equal to the scheme's unclassified symbol
    (``;``) marks an explicit unclassified boundary and is removed too. With
    ``aliases=False`` only the types' own symbols count (``—`` is then a word, as in
    segsimflex).
    """
    words = [t for t in tokens if t != ""]
    if not words:
        return words, None
    last = words[-1]
    if is_pause(last):
        return words, None
    code = scheme.find_code(last)
    if code is not None and not aliases and last not in scheme.symbols:
        code = None
    if code is not None and code != 0 and code != scheme.unclassified_code:
        return words[:-1], code
    if unclassified_token and scheme.unclassified and last == scheme.unclassified.symbol:
        return words[:-1], scheme.unclassified_code
    if glued:
        for spelling in scheme.endnote_symbols():
            if last.endswith(spelling) and len(last) > len(spelling):
                stem = last[: -len(spelling)]
                if is_pause(stem) or stem.endswith(".") and spelling == ".":
                    continue
                return [*words[:-1], stem], scheme.code(spelling)
    return words, None


def is_endnote_scheme(scheme: BoundaryScheme) -> bool:
    """True when every type is written as a punctuation endnote (``,`` ``--``), so a unit's text
    can carry it; False for schemes such as subtitles' ``<eob>``/``<eol>`` or ``<turn>``."""
    return _all_endnotes(tuple(t.symbol for t in scheme.types))


@lru_cache(maxsize=256)  # (the writers ask once a unit; a scheme's own hash digests its matrix)
def _all_endnotes(symbols: tuple[str, ...]) -> bool:
    return all(looks_like_endnote(s) for s in symbols)


def endnote_text(code: int, scheme: BoundaryScheme) -> str:
    """The symbol to write after a unit's words: '' for none, unclassified, and for the types of a
    scheme that is not an endnote scheme (they would read back as words)."""
    if code == 0 or code == scheme.unclassified_code or not is_endnote_scheme(scheme):
        return ""
    return scheme.symbol(code)


def unit_value(
    tokens: list[str], code: int, scheme: BoundaryScheme, *, glued: bool = False, alone: bool = False
) -> str:
    """A unit written as one annotation value: its tokens joined by spaces, then its endnote
    (:func:`endnote_text`) after a space.

    ``alone``: the value is all a reader will have of the unit (no word tier): the endnote is glued
    to the last token when ``glued`` (the file's spelling) and that reads back as these tokens and
    this boundary, and the unclassified symbol is added where the value would otherwise read back
    with another boundary (``etc.`` would read as ``etc`` and a final ``.``)."""
    symbol = endnote_text(code, scheme)
    if not alone:
        return " ".join(tokens) + (f" {symbol}" if symbol else "")
    if glued and symbol and tokens:
        value = " ".join(tokens[:-1] + [tokens[-1] + symbol])
        if _reads_back(value, tokens, code, scheme):
            return value
    value = " ".join(tokens + ([symbol] if symbol else []))
    if scheme.unclassified and not symbol and not _reads_back(value, tokens, code, scheme):
        value = f"{value} {scheme.unclassified.symbol}"
    return value


def _reads_back(value: str, tokens: list[str], code: int, scheme: BoundaryScheme) -> bool:
    """Whether reading ``value`` alone (:func:`split_endnote`) gives back these tokens and this code."""
    back, back_code = split_endnote(value.split(), scheme)
    expected = code if code != 0 else scheme.unclassified_code
    return back == tokens and (scheme.unclassified_code if back_code is None else back_code) == expected


def note_unit_layer_losses(layer_name: str, scheme: BoundaryScheme, losses: LossReport, fmt: str) -> None:
    """Record what a format that reads its units back as an ``iu`` endnote layer loses of
    ``layer_name``: its name, and its types when they are not endnotes."""
    if layer_name != "iu":
        losses.add("layer-renamed", f"{fmt} units read back as layer 'iu' (written from layer {layer_name!r})")
    if not is_endnote_scheme(scheme):
        kinds = ", ".join(t.symbol for t in scheme.types)
        losses.add("types-dropped", f"{fmt} writes endnotes only; the {kinds} boundaries read back unclassified")


def unit_layer_to_write(doc: Document, losses: LossReport, fmt: str, layer: str | None = None) -> Layer:
    """The writers' shared opening: the one unit layer a format holds (``layer``, else ``iu``,
    else the first), with each other layer reported ``layer-dropped`` and what reading it back
    changes (its name, its types) reported by :func:`note_unit_layer_losses`."""
    chosen = doc.layer(layer)
    for other in doc.layers:
        if other != chosen.name:
            kept = f"only {chosen.name!r}"
            losses.add("layer-dropped", f"{fmt} holds one unit layer; layer {other!r} is not written ({kept})")
    note_unit_layer_losses(chosen.name, chosen.scheme, losses, fmt)
    return chosen


_PUNCTUATION_ONLY = re.compile(r"^[,.?!;:\-\u2013\u2014]+$")


def looks_like_endnote(token: str) -> bool:
    """True for a punctuation-only token that is not a pause (``!``, ``,,``, ``-``): at the
    end of a unit it was meant as an endnote, so an unknown one is worth an error."""
    return bool(_PUNCTUATION_ONLY.match(token)) and not is_pause(token)
