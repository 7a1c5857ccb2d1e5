"""CoNLL-U (Universal Dependencies) and the DISRPT shared tasks' ``.tok`` / ``.conllu`` / ``.conll`` files.

CoNLL-U holds one word per line in ten tab-separated columns (ID, FORM, LEMMA, UPOS, XPOS, FEATS,
HEAD, DEPREL, DEPS, MISC), ``#`` comment lines, and a blank line after every sentence. DISRPT's
files use the same columns and mark discourse units in MISC: ``BeginSeg=Yes`` on a unit's first
word (its ``.tok`` files have no sentence breaks; its 2019 ``.conll`` files are CoNLL-U).

Mapping to the model (reading):

* **Tokens**: the syntactic words (integer IDs), as DISRPT's scorer counts them. A multiword token
  (a range line ``1-2``) is not a token: its words are; empty nodes (``1.1``) are not words. Both
  are kept with the words they stand by (noted: ``multiword-tokens``, ``empty-nodes``); an ID that
  is none of these is refused, as is a range its words do not follow.
* **Speakers**: each document (``# newdoc id = ...``, or DISRPT's ``# newdoc_id = ...``) is a
  speaker, its words one stream, so a DISRPT file's documents are scored one by one and pooled
  over the file (micro-average). Words before any ``newdoc`` belong to the speaker ``TEXT``; an
  empty id is ``document K`` made unique; an id met again continues its document (the speakers of
  a conversation written as documents take turns).
* **Layers**: ``sentence`` (scheme ``sentence``): a boundary after a sentence's last word, where
  the file has blank lines; ``edu`` (scheme ``edu``): a boundary before every ``BeginSeg=Yes``
  word (after the word before it) and at each document's end; ``connective`` (scheme
  ``connective``) where the file has PDTB-style connective spans (``Seg=B-Conn`` on a span's first
  word, ``Seg=I-Conn`` on the others). A layer holds a boundary after every unit and has no gaps,
  so the words outside connectives are units too: ``<conn>`` ends a connective span, ``<o>`` a
  maximal stretch of words outside connectives (two adjacent connectives are two ``<conn>``
  units). A span thus begins after a boundary and ends at ``<conn>``; an ``I-Conn`` with no
  connective before it is read as outside (``connective-orphans``). The main layer is ``edu``
  where the file marks units, else ``connective`` where it marks connectives, else ``sentence``.
* Every word's line is kept in the token column ``conllu``, the lines before it (comments, its
  document's newdoc line, a multiword token's range) in :data:`BEFORE` and the empty nodes after
  it in :data:`AFTER`, for the writer (:mod:`segagree.formats.conllu_write`), for the official
  scorers' own reading of the labels (:func:`script_marks`) and characters (:func:`surface_forms`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from segagree.errors import InputError, UsageError
from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.formats.base import Adapter
from segagree.formats.conllu_columns import (
    AFTER,
    B_CONN,
    BEFORE,
    BEGIN,
    CONN,
    EMPTY,
    I_CONN,
    NEWDOC_KEYS,
    NO_DOCUMENT,
    OUTSIDE,
    RANGE,
    WRITTEN_LAYERS,
    connective_labels,
    newdoc_key,
)
from segagree.formats.conllu_write import write
from segagree.model import Document, Layer, UnitColumns, builtin_scheme
from segagree.model.scheme import BoundaryScheme

_MAX_ID = 12  # longer word IDs (none in practice) are read one by one


@dataclass
class _Parsed:
    """A CoNLL-U file as read: its words in file order and what stands around them."""

    lines: list[str] = field(default_factory=list)  # each word's line, as written
    forms: list[str] = field(default_factory=list)
    begins: list[bool] = field(default_factory=list)  # MISC holds BeginSeg=Yes
    conn: list[str] = field(default_factory=list)  # "B", "I" or "" (Seg=B-Conn / Seg=I-Conn)
    sentence_end: list[bool] = field(default_factory=list)  # a blank line follows the word
    # (first word, document id as written; None for the words before any newdoc)
    runs: list[tuple[int, str | None]] = field(default_factory=list)
    # lines kept with a word: comments, newdoc and multiword-token lines before it, empty nodes after it
    before: dict[int, list[str]] = field(default_factory=dict)
    after: dict[int, list[str]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(("multiword", "empty", "comments"), 0))
    short: tuple[int, int] = (0, 0)  # word lines of fewer than ten columns, and the first's line number
    newdoc_key: str = ""
    wordless: list[str] = field(default_factory=list)  # documents that hold no word
    trailing: list[str] = field(default_factory=list)  # comment lines after the last word
    final_blank: bool = False  # a blank line after the last word


def _bad_id(word_id: str, path: Path, no: int) -> InputError:
    glued = re.match(r"([0-9]+)[^\W\d_]", word_id)  # "14si": the tab between the ID and the form lost
    hint = f" (a tab lost after {glued.group(1)}?)" if glued else ""
    return InputError(
        f"word ID {word_id!r} is not a number, a range (3-4) or an empty node (3.1){hint}",
        path=path,
        place=f"line {no}",
    )


def _parse(text: str, path: Path) -> _Parsed:
    """Read the lines: the word lines in bulk (where each line's tabs are, found by numpy over the
    characters), the few others (comments, blank lines, multiword tokens, empty nodes) one by one,
    so that reading costs no more than DISRPT's seg_eval.py's own loop over the file. A multiword
    token's range must be followed by its words."""
    if "\r" in text:  # (replacing costs a copy of the text even where there is nothing to replace)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text and not text.endswith("\n"):
        text += "\n"  # the last line ends like the others
    # one code per character (UTF-32): positions in the array are positions in the text
    chars = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    ends = np.flatnonzero(chars == 10)
    starts = np.concatenate(([0], ends[:-1] + 1)).astype(np.int64)
    tabs = np.flatnonzero(chars == 9)
    first_tab = np.searchsorted(tabs, starts)
    n_tabs = np.searchsorted(tabs, ends) - first_tab
    tab1 = tabs[np.minimum(first_tab, len(tabs) - 1)] if len(tabs) else starts
    tab2 = tabs[np.minimum(first_tab + 1, len(tabs) - 1)] if len(tabs) else starts
    id_length = tab1 - starts
    # A word has ten columns; one of three to nine (a column lost: real DISRPT releases have such lines)
    # is read as DISRPT's seg_eval.py reads it, its last column as MISC, and noted.
    word = (n_tabs >= 2) & (n_tabs <= 9) & (id_length > 0) & (id_length <= _MAX_ID)
    for j in range(int(id_length[word].max()) if word.any() else 0):  # an ID of ASCII digits only
        code = chars[np.minimum(starts + j, len(chars) - 1)]
        word &= (j >= id_length) | ((code >= 48) & (code <= 57))
    reader = _Lines(text, starts, ends, path)
    reader.tab1, reader.tab2 = tab1, tab2
    done = 0
    for k in np.flatnonzero(~word).tolist():
        if k > done:
            reader.words(done, k)
        reader.other(k, int(n_tabs[k]))
        done = k + 1
    if len(starts) > done:
        reader.words(done, len(starts))
    # the words whose line holds "Seg=" (a unit's or a connective's label, in MISC or elsewhere)
    short = np.flatnonzero(word & (n_tabs < 9))
    reader.out.short = (len(short), int(short[0]) + 1 if len(short) else 0)
    found = np.searchsorted(ends, [m.start() for m in re.finditer("Seg=", text)])  # sorted
    # each row once (np.unique would import numpy.ma: a tenth of the reading)
    seg_rows = found[np.concatenate(([True], found[1:] != found[:-1]))] if len(found) else found
    word_rows = np.flatnonzero(word)
    seg_rows = seg_rows[word[seg_rows]] if len(seg_rows) else seg_rows
    return reader.finish(np.searchsorted(word_rows, seg_rows).tolist())


