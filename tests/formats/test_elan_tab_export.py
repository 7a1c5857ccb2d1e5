"""ELAN's tab-delimited exports: recognised by their columns (with and without a header), read as
tiers of timed units, refused when their columns cannot be told apart; ``--from tsv`` means tabs."""

from __future__ import annotations

import pytest

from segagree.errors import InputError
from segagree.formats import read_document
from segagree.formats.elan.tab_export import export_shape, is_elan_export

from conftest import shared_path


def units(doc):
    """(speaker, start, end, words, endnote) of every unit, in discourse order."""
    text, starts, ends = doc.column("text"), doc.column("start"), doc.column("end")
    scheme = doc.layer().scheme
    return [
        (
            u.speaker,
            round(float(starts[u.rows[0]]), 3),
            round(float(ends[u.rows[-1]]), 3),
            " ".join(str(text[r]) for r in u.rows),
            scheme.symbol(u.boundary) if u.boundary else "",
        )
        for u in doc.units()
    ]


# What ELAN's default export writes (tier, participant, begin/end/duration in msec, value; no header).
DEFAULT_EXPORT = (
    "CHI\tCHI\t120077\t121000\t923\twhat's that?\n"
    "CHI\tCHI\t122000\t123500\t1500\t0.\n"
    "FA1\t\t120500\t122100\t1600\tnice colors.\n"
    "FA1\t\t123000\t124000\t1000\t\n"
)


@pytest.mark.parametrize("name", ["export.txt", "export.tsv"])
def test_default_export_is_read_as_tiers_with_times(tmp_path, name):
    path = tmp_path / name
    path.write_text(DEFAULT_EXPORT, encoding="utf-8")
    doc = read_document(path)
    assert doc.speakers == ["CHI", "FA1"]
    assert units(doc) == [
        ("CHI", 120.077, 121.0, "what's that", "?"),
        ("FA1", 120.5, 122.1, "nice colors", "."),
        ("CHI", 122.0, 123.5, "0", "."),
    ]
    kinds = {item.kind for item in [*doc.losses.losses, *doc.losses.notes]}
    assert {"read-as-elan-export", "annotations-blank"} <= kinds
    assert doc.meta["unit_tier_attrs"]["FA1"]["PARTICIPANT"] is None
    assert doc.meta["unit_tier_attrs"]["CHI"]["PARTICIPANT"] == "CHI"


def test_dependent_tiers_of_the_export_are_listed_not_read(tmp_path):
    path = tmp_path / "aclew.txt"
    path.write_text(DEFAULT_EXPORT + "vcm@CHI\tCHI\t120077\t121000\t923\tC\nxds@FA1\t\t120500\t122100\t1600\tT\n")
    doc = read_document(path)
    assert doc.speakers == ["CHI", "FA1"] and len(units(doc)) == 3
    ignored = sorted((x.where, x.count) for x in doc.losses.losses if x.kind == "tier-ignored")
    assert ignored == [("tier 'vcm@CHI'", 1), ("tier 'xds@FA1'", 1)]


def test_every_time_format_and_no_participant_column(tmp_path):
    # tier, then begin/end/duration each as hh:mm:ss.ms, ss.msec, msec (ELAN's order), then the value
    row = "A\t00:00:01.500\t1.5\t1500\t00:00:02.250\t2.25\t2250\t00:00:00.750\t0.75\t750\tso I went ,\n"
    path = tmp_path / "all.txt"
    path.write_text(row + row.replace("A\t", "B\t", 1), encoding="utf-8")
    doc = read_document(path)
    assert units(doc) == [("A", 1.5, 2.25, "so I went", ","), ("B", 1.5, 2.25, "so I went", ",")]


def test_column_per_tier_export_with_header(tmp_path):
    path = tmp_path / "cols.txt"
    path.write_text(
        "Begin Time - msec\tEnd Time - msec\tDuration - msec\tKIM\tLEE\n"
        "1000\t2000\t1000\thello .\t\n"
        "1500\t2500\t1000\t\thi there ?\n",
        encoding="utf-8",
    )
    assert units(read_document(path)) == [("KIM", 1.0, 2.0, "hello", "."), ("LEE", 1.5, 2.5, "hi there", "?")]


def test_header_naming_tier_and_annotation_columns(tmp_path):
    path = tmp_path / "named.tsv"
    path.write_text(
        "Tier\tBegin Time - ss.msec\tDuration - ss.msec\tAnnotation\nKIM\t1.0\t0.5\tyes .\n", encoding="utf-8"
    )
    assert units(read_document(path)) == [("KIM", 1.0, 1.5, "yes", ".")]


