"""The command line: results on stdout, one-line errors on stderr, exit codes 0 / 1 / 2."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from cli_process import run_cli

from conftest import REPO, shared_path

SAMPLE = REPO / "sample_corpora"


def segagree(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return run_cli(args, cwd=cwd)


def assert_clean_error(proc: subprocess.CompletedProcess, code: int, *needles: str) -> None:
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]


def test_compare_json_has_the_contract_keys():
    proc = segagree("compare", str(SAMPLE / "garden.ann1.txt"), str(SAMPLE / "tables" / "garden.ann2.csv"), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    for key in ("sf", "sf_b", "cost", "edits", "n_tokens", "per_speaker", "operations", "signature"):
        assert key in out
    assert set(out["per_speaker"]) == {"ROSA", "BEN", "MAYA"}
    for stats in out["per_speaker"].values():
        assert {"sf", "sf_b", "cost", "edits", "n_tokens"} <= set(stats)
    ops = {op["op"] for op in out["operations"]}
    assert ops <= {"match", "substitution", "transposition", "insertion", "deletion"}
    assert {"match", "substitution", "transposition", "insertion", "deletion"} == ops  # the sample has each kind
    op = out["operations"][0]
    assert set(op) >= {"speaker", "op", "position_a", "position_b", "type_a", "type_b", "cost"}
    assert out["signature"].startswith("sf|mode:optimal|scheme:dubois@")
    assert abs(sum(o["cost"] for o in out["operations"]) - out["cost"]) < 1e-9


def test_compare_table_and_ops_csv(tmp_path):
    ops = tmp_path / "ops.csv"
    proc = segagree("compare", str(SAMPLE / "garden.ann1.txt"), str(SAMPLE / "garden.ann2.txt"), "--ops", str(ops))
    assert proc.returncode == 0, proc.stderr
    assert "ALL" in proc.stdout and "ROSA" in proc.stdout
    header = ops.read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("speaker,op,position_a,position_b,type_a,type_b,cost")


def test_compare_reproduces_published_nccu_value():
    a = shared_path("corpora", "nccu", "nccu_t001.a1.csv")
    b = shared_path("corpora", "nccu", "nccu_t001.a2.csv")
    proc = segagree("compare", str(a), str(b), "--mode", "segsimflex", "--scheme", "segsimflex-vignette", "--json")
    out = json.loads(proc.stdout)
    assert out["sf"] == pytest.approx(0.941676, abs=1e-6)
    assert out["sf_b"] == pytest.approx(0.745334, abs=1e-6)


def test_empty_file_error(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    assert_clean_error(segagree("compare", str(empty), str(SAMPLE / "garden.ann1.txt")), 1, str(empty), "empty")


def test_unknown_endnote_error(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("A:\tyes ,\n\tno !\n", encoding="utf-8")
    assert_clean_error(segagree("compare", str(bad), str(bad)), 1, str(bad), "line 2", "'!'")


def test_scheme_errors(tmp_path):
    out_of_range = tmp_path / "range.toml"
    out_of_range.write_text('types = [","]\n[similarity]\n"," = { "none" = 1.2 }\n', encoding="utf-8")
    proc = segagree(
        "compare", str(SAMPLE / "garden.ann1.txt"), str(SAMPLE / "garden.ann2.txt"), "--scheme", str(out_of_range)
    )
    assert_clean_error(proc, 1, str(out_of_range), "outside [0, 1]")
    asym = tmp_path / "asym.toml"
    asym.write_text(
        'types = [",", "."]\nsymmetric = true\n[similarity]\n"," = { "." = 0.5 }\n"." = { "," = 0.2 }\n',
        encoding="utf-8",
    )
    proc = segagree("compare", str(SAMPLE / "garden.ann1.txt"), str(SAMPLE / "garden.ann2.txt"), "--scheme", str(asym))
    assert_clean_error(proc, 1, str(asym), "symmetric")


def test_speaker_mismatch_error(tmp_path):
    other = tmp_path / "other.txt"
    other.write_text(
        (SAMPLE / "garden.ann2.txt").read_text(encoding="utf-8").replace("MAYA:", "MAIA:"), encoding="utf-8"
    )
    proc = segagree("compare", str(SAMPLE / "garden.ann1.txt"), str(other))
    assert_clean_error(proc, 1, "different speakers", "MAYA", "MAIA")


def test_token_mismatch_error_names_speaker_and_token(tmp_path):
    other = tmp_path / "other.txt"
    other.write_text(
        (SAMPLE / "garden.ann2.txt")
        .read_text(encoding="utf-8")
        .replace("a deer in the middle", "a moose in the middle"),
        encoding="utf-8",
    )
    proc = segagree("compare", str(SAMPLE / "garden.ann1.txt"), str(other))
    assert_clean_error(proc, 1, "'MAYA'", "'deer'", "'moose'")
    aligned = segagree("compare", str(SAMPLE / "garden.ann1.txt"), str(other), "--align", "--json")
    assert aligned.returncode == 0
    assert json.loads(aligned.stdout)["mismatches"][0]["token_b"] == "moose"


def test_usage_errors_exit_2(tmp_path):
    proc = segagree("compare", str(SAMPLE / "garden.ann1.txt"), str(SAMPLE / "garden.ann2.txt"), "--metric", "nope")
    assert_clean_error(proc, 2, "unknown metric 'nope'")
    proc = segagree("compare", str(SAMPLE / "garden.ann1.txt"), str(tmp_path / "x.weird"))
    assert proc.returncode in (1, 2) and "Traceback" not in proc.stderr


def test_convert_reports_losses_and_round_trips(tmp_path):
    out = tmp_path / "g.json"
    proc = segagree("convert", str(SAMPLE / "garden.ann1.txt"), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "lossless" in proc.stderr
    proc = segagree("convert", str(out), "-o", str(tmp_path / "g.txt"), "--strict")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "g.txt").read_text(encoding="utf-8") == (SAMPLE / "garden.ann1.txt").read_text(encoding="utf-8")


def test_convert_never_overwrites_input(tmp_path):
    src = tmp_path / "a.txt"
    src.write_bytes((SAMPLE / "garden.ann1.txt").read_bytes())
    proc = segagree("convert", str(src), "-o", str(src))
    assert_clean_error(proc, 1, "overwrite")
    assert src.read_bytes() == (SAMPLE / "garden.ann1.txt").read_bytes()


def test_formats_lists_every_format():
    proc = segagree("formats")
    assert proc.returncode == 0
    for name in ("text", "table", "json", "rez", "eaf", "textgrid", "srt"):
        assert name in proc.stdout


def test_review_then_adjudicate_all_b_gives_b(tmp_path):
    import openpyxl

    workbook = tmp_path / "garden.review.xlsx"
    a, b = SAMPLE / "garden.ann1.txt", SAMPLE / "tables" / "garden.ann2.csv"
    proc = segagree("review", str(a), str(b), "-o", str(workbook), "--sims", "20")
    assert proc.returncode == 0, proc.stderr
    wb = openpyxl.load_workbook(workbook)
    sheet = wb["Operations"]
    header = [c.value for c in sheet[1]]
    decision = header.index("decision") + 1
    assert sheet.max_row - 1 == 11  # the sample pair's 11 disagreements
    for row in range(2, sheet.max_row + 1):
        sheet.cell(row, decision, "B")
    wb.save(workbook)
    gold = tmp_path / "garden.gold.txt"
    proc = segagree("adjudicate", str(workbook), "-o", str(gold))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(segagree("compare", str(gold), str(b), "--json").stdout)
    assert out["sf"] == 1.0 and out["sf_b"] == 1.0
    assert_clean_error(segagree("review", str(a), str(b), "-o", str(tmp_path / "x.csv")), 2, ".xlsx")


@pytest.mark.parametrize("args", [["compare"], ["compare", "a.txt", "b.txt", "--mode"], ["nope"], ["run"]])
def test_usage_mistakes_exit_2_without_traceback(args):
    proc = segagree(*args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "error" in proc.stderr


def test_compare_table_shows_every_speaker_and_number_as_json_has_them(tmp_path: Path) -> None:
    """The printed table (plain text, no rich) holds each speaker's name and numbers, aligned,
    within 80 columns; the names once printed as nothing when rich shrank their column."""
    a = tmp_path / "t.a1.csv"
    b = tmp_path / "t.a2.csv"
    long_name = "SPEAKER_WITH_A_LONG_NAME"
    a.write_text(f'Speaker,Utterance\nA,"so it goes ,"\n{long_name},and then .\nA,fine .\n', encoding="utf-8")
    b.write_text(f'Speaker,Utterance\nA,so it goes .\n{long_name},"and then ,"\nA,fine .\n', encoding="utf-8")
    table = segagree("compare", str(a), str(b))
    data = json.loads(segagree("compare", str(a), str(b), "--json").stdout)
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["speaker", "tokens"])
    assert set(lines[header + 1]) == {"─"}
    fields = [line.split() for line in lines[header + 2 :]]
    rows = {f[0]: f for f in fields if len(f) == 10 and f[1].isdigit()}
    assert set(rows) == {"A", long_name, "ALL"}
    for name, st in [*data["per_speaker"].items(), ("ALL", data)]:
        assert rows[name][1:5] == [str(st["n_tokens"]), f"{st['sf']:.4f}", f"{st['sf_b']:.4f}", f"{st['cost']:g}"]
    assert max(len(line) for line in lines[header : header + 6]) <= 80
    # right-aligned numbers end in one column
    ends = {line.rstrip().__len__() for line in lines[header + 2 : header + 6] if line.strip()}
    assert len(ends) == 1
