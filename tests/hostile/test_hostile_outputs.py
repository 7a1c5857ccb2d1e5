"""Hostile names and workbooks against the outputs : nothing written
runs in a spreadsheet or a terminal, adjudication cannot be steered, nothing is cut in silence.

Cases are generated from fixed seeds (fast by default); each test can fail on the old behaviour.
"""

from __future__ import annotations

import csv
import hashlib
import io
import random
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
from cli_process import run_cli

from segagree.adjudication.tokens import adjudicate
from segagree.corpus.config import RunConfig
from segagree.corpus.tasks import run_task
from segagree.errors import SegagreeError
from segagree.files.cells import FORMULA_START, GUARD_ENV, XLSX_MAX_CHARS, safe_rows, would_run
from segagree.formats import read_document, write_document
from segagree.outputs import review_workbook as review_mod
from segagree.outputs.review_workbook import OPS_HEADERS, write_review_workbook

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_corpora"
FORMULAS = [
    "=1+1",
    '=HYPERLINK("http://x.example","y")',
    "+SUM(A1)",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1)",
    "\t=1",
    "\r=1",
]
NUMBERS = ["-0.12", "+3", "-1e-05", "12", ".5"]


def segagree(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return run_cli(args, cwd=cwd, env=env)


def _words(rng: random.Random, n: int) -> list[str]:
    """Seeded words, a formula among them now and then."""
    return [rng.choice(FORMULAS) if rng.random() < 0.2 else f"w{rng.randrange(100)}" for _ in range(n)]


# --- 1. nothing executable -------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_safe_rows_follow_owasp_and_keep_numbers(seed):
    rng = random.Random(seed)
    cells = [rng.choice([*FORMULAS, *NUMBERS, "plain", "a=b", "", 1.5, -3]) for _ in range(40)]
    rows = [{"c": c} for c in cells]
    out = [r["c"] for r in safe_rows(rows, raw=False)]
    for before, after in zip(cells, out, strict=True):
        if isinstance(before, str) and before.startswith(FORMULA_START) and before not in NUMBERS:
            assert after == "'" + before
        else:
            assert after == before  # numbers, as numbers or as text, are data
    assert [r["c"] for r in safe_rows(rows, raw=True)] == cells


def test_operations_csv_holds_the_data_and_is_neutralised_for_a_spreadsheet(tmp_path):
    a, b = tmp_path / "t.a.csv", tmp_path / "t.b.csv"
    a.write_text('Speaker,Utterance\n=cmd,=HYPERLINK("x") one -- .\n=cmd,two three .\n', encoding="utf-8")
    b.write_text('Speaker,Utterance\n=cmd,=HYPERLINK("x") one -- two .\n=cmd,three .\n', encoding="utf-8")
    ops = tmp_path / "ops.csv"
    proc = segagree("compare", str(a), str(b), "--ops", str(ops), "--csv-guard")
    assert proc.returncode == 0, proc.stderr
    cells = [c for row in csv.reader(io.StringIO(ops.read_text(encoding="utf-8"))) for c in row]
    assert "'=cmd" in cells and "'--" in cells and not any(would_run(c) for c in cells)
    assert any(c.startswith("'=HYPERLINK") for c in cells)
    proc = segagree("compare", str(a), str(b), "--ops", str(ops))  # data, for pandas and R: as it is
    assert proc.returncode == 0, proc.stderr
    cells = [c for row in csv.reader(io.StringIO(ops.read_text(encoding="utf-8"))) for c in row]
    assert "=cmd" in cells and "--" in cells and not any(c.startswith("'") for c in cells)
    proc = segagree("compare", str(a), str(b), "--ops", str(ops), "--csv-raw")  # the old switch: a note
    assert proc.returncode == 0 and "--csv-raw is deprecated" in proc.stderr


@pytest.mark.parametrize("seed", range(3))
def test_converted_xlsx_has_no_formula_and_reads_back_the_text(tmp_path, seed):
    rng = random.Random(seed)
    lines = ["Speaker,Utterance"]
    for i in range(8):
        words = " ".join(w.replace('"', "'").replace("\t", "").replace("\r", "") for w in _words(rng, 4))
        lines.append(f'S{i % 2},"{words} ."')
    src = tmp_path / "t.csv"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "t.xlsx"
    write_document(read_document(src), out)
    wb = openpyxl.load_workbook(out)
    assert all(c.data_type != "f" for ws in wb for row in ws.iter_rows() for c in row)
    assert read_document(out).tokens["text"].tolist() == read_document(src).tokens["text"].tolist()
    # Back to CSV: byte-exact data, and the cells a spreadsheet would run are counted in a note.
    again = tmp_path / "again.csv"
    losses = write_document(read_document(out), again)
    runnable = sum(would_run(c) for row in csv.reader(io.StringIO(again.read_text(encoding="utf-8"))) for c in row)
    assert not losses  # a note is not a loss
    assert sum(n.count or 0 for n in losses.notes) == runnable


# --- review workbooks and adjudication -------------------------------------------------------


def _config() -> RunConfig:
    cfg = RunConfig()
    cfg.kappa.enabled = False
    return cfg


def _workbook(folder: Path, out: Path, a: str = "garden.ann1.txt", b: str = "garden.ann2.txt") -> Path:
    result = run_task("garden", "ann1", "ann2", str(folder / a), str(folder / b), _config())
    assert result["ok"], result.get("error")
    return write_review_workbook(out, [result], _config())


def _fill(path: Path, decision: str, out: Path | None = None) -> Path:
    wb = openpyxl.load_workbook(path)
    for ws in wb.worksheets:
        header = [c.value for c in ws[1]]
        if OPS_HEADERS["decision"] in header:
            col = header.index(OPS_HEADERS["decision"]) + 1
            for r in range(2, ws.max_row + 1):
                ws.cell(r, col).value = decision
    wb.save(out or path)
    return out or path


def _about(path: Path, **changes: str) -> None:
    wb = openpyxl.load_workbook(path)
    ws = wb["About"]
    rows = list(ws.iter_rows())
    head = next(i for i, row in enumerate(rows) if [c.value for c in row[:2]] == ["sheet", "annotator_a"])
    header = [c.value for c in rows[head]]
    for key, value in changes.items():
        rows[head + 1][header.index(key)].value = value
    wb.save(path)


@pytest.fixture
def garden(tmp_path) -> Path:
    for n in (1, 2):
        shutil.copy(SAMPLE / f"garden.ann{n}.txt", tmp_path / f"garden.ann{n}.txt")
    return tmp_path


def test_review_workbook_holds_no_formula(garden):
    wb = openpyxl.load_workbook(_workbook(garden, garden / "g.xlsx"))
    assert all(c.data_type != "f" for ws in wb for row in ws.iter_rows() for c in row)


def test_steered_source_path_is_refused(garden, tmp_path_factory):
    wb = _fill(_workbook(garden, garden / "work" / "g.xlsx"), "B")
    private = garden.parent / "private_notes.txt"  # outside the workbook's folder (and not the current one)
    private.write_text("SECRET: a private note .\n", encoding="utf-8")
    digest = hashlib.sha1(private.read_bytes()).hexdigest()
    _about(wb, file_a="../../private_notes.txt", file_a_absolute=str(private), sha1_a=digest)
    with pytest.raises(SegagreeError, match="outside the workbook's folder") as err:
        adjudicate(wb, garden / "gold.txt")
    assert "--file-a" in str(err.value) and not (garden / "gold.txt").exists()


def test_short_digest_is_refused(garden):
    wb = _fill(_workbook(garden, garden / "g.xlsx"), "B")
    full = hashlib.sha1((garden / "garden.ann1.txt").read_bytes()).hexdigest()
    for short in (full[:1], full[:16]):
        _about(wb, sha1_a=short)
        with pytest.raises(SegagreeError, match="not a full SHA-1"):
            adjudicate(wb, garden / "gold.txt")
    _about(wb, sha1_a=full)
    assert adjudicate(wb, garden / "gold.txt").applied["B"] == 11


@pytest.mark.parametrize("same_decision", [True, False])
def test_duplicate_row_ids_are_refused(garden, same_decision):
    wb_path = _fill(_workbook(garden, garden / "g.xlsx"), "A")
    wb = openpyxl.load_workbook(wb_path)
    ws = wb["Operations"]
    n = ws.max_row + 1
    for c in range(1, ws.max_column + 1):
        ws.cell(n, c).value = ws.cell(2, c).value
    header = [c.value for c in ws[1]]
    ws.cell(n, header.index("decision") + 1).value = "A" if same_decision else "B"
    wb.save(wb_path)
    with pytest.raises(SegagreeError, match=rf"duplicated row ids: 'Operations' row 2 and 'Operations' row {n}"):
        adjudicate(wb_path, garden / "gold.txt")


def test_missing_b_is_a_warning_or_strict_error_and_deleted_rows_still_found(garden):
    wb_path = _fill(_workbook(garden, garden / "g.xlsx"), "A")
    (garden / "garden.ann2.txt").unlink()
    report = adjudicate(wb_path, garden / "gold.txt")
    assert any("cannot be recomputed" in w for w in report.warnings)
    assert any(line.startswith("warning:") for line in report.lines())
    with pytest.raises(SegagreeError, match="--strict"):
        adjudicate(wb_path, garden / "gold2.txt", strict=True)
    wb = openpyxl.load_workbook(wb_path)
    wb["Operations"].delete_rows(3, 2)
    wb.save(wb_path)
    with pytest.raises(SegagreeError, match="2 operation rows of sheet 'Operations' were deleted"):
        adjudicate(wb_path, garden / "gold3.txt")
    report = adjudicate(wb_path, garden / "gold3.txt", allow_missing_rows=True)
    assert "undecided rows (kept A's): 2: 2 deleted rows, ids unknown" in report.lines()


# --- 3. never cut in silence -----------------------------------------------------------------


def test_long_cells_and_many_rows_continue_and_read_back(tmp_path, monkeypatch):
    long_word = "L" * (XLSX_MAX_CHARS + 5000)
    a = "A: one two ,\nA: " + long_word + " three .\nA: four five .\n"
    b = "A: one ,\nA: two " + long_word + " three ,\nA: four .\nA: five .\n"
    (tmp_path / "garden.ann1.txt").write_text(a, encoding="utf-8")
    (tmp_path / "garden.ann2.txt").write_text(b, encoding="utf-8")
    monkeypatch.setattr(review_mod, "ROWS_PER_SHEET", 2)  # the operations continue on more sheets
    wb_path = _workbook(tmp_path, tmp_path / "g.xlsx")
    wb = openpyxl.load_workbook(wb_path)
    assert "Operations (2)" in wb.sheetnames and "Continued" in wb.sheetnames
    assert all(len(str(c.value or "")) <= XLSX_MAX_CHARS for ws in wb for row in ws.iter_rows() for c in row)
    written = sum(ws.max_row - 1 for ws in wb.worksheets if ws.title.startswith("Operations"))
    _fill(wb_path, "B")
    report = adjudicate(wb_path, tmp_path / "gold.txt")
    assert sum(report.applied.values()) == written  # every row written is read back
    gold, want = read_document(tmp_path / "gold.txt"), read_document(tmp_path / "garden.ann2.txt")
    assert gold.layer().boundaries.tolist() == want.layer().boundaries.tolist()
    assert long_word in gold.tokens["text"].tolist()


def test_xlsx_convert_refuses_a_cell_it_would_cut(tmp_path):
    src = tmp_path / "t.csv"
    src.write_text("Speaker,Utterance\nA," + "x" * (XLSX_MAX_CHARS + 1) + " .\n", encoding="utf-8")
    with pytest.raises(SegagreeError, match="an XLSX cell holds 32767"):
        write_document(read_document(src), tmp_path / "t.xlsx")
    assert not (tmp_path / "t.xlsx").exists()


def test_batch_convert_never_writes_two_inputs_to_one_output(tmp_path):
    from segagree.api import convert_folder

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.csv").write_text("Speaker,Utterance\nA,from the csv .\n", encoding="utf-8")
    (tmp_path / "in" / "a.txt").write_text("A: from the text .\n", encoding="utf-8")
    batch = convert_folder(tmp_path / "in", tmp_path / "out", "json")
    outputs = sorted(Path(r.target).name for r in batch.converted)
    assert len(outputs) == len(set(outputs)) == 2 and len(batch.renamed) == 2
    texts = {" ".join(read_document(Path(r.target), "json").tokens["text"]) for r in batch.converted}
    assert texts == {"from the csv", "from the text"}


# --- 4. names are data -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["$x^$", "$a$", "pay $5 and $6", "\\$", "$\\frac{$"])
def test_dollar_names_draw_as_written(name):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from segagree.outputs.plot_text import plain
    from segagree.outputs.plots import scores_png

    png = scores_png([{"label": name, "sf": 0.5, "sf_b": 0.4}], title=name)
    assert png.startswith(b"\x89PNG")
    fig = Figure()
    FigureCanvasAgg(fig)
    text = fig.text(0, 0, plain(name))
    fig.canvas.draw()
    assert text._preprocess_math(plain(name)) == (name, False)  # drawn as written, not as math


@pytest.mark.parametrize("seed", range(2))
def test_terminal_output_has_no_control_characters(tmp_path, seed):
    rng = random.Random(seed)
    bad = ["\x1b]0;pwned\x07", "\x1b[2J", "\u202e", "\x9b31m", "\r"]
    name = "S" + "".join(rng.sample(bad, 3))
    rows = "".join(f'"{name}",word{i} .\n' for i in range(3))
    for ann in ("a", "b"):
        (tmp_path / f"t.{ann}.csv").write_text("Speaker,Utterance\n" + rows, encoding="utf-8")
    for args in (["compare"], ["compare", "--json"], ["agree", "--sims", "20"]):
        proc = segagree(args[0], str(tmp_path / "t.a.csv"), str(tmp_path / "t.b.csv"), *args[1:])
        assert proc.returncode == 0, proc.stderr
        for stream in (proc.stdout, proc.stderr):
            assert not any(ch in stream for ch in "\x1b\x07\x9b\u202e\r"), (args, stream)
    # The JSON still holds the name itself.
    import json

    proc = segagree("compare", str(tmp_path / "t.a.csv"), str(tmp_path / "t.b.csv"), "--json")
    assert name.strip() in json.loads(proc.stdout)["per_speaker"]  # the reader strips the name


@pytest.mark.parametrize("seed", range(6))
def test_webvtt_speaker_round_trip_exact_or_reported(tmp_path, seed):
    rng = random.Random(seed)
    pieces = ["Jo", "Eve", "\n", ">", "&", "<", "  ", " ", "\t", "&amp;", "é", "v.x"]
    names = ["".join(rng.choice(pieces) for _ in range(rng.randrange(1, 5))) for _ in range(3)]
    names = [n for n in dict.fromkeys(n.strip() for n in names) if n and n != "NA"] or ["Jo"]
    src = tmp_path / "t.csv"
    with src.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["Speaker", "Utterance", "Start", "End"])
        for i, n in enumerate(names):
            w.writerow([n, f"word{i} here .", i, i + 1])
    doc = read_document(src)
    losses = write_document(doc, tmp_path / "t.vtt")
    back = read_document(tmp_path / "t.vtt")
    if back.speakers != doc.speakers:
        assert "speaker-changed" in losses.kinds()


