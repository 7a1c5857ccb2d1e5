"""The linear sum assignment DER and JER use: scipy's assignment, ties included, without its import."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment as scipy_lsa

from segagree.metrics.unitizing import assignment
from segagree.metrics.unitizing.assignment import linear_sum_assignment


def _matrices(rng: np.random.Generator, n: int) -> list[np.ndarray]:
    out = []
    for k in range(n):
        shape = tuple(rng.integers(1, 8, size=2))
        if k % 3 == 0:  # small integers: ties everywhere
            out.append(rng.integers(0, 3, size=shape).astype(float))
        elif k % 3 == 1:  # co-occurrences as DER negates them: zeros where labels never meet
            m = rng.random(shape).round(1)
            m[rng.random(shape) < 0.4] = 0.0
            out.append(-m)
        else:
            out.append(rng.random(shape))
    return [*out, np.zeros((3, 3)), np.zeros((2, 5)), np.zeros((5, 2))]


def test_the_same_assignment_as_scipy_ties_included() -> None:
    for m in _matrices(np.random.default_rng(7), 1500):
        rows, cols = linear_sum_assignment(m)
        want_rows, want_cols = scipy_lsa(m)
        assert rows.tolist() == want_rows.tolist() and cols.tolist() == want_cols.tolist(), m


def test_empty_large_and_invalid_matrices(monkeypatch: pytest.MonkeyPatch) -> None:
    assert [x.tolist() for x in linear_sum_assignment(np.zeros((0, 3)))] == [[], []]
    with pytest.raises(ValueError, match="invalid"):
        linear_sum_assignment(np.array([[np.nan, 1.0]]))
    monkeypatch.setattr(assignment, "SMALL", 4)  # past it, scipy itself answers
    m = np.random.default_rng(1).random((4, 3))
    assert [x.tolist() for x in linear_sum_assignment(m)] == [x.tolist() for x in scipy_lsa(m)]
