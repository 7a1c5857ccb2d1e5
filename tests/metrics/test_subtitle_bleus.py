"""s_bleu, t_bleu and tbhr against the SubER command line (BLEU, t-BLEU, AS-BLEU minus t-BLEU).

Hypotheses are made at test time from the real SRT files in ../shared/corpora/srt: words
replaced or dropped, cue times moved, cues merged (so that the block counts differ and S-BLEU
does not apply), and one cue boundary placed exactly where a word's interpolated time lands.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from cli_process import run_cli

from segagree.formats import read_document
from segagree.metrics.registry import get_measure
from segagree.metrics.subtitles.bleus import S_BLEU, T_BLEU, TBHR
from segagree.scoring.subtitles.evaluation import evaluate_corpus, evaluate_pair, pair_data, subtitle_side

from conftest import shared_path

pytest.importorskip("suber")
SRT_FILES = ("sintel_en.srt", "pysrt_bom-utf-8.srt")
_TIME = re.compile(r"(\d\d):(\d\d):(\d\d),(\d\d\d)")


def suber_cli(hyps: list[Path], refs: list[Path], metrics: tuple[str, ...] = ("BLEU", "t-BLEU", "AS-BLEU")) -> dict:
    """What the suber command line prints, run by its own entry point in a child forked from this
    process (its imports are loaded here already: a new interpreter would pay them every call)."""
    args = ["-H", *map(str, hyps), "-R", *map(str, refs), "-m", *metrics]
    out = run_cli(args, script="suber")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def cues(text: str) -> list[tuple[str, str, list[str]]]:
    out = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.strip().splitlines()
        k = next(i for i, x in enumerate(lines) if "-->" in x)
        start, end = (x.strip() for x in lines[k].split("-->"))
        out.append((start, end.split()[0], lines[k + 1 :]))
    return out


def write_srt(path: Path, items: list[tuple[str, str, list[str]]]) -> Path:
    body = "\n\n".join(f"{i}\n{s} --> {e}\n" + "\n".join(lines) for i, (s, e, lines) in enumerate(items, 1))
    path.write_text(body + "\n", encoding="utf-8")
    return path


def ms(t: str) -> int:
    h, m, s, f = (int(x) for x in _TIME.match(t).groups())  # type: ignore[union-attr]
    return ((h * 60 + m) * 60 + s) * 1000 + f


def stamp(v: int) -> str:
    return f"{v // 3600000:02d}:{v // 60000 % 60:02d}:{v // 1000 % 60:02d},{v % 1000:03d}"


def edited(items, rng: random.Random, *, merge: bool, move_ms: int):  # type: ignore[no-untyped-def]
    """Words replaced or dropped, times moved, and (``merge``) every third cue merged into the next."""
    out = []
    for s, e, lines in items:
        new_lines = []
        for line in lines:
            words = [w for w in line.split() if rng.random() > 0.1]
            words = [("xyz" if rng.random() < 0.15 else w) for w in words]
            new_lines.append(" ".join(words) or "euh")
        out.append((stamp(max(0, ms(s) + move_ms)), stamp(max(0, ms(e) + move_ms)), new_lines))
    if merge:
        merged = []
        for i, item in enumerate(out):
            if i % 3 == 1 and merged:
                s, _, lines = merged.pop()
                merged.append((s, item[1], lines + item[2]))
            else:
                merged.append(item)
        out = merged
    return out


def ours(ref: Path, hyp: Path) -> dict:
    names = [S_BLEU.name, T_BLEU.name, TBHR.name]
    return evaluate_pair(read_document(ref), read_document(hyp), names)["metrics"]


CASES = [(f, merge, move, seed) for f in SRT_FILES for merge in (False, True) for move, seed in ((0, 1), (700, 2))]


@pytest.mark.parametrize(("name", "merge", "move_ms", "seed"), CASES)
def test_equal_to_suber_command_line(tmp_path: Path, name: str, merge: bool, move_ms: int, seed: int) -> None:
    ref = shared_path("corpora", "srt", name)
    items = cues(ref.read_text(encoding="utf-8-sig"))
    hyp = write_srt(tmp_path / "hyp.srt", edited(items, random.Random(seed), merge=merge, move_ms=move_ms))
    # suber's BLEU fails (an assertion) when the segment counts differ: not asked then
    expected = suber_cli([hyp], [ref], ("t-BLEU", "AS-BLEU") if merge else ("BLEU", "t-BLEU", "AS-BLEU"))
    got = ours(ref, hyp)
    assert got[T_BLEU.name]["value"] == expected["t-BLEU"]
    assert got[TBHR.name]["value"] == round(expected["AS-BLEU"] - expected["t-BLEU"], 3)
    assert got[TBHR.name]["negative"] == (got[TBHR.name]["value"] < 0)
    if merge:  # fewer hypothesis blocks: S-BLEU does not apply (suber refuses BLEU too)
        assert got[S_BLEU.name]["value"] is None
        assert "blocks" in got[S_BLEU.name]["reason"]
        assert len(cues(hyp.read_text(encoding="utf-8"))) < len(items)
    else:
        assert got[S_BLEU.name]["value"] == expected["BLEU"]


def test_word_on_a_shared_cue_boundary_is_dropped(tmp_path: Path) -> None:
    """Three words over 0-3 s get times ~0, 1.5 and ~3 s; reference cues 0-1.5 and 1.5-3 share 1.5 s:
    the middle word belongs to neither and is dropped (t-BLEU below 100), as in SubER."""
    ref = write_srt(tmp_path / "ref.srt", [(stamp(0), stamp(1500), ["aa bb"]), (stamp(1500), stamp(3000), ["cc"])])
    hyp = write_srt(tmp_path / "hyp.srt", [(stamp(0), stamp(3000), ["aa bb cc"])])
    expected = suber_cli([hyp], [ref], ("t-BLEU",))
    got = ours(ref, hyp)
    assert got[T_BLEU.name]["value"] == expected["t-BLEU"]
    assert expected["t-BLEU"] < 100.0
    hyp2 = write_srt(tmp_path / "hyp2.srt", [(stamp(0), stamp(3000), ["aa bb cc dd"])])  # no word on 1.5 s
    assert ours(ref, hyp2)[T_BLEU.name]["value"] == suber_cli([hyp2], [ref], ("t-BLEU",))["t-BLEU"]


def test_tagged_text_blocks_and_no_times() -> None:
    """Tagged text: S-BLEU over <eob> blocks (suber's BLEU on those blocks); T-BLEU needs times."""
    folder = shared_path("corpora", "subtitles_tagged")
    ref, hyp = read_document(folder / "amara.fr", "tagged"), read_document(folder / "amara.fr", "tagged")
    res = evaluate_pair(ref, hyp, [S_BLEU.name, T_BLEU.name, TBHR.name])["metrics"]
    n_blocks = (folder / "amara.fr").read_text(encoding="utf-8").count("<eob>")
    assert (res[S_BLEU.name]["value"], res[S_BLEU.name]["n_blocks"]) == (100.0, n_blocks)
    assert res[T_BLEU.name]["value"] is None and "times" in res[T_BLEU.name]["reason"]
    assert res[TBHR.name]["value"] is None


def test_pooled_over_texts_is_suber_multi_file(tmp_path: Path) -> None:
    """Two texts pooled: SubER's multi-file mode (its -H and -R take several files)."""
    refs, hyps = [], []
    for k, name in enumerate(SRT_FILES):
        ref = shared_path("corpora", "srt", name)
        items = cues(ref.read_text(encoding="utf-8-sig"))
        refs.append(ref)
        hyps.append(write_srt(tmp_path / f"h{k}.srt", edited(items, random.Random(k), merge=False, move_ms=300)))
    expected = suber_cli(hyps, refs)
    pairs = [(read_document(r), read_document(h)) for r, h in zip(refs, hyps, strict=True)]
    got = evaluate_corpus(pairs, [S_BLEU.name, T_BLEU.name, TBHR.name])["pooled"]["metrics"]
    assert got[S_BLEU.name]["value"] == expected["BLEU"]
    assert got[T_BLEU.name]["value"] == expected["t-BLEU"]
    assert got[TBHR.name]["value"] == round(expected["AS-BLEU"] - expected["t-BLEU"], 3)


def test_contract_statistics_add_across_texts(tmp_path: Path) -> None:
    """Through the registry: statistics of two texts added, then scored = the pooled value."""
    docs = []
    for k, name in enumerate(SRT_FILES):
        ref = shared_path("corpora", "srt", name)
        hyp = write_srt(
            tmp_path / f"h{k}.srt",
            edited(cues(ref.read_text(encoding="utf-8-sig")), random.Random(k), merge=False, move_ms=0),
        )
        docs.append((read_document(ref), read_document(hyp)))
    items = [pair_data(subtitle_side(r), subtitle_side(h)) for r, h in docs]
    pooled = evaluate_corpus(docs, [T_BLEU.name])["pooled"]["metrics"][T_BLEU.name]["value"]
    m = get_measure(T_BLEU.name)
    assert m.card.citation.startswith("Cherry")
    assert m.compute(items, {}).value == pooled
    assert m.score(m.add([m.statistics(i, {}) for i in items]), {}).to_dict()["value"] == pooled


def test_cue_without_duration_is_not_applicable() -> None:
    """SubER fails on a cue of zero duration (its word-time interpolation asserts): not applicable, named."""
    path = shared_path("corpora", "srt", "pysrt_capability_tester.srt")
    res = evaluate_pair(read_document(path), read_document(path), [S_BLEU.name, T_BLEU.name, TBHR.name])["metrics"]
    for name in (S_BLEU.name, T_BLEU.name, TBHR.name):
        assert res[name]["value"] is None
        assert "without duration" in res[name]["reason"]
