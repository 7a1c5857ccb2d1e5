"""A Sphinx extension writing two pages from the code before the build reads the sources: the
metric cards (from the one registry of measures) and the API reference (from the one list of
public names), so that a new measure or public function appears without editing the docs."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _cards_page() -> str:
    from segagree.api import metric_cards

    lines = [
        "# Metric reference",
        "",
        "Every measure segagree computes, from its card in the registry (`segagree metrics NAME` prints",
        "the same). Generated from the code at each build.",
        "",
    ]
    for name, card in metric_cards().items():
        info = card.to_dict()
        lines += [f"## `{name}`: {info.get('title', '')}", ""]
        for key in ("definition", "citation", "better", "needs", "annotators", "group", "library", "reference"):
            value = info.get(key)
            if value not in (None, "", [], {}):
                lines.append(f"- **{key}**: {value}")
        params = info.get("parameters") or {}
        if params:
            lines.append("- **parameters**: " + "; ".join(f"`{k}` = {v}" for k, v in params.items()))
        notes = info.get("notes")
        if notes:
            lines.append(f"- **notes**: {notes}")
        lines.append("")
    return "\n".join(lines) + "\n"


def _api_page() -> str:
    import segagree
    from segagree.api import PUBLIC

    lines = [
        "# API reference",
        "",
        "Every public name of the Python API (`import segagree`; names load on first use), from the",
        "one list `segagree.api.PUBLIC`, with its docstring. Generated from the code at each build.",
        "",
    ]
    for name in sorted(PUBLIC, key=str.lower):
        if name.startswith("_") or name == "__version__":
            continue
        obj = getattr(segagree, name)
        kind = "autoclass" if isinstance(obj, type) else "autofunction" if callable(obj) else "autodata"
        module = PUBLIC[name]
        # autodoc writes reStructuredText: evaluated as such inside the Markdown page
        lines += [f"## `segagree.{name}`", "", "```{eval-rst}", f".. {kind}:: {module}.{name}", "```", ""]
    return "\n".join(lines) + "\n"


def _write(app: Any) -> None:
    out = Path(app.srcdir) / "_generated"
    out.mkdir(exist_ok=True)
    for name, text in (("metrics.md", _cards_page()), ("api.md", _api_page())):
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", _write)
    return {"version": "1", "parallel_read_safe": True}
