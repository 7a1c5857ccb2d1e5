"""Rewrite the test modules' asserts once, into pytest's own cache, before the test workers start.

pytest rewrites every test module's ``assert`` statements (its assertion introspection) on import
and keeps the result in ``__pycache__/*-pytest-*.pyc``, keyed by the source's hash. With
``PYTHONDONTWRITEBYTECODE`` set (as in many containers) it writes no cache, so each of the test
workers rewrote all ~100 test modules itself: about 4 s of CPU per worker, half of a worker's
collection. This writes the same files once, with pytest's own functions (``make bytecode`` runs it;
``make test`` reads them whatever the variable says, since pytest checks the hash before it uses a
file). Those functions are pytest internals: with a pytest that lacks them this does nothing, and
pytest rewrites the modules itself as before.

Usage: ``python tests/rewrite_asserts.py [TESTS_DIR]``. Prints how many files it wrote.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path(__file__).resolve().parent
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test, _write_pyc, get_cache_dir
    except ImportError:  # another pytest: it rewrites the modules itself
        print("rewrite_asserts: this pytest has no rewrite functions to call; nothing written")
        return 0
    state = SimpleNamespace(trace=lambda *_: None)
    written = 0
    # What pytest rewrites here: the modules its python_files pattern collects, and conftest.py.
    for source in sorted([*root.rglob("test_*.py"), *root.rglob("conftest.py")]):
        pyc = get_cache_dir(source) / (source.name[:-3] + PYC_TAIL)
        try:
            if _read_pyc(source, pyc, state.trace) is not None:
                continue  # already current
            pyc.parent.mkdir(exist_ok=True)
            source_hash, code = _rewrite_test(source, None)  # no config: pytest's defaults
            written += bool(_write_pyc(state, code, source_hash, pyc))
        except (TypeError, AttributeError, OSError) as err:  # internals changed, or a read-only tree
            print(f"rewrite_asserts: stopped at {source} ({err}); pytest rewrites the rest itself")
            break
    print(f"rewrite_asserts: {written} test modules rewritten into pytest's cache")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
