"""pyannote.metrics 4.2.0 and dscore outputs for DER and JER, stored in diarization_reference.json (read
by tests/metrics/test_diarization.py). Run outside the repository, in a venv with pyannote.metrics and,
for dscore, its repository (github.com/nryant/dscore, commit e02f949; it runs NIST's md-eval-22.pl
with perl, and needs intervaltree and tabulate):

    pip install pyannote.metrics==4.2.0 intervaltree tabulate
    python make_diarization_reference.py /path/to/dscore > diarization_reference.json

Cases: seeded random speaker turns of a reference and a hypothesis on one recording (each speaker's
own turns never overlap, different speakers' do; times at 10 ms), with pyannote's collar 0, 0.2 or
0.5 s and skip_overlap on or off. dscore's DER is run with --collar half of pyannote's (md-eval
removes the collar on each side) and --ignore_overlaps for skip_overlap; its JER uses no collar.
"""

import json
import random
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

from pyannote.core import Annotation, Segment
from pyannote.metrics.diarization import DiarizationErrorRate, JaccardErrorRate

warnings.filterwarnings("ignore")


def speaker_turns(rng, label, length):
    out, pos = [], rng.uniform(0, 3)
    while pos < length - 0.5:
        end = min(length, pos + rng.uniform(0.3, 4))
        out.append([round(pos, 2), round(end, 2), label])
        pos = end + rng.uniform(0.1, 6)
    return out


def annotation(turns):
    a = Annotation(uri="rec")
    for s, e, label in turns:
        a[Segment(s, e), a.new_track(Segment(s, e))] = label
    return a


def rttm(turns, path):
    lines = [f"SPEAKER rec 1 {s:.2f} {e - s:.2f} <NA> <NA> {label} <NA> <NA>" for s, e, label in turns]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def dscore(repo, ref, hyp, collar, skip):
    with tempfile.TemporaryDirectory() as tmp:
        rttm(ref, f"{tmp}/ref.rttm")
        rttm(hyp, f"{tmp}/sys.rttm")
        args = [sys.executable, f"{repo}/score.py", "-r", f"{tmp}/ref.rttm", "-s", f"{tmp}/sys.rttm"]
        args += ["--collar", str(collar / 2)] + (["--ignore_overlaps"] if skip else [])
        out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    row = next(line for line in out.splitlines() if line.startswith("*** OVERALL ***"))
    der, jer = row.split()[3:5]
    return {"der_percent": der, "jer_percent": jer}


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else None
    rng = random.Random(51)
    cases = []
    for i in range(16):
        n_ref, n_hyp = rng.randint(1, 4), rng.randint(1, 4)
        ref = sorted(t for k in range(n_ref) for t in speaker_turns(rng, f"s{k}", 40))
        hyp = sorted(t for k in range(n_hyp) for t in speaker_turns(rng, "ABCD"[k], 40))
        collar, skip = [0.0, 0.2, 0.5][i % 3], i % 4 == 3
        der = DiarizationErrorRate(collar=collar, skip_overlap=skip)(annotation(ref), annotation(hyp), detailed=True)
        jer = JaccardErrorRate(collar=collar, skip_overlap=skip)(annotation(ref), annotation(hyp))
        case = {"name": f"random{i}", "ref": ref, "hyp": hyp, "collar": collar, "skip_overlap": skip}
        case["pyannote"] = {
            "der": der["diarization error rate"],
            "total": der["total"],
            "missed_detection": der["missed detection"],
            "false_alarm": der["false alarm"],
            "confusion": der["confusion"],
            "jer": jer,
        }
        if repo:
            case["dscore"] = dscore(repo, ref, hyp, collar, skip)
        cases.append(case)
    json.dump({"cases": cases}, sys.stdout, indent=1)


main()
