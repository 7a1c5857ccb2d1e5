"""Write sample_corpora/panel/: four short monologues segmented into intonation units by three
people (ann1, ann2, ann3) and by a machine (seg) that cuts every five words, for `segagree panel`.

The people start from one segmentation and each moves or drops a few boundaries (seeded), as
annotators of one transcript do. Run: python sample_corpora/tools/make_panel.py
"""

from __future__ import annotations

import random
from pathlib import Path

TEXTS = {
    "market": "so we went down to the market on saturday and it was packed you know people everywhere "
    "and my sister wanted the good tomatoes the ones from the farm up the hill but they were gone "
    "already so we got the small ones instead and honestly they were fine they were really sweet",
    "train": "the train was late again this morning about twenty minutes and nobody said anything "
    "no announcement nothing we just stood there on the platform in the cold and then it came and "
    "it was full so I had to stand the whole way into the city which is not how I like to start",
    "kitchen": "when we moved in the kitchen was a mess the cupboards did not close the floor was "
    "sticky and there was this smell we could never find where it came from so we pulled out the "
    "oven and behind it there was a whole sandwich I do not know how old it was but it was old",
    "garden": "my grandfather kept bees at the bottom of the garden three hives I think and every "
    "summer he would take the honey out with his bare hands no gloves no veil nothing and he never "
    "got stung or at least he said he never did but I saw him once and he did get stung twice",
}
ENDNOTES = [",", ",", ",", "."]


def base_units(words: list[str], rng: random.Random) -> list[int]:
    """Unit end positions (index of a unit's last word) of the shared segmentation."""
    ends, i = [], -1
    while i < len(words) - 1:
        i = min(len(words) - 1, i + rng.randint(2, 7))
        ends.append(i)
    return ends


def person(ends: list[int], n: int, rng: random.Random) -> list[int]:
    """One annotator's version: a few boundaries moved by one word or dropped."""
    out = set()
    for e in ends[:-1]:
        r = rng.random()
        if r < 0.12:
            continue
        if r < 0.3:
            e = max(0, min(n - 2, e + rng.choice((-1, 1))))
        out.add(e)
    out.add(n - 1)
    return sorted(out)


def write(path: Path, words: list[str], ends: list[int], rng: random.Random) -> None:
    lines, start = [], 0
    for e in ends:
        mark = "." if e == len(words) - 1 else rng.choice(ENDNOTES)
        lines.append(" ".join(words[start : e + 1]) + f" {mark}")
        start = e + 1
    body = "\n".join(f"{'KIM:' if i == 0 else ''}\t{line}" for i, line in enumerate(lines))
    path.write_text(body + "\n", encoding="utf-8")


def main() -> None:
    out = Path(__file__).resolve().parents[1] / "panel"
    out.mkdir(exist_ok=True)
    rng = random.Random(7)
    for name, text in TEXTS.items():
        words = text.split()
        ends = base_units(words, rng)
        for annotator in ("ann1", "ann2", "ann3"):
            write(out / f"{name}.{annotator}.txt", words, person(ends, len(words), rng), rng)
        machine = [min(i + 4, len(words) - 1) for i in range(0, len(words), 5)]
        write(out / f"{name}.seg.txt", words, sorted(set(machine)), rng)


if __name__ == "__main__":
    main()
