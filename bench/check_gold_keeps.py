"""Check: a gold file keeps what the decisions did not change, on an ACLEW-shaped ELAN project.

    .venv/bin/python bench/check_gold_keeps.py [--units 280]

Builds a reference ELAN file shaped like the ACLEW gold standard (a child tier CHI whose units carry
``lex@CHI``, ``vcm@CHI`` and ``mwu@CHI`` codes, an adult tier FA1 with ``xds@FA1``, an adult FA2
nobody reviews; values spelled ``0.``, ``what's that?``) and a trainee's file with the same units,
4 of them shifted by 150 ms. Then, with segagree's commands:

1. ``review --time`` of CHI and FA1, the reference unit kept on every group but the 4 (the
   trainee's there), ``adjudicate`` to ELAN;
2. the same review with only 6 groups decided, the rest undecided (``--undecided keep-a``);
3. a token review of the two files, every row decided A.

Each gold is read with pympi (the reference reader) and compared tier by tier with the reference
file: annotations per tier, symbolic children per tier, values as spelled; the wall time of each
``adjudicate`` is printed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import openpyxl
import pympi

WORDS = ["0.", "what's that?", "nice colors.", "xxx.", "mommy!", "look at that."]


def build(path: Path, n: int, shifted: set[int], coded: bool) -> None:
    """An ELAN file of ``n`` units over CHI/FA1/FA2 (every 7th FA2), codes on CHI and FA1 when ``coded``."""
    eaf = pympi.Elan.Eaf()
    eaf.remove_tier("default")
    eaf.add_linguistic_type("transcription")
    eaf.add_linguistic_type("code", "Symbolic_Association", timealignable=False)
    for tier in ("CHI", "FA1", "FA2"):
        eaf.add_tier(tier, "transcription", part=tier)
    children = {"CHI": ["lex@CHI", "vcm@CHI", "mwu@CHI"], "FA1": ["xds@FA1"]}
    if coded:
        for parent, kids in children.items():
            for kid in kids:
                eaf.add_tier(kid, "code", parent=parent)
    for k in range(n):
        tier = "FA2" if k % 7 == 6 else ("CHI", "FA1")[k % 2]
        start = 1000 * k + (150 if k in shifted else 0)
        end = 1000 * k + 800
        eaf.add_annotation(tier, start, end, WORDS[k % len(WORDS)])
        if coded:
            for kid in children.get(tier, []):
                eaf.add_ref_annotation(kid, tier, (start + end) // 2, f"{kid[:3]}{k % 3}")
    eaf.to_file(str(path))


def counts(path: Path) -> dict[str, tuple[int, list[str]]]:
    eaf = pympi.Elan.Eaf(str(path))
    out = {}
    for tier in sorted(eaf.tiers):
        aligned, refs = eaf.tiers[tier][0], eaf.tiers[tier][1]
        values = sorted(v for _, _, v, _ in aligned.values()) + sorted(v for _, v, _, _ in refs.values())
        out[tier] = (len(aligned) + len(refs), values)
    return out


def segagree(*args: object) -> tuple[float, str]:
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "segagree", *map(str, args)], capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(done.stderr)
    return time.perf_counter() - t0, done.stdout + done.stderr


def decide(book: Path, out: Path, sheet: str, choose) -> Path:
    wb = openpyxl.load_workbook(book)
    ws = wb[sheet]
    header = [c.value for c in ws[1]]
    col = header.index("decision") + 1
    for r in range(2, ws.max_row + 1):
        ws.cell(r, col).value = choose(r - 1, dict(zip(header, [c.value for c in ws[r]], strict=False)))
    wb.save(out)
    return out


def compare(label: str, ref: Path, gold: Path, seconds: float) -> None:
    a, b = counts(ref), counts(gold)
    print(f"\n{label}: adjudicate {seconds:.2f} s")
    print(f"  {'tier':10s} {'reference':>9s} {'gold':>6s}  values as spelled")
    for tier in sorted(set(a) | set(b)):
        na, va = a.get(tier, (0, []))
        nb, vb = b.get(tier, (0, []))
        print(f"  {tier:10s} {na:9d} {nb:6d}  {'same' if va == vb else 'differ'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=280)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ref, trainee = root / "goldteam.eaf", root / "trainee.eaf"
        build(ref, args.units, set(), coded=True)
        build(trainee, args.units, {2, 40, 80, 120}, coded=False)
        book = root / "review.xlsx"
        segagree("review", "--time", ref, trainee, "--tier", "CHI", "--tier", "FA1", "-o", book)

        def keep(n: int, row: dict) -> str:
            shifted = row["trainee start"] is not None and row["goldteam start"] != row["trainee start"]
            return "trainee" if shifted else "goldteam"

        seconds, said = segagree("adjudicate", decide(book, root / "d1.xlsx", "Alignment", keep), "-o", root / "g1.eaf")
        compare("1. time review, the reference kept on all groups but the 4 shifted", ref, root / "g1.eaf", seconds)
        print("  " + "\n  ".join(line for line in said.splitlines() if line.startswith(("  tier", "undecided"))))

        def six(n: int, row: dict) -> str | None:
            return "goldteam" if n <= 6 else None

        seconds, said = segagree("adjudicate", decide(book, root / "d2.xlsx", "Alignment", six), "-o", root / "g2.eaf")
        compare("2. time review, 6 groups decided, the rest undecided (keep-a)", ref, root / "g2.eaf", seconds)
        print("  " + "\n  ".join(line for line in said.splitlines() if line.startswith(("  tier", "undecided"))))

        text_book = root / "text.xlsx"
        segagree("review", ref, trainee, "-o", text_book, "--no-kappa")
        decided = decide(text_book, root / "d3.xlsx", "Operations", lambda n, row: "A")
        seconds, said = segagree("adjudicate", decided, "-o", root / "g3.eaf")
        compare("3. token review, every row A", ref, root / "g3.eaf", seconds)
        print(f"  byte for byte: {(root / 'g3.eaf').read_bytes() == ref.read_bytes()}")


if __name__ == "__main__":
    main()
