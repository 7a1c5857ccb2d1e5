"""CHAT -> ELAN -> CHAT: main tiers as written (terminators, CHAT marks), %-tiers as ``mor@CHI``
Symbolic_Association tiers, overlapping utterances listed, and the CHAT file given back; checked with
pympi (the ELAN side) and pylangacq (the CHAT side)."""

from __future__ import annotations

from pathlib import Path

import pytest

from segagree.formats import read_document, write_document

from conftest import shared_path

CHAT = (
    "@UTF8\n@Begin\n@Languages:\teng\n"
    "@Participants:\tCHI Lily Target_Child, MOT Mother, FAT Father\n"
    "@ID:\teng|x|CHI|||||Target_Child|||\n@ID:\teng|x|MOT|||||Mother|||\n@ID:\teng|x|FAT|||||Father|||\n"
    "*CHI:\tlook at that ! \x151000_2000\x15\n"
    "%mor:\tv|look prep|at pro:dem|that !\n"
    "%gra:\t1|0|ROOT 2|1|JCT 3|2|POBJ 4|1|PUNCT\n"
    "@Comment:\tthe ball rolls away\n"
    "*MOT:\t+< what's that [?] ? \x151500_2500\x15\n"
    "*CHI:\ta ball . \x152200_3000\x15\n"
    "*CHI:\tbig ball . \x152600_3400\x15\n"
    "%com:\toverlaps her own utterance\n"
    "*MOT:\tyes .\n"
    "@End\n"
)


@pytest.fixture
def chat_file(tmp_path: Path) -> Path:
    path = tmp_path / "play.cha"
    path.write_text(CHAT, encoding="utf-8")
    return path


def test_chat_to_elan_keeps_main_tiers_and_dependent_tiers(chat_file: Path, tmp_path: Path) -> None:
    pympi = pytest.importorskip("pympi")
    eaf_path = tmp_path / "play.eaf"
    losses = write_document(read_document(chat_file), eaf_path)
    eaf = pympi.Elan.Eaf(str(eaf_path))
    values = {v for t in ("CHI", "MOT", "CHI (2)") for _, _, v in eaf.get_annotation_data_for_tier(t)}
    assert {"look at that !", "+< what's that [?] ?", "a ball .", "big ball ."} <= values
    assert eaf.get_parameters_for_tier("mor@CHI")["PARENT_REF"] == "CHI"
    assert eaf.linguistic_types[eaf.get_parameters_for_tier("mor@CHI")["LINGUISTIC_TYPE_REF"]]["CONSTRAINTS"] == (
        "Symbolic_Association"
    )
    mor = eaf.get_ref_annotation_data_for_tier("mor@CHI")
    assert [(s, e, v) for s, e, v, _ in mor] == [(1000, 2000, "v|look prep|at pro:dem|that !")]
    assert [v for *_, v, _ in eaf.get_ref_annotation_data_for_tier("com@CHI (2)")] == ["overlaps her own utterance"]
    assert eaf.get_parameters_for_tier("CHI")["PARTICIPANT"] == "Lily"
    moved = [x for x in losses.losses if x.kind == "units-moved"]
    assert len(moved) == 1 and moved[0].count == 1 and "Lily 2.6-3.4 s on 'CHI (2)'" in (moved[0].where or "")
    assert not any(x.kind == "meta-dropped" for x in losses.losses), losses.lines()


def test_chat_elan_chat_gives_the_file_back(chat_file: Path, tmp_path: Path) -> None:
    pylangacq = pytest.importorskip("pylangacq")
    eaf_path, back = tmp_path / "play.eaf", tmp_path / "back.cha"
    write_document(read_document(chat_file), eaf_path)
    doc = read_document(eaf_path)
    assert doc.speakers == ["Lily", "MOT", "FAT"]  # the silent father too
    write_document(doc, back)
    assert back.read_bytes() == chat_file.read_bytes()
    ours, theirs = pylangacq.read_chat(str(chat_file)), pylangacq.read_chat(str(back))
    assert [u.participant for u in theirs.utterances()] == [u.participant for u in ours.utterances()]
    assert theirs.words() == ours.words()
    assert [u.tiers for u in theirs.utterances()] == [u.tiers for u in ours.utterances()]


