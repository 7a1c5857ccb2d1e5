"""Review workbooks and pages of a pair (``segagree review``, ``review --time``) and the gold they give
(``segagree adjudicate``)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from segagree.api.common import DocumentLike, PathLike, check_margin, renamed_keywords, renamed_value, writes_outputs
from segagree.api.comparison import CompareResult
from segagree.api.time_units import check_time_parameters, read_time_units
from segagree.errors import SegagreeError, UsageError
from segagree.metrics.boundary.sf import check_mode
from segagree.metrics.chance.models import DEFAULT_SIMS
from segagree.model import Document
from segagree.scoring.acoustics.settings import CueSettings

if TYPE_CHECKING:
    from segagree.adjudication.time import TimeAdjudication
    from segagree.adjudication.tokens import AdjudicationReport


class TimeReviewOutcome(TypedDict):
    """What :func:`review_time` wrote: the workbook or page, the measure whose alignment it lists, the
    number of aligned groups, the groups per kind, the timeline plots and the reading's notes (what was
    skipped, the window)."""

    path: str
    measure: str
    groups: int
    kinds: dict[str, int]
    plots: list[str]
    notes: list[str]
    cues: str


@dataclass(frozen=True)
class ReviewOutcome:
    """What :func:`review` wrote: the workbook, the operations listed, and the pair's S_f."""

    path: Path
    operations: int
    sf: float | None
    unpaired_speakers: dict[str, list[str]] = field(default_factory=dict)
    cues: str = ""  # where the acoustic cues come from, or why there are none ('' without cues)


@writes_outputs()
def review(
    a: PathLike,
    b: PathLike,
    output: PathLike,
    *,
    scheme: str | None = None,
    mode: str = "optimal",
    matches: bool = False,
    kappa: bool = True,
    sims: int = DEFAULT_SIMS,
    seed: int = 12345,
    max_mismatch: float = 0.2,
    normalise_speakers: bool = True,
    speaker_map: Mapping[str, str] | None = None,
    format: str | None = None,
    read_options: Mapping[str, Any] | None = None,
    common_speakers: bool = False,
    media: PathLike | None = None,
    margin: float = 1.0,
    metrics: str | Sequence[str] | None = None,
    cues: bool | None = None,
    cue_settings: CueSettings | None = None,
) -> ReviewOutcome:
    """Write the review workbook (.xlsx) of one pair of annotations: every edit operation with its
    speaker, position, context and cost, and a decision column for :func:`adjudicate`'s input.
    An ``.html`` output is the review page instead (:mod:`segagree.outputs.review_page`: the same
    rows, with the recording found from A's file or ``media``, each row played with ``margin``
    seconds around its span).

    ``a`` is the base of the gold annotation that ``segagree adjudicate`` writes from the
    reviewers' decisions. ``matches`` lists match operations too; ``kappa``, ``sims``, ``seed``
    put the simulated kappa on the Summary sheet. ``common_speakers`` scores the speakers both
    annotations have; the others are in the outcome's ``unpaired_speakers``. ``metrics`` chooses the
    measures besides S_f on the Summary sheet, as ``run(metrics=...)`` does (subtitle measures only
    when named). ``cues`` gives each row the acoustic cues at its boundary point
    (:mod:`segagree.scoring.acoustics`: pause, F0 and intensity reset, speech rate, final lengthening)
    from the recording (``media`` or the one A's file names), with ``cue_settings`` (Praat's defaults);
    None: when a recording is found and parselmouth is installed; True: always (columns empty with the
    reason without them); False: never. The recording's tracks are cached beside the output (``.segagree-cues/``).

    Raises:
        UsageError: the output is not an .xlsx file, or a bad option.
        SegagreeError: a file cannot be read, or the pair cannot be scored.

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> outcome = segagree.review("garden.ann1.txt", "garden.ann2.txt", "garden.review.xlsx")
            >>> outcome.path, outcome.operations
            (PosixPath('garden.review.xlsx'), 11)
    """
    from segagree.corpus.run_settings import choose_metrics, review_settings
    from segagree.corpus.tasks import run_task
    from segagree.outputs.review_workbook import write_review_workbook

    output = Path(output)
    page = output.suffix.lower() in (".html", ".htm")
    if output.suffix.lower() != ".xlsx" and not page:
        raise UsageError("the review must be an .xlsx workbook or an .html page")
    check_margin(margin)
    check_mode(mode)
    config = review_settings(
        scheme=scheme,
        mode=mode,
        matches=matches,
        kappa=kappa,
        sims=sims,
        seed=seed,
        max_mismatch=max_mismatch,
        normalise_speakers=normalise_speakers,
        speaker_map=speaker_map,
        format=format,
        read_options=read_options,
        common_speakers=common_speakers,
    )
    if metrics:
        choose_metrics(config, metrics)
    text = Path(a).name.split(".")[0]
    result = run_task(text, "A", "B", str(a), str(b), config)
    if not result["ok"]:
        raise SegagreeError(result["error"])
    from segagree.corpus.acoustic_cues import attach_cues, cue_summary

    if page:
        from segagree.outputs.review_page import token_page_data, write_review_page

        data = token_page_data(
            [result], config, output.resolve().parent, media=media, margin=margin, cues=cues, cue_settings=cue_settings
        )
        path = write_review_page(output, data)
        said = data["cues"]
    else:
        if cues is not False:
            attach_cues(
                [result],
                config,
                media=media,
                settings=cue_settings,
                output_dir=output.resolve().parent,
                always=bool(cues),
            )
        path = write_review_workbook(output, [result], config)
        said = cue_summary([result])
    rows = result["operation_rows"]
    shown = len(rows) if matches else sum(r["op"] != "match" for r in rows)
    unpaired = result["compare"].get("unpaired_speakers") or {}
    return ReviewOutcome(path, shown, CompareResult(result["compare"]).sf, unpaired, said)


