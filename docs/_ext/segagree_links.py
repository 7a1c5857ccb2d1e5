"""An offline link check of the built site: every link between its pages, and every anchor
(``page.html#section``), must lead somewhere. Run at the end of each HTML build; a broken link is
a Sphinx warning, so ``make docs`` (``sphinx-build -W``) fails on it. Links out of the site (http,
mailto) are not fetched: the site is built offline.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from sphinx.util import logging

log = logging.getLogger(__name__)


class _Page(HTMLParser):
    """The ids a page defines and the links it makes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for key in ("id", "name"):
            if values.get(key):
                self.ids.add(str(values[key]))
        if tag == "a" and values.get("href"):
            self.links.append(str(values["href"]))


def broken_links(outdir: Path) -> list[str]:
    """``page: link`` for every internal link of the HTML pages under ``outdir`` that leads to no
    file, or to no element with its anchor's id."""
    pages: dict[Path, _Page] = {}
    for path in sorted(outdir.rglob("*.html")):
        parser = _Page()
        parser.feed(path.read_text(encoding="utf-8", errors="replace"))
        pages[path.resolve()] = parser
    broken = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("//"):
                continue  # outside the site
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path.relative_to(outdir.resolve())}: {link} (no such page)")
                continue
            anchor = unquote(parts.fragment)
            if anchor and target.suffix == ".html" and anchor not in pages[target].ids:
                broken.append(f"{path.relative_to(outdir.resolve())}: {link} (no such anchor)")
    return broken


def _check(app: Any, exc: Exception | None) -> None:
    if exc is not None or app.builder.format != "html":
        return
    for line in broken_links(Path(app.outdir)):
        log.warning("broken link: %s", line)


def setup(app: Any) -> dict[str, Any]:
    app.connect("build-finished", _check)
    return {"version": "1", "parallel_read_safe": True}
