"""A gold file edits only what the decisions change: every tier not reviewed, every dependent
annotation of a kept unit and every value as the annotator spelled it stay; a changed unit keeps
the children that still fit, and each one that does not is listed on its own line; undecided
groups of a time review are kept by the rule named. Checked with independent readers: pympi for
ELAN (annotations per tier, children per parent), praatio for TextGrid, csv for a units table."""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import openpyxl
import pympi
import pytest
from click.testing import CliRunner
from praatio import textgrid

from segagree.cli import app
from segagree.outputs.review_workbook import OPS_HEADERS

HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<ANNOTATION_DOCUMENT AUTHOR="" DATE="2025-01-02T03:04:05+00:00" FORMAT="3.0" VERSION="3.0" \
xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
xsi:noNamespaceSchemaLocation="http://www.mpi.nl/tools/elan/EAFv3.0.xsd">
    <HEADER MEDIA_FILE="" TIME_UNITS="milliseconds">
        <PROPERTY NAME="lastUsedAnnotation">{last}</PROPERTY>
    </HEADER>
    <TIME_ORDER>
{slots}
    </TIME_ORDER>
{tiers}
    <LINGUISTIC_TYPE GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="transcription" TIME_ALIGNABLE="true"/>
    <LINGUISTIC_TYPE CONSTRAINTS="Symbolic_Association" GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="code" \
TIME_ALIGNABLE="false"/>
    <LINGUISTIC_TYPE CONSTRAINTS="Included_In" GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="inc" \
TIME_ALIGNABLE="true"/>
    <CONSTRAINT DESCRIPTION="Time alignable annotations within the parent annotation's time interval, gaps are \
allowed" STEREOTYPE="Included_In"/>
    <CONSTRAINT DESCRIPTION="1-1 association with a parent annotation" STEREOTYPE="Symbolic_Association"/>
