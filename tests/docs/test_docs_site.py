"""The documentation site: its generated pages cover the code (every public name, every metric card,
every page of docs/), checked without Sphinx; and, where Sphinx is installed (``make docs``
installs it), the site builds with warnings as errors."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

import segagree

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
sys.path.insert(0, str(DOCS / "_ext"))
import segagree_docs  # noqa: E402 - the site's extension, from docs/_ext


def test_the_api_page_documents_every_public_name() -> None:
    page = segagree_docs.api_page()
    documented = set(re.findall(r"^\.\. auto(?:class|function|data):: [\w.]+\.(\w+)$", page, re.M))
    public = {name for name in segagree.__all__ if name != "__version__"}
    assert public, "segagree.__all__ is empty"
    assert documented == public


def test_the_metric_page_has_every_card() -> None:
    page = segagree_docs.cards_page()
    cards = segagree.metric_cards()
    titled = re.findall(r"^## `([^`]+)`", page, re.M)
    assert titled == list(cards)
    for name, card in cards.items():
        definition = card.to_dict().get("definition")
        if definition:
            assert str(definition) in page, name


def test_the_differences_page_has_every_cards_reference_and_notes() -> None:
    fragment = segagree_docs.notes_fragment()
    rows = fragment.splitlines()[2:]
    cards = segagree.metric_cards()
    assert [row.split("|")[1].strip().strip("`") for row in rows] == list(cards)
    for card in cards.values():
        notes = card.to_dict().get("notes")
        if notes:
            assert str(notes).replace("|", "\\|").replace("\n", " ") in fragment
    assert "_generated/notes.md" in (DOCS / "differences.md").read_text(encoding="utf-8")


def test_every_page_joins_the_table_of_contents() -> None:
    """A page no toctree of the index lists is added to a last one, so a new page needs no edit."""
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    listed = segagree_docs.listed_pages(index)
    assert {"install", "tour", "architecture", "python-api", "cli-guide"} <= listed
    # a reference page sits under the page that introduces it (one entry per thing in the index)
    nested = segagree_docs.listed_pages((DOCS / "cli-guide.md").read_text(encoding="utf-8"))
    assert "cli" in nested and "cli" not in listed
    under_pages = set().union(*(segagree_docs.listed_pages(p.read_text(encoding="utf-8")) for p in DOCS.glob("*.md")))
    unlisted = segagree_docs.unlisted_pages(DOCS, index)
    assert set(unlisted) == {p.stem for p in DOCS.glob("*.md")} - listed - under_pages - {"index"}
    extra = segagree_docs.more_toctree(["new-page"])
    assert segagree_docs.listed_pages(index + extra) == listed | {"new-page"}
    assert segagree_docs.more_toctree([]) == ""


def test_no_issue_numbers_in_the_docs() -> None:
    """The pages say what and why, not which ticket (an issue number means nothing to a reader)."""
    pattern = re.compile(r"(?<![&\w])#\d{1,5}\b|\bissues?\s+#?\d+|/issues/\d+", re.I)
    pages = [REPO / "README.md", REPO / "CONTRIBUTING.md", *DOCS.glob("*.md")]
    found = [f"{p.name}: {m.group(0)}" for p in pages for m in pattern.finditer(p.read_text(encoding="utf-8"))]
    assert not found


@pytest.mark.skipif(
    importlib.util.find_spec("sphinx") is None, reason="Sphinx is not installed (make docs installs it)"
)
def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "-d", str(tmp_path / "doctrees")]
        + [str(DOCS), str(tmp_path / "html")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "html" / "_generated" / "api.html").exists()
    assert "segagree.compare" in (tmp_path / "html" / "_generated" / "api.html").read_text(encoding="utf-8")
