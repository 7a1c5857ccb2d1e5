"""The Python API: what the command line does, as functions a notebook can call.

Every ``segagree`` command is a thin face over one function here::

    import segagree

    doc = segagree.read("talk.ann1.eaf", tiers=["ROSA", "BEN"])
    report = segagree.convert("talk.ann1.eaf", "talk.ann1.TextGrid")   # what the target cannot hold
    result = segagree.compare("talk.ann1.txt", "talk.ann2.csv", metrics="all")
    result.sf, result.sf_b, result.per_speaker["ROSA"], result.metrics
    agreement = segagree.agree(["t.a1.txt", "t.a2.txt", "t.a3.txt"], sims=1000, seed=1)
    outcome = segagree.run("corpus/", "results/", jobs=2)

Definitions: S_f and S_f^B are Lai, Li & Zhang (2023)'s flexible segmentation similarity and its
boundary-normalised variant; S, B and the boundary edit distance are Fournier (2013) /
Fournier & Inkpen (2012); Pk is Beeferman, Berger & Lafferty (1999); WindowDiff is Pevzner &
Hearst (2002); ghd is Bookstein, Kulyukin & Raita (2002) as NLTK computes it; kappa is the
chance-corrected agreement of Lai et al. (2023, section 5) with Cohen's (or Scott's, Bennett's)
chance model. ``segagree.metric_cards()`` lists every metric's definition and citation.

Results are plain dicts with typed attribute access (:class:`CompareResult`,
:class:`AgreementResult`), so ``json.dumps(result)`` works and ``result.sf`` reads well.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from segagree.errors import SegagreeError, UsageError
from segagree.formats import format_for, read_document, write_document
from segagree.model import BoundaryScheme, Document, load_scheme
from segagree.model.losses import LossReport

if TYPE_CHECKING:
    from segagree.corpus.config import RunConfig
    from segagree.corpus.outcome import RunOutcome
    from segagree.metrics.boundary.sf import SfResult
    from segagree.metrics.chance.sf_kappa import KappaEstimate, SfKappaResult
    from segagree.metrics.contract import Card as MetricCard
    from segagree.scoring.time.units import TimedUnits

# Result types re-exported here, imported on first use: a `compare` need not load the agreement,
# corpus-run and metric-card modules (module __getattr__ below).
_LAZY_TYPES = {
    "KappaEstimate": "segagree.metrics.chance.sf_kappa",
    "SfKappaResult": "segagree.metrics.chance.sf_kappa",
    "MetricCard": "segagree.metrics.contract",
    "SfResult": "segagree.metrics.boundary.sf",
    "RunOutcome": "segagree.corpus.outcome",
    # measure names that key the results (each written once, on its measure's card)
    "SF_NAMES": "segagree.metrics.boundary.sf",
    "KAPPA_NAMES": "segagree.metrics.chance.kappa",
    "MULTI_NAMES": "segagree.metrics.chance.fleiss",
    "POOLED": "segagree.corpus.rows",  # the text and speaker of a pooled summary row
    # is the segmenter as good as a person?
    "panel": "segagree.api.machine_panel",
    "PanelResult": "segagree.api.machine_panel",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY_TYPES:
        import importlib

        value = getattr(importlib.import_module(_LAZY_TYPES[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


PathLike = str | os.PathLike[str]
DocumentLike = Document | str | os.PathLike[str]

MODES = ("optimal", "segsimflex")

__all__ = [
    "AgreementResult",
    "BatchConversion",
    "BoundaryScheme",
    "CompareResult",
    "ConversionReport",
    "Document",
    "KappaEstimate",
    "LossReport",
    "MetricCard",
    "ReviewOutcome",
    "RunOutcome",
    "SfKappaResult",
    "SfResult",
    "adjudicate_time",
    "agree",
    "agree_time",
    "check_style",
    "compare",
    "convert",
    "convert_folder",
    "degrade",
    "is_time_review",
    "load_scheme",
    "metric_cards",
    "panel",
    "PanelResult",
    "read",
    "read_time_units",
    "reader_options",
    "review",
    "review_time",
    "run",
    "time_plan",
    "segment",
    "study",
    "write",
]


def reader_options(
    *,
    encoding: str | None = None,
    tiers: Sequence[str] | None = None,
    speaker_tier: str | None = None,
    word_tier: str | None = None,
    gap_labels: Sequence[str] | None = None,
    chat_units: str | None = None,
    no_speaker: str | None = None,
    speaker_from: str | None = None,
) -> dict[str, Any]:
    """The reading options that were set (readers refuse options they do not know).

    Args:
        encoding: the text encoding (overrides detection); text-based formats.
        tiers: ELAN/Praat tiers to read as units (one speaker each).
        speaker_tier: Praat: a tier whose labels name the speaker of each unit.
        word_tier: Praat: the word tier's name, or a pattern with ``{speaker}``.
        gap_labels: Praat: labels (besides the empty one) that mark gaps, not units.
        chat_units: CHAT: ``lines`` (a unit per bulleted line, SBCSAE's IU layout; the default
            where continuation lines carry their own bullets) or ``main-tiers``.
        no_speaker: Transcriber: the speaker of text in a turn without one (default ``unknown``).
        speaker_from: ELAN: ``participant`` (default) or ``tier``, where a unit tier's speaker comes from.
    """
    raw = {
        "encoding": encoding,
        "tiers": list(tiers) if tiers else None,
        "speaker_tier": speaker_tier,
        "word_tier": word_tier,
        "gap_labels": list(gap_labels) if gap_labels else None,
        "chat_units": chat_units,
        "no_speaker": no_speaker,
        "speaker_from": speaker_from,
    }
    return {k: v for k, v in raw.items() if v is not None}


def read(
    path: PathLike,
    format: str | None = None,
    *,
    scheme: BoundaryScheme | str | None = None,
    encoding: str | None = None,
    **options: Any,
) -> Document:
    """Read an annotation file of any supported format into a :class:`Document`.

    Args:
        path: the file (``.txt``, ``.csv``/``.tsv``/``.xlsx``, ``.rez``, ``.eaf``, ``.TextGrid``,
            ``.srt``, ``.segagree.json``).
        format: the format name or an alias (``csv``, ``praat``, ``elan``...); by default from
            the extension.
        scheme: the endnote scheme of unit layers: a built-in name (``dubois``, ``lai2023``,
            ``segsimflex-vignette``), a TOML/JSON file or a :class:`BoundaryScheme`.
        encoding: text encoding, overriding detection (given to the reader only when set).
        options: reader options: ``tiers``, ``speaker_tier``, ``word_tier``, ``gap_labels``...

    Returns:
        The validated Document; what the file held that the model does not carry is in
        ``doc.losses``.

    Raises:
        InputError: the file cannot be read as that format (naming the place).
    """
    if encoding is not None:
        options["encoding"] = encoding
    return read_document(Path(path), format, scheme=scheme, **options)


def write(
    doc: Document, path: PathLike, format: str | None = None, *, strict: bool = False, **options: Any
) -> LossReport:
    """Write a Document atomically; return what the target format could not hold.

    Args:
        doc: the Document.
        path: the output file (format by extension unless ``format``).
        format: the format name or an alias.
        strict: treat any loss as an error and write nothing.
        options: writer options (``layer``, ``layout`` for text, ``format`` for TextGrid...).
    """
    return write_document(doc, Path(path), format, strict=strict, **options)


@dataclass
class ConversionReport:
    """What a conversion kept and lost.

    Attributes:
        source, target: the two files.
        read_losses: what the source held that the model does not carry.
        write_losses: what the target format cannot hold.
    """

    source: str
    target: str
    format_from: str
    format_to: str
    read_losses: LossReport = field(default_factory=LossReport)
    write_losses: LossReport = field(default_factory=LossReport)

    @property
    def lossless(self) -> bool:
        """True when neither side lost anything."""
        return not self.read_losses and not self.write_losses

    def lines(self) -> list[str]:
        """Every loss as one line, reading side first."""
        return [*self.read_losses.lines(), *self.write_losses.lines()]

    def note_lines(self) -> list[str]:
        """Notes that lose nothing (cells a spreadsheet would run as formulas), one line each."""
        return [*self.read_losses.note_lines(), *self.write_losses.note_lines()]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``convert --json``)."""
        return {
            "source": self.source,
            "target": self.target,
            "from": self.format_from,
            "to": self.format_to,
            "lossless": self.lossless,
            "read_losses": self.read_losses.to_json(),
            "write_losses": self.write_losses.to_json(),
            "notes": [n.to_json() for n in [*self.read_losses.notes, *self.write_losses.notes]],
        }