def test_header_in_another_language_is_a_row_that_does_not_fit(tmp_path):
    path = tmp_path / "de.txt"
    path.write_text("Spur\tSprecher\tBeginn\tEnde\tDauer\tAnnotation\n" + DEFAULT_EXPORT, encoding="utf-8")
    assert len(units(read_document(path))) == 3


def test_tab_inside_a_value_stays_in_the_value(tmp_path):
    path = tmp_path / "tab.txt"
    path.write_text("A\t\t0\t1000\t1000\tone\ttwo .\n", encoding="utf-8")
    assert units(read_document(path)) == [("A", 0.0, 1.0, "one two", ".")]


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ("A\tA\t5000\t300\tyes .\n", "ends"),  # begin + duration, or end + duration: cannot be told apart
        ("A\t00:00:01:12\t00:00:02:00\tyes .\n", "SMPTE"),
        ("A\t1000\t2000\t500\tyes .\n", "duration"),  # a third time that is no duration
        ("A\t1000\t2000\t1000\tyes\x00 .\n", "NUL"),
    ],
)
def test_ambiguous_or_unreadable_exports_are_refused(tmp_path, content, why):
    path = tmp_path / "bad.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=why) as err:
        read_document(path)
    assert "bad.txt" in str(err.value)


def test_du_bois_transcripts_and_tables_are_not_taken_for_exports(tmp_path):
    dubois = tmp_path / "t.txt"
    dubois.write_text("JOE:\tso I went ,\n\t12 and they said no .\nMARY:\treally ?\n", encoding="utf-8")
    assert read_document(dubois).speakers == ["JOE", "MARY"]
    table = tmp_path / "t.csv"
    table.write_text("Speaker,Utterance,Start,End\nA,so .,0.5,1.0\nB,no .,1.0,2.0\n", encoding="utf-8")
    assert read_document(table).speakers == ["A", "B"]
    pygamma = tmp_path / "p.csv"
    pygamma.write_text("kim,x,0.5,1.0\nlee,x,0.6,1.0\n", encoding="utf-8")
    assert export_shape([r.split(",") for r in pygamma.read_text().splitlines()]) is None
    assert not is_elan_export(pygamma)


def test_from_tsv_means_tabs_whatever_the_extension(tmp_path):
    path = tmp_path / "units.dat"
    path.write_text("Speaker\tUtterance\nA\tso, then .\n", encoding="utf-8")
    doc = read_document(path, "tsv")
    assert [(u[0], u[3], u[4]) for u in units(doc)] == [("A", "so, then", ".")]
    with pytest.raises(InputError, match="Speaker"):
        read_document(path, "csv")  # a comma: one column 'Speaker\tUtterance'


def test_export_of_a_real_eaf_reads_as_pympi_reads_the_eaf(tmp_path):
    """The rows ELAN's exporter writes for every top-level tier, read back: the units are pympi's annotations."""
    pympi = pytest.importorskip("pympi")
    source = shared_path("corpora", "eaf", "teicorpo_DOC_FR_2020_CHOIX_5.eaf")
    eaf = pympi.Elan.Eaf(str(source))
    lines, expected = [], []
    for tier in eaf.get_tier_names():
        if eaf.tiers[tier][2].get("PARENT_REF"):
            continue
        participant = eaf.tiers[tier][2].get("PARTICIPANT", "")
        for begin, end, value in eaf.get_annotation_data_for_tier(tier):
            value = value.replace("\n", " ")
            lines.append(f"{tier}\t{participant}\t{begin}\t{end}\t{end - begin}\t{value}")
            if value.split():
                expected.append((tier, begin / 1000, end / 1000))
    path = tmp_path / "choix.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    doc = read_document(path)
    got = sorted((u[0], u[1], u[2]) for u in units(doc))
    dropped = len(doc.meta.get("dropped_units", [])) + sum(
        item.count or 0 for item in doc.losses.losses if item.kind == "units-dropped"
    )
    assert len(got) + dropped == len(expected)
    assert set(got) <= set(expected)


def test_media_lines_and_a_file_name_column_of_a_multi_file_export(tmp_path):
    path = tmp_path / "many.txt"
    rows = "".join(line.rstrip("\n") + "\tsession1.eaf\n" for line in DEFAULT_EXPORT.splitlines(keepends=True))
    path.write_text('"#file:///data/session1.wav -- offset: 0"\n\n' + rows, encoding="utf-8")
    doc = read_document(path)
    assert [u[3] for u in units(doc)] == ["what's that", "nice colors", "0"]
    assert any(item.kind == "columns-ignored" for item in doc.losses.notes)
