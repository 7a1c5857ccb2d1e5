"""Hostile input, third audit: no command writes over a file it read or outside its output folder
(links followed); the panel of ``run --machine`` pairs as the run does, refuses an unknown machine
before scoring and cannot cost the run its outputs; seeds and segeval datasets checked.

Every fixture is written by the test (a few lines)."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest
from cli_process import run_cli

import segagree
from segagree.errors import SegagreeError, UsageError
from segagree.files.atomic import output_plan, write_text_atomic

TABLE = "Speaker,Utterance\nKIM,one two .\nKIM,three four .\nLEE,five six ?\n"
TABLE_B = 'Speaker,Utterance\nKIM,one .\nKIM,two three four .\nLEE,"five ,"\nLEE,six ?\n'
ROW = "{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t{misc}"


def _tables(folder: Path, names: dict[str, str]) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for name, text in names.items():
        out[name] = folder / name
        out[name].write_text(text, encoding="utf-8")
    return out


def _disrpt(folder: Path, annotators: tuple[str, ...], docs: tuple[str, ...] = ("d1", "d2"), words: int = 12) -> None:
    """One DISRPT file per annotator (``gum.WHO.tok``), each holding ``docs``."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(5)
    for who in annotators:
        parts = []
        for d in docs:
            rows = [
                ROW.format(i=i, w=f"w{i}", misc="BeginSeg=Yes" if i == 1 or rng.random() < 0.3 else "_")
                for i in range(1, words + 1)
            ]
            parts.append(f"# newdoc_id = {d}\n" + "\n".join(rows) + "\n")
        (folder / f"gum.{who}.tok").write_text("\n".join(parts), encoding="utf-8")


# --- inputs and outputs -----------------------------------------------------------------------


def test_panel_refuses_to_write_its_summary_over_an_input_named_panel_csv(tmp_path: Path) -> None:
    files = _tables(tmp_path, {"panel.csv": TABLE, "b.csv": TABLE_B, "c.csv": TABLE_B, "m.csv": TABLE})
    before = files["panel.csv"].read_bytes()
    done = run_cli(
        ["panel", *files.values(), "--machine", "m", "-o", ".", "--n-boot", "5", "--n-perm", "5"], cwd=tmp_path
    )
    assert done.returncode == 1, done.stderr
    assert "refusing to overwrite the input file" in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("panel.csv") == 2  # the output and the input it would overwrite
    assert files["panel.csv"].read_bytes() == before
    assert not (tmp_path / "panel.json").exists()  # refused before any panel file is written


