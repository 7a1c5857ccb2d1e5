"""The gold of a time review is the reference (first) annotator's file with only the reviewed tier
replaced: every other tier as it was (content compared element by element, read independently of
segagree's readers: lxml for ELAN, a plain line parser for the TextGrid, csv for the table), the
file's extent and header kept, overlapping choices refused with both units named, no input
overwritten."""

from __future__ import annotations

import csv
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from cli_process import run_cli
from lxml import etree

EAF = """<?xml version="1.0" encoding="UTF-8"?>
<ANNOTATION_DOCUMENT AUTHOR="lab" DATE="2025-01-02T03:04:05+00:00" FORMAT="3.0" VERSION="3.0" \
xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
xsi:noNamespaceSchemaLocation="http://www.mpi.nl/tools/elan/EAFv3.0.xsd">
    <HEADER MEDIA_FILE="" TIME_UNITS="milliseconds">
        <MEDIA_DESCRIPTOR MEDIA_URL="file:///data/session1.wav" MIME_TYPE="audio/x-wav" \
RELATIVE_MEDIA_URL="./session1.wav"/>
        <PROPERTY NAME="URN">urn:nl-mpi-tools-elan-eaf:0001</PROPERTY>
        <PROPERTY NAME="lastUsedAnnotation">{last}</PROPERTY>
    </HEADER>
    <TIME_ORDER>
{slots}
    </TIME_ORDER>
    <TIER LINGUISTIC_TYPE_REF="move" TIER_ID="movement">
{movement}
    </TIER>
    <TIER LINGUISTIC_TYPE_REF="inc" PARENT_REF="movement" TIER_ID="upper_body">
{upper}
    </TIER>
    <TIER LINGUISTIC_TYPE_REF="note" TIER_ID="notes">
{notes}
    </TIER>
    <LINGUISTIC_TYPE CONTROLLED_VOCABULARY_REF="moves" GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="move" \
TIME_ALIGNABLE="true"/>
    <LINGUISTIC_TYPE CONSTRAINTS="Included_In" GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="inc" \
TIME_ALIGNABLE="true"/>
    <LINGUISTIC_TYPE GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="note" TIME_ALIGNABLE="true"/>
    <CONSTRAINT DESCRIPTION="Time alignable annotations within the parent annotation's time interval, \
gaps are allowed" STEREOTYPE="Included_In"/>
    <CONTROLLED_VOCABULARY CV_ID="moves">
        <DESCRIPTION LANG_REF="eng"/>
        <CV_ENTRY_ML CVE_ID="cve1"><CVE_VALUE LANG_REF="eng">up</CVE_VALUE></CV_ENTRY_ML>
        <CV_ENTRY_ML CVE_ID="cve2"><CVE_VALUE LANG_REF="eng">down</CVE_VALUE></CV_ENTRY_ML>
    </CONTROLLED_VOCABULARY>
    <LANGUAGE LANG_DEF="http://cdb.iso.org/lg/CDB-00130975-001" LANG_ID="eng" LANG_LABEL="English (eng)"/>
</ANNOTATION_DOCUMENT>
"""

Span = tuple[int, int, str]


def _eaf(path: Path, movement: list[Span], upper: list[Span], notes: list[Span]) -> Path:
    """An ELAN file: top-level ``movement`` (the reviewed tier), its ``Included_In`` child
    ``upper_body``, and a top-level ``notes``; a media descriptor, a controlled vocabulary, a language."""
    slots: list[str] = []
    tiers: dict[str, str] = {}
    n = 0
    for name, spans in (("movement", movement), ("upper", upper), ("notes", notes)):
        out = []
        for s, e, v in spans:
            n += 1
            a, b = f"ts{2 * n - 1}", f"ts{2 * n}"
            slots += [
                f'        <TIME_SLOT TIME_SLOT_ID="{a}" TIME_VALUE="{s}"/>',
                f'        <TIME_SLOT TIME_SLOT_ID="{b}" TIME_VALUE="{e}"/>',
            ]
            out.append(
                f'        <ANNOTATION>\n            <ALIGNABLE_ANNOTATION ANNOTATION_ID="a{n}" TIME_SLOT_REF1="{a}" '
                f'TIME_SLOT_REF2="{b}">\n                <ANNOTATION_VALUE>{v}</ANNOTATION_VALUE>\n'
                "            </ALIGNABLE_ANNOTATION>\n        </ANNOTATION>"
            )
        tiers[name] = "\n".join(out)
    path.write_text(EAF.format(last=n, slots="\n".join(slots), **tiers), encoding="utf-8")
    return path


