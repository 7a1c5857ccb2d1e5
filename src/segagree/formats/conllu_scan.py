"""A CoNLL-U or DISRPT file's words and labels as DISRPT's ``seg_eval.py`` reads them, in one pass
over the lines and without the model (no numpy): what the official figure of two files needs, read
as fast as the script reads them.

The scan reads only files the full reader (:mod:`segagree.formats.conllu`) reads in the same way;
anything else, it says why and leaves to the full reader, which reads every file or refuses it with
its place: an ID that is not a word's, a multiword token, an empty node or a column count other
than the full reader's, a document id met twice or empty, words before the first ``newdoc`` in a
file that has them, a document without words, a label the two readings read differently (a MISC
item that only contains ``BeginSeg=Yes``), labels of both kinds (units and connectives).

A word is a line with ten columns (or three to nine: a column lost, as in some DISRPT releases; its last
column is then MISC, as the script and the full reader read it) and a number for ID (of any length: the
full reader refuses an ID of more than 12 digits, which no file of words has); its label is the first
of ``BeginSeg=Yes``, ``Seg=B-Conn``, ``Seg=I-Conn`` its MISC holds
(:data:`segagree.metrics.boundary.segment_match.MARKS`), as the script reads it; multiword-token lines
are skipped, as the script skips them; empty nodes (``4.1``), which the script counts as tokens, are
kept with the document they stand in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import compress, count, repeat
from operator import contains
from pathlib import Path

from segagree.errors import SegagreeError
from segagree.files.encoding import collect_decode_notes, decode_text, paused_gc
from segagree.files.memory import read_bytes
from segagree.formats.conllu_columns import B_CONN, BEGIN, EMPTY, I_CONN, NO_DOCUMENT, RANGE, newdoc_key

__all__ = ["NotPlain", "ScannedDocument", "ScannedFile", "same_words", "scan_file", "scan_text"]


@dataclass
class ScannedDocument:
    """One document's words: their lines as written (a word's form is its second column), their
    labels (codes of ``MARKS``), and the labels of the empty nodes that stand among them (the script
    counts those as tokens too)."""

    name: str
    lines: list[str] = field(default_factory=list)
    marks: list[int] = field(default_factory=list)
    empty_marks: list[int] = field(default_factory=list)


@dataclass
class ScannedFile:
    """A file's documents in file order (one, :data:`NO_DOCUMENT`, where it has no ``# newdoc``),
    whether it has ``newdoc`` lines, and which labels it holds."""

    documents: list[ScannedDocument]
    has_documents: bool
    units: bool  # some word's label is BeginSeg=Yes
    connectives: bool  # some word's label is Seg=B-Conn or Seg=I-Conn

    @property
    def ids(self) -> list[str]:
        """The documents' ids as the full reader lists them (``doc.meta["documents"]``)."""
        return [d.name for d in self.documents] if self.has_documents else []


class NotPlain(Exception):
    """A file the scan leaves to the full reader, and why."""


_ALONE = {BEGIN: 1, B_CONN: 2, I_CONN: 3}

#: The start of every line that is not a plain word's (a number, a tab, a form): comments, blank
#: lines, multiword tokens, empty nodes, and whatever the full reader refuses. Found in one pass of
#: the regular-expression engine, so that nothing is done line by line for the words.
_NOT_WORD = re.compile(r"\n(?![0-9]+\t[^\t\n])")


def _mark(misc: str) -> int:
    """seg_eval.py's label of a MISC field: the first label it holds, as a substring; the full reader
    reads MISC's items, so the two must agree (else the file is not plain)."""
    mark = _ALONE.get(misc)
    if mark is not None:  # the commonest MISC: the label alone
        return mark
    mark = 1 if BEGIN in misc else 2 if B_CONN in misc else 3 if I_CONN in misc else 0
    if mark:
        items = misc.split("|")
        if (BEGIN in items) != (mark == 1) or (mark == 2) != (B_CONN in items) or (mark == 3) != (I_CONN in items):
            raise NotPlain("a MISC label that is part of another item")
    return mark


def same_words(a: list[str], b: list[str]) -> bool:
    """Whether two documents' word lines (:attr:`ScannedDocument.lines`) have the same forms: the lines
    are compared whole, and only the few that differ (a label, a lemma) by their second column."""
    if len(a) != len(b):
        return False
    differ = compress(range(len(a)), map(str.__ne__, a, b))
    return all(a[i].split("\t", 2)[1] == b[i].split("\t", 2)[1] for i in differ)


def _line_numbers(text: str, positions: list[int]) -> list[int]:
    """The line (0-based) of each of the sorted ``positions`` of ``text``."""
    out, line, prev = [], 0, 0
    for pos in positions:
        line += text.count("\n", prev, pos)
        prev = pos
        out.append(line)
    return out


