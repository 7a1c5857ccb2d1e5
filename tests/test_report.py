"""The run report: written by ``run_corpus``, self-contained, its numbers those of the summary.

Two runs feed the tests (once per module): the sample corpus (one text, so no bootstrap
interval) and a small corpus built here from it (two texts, transcript mismatches, a failing
pair and a skipped file). The last test renders the report in headless Chromium when a
``chromium`` or ``chromium-browser`` executable is on PATH.
"""

from __future__ import annotations

import copy
import csv
import dataclasses
import html
import importlib.util
import io
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import numpy as np
import pytest
from matplotlib.image import imread

from segagree.outputs import plots
from segagree.outputs.report import write_report
from segagree.outputs.run import RunOutcome, run_corpus
from segagree.pipeline.config import RunConfig

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "sample_corpora"
KAPPA = importlib.util.find_spec("segagree.metrics.agreement") is not None
SECTIONS = [
    "Corpus scores",
    "Scores per text",
    "Boundary agreement along the texts",
    "Operations by endnote type",
    "Confusion of endnote types",
    "Transcript mismatches",
    "Failures and skipped files",
    "Settings and signature",
]
BROWSER_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
]


def _config() -> RunConfig:
    config = RunConfig()
    config.kappa.enabled = KAPPA  # on once the kappa module is in the tree
    config.kappa.sims = 20
    return config


def _run(corpus: Path, outdir: Path, report_plots: str = "corpus") -> tuple[Path, RunOutcome, str]:
    config = _config()
    config.report_plots = report_plots
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
            "|".join((r["text"], r["annotator_a"], r["annotator_b"], r["speaker"], r["metric"])): float(r["value"])
            for r in csv.DictReader(fh)
        }


# ---------------------------------------------------------------------------------------------- page


def test_report_is_self_contained_light_and_draws_the_figures_data(sample_run: tuple[Path, RunOutcome, str]) -> None:
    report, outcome, page = sample_run
    assert report == report.parent / "report.html" and report.is_file()
    assert page.startswith("<!DOCTYPE html>")
    low = page.lower()
    for forbidden in ('src="http', "src='http", 'href="http', "<script", "<link", "url(", "@import", "<iframe"):
        assert forbidden not in low, forbidden
    # report_plots = "corpus" (the default): no PNG at all, embedded or written; figures are
    # an inline SVG (valid XML) and CSS-coloured tables.
    parsed = _parse(page)
    assert not [attrs for tag, attrs in parsed.tags if tag == "img"]
    assert not (report.parent / "plots").exists()
    svgs = re.findall(r"<svg\b.*?</svg>", page, re.S)
    assert len(svgs) == 1
    dots = ElementTree.fromstring(svgs[0])
    marks = [el for el in dots.iter() if el.tag.endswith(("circle", "rect"))]
    assert len(marks) >= 2 * len(outcome.results)  # S_f and S_f^B of each pair (+ the legend)
    assert len(page.encode()) < 150_000
    # The heat map shows exactly the agreement counts of every window of every speaker.
    result = outcome.results[0]
    fig = plots.figure_data(result)
    window = fig["window"]
    expected = []
    for track in result["tracks"].values():
        agree, bound, _ = plots.agreement_windows(track["a"], track["b"], window)
        expected += [f"{a}/{b} agree" for a, b in zip(agree, bound, strict=True) if b]
    heat = page[page.index('id="pair-0-agreement"') : page.index('id="operations"')]
    assert re.findall(r'class="q\d+" title="([^"]+)"', heat) == expected
    # Operation bars: one per (A's type, B's type, operation), counts equal the operation rows'.
    ops = page[page.index('id="pair-0-operations"') : page.index('id="confusion"')]
    shown = sorted(int(n) for n in re.findall(r'</td><td class="num">(\d+)</td><td class="barcell">', ops))
    assert shown == sorted(plots.operation_counts(result["operation_rows"]).values())
    for anchor in re.findall(r'href="#([^"]+)"', page):
        assert f'id="{anchor}"' in page


def test_all_plots_are_written_as_files_and_linked(rich_run: tuple[Path, RunOutcome, str]) -> None:
    report, outcome, page = rich_run
    images = [attrs for tag, attrs in _parse(page).tags if tag == "img"]
    pairs = [r for r in outcome.results if r.get("ok")]
    assert len(images) == 3 * len(pairs)  # agreement, operations, confusion per pair
    assert "data:" not in page  # linked, never embedded
    for attrs in images:
        assert attrs["src"].startswith("plots/") and attrs.get("alt") and attrs["loading"] == "lazy"
        png = (report.parent / attrs["src"]).read_bytes()
        pixels = imread(io.BytesIO(png), format="png")
        assert pixels.shape[0] == int(attrs["height"]) and pixels.shape[1] == int(attrs["width"])
        assert pixels.shape[0] > 100 and pixels.shape[1] > 300
        assert float(np.std(pixels[..., :3])) > 0.05  # not a blank canvas
    assert (report.parent / "plots" / "scores.png").is_file()


def test_every_section_heading_is_present(sample_run: tuple[Path, RunOutcome, str]) -> None:
    _, _, page = sample_run
    h2 = [text for tag, text in _parse(page).headings if tag == "h2"]
    assert h2 == SECTIONS  # in this order; no subtitle section without subtitle results
    assert "<h1>Segmentation agreement report</h1>" in page
    assert "sf|mode:optimal|scheme:dubois@" in page  # the signature, in the header and settings