def _tier_content(path: Path, tier_id: str) -> list[tuple[str, int, int, str]]:
    """(annotation id, start ms, end ms, value) of a tier, read with lxml alone."""
    root = etree.parse(str(path)).getroot()
    times = {s.get("TIME_SLOT_ID"): int(s.get("TIME_VALUE")) for s in root.iter("TIME_SLOT")}
    tier = next(t for t in root.iter("TIER") if t.get("TIER_ID") == tier_id)
    return [
        (al.get("ANNOTATION_ID"), times[al.get("TIME_SLOT_REF1")], times[al.get("TIME_SLOT_REF2")],
         al.findtext("ANNOTATION_VALUE"))
        for al in tier.iter("ALIGNABLE_ANNOTATION")
    ]  # fmt: skip


def _canonical(path: Path, tag: str) -> list[bytes]:
    root = etree.parse(str(path)).getroot()
    return [etree.tostring(el, method="c14n") for el in root.iter(tag)]


def _sha1(path: Path) -> str:
    return hashlib.sha1(path.read_bytes()).hexdigest()


def _decide(book: Path, choose: Callable[[dict[str, Any]], str]) -> Path:
    wb = openpyxl.load_workbook(book)
    ws = wb["Alignment"]
    header = [c.value for c in ws[1]]
    col = header.index("decision") + 1
    for r in range(2, ws.max_row + 1):
        ws.cell(r, col).value = choose(dict(zip(header, [c.value for c in ws[r]], strict=False)))
    out = book.with_name("decided.xlsx")
    wb.save(out)
    return out


@pytest.fixture
def elan_review(tmp_path: Path) -> tuple[Path, Path, Path]:
    kim = _eaf(
        tmp_path / "kim.eaf",
        [(0, 2000, "up"), (2000, 4000, "down"), (5000, 9000, "up")],
        [(100, 900, "head"), (5500, 6000, "torso")],
        [(0, 12000, "session one")],
    )
    lee = _eaf(
        tmp_path / "lee.eaf",
        [(0, 1000, "up"), (1000, 4000, "down"), (5000, 7000, "up"), (7000, 9000, "down")],
        [(200, 800, "head")],
        [(0, 3000, "other note")],
    )
    book = tmp_path / "review.xlsx"
    result = run_cli(["review", "--time", str(kim), str(lee), "--tier", "movement", "-o", str(book)])
    assert result.returncode == 0, result.stderr
    return book, kim, lee


