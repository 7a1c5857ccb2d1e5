"""The record of two annotations of one text on a common token index.

It lives in a module of its own so that imports run one way: ``pipeline.pairing`` and
``pipeline.align`` both use :class:`AnnotationPair`. A corpus run's outcome is
:class:`segagree.corpus.outcome.RunOutcome`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from segagree.model import BoundaryScheme, Document


@dataclass
class AnnotationPair:
    """Two annotations of one text on a common token index, per speaker.

    Attributes:
        a, b: the two Documents (annotator A, annotator B).
        layer: the layer compared.
        scheme: the scheme both layers are expressed in.
        speakers: speakers in A's order.
        arrays_a, arrays_b: speaker -> boundary codes on the common token index.
        tokens: speaker -> token texts on the common index (A's text where they differ).
        positions_a, positions_b: speaker -> for each common index, the token index in A's
            (B's) own stream, or -1 where that annotator has no such token (alignment gaps).
        mismatches: transcript differences found by the alignment (empty when identical).
        own_tokens_a, own_tokens_b: speaker -> each annotator's own token stream.
        extra_layers: further layers compared together with ``layer`` (segeval's multi-type
            "sets" semantics): name -> (arrays_a, arrays_b) on the same common index.
        unpaired_a, unpaired_b: speakers with words in one annotation only, left out of the
            scores (pairing with ``common_speakers``).
        sentences_a: speaker -> A's ``sentence`` layer on the common index, where A (the gold)
            has one and another layer is compared: the sentences of sentence-level scorers
            (RST-DT's EDU score counts intra-sentential boundaries only).
        marks_a, marks_b: speaker -> each token's DISRPT label as its CoNLL-U file writes it, on
            the common index (:func:`segagree.formats.conllu.script_marks`), where both files have them;
            marks_next: speaker -> A's and B's label of the word after the stream in its file (-1: none);
            marks_in_files: speaker -> the stream's place in each file, where it is a run of its words
            (:class:`segagree.metrics.boundary.segment_match.StreamSpans`); marks_connective: whether
            the script reads the labels as connective spans (the gold has no BeginSeg), where there are marks.
        notes: what the pairing did that the scores depend on (documents scored as one stream).
    """

    a: Document
    b: Document
    layer: str
    scheme: BoundaryScheme
    speakers: list[str]
    arrays_a: dict[str, np.ndarray]
    arrays_b: dict[str, np.ndarray]
    tokens: dict[str, list[str]]
    positions_a: dict[str, np.ndarray] = field(default_factory=dict)
    positions_b: dict[str, np.ndarray] = field(default_factory=dict)
    mismatches: list[dict] = field(default_factory=list)
    own_tokens_a: dict[str, list[str]] = field(default_factory=dict)
    own_tokens_b: dict[str, list[str]] = field(default_factory=dict)
    extra_layers: dict[str, tuple[dict[str, np.ndarray], dict[str, np.ndarray], int]] = field(default_factory=dict)
    unpaired_a: list[str] = field(default_factory=list)
    unpaired_b: list[str] = field(default_factory=list)
    sentences_a: dict[str, np.ndarray] = field(default_factory=dict)
    marks_a: dict[str, np.ndarray] = field(default_factory=dict)
    marks_b: dict[str, np.ndarray] = field(default_factory=dict)
    marks_next: dict[str, tuple[int, int]] = field(default_factory=dict)
    marks_in_files: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    marks_connective: bool | None = None
    notes: list[str] = field(default_factory=list)

    def gap_sets(self, speaker: str) -> tuple[list[frozenset[int]], list[frozenset[int]]]:
        """Both annotators' N-1 gap type sets of a speaker over ``layer`` and ``extra_layers``.

        Type ids are the layers' codes shifted so that no two layers share one: the compared
        layer keeps its codes, each further layer starts after the previous one's last code.
        """
        layers = [(self.arrays_a, self.arrays_b, self.scheme.n_codes)]
        layers += list(self.extra_layers.values())
        n = len(self.arrays_a[speaker])
        sets_a: list[set[int]] = [set() for _ in range(max(n - 1, 0))]
        sets_b: list[set[int]] = [set() for _ in range(max(n - 1, 0))]
        offset = 0
        for arrays_a, arrays_b, n_codes in layers:
            for arrays, sets in ((arrays_a, sets_a), (arrays_b, sets_b)):
                codes = arrays[speaker]
                for i in np.flatnonzero(codes[:-1]):
                    sets[i].add(offset + int(codes[i]))
            offset += n_codes
        return [frozenset(x) for x in sets_a], [frozenset(x) for x in sets_b]

    @property
    def n_tokens(self) -> int:
        return sum(len(v) for v in self.arrays_a.values())
