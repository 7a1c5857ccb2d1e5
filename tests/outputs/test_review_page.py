"""The review page: its rows are the workbook's, it plays each row's span of the
recording and stops at its end, keeps decisions across a reload, exports them so that adjudicate
writes the same gold file as from the workbook, and works offline without errors.

The browser tests drive headless Chromium over the DevTools protocol (tests/browser.py) and are
skipped with the reason when no chromium is on PATH. The recording is a generated WAV (a tone
whose loudness changes every second, so the waveform peaks can be checked against numpy).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
import soundfile
from browser import Browser, find_browser
from click.testing import CliRunner

from segagree.adjudication.tokens import adjudicate
from segagree.cli import app
from segagree.errors import SegagreeError
from segagree.files.media import find_media, waveform_peaks
from segagree.formats import read_document, write_document
from segagree.model import builtin_scheme, from_units
from segagree.outputs.review_page import page_data

# One worker: the module's browser and built pages are module fixtures, started and built once
# (spread over the workers, each worker that ran one of its tests started a Chromium of its own).
pytestmark = pytest.mark.xdist_group("review-page")

RATE = 8000
SECONDS = 14.0
SCHEME = builtin_scheme("dubois")
# (speaker, words, endnote, start, end): annotator A; B differs in three places
UNITS_A = [
    ("ROSA", "so I went out to the garden", ",", 0.5, 2.5),
    ("ROSA", "this morning", ",", 2.8, 3.9),
    ("ROSA", "and the tomatoes were all gone", ".", 4.2, 6.4),
    ("BEN", "gone like eaten by something in the night", "?", 6.8, 9.3),
    ("ROSA", "eaten", ",", 9.6, 10.4),
    ("ROSA", "pulled up", ".", 10.8, 11.8),
]


def _units_b() -> list[tuple[str, str, str, float, float]]:
    a = UNITS_A
    return [
        ("ROSA", a[0][1] + " " + a[1][1], ",", 0.5, 3.9),  # one boundary fewer
        a[2],
        ("BEN", "gone like", ",", 6.8, 7.4),  # one more
        ("BEN", "eaten by something in the night", "?", 7.4, 9.3),
        a[4],
        ("ROSA", "pulled up", "?", 10.8, 11.8),  # another type
    ]


def _doc(units: list[tuple[str, str, str, float, float]], meta: dict[str, Any] | None = None) -> Any:
    rows = [
        {"speaker": s, "tokens": w.split(), "boundary": SCHEME.find_code(e), "start": a, "end": b}
        for s, w, e, a, b in units
    ]
    return from_units("talk", rows, layer="iu", scheme=SCHEME, speakers=["ROSA", "BEN"], meta=meta or {})


def _tone(path: Path) -> None:
    """A 220 Hz tone whose amplitude steps through 0.1..0.9 second by second."""
    t = np.arange(int(RATE * SECONDS)) / RATE
    amplitude = 0.1 + 0.8 * ((np.floor(t) % 5) / 4)
    soundfile.write(str(path), (amplitude * np.sin(2 * np.pi * 220 * t)).astype(np.float32), RATE)


def _chat(units: list[tuple[str, str, str, float, float]], media: str) -> str:
    lines = ["@UTF8", "@Begin", "@Languages:\teng", "@Participants:\tROSA Rosa Speaker, BEN Ben Speaker"]
    lines += ["@ID:\teng|test|ROSA|||||Speaker|||", "@ID:\teng|test|BEN|||||Speaker|||", f"@Media:\t{media}, audio"]
    for s, w, e, a, b in units:
        lines.append(f"*{s}:\t{w} {e} \x15{round(a * 1000)}_{round(b * 1000)}\x15")
    return "\n".join([*lines, "@End", ""])


def _make_case(kind: str, root: Path, with_media: bool) -> dict[str, Any]:
    """Files of one case; returns the review command's arguments (without -o)."""
    root.mkdir(parents=True, exist_ok=True)
    if with_media:
        _tone(root / "tone.wav")
    descriptor = [
        {"MEDIA_URL": "file:///elsewhere/tone.wav", "MIME_TYPE": "audio/x-wav", "RELATIVE_MEDIA_URL": "./tone.wav"}
    ]
    if kind == "eaf":
        for name, units in (("a", UNITS_A), ("b", _units_b())):
            write_document(_doc(units, {"media_descriptors": descriptor}), root / f"talk.{name}.eaf")
        return {"args": [str(root / "talk.a.eaf"), str(root / "talk.b.eaf")]}
    if kind == "chat":
        for name, units in (("a", UNITS_A), ("b", _units_b())):
            (root / f"talk.{name}.cha").write_text(_chat(units, "tone"), encoding="utf-8")
        return {"args": [str(root / "talk.a.cha"), str(root / "talk.b.cha")]}
    if kind == "textgrid":
        for name, units in (("a", UNITS_A), ("b", _units_b())):
            write_document(_doc(units), root / f"talk.{name}.TextGrid")
        return {
            "args": [str(root / "talk.a.TextGrid"), str(root / "talk.b.TextGrid"), "--media", str(root / "tone.wav")]
        }
    if kind == "gamma":
        # One ELAN file, one tier per annotator (kim, lee), with the media descriptor.
        kim = [("kim", w, e, a, b) for _, w, e, a, b in UNITS_A]
        lee = [("lee", w, e, a, b) for _, w, e, a, b in _units_b()]
        rows = [
            {"speaker": s, "tokens": w.split(), "boundary": SCHEME.find_code(e), "start": a, "end": b}
            for s, w, e, a, b in kim + lee
        ]
        doc = from_units(
            "talk", rows, layer="iu", scheme=SCHEME, speakers=["kim", "lee"], meta={"media_descriptors": descriptor}
        )
        write_document(doc, root / "talk.eaf")
        return {
            "args": ["--time", str(root / "talk.eaf"), "--annotator-tier", "kim", "--annotator-tier", "lee"],
            "time": True,
        }
    raise AssertionError(kind)


