"""Comparing two annotations of one text: :func:`compare` (``segagree compare``), its result, and the
measures it scores.

Light on purpose: nothing heavy loads until :func:`compare` knows what it must do, so that DISRPT's
official figure of two files (:mod:`segagree.scoring.tokens.disrpt_files`) costs what its script costs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from segagree.api.common import DocumentLike, PathLike, as_document, pairing, writes_outputs

if TYPE_CHECKING:
    import pandas as pd

    from segagree.model import BoundaryScheme, Document


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
        speakers = names(self.get("per_speaker") or self.get("speakers") or {})
        sf, sf_b = _sf_names()
        return (
            f"CompareResult({sf}={short(self.get(sf))}, {sf_b}={short(self.get(sf_b))}, speakers={speakers}{metrics})"
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # IPython: the same short form
        printer.text(repr(self))


def _sf_names() -> tuple[str, ...]:
    """S_f's and S_f^B's names (the keys of a compare result)."""
    from segagree.scoring.tokens.result_shape import SF_KEYS

    return SF_KEYS


def _metric_list(metrics: str | Sequence[str] | None) -> list[str]:
    """The metric names asked for (None: S_f only), groups expanded."""
    from segagree.metrics.registry import MEASURES

    if metrics is None:
        return list(_sf_names()[:1])
    names = [n.strip().lower() for n in (metrics.split(",") if isinstance(metrics, str) else metrics)]
    if set(names) - {""} <= set(MEASURES):
        # measures of the registry (S_f alone, the default): no need to load every metric to know them
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

    S_f and S_f^B (Lai, Li & Zhang 2023) are computed, per speaker and pooled from summed costs;
    ``metrics`` adds others (``b``, ``s``, ``a``, ``pk``, ``windowdiff``, ``winpr``, ``ghd``...,
    ``"all"``, ``"subtitles"``; see :func:`metric_cards`). Official scorers' figures named alone
    (``ud_sentences``, ``disrpt_seg``, ``edus_seg``: the group ``scorers``) are given alone, as their
    scripts give them: S_f's keys are None and ``sf_not_asked`` says so (name ``sf`` too to have it).
    DISRPT's figure of two CoNLL-U files is then read from the files as ``seg_eval.py`` reads them,
    without the model, in the script's time.

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
    from segagree.metrics.boundary.modes import check_mode

    check_mode(mode)
    pairing(layer, None, align, max_mismatch, normalise_speakers, common_speakers, speaker_map)  # checked first
    if _reads_as_the_script(
        a, b, metrics, metric_options, scheme, layer, speaker_map, common_speakers, format, read_options
    ):
        from segagree.scoring.tokens.disrpt_files import score_files

        official = score_files(Path(a), Path(b), metric_options or {}, one_stream=one_stream)  # type: ignore[arg-type]
        if official is not None:
            return CompareResult(official)
    from segagree.model import load_scheme
    from segagree.scoring.tokens.compare import compare_documents

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
        with_sf=not scorers_alone(names),
        **paired,
    )
    return CompareResult(result)


def scorers_alone(names: Sequence[str]) -> bool:
    """Whether every measure named is an official scorer's figure (card group ``scorers``): those are
    given alone, as their scripts give them; S_f is computed where any other measure is named (``sf``
    among them)."""
    from segagree.metrics.registry import MEASURES, get_measure

    return bool(names) and all(n in MEASURES and get_measure(n).card.group == "scorers" for n in names)


def _reads_as_the_script(a: Any, b: Any, metrics: Any, metric_options: Mapping[str, Any] | None, *unset: Any) -> bool:
    """Whether :func:`compare` may score DISRPT's official figure straight from the two files
    (:func:`segagree.scoring.tokens.disrpt_files.score_files`: it still hands back to the full path
    the files it does not read as the full path does): two CoNLL-U paths, ``disrpt_seg`` alone, and
    its own parameters only, and none of the options that need the Documents (``unset``: scheme,
    layer, speaker map, common speakers, format other than conllu, reader options)."""
    import os

    from segagree.formats import EXTENSIONS, file_kind

    names = [
        n for n in (x.strip().lower() for x in (metrics.split(",") if isinstance(metrics, str) else metrics or [])) if n
    ]
    scheme, layer, speaker_map, common, fmt, read_options = unset
    if len(names) != 1 or scheme or layer or speaker_map or common or read_options:
        return False
    from segagree.metrics.boundary.segment_match import DISRPT_CARD  # (one measure named: is it this one?)

    if names != [DISRPT_CARD.name] or set(metric_options or {}) - set(DISRPT_CARD.parameters):
        return False
    paths = [p for p in (a, b) if isinstance(p, str | os.PathLike)]
    return len(paths) == 2 and all(
        (fmt or "").strip().lower() == "conllu" or (not fmt and EXTENSIONS.get(file_kind(Path(p))) == "conllu")
        for p in paths
    )


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


def measure_names(metrics: str | None) -> list[str]:
    """The measures :func:`compare` scores with ``metrics``: S_f, S_f^B and the ones named (groups
    expanded); the ones named alone where they are all official scorers' figures (group ``scorers``).

    Raises:
        UsageError: an unknown metric or group name (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> segagree.measure_names("boundary")
            ['sf', 'sf_b', 's', 'b', 'b_scheme', 'bed', 'pk', 'windowdiff', 'winpr', 'a', 'ghd']
    """
    if not metrics:
        return list(_sf_names())
    names = _metric_list(metrics)
    if scorers_alone(names):
        return names  # official scorers' figures, given alone as their scripts give them
    # S_f and S_f^B are computed with any other measure; a group that names them too (boundary) lists them once
    return list(dict.fromkeys([*_sf_names(), *names]))