def convert(
    source: PathLike | Document,
    target: PathLike,
    *,
    from_format: str | None = None,
    to_format: str | None = None,
    scheme: BoundaryScheme | str | None = None,
    speakers: Sequence[str] | None = None,
    strict: bool = False,
    read_options: Mapping[str, Any] | None = None,
    **write_options: Any,
) -> ConversionReport:
    """Convert an annotation file (or a Document) into another format.

    Args:
        source: the input file, or a Document already read.
        target: the output file (format by extension unless ``to_format``).
        from_format, to_format: format names or aliases.
        scheme: the endnote scheme (see :func:`read`).
        speakers: keep only these speakers.
        strict: any loss (reading or writing) is an error, and nothing is written.
        read_options: reader options (see :func:`reader_options`).
        write_options: writer options (``layer``, ``layout``...).

    Returns:
        The :class:`ConversionReport`: both sides' losses; ``report.lossless``.
    """
    if isinstance(source, Document):
        doc = source
    else:
        doc = read_document(Path(source), from_format, scheme=scheme, **dict(read_options or {}))
    if speakers:
        doc = doc.select_speakers(list(speakers))
    if strict and doc.losses:
        raise SegagreeError("--strict: reading loses " + "; ".join(doc.losses.lines()), path=doc.source_path or None)
    target = Path(target)
    losses = write_document(doc, target, to_format, strict=strict, **write_options)
    return ConversionReport(
        source=str(doc.source_path),
        target=str(target),
        format_from=doc.source_format,
        format_to=format_for(Path(target), to_format).name,
        read_losses=doc.losses,
        write_losses=losses,
    )


