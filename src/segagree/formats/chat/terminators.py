"""CHAT utterance terminators as boundary types, and their mapping to Du Bois endnotes.

The ``chat`` built-in scheme (:data:`segagree.model.scheme.CHAT_TERMINATORS`) has one type
per terminator of the CHAT manual (``.`` ``?`` ``!`` ``+...`` ``+..?`` ``+!?`` ``+/.`` ``+/?``
``+//.`` ``+//?`` ``+"/.`` ``+".`` ``+.`` ``+≋`` ``+≈``), the CA intonation ends (``⇗`` ``↗``
``→`` ``↘`` ``⇘``) and CA's line-final continuing ``,``. To compare a CHAT transcript with a
Du Bois one (an ELAN export whose units end in `` .``/`` ?``, a ``.rez`` file), a CHAT file read
with any other scheme maps each terminator to a Du Bois endnote:

=============================================  ===========================================
CHAT terminator                                Du Bois endnote
=============================================  ===========================================
``.`` ``!`` ``+".`` ``↘`` ``⇘``               ``.`` final
``?`` ``+!?`` ``⇗`` ``↗``                     ``?`` appeal
``+...`` ``+..?`` ``+/.`` ``+/?`` ``+//.``     ``--`` truncated (trailed off or broken off)
``+//?``
``+"/.`` ``+≈`` ``→`` ``,``                   ``,`` continuing (the utterance goes on)
no terminator, in the IU layout (SBCSAE)        ``,`` continuing
``+.`` ``+≋``, no terminator elsewhere        ``;`` unclassified
=============================================  ===========================================

In SBCSAE's CHAT edition (one intonation unit per bulleted line, see
:mod:`segagree.formats.chat.lines`) the Du Bois final ``.``, appeal ``?`` and truncated ``--``
are written as ``.`` ``?`` and ``+/.`` ``+...`` ``+//.``, and the continuing comma is not
written: a line without a terminator is a continuing unit (:func:`segagree.formats.chat.cha.continuing_default`).

The terminator as written stays in the token column ``terminator``, so writing CHAT again
restores it (a Du Bois ``.`` that was ``!`` is written ``!``).
"""

from __future__ import annotations

from segagree.model import BoundaryScheme
from segagree.model.scheme import CHAT_TERMINATORS

#: CHAT terminator (and alias) -> Du Bois endnote symbol.
CHAT_TO_DUBOIS: dict[str, str] = {}
for _sym, _name, _desc, _aliases, _dubois in CHAT_TERMINATORS:
    for _spelling in (_sym, *_aliases):
        CHAT_TO_DUBOIS[_spelling] = _dubois

#: Every terminator spelling, longest first (for splitting one glued to a word).
SPELLINGS: tuple[str, ...] = tuple(sorted(CHAT_TO_DUBOIS, key=len, reverse=True))

# Terminators CHAT itself defines (plain CHAT writers use only these and CA's ",").
# When writing a boundary of another scheme, the first terminator here whose code matches wins.
_WRITE_PREFERENCE = (".", "?", "!", "+...", "+/.", "+//.", "+..?", "+/?", "+//?", "+!?", '+"/.', '+".', ",")


#: The terminator written for an unclassified unit where it reads back unclassified.
BREAK = "+."


def terminator_code(term: str | None, scheme: BoundaryScheme) -> int | None:
    """The code of a CHAT terminator in ``scheme``: its own type if the scheme has it (the ``chat``
    scheme), else the type of its Du Bois endnote; the unclassified code for none (or None when
    the scheme has no unclassified type)."""
    if term is None:
        return scheme.unclassified_code
    code = scheme.find_code(term)
    if code:
        return code
    target = CHAT_TO_DUBOIS.get(term)
    code = scheme.find_code(target) if target else None
    return code or scheme.unclassified_code


def terminator_for(code: int, scheme: BoundaryScheme, original: str | None = None) -> str | None:
    """The CHAT terminator to write for a boundary code: ``original`` if it reads back to that
    code, else the preferred terminator that does; for unclassified ``+.`` where that reads back
    unclassified (Du Bois schemes), else None (no terminator)."""
    if code == 0:
        return None
    if code == scheme.unclassified_code:
        # CHAT wants a terminator on every utterance; its "broken for coding" `+.` reads back
        # unclassified under a Du Bois scheme (not under ``chat``, where it is a type of its own).
        return BREAK if terminator_code(BREAK, scheme) == code else None
    if original and terminator_code(original, scheme) == code:
        return original
    symbol = scheme.symbol(code)
    if symbol in CHAT_TO_DUBOIS:
        return symbol
    for term in _WRITE_PREFERENCE:
        if terminator_code(term, scheme) == code:
            return term
    return None


def split_terminator(tokens: list[str]) -> tuple[list[str], str | None]:
    """Remove the utterance's terminator: the last token if it is one, else one glued to the end
    of the last word (CA and loose CHAT write ``curry?``); ``(words, terminator or None)``."""
    if not tokens:
        return tokens, None
    last = tokens[-1]
    if last in CHAT_TO_DUBOIS:
        return tokens[:-1], last
    for spelling in SPELLINGS:
        if last.endswith(spelling) and len(last) > len(spelling):
            stem = last[: -len(spelling)]
            if stem.endswith((".", "+")):  # `..` `...` are not `.`; `++` is a linker
                continue
            return [*tokens[:-1], stem], spelling
    return tokens, None
