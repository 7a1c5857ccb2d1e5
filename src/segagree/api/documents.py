"""Reading, writing and converting annotations (``segagree convert``, :func:`read`, :func:`write`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from segagree.api.common import PathLike, renamed_keywords, writes_outputs
from segagree.errors import SegagreeError, UsageError
from segagree.formats import file_given_back, format_for, read_document, write_document
from segagree.model.losses import LossReport, read_losses

if TYPE_CHECKING:  # the model and the round-trip check (numpy) load with the first conversion
    from segagree.formats.roundtrip import Difference
    from segagree.model import BoundaryScheme, Document


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

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> segagree.reader_options(tiers=["ROSA", "BEN"], encoding="utf-8")
            {'encoding': 'utf-8', 'tiers': ['ROSA', 'BEN']}
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

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> doc = segagree.read("garden.ann1.txt")
            >>> doc.speakers
            ['ROSA', 'BEN', 'MAYA']
            >>> len(doc.tokens)
            186
    """
    if encoding is not None:
        options["encoding"] = encoding
    return read_document(Path(path), format, scheme=scheme, **options)


@writes_outputs()
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

    Raises:
        UsageError: an unknown format, metric or option value (also a ``ValueError``). A format segagree
            cannot write is one too.
        SegagreeError: ``strict`` and the target loses something (nothing is written), or ``path`` is
            one of the files the Document was read from.

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> doc = segagree.read("garden.ann1.txt")
            >>> losses = segagree.write(doc, "garden.ann1.TextGrid")
            >>> [loss.kind for loss in losses]  # a plain transcript has no times: TextGrid needs some
            ['times-invented']
    """
    return write_document(doc, Path(path), format, strict=strict, **options)


@dataclass
class ConversionReport:
    """What a conversion kept and lost.

    Attributes:
        source, target: the two files.
        read_losses: what the source held that the model does not carry.
        write_losses: what the target format cannot hold, and every difference the round trip
            check found that no other loss names (as a loss of kind ``<field>-changed``).
        differences: what reading the written file back found changed, field by field
            (:mod:`segagree.formats.roundtrip`); None when the check was not run.
        check_seconds: how long the check took.
    """

    source: str
    target: str
    format_from: str
    format_to: str
    read_losses: LossReport = field(default_factory=LossReport)
    write_losses: LossReport = field(default_factory=LossReport)
    differences: list[Difference] | None = None
    check_seconds: float = 0.0

    @property
    def lossless(self) -> bool:
        """True when neither side lost anything and, measured, the file read back is the
        Document that was written (an unchecked conversion is never called lossless)."""
        return not self.read_losses and not self.write_losses and self.differences == []

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
            "differences": None if self.differences is None else [d.to_json() for d in self.differences],
            "notes": [n.to_json() for n in [*self.read_losses.notes, *self.write_losses.notes]],
        }


@renamed_keywords(from_format="format", to_format="to")
@writes_outputs()
def convert(
    source: PathLike | Document,
    target: PathLike,
    *,
    format: str | None = None,
    to: str | None = None,
    scheme: BoundaryScheme | str | None = None,
    speakers: Sequence[str] | None = None,
    strict: bool = False,
    read_options: Mapping[str, Any] | None = None,
    check: bool = True,
    **write_options: Any,
) -> ConversionReport:
    """Convert an annotation file (or a Document) into another format.

    Args:
        source: the input file, or a Document already read.
        target: the output file (format by extension unless ``to``).
        format, to: the input's and the output's format names or aliases (the command line's
            ``--from`` and ``--to``; default: by extension). The former ``from_format=`` and
            ``to_format=`` are deprecated.
        scheme: the endnote scheme (see :func:`read`).
        speakers: keep only these speakers.
        strict: any loss (reading or writing) is an error, and nothing is written.
        read_options: reader options (see :func:`reader_options`).
        check: read the written file back and compare it with the Document field by field
            (:mod:`segagree.formats.roundtrip`); without it the report is never lossless.
        write_options: writer options (``layer``, ``layout``...).

    Returns:
        The :class:`ConversionReport`: both sides' losses, the differences the check found;
        ``report.lossless``.

    Raises:
        MissingFileError: a file is not there (also a ``FileNotFoundError``).
        InputError: a file cannot be read as its format; the message names the place (also a
            ``ValueError``).
        UsageError: an unknown format, metric or option value (also a ``ValueError``).
        SegagreeError: ``strict`` and reading or writing loses something (nothing is written), or
            ``target`` is the source.

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> report = segagree.convert("garden.ann1.txt", "garden.ann1.eaf")
            >>> report.lossless, report.format_to
            (False, 'eaf')
    """
    from segagree.formats.roundtrip import as_loss, check_written, unnamed
    from segagree.model import Document

    if isinstance(source, Document):
        doc = source
    else:
        doc = read_document(Path(source), format, scheme=scheme, **dict(read_options or {}))
    if speakers:
        doc = doc.select_speakers(list(speakers))
    if strict and doc.losses:
        raise SegagreeError("--strict: reading loses " + "; ".join(doc.losses.lines()), path=doc.source_path or None)
    target = Path(target)
    fmt = format_for(Path(target), to).name
    if strict and check:
        _refuse_unnamed_differences(doc, target, fmt, write_options)
    given_back = file_given_back(doc, target, fmt, dict(write_options)) is not None
    losses = write_document(doc, target, to, strict=strict, **write_options)
    read_side = doc.losses
    if given_back:
        # The file itself was written: what the model does not carry is in it all the same.
        read_side = read_losses()
        read_side.note(
            "file-given-back", "the document is unchanged since reading: the file is written back byte for byte"
        )
    report = ConversionReport(
        source=str(doc.source_path),
        target=str(target),
        format_from=doc.source_format,
        format_to=fmt,
        read_losses=read_side,
        write_losses=losses,
    )
    if check:
        began = time.perf_counter()
        report.differences = check_written(doc, target, fmt)
        for difference in unnamed(report.differences, read_side, losses):
            losses.extend([as_loss(difference)])
        report.check_seconds = time.perf_counter() - began
    return report


def _refuse_unnamed_differences(doc: Document, target: Path, fmt: str, write_options: Mapping[str, Any]) -> None:
    """--strict: write into a scratch file and check it first; any difference is an error."""
    import tempfile

    from segagree.formats.roundtrip import check_written

    with tempfile.TemporaryDirectory() as scratch:
        trial = Path(scratch) / target.name
        write_document(doc, trial, fmt, **write_options)
        found = check_written(doc, trial, fmt)
    if found:
        raise SegagreeError(
            "--strict: reading the written file back finds " + "; ".join(d.line() for d in found), path=target
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


@renamed_keywords(from_format="format", to_format="to")
@writes_outputs("target")
def convert_folder(
    source: PathLike,
    target: PathLike,
    to: str,
    *,
    format: str | None = None,
    scheme: BoundaryScheme | str | None = None,
    speakers: Sequence[str] | None = None,
    strict: bool = False,
    read_options: Mapping[str, Any] | None = None,
    progress: Callable[[Path, ConversionReport | None], None] | None = None,
    **write_options: Any,
) -> BatchConversion:
    """Convert every annotation file below a folder into the format ``to``, keeping the sub-folders
    (``format``: the input format, default by extension; as :func:`convert`).

    A file that cannot be read or written is listed in ``failed`` (the others are still
    converted); ``progress(path, report_or_None)`` is called after each file.

    Raises:
        UsageError: an unknown or read-only target format.
        SegagreeError: the folder holds no annotation file.

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> batch = segagree.convert_folder("panel", "panel_as_elan", "eaf")
            >>> len(batch.converted), batch.failed
            (16, [])
    """
    from segagree.formats.batch import annotation_files, plan_outputs

    source, target = Path(source), Path(target)
    fmt = format_for("x", to)
    if not fmt.can_write:
        raise UsageError(f"format {fmt.name!r} cannot be written")
    files = annotation_files(source)
    if not files:
        raise SegagreeError("no annotation files found", path=source)
    from segagree.model import load_scheme

    sch = load_scheme(scheme)
    batch = BatchConversion(files)
    plan = plan_outputs(source, target, files, fmt.extensions[0])
    batch.renamed.extend(plan.renamed)
    batch.failed.extend(plan.refused)
    for path in files:
        out = plan.outputs.get(path)
        if out is None:
            continue  # refused in the plan (listed in failed)
        report: ConversionReport | None = None
        try:
            report = convert(
                path,
                out,
                format=format,
                to=to,
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


class FormatInfo(TypedDict):
    """One format of :func:`list_formats` (the ``formats --json`` keys)."""

    extensions: list[str]
    aliases: list[str]
    read: bool
    write: bool
    description: str


def list_formats() -> dict[str, FormatInfo]:
    """Every format segagree reads (all) and writes (``write``), by name, in the registry's order, with its
    extensions, the aliases ``--from``/``--to`` accept and a description (``segagree formats``).

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> formats = segagree.list_formats()
            >>> formats["textgrid"]["extensions"], formats["textgrid"]["write"]
            (['.textgrid'], True)
    """
    from segagree.formats import ALIASES, adapters

    aliases: dict[str, list[str]] = {}
    for alias, name in ALIASES.items():
        aliases.setdefault(name, []).append(alias)
    return {
        a.name: {
            "extensions": list(a.extensions),
            "aliases": aliases.get(a.name, []),
            "read": True,
            "write": a.can_write,
            "description": a.description,
        }
        for a in adapters().values()
    }
