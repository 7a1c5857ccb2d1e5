"""A Sphinx extension writing two pages from the code before the build reads the sources: the
metric cards (from the one registry of measures) and the API reference (from the one list of
public names), so that a new measure or public function appears without editing the docs; and a
last table of contents on the index for any top-level page no toctree lists."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def cards_page() -> str:
    """The metric reference page: every card of the registry (title, formula, range, how to read
    it, chance level, worked example, parameters, citation with its link, reference implementation)."""
    from segagree.api import metric_cards

    lines = [
        "# Metric cards",
        "",
        "Every measure segagree computes, from its card in the registry (`segagree metrics NAME` prints",
        "the same). Generated from the code at each build; each worked example is run by the tests",
        "(`tests/docs/test_metric_cards.py`) in the sample corpora (`segagree demo DIR` copies them).",
        "",
    ]
    for name, card in metric_cards().items():
        lines += card_section(name, card.to_dict())
    return "\n".join(lines) + "\n"


def card_section(name: str, info: dict[str, Any]) -> list[str]:
    """One card as a section of the metric page."""
    lines = [f"## `{name}`: {info.get('title', '')}", "", str(info.get("definition", "")), ""]
    if info.get("formula"):
        lines += ["$$", str(info["formula"]), "$$", ""]
    for key, label in (("range", "Range"), ("reading", "How to read it"), ("chance", "Chance level")):
        if info.get(key):
            lines.append(f"- **{label}**: {info[key]}")
    better = {"higher": "higher is better", "lower": "lower is better", "none": "a count or description"}
    lines.append(f"- **Direction**: {better.get(str(info.get('better')), info.get('better'))}")
    citation = str(info.get("citation", ""))
    lines.append(
        f"- **Reference**: [{citation}]({info['link']})" if info.get("link") else f"- **Reference**: {citation}"
    )
    params = info.get("parameters") or {}
    if params:
        lines.append("- **Parameters**: " + "; ".join(f"`{k}` = {v}" for k, v in params.items()))
    for key, label in (
        ("needs", "Input"),
        ("annotators", "Annotators"),
        ("group", "Group"),
        ("library", "Computed by"),
    ):
        if info.get(key):
            lines.append(f"- **{label}**: {info[key]}")
    if info.get("reference"):
        lines.append(f"- **Checked against**: {info['reference']}")
    if info.get("notes"):
        lines.append(f"- **Notes**: {info['notes']}")
    lines.append("")
    if info.get("example"):
        expression, _, value = str(info["example"]).partition(" -> ")
        lines += ["Worked example:", "", "```python", f">>> {expression.strip()}", value.strip(), "```", ""]
    return lines


def notes_fragment() -> str:
    """A table of every measure's reference implementation and its card's notes (where it
    deliberately differs from the reference), included by the page on differences."""
    from segagree.api import metric_cards

    lines = ["| measure | checked against | notes |", "| --- | --- | --- |"]
    for name, card in metric_cards().items():
        info = card.to_dict()
        cells = [f"`{name}`", str(info.get("reference") or ""), str(info.get("notes") or "")]
        lines.append("| " + " | ".join(cell.replace("|", "\\|").replace("\n", " ") for cell in cells) + " |")
    return "\n".join(lines) + "\n"


def api_names() -> list[str]:
    """The public names the API reference documents: ``segagree.__all__`` read at build time (so a
    name added to the API appears without editing the docs), less the version string."""
    import segagree

    return sorted((name for name in segagree.__all__ if not name.startswith("_")), key=str.lower)


def api_page() -> str:
    """The API reference page: an autodoc directive for every public name."""
    import segagree
    from segagree.api import PUBLIC

    lines = [
        "# Every public name",
        "",
        "Every public name of the Python API (`import segagree`; names load on first use), from",
        "`segagree.__all__`, with its docstring. Generated from the code at each build.",
        "",
    ]
    for name in api_names():
        obj = getattr(segagree, name)
        kind = "autoclass" if isinstance(obj, type) else "autofunction" if callable(obj) else "autodata"
        module = PUBLIC.get(name) or getattr(obj, "__module__", None) or "segagree"
        # autodoc writes reStructuredText: evaluated as such inside the Markdown page
        lines += [f"## `segagree.{name}`", "", "```{eval-rst}", f".. {kind}:: {module}.{name}", "```", ""]
    return "\n".join(lines) + "\n"


def listed_pages(index_text: str) -> set[str]:
    """The entries of every toctree of a Markdown index page (one entry a line, options skipped)."""
    listed: set[str] = set()
    inside = False
    for raw in index_text.splitlines():
        line = raw.strip()
        if line.startswith("```{toctree}"):
            inside = True
        elif inside and line.startswith("```"):
            inside = False
        elif inside and line and not line.startswith(":"):
            listed.add(line.rsplit("<", 1)[-1].rstrip(">").strip())
    return listed


def unlisted_pages(srcdir: Path, index_text: str) -> list[str]:
    """The top-level pages (``docs/*.md``) that no toctree names (the index's, or a page's own for
    its sub-pages): pages added by a later change join the site (in a last "More" table of
    contents) without an edit of the index."""
    listed = listed_pages(index_text)
    for page in srcdir.glob("*.md"):
        if page.stem != "index":
            listed |= listed_pages(page.read_text(encoding="utf-8"))
    return sorted(p.stem for p in srcdir.glob("*.md") if p.stem != "index" and p.stem not in listed)


def more_toctree(pages: list[str]) -> str:
    """The table of contents appended to the index for the unlisted pages ("" when there are none)."""
    if not pages:
        return ""
    return "\n\n```{toctree}\n:caption: More\n:maxdepth: 1\n\n" + "\n".join(pages) + "\n```\n"


def _append_unlisted(app: Any, docname: str, source: list[str]) -> None:
    if docname == "index":
        source[0] += more_toctree(unlisted_pages(Path(app.srcdir), source[0]))


def _reread_index(app: Any, env: Any, added: set[str], changed: set[str], removed: set[str]) -> list[str]:
    # a page added or removed changes the index's last table of contents: read the index again
    return ["index"] if added or removed else []


def _write(app: Any) -> None:
    out = Path(app.srcdir) / "_generated"
    out.mkdir(exist_ok=True)
    for name, text in (("metrics.md", cards_page()), ("api.md", api_page()), ("notes.md", notes_fragment())):
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", _write)
    app.connect("source-read", _append_unlisted)
    app.connect("env-get-outdated", _reread_index)
    return {"version": "1", "parallel_read_safe": True}
