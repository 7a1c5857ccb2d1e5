"""The RST-DT EDU segmentation score: intra-sentential EDU boundaries, micro-averaged over the file.

Soricut & Marcu (2003) score a discourse segmenter on RST-DT by the EDU boundaries *inside*
sentences only (a sentence's end is always an EDU boundary, and counting it would reward nothing);
NeuralEDUSeg (Wang, Li & Yang 2018) and the segmenters compared with it report the same figure.
This module counts exactly as NeuralEDUSeg's code does (``rst_edu_reader.py`` ``read_samples``,
``base_seg.py`` ``evaluate``):

* the gold EDUs are grouped by sentence, an EDU belonging to the sentence of its **last** word
  (``preprocess.py`` sets ``sent_idx`` so); each group is one sample;
* the gold's boundaries of a sample are the ends of its EDUs but the last (``edu_seg_indices``
  with its last entry popped);
* the system's boundaries of a sample are its EDU ends inside the sample, the sample's last word
  excluded;
* over the file: correct = boundaries both have, P = correct / system, R = correct / gold,
  F1 = 2PR / (P + R), each 0 where its denominator (or P + R) is 0.

Where every sentence ends with a gold EDU (RST-DT's usual case) a sample is a sentence. Where a gold
EDU runs across a sentence end, its sentence and the one it ends in form one sample, and a system
boundary at that sentence end counts (as a false positive), as in the reference.

One difference: NeuralEDUSeg's model labels each word of a sample, so a label on a sample's first
word counts as a system boundary (always a false positive); in a file the boundary before that word
is the previous sample's end, which is not counted on either side.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from segagree.errors import SegagreeError
from segagree.metrics.boundary.segment_match import MatchCounts, MatchScore
from segagree.metrics.contract import Card, Measure, TokenPair

__all__ = ["EDUS_CARD", "MEASURES", "intra_sentential_counts", "sample_ends"]


def sample_ends(gold: np.ndarray, sentences: np.ndarray) -> np.ndarray:
    """Whether each token ends a sample: the last gold EDU of its sentence group (NeuralEDUSeg).

    Args:
        gold: the gold EDU codes of one stream (nonzero after an EDU's last token; the stream's
            end closes the last EDU).
        sentences: the gold sentence codes of the same stream (nonzero after a sentence's last
            token; the stream's end closes the last sentence).
    """
    n = len(gold)
    out = np.zeros(n, dtype=bool)
    if not n:
        return out
    ends = np.flatnonzero(np.asarray(gold)[:-1] != 0)
    ends = np.append(ends, n - 1)
    # a token's sentence: the number of sentence ends before it (a sentence holds its last token)
    sentence_of = np.concatenate(([0], np.cumsum(np.asarray(sentences)[:-1] != 0)))
    edu_sentence = sentence_of[ends]
    last_of_group = np.append(edu_sentence[1:] != edu_sentence[:-1], True)
    out[ends[last_of_group]] = True
    return out


def intra_sentential_counts(gold: np.ndarray, system: np.ndarray, sentences: np.ndarray) -> MatchCounts:
    """Correct, gold and system intra-sentential EDU boundaries of one stream (see the module)."""
    if not (len(gold) == len(system) == len(sentences)):
        raise ValueError("gold, system and sentences must have one code per token")
    n = len(gold)
    if not n:
        return MatchCounts()
    outside = sample_ends(gold, sentences)
    g = (np.asarray(gold) != 0) & ~outside
    s = (np.asarray(system) != 0) & ~outside
    return MatchCounts(int(np.count_nonzero(g & s)), int(np.count_nonzero(g)), int(np.count_nonzero(s)))


EDUS_CARD = Card.from_text(
    """
    title: RST-DT EDU segmentation F1 (intra-sentential boundaries)
    definition: per gold sentence (an EDU belongs to the sentence of its last word), the EDU boundaries
        inside it (its last EDU's end removed); micro-averaged over the file: P = correct / system,
        R = correct / gold, F1 = 2PR / (P + R); A is the gold and gives the sentences (its sentence layer:
        the raw text beside an .edus file)
    citation: Soricut & Marcu (2003), Sentence Level Discourse Parsing using Syntactic and Lexical
        Information; Wang, Li & Yang (2018), Toward Fast and Accurate Neural Discourse Segmentation
    reference: NeuralEDUSeg's read_samples and evaluate (PKU-TANGENT/NeuralEDUSeg); a system boundary
        before a sentence's first word is never counted here (the reference's model can label that word)
    notes: needs the gold's sentence layer; a speaker without one is skipped with the reason. Where a gold
        EDU runs across a sentence end, the two sentences are one sample, as in the reference.
    """,
    name="edus_seg",
    needs="tokens",
    annotators="2",
    group="scorers",
)


class RstEduSegmentation(Measure[TokenPair, MatchCounts, MatchScore]):
    card = EDUS_CARD

    def statistics(self, item: TokenPair, params: Mapping[str, Any]) -> MatchCounts:
        if item.sentences is None:
            raise SegagreeError(
                "needs the gold's (the first file's) sentences: read the .edus file with its raw text beside "
                "it (wsj_0600.out beside wsj_0600.out.edus), or compare files with a sentence layer"
            )
        return intra_sentential_counts(item.a, item.b, item.sentences)

    def score(self, stats: MatchCounts, params: Mapping[str, Any]) -> MatchScore:
        return MatchScore(self.card.name, stats)


MEASURES = (RstEduSegmentation(),)
