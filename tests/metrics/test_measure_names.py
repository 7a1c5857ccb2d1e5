"""Each measure's name string is written in at most two source files: its module and the registry.

Everything else refers to a measure through its card (``PK_CARD.name``), the registry or a group,
so renaming or adding a measure touches one module and one registry line.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from segagree.metrics import registry
from segagree.scoring import metric_runner

from conftest import REPO

SRC = REPO / "src" / "segagree"
# One worker: the tests share one parse of the sources (_code's cache, 2 s of CPU a worker).
pytestmark = pytest.mark.xdist_group("measure-names")
SOURCES = sorted(p for p in SRC.rglob("*") if p.suffix in (".py", ".j2") and "__pycache__" not in p.parts)
# Until the subtitle metrics are contract measures, the subtitle modules still spell measure names
# (e.g. "pk" in the subtitle metric pk_eob, the study's lower-is-better prefixes); their helper is
# migrating them. Once no subtitle metric is left outside the registry, they are counted too.
SUBTITLE_MODULES = {
    SRC / "metrics" / "subtitles" / "scores.py",
    SRC / "scoring" / "subtitles" / "evaluation.py",
    SRC / "subtitle_tools" / "study.py",
}
assert all(p.is_file() for p in SUBTITLE_MODULES), SUBTITLE_MODULES


def _legacy_subtitle_names() -> set[str]:
    return set(metric_runner.known_metrics()) - set(registry.known_names())


@functools.cache
def _code(path: Path) -> str:
    """A source file without its docstrings: an example in a docstring (``metrics=["pk"]``, run by
    the tests as a doctest) shows the user's spelling; code refers to measures through their cards."""
    text = path.read_text("utf-8")
    if path.suffix != ".py":
        return text
    lines = text.split("\n")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                for i in range(first.lineno - 1, first.end_lineno or first.lineno):
                    lines[i] = ""
    return "\n".join(lines)


def _files_with(name: str) -> list[str]:
    quoted = re.compile(rf"""(["']){re.escape(name)}\1""")
    skip = SUBTITLE_MODULES if _legacy_subtitle_names() else set()
    return [str(p.relative_to(SRC)) for p in SOURCES if p not in skip and quoted.search(_code(p))]


# One-letter names (s, b, a) are also ordinary one-letter strings with other meanings: annotator
# sides "a"/"b" in public JSON, the file mode "a", the HTML tag "b", numpy's dtype kind "b", a
# matplotlib marker "s". They are not counted (their measure uses go through the cards too).
COUNTED = [n for n in registry.MEASURES if len(n) > 1]


@pytest.mark.parametrize("name", COUNTED)
def test_measure_name_is_written_in_its_module_and_the_registry_only(name):
    files = _files_with(name)
    module = registry.MEASURES[name].replace("segagree.", "").replace(".", "/") + ".py"
    # (a generated name such as pk_eob is written in the registry only: its module builds it)
    assert "metrics/registry.py" in files, files
    # the guides (how to read each number) are keyed by name, as the registry is: documentation joined to it
    assert set(files) <= {module, "metrics/registry.py", "metrics/guides.py"}, (
        f"{name!r} is written in {files}; refer to it through its card or the registry"
    )


def test_every_registered_name_is_checked():
    one_letter = set(registry.MEASURES) - set(COUNTED)
    assert all(len(n) == 1 for n in one_letter)
    assert set(COUNTED) | one_letter == set(registry.known_names()) - set(registry._plugin_measures())


def test_the_check_can_fail(tmp_path):
    # the pattern finds a quoted name in either quote style, not a longer name that contains it
    pattern = re.compile(r"""(["'])pk\1""")
    assert pattern.search("x = 'pk'") and pattern.search('f("pk")')
    assert not pattern.search('"pk_eob"') and not pattern.search("pk(a, b)")
