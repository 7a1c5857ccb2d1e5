"""The run report: written by ``run_corpus``, self-contained, its numbers those of the summary.

Two runs feed the tests (once per module): the sample corpus (one text, so no bootstrap
interval) and a small corpus built here from it (two texts, transcript mismatches, a failing
pair and a skipped file). The last test renders the report in headless Chromium when a
``chromium`` or ``chromium-browser`` executable is on PATH.
"""

from __future__ import annotations

import base64
import copy
import csv
import dataclasses
import html
import importlib.util
import io
import json
import re
import shutil
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import numpy as np
import pytest
from browser import Browser, find_browser
from matplotlib.image import imread

from segagree.api.run_corpus import RunOutcome, run_corpus
from segagree.corpus.config import RunConfig
from segagree.corpus.tasks import run_task
from segagree.metrics.chance.bootstrap import bootstrap_over_texts
from segagree.outputs import plots
from segagree.outputs.report import write_report

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_corpora"

# The module fixtures (two corpus runs) are computed once: every test of this module runs on one worker.
pytestmark = pytest.mark.xdist_group("report")

KAPPA = importlib.util.find_spec("segagree.metrics.chance.sf_kappa") is not None
SECTIONS = [
    "Corpus scores",
    "Distribution over texts",
    "Lowest agreement",
    "Scores per text",
    "Operations by endnote type",
    "Confusion of endnote types",
    "Failures and skipped files",
    "Settings and signature",
]
TEXT_SECTIONS = [
    "Scores",
    "Boundary agreement along the text",
    "Operations by endnote type",
    "Confusion of endnote types",
    "Transcript mismatches",
    "Signatures",
    "Review",  # the review part appended to every text page
]


def _config() -> RunConfig:
    config = RunConfig()
    config.kappa.enabled = KAPPA  # on once the kappa module is in the tree
    config.kappa.sims = 20
    return config


def _run(corpus: Path, outdir: Path, report_plots: str = "corpus") -> tuple[Path, RunOutcome, str]:
    config = _config()
    config.report_plots = report_plots
    config.review_pages = True  # run --review-pages: the text pages' review part is checked here too
    outcome = run_corpus(corpus, outdir, config, workbooks=False, resume=False)
    report = Path(outcome.outputs["report"])
    return report, outcome, report.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sample_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, RunOutcome, str]:
    """The sample conversation alone (the sample corpus's subtitle pair has its own test)."""
    corpus = tmp_path_factory.mktemp("garden")
    for name in ("garden.ann1.txt", "garden.ann2.txt"):
        shutil.copy(SAMPLE / name, corpus / name)
    return _run(corpus, tmp_path_factory.mktemp("sample_out"))


def _edit(text: str, old: str, new: str) -> str:
    assert old in text, f"fixture edit not applicable: {old!r}"
    return text.replace(old, new)


@pytest.fixture(scope="module")
def rich_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, RunOutcome, str]:
    corpus = tmp_path_factory.mktemp("rich_corpus")
    for name in ("garden.ann1.txt", "garden.ann2.txt"):
        shutil.copy(SAMPLE / name, corpus / name)
    a = (SAMPLE / "garden.ann1.txt").read_text(encoding="utf-8")
    b = (SAMPLE / "garden.ann2.txt").read_text(encoding="utf-8")
    (corpus / "market.ann1.txt").write_text(a, encoding="utf-8")
    b = _edit(b, "tomatoes were", "tomatos were")  # a transcript mismatch
    b = _edit(b, "but it didn't", "but it really didn't")  # a token only in B
    b = _edit(b, "BEN:\tgone ?", "BEN:\tgone .")  # a substitution of types
    (corpus / "market.ann2.txt").write_text(b, encoding="utf-8")
    (corpus / "broken.ann1.txt").write_text("ROSA:\tthe garden .\nBEN:\tyes .\n", encoding="utf-8")
    (corpus / "broken.ann2.txt").write_text("ROSA:\tthe garden .\n", encoding="utf-8")  # BEN missing: fails
    shutil.copy(SAMPLE / "garden.ann1.txt", corpus / "lonely.ann1.txt")  # one annotator: skipped
    return _run(corpus, tmp_path_factory.mktemp("rich_out"), report_plots="all")