class _Lines:
    """The state of :func:`_parse`: the words so far, and the lines waiting for the next word."""

    def __init__(self, text: str, starts: np.ndarray, ends: np.ndarray, path: Path) -> None:
        self.text, self.starts, self.ends, self.path = text, starts, ends, path
        self.rows = text.split("\n")
        self.tab1 = self.tab2 = starts
        self.out = _Parsed()
        self.pending: list[str] = []  # lines waiting for the next word
        self.doc_open = False  # a newdoc line is waiting for its first word
        self.range_end = 0  # the last word of the multiword token being read
        self.range_first = 0  # the word a multiword token's range line waits for (0: none)
        self.range_id = ""  # the range of the last multiword token, as written
        self.sentence_words = 0  # the words of the sentence being read
        self.last_word = 0  # the ID of the sentence's last word

    def line(self, k: int) -> str:
        return self.rows[k]

    def words(self, lo: int, hi: int) -> None:
        """Word lines ``lo`` to ``hi`` (exclusive): three to ten columns, a number for ID."""
        out, text = self.out, self.text
        a, b = self.tab1[lo:hi] + 1, self.tab2[lo:hi]
        empty = np.flatnonzero(a == b)
        if len(empty):
            raise InputError("empty FORM", path=self.path, place=f"line {lo + int(empty[0]) + 1}")
        if self.range_first:
            first = int(text[int(self.starts[lo]) : int(self.tab1[lo])])
            if first != self.range_first:
                raise InputError(
                    f"the multiword token before this word begins at word {self.range_first}, not {first}",
                    path=self.path,
                    place=f"line {lo + 1}",
                )
            self.range_first = 0
            last = lo + self.range_end - first  # the token's last word, where its words follow it in order
            if last < hi and text[int(self.starts[last]) : int(self.tab1[last])] == str(self.range_end):
                self.range_end = 0  # read whole (the IDs may start again later, with no blank line between)
        if self.pending:
            out.before[len(out.lines)] = self.pending
            self.pending = []
        if not out.runs:
            out.runs.append((0, None))  # words before any newdoc
        self.doc_open = False
        out.lines.extend(self.rows[lo:hi])
        out.forms.extend([text[x:y] for x, y in zip(a.tolist(), b.tolist(), strict=True)])
        out.sentence_end.extend([False] * (hi - lo))
        self.sentence_words += hi - lo
        self.last_word = int(text[int(self.starts[hi - 1]) : int(self.tab1[hi - 1])])

    def other(self, k: int, n_tabs: int) -> None:
        """Line ``k``: blank, a comment, a multiword token or an empty node (else an error)."""
        line, no, out = self.line(k), k + 1, self.out
        if not line or line.isspace():
            self.check_range(no)
            if self.sentence_words:
                out.sentence_end[-1] = True
            self.sentence_words = 0
        elif line[0] == "#":
            newdoc = newdoc_key(line)
            if newdoc is None:
                out.counts["comments"] += 1
            else:
                self.check_range(no)
                if self.doc_open:
                    out.wordless.append(out.runs.pop()[1] or "(empty id)")
                out.newdoc_key = out.newdoc_key or newdoc[0]  # the file's first spelling is written back
                out.runs.append((len(out.lines), newdoc[1]))
                self.doc_open = True
                if newdoc[1] and line == f"# {out.newdoc_key} = {newdoc[1]}":
                    return  # the line the writer writes: nothing to keep (a .tok file keeps no column)
            self.pending.append(line)
        elif n_tabs == 9:
            self.node(line, line[: line.index("\t")], no)
        elif 2 <= n_tabs <= 8 and not (
            RANGE.fullmatch(word_id := line[: line.index("\t")]) or EMPTY.fullmatch(word_id)
        ):
            raise _bad_id(word_id, self.path, no)  # a word's columns, not a word's ID
        else:
            raise InputError(
                f"expected 10 tab-separated columns, found {n_tabs + 1}", path=self.path, place=f"line {no}"
            )

    def node(self, line: str, word_id: str, no: int) -> None:
        """A multiword token's range line or an empty node, kept with the words it stands by."""
        out = self.out
        if RANGE.fullmatch(word_id):
            first, last = map(int, word_id.split("-"))
            self.check_range(no)
            if last < first:
                raise InputError(f"multiword token {word_id} ends before it begins", path=self.path, place=f"line {no}")
            out.counts["multiword"] += 1
            self.range_first, self.range_end, self.range_id = first, last, word_id
            self.pending.append(line)
        elif EMPTY.fullmatch(word_id):
            out.counts["empty"] += 1
            if self.sentence_words and not self.pending:
                out.after.setdefault(len(out.lines) - 1, []).append(line)
            else:
                self.pending.append(line)
        else:
            raise _bad_id(word_id, self.path, no)

    def check_range(self, no: int | None) -> None:
        """A multiword token read before line ``no`` (None: the file's end) must have had its words."""
        if self.range_first or self.range_end > self.last_word:
            where = f"before line {no}" if no else "at the file's end"
            raise InputError(
                f"the multiword token {self.range_id} has not had its words "
                f"(the last word is {self.last_word}) {where}",
                path=self.path,
                place=None if no is None else f"line {no}",
            )
        self.range_end = 0

    def finish(self, labelled: list[int]) -> _Parsed:
        """The words read, ``labelled`` those whose line holds ``Seg=``."""
        out = self.out
        self.check_range(None)
        if self.doc_open:
            out.wordless.append(out.runs.pop()[1] or "(empty id)")
        out.trailing = self.pending
        out.final_blank = bool(out.sentence_end) and out.sentence_end[-1]
        n = len(out.lines)
        out.begins, out.conn = [False] * n, [""] * n
        for i in labelled:
            line = out.lines[i]
            items = line[line.rindex("\t") + 1 :].split("|")
            out.begins[i] = BEGIN in items
            out.conn[i] = "B" if B_CONN in items else "I" if I_CONN in items else ""
        return out


