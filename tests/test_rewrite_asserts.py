"""``tests/rewrite_asserts.py`` (``make testcache``) writes the file pytest itself would write, and
pytest uses it: the assertion messages are pytest's own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import rewrite_asserts

MODULE = """
def test_lists():
    got, want = [1, 2, 3], [1, 5, 3]
    assert got == want
"""


def _pytest(folder: Path, *, write: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "test_lists.py"]
    return subprocess.run(cmd, cwd=folder, env=env, capture_output=True, text=True, timeout=120)


def test_the_cache_is_pytests_own_and_is_used(tmp_path: Path) -> None:
    (tmp_path / "test_lists.py").write_text(MODULE, encoding="utf-8")
    assert rewrite_asserts.main([str(tmp_path)]) == 0
    (pyc,) = (tmp_path / "__pycache__").glob("test_lists.*-pytest-*.pyc")
    ours = pyc.read_bytes()
    assert rewrite_asserts.main([str(tmp_path)]) == 0 and pyc.read_bytes() == ours  # current: left alone

    pyc.unlink()
    first = _pytest(tmp_path, write=True)  # pytest writes its own
    assert pyc.read_bytes() == ours
    assert first.returncode == 1 and "At index 1 diff: 2 != 5" in first.stdout  # introspection

    # With writing off, pytest runs the cached code when its hash is the source's: code planted
    # under the source's hash shows it ran.
    from _pytest.assertion.rewrite import _rewrite_test, _write_pyc

    planted = tmp_path / "planted" / "test_lists.py"
    planted.parent.mkdir()
    planted.write_text(MODULE.replace("got, want", "print('FROM-CACHE'); got, want"), encoding="utf-8")
    _, code = _rewrite_test(planted, None)  # type: ignore[arg-type]
    source_hash, _ = _rewrite_test(tmp_path / "test_lists.py", None)  # type: ignore[arg-type]
    assert _write_pyc(SimpleNamespace(trace=print), code, source_hash, pyc)  # type: ignore[arg-type]
    again = _pytest(tmp_path, write=False)
    assert again.returncode == 1 and "FROM-CACHE" in again.stdout
