"""The package's layering (../shared/DESIGN.md): imports run one way, and no module imports
another that imports it back, counting imports inside functions and under TYPE_CHECKING."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "segagree"
# The tests read one parse of the package (3 s of CPU each when every test parsed it again): on
# one worker, so that it is made once.
pytestmark = pytest.mark.xdist_group("architecture")

# Each layer may import only the layers listed before it (and itself). `version` and `cpus` sit
# beside `errors` at the bottom; side by side, `metrics` and `formats` (and `files`) do not import
# each other, nor do `subtitle_tools` and `corpus`.
LAYERS = [
    "errors",
    "version",
    "cpus",
    "model",
    "files",
    "formats",
    "metrics",
    "scoring",
    "subtitle_tools",
    "corpus",
    "outputs",
    "adjudication",
    "api",
    "cli",
]
SIDE_BY_SIDE = {
    ("metrics", "formats"),
    ("formats", "metrics"),
    ("metrics", "files"),
    ("corpus", "subtitle_tools"),
}
# Modules that may import the package top `segagree` (the API and the command line above it).
TOP_IMPORTERS = ("segagree", "segagree.api", "segagree.cli", "segagree.__main__")


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache
def _trees() -> dict[Path, ast.Module]:
    """Every module of the package, parsed (read only)."""
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(PACKAGE.rglob("*.py"))}


def _imports(path: Path, modules: set[str]) -> set[str]:
    """segagree modules imported anywhere in ``path`` (resolved to known module names)."""
    tree = _trees()[path]
    me = _module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name.startswith("segagree") and name != me:
                found.add(name)
    return found


@functools.cache
def _graph() -> dict[str, set[str]]:
    """The modules each module imports (read only)."""
    files = {_module_name(p): p for p in _trees()}
    modules = set(files)
    return {name: _imports(path, modules) for name, path in files.items()}


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def test_nothing_below_the_api_imports_the_package_top() -> None:
    """``import segagree`` or ``from segagree import X`` anywhere (inside functions too) below the
    API would load the API's lazy names from a lower layer: a hidden upward import."""
    bad = [
        module
        for module, deps in _graph().items()
        if "segagree" in deps
        and not any(module == t or module.startswith(t + ".") for t in TOP_IMPORTERS[1:])
        and module != "segagree"
    ]
    assert not bad, "modules below the API importing the package top: " + ", ".join(sorted(bad))


def test_the_version_is_written_once() -> None:
    """pyproject.toml holds the version; the code reads it from the installed metadata."""
    import re

    pattern = re.compile(r"""__version__\s*=\s*["']\d""")
    offenders = [str(p) for p in PACKAGE.rglob("*.py") if pattern.search(p.read_text(encoding="utf-8"))]
    assert not offenders, offenders
    from segagree.version import version

    pyproject = (PACKAGE.parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    declared = re.search(r'^version = "([^"]+)"', pyproject, re.M)
    assert declared is not None and version() == declared.group(1)


def test_no_import_cycles() -> None:
    graph = _graph()
    # A package's __init__ importing its own submodules is not a cycle of two modules.
    edges = {
        m: {d for d in deps if not m.startswith(d + ".") and not d.startswith(m + ".")} for m, deps in graph.items()
    }
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(edges.get(node, ())):
            if state.get(dep) == 1:
                cycles.append([*stack[stack.index(dep) :], dep])
            elif dep not in state:
                visit(dep)
        stack.pop()
        state[node] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_imports_run_one_way_between_layers() -> None:
    bad = []
    for module, deps in _graph().items():
        mine = _layer(module)
        if mine is None:
            continue
        for dep in deps:
            theirs = _layer(dep)
            if theirs is None or theirs == mine:
                continue
            if LAYERS.index(theirs) > LAYERS.index(mine) or (mine, theirs) in SIDE_BY_SIDE:
                bad.append(f"{module} imports {dep}")
    assert not bad, "imports against the layering: " + "; ".join(sorted(bad))


@pytest.mark.parametrize("layer", [layer for layer in LAYERS if layer not in ("errors", "version", "cpus")])
def test_every_layer_exists(layer: str) -> None:
    assert (PACKAGE / layer / "__init__.py").is_file()


def test_lazy_package_names_are_never_their_submodules() -> None:
    """segagree.metrics and segagree.api load names on first use. A name equal to a submodule's
    (the function ``sf`` in ``segagree.metrics.boundary.sf``) must still be the function after the
    submodule was imported, whatever was imported first."""
    import subprocess
    import sys

    code = (
        "import types, importlib, pkgutil\n"
        "import segagree.metrics as m\n"
        "for info in pkgutil.iter_modules(m.__path__):\n"
        "    importlib.import_module('segagree.metrics.' + info.name)\n"
        "from segagree.metrics import sf\n"
        "assert callable(sf) and not isinstance(sf, types.ModuleType), sf\n"
        "bad = [n for n in m.__all__ if isinstance(getattr(m, n), types.ModuleType)]\n"
        "assert not bad, bad\n"
        "import segagree.api as api\n"
        "bad = [n for n in api.__all__ if isinstance(getattr(api, n), types.ModuleType)]\n"
        "assert not bad, bad\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_no_module_imports_another_modules_private_name() -> None:
    """A ``_private`` name is its module's own: a name another module needs is public (or moves)."""
    found = []
    for path, tree in _trees().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("segagree")):
                private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
                found += [f"{path.relative_to(PACKAGE)}: {node.module}.{name}" for name in private]
    assert not found, "private names imported across modules:\n" + "\n".join(found)
