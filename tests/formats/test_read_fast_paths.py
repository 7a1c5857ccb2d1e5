"""The fast paths of the EAF and TextGrid parsers give what the strict slow paths give.

``eaf_parse._fast_structure`` (a plainly valid file without a Python call per annotation)
must equal ``eaf_parse._walk_structure`` (element by element) on every file it accepts, and
hand every fault to the walk, so that errors keep their message and line. ``praat_text``'s
one-regex interval reading must give the same tiers, items and item lines as the tokenizer.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from segagree.errors import InputError
from segagree.files.encoding import decode_text
from segagree.files.memory import read_bytes
from segagree.formats.elan import parse as eaf_parse
from segagree.formats.elan.eaf import _parse_xml
from segagree.formats.praat import text_form as praat_text

from conftest import REPO, SHARED

SAMPLES = REPO / "sample_corpora" / "tools"


def _files(folder: str, pattern: str) -> list[Path]:
    """The third-party files of ../shared/corpora/FOLDER when present, and the repository's samples."""
    return sorted((SHARED / "corpora" / folder).glob(pattern)) + sorted(SAMPLES.glob(pattern))


def _without_lines(eaf: eaf_parse.EafFile) -> eaf_parse.EafFile:
    for tier in eaf.tiers.values():
        tier.aligned_lines, tier.ref_lines = [], {}
    return eaf


def test_eaf_fast_structure_equals_the_walk() -> None:
    files = _files("eaf", "*.eaf")
    assert files
    for path in files:
        tree = _parse_xml(path)
        fast = eaf_parse._fast_structure(tree, path)
        assert fast is not None, f"{path.name}: the fast path should accept this valid file"
        walk = _without_lines(eaf_parse._walk_structure(tree, path))
        assert fast == walk, path.name


# Damage that the fast path must hand to the walk (which refuses it naming the line).
DAMAGE = [
    ('TIME_VALUE="', 'TIME_VALUE="-1'),
    ('TIME_VALUE="', 'TIME_VALUE="x'),
    ("TIME_SLOT_REF1=", "TIME_SLOT_REFX="),
    ("ANNOTATION_REF=", "ANNOTATION_REFX="),
    ('TIME_SLOT_REF2="', 'TIME_SLOT_REF2="nowhere'),
    ('ANNOTATION_REF="', 'ANNOTATION_REF="nothing'),
    ('TIME_SLOT_ID="', 'TIME_SLOT_ID=" '),
]


@pytest.mark.parametrize(("old", "new"), DAMAGE)
def test_eaf_damage_goes_to_the_walk(old: str, new: str, tmp_path: Path) -> None:
    src = SAMPLES / "garden.ann1.eaf"
    text = src.read_text(encoding="utf-8")
    if old not in text:
        pytest.skip(f"{src.name} has no {old!r}")
    path = tmp_path / "damaged.eaf"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    tree = _parse_xml(path)
    assert eaf_parse._fast_structure(tree, path) is None
    with pytest.raises(InputError) as walked:
        eaf_parse._walk_structure(tree, path)
    with pytest.raises(InputError) as read:
        eaf_parse.read_structure(tree, path)
    assert str(read.value) == str(walked.value) and "line " in str(read.value)


def test_eaf_markup_in_a_value_is_read_by_the_walk(tmp_path: Path) -> None:
    text = (SAMPLES / "garden.ann1.eaf").read_text(encoding="utf-8")
    m = re.search(r"<ANNOTATION_VALUE>([^<]+)</ANNOTATION_VALUE>", text)
    assert m
    path = tmp_path / "markup.eaf"
    value = f"<!-- a note -->{m.group(1)}<![CDATA[ & more]]>"
    path.write_text(text[: m.start(1)] + value + text[m.end(1) :], encoding="utf-8")
    tree = _parse_xml(path)
    assert eaf_parse._fast_structure(tree, path) is None
    eaf = eaf_parse.read_structure(tree, path)
    values = [v for t in eaf.tiers.values() for *_, v in t.aligned] + [
        v for t in eaf.tiers.values() for _, v, _ in t.refs.values()
    ]
    assert f"{m.group(1)} & more" in values


@pytest.mark.parametrize("path", _files("textgrid", "*.TextGrid"), ids=lambda p: p.name)
def test_textgrid_fast_intervals_equal_the_tokenizer(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = decode_text(read_bytes(path), path)
    fast = praat_text.parse_textgrid(text, path)
    monkeypatch.setattr(praat_text, "_INTERVAL", re.compile(r"(?!)"))  # never matches
    slow = praat_text.parse_textgrid(text, path)
    assert fast == slow  # tiers, items, labels and each item's line


def test_textgrid_faults_keep_their_place(tmp_path: Path) -> None:
    text = (SAMPLES / "garden.ann1.TextGrid").read_text(encoding="utf-8")
    lines = text.split("\n")
    k = next(i for i, line in enumerate(lines) if line.strip().startswith("xmax =") and i > 20)
    lines[k] = lines[k].split("=")[0] + "= -3 "
    path = tmp_path / "bad.TextGrid"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(InputError, match=rf"line {k + 1}, tier 1 .*interval's xmax is -3\.0"):
        praat_text.parse_textgrid(path.read_text(encoding="utf-8"), path)
