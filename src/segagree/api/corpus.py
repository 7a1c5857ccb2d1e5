"""A corpus run (``segagree run``): the settings of either track, then the run that scores and writes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from segagree.api.common import PathLike
from segagree.api.time_units import check_time_parameters
from segagree.errors import SegagreeError, UsageError
from segagree.formats import format_for

if TYPE_CHECKING:
    from segagree.corpus.config import RunConfig
    from segagree.corpus.outcome import RunOutcome


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
) -> RunOutcome:
    """Score every text of a corpus folder and write the outputs: every pair of annotators on their
    shared tokens (the token track), or with ``time=True`` every text's annotators' units in time
    (the time track: gamma, alpha-U, the uα family, ELAN's kappa, boundary F1 ...).

    The folder holds ``TEXT.ANNOTATOR.EXT`` files (or one folder per annotator). Settings come
    from ``config`` (a path or :class:`RunConfig`), else ``CORPUS/segagree.toml``, else the
    defaults; the keyword arguments override them. Writes ``summary.csv``, ``summary.json``,
    ``report.html`` with a page per text under ``texts/`` and (token track, unless ``workbooks=False``) a
    review workbook per text (``review/TEXT.xlsx``) into ``out``. Every finished task is appended to
    ``out/results.jsonl`` at once, so an interrupted run resumes; the outcome's results are read
    back from that log lazily (iterate them, do not turn them into a list at corpus scale). One
    run at a time per output folder: another run's lock is an error.

    Args:
        time: score units in time (``measures``, ``params``, ``category``, ``layer``, ``reading``
            apply; ``kappa``, ``sims``, ``reference``, ``workbooks``, ``common_speakers`` do not).
        scheme: the boundary scheme (built-in name or file), overriding segagree.toml's.
        reference: the annotator scored as A (the reference) in its pairs; by default one named
            ref, reference or gold, else the alphabetically first.
        kappa, sims, seed: the simulated kappa (on/off, K, seed; the seed of each text and pair
            is derived from it, see the README). With ``time``, ``seed`` is the measures' seed.
        format, read_options: how to read the files (see :func:`read`).
        common_speakers: score the speakers both annotations of a pair have and list the
            others (``common_speakers`` in segagree.toml; None keeps the config's).
        measures, params, category, layer: the time measures (default: the ``time`` group), their
            parameters (``params["jobs"]``: gamma's own sample workers), what a unit's category is.
        reading: further fields of :class:`segagree.scoring.time.units.UnitReading` (e.g. ``annotators``).

        review_pages: a review part on every text page (the review page's rows, recording and
            decisions; ``review_pages`` in segagree.toml, default off; None keeps the config's).
        machines: judge these annotators against the others as a panel (as :func:`panel`; with
            ``time``, by gamma): ``panel.csv``/``.json``/``.html`` in ``out``, its rows in the summary.

    Example::

        done = segagree.run("corpus/", "results/", time=True, params={"tolerance": 0.2})
        done.texts["t1"][name], done.pooled[name]["value"], done.failures, done.outputs

    Raises:
        SegagreeError: the folder does not exist, or holds nothing to score, or another run holds
            the output folder.
        UsageError: an option that does not apply to the track, an unknown measure, a bad value.
    """
    corpus, out = Path(corpus), Path(out)
    if jobs < 1:
        raise UsageError("jobs must be at least 1")
    if backend not in ("loky", "dask"):
        raise UsageError(f"backend must be loky or dask, not {backend!r}")
    if not corpus.exists():
        raise SegagreeError("no such folder", path=corpus)
    if not corpus.is_dir():
        raise SegagreeError("not a folder (run takes a folder of annotations)", path=corpus)
    from segagree.api.run_corpus import run_corpus

    if format is not None:
        format_for("x", format)  # an unknown format is a usage error before any work
    if time:
        token_only: dict[str, Any] = {"kappa": kappa, "sims": sims, "reference": reference}
        token_only["common_speakers"] = common_speakers
        token_only["review_pages"] = review_pages
        given = [k for k, v in token_only.items() if v is not None] + ["workbooks"] * bool(workbooks)
        if given:
            raise UsageError(f"{', '.join(given)} score token segmentations; run(time=True) does not take them")
        check_time_parameters(params, measures)
        settings: Any = _time_settings(corpus, config, seed, scheme, format, read_options, measures, params, category)
        if layer is not None or reading:
            settings.how = replace(settings.how, **({"layer": layer} if layer is not None else {}), **(reading or {}))
    else:
        settings = _token_settings(corpus, config, sims, seed, kappa, reference, common_speakers, scheme, review_pages)
        if format is not None:
            settings.format = format
        if read_options:
            settings.read.update(read_options)
            if "encoding" in settings.read:
                settings.encoding = settings.read.pop("encoding")
    return run_corpus(
        corpus, out, settings, workbooks=not time and workbooks is not False, report=report, jobs=jobs,
        backend=backend, resume=resume, progress=progress, machines=tuple(machines or ()),
    )  # fmt: skip


def _token_settings(
    corpus: Path,
    config: PathLike | RunConfig | None,
    sims: int | None,
    seed: int | None,
    kappa: bool | None,
    reference: str | None,
    common_speakers: bool | None,
    scheme: str | None,
    review_pages: bool | None = None,
) -> RunConfig:
    """The token track's settings: ``config`` (or CORPUS/segagree.toml) with the keywords applied."""
    from segagree.corpus.config import RunConfig, load_config

    if isinstance(config, RunConfig):
        settings = config
    else:
        settings = load_config(Path(config) if config is not None else None, corpus)
    if sims is not None:
        if sims < 1:
            raise UsageError("sims must be at least 1")
        settings.kappa.sims = sims
    if seed is not None:
        settings.kappa.seed = seed
    if kappa is not None:
        settings.kappa.enabled = kappa
    if not settings.kappa.enabled and sims is not None:  # (the seed also seeds the report's bootstrap)
        raise UsageError("sims sets the simulated kappa, which is off (kappa=False or segagree.toml's [kappa])")
    if reference is not None:
        settings.reference = reference
    if common_speakers is not None:
        settings.common_speakers = common_speakers
    if review_pages is not None:
        settings.review_pages = review_pages
    if scheme is not None:
        # A scheme file given here is relative to the working folder, not the config's.
        settings.scheme = str(Path(scheme).resolve()) if Path(scheme).is_file() else scheme
        settings.load_scheme()  # fail early on a bad scheme
    return settings


def _time_settings(
    corpus: Path,
    config: PathLike | RunConfig | None,
    seed: int | None,
    scheme: str | None,
    format: str | None,
    read_options: Mapping[str, Any] | None,
    measures: Sequence[str] | None,
    params: Mapping[str, Any] | None,
    category: str,
) -> Any:
    """The time track's settings: ``[time]`` of ``config`` (or CORPUS/segagree.toml: ``measures``,
    ``category`` and the measures' parameters), its ``format``, ``encoding`` and ``[read]``, with the
    keywords applied."""
    from segagree.corpus.config import RunConfig, load_config
    from segagree.corpus.time_track import TimeConfig
    from segagree.scoring.time.units import UnitReading

    base = config if isinstance(config, RunConfig) else load_config(Path(config) if config else None, corpus)
    table = dict(base.time)
    given = {**{k: v for k, v in table.items() if k not in ("measures", "category")}, **(params or {})}
    if seed is not None:
        given["seed"] = seed
    options = {**base.reader_options(), **(read_options or {})}
    how = UnitReading(
        category=category if category != "label" else str(table.get("category", category)),
        fmt=format or base.format or None,
        scheme=scheme,
        options=options,
    )
    return TimeConfig(list(measures or table.get("measures") or []), given, how)
