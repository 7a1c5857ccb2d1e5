"""The official scores of two neighbouring communities:

* **UD sentences** (CoNLL 2018 shared task, ``conll18_ud_eval.py``, metric "Sentences"): every
  sentence is a span of the file's characters (its words' forms with whitespace removed, a
  multiword token's form for its words); a system sentence is correct only if a gold sentence has
  the same start and end; precision = correct / system sentences, recall = correct / gold
  sentences, F1 = 2 correct / (gold + system). Any two tokenisations of the same characters are
  compared (``Occidental.`` against ``Occidental`` ``.``); files whose characters differ are
  refused, as the script refuses them.
* **DISRPT segmentation** (``seg_eval.py`` of the DISRPT shared tasks 2019-2023): token by token,
  micro-averaged over the file, a true positive where both files have the same label (BeginSeg),
  a false negative where only the gold has one, a false positive where the prediction has another
  (P = TP / (TP + FP), R = TP / (TP + FN), F = 2PR / (P + R), each 0 where its denominator is 0).
  On a ``connective`` layer (PDTB-style corpora: the script's "conn" mode), the units are
  connective spans, matched exactly (same first and last token, no partial credit): TP = gold
  spans the prediction has, FN = the others, FP = predicted spans the gold lacks. Where both files
  are CoNLL-U the labels are read as the script reads them (:data:`MARKS`), and the spans as
  either version of the script builds them (:func:`script_spans`: 2023 by default, ``version
  2019``); elsewhere from the layer.

A layer holds the boundary *after* each token; a unit (sentence, EDU) begins after a boundary and
at the start of the stream. The script counts a document's first token only where the file marks
it (``first_token = marked``, the default); ``first_token = always`` counts it as a unit start in
both files, as the layer reads it.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    import numpy as np

from segagree.errors import SegagreeError, UsageError
from segagree.metrics.contract import Card, CharacterPair, Measure, TokenPair

__all__ = [
    "DISRPT_CARD",
    "MARKS",
    "character_difference",
    "MEASURES",
    "UD_SENTENCES_CARD",
    "MatchCounts",
    "MatchScore",
    "ScriptSpans",
    "StreamSpans",
    "disrpt_parameters",
    "script_counts",
    "script_spans",
]

#: A token's DISRPT label as seg_eval.py reads MISC (the first of these it finds in the field):
#: its code is the index here.
MARKS = ("_", "BeginSeg=Yes", "Seg=B-Conn", "Seg=I-Conn")
NONE, BEGIN_SEG, B_CONN, I_CONN = range(4)
VERSIONS = ("2023", "2019")


@dataclass(frozen=True)
class MatchCounts:
    """Additive counts: units (or unit starts) both have, the gold's (A's) and the system's (B's)."""

    correct: int = 0
    gold: int = 0
    system: int = 0

    def __add__(self, other: MatchCounts) -> MatchCounts:
        return MatchCounts(self.correct + other.correct, self.gold + other.gold, self.system + other.system)


@dataclass(frozen=True)
class MatchScore:
    """Precision, recall and F1 of summed :class:`MatchCounts` (``value`` is F1)."""

    measure: str
    counts: MatchCounts
    signature: str = ""

    # Where a denominator is 0, the scripts' figure is the integer 0 (seg_eval.py prints "0", not
    # "0.0"): so is it here, to the printed digit.

    @property
    def precision(self) -> float:
        return self.counts.correct / self.counts.system if self.counts.system else 0

    @property
    def recall(self) -> float:
        return self.counts.correct / self.counts.gold if self.counts.gold else 0

    @property
    def value(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0

    def to_dict(self) -> dict[str, Any]:
        c = self.counts
        return {
            "value": self.value,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.value,
            "correct": c.correct,
            "gold": c.gold,
            "system": c.system,
            **({"signature": self.signature} if self.signature else {}),
        }


# No numpy here: DISRPT's scorer reads a file in a tenth of a second, and so must segagree's own
# reading of it (segagree.scoring.tokens.disrpt_files), which loads this module without the model.


#: A stream's codes: a list (the scan of a file) or a numpy array (a Document's layer).
Codes = Union[Sequence[int], "np.ndarray"]  # noqa: UP007


def _listed(codes: Codes) -> list[int]:
    """A stream's codes as a list (a numpy array's ``tolist``, or any sequence)."""
    return codes.tolist() if hasattr(codes, "tolist") else list(codes)


def unit_spans(codes: Codes) -> set[tuple[int, int]]:
    """(first token, last token) of every unit of one stream; the stream's end closes the last."""
    values = _listed(codes)
    ends = [i for i, c in enumerate(values) if c != 0]
    n = len(values)
    if n and (not ends or ends[-1] != n - 1):
        ends.append(n - 1)
    starts = [0, *(e + 1 for e in ends[:-1])]
    return set(zip(starts, ends, strict=True))