def _document_names(ids: list[str | None]) -> list[str]:
    """Each run's document name: its id; words before any newdoc are the document ``TEXT``; an
    empty id is ``document K`` (its place among the file's newdoc lines), made unique among the
    file's ids so that it never joins a document of that name."""
    taken = {i for i in ids if i}
    names = []
    for k, doc_id in enumerate(ids, 1):
        if doc_id:
            names.append(doc_id)
            continue
        base = NO_DOCUMENT if doc_id is None else f"document {k}"
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base} ({n})"
        taken.add(name)
        names.append(name)
    return names


def document_ids(path: Path) -> list[str]:
    """The ids of a file's documents that hold words, in order of first appearance, as :func:`read`
    names its speakers; an InputError where :func:`read` gives one."""
    parsed = _parse(decode_text(read_bytes(path), path), path)
    return list(dict.fromkeys(_document_names([doc_id for _, doc_id in parsed.runs])))


def read(path: Path, *, scheme: BoundaryScheme, **options: Any) -> Document:
    """Read a CoNLL-U or DISRPT file (see the module docstring); ``scheme`` is not used."""
    if options:
        raise UsageError(f"unknown CoNLL-U reader option(s) {sorted(options)}")
    parsed = _parse(decode_text(read_bytes(path), path), path)
    n = len(parsed.lines)
    if not n:
        raise InputError("no words: a CoNLL-U file needs at least one word line", path=path)
    starts = [first for first, _ in parsed.runs]
    run_names = _document_names([doc_id for _, doc_id in parsed.runs])
    sizes = np.diff(np.asarray([*starts, n], dtype=np.int64))
    run_last = np.zeros(n, dtype=bool)
    run_last[np.cumsum(sizes) - 1] = True
    begins = np.asarray(parsed.begins, dtype=bool)
    ends = np.asarray(parsed.sentence_end, dtype=bool)
    has_units, has_conn = bool(begins.any()), any(parsed.conn)
    has_sentences = bool((ends & ~run_last).any()) or not (has_units or has_conn)
    codes: dict[str, np.ndarray] = {}
    if has_units:
        edu = run_last.copy()
        edu[:-1] |= begins[1:]
        codes["edu"] = edu.astype(np.int16)
    orphans = 0
    if has_conn:
        codes["connective"], orphans = _connective_codes(parsed.conn, starts, n)
    if has_sentences:
        codes["sentence"] = (ends | run_last).astype(np.int16)
    main_layer = next(name for name in ("edu", "connective", "sentence") if name in codes)
    main = codes[main_layer]
    cut = np.flatnonzero(main)
    names = list(dict.fromkeys(run_names))
    run_of_unit = np.searchsorted(np.asarray(starts), cut, side="right") - 1
    units = UnitColumns(
        speakers=[run_names[k] for k in run_of_unit.tolist()],
        texts=np.asarray(parsed.forms, dtype=object),
        sizes=np.diff(np.concatenate(([-1], cut))).tolist(),
        boundaries=main[cut].tolist(),
        starts=[np.nan] * len(cut),
        ends=[np.nan] * len(cut),
    )
    blank_between = len(starts) > 1 and bool(ends[np.asarray(starts[1:]) - 1].all())
    doc = units.build(
        path.name,
        layer=main_layer,
        scheme=builtin_scheme(main_layer),
        speakers=names,
        extra_layers={k: (builtin_scheme(k), v) for k, v in codes.items() if k != main_layer},
        source_path=str(path),
        source_format="conllu",
        meta={
            "documents": names if names != [NO_DOCUMENT] else [],
            "newdoc": parsed.newdoc_key or NEWDOC_KEYS[0],
            # DISRPT's .tok files have no sentences but a blank line between documents
            "blank_between_documents": blank_between,
            "final_blank": parsed.final_blank,
        },
    )
    doc.set_column("conllu", parsed.lines)
    if parsed.before or parsed.after:
        doc.set_column(BEFORE, _sparse(parsed.before, n))
        doc.set_column(AFTER, _sparse(parsed.after, n))
    _note_reading(doc, parsed, orphans)
    return doc


