"""A corpus run (``segagree run``): the settings of either track, then the run that scores and writes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from segagree.api.common import PathLike, check_seed, writes_outputs
from segagree.api.time_units import check_time_parameters
from segagree.errors import MissingFileError, SegagreeError, UsageError
from segagree.formats import format_for

if TYPE_CHECKING:
    from segagree.corpus.config import RunConfig
    from segagree.corpus.outcome import RunOutcome


def _check_arguments(corpus: Path, jobs: int, backend: str, format: str | None) -> None:
    """The arguments :func:`run` refuses before any work: the folder, the workers, the format."""
    if jobs < 1:
        raise UsageError("jobs must be at least 1")
    if backend not in ("loky", "dask"):
        raise UsageError(f"backend must be loky or dask, not {backend!r}")
    if not corpus.exists():
        raise MissingFileError("no such folder", path=corpus)
    if not corpus.is_dir():
        raise SegagreeError("not a folder (run takes a folder of annotations)", path=corpus)
    if format is not None:
        format_for("x", format)  # an unknown format is a usage error before any work


@writes_outputs("out")
def run(
    corpus: PathLike,
    out: PathLike,
    *,
    time: bool = False,
    config: PathLike | RunConfig | None = None,
    jobs: int = 1,
    backend: str = "loky",
    resume: bool = True,
    kappa: bool | None = None,
    sims: int | None = None,
    seed: int | None = None,
    reference: str | None = None,
    scheme: str | None = None,
    workbooks: bool | None = None,
    report: bool = True,
    format: str | None = None,
    read_options: Mapping[str, Any] | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    common_speakers: bool | None = None,
    measures: Sequence[str] | None = None,
    params: Mapping[str, Any] | None = None,
    category: str = "label",
    layer: str | None = None,
    reading: Mapping[str, Any] | None = None,
    review_pages: bool | None = None,
    machines: Sequence[str] | None = None,
    metrics: str | Sequence[str] | None = None,
    cues: bool = False,
) -> RunOutcome:
    """Score every text of a corpus folder and write the outputs: every pair of annotators on their shared
    tokens (the token track), or with ``time=True`` their units in time (the time track: gamma, alpha-U...).

    The folder holds ``TEXT.ANNOTATOR.EXT`` files (or one folder per annotator). Settings come
    from ``config`` (a path or :class:`RunConfig`), else ``CORPUS/segagree.toml``, else the
    defaults; the keyword arguments override them. Writes ``summary.csv``, ``summary.json``,
    ``report.html`` with a page per text under ``texts/`` and (token track, unless ``workbooks=False``) a
    review workbook per text (``review/TEXT.xlsx``) into ``out``. Every finished task is appended to
    ``out/results.jsonl`` at once, so an interrupted run resumes; the outcome's results are read
    back from that log lazily (iterate them, not a list at corpus scale). One run at a time per
    output folder: another run's lock is an error.

    Args:
        time: score units in time (``measures``, ``params``, ``category``, ``layer``, ``reading``
            apply; ``kappa``, ``sims``, ``reference``, ``workbooks``, ``common_speakers`` do not).
        scheme: the boundary scheme (built-in name or file), overriding segagree.toml's.
        reference: the annotator scored as A (the reference) in its pairs; by default one named
            ref, reference or gold, else the alphabetically first.
        kappa, sims, seed: the simulated kappa (on/off, K, seed; the seed of each text and pair
            is derived from it, see the README). With ``time``, ``seed`` is the measures' seed.
        format, read_options: how to read the files (see :func:`read`).
        common_speakers: score the speakers a pair's annotations share, listing the others (None: the config's).
        measures, params, category, layer: the time measures (default: the ``time`` group), their
            parameters (``params["jobs"]``: gamma's own sample workers), what a unit's category is.
        reading: further fields of :class:`segagree.scoring.time.units.UnitReading` (e.g. ``annotators``).
        review_pages: a review part on every text page (the review page's rows, recording and
            decisions; ``review_pages`` in segagree.toml, default off; None keeps the config's).
        machines: judge these annotators against the others as a panel (as :func:`panel`; with
            ``time``, by gamma): ``panel.csv``/``.json``/``.html`` in ``out``, its rows in the summary.
        metrics: token track: the measures computed besides S_f and S_f^B (names or groups, as
            :func:`compare`'s), instead of ``segagree.toml``'s; a subtitle text gets only the subtitle
            measures named (``"subtitles"`` for all of them), none when none is.
        cues: token track: the acoustic cues at every boundary of every text whose recording is found,
            pooled into a cue profile (``cues.csv``, ``plots/cues.png``, a section of the report; needs
            ``segagree[cues]``).

    Raises:
        SegagreeError: the folder holds nothing to score, or another run holds the output folder.
        MissingFileError: the folder does not exist (also a ``FileNotFoundError``).
        UsageError: an option that does not apply to the track, an unknown measure, a bad value.

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> outcome = segagree.run("panel", "panel_results", sims=50, workbooks=False, report=False)
            >>> outcome
            RunOutcome(track='token', texts=4, tasks=24 (24 scored, 0 reused, 0 failed),
                outputs=['rebuilt', 'summary_csv', 'summary_json'])
    """
    corpus, out = Path(corpus), Path(out)
    _check_arguments(corpus, jobs, backend, format)
    from segagree.api.run_corpus import run_corpus
    from segagree.corpus.run_settings import choose_metrics, time_settings, token_settings

    if time:
        from segagree.scoring.options import TIME, keyword_applies

        keywords: dict[str, Any] = {"kappa": kappa, "sims": sims, "reference": reference}
        keywords["common_speakers"] = common_speakers
        keywords |= {"review_pages": review_pages, "workbooks": workbooks or None}
        if metrics:
            raise UsageError("metrics are the token track's measures; run(time=True) takes measures=")
        if cues:
            raise UsageError("the acoustic cues are measured on the token track only so far; run(time=True) has none")
        given = [k for k, v in keywords.items() if v is not None and not keyword_applies("run", k, TIME)]
        if given:
            raise UsageError(f"{', '.join(given)} score token segmentations; run(time=True) does not take them")
        check_time_parameters(params, measures)
        check_seed(seed)
        settings: Any = time_settings(corpus, config, seed, scheme, format, read_options, measures, params, category)
        if layer is not None or reading:
            settings.how = replace(settings.how, **({"layer": layer} if layer is not None else {}), **(reading or {}))
    else:
        check_seed(seed)
        settings = token_settings(corpus, config, sims, seed, kappa, reference, common_speakers, scheme, review_pages)
        if metrics:
            choose_metrics(settings, metrics)
        if format is not None:
            settings.format = format
        if cues:
            settings.cues = True
        if read_options:
            settings.read.update(read_options)
            if "encoding" in settings.read:
                settings.encoding = settings.read.pop("encoding")
    return run_corpus(
        corpus, out, settings, workbooks=not time and workbooks is not False, report=report, jobs=jobs,
        backend=backend, resume=resume, progress=progress, machines=tuple(machines or ()),
    )  # fmt: skip
