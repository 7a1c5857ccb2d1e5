"""Write sample_corpora/time_panel/: two 20-second recordings segmented into intonation units in time
by three people (kim, lee, ann) and by a machine (vad) that cuts fixed 2-second stretches, as Praat
TextGrids, for `segagree panel --time`. The people start from one segmentation and each moves every
boundary a little and merges a unit now and then (seeded).

Run: python sample_corpora/tools/make_time_panel.py
"""

from __future__ import annotations

import random
from pathlib import Path

DURATION = 20.0


def textgrid(units: list[tuple[float, float, str]]) -> str:
    """A long-format TextGrid with one interval tier ``IU`` (gaps as empty intervals)."""
    intervals, t = [], 0.0
    for start, end, label in units:
        if start > t:
            intervals.append((t, start, ""))
        intervals.append((start, end, label))
        t = end
    if t < DURATION:
        intervals.append((t, DURATION, ""))
    lines = [
        'File type = "ooTextFile"',
        'Object class = "TextGrid"',
        "",
        "xmin = 0",
        f"xmax = {DURATION}",
        "tiers? <exists>",
        "size = 1",
        "item []:",
        "    item [1]:",
        '        class = "IntervalTier"',
        '        name = "IU"',
        "        xmin = 0",
        f"        xmax = {DURATION}",
        f"        intervals: size = {len(intervals)}",
    ]
    for i, (a, b, label) in enumerate(intervals, 1):
        lines += [f"        intervals [{i}]:", f"            xmin = {a:.3f}", f"            xmax = {b:.3f}", f'            text = "{label}"']
    return "\n".join(lines) + "\n"


def person(base: list[float], rng: random.Random) -> list[tuple[float, float, str]]:
    edges = [0.2] + [round(b + rng.gauss(0, 0.06), 3) for b in base] + [DURATION - 0.3]
    kept = [edges[0]] + [e for e in edges[1:-1] if rng.random() > 0.1] + [edges[-1]]
    return [(a, b, "iu") for a, b in zip(kept, kept[1:])]


def main() -> None:
    out = Path(__file__).resolve().parents[1] / "time_panel"
    out.mkdir(exist_ok=True)
    rng = random.Random(11)
    for text in ("walk", "phone"):
        base, t = [], 0.2
        while t < DURATION - 2.5:
            t += rng.uniform(0.8, 2.6)
            base.append(round(t, 3))
        for name in ("kim", "lee", "ann"):
            (out / f"{text}.{name}.TextGrid").write_text(textgrid(person(base, rng)), encoding="utf-8")
        machine = [(float(s), float(min(s + 2, DURATION - 0.3)), "iu") for s in range(0, 18, 2)]
        (out / f"{text}.vad.TextGrid").write_text(textgrid(machine), encoding="utf-8")


if __name__ == "__main__":
    main()