def test_report_csv_switch_by_environment(monkeypatch):
    monkeypatch.delenv(GUARD_ENV, raising=False)
    assert list(safe_rows([{"c": "=1"}])) == [{"c": "=1"}]
    monkeypatch.setenv(GUARD_ENV, "0")
    assert list(safe_rows([{"c": "=1"}])) == [{"c": "=1"}]
    monkeypatch.setenv(GUARD_ENV, "1")
    assert list(safe_rows([{"c": "=1"}])) == [{"c": "'=1"}]


# --- more writers ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_every_writer_keeps_speaker_names_or_reports_them(tmp_path, seed):
    from segagree.formats import adapters
    from segagree.model import builtin_scheme, from_units

    rng = random.Random(seed)
    pieces = ["Jo", "\n", '"', "<", ">", "&", ":", "*", "%", "  ", "\u202e", "é", "-"]
    names = list(dict.fromkeys("".join(rng.choice(pieces) for _ in range(3)) + str(i) for i in range(4)))
    scheme = builtin_scheme("dubois")
    period = scheme.find_code(".")
    units = [
        {"speaker": n, "tokens": ["hello", "there"], "boundary": period, "start": float(i), "end": i + 0.9}
        for i, n in enumerate(names)
    ]
    doc = from_units("t", units, layer="iu", scheme=scheme)
    for name, adapter in adapters().items():
        if adapter.write is None:
            continue
        out = tmp_path / f"t{seed}{adapter.extensions[0]}"
        try:
            losses = write_document(doc, out, name)
        except SegagreeError:
            continue  # refused with a message: not written in silence
        if read_document(out, name).speakers != doc.speakers:
            assert losses, (name, names)  # changed names are reported