def typed_spans(codes: Codes, code: int) -> set[tuple[int, int]]:
    """(first token, last token) of every unit whose closing boundary is ``code``."""
    values = _listed(codes)
    return {(s, e) for s, e in unit_spans(values) if values[e] == code}


#: The connective layer's span type (:func:`segagree.model.builtin_scheme` ``connective``).
CONNECTIVE_SYMBOL = "<conn>"


def connective_code(scheme: Any) -> int | None:
    """The code of a connective span's end in ``scheme``, or None (a scheme of units: EDU mode)."""
    symbols = [t.symbol for t in getattr(scheme, "types", ())]
    return symbols.index(CONNECTIVE_SYMBOL) + 1 if CONNECTIVE_SYMBOL in symbols else None


def unit_starts(codes: Codes) -> set[int]:
    """The tokens that begin a unit: the first, and every one after a boundary."""
    values = _listed(codes)
    return ({0} if values else set()) | {i + 1 for i, c in enumerate(values[:-1]) if c != 0}


UD_SENTENCES_CARD = Card.from_text(
    """
    title: UD sentence segmentation F1 (CoNLL 2018 shared task)
    definition: sentences as spans of the files' characters (whitespace removed); a system sentence is
        correct if a gold sentence has the same start and end; precision = correct / system sentences,
        recall = correct / gold sentences, F1 = 2 correct / (gold + system); A is the gold. Any two
        tokenisations of the same characters; files whose characters differ are refused
    citation: Zeman et al. (2018), CoNLL 2018 Shared Task: Multilingual Parsing from Raw Text to Universal
        Dependencies
    reference: conll18_ud_eval.py 1.2, metric Sentences
    notes: always the files' sentences (blank lines), whatever layer is compared; a file without
        sentence breaks is one sentence per document
    """,
    name="ud_sentences",
    needs="characters",
    annotators="2",
    group="scorers",
)
DISRPT_CARD = Card.from_text(
    """
    title: DISRPT discourse segmentation F1 (seg_eval.py)
    definition: token by token, micro-averaged over the file: TP where both files have a label (BeginSeg),
        FN where only A (the gold) does, FP where B has another; P = TP / (TP + FP), R = TP / (TP + FN),
        F = 2PR / (P + R). On a connective layer (Seg=B-Conn/I-Conn), connective spans matched exactly:
        TP = spans both have, FN = A's others, FP = B's others
    citation: Zeldes et al. (2019), The DISRPT 2019 Shared Task on Elementary Discourse Unit Segmentation and
        Connective Detection
    parameters:
        version = 2023
        first_token = marked
    reference: DISRPT seg_eval.py 1.0.1 of the 2023 shared task (version = 2023) or of 2019 (version = 2019:
        a connective right after another is lost, an I-Conn run on after one begins the next); a
        document's first token counts where the file marks it (first_token = marked) or always
        (first_token = always)
    notes: where the files are not CoNLL-U the layer's units are scored (the first token always
        begins one); connective spans are built over the whole file, as the script builds them,
        and counted in the document where they begin when documents are paired by id
    """,
    name="disrpt_seg",
    needs="tokens",
    annotators="2",
    group="scorers",
)


