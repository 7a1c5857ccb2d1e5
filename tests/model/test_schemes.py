"""Boundary schemes: built-ins, scheme files, and the checks on load."""

from __future__ import annotations

import numpy as np
import pytest

from segagree.errors import SchemeError
from segagree.model import builtin_scheme, builtin_schemes, dump_scheme_toml, load_scheme

ISSUE_EXAMPLE = """
name = "dubois-endnotes"
types = [",", ".", "?", "--"]
unclassified = ";"
symmetric = true
[similarity]
"." = { "?" = 0.25, "none" = 0.0 }
"," = { "--" = 0.5, "none" = 0.25 }
[transposition_cost]
"," = 0.375
"""


def test_issue_example_scheme_file(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(ISSUE_EXAMPLE, encoding="utf-8")
    s = load_scheme(path)
    assert s.symbols == ["none", ",", ".", "?", "--", ";"]
    m = s.similarity
    assert m[s.code("."), s.code("?")] == m[s.code("?"), s.code(".")] == 0.25
    assert m[s.code(","), 0] == m[0, s.code(",")] == 0.25
    assert m[s.code(","), s.code("--")] == 0.5
    assert m[s.code("?"), s.code("--")] == 0.0  # unlisted off-diagonal pairs are 0
    assert s.transposition[s.code(",")] == 0.375
    assert s.transposition[s.code(".")] == 0.5  # default: half the deletion cost
    assert s.code("—") == s.code("--")


def test_segsimflex_configs_match_oracle(segsimflex_oracle):
    """The built-in schemes are the reference run's configurations, re-indexed to codes."""
    order = segsimflex_oracle["configs"]["custom"]["order"]  # , . ? -- ; ' '
    ours = ["none", ",", ".", "?", "--", ";"]
    idx = [order.index(" " if s == "none" else s) for s in ours]
    for config, name in (("custom", "lai2023"), ("vignette", "segsimflex-vignette"), ("identity", "dubois")):
        cfg = segsimflex_oracle["configs"][config]
        m = np.asarray(cfg["m"], dtype=float)[np.ix_(idx, idx)]
        s = builtin_scheme(name)
        np.testing.assert_allclose(s.similarity, m)
        tc = cfg["transCost"]
        expected = np.full(6, tc) if np.isscalar(tc) else np.asarray(tc, dtype=float)[idx]
        np.testing.assert_allclose(s.transposition[1:], expected[1:])


@pytest.mark.parametrize("name", sorted(builtin_schemes()))
def test_builtin_round_trips_through_toml(tmp_path, name):
    s = builtin_scheme(name)
    path = tmp_path / "s.toml"
    path.write_text(dump_scheme_toml(s), encoding="utf-8")
    assert load_scheme(path) == s


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ('types = [","]\n[similarity]\n"," = { "none" = 1.5 }\n', "outside [0, 1]"),
        (
            'types = [",", "."]\nsymmetric = true\n[similarity]\n"," = { "." = 0.5 }\n"." = { "," = 0.25 }\n',
            "marked symmetric",
        ),
        ('types = [","]\n[similarity]\n"!" = { "none" = 0.5 }\n', "unknown symbol '!'"),
        ('types = [","]\n[similarity]\n"," = { "," = 0.5 }\n', "diagonal"),
        ("types = []\n", "non-empty"),
        ('types = [","\n', "not valid"),
    ],
)
def test_bad_scheme_files_name_file_and_place(tmp_path, body, needle):
    path = tmp_path / "bad.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(SchemeError) as err:
        load_scheme(path)
    assert needle in str(err.value)
    assert str(path) in str(err.value)
    assert "\n" not in str(err.value)


def test_unknown_builtin_is_an_error():
    with pytest.raises(SchemeError, match="built-in"):
        load_scheme("no-such-scheme")
