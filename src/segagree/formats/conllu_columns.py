"""The vocabulary of CoNLL-U and DISRPT files that their reader (:mod:`segagree.formats.conllu`) and
writer (:mod:`segagree.formats.conllu_write`) share: the labels, the newdoc line, the ID patterns,
the token columns of kept lines, and the connective labels of a ``connective`` layer."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from segagree.model import Document

NO_DOCUMENT = "TEXT"
WRITTEN_LAYERS = ("edu", "sentence", "connective")
BEGIN = "BeginSeg=Yes"
B_CONN, I_CONN = "Seg=B-Conn", "Seg=I-Conn"
#: UD writes ``# newdoc id = X``, the DISRPT shared tasks ``# newdoc_id = X``: both are read, and
#: the file's own spelling written back.
NEWDOC_KEYS = ("newdoc id", "newdoc_id")
CONN, OUTSIDE = 1, 2  # codes of the connective scheme's <conn> and <o>
#: Token columns of the lines kept with a word: before it (comments, its document's newdoc line,
#: a multiword token's range line), after it (empty nodes), one line per ``\n``.
BEFORE, AFTER = "conllu_before", "conllu_after"


def newdoc_key(line: str) -> tuple[str, str] | None:
    """(key as spelled, id) of a ``# newdoc id = X`` / ``# newdoc_id = X`` line, else None."""
    key, _, value = line[1:].partition("=")
    return (key.strip(), value.strip()) if key.strip() in NEWDOC_KEYS else None


#: A multiword token's ID (``3-4``) and an empty node's (``3.1``).
RANGE = re.compile(r"[1-9][0-9]*-[1-9][0-9]*")
EMPTY = re.compile(r"[0-9]+\.[1-9][0-9]*")


def connective_labels(doc: Document) -> list[str]:
    """Each token's connective label from the ``connective`` layer: "B" on the first word of a unit
    ending in ``<conn>``, "I" on its other words, "" elsewhere (a stream's unclosed end is outside)."""
    codes = doc.layers["connective"].boundaries
    labels = [""] * doc.n_tokens
    for rows in doc.speaker_rows().values():
        kind = 0
        for k in range(len(rows) - 1, -1, -1):  # each word takes the type of the boundary ending its unit
            kind = int(codes[rows[k]]) or (kind if k < len(rows) - 1 else OUTSIDE)
            if kind == CONN:
                first = k == 0 or codes[rows[k - 1]] != 0
                labels[rows[k]] = "B" if first else "I"
    return labels