@writes_outputs()
def review_time(
    sources: Sequence[DocumentLike] | DocumentLike,
    output: PathLike,
    *,
    measure: str | None = None,
    params: Mapping[str, Any] | None = None,
    plot: PathLike | None = None,
    media: PathLike | None = None,
    margin: float = 1.0,
    cues: bool | None = None,
    cue_settings: CueSettings | None = None,
    **reading: Any,
) -> TimeReviewOutcome:
    """Write the review workbook (.xlsx) of a best alignment of units in time: one row per aligned group
    with each annotator's unit, the group's share of the disorder, its kind (match, shifted, category
    mismatch, unmatched) and a decision column for :func:`adjudicate_time`. An ``.html`` output is the
    review page of the same rows (the recording from the first source naming one, or ``media``).

    The alignment comes from ``measure`` or from the first measure of the time group that gives one
    (gamma's, Mathet et al. 2015); ``params`` are its parameters, ``reading`` :func:`read_time_units`'s.
    ``plot`` (a .png) also draws each speaker's units and their alignment (``NAME.SPEAKER.png`` when
    there are several speakers). ``cues``: each annotator's pause, F0 and intensity reset at
    the end of its unit in the row, from the recording (``media`` or the first source naming one), as
    :func:`review`'s ``cues`` (None: when a recording is found).

    Returns:
        ``{"path", "measure", "groups", "kinds": {kind: n}, "plots": [paths], "notes": [...], "cues"}``;
        ``notes`` are the reading's (the window, skipped CHAT utterances); ``cues`` is ``cues from NAME``,
        the reason there are none, or empty.

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: a file cannot be read as its format; the message names the place (also a
            ``ValueError``).
        UsageError: an unknown format, metric or option value (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> outcome = segagree.review_time(["time/kim.TextGrid", "time/lee.TextGrid"], "time.review.xlsx")
            >>> outcome["groups"], outcome["kinds"]
            (8, {'shifted': 3, 'unmatched': 4, 'category mismatch': 1})
    """

    from segagree.outputs.time_review import group_rows, refuse_reserved_names, write_time_review
    from segagree.outputs.timeline_files import write_timeline_plots
    from segagree.scoring.time.agreement import best_alignments

    check_time_parameters(params, [measure] if measure else None, first=1)
    timed = read_time_units(sources, **reading)
    refuse_reserved_names(list(timed.annotators), output)  # the page's decisions as the workbook's
    name, alignments = best_alignments(timed, measure, params)
    rows = [r for spk, al in alignments.items() for r in group_rows(timed.speakers[spk], al, spk)]
    settings = {"measure": name, "parameters": dict(params or {}), **timed.to_dict()}
    settings["sources"] = _recorded_sources(sources, Path(output))  # the gold is written on the first one
    said = ""  # where the cues come from (a workbook), or why there are none
    items = [sources] if isinstance(sources, (str, os.PathLike, Document)) else list(sources)
    paths = [Path(p) for p in items if isinstance(p, (str, os.PathLike))]
    extra: list[str] = []
    tracks = None
    if cues is not False:
        from segagree.corpus.acoustic_cues import time_cues

        extra, said, tracks = time_cues(
            rows, timed, paths, media=media, settings=cue_settings, output_dir=Path(output).resolve().parent,
            always=bool(cues),
        )  # fmt: skip
    if Path(output).suffix.lower() in (".html", ".htm"):
        from segagree.outputs.review_page import time_page_data, write_review_page

        check_margin(margin)
        page_dir = Path(output).resolve().parent
        text = Path(paths[0]).name.split(".")[0] if paths else ""
        data = time_page_data(
            rows, list(timed.annotators), settings, paths, page_dir, media=media, margin=margin, text=text,
            tracks=tracks, cues=said if extra else "", cue_settings=cue_settings,
        )  # fmt: skip
        path = write_review_page(output, data)
    else:
        path = write_time_review(output, rows, list(timed.annotators), settings, extra)
    plots = write_timeline_plots(Path(plot), timed.speakers, alignments) if plot is not None else []
    kinds = dict(Counter(r["kind"] for r in rows))
    return {
        "path": str(path),
        "measure": name,
        "groups": len(rows),
        "kinds": kinds,
        "plots": plots,
        "notes": list(timed.notes),
        "cues": said,
    }


