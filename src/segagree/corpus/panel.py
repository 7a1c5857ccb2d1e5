"""Finding a panel's annotations: a corpus folder in ``run``'s layout, the files of one text, or a
segeval dataset, read into a :class:`~segagree.scoring.tokens.panel.PanelInput`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from segagree.corpus.discovery import find_annotations, split_name
from segagree.corpus.documents import read_text_document, split_documents
from segagree.errors import UsageError
from segagree.metrics.chance.panel_frame import choose_members
from segagree.model import Document
from segagree.scoring.tokens.panel import PanelInput, panel_from_dataset, panel_from_texts


def annotator_of(path: Path) -> str:
    """The annotator a file of one text names: ``TEXT.ANNOTATOR.EXT``'s annotator, else its stem."""
    parts = split_name(path.name)
    if parts and parts[1]:
        return parts[1]
    return parts[0] if parts else path.stem


def files_of_texts(source: Path | Sequence[Path]) -> tuple[dict[str, dict[str, Path]], list[str]]:
    """text -> annotator -> file, and what discovery left out: a folder is read as ``run`` reads a
    corpus (``TEXT.ANNOTATOR.EXT`` names or a folder per annotator); files are one text."""
    if isinstance(source, Path) or len(source) == 1 and Path(source[0]).is_dir():
        root = Path(source if isinstance(source, Path) else source[0])
        corpus = find_annotations(root)
        return {t: dict(files) for t, files in corpus.texts.items()}, list(corpus.skipped)
    files = [Path(p) for p in source]
    names = [annotator_of(p) for p in files]
    if len(set(names)) != len(names):
        names = [p.stem for p in files]
    if len(set(names)) != len(names):
        raise UsageError("two files give the same annotator name: " + ", ".join(str(p) for p in files))
    text = split_name(files[0].name)[0] if split_name(files[0].name) else files[0].stem  # type: ignore[index]
    texts = {text: dict(zip(names, files, strict=True))}
    notes = split_documents(texts)  # the documents of DISRPT files are texts, as in a corpus run
    return texts, notes


def read_panel(
    source: Path | Sequence[Path] | Mapping[str, Mapping[str, Sequence[int]]],
    machines: Sequence[str],
    humans: Sequence[str] | None = None,
    *,
    reader_options: Mapping[str, Any] | None = None,
    **pairing: Any,
) -> tuple[PanelInput, list[str], list[str]]:
    """The panel's input, its humans and its machines.

    Args:
        source: a corpus folder, the files of one text, or a segeval dataset (a mapping).
        machines: the annotators judged as segmenters.
        humans: the human annotators (default: every annotator not a machine).
        reader_options: passed to every reader (``scheme``, ``encoding``, ...).
        pairing: ``layer``, ``scheme``, ``normalise_speakers``, ``speaker_map`` of the token pairing.
    """
    if isinstance(source, Mapping):
        panel = panel_from_dataset(source)
        chosen, machines = choose_members(panel.annotators, machines, humans)
        return panel, chosen, machines
    texts, skipped = files_of_texts(source)
    found = list(dict.fromkeys(a for files in texts.values() for a in files))
    chosen, machines = choose_members(found, machines, humans)
    order = [*chosen, *machines]
    docs: dict[str, dict[str, Document]] = {
        text: {
            a: read_text_document(path, text, **dict(reader_options or {})) for a, path in files.items() if a in order
        }
        for text, files in texts.items()
    }
    panel = panel_from_texts(docs, order, **pairing)
    panel.notes[:0] = skipped
    return panel, chosen, machines