</ANNOTATION_DOCUMENT>
"""

# (start ms, end ms, value, {symbolic child tier: value}, [(start, end, value) on word@TIER])
Unit = tuple[int, int, str, dict[str, str], list[tuple[int, int, str]]]

REF: dict[str, list[Unit]] = {
    "CHI": [
        (0, 1000, "0.", {"lex@CHI": "0", "vcm@CHI": "N"}, [(100, 400, "w1")]),
        (2000, 3000, "what's that?", {"lex@CHI": "W", "vcm@CHI": "C"}, [(2100, 2500, "w2")]),
        (5000, 6000, "nice colors.", {"lex@CHI": "W", "vcm@CHI": "C"}, []),
    ],
    "FA1": [
        (1000, 2000, "look.", {"xds@FA1": "C"}, []),
        (3500, 4500, "yes.", {"xds@FA1": "A"}, [(4300, 4500, "w3")]),
    ],
    "FA2": [(7000, 8000, "hello there.", {}, [])],  # never reviewed
}
# The trainee's units: other times, one other label; no coding.
TRAINEE: dict[str, list[Unit]] = {
    "CHI": [(0, 1100, "0.", {}, []), (2000, 2800, "what's that?", {}, []), (5200, 6000, "nice colours.", {}, [])],
    "FA1": [(1000, 2000, "look.", {}, []), (3500, 4200, "yes.", {}, []), (6000, 6500, "hm.", {}, [])],
}
# Same tokens as REF's CHI and FA1, other boundaries: "what's that?" split, "look." typed ','.
SPLITTER: dict[str, list[Unit]] = {
    "CHI": [
        (0, 1000, "0.", {}, []),
        (2000, 2500, "what's,", {}, []),
        (2500, 3000, "that?", {}, []),
        (5000, 6000, "nice colors.", {}, []),
    ],
    "FA1": [(1000, 2000, "look,", {}, []), (3500, 4500, "yes.", {}, [])],
}


def _annotation(aid: str, ts1: str, ts2: str, value: str) -> str:
    return (
        f'        <ANNOTATION>\n            <ALIGNABLE_ANNOTATION ANNOTATION_ID="{aid}" TIME_SLOT_REF1="{ts1}" '
        f'TIME_SLOT_REF2="{ts2}">\n                <ANNOTATION_VALUE>{value}</ANNOTATION_VALUE>\n'
        "            </ALIGNABLE_ANNOTATION>\n        </ANNOTATION>"
    )


def _reference(aid: str, parent: str, value: str) -> str:
    return (
        f'        <ANNOTATION>\n            <REF_ANNOTATION ANNOTATION_ID="{aid}" ANNOTATION_REF="{parent}">\n'
        f"                <ANNOTATION_VALUE>{value}</ANNOTATION_VALUE>\n            </REF_ANNOTATION>\n"
        "        </ANNOTATION>"
    )


def _eaf(path: Path, units: dict[str, list[Unit]]) -> Path:
    """An ELAN file: a speaker tier per key (participant = tier id), its Symbolic_Association child
    tiers and an Included_In child ``word@TIER`` where its units have them."""
    slots: list[str] = []
    n = 0

    def slot(ms: int) -> str:
        slots.append(f'        <TIME_SLOT TIME_SLOT_ID="ts{len(slots) + 1}" TIME_VALUE="{ms}"/>')
        return f"ts{len(slots)}"

    body = []
    for tier, us in units.items():
        own: list[str] = []
        children: dict[str, list[str]] = {}
        for s, e, value, kids, words in us:
            n += 1
            parent = f"a{n}"
            own.append(_annotation(parent, slot(s), slot(e), value))
            for child, child_value in kids.items():
                n += 1
                children.setdefault(child, []).append(_reference(f"a{n}", parent, child_value))
            for ws, we, wv in words:
                n += 1
                children.setdefault(f"word@{tier}", []).append(_annotation(f"a{n}", slot(ws), slot(we), wv))
        body.append(
            f'    <TIER LINGUISTIC_TYPE_REF="transcription" PARTICIPANT="{tier}" TIER_ID="{tier}">\n'
            + "\n".join(own)
            + "\n    </TIER>"
        )
        for child, anns in children.items():
            kind = "inc" if child.startswith("word@") else "code"
            body.append(
                f'    <TIER LINGUISTIC_TYPE_REF="{kind}" PARENT_REF="{tier}" PARTICIPANT="{tier}" TIER_ID="{child}">\n'
                + "\n".join(anns)
                + "\n    </TIER>"
            )
    path.write_text(HEAD.format(last=n, slots="\n".join(slots), tiers="\n".join(body)), encoding="utf-8")
    return path


def _tiers(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every tier read by pympi: aligned annotations (start, end, value), symbolic ones (the
    parent's value, value)."""
    eaf = pympi.Elan.Eaf(str(path))
    out: dict[str, list[tuple[Any, ...]]] = {}
    for tier in eaf.get_tier_names():
        if eaf.tiers[tier][1]:
            parents = {aid: v for t in eaf.tiers for aid, (_, _, v, _) in eaf.tiers[t][0].items()}
            out[tier] = sorted((parents[ref], v) for ref, v, _, _ in eaf.tiers[tier][1].values())
        else:
            out[tier] = sorted(eaf.get_annotation_data_for_tier(tier))
    return out


def _children(path: Path, tier: str) -> dict[str, int]:
    """pympi: per annotation value of ``tier``, how many symbolic annotations of other tiers refer to it."""
    eaf = pympi.Elan.Eaf(str(path))
    ids = {aid: v for aid, (_, _, v, _) in eaf.tiers[tier][0].items()}
    count = dict.fromkeys(ids.values(), 0)
    for other in eaf.tiers:
        for ref, _, _, _ in eaf.tiers[other][1].values():
            if ref in ids:
                count[ids[ref]] += 1
    return count


def _cli(args: Sequence[str]) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def time_review(tmp_path: Path) -> Path:
    ref, trainee = _eaf(tmp_path / "ref.eaf", REF), _eaf(tmp_path / "trainee.eaf", TRAINEE)
    book = tmp_path / "review.xlsx"
    _cli(["review", "--time", ref, trainee, "--tier", "CHI", "--tier", "FA1", "-o", book])
    return book


def _decide(book: Path, choose: Callable[[dict[str, Any]], str | None], sheet: str = "Alignment") -> Path:
    wb = openpyxl.load_workbook(book)
    ws = wb[sheet]
    header = [c.value for c in ws[1]]
    col = header.index("decision" if sheet == "Alignment" else OPS_HEADERS["decision"]) + 1
    for r in range(2, ws.max_row + 1):
        ws.cell(r, col).value = choose(dict(zip(header, [c.value for c in ws[r]], strict=False)))
    out = book.with_name("decided.xlsx")
    wb.save(out)
    return out


