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

from lxml import etree

from segagree.errors import InputError

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