@dataclass
class BatchConversion:
    """The result of :func:`convert_folder`: one report per converted file, and the failures.

    Attributes:
        files: the annotation files found.
        converted: a :class:`ConversionReport` per file written.
        failed: one message per file that could not be converted (file, place, what was expected).
        renamed: (input, output) of inputs that would have shared an output with another
            (``a.csv`` and ``a.txt``): their output keeps the input's extension (``a.csv.segagree.json``).
    """

    files: list[Path]
    converted: list[ConversionReport] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    renamed: list[tuple[Path, Path]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "converted": [r.to_dict() for r in self.converted],
            "failed": list(self.failed),
            "renamed": [{"source": str(p), "target": str(o)} for p, o in self.renamed],
        }


def convert_folder(
    source: PathLike,
    target: PathLike,
    to_format: str,
    *,
    from_format: str | None = None,
    scheme: BoundaryScheme | str | None = None,
    speakers: Sequence[str] | None = None,
    strict: bool = False,
    read_options: Mapping[str, Any] | None = None,
    progress: Callable[[Path, ConversionReport | None], None] | None = None,
    **write_options: Any,
) -> BatchConversion:
    """Convert every annotation file below a folder into ``to_format``, keeping the sub-folders.

    A file that cannot be read or written is listed in ``failed`` (the others are still
    converted); ``progress(path, report_or_None)`` is called after each file.

    Raises:
        UsageError: an unknown or read-only target format.
        SegagreeError: the folder holds no annotation file.
    """
    from segagree.formats import adapters

    source, target = Path(source), Path(target)
    fmt = format_for("x", to_format)
    if not fmt.can_write:
        raise UsageError(f"format {fmt.name!r} cannot be written")
    known = {e for a in adapters().values() for e in a.extensions}
    files = sorted(p for p in source.rglob("*") if p.is_file() and any(p.name.lower().endswith(e) for e in known))
    if not files:
        raise SegagreeError("no annotation files found", path=source)
    sch = load_scheme(scheme)
    batch = BatchConversion(files)
    plan = _batch_outputs(source, target, files, known, fmt.extensions[0], batch)
    for path in files:
        out = plan.get(path)
        if out is None:
            continue  # refused in the plan (listed in failed)
        report: ConversionReport | None = None
        try:
            report = convert(
                path,
                out,
                from_format=from_format,
                to_format=to_format,
                scheme=sch,
                speakers=speakers,
                strict=strict,
                read_options=read_options,
                **write_options,
            )
            batch.converted.append(report)
        except SegagreeError as err:
            batch.failed.append(str(err))
        if progress is not None:
            progress(path, report)
    return batch