def character_difference(a: str, b: str) -> str:
    """Where two files' characters differ, as ``conll18_ud_eval.py`` says it (its first 20
    differing characters); "" where they are the same."""
    if a == b:
        return ""
    k = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return (
        "the concatenation of the words differs between the gold and the system file (whitespace ignored), "
        f"so their sentences cannot be compared: first differing characters at character {k}: gold "
        f"{a[k : k + 20]!r}, system {b[k : k + 20]!r}"
    )


def sentence_counts(item: CharacterPair) -> MatchCounts:
    """conll18_ud_eval.py's ``spans_score`` of the two files' sentences (their characters must be
    the same: otherwise a SegagreeError with the first 20 differing characters, as the script's)."""
    differs = character_difference(item.chars_a, item.chars_b)
    if differs:
        raise SegagreeError(differs)
    gold, system = list(item.spans_a), list(item.spans_b)
    correct, gi, si = 0, 0, 0
    while gi < len(gold) and si < len(system):
        if system[si][0] < gold[gi][0]:
            si += 1
        elif gold[gi][0] < system[si][0]:
            gi += 1
        else:
            correct += gold[gi][1] == system[si][1]
            si += 1
            gi += 1
    return MatchCounts(correct, len(gold), len(system))


def script_spans(marks: Codes, version: str = "2023", after: int = -1) -> set[tuple[int, int]]:
    """The connective spans ``seg_eval.py``'s ``parse_data`` builds from a stream's labels
    (:data:`MARKS` codes), quirks included: a span ends at a word without a label; an ``I-Conn``
    moves the end of the span being read (or, after none, of the next one); the file's last span
    is kept only if it has an end. The 2023 script also closes a span at the next ``B-Conn``; the
    2019 script does not (the later ``B-Conn`` takes its place). ``after``: the label of the word
    the file has after this stream (another document's first), -1 at the file's end; a span open
    at the stream's end is closed there as that word closes it (one that runs on into the next
    document, an ``I-Conn`` there, ends here)."""
    if version not in VERSIONS:
        raise UsageError(f"disrpt_seg: version is 2023 or 2019, not {version!r}")
    spans: set[tuple[int, int]] = set()
    start = end = -1
    closes = version == "2023"
    for i, mark in enumerate(_listed(marks)):
        if mark == B_CONN:
            if closes and start > -1:
                spans.add((start, end if end != -1 else start))
                end = -1
            start = i
        elif mark == I_CONN:
            end = i
        elif mark == NONE and start > -1:  # (a BeginSeg label leaves the span as it is)
            spans.add((start, end if end != -1 else start))
            start = end = -1
    if start > -1 and (end > -1 or (after > -1 and (closes or after != B_CONN))):
        spans.add((start, end if end != -1 else start))
    return spans


def _labels_counts(gold: Codes, pred: Codes) -> MatchCounts:
    """seg_eval.py's EDU mode, position by position: TP where the labels are equal and not ``_``,
    FN where only the gold has one, FP where the prediction has another."""
    tp = fn = fp = 0
    for g, p in zip(_listed(gold), _listed(pred), strict=True):
        if g != p:
            if p == NONE:
                fn += 1
            else:
                fp += 1
        elif g != NONE:
            tp += 1
    return MatchCounts(tp, tp + fn, tp + fp)


class ScriptSpans:
    """A file's connective spans as ``seg_eval.py`` builds them, over the whole file as one stream
    (:func:`script_spans`), each version once: a span that runs from one document into the next is
    the script's too. :meth:`within` gives those that begin in one stream (a document), relative to its
    first word, so that per-document counts add up to the script's."""

    def __init__(self, marks: Codes) -> None:
        self.marks = _listed(marks)
        self._spans: dict[str, list[tuple[int, int]]] = {}

    def within(self, version: str, start: int, stop: int) -> set[tuple[int, int]]:
        """The spans that begin at a word of ``start`` to ``stop`` (exclusive), relative to ``start``."""
        if version not in self._spans:
            self._spans[version] = sorted(script_spans(self.marks, version))
        spans = self._spans[version]
        lo = bisect.bisect_left(spans, (start, -1))
        hi = bisect.bisect_left(spans, (stop, -1))
        return {(s - start, e - start) for s, e in spans[lo:hi]}


