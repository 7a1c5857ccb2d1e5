"""Check with independent readers that conversions keep what the annotators wrote.

    PYTHONPATH=src .venv/bin/python bench/check_source_roundtrip.py [../shared/corpora]

For every ``.eaf`` below ``eaf/`` and every ``.TextGrid`` below ``textgrid/``:

* **ELAN -> ELAN** (``segagree convert``'s API, default options): the file must come back byte for
  byte; then, written anew (a changed document: its first speaker selected away and back, so
  every unit is unchanged but the file is regenerated), pympi must read the same annotation
  value on every unit tier's annotation (tier, start, end, value), and the scored tokens
  must be the same;
* **ELAN -> TextGrid -> ELAN**: praatio reads each TextGrid tier's labels, compared with pympi's
  values of the ELAN unit tiers; pympi reads the final ELAN file's unit tiers, compared again;
* **TextGrid -> TextGrid** byte for byte, and **TextGrid -> ELAN**: pympi's values against praatio's
  labels of the tiers read.

Prints one line per file with the counts of labels compared and differing, the tiers kept and
lost, and the time the round trip check of ``convert`` took; exits 1 on any difference that no
loss of the conversion names.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from segagree.api.documents import convert
from segagree.formats import read_document
from segagree.formats.roundtrip import unnamed


def pympi_values(path: Path, tiers: list[str]) -> dict[str, list[tuple[int, int, str]]]:
    """(start ms, end ms, value) of each aligned annotation of ``tiers``, as pympi reads them."""
    from pympi.Elan import Eaf

    eaf = Eaf(str(path))
    return {t: sorted((a[0], a[1], a[2]) for a in eaf.get_annotation_data_for_tier(t)) for t in tiers if t in eaf.tiers}


def praatio_labels(path: Path, tiers: list[str]) -> dict[str, list[tuple[int, int, str]]]:
    """(start ms, end ms, label) of each non-empty interval of ``tiers``, as praatio reads them."""
    from praatio import textgrid

    tg = textgrid.openTextgrid(str(path), includeEmptyIntervals=False, duplicateNamesMode="rename")
    out = {}
    for name in tiers:
        if name in tg.tierNames:
            tier = tg.getTier(name)
            out[name] = sorted(
                (round(e.start * 1000), round(e.end * 1000), e.label) for e in tier.entries if e.label.strip()
            )
    return out


def _diff(
    a: dict[str, list[tuple[int, int, str]]], b: dict[str, list[tuple[int, int, str]]], strip: bool = False
) -> tuple[int, int, list[str]]:
    """Annotations of ``a`` compared, those (start, end, value) not found in ``b`` (as a multiset:
    pympi collapses annotations that share an id, so ``a`` may hold fewer), tiers missing in ``b``.
    ``strip``: compare values without surrounding spaces (praatio strips every label it reads, so
    a label's trailing space, which segagree keeps, is not there to compare)."""
    from collections import Counter

    if strip:
        a = {t: [(x, y, v.strip()) for x, y, v in items] for t, items in a.items()}
        b = {t: [(x, y, v.strip()) for x, y, v in items] for t, items in b.items()}

    compared = differing = 0
    missing = [t for t in a if t not in b]
    for tier, items in a.items():
        compared += len(items)
        differing += sum((Counter(items) - Counter(b.get(tier, []))).values())
    return compared, differing, missing


def check_eaf(path: Path, out: Path) -> tuple[str, bool]:
    doc = read_document(path)
    tiers = list(doc.meta.get("unit_tiers") or {})
    began = time.perf_counter()
    same = convert(doc, out / "same.eaf")
    seconds = time.perf_counter() - began
    identical = (out / "same.eaf").read_bytes() == path.read_bytes()
    anew = doc.select_speakers(list(doc.speakers))
    anew.source = anew.source.without_file() if anew.source else None
    anew_report = convert(anew, out / "anew.eaf")
    n1, d1, _ = _diff(pympi_values(path, tiers), pympi_values(out / "anew.eaf", tiers))
    tokens_same = read_document(out / "anew.eaf").token_texts() == doc.token_texts()
    to_tg = convert(doc, out / "x.TextGrid")
    speakers = list(doc.speakers)
    # A TextGrid has one tier per speaker: compare per speaker when each tier is one speaker.
    by_speaker = (
        {doc.meta["unit_tiers"][t]: t for t in tiers} if len(set(doc.meta["unit_tiers"].values())) == len(tiers) else {}
    )
    src_vals = pympi_values(path, tiers)
    src_by_speaker = {s: src_vals[t] for s, t in by_speaker.items() if t in src_vals}
    n2, d2, lost2 = _diff(src_by_speaker, praatio_labels(out / "x.TextGrid", speakers), strip=True)
    back = convert(read_document(out / "x.TextGrid"), out / "back.eaf")
    n3, d3, lost3 = _diff(src_by_speaker, pympi_values(out / "back.eaf", speakers))
    bad = [
        d for r in (same, anew_report, to_tg, back) for d in unnamed(r.differences or [], r.read_losses, r.write_losses)
    ]
    line = (
        f"{path.name}: eaf->eaf identical={identical} check={seconds:.2f}s; anew: {d1}/{n1} values differ, "
        f"tokens same={tokens_same}; eaf->TextGrid: {d2}/{n2} labels differ (praatio), tiers lost {lost2}; "
        f"->eaf: {d3}/{n3} values differ (pympi), tiers lost {lost3}; "
        f"measured differences {[d.line() for d in to_tg.differences or []]}; unnamed {len(bad)}"
    )
    # Values not written anew must be named by a loss (blank annotations, units with no words).
    return line, identical and tokens_same and not bad and (d1 == 0 or bool(anew_report.lines()))


def check_textgrid(path: Path, out: Path) -> tuple[str, bool]:
    doc = read_document(path)
    same = convert(doc, out / "same.TextGrid")
    identical = (out / "same.TextGrid").read_bytes() == path.read_bytes()
    tiers = list(doc.meta.get("tiers") or [])
    to_eaf = convert(doc, out / "x.eaf")
    src = praatio_labels(path, tiers)
    by_speaker = {s: src[s] for s in doc.speakers if s in src}
    n, d, lost = _diff(by_speaker, pympi_values(out / "x.eaf", list(by_speaker)), strip=True)
    bad = [x for r in (same, to_eaf) for x in unnamed(r.differences or [], r.read_losses, r.write_losses)]
    return (
        f"{path.name}: TextGrid->TextGrid identical={identical}; TextGrid->eaf: {d}/{n} values differ (pympi vs "
        f"praatio), tiers lost {lost}; unnamed {len(bad)}",
        identical and not bad,
    )


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "shared" / "corpora"
    ok = True
    with tempfile.TemporaryDirectory() as scratch:
        for i, path in enumerate(sorted((root / "eaf").glob("*.eaf")) + sorted((root / "textgrid").glob("*.TextGrid"))):
            out = Path(scratch) / str(i)
            out.mkdir()
            line, good = (check_eaf if path.suffix == ".eaf" else check_textgrid)(path, out)
            ok = ok and good
            print(("ok   " if good else "FAIL ") + line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