def _batch_outputs(
    source: Path, target: Path, files: list[Path], known: set[str], ext_out: str, batch: BatchConversion
) -> dict[Path, Path]:
    """The output of each input of a batch: ``NAME.EXT`` -> ``NAME`` + the target extension. Two
    inputs that would share an output (``a.csv``, ``a.txt``; names compared case-insensitively, as
    some file systems do) keep their own extension instead (``a.csv.segagree.json``), listed in
    ``batch.renamed``; an output that would still be shared, or would overwrite an input, is refused."""

    def key(p: Path) -> str:
        return str(p).casefold()

    def named(path: Path, keep_ext: bool) -> Path:
        rel = path.relative_to(source)
        ext = max((e for e in known if rel.name.lower().endswith(e)), key=len)
        return target / rel.parent / ((rel.name if keep_ext else rel.name[: -len(ext)]) + ext_out)

    first = {p: named(p, False) for p in files}
    counts = Counter(key(o) for o in first.values())
    plan = {p: named(p, True) if counts[key(o)] > 1 else o for p, o in first.items()}
    batch.renamed.extend((p, o) for p, o in plan.items() if o != first[p])
    inputs = {key(p.resolve()) for p in files}
    owners: dict[str, Path] = {}
    for p, o in list(plan.items()):
        other = owners.setdefault(key(o), p)
        if other != p:
            batch.failed.append(f"{p}: not converted: its output {o} would also be {other}'s")
            del plan[p]
        elif key(o.resolve()) in inputs and o.resolve() != p.resolve():
            batch.failed.append(f"{p}: not converted: its output {o} is another input of the batch")
            del plan[p]
    return plan


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

    def value(self, metric: str) -> float | None:
        """The pooled value of any metric computed (``sf``, ``sf_b``, ``b``, ``pk``, ``ghd``...)."""
        if metric in _sf_names():
            return self[metric]
        return self["metrics"][metric]["value"]


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


def _document(
    item: DocumentLike, fmt: str | None, scheme: BoundaryScheme | None, options: Mapping[str, Any]
) -> Document:
    if isinstance(item, Document):
        return item
    return read_document(Path(item), fmt, scheme=scheme, **dict(options))


def _label(item: DocumentLike, i: int) -> str:
    """An annotator's label: the file name, else the Document's annotator or name."""
    if not isinstance(item, Document):
        return Path(item).name
    return Path(item.source_path).name if item.source_path else (item.annotator or item.name or f"annotator{i + 1}")


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


def _pairing(
    layer: str | None,
    scheme: BoundaryScheme,
    align: bool,
    max_mismatch: float,
    normalise_speakers: bool,
    common_speakers: bool,
    speaker_map: Mapping[str, str] | None,
    /,
) -> dict[str, Any]:
    """How annotations are paired into boundary arrays (the layer and scheme compared, speakers,
    token alignment), checked, as the pipeline's keywords."""
    if not 0.0 <= max_mismatch <= 1.0:
        raise UsageError(f"max_mismatch must be a fraction between 0 and 1, not {max_mismatch!r}")
    return {
        "layer": layer,
        "scheme": scheme,
        "align": align,
        "max_mismatch": max_mismatch,
        "normalise_speakers": normalise_speakers,
        "common_speakers": common_speakers,
        "speaker_map": speaker_map,
    }


