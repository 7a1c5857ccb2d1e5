"""``run --metric``: a run computes the measures named (besides S_f), and subtitle texts get only the
subtitle measures named: none, so a run of long videos can leave them out, or all with 'subtitles'."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

import segagree
from segagree.errors import UsageError

SAMPLE = Path(__file__).resolve().parents[2] / "sample_corpora"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "subs"
    folder.mkdir()
    for text in ("film", "talk"):
        for who in ("ref", "mt"):
            shutil.copy(SAMPLE / f"film.{who}.srt", folder / f"{text}.{who}.srt")
    return folder


def _measures(corpus: Path, out: Path, **options: object) -> set[str]:
    segagree.run(corpus, out, sims=20, workbooks=False, report=False, **options)  # type: ignore[arg-type]
    with (out / "summary.csv").open(encoding="utf-8") as fh:
        return {row["measure"] for row in csv.DictReader(fh)}


def test_the_named_measures_and_no_subtitle_measure_unless_named(corpus: Path, tmp_path: Path) -> None:
    from segagree.scoring.metric_runner import GROUPS

    subtitle = set(GROUPS["subtitles"])
    default = _measures(corpus, tmp_path / "a")
    assert default & {f"suber:{m}" for m in subtitle} or default & subtitle, "a default run scores subtitles"
    chosen = _measures(corpus, tmp_path / "b", metrics="b")
    assert "b" in chosen and "pk" not in chosen
    # only the subtitle measure named (B of the breaks), no other
    assert chosen & subtitle == {"b"} and not any(m.startswith("suber:") for m in chosen)
    both = _measures(corpus, tmp_path / "c", metrics=["b", "subtitles"])
    assert both - chosen  # the subtitle measures are back


def test_metrics_are_token_measures_of_a_run(corpus: Path, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="token track"):
        segagree.run(SAMPLE / "time_run", tmp_path / "t", time=True, metrics="b")
    with pytest.raises(UsageError, match="nonsense"):
        segagree.run(corpus, tmp_path / "u", metrics="nonsense")


def test_a_review_shows_only_the_subtitle_measures_named(corpus: Path, tmp_path: Path) -> None:
    import openpyxl

    def summary_words(metrics: object) -> str:
        out = tmp_path / f"r{len(list(tmp_path.iterdir()))}.xlsx"
        segagree.review(corpus / "film.ref.srt", corpus / "film.mt.srt", out, sims=20, metrics=metrics)  # type: ignore[arg-type]
        book = openpyxl.load_workbook(out, read_only=True)
        return " ".join(str(c) for ws in book.worksheets for row in ws.iter_rows(values_only=True) for c in row if c)

    assert "bleu_br" in summary_words(None)
    assert "bleu_br" not in summary_words("b")
