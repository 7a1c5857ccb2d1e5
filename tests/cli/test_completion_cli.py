"""Shell completion (click's): ``_SEGAGREE_COMPLETE=bash_source segagree`` prints the bash script,
which completes command names and options in a real bash, although the fast start-up answers a
bare ``segagree`` and ``--version`` without click."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", **extra}


@pytest.mark.skipif(shutil.which("bash") is None or not (BIN / "segagree").exists(), reason="needs bash and the script")
def test_bash_completes_commands_and_options(tmp_path):
    script = subprocess.run(
        ["segagree"], env=_env(_SEGAGREE_COMPLETE="bash_source"), capture_output=True, text=True, check=True
    ).stdout
    assert "_segagree_completion()" in script and "Usage:" not in script
    (tmp_path / "completion.bash").write_text(script, encoding="utf-8")
    probe = """
source ./completion.bash
complete -p segagree
COMPREPLY=(); COMP_WORDS=(segagree ag); COMP_CWORD=1; _segagree_completion segagree 2>/dev/null; echo "1:${COMPREPLY[*]}"
COMPREPLY=(); COMP_WORDS=(segagree compare --met); COMP_CWORD=2; _segagree_completion segagree 2>/dev/null; echo "2:${COMPREPLY[*]}"
COMPREPLY=(); COMP_WORDS=(segagree --ver); COMP_CWORD=1; _segagree_completion segagree 2>/dev/null; echo "3:${COMPREPLY[*]}"
"""
    out = subprocess.run(["bash", "-c", probe], cwd=tmp_path, env=_env(), capture_output=True, text=True).stdout
    lines = dict(line.split(":", 1) for line in out.splitlines() if line[:2] in ("1:", "2:", "3:"))
    assert "complete " in out and "_segagree_completion" in out
    assert lines == {"1": "agree", "2": "--metric", "3": "--version"}


def test_fast_start_up_still_answers_version_and_help():
    from cli_process import run_cli

    assert run_cli(["--version"]).stdout.startswith("segagree ")
    assert run_cli([]).stdout.startswith("Usage: segagree")