CASES = ["eaf", "chat", "textgrid", "gamma"]


def _review(args: list[str], output: Path) -> None:
    done = CliRunner().invoke(app, ["review", *args, "-o", str(output)])
    assert done.exit_code == 0, done.output


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, bool], dict[str, Any]]:
    """Every case with and without its recording: the page and the workbook of the same review."""
    out = {}
    for kind in CASES:
        for with_media in (True, False):
            root = tmp_path_factory.mktemp(f"{kind}-{'media' if with_media else 'none'}")
            case = _make_case(kind, root, with_media)
            _review(case["args"], root / "talk.review.html")
            _review([a for a in case["args"] if not a.endswith(".wav") and a != "--media"], root / "talk.review.xlsx")
            out[(kind, with_media)] = {
                **case,
                "root": root,
                "page": root / "talk.review.html",
                "workbook": root / "talk.review.xlsx",
            }
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    path = find_browser()
    if path is None:
        pytest.skip("no chromium or chromium-browser executable on PATH (apt-get install chromium)")
    with Browser(path) as b:
        yield b


def _workbook_rows(path: Path, time_review: bool, sheet: str = "Operations") -> list[tuple[int, str]]:
    wb = openpyxl.load_workbook(path, read_only=True)
    ws = wb["Alignment" if time_review else sheet]
    table = list(ws.iter_rows(values_only=True))
    head = list(table[0])
    id_col, kind_col = (
        (head.index("group"), head.index("kind")) if time_review else (head.index("row id"), head.index("operation"))
    )
    rows = [(int(r[id_col]), str(r[kind_col])) for r in table[1:] if r[id_col] is not None]
    wb.close()
    return rows


def _open(browser: Browser, page: Path) -> None:
    browser.events.clear()
    browser.open(page.as_uri())
    browser.eval("localStorage.clear()")
    browser.reload()


def _offline(browser: Browser, case: dict[str, Any]) -> None:
    """No console error, and no request but the page and its recording (file: URLs)."""
    assert browser.errors() == []
    allowed = {case["page"].as_uri(), (case["root"] / "tone.wav").as_uri()}
    assert set(browser.requests()) <= allowed, browser.requests()


# --- without a browser -------------------------------------------------------------------------


