"""The sample corpora that ship with segagree: where they are, and a copy to try the tour on.

They are small files the segagree developers wrote for the tour (a three-speaker story segmented
into intonation units by two annotators, tables, subtitles, a recording, timed annotations, a panel
of three people and a machine); ``sample_corpora/README.md`` of a clone describes each. A wheel
carries them as ``segagree/sample_corpora``; a clone's editable install reads the clone's own
``sample_corpora/``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from segagree.errors import SegagreeError

_PACKAGE = Path(__file__).resolve().parents[1]


def sample_corpora_path() -> Path:
    """The folder of the installed sample corpora (read it; do not write into it).

    Raises:
        SegagreeError: neither the installed copy nor a clone's ``sample_corpora/`` is there.

    Examples:
        >>> (segagree.sample_corpora_path() / "garden.ann1.txt").is_file()
        True
    """
    for candidate in (_PACKAGE / "sample_corpora", _PACKAGE.parents[1] / "sample_corpora"):
        if (candidate / "garden.ann1.txt").is_file():
            return candidate
    raise SegagreeError("the sample corpora are not installed with this copy of segagree", path=_PACKAGE)


def copy_sample_corpora(target: str | os.PathLike[str]) -> Path:
    """Copy the sample corpora into a new folder ``target`` (the tour's commands run there).

    Args:
        target: a folder that does not exist yet, or an empty one.

    Returns:
        ``target`` as a Path.

    Raises:
        FileExistsError (a :class:`SegagreeError` too): ``target`` is a file, or a folder with
            something in it: nothing there is touched.

    Examples:
        >>> import pathlib, tempfile
        >>> folder = segagree.copy_sample_corpora(pathlib.Path(tempfile.mkdtemp()) / "tour")
        >>> sorted(p.name for p in folder.glob("garden.*"))
        ['garden.ann1.txt', 'garden.ann2.txt']
    """
    target = Path(target)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise SampleFolderExists("is not an empty folder: give a new one for the sample corpora", path=target)
    source = sample_corpora_path()
    # Copied beside the target, then renamed into place: an interrupted copy leaves no half tour.
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.parent / f".{target.name}.copying"
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(source, staging, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    if target.exists():
        target.rmdir()
    staging.rename(target)
    return target


class SampleFolderExists(SegagreeError, FileExistsError):
    """The folder asked for the sample corpora is not empty (nothing there was touched)."""
