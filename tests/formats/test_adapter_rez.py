"""Rezonator .rez reader: the seven real files (facts checked by hand in the raw JSON) and
small synthetic files for the version differences, endnote rules and errors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from segagree.errors import InputError
from segagree.formats import rez
from segagree.model import builtin_scheme

from conftest import shared_path

DUBOIS = builtin_scheme("dubois")


def _read(path: Path, scheme=DUBOIS):
    return rez.read(path, scheme=scheme)


def _units(doc, layer="iu"):
    return [(u.speaker, toks, DUBOIS.symbol(u.boundary)) for u, toks in doc.iter_unit_texts(layer)]


# --- the real files ---------------------------------------------------------------------

# file: (version, speakers in order with unit counts, units, model tokens, first unit,
#        last unit, turn boundaries). Counts come from walking unitList/entryList by hand.
DAWA = "ཟླ་བ་"
DRON = "ཟླ་སྒྲོན་"
PHUR = "ཕུར་སྒྲོན་"
LIB = "དཔེ་མཛོད་དོ་དམ་པ་"
STU = "སློབ་ཕྲུག་"
REAL: dict[str, dict[str, Any]] = {
    "Stack_2.rez": {
        "version": "Version 0.20.2",
        "speakers": {DAWA: 2},
        "tokens": 9,
        "first": ["ཁྱེད་རང་", "གི་", "ཨ་མ་", "ལགས་", "ཀྱིས་"],
        "last": ["ག་རེ་", "གསུང་", "གི་", "འདུག"],
        "turns": 1,
        "first_times": (12.863690098924387, 13.398601501470743),
    },
    "parting.rez": {
        "version": "Version 0.17.0",
        "speakers": {DAWA: 21, DRON: 32},
        "tokens": 214,
        "first": ["ཨོའོ་", "་་།"],
        "last": ["ལགས་སོ"],
        "turns": 22,
        # 0.17: unitStart/unitEnd are "", the times come from tagMap iuStart/iuEnd.
        "first_times": (6.652866433481221, 6.815307849363541),
    },
    "parting_0.20.rez": {
        "version": "Version 0.20.0",
        "speakers": {DAWA: 21, DRON: 32},
        "tokens": 216,
        "first": ["ཨོའོ་", "་་།"],
        "last": ["ལགས་སོ"],
        "turns": 22,
        "first_times": (6.652866433481221, 6.815307849363541),
    },
    "parting_0.20.1.rez": {
        "version": "Version 0.20.3",
        "speakers": {DAWA: 21, DRON: 32},
        "tokens": 216,
        "first": ["ཨོའོ་", "་་།"],
        "last": ["ལགས་སོ"],
        "turns": 22,
        "first_times": (6.652866433481221, 6.815307849363541),
    },
    "three-flirt-2501.rez": {
        "version": "Version 0.20.5",
        "speakers": {DAWA: 29, PHUR: 21},
        "tokens": 207,  # 216 token nodes, 9 of them with neither text nor transcript
        "first": ["འོ", "།"],
        "last": ["འོང་", "<0>", "ཡག་", "བྱུང་", "།"],
        "turns": 28,
        "first_times": (6.817917649959493, 7.032685561658884),
    },
    "virginia-library-20766.rez": {
        "version": "Version 1.0.8",
        "speakers": {LIB: 135, STU: 79},
        "tokens": 952,
        "first": ["བཀྲ་-"],
        "last": ["ལགས་སོ", "།"],
        "turns": 76,
        "first_times": (5.532554479070837, 5.980641568813395),
    },
    "sbc018.rez": {
        "version": "Version 1.1.6",
        "speakers": {
            "MARCIA": 242,
            "LINDSEY": 173,
            "KRISTEN": 114,
            ">ENV": 3,
            "TRENT": 4,
            "HEIDI": 29,
            ">CAT": 1,
        },
        "tokens": 2281,  # 2813 token nodes minus 532 endnote tokens
        "first": ["They", "might", "not", "actually", "be"],
        "last": ["Want", "one", "of", "these"],
        "turns": 197,
        "first_times": (0.25, 1.045),
    },
}


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_file_facts(name: str) -> None:
    facts = REAL[name]
    doc = _read(shared_path("corpora", "rez", name))
    units = _units(doc)
    assert doc.source_format == "rez"
    assert doc.meta["rezonator_version"] == facts["version"]
    assert doc.speakers == list(facts["speakers"])
    assert Counter(s for s, _, _ in units) == Counter(facts["speakers"])
    assert len(units) == sum(facts["speakers"].values())
    assert doc.n_tokens == facts["tokens"]
    assert units[0][1] == facts["first"]
    assert units[-1][1] == facts["last"]
    assert int((doc.layer("turn").boundaries > 0).sum()) == facts["turns"]
    first_rows = doc.units("iu")[0].rows
    start, end = facts["first_times"]
    assert doc.tokens["start"][first_rows[0]] == pytest.approx(start)
    assert doc.tokens["end"][first_rows[-1]] == pytest.approx(end)
    assert doc.tokens["start"].notna().sum() == len(units)  # unit times only, no word times
    assert doc.meta["dropped_units"] == []
    doc.validate()


@pytest.mark.parametrize("name", sorted(set(REAL) - {"sbc018.rez"}))
def test_tibetan_files_have_no_endnotes(name: str) -> None:
    doc = _read(shared_path("corpora", "rez", name))
    b = doc.layer("iu").boundaries
    assert set(b[b > 0].tolist()) == {DUBOIS.unclassified_code}
    assert "endnote_raw" not in doc.tokens.columns
    assert doc.tokens["transcript"].iloc[0] != ""  # wordWylie is the transcript field


def test_sbc018_endnotes_and_columns() -> None:
    doc = _read(shared_path("corpora", "rez", "sbc018.rez"))
    codes = Counter(DUBOIS.symbol(c) for c in doc.layer("iu").boundaries if c)
    # 273 continuing, 188 final, 37 appeal, 31 break; 34 units without an endnote + 3 suspended.
    assert codes == {",": 273, ".": 188, "?": 37, "--": 31, ";": 37}
    units = doc.units("iu")
    raw = doc.tokens["endnote_raw"].to_numpy()
    by_raw = Counter(str(raw[u.rows[-1]]) for u in units)
    assert by_raw == {
        "continuing": 273,
        "final": 188,
        "appeal": 37,
        "break": 31,
        "suspended": 3,
        "": 34,
    }
    # Endnote tokens are boundaries, never words.
    assert not set(doc.tokens["text"]) & {",", ".", "?", "—"}
    assert set(doc.tokens["kind"]) == {"word", "pause", "vocalism", "action", "laugh", "startnote", "anno"}
    # A startnote (empty text, transcript "&") becomes the token "&".
    starts = doc.tokens[doc.tokens["kind"] == "startnote"]
    assert len(starts) == 3 and set(starts["text"]) == {"&"}
    first = doc.tokens.iloc[0]
    assert (first["speaker"], first["text"], first["transcript"]) == ("MARCIA", "They", "They")
    assert doc.meta["speaker_labels"]["MARCIA"] == ["MARCIA;"]
    assert doc.meta["speaker_labels"][">ENV"] == [">ENV;"]
    # The third unit ends in a break (truncated IU), the fourth is final.
    assert [DUBOIS.symbol(u.boundary) for u in units[:6]] == [",", ",", "--", ".", ",", "?"]
    assert units[2].rows and doc.tokens["text"][units[2].rows[-1]] == "barn–"


def test_sbc018_turns_follow_turn_seq() -> None:
    doc = _read(shared_path("corpora", "rez", "sbc018.rez"))
    turn = doc.layer("turn")
    assert turn.scheme == builtin_scheme("turn")
    # Units 1-4 are MARCIA's turn 1: one turn boundary, after "yet" (unit 4).
    units = doc.units("iu")
    ends = [int(turn.boundaries[u.rows[-1]]) for u in units[:5]]
    assert ends == [0, 0, 0, 1, 0]
    # Every turn boundary is at the end of a unit, and every speaker's stream ends a turn.
    unit_ends = {u.rows[-1] for u in units}
    assert set(np.flatnonzero(turn.boundaries).tolist()) <= unit_ends
    for arr in doc.boundary_arrays("turn").values():
        assert arr[-1] != 0


def test_file_without_trailing_nul_reads_the_same(tmp_path: Path) -> None:
    src = shared_path("corpora", "rez", "sbc018.rez")
    data = json.loads(src.read_bytes().rstrip(b"\x00"))
    pretty = tmp_path / "sbc018_beautified.rez"
    pretty.write_text(json.dumps(data, indent="\t", ensure_ascii=False), encoding="utf-8")
    a, b = _read(src), _read(pretty)
    assert a.differences(b) == []
    assert a.tokens["transcript"].tolist() == b.tokens["transcript"].tolist()


def test_truncated_json_is_a_one_line_error(tmp_path: Path) -> None:
    src = shared_path("corpora", "rez", "parting.rez")
    cut = tmp_path / "cut.rez"
    cut.write_bytes(src.read_bytes()[:5000])
    with pytest.raises(InputError) as info:
        _read(cut)
    msg = str(info.value)
    assert "\n" not in msg
    assert str(cut) in msg and "invalid JSON" in msg
    assert "line " in msg and "column " in msg


# --- synthetic files -------------------------------------------------------------------


def make_rez(
    path: Path,
    units: list[dict[str, Any]],
    *,
    old: bool = False,
    turn_field: str | None = None,
    shuffle_entries: bool = False,
) -> Path:
    """Write a minimal .rez. ``units``: speaker, tokens [(text, kind, endNote, transcript)],
    start, end, optional turn. ``old=True`` uses the 0.17 key names and tagMap times."""
    nm: dict[str, Any] = {}
    unit_ids, token_ids = [], []
    seq = 0
    for i, u in enumerate(units, start=1):
        uid = f"U{i}"
        entries = []
        for j, (text, kind, endnote, transcript) in enumerate(u["tokens"], start=1):
            seq += 1
            tid, eid = f"T{i}_{j}", f"E{i}_{j}"
            tok: dict[str, Any] = {
                "type": "token",
                "unit": uid,
                "tagMap": {"text": text, "kind": kind, "endNote": endnote, "tx": transcript},
            }
            if old:
                tok.update(discourseTokenSeq=seq, tokenSeq=j)
            else:
                tok.update(docTokenSeq=float(seq), tokenOrder=float(j))
            nm[tid] = tok
            nm[eid] = {"type": "entry", "unit": uid, "token": tid}
            entries.append(eid)
            token_ids.append(tid)
        if shuffle_entries:
            entries.reverse()
        tag = {"who": u["speaker"], "iuStart": str(u["start"]), "iuEnd": str(u["end"])}
        if turn_field:
            tag[turn_field] = str(u["turn"])
        nm[uid] = {
            "type": "unit",
            "unitSeq": i if old else float(i),
            "entryList": entries,
            "unitStart": "" if old else str(u["start"]),
            "unitEnd": "" if old else str(u["end"]),
            "tagMap": tag,
        }
        unit_ids.append(uid)
    nm["D1"] = {"type": "doc", "unitList": unit_ids, "tokenList": token_ids}
    nm["nodeList"] = list(nm)
    header: dict[str, Any] = {
        "version": "Version 0.17.0" if old else "Version 1.1.6",
        "displayTokenField": "text",
        "tokenImportTranscriptColName": "tx",
        "unitImportUnitStartColName": "iuStart",
        "unitImportUnitEndColName": "iuEnd",
        "unitImportTurnDelimColName": turn_field,
        "nodeMap": nm,
    }
    if old:
        header.update(discourseNode="D1", speakerField="who")
    else:
        header.update(docNode="D1", participantField="who")
    data = {"ROOT": [header, {"objectIndex": "obj_chain"}]}
    path.write_bytes(json.dumps(data).encode() + b"\x00")
    return path


def W(text: str, transcript: str | None = None) -> tuple[str, str, str, str]:
    return (text, "word", "", text if transcript is None else transcript)


def EN(kind: str, text: str) -> tuple[str, str, str, str]:
    return (text, "endnote", kind, text or "&")


SBC_LIKE = [
    {"speaker": "JOE;", "tokens": [W("so"), W("well"), EN("continuing", ",")], "start": 0.5, "end": 1.0, "turn": 1},
    {"speaker": "JOE;", "tokens": [W("I"), W("went"), EN("break", "—")], "start": 1.0, "end": 1.5, "turn": 1},
    {"speaker": "ANN;", "tokens": [W("yes"), EN("appeal", "?")], "start": 1.2, "end": 1.4, "turn": 2},
    {"speaker": "JOE;", "tokens": [W("and"), EN("suspended", "")], "start": 1.6, "end": 1.8, "turn": 3},
    {"speaker": "JOE;", "tokens": [EN("final", ".")], "start": 1.8, "end": 1.9, "turn": 3},
    {
        "speaker": "JOE;",
        "tokens": [("", "startnote", "", "&"), W("then"), EN("final", ".")],
        "start": 1.9,
        "end": 2.5,
        "turn": 3,
    },
    {"speaker": ">ENV;", "tokens": [("((DOOR))", "action", "", "((DOOR))")], "start": 2.6, "end": 2.7, "turn": 4},
]


def test_synthetic_endnotes_suspended_and_dropped_units(tmp_path: Path) -> None:
    doc = _read(make_rez(tmp_path / "a.rez", SBC_LIKE, turn_field="turnSeq"))
    assert doc.speakers == ["JOE", "ANN", ">ENV"]
    assert _units(doc) == [
        ("JOE", ["so", "well"], ","),
        ("JOE", ["I", "went"], "--"),
        ("ANN", ["yes"], "?"),
        ("JOE", ["and"], ";"),  # suspended -> unclassified
        ("JOE", ["&", "then"], "."),
        (">ENV", ["((DOOR))"], ";"),  # no endnote token in an endnote file -> unclassified
    ]
    # The endnote-only unit is skipped and reported.
    assert doc.meta["dropped_units"] == [{"unitSeq": 5, "node": "U5", "speaker": "JOE", "endnote": "final"}]
    raw = doc.tokens["endnote_raw"].tolist()
    assert raw[5] == "suspended" and raw[-1] == ""
    # turnSeq: JOE's turn 1 ends after "went", turn 3 (still open after "and") after "then".
    turn = doc.layer("turn").boundaries.tolist()
    assert turn == [0, 0, 0, 1, 1, 0, 0, 1, 1]
    assert doc.tokens["start"].iloc[0] == 0.5 and doc.tokens["end"].iloc[3] == 1.5


def test_synthetic_old_keys_tagmap_times_and_token_order(tmp_path: Path) -> None:
    units = [
        {
            "speaker": "A",
            "tokens": [
                W("one"),
                W("two."),
            ],
            "start": 1,
            "end": 2,
        },
        {"speaker": "A", "tokens": [W("three"), W("?")], "start": 2, "end": 3},
        {"speaker": "B", "tokens": [W("four")], "start": 2.5, "end": 4},
    ]
    path = make_rez(tmp_path / "old.rez", units, old=True, shuffle_entries=True)
    doc = _read(path)
    # entryList reversed on purpose: order comes from discourseTokenSeq.
    # No endnote tokens: final punctuation is split off (glued "." or a standalone "?").
    assert _units(doc) == [("A", ["one", "two"], "."), ("A", ["three"], "?"), ("B", ["four"], ";")]
    assert doc.tokens["start"].tolist()[0] == 1.0 and doc.tokens["end"].tolist()[-1] == 4.0
    # No turn column: a turn ends where the speaker changes.
    assert doc.layer("turn").boundaries.tolist() == [0, 0, 1, 1]
    assert doc.meta["fields"]["participant"] == "who"


def test_scheme_symbols_are_used(tmp_path: Path) -> None:
    # lai2023 shares the DuBois symbols but not the cost model; the codes follow the symbols.
    scheme = builtin_scheme("lai2023")
    doc = _read(make_rez(tmp_path / "a.rez", SBC_LIKE[:3]), scheme=scheme)
    assert doc.layer("iu").scheme == scheme
    got = [scheme.symbol(u.boundary) for u in doc.units("iu")]
    assert got == [",", "--", "?"]


def test_scheme_without_unclassified_type_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="unclassified"):
        _read(make_rez(tmp_path / "a.rez", SBC_LIKE[3:4]), scheme=builtin_scheme("sentence"))


def test_legacy_grid_format_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "legacy.rez"
    path.write_bytes(json.dumps({"ROOT": [{"dynaWordGrid": [], "unitGrid": []}]}).encode())
    with pytest.raises(InputError, match="0.8 or earlier") as info:
        _read(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "empty file"),
        (b"\x00", "empty file"),
        (b"[1, 2]", "ROOT"),
        (b'{"ROOT": [{"nodeMap": {}}]}', "docNode"),
        (b'{"ROOT": [{"nodeMap": {}, "docNode": "X", "participantField": "p", "displayTokenField": "t"}]}', "node 'X'"),
        (b"\xff\xfe\x00{", "UTF-8"),
    ],
)
def test_bad_files(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "bad.rez"
    path.write_bytes(content)
    with pytest.raises(InputError, match=expected) as info:
        _read(path)
    assert "\n" not in str(info.value)


def test_missing_speaker_names_the_unit(tmp_path: Path) -> None:
    path = make_rez(tmp_path / "a.rez", SBC_LIKE[:1])
    data = json.loads(path.read_bytes().rstrip(b"\x00"))
    del data["ROOT"][0]["nodeMap"]["U1"]["tagMap"]["who"]
    path.write_bytes(json.dumps(data).encode())
    with pytest.raises(InputError, match=r"nodeMap\['U1'\].*'who'"):
        _read(path)


def test_adapter_record() -> None:
    assert rez.ADAPTER.name == "rez"
    assert rez.ADAPTER.extensions == (".rez",)
    assert not rez.ADAPTER.can_write
