"""The official scores of two neighbouring communities, on one shared token stream:

* **UD sentences** (CoNLL 2018 shared task, ``conll18_ud_eval.py``, metric "Sentences"): every
  sentence is a span; a system sentence is correct only if a gold sentence has the same start and
  end; precision = correct / system sentences, recall = correct / gold sentences, F1 =
  2 correct / (gold + system). The script compares spans of the files' characters (whitespace
  removed); on one shared token stream a span of characters and a span of tokens match alike.
* **DISRPT segmentation** (``seg_eval.py`` of the DISRPT shared tasks 2019-2023): token by token,
  micro-averaged over the file, a true positive where both mark ``BeginSeg``, a false negative
  where only the gold does, a false positive where only the prediction does; P = TP / (TP + FP),
  R = TP / (TP + FN), F = 2PR / (P + R), each 0 where its denominator is 0. On a ``connective``
  layer (PDTB-style corpora: the script's "conn" mode, chosen when the gold has no BeginSeg), the
  units are connective spans, matched exactly (same first and last token, no partial credit):
  TP = gold spans the prediction has, FN = the others, FP = predicted spans the gold lacks.

A layer holds the boundary *after* each token; a unit (sentence, EDU) begins after a boundary and
at the start of the stream. The document-initial token therefore always begins a unit here: the
DISRPT script counts it only where the file marks it (every gold file does), so the two differ only
for a prediction that leaves a document's first token unmarked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from segagree.metrics.contract import Card, Measure, TokenPair

__all__ = ["DISRPT_CARD", "MEASURES", "UD_SENTENCES_CARD", "MatchCounts", "MatchScore"]


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

    @property
    def precision(self) -> float:
        return self.counts.correct / self.counts.system if self.counts.system else 0.0

    @property
    def recall(self) -> float:
        return self.counts.correct / self.counts.gold if self.counts.gold else 0.0

    @property
    def value(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

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
        }


def unit_spans(codes: np.ndarray) -> set[tuple[int, int]]:
    """(first token, last token) of every unit of one stream; the stream's end closes the last."""
    ends = np.flatnonzero(np.asarray(codes) != 0).tolist()
    n = len(codes)
    if n and (not ends or ends[-1] != n - 1):
        ends.append(n - 1)
    starts = [0, *(e + 1 for e in ends[:-1])]
    return set(zip(starts, ends, strict=True))


def typed_spans(codes: np.ndarray, code: int) -> set[tuple[int, int]]:
    """(first token, last token) of every unit whose closing boundary is ``code``."""
    arr = np.asarray(codes)
    return {(s, e) for s, e in unit_spans(arr) if arr[e] == code}


#: The connective layer's span type (:func:`segagree.model.builtin_scheme` ``connective``).
CONNECTIVE_SYMBOL = "<conn>"


def connective_code(scheme: Any) -> int | None:
    """The code of a connective span's end in ``scheme``, or None (a scheme of units: EDU mode)."""
    symbols = [t.symbol for t in getattr(scheme, "types", ())]
    return symbols.index(CONNECTIVE_SYMBOL) + 1 if CONNECTIVE_SYMBOL in symbols else None


def unit_starts(codes: np.ndarray) -> set[int]:
    """The tokens that begin a unit: the first, and every one after a boundary."""
    n = len(codes)
    return ({0} if n else set()) | {int(i) + 1 for i in np.flatnonzero(np.asarray(codes)[:-1] != 0)}


UD_SENTENCES_CARD = Card.from_text(
    """
    title: UD sentence segmentation F1 (CoNLL 2018 shared task)
    definition: a system sentence is correct if a gold sentence has the same start and end; precision =
        correct / system sentences, recall = correct / gold sentences, F1 = 2 correct / (gold + system);
        A is the gold
    citation: Zeman et al. (2018), CoNLL 2018 Shared Task: Multilingual Parsing from Raw Text to Universal
        Dependencies
    reference: conll18_ud_eval.py 1.2, metric Sentences (its numbers on shared token streams)
    """,
    name="ud_sentences",
    needs="tokens",
    annotators="2",
    group="scorers",
)
DISRPT_CARD = Card.from_text(
    """
    title: DISRPT discourse segmentation F1 (seg_eval.py)
    definition: token by token, micro-averaged over the file: TP where both begin a unit (BeginSeg), FN where
        only A (the gold) does, FP where only B does; P = TP / (TP + FP), R = TP / (TP + FN), F = 2PR / (P + R).
        On a connective layer (Seg=B-Conn/I-Conn), connective spans matched exactly: TP = spans both have,
        FN = A's others, FP = B's others
    citation: Zeldes et al. (2019), The DISRPT 2019 Shared Task on Elementary Discourse Unit Segmentation and
        Connective Detection
    reference: DISRPT seg_eval.py 1.0.1 (EDU and connective modes); a stream's first token always begins a
        unit here
    """,
    name="disrpt_seg",
    needs="tokens",
    annotators="2",
    group="scorers",
)


class UdSentences(Measure[TokenPair, MatchCounts, MatchScore]):
    card = UD_SENTENCES_CARD

    def statistics(self, item: TokenPair, params: Mapping[str, Any]) -> MatchCounts:
        gold, system = unit_spans(item.a), unit_spans(item.b)
        return MatchCounts(len(gold & system), len(gold), len(system))

    def score(self, stats: MatchCounts, params: Mapping[str, Any]) -> MatchScore:
        return MatchScore(self.card.name, stats)


class DisrptSegmentation(Measure[TokenPair, MatchCounts, MatchScore]):
    card = DISRPT_CARD

    def statistics(self, item: TokenPair, params: Mapping[str, Any]) -> MatchCounts:
        code = connective_code(item.scheme)
        if code is not None:  # seg_eval.py's "conn" mode: exact spans
            spans_a, spans_b = typed_spans(item.a, code), typed_spans(item.b, code)
            return MatchCounts(len(spans_a & spans_b), len(spans_a), len(spans_b))
        gold, system = unit_starts(item.a), unit_starts(item.b)
        return MatchCounts(len(gold & system), len(gold), len(system))

    def score(self, stats: MatchCounts, params: Mapping[str, Any]) -> MatchScore:
        return MatchScore(self.card.name, stats)


MEASURES = (UdSentences(), DisrptSegmentation())