def test_time_gold_keeping_every_reference_unit_keeps_the_whole_file(time_review: Path) -> None:
    decided = _decide(time_review, lambda row: "ref" if row["ref start"] is not None else "none")
    gold = time_review.with_name("gold.eaf")
    said = _cli(["adjudicate", decided, "-o", gold])
    ref = time_review.with_name("ref.eaf")
    assert _tiers(gold) == _tiers(ref)  # every tier, dependent and not reviewed, value for value
    assert _children(gold, "CHI") == {"0.": 2, "what's that?": 2, "nice colors.": 2}
    assert _children(gold, "FA1") == {"look.": 1, "yes.": 1}
    assert "tier 'CHI': 3 units (from ref 3)" in said and "tier 'FA1': 2 units (from ref 2)" in said
    assert "dependent-" not in said


def test_time_gold_changed_units_keep_the_children_that_fit(time_review: Path) -> None:
    # Groups in time order: CHI 0-1, FA1 look, CHI what's that, FA1 yes, CHI nice colors.
    choices = {0.0: "trainee", 1.0: "none", 2.0: "trainee", 3.5: "trainee", 5.0: "trainee"}
    decided = _decide(time_review, lambda row: choices.get(row["ref start"], "none"))
    gold = time_review.with_name("gold.eaf")
    said = _cli(["adjudicate", decided, "-o", gold])
    tiers = _tiers(gold)
    assert tiers["CHI"] == [(0, 1100, "0."), (2000, 2800, "what's that?"), (5200, 6000, "nice colours .")]
    # Symbolic children follow their unit (new times, or a new label); 'look.' went, and its code.
    assert _children(gold, "CHI") == {"0.": 2, "what's that?": 2, "nice colours .": 2}
    assert _children(gold, "FA1") == {"yes.": 1}
    assert tiers["FA2"] == _tiers(time_review.with_name("ref.eaf"))["FA2"]
    assert tiers["word@CHI"] == [(100, 400, "w1"), (2100, 2500, "w2")]  # still inside their units
    lines = said.splitlines()
    assert "dependent-dropped [tier 'xds@FA1' 1-2 s]: 'C' referred to an annotation of 'FA1'" in said
    assert any(line.startswith("loss: dependent-outside [tier 'word@FA1' 4.3-4.5 s]: 'w3'") for line in lines)
    assert sum(line.startswith("loss: dependent-") for line in lines) == 2  # one line each, nothing else
    assert "groups decided none (no unit written): 2" in said


def test_time_gold_undecided_kept_by_the_rule(time_review: Path) -> None:
    # Only CHI's first group decided (the trainee's); everything else undecided.
    decided = _decide(time_review, lambda row: "trainee" if row["ref start"] == 0 else None)
    gold = time_review.with_name("gold.eaf")
    said = _cli(["adjudicate", decided, "-o", gold])
    tiers = _tiers(gold)
    assert tiers["CHI"] == [(0, 1100, "0."), (2000, 3000, "what's that?"), (5000, 6000, "nice colors.")]
    assert tiers["FA1"] == [(1000, 2000, "look."), (3500, 4500, "yes.")]
    # The trainee's lone 'hm.' is undecided too: no unit of ref there, so none is written.
    assert "undecided groups: 5 (4 kept as ref's unit by --undecided keep-a, 1 without a unit of ref" in said
    assert "tier 'CHI': 3 units (from trainee 1, undecided kept as ref's 2)" in said
    assert "tier 'FA1': 2 units (undecided kept as ref's 2)" in said and "5 gold units" in said
    # The API's keep-a is the command line's.
    import segagree

    by_api = segagree.adjudicate_time(decided, gold.with_name("api.eaf"), undecided="keep-a")
    assert by_api.undecided_kept == 4 and _tiers(gold.with_name("api.eaf")) == tiers
    result = CliRunner().invoke(app, ["adjudicate", str(decided), "-o", str(gold), "--undecided", "error"])
    assert result.exit_code == 1 and "5 undecided groups: 2, 3, 4, 5, 6" in str(result.exception)


