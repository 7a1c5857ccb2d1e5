"""What a new user's real files broke: repeated options, subtitle pairs in agree, colliding stems, odd names."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from cli_process import run_cli

import segagree.api as api


def segagree(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return run_cli(args, cwd=cwd) if cwd is not None else run_cli(args)


def textgrid(intervals: list[tuple[float, float, str]], end: float = 10.0, tier: str = "units") -> str:
    """A one-tier Praat TextGrid of labelled intervals (gaps filled with empty ones)."""
    cells: list[tuple[float, float, str]] = []
    at = 0.0
    for start, stop, label in intervals:
        if start > at:
            cells.append((at, start, ""))
        cells.append((start, stop, label))
        at = stop
    if at < end:
        cells.append((at, end, ""))
    body = "".join(
        f'        intervals [{i}]:\n            xmin = {a}\n            xmax = {b}\n            text = "{t}"\n'
        for i, (a, b, t) in enumerate(cells, 1)
    )
    return (
        'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\n'
        f"xmax = {end}\ntiers? <exists>\nsize = 1\nitem []:\n    item [1]:\n"
        f'        class = "IntervalTier"\n        name = "{tier}"\n        xmin = 0\n        xmax = {end}\n'
        f"        intervals: size = {len(cells)}\n{body}"
    )


A_UNITS = [(0.5, 1.5, "x"), (2.0, 3.0, "y"), (4.0, 5.5, "x"), (6.0, 7.0, "y")]
B_UNITS = [(0.6, 1.4, "x"), (2.2, 3.1, "y"), (4.0, 5.0, "x"), (7.5, 8.0, "y")]

TOKENS_A = "ANN:\tso I went out to the garden ,\n\tand the tomatoes were gone .\n\tall of them ,\n\tgone .\n"
TOKENS_B = "ANN:\tso I went out ,\n\tto the garden and the tomatoes were gone .\n\tall of them gone .\n"


def _pair(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "talk.ann1.txt", tmp_path / "talk.ann2.txt"
    a.write_text(TOKENS_A, encoding="utf-8")
    b.write_text(TOKENS_B, encoding="utf-8")
    return a, b


# --- repeated and comma-separated measure options ------------------------------------------------


def test_compare_repeated_metric_scores_all(tmp_path: Path) -> None:
    a, b = _pair(tmp_path)
    repeated = segagree("compare", a, b, "--metric", "pk", "--metric", "windowdiff", "--json")
    comma = segagree("compare", a, b, "--metric", "pk,windowdiff", "--json")
    mixed = segagree("compare", a, b, "--metric", "pk", "--metric", "windowdiff,pk", "--json")
    outs = []
    for proc in (repeated, comma, mixed):
        assert proc.returncode == 0, proc.stderr
        outs.append(json.loads(proc.stdout)["metrics"])
    assert all(list(out) == ["pk", "windowdiff"] for out in outs)
    assert outs[0] == outs[1] == outs[2]
    alone = {
        name: api.compare(api.read(a), api.read(b), metrics=name)["metrics"][name] for name in ("pk", "windowdiff")
    }
    assert outs[0] == alone


def _two_textgrids(tmp_path: Path) -> tuple[Path, Path]:
    kim, lee = tmp_path / "kim.TextGrid", tmp_path / "lee.TextGrid"
    kim.write_text(textgrid(A_UNITS), encoding="utf-8")
    lee.write_text(textgrid(B_UNITS), encoding="utf-8")
    return kim, lee


def test_agree_time_comma_measures(tmp_path: Path) -> None:
    kim, lee = _two_textgrids(tmp_path)
    comma = segagree("agree", "--time", kim, lee, "--measure", "alpha_u,boundary_f1", "--json")
    assert comma.returncode == 0, comma.stderr
    assert list(json.loads(comma.stdout)["measures"]) == ["alpha_u", "boundary_f1"]
    repeated = segagree("agree", "--time", kim, lee, "--measure", "alpha_u", "--measure", "boundary_f1", "--json")
    assert json.loads(repeated.stdout)["measures"] == json.loads(comma.stdout)["measures"]


def test_run_time_comma_measures(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    for text in ("t1", "t2"):
        (root / f"{text}.kim.TextGrid").write_text(textgrid(A_UNITS), encoding="utf-8")
        (root / f"{text}.lee.TextGrid").write_text(textgrid(B_UNITS), encoding="utf-8")
    proc = segagree("run", root, "-o", tmp_path / "out", "--time", "--measure", "alpha_u,boundary_f1", "--json")
    assert proc.returncode == 0, proc.stderr
    measures = {r["measure"] for r in json.loads(proc.stdout)["rows"]}
    assert measures == {"alpha_u", "boundary_f1"}


# --- agree on two subtitle files ---------------------------------------------------------------------

SRT_A = (
    "1\n00:00:01,000 --> 00:00:03,000\nSo I went out\nto the garden.\n\n"
    "2\n00:00:03,500 --> 00:00:05,000\nThe tomatoes were gone.\n"
)
SRT_B = (
    "1\n00:00:01,000 --> 00:00:02,000\nSo I went out\n\n"
    "2\n00:00:02,000 --> 00:00:05,000\nto the garden. The tomatoes\nwere gone.\n"
)


def test_agree_on_two_subtitle_files_uses_the_subtitle_scheme(tmp_path: Path) -> None:
    a, b = tmp_path / "film.ref.srt", tmp_path / "film.mt.srt"
    a.write_text(SRT_A, encoding="utf-8")
    b.write_text(SRT_B, encoding="utf-8")
    proc = segagree("agree", a, b, "--sims", "50", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["scheme"] == "subtitle"
    compared = json.loads(segagree("compare", a, b, "--json").stdout)
    pair = out["pairs"][0]["pooled"]
    assert pair["sf"] == compared["sf"] and pair["sf_b"] == compared["sf_b"]


# --- annotators named after folders, or by --annotator NAME=FILE --------------------------------------


def _audited_and_aligned(tmp_path: Path) -> tuple[Path, Path]:
    hand, mfa = tmp_path / "audited" / "X.TextGrid", tmp_path / "mfa" / "X.TextGrid"
    for path, units in ((hand, A_UNITS), (mfa, B_UNITS)):
        path.parent.mkdir()
        path.write_text(textgrid(units), encoding="utf-8")
    return hand, mfa


def test_colliding_stems_are_named_after_folders(tmp_path: Path) -> None:
    hand, mfa = _audited_and_aligned(tmp_path)
    kim, lee = tmp_path / "kim.TextGrid", tmp_path / "lee.TextGrid"
    kim.write_text(hand.read_text(encoding="utf-8"), encoding="utf-8")
    lee.write_text(mfa.read_text(encoding="utf-8"), encoding="utf-8")
    distinct = json.loads(segagree("agree", "--time", kim, lee, "--measure", "alpha_u", "--json").stdout)
    proc = segagree("agree", "--time", "audited/X.TextGrid", "mfa/X.TextGrid", "--measure", "alpha_u", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"{distinct['alpha_u']:.4f}" in proc.stdout and "units per annotator: audited 4, mfa 4" in proc.stdout
    plan = segagree("agree", "--time", "audited/X.TextGrid", "mfa/X.TextGrid", "--plan", cwd=tmp_path)
    assert "named after their folders" in " ".join(plan.stdout.split())
    named = segagree(
        "agree", "--time", "--annotator", "hand=audited/X.TextGrid", "--annotator", "mfa=mfa/X.TextGrid",
        "--measure", "alpha_u", "--json", cwd=tmp_path,
    )  # fmt: skip
    out = json.loads(named.stdout)
    assert out["annotators"] == ["hand", "mfa"] and out["alpha_u"] == distinct["alpha_u"]
    api_out = api.agree_time([], annotators={"hand": hand, "mfa": mfa}, measures=["alpha_u"])
    assert api_out["annotators"] == ["hand", "mfa"] and api_out["alpha_u"] == distinct["alpha_u"]


def test_annotator_option_errors(tmp_path: Path) -> None:
    hand, mfa = _audited_and_aligned(tmp_path)
    for args, needle in (
        (("--annotator", "hand"), "--annotator takes NAME=FILE"),
        (("--annotator", "a=nowhere.TextGrid"), "no such file"),
        (("--annotator", f"a={hand}", "--annotators", "a,b"), "not both"),
    ):
        proc = segagree("agree", "--time", mfa, *args)
        lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
        assert proc.returncode == 2 and len(lines) == 1 and needle in lines[0], proc.stderr
    table = tmp_path / "units.csv"
    table.write_text("annotator,start,end,category\na,0,1,x\nb,0,1,x\n", encoding="utf-8")
    proc = segagree("agree", "--time", "--annotator", f"a={table}")
    assert proc.returncode == 2 and "annotator column" in proc.stderr and "Traceback" not in proc.stderr
    proc = segagree("agree", hand, mfa, "--annotator", f"a={hand}")
    assert proc.returncode == 2 and "--annotator" in proc.stderr and "Traceback" not in proc.stderr


# --- run --time: declared annotators without a file; odd file names ---------------------------------


def test_run_time_declared_annotator_without_a_file(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "t1.ann1.TextGrid").write_text(textgrid(A_UNITS), encoding="utf-8")
    (root / "t1.ann2.TextGrid").write_text(textgrid(B_UNITS), encoding="utf-8")
    (root / "t2.ann1.TextGrid").write_text(textgrid(B_UNITS), encoding="utf-8")
    base = ("run", root, "--time", "--measure", "alpha_u,boundary_f1", "--annotators", "ann1,ann2")
    listed = segagree(*base, "-o", tmp_path / "listed")
    assert listed.returncode == 0, listed.stderr
    assert "t2: no file of 'ann2' (declared by --annotators); --missing-as-empty" in " ".join(listed.stderr.split())
    proc = segagree(*base, "--missing-as-empty", "-o", tmp_path / "empty", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = {(r["text"], r["measure"]): r["value"] for r in json.loads(proc.stdout)["rows"]}
    # the same text with an ann2 file holding no units: the reference for "no units"
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "ann1.TextGrid").write_text(textgrid(B_UNITS), encoding="utf-8")
    (alone / "ann2.TextGrid").write_text(textgrid([]), encoding="utf-8")
    ref = api.agree_time(sorted(alone.glob("*.TextGrid")), measures=["alpha_u", "boundary_f1"])
    assert rows[("t2", "alpha_u")] == ref["alpha_u"] and rows[("t2", "boundary_f1")] == ref["boundary_f1"]
    summary = json.loads((tmp_path / "empty" / "summary.json").read_text(encoding="utf-8"))
    assert "annotator 'ann2' (--annotators) has no file for this text: no units" in summary["texts"]["t2"]["notes"]


def test_run_time_odd_file_names(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "@SUM(2).-3+4.TextGrid").write_text(textgrid(A_UNITS), encoding="utf-8")
    (root / "@SUM(2).+x.TextGrid").write_text(textgrid(B_UNITS), encoding="utf-8")
    (root / "@SUM(2).=cmd|x.TextGrid").write_text(textgrid(B_UNITS), encoding="utf-8")
    out = tmp_path / "out"
    proc = segagree("run", root, "-o", out, "--time", "--measure", "alpha_u", "--json")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "the annotator name '=cmd|x' holds '|'" in " ".join(proc.stderr.split())
    rows = {r["text"]: r for r in json.loads(proc.stdout)["rows"]}
    pair = tmp_path / "pair"
    pair.mkdir()
    (pair / "a.TextGrid").write_text(textgrid(A_UNITS), encoding="utf-8")
    (pair / "b.TextGrid").write_text(textgrid(B_UNITS), encoding="utf-8")
    assert rows["@SUM(2)"]["value"] == api.agree_time(sorted(pair.glob("*")), measures=["alpha_u"])["alpha_u"]
    assert (out / "summary.csv").exists()


# --- integer positions ------------------------------------------------------------------------------

# Krippendorff (1995, p. 57) as DKPro Statistics' unit test writes it: (offset, length, rater, category)
K1995 = [
    (2, 8, 0, "A"), (14, 6, 0, "A"), (4, 4, 1, "A"), (15, 2, 1, "A"),
    (0, 18, 0, "B"), (0, 2, 1, "B"), (2, 1, 1, "B"), (3, 1, 1, "B"), (4, 1, 1, "B"), (5, 1, 1, "B"),
    (6, 3, 1, "B"), (9, 1, 1, "B"),
    (2, 6, 0, "C"), (10, 2, 0, "C"), (14, 4, 0, "C"), (20, 2, 0, "C"), (0, 2, 1, "C"), (4, 4, 1, "C"),
    (10, 4, 1, "C"), (16, 2, 1, "C"), (20, 2, 1, "C"),
    (0, 2, 0, "D"), (2, 8, 0, "D"), (10, 4, 0, "D"), (14, 6, 0, "D"), (20, 4, 0, "D"), (0, 4, 1, "D"),
    (4, 4, 1, "D"), (8, 7, 1, "D"), (15, 2, 1, "D"), (17, 7, 1, "D"),
]  # fmt: skip


def test_integer_positions_with_time_unit_index(tmp_path: Path) -> None:
    stretch = 50000  # DKPro's continuum of 24 x 50,000 = 1,200,000 positions
    rows = "".join(f"r{r},{o * stretch},{(o + n) * stretch},{c}\n" for o, n, r, c in K1995)
    table = tmp_path / "k1995.csv"
    table.write_text("annotator,start,end,category\n" + rows, encoding="utf-8")
    args = ("agree", "--time", table, "--measure", "alpha_u", "--continuum", f"0,{24 * stretch}")
    refused = segagree(*args)
    assert refused.returncode == 1 and "beyond ten days" in refused.stderr and "Traceback" not in refused.stderr
    proc = segagree(*args, "--time-unit", "index", "--json")
    assert proc.returncode == 0, proc.stderr
    cats = json.loads(proc.stdout)["alpha_u_categories"]
    # DKPro's expected D_e and alpha at stretch 50,000 (its tolerances)
    for c, (d_e, alpha) in {"A": (0.06990, 0.553), "B": (1.17731, -0.926), "C": (0.08642, 0.679)}.items():
        assert abs(cats[c]["D_e"] - d_e) <= 0.005 and abs(cats[c]["alpha"] - alpha) <= 0.02
    assert "--time-unit index" in refused.stderr


def test_run_time_reads_positions_from_the_option_or_the_settings(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "t1.a.csv").write_text("annotator,start,end,category\na,0,1500000,x\na,2000000,3000000,y\n", "utf-8")
    (root / "t1.b.csv").write_text("annotator,start,end,category\nb,0,1400000,x\nb,2100000,3000000,y\n", "utf-8")
    base = ("run", root, "--time", "--measure", "alpha_u", "--json")
    refused = segagree(*base, "-o", tmp_path / "s")
    assert refused.returncode == 1 and "beyond ten days" in refused.stderr
    by_option = segagree(*base, "-o", tmp_path / "o", "--time-unit", "index")
    (root / "segagree.toml").write_text('[time]\ntime_unit = "index"\n', encoding="utf-8")
    by_settings = segagree(*base, "-o", tmp_path / "c")
    values = []
    for proc in (by_option, by_settings):
        assert proc.returncode == 0, proc.stderr
        values.append({r["text"]: r["value"] for r in json.loads(proc.stdout)["rows"]}["t1"])
    # the same units as seconds (positions / 10**6 fit the ten-day limit): alpha-U is scale-free
    # at a resolution that keeps every position
    ref = tmp_path / "ref.csv"
    ref.write_text("annotator,start,end,category\na,0,1.5,x\na,2,3,y\nb,0,1.4,x\nb,2.1,3,y\n", encoding="utf-8")
    alone = api.agree_time(ref, measures=["alpha_u"], params={"resolution": 1e-6})
    assert values[0] == values[1] and abs(values[0] - alone["alpha_u"]) < 1e-9


def test_fractional_positions_are_refused(tmp_path: Path) -> None:
    fraction = tmp_path / "f.csv"
    fraction.write_text("annotator,start,end,category\na,0,1.5,x\nb,0,2,x\n", encoding="utf-8")
    proc = segagree("agree", "--time", fraction, "--time-unit", "index")
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert proc.returncode == 1 and len(lines) == 1 and "not an integer position" in lines[0] and "line 2" in lines[0]


# --- smaller frictions ------------------------------------------------------------------------------


def _two_text_corpus(tmp_path: Path, texts: tuple[str, ...] = ("t1",)) -> Path:
    root = tmp_path / "corpus"
    root.mkdir()
    for text in texts:
        (root / f"{text}.kim.TextGrid").write_text(textgrid(A_UNITS), encoding="utf-8")
        (root / f"{text}.lee.TextGrid").write_text(textgrid(B_UNITS), encoding="utf-8")
    return root


def test_quiet_run_prints_no_table_and_counts_read_well(tmp_path: Path) -> None:
    root = _two_text_corpus(tmp_path)
    loud = segagree("run", root, "-o", tmp_path / "loud", "--time", "--measure", "alpha_u")
    assert loud.returncode == 0, loud.stderr
    assert "alpha_u" in loud.stdout and "1 text scored," in loud.stderr
    quiet = segagree("run", root, "-o", tmp_path / "quiet", "--time", "--measure", "alpha_u", "-q")
    assert quiet.returncode == 0 and quiet.stdout.strip() == "", quiet.stdout
    assert (tmp_path / "quiet" / "summary.csv").exists()
    tokens = tmp_path / "tokens"
    tokens.mkdir()
    a, b = _pair(tokens)
    proc = segagree("run", tokens, "-o", tmp_path / "tok", "--no-kappa", "--no-workbooks")
    assert proc.returncode == 0, proc.stderr
    assert "1 pair scored," in proc.stderr


def test_recording_overlap_note_says_recording(tmp_path: Path) -> None:
    table = tmp_path / "units.csv"
    table.write_text(
        "annotator,start,end,category,recording\na,0,2,x,r1\na,1,3,x,r1\nb,0,3,x,r1\na,0,2,x,r2\nb,0,2,x,r2\n",
        encoding="utf-8",
    )
    out = json.loads(segagree("agree", "--time", table, "--measure", "alpha_u", "--json").stdout)
    overlap = [n for n in out["notes"] if "overlap" in n]
    assert overlap and overlap[0].startswith("recording 'r1': ") and "speaker 'r1'" not in " ".join(out["notes"])


def test_compare_time_parameters_and_gamma_cat_without_categories(tmp_path: Path) -> None:
    kim, lee = _two_textgrids(tmp_path)
    proc = segagree("compare", kim, lee, "--metric", "boundary_f1", "--tolerance", "0.02", "--common-speakers")
    assert proc.returncode == 0, proc.stderr
    row = next(ln for ln in proc.stdout.splitlines() if ln.startswith("parameters: boundary_f1"))
    assert "tolerance:0.02" in row  # under the table, a line per metric
    args = ("compare", kim, lee, "--metric", "gamma_cat", "--category", "none", "--samples", "5", "--seed", "1")
    table = segagree(*args)
    assert table.returncode == 0, table.stderr
    assert "gamma_cat: not applicable: no categories" in " ".join(table.stdout.split())
    out = json.loads(segagree(*args, "--json").stdout)["metrics"]["gamma_cat"]
    assert out["value"] is None and "no categories" in out["not_applicable"]
    labelled = json.loads(
        segagree("agree", "--time", kim, lee, "--measure", "gamma_cat", "--samples", "5", "--json").stdout
    )
    assert labelled["gamma_cat"] is not None  # with categories it is a number


def test_review_time_tolerance_is_refused_with_the_right_reason(tmp_path: Path) -> None:
    kim, lee = _two_textgrids(tmp_path)
    proc = segagree("review", "--time", kim, lee, "-o", tmp_path / "r.xlsx", "--tolerance", "0.1")
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr
    assert "boundary F1 does not" in lines[0] and "chosen measures" not in lines[0]
    assert not (tmp_path / "r.xlsx").exists()


def test_review_page_shows_milliseconds() -> None:
    import re
    import shutil

    node = shutil.which("node")
    if node is None:
        import pytest

        pytest.skip("node runs the review page's time format")
    script = (Path(api.__file__).parents[1] / "outputs" / "templates" / "review_page.js").read_text(encoding="utf-8")
    fmt = re.search(r"const fmt = .*;", script)
    assert fmt is not None
    code = fmt.group(0) + "\nconsole.log([fmt(1.0), fmt(1.005), fmt(0.0123)].join('|'));"
    out = subprocess.run([node, "-e", code], capture_output=True, text=True, check=True).stdout.strip()
    first, second, small = out.split("|")
    assert first != second and small.startswith("0.012")