def test_a_changed_utterance_is_written_from_its_tokens(chat_file: Path, tmp_path: Path) -> None:
    pympi = pytest.importorskip("pympi")
    doc = read_document(chat_file)
    first = next(iter(doc.units()))
    doc.tokens.loc[first.rows[0], "text"] = "see"  # as a decision would: the words changed
    losses = write_document(doc, tmp_path / "changed.eaf")
    eaf = pympi.Elan.Eaf(str(tmp_path / "changed.eaf"))
    assert "see at that ." in [v for _, _, v in eaf.get_annotation_data_for_tier("CHI")]
    assert "mor@CHI" not in eaf.get_tier_names()
    assert [x.count for x in losses.losses if x.kind == "dependent-tiers-dropped"] == [1]


def test_a_value_edited_in_elan_is_read_as_edited(chat_file: Path, tmp_path: Path) -> None:
    eaf_path = tmp_path / "play.eaf"
    write_document(read_document(chat_file), eaf_path)
    text = eaf_path.read_text(encoding="utf-8")
    eaf_path.write_text(text.replace(">big ball .<", ">big ball ?<"), encoding="utf-8")
    write_document(read_document(eaf_path), tmp_path / "back.cha")
    back = (tmp_path / "back.cha").read_text(encoding="utf-8")
    assert "*CHI:\tbig ball ? \x152600_3400\x15\n%com:\toverlaps her own utterance\n" in back


@pytest.mark.parametrize(
    "name",
    ["teicorpo_TestDNF4.cha", "cabnc_KBK_2-manual.cha", "teicorpo_064.cha", "sbcsae_02.cha"],
)
def test_real_chat_files_come_back_byte_for_byte(name: str, tmp_path: Path) -> None:
    """Overlap marks and +< (DNF4), CA marks over continuation lines with bullets (CABNC), %mor and
    %gra over several lines (064), SBCSAE's one intonation unit per line with a silent participant."""
    source = shared_path("corpora", "chat", name)
    write_document(read_document(source), tmp_path / "x.eaf")
    write_document(read_document(tmp_path / "x.eaf"), tmp_path / name)
    assert (tmp_path / name).read_bytes() == source.read_bytes()


@pytest.mark.parametrize("name", ["teicorpo_short.cha", "teicorpo_064.cha"])
def test_dependent_tiers_are_those_of_pylangacqs_conversion(name: str, tmp_path: Path) -> None:
    """pylangacq's own CHAT-to-ELAN conversion (``to_elan``) as the reference: the same ``mor@CHI``
    tiers holding the same values (its output carries CHAT's bullet bytes, which XML cannot hold:
    they are removed before pympi parses it)."""
    import re

    pylangacq = pytest.importorskip("pylangacq")
    pympi = pytest.importorskip("pympi")
    source = shared_path("corpora", "chat", name)
    ref_path, ours_path = tmp_path / "ref.eaf", tmp_path / "ours.eaf"
    text = pylangacq.read_chat(str(source), strict=False).to_elan_strs()[0]
    ref_path.write_text(re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f]", "", text), encoding="utf-8")
    write_document(read_document(source), ours_path)
    ref, ours = pympi.Elan.Eaf(str(ref_path)), pympi.Elan.Eaf(str(ours_path))

    def dependents(eaf: object) -> dict[str, list[str]]:
        tiers = [t for t in eaf.get_tier_names() if "@" in t]  # type: ignore[attr-defined]
        data = eaf.get_ref_annotation_data_for_tier  # type: ignore[attr-defined]
        return {t: sorted(" ".join(v.split()) for *_, v, _ in data(t)) for t in tiers}

    assert dependents(ours) == dependents(ref) != {}