def test_time_gold_on_a_units_table_keeps_every_undecided_unit(tmp_path: Path) -> None:
    table = tmp_path / "units.csv"
    rows = [("annotator", "start", "end", "category")]
    for k in range(26):  # 26 units each, the trainee's shifted; 3 groups decided
        rows += [("ref", str(2 * k), str(2 * k + 1), "a"), ("trainee", str(2 * k + 0.2), str(2 * k + 1), "a")]
    with table.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    book = tmp_path / "review.xlsx"
    _cli(["review", "--time", table, "-o", book])
    decided = _decide(book, lambda row: "trainee" if row["ref start"] in (0, 2, 4) else None)
    gold = tmp_path / "gold.csv"
    said = _cli(["adjudicate", decided, "-o", gold])
    with gold.open(newline="", encoding="utf-8") as f:
        kept = [r for r in csv.DictReader(f)]
    assert len(kept) == 26 and {r["annotator"] for r in kept} == {"ref"}
    assert sorted(float(r["start"]) for r in kept)[:4] == [0.2, 2.2, 4.2, 6.0]
    assert "undecided groups: 23 (23 kept as ref's unit by --undecided keep-a)" in said
    assert "and 3 more" in said  # 20 named, the rest counted
    assert "26 gold units" in said and "the reviewed speakers' rows holding these units" in said


def test_time_gold_as_textgrid_keeps_the_tier_not_reviewed(time_review: Path) -> None:
    decided = _decide(time_review, lambda row: "ref" if row["ref start"] is not None else "none")
    gold = time_review.with_name("gold.TextGrid")
    said = _cli(["adjudicate", decided, "-o", gold])
    grid = textgrid.openTextgrid(str(gold), includeEmptyIntervals=False)
    assert [(e.start, e.end) for e in grid.getTier("FA2").entries] == [(7.0, 8.0)]
    assert len(grid.getTier("CHI").entries) == 3 and len(grid.getTier("FA1").entries) == 2
    assert "tier-ignored [tier 'lex@CHI']" in said and "lossless" not in said  # the coding said, not kept


@pytest.fixture
def text_review(tmp_path: Path) -> Path:
    ref, other = _eaf(tmp_path / "ref.eaf", REF), _eaf(tmp_path / "other.eaf", SPLITTER)
    book = tmp_path / "text.xlsx"
    _cli(["review", ref, other, "--common-speakers", "-o", book])
    return book


def test_text_gold_keeping_a_is_a_itself(text_review: Path) -> None:
    decided = _decide(text_review, lambda row: "A", sheet="Operations")
    gold = text_review.with_name("gold.eaf")
    said = _cli(["adjudicate", decided, "-o", gold])
    ref = text_review.with_name("ref.eaf")
    assert _tiers(gold) == _tiers(ref) and gold.read_bytes() == ref.read_bytes()
    assert "with only the changed units edited" in said and "lossless" in said


def test_text_gold_edits_only_the_changed_units(text_review: Path) -> None:
    decided = _decide(text_review, lambda row: "B", sheet="Operations")
    gold = text_review.with_name("gold.eaf")
    said = _cli(["adjudicate", decided, "-o", gold])
    tiers, ref = _tiers(gold), _tiers(text_review.with_name("ref.eaf"))
    # The split unit continues 'what's that?' (its codes stay), its second half is new; the
    # retyped 'look' keeps its code; the kept units as the annotator spelled them.
    assert tiers["CHI"] == [
        (0, 1000, "0."),
        (2000, 2500, "what's ,"),
        (2500, 3000, "that ?"),
        (5000, 6000, "nice colors."),
    ]
    assert _children(gold, "CHI") == {"0.": 2, "what's ,": 2, "that ?": 0, "nice colors.": 2}
    assert _children(gold, "FA1") == {"look ,": 1, "yes.": 1}
    for tier in ("FA2", "word@CHI", "word@FA1", "lex@CHI"):
        assert len(tiers[tier]) == len(ref[tier]), tier
    assert "dependent-" not in said
    assert "tier 'CHI': 4 units (2 kept as written, 1 changed, 1 new)" in said
    assert "tier 'FA2': 1 unit (1 kept as written)" in said


