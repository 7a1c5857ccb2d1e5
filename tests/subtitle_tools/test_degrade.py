"""segagree degrade: EvalSubtitle's rules, seeded; properties checked with hypothesis on random
subtitle texts and on the real MuST-Cinema reference."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.formats import read_document, write_document
from segagree.model import Document, builtin_scheme, from_units
from segagree.scoring.subtitles.breaks import SubtitleBreaks, subtitle_breaks
from segagree.subtitle_tools.degrade import degrade_breaks, degrade_document

from conftest import shared_path

EOB, EOL = 1, 2


def _doc(codes: list[int]) -> Document:
    """A one-speaker subtitle Document with one unit per break."""
    units, cur = [], []
    for i, c in enumerate(codes):
        cur.append(f"w{i}")
        if c or i == len(codes) - 1:
            units.append({"speaker": "S", "tokens": cur, "boundary": c or EOB})
            cur = []
    return from_units("t", units, layer="subtitle", scheme=builtin_scheme("subtitle"))


codes_strategy = st.lists(st.sampled_from([0, 0, 0, EOL, EOB]), min_size=2, max_size=80).map(lambda c: [*c[:-1], EOB])


def _positions(codes: np.ndarray) -> np.ndarray:
    return np.flatnonzero(codes)


@settings(max_examples=200, deadline=None)
@given(codes=codes_strategy, seed=st.integers(0, 2**31), n=st.integers(1, 4), p=st.floats(0, 1))
def test_shift_moves_each_break_at_most_n_words_and_keeps_count_and_order(codes, seed, n, p):
    doc = _doc(codes)
    res = degrade_document(doc, "shift", p, seed=seed, n=n)
    before = subtitle_breaks(doc).codes
    after = subtitle_breaks(res.document).codes
    # same number of breaks of each type, never joined
    assert sorted(before[before > 0].tolist()) == sorted(after[after > 0].tolist())
    # breaks keep their order, so the k-th break before is the k-th after: at most n words apart
    moved = _positions(after) - _positions(before)
    assert np.all(np.abs(moved) <= n)
    assert max((abs(d) for d in res.displacements), default=0) <= n
    assert res.document.column("text").tolist() == doc.column("text").tolist()


@settings(max_examples=200, deadline=None)
@given(codes=codes_strategy, seed=st.integers(0, 2**31), op=st.sampled_from(["shift", "insert", "delete", "retype"]))
def test_p_zero_is_the_identity_and_words_never_change(codes, seed, op):
    doc = _doc(codes)
    assert np.array_equal(
        subtitle_breaks(degrade_document(doc, op, 0.0, seed=seed, n=2).document).codes, subtitle_breaks(doc).codes
    )
    res = degrade_document(doc, op, 0.7, seed=seed, n=2)
    assert res.document.column("text").tolist() == doc.column("text").tolist()
    assert subtitle_breaks(res.document).codes[-1] == EOB  # the text still ends a block


@settings(max_examples=100, deadline=None)
@given(codes=codes_strategy, seed=st.integers(0, 2**31), p=st.floats(0, 1))
def test_delete_insert_retype_counts(codes, seed, p):
    b = subtitle_breaks(_doc(codes))
    movable = {c: int(np.sum((b.codes == c) & ~b.fixed)) for c in (EOL, EOB)}
    out, counts, _ = degrade_breaks(b, "delete", p, np.random.default_rng(seed))
    assert np.count_nonzero(b.codes) - np.count_nonzero(out) == round(p * movable[EOL]) + round(p * movable[EOB])
    assert np.all(out[b.codes == 0] == 0)  # deletion adds nothing
    out, counts, _ = degrade_breaks(b, "retype", p, np.random.default_rng(seed))
    assert np.array_equal(out > 0, b.codes > 0)
    assert int(np.sum(out != b.codes)) == round(p * movable[EOL]) + round(p * movable[EOB])
    out, counts, _ = degrade_breaks(b, "insert", p, np.random.default_rng(seed))
    free = int(np.sum(b.codes[:-1] == 0))
    want = round(p * int(np.sum(b.codes == EOL))) + round(p * int(np.sum(b.codes == EOB)))
    assert np.count_nonzero(out) - np.count_nonzero(b.codes) == min(want, free)
    assert np.all(out[b.codes > 0] == b.codes[b.codes > 0])  # existing breaks stay


def test_same_seed_same_output_other_seed_other_output():
    doc = read_document(shared_path("corpora", "subtitles_tagged", "amara.fr"), "tagged")
    a = degrade_document(doc, "shift", 0.3, seed=7, n=2)
    b = degrade_document(doc, "shift", 0.3, seed=7, n=2)
    c = degrade_document(doc, "shift", 0.3, seed=8, n=2)
    codes = [subtitle_breaks(x.document).codes for x in (a, b, c)]
    assert np.array_equal(codes[0], codes[1])
    assert not np.array_equal(codes[0], codes[2])


@pytest.mark.parametrize("p", [0.1, 0.5, 0.9])
def test_delete_removes_about_p_of_the_breaks_of_the_real_reference(p):
    doc = read_document(shared_path("corpora", "subtitles_tagged", "amara.fr"), "tagged")
    res = degrade_document(doc, "delete", p, seed=1)
    share = 1 - res.breaks_after / res.breaks_before
    assert abs(share - p) < 0.01


def test_tagged_round_trip_keeps_words_and_lines(tmp_path):
    src = shared_path("corpora", "subtitles_tagged", "amara.fr")
    doc = read_document(src, "tagged")
    res = degrade_document(doc, "insert", 0.4, seed=3)
    out = tmp_path / "ins.fr"
    write_document(res.document, out, "tagged")
    back = read_document(out, "tagged")
    assert back.column("text").tolist() == doc.column("text").tolist()
    assert np.array_equal(subtitle_breaks(back).codes, subtitle_breaks(res.document).codes)
    assert len(out.read_text(encoding="utf-8").splitlines()) == len(src.read_text(encoding="utf-8").splitlines())


def test_srt_cue_times_by_word_position(tmp_path):
    src = tmp_path / "a.srt"
    src.write_text(
        "1\n00:00:01,000 --> 00:00:03,000\none two three four\n\n2\n00:00:04,000 --> 00:00:05,000\nfive six\n",
        encoding="utf-8",
    )
    doc = read_document(src)
    b = subtitle_breaks(doc)
    codes = b.codes.copy()
    codes[1] = EOB  # a new block after "two": the first cue splits at its middle
    from segagree.scoring.subtitles.breaks import with_breaks

    out, notes = with_breaks(doc, b, codes, what="test")
    starts, ends = out.column("start"), out.column("end")
    assert ends[1] == pytest.approx(2.0) and starts[2] == pytest.approx(2.0)
    assert starts[0] == 1.0 and ends[3] == 3.0 and starts[4] == 4.0 and ends[5] == 5.0
    assert "times-interpolated" in notes.kinds()
    dst = tmp_path / "b.srt"
    losses = write_document(out, dst)
    assert "00:00:01,000 --> 00:00:02,000" in dst.read_text(encoding="utf-8")
    assert "times-dropped" not in losses.kinds()


def test_speaker_changes_are_never_removed():
    units = [
        {"speaker": "A", "tokens": ["hi", "there"], "boundary": EOL},
        {"speaker": "B", "tokens": ["hello", "you"], "boundary": EOB},
    ]
    doc = from_units("d", units, layer="subtitle", scheme=builtin_scheme("subtitle"))
    b: SubtitleBreaks = subtitle_breaks(doc)
    assert b.fixed.tolist() == [False, True, False, True]
    for op in ("shift", "delete", "retype"):
        out = degrade_document(doc, op, 1.0, seed=0, n=3)
        assert subtitle_breaks(out.document).codes[1] != 0


def test_bad_requests_are_usage_errors():
    from segagree.errors import UsageError

    doc = _doc([0, EOL, 0, EOB])
    with pytest.raises(UsageError):
        degrade_document(doc, "shuffle", 0.5)
    with pytest.raises(UsageError):
        degrade_document(doc, "delete", 1.5)
    with pytest.raises(UsageError):
        degrade_document(doc, "shift", 0.5, n=0)


def test_shift_keeps_every_tag_of_the_real_reference(tmp_path):
    """amara.fr has four words followed by '<eol> <eob>': shifted breaks carry both tags."""
    src = shared_path("corpora", "subtitles_tagged", "amara.fr")
    text = src.read_text(encoding="utf-8")
    for seed in range(3):
        res = degrade_document(read_document(src, "tagged"), "shift", 1.0, seed=seed, n=3)
        out = tmp_path / f"s{seed}.fr"
        write_document(res.document, out, "tagged")
        got = out.read_text(encoding="utf-8")
        for tag in ("<eol>", "<eob>"):
            assert got.count(tag) == text.count(tag)
        assert (
            got.replace("<eol>", " ").replace("<eob>", " ").split()
            == text.replace("<eol>", " ").replace("<eob>", " ").split()
        )


def _timed_doc(codes: list[int], durations: list[float]) -> Document:
    """A timed subtitle Document: cue k runs from its start for durations[k] s, then a 0.25 s gap."""
    units, cur, t, k, start = [], [], 0.0, 0, None
    for i, c in enumerate(codes):
        cur.append(f"w{i}")
        if c or i == len(codes) - 1:
            unit: dict = {"speaker": "S", "tokens": cur, "boundary": c or EOB}
            if start is None:
                start = t
                unit["start"] = start
            if (c or EOB) == EOB:
                t = start + durations[k % len(durations)]
                unit["end"] = t
                t += 0.25
                k += 1
                start = None
            units.append(unit)
            cur = []
    return from_units("t", units, layer="subtitle", scheme=builtin_scheme("subtitle"))


@settings(max_examples=150, deadline=None)
@given(
    codes=codes_strategy,
    durations=st.lists(st.floats(0.5, 6.0), min_size=1, max_size=5),
    seed=st.integers(0, 2**31),
    op=st.sampled_from(["shift", "insert", "delete", "retype"]),
    p=st.floats(0, 1),
)
def test_cue_times_stay_ordered_inside_the_original_span(codes, durations, seed, op, p):
    doc = _timed_doc(codes, durations)
    out = degrade_document(doc, op, p, seed=seed, n=2).document
    b = subtitle_breaks(out)
    starts, ends = out.column("start"), out.column("end")
    ends_at = np.flatnonzero(b.codes == b.eob)
    begins = np.concatenate(([0], ends_at[:-1] + 1))
    s, e = starts[begins], ends[ends_at]
    assert not np.isnan(s).any() and not np.isnan(e).any()
    assert np.all(s <= e + 1e-9) and np.all(e[:-1] <= s[1:] + 1e-9)
    assert s[0] == doc.column("start")[0] and e[-1] == doc.column("end")[-1]
