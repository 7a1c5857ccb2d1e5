"""Writing small ELAN, Praat and units-table files for the time-plan tests (shapes of real lab exports:
one ELAN file per annotator with tier names spelled differently and an extra tier, Praat tiers with
pause labels, tables with a recording column in milliseconds)."""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

Interval = tuple[float, float, str]


def write_eaf(path: Path, tiers: dict[str, list[Interval]], participant: str = "") -> Path:
    """An ELAN 3.0 file with one time-aligned tier per entry (times in seconds, written in ms)."""
    slots: list[str] = []
    bodies: list[str] = []
    n = 0
    for tier, ivs in tiers.items():
        anns = []
        for s, e, label in ivs:
            a, b = f"ts{n + 1}", f"ts{n + 2}"
            slots.append(f'<TIME_SLOT TIME_SLOT_ID="{a}" TIME_VALUE="{round(s * 1000)}"/>')
            slots.append(f'<TIME_SLOT TIME_SLOT_ID="{b}" TIME_VALUE="{round(e * 1000)}"/>')
            anns.append(
                f'<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a{n // 2 + 1}" TIME_SLOT_REF1="{a}" '
                f'TIME_SLOT_REF2="{b}"><ANNOTATION_VALUE>{escape(label)}</ANNOTATION_VALUE>'
                "</ALIGNABLE_ANNOTATION></ANNOTATION>"
            )
            n += 2
        who = f' PARTICIPANT="{escape(participant)}"' if participant else ""
        bodies.append(f'<TIER LINGUISTIC_TYPE_REF="utt" TIER_ID="{escape(tier)}"{who}>{"".join(anns)}</TIER>')
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<ANNOTATION_DOCUMENT AUTHOR="" DATE="2020-01-01T00:00:00+00:00" FORMAT="3.0" VERSION="3.0">\n'
        '<HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>\n'
        f"<TIME_ORDER>{''.join(slots)}</TIME_ORDER>\n" + "\n".join(bodies) + "\n"
        '<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="utt" TIME_ALIGNABLE="true"/>\n'
        "</ANNOTATION_DOCUMENT>\n"
    )
    path.write_text(text, encoding="utf-8")
    return path


def write_textgrid(path: Path, tiers: dict[str, list[Interval]], xmax: float) -> Path:
    """A long-form TextGrid whose tiers are tiled: the given intervals, empty ones between."""
    items = []
    for k, (name, ivs) in enumerate(tiers.items(), start=1):
        tiled: list[Interval] = []
        t = 0.0
        for s, e, label in sorted(ivs):
            if s > t:
                tiled.append((t, s, ""))
            tiled.append((s, e, label))
            t = e
        if t < xmax or not tiled:
            tiled.append((t, xmax, ""))
        body = "".join(
            f'        intervals [{i}]:\n            xmin = {s} \n            xmax = {e} \n            text = "{lab}" \n'
            for i, (s, e, lab) in enumerate(tiled, 1)
        )
        items.append(
            f'    item [{k}]:\n        class = "IntervalTier" \n        name = "{name}" \n        xmin = 0 \n'
            f"        xmax = {xmax} \n        intervals: size = {len(tiled)} \n{body}"
        )
    text = (
        f'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0 \nxmax = {xmax} \ntiers? <exists> \n'
        f"size = {len(tiers)} \nitem []: \n" + "".join(items)
    )
    path.write_text(text, encoding="utf-8")
    return path


def write_table(
    path: Path, rows: list[tuple[str, float, float, str]], header: str = "annotator,start,end,category"
) -> Path:
    """A units table (annotator, start, end, category)."""
    lines = [header] + [f"{a},{s},{e},{c}" for a, s, e, c in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# Stuttering-moment style data: three annotators, a category "_" among others.
STUTTER = {
    "ann1": [(1.0, 2.0, "block"), (3.0, 3.5, "_"), (5.0, 6.2, "rep"), (8.0, 9.0, "prolong"), (11.0, 11.4, "rep")],
    "ann2": [(1.1, 2.1, "block"), (3.1, 3.4, "_"), (5.2, 6.0, "rep"), (8.3, 9.1, "block"), (12.0, 12.5, "rep")],
    "ann3": [(0.9, 1.8, "block"), (5.0, 6.5, "rep"), (8.1, 8.8, "prolong"), (11.1, 11.5, "rep")],
}
SPELLINGS = {"ann1": "Stuttering moments", "ann2": "stuttering moments", "ann3": "stuttering_moments"}