def test_media_is_found_from_each_format(tmp_path: Path) -> None:
    eaf = _make_case("eaf", tmp_path / "eaf", True)
    assert find_media(read_document(eaf["args"][0])).path == (tmp_path / "eaf" / "tone.wav").resolve()
    chat = _make_case("chat", tmp_path / "chat", True)
    info = find_media(read_document(chat["args"][0]))
    assert (info.path, info.source) == ((tmp_path / "chat" / "tone.wav").resolve(), "CHAT @Media")
    missing = find_media(read_document(_make_case("chat", tmp_path / "gone", False)["args"][0]))
    assert missing.path is None and "CHAT @Media" in missing.note and "tone.wav" in missing.note
    trs = tmp_path / "t.trs"
    trs.write_text(
        '<?xml version="1.0"?><Trans audio_filename="tone"><Speakers><Speaker id="s1" name="A"/></Speakers>'
        '<Episode><Section type="report" startTime="0" endTime="2"><Turn speaker="s1" startTime="0" endTime="2">'
        '<Sync time="0"/>hello there .</Turn></Section></Episode></Trans>',
        encoding="utf-8",
    )
    (tmp_path / "tone.wav").write_bytes((tmp_path / "eaf" / "tone.wav").read_bytes())
    assert find_media(read_document(trs)).path == (tmp_path / "tone.wav").resolve()
    tg = tmp_path / "x.TextGrid"
    write_document(_doc(UNITS_A), tg)
    assert "names no recording" in find_media(read_document(tg)).note
    assert find_media(None, tmp_path / "nothing.wav").note.startswith("the recording given with --media does not exist")


def test_media_of_exmaralda_prefers_the_audio(tmp_path: Path) -> None:
    from conftest import shared_path

    exb = tmp_path / "AnneWill.exb"
    exb.write_bytes(shared_path("corpora", "exmaralda", "exmaralda_AnneWill.exb").read_bytes())
    doc = read_document(exb)
    assert "missing" in find_media(doc).note and "AnneWill.wav" in find_media(doc).note
    (tmp_path / "AnneWill_web.mp4").write_bytes(b"")  # listed first, but a video
    _tone(tmp_path / "AnneWill.wav")
    info = find_media(doc)
    assert (info.path, info.source) == ((tmp_path / "AnneWill.wav").resolve(), "EXMARaLDA referenced-file")