class _Collector(HTMLParser):
    """Every tag with its attributes, the text of data cells, and the h2/h3 headings."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.cells: list[tuple[dict[str, str], str]] = []
        self.headings: list[tuple[str, str]] = []
        self._open: list[tuple[str, dict[str, str], list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        d = {k: v or "" for k, v in attrs}
        self.tags.append((tag, d))
        if tag in ("td", "span", "h2", "h3"):
            self._open.append((tag, d, []))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i][0] == tag:
                _, attrs, text = self._open.pop(i)
                content = "".join(text).strip()
                if tag in ("h2", "h3"):
                    self.headings.append((tag, content))
                else:
                    self.cells.append((attrs, content))
                return

    def handle_data(self, data: str) -> None:
        for _, _, text in self._open:
            text.append(data)


def _parse(page: str) -> _Collector:
    parser = _Collector()
    parser.feed(page)
    return parser


def _summary_values(outdir: Path) -> dict[str, float]:
    with (outdir / "summary.csv").open(encoding="utf-8") as fh:
        return {
            "|".join((r["text"], r["annotator_a"], r["annotator_b"], r["speaker"], r["measure"])): float(r["value"])
            for r in csv.DictReader(fh)
        }


def _text_pages(report: Path) -> dict[str, str]:
    """Every text page of a report by its address relative to report.html (texts/NAME.html)."""
    return {f"texts/{p.name}": p.read_text(encoding="utf-8") for p in sorted((report.parent / "texts").glob("*.html"))}


def _full(result: dict[str, Any]) -> dict[str, Any]:
    """A logged result with its tracks and operation rows again (scored once more, without kappa)."""
    keys = ("text", "annotator_a", "annotator_b", "file_a", "file_b")
    return run_task(*(result[k] for k in keys), _config(), kappa=False)


# ---------------------------------------------------------------------------------------------- page


def test_report_is_self_contained_light_and_draws_the_figures_data(sample_run: tuple[Path, RunOutcome, str]) -> None:
    report, outcome, page = sample_run
    assert report == report.parent / "report.html" and report.is_file()
    pages = _text_pages(report)
    assert list(pages) == ["texts/garden.html"]
    for html_page in (page, *pages.values()):
        assert html_page.startswith("<!DOCTYPE html>")
        low = html_page.lower()
        for forbidden in ('src="http', "src='http", 'href="http', "<script src", "<link", "url(", "@import", "<iframe"):
            assert forbidden not in low, forbidden
    assert page.count("<script") == 1  # the table's script only
    # A text page's only scripts are its review part's: its data (JSON) and its script.
    garden = pages["texts/garden.html"]
    review = garden[garden.index('<section id="segagree-review"') :]
    assert garden.count("<script") == review.count("<script") == 2
    assert review.count('<script type="application/json"') == 1
    # report_plots = "corpus" (the default): no PNG at all, embedded or written; figures are
    # inline SVG (valid XML) and CSS-coloured tables.
    parsed = _parse(page)
    assert not [attrs for tag, attrs in parsed.tags if tag == "img"]
    assert not (report.parent / "plots").exists()
    svgs = {re.search(r'class="(\w+)"', svg).group(1): svg for svg in re.findall(r"<svg\b.*?</svg>", page, re.S)}
    assert set(svgs) == {"hist", "dots"}
    dots = ElementTree.fromstring(svgs["dots"])
    marks = [el for el in dots.iter() if el.tag.endswith(("circle", "rect"))]
    assert len(marks) >= 2 * len(outcome.results)  # S_f and S_f^B of each pair (+ the legend)
    hist = ElementTree.fromstring(svgs["hist"])
    bars = [el for el in hist.iter() if el.tag.endswith("rect") and el.find("{*}title") is not None]
    assert sorted(el.find("{*}title").text.split(": ")[1] for el in bars) == ["1", "1"]  # one pair: S_f, S_f^B
    assert len(page.encode()) < 150_000
    # The heat map shows exactly the agreement counts of every window of every speaker.
    text_page = pages["texts/garden.html"]
    result = _full(outcome.results[0])
    fig = plots.figure_data(result)
    assert fig == outcome.results[0]["figures"]  # what the log keeps is what the arrays give
    window = fig["window"]
    expected = []
    for track in result["tracks"].values():
        agree, bound, _ = plots.agreement_windows(track["a"], track["b"], window)
        expected += [f"{a}/{b} agree" for a, b in zip(agree, bound, strict=True) if b]
    heat = text_page[text_page.index('id="pair-0-agreement"') : text_page.index('id="operations"')]
    assert re.findall(r'class="q\d+" title="([^"]+)"', heat) == expected
    # Operation bars: one per (A's type, B's type, operation), counts equal the operation rows'.
    ops = text_page[text_page.index('id="pair-0-operations"') : text_page.index('id="confusion"')]
    shown = sorted(int(n) for n in re.findall(r'</td><td class="num">(\d+)</td><td class="barcell">', ops))
    assert shown == sorted(plots.operation_counts(result["operation_rows"]).values())
    for html_page in (page, text_page):
        for anchor in re.findall(r'href="#([^"]+)"', html_page):
            assert f'id="{anchor}"' in html_page
    assert 'href="texts/garden.html"' in page and 'href="../report.html"' in text_page


def test_all_plots_are_written_as_files_and_linked(rich_run: tuple[Path, RunOutcome, str]) -> None:
    report, outcome, page = rich_run
    pages = _text_pages(report)
    images = [attrs for text_page in pages.values() for tag, attrs in _parse(text_page).tags if tag == "img"]
    pairs = [r for r in outcome.results if r.get("ok")]
    assert len(images) == 3 * len(pairs)  # agreement, operations, confusion per pair
    assert "data:" not in page + "".join(pages.values())  # linked, never embedded
    for attrs in images:
        assert attrs["src"].startswith("../plots/") and attrs.get("alt") and attrs["loading"] == "lazy"
        png = (report.parent / "texts" / attrs["src"]).read_bytes()
        pixels = imread(io.BytesIO(png), format="png")
        assert pixels.shape[0] == int(attrs["height"]) and pixels.shape[1] == int(attrs["width"])
        assert pixels.shape[0] > 100 and pixels.shape[1] > 300
        assert float(np.std(pixels[..., :3])) > 0.05  # not a blank canvas
    assert (report.parent / "plots" / "scores.png").is_file()


def test_every_section_heading_is_present(sample_run: tuple[Path, RunOutcome, str]) -> None:
    report, _, page = sample_run
    h2 = [text for tag, text in _parse(page).headings if tag == "h2"]
    assert h2 == SECTIONS  # in this order; no subtitle section without subtitle results
    text_page = _text_pages(report)["texts/garden.html"]
    assert [text for tag, text in _parse(text_page).headings if tag == "h2"] == TEXT_SECTIONS
    assert "<h1>garden</h1>" in text_page
    assert "<h1>Segmentation agreement report</h1>" in page
    assert "sf|mode:optimal|scheme:dubois@" in page  # the signature, in the header and settings


@pytest.mark.parametrize("which", ["sample_run", "rich_run"])
def test_numbers_equal_the_summary(which: str, request: pytest.FixtureRequest) -> None:
    report, outcome, page = request.getfixturevalue(which)
    summary = _summary_values(report.parent)
    cells = {
        attrs["data-key"]: (float(attrs["data-value"]), text)
        for text_page in _text_pages(report).values()
        for attrs, text in _parse(text_page).cells
        if "data-key" in attrs
    }
    assert cells, "no summary numbers found in the report"
    for key, (value, shown) in cells.items():
        assert key in summary, key
        assert value == pytest.approx(summary[key], rel=1e-12, abs=1e-12)
        metric = key.rsplit("|", 1)[1]
        if metric in ("sf", "sf_b", "kappa_sf", "kappa_sf_b"):
            assert shown == f"{summary[key]:.3f}"
        else:
            assert float(shown) == pytest.approx(summary[key], abs=5e-4)
    # every text's numbers (the rows pooled over texts, text ALL, are the entry page's)
    expected = {
        k for k in summary if k.rsplit("|", 1)[1] in ("sf", "sf_b", "n_tokens", "cost", "edits") and k[:4] != "ALL|"
    }
    if KAPPA:
        expected |= {k for k in summary if k.rsplit("|", 1)[1] in ("kappa_sf", "kappa_sf_b") and k[:4] != "ALL|"}
    assert expected <= set(cells), sorted(expected - set(cells))[:5]
    pooled = {
        r["text"]: r["value"] for r in outcome.rows if r["speaker"] == "ALL" != r["text"] and r["measure"] == "sf"
    }
    assert pooled and all(cells[f"{t}|ann1|ann2|ALL|sf"][0] == v for t, v in pooled.items())
    # The entry page's table: one row per pair, linked to its text page, S_f rounded as shown.
    table = page[page.index('id="text-table"') : page.index("</table>", page.index('id="text-table"'))]
    for text, value in pooled.items():
        row = re.search(rf'<a href="texts/{text}.html">{text}</a></td><td>ann1 vs ann2</td>(.*?)</tr>', table)
        assert row, text
        assert f'<td class="num">{value:.3f}</td>' in row.group(1)


def test_a_single_text_has_no_interval(sample_run: tuple[Path, RunOutcome, str]) -> None:
    _, outcome, page = sample_run
    assert "no interval: a single text" in page
    comp = outcome.results[0]["compare"]
    corpus_cells = {a["data-corpus"]: float(a["data-value"]) for a, _ in _parse(page).cells if "data-corpus" in a}
    assert corpus_cells["all pairs|sf"] == pytest.approx(comp["sf"])
    assert corpus_cells["all pairs|sf_b"] == pytest.approx(comp["sf_b"])


def test_bootstrap_interval_over_texts(rich_run: tuple[Path, RunOutcome, str]) -> None:
    _, outcome, page = rich_run
    ok = [r["compare"] for r in outcome.results if r.get("ok")]
    assert len(ok) == 2 and ok[0]["sf"] != ok[1]["sf"]
    pooled = 1 - sum(c["cost"] for c in ok) / sum(c["n_tokens"] for c in ok)
    row = re.search(
        r'data-corpus="all pairs\|sf" data-value="([^"]+)">[^<]+</td><td class="ci">\[([\d.]+), ([\d.]+)\]', page
    )
    assert row, "no interval for the pooled S_f of two texts"
    estimate, low, high = (float(x) for x in row.groups())
    assert estimate == pytest.approx(pooled)
    lo_text, hi_text = sorted(1 - c["cost"] / c["n_tokens"] for c in ok)
    assert low <= round(estimate, 3) <= high
    assert round(lo_text, 3) <= low and high <= round(hi_text, 3)  # resampled texts stay within their range
    assert "no interval: a single text" not in page


def test_mismatches_failures_and_skipped_files(rich_run: tuple[Path, RunOutcome, str]) -> None:
    report, outcome, page = rich_run
    market = next(r for r in outcome.results if r["text"] == "market")
    n = len(market["compare"]["mismatches"])
    assert n >= 2
    pages = _text_pages(report)
    assert set(pages) == {"texts/garden.html", "texts/market.html"}  # none for the failed and the skipped
    spans = {a["data-mismatches"]: t for p in pages.values() for a, t in _parse(p).cells if "data-mismatches" in a}
    assert spans == {"market|ann1|ann2": str(n)}
    assert "<td>tomatos</td>" in pages["texts/market.html"] and "<td>really</td>" in pages["texts/market.html"]
    failure = next(r for r in outcome.results if not r["ok"])
    assert failure["text"] == "broken"
    assert failure["error"] in html.unescape(page) and "['BEN']" not in page  # escaped
    assert "lonely: only one annotator" in page
    assert "1 failed pair" in page and "1 skipped" in page


def test_subtitle_hook_and_escaping(sample_run: tuple[Path, RunOutcome, str], tmp_path: Path) -> None:
    _, outcome, _ = sample_run
    results = [copy.deepcopy(r) for r in outcome.results]
    results[0]["subtitles"] = {"SubER": 0.25, "cues_a": 12, "note": "<i>fine</i>"}
    results.append(
        {
            "text": "<b>evil</b>",
            "annotator_a": "x&y",
            "annotator_b": "z",
            "ok": False,
            "error": "<script>alert(1)</script>",
        }
    )
    fake = dataclasses.replace(outcome, results=results)
    page = write_report(tmp_path, fake, _config()).read_text(encoding="utf-8")
    h2 = [text for tag, text in _parse(page).headings if tag == "h2"]
    assert "Subtitle metrics" in h2 and h2.index("Subtitle metrics") == h2.index("Failures and skipped files") - 1
    subs = {a["data-subtitle"]: t for a, t in _parse(page).cells if "data-subtitle" in a}
    assert subs == {
        "garden|ann1|ann2|SubER": "0.250",
        "garden|ann1|ann2|cues_a": "12",
        "garden|ann1|ann2|note": "<i>fine</i>",
    }  # parsed text: the markup was escaped
    assert "&lt;i&gt;fine&lt;/i&gt;" in page
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;b&gt;evil&lt;/b&gt;" in page and "x&amp;y" in page


# ---------------------------------------------------------------------------------------------- helpers


def test_bootstrap_helper() -> None:
    one = bootstrap_over_texts({"t": (3.0, 100.0)})
    assert (one.estimate, one.low, one.high, one.note) == (0.97, None, None, "no interval: a single text")
    stats = {"a": (1.0, 100.0), "b": (10.0, 100.0), "c": (5.0, 50.0)}
    first = bootstrap_over_texts(stats, seed=7)
    assert first == bootstrap_over_texts(stats, seed=7)  # seeded
    assert first.estimate == pytest.approx(1 - 16 / 250)
    assert 0.90 <= first.low < first.estimate < first.high <= 0.99


def test_agreement_windows_and_confusion() -> None:
    a = [1, 0, 2, 0, 0, 3, 0, 0, 0, 0, 1]
    b = [1, 0, 1, 2, 0, 0, 0, 0, 0, 0, 1]
    agree, bound, share = plots.agreement_windows(a, b, 5)
    assert agree.tolist() == [1, 0, 1] and bound.tolist() == [3, 1, 1]
    assert share[0] == pytest.approx(1 / 3) and share[1] == 0.0 and share[2] == 1.0
    _, _, empty = plots.agreement_windows([0] * 6, [0] * 6, 5)
    assert np.isnan(empty).all()
    matrix = plots.confusion_counts({"S": {"a": a, "b": b}}, ["none", ",", ".", "?"])
    assert matrix.tolist() == [[2, 0, 0], [1, 0, 0], [0, 0, 0]]
    assert [plots.nice_window(n) for n in (10, 300, 1000, 5000)] == [5, 10, 25, 200]


# ---------------------------------------------------------------------------------------------- browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the module's pages (each page a fresh launch cost 0.6 s of CPU)."""
    path = find_browser()
    if path is None:
        pytest.skip("no chromium or chromium-browser executable on PATH (apt-get install chromium)")
    with Browser(path, extra_flags=("--hide-scrollbars",)) as b:
        yield b