def _sparse(lines: dict[int, list[str]], n: int) -> np.ndarray:
    out = np.full(n, "", dtype=object)
    for i, kept in lines.items():
        out[i] = "\n".join(kept)
    return out


def _connective_codes(labels: list[str], starts: list[int], n: int) -> tuple[np.ndarray, int]:
    """The ``connective`` layer's code after each word (:data:`CONN` where a connective span ends,
    :data:`OUTSIDE` where a stretch outside connectives ends, 0 inside either), each run of a
    document closed at its end, and the number of ``I-Conn`` words with no connective before them
    (read as outside, as seg_eval.py ignores spans that do not begin with B-Conn)."""
    codes = np.zeros(n, dtype=np.int16)
    orphans = 0
    bounds = [*starts, n]
    for lo, hi in zip(bounds, bounds[1:], strict=False):
        inside = False
        for i in range(lo, hi):
            label = labels[i]
            if label == "B":
                inside = True
            elif label == "I":
                orphans += not inside
            else:
                inside = False
            nxt = labels[i + 1] if i + 1 < hi else ""
            if i == hi - 1:
                codes[i] = CONN if inside else OUTSIDE
            elif inside:  # a span ends before a word that is not its I-Conn
                codes[i] = 0 if nxt == "I" else CONN
            elif nxt == "B":
                codes[i] = OUTSIDE
    return codes, orphans