def _recorded_sources(sources: Sequence[DocumentLike] | DocumentLike, output: Path) -> list[dict[str, str]]:
    """Each source file: its path relative to the review's folder, absolute, and full SHA-1 (what
    :func:`adjudicate_time` finds and checks the reference annotator's file by). A page carries no
    absolute path of the machine that wrote it (as its token pages): the relative path only."""
    from segagree.corpus.tasks import file_sha1

    items = [sources] if isinstance(sources, (str, os.PathLike, Document)) else list(sources)
    home = output.resolve().parent
    page = output.suffix.lower() in (".html", ".htm")
    out = []
    for item in items:
        if isinstance(item, (str, os.PathLike)) and Path(item).is_file():
            path = Path(item).resolve()
            try:
                relative = os.path.relpath(path, home)
            except ValueError:  # another drive on Windows
                relative = str(path)
            out.append({"file": relative, "file_absolute": "" if page else str(path), "sha1": file_sha1(path)})
    return out


def review_page_media(page: PathLike) -> str:
    """One line on a review page's recording: which file it plays and what named it, or why it plays none.

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: the file is not a review page segagree wrote (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> _ = segagree.review("recording/talk.kim.eaf", "recording/talk.lee.eaf", "talk.review.html")
            >>> segagree.review_page_media("talk.review.html")
            'recording recording/talk.ogg (named by ELAN MEDIA_DESCRIPTOR; margin 1 s)'
    """
    from segagree.outputs.review_page import media_line

    return media_line(page)


def is_time_review(review: PathLike) -> bool:
    """Whether a workbook was written by :func:`review_time` (it has the Alignment sheet).

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> _ = segagree.review("garden.ann1.txt", "garden.ann2.txt", "garden.review.xlsx")
            >>> segagree.is_time_review("garden.review.xlsx")
            False
    """
    from segagree.adjudication.time import is_time_review as has_alignment_sheet

    return has_alignment_sheet(review)


