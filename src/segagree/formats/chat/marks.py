"""The words of a CHAT main tier: every transcription mark of the CHAT manual removed.

CHAT (MacWhinney, *The CHILDES Project: Tools for Analyzing Talk*, the CHAT manual at
talkbank.org/manuals/CHAT.pdf) writes much besides words on a main tier. None of these is a
word, and none becomes a token or part of one (the raw line keeps them for writing back):

* time bullets ``\\x15start_end\\x15`` and CLAN's other control bytes, such as the underline
  pair ``\\x02\\x01 ... \\x02\\x02`` (removed inside words: ``\\x02\\x01so\\x02\\x02`` is ``so``);
* bracketed codes and their scopes: ``[/]`` ``[//]`` ``[: because]`` ``[+ IMP]`` ``[% comment]``
  and ``<`` ``>`` at word edges; CA ``((comments))``;
* pauses ``(.)`` ``(..)`` ``(...)`` ``(1.2)`` ``(1:05.2)``;
* simple events ``&=laughs`` ``&=in``, long events and their scopes ``&{l=@ ... &}l=@``
  ``&{n=waving ... &}n=waving`` (the scope marks go, the words inside stay), interposed words
  ``&*MOT:yeah``;
* overlap marks ``⌈ ⌉ ⌊ ⌋`` with their indices (``⌈2 ... ⌉2``), also inside a word
  (``wh⌈ich`` is one word ``which``), and CHAT's ``+<`` ``+,`` ``++`` linkers at the start;
* the untranscribed ``0`` and the unintelligible ``xxx``, phonological ``yyy`` and
  untranscribed ``www`` (material that is no word of the transcript);
* CHAT's prosodic marks inside words: stress ``ˈ`` ``ˌ``, pitch ``↑`` ``↓``, blocking ``≠``,
  glottal ``ʔ``, lengthening ``:`` and a pause between syllables ``^`` (``bana:nas``,
  ``rhi^noceros``);
* in CA mode (``@Options: CA``) the CA prosodic marks: pitch ``↑↓``, latching ``≈≋``, softer
  ``°``, faster/slower ``∆∇``, whisper ``∬``, creaky ``⁎``, stress U+0332 and ``ˈ``,
  lengthening ``:``, glottal ``ʔ ʕ``, ``<`` ``>``, intonation ``.,?!`` inside a line,
  parentheses of uncertain words; in- and out-breaths (``hhh`` ``.hh``) are dropped.

Three marks keep their word, a documented choice: a filler ``&-uh`` is the word ``uh``, a
nonword ``&~gaga`` the word ``gaga``, and a phonological fragment ``&+fr`` the truncated word
``fr-`` (all are speech, and a Du Bois transcript of the same talk writes them ``uh`` and
``fr-``; SBCSAE's own CHAT writes truncated words ``th-``).
"""

from __future__ import annotations

import re

from segagree.formats.chat.terminators import split_terminator

BULLET = re.compile("\x15([^\x15]*)\x15")
# CLAN's formatting bytes (underline \x02\x01/\x02\x02, italics \x03...) and other C0 controls;
# tab, newline and the bullet mark \x15 are handled elsewhere.
_CONTROL = re.compile("[\x00-\x08\x0b-\x14\x16-\x1f\x7f]")
# (No `[` inside a code, no `(` inside a comment: an unclosed `[` or `((` then ends its scan at
# the next opening one, so a line of unclosed brackets is read in linear time, not quadratic.)
_CODES = re.compile(r"\[[^\[\]]*\]")
_COMMENT = re.compile(r"\(\([^()]*\)\)")
_PAUSE = re.compile(r"\((?:\.{1,3}|\d+(?::\d+)?(?:\.\d*)?)\)")
# `&=in` `&{l=@` `&}l=@` `&{n=x` `&*MOT:yeah`: events, long-event scopes, interposed words.
_EVENT = re.compile(r"(?<![^\s<])&(?:=|[{}][a-zA-Z]=|\*)\S*")
_FILLER = re.compile(r"(?<![^\s<])&[-~](?=\S)")
_FRAGMENT = re.compile(r"(?<![^\s<])&\+(\S+)")
# Overlap marks with an optional index: glued between two letters (or an apostrophe, or the
# lengthening `:`) they join the word (`wh⌈ich`, `t⌈2ap`, `can⌈'t`, `Tha:⌈t's`); next to a
# digit, a space or another mark they do not
# (`ass⌉5⌈6:` is `ass`, `XXX⌋2⌊3XXXX` two tokens).
_LETTER = r"(?:[^\W\d_]|[':])"  # (`:` lengthens the sound before it: `Tha:⌈t's` is `That's`)
_OVERLAP_INNER = re.compile(rf"(?<={_LETTER})[⌈⌉⌊⌋]\d*(?={_LETTER})")
_OVERLAP = re.compile(r"[⌈⌉⌊⌋]\d*")
_HAS_OVERLAP = re.compile("[⌈⌉⌊⌋]")
# An overlap mark written straight before an event, filler or fragment (`⌊&=in`, `⌈&-uh`):
# the mark is cut off so the `&` mark starts its own word, as after a space.
_OVERLAP_BEFORE_AMP = re.compile(r"([⌈⌉⌊⌋]\d*)(?=&)")
_LINKERS = {"+<", "+,", "++", "+^", '+"', "+\u2248", "+\u224b"}
#: Tokens that stand for material that is no word: untranscribed, unintelligible, phonological.
NOT_WORDS = frozenset({"0", "xxx", "yyy", "www"})
# CHAT's own prosodic marks inside words (CHAT manual, prosody within words): primary and
# secondary stress, pitch up/down, blocking, glottal stop; lengthening `:` and a pause between
# syllables `^` after a letter (`bana:nas` `hm:` `rhi^noceros`). Not in `word@s:fra` codes.
_PROSODY = str.maketrans("", "", "ˈˌ↑↓≠ʔ")
_IN_WORD = re.compile(r"(?<=[^\W\d_])[:^]+")
# CA prosodic marks removed from tokens in CA mode (CHAT manual, CA chapter).
_CA_MARKS = "↑↓°≈≋∬∙▔▁∆∇☺♋⁎∲§∾⁑⤇∮↻⤆„‡↫ʔʕˈˌ∞⁇<>\u0332:=()"
_CA_TABLE = str.maketrans("", "", _CA_MARKS)
_CA_ENDS = ".,?!⇗↗→↘⇘"
_CA_INNER = re.compile(r"(?<=\w)[.?!,]+(?=\w)")
# In- and out-breaths, also aspirated and clicked (`hhh` `.hh` `pHhhh` `khh` `hhhrh` `tch`).
_BREATH = re.compile(r"^(?:[ptk]?h{2,}r?h*|tch)$")


