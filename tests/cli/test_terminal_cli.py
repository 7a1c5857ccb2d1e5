"""The command line as a user sees it in a real terminal: run, agree and compare driven in a
pseudo-terminal (pexpect) at 80 and 200 columns.

Fails on rich's own control sequences shown as text (``\\x1b``, ``\\x0d``: the escaping meant for
names from files applied to the library's output), on a number not shown whole (a column squeezed
to nothing: every pooled and per-document value, taken from the API, must be on the screen), and
on a line wider than the terminal. Names from files still never steer the terminal.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_corpora"
# rich's sequences: CSI (colours, erase line, cursor moves) and the cursor show/hide private modes
CSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
ROW = "{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t{misc}"
DOCS = [f"GUM_{k}_document_{i}" for i, k in enumerate(["news", "interview", "academic", "bio", "fiction", "voyage"])]


def drive(args: list[str], cols: int, cwd: Path) -> str:
    """What the terminal receives from ``segagree ARGS`` in a pseudo-terminal ``cols`` wide."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(TERM="xterm-256color", PYTHONIOENCODING="utf-8")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "segagree", *args],
        cwd=str(cwd),
        env=env,
        dimensions=(40, cols),
        encoding="utf-8",
        codec_errors="replace",
        timeout=120,
    )
    out = child.read()
    child.close()
    assert child.exitstatus == 0, out
    return str(out)


def screen_lines(raw: str) -> list[str]:
    """The lines as shown: rich's sequences dropped, a carriage return going back to the line start."""
    lines = []
    for line in CSI.sub("", raw).replace("\r\n", "\n").split("\n"):
        lines.append(line.split("\r")[-1])
    return lines


def check_screen(raw: str, cols: int, values: list[str]) -> str:
    for shown in ("\\x1b", "\\x0d", "\\x9b", "\\r"):
        assert shown not in raw, f"escaped control sequence {shown} on the terminal:\n{raw}"
    lines = screen_lines(raw)
    too_wide = [line for line in lines if len(line.rstrip()) > cols]
    assert not too_wide, too_wide
    text = "\n".join(lines)
    cut = [v for v in values if not re.search(rf"(?<![\d.]){re.escape(v)}(?![\d.])", text)]
    assert not cut, f"values not shown whole at {cols} columns: {cut}\n{text}"
    return text


def _disrpt(folder: Path) -> tuple[Path, Path]:
    rng = random.Random(3)
    words = {d: [f"w{j}" for j in range(rng.randint(30, 50))] for d in DOCS}
    paths = []
    for who, p in (("a", 0.25), ("b", 0.3)):
        lines = []
        for d in DOCS:
            lines.append(f"# newdoc_id = {d}")
            for i, w in enumerate(words[d], 1):
                begin = i == 1 or rng.random() < p
                lines.append(ROW.format(i=i, w=w, misc="BeginSeg=Yes" if begin else "_"))
        path = folder / f"gum.{who}.tok"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


@pytest.fixture(scope="module")
def disrpt(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict]:
    import segagree

    a, b = _disrpt(tmp_path_factory.mktemp("disrpt"))
    result = segagree.compare(a, b, metrics="disrpt_seg,pk")
    return a, b, result


@pytest.mark.parametrize("cols", [80, 200])
def test_compare_of_a_multi_document_file_shows_every_pooled_and_per_document_value(disrpt, cols):
    a, b, result = disrpt
    raw = drive(["compare", a.name, b.name, "--metric", "disrpt_seg,pk"], cols, a.parent)
    values = [f"{result['sf']:.4f}", f"{result['sf_b']:.4f}"]
    for name in ("disrpt_seg", "pk"):
        res = result["metrics"][name]
        values.append(f"{res['value']:.4f}")
        values += [f"{v:.4f}" for v in res["per_speaker"].values()]
    values += [f"{st['sf']:.4f}" for st in result["per_speaker"].values()]
    text = check_screen(raw, cols, values)
    assert "ALL" in text and all(d in text.replace("\n", "") or d[:LABEL] in text for d in DOCS)


LABEL = 10  # a folded document name shows at least its first characters


@pytest.mark.parametrize("cols", [80, 200])
def test_agree_draws_its_progress_bar_and_table(cols):
    import segagree

    files = ["garden.ann1.txt", "garden.ann2.txt"]
    result = segagree.agree(*(SAMPLE / f for f in files), sims=300, seed=1)
    raw = drive(["agree", *files, "--sims", "300", "--seed", "1"], cols, SAMPLE)
    assert "simulating chance pairs" in raw  # the bar was drawn, on the terminal only
    pooled = result["pairs"][0]["pooled"]
    values = [f"{pooled['kappa_sf']['kappa']:.4f}", f"{pooled['kappa_sf_b']['kappa']:.4f}", f"{pooled['sf']:.4f}"]
    check_screen(raw, cols, values)


@pytest.mark.parametrize("cols", [80, 200])
def test_run_draws_its_progress_bar_and_summary(tmp_path, cols):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("garden.ann1.txt", "garden.ann2.txt"):
        shutil.copy(SAMPLE / name, corpus / name)
    raw = drive(["run", "corpus", "-o", "out", "--no-report", "--no-workbooks", "--sims", "20"], cols, tmp_path)
    assert "scoring" in raw
    import csv

    with (tmp_path / "out" / "summary.csv").open(encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["measure"] in ("sf", "sf_b") and r["speaker"] == "ALL"]
    assert rows
    check_screen(raw, cols, [f"{float(r['value']):.4f}" for r in rows])


def test_names_from_files_are_shown_escaped_on_a_terminal(tmp_path):
    name = "S\x1b]0;pwned\x07"
    rows = "".join(f'"{name}",word{i} .\n' for i in range(3))
    for ann in ("a", "b"):
        (tmp_path / f"t.{ann}.csv").write_text("Speaker,Utterance\n" + rows, encoding="utf-8")
    raw = drive(["compare", "t.a.csv", "t.b.csv"], 80, tmp_path)
    assert "\x1b]0" not in raw and "\x07" not in raw
    assert "S\\x1b]0;pwned\\x07" in raw


def test_the_safe_stream_passes_a_lone_style_reset_only():
    import io

    from segagree.cli.safe_text import SafeStream

    raw = io.StringIO()
    stream = SafeStream(raw)
    for text in ("\x1b[0m", "\x1b[31m", "name \x1b[0m", "\x1b]0;t\x07", "\r"):
        stream.write(text)
    assert raw.getvalue() == "\x1b[0m\\x1b[31mname \\x1b[0m\\x1b]0;t\\x07\\x0d"
