"""Format adapters: one module per format, a registry by name and extension.

``read_document(path)`` picks the adapter from the extension (or ``fmt=``) and returns a
validated :class:`~segagree.model.Document`; ``write_document(doc, path)`` writes atomically
and returns the :class:`LossReport` of what the target format could not hold.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from segagree.errors import InputError, SegagreeError, UsageError
from segagree.files.atomic import atomic_path
from segagree.files.encoding import collect_decode_notes, paused_gc
from segagree.files.memory import memory_errors
from segagree.formats.base import Adapter
from segagree.model.losses import Loss, LossReport

if TYPE_CHECKING:
    from segagree.model import BoundaryScheme, Document

# The model and the checks (numpy) load with the first read or write, not with the registry: the
# official scorers' own scan of a file (formats.conllu_scan) needs only the file handling here.

# Format name -> module under segagree.formats, in the order `segagree formats` lists them.
FORMAT_MODULES = {
    "text": "text",
    "table": "table",
    "json": "native",
    "rez": "rez",
    "eaf": "elan.eaf",
    "textgrid": "praat.textgrid",
    "srt": "srt",
    "vtt": "vtt",
    "chat": "chat.cha",
    "transcriber": "transcriber",
    "exmaralda": "exmaralda",
    "tagged": "tagged",
    "conllu": "conllu",
    "rttm": "rttm",
    "ctm": "ctm",
    "edus": "edus",
}

# File-name ending -> format name, so that reading a file imports its adapter only (importing
# all twelve costs about 0.08 s). A test checks this table against each adapter's `extensions`.
EXTENSIONS = {
    ".conllu": "conllu",
    ".conll": "conllu",
    ".tok": "conllu",
    ".rttm": "rttm",
    ".ctm": "ctm",
    ".edus": "edus",
    ".txt": "text",
    ".trn": "text",
    ".csv": "table",
    ".tsv": "table",
    ".xlsx": "table",
    ".segagree.json": "json",
    ".json": "json",
    ".rez": "rez",
    ".eaf": "eaf",
    ".textgrid": "textgrid",
    ".srt": "srt",
    ".vtt": "vtt",
    ".cha": "chat",
    ".trs": "transcriber",
    ".exb": "exmaralda",
    ".tagged": "tagged",
    ".eob": "tagged",
}


# Format names that also choose a reader option (the separator of a delimited table).
ALIAS_OPTIONS = {"tsv": {"delimiter": "\t"}, "csv": {"delimiter": ","}}

# Names users type for a format (matched case-insensitively, like the format names).
ALIASES = {
    "txt": "text",
    "trn": "text",
    "csv": "table",
    "tsv": "table",
    "xlsx": "table",
    "excel": "table",
    "praat": "textgrid",
    "elan": "eaf",
    "rezonator": "rez",
    "native": "json",
    "segagree": "json",
    "subtitles": "srt",
    "webvtt": "vtt",
    "cha": "chat",
    "clan": "chat",
    "childes": "chat",
    "trs": "transcriber",
    "exb": "exmaralda",
    "must-cinema": "tagged",
    "mustcinema": "tagged",
    "eob": "tagged",
    "rst": "edus",
    "rst-dt": "edus",
}


@cache
def adapter(name: str) -> Adapter:
    """The adapter of one format name (its module is imported on first use)."""
    adapter: Adapter = importlib.import_module(f"segagree.formats.{FORMAT_MODULES[name]}").ADAPTER
    return adapter


def adapters() -> dict[str, Adapter]:
    """Every adapter by format name."""
    return {name: adapter(name) for name in FORMAT_MODULES}


def format_for(path: str | Path, fmt: str | None = None) -> Adapter:
    """The adapter named ``fmt``, or the one whose extension ends ``path``'s name."""
    if fmt:
        key = fmt.strip().lower().lstrip(".")
        key = ALIASES.get(key, key)
        if key not in FORMAT_MODULES:
            raise UsageError(
                f"unknown format {fmt!r}; known: {', '.join(sorted(FORMAT_MODULES))} (see segagree formats)"
            )
        return adapter(key)
    kind = file_kind(path)
    if not kind:
        raise UsageError(
            f"cannot tell the format from the extension; use --from/--to (extensions: {sorted(EXTENSIONS)})",
            path=path,
        )
    return adapter(EXTENSIONS[kind])