def _check_margin(margin: float) -> None:
    if not (isinstance(margin, int | float) and 0 <= margin < float("inf")):
        raise UsageError(f"the margin must be a number of seconds >= 0, not {margin!r}")


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        raise UsageError(f"mode must be optimal or segsimflex, not {mode!r}")


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

    Raises:
        MismatchError: different speakers (without ``common_speakers``), or different
            transcripts without ``align``.
    """
    from segagree.scoring.tokens.compare import compare_documents

    _check_mode(mode)
    sch = load_scheme(scheme)
    pairing = _pairing(layer, sch, align, max_mismatch, normalise_speakers, common_speakers, speaker_map)
    names = _metric_list(metrics)
    if metric_options:
        from segagree.scoring.options import check_measure_parameters

        chosen = [*_sf_names(), *names]
        check_measure_parameters(metric_options, chosen, choose="metrics", known_only=True)
    doc_a = _document(a, format, sch, read_options or {})
    doc_b = _document(b, format, sch, read_options or {})
    result = compare_documents(
        doc_a,
        doc_b,
        mode=mode,
        transpositions=transpositions,
        metrics=names,
        metric_options=metric_options,
        with_operations=with_operations,
        review_rows=review_rows,
        **pairing,
    )
    return CompareResult(result)


def agree(
    annotations: Sequence[DocumentLike],
    *,
    names: Sequence[str] | None = None,
    sims: int = 1000,
    seed: int = 12345,
    chance: str = "cohen",
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
    """
    from segagree.metrics.chance.sf_kappa import CHANCE_MODELS
    from segagree.scoring.tokens.agreement import agree_documents

    _check_mode(mode)
    if chance not in CHANCE_MODELS:
        raise UsageError(f"chance must be one of {', '.join(CHANCE_MODELS)}, not {chance!r}")
    sch = load_scheme(scheme)
    pairing = _pairing(layer, sch, align, max_mismatch, normalise_speakers, common_speakers, speaker_map)
    if sims < 1 or jobs < 1 or n_boot < 1 or (threads is not None and threads < 1):
        raise UsageError("sims, jobs, threads and n_boot must be at least 1")
    if threads is None:
        from segagree.cpus import usable_cpus

        threads = usable_cpus() if jobs == 1 else 1
    if exact and (mc_tolerance is not None or progress is not None):
        given = "mc_tolerance" if mc_tolerance is not None else "progress"
        raise UsageError(f"{given} follows the simulations; with exact=True nothing is simulated")
    docs = [_document(x, format, sch, read_options or {}) for x in annotations]
    if names is None:
        names = [_label(x, i) for i, x in enumerate(annotations)]
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
        **pairing,
    )
    return AgreementResult(result)


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
        _check_time_parameters(params, measures)
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
    reading_keys = ("measures", "category", "time_unit")  # not measure parameters
    given = {**{k: v for k, v in table.items() if k not in reading_keys}, **(params or {})}
    if seed is not None:
        given["seed"] = seed
    options = {**base.reader_options(), **(read_options or {})}
    how = UnitReading(
        category=category if category != "label" else str(table.get("category", category)),
        fmt=format or base.format or None,
        scheme=scheme,
        options=options,
        time_unit=str(table.get("time_unit", "s")),
    )
    return TimeConfig(list(measures or table.get("measures") or []), given, how)


@dataclass(frozen=True)
class ReviewOutcome:
    """What :func:`review` wrote: the workbook, the operations listed, and the pair's S_f."""

    path: Path
    operations: int
    sf: float | None
    unpaired_speakers: dict[str, list[str]] = field(default_factory=dict)


