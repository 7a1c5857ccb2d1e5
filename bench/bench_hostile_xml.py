"""Benchmark: reading hostile and large ELAN files; wall time and peak RSS growth.

    .venv/bin/python bench/bench_hostile_xml.py

Generated, fixed inputs (in a temporary folder):

* ``attr50``: a tier with a 50 MB attribute (pympi's ElementTree re-parse took 70 s);
* ``ann10``: a 10 MB annotation (52 s and 1.8 GB through pympi);
* ``ann9``: a 9 MB annotation (4.5 million one-letter words; under libxml2's 10 MB text limit);
* ``many``: a realistic large file, 200,000 tokens in 20,000 annotations on 2 tiers.

Each line: the outcome (tokens read, or the error's first words) and the seconds taken.
"""

from __future__ import annotations

import resource
import tempfile
import time
from pathlib import Path

from segagree.errors import SegagreeError
from segagree.formats import read_document

HEAD = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT AUTHOR="" DATE="2020-01-01T00:00:00+00:00" '
    b'FORMAT="3.0" VERSION="3.0">\n<HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>\n'
)
TAIL = b'<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="utt" TIME_ALIGNABLE="true"/>\n</ANNOTATION_DOCUMENT>\n'


def _one(value: bytes, attr: bytes = b"") -> bytes:
    slots = (
        b'<TIME_ORDER><TIME_SLOT TIME_SLOT_ID="t1" TIME_VALUE="0"/>'
        b'<TIME_SLOT TIME_SLOT_ID="t2" TIME_VALUE="1000"/></TIME_ORDER>\n'
    )
    ann = (
        b'<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="t1" TIME_SLOT_REF2="t2">'
        b"<ANNOTATION_VALUE>" + value + b"</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>"
    )
    return HEAD + slots + b'<TIER LINGUISTIC_TYPE_REF="utt" TIER_ID="A"' + attr + b">" + ann + b"</TIER>\n" + TAIL


def _many(n_ann: int = 20_000, words: int = 10) -> bytes:
    slots = b"".join(b'<TIME_SLOT TIME_SLOT_ID="t%d" TIME_VALUE="%d"/>' % (i, i * 500) for i in range(2 * n_ann + 2))
    out = [HEAD, b"<TIME_ORDER>", slots, b"</TIME_ORDER>\n"]
    for tier in (0, 1):
        out.append(b'<TIER LINGUISTIC_TYPE_REF="utt" TIER_ID="S%d" PARTICIPANT="S%d">' % (tier, tier))
        for i in range(tier, 2 * n_ann, 2):
            out.append(
                b'<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a%d" TIME_SLOT_REF1="t%d" TIME_SLOT_REF2="t%d">'
                b"<ANNOTATION_VALUE>%s ,</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>"
                % (i, i, i + 1, b" ".join(b"w%d" % k for k in range(words)))
            )
        out.append(b"</TIER>\n")
    out.append(TAIL)
    return b"".join(out)


def main() -> None:
    cases = {
        "attr50": lambda: _one(b"hello .", b' X="' + b"a" * 50_000_000 + b'"'),
        "ann10": lambda: _one(b"w " * 5_000_000 + b"."),
        "ann9": lambda: _one(b"w " * 4_500_000 + b"."),
        "many": _many,
    }
    with tempfile.TemporaryDirectory() as scratch:
        for name, make in cases.items():
            path = Path(scratch) / f"{name}.eaf"
            path.write_bytes(make())
            rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            t0 = time.perf_counter()
            try:
                outcome = f"read {read_document(path).n_tokens} tokens"
            except SegagreeError as err:
                outcome = "refused: " + err.message[:70]
            secs = time.perf_counter() - t0
            grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0) / 1024
            size = path.stat().st_size / 1e6
            print(f"{name:7} {size:6.1f} MB  {secs:6.2f} s  peak RSS +{grown:5.0f} MiB  {outcome}")
            path.unlink()


if __name__ == "__main__":
    main()