def scan_text(text: str) -> ScannedFile:
    """Scan a file's text (see the module docstring); :class:`NotPlain` where the full reader must read it.

    The words are found in bulk: every line but the few the regular expression :data:`_NOT_WORD`
    finds is a word, if it has ten columns (its tabs counted by ``str.count``); those few are read
    one by one, and so are the words whose line holds ``Seg=``."""
    if "\r" in text:  # (replacing costs a copy of the text even where there is nothing to replace)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    tabs = list(map(str.count, lines, repeat("\t")))
    joined = "\n" + text
    others = _line_numbers(joined, [m.start() for m in _NOT_WORD.finditer(joined)])
    if tabs.count(9) - sum(tabs[i] == 9 for i in others) != len(lines) - len(others):
        # a word of three to nine columns (a column lost) is read as the full reader reads it; others not
        special = set(others)
        if any(not 2 <= n <= 9 for i, n in enumerate(tabs) if i not in special):
            raise NotPlain("a line of fewer than three or more than ten columns")
    is_word = bytearray(b"\x01") * len(lines)
    for i in others:
        is_word[i] = 0
    words = list(compress(lines, is_word))
    reader = _Others(words)
    read = reader.line
    for k, i in enumerate(others):
        line = lines[i]
        if line[:1] != "#" or "newdoc" in line:  # (a comment is kept by the full reader, and read by nobody)
            read(line, i - k, tabs[i])
    documents = reader.finish()
    kinds = _label(documents)
    kinds |= {m for d in documents for m in d.empty_marks}
    units, connectives = 1 in kinds, bool(kinds & {2, 3})
    if units and connectives:
        raise NotPlain("labels of units and of connectives")
    return ScannedFile(documents, reader.has_documents, units, connectives)


class _Others:
    """The state of :func:`scan_text` over the lines that are not plain words, in file order."""

    def __init__(self, words: list[str]) -> None:
        self.words = words
        self.starts: list[tuple[str, int]] = [(NO_DOCUMENT, 0)]  # (document, its first word)
        self.empty: list[list[int]] = [[]]  # each document's empty nodes' labels
        self.seen: set[str] = set()
        self.has_documents = False
        self.sentence_start = 0  # the first word of the sentence being read
        self.range_end = 0  # the word after the last one of a multiword token being read (0: none)

    def line(self, line: str, before: int, n_tabs: int) -> None:
        """A line that is not a plain word's; ``before``: the words before it in the file."""
        if self.range_end > before:
            raise NotPlain("a multiword token whose words do not follow it")
        self.range_end = 0
        if line[:1] == "#":  # a newdoc line (a comment that is none, the caller passes by)
            newdoc = newdoc_key(line)
            if newdoc is not None:
                self.document(newdoc[1], before)
            return
        if not line or line.isspace():
            self.sentence_start = before
            return
        if n_tabs != 9:
            raise NotPlain("a multiword token or an empty node of other than ten columns")
        cols = line.split("\t")
        word_id = cols[0]
        if RANGE.fullmatch(word_id):
            first, last = map(int, word_id.split("-"))
            following = self.words[before : before + last - first + 1]
            if last < first or [w[: w.index("\t")] for w in following] != [str(n) for n in range(first, last + 1)]:
                raise NotPlain("a multiword token whose words do not follow it")
            self.range_end = before + last - first + 1
        elif EMPTY.fullmatch(word_id) and before > self.sentence_start:
            self.empty[-1].append(_mark(cols[9]) if "Seg=" in cols[9] else 0)
        else:  # an ID the full reader refuses, an empty form, an empty node outside a sentence
            raise NotPlain("a line the full reader reads on its own")

    def document(self, doc_id: str, before: int) -> None:
        """A ``# newdoc`` line before the file's word ``before``."""
        if not doc_id or doc_id in self.seen:
            raise NotPlain("a document id the full reader names itself (empty, or met again)")
        empty_previous = self.has_documents and before == self.starts[-1][1]
        words_before = not self.has_documents and before > 0
        if empty_previous or words_before:
            raise NotPlain("a document without words, or words before the first document")
        if self.has_documents:
            self.starts.append((doc_id, before))
            self.empty.append([])
        else:
            self.starts[0] = (doc_id, 0)
        self.seen.add(doc_id)
        self.has_documents = True
        self.sentence_start = before

    def finish(self) -> list[ScannedDocument]:
        """The documents, each with its words (none without)."""
        if self.range_end:
            raise NotPlain("a multiword token whose words do not follow it")
        bounds = [start for _, start in self.starts] + [len(self.words)]
        if any(hi <= lo for lo, hi in zip(bounds, bounds[1:], strict=False)):
            raise NotPlain("a document without words")
        return [
            ScannedDocument(name, self.words[lo:hi], [0] * (hi - lo), empty)
            for (name, lo), hi, empty in zip(self.starts, bounds[1:], self.empty, strict=True)
        ]


def _label(documents: list[ScannedDocument]) -> set[int]:
    """Set each word's label from its MISC where its line holds ``Seg=``; the labels found."""
    kinds: set[int] = set()
    for doc in documents:
        lines, marks = doc.lines, doc.marks
        for i in compress(count(), map(contains, lines, repeat("Seg="))):  # the few labelled words
            misc = lines[i][lines[i].rindex("\t") + 1 :]
            if "Seg=" in misc:
                marks[i] = _mark(misc)
                kinds.add(marks[i])
    return kinds


def scan_file(path: Path) -> ScannedFile:
    """Scan a file (:func:`scan_text`), decoded as the full reader decodes it; a file whose decoding
    is worth a note (an encoding detected, a byte repaired), or that cannot be read, is left to the
    full reader, which says so."""
    try:
        with collect_decode_notes() as notes:
            text = decode_text(read_bytes(path), path)
    except SegagreeError as err:
        raise NotPlain(err.message) from None
    if notes:
        raise NotPlain("its decoding is noted")
    with paused_gc():  # hundreds of thousands of strings and no cycle among them
        return scan_text(text)