def test_waveform_peaks_are_the_windows_maxima(tmp_path: Path) -> None:
    _tone(tmp_path / "tone.wav")
    peaks, seconds, note = waveform_peaks(tmp_path / "tone.wav")
    samples, rate = soundfile.read(str(tmp_path / "tone.wav"), dtype="float32")
    window = round(seconds * rate)
    expected = np.abs(samples[: len(samples) // window * window]).reshape(-1, window).max(axis=1)
    expected = np.rint(expected / expected.max() * 255)
    assert note == "" and len(peaks) == len(expected) and np.array_equal(np.array(peaks), expected)
    bad = tmp_path / "bad.wav"
    bad.write_bytes(b"RIFF not audio")
    assert waveform_peaks(bad)[0] == [] and "cannot be read as audio" in waveform_peaks(bad)[2]


def test_page_is_self_contained_and_escapes_the_annotation(tmp_path: Path) -> None:
    nasty = [(s, w, e, a, b) for s, w, e, a, b in UNITS_A]
    nasty[2] = ("ROSA", "</script><script>window.pwned=1</script> & <img src=x onerror=alert(1)>", ".", 4.2, 6.4)
    b = list(nasty)
    b[0], b[1] = ("ROSA", nasty[0][1] + " " + nasty[1][1], ",", 0.5, 3.9), None
    write_document(_doc(nasty), tmp_path / "n.a.eaf")
    write_document(_doc([u for u in b if u]), tmp_path / "n.b.eaf")
    _review([str(tmp_path / "n.a.eaf"), str(tmp_path / "n.b.eaf")], tmp_path / "n.html")
    page = (tmp_path / "n.html").read_text(encoding="utf-8")
    assert "window.pwned" in page and "<script>window.pwned" not in page and "<img" not in page
    for forbidden in ("http://", "https://", "<script src", "<link", "@import", "url("):
        assert forbidden not in page.replace("http://www.w3.org", "")
    assert page_data(tmp_path / "n.html")["pairs"][0]["units"][0][2][1][0] == "</script><script>window.pwned=1</script>"


def test_media_and_margin_with_a_workbook_are_reported(tmp_path: Path) -> None:
    case = _make_case("eaf", tmp_path, True)
    done = CliRunner().invoke(app, ["review", *case["args"], "-o", str(tmp_path / "r.xlsx"), "--margin", "2"])
    assert done.exit_code == 0 and "--margin applies to the review page" in done.output
    done = CliRunner().invoke(app, ["review", *case["args"], "-o", str(tmp_path / "r.html"), "--margin", "-1"])
    assert done.exit_code == 2 and "--margin" in done.output


def test_decisions_file_checks_the_sources(tmp_path: Path) -> None:
    case = _make_case("eaf", tmp_path, True)
    _review(case["args"], tmp_path / "r.html")
    data = page_data(tmp_path / "r.html")
    pair = data["pairs"][0]
    decisions = {
        "format": "segagree review decisions",
        "format_version": 1,
        "kind": "tokens",
        "text": "talk",
        "sheet": pair["sheet"],
        "source": pair["source"],
        "settings": data["settings"],
        "scheme": data["scheme"],
        "rows": [
            {
                **dict(zip(pair["technical"], r["t"], strict=True)),
                **{"row_id": r["id"], "speaker": r["speaker"], "op": r["kind"], "cost": r["cost"]},
                **{"type_a": r["types"][0], "type_b": r["types"][1], "decision": "B", "comment": ""},
            }
            for r in pair["rows"]
        ],
    }
    path = tmp_path / "r.decisions.json"
    path.write_text(json.dumps(decisions), encoding="utf-8")
    report = adjudicate(path, tmp_path / "gold.eaf")
    assert report.applied["B"] == len(pair["rows"]) == 3 and report.undecided == []
    gold, b = read_document(tmp_path / "gold.eaf"), read_document(case["args"][1])
    assert np.array_equal(gold.layer("iu").boundaries, b.layer("iu").boundaries)  # all B: B's annotation
    # a deleted row is refused as in a workbook; a changed source too
    decisions["rows"] = decisions["rows"][1:]
    path.write_text(json.dumps(decisions), encoding="utf-8")
    with pytest.raises(SegagreeError, match="deleted or blanked"):
        adjudicate(path, tmp_path / "gold2.eaf")
    Path(case["args"][0]).write_text(Path(case["args"][0]).read_text(encoding="utf-8") + "\n", encoding="utf-8")
    with pytest.raises(SegagreeError, match="changed since the workbook was written"):
        adjudicate(path, tmp_path / "gold3.eaf")
    path.write_text('{"format": "something else"}', encoding="utf-8")
    with pytest.raises(SegagreeError, match="not a segagree decisions file"):
        adjudicate(path, tmp_path / "gold4.eaf")


# --- in the browser ----------------------------------------------------------------------------


@pytest.mark.parametrize("with_media", [True, False], ids=["media", "no-media"])
@pytest.mark.parametrize("kind", CASES)
def test_rows_equal_the_workbook_and_playback(
    built: dict[tuple[str, bool], dict[str, Any]], browser: Browser, kind: str, with_media: bool
) -> None:
    case = built[(kind, with_media)]
    _open(browser, case["page"])
    rows = browser.eval("JSON.stringify(segagreeReview.rows())")
    rows = json.loads(rows)
    expected = _workbook_rows(case["workbook"], bool(case.get("time")))
    assert [(r["id"], r["kind"]) for r in rows] == expected and len(rows) >= 3
    assert all(r["start"] is not None and r["end"] > r["start"] for r in rows)  # every case here is timed
    if not with_media:
        assert browser.eval("segagreeReview.media() === null") is True
        message = browser.eval(f"segagreeReview.play({rows[0]['id']}).then(() => 'played', e => String(e.message))")
        assert "recording" in message and any(w in message for w in ("missing", "does not exist"))
        note = browser.eval("document.getElementById('sgr-media-note').textContent")
        assert note == message
    else:
        row = max(rows, key=lambda r: r["end"] - r["start"])
        margin = 1.0
        started = json.loads(browser.eval(f"segagreeReview.play({row['id']}).then(r => JSON.stringify(r))"))
        assert started["from"] == pytest.approx(max(0, row["start"] - margin))
        assert started["currentTime"] == pytest.approx(started["from"], abs=0.15)
        deadline = time.monotonic() + (row["end"] - row["start"]) + 2 * margin + 10
        while browser.eval("segagreeReview.media().paused") is False and time.monotonic() < deadline:
            time.sleep(0.1)
        stopped = browser.eval("segagreeReview.media().currentTime")
        assert row["end"] + margin <= stopped <= row["end"] + margin + 0.3
    _offline(browser, case)


@pytest.mark.parametrize("kind", ["eaf", "gamma"])
def test_key_decisions_survive_a_reload(
    built: dict[tuple[str, bool], dict[str, Any]], browser: Browser, kind: str
) -> None:
    case = built[(kind, True)]
    _open(browser, case["page"])
    browser.key("2")  # the first row: the second choice
    browser.key("j")
    browser.key("j")
    browser.key("1")
    browser.key("k")
    browser.key("u")  # the second row: decided, then undone
    browser.key("j")
    before = json.loads(browser.eval("JSON.stringify(segagreeReview.rows())"))
    choices = ["B", "A"] if kind == "eaf" else ["lee", "kim"]
    assert [r["decision"] for r in before[:3]] == [choices[0], None, choices[1]]
    browser.reload()
    after = json.loads(browser.eval("JSON.stringify(segagreeReview.rows())"))
    assert after == before
    # Enter plays the current row; moving to another row stops it (each row plays its own span)
    browser.key("Enter")
    deadline = time.monotonic() + 10
    while browser.eval("segagreeReview.media().paused") and time.monotonic() < deadline:
        time.sleep(0.05)
    first = before[0]
    assert browser.eval("segagreeReview.media().paused") is False
    assert first["start"] - 1.0 - 0.01 <= browser.eval("segagreeReview.media().currentTime") <= first["end"] + 1.0
    browser.key("j")
    assert browser.eval("segagreeReview.media().paused") is True
    assert "decide" in browser.eval("document.getElementById('sgr-keylist').textContent")
    _offline(browser, case)


@pytest.mark.parametrize("kind", CASES)
def test_exported_decisions_give_the_workbooks_gold_file(
    built: dict[tuple[str, bool], dict[str, Any]], browser: Browser, kind: str, tmp_path: Path
) -> None:
    case = built[(kind, False)]
    _open(browser, case["page"])
    rows = json.loads(browser.eval("JSON.stringify(segagreeReview.rows())"))
    time_review = bool(case.get("time"))
    cycle = ["kim", "lee", "none", "edit"] if time_review else ["B", "A", "other", "B"]
    decided = {}
    members = {r["id"]: r.get("members") for r in page_data(case["page"])["pairs"][0]["rows"]}
    for n, r in enumerate(rows):
        choice = cycle[n % len(cycle)]
        if time_review and choice in ("kim", "lee") and members[r["id"]][cycle.index(choice)] is None:
            choice = "lee" if choice == "kim" else "kim"  # the annotator who has a unit in the group
        extra = ", {start: 1.25, end: 2.5, category: 'fixed .'}" if choice == "edit" else ""
        browser.eval(f"segagreeReview.decide({r['id']}, {json.dumps(choice)}{extra}) && 1")
        decided[r["id"]] = (choice, (1.25, 2.5, "fixed .") if choice == "edit" else None)
    # the export, saved beside the workbook with the workbook's name stem (adjudicate --time names the gold after it)
    exported = case["root"] / "talk.review.json"
    exported.write_text(browser.eval("segagreeReview.exportDecisions()"), encoding="utf-8")
    filled = case["root"] / "talk.review.filled.xlsx"
    _fill_workbook(case["workbook"], filled, decided, time_review)
    # the gold in the base's format (an EAF written from another format carries the time it was written)
    suffix = ".TextGrid" if time_review else Path(case["args"][0]).suffix
    gold_page, gold_book = tmp_path / f"page{suffix}", tmp_path / f"book{suffix}"
    for source, gold in ((exported, gold_page), (filled, gold_book)):
        done = CliRunner().invoke(app, ["adjudicate", str(source), "-o", str(gold)])
        assert done.exit_code == 0, done.output
    if time_review:  # the gold tier's document is named after the review file
        assert gold_page.read_bytes() == gold_book.read_bytes().replace(b"talk.review.filled", b"talk.review")
    else:
        assert gold_page.read_bytes() == gold_book.read_bytes()
    gold = read_document(gold_page)
    if not time_review:  # the decisions were applied: B's boundaries where B was chosen
        assert not np.array_equal(gold.layer("iu").boundaries, read_document(case["args"][0]).layer("iu").boundaries)
    else:  # kim's, lee's and the edited units on the reference annotator's tier (kim), none for 'none';
        # the other annotator's tier stays as it was
        on_tier = [u.speaker for u in gold.units("iu")]
        assert on_tier.count("kim") == sum(c != "none" for c, _ in decided.values())
        assert on_tier.count("lee") == len(_units_b())
    _offline(browser, case)


def _fill_workbook(source: Path, target: Path, decided: dict[int, tuple[str, Any]], time_review: bool) -> None:
    wb = openpyxl.load_workbook(source)
    ws = wb["Alignment" if time_review else "Operations"]
    head = [c.value for c in ws[1]]
    id_col = head.index("group" if time_review else "row id") + 1
    for r in range(2, ws.max_row + 1):
        row_id = ws.cell(r, id_col).value
        if row_id is None:
            continue
        choice, edit = decided[int(row_id)]
        ws.cell(r, head.index("decision") + 1, choice)
        if edit:
            for key, value in zip(("gold start", "gold end", "gold category"), edit, strict=True):
                ws.cell(r, head.index(key) + 1, value)
    wb.save(target)


# --- the run report's text pages ---------------------------------------------------------------


def test_run_text_pages_carry_the_review_part(tmp_path: Path, browser: Browser) -> None:
    from segagree.api.run_corpus import run_corpus
    from segagree.corpus.config import RunConfig

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    third = [*UNITS_A[:5], ("ROSA", "pulled up", "--", 10.8, 11.8)]
    for name, units in (("ann1", UNITS_A), ("ann2", _units_b()), ("ann3", third)):
        write_document(_doc(units), corpus / f"talk.{name}.eaf")
    config = RunConfig()
    config.kappa.enabled = False
    assert not config.review_pages  # off by default (run budget): --review-pages turns it on
    config.review_pages = True
    run_corpus(corpus, tmp_path / "out", config, workbooks=True, resume=False)
    page = tmp_path / "out" / "texts" / "talk.html"
    data = page_data(page)
    assert data["media"]["src"] is None and "names no recording" in data["media"]["note"]
    sheets = [p["sheet"] for p in data["pairs"]]
    assert len(sheets) == 3  # one per annotator pair, as the workbook's sheets
    browser.events.clear()
    browser.open(page.as_uri())
    assert browser.eval("segagreeReview.pairs()") == sheets
    for i, sheet in enumerate(sheets):
        browser.eval(f"segagreeReview.selectPair({i}); 1")
        rows = json.loads(browser.eval("JSON.stringify(segagreeReview.rows())"))
        assert [(r["id"], r["kind"]) for r in rows] == _workbook_rows(
            tmp_path / "out" / "review" / "talk.xlsx", False, sheet
        )
        assert json.loads(browser.eval("segagreeReview.exportDecisions()"))["sheet"] == sheet
    assert browser.errors() == [] and set(browser.requests()) == {page.as_uri()}
    config.review_pages = False  # --no-review-pages: the page is rebuilt without it
    outcome = run_corpus(corpus, tmp_path / "out", config, workbooks=False, resume=True)
    assert "texts/talk.html" in outcome.outputs["rebuilt"]
    assert "segagree-review" not in page.read_text(encoding="utf-8")


def test_a_single_pair_texts_review_part_is_built_by_its_worker(tmp_path: Path) -> None:
    # The worker that scored the pair builds the part with the operation rows at hand; the page
    # reuses it, and it is the part the page would build by scoring the pair again.
    from segagree.api.run_corpus import run_corpus
    from segagree.corpus.config import RunConfig
    from segagree.outputs.review_page import PARTS_DIR, text_review_section

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    write_document(_doc(UNITS_A), corpus / "talk.ann1.eaf")
    write_document(_doc(_units_b()), corpus / "talk.ann2.eaf")
    config = RunConfig()
    config.kappa.enabled = False
    config.review_pages = True
    outcome = run_corpus(corpus, tmp_path / "out", config, workbooks=False, resume=False)
    parts = list((tmp_path / "out" / "texts" / PARTS_DIR).glob("*.html"))
    assert len(parts) == 1 and parts[0].name.startswith(outcome.pairs[0]["key"])
    part = parts[0].read_text(encoding="utf-8")
    assert part in (tmp_path / "out" / "texts" / "talk.html").read_text(encoding="utf-8")
    parts[0].unlink()  # without it, the page's way: the pair scored again
    assert text_review_section([dict(outcome.results[0])], config, tmp_path / "out" / "texts") == part