def test_elan_gold_keeps_every_other_tier_and_the_header(elan_review: tuple[Path, Path, Path]) -> None:
    book, kim, lee = elan_review
    before = {p: _sha1(p) for p in (kim, lee)}
    # Groups in time order: lee's 0-1 s, lee's 1-4 s, kim's 5-9 s, none for lee's lone 7-9 s.
    choices = iter(["lee", "lee", "kim", "none"])
    decided = _decide(book, lambda row: next(choices))
    gold = book.with_name("gold.eaf")
    result = run_cli(["adjudicate", str(decided), "-o", str(gold)])
    assert result.returncode == 0, result.stderr
    assert "kim.eaf (annotator kim)" in result.stdout + result.stderr
    assert [x[1:] for x in _tier_content(gold, "movement")] == [
        (0, 1000, "up"),
        (1000, 4000, "down"),
        (5000, 9000, "up"),
    ]
    # kim's own 5-9 s annotation is the one kept (same id); lee's 0-1 s and 1-4 s replace kim's
    # 0-2 s and 2-4 s of their groups, and continue them (same ids, new times).
    ids = [x[0] for x in _tier_content(gold, "movement")]
    assert ids == ["a1", "a2", "a3"]
    for tier in ("upper_body", "notes"):  # ids, times and values as in kim's file
        assert _tier_content(gold, tier) == _tier_content(kim, tier)
    for tag in ("MEDIA_DESCRIPTOR", "LINGUISTIC_TYPE", "CONTROLLED_VOCABULARY", "LANGUAGE", "CONSTRAINT"):
        assert _canonical(gold, tag) == _canonical(kim, tag), tag
    root = etree.parse(str(gold)).getroot()
    assert root.get("DATE") == "2025-01-02T03:04:05+00:00" and root.get("AUTHOR") == "lab"
    used = {al.get(k) for al in root.iter("ALIGNABLE_ANNOTATION") for k in ("TIME_SLOT_REF1", "TIME_SLOT_REF2")}
    assert used == {s.get("TIME_SLOT_ID") for s in root.iter("TIME_SLOT")}  # no dangling, no unused slot
    last = next(p for p in root.iter("PROPERTY") if p.get("NAME") == "lastUsedAnnotation")
    assert int(last.text) == max(int(a.get("ANNOTATION_ID")[1:]) for a in root.iter("ALIGNABLE_ANNOTATION"))
    assert {p: _sha1(p) for p in (kim, lee)} == before


def test_elan_overlapping_choices_refused(elan_review: tuple[Path, Path, Path]) -> None:
    book, _, _ = elan_review
    # kim's 5-9 s and lee's 7-9 s both chosen: the movement tier cannot hold both.
    decided = _decide(book, lambda row: "kim" if row["kim start"] is not None else "lee")
    gold = book.with_name("gold.eaf")
    result = run_cli(["adjudicate", str(decided), "-o", str(gold)])
    assert result.returncode == 1
    assert "tier 'movement'" in result.stderr and "5-9 s (row 4) and 7-9 s (row 5)" in result.stderr
    assert "Traceback" not in result.stderr and not gold.exists()


def test_elan_gold_never_overwrites_the_source(elan_review: tuple[Path, Path, Path]) -> None:
    book, kim, _ = elan_review
    before = _sha1(kim)
    decided = _decide(book, lambda row: "lee")
    result = run_cli(["adjudicate", str(decided), "-o", str(kim)])
    assert result.returncode == 1 and "overwrite" in result.stderr
    assert _sha1(kim) == before


def test_changed_source_refused(elan_review: tuple[Path, Path, Path]) -> None:
    book, kim, _ = elan_review
    decided = _decide(book, lambda row: "lee")
    kim.write_text(kim.read_text(encoding="utf-8").replace("session one", "session 1"), encoding="utf-8")
    result = run_cli(["adjudicate", str(decided), "-o", str(book.with_name("gold.eaf"))])
    assert result.returncode == 1 and "kim.eaf changed since" in result.stderr


def test_other_format_keeps_the_tiers_not_reviewed_and_says_what_is_not_kept(
    elan_review: tuple[Path, Path, Path],
) -> None:
    from praatio import textgrid

    book, _, _ = elan_review
    decided = _decide(book, lambda row: "lee")
    gold = book.with_name("gold.TextGrid")
    result = run_cli(["adjudicate", str(decided), "-o", str(gold)])
    assert result.returncode == 0, result.stderr
    said = result.stdout + result.stderr
    assert "source-converted" in said and "tier-ignored [tier 'upper_body']" in said and "lossless" not in said
    grid = textgrid.openTextgrid(str(gold), includeEmptyIntervals=False)  # read by praatio
    assert [(e.start, e.end, e.label) for e in grid.getTier("notes").entries] == [(0.0, 12.0, "session one")]
    assert [(e.start, e.end) for e in grid.getTier("movement").entries] == [(0, 1), (1, 4), (5, 7), (7, 9)]


