"""A batch conversion's plan: the annotation files below a folder and the output each one is written to."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from segagree.formats import adapters


def annotation_files(folder: Path) -> list[Path]:
    """Every file below ``folder`` whose name ends in an extension a reader takes, sorted."""
    known = known_extensions()
    return sorted(p for p in folder.rglob("*") if p.is_file() and any(p.name.lower().endswith(e) for e in known))


def known_extensions() -> set[str]:
    """The extensions every reader takes (``.txt``, ``.segagree.json``...)."""
    return {e for a in adapters().values() for e in a.extensions}


@dataclass
class OutputPlan:
    """Where each input of a batch is written (``outputs``), the inputs whose output keeps their own
    extension (``renamed``: input, output) and the inputs refused, one message each (``refused``)."""

    outputs: dict[Path, Path]
    renamed: list[tuple[Path, Path]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def plan_outputs(source: Path, target: Path, files: list[Path], ext_out: str) -> OutputPlan:
    """The output of each input of a batch: ``NAME.EXT`` -> ``NAME`` + the target extension. Two
    inputs that would share an output (``a.csv``, ``a.txt``; names compared case-insensitively, as
    some file systems do) keep their own extension instead (``a.csv.segagree.json``), listed in
    ``renamed``; an output that would still be shared, or would overwrite an input, is refused."""
    known = known_extensions()

    def key(p: Path) -> str:
        return str(p).casefold()

    def named(path: Path, keep_ext: bool) -> Path:
        rel = path.relative_to(source)
        ext = max((e for e in known if rel.name.lower().endswith(e)), key=len)
        return target / rel.parent / ((rel.name if keep_ext else rel.name[: -len(ext)]) + ext_out)

    first = {p: named(p, False) for p in files}
    counts = Counter(key(o) for o in first.values())
    plan = OutputPlan({p: named(p, True) if counts[key(o)] > 1 else o for p, o in first.items()})
    plan.renamed.extend((p, o) for p, o in plan.outputs.items() if o != first[p])
    inputs = {key(p.resolve()) for p in files}
    owners: dict[str, Path] = {}
    for p, o in list(plan.outputs.items()):
        other = owners.setdefault(key(o), p)
        if other != p:
            plan.refused.append(f"{p}: not converted: its output {o} would also be {other}'s")
            del plan.outputs[p]
        elif key(o.resolve()) in inputs and o.resolve() != p.resolve():
            plan.refused.append(f"{p}: not converted: its output {o} is another input of the batch")
            del plan.outputs[p]
    return plan