def review(
    a: PathLike,
    b: PathLike,
    output: PathLike,
    *,
    scheme: str | None = None,
    mode: str = "optimal",
    matches: bool = False,
    kappa: bool = True,
    sims: int = 1000,
    seed: int = 12345,
    max_mismatch: float = 0.2,
    normalise_speakers: bool = True,
    speaker_map: Mapping[str, str] | None = None,
    format: str | None = None,
    read_options: Mapping[str, Any] | None = None,
    common_speakers: bool = False,
    media: PathLike | None = None,
    margin: float = 1.0,
) -> ReviewOutcome:
    """Write the review workbook (.xlsx) of one pair of annotations: every edit operation with its
    speaker, position, context and cost, and a decision column for :func:`adjudicate`'s input.
    An ``.html`` output is the review page instead (:mod:`segagree.outputs.review_page`: the same
    rows, with the recording found from A's file or ``media``, each row played with ``margin``
    seconds around its span).

    ``a`` is the base of the gold annotation that ``segagree adjudicate`` writes from the
    reviewers' decisions. ``matches`` lists match operations too; ``kappa``, ``sims``, ``seed``
    put the simulated kappa on the Summary sheet. ``common_speakers`` scores the speakers both
    annotations have; the others are in the outcome's ``unpaired_speakers``.

    Raises:
        UsageError: the output is not an .xlsx file, or a bad option.
        SegagreeError: a file cannot be read, or the pair cannot be scored.
    """
    from segagree.corpus.config import READ_OPTIONS, RunConfig
    from segagree.corpus.tasks import run_task
    from segagree.outputs.review_workbook import write_review_workbook

    output = Path(output)
    page = output.suffix.lower() in (".html", ".htm")
    if output.suffix.lower() != ".xlsx" and not page:
        raise UsageError("the review must be an .xlsx workbook or an .html page")
    _check_margin(margin)
    _check_mode(mode)
    opts = dict(read_options or {})
    config = RunConfig(
        scheme=scheme or "dubois",
        mode=mode,
        review_matches=matches,
        max_mismatch=max_mismatch,
        normalise_speakers=normalise_speakers,
        common_speakers=common_speakers,
        speakers=dict(speaker_map or {}),
        format=format or "",
        encoding=opts.pop("encoding", ""),
        read={k: v for k, v in opts.items() if k in READ_OPTIONS},
    )
    config.kappa.enabled, config.kappa.sims, config.kappa.seed = kappa, sims, seed
    text = Path(a).name.split(".")[0]
    result = run_task(text, "A", "B", str(a), str(b), config)
    if not result["ok"]:
        raise SegagreeError(result["error"])
    if page:
        from segagree.outputs.review_page import token_page_data, write_review_page

        data = token_page_data([result], config, output.resolve().parent, media=media, margin=margin)
        path = write_review_page(output, data)
    else:
        path = write_review_workbook(output, [result], config)
    rows = result["operation_rows"]
    shown = len(rows) if matches else sum(r["op"] != "match" for r in rows)
    unpaired = result["compare"].get("unpaired_speakers") or {}
    return ReviewOutcome(path, shown, CompareResult(result["compare"]).sf, unpaired)


def metric_cards() -> dict[str, MetricCard]:
    """Every metric's card (definition, parameters and defaults, citation, implementation), from the registry."""
    from segagree.scoring.metric_runner import metric_cards as cards

    return cards()


# --- time-based unitizing agreement (issue 21) -------------------------------------------------
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
    )
    return read_timed_units(items, how, named)  # type: ignore[arg-type]


def time_plan(sources: Sequence[DocumentLike] | DocumentLike, **reading: Any) -> dict[str, Any]:
    """The annotation plan of :func:`agree_time` without scoring (``agree --time --plan``): which file and
    tier is which annotator, speaker and recording, the units and gaps of each (see
    :mod:`segagree.scoring.time.plan`). ``reading`` takes :func:`read_time_units`'s keywords."""
    timed = read_time_units(sources, **reading)
    return timed.to_dict()["plan"]


