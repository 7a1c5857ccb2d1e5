"""SBCSAE as TalkBank publishes it (CA-CHAT, `@Options: CA, bullets`): one unit per bulleted
line with words, checked against segsimflex's gold IUs of the same texts (unit counts within 2%,
S_f of `compare gold.csv text.cha --align --common-speakers` >= 0.93), the lines' own times,
terminators as Du Bois endnotes, the main-tier option, and lossless round trips."""

from __future__ import annotations

import csv
import json
import re
import subprocess
from pathlib import Path

import pytest
from cli_process import run_cli

from segagree import api
from segagree.formats import read_document, write_document
from segagree.model import builtin_scheme

from conftest import shared_path

DUBOIS = builtin_scheme("dubois")
TEXTS = {"sbcsae_02.cha": "sbc002.csv", "sbcsae_03.cha": "sbc003.csv", "sbcsae_07.cha": "sbc007.csv"}


def _cha(name: str) -> Path:
    return shared_path("corpora", "chat", name)


def _gold(name: str) -> Path:
    return shared_path("corpora", "sbc_iubound_prediction", "old", TEXTS[name])


def _gold_rows(path: Path) -> int:
    """Independent count: the gold CSV's data rows (csv module, not segagree)."""
    with path.open(encoding="utf-8", newline="") as f:
        return sum(1 for _ in csv.DictReader(f))


_WORD = re.compile(r"[A-Za-z]")


def _bulleted_lines_with_words(path: Path) -> int:
    """Independent count: main-tier and continuation lines ending in a bullet whose text, without
    bullets, events, comments, pauses and CHAT's unintelligible `xxx` (not SBCSAE's `XXX` syllables), still
    has a letter."""
    n = 0
    in_main = False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("*"):
            in_main = True
            line = line.split(":", 1)[1]
        elif not line.startswith("\t"):
            in_main = False
            continue
        if not in_main or not re.search("\x15[0-9_]+\x15\\s*$", line):
            continue
        text = re.sub("\x15[^\x15]*\x15|&[={}][^\\s]*|\\[[^\\]]*\\]|\\([.\\d]*\\)|\\bxxx\\b", " ", line)
        n += bool(_WORD.search(text))
    return n


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_unit_counts_within_two_percent_of_the_gold(name: str) -> None:
    doc = read_document(_cha(name))
    gold = _gold_rows(_gold(name))
    assert abs(len(doc.units()) - gold) / gold <= 0.02
    # Every bulleted line with words is a unit (a wordless line joins its neighbour).
    lines = _bulleted_lines_with_words(_cha(name))
    assert abs(len(doc.units()) - lines) <= 0.005 * lines


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_sf_against_the_gold_with_common_speakers(name: str) -> None:
    res = api.compare(str(_gold(name)), str(_cha(name)), align=True, common_speakers=True)
    assert res.sf >= 0.95, res.sf
    # The gold names speakers `JAMIE;`: they pair with the CHAT participants' names.
    assert len(res["per_speaker"]) >= 2
    assert not res["unpaired_speakers"]["b"] or res["unpaired_speakers"]["b"] == ["X"]


def _segagree(*args: str) -> subprocess.CompletedProcess:
    """The command line, as the console script runs it (in a fork of this process: tests/cli_process.py)."""
    return run_cli(args)


