"""Finding the annotations of a corpus: which files annotate which text, by which annotator.

Two layouts, any formats mixed:

* **file names** ``TEXT.ANNOTATOR.EXT`` in the corpus folder (``nccu_t001.a1.csv``,
  ``garden.ann2.txt``, ``talk.rosa.eaf``);
* **one folder per annotator**, each holding ``TEXT.EXT`` files (``ann1/garden.txt``).

The first layout wins when the corpus folder itself holds annotation files; folders are then
not annotators (they may hold other material) and are listed as skipped, with the reason. A
text needs at least two annotators; texts with fewer are listed as skipped. Two files of one
annotator for one text is an error for that text. segagree's own review workbooks, written beside
the annotations, are listed as skipped, not read as an annotator's file. A text whose CoNLL-U / DISRPT files hold
two or more documents is one text per document (:mod:`segagree.corpus.documents`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from segagree.corpus.documents import split_documents
from segagree.errors import SegagreeError
from segagree.files.own_outputs import is_review_workbook
from segagree.formats import EXTENSIONS


@dataclass
class Corpus:
    """The texts of a corpus: text -> annotator -> file, plus what was left out and why."""

    root: Path
    texts: dict[str, dict[str, Path]] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    layout: str = "names"
    #: texts with one annotator's file (listed in ``skipped``): text -> annotator -> file
    single: dict[str, dict[str, Path]] = field(default_factory=dict)

    def unskip(self, text: str) -> dict[str, Path]:
        """Take a one-annotator text back from ``skipped`` (a run that declares its other annotators)."""
        files = self.single.pop(text)
        self.skipped = [s for s in self.skipped if not s.startswith(f"{text}: only one annotator")]
        return files


#: Joins a text's annotators in a run's tasks and summaries ("A|B"): not allowed inside a name.
ANNOTATOR_SEPARATOR = "|"


def _extensions() -> list[str]:
    return sorted(EXTENSIONS, key=len, reverse=True)


def split_name(name: str) -> tuple[str, str] | None:
    """``TEXT.ANNOTATOR.EXT`` -> (TEXT, ANNOTATOR); None if the name has no known extension."""
    lower = name.lower()
    for ext in _extensions():
        if lower.endswith(ext) and len(name) > len(ext):
            stem = name[: -len(ext)]
            if "." not in stem:
                return stem, ""
            text, annotator = stem.rsplit(".", 1)
            return text, annotator
    return None


def find_annotations(root: Path) -> Corpus:
    """Discover texts and annotators under ``root`` (see the module docstring)."""
    if not root.is_dir():
        raise SegagreeError("not a folder", path=root)
    corpus = Corpus(root=root)
    top = [p for p in sorted(root.iterdir()) if p.is_file() and split_name(p.name)]
    if top:
        for path in top:
            text, annotator = split_name(path.name)  # type: ignore[misc]
            if not annotator:
                corpus.skipped.append(f"{path.name}: no annotator in the name (expected TEXT.ANNOTATOR.EXT)")
                continue
            _add(corpus, text, annotator, path)
        folders = [f"{p.name}/" for p in sorted(root.iterdir()) if p.is_dir() and not p.name.startswith(".")]
        if folders:
            corpus.skipped.append(
                f"{', '.join(folders)}: {'a folder' if len(folders) == 1 else f'{len(folders)} folders'} not read "
                "(the corpus folder holds TEXT.ANNOTATOR.EXT files, so its folders are not annotators; give a "
                "folder as the corpus to score it)"
            )
    else:
        corpus.layout = "folders"
        for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
            for path in sorted(folder.iterdir()):
                parts = split_name(path.name) if path.is_file() else None
                if parts:
                    _add(corpus, parts[0] if not parts[1] else f"{parts[0]}.{parts[1]}", folder.name, path)
    corpus.skipped.extend(split_documents(corpus.texts))
    for text in list(corpus.texts):
        if len(corpus.texts[text]) < 2:
            only = ", ".join(str(p.name) for p in corpus.texts[text].values())
            corpus.skipped.append(f"{text}: only one annotator ({only})")
            corpus.single[text] = corpus.texts.pop(text)
    return corpus


def _add(corpus: Corpus, text: str, annotator: str, path: Path) -> None:
    if is_review_workbook(path):
        corpus.skipped.append(f"{path.name}: a segagree review workbook (its About sheet), not an annotation")
        return
    if not text.strip():
        corpus.skipped.append(f"{path.name}: no text in the name (expected TEXT.ANNOTATOR.EXT)")
        return
    if ANNOTATOR_SEPARATOR in annotator:
        # a run joins a text's annotators with '|' (its summary's annotators column, ELAN's pairs "A|B")
        corpus.skipped.append(
            f"{path.name}: the annotator name {annotator!r} holds {ANNOTATOR_SEPARATOR!r}, which separates "
            "annotators; rename the file (or its folder)"
        )
        return
    files = corpus.texts.setdefault(text, {})
    if annotator in files:
        corpus.skipped.append(
            f"{text}: annotator {annotator!r} has two files ({files[annotator].name}, {path.name}); using the first"
        )
        return
    files[annotator] = path