def test_report_renders_in_headless_chromium(rich_run: tuple[Path, RunOutcome, str], browser: Browser) -> None:
    report, _, page = rich_run
    # A 1280 x 2400 window, as --window-size=1280,2400 --screenshot gave.
    browser.call(
        "Emulation.setDeviceMetricsOverride", session=True, width=1280, height=2400, deviceScaleFactor=1, mobile=False
    )
    try:
        browser.open(report.resolve().as_uri())
        shot = browser.call("Page.captureScreenshot", session=True, format="png")["data"]
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride", session=True)
    pixels = imread(io.BytesIO(base64.b64decode(shot)), format="png")
    assert pixels.shape[:2] == (2400, 1280)
    assert float(np.std(pixels[..., :3])) > 0.1  # not blank
    assert np.allclose(pixels[5, 5, :3], np.array([0x00, 0x33, 0x6F]) / 255, atol=0.03)  # the header's CSS applied

    # A test-only copy of a text page with a probe script (the text pages have none) reports how
    # every image (the PNGs under plots/, loaded eagerly here) decoded, once the page has loaded.
    probe = (
        "<script>window.__errors = [];window.addEventListener('error', e => window.__errors.push(String(e.message)));"
        "window.addEventListener('load', () => {const p = document.createElement('pre'); p.id = 'probe';"
        "p.textContent = JSON.stringify({errors: window.__errors, images: Array.from(document.images)"
        ".map(i => [i.complete, i.naturalWidth, i.naturalHeight])}); document.body.appendChild(p);});</script>"
    )
    text_page = _text_pages(report)["texts/garden.html"]
    n_images = text_page.count("<img ")
    wrapper = report.parent / "texts" / "probe.html"  # next to the page: the images are relative to it
    eager = text_page.replace('loading="lazy"', 'loading="eager"')
    wrapper.write_text(eager.replace("</body>", probe + "</body>", 1), encoding="utf-8")
    state = _probe(browser, wrapper)
    wrapper.unlink()
    assert state["errors"] == []
    assert len(state["images"]) == n_images >= 3
    assert all(complete and width > 0 and height > 0 for complete, width, height in state["images"]), state