@pytest.mark.parametrize("which", ["sample_run", "rich_run"])
def test_numbers_equal_the_summary(which: str, request: pytest.FixtureRequest) -> None:
    report, outcome, page = request.getfixturevalue(which)
    summary = _summary_values(report.parent)
    cells = {
        attrs["data-key"]: (float(attrs["data-value"]), text)
        for attrs, text in _parse(page).cells
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
    expected = {k for k in summary if k.rsplit("|", 1)[1] in ("sf", "sf_b", "n_tokens", "cost", "edits")}
    if KAPPA:
        expected |= {k for k in summary if k.rsplit("|", 1)[1] in ("kappa_sf", "kappa_sf_b")}
    assert expected <= set(cells), sorted(expected - set(cells))[:5]
    pooled = {r["text"]: r["value"] for r in outcome.rows if r["speaker"] == "ALL" and r["metric"] == "sf"}
    assert pooled and all(cells[f"{t}|ann1|ann2|ALL|sf"][0] == v for t, v in pooled.items())


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
    _, outcome, page = rich_run
    market = next(r for r in outcome.results if r["text"] == "market")
    n = len(market["compare"]["mismatches"])
    assert n >= 2
    spans = {a["data-mismatches"]: t for a, t in _parse(page).cells if "data-mismatches" in a}
    assert spans == {"market|ann1|ann2": str(n)}
    assert "<td>tomatos</td>" in page and "<td>really</td>" in page
    failure = next(r for r in outcome.results if not r["ok"])
    assert failure["text"] == "broken"
    assert failure["error"] in html.unescape(page) and "['BEN']" not in page  # escaped
    assert "lonely: only one annotator" in page
    assert "1 failed pair" in page and "1 skipped" in page


def test_subtitle_hook_and_escaping(sample_run: tuple[Path, RunOutcome, str], tmp_path: Path) -> None:
    _, outcome, _ = sample_run
    results = copy.deepcopy(outcome.results)
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
    assert "<script" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;b&gt;evil&lt;/b&gt;" in page and "x&amp;y" in page


# ---------------------------------------------------------------------------------------------- helpers


def test_bootstrap_helper() -> None:
    one = plots.bootstrap_over_texts({"t": (3.0, 100.0)})
    assert (one.estimate, one.low, one.high, one.note) == (0.97, None, None, "no interval: a single text")
    stats = {"a": (1.0, 100.0), "b": (10.0, 100.0), "c": (5.0, 50.0)}
    first = plots.bootstrap_over_texts(stats, seed=7)
    assert first == plots.bootstrap_over_texts(stats, seed=7)  # seeded
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


def _browser() -> str:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no chromium or chromium-browser executable on PATH (apt-get install chromium)")


def test_report_renders_in_headless_chromium(rich_run: tuple[Path, RunOutcome, str], tmp_path: Path) -> None:
    browser = _browser()
    report, _, page = rich_run
    n_images = page.count("<img ")
    shot = tmp_path / "report.png"
    base = [browser, *BROWSER_FLAGS]
    done = subprocess.run(
        [
            *base,
            f"--user-data-dir={tmp_path / 'profile1'}",
            "--window-size=1280,2400",
            f"--screenshot={shot}",
            report.resolve().as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    pixels = imread(shot)
    assert pixels.shape[:2] == (2400, 1280)
    assert float(np.std(pixels[..., :3])) > 0.1  # not blank
    assert np.allclose(pixels[5, 5, :3], np.array([0x00, 0x33, 0x6F]) / 255, atol=0.03)  # the header's CSS applied

    # A test-only copy of the page with a probe script (the report itself has none) reports how
    # every image (the PNGs under plots/, loaded eagerly here) decoded and the SVG's size;
    # --dump-dom prints the DOM after the load event.
    probe = (
        "<script>window.__errors = [];window.addEventListener('error', e => window.__errors.push(String(e.message)));"
        "window.addEventListener('load', () => {const p = document.createElement('pre'); p.id = 'probe';"
        "p.textContent = JSON.stringify({errors: window.__errors, images: Array.from(document.images)"
        ".map(i => [i.complete, i.naturalWidth, i.naturalHeight]), svgs: Array.from(document.querySelectorAll('svg'))"
        ".map(s => [s.getBBox().width, s.getBBox().height])}); document.body.appendChild(p);});</script>"
    )
    wrapper = report.parent / "probe.html"  # next to the report: the images are relative to it
    eager = page.replace('loading="lazy"', 'loading="eager"')
    wrapper.write_text(eager.replace("</body>", probe + "</body>", 1), encoding="utf-8")
    done = subprocess.run(
        [
            *base,
            f"--user-data-dir={tmp_path / 'profile2'}",
            "--virtual-time-budget=10000",
            "--dump-dom",
            wrapper.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    assert "Segmentation agreement report" in dom
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, "the probe did not run: " + dom[-500:]
    state: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    assert state["errors"] == []
    assert len(state["images"]) == n_images >= 6
    assert all(complete and width > 0 and height > 0 for complete, width, height in state["images"]), state
    assert len(state["svgs"]) == 1 and all(w > 300 and h > 30 for w, h in state["svgs"]), state
