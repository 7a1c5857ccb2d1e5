"""A corpus run of any track, and its outputs: summary, review workbooks, report.

:func:`run_corpus` is the one run path (``segagree run``, with or without ``--time``): it takes
the output folder's lock (:mod:`segagree.corpus.lock`; a second run on the same folder
stops with an error naming the first), scores with :mod:`segagree.corpus.scheduler` (tasks,
workers, the resume log) and writes, reading the results back from the log one at a time:

* ``summary.csv`` and ``summary.json`` (one schema for every track,
  :mod:`segagree.outputs.summary`), streamed;
* one review workbook per text (``review/TEXT.xlsx``; token track), when asked for: a text with a
  single pair gets it from the worker that scored the pair (:class:`WorkbookWriter`, the
  scheduler's text hook), with the operation rows at hand; the others (and those of pairs reused
  from the log) are written afterwards, in parallel, scoring their pairs again without kappa;
* the report: ``report.html`` (the corpus overview and a table of every text) and a page per
  text under ``texts/`` (:mod:`segagree.outputs.report` for tokens,
  :mod:`segagree.outputs.time_report` for units in time).

Every output is written to a temporary file and renamed, so an interrupted run leaves the
previous complete outputs in place until the new ones replace them.

**Outputs are rebuilt only when what they show changed.** ``OUTDIR/.segagree-manifest.json``
holds a digest per output: per text, its workbook's and its report page's (the text's task keys
-- inputs' content and scoring settings --, the files' paths, the output settings and the
version); for the summary and the entry page, all tasks' keys and outcomes, the corpus, the
skipped files, the settings and the version. An output whose digest is unchanged and whose file
exists is kept. The manifest also keeps the rows pooled over texts that the summary holds, so a
rerun with nothing changed neither reads the log's records nor pools again.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from segagree.corpus.config import RunConfig
from segagree.corpus.outcome import RunOutcome, texts_of
from segagree.corpus.results_log import NOT_LOGGED, RESULTS_LOG, load_results_log, log_record
from segagree.corpus.scheduler import (
    MIN_PARALLEL_TASKS,
    plan_tasks,
    score_corpus,
    usable_cpus,
)
from segagree.errors import SegagreeError
from segagree.files.atomic import output_plan, write_text_atomic
from segagree.model.digest import json_digest
from segagree.outputs.summary import write_summary
from segagree.version import version

log = logging.getLogger(__name__)
MANIFEST = ".segagree-manifest.json"
#: Fewest workbooks worth a worker pool (each worker imports segagree: about a second).
MIN_PARALLEL_WORKBOOKS = 8


def _digest(payload: Any) -> str:
    return json_digest(payload, 16, default=str)


def _load_manifest(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def forget_outputs(outdir: Path) -> None:
    """Before a fresh run: drop the manifest, so that every output is written again."""
    path = outdir / MANIFEST
    if path.exists():
        path.unlink()


def run_corpus(
    corpus_dir: Path,
    outdir: Path,
    config: Any,
    *,
    workbooks: bool = True,
    report: bool = True,
    machines: Sequence[str] = (),
    **scoring: Any,
) -> RunOutcome:
    """Score a corpus with the track of ``config`` (:class:`~segagree.corpus.config.RunConfig`:
    tokens; :class:`~segagree.corpus.time_track.TimeConfig`: units in time) and write its
    outputs, holding the output folder's lock throughout.
    :func:`segagree.corpus.scheduler.score_corpus` takes ``scoring``: ``jobs``, ``backend``,
    ``resume``, ``progress``. ``outcome.outputs["rebuilt"]`` lists the outputs written this time.
    ``machines`` (token track): judge these annotators against the others as a panel
    (:func:`segagree.api.machine_panel.panel`), its rows in the summary and its page in the report.
    ``config.cues`` (token track): the cue profile of every text with a recording (:func:`add_cue_profile`)
    and the cue columns in its review workbook."""
    from segagree.corpus.lock import output_lock
    from segagree.corpus.scheduler import plan_corpus
    from segagree.files.atomic import remove_leftover_temporaries

    corpus, _ = plan_corpus(corpus_dir, config)  # nothing to score: an error before the folder is made
    with output_plan(outdir, inputs=annotation_files(corpus)):
        # before the folder, its lock or any temporary file in it is touched
        check_run_outputs(outdir, corpus)
        if machines:
            check_machines(corpus, machines)
        with output_lock(outdir):
            # The lock keeps every other run out of this folder: every temporary file there is a
            # killed run's, whatever its age.
            for folder in (outdir, *(outdir / sub for sub in ("review", "texts", "plots"))):
                remove_leftover_temporaries(folder)
            if not scoring.get("resume", True):
                forget_outputs(outdir)
            token = getattr(config, "track", "token") == "token"
            hook = worker_outputs(outdir, config, workbooks, report) if token else None
            outcome = score_corpus(corpus_dir, outdir, config, hook=hook, **scoring)
            panel_result = add_panel(corpus_dir, outcome, config, machines) if machines else None
            if token and getattr(config, "cues", False):
                add_cue_profile(outdir, outcome, config)
            jobs = int(scoring.get("jobs", 1))
            if scoring.get("backend", "loky") != "dask":
                jobs = min(max(jobs, 1), usable_cpus())
            write_outputs(outdir, outcome, config, jobs=jobs, workbooks=workbooks, report=report)
            # The panel's own files last: nothing the panel does can cost the run its outputs.
            _panel_files(outdir, outcome, panel_result)
            return outcome


def annotation_files(corpus: Any) -> list[Path]:
    """Every annotation file of a discovered corpus (texts with one annotator too)."""
    return [p for group in (corpus.texts, corpus.single) for by in group.values() for p in by.values()]


def check_run_outputs(outdir: Path, corpus: Any) -> None:
    """Before anything is written (in the run's output plan, whose inputs are the corpus's files:
    workers read them later): every output the run plans -- its fixed files, each text's workbook
    and page -- passes :func:`segagree.files.atomic.check_output`."""
    from segagree.corpus.lock import LOCK_NAME
    from segagree.files.atomic import check_output
    from segagree.outputs.panel import panel_paths
    from segagree.outputs.report import REPORT_NAME
    from segagree.outputs.text_pages import PAGES_DIR, PLOTS_DIR, page_name

    fixed = ("summary.csv", "summary.json", "skipped.txt", "cues.csv", RESULTS_LOG, MANIFEST, LOCK_NAME, REPORT_NAME)
    for path in (*(outdir / name for name in fixed), *panel_paths(outdir).values()):
        check_output(path)
    for text in corpus.texts:
        check_output(outdir / "review" / f"{text}.xlsx")
        check_output(outdir / PAGES_DIR / page_name(text))
    check_output(outdir / PLOTS_DIR / "scores.png")


def check_machines(corpus: Any, machines: Sequence[str]) -> None:
    """``run --machine``: refuse, before scoring, a machine no file names or a panel without two
    humans (:func:`segagree.metrics.chance.panel_frame.choose_members`)."""
    from segagree.metrics.chance.panel_frame import choose_members

    found = sorted({a for group in (corpus.texts, corpus.single) for by in group.values() for a in by})
    choose_members(found, list(machines), None)


def add_cue_profile(outdir: Path, outcome: RunOutcome, config: Any) -> None:
    """``run --cues``: the acoustic cues of every text whose recording is found (as the review finds it:
    annotator A's file's media), pooled per annotator pair over the texts into one cue profile
    (:func:`segagree.scoring.acoustics.profile.cue_profile`), written as ``cues.csv`` and
    ``plots/cues.png`` (pause and F0 reset of every pair together, agreed against disputed); the
    report shows both. The tracks are cached under ``OUTDIR/.segagree-cues``."""
    import csv
    import io

    from segagree.corpus.acoustic_cues import attach_cues, pair_points
    from segagree.corpus.outcome import texts_of
    from segagree.corpus.tasks import with_operation_rows
    from segagree.files.atomic import write_text_atomic
    from segagree.outputs.plots import cue_profile_png
    from segagree.scoring.acoustics.profile import ALL_TYPES, cue_profile

    points: list[Any] = []
    pooled: list[Any] = []
    with_cues, notes = [], []
    for text, indexes in texts_of(outcome).items():
        results = with_operation_rows([outcome.results[i] for i in indexes], config)
        attach_cues(results, config, output_dir=outdir)
        for r in results:
            if r.get("cues"):
                points += pair_points(r, f"{r['annotator_a']} / {r['annotator_b']}")
                pooled += pair_points(r, "all pairs")
                if r["cues"]["note"]:
                    notes.append(f"{text}: {r['cues']['note']}")
        if any(r.get("cues") for r in results):
            with_cues.append(text)
    if not with_cues:
        outcome.cue_profile = {
            "rows": [],
            "plot": None,
            "texts": [],
            "note": "no text names a recording that was found",
        }
        return
    rows = cue_profile(pooled) + cue_profile(points)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=["pair", "type", "category", "cue", "n", "mean", "low", "high", "note"])
    writer.writeheader()
    writer.writerows(rows)
    write_text_atomic(outdir / "cues.csv", buf.getvalue())
    shown = [r for r in rows if r["pair"] == "all pairs" and r["type"] == ALL_TYPES]
    plot = None
    if any(r["mean"] is not None for r in shown):
        from segagree.files.atomic import atomic_path

        png = cue_profile_png(shown, title="Cue profile, every pair: agreed against disputed boundaries")
        with atomic_path(outdir / "plots" / "cues.png") as tmp:
            tmp.write_bytes(png)
        plot = "plots/cues.png"
    outcome.cue_profile = {"rows": rows, "plot": plot, "texts": with_cues, "note": "; ".join(notes[:5])}
    outcome.outputs["cues"] = str(outdir / "cues.csv")


#: The machine a run's panel reads the others against (``segagree baseline``'s default annotator name).
PAUSE_BASELINE = "pause"


def add_panel(corpus_dir: Path, outcome: RunOutcome, config: Any, machines: Sequence[str]) -> Any:
    """``run --machine``: the panel of the corpus's texts, each pair read and paired as the run's
    tasks do (the same layer: ``edu`` of DISRPT files, ``subtitle`` of subtitle files), its rows
    added to the summary; returned for :func:`_panel_files`. A failure of the panel is kept as
    ``outcome.panel_error`` (the run's own outputs are still written) and returned as None.

    The panel is computed again on every run, resumed or not (it takes seconds and reads every text
    at once: its bootstrap resamples texts)."""
    from functools import partial

    from segagree.api.machine_panel import panel, time_panel
    from segagree.corpus.tasks import pair_as_run
    from segagree.outputs.panel import panel_rows

    try:
        if getattr(config, "track", "token") == "time":
            seed = config.params.get("seed")
            result = time_panel(
                corpus_dir, list(machines), None, n_boot=1000, seed=12345 if seed is None else int(seed), level=0.95,
                params=config.params, category=config.how.category, layer=None, scheme=None, format=None,
                read_options=None, speaker_map=None, how=config.how,
            )  # fmt: skip
        else:
            result = panel(
                corpus_dir,
                machines,
                seed=config.kappa.seed,
                scheme=config.load_scheme(),
                format=config.format or None,
                read_options=config.reader_options(),
                pairer=partial(pair_as_run, config),
                # the pause baseline (segagree baseline's default name) is the reference of the others
                reference=[m for m in machines if m == PAUSE_BASELINE and len(machines) > 1],
            )
    except Exception as err:  # noqa: BLE001  (any failure: reported, the run's outputs kept)
        outcome.panel_error = str(err) if isinstance(err, SegagreeError) else f"{type(err).__name__}: {err}"
        log.warning("the panel failed: %s", outcome.panel_error)
        return None
    outcome.panel = dict(result)
    columns = ("text", "speaker", "annotators", "measure", "value", "note")
    outcome.panel_rows = [{k: row[k] for k in columns} for row in panel_rows(result)]
    return result


def _panel_files(outdir: Path, outcome: RunOutcome, result: Any) -> None:
    """Write ``panel.csv``, ``panel.json`` and ``panel.html`` (a failure of that too is kept as
    ``outcome.panel_error``); without a panel this run, remove those an earlier run wrote (the
    manifest says which), so that no panel stands beside a summary without its rows."""
    from segagree.outputs.panel import panel_paths, write_panel

    manifest = outdir / MANIFEST
    data = _load_manifest(manifest)
    if result is None:
        if data.pop("panel", None):
            for path in panel_paths(outdir).values():
                path.unlink(missing_ok=True)
            write_text_atomic(manifest, json.dumps(data, indent=1, sort_keys=True) + "\n")
        return
    try:
        outcome.outputs.update(write_panel(outdir, result))
    except Exception as err:  # noqa: BLE001  (reported; the run's outputs are written)
        outcome.panel_error = str(err) if isinstance(err, SegagreeError | OSError) else f"{type(err).__name__}: {err}"
        return
    data["panel"] = sorted(panel_paths(outdir))
    write_text_atomic(manifest, json.dumps(data, indent=1, sort_keys=True) + "\n")


def run_digest(outcome: RunOutcome, config: Any) -> str:
    """What the summary and the entry page show: every task's key and outcome, the corpus, the
    skipped files, the settings, the scheme and the version."""
    corpus = outcome.corpus
    return _digest(
        [
            version(),
            config.to_dict(),
            config.digest,
            str(corpus.root),
            corpus.layout,
            corpus.skipped,
            [[r["text"], r["annotator_a"], r["annotator_b"], r["key"], r["ok"], r["error"]] for r in outcome.pairs],
            outcome.panel,
        ]
    )


class _Manifest:
    """The manifest being written: what this run wrote or found up to date (see the module docstring)."""

    def __init__(self, outdir: Path, workbooks: bool, report: bool) -> None:
        self.path = outdir / MANIFEST
        self.old = _load_manifest(self.path)
        # Outputs not written this time keep their old entries: their files are still what those
        # entries describe, so a later run that writes them again can tell whether they are current.
        self.new: dict[str, Any] = {
            "segagree": version(),
            "workbooks": {} if workbooks else dict(self.old.get("workbooks") or {}),
            "pages": {} if report else dict(self.old.get("pages") or {}),
            **({} if report or "report" not in self.old else {"report": self.old["report"]}),
            # the panel files an earlier run wrote (kept or removed after the summary: _panel_files)
            **({"panel": self.old["panel"]} if "panel" in self.old else {}),
        }
        self.rebuilt: list[str] = []

    def save(self) -> None:
        write_text_atomic(self.path, json.dumps(self.new, indent=1, sort_keys=True) + "\n")


def write_outputs(
    outdir: Path,
    outcome: RunOutcome,
    config: Any,
    *,
    jobs: int = 1,
    workbooks: bool = True,
    report: bool = True,
) -> RunOutcome:
    """Write the summary, the review workbooks (if asked) and the report of a scored run, each
    only if what it shows changed; ``outcome.outputs`` gets their paths and ``rebuilt``."""
    manifest = _Manifest(outdir, workbooks, report)
    everything = run_digest(outcome, config)
    _summary_step(outdir, outcome, config, manifest, everything)
    manifest.save()  # outputs written so far count even if a later one fails
    if workbooks and outcome.track == "token":
        outcome.outputs["workbooks"] = _write_workbooks(outdir, outcome, config, jobs, manifest)
        manifest.save()
    if report:
        _report_step(outdir, outcome, config, jobs, manifest, everything)
        manifest.save()
    _write_skipped(outdir, outcome)
    outcome.outputs["rebuilt"] = manifest.rebuilt
    return outcome


def _summary_step(outdir: Path, outcome: RunOutcome, config: Any, manifest: _Manifest, everything: str) -> None:
    files = {"summary_csv": str(outdir / "summary.csv"), "summary_json": str(outdir / "summary.json")}
    if manifest.old.get("summary") == everything and all(Path(p).is_file() for p in files.values()):
        outcome.outputs.update(files)
        if isinstance(manifest.old.get("pooled_rows"), list):  # what the summary holds: no pooling again
            outcome.__dict__["pooled_rows"] = manifest.old["pooled_rows"]
    else:
        outcome.outputs.update(write_summary(outdir, outcome))
        manifest.rebuilt.append("summary")
    manifest.new["summary"] = everything
    manifest.new["pooled_rows"] = outcome.pooled_rows  # the rows pooled over texts, for a rerun


def _report_step(
    outdir: Path, outcome: RunOutcome, config: Any, jobs: int, manifest: _Manifest, everything: str
) -> None:
    if outcome.track == "time":
        from segagree.outputs.time_report import REPORT_NAME, write_report, write_text_pages
    else:
        from segagree.outputs.report import REPORT_NAME, write_report, write_text_pages

    pages = write_text_pages(outdir, outcome, config, manifest.old.get("pages") or {}, jobs=jobs)
    manifest.new["pages"] = pages.digests
    manifest.rebuilt += pages.rebuilt
    path = outdir / REPORT_NAME
    pngs_there = getattr(config, "report_plots", "") != "all" or (outdir / "plots" / ".index.json").is_file()
    if manifest.old.get("report") == everything and path.is_file() and pngs_there and not pages.rebuilt:
        outcome.outputs["report"] = str(path)
    else:
        outcome.outputs["report"] = str(write_report(outdir, outcome, config, jobs=jobs))
        manifest.rebuilt.append("report")
    manifest.new["report"] = everything


def _write_skipped(outdir: Path, outcome: RunOutcome) -> None:
    skipped = "\n".join(outcome.corpus.skipped) + ("\n" if outcome.corpus.skipped else "")
    path = outdir / "skipped.txt"
    if not path.is_file() or path.read_text(encoding="utf-8") != skipped:
        write_text_atomic(path, skipped)


def workbook_digest(results: list[dict[str, Any]], config: RunConfig, scheme_digest: str) -> str:
    """What a text's review workbook depends on: its tasks' keys (inputs' content and scoring
    settings), the files' paths, every setting the workbook shows, the scheme and the version."""
    from segagree.outputs.review_workbook import workbook_settings

    settings = workbook_settings(config)
    pairs = [[r.get("key"), r["annotator_a"], r["annotator_b"], r["file_a"], r["file_b"]] for r in results]
    return _digest([version(), settings, scheme_digest, pairs])


class WorkbookWriter:
    """The scheduler's text hook (:data:`segagree.corpus.scheduler.TextHook`): in the worker that
    scored a single-pair text, with its operation rows at hand, writes the text's review workbook
    (unless the manifest of the earlier run says the workbook there is current: a reviewer may have
    filled it in) and, for the report, its page's review part (:func:`~segagree.outputs.review_page.
    write_review_part`). Returns ``{"workbook": digest}`` when it wrote a workbook."""

    def __init__(self, outdir: Path, config: RunConfig, *, workbooks: bool = True, parts: bool = False) -> None:
        self.outdir = outdir
        self.config = config
        self.workbooks, self.parts = workbooks, parts
        self.scheme_digest = config.load_scheme().digest
        self._current: dict[str, str] | None = None

    @property
    def current(self) -> dict[str, str]:
        """The earlier run's workbook digests (its manifest's), read once per process."""
        if self._current is None:
            self._current = _earlier_workbooks(self.outdir / MANIFEST)
        return self._current

    def __getstate__(self) -> dict[str, Any]:
        # Sent to the workers with every batch of tasks: without the earlier run's digests (one
        # per text; the worker reads them once), so a batch costs the same at any corpus size.
        return {**self.__dict__, "_current": None}

    def __call__(self, result: dict[str, Any]) -> dict[str, str]:
        with output_plan(self.outdir):  # in a worker: nothing written outside the run's folder
            return self._write(result)

    def _write(self, result: dict[str, Any]) -> dict[str, str]:
        from segagree.outputs.review_page import review_part_path, write_review_part
        from segagree.outputs.review_workbook import write_review_workbook
        from segagree.outputs.text_pages import PAGES_DIR

        if self.parts and not review_part_path(self.outdir / PAGES_DIR, result["key"], self.config).is_file():
            write_review_part(result, self.config, self.outdir / PAGES_DIR)
        if not self.workbooks:
            return {}
        text = result["text"]
        path = self.outdir / "review" / f"{text}.xlsx"
        digest = workbook_digest([result], self.config, self.scheme_digest)
        if self.current.get(text) == digest and path.is_file():
            return {}
        if self.config.cues:
            from segagree.corpus.acoustic_cues import attach_cues

            result = dict(result, operation_rows=[dict(op) for op in result["operation_rows"]])
            attach_cues([result], self.config, output_dir=self.outdir)
        write_review_workbook(path, [result], self.config)
        return {"workbook": digest}


_EARLIER: dict[Path, tuple[tuple[int, int], dict[str, str]]] = {}


def _earlier_workbooks(path: Path) -> dict[str, str]:
    """The workbook digests of the manifest at ``path`` ({} without one), cached per process while
    the file stays the same (a worker serves many batches of one run)."""
    try:
        stat = path.stat()
    except OSError:
        return {}
    key = (stat.st_mtime_ns, stat.st_size)
    cached = _EARLIER.get(path)
    if cached is None or cached[0] != key:
        cached = (key, dict(_load_manifest(path).get("workbooks") or {}))
        _EARLIER[path] = cached
    return cached[1]


def worker_outputs(outdir: Path, config: RunConfig, workbooks: bool, report: bool = False) -> WorkbookWriter | None:
    """The text hook to give :func:`~segagree.corpus.scheduler.score_corpus` when the run writes
    ``workbooks`` or report pages with review parts (call it after :func:`forget_outputs`), else None."""
    parts = report and config.review_pages
    return WorkbookWriter(outdir, config, workbooks=workbooks, parts=parts) if workbooks or parts else None


def _write_workbooks(outdir: Path, outcome: RunOutcome, config: RunConfig, jobs: int, manifest: _Manifest) -> list[str]:
    scheme_digest = config.load_scheme().digest
    old = manifest.old.get("workbooks") or {}
    lights = outcome.pairs
    written = []
    todo = []
    for text, indexes in texts_of(outcome).items():
        path = outdir / "review" / f"{text}.xlsx"
        digest = workbook_digest([lights[i] for i in indexes], config, scheme_digest)
        by_worker = len(indexes) == 1 and (lights[indexes[0]].get("written") or {}).get("workbook") == digest
        if by_worker and path.is_file():  # written by the worker that scored the pair, this run
            manifest.new["workbooks"][text] = digest
            manifest.rebuilt.append(f"review/{path.name}")
        elif old.get(text) != digest or not path.is_file():
            todo.append((text, path, indexes, digest))
        else:
            manifest.new["workbooks"][text] = digest
        written.append(str(path))

    def inputs() -> Iterator[tuple[Path, list[dict[str, Any]]]]:  # read from the log one text at a time
        for _, path, indexes, _ in todo:
            yield path, [outcome.results[i] for i in indexes]

    jobs = min(jobs, len(todo)) if len(todo) >= MIN_PARALLEL_WORKBOOKS else 1
    if jobs > 1:
        from joblib import Parallel, delayed

        done: Iterator[Path] = Parallel(n_jobs=jobs, backend="loky", return_as="generator")(
            delayed(build_workbook)(path, results, config, outdir) for path, results in inputs()
        )
    else:
        done = (build_workbook(path, results, config, outdir) for path, results in inputs())
    for (text, _, _, digest), path in zip(todo, done, strict=True):
        manifest.new["workbooks"][text] = digest
        manifest.rebuilt.append(f"review/{Path(path).name}")
    return written


def build_workbook(path: Path, results: list[dict[str, Any]], config: RunConfig, outdir: Path | None = None) -> Path:
    """Write one text's review workbook; results read from the log get their operation rows back
    by scoring the pair again without kappa (see :mod:`segagree.corpus.results_log`). With
    ``outdir``, the workbook must lie inside it (links followed; in a worker too)."""
    from segagree.corpus.tasks import with_operation_rows
    from segagree.outputs.review_workbook import write_review_workbook

    results = with_operation_rows(results, config)
    with output_plan(outdir):
        if config.cues:
            from segagree.corpus.acoustic_cues import attach_cues

            attach_cues(results, config, output_dir=path.parent.parent)  # the run's folder: review/TEXT.xlsx
        return write_review_workbook(path, results, config)


__all__ = [
    "MANIFEST",
    "MIN_PARALLEL_TASKS",
    "NOT_LOGGED",
    "RESULTS_LOG",
    "RunOutcome",
    "WorkbookWriter",
    "build_workbook",
    "forget_outputs",
    "load_results_log",
    "log_record",
    "plan_tasks",
    "run_corpus",
    "usable_cpus",
    "workbook_digest",
    "worker_outputs",
    "write_outputs",
]
