"""Shared test fixtures: where ../shared is, and skipping cleanly when it is absent."""

from __future__ import annotations

import functools
import gc
import importlib.util
import json
import os
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

# On CI the property tests draw the same examples every run (a red CI is then reproducible);
# locally they explore new ones each time.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or skip the test with the reason when it is not there."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent: the third-party corpora and oracles live in ../shared")
    return path


@functools.cache
def _nltk_segmentation_module() -> ModuleType | None:
    spec = importlib.util.find_spec("nltk")  # finds the package without running its __init__
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(spec.submodule_search_locations[0]) / "metrics" / "segmentation.py"
    source = importlib.util.spec_from_file_location("nltk_metrics_segmentation", path)
    if source is None or source.loader is None:
        return None
    module = importlib.util.module_from_spec(source)
    source.loader.exec_module(module)
    return module


def nltk_segmentation() -> ModuleType:
    """NLTK's ``nltk.metrics.segmentation`` (the test-only reference for GHD, Pk and WindowDiff),
    the installed file run on its own, or skip (at a module's top as in a test).

    ``import nltk.metrics.segmentation`` first runs nltk's ``__init__``, which imports the whole
    of nltk and scipy.stats: 3 s of CPU in every test worker at collection. The module itself
    imports only numpy (inside its functions), so its functions are NLTK's, as installed."""
    module = _nltk_segmentation_module()
    if module is None:
        pytest.skip(
            "nltk is not installed (the test-only reference for GHD, Pk and WindowDiff)", allow_module_level=True
        )
    return module


@pytest.fixture(scope="session")
def segsimflex_oracle() -> dict:
    """shared/oracle/segsimflex.json (R segsimflex 0.1.3 outputs)."""
    return json.loads(shared_path("oracle", "segsimflex.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def metrics_oracle() -> dict:
    """shared/oracle/metrics.json (segeval / NLTK / A-paper values)."""
    return json.loads(shared_path("oracle", "metrics.json").read_text(encoding="utf-8"))


# Scheduling only (every test runs either way): the tests that take the most CPU, seconds each on
# this project's 2-core machine, start first, longest first, so that pytest-xdist's workers finish
# together instead of one running a long test alone at the end. A test not listed keeps its place.
LONG_FIRST = (
    "metrics/test_ter_kernel.py::test_every_sentence_pair_of_the_real_systems",  # ~60 s, one worker
    "formats/test_damage_new_formats.py::test_damaged_files_give_clean_errors_or_faithful_reads",
    "corpus/test_run_tracks.py::test_time_run_interrupted_then_run_again_gives_the_uninterrupted_summary",
    "scoring/test_subtitles_pipeline.py::test_compare_cli_never_refuses_the_invented_hypotheses",
    "corpus/test_scheduler.py::test_ctrl_c_stops_cleanly_and_running_again_resumes",
    "cli/test_cli_friendly.py::test_interrupted_run_leaves_no_partial_outputs",
    "metrics/test_ter_kernel.py::test_random_pairs",
    "cli/test_subtitle_tools_cli.py::test_study_writes_csv_plots_and_page",
    "cli/test_cli_friendly.py::test_every_help_example_runs",
    "corpus/test_scheduler.py::test_dask_with_a_separate_scheduler_gives_identical_numbers",
    "subtitle_tools/test_study.py::test_csv_has_the_named_columns_operations_and_metrics",
    "cli/test_cli_friendly.py::test_interrupt_prints_one_line_and_exits_130",
    "scoring/test_subtitles_pipeline.py::test_srt_renderings_equal_suber_command_line",
    "metrics/test_subtitle_measures.py::test_statistics_add_to_the_pooled_value",
    "formats/test_damage_xml_formats.py::test_damaged_files_give_clean_errors_or_faithful_reads",
    "formats/test_damage_text_formats.py::test_damaged_files_give_a_clean_error_or_a_faithful_read",
    "corpus/test_pipeline_run.py::test_dask_backend_matches_loky",
    "scoring/test_subtitles_pipeline.py::test_machine_translation_is_scored_without_alignment",
    "metrics/test_subtitle_measures.py::test_public_oracle_through_the_contract",
    "metrics/test_metrics_reference_pkgs.py",
    "metrics/test_sacrebleu_stats.py::test_every_real_pair_plain_and_realigned_with_one_cache",
    "scoring/test_subtitles_pipeline.py::test_real_systems_equal_suber_command_line_plain",
)


@pytest.hookimpl(trylast=True)  # after pytest-xdist's own hook (see _join_xdist_groups)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the tests of :data:`LONG_FIRST` first, in its order (a stable sort: the rest keep theirs).

    A module's tests stay together (the module ranks as its longest test; within it, the listed
    tests come first): pytest tears a module-scoped fixture down when the next test is another
    module's, so a module split in two would compute its shared fixture twice."""
    _join_xdist_groups(config, items)

    def rank(item: pytest.Item) -> int:
        name = item.nodeid.removeprefix("tests/")
        return next((k for k, prefix in enumerate(LONG_FIRST) if name.startswith(prefix)), len(LONG_FIRST))

    module_rank: dict[object, int] = {}
    for item in items:
        module_rank[item.path] = min(module_rank.get(item.path, len(LONG_FIRST)), rank(item))
    items.sort(key=lambda item: (module_rank[item.path], rank(item)))


def _join_xdist_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``--dist loadgroup`` runs the tests of one ``xdist_group`` on one worker: pytest-xdist's
    workers append ``@GROUP`` to their node ids, by which the scheduler groups them. From pytest
    9.2 a node id is derived from a structured id, and pytest-xdist 3.8's assignment no longer
    takes (pytest-dev/pytest-xdist#1386): every group was spread over the workers, and each worker
    that ran one of its tests computed the module's shared fixtures again. Append it here when
    xdist's did not take (a no-op where it does)."""
    if not getattr(config.option, "loadgroup", False):
        return
    try:
        from _pytest.nodeid import NodeId  # pytest >= 9.2
    except ImportError:  # an older pytest: xdist's suffix takes
        return
    for item in items:
        marks = item.iter_markers("xdist_group")
        names = {str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in marks}
        suffix = "@" + "_".join(sorted(names))
        if names and not item.nodeid.endswith(suffix):
            item._id = NodeId.parse(item.nodeid + suffix)  # type: ignore[attr-defined]


def pytest_collection_finish(session: pytest.Session) -> None:
    """Everything imported and collected lives to the end: frozen, the garbage collector stops
    walking it again in every collection during the tests (1.5 to 4 % of tests/adapters' CPU)."""
    gc.freeze()
