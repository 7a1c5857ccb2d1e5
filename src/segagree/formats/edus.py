"""RST-DT segmentation files (``.edus``): one elementary discourse unit per line.

The RST Discourse Treebank (Carlson, Marcu & Okurowski 2002) keeps beside each raw text
(``wsj_0600.out``: a sentence per line, paragraphs separated by blank lines) its segmentation
``wsj_0600.out.edus``: every EDU on a line of its own, in text order (RST-DT indents each line
by four spaces and ends it with a space). EDU segmenters (NeuralEDUSeg, DPLP, two-stage
segmenters) write their output the same way, without the indentation.

Mapping to the model (reading):

* **Tokens**: the whitespace-separated words of the EDU lines; blank lines are skipped (as
  NeuralEDUSeg's ``preprocess.py`` does) and counted when they separate EDUs.
* **Speakers**: one, ``TEXT`` (the format has none).
* **Layers**: ``edu`` (scheme ``edu``), a boundary after each line's last word. Where the raw
  text sits beside the file (the same name without ``.edus``, or the reader option
  ``raw_text``), a ``sentence`` layer (scheme ``sentence``): a sentence per non-blank line of the
  raw text, the convention of RST-DT's ``.out`` files that NeuralEDUSeg's preprocessing reads.
  The two texts must agree once whitespace is removed, or the read stops naming both files and
  the first differing place. A sentence that ends inside a word of the EDU file ends after that
  word (reported, ``sentence-end-moved``); the raw text's paragraph breaks are not kept
  (``paragraphs``).
* The lines' common indentation and trailing whitespace (RST-DT's ``"    "`` and ``" "``), each
  line that is not that indentation, its words joined by one space and that trail (two spaces,
  a no-break space or a tab between words, an indentation of its own) and CRLF line ends are kept
  in ``doc.meta["edus"]`` so that writing gives the file back byte for byte; another format
  reports them as not kept.

Writing: one EDU per line from the ``edu`` layer (else the document's unit layer, reported),
words joined by one space, or the line as read where its words are unchanged (a line whose words
changed loses its own spacing: reported). Other layers (``sentence`` among them: write the raw text with
another format), speakers, times and token metadata have no place in the file and are reported.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate
from pathlib import Path
from typing import Any

from segagree.errors import InputError
from segagree.files.atomic import atomic_path
from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.formats.base import Adapter, check_options
from segagree.model import Document, builtin_scheme, from_units
from segagree.model.losses import LossReport
from segagree.model.scheme import BoundaryScheme

SPEAKER = "TEXT"
SUFFIX = ".edus"


def _crlf(path: Path) -> bool:
    """Whether every line of the file ends with CRLF (kept for the writer)."""
    raw = read_bytes(path)
    return raw.count(b"\n") > 0 and raw.count(b"\r\n") == raw.count(b"\n")


def _lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def raw_text_path(path: Path) -> Path | None:
    """The raw text file beside an ``.edus`` file (its name without ``.edus``), if it exists."""
    if not path.name.lower().endswith(SUFFIX):
        return None
    beside = path.with_name(path.name[: -len(SUFFIX)])
    return beside if beside.name and beside.is_file() else None


def _layout(lines: list[str]) -> dict[str, str]:
    """The indentation and trailing whitespace every EDU line shares (RST-DT: four spaces, one)."""
    leads = {ln[: len(ln) - len(ln.lstrip())] for ln in lines}
    trails = {ln[len(ln.rstrip()) :] for ln in lines}
    out = {}
    if len(leads) == 1 and (lead := leads.pop()):
        out["indent"] = lead
    if len(trails) == 1 and (trail := trails.pop()):
        out["trail"] = trail
    return out


def _words_at(words: list[tuple[int, str]], offset: int, end: str) -> tuple[int, str]:
    """The line of the word holding character ``offset`` (whitespace removed) and three words from it."""
    ends = list(accumulate(len(w) for _, w in words))
    i = bisect_right(ends, offset)
    if i >= len(words):
        return (words[-1][0] if words else 1), end
    return words[i][0], repr(" ".join(w for _, w in words[i : i + 3]))


def _sentence_ends(
    edus: list[tuple[int, list[str]]], raw: Path, path: Path, found: list[tuple[str, str, int]]
) -> list[int]:
    """One code per token: 1 after the word where a raw-text line (a sentence) ends, else 0.

    The two files are compared as character streams without whitespace; an InputError names the
    first place they differ. What the read changes is appended to ``found`` (kind, message, count).
    """
    words = [(no, w) for no, ws in edus for w in ws]
    word_ends = list(accumulate(len(w) for _, w in words))  # offset (whitespace removed) after each word
    edu_chars = "".join(w for _, w in words)
    raw_words: list[tuple[int, str]] = []
    line_ends: list[int] = []  # offset after each non-blank raw line: where a sentence ends
    paragraphs = 0
    blank_before = False
    for no, line in enumerate(_lines(decode_text(read_bytes(raw), raw)), 1):
        parts = line.split()
        if not parts:
            blank_before = bool(raw_words)
            continue
        paragraphs += blank_before
        blank_before = False
        raw_words.extend((no, w) for w in parts)
        line_ends.append((line_ends[-1] if line_ends else 0) + sum(len(w) for w in parts))
    raw_chars = "".join(w for _, w in raw_words)
    if raw_chars != edu_chars:
        k = next((i for i, (x, y) in enumerate(zip(raw_chars, edu_chars, strict=False)) if x != y), None)
        k = min(len(raw_chars), len(edu_chars)) if k is None else k
        edu_line, got = _words_at(words, k, "the end of the EDUs")
        raw_line, want = _words_at(raw_words, k, "the end of the text")
        raise InputError(
            f"the EDUs' text differs from the raw text {raw.name} (compared without whitespace): "
            f"{got} here, {want} at {raw.name} line {raw_line}",
            path=path,
            place=f"line {edu_line}",
        )
    codes = [0] * len(words)
    moved = 0
    for end in line_ends:
        i = bisect_left(word_ends, end)  # the word holding the sentence's last character
        moved += word_ends[i] != end
        codes[i] = 1
    if moved:
        found.append(
            (
                "sentence-end-moved",
                f"a line of {raw.name} ends inside a word of the EDU file: its sentence ends after that word",
                moved,
            )
        )
    if paragraphs:
        found.append(("paragraphs", f"the paragraph breaks (blank lines) of {raw.name} are not kept", paragraphs))
    return codes


def read(path: Path, *, scheme: BoundaryScheme, raw_text: str | Path | None = None, **options: Any) -> Document:
    """Read an RST-DT ``.edus`` file (see the module docstring); ``scheme`` is not used.

    Args:
        raw_text: the raw text whose lines are the sentences; default the file beside ``path``
            named without ``.edus`` (none: no ``sentence`` layer); ``""`` reads none.
    """
    check_options(options, (), "RST-DT .edus reader")
    lines = _lines(decode_text(read_bytes(path), path))
    edus = [(no, line.split()) for no, line in enumerate(lines, 1) if line.strip()]
    if not edus:
        raise InputError("no EDUs: an .edus file holds one discourse unit per line", path=path)
    last = edus[-1][0]
    blank_between = sum(1 for no, line in enumerate(lines, 1) if not line.strip() and edus[0][0] < no < last)
    raw = raw_text_path(path) if raw_text is None else (Path(raw_text) if str(raw_text) else None)
    if raw is not None and not raw.is_file():
        raise InputError(f"the raw text file {raw} does not exist", path=path)
    losses: list[tuple[str, str, int]] = []
    sentences = _sentence_ends(edus, raw, path, losses) if raw is not None else None
    units: list[dict[str, Any]] = [{"speaker": SPEAKER, "tokens": words, "boundary": 1} for _, words in edus]
    extra: dict[str, tuple[BoundaryScheme, list[list[int]]]] = {}
    if sentences is not None:
        per_unit, start = [], 0
        for _, words in edus:
            per_unit.append(sentences[start : start + len(words)])
            start += len(words)
        per_unit[-1][-1] = 1  # the text's end ends its last sentence
        extra["sentence"] = (builtin_scheme("sentence"), per_unit)
    meta: dict[str, Any] = {}
    layout: dict[str, Any] = _layout([line for line in lines if line.strip()])
    indent, trail = layout.get("indent", ""), layout.get("trail", "")
    own = {
        str(k): lines[no - 1] for k, (no, words) in enumerate(edus) if lines[no - 1] != indent + " ".join(words) + trail
    }
    if own:  # lines with a spacing of their own, by EDU number
        layout["lines"] = own
    if _crlf(path):
        layout["newline"] = "\r\n"
    if layout:
        meta["edus"] = layout
    if raw is not None:
        meta["raw_text"] = raw.name
    doc = from_units(
        path.name,
        units,
        layer="edu",
        scheme=builtin_scheme("edu"),
        speakers=[SPEAKER],
        extra_layers=extra,
        source_path=str(path),
        source_format="edus",
        meta=meta,
    )
    for kind, message, count in losses:
        doc.losses.add(kind, message, count=count)
    if blank_between:
        doc.losses.add("blank-lines", "blank lines between EDUs are not kept", count=blank_between)
    if raw is None:
        doc.losses.note(
            "no-sentences",
            f"no raw text file {path.name[: -len(SUFFIX)] or '(name without .edus)'} beside the file: "
            "no sentence layer (the RST-DT EDU score needs the gold's sentences)",
        )
    return doc


def write(doc: Document, path: Path, *, losses: LossReport, **options: Any) -> None:
    """Write a Document as an ``.edus`` file (see the module docstring)."""
    check_options(options, (), "RST-DT .edus writer")
    chosen = doc.layers["edu"] if "edu" in doc.layers else doc.layer(None)
    if chosen.name != "edu":
        losses.add("layer-renamed", f"the units of layer {chosen.name!r} are written as EDUs (read back as 'edu')")
        if chosen.scheme.n_codes > 2:
            kinds = ", ".join(t.symbol for t in chosen.scheme.types)
            losses.add("types-dropped", f"an EDU line holds no boundary type; the {kinds} types are not written")
    for other in doc.layers:
        if other != chosen.name:
            losses.add("layer-dropped", f".edus holds EDUs only; layer {other!r} is not written", where=other)
    if len([s for s in doc.speakers if s != SPEAKER]) > 0 and doc.n_tokens:
        losses.add("speakers-merged", ".edus has no speakers: every unit is written in discourse order as one text")
    if doc.has_times:
        losses.add("times-dropped", ".edus has no times")
    if doc.meta_columns():
        losses.add("meta-dropped", f".edus holds words only; dropped {doc.meta_columns()}")
    kept = doc.meta.get("edus")
    layout = kept if isinstance(kept, dict) else {}
    indent, trail = str(layout.get("indent", "")), str(layout.get("trail", ""))
    if indent.strip() or trail.strip():
        indent, trail = "", ""
    kept_lines = layout.get("lines")
    own: dict[str, Any] = kept_lines if isinstance(kept_lines, dict) else {}
    newline = "\r\n" if layout.get("newline") == "\r\n" else "\n"
    out: list[str] = []
    split = empty = no_boundary = respaced = 0
    for k, (unit, words) in enumerate(doc.iter_unit_texts(chosen.name)):
        split += sum(1 for w in words if w and w.split() != [w])
        empty += sum(1 for w in words if not w.split())
        no_boundary += unit.boundary == 0
        parts = [part for w in words for part in w.split()]
        line = own.get(str(k))
        if isinstance(line, str) and "\n" not in line and "\r" not in line and line.split() == parts:
            out.append(line)  # the line as read: its words are unchanged
            continue
        respaced += line is not None
        if parts:
            out.append(f"{indent}{' '.join(parts)}{trail}")
    losses.add_count(
        "spacing-changed", "lines whose words changed are written with single spaces (their own spacing lost)", respaced
    )
    losses.add_count("tokens-split", "tokens holding spaces are split on reading back", split)
    losses.add_count("tokens-dropped", "empty tokens are not kept (.edus holds words between spaces)", empty)
    losses.add_count(
        "boundary-changed",
        "a stretch with no boundary after it (a speaker's last words) reads back as an EDU",
        no_boundary,
    )
    with atomic_path(path) as tmp:
        tmp.write_text("".join(line + newline for line in out), encoding="utf-8", newline="")


ADAPTER = Adapter(
    name="edus",
    extensions=(".edus",),
    description="RST-DT segmentation files: one elementary discourse unit per line; sentences from the "
    "raw text beside it (wsj_0600.out.edus beside wsj_0600.out)",
    read=read,
    write=write,
)
