"""Recognising segagree's own outputs among a folder's files, so that a corpus run does not read a
review workbook written beside the annotations (``segagree review a.txt b.txt -o text.review.xlsx``)
as one more annotator's file.

A review workbook (token or time track) is the XLSX file with an :data:`ABOUT_SHEET`, which records
its sources and settings; its writers name the sheet by this constant. Only the workbook's sheet list
(``xl/workbook.xml``, a few hundred bytes) is read.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

ABOUT_SHEET = "About"
_SHEET_NAME = re.compile(rb"<(?:\w+:)?sheet\b[^>]*\bname=\"([^\"]*)\"")
_WORKBOOK_XML_LIMIT = 1 << 20  # a workbook's sheet list; a bigger part is not one of ours


def is_review_workbook(path: Path) -> bool:
    """True when ``path`` is an XLSX workbook with segagree's About sheet (a review workbook)."""
    if path.suffix.lower() != ".xlsx":
        return False
    try:
        with zipfile.ZipFile(path) as archive:
            info = archive.getinfo("xl/workbook.xml")
            if info.file_size > _WORKBOOK_XML_LIMIT:
                return False
            names = _SHEET_NAME.findall(archive.read(info))
    except (OSError, KeyError, zipfile.BadZipFile):
        return False  # not a workbook at all: the table reader says what is wrong with it
    return ABOUT_SHEET.encode() in names
