"""The "Agreement in time" page's first example (docs/time.md) runs as written in sample_corpora/time and prints the
numbers its table shows."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cli_process import run_cli

REPO = Path(__file__).resolve().parents[2]
SECTION = (
    (REPO / "docs" / "time.md").read_text(encoding="utf-8").split("# Agreement in time", 1)[1].split("\n## ", 1)[0]
)


def test_commands_run_and_numbers_match() -> None:
    block = re.search(r"```sh\n(.*?)```", SECTION, re.S)
    assert block
    commands = [ln.split("#")[0].split() for ln in block.group(1).splitlines() if ln.startswith("segagree agree")]
    outputs = []
    for args in commands:
        proc = run_cli([*args[1:], *([] if "--json" in args else ["--json"])], cwd=REPO / "sample_corpora")
        assert proc.returncode == 0, proc.stderr
        outputs.append(json.loads(proc.stdout))
    assert len(outputs) == 3
    first = outputs[0]
    for other in outputs[1:]:
        assert {k: v["pooled"] for k, v in other["measures"].items()} == {
            k: v["pooled"] for k, v in first["measures"].items()
        }
    rows = {ln.split("|")[1].strip(): ln for ln in SECTION.splitlines() if ln.startswith("| `")}
    for name in ("alpha_u", "elan_kappa", "boundary_f1", "purity_coverage"):
        assert f"{first[name]:.4f}" in rows[f"`{name}`"], name
    if "gamma" in first:  # the gamma family's row, once registered
        gamma_row = next(v for k, v in rows.items() if k.startswith("`gamma`"))
        assert f"{first['gamma']:.4f}, {first['gamma_cat']:.4f}" in gamma_row
    assert f"{first['u_alpha']:.4f}" in next(v for k, v in rows.items() if k.startswith("`u_alpha`"))