@dataclass(frozen=True)
class StreamSpans:
    """One stream's place in its file (words ``start`` to ``stop``) and the file's :class:`ScriptSpans`."""

    file: ScriptSpans
    start: int
    stop: int

    def spans(self, version: str) -> set[tuple[int, int]]:
        return self.file.within(version, self.start, self.stop)


def script_counts(
    marks_a: Codes,
    marks_b: Codes,
    *,
    connective: bool,
    version: str = "2023",
    after: tuple[int, int] = (-1, -1),
    in_files: tuple[StreamSpans, StreamSpans] | None = None,
) -> MatchCounts:
    """``seg_eval.py``'s counts of one stream from both files' labels (:data:`MARKS` codes): EDU mode
    label by label (:func:`_labels_counts`); ``connective``: the connective spans each version of the
    script builds, over each whole file (``in_files``: the stream's place in each) or, where the stream
    has no place in its file (its words aligned), over the stream (:func:`script_spans`, ``after``: each
    file's label of the word after the stream)."""
    if not connective:
        return _labels_counts(marks_a, marks_b)
    if in_files is not None:
        spans_a, spans_b = in_files[0].spans(version), in_files[1].spans(version)
    else:
        spans_a = script_spans(marks_a, version, after[0])
        spans_b = script_spans(marks_b, version, after[1])
    return MatchCounts(len(spans_a & spans_b), len(spans_a), len(spans_b))


def disrpt_parameters(params: Mapping[str, Any]) -> tuple[str, str]:
    """``disrpt_seg``'s ``version`` and ``first_token``, checked (a UsageError names a wrong value)."""
    version = str(params.get("version") or "2023")
    first = str(params.get("first_token") or "marked")
    if version not in VERSIONS or first not in ("marked", "always"):
        raise UsageError(
            f"disrpt_seg: version is 2023 or 2019 (not {version!r}), first_token marked or always (not {first!r})"
        )
    return version, first


class UdSentences(Measure[CharacterPair, MatchCounts, MatchScore]):
    card = UD_SENTENCES_CARD

    def statistics(self, item: CharacterPair, params: Mapping[str, Any]) -> MatchCounts:
        return sentence_counts(item)

    def score(self, stats: MatchCounts, params: Mapping[str, Any]) -> MatchScore:
        return MatchScore(self.card.name, stats, "ud_sentences|conll18_ud_eval:1.2|on:characters")


class DisrptSegmentation(Measure[TokenPair, MatchCounts, MatchScore]):
    card = DISRPT_CARD

    def statistics(self, item: TokenPair, params: Mapping[str, Any]) -> MatchCounts:
        version, first = disrpt_parameters(params)
        marks = item.marks_a is not None and item.marks_b is not None
        code = connective_code(item.scheme)
        # the script's mode: from the gold's labels where they are read, else from the layer compared
        connective = item.marks_connective if marks and item.marks_connective is not None else code is not None
        if marks and (connective or first == "marked"):  # the labels as the script reads them
            assert item.marks_a is not None and item.marks_b is not None
            return script_counts(
                item.marks_a,
                item.marks_b,
                connective=connective,
                version=version,
                after=item.marks_next,
                in_files=item.marks_in_files,
            )
        if code is not None:  # seg_eval.py's "conn" mode: exact spans
            spans_a, spans_b = typed_spans(item.a, code), typed_spans(item.b, code)
            return MatchCounts(len(spans_a & spans_b), len(spans_a), len(spans_b))
        gold, system = unit_starts(item.a), unit_starts(item.b)
        return MatchCounts(len(gold & system), len(gold), len(system))

    def score(self, stats: MatchCounts, params: Mapping[str, Any]) -> MatchScore:
        version, first = str(params.get("version") or "2023"), str(params.get("first_token") or "marked")
        return MatchScore(self.card.name, stats, f"disrpt_seg|seg_eval:1.0.1/{version}|first_token:{first}")


MEASURES = (UdSentences(), DisrptSegmentation())
