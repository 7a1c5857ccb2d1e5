"""``segagree agree --time FILES...``: time-based unitizing agreement (the options and the printing;
the work is :func:`segagree.api.agree_time`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from segagree.cli.common import AT_LEAST_ONE, Reading, fmt_score, new_table, print_json, stdout

F = Callable[..., Any]

TIME_HELP = (
    "Time-based unitizing agreement: FILES are one timed file per annotator (annotator = file stem), one file with "
    "--annotator-tier, or a units table (annotator,start,end,category)."
)
RUN_TIME_HELP = (
    "Time-based unitizing agreement per text and pooled over texts: each TEXT.ANNOTATOR.EXT is one annotator's "
    "timed file (ELAN, Praat, SRT, units table ...); --measure and the measures' parameters as in agree --time."
)
CATEGORY_MODES = ("label", "endnote", "none")
SAMPLERS = ("statistical", "shuffle")


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
            "--annotators", metavar="A,B,C", help="With --time: the annotators' order (names with no units count)."
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
            help="With --time: a measure of the time group (repeat; default all, see segagree metrics).",
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
            "--min-overlap", type=click.FloatRange(0, 1), metavar="FRACTION", help="ELAN's kappa: the minimal overlap."
        ),
        click.option(
            "--resolution", metavar="SECONDS|auto", help="alpha-U, uα: seconds per position (default auto: 1 or 0.001)."
        ),
    ]


def _apply(f: F, options: list[Callable[[F], F]]) -> F:
    for option in reversed(options):
        f = option(f)
    return f


def time_options(f: F) -> F:
    """The options of ``agree --time`` (measure parameters are passed to the measures that take them)."""
    flag = click.option("--time", "time_mode", is_flag=True, help=TIME_HELP)
    return _apply(f, [flag, *_input_options(), *_scoring_options()])


def corpus_time_options(f: F) -> F:
    """The options of ``run --time``: the category, the measures and their parameters."""
    flag = click.option("--time", "time_mode", is_flag=True, help=RUN_TIME_HELP)
    return _apply(f, [flag, *_scoring_options()])


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
    }


def _reading(opts: dict[str, Any], reading: Reading, scheme: str | None, layer: str | None) -> dict[str, Any]:
    """read_time_units's keywords from the options."""
    return {
        "annotators": [a.strip() for a in opts["annotators"].split(",")] if opts["annotators"] else None,
        "annotator_tiers": list(opts["annotator_tiers"]) or None,
        "continuum": _pair(opts["continuum"], "--continuum"),
        "category": opts["category"].lower(),
        "format": reading.format,
        "scheme": scheme,
        "layer": layer,
        **reading.options,
    }


def run_time(
    files: list[Path], opts: dict[str, Any], reading: Reading, scheme: str | None, layer: str | None, json_out: bool
) -> None:
    """Read, score and print (called by ``agree`` with ``--time``)."""
    import segagree.api as api

    measures = list(opts["measures"]) or None
    result = api.agree_time(
        files, measures=measures, params=measure_params(opts), **_reading(opts, reading, scheme, layer)
    )
    if json_out:
        print_json(result)
    else:
        print_time(result)


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
) -> None:
    """Write the review workbook of the best alignment (called by ``review`` with ``--time``)."""
    import segagree.api as api
    from segagree.cli.common import say
    from segagree.errors import UsageError

    if len(opts["measures"]) > 1:
        raise UsageError("review --time takes one --measure (the one whose best alignment is reviewed)")
    measure = opts["measures"][0] if opts["measures"] else None
    reading_kw = _reading(opts, reading, scheme, None)
    page = output.suffix.lower() in (".html", ".htm")
    out = api.review_time(
        files, output, measure=measure, params=measure_params(opts), plot=plot, media=media, margin=margin, **reading_kw
    )
    kinds = ", ".join(f"{k} {n}" for k, n in out["kinds"].items())
    say(f"wrote {out['path']}: {out['groups']} aligned groups of {out['measure']} ({kinds})")
    for path in out["plots"]:
        say(f"wrote {path}: the units and their alignment")
    if page:
        say(api.review_page_media(out["path"]))


def _cell(value: Any) -> str:
    if isinstance(value, dict):
        inner = value.get("value")
        return "-" if inner is None or isinstance(inner, dict) else fmt_score(inner)
    return fmt_score(value)


def print_time(result: dict[str, Any]) -> None:
    """One table: a row per measure, a column per speaker and the pooled value."""
    out = stdout()
    speakers = [s for s in result["speakers"] if s != "ALL"] if len(result["speakers"]) > 1 else []
    span = result["continuum"]
    table = new_table()
    for col in ("measure", *speakers, "ALL", "note"):
        table.add_column(col, justify="left" if col in ("measure", "note") else "right", overflow="fold")
    for name, res in result["measures"].items():
        pooled = res["pooled"]
        per = res.get("speakers", {})
        note = pooled.get("reason") or pooled.get("not_applicable") or ""
        per_value = pooled.get("ku_alpha_values") or {}
        if isinstance(pooled.get("value"), dict):  # one value per category
            per_value = {k: {"alpha": v} for k, v in pooled["value"].items()}
        if per_value:
            note = ", ".join(f"{k} {_cell({'value': v.get('alpha')})}" for k, v in per_value.items())
        table.add_row(name, *(_cell(per.get(s)) for s in speakers), _cell(pooled), note)
    units = ", ".join(f"{a} {n}" for a, n in result["units"].items())
    out.print(f"units per annotator: {units}; continuum [{span[0]:g}, {span[1]:g}] s; category: {result['category']}")
    out.print(table)
    for note in result["notes"]:
        out.print(f"note: {note}")
    out.print("Per-category and per-pair detail: --json")
