"""Scores of one text: :func:`compare` (``segagree compare``) and :func:`agree` (``segagree agree``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from segagree.api.common import (
    DocumentLike,
    PathLike,
    annotator_label,
    as_document,
    check_seed,
    pairing,
    writes_outputs,
)
from segagree.errors import UsageError
from segagree.metrics.boundary.sf import check_mode
from segagree.metrics.chance.models import DEFAULT_CHANCE, DEFAULT_SIMS
from segagree.model import BoundaryScheme, Document, load_scheme

if TYPE_CHECKING:
    import pandas as pd

    from segagree.metrics.contract import Card as MetricCard


class CompareResult(dict):
    """The result of :func:`compare`: a JSON-ready dict (the ``compare --json`` contract) with
    attribute access to its main parts.

    Keys: ``sf``, ``sf_b``, ``cost``, ``edits``, ``n_tokens``, ``per_speaker`` (speaker -> the
    same keys and operation counts), ``operations``, ``metrics`` (name -> ``value``,
    ``per_speaker``, parameters), ``mismatches`` (transcript differences aligned),
    ``signature`` (metric, parameters, scheme digest, version).
    """

    @property
    def sf(self) -> float:
        """S_f pooled over speakers (1 - summed cost / summed tokens; Lai et al. 2023)."""
        return self[_sf_names()[0]]

    @property
    def sf_b(self) -> float:
        """S_f^B pooled over speakers (1 - summed cost / summed edits)."""
        return self[_sf_names()[1]]

    @property
    def per_speaker(self) -> dict[str, dict[str, Any]]:
        return self["per_speaker"]

    @property
    def operations(self) -> list[dict[str, Any]]:
        return self["operations"]

    @property
    def metrics(self) -> dict[str, dict[str, Any]]:
        return self["metrics"]

    @property
    def mismatches(self) -> list[dict[str, Any]]:
        return self["mismatches"]

    @property
    def signature(self) -> str:
        return self["signature"]

    def suber(self) -> tuple[dict[str, Any] | None, dict[str, Any], dict[str, Any]]:
        """(SubER's values or None, SubER's information, the other metrics) of :attr:`metrics`."""
        if not any(name.startswith("suber") for name in self["metrics"]):
            return None, {}, dict(self["metrics"])  # no need to import the subtitle measures
        from segagree.scoring.subtitles.evaluation import split_suber

        return split_suber(self["metrics"])

    def value(self, metric: str) -> float | None:
        """The pooled value of any metric computed (``sf``, ``sf_b``, ``b``, ``pk``, ``ghd``...)."""
        if metric in _sf_names():
            return self[metric]
        return self["metrics"][metric]["value"]

    def to_frame(self) -> pd.DataFrame:
        """A pandas DataFrame: a row per speaker and the pooled row ``ALL`` (tokens, S_f, S_f^B, cost,
        edits, operation counts, a column per other metric); see :mod:`segagree.api.frames`."""
        from segagree.api.frames import compare_frame

        return compare_frame(self)

    def __repr__(self) -> str:
        from segagree.api.frames import names, short

        metrics = f", metrics={names(self.get('metrics') or {})}" if self.get("metrics") else ""
        speakers = names(self.get("per_speaker") or {})
        sf, sf_b = _sf_names()
        return (
            f"CompareResult({sf}={short(self.get(sf))}, {sf_b}={short(self.get(sf_b))}, speakers={speakers}{metrics})"
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # IPython: the same short form
        printer.text(repr(self))


class AgreementResult(dict):
    """The result of :func:`agree`: a JSON-ready dict (the ``agree --json`` contract).

    Keys: ``annotators``, ``pairs`` (one per pair of annotators: ``a``, ``b``, ``speakers``,
    ``pooled`` with ``sf``, ``sf_b``, ``kappa_sf``, ``kappa_sf_b``), ``multi`` (Fleiss-style
    multi-pi, multi-kappa and bias for three or more annotators), ``signature`` per pair.
    """

    @property
    def annotators(self) -> list[str]:
        return self["annotators"]

    @property
    def pairs(self) -> list[dict[str, Any]]:
        return self["pairs"]

    @property
    def kappa(self) -> float | None:
        """kappa(S_f) pooled over speakers, of the first pair of annotators."""
        from segagree.metrics.chance.kappa import KAPPA_NAMES

        est = self["pairs"][0]["pooled"].get(KAPPA_NAMES[0]) if self.get("pairs") else None
        return None if not est else est.get("kappa")

    @property
    def multi(self) -> dict[str, Any] | None:
        return self.get("multi")

    def to_frame(self) -> pd.DataFrame:
        """A pandas DataFrame: a row per pair of annotators and speaker, with each pair's pooled row
        ``ALL`` (S_f, S_f^B, their kappas, E[S] and the Monte Carlo errors); see :mod:`segagree.api.frames`."""
        from segagree.api.frames import agreement_frame

        return agreement_frame(self)

    def __repr__(self) -> str:
        from segagree.api.frames import names, short

        pairs = self.get("pairs") or []
        first = f", kappa_sf={short(self.kappa)}" if pairs else ""
        return f"AgreementResult(annotators={names(self.get('annotators') or [])}, pairs={len(pairs)}{first})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


def _sf_names() -> tuple[str, ...]:
    """S_f's and S_f^B's names (the keys of a compare result)."""
    from segagree.metrics.boundary.sf import SF_NAMES

    return SF_NAMES


def _metric_list(metrics: str | Sequence[str] | None) -> list[str]:
    """The metric names asked for (None: S_f only), groups expanded."""
    from segagree.metrics.boundary.sf import SF_NAMES

    if metrics is None:
        return list(SF_NAMES[:1])
    names = [n.strip().lower() for n in (metrics.split(",") if isinstance(metrics, str) else metrics)]
    if set(names) - {""} <= set(SF_NAMES):
        # S_f alone (the default): no need to load every metric to know these names.
        return list(dict.fromkeys(n for n in names if n))
    from segagree.scoring.metric_runner import resolve_metric_names

    return resolve_metric_names(metrics)


def compare(
    a: DocumentLike,
    b: DocumentLike,
    *,
    metrics: str | Sequence[str] | None = None,
    scheme: BoundaryScheme | str | None = None,
    mode: str = "optimal",
    align: bool = False,
    max_mismatch: float = 0.2,
    layer: str | None = None,
    transpositions: bool = True,
    normalise_speakers: bool = True,
    speaker_map: Mapping[str, str] | None = None,
    format: str | None = None,
    read_options: Mapping[str, Any] | None = None,
    metric_options: Mapping[str, Any] | None = None,
    with_operations: bool = True,
    review_rows: bool = True,
    common_speakers: bool = False,
    one_stream: bool = False,
) -> CompareResult:
    """Compare two segmentations of the same text.

    S_f and S_f^B (Lai, Li & Zhang 2023) are always computed, per speaker and pooled from summed
    costs; ``metrics`` adds others (``b``, ``s``, ``a``, ``pk``, ``windowdiff``, ``winpr``,
    ``ghd``..., ``"all"``, ``"subtitles"``; see :func:`metric_cards`).

    Args:
        a, b: the two annotations (paths or Documents); ``a`` is the reference where it matters.
        metrics: metric names, a comma list or a group name (None: S_f and S_f^B only).
        scheme: the boundary scheme (name, file or object); default DuBois endnotes.
        mode: ``optimal`` (the exact minimum) or ``segsimflex`` (the R package's search).
        align: align differing transcripts (edit distance over tokens) instead of failing.
        max_mismatch: with ``align``, the largest share of a speaker's tokens (of the longer
            stream) that may be mismatched; more is refused with a :class:`MismatchError`.
        layer: the layer to compare (default ``iu``); ``"iu,turn"`` compares several as sets.
        transpositions: allow transpositions in S_f.
        normalise_speakers: ``F2`` and ``F2:`` (and ``MARCIA;``) are one speaker.
        speaker_map: explicit renames applied before pairing.
        format: the input format of path arguments (default by extension).
        read_options: reader options for path arguments (see :func:`reader_options`).
        metric_options: metric parameters (``k``, ``n_t``, ``boundary``...).
        with_operations: list every operation (False: scores and operation counts only, much
            faster on a long text); review_rows: add the operations' review rows with context.
        common_speakers: score only the speakers both annotations have (with words); the
            others are in the result's ``unpaired_speakers`` (``{"a": [...], "b": [...]}``).
        one_stream: two CoNLL-U files' documents scored as one stream each, in file order, as the
            official scripts score a file (by default only where one file has no documents; the
            result's ``notes`` says so).

    Raises:
        MismatchError: different speakers (without ``common_speakers``), or different
            transcripts without ``align``.

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> result = segagree.compare("garden.ann1.txt", "garden.ann2.txt", metrics=["pk"])
            >>> result
            CompareResult(sf=0.9435, sf_b=0.7439, speakers=['BEN', 'MAYA', 'ROSA'], metrics=['pk'])
            >>> round(result.value("pk"), 4)
            0.0559
    """
    from segagree.scoring.tokens.compare import compare_documents

    check_mode(mode)
    sch = load_scheme(scheme)
    paired = pairing(layer, sch, align, max_mismatch, normalise_speakers, common_speakers, speaker_map)
    names = _metric_list(metrics)
    if metric_options:
        from segagree.scoring.options import check_measure_parameters

        chosen = [*_sf_names(), *names]
        check_measure_parameters(metric_options, chosen, choose="metrics", known_only=True)
    doc_a = as_document(a, format, sch, read_options or {})
    doc_b = as_document(b, format, sch, read_options or {})
    result = compare_documents(
        doc_a,
        doc_b,
        mode=mode,
        transpositions=transpositions,
        metrics=names,
        metric_options=metric_options,
        with_operations=with_operations,
        review_rows=review_rows,
        one_stream=one_stream,
        **paired,
    )
    return CompareResult(result)


def agree(
    *annotations: DocumentLike | Sequence[DocumentLike],
    names: Sequence[str] | None = None,
    sims: int = DEFAULT_SIMS,
    seed: int = 12345,
    chance: str = DEFAULT_CHANCE,
    exact: bool = False,
    scheme: BoundaryScheme | str | None = None,
    mode: str = "optimal",
    transpositions: bool = True,
    layer: str | None = None,
    align: bool = False,
    max_mismatch: float = 0.2,
    normalise_speakers: bool = True,
    speaker_map: Mapping[str, str] | None = None,
    jobs: int = 1,
    threads: int | None = None,
    ci_over: str = "texts",
    n_boot: int = 1000,
    format: str | None = None,
    read_options: Mapping[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
    mc_tolerance: float | None = None,
    common_speakers: bool = False,
) -> AgreementResult:
    """Chance-corrected agreement of two or more annotations of one text.

    For every pair: S_f and S_f^B, and kappa = (S - E[S]) / (1 - E[S]) where E[S] is the
    expected similarity of chance annotations drawn from the annotators' boundary-type
    distributions (Lai, Li & Zhang 2023, section 5; ``sims`` draws per speaker, seeded), or its
    exact value (``exact=True``, without transpositions). For three or more annotators also
    Fleiss-style multi-pi, multi-kappa and bias (Artstein & Poesio 2008).

    ``agree(a, b, c)`` as ``compare(a, b)``; the former ``agree([a, b, c])`` (one list) still works,
    with a DeprecationWarning.

    Args:
        annotations: paths or Documents (two or more, the same text).
        names: annotator labels (default: the file names).
        sims: simulated chance pairs per speaker (K).
        seed: seed of the simulation and the bootstrap.
        chance: chance model: cohen, scott, bennett, bennett_modified or segsimflex.
        exact: exact chance expectation of S_f (needs ``transpositions=False``).
        jobs: worker processes (the numbers do not depend on it).
        threads: threads scoring the simulations in this process (or in each worker with
            ``jobs`` > 1); default: every CPU this process may use with ``jobs=1``, else 1.
            The numbers do not depend on it.
        ci_over: bootstrap intervals over ``texts`` or ``speakers``.
        mc_tolerance: stop simulating before ``sims`` once both pooled kappas' Monte Carlo
            standard errors are at most this (each pair reports ``n_simulations_used`` and
            ``stopped_early``).
        other arguments: as in :func:`compare`.

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: a file cannot be read as its format; the message names the place (also a
            ``ValueError``).
        MismatchError: the annotations share no speaker or their transcripts differ beyond
            ``max_mismatch`` (also a ``ValueError``).
        UsageError: an unknown format, metric or option value (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> result = segagree.agree("garden.ann1.txt", "garden.ann2.txt", sims=200, seed=1)
            >>> result
            AgreementResult(annotators=['garden.ann1.txt', 'garden.ann2.txt'], pairs=1, kappa_sf=0.8141)
            >>> round(result.kappa, 4)
            0.8141
    """
    from segagree.metrics.chance.sf_kappa import CHANCE_MODELS
    from segagree.scoring.tokens.agreement import agree_documents

    items = _annotations(annotations)
    check_mode(mode)
    if chance not in CHANCE_MODELS:
        raise UsageError(f"chance must be one of {', '.join(CHANCE_MODELS)}, not {chance!r}")
    sch = load_scheme(scheme)
    paired = pairing(layer, sch, align, max_mismatch, normalise_speakers, common_speakers, speaker_map)
    if sims < 1 or jobs < 1 or n_boot < 1 or (threads is not None and threads < 1):
        raise UsageError("sims, jobs, threads and n_boot must be at least 1")
    check_seed(seed)
    if threads is None:
        from segagree.cpus import usable_cpus

        threads = usable_cpus() if jobs == 1 else 1
    if exact and (mc_tolerance is not None or progress is not None):
        given = "mc_tolerance" if mc_tolerance is not None else "progress"
        raise UsageError(f"{given} follows the simulations; with exact=True nothing is simulated")
    docs = [as_document(x, format, sch, read_options or {}) for x in items]
    if names is None:
        names = [annotator_label(x, i) for i, x in enumerate(items)]
    result = agree_documents(
        docs,
        names=names,
        mode=mode,
        transpositions=transpositions,
        chance=chance,
        chance_method="exact" if exact else "simulation",
        sims=sims,
        seed=seed,
        jobs=jobs,
        threads=threads,
        ci_over=ci_over,
        n_boot=n_boot,
        progress=progress,
        mc_tolerance=mc_tolerance,
        **paired,
    )
    return AgreementResult(result)


def _annotations(given: tuple[Any, ...]) -> tuple[DocumentLike, ...]:
    """agree's annotations: ``agree(a, b, ...)``, or the former ``agree([a, b, ...])`` with a warning."""
    if len(given) == 1 and isinstance(given[0], list | tuple):
        import warnings

        warnings.warn(
            "agree([a, b, ...]) is deprecated, use agree(a, b, ...) (as compare(a, b))",
            DeprecationWarning,
            stacklevel=3,
        )
        given = tuple(given[0])
    if len(given) < 2:
        raise UsageError(f"agree needs two or more annotations of the same text, got {len(given)}")
    return given


def metric_cards() -> dict[str, MetricCard]:
    """Every metric's card (definition, parameters and defaults, citation, implementation), from the registry.

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> card = segagree.metric_cards()["pk"]
            >>> card.range, card.better
            ('[0, 1]', 'lower')
    """
    from segagree.scoring.metric_runner import metric_cards as cards

    return cards()


@writes_outputs()
def write_operations(
    result: CompareResult, path: PathLike, *, a: Document, b: Document, csv_guard: bool | None = None
) -> int:
    """Write the operation rows of a :func:`compare` result (made with ``review_rows=True``) to a CSV file,
    atomically (``compare --ops``). The cells hold the data as it is (a Du Bois ``--`` stays ``--``), for
    pandas and R; with ``csv_guard=True`` (``--csv-guard``; None: ``SEGAGREE_CSV_GUARD``), for a
    spreadsheet, a text cell a spreadsheet would run gets a ``'`` in front (:mod:`segagree.files.cells`).
    Returns the number of operations.

    Raises:
        SegagreeError: ``path`` is one of the two annotation files, or cannot be written.

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> a, b = segagree.read("garden.ann1.txt"), segagree.read("garden.ann2.txt")
            >>> segagree.write_operations(segagree.compare(a, b), "garden.operations.csv", a=a, b=b)
            41
    """
    from segagree.scoring.tokens.operations import write_operations_csv

    write_operations_csv(result, Path(path), a=a, b=b, raw=None if csv_guard is None else not csv_guard)
    return len(result["operations"])


def agree_dataset(path: PathLike, *, n_boot: int = 1000, seed: int = 12345) -> dict[str, Any]:
    """S- and B-based multi-pi, multi-kappa and bias of a segeval JSON dataset (``agree --dataset``;
    Fournier 2013, segeval-exact), the pairwise table, and bootstrap intervals over items.

    Returns:
        A JSON-ready dict: ``multi``, ``pairwise``, ``ci`` (per similarity), ``coders``, ``items``,
        ``definitions`` and ``dataset`` (the path).

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: the file is not a segeval dataset (JSON with ``segmentation_type`` and ``items``),
            naming what is wrong (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> import json
            >>> masses = {"an1": [2, 3, 6], "an2": [2, 3, 6], "an3": [5, 6]}
            >>> data = {"segmentation_type": "linear", "items": {"text": masses}}
            >>> _ = open("tiny.json", "w").write(json.dumps(data))
            >>> result = segagree.agree_dataset("tiny.json", n_boot=100)
            >>> sorted(result)
            ['ci', 'coders', 'dataset', 'definitions', 'items', 'kind', 'multi', 'pairwise']
    """
    from segagree.scoring.tokens.agreement import agree_dataset as score_dataset
    from segagree.scoring.tokens.agreement import load_segeval_json

    check_seed(seed)
    result = score_dataset(load_segeval_json(Path(path)), n_boot=n_boot, seed=seed)
    result["dataset"] = str(path)
    return result


def measure_names(metrics: str | None) -> list[str]:
    """The measures :func:`compare` scores with ``metrics``: S_f, S_f^B and the ones named (groups expanded).

    Raises:
        UsageError: an unknown metric or group name (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> segagree.measure_names("boundary")
            ['sf', 'sf_b', 's', 'b', 'b_scheme', 'bed', 'pk', 'windowdiff', 'winpr', 'a', 'ghd']
    """
    from segagree.metrics.boundary.sf import SF_NAMES

    if not metrics:
        return list(SF_NAMES)
    from segagree.scoring.metric_runner import resolve_metric_names

    # S_f and S_f^B are always computed; a group that names them too (boundary) lists them once
    return list(dict.fromkeys([*SF_NAMES, *resolve_metric_names(metrics)]))
