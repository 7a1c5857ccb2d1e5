"""Atomic writes: an output appears whole or not at all, and never over an input.

**The output plan.** A command writes inside one output folder and never over a file it read.
:func:`output_plan` opens a command's plan (its output folder, resolved); every file the
command reads through :func:`segagree.files.memory.read_bytes` (annotations, raw texts beside
an ``.edus`` file, tables) or names with :func:`note_input` (configuration, a corpus's files)
is an input of that plan; :func:`check_output` is the one check that every output path passes
before :func:`atomic_path` writes it: its folder resolved (links followed; an output that is
itself a link is replaced by the rename, not written through), it must lie inside the resolved
output folder and be none of the inputs. Plans nest:
an inner plan shares the outer one's inputs, so the command line's plan sees what the API read.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from segagree.errors import SegagreeError


def _resolved(path: str | Path) -> Path:
    try:
        return Path(os.path.abspath(path)).resolve()
    except (OSError, RuntimeError):  # a link loop: compared as written
        return Path(os.path.abspath(path))


@dataclass
class OutputPlan:
    """Where a command may write: inside ``root`` (resolved; None: anywhere) and over none of
    ``inputs`` (resolved path -> the path as the command was given it)."""

    root: Path | None = None
    inputs: dict[Path, str] = field(default_factory=dict)

    def note_input(self, path: str | Path) -> None:
        """Count ``path`` as a file this command reads."""
        self.inputs.setdefault(_resolved(path), str(path))

    def check(self, path: str | Path) -> None:
        """Refuse an output ``path`` outside the output folder or equal to an input (exit 1,
        naming both paths)."""
        # The folders are resolved, not the name: an output that is a link is replaced by the
        # rename, never written through, so only where its folder leads matters.
        given = Path(path)
        target = _resolved(given.parent) / given.name
        if target in self.inputs:
            raise SegagreeError(f"refusing to overwrite the input file {self.inputs[target]}", path=path)
        if self.root is not None and not target.is_relative_to(self.root):
            raise SegagreeError(
                f"refusing to write outside the output folder {self.root} (the path resolves to {target})",
                path=path,
            )


_PLAN: contextvars.ContextVar[OutputPlan | None] = contextvars.ContextVar("segagree_output_plan", default=None)


@contextlib.contextmanager
def output_plan(root: str | Path | None = None, *, inputs: Iterable[str | Path] = ()) -> Iterator[OutputPlan]:
    """Open a command's output plan (see the module docstring): outputs inside ``root`` (by
    default the enclosing plan's), never over ``inputs`` or any file read while it is open."""
    outer = _PLAN.get()
    plan = OutputPlan(
        root=_resolved(root) if root is not None else (outer.root if outer is not None else None),
        inputs=outer.inputs if outer is not None else {},
    )
    for path in inputs:
        plan.note_input(path)
    token = _PLAN.set(plan)
    try:
        yield plan
    finally:
        _PLAN.reset(token)


def note_input(path: str | Path) -> None:
    """Count ``path`` as an input of the command's plan (nothing when no plan is open)."""
    plan = _PLAN.get()
    if plan is not None:
        plan.note_input(path)


def check_output(path: str | Path) -> None:
    """The one check every output passes: :meth:`OutputPlan.check` of the open plan."""
    plan = _PLAN.get()
    if plan is not None:
        plan.check(path)


#: The temporary files :func:`atomic_path` makes: ``.STEM.tmp-XXXXXXXX.SUFFIX`` (mkstemp's 8
#: random characters). Only names of this form are ever removed as left over.
_TEMP = re.compile(r"\.(?P<stem>.*)\.tmp-[a-z0-9_]{8}(?P<suffix>(\.[^.]*)?)")
#: A temporary file this old is a killed writer's (writing one output takes seconds to minutes).
STALE_SECONDS = 3600.0


def remove_leftover_temporaries(
    folder: str | Path, *, target: str | Path | None = None, older_than: float = 0.0
) -> list[Path]:
    """Remove the temporary files a killed writer left in ``folder`` (only :func:`atomic_path`'s
    own pattern, only regular files, not links; with ``target`` only that output's, with
    ``older_than`` only those not modified for so many seconds). Returns the files removed."""
    import time

    folder = Path(folder)
    want = Path(target) if target is not None else None
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        found = _TEMP.fullmatch(entry.name)
        if not found or not entry.is_file(follow_symlinks=False):
            continue
        if want is not None and (found["stem"], found["suffix"]) != (want.stem, want.suffix):
            continue
        with contextlib.suppress(OSError):
            if older_than and now - entry.stat(follow_symlinks=False).st_mtime < older_than:
                continue
            os.unlink(entry.path)
            removed.append(Path(entry.path))
    return removed


@contextlib.contextmanager
def atomic_path(path: str | Path, *, inputs: tuple[str | Path, ...] = ()) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success rename it onto ``path``.

    Refuses to overwrite any of ``inputs`` (nothing is lost), and removes the temporary file
    if writing fails, so a reader never sees a half-written output.
    """
    target = Path(path)
    with output_plan(inputs=inputs) as plan:
        plan.check(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    # A killed earlier write of this output left its temporary file: removed once it is stale
    # (a younger one may be another process's write in progress).
    remove_leftover_temporaries(target.parent, target=target, older_than=STALE_SECONDS)
    import tempfile  # with the first write: a command that writes nothing does without it

    # Keep the suffix so writers that look at it (xlsx vs csv) see the target's.
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.stem}.tmp-", suffix=target.suffix, dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        # mkstemp makes the file private (0600); give it the permissions a plain open() would.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_text_atomic(path: str | Path, text: str, *, encoding: str = "utf-8") -> None:
    """Write text to ``path`` atomically (temp file then rename)."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding=encoding, newline="")
