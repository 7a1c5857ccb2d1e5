"""The input of a panel (is the segmenter as good as a person?): every annotator's segmentation of
every text on one common token stream, as segeval's items x coders dataset.

Fournier & Inkpen (2012, section 3.4) judge an automatic segmenter by the multi-coder agreement of
a panel of humans with and without it; the statistics are
:func:`segagree.metrics.chance.panel.panel_statistics`. This module turns annotations into its
input: an **item** is one speaker's token stream of one text (a text with one speaker is one item),
each annotator's segmentation of it the masses of its units (boundary types are not counted by B
and S). Annotations of a text are paired on the first annotator's tokens, speakers by name, as
``agree`` pairs them; a text whose transcripts differ, or that an annotator lacks, is left out with
a note, since multi-coder agreement needs every coder on every item.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from segagree.errors import SegagreeError, UsageError
from segagree.metrics.boundary.masses import masses_from_codes
from segagree.model import BoundaryScheme, Document
from segagree.scoring.tokens.annotation_pair import AnnotationPair
from segagree.scoring.tokens.pairing import pair_annotations

#: How two annotations of a text are paired, when not as ``agree`` pairs them (a corpus run pairs
#: them as its tasks do: :func:`segagree.corpus.tasks.pair_as_run`).
Pairer = Callable[[Document, Document], AnnotationPair]


@dataclass
class PanelInput:
    """Every annotator's segmentation of every item, and what was left out.

    Attributes:
        dataset: ``{item: {annotator: masses}}`` (segeval's linear dataset).
        codes: ``{item: {annotator: per-token boundary codes}}`` in ``scheme`` (for S_f and S_f^B).
        scheme: the boundary scheme the codes are in (None for a segeval dataset).
        item_text: item -> the text it belongs to (items of one text are one speaker's stream each).
        annotators: the annotators in the order first met.
        notes: texts or annotators left out, and why.
    """

    dataset: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    codes: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)
    scheme: BoundaryScheme | None = None
    item_text: dict[str, str] = field(default_factory=dict)
    annotators: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def texts(self) -> list[str]:
        """The texts in the panel, in order."""
        return list(dict.fromkeys(self.item_text.values()))


def _item_name(text: str, speaker: str, n_speakers: int) -> str:
    return text if n_speakers == 1 else f"{text} [{speaker}]"


def add_text(
    panel: PanelInput,
    text: str,
    docs: Mapping[str, Document],
    *,
    layer: str | None = None,
    scheme: BoundaryScheme | None = None,
    normalise_speakers: bool = True,
    speaker_map: Mapping[str, str] | None = None,
    pairer: Pairer | None = None,
) -> None:
    """Add one text's annotations (annotator -> Document) to ``panel``, or a note why not: each
    paired with the first on ``layer`` as ``agree`` pairs them, or by ``pairer``."""
    names = list(docs)
    for name in names:
        if name not in panel.annotators:
            panel.annotators.append(name)
    first = names[0]
    arrays: dict[str, dict[str, np.ndarray]] = {}
    shared: list[str] | None = None
    for name in names[1:]:
        try:
            pair = (
                pairer(docs[first], docs[name])
                if pairer is not None
                else pair_annotations(
                    docs[first],
                    docs[name],
                    layer=layer,
                    scheme=scheme,
                    speaker_map=speaker_map,
                    normalise_speakers=normalise_speakers,
                    common_speakers=True,
                )
            )
        except SegagreeError as err:
            panel.notes.append(f"{text}: left out ({first} and {name} cannot be paired: {err})")
            return
        arrays.setdefault(first, pair.arrays_a)
        arrays[name] = pair.arrays_b
        if panel.scheme is None:
            panel.scheme = pair.scheme
        speakers = [s for s in pair.speakers if s in pair.arrays_b]
        shared = speakers if shared is None else [s for s in shared if s in speakers]
    if not shared:
        panel.notes.append(f"{text}: left out (no speaker that every annotator segmented)")
        return
    for speaker in shared:
        item = _item_name(text, speaker, len(shared))
        panel.dataset[item] = {name: masses_from_codes(arrays[name][speaker]) for name in names}
        panel.codes[item] = {name: arrays[name][speaker] for name in names}
        panel.item_text[item] = text


def panel_from_texts(
    texts: Mapping[str, Mapping[str, Document]],
    annotators: Sequence[str],
    **pairing: object,
) -> PanelInput:
    """A panel over texts (text -> annotator -> Document), with every one of ``annotators``.

    A text that lacks one of them is left out with a note naming who is missing.
    """
    panel = PanelInput(annotators=list(annotators))
    for text, docs in texts.items():
        missing = [a for a in annotators if a not in docs]
        if missing:
            panel.notes.append(f"{text}: left out (no annotation by {', '.join(missing)})")
            continue
        add_text(panel, text, {a: docs[a] for a in annotators}, **pairing)  # type: ignore[arg-type]
    if not panel.dataset:
        raise UsageError("no text has an annotation by every panel member: " + "; ".join(panel.notes))
    return panel


def panel_from_dataset(dataset: Mapping[str, Mapping[str, Sequence[int]]]) -> PanelInput:
    """A panel from a segeval dataset (``{item: {coder: masses}}``): each item its own text."""
    panel = PanelInput()
    for item, coders in dataset.items():
        for coder in coders:
            if coder not in panel.annotators:
                panel.annotators.append(coder)
        panel.dataset[str(item)] = {str(c): [int(m) for m in masses] for c, masses in coders.items()}
        panel.item_text[str(item)] = str(item)
    return panel
