"""Units in time (``segagree agree --time``): reading them by the annotation plan, the plan, their agreement."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from segagree.api.common import DocumentLike, PathLike
from segagree.errors import UsageError
from segagree.model import BoundaryScheme, Document

if TYPE_CHECKING:
    from segagree.scoring.time.units import TimedUnits


def read_time_units(
    sources: Sequence[DocumentLike] | DocumentLike,
    *,
    annotators: Sequence[str] | Mapping[str, PathLike] | None = None,
    annotator_tiers: Sequence[str] | None = None,
    continuum: tuple[float, float] | None = None,
    category: str = "label",
    format: str | None = None,
    scheme: BoundaryScheme | str | None = None,
    layer: str | None = None,
    gap_labels: Sequence[str] | None = None,
    speaker_map: Mapping[str, str] | None = None,
    missing_as_empty: bool = False,
    time_unit: str = "s",
    text_column: str | None = None,
    window: tuple[float, float] | None = None,
    untimed: str = "skip",
    **options: Any,
) -> TimedUnits:
    """Units in time per annotator and speaker (:class:`segagree.scoring.time.units.TimedUnits`), read by
    the annotation plan (:mod:`segagree.scoring.time.plan`; ``result.plan`` says how).

    Args:
        sources: one file (or Document) per annotator (annotator = file stem), one file whose tiers
            are the annotators (``annotator_tiers``, else all its unit tiers), or units tables (CSV/TSV with the header
            ``annotator,start,end,category`` and optional ``speaker``, ``text``; or pygamma-agreement's
            headerless ``annotator,category,start,end``).
        annotators: the annotators' order; names listed with no units count as annotators who marked
            nothing. A mapping ``{name: file}`` names each file's annotator instead of its stem (files
            not in ``sources`` are added). Files whose stems collide are named after their folders.
        annotator_tiers: the tiers of one file that are the annotators.
        continuum: (start, end) seconds; default ``[min(0, first start), last end]``.
        category: ``label`` (the unit's text with its endnote), ``endnote`` (its boundary type) or
            ``none``.
        format, scheme, layer, options: how to read the files (see :func:`read`); ``tiers`` (``--tier``)
            chooses each file's tiers: a name, a pattern, or ``FILE=NAME``.
        gap_labels: labels read as gaps, not units (default ``_ sil <sil> sp <p:> #``; ``()``: none).
        speaker_map: tier (speaker) renames ``{OLD: NEW}`` applied before tiers are matched across files.
        missing_as_empty: score a tier only some annotators' files have (default: left out, listed).
        time_unit, text_column: a units table's time unit (``s``/``ms``, or ``index``: integer positions with
            no unit and no limit) and recording column.
        window: (start, end) seconds: only the units within it are scored, a unit crossing an edge clipped to
            it, and the window is the continuum (ACLEW-style sampled minutes of a day-long recording); the
            result's ``window`` says how many units were scored, clipped and left out.
        untimed: ``skip`` (default): CHAT utterances without a time bullet are left out and listed in the
            notes; ``refuse``: such a file is an error.

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: a file cannot be read as its format; the message names the place (also a
            ``ValueError``).
        UsageError: an unknown format, metric or option value (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> units = segagree.read_time_units(["time/kim.TextGrid", "time/lee.TextGrid"])
            >>> units.annotators
            ['kim', 'lee']
    """
    from segagree.scoring.time.reading import read_timed_units
    from segagree.scoring.time.units import UnitReading

    items = [sources] if isinstance(sources, (str, os.PathLike, Document)) else list(sources)
    named = dict(annotators) if isinstance(annotators, Mapping) else None
    order = None if isinstance(annotators, Mapping) else annotators
    how = UnitReading(
        order,
        annotator_tiers,
        continuum,
        category,
        format,
        scheme,
        layer,
        options,
        gap_labels,
        speaker_map,
        missing_as_empty,
        time_unit,
        text_column,
        window=window,
        untimed=untimed,
    )
    return read_timed_units(items, how, named)  # type: ignore[arg-type]


def time_plan(sources: Sequence[DocumentLike] | DocumentLike, **reading: Any) -> dict[str, Any]:
    """The annotation plan of :func:`agree_time` without scoring (``agree --time --plan``): which file and
    tier is which annotator, speaker and recording, the units and gaps of each (see
    :mod:`segagree.scoring.time.plan`). ``reading`` takes :func:`read_time_units`'s keywords.

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: a file cannot be read as its format; the message names the place (also a
            ``ValueError``).
        UsageError: an unknown format, metric or option value (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> plan = segagree.time_plan(["time/kim.TextGrid", "time/lee.TextGrid"])
            >>> sorted(plan)
            ['annotators', 'gap_labels', 'gaps', 'left_out', 'notes', 'rows', 'source', 'time_unit', 'units']
    """
    timed = read_time_units(sources, **reading)
    return timed.to_dict()["plan"]


class TimeAgreementResult(dict[str, Any]):
    """The result of :func:`agree_time`: a JSON-ready dict (the ``agree --time --json`` contract):
    ``result[name]`` a measure's pooled value, ``result["measures"][name]`` its pooled and
    per-speaker results, ``annotators``, ``speakers``, ``units``, ``continuum``, ``notes``."""

    @property
    def measures(self) -> dict[str, dict[str, Any]]:
        """measure -> its ``pooled`` and per-speaker (``speakers``) results."""
        return dict(self.get("measures") or {})

    def to_frame(self) -> Any:
        """A pandas DataFrame: a row per measure and speaker, the pooled row ``ALL`` (a row per
        category for a measure with one value per category); see :mod:`segagree.api.frames`."""
        from segagree.api.frames import time_frame

        return time_frame(self)

    def __repr__(self) -> str:
        from segagree.api.frames import names, short

        values = ", ".join(f"{m}={short(self.get(m))}" for m in list(self.measures)[:3])
        more = ", ..." if len(self.measures) > 3 else ""
        return f"TimeAgreementResult(annotators={names(self.get('annotators') or [])}, {values}{more})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


def agree_time(
    sources: Sequence[DocumentLike] | DocumentLike,
    *,
    measures: Sequence[str] | None = None,
    params: Mapping[str, Any] | None = None,
    jobs: int | None = None,
    **reading: Any,
) -> TimeAgreementResult:
    """Time-based unitizing agreement of annotators who drew their own time spans.

    Scores every measure of the ``time`` group (or ``measures``), per speaker and pooled: e.g.
    Krippendorff's alpha-U (1995/2004, as DKPro), the uα family (Krippendorff et al. 2016), ELAN's
    modified kappa (Holle & Rein 2015, as ELAN), boundary F1 within a tolerance, purity and coverage,
    and gamma once registered. ``params`` holds measure parameters (``tolerance``, ``min_overlap``,
    ``resolution``, ``alpha``, ``beta``, ``delta_empty``, ``samples``, ``seed``, ``sampler``, ``jobs``);
    each measure reads its own (``jobs`` there: gamma's sample workers). ``jobs``: worker processes scoring
    the recordings and speakers in parallel (default 1, at most the CPUs this process may use; with one
    recording and speaker, gamma's sample workers); the numbers are the same for any value. ``reading``
    takes :func:`read_time_units`'s keywords (``annotators``, ``annotator_tiers``, ``continuum``,
    ``category``, ``format``, ``scheme``, ``layer``, reader options).

    Example::

        result = segagree.agree_time(["kim.TextGrid", "lee.TextGrid"], params={"tolerance": 0.2})
        result["measures"][name]["pooled"], result[name]   # for each name of `segagree metrics`

    Returns:
        A :class:`TimeAgreementResult`, a JSON-ready dict (see :mod:`segagree.scoring.time.agreement`):
        ``result[name]`` is a measure's pooled value, ``result["measures"][name]["speakers"]`` its
        per-speaker results; ``result.to_frame()`` a DataFrame of them.

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: a file cannot be read as its format; the message names the place (also a
            ``ValueError``).
        UsageError: an unknown measure, or an option no chosen measure takes (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> files = ["time/kim.TextGrid", "time/lee.TextGrid"]
            >>> result = segagree.agree_time(files, measures=["gamma", "boundary_f1"])
            >>> round(result["gamma"], 4), round(result["boundary_f1"], 4)
            (0.2946, 0.8)
    """
    from segagree.scoring.time.agreement import score_time

    check_time_parameters(params, measures)
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise UsageError(f"jobs must be a whole number of at least 1, not {jobs!r}")
    timed = read_time_units(sources, **reading)
    return TimeAgreementResult(score_time(timed, measures, params, jobs))


def check_time_parameters(params: Mapping[str, Any] | None, measures: Sequence[str] | None, first: int = 0) -> None:
    """Refuse a parameter none of the chosen time measures takes (the chosen: ``measures``, else the
    ``time`` group, or its ``first`` ones)."""
    from segagree.scoring.options import check_measure_parameters
    from segagree.scoring.time.agreement import time_measures

    chosen = [m.name for m in time_measures(measures)]
    check_measure_parameters(params, chosen if measures or not first else chosen[:first], choose="measures")
