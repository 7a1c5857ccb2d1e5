"""tests/conftest.py gives the tests of one ``xdist_group`` the node-id suffix by which pytest-xdist's
``--dist loadgroup`` puts them on one worker (pytest 9.2's node ids ignore xdist 3.8's own)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from conftest import _join_xdist_groups

NodeId = pytest.importorskip("_pytest.nodeid", reason="pytest before 9.2: xdist's own suffix takes").NodeId
LoadGroupScheduling = pytest.importorskip("xdist.scheduler").LoadGroupScheduling


class _Item:
    """What the hook reads and writes of a collected test: its structured id and its marks."""

    def __init__(self, nodeid: str, *groups: str) -> None:
        self._id = NodeId.parse(nodeid)
        self.marks = [pytest.mark.xdist_group(g).mark for g in groups]

    @property
    def nodeid(self) -> str:
        return str(self._id)

    def iter_markers(self, name: str) -> list[Any]:
        return [m for m in self.marks if m.name == name]


def _group(nodeid: str) -> str:
    return LoadGroupScheduling._split_scope(None, nodeid)  # type: ignore[arg-type]  # the scheduler's own reading


def test_grouped_tests_get_the_suffix_the_scheduler_groups_by() -> None:
    items = [
        _Item("tests/a.py::test_x[sig@int]", "run"),
        _Item("tests/a.py::test_y", "run"),
        _Item("tests/b.py::test_z", "report", "run"),  # several groups join into one
        _Item("tests/b.py::test_alone"),
        _Item("tests/c.py::test_done@run", "run"),  # xdist's own suffix took: left alone
    ]
    _join_xdist_groups(SimpleNamespace(option=SimpleNamespace(loadgroup=True)), items)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == [
        "tests/a.py::test_x[sig@int]@run",
        "tests/a.py::test_y@run",
        "tests/b.py::test_z@report_run",
        "tests/b.py::test_alone",
        "tests/c.py::test_done@run",
    ]
    assert [_group(i.nodeid) for i in items] == ["run", "run", "report_run", "tests/b.py::test_alone", "run"]


def test_without_loadgroup_nothing_changes() -> None:
    item = _Item("tests/a.py::test_x", "run")
    _join_xdist_groups(SimpleNamespace(option=SimpleNamespace(loadgroup=False)), [item])  # type: ignore[arg-type]
    assert item.nodeid == "tests/a.py::test_x"