# What the probe script put in <pre id="probe"> (it runs on the load event), waited for.
PROBE_TEXT = """new Promise((resolve, reject) => { const until = Date.now() + 30000;
  const look = () => { const p = document.getElementById('probe');
    if (p) resolve(p.textContent); else if (Date.now() > until) reject(new Error('the probe did not run'));
    else setTimeout(look, 20); };
  look(); })"""


def _probe(browser: Browser, page: Path) -> dict[str, Any]:
    """Load ``page`` in the browser and return what its probe script put in ``<pre id="probe">``."""
    browser.open(page.as_uri())
    state: dict[str, Any] = json.loads(browser.eval(PROBE_TEXT))
    return state


# The table's behaviour, driven as a reader would: click the S_f heading (twice), the text
# heading, type into the filter boxes; then the first link's address.
TABLE_PROBE = """<script>window.__errors = [];
window.addEventListener('error', e => window.__errors.push(String(e.message)));
window.addEventListener('load', () => {
  const t = document.getElementById('text-table'), heads = t.tHead.rows[0].cells;
  const visible = () => Array.from(t.tBodies[0].rows).filter(r => !r.hidden);
  const col = i => visible().map(r => r.cells[i] ? r.cells[i].textContent.trim() : '');
  const type = (id, v) => { const box = document.getElementById(id); box.value = v;
    box.dispatchEvent(new Event('input')); };
  const out = {errors: window.__errors, first: col(0)};
  heads[3].click(); out.ascending = col(3); out.sort_state = heads[3].getAttribute('aria-sort');
  heads[3].click(); out.descending = col(3);
  heads[0].click(); out.by_text = col(0);
  type('filter', 'MARK'); out.filtered = col(0); out.shown = document.getElementById('shown').textContent;
  type('filter', ''); type('max-sf', '__LIMIT__'); out.below = col(0);
  type('max-sf', ''); out.all_again = col(0).length;
  out.link = t.querySelector('a').href;
  const p = document.createElement('pre'); p.id = 'probe'; p.textContent = JSON.stringify(out);
  document.body.appendChild(p);
});</script>"""


