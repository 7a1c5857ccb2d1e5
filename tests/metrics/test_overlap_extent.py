"""ELAN's overlap / extent agreement on worked examples computed by hand, following ELAN's code."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from segagree.metrics.contract import UnitSet
from segagree.metrics.registry import get_measure
from segagree.metrics.unitizing.overlap_extent import overlap_extent_units

MEASURE = get_measure("overlap_extent")


def unit_set(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> UnitSet:
    rows = [(0, *u) for u in a] + [(1, *u) for u in b]
    return UnitSet(
        annotators=["A", "B"],
        categories=["x"],
        annotator=np.array([r[0] for r in rows], dtype=int),
        start=np.array([r[1] for r in rows], dtype=float),
        end=np.array([r[2] for r in rows], dtype=float),
        category=np.zeros(len(rows), dtype=int),
    )


def test_worked_example_by_hand() -> None:
    # A: 0-4, 6-8, 10-12. B: 1-5, 6-7, 20-21.
    # 0-4 with 1-5: overlap 3, extent 0-5 = 5 -> 0.6.  6-8 with 6-7: overlap 1, extent 2 -> 0.5.
    # A's 10-12 and B's 20-21 overlap nothing: 0 each. Mean (0.6 + 0.5 + 0 + 0) / 4 = 0.275.
    a, b = [(0, 4), (6, 8), (10, 12)], [(1, 5), (6, 7), (20, 21)]
    assert sorted(overlap_extent_units(a, b)) == pytest.approx([0, 0, 0.5, 0.6])
    out = MEASURE.compute([unit_set(a, b)], {}).to_dict()
    assert out["value"] == pytest.approx(0.275) and out["compare_units"] == 4


def test_elan_code_worked_example() -> None:
    """Followed by hand through ELAN's ``AnnotatorCompareUtil2.getAverageRatio`` (package
    ``mpi.eudico.client.annotator.interannotator``; ``overlaps``: ``bt1 < et2 && et1 > bt2``,
    ``calcOverlap``: min end - max begin, ``calcExtent``: max end - min begin, in
    ``mpi.eudico.client.annotator.tier.AnnotatorCompareUtil``), read in the mirror
    github.com/liepa-project/elan at commit 38a1dc7:

    A = 0-4, 4-10, 12-14; B = 3-10, 12-13, 13-16.

    * A 0-4: the scan over B finds 3-10 (overlaps), stops at 12-13 (12 > 4); one candidate:
      overlap min(4, 10) - max(0, 3) = 1, extent max(4, 10) - min(0, 3) = 10: 0.1; 3-10 matched.
    * A 4-10: 3-10 overlaps but is matched; 12-13 starts after 10: no candidate, 0 (ELAN does not
      give 3-10 to the annotation it overlaps most: greedy in A's order).
    * A 12-14: 12-13 and 13-16 both overlap by 1: the first stays (``ov > lov`` is strict);
      extent 14 - 12 = 2: 0.5.
    * B 13-16 unmatched: one more compare unit, 0.

    Combination value (0.1 + 0 + 0.5 + 0) / 4 = 0.15. A second speaker, A = 0-2, B = 1-3: 1/3.
    ELAN's overall value (``CompareAnnotationRatioMultiCommand.writeResultsAsText``): the mean of
    the tier pairs' values, (0.15 + 1/3) / 2.
    """
    a, b = [(0, 4), (4, 10), (12, 14)], [(3, 10), (12, 13), (13, 16)]
    assert overlap_extent_units(a, b) == pytest.approx([0.1, 0.0, 0.5, 0.0])
    one = MEASURE.compute([unit_set(a, b)], {}).to_dict()
    assert one["value"] == pytest.approx(0.15) and one["compare_units"] == 4
    two = unit_set([(0, 2)], [(1, 3)])
    assert MEASURE.compute([unit_set(a, b), two], {}).value == pytest.approx((0.15 + 1 / 3) / 2)
    # the other readings, by parameter: pooled compare units, (0.6 + 1/3) / 5 ...
    pooled = MEASURE.compute([unit_set(a, b), two], {"extent_average": "units"}).value
    assert pooled == pytest.approx((0.6 + 1 / 3) / 5)
    # ... and the largest overlap first: 4-10 with 3-10 (6/7), 12-14 with 12-13 (1/2); 0-4, 13-16 unpaired.
    assert sorted(overlap_extent_units(a, b, "largest")) == pytest.approx([0, 0, 0.5, 6 / 7])
    largest = MEASURE.compute([unit_set(a, b)], {"extent_pairing": "largest"}).value
    assert largest == pytest.approx((6 / 7 + 0.5) / 4)


def test_touching_is_not_overlapping() -> None:
    # ELAN's overlaps() excludes et == bt: A 0-2 and B 2-4 are two unmatched compare units.
    assert overlap_extent_units([(0, 2)], [(2, 4)]) == [0.0, 0.0]


def test_one_to_one_largest_overlap_first() -> None:
    # B's 0-10 overlaps A's 0-6 (6) and 6-10 (4): it pairs with 0-6 (6/10); A's 6-10 is left: 0.
    # ELAN's order gives the same here (0-6 comes first and overlaps most).
    for pairing in ("elan", "largest"):
        assert sorted(overlap_extent_units([(0, 6), (6, 10)], [(0, 10)], pairing)) == pytest.approx([0, 0.6])


def test_identical_tiers_and_pooling() -> None:
    same = unit_set([(0, 1), (2, 3)], [(0, 1), (2, 3)])
    assert MEASURE.compute([same], {}).value == pytest.approx(1.0)
    other = unit_set([(0, 2)], [(1, 3)])  # overlap 1, extent 3
    # ELAN: the mean of the two tier pairs' values; pooled: (1 + 1 + 1/3) / 3 compare units
    assert MEASURE.compute([same, other], {}).value == pytest.approx((1 + 1 / 3) / 2)
    assert MEASURE.compute([same, other], {"extent_average": "units"}).value == pytest.approx((2 + 1 / 3) / 3)
    assert MEASURE.compute([unit_set([], [])], {}).value is None


def test_unknown_readings_refused() -> None:
    with pytest.raises(ValueError, match="extent_pairing"):
        overlap_extent_units([(0, 1)], [(0, 1)], "nearest")
    with pytest.raises(ValueError, match="extent_average"):
        MEASURE.compute([unit_set([(0, 1)], [(0, 1)])], {"extent_average": "files"})


def test_one_side_empty_is_zero() -> None:
    assert MEASURE.compute([unit_set([(0, 1)], [])], {}).value == 0.0


def _greedy_without_window(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> list[float]:
    """ELAN's rule without its scan window: each A annotation in order takes, among all B annotations
    not yet matched, the one it overlaps most (the first on ties)."""
    matched: set[int] = set()
    units = []
    for sa, ea in a:
        best, best_overlap = None, 0
        for j, (sb, eb) in enumerate(b):
            overlap = min(ea, eb) - max(sa, sb)
            if j not in matched and overlap > best_overlap:
                best, best_overlap = j, overlap
        if best is None:
            units.append(0.0)
        else:
            matched.add(best)
            units.append(best_overlap / (max(ea, b[best][1]) - min(sa, b[best][0])))
    return units + [0.0] * (len(b) - len(matched))


def _tier(cuts: list[int]) -> list[tuple[int, int]]:
    points = sorted(set(cuts))
    return [(s, e) for k, (s, e) in enumerate(zip(points, points[1:], strict=False)) if k % 2 == 0]


def test_elan_scan_window_quirk() -> None:
    # ELAN's window: after A 0-1, the scan stops at B 4-5 (4 > 1) and sets lastInserted2 = 0, so the
    # next A annotation scans from B 4-5: B 1-3 (touching 0-1, not overlapping) is passed over
    # though it overlaps A 2-3. Four compare units, all 0. Scanning all of B ("greedy"): 2-3 with
    # 1-3, overlap 1, extent 2: 0.5.
    a, b = [(0, 1), (2, 3)], [(1, 3), (4, 5)]
    assert overlap_extent_units(a, b) == [0.0, 0.0, 0.0, 0.0]
    assert overlap_extent_units(a, b, "greedy") == pytest.approx([0.0, 0.5, 0.0])


@given(st.lists(st.integers(0, 40), max_size=12), st.lists(st.integers(0, 40), max_size=12))
@settings(max_examples=300, deadline=None)
def test_greedy_is_elan_rule_over_all_of_b(cuts_a: list[int], cuts_b: list[int]) -> None:
    a, b = _tier(cuts_a), _tier(cuts_b)
    assert overlap_extent_units(a, b, "greedy") == pytest.approx(_greedy_without_window(a, b))


# The ELAN Analysis Companion's examples 4/irr and 4/irr2 (github.com/richardandersson/EAC): the
# times of the tiers "Rater #2 FACE" (first) and "Rater #1 FACE", and the figures ELAN's Compare
# annotators dialog printed for them in irr.txt and irr2.txt.
EAC = {
    "irr": ([(9.010, 9.723), (11.163, 11.963)], [(9.010, 9.794), (11.196, 12.033)], "0.895524", "0.8955"),
    "irr2": ([(9.010, 9.723), (12.499, 12.579), (12.739, 12.859)], [(9.010, 9.794)], "0.30314627", "0.3031"),
}


@pytest.mark.parametrize("name", list(EAC))
def test_elan_prints_the_companions_figures(name: str) -> None:
    a, b, dialog, multi = EAC[name]
    out = MEASURE.compute([unit_set(a, b)], {}).to_dict()
    printed = out["overlap_extent_pairs"]["A|B"]["elan_printed"]
    assert printed == {"dialog": dialog, "multi": multi}
    assert out["signature"].startswith("overlap_extent|extent_pairing:elan|extent_average:tiers|")
    # the double mean is not the dialog's float: 0.8955239854... against 0.895524
    assert out["value"] == pytest.approx(float(dialog), abs=1e-6) and f"{out['value']:.8f}" != f"{float(dialog):.8f}"


def test_the_dialogs_row_quotients_are_floats_as_elan_prints_them() -> None:
    from segagree.metrics.unitizing.overlap_extent import java_float_text

    # irr.txt's rows: 713 / 784 and 767 / 870, printed by ELAN as 0.9094388 and 0.8816092
    assert java_float_text(np.float32(713) / np.float32(784)) == "0.9094388"
    assert java_float_text(np.float32(767) / np.float32(870)) == "0.8816092"
    assert [java_float_text(np.float32(v)) for v in (0.0, 1.0, 0.00099, 12345678.0)] == [
        "0.0",
        "1.0",
        "9.9E-4",
        "1.2345678E7",
    ]


def test_times_are_whole_milliseconds_so_file_ties_stay_ties() -> None:
    # Overlaps of 0.2 s each in the file (0.1-0.3 and 0.3-0.5 against A's 0.1-0.5): as float
    # seconds 0.3 - 0.1 < 0.5 - 0.3, so the second would win; in milliseconds they tie and the first
    # one stays (ELAN's strict ov > lov): 200 / 500, and B's 0.3-0.5 unmatched.
    assert 0.3 - 0.1 < 0.5 - 0.3
    a, b = [(0.1, 0.5)], [(0.0, 0.3), (0.3, 0.5)]
    out = MEASURE.compute([unit_set(a, b)], {}).to_dict()
    assert out["value"] == pytest.approx((200 / 500) / 2)


def test_one_tier_pair_shows_elans_figures_through_agree_time(tmp_path) -> None:
    import segagree

    a, b, dialog, multi = EAC["irr2"]
    rows = ["annotator,start,end,category"] + [f"R2,{s},{e},Face" for s, e in a] + [f"R1,{s},{e},Face" for s, e in b]
    (tmp_path / "irr2.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = segagree.agree_time([str(tmp_path / "irr2.csv")], measures=["overlap_extent"])
    pooled = out["measures"]["overlap_extent"]["pooled"]
    assert pooled["elan_printed"] == {"dialog": dialog, "multi": multi}
    assert dialog in pooled["note"]
