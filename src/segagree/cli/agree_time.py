"""``segagree agree --time FILES...``: time-based unitizing agreement (the options and the printing;
the work is :func:`segagree.api.agree_time`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from segagree.cli.common import AT_LEAST_ONE, Reading, fmt_score, print_json, split_names, stdout
from segagree.scoring.time.categories import CATEGORY_MODES

F = Callable[..., Any]

TIME_HELP = (
    "Time-based unitizing agreement: FILES are one timed file per annotator (annotator = file stem), one file with "
    "--annotator-tier, or a units table (annotator,start,end,category)."
)
RUN_TIME_HELP = (
    "Time-based unitizing agreement per text and pooled over texts: each TEXT.ANNOTATOR.EXT is one annotator's "
    "timed file (ELAN, Praat, SRT, units table ...); --measure and the measures' parameters as in agree --time."
)
SAMPLERS = ("statistical", "shuffle")


def _plan_options() -> list[Callable[[F], F]]:
    """How the files are read (the annotation plan): ``agree --time``, ``review --time`` and ``run --time``."""
    return [
        click.option(
            "--annotators", metavar="A,B,C", help="With --time: the annotators' order (names with no units count)."
        ),
        click.option(
            "--missing-as-empty",
            is_flag=True,
            help="With --time: score a tier only some annotators' files have (the others: no units there); "
            "default: list it and leave it out of every score.",
        ),
        click.option(
            "--time-unit",
            type=click.Choice(("s", "ms", "index")),
            default="s",
            show_default=True,
            help="With --time: the unit of a units table's start and end (index: integer positions such as "
            "character offsets, no unit and no limit).",
        ),
        click.option(
            "--text-column",
            metavar="NAME",
            help="With --time: a units table's recording column (default media_file, file or recording); "
            "each recording is a text on its own continuum.",
        ),
        click.option(
            "--window",
            metavar="START,END",
            help="With --time: score only the units within START,END seconds (units crossing an edge are "
            "clipped to it; the window is the continuum), e.g. one sampled stretch of a day-long recording.",
        ),
        click.option(
            "--untimed",
            type=click.Choice(("skip", "refuse")),
            default="skip",
            show_default=True,
            help="With --time: CHAT utterances without a time bullet are skipped and listed, or refused.",
        ),
        click.option(
            "--memory-budget",
            metavar="MB",
            type=click.IntRange(min=1),
            help="With --time: gamma's alignment refuses inputs whose estimate exceeds this (default: the "
            "memory available).",
        ),
    ]


def _input_options() -> list[Callable[[F], F]]:
    """How ``agree --time`` finds the annotators and the continuum in its files."""
    return [
        click.option(
            "--annotator-tier",
            "annotator_tiers",
            multiple=True,
            metavar="NAME",
            help="With --time: a tier of the one file that is an annotator (repeat for each).",
        ),
        click.option(
            "--annotator",
            "annotator_files",
            multiple=True,
            metavar="NAME=FILE",
            help="With --time: FILE is annotator NAME (repeat; default: the file stem, or its folder when "
            "stems collide); FILE need not be repeated among FILES.",
        ),
        click.option(
            "--continuum",
            metavar="START,END",
            help="With --time: the stretch in seconds (default [min(0, first), last]).",
        ),
    ]


def _scoring_options() -> list[Callable[[F], F]]:
    """The category and the measures with their parameters (``agree --time`` and ``run --time``)."""
    positive = click.FloatRange(min=0, min_open=True)
    return [
        click.option(
            "--category",
            type=click.Choice(CATEGORY_MODES, case_sensitive=False),
            default="label",
            show_default=True,
            help="With --time: a unit's category is its label, its endnote (boundary type) or none.",
        ),
        click.option(
            "--measure",
            "measures",
            multiple=True,
            metavar="NAME",
            callback=split_names,
            help="With --time: a measure of the time group (repeat or give a comma list; default all, see "
            "segagree metrics).",
        ),
        click.option("--alpha", type=float, metavar="X", help="gamma: weight of the positional dissimilarity."),
        click.option("--beta", type=float, metavar="X", help="gamma: weight of the categorical dissimilarity."),
        click.option("--delta-empty", type=positive, metavar="X", help="gamma: the cost of an unmatched unit."),
        click.option(
            "--samples", type=AT_LEAST_ONE, metavar="K", help="gamma: sampled continua for the chance disorder."
        ),
        click.option(
            "--sampler", type=click.Choice(SAMPLERS, case_sensitive=False), help="gamma: how continua are sampled."
        ),
        click.option(
            "--gamma-cat-variant",
            type=click.Choice(("mathet", "pygamma"), case_sensitive=False),
            help="gamma-cat: Mathet 2018's definition or pygamma-agreement's.",
        ),
        click.option(
            "--tolerance", type=click.FloatRange(min=0), metavar="SECONDS", help="Boundary F1: the time tolerance."
        ),
        click.option(
            "--matching",
            type=click.Choice(("optimal", "greedy"), case_sensitive=False),
            help="Boundary F1: the most boundary pairs within the tolerance (optimal, default) or "
            "pyannote.metrics' closest-first greedy matching.",
        ),
        click.option(
            "--min-overlap", type=click.FloatRange(0, 1), metavar="FRACTION", help="ELAN's kappa: the minimal overlap."
        ),
        click.option(
            "--resolution", metavar="SECONDS|auto", help="alpha-U, uα: seconds per position (default auto: 1 or 0.001)."
        ),
        click.option(
            "--collar",
            type=click.FloatRange(min=0),
            metavar="SECONDS",
            help="DER, JER: the collar's total width around each reference boundary, as pyannote.metrics "
            "(dscore's and md-eval's --collar C is --collar 2C here).",
        ),
        click.option(
            "--skip-overlap", is_flag=True, default=None, help="DER, JER: leave out the reference's overlapped speech."
        ),
        click.option(
            "--uem",
            type=click.Path(exists=True, dir_okay=False),
            help="DER, JER: a NIST UEM file (FILE CHANNEL ONSET OFFSET lines): only its regions are scored.",
        ),
        click.option(
            "--convention",
            type=click.Choice(("pyannote", "dscore"), case_sensitive=False),
            help="DER, JER: pyannote.metrics' figures (default) or dscore's (md-eval's speaker mapping, merged "
            "turns; JER on 10 ms frames without collar).",
        ),
    ]


def _apply(f: F, options: list[Callable[[F], F]]) -> F:
    for option in reversed(options):
        f = option(f)
    return f


def time_options(f: F) -> F:
    """The options of ``agree --time`` (measure parameters are passed to the measures that take them)."""
    flag = click.option("--time", "time_mode", is_flag=True, help=TIME_HELP)
    plan = click.option("--plan", "plan_only", is_flag=True, help="With --time: print the annotation plan, no scores.")
    return _apply(f, [flag, plan, *_input_options(), *_plan_options(), *_scoring_options()])


def corpus_time_options(f: F) -> F:
    """The options of ``run --time``: the category, the measures and their parameters."""
    flag = click.option("--time", "time_mode", is_flag=True, help=RUN_TIME_HELP)
    return _apply(f, [flag, *_plan_options(), *_scoring_options()])


def _pair(text: str | None, what: str) -> tuple[float, float] | None:
    from segagree.errors import UsageError

    if not text:
        return None
    parts = text.split(",")
    try:
        a, b = (float(p) for p in parts)
    except ValueError:
        raise UsageError(f"{what} takes START,END in seconds, not {text!r}") from None
    return a, b


def given_seed(seed: int) -> int | None:
    """``--seed`` when the user gave it, else None (the time measures' own default seed)."""
    ctx = click.get_current_context(silent=True)
    source = ctx.get_parameter_source("seed") if ctx is not None else None
    return None if source is click.core.ParameterSource.DEFAULT else seed


def measure_params(opts: dict[str, Any]) -> dict[str, Any]:
    """The measures' parameters from the options (None: the measure's default)."""
    return {
        "alpha": opts["alpha"],
        "beta": opts["beta"],
        "delta_empty": opts["delta_empty"],
        "samples": opts["samples"],
        "seed": opts["seed"],
        "sampler": opts["sampler"] and opts["sampler"].lower(),
        "jobs": opts["jobs"],
        "tolerance": opts["tolerance"],
        "min_overlap": opts["min_overlap"],
        "resolution": opts["resolution"],
        "gamma_cat_variant": opts["gamma_cat_variant"] and opts["gamma_cat_variant"].lower(),
        "matching": opts.get("matching") and opts["matching"].lower(),
        "memory_budget_mb": opts.get("memory_budget"),
        "collar": opts.get("collar"),
        "skip_overlap": opts.get("skip_overlap"),
        "convention": opts.get("convention") and opts["convention"].lower(),
        "uem": opts.get("uem"),
    }


def plan_reading(opts: dict[str, Any]) -> dict[str, Any]:
    """The annotation plan's keywords (``agree``, ``review`` and ``run`` with ``--time``)."""
    return {
        "annotators": [a.strip() for a in opts["annotators"].split(",")] if opts.get("annotators") else None,
        "missing_as_empty": bool(opts.get("missing_as_empty")),
        "time_unit": opts.get("time_unit") or "s",
        "text_column": opts.get("text_column"),
        "speaker_map": opts.get("speaker_map"),
        "window": _pair(opts.get("window"), "--window"),
        "untimed": opts.get("untimed") or "skip",
    }


def _named_files(opts: dict[str, Any]) -> dict[str, str] | None:
    """``--annotator NAME=FILE`` as ``{NAME: FILE}`` (None when not given)."""
    from segagree.errors import UsageError

    given = opts.get("annotator_files") or ()
    if not given:
        return None
    if opts.get("annotators"):
        raise UsageError("give either --annotators (the order) or --annotator NAME=FILE (each file's name), not both")
    named: dict[str, str] = {}
    for item in given:
        name, sep, file = item.partition("=")
        if not sep or not name.strip() or not file.strip():
            raise UsageError(f"--annotator takes NAME=FILE, not {item!r}")
        if name.strip() in named:
            raise UsageError(f"--annotator gives the name {name.strip()!r} twice")
        if not Path(file.strip()).is_file():
            raise UsageError(f"--annotator {item!r}: no such file {file.strip()!r}")
        named[name.strip()] = file.strip()
    return named


def _reading(opts: dict[str, Any], reading: Reading, scheme: str | None, layer: str | None) -> dict[str, Any]:
    """read_time_units's keywords from the options."""
    named = _named_files(opts)
    return {
        **plan_reading(opts),
        **({"annotators": named} if named else {}),
        "annotator_tiers": list(opts["annotator_tiers"]) or None,
        "continuum": _pair(opts["continuum"], "--continuum"),
        "category": opts["category"].lower(),
        "format": reading.format,
        "scheme": scheme,
        "layer": layer,
        **reading.options,
    }


def run_time(
    files: list[Path],
    opts: dict[str, Any],
    reading: Reading,
    scheme: str | None,
    layer: str | None,
    json_out: bool,
    *,
    jobs: int = 1,
) -> None:
    """Read, score and print (called by ``agree`` with ``--time``; ``jobs``: worker processes)."""
    import segagree.api as api

    measures = list(opts["measures"]) or None
    if opts.get("plan_only"):
        show_plan(files, opts, reading, scheme, layer, json_out)
        return
    result = api.agree_time(
        files, measures=measures, params=measure_params(opts), jobs=jobs, **_reading(opts, reading, scheme, layer)
    )
    if json_out:
        print_json(result)
    else:
        print_time(result)


def show_plan(
    files: list[Path], opts: dict[str, Any], reading: Reading, scheme: str | None, layer: str | None, json_out: bool
) -> None:
    """``--plan``: print the annotation plan, no scores."""
    import segagree.api as api

    plan = api.time_plan(files, **_reading(opts, reading, scheme, layer))
    if json_out:
        print_json({"plan": plan})
    else:
        print_plan(plan)


def run_time_review(
    files: list[Path],
    output: Path,
    opts: dict[str, Any],
    reading: Reading,
    scheme: str | None,
    plot: Path | None,
    *,
    media: Path | None = None,
    margin: float = 1.0,
    cues: bool | None = None,
    cue_settings: Any = None,
) -> dict[str, Any] | None:
    """Write the review workbook of the best alignment (called by ``review`` with ``--time``); what
    was written (None for ``--plan``), said on stderr unless ``--quiet``."""
    import segagree.api as api
    from segagree.cli.common import done, say
    from segagree.errors import UsageError

    if opts.get("plan_only"):
        show_plan(files, opts, reading, scheme, None, False)
        return None
    if len(opts["measures"]) > 1:
        raise UsageError("review --time takes one --measure (the one whose best alignment is reviewed)")
    measure = opts["measures"][0] if opts["measures"] else None
    reading_kw = _reading(opts, reading, scheme, None)
    page = output.suffix.lower() in (".html", ".htm")
    out = api.review_time(
        files, output, measure=measure, params=measure_params(opts), plot=plot, media=media, margin=margin,
        cues=cues, cue_settings=cue_settings, **reading_kw,
    )  # fmt: skip
    kinds = ", ".join(f"{k} {n}" for k, n in out["kinds"].items())
    done(f"wrote {out['path']}: {out['groups']} aligned groups of {out['measure']} ({kinds})")
    for path in out["plots"]:
        done(f"wrote {path}: the units and their alignment")
    for note in out.get("notes", []):
        say(f"note: {note}")
    if page:
        done(api.review_page_media(out["path"]))
    if out.get("cues"):
        say(out["cues"])
    return dict(out)


def literal(text: Any) -> Any:
    """A rich Text printed as written: no markup, no emoji codes (``B:FG:``), control characters
    shown as escapes."""
    from rich.text import Text

    raw = str(text)
    shown = "".join(ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode() for ch in raw)
    return Text(shown)


def _cell(value: Any) -> str:
    if isinstance(value, dict):
        inner = value.get("value")
        return "-" if inner is None or isinstance(inner, dict) else fmt_score(inner)
    return fmt_score(value)


def _per_category(pooled: dict[str, Any]) -> dict[str, tuple[Any, str]]:
    """category -> (value, reason when undefined) of a measure with one value per category."""
    out: dict[str, tuple[Any, str]] = {}
    reasons = pooled.get("reasons") or {}
    for k, v in (pooled.get("ku_alpha_values") or {}).items():
        out[k] = (v.get("alpha"), v.get("reason") or "undefined")
    if isinstance(pooled.get("value"), dict):
        for k, v in pooled["value"].items():
            out[k] = (v, reasons.get(k) or "undefined")
    return out


def _note(pooled: dict[str, Any]) -> str:
    per = _per_category(pooled)
    if per:
        return ", ".join(f"{k} {fmt_score(v)}" + ("" if v is not None else f" ({why})") for k, (v, why) in per.items())
    if pooled.get("value") is None:
        return str(pooled.get("reason") or pooled.get("not_applicable") or "undefined")
    return str(pooled.get("reason") or pooled.get("note") or pooled.get("signature") or "")


def print_plan(plan: dict[str, Any]) -> None:
    """The annotation plan, line by line, printed as written."""
    from segagree.scoring.time.plan import plan_lines

    out = stdout()
    for line in plan_lines(plan):
        out.print(literal(line))


def print_time(result: dict[str, Any]) -> None:
    """The plan, then one table: a row per measure, a column per speaker and the pooled value."""
    from segagree.cli.tables import MatrixRow, print_matrix

    out = stdout()
    if result.get("plan"):
        print_plan(result["plan"])
    speakers = [s for s in result["speakers"] if s != "ALL"] if len(result["speakers"]) > 1 else []
    span = result["continuum"]
    rows = [
        MatrixRow(
            name,
            {s: _cell(res.get("speakers", {}).get(s)) for s in speakers},
            _cell(res["pooled"]),
            _note(res["pooled"]),
        )
        for name, res in result["measures"].items()
    ]
    units = ", ".join(f"{a} {n}" for a, n in result["units"].items())
    # a table in ms is read in seconds; one of positions (--time-unit index) has no unit
    unit = " (positions)" if (result.get("plan") or {}).get("time_unit") == "index" else " s"
    head = f"units per annotator: {units}; continuum [{span[0]:g}, {span[1]:g}]{unit}; category: {result['category']}"
    out.print(literal(head))
    print_matrix("", "measure", "speaker", speakers, rows, note="note")
    for note in result["notes"]:
        out.print(literal(f"note: {note}"))
    out.print("Per-category and per-pair detail: --json")


def measure_parameter_options(f: F) -> F:
    """The time measures' category and parameters without ``--measure`` (``compare --metric`` chooses the
    measures), as keyword arguments of the command."""

    def probe() -> None: ...

    for option in _scoring_options():
        option(probe)
    for param in reversed(getattr(probe, "__click_params__", [])):  # click lists them bottom-up
        if param.name != "measures":
            param.help = (param.help or "").replace("With --time: ", "Time measures: ")
            f.__click_params__ = [*getattr(f, "__click_params__", []), param]  # type: ignore[attr-defined]
    return f
