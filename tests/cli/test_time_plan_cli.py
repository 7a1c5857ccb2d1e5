"""The annotation plan and honest output on the command line: --plan, labels printed as written,
undefined values with reasons, run --time --category none and --annotators, --matching, the memory
budget's refusal."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_corpora" / "time"
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scoring"))
from cli_process import run_cli  # noqa: E402
from time_files import write_table  # noqa: E402


def segagree(*args: str, cwd: Path = SAMPLE) -> subprocess.CompletedProcess:
    return run_cli(args, cwd=cwd)


def test_plan_alone_and_above_the_table() -> None:
    plan = segagree("agree", "--time", "gestures.eaf", "--plan")
    assert plan.returncode == 0, plan.stderr
    assert "gestures.eaf tier 'kim' -> kim" in plan.stdout and "alpha_u" not in plan.stdout
    as_json = json.loads(segagree("agree", "--time", "gestures.eaf", "--plan", "--json").stdout)
    assert as_json["plan"]["units"] == {"kim": {"": 6}, "lee": {"": 6}}
    scored = segagree("agree", "--time", "kim.TextGrid", "lee.TextGrid", "--measure", "alpha_u")
    assert scored.stdout.index("plan (files)") < scored.stdout.index("alpha_u")


def test_labels_are_printed_as_written(tmp_path: Path) -> None:
    rows = [("a", 0, 1, "B:FG"), ("a", 2, 3, ":smile:"), ("b", 0, 1, "B:FG"), ("b", 2, 3.5, "[bold]x[/bold]")]
    table = write_table(tmp_path / "t.csv", rows)
    out = segagree("agree", "--time", str(table), "--measure", "ku_alpha", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "B:FG" in text and ":smile:" in text and "[bold]x[/bold]" in text and "\U0001f604" not in text


def _unexplained(node: object, path: str = "", reasons: object = None) -> list[str]:
    """Paths of None values without a reason: a sibling ``reason``, or ``reasons`` naming the key (a
    measure's components, the disorders and D_o/D_e, are not values)."""
    out: list[str] = []
    if isinstance(node, dict):
        mine = node.get("reasons") if isinstance(node.get("reasons"), dict) else reasons
        for key, value in node.items():
            if value is None:
                explained = (
                    node.get("reason") or node.get("not_applicable") or (isinstance(mine, dict) and mine.get(key))
                )
                if not explained and "disorder" not in key and key not in ("D_o", "D_e"):
                    out.append(f"{path}/{key}")
            elif key not in ("observed_disorder", "expected_disorder"):
                out.extend(_unexplained(value, f"{path}/{key}", mine if key == "value" else None))
    return out


def test_undefined_values_carry_their_reason(tmp_path: Path) -> None:
    rows = [("a", 0, 1, "x"), ("a", 2, 3, "y"), ("b", 0, 1, "x"), ("b", 5, 6, "z")]
    table = write_table(tmp_path / "t.csv", rows)
    res = json.loads(segagree("agree", "--time", str(table), "--json", "--samples", "3").stdout)
    assert _unexplained(res["measures"]) == []
    assert res["measures"]["gamma_k"]["pooled"]["value"]["z"] is None  # the check saw undefined values
    one = write_table(tmp_path / "one.csv", [("a", 0, 1, "x"), ("b", 0, 1.2, "x")])
    res = json.loads(segagree("agree", "--time", str(one), "--json", "--samples", "3", "--category", "none").stdout)
    assert _unexplained(res["measures"]) == []
    table_out = segagree("agree", "--time", str(table), "--samples", "3", cwd=tmp_path).stdout
    assert "z - (" in " ".join(table_out.split())  # the table's note gives the reason too


def test_run_time_category_none_writes_its_report_and_takes_annotators(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    write_table(corpus / "clip1.kim.csv", [("kim", 1, 2, "laugh"), ("kim", 4, 5, "laugh")])
    write_table(corpus / "clip1.lee.csv", [("lee", 1.1, 2, "laugh"), ("lee", 4.2, 5, "laugh")])
    write_table(corpus / "clip2.kim.csv", [("kim", 0.5, 1.5, "laugh")])
    write_table(corpus / "clip2.lee.csv", [])  # lee heard no laughter in clip2: kept, not dropped
    out = tmp_path / "out"
    proc = segagree("run", str(corpus), "-o", str(out), "--time", "--category", "none", "--samples", "3", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (out / "report.html").is_file()
    with (out / "summary.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    gamma_k = [r for r in rows if r["measure"].startswith("gamma_k")]
    assert gamma_k and all(r["value"] == "" and "no categories" in r["note"] for r in gamma_k)
    f1 = {r["text"]: r["value"] for r in rows if r["measure"] == "boundary_f1" and r["speaker"] == "ALL"}
    assert set(f1) == {"clip1", "clip2", "ALL"} and float(f1["clip2"]) == 0.0
    three = segagree(
        "run", str(corpus), "-o", str(tmp_path / "o3"), "--time", "--measure", "boundary_f1",
        "--annotators", "kim,lee,zoe", "--json", cwd=tmp_path,
    )  # fmt: skip
    assert three.returncode == 0, three.stderr
    summary = json.loads((tmp_path / "o3" / "summary.json").read_text(encoding="utf-8"))
    assert "zoe" in json.dumps(summary)


def test_matching_option_and_issue_95(tmp_path: Path) -> None:
    rows = [("ref", 0, 10, "x"), ("ref", 10, 11.5, "x"), ("ref", 11.5, 20, "x")]
    rows += [("hyp", 0, 11, "x"), ("hyp", 11, 12.5, "x"), ("hyp", 12.5, 20, "x")]
    table = write_table(tmp_path / "t.csv", rows)
    base = ("agree", "--time", str(table), "--measure", "boundary_f1", "--tolerance", "1.1", "--json")
    optimal = json.loads(segagree(*base, cwd=tmp_path).stdout)
    greedy = json.loads(segagree(*base, "--matching", "greedy", cwd=tmp_path).stdout)
    assert optimal["boundary_f1"] == 1.0 and greedy["boundary_f1"] == 0.5


@pytest.mark.parametrize("annotators", [2, 4])
def test_memory_budget_refuses_with_how_to_split(tmp_path: Path, annotators: int) -> None:
    # one long unit widens every window: ~ (units per annotator)² pairs for 2 annotators, groups for 4
    rows = [(f"c{a}", i + 0.1 * a, i + 1.0 + 0.05 * a, "x") for a in range(annotators) for i in range(600)]
    rows.append(("c0", 0.0, 600.0, "x"))
    table = write_table(tmp_path / "big.csv", rows)
    proc = segagree(
        "agree", "--time", str(table), "--measure", "gamma", "--memory-budget", "1", "--samples", "2", cwd=tmp_path
    )
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "budget of 1 MB" in proc.stderr and "by recording" in proc.stderr and "time window" in proc.stderr


def test_memory_estimates_are_exact_counts() -> None:
    """The estimate bounds the pairs candidate_pairs scores, before it scores them."""
    import numpy as np

    from segagree.metrics.unitizing import gamma_alignment as al
    from segagree.metrics.unitizing.dissimilarity import Dissimilarity, Track, candidate_pairs

    rng = np.random.default_rng(3)
    tracks = []
    for _ in range(4):
        s = np.sort(rng.uniform(0, 50, 40))
        e = s + rng.uniform(0.2, 3, 40)
        tracks.append(Track.build(s, e, rng.integers(0, 2, 40), np.arange(40)))
    dis = Dissimilarity()
    bound = al._pair_bound(4, dis)
    windowed = al.check_pair_memory(tracks, dis, budget=float("inf"))
    scored = sum(candidate_pairs(tracks[a], tracks[b], dis, bound)[0].size for a in range(4) for b in range(a + 1, 4))
    assert windowed >= scored > 0