def _grid(path: Path, tiers: list[tuple[str, str, list[Any]]], xmax: float) -> Path:
    """A long-form TextGrid: interval tiers (gaps filled with empty intervals) and point tiers."""
    out = ['File type = "ooTextFile"', 'Object class = "TextGrid"', "", "xmin = 0", f"xmax = {xmax}"]
    out += ["tiers? <exists>", f"size = {len(tiers)}", "item []:"]
    for k, (name, kind, items) in enumerate(tiers, 1):
        out += [f"    item [{k}]:", f'        class = "{kind}"', f'        name = "{name}"', "        xmin = 0"]
        out.append(f"        xmax = {xmax}")
        if kind == "IntervalTier":
            cells, t = [], 0.0
            for a, b, x in items:
                if a > t:
                    cells.append((t, a, ""))
                cells.append((a, b, x))
                t = b
            if t < xmax:
                cells.append((t, xmax, ""))
            out.append(f"        intervals: size = {len(cells)}")
            for i, (a, b, x) in enumerate(cells, 1):
                out += [f"        intervals [{i}]:", f"            xmin = {a}", f"            xmax = {b}"]
                out.append(f'            text = "{x}"')
        else:
            out.append(f"        points: size = {len(items)}")
            for i, (t, x) in enumerate(items, 1):
                out += [f"        points [{i}]:", f"            number = {t}", f'            mark = "{x}"']
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def _grid_content(path: Path) -> tuple[float, dict[str, list[tuple[float, ...] | str]]]:
    """(file xmax, tier name -> its values in order), read line by line with no segagree code."""
    tiers: dict[str, list[tuple[float, ...] | str]] = {}
    xmax, current = None, None
    for line in path.read_text(encoding="utf-8").splitlines():
        key, _, value = (part.strip() for part in line.partition("="))
        if key == "xmax" and xmax is None:
            xmax = float(value)
        elif key == "name":
            current = value.strip('"')
            tiers[current] = []
        elif current and key in ("xmin", "xmax", "number"):
            tiers[current].append((float(value),))
        elif current and key in ("text", "mark"):
            tiers[current].append(value.strip('"'))
    assert xmax is not None
    return xmax, tiers


def test_textgrid_gold_keeps_other_tiers_and_the_extent(tmp_path: Path) -> None:
    words = ("words", "IntervalTier", [(0.05, 0.3, "the"), (0.3, 0.62, "cat"), (0.7, 1.1, "sat")])
    tones = ("tones", "TextTier", [(0.2, "H*"), (0.9, "L%")])
    one = _grid(
        tmp_path / "ann1.TextGrid", [words, ("ius", "IntervalTier", [(0, 0.4, "a"), (0.4, 0.85, "b")]), tones], 1.17
    )
    two_ius = [(0, 0.35, "a"), (0.35, 0.6, "b"), (0.6, 0.85, "c")]
    two = _grid(tmp_path / "ann2.TextGrid", [words, ("ius", "IntervalTier", two_ius), tones], 1.17)
    before = _sha1(one), _sha1(two)
    book = tmp_path / "review.xlsx"
    result = run_cli(["review", "--time", str(one), str(two), "--tier", "ius", "-o", str(book)])
    assert result.returncode == 0, result.stderr
    decided = _decide(book, lambda row: "ann2")
    gold = tmp_path / "gold.TextGrid"
    result = run_cli(["adjudicate", str(decided), "-o", str(gold)])
    assert result.returncode == 0, result.stderr
    xmax, tiers = _grid_content(gold)
    source_xmax, source = _grid_content(one)
    assert xmax == source_xmax == 1.17  # the file's extent, beyond the last unit (0.85 s)
    assert list(tiers) == ["words", "ius", "tones"]
    assert tiers["words"] == source["words"] and tiers["tones"] == source["tones"]
    # the tier's own range, then the gold intervals, the gap to 1.17 s an empty interval
    assert tiers["ius"] == [(0.0,), (1.17,), (0.0,), (0.35,), "a", (0.35,), (0.6,), "b", (0.6,), (0.85,), "c",
                            (0.85,), (1.17,), ""]  # fmt: skip
    assert (_sha1(one), _sha1(two)) == before


