"""Long-video subtitle pairs for the benchmarks: a speech recognizer's captions against another's.

One video of ``minutes`` minutes of speech (2.6 words per second, with a pause of 0.5-2 s every
40-80 s) gives two SRT files of its words, shaped like the pairs users compare:

* ``<name>.ref.srt``, Whisper-like: cased and punctuated words, cues of 6-14 words in one or two
  lines of at most 42 characters, timed from their words, touching their neighbours except at pauses;
* ``<name>.asr.srt``, YouTube-automatic-caption-like: lower case, no punctuation, a recognizer's
  errors (8 % of the words substituted, 3 % dropped, 3 % inserted), one-line cues of 5-9 words whose
  times are the words' times moved by up to 0.3 s, each cue ending where the next begins.

The words are those of MuST-Cinema's ``amara.en`` when ``../shared/corpora`` holds it (TED talks,
repeated as needed), else pseudo-words drawn with Zipf frequencies. Usage (writes the files):

    .venv/bin/python bench/long_subtitle_pair.py OUT_DIR [--minutes 14] [--name talk] [--seed 1]
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
AMARA = ROOT.parent / "shared" / "corpora" / "subtitles_tagged" / "amara.en"
WORDS_PER_SECOND = 2.6


def _source_words(n: int, rng: np.random.Generator) -> list[str]:
    if AMARA.is_file():
        text = re.sub(r"<eo[bl]>", " ", AMARA.read_text(encoding="utf-8"))
        words = text.split()
    else:
        syllables = ["ka", "lo", "mi", "ne", "ru", "ta", "so", "vi", "de", "pa"]
        vocab = ["".join(rng.choice(syllables, size=int(rng.integers(1, 4)))) for _ in range(3000)]
        ranks = np.minimum(rng.zipf(1.3, size=n), len(vocab)) - 1
        words = [vocab[int(r)] for r in ranks]
    reps = n // len(words) + 1
    return (words * reps)[:n]


def _stamp(seconds: float) -> str:
    ms = int(round(seconds * 1000))
    h, ms = divmod(ms, 3_600_000)
    m, ms = divmod(ms, 60_000)
    s, ms = divmod(ms, 1000)
    return f"{h:02d}:{m:02d}:{s:02d},{ms:03d}"


def _write_srt(path: Path, cues: list[tuple[float, float, list[str]]]) -> None:
    blocks = []
    for k, (start, end, lines) in enumerate(cues, 1):
        blocks.append(f"{k}\n{_stamp(start)} --> {_stamp(end)}\n" + "\n".join(lines) + "\n")
    path.write_text("\n".join(blocks), encoding="utf-8")


def _lines(words: list[str], max_chars: int = 42) -> list[str]:
    """One line, or two split where both halves are closest to even (each at most ``max_chars`` if
    possible)."""
    text = " ".join(words)
    if len(text) <= max_chars or len(words) < 2:
        return [text]
    best = min(
        range(1, len(words)),
        key=lambda k: abs(len(" ".join(words[:k])) - len(" ".join(words[k:]))),
    )
    return [" ".join(words[:best]), " ".join(words[best:])]


def make_pair(out: Path, minutes: float = 14.0, name: str = "talk", seed: int = 1) -> tuple[Path, Path]:
    """Write ``<name>.ref.srt`` and ``<name>.asr.srt`` into ``out``; return their paths."""
    rng = np.random.default_rng(seed)
    n = int(minutes * 60 * WORDS_PER_SECOND)
    words = _source_words(n, rng)
    times: list[tuple[float, float]] = []
    t = 0.5
    next_pause = t + rng.uniform(40, 80)
    for _ in words:
        d = rng.uniform(0.25, 0.52)
        times.append((t, t + d * 0.9))
        t += d
        if t > next_pause:
            t += rng.uniform(0.5, 2.0)
            next_pause = t + rng.uniform(40, 80)
    # reference: cues of 6-14 words; a cue ends at the next cue's start unless a pause falls between
    ref_cues: list[tuple[float, float, list[str]]] = []
    i = 0
    while i < n:
        k = min(n, i + int(rng.integers(6, 15)))
        start, end = times[i][0], times[k - 1][1]
        if k < n and times[k][0] - end < 0.4:
            end = times[k][0]
        ref_cues.append((start, end, _lines(words[i:k])))
        i = k
    # recognizer: lower case, no punctuation, errors; (word, time) pairs
    asr: list[tuple[str, float, float]] = []
    for w, (s, e) in zip(words, times, strict=True):
        plain = re.sub(r"[^\w']", "", w.lower())
        if not plain:  # a recognizer writes no punctuation
            continue
        r = rng.random()
        if r < 0.03:
            continue
        if r < 0.11:
            plain = words[int(rng.integers(0, n))].lower().strip(".,?!")
        asr.append((plain, s, e))
        if rng.random() < 0.03:
            asr.append((words[int(rng.integers(0, n))].lower().strip(".,?!"), e, e + 0.1))
    hyp_cues: list[tuple[float, float, list[str]]] = []
    i = 0
    while i < len(asr):
        k = min(len(asr), i + int(rng.integers(5, 10)))
        start = max(0.0, asr[i][1] + rng.uniform(-0.3, 0.3))
        if hyp_cues:
            start = max(start, hyp_cues[-1][0] + 0.1)
            prev_start, _, prev_words = hyp_cues[-1]
            hyp_cues[-1] = (prev_start, start, prev_words)
        end = asr[k - 1][2] + rng.uniform(0, 0.3)
        hyp_cues.append((start, max(end, start + 0.2), [" ".join(w for w, _, _ in asr[i:k])]))
        i = k
    out.mkdir(parents=True, exist_ok=True)
    ref_path, hyp_path = out / f"{name}.ref.srt", out / f"{name}.asr.srt"
    _write_srt(ref_path, ref_cues)
    _write_srt(hyp_path, hyp_cues)
    return ref_path, hyp_path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--minutes", type=float, default=14.0)
    parser.add_argument("--name", default="talk")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for path in make_pair(args.out, args.minutes, args.name, args.seed):
        print(path)


if __name__ == "__main__":
    main()
