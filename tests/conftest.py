"""Shared test fixtures: where ../shared is, and skipping cleanly when it is absent."""

from __future__ import annotations

import json
import os
from pathlib import Path

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


@pytest.fixture(scope="session")
def segsimflex_oracle() -> dict:
    """shared/oracle/segsimflex.json (R segsimflex 0.1.3 outputs)."""
    return json.loads(shared_path("oracle", "segsimflex.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def metrics_oracle() -> dict:
    """shared/oracle/metrics.json (segeval / NLTK / A-paper values)."""
    return json.loads(shared_path("oracle", "metrics.json").read_text(encoding="utf-8"))
