"""The command line as a person meets it: help, examples, flags, messages, speaker labels."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_process import run_cli, wait_until_working

from conftest import REPO

SAMPLE = REPO / "sample_corpora"
COMMANDS = ["compare", "agree", "review", "adjudicate", "run", "convert", "formats", "metrics"]
ENV = {**os.environ, "PYTHONPATH": str(REPO / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}


def segagree(*args: str, cwd: Path | None = None, columns: int = 80, timeout: int = 300) -> subprocess.CompletedProcess:
    return run_cli(args, cwd=cwd, env={**ENV, "COLUMNS": str(columns)}, timeout=timeout)


def one_line_error(proc: subprocess.CompletedProcess, code: int, *needles: str) -> str:
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A writable copy of sample_corpora (the help examples run in it)."""
    dest = tmp_path / "sample"
    shutil.copytree(SAMPLE, dest)
    return dest


# --- start-up ------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["--help"], ["--version"], []])
def test_help_and_version_import_no_heavy_module(args):
    code = (
        "import sys\nfrom segagree.cli import main\n"
        f"try:\n    main({args!r})\nexcept SystemExit:\n    pass\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in {'pandas','numpy','matplotlib','rich','typer',"
        "'lxml','openpyxl','click','logging'} or m.startswith('segagree.api.') or m == 'segagree.formats')\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, timeout=60)
    assert "HEAVY []" in proc.stderr, proc.stderr


def test_command_help_stays_light():
    code = (
        "import sys\nfrom segagree.cli import main\n"
        "try:\n    main(['compare', '--help'])\nexcept SystemExit:\n    pass\n"
        "print('HEAVY', sorted(m for m in sys.modules if m.split('.')[0] in {'pandas','matplotlib','rich'}),"
        " file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, timeout=60)
    assert "HEAVY []" in proc.stderr, proc.stderr


def test_import_segagree_is_cheap_and_lazy():
    code = (
        "import sys, segagree\n"
        "assert 'pandas' not in sys.modules and 'numpy' not in sys.modules, 'eager'\n"
        "segagree.read\n"
        "assert 'segagree.api.documents' in sys.modules\n"
        "print('ok')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, timeout=60)
    assert proc.stdout.strip() == "ok", proc.stderr


def test_group_help_lists_every_command():
    text = segagree("--help").stdout
    from segagree.cli import COMMANDS

    for name in COMMANDS:
        assert re.search(rf"^  {name}\s", text, re.M), name
    assert "--version" in text and "--debug" in text
    assert segagree().stdout == text and segagree("-h").stdout == text


def test_version():
    from segagree import __version__

    proc = segagree("--version")
    assert proc.returncode == 0 and proc.stdout.strip() == f"segagree {__version__}"


# --- help ----------------------------------------------------------------------------------


def _help(command: str, columns: int = 80) -> str:
    proc = segagree(command, "--help", columns=columns)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_help_reads_like_a_person_wrote_it(command):
    text = _help(command)
    assert "--no-no-" not in text
    for placeholder in ("<bool>", "<int>", "<str>", "<path>", "BOOLEAN", "{corpus}"):
        assert placeholder not in text, placeholder
    assert "Examples:" in text
    assert max(len(line) for line in text.splitlines()) <= 80  # COLUMNS=80: nothing runs over


def test_flags_in_plain_words():
    run_help = _help("run")
    for flag in ("--kappa / --no-kappa", "--report / --no-report", "--workbooks / --no-workbooks", "--reference"):
        assert flag in run_help
    assert "--transpositions / --no-transpositions" in _help("compare")
    assert "--kappa / --no-kappa" in _help("review")


def test_markup_is_not_eaten():
    assert "pip install segagree[dask]" in " ".join(_help("run").split())


def test_group_help_lines_match_the_commands():
    """The table that keeps `segagree --help` lazy says what each command's docstring says."""
    import click

    from segagree.cli import COMMANDS as TABLE
    from segagree.cli import app

    for name, (_, short) in TABLE.items():
        cmd = app.get_command(click.Context(app), name)
        assert cmd is not None and cmd.help is not None
        assert cmd.help.strip().splitlines()[0] == short, name


def _examples(command: str) -> list[str]:
    text = _help(command, columns=200)
    block = text.split("Examples:", 1)[1]
    return [ln.strip() for ln in block.splitlines() if ln.strip().startswith("segagree ")]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_example_runs(command, corpus):
    examples = _examples(command)
    assert examples, f"{command} --help has no example"
    for line in examples:
        args = shlex.split(line)[1:]
        if (args[0] == "agree" or args[0] == "review" or args[0] == "run") and "--time" not in args:
            # Fewer simulations, where they apply (an option that does nothing is refused).
            simulated = not {"--sims", "--no-kappa", "--exact", "--dataset"} & set(args)
            args = [*args, *(["--sims", "20"] if simulated else [])]
            if args[0] == "agree" and {"--ci-speakers", "--dataset"} & set(args):
                args += ["--n-boot", "50"]
        proc = segagree(*args, cwd=corpus)
        assert proc.returncode == 0, (line, proc.stdout, proc.stderr)
        assert "Traceback" not in proc.stderr


# --- metrics list ----------------------------------------------------------------------------


@pytest.mark.parametrize("columns", [80, 100])
def test_metrics_list_has_no_cut_cell(columns):
    proc = segagree("metrics", columns=columns)
    assert proc.returncode == 0
    assert "…" not in proc.stdout and "..." not in proc.stdout
    assert max(len(line) for line in proc.stdout.splitlines()) <= columns
    cards = json.loads(segagree("metrics", "--json").stdout)
    # a line per measure, the header, and a few titles wrapped at 80 columns: a list that stays short
    assert len(proc.stdout.splitlines()) <= len(cards) + 8
    for name, card in cards.items():
        assert re.search(rf"^{re.escape(name)}\s", proc.stdout, re.M), name
        # the title is there in full, possibly wrapped
        assert " ".join(card["title"].split()) in " ".join(proc.stdout.split()), name


@pytest.mark.parametrize("columns", [80, 100])
def test_one_metric_card(columns):
    proc = segagree("metrics", "windowdiff", columns=columns)
    assert proc.returncode == 0
    flat = " ".join(proc.stdout.split())
    card = json.loads(segagree("metrics", "windowdiff", "--json").stdout)["windowdiff"]
    for value in (card["definition"], card["citation"], card["reference"]):
        assert " ".join(value.split()) in flat
    assert "…" not in proc.stdout
    one_line_error(segagree("metrics", "nosuch"), 2, "unknown metric 'nosuch'", "windowdiff")


# --- tables and markup -----------------------------------------------------------------------


def test_agree_pairwise_table_wraps_instead_of_cutting(tmp_path):
    names = []
    for i, src in enumerate(["garden.ann1.txt", "garden.ann2.txt", "garden.ann1.txt"]):
        dest = tmp_path / f"garden.annotator-with-a-long-name-{i + 1}.txt"
        dest.write_bytes((SAMPLE / src).read_bytes())
        names.append(dest)
    proc = segagree("agree", *map(str, names), "--sims", "10", columns=80)
    assert proc.returncode == 0, proc.stderr
    assert "…" not in proc.stdout
    joined = "".join(re.sub(r"[│┃|\s]", "", ln) for ln in proc.stdout.splitlines())
    for path in names:
        assert path.name in joined


def test_brackets_in_names_print_as_written(tmp_path):
    a = tmp_path / "garden[dask].txt"
    a.write_bytes((SAMPLE / "garden.ann1.txt").read_bytes())
    proc = segagree("compare", str(a), str(SAMPLE / "garden.ann2.txt"), columns=120)
    assert proc.returncode == 0, proc.stderr
    assert "garden[dask].txt" in proc.stdout


# --- formats ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("alias", "path"),
    [
        ("csv", "tables/garden.ann2.csv"),
        ("CSV", "tables/garden.ann2.csv"),
        ("table", "tables/garden.ann2.csv"),
        ("TextGrid", "tools/garden.ann1.TextGrid"),
        ("praat", "tools/garden.ann1.TextGrid"),
        ("elan", "tools/garden.ann1.eaf"),
        ("EAF", "tools/garden.ann1.eaf"),
        ("text", "garden.ann1.txt"),
    ],
)
def test_format_aliases(alias, path, tmp_path):
    odd = tmp_path / "annotation.data"  # an extension that says nothing
    odd.write_bytes((SAMPLE / path).read_bytes())
    proc = segagree("convert", str(odd), "--from", alias, "-o", str(tmp_path / "out.json"))
    assert proc.returncode == 0, proc.stderr


def test_format_alias_registry():
    from segagree.formats import format_for

    assert format_for("x", "xlsx").name == "table"
    assert format_for("x", "tsv").name == "table"
    assert format_for("x", "Praat").name == "textgrid"
    assert format_for("x", "ELAN").name == "eaf"
    assert format_for("x", "WebVTT").name == "vtt"
    assert format_for("x", "cha").name == "chat"
    from segagree.formats import ALIASES, adapters

    assert set(ALIASES.values()) <= set(adapters())  # every alias names a format that exists


# --- errors ----------------------------------------------------------------------------------


def test_run_on_a_missing_folder():
    one_line_error(segagree("run", "nosuch", "-o", "out"), 1, "nosuch", "no such folder")


def test_run_with_nothing_to_score(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    one_line_error(segagree("run", str(empty), "-o", str(tmp_path / "o1")), 1, "nothing to score", "empty")
    assert not (tmp_path / "o1").exists()
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    (lonely / "garden.ann1.txt").write_bytes((SAMPLE / "garden.ann1.txt").read_bytes())
    (lonely / "notes.md").write_text("hello", encoding="utf-8")
    one_line_error(segagree("run", str(lonely), "-o", str(tmp_path / "o2")), 1, "nothing to score", "one annotator")
    assert not (tmp_path / "o2").exists()


def test_unwritable_outputs_are_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    one_line_error(segagree("run", str(SAMPLE), "-o", str(blocker / "out"), "--no-kappa"), 1, str(blocker))
    one_line_error(segagree("run", str(SAMPLE), "-o", str(blocker), "--no-kappa"), 1, str(blocker))
    one_line_error(segagree("convert", str(SAMPLE / "garden.ann1.txt"), "-o", str(blocker / "a" / "x.eaf")), 1, "file")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write anywhere")
def test_readonly_folder(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        one_line_error(segagree("convert", str(SAMPLE / "garden.ann1.txt"), "-o", str(ro / "x.eaf")), 1, str(ro))
        one_line_error(segagree("run", str(SAMPLE), "-o", str(ro / "out"), "--no-kappa"), 1, str(ro))
    finally:
        ro.chmod(0o700)


def test_transcript_mismatch_names_the_fixing_option(tmp_path):
    other = tmp_path / "other.txt"
    other.write_text(
        (SAMPLE / "garden.ann2.txt").read_text(encoding="utf-8").replace("a deer in", "a moose in"), encoding="utf-8"
    )
    line = one_line_error(segagree("compare", str(SAMPLE / "garden.ann1.txt"), str(other)), 1, "--align")
    assert "segagree run" not in line


def test_debug_shows_the_traceback(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    plain = segagree("compare", str(empty), str(SAMPLE / "garden.ann1.txt"))
    assert plain.returncode == 1 and "Traceback" not in plain.stderr
    debug = segagree("--debug", "compare", str(empty), str(SAMPLE / "garden.ann1.txt"))
    assert debug.returncode != 0 and "Traceback" in debug.stderr
    late = segagree("compare", str(empty), str(SAMPLE / "garden.ann1.txt"), "--debug")
    assert "Traceback" in late.stderr


def test_library_wording_is_kept_for_debug():
    from segagree.cli import project_words

    msg = "x.eaf: pympi cannot read it (ValueError: invalid literal for int() with base 10: 'a'); expected ELAN"
    assert project_words(msg).startswith("x.eaf: cannot read it; expected ELAN")
    assert "ValueError" not in project_words(msg) and "pympi" not in project_words(msg)
    plain = "a.txt: line 2: unknown endnote '!' (expected one of , . ?)"
    assert project_words(plain) == plain


def test_interrupt_prints_one_line_and_exits_130(tmp_path):
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "segagree",
            "agree",
            str(SAMPLE / "garden.ann1.txt"),
            str(SAMPLE / "garden.ann2.txt"),
            "--sims",
            "5000000",
            "-q",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    # Simulating: the first block of simulations starts at 0.3 s of CPU, and the whole command
    # with --sims 20 (start-up, reading, the kernels loaded, 20 simulations) ends by 0.8 s. In a
    # fresh clone the first interpreter also compiles the bytecode of what it imports (over a
    # second more, under load): a signal then may land in an import, before the CLI's handler.
    # 3 s of CPU is well inside the 5,000,000 simulations (minutes), past any start-up.
    wait_until_working(proc, cpu=3.0, fallback_sleep=8)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip() == "segagree: interrupted"
    assert out == ""


# --- reading options -------------------------------------------------------------------------


def test_encoding_reaches_the_reader(tmp_path):
    latin = tmp_path / "garden.latin1.txt"
    latin.write_bytes((SAMPLE / "garden.ann1.txt").read_text(encoding="utf-8").encode("latin-1"))
    proc = segagree("compare", str(latin), str(SAMPLE / "garden.ann1.txt"), "--encoding", "latin-1", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["sf"] == 1.0


def test_convert_json_and_strict(tmp_path):
    proc = segagree("convert", str(SAMPLE / "tools" / "garden.ann1.eaf"), "-o", str(tmp_path / "g.srt"), "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert {"read_losses", "write_losses", "lossless", "source", "target"} <= set(report)
    assert report["lossless"] is False and report["write_losses"]
    strict = segagree("convert", str(SAMPLE / "tools" / "garden.ann1.eaf"), "-o", str(tmp_path / "h.srt"), "--strict")
    one_line_error(strict, 1, "--strict")
    assert not (tmp_path / "h.srt").exists()


# --- one speaker-label rule ------------------------------------------------------------------


@pytest.fixture
def colon_pair(tmp_path: Path) -> tuple[Path, Path]:
    """The sample pair with B's labels written `ROSA:` style in a table (speaker `ROSA:`)."""
    import csv

    rows = list(csv.DictReader((SAMPLE / "tables" / "garden.ann2.csv").open(encoding="utf-8")))
    corpus = tmp_path / "labels"
    corpus.mkdir()
    b = corpus / "garden.ann2.csv"
    with b.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        for row in rows:
            writer.writerow({**row, "Speaker": row["Speaker"] + ":" if row["Speaker"] else row["Speaker"]})
    a = corpus / "garden.ann1.txt"
    a.write_bytes((SAMPLE / "garden.ann1.txt").read_bytes())
    return a, b


def test_speaker_labels_one_rule_everywhere(colon_pair, tmp_path):
    a, b = colon_pair
    for extra in ([], ["--align"]):
        proc = segagree("compare", str(a), str(b), "--json", *extra)
        assert proc.returncode == 0, proc.stderr
        assert set(json.loads(proc.stdout)["per_speaker"]) == {"ROSA", "BEN", "MAYA"}
    proc = segagree("agree", str(a), str(b), "--sims", "10", "--json")
    assert proc.returncode == 0, proc.stderr
    assert set(json.loads(proc.stdout)["pairs"][0]["speakers"]) == {"ROSA", "BEN", "MAYA"}
    proc = segagree("review", str(a), str(b), "-o", str(tmp_path / "r.xlsx"), "--no-kappa")
    assert proc.returncode == 0, proc.stderr
    proc = segagree("run", str(a.parent), "-o", str(tmp_path / "out"), "--no-kappa", "--no-report", "--json")
    assert proc.returncode == 0, proc.stderr
    assert {r["speaker"] for r in json.loads(proc.stdout)["rows"]} >= {"ROSA", "BEN", "MAYA"}
    refused = segagree("compare", str(a), str(b), "--keep-speaker-labels")
    one_line_error(refused, 1, "different speakers")


def test_run_reference_option(tmp_path):
    proc = segagree(
        "run", str(SAMPLE), "-o", str(tmp_path / "o"), "--no-kappa", "--no-report", "--reference", "ann2", "--json"
    )
    assert proc.returncode == 0, proc.stderr
    garden = [r for r in json.loads(proc.stdout)["rows"] if r["text"] == "garden"]
    assert garden and all(r["annotator_a"] == "ann2" for r in garden)
    one_line_error(
        segagree("run", str(SAMPLE), "-o", str(tmp_path / "p"), "--no-kappa", "--reference", "nobody"), 1, "nobody"
    )


def test_run_accepts_reading_options(tmp_path):
    corpus = tmp_path / "c"
    corpus.mkdir()
    for n in (1, 2):
        (corpus / f"garden.ann{n}.txt").write_bytes((SAMPLE / f"garden.ann{n}.txt").read_bytes())
    proc = segagree(
        "run",
        str(corpus),
        "-o",
        str(tmp_path / "o"),
        "--no-kappa",
        "--no-report",
        "--encoding",
        "utf-8",
        "--scheme",
        "lai2023",
        "--from",
        "text",
    )
    assert proc.returncode == 0, proc.stderr
    settings = json.dumps(json.loads((tmp_path / "o" / "summary.json").read_text(encoding="utf-8")))
    assert '"encoding": "utf-8"' in settings and "lai2023" in settings
    bad = segagree("run", str(corpus), "-o", str(tmp_path / "p"), "--no-kappa", "--from", "nosuch")
    assert bad.returncode in (1, 2) and "nosuch" in bad.stderr and "Traceback" not in bad.stderr


# --- writers ---------------------------------------------------------------------------------


def test_text_output_has_no_doubled_colons(tmp_path, colon_pair):
    _, b = colon_pair
    out = tmp_path / "b.txt"
    proc = segagree("convert", str(b), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = out.read_text(encoding="utf-8")
    assert "::" not in text and "ROSA:" in text
    assert "speaker 'ROSA:'" in proc.stderr  # the rename is in the loss report


def test_table_writer_does_not_copy_token_values_over_the_unit():
    import numpy as np
    import pandas as pd

    from segagree.formats import read_document
    from segagree.formats.table import write
    from segagree.model.losses import LossReport

    doc = read_document(SAMPLE / "garden.ann1.txt")
    doc.tokens["kind"] = np.where(np.arange(doc.n_tokens) % 2 == 0, "word", "pause")
    doc.tokens["turn"] = 1
    losses = LossReport()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.csv"
        write(doc, path, losses=losses)
        frame = pd.read_csv(path, keep_default_na=False)
    assert set(frame["kind"]) <= {"", "word", "pause"}
    assert (frame["kind"] == "").any()
    assert any("kind" in line for line in losses.lines())
    assert set(frame["turn"]) == {1}  # the same over every unit: kept


# --- adjudicate: deleted or blanked rows -----------------------------------------------------


def test_adjudicate_refuses_deleted_or_blanked_rows(tmp_path):
    import openpyxl

    for n in (1, 2):
        (tmp_path / f"garden.ann{n}.txt").write_bytes((SAMPLE / f"garden.ann{n}.txt").read_bytes())
    workbook = tmp_path / "garden.review.xlsx"
    proc = segagree("review", "garden.ann1.txt", "garden.ann2.txt", "-o", str(workbook), "--no-kappa", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    wb = openpyxl.load_workbook(workbook)
    ws = wb["Operations"]
    header = [c.value for c in ws[1]]
    rid, decision = header.index("row id") + 1, header.index("decision") + 1
    ids = [ws.cell(r, rid).value for r in range(2, ws.max_row + 1)]
    assert len(ids) == 11
    for r in range(2, ws.max_row + 1):
        ws.cell(r, decision, "B")
    for c in range(1, ws.max_column + 1):  # blank one row entirely
        ws.cell(3, c).value = None
    ws.delete_rows(6, 2)  # delete two more
    wb.save(workbook)
    gone = [ids[1], ids[4], ids[5]]
    line = one_line_error(
        segagree("adjudicate", str(workbook), "-o", str(tmp_path / "gold.txt")), 1, "--allow-undecided"
    )
    assert "3 operation rows" in line
    for row_id in gone:
        assert str(row_id) in line
    assert not (tmp_path / "gold.txt").exists()
    ok = segagree("adjudicate", str(workbook), "-o", str(tmp_path / "gold.txt"), "--allow-undecided")
    assert ok.returncode == 0, ok.stderr
    assert "undecided rows (kept A's): 3" in ok.stderr
    # an untouched workbook passes the check
    fresh = tmp_path / "fresh.xlsx"
    assert (
        segagree(
            "review", "garden.ann1.txt", "garden.ann2.txt", "-o", str(fresh), "--no-kappa", cwd=tmp_path
        ).returncode
        == 0
    )
    assert segagree("adjudicate", str(fresh), "-o", str(tmp_path / "g2.txt")).returncode == 0


def test_interrupted_run_leaves_no_partial_outputs(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.csv").write_text("from an earlier run\n", encoding="utf-8")
    old = time.time() - 3600
    os.utime(out / "summary.csv", (old, old))
    proc = subprocess.Popen(
        [sys.executable, "-m", "segagree", "run", str(SAMPLE), "-o", str(out), "--sims", "3000000", "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    # Scoring: the first pair's simulations start at 0.95 s of CPU, and the whole run with --sims 20
    # (start-up, reading, scoring, every output written) ends by 1.15 s.
    wait_until_working(proc, cpu=1.4, fallback_sleep=6)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert err.strip() == "segagree: interrupted"
    left = sorted(p.name for p in out.rglob("*"))
    # Issue 27: an interrupted rerun leaves the earlier complete outputs until new ones replace them
    # (every output is written to a temporary file and renamed), and no partial output.
    assert (out / "summary.csv").read_text(encoding="utf-8") == "from an earlier run\n"
    assert not [name for name in left if ".tmp-" in name], left
    # the lock released too; a text's workbook written (atomically) by the worker that scored it may stay
    workbooks = {p.name for p in (out / "review").glob("*.xlsx")} | ({"review"} if (out / "review").exists() else set())
    assert set(left) - workbooks <= {"results.jsonl", "summary.csv"}, left
