"""How two annotations' speakers and documents pair, as rules on their names alone: the speaker-label
rule and the documents-or-one-stream rule of CoNLL-U files.

Light on purpose (no numpy, no model): :mod:`segagree.scoring.tokens.pairing` applies them to
Documents, and the official scorers' own reading of two files
(:mod:`segagree.scoring.tokens.disrpt_files`) to the files' document ids.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["normalise_speaker", "one_stream_note"]


def normalise_speaker(name: str) -> str:
    """Speaker label without transcription punctuation: ``MARCIA;`` / ``F2:`` -> ``MARCIA`` /
    ``F2``; also Du Bois' speaker prefixes ``>`` (a voice not in the room: ``>ENV``, ``>MAC``
    on the phone) and ``#`` (a name given by the transcriber: ``#FOSTER``), which SBCSAE's CHAT
    edition drops."""
    bare = name.strip().rstrip(":;").strip()
    return bare.lstrip(">#").strip() or bare or name


def one_stream_note(docs_a: Sequence[str], docs_b: Sequence[str], one_stream: bool = False) -> tuple[bool, str]:
    """Whether two CoNLL-U files (their document ids, in file order; none: no ``# newdoc id``) are
    scored as one stream each, as the official scripts score a file (documents ignored), and the
    note that says how they were paired ("" where documents pair by id in the same order). One
    stream where one file has no documents (a segmenter's or parser's output usually has no
    ``# newdoc id``), or where ``one_stream`` asks for it (documents that differ, a system file that
    merged two)."""
    if not one_stream and (bool(docs_a) == bool(docs_b)):
        if docs_a and list(docs_a) != list(docs_b) and sorted(docs_a) == sorted(docs_b):
            return False, "documents paired by id (the files list them in different orders)"
        return False, ""
    why = "as asked" if one_stream else f"{'the gold' if not docs_a else 'the system file'} has no '# newdoc id' lines"
    note = (
        f"documents not paired: each file scored as one stream of its words in file order, as the "
        f"official scripts score it ({why}; documents: A {len(docs_a)}, B {len(docs_b)})"
    )
    return True, note
