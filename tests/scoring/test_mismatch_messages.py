"""Three messages of the aligner: no "token -1", no mismatch fraction above 1 (the refusal says
what was compared), and --speaker-tier's error names the options; tokenisation differences
(`do n't` / `don't`) and spellings of unintelligible speech (`##` / `XX`) do not count against
--max-mismatch."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from cli_process import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.errors import MismatchError
from segagree.model import builtin_scheme, from_units
from segagree.scoring.tokens.compare import compare_documents
from segagree.scoring.tokens.stream_alignment import align_streams, retokenised_columns

DUBOIS = builtin_scheme("dubois")


def _doc(words: list[str], path: str) -> object:
    return from_units(
        "t", [{"speaker": "S", "tokens": words, "boundary": 2}], layer="iu", scheme=DUBOIS, source_path=path
    )


def test_gap_first_never_says_token_minus_one() -> None:
    a = _doc(["x", "y", "z", "w"], "a")
    b = _doc(["p", "q", "r", "s", "t", "u", "v"], "b")
    with pytest.raises(MismatchError) as err:
        compare_documents(a, b, align=True)
    msg = str(err.value)
    assert "-1" not in msg and "token 1" in msg
    assert "A has 4 tokens, B has 7" in msg


def test_more_differences_than_tokens_is_a_plain_statement() -> None:
    """Many gaps on both sides: more differing positions than the longer stream has tokens."""
    a = _doc([f"a{i}" for i in range(30)] + ["same"], "a")
    b = _doc(["same"] + [f"b{i}" for i in range(30)], "b")
    with pytest.raises(MismatchError) as err:
        compare_documents(a, b, align=True)
    msg = str(err.value)
    fractions = [float(f) for f in re.findall(r"(\d+\.\d+) of the longer", msg)]
    assert all(f <= 1 for f in fractions)
    assert "more than the longer transcript's 31 tokens" in msg and "--max-mismatch 1" in msg
    compare_documents(a, b, align=True, max_mismatch=1.0)  # the limit 1 accepts any difference


def test_tokenisation_and_unintelligible_spellings_do_not_count() -> None:
    gold = "I do n't know ## it 's gon na rain Tha".split()
    chat = "I don't know XX it's gonna rain Tha-".split()
    cols = align_streams(gold, chat)
    assert len(retokenised_columns(cols, gold, chat)) == sum(1 for i, j in cols if i < 0 or j < 0 or gold[i] != chat[j])
    res = compare_documents(_doc(gold, "g"), _doc(chat, "c"), align=True, max_mismatch=0.0)
    assert res["sf"] == 1.0 and all(m["retokenised"] for m in res["mismatches"])
    with pytest.raises(MismatchError):  # a real word difference still counts
        compare_documents(_doc(gold, "g"), _doc(chat[:-1] + ["snow"], "c"), align=True, max_mismatch=0.0)


WORDS = st.lists(st.sampled_from(["a", "b", "c", "ab", "##", "X", "a-"]), min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(WORDS, WORDS)
def test_property_retokenised_columns_join_to_the_same_text(ta: list[str], tb: list[str]) -> None:
    """Brute force: every stretch of uncounted columns spells the same on both sides."""
    cols = align_streams(ta, tb)
    kept = retokenised_columns(cols, ta, tb)
    same = np.array([i >= 0 and j >= 0 and ta[i] == tb[j] for i, j in cols])
    assert not any(same[k] for k in kept)
    k = 0
    while k < len(cols):
        if k in kept:
            end = k
            while end < len(cols) and end in kept:
                end += 1

            def spelt(t: str) -> str:
                return "" if re.fullmatch(r"#+|X+", t) else re.sub(r"(?<=[a-z])-$", "", t)

            ja = "".join(spelt(ta[i]) for i, _ in cols[k:end] if i >= 0)
            jb = "".join(spelt(tb[j]) for _, j in cols[k:end] if j >= 0)
            assert ja == jb
            k = end
        else:
            k += 1


def test_speaker_tier_message_names_the_options(tmp_path: Path) -> None:
    grid = tmp_path / "t.TextGrid"
    tiers = "".join(
        f'item [{k}]:\nclass = "IntervalTier"\nname = "{name}"\nxmin = 0\nxmax = 2\nintervals: size = 1\n'
        f'intervals [1]:\nxmin = 0\nxmax = 2\ntext = "{label}"\n'
        for k, (name, label) in enumerate([("spk", "A"), ("one", "hi ."), ("two", "ho .")], start=1)
    )
    grid.write_text(
        'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\nxmax = 2\ntiers? <exists>\n'
        f"size = 3\nitem []:\n{tiers}",
        encoding="utf-8",
    )
    proc = run_cli(["convert", grid, "-o", tmp_path / "o.json", "--speaker-tier", "spk"], timeout=120)
    assert proc.returncode == 1
    assert "--speaker-tier 'spk'" in proc.stderr and "--tier NAME" in proc.stderr and "Traceback" not in proc.stderr