def test_units_table_gold_keeps_the_reference_rows(tmp_path: Path) -> None:
    table = tmp_path / "units.csv"
    table.write_text(
        "annotator,recording,start,end,category,text\n"
        "kim,rec1,0.5,1.2,beat,first beat\n"
        "kim,rec1,2,3.4,point,\n"
        "lee,rec1,0.6,1.2,beat,\n"
        "lee,rec1,2.1,3.0,point,\n"
        "kim,rec2,1,2,iconic,kept as it was\n"
        "lee,rec2,1.1,2,iconic,\n"
        "lee,rec2,3,4,beat,\n",
        encoding="utf-8",
    )
    before = _sha1(table)
    book = tmp_path / "review.xlsx"
    assert run_cli(["review", "--time", str(table), "-o", str(book)]).returncode == 0
    # rec1: kim's first unit, lee's second; rec2: kim's unit, nothing for lee's lone 3-4 s.
    choices = {(0.5, "rec1"): "kim", (2, "rec1"): "lee", (1, "rec2"): "kim"}
    decided = _decide(book, lambda row: choices.get((row["kim start"], row["speaker"]), "none"))
    gold = tmp_path / "gold.csv"
    result = run_cli(["adjudicate", str(decided), "-o", str(gold)])
    assert result.returncode == 0, result.stderr
    rows = list(csv.reader(gold.open(encoding="utf-8")))
    assert rows == [
        ["annotator", "recording", "start", "end", "category", "text"],
        ["kim", "rec1", "0.5", "1.2", "beat", "first beat"],  # kim's row, every cell as it was
        ["kim", "rec1", "2.1", "3", "point", ""],  # lee's unit, written for the reference annotator
        ["kim", "rec2", "1", "2", "iconic", "kept as it was"],
    ]
    assert "lee (4 rows)" in result.stdout + result.stderr
    assert _sha1(table) == before


def test_elan_symbolic_dependents_of_replaced_annotations_reported(elan_review: tuple[Path, Path, Path]) -> None:
    book, kim, _ = elan_review
    # A Symbolic_Association tier under movement: one value for kim's a1 (0-2 s, replaced by lee's
    # 0-1 s) and one for a3 (5-9 s, kept as it is).
    gloss = (
        '    <TIER LINGUISTIC_TYPE_REF="assoc" PARENT_REF="movement" TIER_ID="gloss">\n'
        '        <ANNOTATION>\n            <REF_ANNOTATION ANNOTATION_ID="a90" ANNOTATION_REF="a1">\n'
        "                <ANNOTATION_VALUE>raise</ANNOTATION_VALUE>\n            </REF_ANNOTATION>\n"
        "        </ANNOTATION>\n"
        '        <ANNOTATION>\n            <REF_ANNOTATION ANNOTATION_ID="a91" ANNOTATION_REF="a3">\n'
        "                <ANNOTATION_VALUE>lift</ANNOTATION_VALUE>\n            </REF_ANNOTATION>\n"
        "        </ANNOTATION>\n    </TIER>\n"
    )
    kind = (
        '    <LINGUISTIC_TYPE CONSTRAINTS="Symbolic_Association" GRAPHIC_REFERENCES="false" '
        'LINGUISTIC_TYPE_ID="assoc" TIME_ALIGNABLE="false"/>\n'
    )
    text = kim.read_text(encoding="utf-8")
    first_type = text.index("    <LINGUISTIC_TYPE ")
    kim.write_text(text[:first_type] + gloss + kind + text[first_type:], encoding="utf-8")
    again = run_cli(
        ["review", "--time", str(kim), str(book.with_name("lee.eaf")), "--tier", "movement", "-o", str(book)]
    )
    assert again.returncode == 0, again.stderr
    # kim's 0-2 s unit (a1) decided none: its gloss goes with it, listed; kim's 5-9 s (a3) kept.
    choices = iter(["none", "lee", "kim", "none"])
    decided = _decide(book, lambda row: next(choices))
    gold = book.with_name("gold.eaf")
    result = run_cli(["adjudicate", str(decided), "-o", str(gold)])
    assert result.returncode == 0, result.stderr
    said = result.stdout + result.stderr
    assert "dependent-dropped [tier 'gloss' 0-2 s]: 'raise'" in said and "lift" not in said
    root = etree.parse(str(gold)).getroot()
    refs = [(r.get("ANNOTATION_ID"), r.get("ANNOTATION_REF")) for r in root.iter("REF_ANNOTATION")]
    assert refs == [("a91", "a3")]  # the value of the kept annotation stays, the other went with a1
    assert _tier_content(gold, "upper_body") == _tier_content(kim, "upper_body")


