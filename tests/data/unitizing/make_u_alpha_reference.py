"""Reference outputs of the uα family, stored in u_alpha_reference.json (read by
tests/metrics/test_u_alpha.py). Not run by the tests: it needs the two published implementations,
installed outside the repository, e.g.

    python3 -m venv /tmp/kua && /tmp/kua/bin/pip install krippendorff-unitized-alpha==0.1.0
    git clone https://github.com/lindanna/unitized_alpha /tmp/lind   # unitized_alpha.py
    /tmp/kua/bin/python make_u_alpha_reference.py /tmp/lind > u_alpha_reference.json

Cases: seeded random partitions (integer positions, units of 1-3 annotators' own, gaps between them),
continuum [0, L). Both implementations get the same segments, gaps filled half-open here (the
package's own gap filling treats intervals as closed, which drops positions and crashes on adjacent
units; lindanna's needs a gap somewhere and no empty annotator).
"""

import contextlib
import io
import json
import random
import sys

from krippendorff_unitized_alpha.krippendorffs_unitized_alpha import (
    EMPTY_TAG,
    KrippendorffUnitizedAlpha,
    Segment,
)

sys.path.insert(0, sys.argv[1])
import unitized_alpha as lind  # noqa: E402


def random_case(rng, n_annotators, length, labels):
    units = []
    for a in range(n_annotators):
        pos = rng.randint(0, 5)
        while pos < length - 2:
            end = min(length, pos + rng.randint(1, 12))
            if rng.random() < 0.75:
                units.append([f"A{a}", rng.choice(labels), pos, end])
            pos = end + rng.choice([0, 0, 1, 3])
    return units


def kua(units, length):
    data = {}
    for name in sorted({u[0] for u in units}):
        mine = sorted((u for u in units if u[0] == name), key=lambda u: u[2])
        segs, pos = [], 0
        for _, label, s, e in mine:
            if s > pos:
                segs.append(Segment(EMPTY_TAG, pos, s))
            segs.append(Segment(label, s, e))
            pos = e
        if pos < length:
            segs.append(Segment(EMPTY_TAG, pos, length))
        data[name] = segs
    return float(KrippendorffUnitizedAlpha(data).result)


def lindanna(units, length):
    data = [[a, label, str(s), str(e)] for a, label, s, e in units]
    with contextlib.redirect_stdout(io.StringIO()):
        bu, u, (cu, _coverage), kdict = lind.u_alpha(data, length, "nominal")
        _, id_to_label = lind.data_to_dict(data, length)
    num = lambda v: None if v == "NA" else float(v)  # noqa: E731
    return {
        "u_alpha": float(u),
        "bu_alpha": num(bu),
        "cu_alpha": num(cu),
        "ku_alpha": {id_to_label[k]: num(v[0]) for k, v in kdict.items()},
    }


def main():
    rng = random.Random(20261125)
    cases = []
    for i in range(12):
        n = 2 + i % 3
        length = rng.choice([30, 50, 80])
        labels = ["x", "y", "z"][: 1 + i % 3] if i < 9 else ["x", "y"]
        units = random_case(rng, n, length, labels)
        case = {"name": f"random{i}", "length": length, "units": units}
        case["krippendorff_unitized_alpha"] = kua(units, length)
        case["lindanna"] = lindanna(units, length)
        cases.append(case)
    json.dump({"cases": cases}, sys.stdout, indent=1)


main()