def agree_time(
    sources: Sequence[DocumentLike] | DocumentLike,
    *,
    measures: Sequence[str] | None = None,
    params: Mapping[str, Any] | None = None,
    **reading: Any,
) -> dict[str, Any]:
    """Time-based unitizing agreement of annotators who drew their own time spans.

    Scores every measure of the ``time`` group (or ``measures``), per speaker and pooled: e.g.
    Krippendorff's alpha-U (1995/2004, as DKPro), the uα family (Krippendorff et al. 2016), ELAN's
    modified kappa (Holle & Rein 2015, as ELAN), boundary F1 within a tolerance, purity and coverage,
    and gamma once registered. ``params`` holds measure parameters (``tolerance``, ``min_overlap``,
    ``resolution``, ``alpha``, ``beta``, ``delta_empty``, ``samples``, ``seed``, ``sampler``, ``jobs``);
    each measure reads its own. ``reading`` takes :func:`read_time_units`'s keywords (``annotators``,
    ``annotator_tiers``, ``continuum``, ``category``, ``format``, ``scheme``, ``layer``, reader options).

    Example::

        result = segagree.agree_time(["kim.TextGrid", "lee.TextGrid"], params={"tolerance": 0.2})
        result["measures"][name]["pooled"], result[name]   # for each name of `segagree metrics`

    Returns:
        A JSON-ready dict (see :mod:`segagree.scoring.time.agreement`): ``result[name]`` is a measure's
        pooled value, ``result["measures"][name]["speakers"]`` its per-speaker results.
    """
    from segagree.scoring.time.agreement import score_time

    _check_time_parameters(params, measures)
    timed = read_time_units(sources, **reading)
    return score_time(timed, measures, params)


def _check_time_parameters(params: Mapping[str, Any] | None, measures: Sequence[str] | None, first: int = 0) -> None:
    """Refuse a parameter none of the chosen time measures takes (the chosen: ``measures``, else the
    ``time`` group, or its ``first`` ones)."""
    from segagree.scoring.options import check_measure_parameters
    from segagree.scoring.time.agreement import time_measures

    chosen = [m.name for m in time_measures(measures)]
    check_measure_parameters(params, chosen if measures or not first else chosen[:first], choose="measures")


def review_time(
    sources: Sequence[DocumentLike] | DocumentLike,
    output: PathLike,
    *,
    measure: str | None = None,
    params: Mapping[str, Any] | None = None,
    plot: PathLike | None = None,
    media: PathLike | None = None,
    margin: float = 1.0,
    **reading: Any,
) -> dict[str, Any]:
    """Write the review workbook (.xlsx) of a best alignment of units in time: one row per aligned group
    with each annotator's unit, the group's share of the disorder, its kind (match, shifted, category
    mismatch, unmatched) and a decision column for :func:`adjudicate_time`. An ``.html`` output is the
    review page of the same rows (the recording from the first source naming one, or ``media``).

    The alignment comes from ``measure`` or from the first measure of the time group that gives one
    (gamma's, Mathet et al. 2015); ``params`` are its parameters, ``reading`` :func:`read_time_units`'s.
    ``plot`` (a .png) also draws each speaker's units and their alignment (``NAME.SPEAKER.png`` when
    there are several speakers).

    Returns:
        ``{"path", "measure", "groups", "kinds": {kind: n}, "plots": [paths]}``.
    """
    from collections import Counter

    from segagree.outputs.time_review import group_rows, write_time_review
    from segagree.scoring.time.agreement import best_alignments

    _check_time_parameters(params, [measure] if measure else None, first=1)
    timed = read_time_units(sources, **reading)
    name, alignments = best_alignments(timed, measure, params)
    rows = [r for spk, al in alignments.items() for r in group_rows(timed.speakers[spk], al, spk)]
    settings = {"measure": name, "parameters": dict(params or {}), **timed.to_dict()}
    if Path(output).suffix.lower() in (".html", ".htm"):
        from segagree.outputs.review_page import time_page_data, write_review_page

        _check_margin(margin)
        items = [sources] if isinstance(sources, (str, os.PathLike, Document)) else list(sources)
        paths = [Path(p) for p in items if isinstance(p, (str, os.PathLike))]
        page_dir = Path(output).resolve().parent
        text = Path(paths[0]).name.split(".")[0] if paths else ""
        data = time_page_data(
            rows, list(timed.annotators), settings, paths, page_dir, media=media, margin=margin, text=text
        )
        path = write_review_page(output, data)
    else:
        path = write_time_review(output, rows, list(timed.annotators), settings)
    plots = _timeline_plots(Path(plot), timed.speakers, alignments) if plot is not None else []
    kinds = dict(Counter(r["kind"] for r in rows))
    return {"path": str(path), "measure": name, "groups": len(rows), "kinds": kinds, "plots": plots}