def test_cli_command_of_the_issue() -> None:
    gold, cha = _gold("sbcsae_02.cha"), _cha("sbcsae_02.cha")
    proc = _segagree("compare", str(gold), str(cha), "--align", "--common-speakers", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["sf"] > 0.95 and set(out["per_speaker"]) == {"JAMIE", "HAROLD", "MILES", "PETE"}


def test_lines_have_their_own_times_and_boundaries() -> None:
    doc = read_document(_cha("sbcsae_02.cha"))
    units = list(doc.iter_unit_texts())
    start, end = doc.tokens["start"].to_numpy(), doc.tokens["end"].to_numpy()

    def find(words: list[str]) -> int:
        return next(k for k, (_, toks) in enumerate(units) if toks == words)

    # *HARO:  ⌊2 Yeah [% laugh] ⌋2 \x156080_6350\x15  /  \treally . \x156350_6730\x15
    k = find(["Yeah"])
    (u, _), (v, really) = units[k], units[k + 1]
    assert really == ["really"] and u.speaker == v.speaker == "HAROLD"
    assert (start[u.rows[0]], end[u.rows[-1]]) == (6.08, 6.35)
    assert (start[v.rows[0]], end[v.rows[-1]]) == (6.35, 6.73)
    assert DUBOIS.symbol(u.boundary) == "," and DUBOIS.symbol(v.boundary) == "."
    # *HARO: ⌊ I can't imagine teaching a ⌋ +/. -> truncated; `⌈2 dance ⌉2 .` final.
    k = find(["I", "can't", "imagine", "teaching", "a"])
    assert DUBOIS.symbol(units[k][0].boundary) == "--"
    k = find(["How", "can", "you", "teach", "a", "three-year-old", "to", "tap", "dance"])
    assert DUBOIS.symbol(units[k][0].boundary) == "."
    # The environment's lines hold only events: ENV stays declared but has no words.
    assert "ENV" in doc.speakers and not doc.token_texts()["ENV"]


def test_main_tier_option_keeps_one_unit_per_main_tier() -> None:
    path = _cha("sbcsae_02.cha")
    mains = sum(1 for ln in path.read_bytes().split(b"\n") if ln.startswith(b"*"))
    doc = read_document(path, chat_units="main-tiers")
    assert len(doc.units()) == mains == 1010
    assert len(read_document(path, chat_units="lines").units()) == len(read_document(path).units())
    with pytest.raises(Exception, match="chat_units"):
        read_document(path, chat_units="sentences")


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_round_trip_is_lossless_and_byte_identical(name: str, tmp_path: Path) -> None:
    doc = read_document(_cha(name))
    out = tmp_path / "out.cha"
    losses = write_document(doc, out)
    assert not losses, losses.lines()
    assert out.read_bytes().rstrip() == _cha(name).read_bytes().rstrip()
    assert read_document(out) == doc


def test_changed_line_unit_is_written_as_a_continuation_line(tmp_path: Path) -> None:
    doc = read_document(_cha("sbcsae_07.cha"))
    raws = doc.tokens["chat_raw"]
    row = next(int(u.rows[0]) for u in doc.units() if raws.iat[u.rows[0]].startswith("\t"))
    doc.tokens.loc[row, "text"] = "CHANGED"
    out = tmp_path / "out.cha"
    write_document(doc, out)
    back = read_document(out)
    assert len(back.units()) == len(doc.units())
    assert back.token_texts() == doc.token_texts()
    # Written as a line of its own tier (a continuation line where it was one): the file keeps
    # its main tiers, and only that unit's line changed.
    mains = [ln for ln in out.read_text(encoding="utf-8").split("\n") if ln.startswith("*")]
    assert len(mains) == sum(
        1 for ln in _cha("sbcsae_07.cha").read_text(encoding="utf-8").split("\n") if ln.startswith("*")
    )
    old = _cha("sbcsae_07.cha").read_text(encoding="utf-8").rstrip("\n").split("\n")
    new = out.read_text(encoding="utf-8").rstrip("\n").split("\n")
    assert len(old) == len(new) and sum(a != b for a, b in zip(old, new, strict=True)) == 1


def test_cli_chat_units_option(tmp_path: Path) -> None:
    path = _cha("sbcsae_07.cha")
    mains = sum(1 for ln in path.read_bytes().split(b"\n") if ln.startswith(b"*"))
    for units, expected in (("main-tiers", mains), ("lines", len(read_document(path).units()))):
        out = tmp_path / f"{units}.json"
        proc = _segagree("convert", str(path), "-o", str(out), "--chat-units", units)
        assert proc.returncode == 0, proc.stderr
        assert len(read_document(out).units()) == expected
