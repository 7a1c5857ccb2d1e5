"""Time-based agreement over several recordings in worker processes (segagree.scoring.time.items,
``segagree.api.agree_time(jobs=...)``): the same numbers for any number of workers, each recording's
numbers those of scoring it alone, each measure's those of scoring it alone."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import segagree
from segagree.errors import UsageError
from segagree.scoring.time.items import worker_count

PARAMS = {"samples": 4, "seed": 7}


def write_table(path: Path, recordings: int = 3, seed: int = 5) -> list[str]:
    """A units table (annotator,recording,start,end,category): 3 annotators, each a noisy copy of a
    recording's 8 units; returns the rows of each recording (header first) for scoring them alone."""
    rng = np.random.default_rng(seed)
    header = "annotator,recording,start,end,category"
    rows = [header]
    for r in range(recordings):
        starts = np.cumsum(rng.uniform(0.5, 2.0, 8) + 1.0)
        cats = rng.choice(["x", "y"], 8)
        for who in ("ann", "bob", "cy"):
            for s, c in zip(starts, cats, strict=True):
                if rng.random() < 0.15:
                    continue
                a = max(0.0, s + rng.normal(0, 0.2))
                rows.append(f"{who},rec{r},{a:.2f},{a + 0.8 + abs(rng.normal(0, 0.2)):.2f},{c}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return rows


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("jobs") / "export.csv"
    write_table(path)
    return path


@pytest.fixture(scope="module")
def serial(table: Path) -> dict:
    return segagree.agree_time([table], params=PARAMS, jobs=1)


def test_two_workers_give_the_same_result(table: Path, serial: dict) -> None:
    assert len(serial["speakers"]) == 3 and serial["gamma"] is not None
    assert segagree.agree_time([table], params=PARAMS, jobs=2) == serial
    assert segagree.agree_time([table], params=PARAMS, jobs=5) == serial  # more than the CPUs or items


def test_each_recording_scored_alone_gives_its_numbers(table: Path, serial: dict, tmp_path: Path) -> None:
    rows = table.read_text(encoding="utf-8").splitlines()
    for r, speaker in enumerate(serial["speakers"]):
        one = tmp_path / f"rec{r}.csv"
        one.write_text("\n".join([rows[0], *(x for x in rows[1:] if f",rec{r}," in x)]) + "\n", encoding="utf-8")
        alone = segagree.agree_time([one], params=PARAMS, jobs=1)
        for name, res in serial["measures"].items():
            assert res["speakers"][speaker] == alone["measures"][name]["pooled"], (name, speaker)


def test_each_measure_scored_alone_gives_its_numbers(table: Path, serial: dict) -> None:
    # gamma, gamma-cat and gamma-k share each recording's alignments when scored together
    for name in ("gamma_cat", "gamma_k", "gamma", "alpha_u"):
        params = PARAMS if name.startswith("gamma") else None
        alone = segagree.agree_time([table], measures=[name], params=params, jobs=2)
        assert alone["measures"][name] == serial["measures"][name], name


def test_one_recording_with_jobs_samples_gamma_in_workers(tmp_path: Path) -> None:
    path = tmp_path / "one.csv"
    write_table(path, recordings=1)
    one = segagree.agree_time([path], params=PARAMS, jobs=1)
    assert segagree.agree_time([path], params=PARAMS, jobs=2) == one


@pytest.mark.parametrize("jobs", [0, -1, 1.5, "2", True])
def test_a_bad_jobs_value_is_a_usage_error(table: Path, jobs: object) -> None:
    with pytest.raises(UsageError, match="jobs must be a whole number"):
        segagree.agree_time([table], params=PARAMS, jobs=jobs)  # type: ignore[arg-type]


def test_worker_count_is_capped_by_the_items_and_cpus() -> None:
    assert worker_count(None, 10) == 1 and worker_count(1, 10) == 1
    assert worker_count(64, 3) <= 3 and worker_count(64, 1) == 1 and worker_count(2, 0) == 1
