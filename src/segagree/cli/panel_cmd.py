"""``segagree panel CORPUS --machine NAME``: is the segmenter as good as a person?"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from segagree.cli.common import (
    Reading,
    check_writable,
    csv_guard_option,
    done,
    examples,
    fmt_score,
    json_option,
    print_json,
    quiet_option,
    reading_options,
    say,
    seed_option,
    show,
)
from segagree.cli.tables import ScoreTable

_EPILOG = """Reading the numbers: a machine's change is read against the changes that each held-out
human causes (the human range), never only against 0; its consistency rank among the humans
says how close it is to them; the chance level says where a panel of random segmentations
with each annotator's own boundary counts lies. B with multi-pi is the default: S's chance
level is high (about 0.78 under permutation), so pi with S rises when a segmenter with no
boundaries joins; see the docs' panel page."""


def _interval(ci: dict[str, Any] | None) -> str:
    if not ci or ci.get("low") is None:
        return "none" if ci else ""
    return f"[{ci['low']:+.3f}, {ci['high']:+.3f}]"


@click.command(
    epilog=_EPILOG
    + "\n\n"
    + examples(
        "segagree panel corpus/ --machine seg",
        "segagree panel corpus/ --machine seg --machine baseline --measure s --json",
        "segagree panel --dataset stargazer.json --machine 7 -o panel_out",
        "segagree panel t1.ann1.txt t1.ann2.txt t1.ann3.txt t1.seg.txt --machine seg",
    )
)
@click.argument("sources", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--machine", "machines", multiple=True, metavar="NAME", help="An annotator judged as a segmenter (repeat)."
)
@click.option(
    "--reference",
    "references",
    multiple=True,
    metavar="NAME",
    help="A reference machine (repeat), such as the pause baseline (segagree baseline): judged too, and every "
    "other machine's verdict says whether it is above or below it.",
)
@click.option("--humans", metavar="NAMES", help="The human annotators, a comma list (default: everyone not a machine).")
@click.option(
    "--dataset",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A segeval JSON dataset (items x coders, masses) instead of annotation files.",
)
@click.option(
    "--measure",
    metavar="NAME",
    help="The agreement of two segmentations: b (Boundary Similarity, the default), s (Segmentation "
    "Similarity), sf or sf_b (S_f, S_f^B: boundary types count, as the scheme says); not with --time "
    "(the panel's coefficient is then gamma).",
)
@click.option(
    "--coefficient",
    type=click.Choice(["pi", "kappa"], case_sensitive=False),
    help="Fleiss' multi-pi (one pooled chance distribution; the default) or multi-kappa (each annotator's own); "
    "not with --time (gamma is its own multi-annotator coefficient).",
)
@click.option(
    "--time",
    "time_mode",
    is_flag=True,
    help="Annotators who drew their own units in time (ELAN, Praat, tables): the panel's coefficient is gamma.",
)
@click.option(
    "--category",
    type=click.Choice(["label", "endnote", "none"], case_sensitive=False),
    help="With --time: what a unit's category is (default label), as agree --time.",
)
@click.option("--n-boot", type=click.IntRange(1), default=1000, show_default=True, help="Bootstrap resamples.")
@click.option("--n-perm", type=click.IntRange(1), default=200, show_default=True, help="Random panels for chance.")
@seed_option("Seed of the bootstrap and of the random panels.")
@click.option("--layer", metavar="NAME", help="Layer to compare (default iu).")
@click.option(
    "-o", "--output", type=click.Path(file_okay=False, path_type=Path), help="Write panel.csv/json/html here."
)
@reading_options
@json_option()
@quiet_option
@csv_guard_option
def panel(
    sources: tuple[Path, ...],
    machines: tuple[str, ...],
    references: tuple[str, ...],
    humans: str | None,
    dataset: Path | None,
    measure: str | None,
    coefficient: str | None,
    time_mode: bool,
    category: str | None,
    n_boot: int,
    n_perm: int,
    seed: int,
    layer: str | None,
    output: Path | None,
    reading: Reading,
    json_out: bool,
    quiet: bool,
) -> None:
    """Judge a segmenter against a panel of human annotators.

    SOURCES: a corpus folder in run's layout (TEXT.ANNOTATOR.EXT, or a folder per annotator),
    or the files of one text. Every annotator not named by --machine is a human (or name them
    with --humans). For each machine: agreement of the humans with and without it, with it in
    each human's place, its consistency rank among the humans, the chance level, intervals,
    and a verdict.
    """
    from segagree.api import panel as run_panel  # the API function (loaded on first use)

    if not machines and not references:
        raise click.UsageError("name the segmenter(s) to judge with --machine NAME")
    if dataset is not None and sources:
        raise click.UsageError("give either annotation files (or a corpus folder) or --dataset, not both")
    if dataset is None and not sources:
        raise click.UsageError("give a corpus folder, the files of one text, or --dataset")
    if dataset is not None and (reading.format or reading.options or layer):
        raise click.UsageError("reading options (--from, --encoding, --tier, --layer ...) do not apply to --dataset")
    if time_mode:
        if measure is not None or coefficient is not None or dataset is not None:
            raise click.UsageError("with --time the panel's coefficient is gamma: --measure b/s, --coefficient and "
                                   "--dataset do not apply")  # fmt: skip
        n_perm_given = click.get_current_context().get_parameter_source("n_perm")
        if n_perm_given is not None and n_perm_given.name == "COMMANDLINE":
            raise click.UsageError("--n-perm does not apply with --time: gamma is chance-corrected by its own samples")
    elif category is not None:
        raise click.UsageError("--category is about units in time: add --time")
    if output is not None:
        check_writable(output, folder=True)
    source: Path | list[Path] | None = None
    if sources:
        source = sources[0] if len(sources) == 1 and sources[0].is_dir() else list(sources)
    result = run_panel(
        source,
        list(machines),
        humans=[h.strip() for h in humans.split(",") if h.strip()] if humans else None,
        dataset=dataset,
        measure=(measure or "b").lower(),
        coefficient=(coefficient or "pi").lower(),
        time=time_mode,
        category=(category or "label").lower(),
        n_boot=n_boot,
        n_perm=n_perm,
        seed=seed,
        layer=layer,
        format=reading.format,
        read_options=reading.options,
        out=output,
        reference=list(references),
    )
    for path in (result.get("outputs") or {}).values():
        done(f"wrote {path}")
    if json_out:
        print_json(result)
        return
    _print(result)


