"""Check and time CHAT -> ELAN -> CHAT on every real CHAT file, against pylangacq's own conversion.

    .venv/bin/python bench/check_chat_elan_roundtrip.py

For each file of ../shared/corpora/chat: whether the CHAT file comes back byte for byte through
segagree's ELAN file, whether pympi reads that ELAN file, whether its ``mor@CHI``-style dependent
tiers hold what pylangacq's ``to_elan`` writes for the same file (pylangacq's output carries CHAT's
bullet bytes, which XML cannot hold: they are removed before pympi parses it; tiers of utterances
moved to an extra tier are left out of the comparison), and the best of three wall times of
segagree's two conversions (each reading its file and writing the other) and of pylangacq's
``to_elan_strs`` on a file it has parsed already (an XML string, not a file).
"""

from __future__ import annotations

import re
import tempfile
import time
import warnings
from pathlib import Path

import pylangacq
import pympi

from segagree.formats import read_document, write_document

CHAT = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "chat"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def best(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def dependents(path: Path) -> dict[str, list[str]]:
    eaf = pympi.Elan.Eaf(str(path))
    tiers = [t for t in eaf.get_tier_names() if "@" in t]
    return {t: sorted(" ".join(v.split()) for *_, v, _ in eaf.get_ref_annotation_data_for_tier(t)) for t in tiers}


def check(source: Path, tmp: Path) -> str:
    """One file's line of the table."""
    eaf, back, ref = tmp / "x.eaf", tmp / source.name, tmp / "ref.eaf"
    to_eaf = best(lambda: write_document(read_document(source), eaf))
    to_cha = best(lambda: write_document(read_document(eaf), back))
    same = back.read_bytes() == source.read_bytes()
    reader = pylangacq.read_chat(str(source), strict=False)
    theirs = best(reader.to_elan_strs)
    ref.write_text(_NOT_XML.sub("", reader.to_elan_strs()[0]), encoding="utf-8")
    ours, reference = dependents(eaf), dependents(ref)
    moved = {t for t in ours if t.endswith(")")}  # overlapping utterances on an extra tier
    agree = all(ours.get(t) == v for t, v in reference.items() if not any(m.startswith(t) for m in moved))
    return f"{source.name:38} {str(same):>5} {str(agree):>15} {to_eaf:9.3f} {to_cha:9.3f} {theirs:12.3f}"


def main() -> None:
    warnings.simplefilter("ignore")
    print(f"{'file':38} {'back':>5} {'deps=pylangacq':>15} {'to eaf s':>9} {'to cha s':>9} {'pylangacq s':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for source in sorted(CHAT.iterdir()):
            print(check(source, Path(tmp)))


if __name__ == "__main__":
    main()