def test_untimed_text_gold_as_textgrid_says_what_was_done(tmp_path: Path) -> None:
    from conftest import REPO

    folder = tmp_path / "texts"
    folder.mkdir()
    for name in ("ann1", "ann2"):
        (folder / f"garden.{name}.txt").write_bytes((REPO / "sample_corpora" / f"garden.{name}.txt").read_bytes())
    book = tmp_path / "garden.xlsx"
    _cli(["review", folder / "garden.ann1.txt", folder / "garden.ann2.txt", "-o", book])
    said = _cli(["adjudicate", book, "-o", tmp_path / "gold.TextGrid"])
    assert "every unit was given 1 s in discourse order (no unit has a time)" in said
    assert "interpolated" not in said


def _grid(path: Path, tiers: list[tuple[str, str, list[Any]]], xmax: float = 10) -> Path:
    """A long-form TextGrid: interval tiers (gaps as empty intervals) and point tiers."""
    out = ['File type = "ooTextFile"', 'Object class = "TextGrid"', "", "xmin = 0", f"xmax = {xmax}"]
    out += ["tiers? <exists>", f"size = {len(tiers)}", "item []:"]
    for k, (name, kind, items) in enumerate(tiers, 1):
        out += [f"    item [{k}]:", f'        class = "{kind}"', f'        name = "{name}"', "        xmin = 0"]
        out.append(f"        xmax = {xmax}")
        if kind == "IntervalTier":
            cells, t = [], 0.0
            for a, b, x in [*items, (xmax, xmax, "")]:
                if a > t:
                    cells.append((t, a, ""))
                if b > a:
                    cells.append((a, b, x))
                t = b
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


def test_text_gold_in_textgrid_keeps_pauses_point_tiers_and_spellings(tmp_path: Path) -> None:
    a = _grid(
        tmp_path / "a.TextGrid",
        [
            ("CHI", "IntervalTier", [(0, 1, "0."), (1.2, 1.5, "sil"), (2, 3, "what's that?"), (5, 6, "nice colors.")]),
            ("FA1", "IntervalTier", [(1, 2, "look."), (3.5, 4.5, "yes.")]),
            ("events", "TextTier", [(0.5, "laugh")]),
        ],
    )
    b = _grid(
        tmp_path / "b.TextGrid",
        [
            ("CHI", "IntervalTier", [(0, 1, "0."), (2, 2.5, "what's,"), (2.5, 3, "that?"), (5, 6, "nice colors.")]),
            ("FA1", "IntervalTier", [(1, 2, "look,"), (3.5, 4.5, "yes.")]),
        ],
    )
    book = tmp_path / "tg.xlsx"
    _cli(["review", a, b, "-o", book, "--no-kappa"])
    gold = tmp_path / "gold.TextGrid"
    _cli(["adjudicate", _decide(book, lambda row: "B", sheet="Operations"), "-o", gold])
    grid = textgrid.openTextgrid(str(gold), includeEmptyIntervals=False)

    def entries(tier: str) -> list[tuple[Any, ...]]:
        return [tuple(e) for e in grid.getTier(tier).entries]

    # B's boundaries, the unchanged units and the pause as written, new ones spelled as the file does.
    assert entries("CHI") == [
        (0, 1, "0."),
        (1.2, 1.5, "sil"),
        (2, 2.5, "what's,"),
        (2.5, 3, "that?"),
        (5, 6, "nice colors."),
    ]
    assert entries("FA1") == [(1, 2, "look,"), (3.5, 4.5, "yes.")]
    assert entries("events") == [(0.5, "laugh")] and (grid.minTimestamp, grid.maxTimestamp) == (0, 10)


def test_time_gold_keeps_the_units_the_review_did_not_hold(tmp_path: Path) -> None:
    # A pause label is no unit of the review: the gold keeps it where no gold unit overlaps it.
    units = {**REF, "CHI": [*REF["CHI"], (3200, 3400, "sil", {"lex@CHI": "P"}, [])]}
    ref, trainee = _eaf(tmp_path / "ref.eaf", units), _eaf(tmp_path / "trainee.eaf", TRAINEE)
    book = tmp_path / "review.xlsx"
    _cli(["review", "--time", ref, trainee, "--tier", "CHI", "--tier", "FA1", "-o", book])
    decided = _decide(book, lambda row: "ref" if row["ref start"] is not None else "none")
    gold = tmp_path / "gold.eaf"
    said = _cli(["adjudicate", decided, "-o", gold])
    assert (3200, 3400, "sil") in _tiers(gold)["CHI"] and _tiers(gold) == _tiers(ref)
    assert "unit-dropped" not in said


