"""pyannote.metrics 4.2.0 outputs for boundary precision/recall and segmentation purity/coverage,
stored in pyannote_reference.json (read by tests/metrics/test_time_boundaries.py). Run outside the
repository:  /tmp/kua/bin/pip install pyannote.metrics==4.2.0
             /tmp/kua/bin/python make_pyannote_reference.py > pyannote_reference.json
Cases: seeded random units of two annotators (float seconds, labels x/y, gaps), A the reference."""

import json
import random
import sys

from pyannote.core import Annotation, Segment, Timeline
from pyannote.metrics.segmentation import (
    SegmentationCoverage,
    SegmentationPrecision,
    SegmentationPurity,
    SegmentationRecall,
)


def units(rng, length):
    out, pos = [], rng.uniform(0, 2)
    while pos < length - 1:
        end = min(length, pos + rng.uniform(0.3, 4))
        if rng.random() < 0.8:
            out.append([round(pos, 3), round(end, 3), rng.choice("xy")])
        pos = end + rng.choice([0, 0, 0.1, 0.7])
    return out


def main():
    rng = random.Random(21)
    cases = []
    for i in range(10):
        a, b = units(rng, 30), units(rng, 30)
        tol = [0.0, 0.2, 0.5][i % 3]
        ref = Annotation()
        for s, e, c in a:
            ref[Segment(s, e)] = c
        hyp = Timeline([Segment(s, e) for s, e, _ in b])
        ref_t = Timeline([Segment(s, e) for s, e, _ in a])
        case = {"name": f"random{i}", "a": a, "b": b, "tolerance": tol}
        case["precision"] = SegmentationPrecision(tolerance=tol)(ref_t, hyp)
        case["recall"] = SegmentationRecall(tolerance=tol)(ref_t, hyp)
        case["purity"] = SegmentationPurity(tolerance=0.5)(ref, hyp)
        case["coverage"] = SegmentationCoverage(tolerance=0.5)(ref, hyp)
        cases.append(case)
    json.dump({"cases": cases}, sys.stdout, indent=1)


main()