def _note_reading(doc: Document, parsed: _Parsed, orphans: int) -> None:
    """What the model does not score, said: kept lines and orphans (reported by their count)."""
    counts = {**parsed.counts, "orphans": orphans}
    notes = {
        "multiword": ("multiword-tokens", "multiword token lines are not tokens (their words are): kept for CoNLL-U"),
        "empty": ("empty-nodes", "empty nodes (enhanced dependencies) are not words: kept for CoNLL-U"),
        "comments": ("comments", "comment lines other than '# newdoc id' are not scored: kept for CoNLL-U"),
        "orphans": (
            "connective-orphans",
            "Seg=I-Conn words with no connective before them are read as outside connectives "
            "(seg_eval.py counts no span that does not begin with B-Conn); kept for CoNLL-U",
        ),
    }
    for key, (kind, message) in notes.items():
        if counts[key]:
            doc.losses.note(kind, message, count=counts[key])
    if parsed.short[0]:
        doc.losses.note(
            "short-lines",
            "word lines of fewer than ten columns (the first at line "
            f"{parsed.short[1]}) are read as DISRPT's seg_eval.py reads them: the second column is the form, the "
            "last MISC; kept as written",
            count=parsed.short[0],
        )
    if parsed.wordless:
        doc.losses.add("documents-dropped", "documents without words are not kept", where=", ".join(parsed.wordless))
    if parsed.trailing:
        doc.losses.add("comments", "comment lines after the last word are not kept", count=len(parsed.trailing))


def with_unmarked_layer(doc: Document, name: str) -> Document:
    """``doc`` with the layer ``name`` (``edu`` or ``connective``) a CoNLL-U file that marks none
    of its kind has: a prediction that begins no unit (no ``BeginSeg=Yes``) or finds no connective
    reads without that layer, and is scored as a file with none (each document one unit, or one
    stretch outside connectives), as the official scorer scores it. Other documents unchanged."""
    if doc.source_format != ADAPTER.name or name in doc.layers or name not in ("edu", "connective"):
        return doc
    codes = np.zeros(doc.n_tokens, dtype=np.int16)
    for rows in doc.speaker_rows().values():
        if len(rows):
            codes[rows[-1]] = 1 if name == "edu" else OUTSIDE
    return doc.replace(layers={**doc.layers, name: Layer(name, builtin_scheme(name), codes)})