def clear_marks(text: str) -> str:
    """The main tier's text without the marks that are never part of a word (see the module
    docstring): bullets, control bytes, codes, comments, pauses, events and overlap marks."""
    # (Each pattern needs its mark's first character: most lines have few kinds of marks, and a
    # test for a character is far cheaper than a scan by the pattern.)
    if "\x15" in text:
        text = BULLET.sub(" ", text)
    if not text.isprintable():  # (True for a text without C0 controls, the usual line)
        text = _CONTROL.sub("", text)
    if "[" in text:
        text = _CODES.sub(" ", text)
    if "(" in text:
        text = _COMMENT.sub(" ", text)
        text = _PAUSE.sub(" ", text)
    if "&" in text:
        text = _OVERLAP_BEFORE_AMP.sub(r"\1 ", text)
        text = _EVENT.sub(" ", text)
        text = _FILLER.sub("", text)
        text = _FRAGMENT.sub(r"\1-", text)
    if _HAS_OVERLAP.search(text):
        text = _OVERLAP_INNER.sub("", text)
        text = _OVERLAP.sub(" ", text)
    return text


def _plain_word(token: str) -> str:
    """A word of plain CHAT without its prosodic marks (special-form codes ``@...`` kept)."""
    if "@" in token or token.startswith("&"):
        return token
    if token.isascii() and ":" not in token and "^" not in token:
        return token  # (the usual word: the prosodic marks are not ASCII, `:` `^` what _IN_WORD takes)
    return _IN_WORD.sub("", token.translate(_PROSODY))


def tokenise(text: str, *, ca: bool, lower: bool | None = None) -> tuple[list[str], str | None]:
    """A main tier's words and terminator.

    Args:
        text: the tier's content (without ``*CODE:``), continuation lines joined.
        ca: clear CA prosodic marks too.
        lower: lower-case the words (default: as ``ca``; CA capitals mark loudness, but a Du Bois
            transcript in CA-CHAT, SBCSAE, writes ordinary capitals).
    """
    raw = clear_marks(text).split()
    while raw and raw[0] in _LINKERS:
        raw = raw[1:]
    if not ca:
        toks = [t if t.startswith("+") else _plain_word(t.lstrip("<").rstrip(">")) for t in raw]
        plain, term = split_terminator([t for t in toks if t])
        return [w for w in plain if w not in NOT_WORDS], term
    toks = [t for t in (t.translate(_CA_TABLE) for t in raw) if t]
    toks, term = split_terminator(toks)
    low = ca if lower is None else lower
    words: list[str] = []
    for tok in toks:
        for part in _CA_INNER.split(tok.strip(_CA_ENDS)):
            part = part.strip(_CA_ENDS)
            # (`xxx` is CHAT's unintelligible word; SBCSAE's `X` `XX` `XXX` are Du Bois'
            # unintelligible syllables, which the Du Bois transcript has too, as `#`)
            if part and not _BREATH.match(part.lower()) and part not in NOT_WORDS:
                words.append(part.lower() if low else part)
    return words, term