def test_time_gold_in_textgrid_keeps_pauses_and_lists_those_under_a_gold_unit(tmp_path: Path) -> None:
    ref = _grid(tmp_path / "ref.TextGrid", [("arms", "IntervalTier", [(0, 2, "up."), (2, 3, "sil"), (5, 6, "sil")])])
    other = _grid(tmp_path / "other.TextGrid", [("arms", "IntervalTier", [(0, 2, "up."), (4.5, 5.5, "down.")])])
    book = tmp_path / "review.xlsx"
    _cli(["review", "--time", ref, other, "-o", book])
    decided = _decide(book, lambda row: "ref" if row["ref start"] is not None else "other")
    gold = tmp_path / "gold.TextGrid"
    said = _cli(["adjudicate", decided, "-o", gold])
    grid = textgrid.openTextgrid(str(gold), includeEmptyIntervals=False)
    # The first pause stays; the second lies under the chosen 4.5-5.5 s unit, and is said.
    assert [tuple(e) for e in grid.getTier("arms").entries] == [(0, 2, "up."), (2, 3, "sil"), (4.5, 5.5, "down .")]
    assert "unit-dropped [tier 'arms' 5-6 s]: 'sil' was not in the review and overlaps a gold unit" in said


def test_an_annotator_named_gold_is_not_taken_for_the_edit_columns(tmp_path: Path) -> None:
    # gold.eaf's columns are 'gold start', 'gold end', 'gold category', like the edit's.
    ref, trainee = _eaf(tmp_path / "gold.eaf", REF), _eaf(tmp_path / "trainee.eaf", TRAINEE)
    book = tmp_path / "review.xlsx"
    _cli(["review", "--time", ref, trainee, "--tier", "CHI", "--tier", "FA1", "-o", book])
    wb = openpyxl.load_workbook(book)
    ws = wb["Alignment"]
    header = [c.value for c in ws[1]]
    edit = [i + 1 for i, h in enumerate(header) if h in ("gold start", "gold end")][2:]  # the edit's two
    for r in range(2, ws.max_row + 1):
        first = ws.cell(r, header.index("gold start") + 1).value
        ws.cell(r, header.index("decision") + 1).value = (
            "edit" if first == 0 else "gold" if first is not None else "none"
        )
    ws.cell(2, edit[0]).value, ws.cell(2, edit[1]).value = 0.05, 0.95
    wb.save(book)
    gold = tmp_path / "out.eaf"
    _cli(["adjudicate", book, "-o", gold])
    assert _tiers(gold)["CHI"][0][:2] == (50, 950)  # the edit's times, on gold's own annotation
    assert _children(gold, "CHI") == {"0.": 2, "what's that?": 2, "nice colors.": 2}  # label unchanged: as written


def test_text_gold_keeps_the_annotations_the_reader_skipped(tmp_path: Path) -> None:
    # A blank annotation and an endnote-only one (with a code) are no units: a changed tier keeps them.
    units = {**REF, "CHI": [*REF["CHI"], (3300, 3600, "", {}, []), (3700, 3900, ".", {"lex@CHI": "E"}, [])]}
    ref, other = _eaf(tmp_path / "ref.eaf", units), _eaf(tmp_path / "other.eaf", SPLITTER)
    book = tmp_path / "text.xlsx"
    _cli(["review", ref, other, "--common-speakers", "-o", book, "--no-kappa"])
    gold = tmp_path / "gold.eaf"
    _cli(["adjudicate", _decide(book, lambda row: "B", sheet="Operations"), "-o", gold])
    chi = _tiers(gold)["CHI"]
    assert (3300, 3600, "") in chi and (3700, 3900, ".") in chi and len(chi) == 6
    assert _children(gold, "CHI")["."] == 1


def test_a_gold_of_several_tiers_never_overwrites_a(text_review: Path) -> None:
    ref = text_review.with_name("ref.eaf")
    before = ref.read_bytes()
    decided = _decide(text_review, lambda row: "B", sheet="Operations")  # two tiers change
    result = CliRunner().invoke(app, ["adjudicate", str(decided), "-o", str(ref)])
    assert result.exit_code == 1 and "refusing to overwrite" in str(result.exception)
    assert ref.read_bytes() == before and not list(ref.parent.glob(".segagree-gold-*"))