def surface_forms(doc: Document) -> list[str]:
    """Each token's characters as ``conll18_ud_eval.py`` counts them: its form without whitespace
    (Unicode category Zs), and a multiword token's form on its first word (its other words none).
    A Document not read from CoNLL-U: its tokens' texts without whitespace."""
    import unicodedata

    def bare(form: str) -> str:
        return "".join(ch for ch in form if unicodedata.category(ch) != "Zs") if not form.isalnum() else form

    forms = [bare(f) for f in doc.column("text").tolist()]
    if BEFORE not in doc.column_names():
        return forms
    for i, kept in enumerate(doc.column(BEFORE).tolist()):
        for line in kept.split("\n") if kept else ():
            cols = line.split("\t")
            if len(cols) == 10 and RANGE.fullmatch(cols[0]):
                first, last = map(int, cols[0].split("-"))
                forms[i] = bare(cols[1])
                for k in range(i + 1, min(i + last - first + 1, len(forms))):
                    forms[k] = ""
    return forms


def script_marks(doc: Document) -> np.ndarray | None:
    """Each token's DISRPT label as ``seg_eval.py`` reads its MISC column (the first of
    ``BeginSeg=Yes``, ``Seg=B-Conn``, ``Seg=I-Conn`` the field holds, as a substring; codes of
    :data:`segagree.metrics.boundary.segment_match.MARKS`), from the words' kept columns, whatever
    layer is compared (the script reads the labels, not a layer); None where the Document has none,
    or where its label layer (``edu``, else ``connective``) no longer says what they say (a Document
    changed since it was read)."""
    if "conllu" not in doc.column_names():
        return None
    kept = doc.column("conllu").tolist()
    marks = np.zeros(len(kept), dtype=np.int8)
    for i in [i for i, line in enumerate(kept) if "Seg=" in line]:  # the few labelled words only
        value = kept[i][kept[i].rfind("\t") + 1 :]
        marks[i] = 1 if BEGIN in value else 2 if B_CONN in value else 3 if I_CONN in value else 0
    first = np.zeros(len(kept), dtype=bool)
    for rows in doc.speaker_rows().values():
        if len(rows):
            first[rows[0]] = True
    if "edu" in doc.layers:
        codes = doc.layers["edu"].boundaries
        starts = np.zeros(len(kept), dtype=bool)
        starts[1:] = codes[:-1] != 0
        agrees = np.array_equal((marks == 1) & ~first, starts & ~first)
    elif "connective" in doc.layers:
        labels = connective_labels(doc)
        agrees = all((m == 2) == (lab == "B") for m, lab in zip(marks.tolist(), labels, strict=True))
    else:  # a file of sentences: no label (else it would have a label layer)
        agrees = not marks.any()
    return marks if agrees else None


def empty_node_marks(doc: Document) -> dict[int, list[int]]:
    """Token row -> the DISRPT labels of the empty nodes kept with it (``4.1`` lines, which
    ``seg_eval.py`` counts as tokens of their own), read as :func:`script_marks` reads a word's."""
    out: dict[int, list[int]] = {}
    for column in (BEFORE, AFTER):
        if column not in doc.column_names():
            continue
        kept = doc.column(column)
        for i in np.flatnonzero(kept != "").tolist():  # the few words with kept lines
            for line in kept[i].split("\n"):
                cols = line.split("\t")
                if len(cols) == 10 and EMPTY.fullmatch(cols[0]):
                    value = cols[9]
                    mark = 1 if BEGIN in value else 2 if B_CONN in value else 3 if I_CONN in value else 0
                    out.setdefault(i, []).append(mark)
    return out


ADAPTER = Adapter(
    name="conllu",
    extensions=(".conllu", ".conll", ".tok"),
    description="CoNLL-U (Universal Dependencies sentences) and DISRPT .tok/.conllu (2019: .conll) discourse units "
    "(BeginSeg=Yes) and connective spans (Seg=B-Conn/I-Conn); documents (# newdoc id) as speakers",
    read=read,
    write=write,
)


__all__ = [
    "AFTER",
    "ADAPTER",
    "BEFORE",
    "NEWDOC_KEYS",
    "NO_DOCUMENT",
    "WRITTEN_LAYERS",
    "document_ids",
    "empty_node_marks",
    "read",
    "script_marks",
    "surface_forms",
    "with_unmarked_layer",
    "write",
]