def test_report_table_sorts_filters_and_links_in_headless_chromium(
    rich_run: tuple[Path, RunOutcome, str], browser: Browser
) -> None:
    report, outcome, page = rich_run
    sf = {r["text"]: r["compare"]["sf"] for r in outcome.results if r.get("ok")}
    assert len(sf) == 2 and sf["garden"] != sf["market"]
    lowest = min(sf, key=sf.__getitem__)
    wrapper = report.parent / "probe.html"
    probe = TABLE_PROBE.replace("__LIMIT__", f"{sf[lowest]:.3f}")
    wrapper.write_text(page.replace("</body>", probe + "</body>", 1), encoding="utf-8")
    state = _probe(browser, wrapper)
    wrapper.unlink()
    assert state["errors"] == []
    assert state["first"] == ["broken", "garden", "market"]  # task order
    shown = [f"{sf[t]:.3f}" for t in sorted(sf, key=sf.__getitem__)]
    assert state["ascending"][:2] == shown and state["sort_state"] == "ascending"  # the failure last
    assert state["descending"][:2] == shown[::-1]
    assert state["by_text"] == ["broken", "garden", "market"]
    assert state["filtered"] == ["market"] and state["shown"] == "1 of 3 pairs shown"
    assert state["below"] == [lowest]
    assert state["all_again"] == 3
    # The link leads to the text's page, which renders and links back.
    target = Path(state["link"].removeprefix("file://"))
    assert target.is_file() and target.parent.name == "texts"
    browser.open(target.as_uri())
    dom = browser.eval("document.documentElement.outerHTML")
    assert f"<h1>{target.stem}</h1>" in dom and 'href="../report.html"' in dom