def read_document(
    path: str | Path,
    fmt: str | None = None,
    *,
    scheme: BoundaryScheme | str | None = None,
    **options: Any,
) -> Document:
    """Read any supported file into a validated Document.

    Args:
        path: the file.
        fmt: format name (``text``, ``table``, ``json``, ``rez``, ``eaf``, ``textgrid``, ``srt``, ``vtt``);
            by default from the extension.
        scheme: the endnote scheme for unit layers (name, file or object; default DuBois).
        options: format-specific reader options (tier selection and the like); ``encoding``
            forces the text encoding of the readers that decode text.
    """
    from segagree.formats.checks import check_times, has_webvtt_signature
    from segagree.model import load_scheme
    from segagree.model.source import seal

    adapter = format_for(path, fmt)
    for name, value in ALIAS_OPTIONS.get((fmt or "").strip().lower().lstrip("."), {}).items():
        options.setdefault(name, value)
    # A WebVTT/SRT hybrid named .srt (WEBVTT header, SubRip numbers): the WebVTT reader takes it.
    hybrid = adapter.name == "srt" and not fmt and has_webvtt_signature(Path(path))
    if hybrid:
        adapter = format_for(path, "vtt")
    if options.get("encoding") is None:
        options.pop("encoding", None)  # readers of binary/XML/JSON formats take no encoding
    given = dict(options)
    # Notes of a decoding the reader did not report itself (a detected encoding) go into doc.losses.
    with collect_decode_notes() as notes, paused_gc(), memory_errors(path):
        doc = adapter.read(Path(path), scheme=load_scheme(scheme), **options)
    doc.losses.extend(notes)
    if hybrid:
        doc.losses.note("read-as-webvtt", "the .srt file starts with WEBVTT: it was read as WebVTT")
    doc.source_path = doc.source_path or str(path)
    doc.source_format = doc.source_format or adapter.name
    check_times(doc, path)
    # Where the file is, for the writers (segagree.model.source).
    seal(doc, Path(path), adapter.name, file_kind(path), given)
    return doc.validate()


def file_kind(path: str | Path) -> str:
    """The registered ending of ``path``'s name (``.csv``, ``.segagree.json``), or ''."""
    name = Path(path).name.lower()
    return max((ext for ext in EXTENSIONS if name.endswith(ext)), key=len, default="")


def file_given_back(doc: Document, path: str | Path, fmt: str, options: dict[str, Any]) -> bytes | None:
    """The bytes of ``doc``'s file when writing it to ``path`` as ``fmt`` with ``options`` gives
    the file back (:meth:`segagree.model.source.Source.gives_back`, and the file still the one
    read), else None."""
    source = doc.source
    if source is None or not source.gives_back(doc, fmt, file_kind(path), options):
        return None
    return source.file_bytes()


def write_document(
    doc: Document,
    path: str | Path,
    fmt: str | None = None,
    *,
    strict: bool = False,
    **options: Any,
) -> LossReport:
    """Write a Document atomically; return what the format could not hold.

    A Document unchanged since it was read (:meth:`segagree.model.source.Source.gives_back`),
    written to its own format with default options, is the file's bytes as read: one rule for
    every format. With ``strict=True`` any loss is an error and nothing is written.
    """
    adapter = format_for(path, fmt)
    if adapter.write is None:
        writable = sorted(a.name for a in adapters().values() if a.can_write)
        raise UsageError(f"format {adapter.name!r} cannot be written; writable: {writable}")
    if doc.source_path and Path(doc.source_path).exists() and Path(path).exists():
        if Path(path).resolve() == Path(doc.source_path).resolve():
            raise SegagreeError("refusing to overwrite the input file", path=path)
    from segagree.formats.kept_meta import note_foreign_meta

    losses = LossReport()
    given = file_given_back(doc, path, adapter.name, options)
    if given is not None:
        with atomic_path(path) as tmp:
            Path(tmp).write_bytes(given)
        return losses
    kept = doc.meta.get("vtt")
    if adapter.name not in ("vtt", "json") and isinstance(kept, dict) and any(kept.values()):
        # The WebVTT reader keeps these in meta for its writer (and the native JSON keeps meta).
        names = {"cues": "cue identifiers, settings and notes", "metadata": "header lines"}
        what = [names.get(k, k.replace("_", " ")) for k, v in kept.items() if v]
        losses.add("meta-dropped", f"WebVTT {', '.join(what)} have no place in {adapter.name}")
    note_foreign_meta(doc, adapter.name, losses)
    if strict:
        import tempfile

        # Dry run into a throwaway file to learn the losses before touching the target.
        with tempfile.TemporaryDirectory() as scratch:
            adapter.write(doc, Path(scratch) / Path(path).name, losses=losses, **options)
        if losses:
            raise SegagreeError("--strict: the conversion would lose " + "; ".join(losses.lines()), path=path)
    try:
        with atomic_path(path) as tmp:
            adapter.write(doc, tmp, losses=losses, **options)
    except SegagreeError as err:
        # Writers see a temporary path; the user should see the target's.
        err.path = str(path)
        raise
    return losses


__all__ = [
    "ALIASES",
    "Adapter",
    "InputError",
    "Loss",
    "LossReport",
    "adapters",
    "file_given_back",
    "file_kind",
    "format_for",
    "read_document",
    "write_document",
]
