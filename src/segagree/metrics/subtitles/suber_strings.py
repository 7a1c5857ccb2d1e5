"""suber's segment strings and their tokenisations, each made once while a scoring runs.

suber 0.4 turns each segment into a string (``suber.utilities.segment_to_string``) and tokenises it
again for every metric it computes: the plain and ``AS-`` forms of BLEU, chrF, TER and WER share
most segments (every reference segment, and the hypothesis segments in the plain forms), and the
metrics without breaks ask for the same string. Inside :func:`shared` (one SubER scoring),
:func:`segment_string` keeps each (segment, options) string and :func:`tokens` each
(tokeniser, string) result. Segments are never changed once built (suber's readers and aligners,
and segagree's views, build new ones), so a kept string is the one suber would make again; outside
:func:`shared` both functions compute afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

# While a scoring runs: (id(segment), options) -> (segment, string), and (tokeniser, text) -> result.
# The segment is kept with its string, so its id cannot be reused by another object meanwhile.
_strings: dict[tuple[int, bool, bool, bool], tuple[Any, str]] | None = None
_tokens: dict[tuple[str, str], Any] | None = None


@contextmanager
def shared() -> Iterator[None]:
    """Keep segment strings and tokenisations until the outermost ``shared`` block ends."""
    global _strings, _tokens
    outer = _strings is not None
    if not outer:
        _strings, _tokens = {}, {}
    try:
        yield
    finally:
        if not outer:
            _strings = _tokens = None


def segment_string(
    segment: Any, include_line_breaks: bool = False, include_last_break: bool = True, mask_all_words: bool = False
) -> str:
    """``suber.utilities.segment_to_string`` with the same arguments (kept inside :func:`shared`)."""
    from suber.utilities import segment_to_string

    memo = _strings
    if memo is None:
        return segment_to_string(segment, include_line_breaks, include_last_break, mask_all_words)
    # Without breaks the other two options change nothing (suber joins the words).
    key = (id(segment), include_line_breaks, include_line_breaks and include_last_break, mask_all_words)
    hit = memo.get(key)
    if hit is None or hit[0] is not segment:
        hit = memo[key] = (segment, segment_to_string(segment, include_line_breaks, include_last_break, mask_all_words))
    return hit[1]


def tokens(kind: str, tokenize: Callable[[str], Any], text: str) -> Any:
    """``tokenize(text)``, kept inside :func:`shared` under ``kind`` (which names the tokeniser and
    its settings: one kind, one function)."""
    memo = _tokens
    if memo is None:
        return tokenize(text)
    key = (kind, text)
    if key not in memo:
        memo[key] = tokenize(text)
    return memo[key]
