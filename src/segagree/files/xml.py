"""Parsing XML annotation files safely and with a useful error position.

Every XML format (ELAN, Transcriber, EXMARaLDA, ...) parses through :func:`parse_xml`:
lxml with the network off, external entities and DTDs never loaded, internal entities
(declared in the file's own DOCTYPE) expanded (so ``&name;`` in an annotation reads as its
text, not as nothing), and libxml2's default limits kept (``huge_tree`` off: one text node or
attribute of more than 10 MB, or entity expansion beyond its bound, is refused at once instead
of taking minutes and gigabytes). Files above :data:`MAX_XML_BYTES` are refused before parsing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
from lxml import etree

from segagree.errors import InputError, SegagreeError
from segagree.files.memory import read_bytes
from segagree.model import Document

# Far above any real annotation file (the largest ELAN files seen are a few tens of MB).
MAX_XML_BYTES = 512 * 1024 * 1024

# An XML declaration naming a single-byte Western encoding (Transcriber writes ISO-8859-1).
_LATIN1_DECL = re.compile(
    rb"""^(\xef\xbb\xbf)?(<\?xml[^>]*?encoding\s*=\s*["'])(iso-?8859-1|latin-?1|l1|cp1252|windows-1252)(["'])""",
    re.IGNORECASE,
)


def fix_misdeclared_utf8(raw: bytes) -> tuple[bytes, str | None]:
    """``raw`` with an XML declaration of ISO-8859-1 (or cp1252) replaced by UTF-8 when the bytes
    are in fact UTF-8 with non-ASCII text (a file re-saved by a UTF-8 editor without updating its
    declaration; read as declared, every accented letter would turn into two: ``Ã©``), and the
    encoding declared (None: nothing changed). Valid UTF-8 with non-ASCII bytes is practically
    never meant as Latin-1, where it would need sequences such as ``Ã©`` throughout."""
    m = _LATIN1_DECL.match(raw)
    if m is None or raw.isascii():
        return raw, None
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw, None
    return raw[: m.start(3)] + b"UTF-8" + raw[m.end(3) :], m.group(3).decode("ascii")


def parse_xml(raw: bytes, path: str | Path, *, expected: str) -> etree._ElementTree:
    """Parse ``raw`` (the bytes of ``path``) into an lxml tree.

    Args:
        raw: the file's bytes.
        path: the file, for error messages.
        expected: what the file should be, for the message (``an ELAN annotation document``).

    Raises:
        InputError: too large, not well-formed, or refused by libxml2's limits, naming the
            line and column.
    """
    if len(raw) > MAX_XML_BYTES:
        raise InputError(f"{len(raw)} bytes is over the {MAX_XML_BYTES} byte ceiling for XML files", path=path)
    parser = etree.XMLParser(
        resolve_entities="internal",
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        remove_blank_text=False,
    )
    try:
        root = etree.fromstring(raw, parser)
    except etree.XMLSyntaxError as err:
        line, col = err.position if err.position else (err.lineno, 0)
        msg = str(err.msg).splitlines()[0] if err.msg else "syntax error"
        msg = re.sub(r",? line \d+, column \d+$", "", msg)  # the place says it already
        raise InputError(
            f"not well-formed XML: {msg}; expected {expected}", path=path, place=f"line {line} column {col}"
        ) from None
    except ValueError as err:  # lxml refuses some inputs (a unicode string with an encoding declaration)
        raise InputError(f"cannot parse as XML ({err}); expected {expected}", path=path) from None
    if root is None:
        raise InputError(f"no XML element; expected {expected}", path=path)
    return etree.ElementTree(root)


def read_root(path: Path, tag: str, expected: str) -> tuple[etree._ElementTree, etree._Element, str | None]:
    """Parse an XML file whose root must be ``<tag>``: the tree, its root, and the encoding a
    misdeclared UTF-8 file declared (see :func:`fix_misdeclared_utf8`)."""
    raw, misdeclared = fix_misdeclared_utf8(read_bytes(path))
    tree = parse_xml(raw, path, expected=expected)
    root = tree.getroot()
    if root.tag != tag:
        place = f"line {root.sourceline}"
        raise InputError(f"root element is <{root.tag}>, expected {expected}", path=path, place=place)
    return tree, root, misdeclared


def internal_declarations(tree: etree._ElementTree) -> int:
    """How many entity and element declarations the file's own DOCTYPE holds (its internal
    subset). The readers expand internal entities, and the writers write plain text, so these
    declarations are not written back: a loss to report."""
    dtd = tree.docinfo.internalDTD
    if dtd is None:
        return 0
    return len(list(dtd.entities())) + len(list(dtd.elements()))


# XML 1.0 forbids these characters anywhere in a document (lxml refuses them with ValueError).
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def check_xml_text(doc: Document, path: str | Path) -> None:
    """Refuse speakers and tokens that XML cannot hold (control characters), naming them."""
    for speaker in doc.speakers:
        if NOT_XML.search(speaker):
            raise SegagreeError(f"speaker {speaker!r} holds a control character XML cannot hold", path=path)
    texts = doc.tokens["text"].astype(str)
    bad = np.flatnonzero(texts.str.contains(NOT_XML).to_numpy())
    if bad.size:
        i = int(bad[0])
        raise SegagreeError(
            f"token {texts.iat[i]!r} (row {i + 1}) holds a control character XML cannot hold; "
            "remove it or convert to a text format",
            path=path,
        )


def note_xml_read_losses(
    doc: Any, tree: etree._ElementTree, misdeclared: str | None, unread: dict[str, tuple[int, int]]
) -> None:
    """Record in ``doc.losses`` what every XML reader loses or repairs: the DOCTYPE's own
    declarations, an encoding declaration the bytes contradict, and elements not read
    (``unread``: description -> (count, first line))."""
    declared = internal_declarations(tree)
    if declared:
        doc.losses.add(
            "doctype-dropped",
            "the DOCTYPE's own declarations (entities, elements) are not written back; "
            "entity references are read and written as their text",
            where="DOCTYPE",
            count=declared,
        )
    if misdeclared:
        doc.losses.add(
            "repaired",
            f"the file declares encoding {misdeclared!r} but its bytes are UTF-8; read (and written) as UTF-8",
            where="line 1",
        )
    for what, (n, line) in unread.items():
        doc.losses.add("elements-dropped", f"{what} is not read (first at line {line})", count=n)