def test_elan_included_in_annotations_left_outside_are_listed(elan_review: tuple[Path, Path, Path]) -> None:
    book, kim, _ = elan_review
    # No unit at 5-9 s: upper_body's 'torso' (5.5-6 s) stays as it was, inside no movement annotation.
    choices = iter(["lee", "lee", "none", "none"])
    decided = _decide(book, lambda row: next(choices))
    gold = book.with_name("gold.eaf")
    result = run_cli(["adjudicate", str(decided), "-o", str(gold)])
    assert result.returncode == 0, result.stderr
    said = result.stdout + result.stderr
    assert "dependent-outside [tier 'upper_body' 5.5-6 s]: 'torso'" in said and "'head'" not in said
    assert _tier_content(gold, "upper_body") == _tier_content(kim, "upper_body")


def test_files_of_one_name_in_annotators_folders(tmp_path: Path) -> None:
    # kim/talk.eaf and lee/talk.eaf, lee's given first, kim first by --annotators: kim's file is the base.
    (tmp_path / "kim").mkdir()
    (tmp_path / "lee").mkdir()
    kim = _eaf(tmp_path / "kim" / "talk.eaf", [(0, 2000, "up")], [(100, 900, "head")], [(0, 5000, "kim's note")])
    lee = _eaf(tmp_path / "lee" / "talk.eaf", [(0, 1000, "up")], [], [(0, 3000, "lee's note")])
    book = tmp_path / "review.xlsx"
    args = ["review", "--time", str(lee), str(kim), "--annotators", "kim,lee", "--tier", "movement", "-o", str(book)]
    assert run_cli(args).returncode == 0
    decided = _decide(book, lambda row: "lee")
    gold = tmp_path / "gold.eaf"
    result = run_cli(["adjudicate", str(decided), "-o", str(gold)])
    assert result.returncode == 0, result.stderr
    assert [x[3] for x in _tier_content(gold, "notes")] == ["kim's note"]
    assert [x[1:] for x in _tier_content(gold, "movement")] == [(0, 1000, "up")]


def test_a_time_review_page_records_no_absolute_path(elan_review: tuple[Path, Path, Path]) -> None:
    book, kim, lee = elan_review
    page = book.with_name("review.html")
    result = run_cli(["review", "--time", str(kim), str(lee), "--tier", "movement", "-o", str(page)])
    assert result.returncode == 0, result.stderr
    text = page.read_text(encoding="utf-8")
    assert "kim.eaf" in text and str(book.parent) not in text  # the sources by relative path only
