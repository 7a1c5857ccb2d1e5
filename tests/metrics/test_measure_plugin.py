"""A lab's measure as a plugin (entry-point group ``segagree.metrics``), installed in a subprocess.

The plugin is CONTRIBUTING.md's example measure, written into a temporary folder with a
``*.dist-info`` (METADATA and entry_points.txt) that importlib.metadata finds on PYTHONPATH.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from segagree.formats import read_document

from conftest import REPO

SAMPLE = REPO / "sample_corpora"
NAME = "boundary_precision"


def _example_measure() -> str:
    text = (REPO / "CONTRIBUTING.md").read_text("utf-8")
    block = re.search(r"<!-- example-measure -->\s*```python\n(.*?)```", text, re.S)
    assert block, "CONTRIBUTING.md lost its example measure"
    return block.group(1)


@pytest.fixture()
def plugin_env(tmp_path):
    (tmp_path / "lab_measures.py").write_text(_example_measure(), "utf-8")
    info = tmp_path / "lab_measures-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lab-measures\nVersion: 0.1\n", "utf-8")
    (info / "entry_points.txt").write_text(f"[segagree.metrics]\n{NAME} = lab_measures:MEASURES\n", "utf-8")
    path = os.pathsep.join([str(tmp_path), str(REPO / "src"), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "COLUMNS": "120"}


def _run(env, *args):
    proc = subprocess.run(
        [sys.executable, "-m", "segagree", *args], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _by_hand():
    """Per speaker (shared, proposed) of the garden sample, counted from the code arrays."""
    a = read_document(SAMPLE / "garden.ann1.txt").boundary_arrays()
    b = read_document(SAMPLE / "garden.ann2.txt").boundary_arrays()
    return {s: (int(np.sum((a[s] > 0) & (b[s] > 0))), int(np.sum(b[s] > 0))) for s in a}


def test_plugin_is_listed_with_its_card(plugin_env):
    assert re.search(rf"^{NAME}\s+higher\s+Boundary precision", _run(plugin_env, "metrics"), re.M)
    card = json.loads(_run(plugin_env, "metrics", "--json"))[NAME]
    assert card["citation"] == "your lab's paper" and card["group"] == "lab" and card["needs"] == "tokens"


def test_plugin_is_computed_per_speaker_and_pooled_from_summed_statistics(plugin_env):
    files = [str(SAMPLE / "garden.ann1.txt"), str(SAMPLE / "garden.ann2.txt")]
    out = json.loads(_run(plugin_env, "compare", *files, "--metric", f"b,{NAME}", "--json"))
    res = out["metrics"][NAME]
    counts = _by_hand()
    assert res["per_speaker"] == pytest.approx({s: sh / pr for s, (sh, pr) in counts.items()})
    shared, proposed = map(sum, zip(*counts.values(), strict=True))
    assert res["value"] == pytest.approx(shared / proposed)
    per = list(res["per_speaker"].values())
    assert res["value"] != pytest.approx(sum(per) / len(per))  # pooled, not averaged
    assert "b" in out["metrics"]  # built-ins still run beside it
    # the group on its card is a --metric group too
    grouped = json.loads(_run(plugin_env, "compare", *files, "--metric", "lab", "--json"))
    assert grouped["metrics"][NAME]["value"] == res["value"]


def test_plugin_through_the_api(plugin_env):
    code = (
        "import json, segagree\n"
        f"r = segagree.compare({str(SAMPLE / 'garden.ann1.txt')!r}, {str(SAMPLE / 'garden.ann2.txt')!r},"
        f" metrics={NAME!r})\n"
        f"print(json.dumps([r.value({NAME!r}), segagree.metric_cards()[{NAME!r}].title]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=plugin_env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    value, title = json.loads(proc.stdout)
    shared, proposed = map(sum, zip(*_by_hand().values(), strict=True))
    assert value == pytest.approx(shared / proposed) and title == "Boundary precision"


def test_a_broken_plugin_is_named_and_skipped(plugin_env, tmp_path):
    (tmp_path / "lab_measures.py").write_text("raise ImportError('no such lab')\n", "utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "segagree", "metrics"], capture_output=True, text=True, env=plugin_env, timeout=120
    )
    assert proc.returncode == 0 and "pk" in proc.stdout
    assert f"plugin measure {NAME!r}" in proc.stderr and "no such lab" in proc.stderr
