"""The pause baseline: thresholds with the best mean boundary F1 against the humans (checked by brute
force), the baseline written as a machine annotation, and the panel reading other machines against it."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from acoustic_audio import two_units
from time_files import write_textgrid

from segagree.scoring.acoustics.baseline import fit_pause_baseline, gap_f1, pause_boundaries


def test_fit_is_the_best_threshold_by_brute_force() -> None:
    rng = np.random.default_rng(5)
    pauses = np.round(rng.exponential(0.2, 40), 3)
    pauses[[3, 17]] = np.nan  # overlap: never a boundary
    humans = [np.nan_to_num(pauses) + rng.normal(0, 0.08, 40) > 0.3 for _ in range(3)]
    fit = fit_pause_baseline(pauses, humans)

    def mean_f1(marked: np.ndarray) -> float:
        return float(np.mean([gap_f1(marked, h) for h in humans]))

    best = max(mean_f1(np.nan_to_num(pauses, nan=-1) >= t) for t in np.unique(pauses[np.isfinite(pauses)]))
    assert fit.f1 == pytest.approx(best)
    assert mean_f1(pause_boundaries(pauses, fit.pause)) == pytest.approx(fit.f1)
    assert not pause_boundaries(pauses, 0.0)[[3, 17]].any()
    # every subset of four gaps, by brute force: F1 as its definition
    gold = np.array([1, 0, 1, 1], dtype=bool)
    for bits in itertools.product([False, True], repeat=4):
        marked = np.array(bits)
        hits = int((marked & gold).sum())
        expected = 2 * hits / (marked.sum() + gold.sum())
        assert gap_f1(marked, gold) == pytest.approx(expected)


def test_the_pitch_reset_adds_boundaries() -> None:
    pauses = np.array([0.0, 0.5, 0.0, 0.0, 0.6])
    resets = np.array([0.2, 1.0, 6.0, 0.1, 5.0])
    humans = [np.array([False, True, True, False, True])]
    assert fit_pause_baseline(pauses, humans).f1 < 1
    with_pitch = fit_pause_baseline(pauses, humans, resets)
    assert with_pitch.f1 == 1 and with_pitch.reset is not None and 0.2 < with_pitch.reset <= 5.0


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("parselmouth")
    home = tmp_path_factory.mktemp("baseline")
    two_units(home / "t.wav")
    words = [(0.3, 0.9, "one"), (0.9, 1.5, "two"), (2.1, 2.6, "three"), (2.6, 3.1, "four")]
    units_a = [(0.3, 1.5, "one two ,"), (2.1, 3.1, "three four .")]
    units_b = [(0.3, 0.9, "one ,"), (0.9, 1.5, "two ,"), (2.1, 3.1, "three four .")]
    for text in ("t", "u", "v"):
        write_textgrid(home / f"{text}.a.TextGrid", {"S": units_a, "S/words": words}, 3.4)
        write_textgrid(home / f"{text}.b.TextGrid", {"S": units_b, "S/words": words}, 3.4)
        write_textgrid(home / f"{text}.c.TextGrid", {"S": units_a, "S/words": words}, 3.4)
    write_textgrid(home / "t.seg.TextGrid", {"S": units_b, "S/words": words}, 3.4)
    write_textgrid(home / "u.seg.TextGrid", {"S": units_b, "S/words": words}, 3.4)
    write_textgrid(home / "v.seg.TextGrid", {"S": units_a, "S/words": words}, 3.4)
    return home


def test_the_baseline_as_a_panel_machine(corpus: Path, tmp_path: Path) -> None:
    from segagree.api import panel, pause_baseline
    from segagree.formats import read_document

    for text in ("t", "u", "v"):
        humans = [corpus / f"{text}.{x}.TextGrid" for x in "abc"]
        res = pause_baseline(humans, corpus / f"{text}.pause.TextGrid", media=corpus / "t.wav")
    # the 0.6 s pause marks the boundary all three humans have; the gap inside the unit has none
    assert res["pause"] == pytest.approx(0.6, abs=0.03) and res["boundaries"] == 2
    assert res["f1"] == pytest.approx((1 + 2 / 3 + 1) / 3)
    doc = read_document(corpus / "t.pause.TextGrid")
    assert [len(u.rows) for u in doc.units()] == [2, 2]
    result = panel(corpus, ["seg"], reference="pause", n_boot=50, n_perm=20)
    assert set(result.machines) == {"seg", "pause"}
    against = result.machines["seg"]["against_reference"]["pause"]
    assert result.verdicts["seg"].startswith(f"{against['reading']} the pause baseline, ")
    assert "against_reference" not in result.machines["pause"]


def test_the_baseline_needs_word_times_and_a_recording(corpus: Path, tmp_path: Path) -> None:
    from segagree.api import pause_baseline
    from segagree.errors import SegagreeError

    plain = write_textgrid(tmp_path / "x.a.TextGrid", {"S": [(0.3, 1.5, "one two ,"), (2.1, 3.1, "three .")]}, 3.4)
    with pytest.raises(SegagreeError, match="needs word times: 1 gaps"):
        pause_baseline([plain], tmp_path / "x.pause.txt", media=corpus / "t.wav")
    with pytest.raises(SegagreeError, match="needs the recording"):
        pause_baseline([plain], tmp_path / "x.pause.txt")
    assert not (tmp_path / "x.pause.txt").exists()
