"""Units in time: a time window (only the units within it, clipped at its edges, over it as the
continuum) and CHAT utterances without a time bullet (skipped and listed, or refused)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from time_files import write_table

import segagree
from segagree.errors import InputError, UsageError

ROWS = [
    ("kim", 0.0, 4.0, "x"),  # crosses the window's start: clipped to [2, 4]
    ("kim", 5.0, 7.0, "y"),  # inside
    ("kim", 9.0, 12.0, "x"),  # crosses its end: clipped to [9, 10]
    ("kim", 12.0, 13.0, "y"),  # outside
    ("lee", 1.0, 3.5, "x"),
    ("lee", 5.5, 7.0, "y"),
    ("lee", 10.0, 11.0, "x"),  # touches the end from outside: left out
]


def _spans(timed):
    us = next(iter(timed.speakers.values()))
    return sorted((us.annotators[a], s, e) for a, s, e in zip(us.annotator.tolist(), us.start, us.end, strict=True))


def test_window_clips_units_at_its_edges_and_is_the_continuum(tmp_path: Path) -> None:
    table = write_table(tmp_path / "u.csv", ROWS)
    timed = segagree.read_time_units(table, window=(2, 10))
    assert timed.continuum == (2.0, 10.0)
    assert _spans(timed) == [
        ("kim", 2.0, 4.0),
        ("kim", 5.0, 7.0),
        ("kim", 9.0, 10.0),
        ("lee", 2.0, 3.5),
        ("lee", 5.5, 7.0),
    ]
    assert timed.window == {"start": 2.0, "end": 10.0, "units": 5, "clipped": 3, "outside": 2}
    assert any("clipped" in n for n in timed.notes)


def test_window_scores_equal_the_hand_clipped_units(tmp_path: Path) -> None:
    clipped = [("kim", 2, 4, "x"), ("kim", 5, 7, "y"), ("kim", 9, 10, "x"), ("lee", 2, 3.5, "x"), ("lee", 5.5, 7, "y")]
    by_hand = segagree.agree_time(write_table(tmp_path / "c.csv", clipped), measures=["alpha_u"], continuum=(2, 10))
    windowed = segagree.agree_time(write_table(tmp_path / "u.csv", ROWS), measures=["alpha_u"], window=(2, 10))
    assert windowed["alpha_u"] == pytest.approx(by_hand["alpha_u"])
    assert windowed["window"]["clipped"] == 3


@pytest.mark.parametrize("window", [(5, 5), (-1, 3), (3, float("inf"))])
def test_bad_windows_are_refused(tmp_path: Path, window: tuple[float, float]) -> None:
    with pytest.raises(UsageError, match="window"):
        segagree.read_time_units(write_table(tmp_path / "u.csv", ROWS), window=window)


def test_window_and_another_continuum_are_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not both"):
        segagree.read_time_units(write_table(tmp_path / "u.csv", ROWS), window=(2, 10), continuum=(0, 20))


CHAT = (
    "@UTF8\n@Begin\n@Languages:\teng\n@Participants:\tCHI Target_Child, MOT Mother\n"
    "@ID:\teng|x|CHI|||||Target_Child|||\n@ID:\teng|x|MOT|||||Mother|||\n"
    "*MOT:\tlook at that . \x151000_2000\x15\n"
    "*CHI:\twhat's that ?\n"
    "*MOT:\ta ball ! \x153000_4500\x15\n"
    "@End\n"
)


def _chat_pair(tmp_path: Path, shift_ms: int = 100) -> list[Path]:
    kim = tmp_path / "kim.cha"
    kim.write_text(CHAT, encoding="utf-8")
    lee = tmp_path / "lee.cha"
    lee.write_text(CHAT.replace("1000_2000", f"{1000 + shift_ms}_2000"), encoding="utf-8")
    return [kim, lee]


def test_untimed_chat_utterances_are_skipped_and_listed(tmp_path: Path) -> None:
    pylangacq = pytest.importorskip("pylangacq")
    files = _chat_pair(tmp_path)
    # pylangacq's reading of the same file: three utterances, one without a time mark
    reader = pylangacq.read_chat(str(files[0]))
    marks = [u.time_marks for u in reader.utterances()]
    timed_by_pylangacq = sum(1 for m in marks if m)
    timed = segagree.read_time_units(files)
    assert timed.unit_counts == {"kim": timed_by_pylangacq, "lee": timed_by_pylangacq} == {"kim": 2, "lee": 2}
    listed = [n for n in timed.notes if "without a time bullet" in n]
    assert len(listed) == 2 and "*CHI: what's that ?" in listed[0] and "1 utterances" in listed[0]


def test_untimed_chat_utterances_refused_on_request(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="1 utterances have no time bullet.*CHI: what's that"):
        segagree.read_time_units(_chat_pair(tmp_path), untimed="refuse")


def test_cli_window_and_untimed_in_agree_and_run(tmp_path: Path) -> None:
    from segagree.cli import app

    files = [str(p) for p in _chat_pair(tmp_path)]
    res = CliRunner().invoke(app, ["agree", "--time", *files, "--measure", "alpha_u", "--window", "0,3.5", "--json"])
    assert res.exit_code == 0, res.output
    assert '"continuum": [\n    0.0,\n    3.5\n  ]' in res.output or '"continuum": [0.0, 3.5]' in res.output
    res = CliRunner().invoke(app, ["agree", "--time", *files, "--untimed", "refuse"])
    assert isinstance(res.exception, InputError) and "no time bullet" in str(res.exception)
    res = CliRunner().invoke(app, ["agree", "--time", *files, "--window", "3"])
    assert isinstance(res.exception, UsageError) and "--window takes START,END" in str(res.exception)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, src in (("t.kim.cha", files[0]), ("t.lee.cha", files[1])):
        (corpus / name).write_text(Path(src).read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "out"
    res = CliRunner().invoke(
        app, ["run", str(corpus), "-o", str(out), "--time", "--measure", "alpha_u", "--window", "0,3.5", "--quiet"]
    )
    assert res.exit_code == 0, res.output
    summary = (out / "summary.json").read_text(encoding="utf-8")
    assert '"continuum": [0.0, 3.5]' in summary and '"window": {"start": 0.0, "end": 3.5' in summary


def test_a_review_made_with_a_window_is_not_adjudicated(tmp_path: Path) -> None:
    import openpyxl

    from segagree.errors import SegagreeError

    review = tmp_path / "r.xlsx"
    segagree.review_time(write_table(tmp_path / "u.csv", ROWS), review, window=(2, 10))
    book = openpyxl.load_workbook(review)
    sheet = book["Alignment"]
    column = [c.value for c in sheet[1]].index("decision") + 1
    for row in range(2, sheet.max_row + 1):
        sheet.cell(row, column).value = "kim"
    book.save(review)
    with pytest.raises(SegagreeError, match="--window 2.0,10.0"):
        segagree.adjudicate_time(review, tmp_path / "gold.csv")
    assert not (tmp_path / "gold.csv").exists()


def test_segagree_toml_sets_a_run_window(tmp_path: Path) -> None:
    import json

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    write_table(corpus / "t.kim.csv", [r for r in ROWS if r[0] == "kim"])
    write_table(corpus / "t.lee.csv", [r for r in ROWS if r[0] == "lee"])
    (corpus / "segagree.toml").write_text("[time]\nwindow = [2, 10]\n", encoding="utf-8")
    segagree.run(corpus, tmp_path / "out", time=True, measures=["alpha_u"], report=False)
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert '"continuum": [2.0, 10.0]' in json.dumps(summary)
    (corpus / "segagree.toml").write_text("[time]\nwindow = [10, 2]\n", encoding="utf-8")
    with pytest.raises(UsageError, match="window"):
        segagree.run(corpus, tmp_path / "out2", time=True, measures=["alpha_u"], report=False)


def test_an_unknown_untimed_mode_is_refused_for_tables_too(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="untimed must be one of"):
        segagree.read_time_units(write_table(tmp_path / "u.csv", ROWS), untimed="drop")
