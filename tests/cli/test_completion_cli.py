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
    ask = (
        "COMPREPLY=(); COMP_WORDS=({words}); COMP_CWORD={n}; _segagree_completion segagree 2>/dev/null; "
        'echo "{n}{k}:${{COMPREPLY[*]}}"'
    )
    cases = [("segagree ag", 1), ("segagree compare --met", 2), ("segagree --ver", 1)]
    probe = "source ./completion.bash\ncomplete -p segagree\n" + "\n".join(
        ask.format(words=w, n=n, k=k) for k, (w, n) in enumerate(cases)
    )
    out = subprocess.run(["bash", "-c", probe], cwd=tmp_path, env=_env(), capture_output=True, text=True).stdout
    lines = dict(line.split(":", 1) for line in out.splitlines() if line[:3] in ("10:", "21:", "12:"))
    assert "complete " in out and "_segagree_completion" in out
    assert lines == {"10": "agree", "21": "--metric", "12": "--version"}


@pytest.mark.skipif(not (BIN / "segagree").exists(), reason="needs the console script")
def test_fast_start_up_still_answers_version_and_help():
    def out(*args: str) -> str:
        return subprocess.run(["segagree", *args], env=_env(), capture_output=True, text=True, check=True).stdout

    assert out("--version").startswith("segagree ")
    assert out().startswith("Usage: segagree")
