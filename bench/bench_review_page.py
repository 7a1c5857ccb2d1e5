"""Benchmark: the review page of a 1,300-unit SBCSAE text.

Input: ../shared/corpora/chat/sbcsae_03.cha (1,454 intonation units, 4,726 words, 26 minutes; skipped
with a message when absent) as annotator A, and a seeded perturbation of it as annotator B (15% of
A's boundaries deleted, moved by one word or retyped; 3% new ones), written as CHAT. The
recording is a generated WAV as long as the text (a tone, 8 kHz mono), given with --media.

Measures, printed with the load average:

* building the page: the whole `segagree review A B -o TEXT.html` command (wall, and CPU of the
  process), without and with the recording, and each page's size (goal: at most 2 MB without media);
* opening it in headless Chromium (tests/browser.py): navigation to the load event, the page's own
  script having rendered every row (goal: under 1 s);
* playing: a trusted key press (space) on a row to the media element's ``playing`` event, both
  stamped inside the page (``performance.now()``), over --plays rows (goal: every one under 200 ms).

    .venv/bin/python bench/bench_review_page.py [--plays 20]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT.parent / "shared" / "corpora" / "chat" / "sbcsae_03.cha"
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))


def _perturbed(a_path: Path, b_path: Path) -> int:
    """Write annotator B (see the module docstring); return A's units."""
    from segagree.formats import read_document, write_document
    from segagree.model import Layer

    doc = read_document(a_path)
    lay = doc.layer("iu")
    codes = lay.boundaries.copy()
    rng = np.random.default_rng(30)
    last = {int(rows[-1]) for rows in doc.speaker_rows().values()}
    types = [c for c in np.unique(codes) if c != 0]
    for i in np.flatnonzero(codes):
        if int(i) in last or rng.random() >= 0.15:
            continue
        what = rng.integers(3)
        if what == 0:
            codes[i] = 0
        elif (
            what == 1
            and i + 1 < len(codes)
            and codes[i + 1] == 0
            and doc.column("speaker")[i + 1] == doc.column("speaker")[i]
        ):
            codes[i + 1], codes[i] = codes[i], 0
        else:
            codes[i] = rng.choice(types)
    for i in np.flatnonzero(codes == 0):
        if rng.random() < 0.03:
            codes[i] = rng.choice(types)
    write_document(doc.replace(layers={**doc.layers, "iu": Layer("iu", lay.scheme, codes)}), b_path)
    return len(doc.units("iu"))


def _tone(path: Path, seconds: float) -> None:
    import soundfile

    rate = 8000
    t = np.arange(int(rate * seconds)) / rate
    soundfile.write(str(path), (0.3 * np.sin(2 * np.pi * 200 * t) * (1 + np.sin(t))).astype(np.float32) / 2, rate)


def _review(a: Path, b: Path, out: Path, *extra: str) -> tuple[float, float]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "segagree", "review", str(a), str(b), "-o", str(out), *extra],
        capture_output=True,
        text=True,
        env=env,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"segagree review failed: {done.stderr[-800:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


PROBE = """(() => {
  const m = segagreeReview.media();
  window.__k = null; window.__p = null;
  document.addEventListener('keydown', () => { if (window.__k === null) window.__k = performance.now(); }, true);
  m.addEventListener('playing', () => { if (window.__p === null) window.__p = performance.now(); });
  return 1;
})()"""


def _plays(browser: object, rows: list[dict[str, object]], n: int) -> list[float]:
    """Milliseconds from a space press to ``playing``, for ``n`` rows spread over the text."""
    timed = [r for r in rows if r["start"] is not None]
    picks = [timed[int(i)] for i in np.linspace(0, len(timed) - 1, n)]
    out = []
    for row in picks:
        browser.eval(
            f"segagreeReview.media().pause(); segagreeReview.go({row['id']}); window.__k = window.__p = null; 1"
        )  # type: ignore[attr-defined]
        browser.key(" ")  # type: ignore[attr-defined]
        deadline = time.monotonic() + 5
        while browser.eval("window.__p") is None and time.monotonic() < deadline:  # type: ignore[attr-defined]
            time.sleep(0.01)
        out.append(float(browser.eval("window.__p - window.__k")))  # type: ignore[attr-defined]
    browser.eval("segagreeReview.media().pause(); 1")  # type: ignore[attr-defined]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plays", type=int, default=20)
    args = ap.parse_args()
    if not SOURCE.exists():
        print(f"skipped: {SOURCE} is absent (the third-party corpora live in ../shared)")
        return
    from browser import Browser, find_browser

    print(f"load average at start: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        a, b = tmp / "sbcsae_03.a.cha", tmp / "sbcsae_03.b.cha"
        a.write_bytes(SOURCE.read_bytes())
        units = _perturbed(a, b)
        from segagree.formats import read_document

        seconds = float(np.nanmax(read_document(a).column("end"))) + 2
        _tone(tmp / "sbcsae_03.wav", seconds)
        plain, with_media = tmp / "plain.html", tmp / "media.html"
        wall, cpu = _review(a, b, plain)
        size = plain.stat().st_size / 1e6
        print(f"A: {units} units; page without media: {size:.3f} MB, built in {wall:.2f} s wall, {cpu:.2f} s CPU")
        wall, cpu = _review(a, b, with_media, "--media", str(tmp / "sbcsae_03.wav"))
        size = with_media.stat().st_size / 1e6
        print(f"page with media (peaks embedded): {size:.3f} MB, built in {wall:.2f} s wall, {cpu:.2f} s CPU")
        path = find_browser()
        if path is None:
            print("no chromium on PATH: the browser timings are skipped")
            return
        with Browser(path) as browser:
            opens = []
            for page in (plain, with_media) * 3:
                load = browser.open(page.as_uri())
                script = browser.eval("segagreeReview.renderMs") / 1000
                opens.append((page.name, load, script))
                assert browser.errors() == [], browser.errors()
            rows = browser.eval("segagreeReview.rows()")
            print(f"rows: {len(rows)}; navigation to load event / the page script's rendering (s):")
            for name, load, script in opens:
                print(f"  {name}: {load:.3f} / {script:.3f}")
            browser.eval(PROBE)
            plays = _plays(browser, rows, args.plays)
            print(
                f"key press to playing (ms) over {len(plays)} rows: median {statistics.median(plays):.1f}, "
                f"max {max(plays):.1f}; the first (cold decoder) {plays[0]:.1f}, the rest at most {max(plays[1:]):.1f}"
            )
            print("  each: " + " ".join(f"{p:.0f}" for p in plays))
            print(f"requests: {sorted(set(browser.requests()))}")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
