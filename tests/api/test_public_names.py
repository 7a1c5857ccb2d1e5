"""The one list of public names (segagree.api.PUBLIC): the package top serves it, each name is documented
and typed, and each command of the command line has its API function (segagree.api.COMMANDS)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import segagree
import segagree.api as api
from segagree.cli import COMMANDS as CLI_COMMANDS

CLI = Path(segagree.__file__).parent / "cli"


@pytest.mark.parametrize("name", sorted(api.PUBLIC))
def test_every_public_name_is_at_the_package_top(name: str) -> None:
    assert name in segagree.__all__
    assert name in dir(segagree)
    assert getattr(segagree, name) is getattr(api, name)
    assert not inspect.ismodule(getattr(segagree, name)), f"segagree.{name} is a module, not the API's {name}"


def test_the_package_top_serves_the_api_list_and_nothing_else() -> None:
    assert sorted(segagree.__all__) == sorted(["__version__", *api.PUBLIC])
    assert sorted(api.__all__) == sorted(api.PUBLIC)
    with pytest.raises(AttributeError):
        segagree.no_such_name  # noqa: B018


@pytest.mark.parametrize("name", sorted(api.PUBLIC))
def test_every_public_function_and_class_has_a_docstring(name: str) -> None:
    obj = getattr(api, name)
    if not (inspect.isfunction(obj) or inspect.isclass(obj)):
        return
    doc = obj.__doc__ or ""
    # a dataclass without a docstring gets its signature as one: not documentation
    assert doc.strip() and not doc.startswith(f"{name}("), f"{name} has no docstring"


@pytest.mark.parametrize("name", sorted(n for n in api.PUBLIC if inspect.isfunction(getattr(api, n))))
def test_every_public_function_states_its_return_type(name: str) -> None:
    returns = getattr(api, name).__annotations__.get("return")
    assert returns is not None, f"{name} has no return type"
    assert returns not in ("Any", "object"), f"{name} returns a bare {returns}"


@pytest.mark.parametrize("command", sorted(CLI_COMMANDS))
def test_every_command_has_its_api_function(command: str) -> None:
    functions = [f for key, f in api.COMMANDS.items() if key.split()[0] == command]
    assert functions, f"segagree {command} has no API function in segagree.api.COMMANDS"
    for function in functions:
        assert function in api.PUBLIC and callable(getattr(api, function)), function


def test_the_command_table_names_only_commands() -> None:
    assert {key.split()[0] for key in api.COMMANDS} <= set(CLI_COMMANDS)


# Commands that call the API only (the layers below it are reached through it).
THIN = ["adjudicate_cmd", "agree_cmd", "compare_cmd", "convert_cmd", "formats_cmd", "review_cmd", "metrics_cmd",
        "degrade_cmd", "segment_cmd", "check_cmd", "study_cmd", "run_cmd", "panel_cmd"]  # fmt: skip
BELOW_THE_API = ("segagree.scoring", "segagree.outputs", "segagree.adjudication", "segagree.formats",
                 "segagree.corpus", "segagree.metrics", "segagree.model", "segagree.files")  # fmt: skip


@pytest.mark.parametrize("module", THIN)
def test_commands_call_the_api_not_the_layers_below(module: str) -> None:
    tree = ast.parse((CLI / f"{module}.py").read_text(encoding="utf-8"))
    below = sorted(
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(BELOW_THE_API)
    )
    assert not below, f"cli/{module}.py imports {below} instead of calling segagree.api"


def test_the_type_checkers_imports_mirror_the_public_list() -> None:
    """api/__init__.py imports each public name under TYPE_CHECKING (for type checkers and IDEs): the
    same names from the same modules as PUBLIC and the measure-name constants, nothing more."""
    tree = ast.parse(Path(api.__file__).read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    imported = {a.name: n.module for n in block.body if isinstance(n, ast.ImportFrom) for a in n.names}
    assert imported == {**api.PUBLIC, **api.CONSTANTS}


def test_the_package_tops_type_imports_mirror_the_public_list() -> None:
    tree = ast.parse(Path(segagree.__file__).read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    imported = {
        a.name for n in block.body if isinstance(n, ast.ImportFrom) and n.module == "segagree.api" for a in n.names
    }
    assert imported == set(api.PUBLIC)