def _human_range(rank: dict[str, Any]) -> str:
    """The humans' range of what the machine is ranked by."""
    if rank["by"] == "change":
        return f"{rank['low']:+.3f} to {rank['high']:+.3f}"
    if rank["low"] == rank["high"]:
        return f"consistency {rank['low']:.3f}"
    return f"consistency {rank['low']:.3f} to {rank['high']:.3f}"


def _print(result: dict[str, Any]) -> None:
    coef = result["coefficient"]
    if result["measure"] != coef:
        coef = f"{coef} ({result['measure'].upper()})"
    head = ["machine", f"humans {coef}", "with machine", "change", "interval", "human range", "rank", "chance"]
    table = ScoreTable(head, title=f"panel: {', '.join(result['humans'])} and each machine")
    for name, r in result["results"].items():
        rank = r["rank"]
        table.add_row(
            name,
            fmt_score(r["added"]["humans"]),
            fmt_score(r["added"]["with_machine"]),
            f"{r['added']['change']:+.3f}" if r["added"]["change"] is not None else "-",
            _interval(r["added"].get("interval")),
            _human_range(rank),
            f"{rank['rank']} of {rank['of']} by {rank['by']}",
            fmt_score(r["chance"].get("mean")),
        )
    table.print()
    for name, r in result["results"].items():
        show(f"{name}: {r['verdict']}")
    reasons = {str((r["added"].get("interval") or {}).get("reason") or "") for r in result["results"].values()}
    for reason in sorted(reasons - {""}):
        say(f"note: no interval: {reason}")
    for note in result.get("notes") or []:
        say(f"note: {note}")