def test_run_into_an_annotator_folder_refuses_before_scoring_and_keeps_its_summary_csv(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    h1 = _tables(corpus / "h1", {"summary.csv": TABLE, "garden.csv": TABLE})
    _tables(corpus / "h2", {"summary.csv": TABLE_B, "garden.csv": TABLE_B})
    before = h1["summary.csv"].read_bytes()
    for jobs in ("1", "2"):  # the files are read in workers with --jobs 2: refused all the same
        done = run_cli(["run", corpus, "-o", corpus / "h1", "--no-kappa", "--jobs", jobs])
        assert done.returncode == 1, done.stderr
        assert "refusing to overwrite the input file" in done.stderr and "h1/summary.csv" in done.stderr
        assert h1["summary.csv"].read_bytes() == before
        assert not (corpus / "h1" / "results.jsonl").exists()  # nothing scored


def test_convert_refuses_to_overwrite_the_raw_text_its_edus_reader_read(tmp_path: Path) -> None:
    raw = tmp_path / "a.out"
    raw.write_text("One two three.\nFour five.\n", encoding="utf-8")
    (tmp_path / "a.out.edus").write_text("    One two \n    three. \n    Four five. \n", encoding="utf-8")
    done = run_cli(["convert", "a.out.edus", "--to", "text", "-o", "a.out"], cwd=tmp_path)
    assert done.returncode == 1 and "refusing to overwrite the input file a.out" in done.stderr, done.stderr
    assert raw.read_text(encoding="utf-8") == "One two three.\nFour five.\n"
    with pytest.raises(SegagreeError, match="refusing to overwrite"):  # the Python API too
        segagree.convert(tmp_path / "a.out.edus", raw, to="text")


def test_run_writes_no_workbook_through_a_linked_folder_outside_the_output_folder(tmp_path: Path) -> None:
    corpus, out, outside = tmp_path / "corpus", tmp_path / "out", tmp_path / "outside"
    _disrpt(corpus, ("a", "b"))
    (out / "review").mkdir(parents=True)
    outside.mkdir()
    (out / "review" / "gum").symlink_to(outside, target_is_directory=True)
    done = run_cli(["run", corpus, "-o", out, "--no-kappa"])
    assert done.returncode == 1, done.stderr
    assert "refusing to write outside the output folder" in done.stderr and "Traceback" not in done.stderr
    assert str(outside / "d1.xlsx") in done.stderr  # both paths named
    assert list(outside.iterdir()) == []


def test_the_output_plan_refuses_a_linked_folder_and_an_input_in_the_api_alone(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "out" / "sub").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    source = tmp_path / "out" / "in.txt"
    source.write_text("x", encoding="utf-8")
    with output_plan(tmp_path / "out", inputs=[source]):
        write_text_atomic(tmp_path / "out" / "fine.txt", "y")
        with pytest.raises(SegagreeError, match="outside the output folder"):
            write_text_atomic(tmp_path / "out" / "sub" / "x.txt", "y")
        with pytest.raises(SegagreeError, match="overwrite the input"):
            write_text_atomic(tmp_path / "out" / "." / "in.txt", "y")
    assert source.read_text(encoding="utf-8") == "x" and not (tmp_path / "elsewhere" / "x.txt").exists()


def test_a_run_without_machine_removes_the_panel_files_an_earlier_run_wrote(tmp_path: Path) -> None:
    corpus, out = tmp_path / "corpus", tmp_path / "out"
    _disrpt(corpus, ("a", "b", "m"))
    assert run_cli(["run", corpus, "-o", out, "--no-kappa", "--machine", "m", "--no-report"]).returncode == 0
    assert (out / "panel.csv").is_file()
    mine = out / "panel.txt"  # a file of the user's beside them stays
    mine.write_text("mine", encoding="utf-8")
    done = run_cli(["run", corpus, "-o", out, "--no-kappa", "--no-report"])
    assert done.returncode == 0, done.stderr
    assert not any((out / f"panel.{ext}").exists() for ext in ("csv", "json", "html"))
    assert mine.read_text(encoding="utf-8") == "mine"


# --- the panel in a run -----------------------------------------------------------------------


def test_run_machine_on_disrpt_files_gives_the_panel_of_their_edu_layer(tmp_path: Path) -> None:
    corpus, out = tmp_path / "corpus", tmp_path / "out"
    _disrpt(corpus, ("a", "b", "c", "m"), docs=("d1", "d2", "d3"))
    done = run_cli(["run", corpus, "-o", out, "--no-kappa", "--machine", "m", "--no-report", "--no-workbooks"])
    assert done.returncode == 0, done.stderr
    written = json.loads((out / "panel.json").read_text(encoding="utf-8"))
    # segagree panel reads DISRPT files on their own (edu) layer: the same numbers
    expected = segagree.panel(corpus, "m", seed=12345)
    assert written["results"] == json.loads(json.dumps(expected["results"]))
    with (out / "summary.csv").open(encoding="utf-8") as fh:
        assert any(r["measure"].startswith("panel:") for r in csv.DictReader(fh))


def test_run_refuses_an_unknown_machine_before_scoring(tmp_path: Path) -> None:
    corpus, out = tmp_path / "corpus", tmp_path / "out"
    _disrpt(corpus, ("a", "b"))
    done = run_cli(["run", corpus, "-o", out, "--no-kappa", "--machine", "nosuch"])
    assert done.returncode == 2 and "no annotations by 'nosuch'" in done.stderr, done.stderr
    assert not (out / "results.jsonl").exists()


def test_a_failing_panel_leaves_the_runs_summary_and_report_and_exits_1(tmp_path: Path) -> None:
    corpus, out = tmp_path / "corpus", tmp_path / "out"
    _disrpt(corpus, ("a", "b"))
    _disrpt(corpus / "x", ("m",))  # the machine annotates another text: no text has every member
    (corpus / "x" / "gum.m.tok").rename(corpus / "other.m.tok")
    (corpus / "x").rmdir()
    (corpus / "other.a.tok").write_text((corpus / "other.m.tok").read_text(encoding="utf-8"), encoding="utf-8")
    done = run_cli(["run", corpus, "-o", out, "--no-kappa", "--machine", "m"])
    assert done.returncode == 1, done.stderr
    assert "the panel failed" in done.stderr and "Traceback" not in done.stderr
    assert (out / "summary.csv").is_file() and (out / "report.html").is_file()
    assert not (out / "panel.csv").exists()


@pytest.mark.parametrize("command", ["panel", "agree", "run"])
def test_a_negative_seed_is_a_usage_error(tmp_path: Path, command: str) -> None:
    files = _tables(tmp_path, {"t.a.csv": TABLE, "t.b.csv": TABLE_B, "t.m.csv": TABLE})
    args = {
        "panel": ["panel", *files.values(), "--machine", "t.m.csv"],
        "agree": ["agree", files["t.a.csv"], files["t.b.csv"]],
        "run": ["run", tmp_path, "-o", tmp_path / "out"],
    }[command]
    done = run_cli([*args, "--seed", "-5"])
    assert done.returncode == 2 and "--seed" in done.stderr and "unexpected" not in done.stderr, done.stderr


def test_the_api_refuses_a_negative_seed(tmp_path: Path) -> None:
    files = _tables(tmp_path, {"t.a.csv": TABLE, "t.b.csv": TABLE_B})
    with pytest.raises(UsageError, match="seed"):
        segagree.agree(files["t.a.csv"], files["t.b.csv"], seed=-5, sims=10)


def test_segeval_datasets_nested_too_deep_or_with_a_5000_digit_mass_are_clear_errors(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"segmentation_type": "linear", "items": ' + "[" * 200_000 + "]" * 200_000 + "}")
    big = tmp_path / "big.json"
    big.write_text('{"segmentation_type": "linear", "items": {"i": {"a": [1, ' + "9" * 5000 + '], "m": [5]}}}')
    large = tmp_path / "large.json"
    large.write_text('{"segmentation_type": "linear", "items": {"i": {"a": [1, ' + "9" * 40 + '], "m": [5]}}}')
    for path, said in ((deep, "nested too deep"), (big, "4,300 digits"), (large, "at most 2,147,483,647")):
        for args in (["panel", "--dataset", path, "--machine", "m"], ["agree", "--dataset", path]):
            done = run_cli(args)
            assert done.returncode == 1 and said in done.stderr, done.stderr
            assert "Traceback" not in done.stderr and "unexpected" not in done.stderr


def test_run_machine_on_subtitle_files_writes_the_summary_and_the_panel(tmp_path: Path) -> None:
    corpus, out = tmp_path / "corpus", tmp_path / "out"
    corpus.mkdir()
    rng = random.Random(3)
    words = [f"w{i}" for i in range(40)]
    for who in ("a", "b", "c", "m"):
        cues, i, n = [], 0, 1
        while i < len(words):
            k = rng.randint(3, 7)
            cues.append(f"{n}\n00:00:{2 * n:02d},000 --> 00:00:{2 * n + 1:02d},500\n{' '.join(words[i : i + k])}\n")
            i, n = i + k, n + 1
        (corpus / f"film.{who}.srt").write_text("\n".join(cues), encoding="utf-8")
    done = run_cli(["run", corpus, "-o", out, "--no-kappa", "--machine", "m", "--no-report", "--no-workbooks"])
    assert done.returncode == 0, done.stderr
    assert (out / "summary.csv").is_file() and (out / "panel.json").is_file()
    assert json.loads((out / "panel.json").read_text(encoding="utf-8"))["texts"] == ["film"]