def _timeline_plots(plot: Path, units: Mapping[str, Any], alignments: Mapping[str, Any]) -> list[str]:
    """One timeline PNG per speaker (written atomically)."""
    from segagree.files.atomic import atomic_path
    from segagree.outputs.time_plot import timeline_png

    if plot.suffix.lower() != ".png":
        raise UsageError("the plot must be a .png file", path=plot)
    written = []
    for speaker, alignment in alignments.items():
        target = plot if len(alignments) == 1 else plot.with_name(f"{plot.stem}.{speaker or 'all'}.png")
        with atomic_path(target) as tmp:
            tmp.write_bytes(timeline_png(units[speaker], alignment, title=speaker))
        written.append(str(target))
    return written


def review_page_media(page: PathLike) -> str:
    """One line on a review page's recording: which file it plays and what named it, or why it plays none."""
    from segagree.outputs.review_page import media_line

    return media_line(page)


def is_time_review(review: PathLike) -> bool:
    """Whether a workbook was written by :func:`review_time` (it has the Alignment sheet)."""
    from segagree.adjudication.time import is_time_review as has_alignment_sheet

    return has_alignment_sheet(review)


def adjudicate_time(review: PathLike, output: PathLike, *, format: str | None = None, undecided: str = "skip") -> Any:
    """Write the gold units of a filled-in time review workbook (decisions: an annotator's name, none,
    edit) in any timed format (by the output's extension, or ``format``); returns the report
    (:class:`segagree.outputs.time_review.TimeAdjudication`)."""
    from segagree.adjudication.time import adjudicate_time as adjudicate_workbook

    if undecided not in ("skip", "error"):
        raise UsageError(f"undecided must be skip or error, not {undecided!r}")
    return adjudicate_workbook(review, output, fmt=format, undecided=undecided)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Subtitle tools (issue 23): degraded references, the length baseline, style checks, the study
# --------------------------------------------------------------------------------------------
def _subtitle_source(source: DocumentLike, fmt: str | None) -> Document:
    return source if isinstance(source, Document) else read_document(Path(source), fmt)


def _write_same_format(doc: Document, source: Document, output: PathLike, notes: LossReport) -> dict[str, Any]:
    """Write a re-broken copy of ``source`` in the source's format; refuse to overwrite the input."""
    out = Path(output)
    if source.source_path and out.resolve() == Path(source.source_path).resolve():
        raise SegagreeError("refusing to overwrite the input file", path=out)
    losses = write_document(doc, out, source.source_format or None)
    losses.extend(notes)
    return {"output": str(output), "format": source.source_format, "losses": losses.to_json() if losses else []}


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
    """
    from segagree.subtitle_tools.degrade import degrade_document

    doc = _subtitle_source(reference, format)
    res = degrade_document(doc, operation, p, seed=seed, n=n)
    return {**res.to_dict(), **_write_same_format(res.document, doc, output, res.notes)}


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
    ``output`` and ``losses``."""
    from segagree.subtitle_tools.baseline import segment_document

    doc = _subtitle_source(source, format)
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
    """
    from segagree.scoring.subtitles.style import check_document

    doc = _subtitle_source(source, format)
    res = check_document(doc, profile if isinstance(profile, str) else Path(profile), frame_rate=frame_rate)
    res["read_losses"] = doc.losses.to_json() if doc.losses else []
    return res


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
    returns their paths with the analysis."""
    from segagree.outputs.study_report import write_study
    from segagree.subtitle_tools.study import run_study

    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1 or n_seeds < 1:
        raise UsageError("steps and n_seeds must be positive integers")
    ref = _subtitle_source(reference, format)
    hyps = [_subtitle_source(h, format) for h in hypotheses]
    ps = [k / steps for k in range(steps + 1)]
    seeds = list(range(seed, seed + n_seeds))
    res = run_study(ref, hyps, ps=ps, seeds=seeds, metrics=metrics, jobs=jobs)
    return {**write_study(res, Path(out_dir)), "analysis": res.analysis, "rows": len(res.rows)}
