"""Subtitle tools (``segagree degrade``, ``segment``, ``check``, ``study``): degraded references, the length
baseline, style checks and the contrastive study."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from segagree.api.common import DocumentLike, PathLike, as_document, writes_outputs
from segagree.errors import SegagreeError, UsageError
from segagree.formats import write_document
from segagree.model import Document
from segagree.model.losses import LossReport


def _write_same_format(doc: Document, source: Document, output: PathLike, notes: LossReport) -> dict[str, Any]:
    """Write a re-broken copy of ``source`` in the source's format; refuse to overwrite the input."""
    out = Path(output)
    if source.source_path and out.resolve() == Path(source.source_path).resolve():
        raise SegagreeError("refusing to overwrite the input file", path=out)
    losses = write_document(doc, out, source.source_format or None)
    losses.extend(notes)
    return {"output": str(output), "format": source.source_format, "losses": losses.to_json() if losses else []}


@writes_outputs()
def degrade(
    reference: DocumentLike,
    output: PathLike,
    *,
    operation: str,
    p: float,
    seed: int | None = None,
    n: int = 1,
    format: str | None = None,
) -> dict[str, Any]:
    """Write a degraded copy of a subtitle file: EvalSubtitle's shift, insert, delete or retype
    rules on a proportion ``p`` of the breaks (:mod:`segagree.subtitle_tools.degrade`), seeded.

    The words never change; the output has the input's format. Returns what was done
    (``operation``, ``n``, ``p``, ``seed``, ``breaks_before``/``breaks_after``, ``changed`` per
    type, ``max_displacement``) with ``output`` and ``losses`` (re-timed cues included).

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: a file cannot be read as its format; the message names the place (also a
            ``ValueError``).
        UsageError: an unknown format, metric or option value (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> out = segagree.degrade("film.ref.srt", "film.shifted.srt", operation="shift", p=0.5, seed=1)
            >>> out["operation"], out["changed"]
            ('shift', {'<eol>': 2, '<eob>': 2})
    """
    from segagree.subtitle_tools.degrade import degrade_document

    doc = as_document(reference, format)
    res = degrade_document(doc, operation, p, seed=seed, n=n)
    return {**res.to_dict(), **_write_same_format(res.document, doc, output, res.notes)}


@writes_outputs()
def segment(
    source: DocumentLike,
    output: PathLike,
    *,
    baseline: str = "length",
    max_cpl: int = 42,
    max_lines: int = 2,
    format: str | None = None,
) -> dict[str, Any]:
    """Drop a subtitle file's breaks and re-break it by a baseline (``length``: fill each line up
    to ``max_cpl`` characters, ``<eob>`` after ``max_lines`` lines and at each sentence end;
    :mod:`segagree.subtitle_tools.baseline`). Writes the input's format; returns the break counts,
    ``output`` and ``losses``.

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: a file cannot be read as its format; the message names the place (also a
            ``ValueError``).
        UsageError: an unknown format, metric or option value (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> out = segagree.segment("film.ref.srt", "film.rebroken.srt", max_cpl=42)
            >>> sorted(out)
            ['baseline', 'breaks_after', 'breaks_before', 'format', 'losses', 'max_cpl', 'max_lines', 'output']
    """
    from segagree.subtitle_tools.baseline import segment_document

    doc = as_document(source, format)
    res = segment_document(doc, baseline=baseline, max_cpl=max_cpl, max_lines=max_lines)
    info = {
        "baseline": res.baseline,
        "max_cpl": res.max_cpl,
        "max_lines": res.max_lines,
        "breaks_before": res.breaks_before,
        "breaks_after": res.breaks_after,
    }
    return {**info, **_write_same_format(res.document, doc, output, res.notes)}


def check_style(
    source: DocumentLike,
    profile: str | os.PathLike[str] = "netflix-en",
    *,
    frame_rate: float | None = None,
    format: str | None = None,
) -> dict[str, Any]:
    """The style violations of each cue of a subtitle file under a guideline profile (``netflix-en``,
    ``netflix-en-children``, ``ted``, ``bbc`` or a TOML file); no reference needed.

    ``result["violations"]`` counts per rule (``cpl``, ``lines``, ``cps``, ``min_duration``,
    ``max_duration``, ``min_gap``, ``balance``); :mod:`segagree.scoring.subtitles.style` says how each counts.

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: a file cannot be read as its format; the message names the place (also a
            ``ValueError``).
        UsageError: an unknown style profile (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> report = segagree.check_style("film.mt.srt", "ted")
            >>> sorted(report)
            ['cues', 'cues_with_violations', 'file', 'per_cue', 'profile', 'read_losses', 'timed', 'violations']
    """
    from segagree.scoring.subtitles.style import check_document

    doc = as_document(source, format)
    res = check_document(doc, profile if isinstance(profile, str) else Path(profile), frame_rate=frame_rate)
    res["read_losses"] = doc.losses.to_json() if doc.losses else []
    return res


@writes_outputs("out_dir")
def study(
    reference: DocumentLike,
    hypotheses: Sequence[DocumentLike] = (),
    out_dir: PathLike = "study",
    *,
    seed: int = 0,
    n_seeds: int = 3,
    steps: int = 4,
    metrics: str | Sequence[str] = "subtitles",
    jobs: int = 1,
    format: str | None = None,
) -> dict[str, Any]:
    """Every subtitle metric over a grid of degraded copies of ``reference`` (shift n = 1..3, insert,
    delete, retype; p = 0, 1/steps, ..., 1; seeds ``seed`` .. ``seed + n_seeds - 1``), with the system
    ``hypotheses`` placed on the same curves (:mod:`segagree.subtitle_tools.study`). Writes ``study.csv``,
    ``plots/*.png`` and ``study.html`` into ``out_dir`` (:mod:`segagree.outputs.study_report`) and
    returns their paths with the analysis.

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: a file cannot be read as its format; the message names the place (also a
            ``ValueError``).
        UsageError: an unknown format, metric or option value (also a ``ValueError``).
    """
    from segagree.outputs.study_report import write_study
    from segagree.subtitle_tools.study import run_study

    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1 or n_seeds < 1:
        raise UsageError("steps and n_seeds must be positive integers")
    ref = as_document(reference, format)
    hyps = [as_document(h, format) for h in hypotheses]
    ps = [k / steps for k in range(steps + 1)]
    seeds = list(range(seed, seed + n_seeds))
    res = run_study(ref, hyps, ps=ps, seeds=seeds, metrics=metrics, jobs=jobs)
    return {**write_study(res, Path(out_dir)), "analysis": res.analysis, "rows": len(res.rows)}