def test_gold_xlsx_holds_no_formula(tmp_path):
    for ann, rows in (("a", "=cmd,=1+1 @x .\n=cmd,+y .\n"), ("b", "=cmd,=1+1 @x +y .\n")):
        (tmp_path / f"t.{ann}.csv").write_text("Speaker,Utterance\n" + rows, encoding="utf-8")
    result = run_task("t", "a", "b", str(tmp_path / "t.a.csv"), str(tmp_path / "t.b.csv"), _config())
    assert result["ok"], result.get("error")
    wb_path = _fill(write_review_workbook(tmp_path / "r.xlsx", [result], _config()), "B")
    adjudicate(wb_path, tmp_path / "gold.xlsx")
    wb = openpyxl.load_workbook(tmp_path / "gold.xlsx")
    cells = [c for ws in wb for row in ws.iter_rows() for c in row]
    assert all(c.data_type != "f" for c in cells) and "=cmd" in [c.value for c in cells]
    assert read_document(tmp_path / "gold.xlsx").tokens["text"].tolist() == ["=1+1", "@x", "+y"]


def test_run_summary_csv_is_neutralised(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for ann, rows in (("a", "=cmd,one two .\n=cmd,three .\n"), ("b", "=cmd,one two three .\n")):
        (corpus / f"$x^$.{ann}.csv").write_text(f"Speaker,Utterance\n{rows}@x,four five .\n", encoding="utf-8")
    config = tmp_path / "plots.toml"
    config.write_text('report_plots = "all"\n', encoding="utf-8")  # every figure, titled with the text's name
    args = ["-o", str(tmp_path / "out"), "--no-kappa", "-q", "--config", str(config), "--csv-guard"]
    proc = segagree("run", str(corpus), *args)
    assert proc.returncode == 0, proc.stderr
    assert list((tmp_path / "out" / "plots").glob("*.png"))
    rows = list(csv.reader(io.StringIO((tmp_path / "out" / "summary.csv").read_text(encoding="utf-8"))))
    cells = [c for row in rows for c in row]
    assert "'=cmd" in cells and "'@x" in cells and not any(would_run(c) for c in cells)
    assert any(c.startswith("-") or c[:1].isdigit() for c in cells)  # numbers are written as numbers


def test_time_review_workbook_text_and_limits(tmp_path):
    from segagree.outputs.time_review import write_time_review

    rows = [{"speaker": "=cmd", "kind": "@x", "disorder": -0.5, "share": 1.0}]
    path = write_time_review(tmp_path / "t.xlsx", rows, ["A", "B"], {})
    cells = [c for ws in openpyxl.load_workbook(path) for row in ws.iter_rows() for c in row]
    assert all(c.data_type != "f" for c in cells) and "=cmd" in [c.value for c in cells]
    rows = [{"speaker": "x" * (XLSX_MAX_CHARS + 1), "kind": "k", "disorder": 0.0, "share": 1.0}]
    with pytest.raises(SegagreeError, match="do not fit an XLSX cell"):
        write_time_review(tmp_path / "u.xlsx", rows, ["A", "B"], {})
    assert not (tmp_path / "u.xlsx").exists()


def test_forged_last_cell_is_refused_before_adjudication(garden):
    # One cell at XFD1048576 declares a sheet of 17 billion cells; only the cells there are read.
    wb_path = _fill(_workbook(garden, garden / "g.xlsx"), "B")
    wb = openpyxl.load_workbook(wb_path)
    for ws in wb.worksheets:
        ws["XFD1048576"] = "x"
    wb.save(wb_path)
    # The workbook guard (adapters.xlsx_guard) refuses the declared range before openpyxl reads it.
    with pytest.raises(SegagreeError, match="spans 1,048,576 rows by 16,384 columns.*too large to read safely"):
        adjudicate(wb_path, garden / "gold.txt")
    assert not (garden / "gold.txt").exists()


def test_xlsx_convert_refuses_rows_beyond_a_sheet(tmp_path, monkeypatch):
    import segagree.formats.table as table

    monkeypatch.setattr(table, "XLSX_MAX_ROWS", 3)  # a sheet of 3 rows: header and 2 units
    src = tmp_path / "t.csv"
    src.write_text("Speaker,Utterance\nA,one .\nA,two .\nA,three .\n", encoding="utf-8")
    with pytest.raises(SegagreeError, match="3 units do not fit an XLSX sheet"):
        write_document(read_document(src), tmp_path / "t.xlsx")
    assert not (tmp_path / "t.xlsx").exists()
    src.write_text("Speaker,Utterance\nA,one .\nA,two .\n", encoding="utf-8")
    write_document(read_document(src), tmp_path / "t.xlsx")
    assert read_document(tmp_path / "t.xlsx").n_tokens == 2


def test_study_with_a_hostile_system_name(tmp_path):
    # A hypothesis file named like a formula and like mathtext: the plots draw, the CSV runs nothing.
    hyp = tmp_path / "=HYPERLINK(1)$x^$.srt"
    shutil.copy(SAMPLE / "film.mt.srt", hyp)
    out = tmp_path / "st"
    args = ["-o", str(out), "--seeds", "1", "--metrics", "b", "--csv-guard"]
    proc = segagree("study", str(SAMPLE / "film.ref.srt"), str(hyp), *args)
    assert proc.returncode == 0, proc.stderr
    cells = [c for row in csv.reader(io.StringIO((out / "study.csv").read_text(encoding="utf-8"))) for c in row]
    assert "'=HYPERLINK(1)$x^$" in cells and not any(would_run(c) for c in cells)
    assert (out / "plots" / "metric_b.png").read_bytes().startswith(b"\x89PNG")


def test_time_review_plot_and_workbook_with_hostile_names(tmp_path):
    # Annotators, categories and the speaker named like mathtext and formulas.
    rows = ["annotator,start,end,category,speaker"]
    for ann in ("$x^$", "=b"):
        for i in range(4):
            shift = 0.1 if ann == "=b" else 0.0
            rows.append(f"{ann},{i * 2 + shift},{i * 2 + 1.2},{'$a$' if i % 2 else '@c'},$s^$")
    src = tmp_path / "units.csv"
    src.write_text("\n".join(rows) + "\n", encoding="utf-8")
    plot = tmp_path / "t.png"
    proc = segagree("review", "--time", str(src), "-o", str(tmp_path / "t.xlsx"), "--plot", str(plot))
    assert proc.returncode == 0, proc.stderr
    assert any(p.read_bytes().startswith(b"\x89PNG") for p in tmp_path.glob("t*.png"))
    cells = [c for ws in openpyxl.load_workbook(tmp_path / "t.xlsx") for row in ws.iter_rows() for c in row]
    assert all(c.data_type != "f" for c in cells) and "@c" in [c.value for c in cells]


def test_cli_adjudicate_refuses_steering_unless_the_user_passes_the_file(garden):
    wb = _fill(_workbook(garden, garden / "work" / "g.xlsx"), "B")
    private = garden.parent / f"{garden.name}_private_notes.txt"
    private.write_text("SECRET: a private note .\n", encoding="utf-8")
    _about(wb, file_a=f"../../{private.name}", sha1_a=hashlib.sha1(private.read_bytes()).hexdigest())
    proc = segagree("adjudicate", str(wb), "-o", str(garden / "gold.txt"), cwd=garden / "work")
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1 and "outside" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and not (garden / "gold.txt").exists()
    # The user passes A's file: used (its digest still has to match the one recorded).
    _about(wb, sha1_a=hashlib.sha1((garden / "garden.ann1.txt").read_bytes()).hexdigest())
    args = ["adjudicate", str(wb), "-o", str(garden / "gold.txt"), "--file-a", str(garden / "garden.ann1.txt")]
    proc = segagree(*args, cwd=garden / "work")
    assert proc.returncode == 0, proc.stderr
    assert "warning:" in proc.stderr  # B's recorded path is outside too: the row check cannot run
    proc = segagree(*args, "--strict", cwd=garden / "work")
    assert proc.returncode == 1 and "--strict" in proc.stderr
    proc = segagree(*args, "--sources", str(garden), "--strict", cwd=garden / "work")
    assert proc.returncode == 0, proc.stderr
    want = read_document(garden / "garden.ann2.txt").layer().boundaries.tolist()
    assert read_document(garden / "gold.txt").layer().boundaries.tolist() == want