@renamed_keywords(format="to")
@writes_outputs()
def adjudicate_time(
    review: PathLike, output: PathLike, *, to: str | None = None, undecided: str = "keep-a"
) -> TimeAdjudication:
    """Write the gold units of a filled-in time review workbook (decisions: an annotator's name, none,
    edit): on the first annotator's file, only the reviewed tiers replaced (its other tiers, extent
    and header kept, and each unit kept from it as written with its dependent annotations; same
    format), else in any timed format (by the output's extension, or ``to``) with a
    ``source-not-kept`` loss; returns the report (:class:`segagree.adjudication.time.TimeAdjudication`).

    ``undecided``: ``keep-a`` keeps the first annotator's unit of an undecided group (as ``keep-a``
    keeps A's boundary in :func:`adjudicate`), ``skip`` writes none, ``error`` refuses.

    Raises:
        UsageError: an unknown ``undecided``; InputError: the workbook cannot be read.

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> _ = segagree.review_time(["time/kim.TextGrid", "time/lee.TextGrid"], "time.review.xlsx")
            >>> gold = segagree.adjudicate_time("time.review.xlsx", "time.gold.TextGrid", undecided="keep-a")
            >>> gold.output, gold.units
            ('time.gold.TextGrid', 6)
    """
    from segagree.adjudication.time import adjudicate_time as adjudicate_workbook

    if undecided not in ("keep-a", "skip", "error"):
        raise UsageError(f"undecided must be keep-a, skip or error, not {undecided!r}")
    return adjudicate_workbook(review, output, fmt=to, undecided=undecided)  # type: ignore[arg-type]


@renamed_keywords(format="to")
@writes_outputs()
def adjudicate(
    review: PathLike,
    output: PathLike,
    *,
    undecided: str = "keep-a",
    sheet: str | None = None,
    to: str | None = None,
    allow_missing_rows: bool = False,
    file_a: PathLike | None = None,
    file_b: PathLike | None = None,
    sources: Sequence[PathLike] = (),
    strict: bool = False,
) -> AdjudicationReport:
    """Apply the decisions of a filled-in review workbook (from :func:`review` or :func:`run`) to annotator
    A's file and write the gold annotation (``segagree adjudicate``); a time review goes to
    :func:`adjudicate_time`. Written in A's own format (ELAN, TextGrid), the gold is A's file with
    only the changed units edited (:mod:`segagree.adjudication.token_source`); else it is written
    from the adjudicated tokens, and what A's file held beyond them is reported.

    Args:
        review: the review workbook (``review/TEXT.xlsx`` of ``segagree run``).
        output: the gold file (format by extension unless ``to``, the command line's ``--to``; the
            former ``format=`` is deprecated).
        undecided: rows without a decision: ``keep-a`` (keep A's boundary and list them; the former
            ``a`` is deprecated) or ``error``.
        sheet: the operations sheet (default: the only one, or the one of a text).
        allow_missing_rows: accept a workbook whose rows were deleted.
        file_a, file_b, sources: where A's and B's files are (else the About sheet's paths, followed only
            into the workbook's folder, the current folder or ``sources``; their SHA-1 must match).
        strict: any loss writing the gold is an error.

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: the workbook is damaged or a decision cell holds something other than A, B, both,
            neither or other (naming the row; also a ``ValueError``).
        SegagreeError: a source file changed since the workbook was written (its SHA-1 differs), rows
            are missing (unless ``allow_missing_rows``), or ``output`` is a source file.
        UsageError: an unknown format, metric or option value (also a ``ValueError``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> _ = segagree.review("garden.ann1.txt", "garden.ann2.txt", "garden.review.xlsx")
            >>> report = segagree.adjudicate("garden.review.xlsx", "garden.gold.txt", undecided="keep-a")
            >>> report.output, report.changed, len(report.undecided)
            (PosixPath('garden.gold.txt'), 0, 11)
    """
    from segagree.adjudication.tokens import adjudicate as adjudicate_workbook

    undecided = renamed_value("adjudicate", "undecided", undecided, {"a": "keep-a"})
    if undecided not in ("keep-a", "error"):
        raise UsageError(f"undecided must be keep-a or error, not {undecided!r}")
    return adjudicate_workbook(
        Path(review),
        Path(output),
        undecided="a" if undecided == "keep-a" else "error",
        sheet=sheet,
        fmt=to,
        allow_missing_rows=allow_missing_rows,
        file_a=None if file_a is None else Path(file_a),
        file_b=None if file_b is None else Path(file_b),
        sources=[Path(s) for s in sources],
        strict=strict,
    )
