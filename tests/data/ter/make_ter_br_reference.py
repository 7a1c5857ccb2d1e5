"""Make ter_br_reference.json: sacrebleu's TER with shifts on every distinct masked (TER-br)
sentence pair of the four real MuST-Cinema systems against amara.fr (``../shared/corpora/
subtitles_tagged``), read by tests/metrics/test_ter_kernel.py.

Masked, every word is ``#`` and only the break tags ``<eob>`` ``<eol>`` stay, so the file holds
the pairs' shapes and sacrebleu's results, none of the corpus' text. On these pairs sacrebleu's
pure-Python shift search is at its slowest (every word matches every other; 138 of the 1,618 pairs
reach its 1,000-candidate cap): 56 s of CPU for all of them, against 11 s for the 2,176 word pairs,
which the test keeps checking live. The test checks the stored results against sacrebleu itself on
a fixed sample every run, and computes everything live when the installed sacrebleu is another
version than the one that made the file.

Run from the repository root with the project's venv (sacrebleu installed), ../shared beside it:

    .venv/bin/python tests/data/ter/make_ter_br_reference.py > tests/data/ter/ter_br_reference.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import sacrebleu

ROOT = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "metrics")]

from test_ter_kernel import SYSTEMS, masked, sacrebleu_shifts, shape, shape_key  # noqa: E402


def main() -> None:
    folder = ROOT.parent / "shared" / "corpora" / "subtitles_tagged"
    ref = (folder / "amara.fr").read_text(encoding="utf-8").splitlines()
    results: dict[str, list[object]] = {}
    for system in SYSTEMS:
        hyp = (folder / system).read_text(encoding="utf-8").splitlines()
        for h, r in zip(hyp, ref, strict=True):
            mh, mr = masked(h.split()), masked(r.split())
            key = shape_key(mh, mr)
            if key not in results:
                edits, shifts, words, checked = sacrebleu_shifts(mh, mr)
                results[key] = [edits, shifts, shape(words), checked]
    meta = {"sacrebleu": sacrebleu.__version__, "systems": list(SYSTEMS), "reference": "amara.fr"}
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(results.items())]
    sys.stdout.write('{"meta": ' + json.dumps(meta) + ',\n "pairs": {\n' + ",\n".join(lines) + "\n }\n}\n")


if __name__ == "__main__":
    main()
