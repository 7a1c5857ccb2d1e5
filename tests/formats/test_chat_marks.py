"""CHAT marks as the CHAT manual defines them (talkbank.org/manuals/CHAT.html: 8.4 unidentifiable
material xxx/yyy/www, 8.5 fragments &+ and fillers &-, 9 simple events &=, long events
&{l=...&}l=, nonvocal &{n=...&}n=, overlap ⌈ ⌉ ⌊ ⌋ with indices, [% comments], the CA
chapter's prosodic marks, CLAN's underline bytes): none becomes a token or part of one, the raw
line keeps them for writing CHAT back, and files holding them export to ELAN, Transcriber and
EXMARaLDA."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.formats import read_document, write_document
from segagree.formats.chat.marks import clear_marks, tokenise

from conftest import shared_path

# The CHAT manual's own examples, with the words each one holds.
MANUAL = [
    ("&=laughs I want it .", False, ["I", "want", "it"], "."),
    ("&{l=crying I want my bottle &}l=crying .", False, ["I", "want", "my", "bottle"], "."),
    ("&{n=waving bye bye &}n=waving .", False, ["bye", "bye"], "."),
    ("I want xxx .", False, ["I", "want"], "."),
    ("I want yyy .", False, ["I", "want"], "."),
    ("www .", False, [], "."),
    ("0 .", False, [], "."),
    ("I want a [% laughing] cookie .", False, ["I", "want", "a", "cookie"], "."),
    ("I &-uh want it .", False, ["I", "uh", "want", "it"], "."),  # a filler keeps its word
    ("she &+t tried .", False, ["she", "t-", "tried"], "."),  # a fragment is a truncated word
    ("I have a ⌈ bad ⌉ cold .", True, ["I", "have", "a", "bad", "cold"], "."),
    ("⌊ no ⌋ .", True, ["no"], "."),
    ("⌈2 tap dance ⌉2 .", True, ["tap", "dance"], "."),
    ("wh⌈ich one ⌉ ?", True, ["which", "one"], "?"),
    ("(.) Tha:⌈t's ba:d said tiger ⌉ .", True, ["That's", "bad", "said", "tiger"], "."),  # SBCSAE 054
    ("t⌈2ap ⌉2 ↑really ↓so: °quiet° ʔuh ≈ .", True, ["tap", "really", "so", "quiet", "uh"], "."),
    ("\x02\x01so\x02\x02 what +...", False, ["so", "what"], "+..."),
    ("I \x02\x01really\x02\x02 do .", True, ["I", "really", "do"], "."),
    ("&=in &=lengthened .", True, [], "."),
    ("bana:nas and a rhi^noceros , hm: .", False, ["bananas", "and", "a", "rhinoceros", ",", "hm"], "."),
    ("ˈbanana ↑yes ʔuh .", False, ["banana", "yes", "uh"], "."),
    ("merci@s:fra .", False, ["merci@s:fra"], "."),
]


@pytest.mark.parametrize(("text", "ca", "words", "term"), MANUAL)
def test_manual_examples(text: str, ca: bool, words: list[str], term: str) -> None:
    assert tokenise(text, ca=ca, lower=False) == (words, term)


def test_no_mark_survives_in_any_real_chat_file() -> None:
    """Every token of every CHAT file in shared/corpora/chat is free of marks."""
    folder = shared_path("corpora", "chat")
    bad = "⌈⌉⌊⌋\x02\x01\x15[]"
    for path in sorted(folder.glob("*.[cC][hH][aA]")):
        doc = read_document(path)
        for tok in doc.tokens["text"]:
            assert not any(c in tok for c in bad), (path.name, tok)
            # (old CHAT's `&pic` fragment notation is left as written)
            assert not tok.startswith(("&=", "&{", "&}", "&-", "&+", "&~", "&*")), (path.name, tok)
            assert tok not in ("xxx", "yyy", "www"), (path.name, tok)


MARKED = (
    "@UTF8\n@Begin\n@Languages:\teng\n@Participants:\tANN Ann Speaker, BOB Bob Speaker, ENV Environment\n"
    "@Options:\tCA\n"
    "*ANN:\t&{l=@ \x02\x01so\x02\x02 wh⌈ich &}l=@ one ⌉ . \x150_1000\x15\n"
    "*BOB:\t     ⌊ that ⌋ one [% laugh] \x151000_1500\x15\n"
    "\t&=in xxx really: . \x151500_2000\x15\n"
    "*ENV:\t&=door_slams . \x152000_2100\x15\n"
    "@End\n"
)


def _marked(tmp_path: Path) -> Path:
    path = tmp_path / "marked.cha"
    path.write_text(MARKED, encoding="utf-8")
    return path


def test_marked_file_words_and_round_trip(tmp_path: Path) -> None:
    doc = read_document(_marked(tmp_path))
    assert doc.token_texts() == {"Ann": ["so", "which", "one"], "Bob": ["that", "one", "really"], "ENV": []}
    out = tmp_path / "back.cha"
    assert not write_document(doc, out)
    assert out.read_text(encoding="utf-8") == MARKED  # every mark is written back
    assert read_document(out) == doc


@pytest.mark.parametrize("target", ["eaf", "trs", "exb"])
def test_export_of_a_marked_file(tmp_path: Path, target: str) -> None:
    doc = read_document(_marked(tmp_path))
    out = tmp_path / f"marked.{target}"
    write_document(doc, out)
    assert "\x02" not in out.read_text(encoding="utf-8")
    back = read_document(out)
    assert {s: t for s, t in back.token_texts().items() if t} == {s: t for s, t in doc.token_texts().items() if t}


@pytest.mark.parametrize("target", ["eaf", "trs", "exb"])
def test_export_of_sbcsae(tmp_path: Path, target: str) -> None:
    doc = read_document(shared_path("corpora", "chat", "sbcsae_07.cha"))
    out = tmp_path / f"sbc.{target}"
    write_document(doc, out)
    back = read_document(out)
    words = {s: t for s, t in doc.token_texts().items() if t}
    got = {s: t for s, t in back.token_texts().items() if t}
    assert {s: sorted(t) for s, t in got.items()} == {s: sorted(t) for s, t in words.items()}


# Not xxx/yyy/www (unintelligible/untranscribed) and not a breath (`hh`, `Hhh`, `khh`: CA drops those).
WORD = st.from_regex(r"[a-zA-Z][a-z']{0,6}", fullmatch=True).filter(
    lambda w: w not in ("xxx", "yyy", "www") and not re.fullmatch(r"[ptk]?h{2,}r?h*|tch", w.lower())
)
MARK = st.sampled_from(
    [
        "&=laughs",
        "&=in",
        "&{l=@",
        "&}l=@",
        "&{n=waving",
        "&}n=waving",
        "⌈",
        "⌉",
        "⌊2",
        "⌋2",
        "[% comment]",
        "(.)",
        "(..)",
        "(1.5)",
        "xxx",
        "yyy",
        "\x02\x01",
        "\x02\x02",
        "[/]",
        "((sneeze))",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(WORD, st.lists(MARK, max_size=3)), min_size=1, max_size=8), st.booleans())
def test_property_marks_between_words_change_no_word(items: list[tuple[str, list[str]]], ca: bool) -> None:
    words = [w for w, _ in items]
    text = " ".join(f"{w} {' '.join(marks)}" for w, marks in items) + " ."
    got, term = tokenise(text, ca=ca, lower=False)
    assert term == "."
    expected = [w.strip("'") if ca else w for w in words]
    assert [g.strip("'") for g in got] == [e.strip("'") for e in expected]


@settings(max_examples=200, deadline=None)
@given(WORD, WORD, st.sampled_from(["⌈", "⌉", "⌊", "⌋", "⌈2", "⌋3", "\x02\x01", "\x02\x02"]))
def test_property_a_mark_inside_a_word_joins_it(left: str, right: str, mark: str) -> None:
    assert clear_marks(left + mark + right).split() == [left + right]


def _every_pattern(text: str) -> str:
    """clear_marks as the plain chain of every pattern, each applied whatever the text holds: the
    reference for its shortcuts (a pattern skipped when its first character is absent)."""
    import segagree.formats.chat.marks as m

    text = m._CONTROL.sub("", m.BULLET.sub(" ", text))
    text = m._PAUSE.sub(" ", m._COMMENT.sub(" ", m._CODES.sub(" ", text)))
    text = m._OVERLAP_BEFORE_AMP.sub(r"\1 ", text)
    text = m._FRAGMENT.sub(r"\1-", m._FILLER.sub("", m._EVENT.sub(" ", text)))
    return m._OVERLAP.sub(" ", m._OVERLAP_INNER.sub("", text))


PIECE = st.one_of(
    WORD,
    MARK,
    st.sampled_from(["\x15123_456\x15", "\x15", "\x07", "\t", "&-uh", "&~gaga", "&+fr", "&*MOT:yeah", "[", "((", "("]),
    st.text(alphabet="ab (.)[]&=+-~*⌈⌉⌊⌋0123:'\x15\x02\x01", max_size=6),
)


@settings(max_examples=500, deadline=None)
@given(st.lists(PIECE, max_size=10), st.sampled_from(["", " "]))
def test_property_shortcuts_change_nothing(pieces: list[str], sep: str) -> None:
    text = sep.join(pieces)
    assert clear_marks(text) == _every_pattern(text)


def test_plain_words_lose_the_prosodic_marks_as_before() -> None:
    """The ASCII shortcut of the plain word changes nothing: the former translate-and-substitute on
    random tokens of letters, the prosodic marks, `:` `^`, digits and the `@` `&` prefixes."""
    import random

    from segagree.formats.chat.marks import _IN_WORD, _PROSODY, _plain_word

    def as_before(token: str) -> str:
        if "@" in token or token.startswith("&"):
            return token
        return _IN_WORD.sub("", token.translate(_PROSODY))

    rng = random.Random(7)
    for _ in range(20_000):
        token = "".join(rng.choice("ab:^ˈˌ↑↓≠ʔé1_@&-") for _ in range(rng.randint(0, 6)))
        assert _plain_word(token) == as_before(token), token
